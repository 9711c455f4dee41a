/*****************************************************************************

Copyright (c) 2026, the mysql-compress authors.

This program is free software; you can redistribute it and/or modify it under
the terms of the GNU General Public License, version 2.0, as published by the
Free Software Foundation.

This program is distributed in the hope that it will be useful, but WITHOUT
ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
FOR A PARTICULAR PURPOSE. See the GNU General Public License, version 2.0,
for more details.

*****************************************************************************/

/** @file bench/microbench/zip_stat_counter_bench.cc
 Multi-threaded micro-benchmark of the per-index compression counter update.

 Variants, each called through a non-inlinable function like the cross-file
 call in page0zip.cc:
 none      the loop only; the body of dict_zip_stat_add() in the overhead
           benchmark's baseline (bench/overhead/zip-stat-off.patch; the
           INNODB_ZIP_STAT_BENCH_OFF switch of patch 0013 before issue 31),
           i.e. an empty function.
 ours      dict_zip_stat_add(index_id_t): registry pointer (acquire load),
           dict_zip_stat_trackable(), ut_lock_free_hash_t::get(), relaxed
           fetch_add on the entry's counter. Since issue 13 only the
           decompression path (which knows a page's ids, not its index
           object) and the change buffer's dummy index take it.
 ours_index  dict_zip_stat_add(const dict_index_t *): the compression,
           split, reorganization and pad paths since issue 13: the
           estimator's thread-local trial flag, one relaxed load of
           index->zip_stat, relaxed fetch_add. The index objects stand in
           for dict_index_t (only the member read is modelled).
 upstream  page_zip_compress() with innodb_cmp_per_index_enabled=ON: one
           global mutex around std::map<index_id_t, page_zip_stat_t>,
           "if (!m[id].dropped) m[id].compressed++".
 *_single_index  the same with every thread on one index.

 Built against the real InnoDB headers (ut0lock_free_hash.h, ut0rnd.h,
 ut0crc32.h, dict0types.h, dict0zip_stat.h, page0types.h) with the defines and
 include paths of dict/dict0zip_stat.cc in the server's build.ninja, and linked
 with the real ut/ut0rnd.cc (tabulation hash table). So get() is InnoDB's own,
 including its per-CPU reference count (sched_getcpu()) and the CRC32 hash
 ut::hash_uint64() when the CPU has SSE4.2, as in the server.
 Copied from dict/dict0zip_stat.cc, which cannot be linked without the server:
 dict_zip_stat_t (as bench_zip_stat_t: dict0mem.h declares the real one),
 dict_zip_stat_trackable(), dict_zip_stat_lookup(),
 dict_zip_stat_add(); the registry keeps only m_map. Copied from
 fsp/fsp0fsp.cc: fsp_is_system_temporary() (out of line, as in the server).
 Server symbols that the hash's constructor, destructor and latch need at link
 time are minimal stubs at the end of this file; none is reached while
 measuring (see bench_unreachable()).

 The upstream latch is std::mutex, not ib_mutex_t: with MUTEX_EVENT (this
 build) ib_mutex_t is TTASEventMutex, which spins (innodb_spin_wait_rounds,
 ut_delay()) before it waits on a sync array cell; that needs the server's
 sync array and os_event. std::mutex (glibc: a futex, no spinning) is the
 stand-in.

 Created 2026-11-21 */

/* The server builds with -Wno-unused-parameter; its headers need it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

#include "univ.i"

#include <cpuid.h>
#include <x86intrin.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <latch>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "dict0dict.h"
#include "dict0types.h"
#include "dict0zip_stat.h"
#include "fsp0fsp.h"
#include "my_rdtsc.h"
#include "os0event.h"
#include "page0types.h"
#include "pfs_memory_provider.h"
#include "pfs_mutex_provider.h"
#include "sync0arr.h"
#include "sync0types.h"
#include "ut0crc32.h"
#include "ut0lock_free_hash.h"
#include "ut0mutex.h"
#include "ut0new.h"

#pragma GCC diagnostic pop

namespace {

/* ---- Copied from dict/dict0zip_stat.cc ---- */

/** Statistics of one index. Cache-line aligned so that two indexes being
compressed by different threads do not share a line. */
struct alignas(ut::INNODB_CACHE_LINE_SIZE) bench_zip_stat_t {
  /** The counters; updated with relaxed atomics, no latch. */
  std::atomic<uint64_t> m_counters[DICT_ZIP_STAT_N_COUNTERS];

  /** The fields below are protected by dict_zip_stat_sys_t::m_mutex. */

  /** Space and index id. */
  index_id_t m_id{0, 0};
  /** Table id; 0 while the entry is free. Atomic because
  dict_zip_stat_table_id() reads it without the mutex. */
  std::atomic<table_id_t> m_table_id{0};
  /** Dictionary name of the table when last seen in the cache. */
  std::string m_table_name;
  /** Index name. */
  std::string m_index_name;
  /** Whether the index is clustered. */
  bool m_clustered{false};
  /** Whether the table is an auxiliary table of a FULLTEXT index. */
  bool m_fts_aux{false};
  /** Physical page size. */
  uint32_t m_zip_size{0};
  /** Current adaptive padding in bytes, mirrored from
  dict_index_t::zip_pad.pad so that it can be read without the index. */
  std::atomic<uint64_t> m_pad{0};

  bench_zip_stat_t() { clear(); }

  /** Zero all counters. */
  void clear() {
    for (auto &c : m_counters) {
      c.store(0, std::memory_order_relaxed);
    }
  }
};

/** The registry; only the member that the update path reads. */
struct dict_zip_stat_sys_t {
  /** Lock-free lookup: index_id_t::conv_to_int() -> bench_zip_stat_t*. */
  ut_lock_free_hash_t *m_map;
};

/** The registry, nullptr before start-up and after shutdown. */
std::atomic<dict_zip_stat_sys_t *> dict_zip_stat_sys{nullptr};

/** Whether an index id can be a key of the lock-free hash.
@param[in]  id  space and index id
@return true if the id can be tracked */
bool dict_zip_stat_trackable(const index_id_t &id) {
  return id.m_index_id != 0 && id.m_space_id != 0 && !id.is_ibuf() &&
         !fsp_is_system_or_temp_tablespace(id.m_space_id) &&
         (id.m_index_id & 0xFFFFFFFF00000000ULL) == 0;
}

/** Look up an entry without any latch.
@param[in]  id  space and index id
@return entry or nullptr */
bench_zip_stat_t *dict_zip_stat_lookup(const index_id_t &id) {
  dict_zip_stat_sys_t *sys = dict_zip_stat_sys.load(std::memory_order_acquire);
  if (sys == nullptr || !dict_zip_stat_trackable(id)) {
    return nullptr;
  }
  const int64_t v = sys->m_map->get(id.conv_to_int());
  if (v == ut_lock_free_hash_t::NOT_FOUND) {
    return nullptr;
  }
  return reinterpret_cast<bench_zip_stat_t *>(static_cast<intptr_t>(v));
}

}  // namespace

/* Out of line, as in dict0zip_stat.cc; noipa also stops the compiler from
using what it knows of the body at the call site. */
[[gnu::noipa]] void dict_zip_stat_add(const index_id_t &id,
                                      dict_zip_stat_counter_t counter,
                                      uint64_t n) {
  bench_zip_stat_t *e = dict_zip_stat_lookup(id);

  if (e != nullptr) {
    e->m_counters[counter].fetch_add(n, std::memory_order_relaxed);
  }
}

/** Stand-in for dict_index_t: the member the update path reads. */
struct bench_index_t {
  std::atomic<bench_zip_stat_t *> zip_stat{nullptr};
};

/** dict_zip_trial of dict0zip_stat.cc (page_zip_est_trial of page0zip_est.cc
before issue 31): set while trial compressions run (the savings
estimator's, the tight split's), which are not counted. */
thread_local bool bench_est_trial = false;

/* As dict_zip_stat_add(const dict_index_t *, ...) in dict0zip_stat.cc. */
[[gnu::noipa]] void dict_zip_stat_add_index(const bench_index_t *index,
                                            dict_zip_stat_counter_t counter,
                                            uint64_t n) {
  if (bench_est_trial) {
    return;
  }
  bench_zip_stat_t *e = index->zip_stat.load(std::memory_order_relaxed);
  if (e != nullptr) {
    e->m_counters[counter].fetch_add(n, std::memory_order_relaxed);
  }
}

/* ---- Copied from fsp/fsp0fsp.cc ---- */

/** srv_tmp_space.space_id(): a member of a global object. */
space_id_t bench_tmp_space_id = dict_sys_t::s_temp_space_id;

bool fsp_is_global_temporary(space_id_t space_id) {
  return (space_id == bench_tmp_space_id);
}

bool fsp_is_session_temporary(space_id_t space_id) {
  return (space_id > dict_sys_t::s_min_temp_space_id &&
          space_id <= dict_sys_t::s_max_temp_space_id);
}

[[gnu::noipa]] bool fsp_is_system_temporary(space_id_t space_id) {
  return (fsp_is_global_temporary(space_id) ||
          fsp_is_session_temporary(space_id));
}

namespace {

/* ---- Upstream: page0zip.cc with innodb_cmp_per_index_enabled=ON ---- */

/** page_zip_stat_per_index_mutex (ib_mutex_t in the server). */
std::mutex upstream_mutex;

/** page_zip_stat_per_index, the type of page0types.h. */
page_zip_stat_per_index_t upstream_map;

}  // namespace

/** What page_zip_compress() does for each compressed page.
@param[in]  ind_id  space and index id */
[[gnu::noipa]] void upstream_add(const index_id_t &ind_id) {
  upstream_mutex.lock();
  if (!upstream_map[ind_id].dropped) {
    upstream_map[ind_id].compressed++;
  }
  upstream_mutex.unlock();
}

/** dict_zip_stat_add() as bench/overhead/zip-stat-off.patch leaves it. */
[[gnu::noipa]] void none_add(const index_id_t &id,
                             dict_zip_stat_counter_t counter, uint64_t n) {
  (void)id;
  (void)counter;
  (void)n;
}

namespace {

/** Number of distinct indexes in the multi-index variants. */
constexpr size_t N_INDEXES = 64;

/** Index ids: 4 indexes per file-per-table tablespace. */
std::vector<index_id_t> bench_ids;

/** Entries of "ours", one per index id. */
bench_zip_stat_t *bench_entries[N_INDEXES];

/** The index objects of "ours_index", pointing at the same entries. */
bench_index_t bench_indexes[N_INDEXES];

enum class variant_t { NONE, OURS, OURS_INDEX, UPSTREAM };

struct variant_desc_t {
  const char *name;
  variant_t kind;
  /** Mask applied to the random number: N_INDEXES - 1 or 0. */
  uint64_t mask;
};

const variant_desc_t variants[] = {
    {"none", variant_t::NONE, N_INDEXES - 1},
    {"ours", variant_t::OURS, N_INDEXES - 1},
    {"ours_index", variant_t::OURS_INDEX, N_INDEXES - 1},
    {"upstream", variant_t::UPSTREAM, N_INDEXES - 1},
    {"ours_single_index", variant_t::OURS, 0},
    {"ours_index_single_index", variant_t::OURS_INDEX, 0},
    {"upstream_single_index", variant_t::UPSTREAM, 0},
};

/** The loop of one thread: n updates of pseudo-random indexes.
@param[in]  add   update of one index
@param[in]  mask  index mask
@param[in]  n     number of updates
@param[in]  seed  xorshift64 seed, non-zero */
template <typename Add>
void bench_loop(Add add, uint64_t mask, uint64_t n, uint64_t seed) {
  const index_id_t *ids = bench_ids.data();
  uint64_t x = seed;
  for (uint64_t i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    add(ids[x & mask]);
  }
}

void bench_thread(variant_t kind, uint64_t mask, uint64_t n, uint64_t seed) {
  switch (kind) {
    case variant_t::NONE:
      bench_loop(
          [](const index_id_t &id) {
            none_add(id, DICT_ZIP_STAT_COMPRESS_OPS, 1);
          },
          mask, n, seed);
      break;
    case variant_t::OURS:
      bench_loop(
          [](const index_id_t &id) {
            dict_zip_stat_add(id, DICT_ZIP_STAT_COMPRESS_OPS, 1);
          },
          mask, n, seed);
      break;
    case variant_t::OURS_INDEX: {
      /* The same pseudo-random sequence, over index objects. */
      uint64_t x = seed;
      for (uint64_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        dict_zip_stat_add_index(&bench_indexes[x & mask],
                                DICT_ZIP_STAT_COMPRESS_OPS, 1);
      }
      break;
    }
    case variant_t::UPSTREAM:
      bench_loop([](const index_id_t &id) { upstream_add(id); }, mask, n,
                 seed);
      break;
  }
}

/** Create the registry and the upstream map for bench_ids[]. */
void bench_setup() {
  for (size_t i = 0; i < N_INDEXES; i++) {
    bench_ids.emplace_back(static_cast<space_id_t>(10 + i / 4),
                           static_cast<space_index_t>(1000 + i));
  }

  auto *sys = new dict_zip_stat_sys_t;
  sys->m_map = ut::new_withkey<ut_lock_free_hash_t>(UT_NEW_THIS_FILE_PSI_KEY,
                                                    1024, false);
  for (size_t i = 0; i < N_INDEXES; i++) {
    ut_a(dict_zip_stat_trackable(bench_ids[i]));
    auto *e = new bench_zip_stat_t;
    e->m_id = bench_ids[i];
    e->m_table_id = 1000 + i / 4;
    bench_entries[i] = e;
    bench_indexes[i].zip_stat.store(e, std::memory_order_relaxed);
    sys->m_map->set(bench_ids[i].conv_to_int(),
                    static_cast<int64_t>(reinterpret_cast<intptr_t>(e)));
    upstream_map[bench_ids[i]];
  }
  dict_zip_stat_sys.store(sys, std::memory_order_release);
}

void bench_teardown() {
  dict_zip_stat_sys_t *sys = dict_zip_stat_sys.exchange(nullptr);
  ut::delete_(sys->m_map);
  delete sys;
  for (auto *e : bench_entries) {
    delete e;
  }
  upstream_map.clear();
}

/** Zero all counters of both variants. */
void bench_reset() {
  for (auto *e : bench_entries) {
    e->clear();
  }
  for (auto &it : upstream_map) {
    it.second.compressed = 0;
  }
}

/** Sum of the counters updated by a run. */
uint64_t bench_total(variant_t kind) {
  uint64_t sum = 0;
  if (kind == variant_t::OURS || kind == variant_t::OURS_INDEX) {
    for (auto *e : bench_entries) {
      sum += e->m_counters[DICT_ZIP_STAT_COMPRESS_OPS].load();
    }
  } else if (kind == variant_t::UPSTREAM) {
    for (auto &it : upstream_map) {
      sum += it.second.compressed;
    }
  }
  return sum;
}

/** One timed run.
@return wall seconds from the release of the threads to the last join */
double bench_run(const variant_desc_t &v, unsigned n_threads, uint64_t n) {
  std::latch ready(n_threads);
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;

  bench_reset();
  for (unsigned t = 0; t < n_threads; t++) {
    threads.emplace_back([&, t]() {
      ready.count_down();
      go.wait(false);
      bench_thread(v.kind, v.mask, n, 0x9E3779B97F4A7C15ULL * (t + 1));
    });
  }
  ready.wait();
  const auto start = std::chrono::steady_clock::now();
  go.store(true);
  go.notify_all();
  for (auto &th : threads) {
    th.join();
  }
  const auto end = std::chrono::steady_clock::now();

  if (v.kind != variant_t::NONE && bench_total(v.kind) != n_threads * n) {
    fprintf(stderr, "%s: %u threads: lost updates: %llu of %llu\n", v.name,
            n_threads, static_cast<unsigned long long>(bench_total(v.kind)),
            static_cast<unsigned long long>(n_threads * n));
    exit(1);
  }
  return std::chrono::duration<double>(end - start).count();
}

struct result_t {
  size_t variant;
  unsigned threads;
  unsigned rep;
  double seconds;
};

void usage(const char *prog) {
  fprintf(stderr,
          "usage: %s [--updates=N] [--reps=N] [--threads=1,2,4,8,16]"
          " [--variants=name,...]\n"
          "CSV on stdout, median table on stderr. Variants:",
          prog);
  for (const auto &v : variants) {
    fprintf(stderr, " %s", v.name);
  }
  fprintf(stderr, "\n");
  exit(2);
}

std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> out;
  size_t pos = 0;
  for (;;) {
    const size_t comma = s.find(',', pos);
    out.push_back(s.substr(pos, comma - pos));
    if (comma == std::string::npos) {
      return out;
    }
    pos = comma + 1;
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char **argv) {
  uint64_t n = 2000000;
  unsigned reps = 3;
  std::vector<unsigned> thread_counts{1, 2, 4, 8, 16};
  std::vector<size_t> selected;

  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    const auto eq = a.find('=');
    const std::string key = a.substr(0, eq);
    const std::string val = eq == std::string::npos ? "" : a.substr(eq + 1);
    if (key == "--updates") {
      n = std::strtoull(val.c_str(), nullptr, 10);
    } else if (key == "--reps") {
      reps = static_cast<unsigned>(std::strtoul(val.c_str(), nullptr, 10));
    } else if (key == "--threads") {
      thread_counts.clear();
      for (const auto &t : split(val)) {
        thread_counts.push_back(
            static_cast<unsigned>(std::strtoul(t.c_str(), nullptr, 10)));
      }
    } else if (key == "--variants") {
      for (const auto &name : split(val)) {
        size_t j = 0;
        while (j < std::size(variants) && name != variants[j].name) {
          j++;
        }
        if (j == std::size(variants)) {
          usage(argv[0]);
        }
        selected.push_back(j);
      }
    } else {
      usage(argv[0]);
    }
  }
  if (selected.empty()) {
    for (size_t j = 0; j < std::size(variants); j++) {
      selected.push_back(j);
    }
  }
  if (n == 0 || reps == 0 || thread_counts.empty() ||
      std::find(thread_counts.begin(), thread_counts.end(), 0U) !=
          thread_counts.end()) {
    usage(argv[0]);
  }

  /* As ut_crc32_init(): ut::hash_uint64() uses CRC32 if the CPU has it. */
  unsigned eax, ebx, ecx, edx;
  ut_crc32_cpu_enabled =
      __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1U << 20));

  /* What sync_latch_meta_init() registers for the hash's latch. */
  latch_meta.resize(LATCH_ID_MAX + 1);
  latch_meta[LATCH_ID_LOCK_FREE_HASH] =
      new latch_meta_t(LATCH_ID_LOCK_FREE_HASH, "LOCK_FREE_HASH",
                       SYNC_LOCK_FREE_HASH, "SYNC_LOCK_FREE_HASH"
#ifdef UNIV_PFS_MUTEX
                       ,
                       mysql_pfs_key_t(PSI_NOT_INSTRUMENTED)
#endif /* UNIV_PFS_MUTEX */
      );

  bench_setup();

  /* Warm-up: fault in the entries and the map, wake the CPU up. */
  for (size_t j : selected) {
    bench_run(variants[j], 1, std::min<uint64_t>(n, 200000));
  }

  /* Repetitions outermost, so that drift spreads over all cells. */
  std::vector<result_t> results;
  for (unsigned rep = 1; rep <= reps; rep++) {
    for (size_t j : selected) {
      for (unsigned t : thread_counts) {
        results.push_back({j, t, rep, bench_run(variants[j], t, n)});
      }
    }
  }

  bench_teardown();

  printf(
      "variant,threads,updates_per_thread,rep,seconds,ns_per_update,"
      "total_mupdates_per_s\n");
  for (size_t j : selected) {
    for (unsigned t : thread_counts) {
      for (const auto &r : results) {
        if (r.variant != j || r.threads != t) {
          continue;
        }
        const double total = static_cast<double>(t) * n;
        printf("%s,%u,%llu,%u,%.6f,%.3f,%.3f\n", variants[j].name, t,
               static_cast<unsigned long long>(n), r.rep, r.seconds,
               r.seconds * 1e9 * t / total, total / r.seconds / 1e6);
      }
    }
  }
  fflush(stdout);

  /* Median table: ns per update, then total Mupdates/s. */
  fprintf(stderr,
          "median of %u runs, %llu updates per thread, %zu indexes"
          " (single_index: 1), %u CPUs, hash_uint64: %s\n",
          reps, static_cast<unsigned long long>(n), N_INDEXES,
          std::thread::hardware_concurrency(),
          ut_crc32_cpu_enabled ? "crc32" : "tabulation");
  for (int what = 0; what < 2; what++) {
    fprintf(stderr, "\n%s\n%-8s",
            what == 0 ? "ns per update (wall * threads / updates)"
                      : "total Mupdates/s",
            "threads");
    for (size_t j : selected) {
      fprintf(stderr, " %22s", variants[j].name);
    }
    fprintf(stderr, "\n");
    for (unsigned t : thread_counts) {
      fprintf(stderr, "%-8u", t);
      for (size_t j : selected) {
        std::vector<double> v;
        for (const auto &r : results) {
          if (r.variant == j && r.threads == t) {
            v.push_back(what == 0 ? r.seconds * 1e9 / n
                                  : static_cast<double>(t) * n / r.seconds /
                                        1e6);
          }
        }
        fprintf(stderr, " %22.2f", median(v));
      }
      fprintf(stderr, "\n");
    }
  }
  return 0;
}

/* ---- Minimal definitions of the server symbols needed at link time ---- */

/** Stub of a server function that the measured path never calls. */
[[noreturn]] static void bench_unreachable(const char *what) {
  fprintf(stderr, "zip_stat_counter_bench: unexpected call of %s\n", what);
  abort();
}

/* ut/ut0dbg.cc */
void ut_dbg_assertion_failed(const char *expr, const char *file,
                             uint64_t line) {
  fprintf(stderr, "Assertion failure: %s:%llu: %s\n", file,
          static_cast<unsigned long long>(line), expr ? expr : "");
  abort();
}

/* ut/crc32.cc; set in main() as ut_crc32_init() does. */
bool ut_crc32_cpu_enabled = false;

/* mysys/my_rdtsc.cc, x86-64: the time stamp counter. */
ulonglong my_timer_cycles() { return __rdtsc(); }

/* ut/ut0new.cc: no performance schema here. */
PSI_memory_key mem_key_std = PSI_NOT_INSTRUMENTED;
PSI_memory_key mem_key_ut_lock_free_hash_t = PSI_NOT_INSTRUMENTED;

PSI_memory_key pfs_memory_alloc_vc(PSI_memory_key key, size_t,
                                   PSI_thread **owner) {
  *owner = nullptr;
  return key;
}

void pfs_memory_free_vc(PSI_memory_key, size_t, PSI_thread *) {}

/* The latch of the hash (m_optimize_latch), only created and destroyed:
optimize() runs only when an array fills up, never with 64 keys. */
PSI_mutex *pfs_init_mutex_v1(PSI_mutex_key, const void *) { return nullptr; }
void pfs_destroy_mutex_v1(PSI_mutex *) {}
PSI_mutex_locker *pfs_start_mutex_wait_v1(PSI_mutex_locker_state *,
                                          PSI_mutex *, PSI_mutex_operation,
                                          const char *, uint) {
  bench_unreachable("pfs_start_mutex_wait_v1");
}
void pfs_unlock_mutex_v1(PSI_mutex *) {
  bench_unreachable("pfs_unlock_mutex_v1");
}
void pfs_end_mutex_wait_v1(PSI_mutex_locker *, int) {
  bench_unreachable("pfs_end_mutex_wait_v1");
}

/* sync/sync0debug.cc */
LatchMetaData latch_meta;
void sync_file_created_register(const void *, const char *, uint16_t) {}
void sync_file_created_deregister(const void *) {}

/* srv/srv0srv.cc, defaults */
ulong srv_spin_wait_delay = 6;
ulong srv_n_spin_wait_rounds = 30;

/* ut/ut0ut.cc */
ulint ut_delay(ulint delay) {
  for (ulint i = 0; i < delay * 50; i++) {
    UT_RELAX_CPU();
  }
  return 0;
}

/* os/os0event.cc: the event of the latch is never waited for. */
os_event_t os_event_create() {
  static char dummy;
  return reinterpret_cast<os_event_t>(&dummy);
}
void os_event_destroy(os_event_t &event) { event = nullptr; }
void os_event_set(os_event_t) { bench_unreachable("os_event_set"); }

/* sync/sync0arr.cc */
ulint sync_array_size = 1;
sync_array_t **sync_wait_array = nullptr;
sync_cell_t *sync_array_reserve_cell(sync_array_t *, void *, ulint,
                                     ut::Location) {
  bench_unreachable("sync_array_reserve_cell");
}
void sync_array_wait_event(sync_array_t *, sync_cell_t *&) {
  bench_unreachable("sync_array_wait_event");
}
void sync_array_free_cell(sync_array_t *, sync_cell_t *&) {
  bench_unreachable("sync_array_free_cell");
}
void sync_array_object_signalled() {
  bench_unreachable("sync_array_object_signalled");
}
