/*****************************************************************************

Copyright (c) 2026, the mysql-compress authors.

This program is free software; you can redistribute it and/or modify it under
the terms of the GNU General Public License, version 2.0, as published by the
Free Software Foundation.

This program is designed to work with certain software (including but not
limited to OpenSSL) that is licensed under separate terms, as designated in a
particular file or component or in included license documentation. The
authors of this program hereby grant you an additional permission to link the
program and your derivative works with the separately licensed software that
they have either included with the program or referenced in the
documentation.

This program is distributed in the hope that it will be useful, but WITHOUT
ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
FOR A PARTICULAR PURPOSE. See the GNU General Public License, version 2.0,
for more details.

You should have received a copy of the GNU General Public License along with
this program; if not, write to the Free Software Foundation, Inc.,
51 Franklin St, Fifth Floor, Boston, MA 02110-1301  USA

*****************************************************************************/

/** @file buf/buf0lru_zip.cc
 AUTO of innodb_buffer_pool_unzip_lru_policy from measured costs.

 Freeing the uncompressed frame of a compressed page costs a decompression
 at the page's next access; evicting the page costs a read. Upstream weighs
 the two by counts: every decompression against 50 x every page I/O,
 writes of the page cleaner included. Here each side is the time it cost
 in the last BUF_LRU_ZIP_N_INTERVAL intervals of a second:
 - the microseconds spent decompressing pages whose frame had been freed
   (Buf_fetch::zip_page_handler() on a page accessed before: the cost of
   earlier UNZIP decisions), against
 - the microseconds threads (queries, purge) waited for synchronous page
   reads
   (buf_read_page() when it read: the cost of earlier LRU decisions; read
   ahead, background reads and the page cleaner's writes do not count).
 A wait for a read costs the server only as long as the CPU has nothing
 else to do: on busy cores other threads run meanwhile, while a
 decompression takes CPU time from them. So each interval's read wait is
 weighed by the share of that interval the machine's CPUs were idle
 (/proc/stat on Linux, idle and iowait; elsewhere the wait counts whole).
 AUTO frees a frame while the decompression time is at most the weighed
 read wait. The counts are kept in relaxed atomics on one cache line; the
 decision reads five of them and takes no latch (its callers hold
 buf_pool->LRU_list_mutex).

 Created 2026-11-28 */

#include "buf0lru_zip.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "my_dbug.h"
#include "os0thread.h"
#include "srv0mon.h"
#include "ut0dbg.h"

ulong buf_lru_unzip_policy = BUF_LRU_UNZIP_POLICY_AUTO;

namespace {

/** Intervals of the window (one a second, as upstream's
BUF_LRU_STAT_N_INTERVAL). */
constexpr size_t BUF_LRU_ZIP_N_INTERVAL = 50;

/** What one interval measured. */
struct buf_lru_zip_interval_t {
  /** Microseconds spent decompressing pages whose frame had been freed. */
  uint64_t refetch_usec;
  /** Microseconds threads waited for synchronous page reads, times the
  share of the interval the CPUs were idle. */
  uint64_t read_usec;
};

/** The current interval, written by any thread (relaxed: a count lost or
late by an interval changes one decision at most), and the running sum of
the window, written by buf_lru_zip_stat_update() only. Static storage, so
the alignment holds. */
struct alignas(ut::INNODB_CACHE_LINE_SIZE) buf_lru_zip_stat_t {
  std::atomic<uint64_t> cur_refetch_usec{0};
  std::atomic<uint64_t> cur_read_usec{0};
  std::atomic<uint64_t> sum_refetch_usec{0};
  std::atomic<uint64_t> sum_read_usec{0};
  /** Idle share of the CPUs in the last interval, in thousandths (1000,
  all idle, until measured). */
  std::atomic<uint64_t> idle_permille{1000};
};

buf_lru_zip_stat_t buf_lru_zip_stat;

/** The window, a ring of intervals; only buf_lru_zip_stat_update() reads
and writes it (srv_error_monitor_thread(), once a second). */
buf_lru_zip_interval_t buf_lru_zip_window[BUF_LRU_ZIP_N_INTERVAL];
size_t buf_lru_zip_window_ind = 0;

/** CPU time of the machine so far, from the first line of /proc/stat, in
clock ticks.
@param[out]     busy    user, nice, system, irq, softirq and steal time
@param[out]     idle    idle and iowait time
@return false where there is no /proc/stat (the read wait then counts
whole) */
bool buf_lru_zip_cpu_times(uint64_t &busy, uint64_t &idle) {
  FILE *f = fopen("/proc/stat", "r");
  if (f == nullptr) {
    return false;
  }
  unsigned long long v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  const int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
                       &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
  fclose(f);
  if (n < 4) {
    return false;
  }
  idle = v[3] + v[4];
  busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
  return true;
}

/** CPU times at the end of the last interval (buf_lru_zip_stat_update()
only). */
uint64_t buf_lru_zip_last_busy = 0;
uint64_t buf_lru_zip_last_idle = 0;
bool buf_lru_zip_have_cpu = false;

/** Microseconds of a duration, at least 1 (an event that happened costs
something, even under the clock's resolution). */
uint64_t buf_lru_zip_usec(std::chrono::steady_clock::duration d) {
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(d);
  return us.count() > 0 ? static_cast<uint64_t>(us.count()) : 1;
}

}  // namespace

void buf_lru_zip_note_refetch_unzip(std::chrono::steady_clock::duration d) {
  const uint64_t us = buf_lru_zip_usec(d);
  buf_lru_zip_stat.cur_refetch_usec.fetch_add(us, std::memory_order_relaxed);
  MONITOR_INC(MONITOR_LRU_UNZIP_REFETCH);
  MONITOR_INC_VALUE(MONITOR_LRU_UNZIP_REFETCH_USEC, us);
}

void buf_lru_zip_note_user_read(std::chrono::steady_clock::duration d) {
  const uint64_t us = buf_lru_zip_usec(d);
  buf_lru_zip_stat.cur_read_usec.fetch_add(us, std::memory_order_relaxed);
  MONITOR_INC(MONITOR_LRU_UNZIP_USER_READ);
  MONITOR_INC_VALUE(MONITOR_LRU_UNZIP_USER_READ_USEC, us);
}

void buf_lru_zip_debug_read_sleep() {
  DBUG_EXECUTE_IF("buf_lru_zip_read_slow",
                  std::this_thread::sleep_for(std::chrono::milliseconds(20)););
}

void buf_lru_zip_stat_update(bool evict_started) {
  /* Take the current interval whole: what arrives after the exchange
  counts in the next one. */
  buf_lru_zip_interval_t cur;
  cur.refetch_usec =
      buf_lru_zip_stat.cur_refetch_usec.exchange(0, std::memory_order_relaxed);
  cur.read_usec =
      buf_lru_zip_stat.cur_read_usec.exchange(0, std::memory_order_relaxed);

  /* The idle share of the interval weighs its read wait. */
  uint64_t busy, idle;
  if (buf_lru_zip_cpu_times(busy, idle)) {
    if (buf_lru_zip_have_cpu && busy >= buf_lru_zip_last_busy &&
        idle >= buf_lru_zip_last_idle) {
      const uint64_t d_busy = busy - buf_lru_zip_last_busy;
      const uint64_t d_idle = idle - buf_lru_zip_last_idle;
      if (d_busy + d_idle > 0) {
        buf_lru_zip_stat.idle_permille.store(1000 * d_idle / (d_busy + d_idle),
                                             std::memory_order_relaxed);
      }
    }
    buf_lru_zip_last_busy = busy;
    buf_lru_zip_last_idle = idle;
    buf_lru_zip_have_cpu = true;
  }
  /* Debug builds: a machine whose CPUs never idle (a read wait weighs
  nothing) or always do (it weighs whole), for tests of the weighing that
  do not depend on what else the machine runs. */
  DBUG_EXECUTE_IF("buf_lru_zip_cpu_busy",
                  buf_lru_zip_stat.idle_permille.store(
                      0, std::memory_order_relaxed););
  DBUG_EXECUTE_IF("buf_lru_zip_cpu_idle",
                  buf_lru_zip_stat.idle_permille.store(
                      1000, std::memory_order_relaxed););
  cur.read_usec = cur.read_usec *
                  buf_lru_zip_stat.idle_permille.load(std::memory_order_relaxed) /
                  1000;

  /* As upstream's buf_LRU_stat_update(): no history before the first
  eviction (the decision is not taken before it either). */
  if (!evict_started) {
    return;
  }

  buf_lru_zip_interval_t &old = buf_lru_zip_window[buf_lru_zip_window_ind];
  buf_lru_zip_window_ind = (buf_lru_zip_window_ind + 1) % BUF_LRU_ZIP_N_INTERVAL;

  /* Only this thread writes the sums: load, adjust, store. */
  const uint64_t refetch =
      buf_lru_zip_stat.sum_refetch_usec.load(std::memory_order_relaxed) +
      cur.refetch_usec - old.refetch_usec;
  const uint64_t read =
      buf_lru_zip_stat.sum_read_usec.load(std::memory_order_relaxed) +
      cur.read_usec - old.read_usec;
  buf_lru_zip_stat.sum_refetch_usec.store(refetch, std::memory_order_relaxed);
  buf_lru_zip_stat.sum_read_usec.store(read, std::memory_order_relaxed);
  old = cur;
}

bool buf_lru_zip_auto_free_frame() {
  /* The window and the interval so far: both sides over the same time,
  so they compare without scaling (upstream divides its sums by the
  number of intervals, which drops counts below 50). */
  const uint64_t unzip_cost =
      buf_lru_zip_stat.sum_refetch_usec.load(std::memory_order_relaxed) +
      buf_lru_zip_stat.cur_refetch_usec.load(std::memory_order_relaxed);
  const uint64_t read_cost =
      buf_lru_zip_stat.sum_read_usec.load(std::memory_order_relaxed) +
      buf_lru_zip_stat.cur_read_usec.load(std::memory_order_relaxed) *
          buf_lru_zip_stat.idle_permille.load(std::memory_order_relaxed) /
          1000;

  /* Nothing measured yet, or only reads: free frames, as upstream does
  before it has counts (the load is taken as I/O-bound). */
  return unzip_cost <= read_cost;
}
