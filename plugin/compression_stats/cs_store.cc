/* Copyright (c) 2026, the mysql-compress authors.

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
   51 Franklin St, Fifth Floor, Boston, MA 02110-1301  USA */

/**
  @file plugin/compression_stats/cs_store.cc
  The estimates store; see cs_store.h.

  Journal format v4: the header line, then one line per estimate stored
  (store_line()), in the order they were stored; at load the last line of
  an id wins. Fields added later (the codec, the page compression
  estimate) are at the end of a line: a line without them is read with
  their absence noted (codec zlib, page compression not estimated). Files of format v3 (the same lines, one per id, the whole file
  rewritten at every save) are read, and compacted into v4 at the first
  save.
*/

#ifndef LOG_COMPONENT_TAG
#define LOG_COMPONENT_TAG "compression_stats"
#endif

#include "plugin/compression_stats/cs_store.h"

#include <mysql/plugin.h>
#include <mysql/psi/mysql_file.h>
#include <mysql/psi/mysql_memory.h>
#include <mysql/psi/mysql_mutex.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <thread>

#include "my_sys.h"
#include "mysql/components/services/log_builtins.h"
#include "mysqld_error.h"
#include "sql/dd/cache/dictionary_client.h"
#include "sql/malloc_allocator.h"
#include "sql/mysqld.h"
#include "sql/sql_class.h"

namespace compression_stats {

const char *const store_file = "compression_stats_estimates.txt";

namespace {

/** First line of a journal of this format. */
constexpr const char *store_header = "# compression_stats estimates v4";

/** First line of the previous format, which is still read. */
constexpr const char *store_header_v3 = "# compression_stats estimates v3";

/** Lines a journal may grow by beyond twice the live estimates of its last
compaction before it is compacted again. */
constexpr uint64_t compaction_slack = 32;

PSI_memory_key key_memory_store;
PSI_memory_info memory_info[] = {{&key_memory_store, "estimates_store",
                                  PSI_FLAG_ONLY_GLOBAL_STAT, 0,
                                  "The stored estimates, by table id."}};

PSI_mutex_key key_map_mutex;
PSI_mutex_key key_file_mutex;
PSI_mutex_info mutex_info[] = {
    {&key_map_mutex, "estimates", PSI_FLAG_SINGLETON, 0, PSI_DOCUMENT_ME},
    {&key_file_mutex, "estimates_file", PSI_FLAG_SINGLETON, 0,
     PSI_DOCUMENT_ME}};

PSI_file_key key_file_store;
PSI_file_info file_info[] = {{&key_file_store, "estimates_file",
                              PSI_FLAG_SINGLETON, 0, PSI_DOCUMENT_ME}};

using Store_alloc = Malloc_allocator<std::pair<const uint64_t, Estimate>>;
using Store_map = std::map<uint64_t, Estimate, std::less<uint64_t>, Store_alloc>;

/** The estimates by table id. Protected by map_mutex. */
Store_map *store = nullptr;

/** Protects store. Readers (lookups) take only this one. */
mysql_mutex_t map_mutex;

/** Serializes the writes of the journal; taken before map_mutex. */
mysql_mutex_t file_mutex;

/** Lines of the journal after its header. Protected by file_mutex. */
uint64_t journal_lines = 0;

/** Estimates live at the last compaction. Protected by file_mutex. */
uint64_t live_at_compaction = 0;

/** Whether the journal must be compacted at the next save (after a start,
after a failed append). Protected by file_mutex. */
bool compaction_due = true;

/** The file has a format this plugin does not know: never write it. */
bool foreign_file = false;

/** Bit of store_users: the store is closed (not yet loaded, or being
freed); no new user may enter. */
constexpr uint32_t store_closed = 1U << 31;

/** The in-use guard (cs_store.h): the number of threads using the store,
or'ed with store_closed. */
std::atomic<uint32_t> store_users{store_closed};

std::string data_dir() {
  std::string dir(mysql_real_data_home);
  if (!dir.empty() && dir.back() != FN_LIBCHAR) {
    dir += FN_LIBCHAR;
  }
  return dir;
}

std::string store_path() { return data_dir() + store_file; }

/** One line of the journal that stores an estimate. */
std::string store_line(uint64_t id, const Estimate &m) {
  const innodb_zip_estimate_t &e = m.e;
  std::ostringstream o;
  o << id << ' ' << static_cast<long long>(m.computed_at) << ' '
    << e.logical_page_size << ' ' << e.physical_page_size << ' '
    << e.is_compressed << ' ' << e.level << ' ' << e.full_scan << ' '
    << e.n_indexes << ' ' << e.used_pages << ' ' << e.leaf_pages << ' '
    << e.sampled_pages << ' ' << e.sampled_records << ' ' << e.data_bytes
    << ' ' << e.uncompressed_pages;
  o.precision(17);
  for (const auto &s : e.sizes) {
    o << ' ' << s.key_block_size << ' ' << s.pages << ' ' << s.failure_pct;
  }
  o << ' ' << e.extern_records << ' ' << e.full_pages;
  for (const auto p : e.inserted_pages) {
    o << ' ' << p;
  }
  o << ' ' << e.extern_bytes << ' ' << e.extern_pages << ' ' << e.codec;
  o << ' ' << e.page_status << ' ' << e.fs_block_size << ' '
    << e.page_compression << ' ' << e.page_zlib_level << ' ' << e.file_bytes
    << ' ' << e.file_allocated_bytes;
  for (ulong m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
    o << ' ' << e.page_bytes[m] << ' ' << e.page_whole_pct[m];
  }
  o << ' ' << e.file_free_allocated_bytes << ' ' << e.file_free_measured;
  o << ' ' << e.rebuilt_file_estimated << ' ' << e.rebuilt_other_pages << ' '
    << e.rebuilt_free_pages;
  for (const auto p : e.rebuilt_zip_file_pages) {
    o << ' ' << p;
  }
  return o.str();
}

/** Parse a line that stores an estimate. @return false if malformed */
bool store_parse(const std::string &line, uint64_t *id, Estimate *m) {
  std::istringstream in(line);
  long long t = 0;
  innodb_zip_estimate_t &e = m->e;
  memset(&e, 0, sizeof e);
  in >> *id >> t >> e.logical_page_size >> e.physical_page_size >>
      e.is_compressed >> e.level >> e.full_scan >> e.n_indexes >>
      e.used_pages >> e.leaf_pages >> e.sampled_pages >> e.sampled_records >>
      e.data_bytes >> e.uncompressed_pages;
  for (auto &s : e.sizes) {
    in >> s.key_block_size >> s.pages >> s.failure_pct;
  }
  in >> e.extern_records >> e.full_pages;
  for (auto &p : e.inserted_pages) {
    in >> p;
  }
  in >> e.extern_bytes >> e.extern_pages;
  const bool ok = !in.fail() && e.logical_page_size != 0;
  /* Lines written before the codec existed end here: their trials were
  zlib's (codec 0). A line torn by a crash fails above or here. */
  if (!(in >> e.codec) || e.codec >= INNODB_ZIP_N_CODECS) {
    e.codec = 0;
  }
  /* Lines written before the page compression estimate end here. */
  in >> e.page_status >> e.fs_block_size >> e.page_compression >>
      e.page_zlib_level >> e.file_bytes >> e.file_allocated_bytes;
  for (ulong m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
    in >> e.page_bytes[m] >> e.page_whole_pct[m];
  }
  if (in.fail() || e.page_status > INNODB_ZIP_EST_PAGE_BLOCK_SIZE ||
      e.page_compression > 2) {
    e.page_status = INNODB_ZIP_EST_PAGE_NOT_ESTIMATED;
    e.page_compression = 0;
    for (ulong m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
      e.page_bytes[m] = 0;
      e.page_whole_pct[m] = 0;
    }
  }
  /* Lines written before the free pages were measured end here. */
  if (!(in >> e.file_free_allocated_bytes >> e.file_free_measured) ||
      e.file_free_measured > 1) {
    e.file_free_allocated_bytes = 0;
    e.file_free_measured = 0;
  }
  /* Lines written before the rebuilt file was estimated end here. */
  in >> e.rebuilt_file_estimated >> e.rebuilt_other_pages >>
      e.rebuilt_free_pages;
  for (auto &p : e.rebuilt_zip_file_pages) {
    in >> p;
  }
  if (in.fail() || e.rebuilt_file_estimated != 1) {
    e.rebuilt_file_estimated = 0;
    e.rebuilt_other_pages = 0;
    e.rebuilt_free_pages = 0;
    for (auto &p : e.rebuilt_zip_file_pages) {
      p = 0;
    }
  }
  e.size = sizeof e;
  m->computed_at = static_cast<time_t>(t);
  return ok;
}

/** Load the journal into store. Missing file: no estimates yet. */
void store_load() {
  const std::string path = store_path();
  const File fd =
      mysql_file_open(key_file_store, path.c_str(), O_RDONLY, MYF(0));
  if (fd < 0) {
    return;
  }
  std::string text;
  char buf[8192];
  size_t n;
  while ((n = mysql_file_read(fd, reinterpret_cast<uchar *>(buf), sizeof buf,
                              MYF(0))) != 0 &&
         n != MY_FILE_ERROR) {
    text.append(buf, n);
  }
  mysql_file_close(fd, MYF(0));
  std::istringstream in(text);
  std::string line;
  const bool read = n != MY_FILE_ERROR && std::getline(in, line);
  if (!read || (line != store_header && line != store_header_v3)) {
    /* The formats before v3 had no off-page model: their estimates are
    dropped and the file is rewritten at the next save. Any other format
    (a newer plugin's), or a file that cannot be read, is kept as it is:
    nothing is written to it. */
    foreign_file = !read || (line != "# compression_stats estimates v1" &&
                             line != "# compression_stats estimates v2");
    LogPluginErr(WARNING_LEVEL, ER_COMPRESSION_STATS_STORE_UNKNOWN_FORMAT,
                 store_file);
    return;
  }
  size_t bad = 0;
  while (std::getline(in, line)) {
    journal_lines++;
    uint64_t id;
    Estimate m;
    if (store_parse(line, &id, &m)) {
      (*store)[id] = m;
    } else {
      bad++;
    }
  }
  if (bad > 0) {
    LogPluginErr(WARNING_LEVEL, ER_COMPRESSION_STATS_STORE_MALFORMED, bad,
                 store_file);
  }
}

/** Sync the data directory, so that a rename survives a crash.
@return true on error */
bool sync_data_dir() {
#ifdef _WIN32
  return false; /* NTFS metadata is journaled; there is no directory fsync */
#else
  const std::string dir = data_dir();
  const File fd = mysql_file_open(key_file_store, dir.c_str(), O_RDONLY,
                                  MYF(0));
  if (fd < 0) {
    return true;
  }
  const bool err = mysql_file_sync(fd, MYF(0)) != 0;
  return mysql_file_close(fd, MYF(0)) != 0 || err;
#endif
}

/** Write text to a file and sync it.
@return true on error */
bool write_synced(File fd, const std::string &text) {
  bool err = mysql_file_write(fd, pointer_cast<const uchar *>(text.data()),
                              text.size(), MYF(MY_NABP)) != 0;
  err = err || mysql_file_sync(fd, MYF(0)) != 0;
  err = mysql_file_close(fd, MYF(0)) != 0 || err;
  return err;
}

/** Whether the data dictionary still has an InnoDB table or partition.
An error of the lookup counts as present: only what is known to be gone
is purged. The look-up by id builds an uncached copy of the table's
dd::Table, which the dictionary client frees when the outermost
Auto_releaser ends: this one, in COMPRESSION_STATS_ESTIMATE() (a debug
build asserts without it; a release build kept one copy per stored
estimate until a later statement). */
bool dd_has(THD *thd, uint64_t id) {
  dd::cache::Dictionary_client *dc = thd->dd_client();
  const dd::cache::Dictionary_client::Auto_releaser releaser(dc);
  dd::String_type schema;
  dd::String_type name;
  if (dc->get_table_name_by_se_private_id("InnoDB", id, &schema, &name) ||
      !name.empty()) {
    return true;
  }
  schema.clear();
  name.clear();
  return dc->get_table_name_by_partition_se_private_id("InnoDB", id, &schema,
                                                        &name) ||
         !name.empty();
}

/** Compact the journal: purge the estimates of tables the data
dictionary no longer has, then write one line per estimate to a temporary
file, sync it, rename it over the journal, sync the directory. Caller
holds file_mutex, not map_mutex.
@return true on error */
bool store_compact(THD *thd) {
  /* The ids, then the dictionary lookups, outside the map's mutex. */
  std::vector<uint64_t> ids;
  mysql_mutex_lock(&map_mutex);
  ids.reserve(store->size());
  for (const auto &kv : *store) {
    ids.push_back(kv.first);
  }
  mysql_mutex_unlock(&map_mutex);

  std::vector<uint64_t> gone;
  if (thd != nullptr) {
    for (const uint64_t id : ids) {
      if (!dd_has(thd, id)) {
        gone.push_back(id);
      }
    }
  }

  std::string text(store_header);
  text += '\n';
  uint64_t lines = 0;
  mysql_mutex_lock(&map_mutex);
  for (const uint64_t id : gone) {
    store->erase(id);
  }
  for (const auto &kv : *store) {
    text += store_line(kv.first, kv.second);
    text += '\n';
    lines++;
  }
  mysql_mutex_unlock(&map_mutex);

  const std::string path = store_path();
  const std::string tmp = path + ".tmp";
  const File fd = mysql_file_create(key_file_store, tmp.c_str(), 0640,
                                    O_WRONLY | O_TRUNC, MYF(0));
  if (fd < 0) {
    return true;
  }
  if (write_synced(fd, text) ||
      mysql_file_rename(key_file_store, tmp.c_str(), path.c_str(), MYF(0)) !=
          0) {
    mysql_file_delete(key_file_store, tmp.c_str(), MYF(0));
    return true;
  }
  sync_data_dir();
  journal_lines = lines;
  live_at_compaction = lines;
  return false;
}

/** Append lines to the journal and sync it. Caller holds file_mutex.
@return true on error */
bool store_append(const std::string &text, uint64_t lines) {
  const std::string path = store_path();
  const File fd = mysql_file_open(key_file_store, path.c_str(),
                                  O_WRONLY | O_APPEND, MYF(0));
  if (fd < 0) {
    return true;
  }
  if (write_synced(fd, text)) {
    return true;
  }
  journal_lines += lines;
  return false;
}

}  // namespace

void store_open() {
  mysql_memory_register("compression_stats", memory_info, 1);
  mysql_mutex_register(psi_lock_category, mutex_info, 2);
  mysql_file_register("compression_stats", file_info, 1);
  mysql_mutex_init(key_map_mutex, &map_mutex, MY_MUTEX_INIT_FAST);
  mysql_mutex_init(key_file_mutex, &file_mutex, MY_MUTEX_INIT_FAST);
  store = new Store_map(Store_alloc(key_memory_store));
  journal_lines = 0;
  live_at_compaction = 0;
  compaction_due = true;
  foreign_file = false;
  store_load();
}

void store_close() {
  delete store;
  store = nullptr;
  mysql_mutex_destroy(&file_mutex);
  mysql_mutex_destroy(&map_mutex);
}

bool store_find(uint64_t table_id, Estimate *out) {
  mysql_mutex_lock(&map_mutex);
  const auto it = store->find(table_id);
  const bool found = it != store->end();
  if (found) {
    *out = it->second;
  }
  mysql_mutex_unlock(&map_mutex);
  return found;
}

bool store_put(THD *thd,
               const std::vector<std::pair<uint64_t, Estimate>> &entries) {
  mysql_mutex_lock(&file_mutex);
  std::string text;
  mysql_mutex_lock(&map_mutex);
  for (const auto &[id, m] : entries) {
    (*store)[id] = m;
    text += store_line(id, m);
    text += '\n';
  }
  mysql_mutex_unlock(&map_mutex);

  bool saved = false;
  if (!foreign_file) {
    if (compaction_due ||
        journal_lines + entries.size() >
            2 * live_at_compaction + compaction_slack) {
      /* The first save after a start, or the journal has grown: one line
      per live estimate (this one included), the dropped tables purged. */
      saved = !store_compact(thd);
      compaction_due = !saved;
    } else {
      saved = !store_append(text, entries.size());
      /* A failed append may have left a torn line: rewrite next time. */
      compaction_due = !saved;
    }
  }
  mysql_mutex_unlock(&file_mutex);
  return saved;
}

void store_sizes(uint64_t *lines, uint64_t *entries) {
  mysql_mutex_lock(&file_mutex);
  *lines = journal_lines;
  mysql_mutex_unlock(&file_mutex);
  mysql_mutex_lock(&map_mutex);
  *entries = store->size();
  mysql_mutex_unlock(&map_mutex);
}

void store_guard_open() { store_users.store(0); }

void store_guard_close() {
  /* No new user; wait for the lookups (and estimates) under way. */
  store_users.fetch_or(store_closed);
  while ((store_users.load() & ~store_closed) != 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

bool store_enter() {
  uint32_t n = store_users.load();
  do {
    if (n & store_closed) {
      return false;
    }
  } while (!store_users.compare_exchange_weak(n, n + 1));
  return true;
}

void store_leave() { store_users.fetch_sub(1); }

bool estimate_get(uint64_t table_id, Estimate *out) {
  const Store_use use;
  if (!use.entered()) {
    /* COMPRESSION_STATS, which keeps the estimates, is not installed. */
    return false;
  }
  return store_find(table_id, out);
}

void estimates_store_sizes(uint64_t *lines, uint64_t *entries) {
  *lines = *entries = 0;
  const Store_use use;
  if (use.entered()) {
    store_sizes(lines, entries);
  }
}

}  // namespace compression_stats
