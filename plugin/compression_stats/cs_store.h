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
  @file plugin/compression_stats/cs_store.h
  The estimates store: the last estimate of every table or partition, by
  InnoDB table id, in memory and in a journal file in the data directory.

  Why a file and not an InnoDB table: estimates run on super_read_only
  replicas (a table write would fail there, or replicate), from inside a
  SELECT that calls the function (a write would need its own transaction
  under the caller's locks), and an estimate is a cache that any server
  can recompute: it has no place in the binary log, in backups or in
  clones. The file is:
  - bounded: an estimate appends one line per partition (O(1), not a
    rewrite of the whole file); when the journal holds twice as many lines
    as there were live estimates at its last compaction, plus 32, it is
    compacted: rewritten with one line per estimate of a table or
    partition that the data dictionary still has (dropped and rebuilt
    tables are purged); the first estimate after a start compacts too;
  - crash-safe: appends are synced; a compaction writes a temporary file,
    syncs it, renames it over the journal and syncs the directory; a line
    torn by a crash is ignored at load (and counted in the error log);
  - versioned: a file of an unknown format (a newer plugin's) is left
    untouched: nothing is written to it, the estimates of this server are
    kept in memory only and the function warns that it did not save (the
    formats before v3, without the off-page model, are dropped and
    rewritten);
  - never in the way of readers: COMPRESSION_STATS and
    COMPRESSION_ESTIMATES take only the mutex of the map, for a lookup;
    the file is written under a mutex of its own, after the map is
    updated.
  Memory is instrumented (memory/compression_stats/estimates_store).
*/

#ifndef PLUGIN_COMPRESSION_STATS_CS_STORE_H
#define PLUGIN_COMPRESSION_STATS_CS_STORE_H

#include <mysql/components/services/innodb_compression_estimate.h>

#include <cstdint>
#include <ctime>
#include <utility>
#include <vector>

class THD;

namespace compression_stats {

/** The performance_schema category of the plugin's mutexes and
conditions. Its memory, file and stage instruments use the plugin's name
(memory/compression_stats/...), but performance_schema refuses a lock
category that makes its prefix 32 characters or longer:
"wait/synch/mutex/compression_stats/" is 35, and such locks were not
instrumented at all. */
constexpr const char psi_lock_category[] = "cstats";

/** One stored estimate of a table or partition. */
struct Estimate {
  /** When it was computed (seconds since the epoch). */
  time_t computed_at;
  /** What InnoDB returned. */
  innodb_zip_estimate_t e;
};

/** Register the instruments, load the journal. */
void store_open();

/** Free the store. No user may be left (store_guard_close()). */
void store_close();

/** The stored estimate of a table or partition.
@param[in]  table_id  InnoDB table id
@param[out] out       the estimate
@return true if there is one */
bool store_find(uint64_t table_id, Estimate *out);

/** Store the estimates of a table's partitions and append them to the
journal, compacting it when due.
@param[in] thd      the session (for the data dictionary at compaction)
@param[in] entries  (table id, estimate) pairs
@return true if they were saved to the file, false if they are kept in
memory only */
bool store_put(THD *thd,
               const std::vector<std::pair<uint64_t, Estimate>> &entries);

/** Lines of the journal and estimates in memory (for tests). */
void store_sizes(uint64_t *journal_lines, uint64_t *entries);

/** File name of the store, in the data directory. */
extern const char *const store_file;

/** @name The in-use guard of the store, its mutexes and the engine service
The number of threads using them (a running estimate, a lookup of
COMPRESSION_STATS or COMPRESSION_ESTIMATES, SHOW STATUS). The fill of
COMPRESSION_ESTIMATES holds a reference to its own plugin only, so it can
run while COMPRESSION_STATS, which owns the store, is uninstalled:
estimates_deinit() closes the guard and waits for the users to leave
before it frees anything. The guard is closed until store_guard_open().
@{ */

/** Let users in, once the store is open. */
void store_guard_open();

/** Let no new user in and wait for the users under way to leave. */
void store_guard_close();

/** Enter the guard. @return false if the store is closed */
bool store_enter();

/** Leave the guard entered by store_enter(). */
void store_leave();

/** A use of the store for the lifetime of the object. */
class Store_use {
 public:
  Store_use() : m_entered(store_enter()) {}
  ~Store_use() {
    if (m_entered) {
      store_leave();
    }
  }
  Store_use(const Store_use &) = delete;
  Store_use &operator=(const Store_use &) = delete;
  /** Whether the store may be used. */
  bool entered() const { return m_entered; }

 private:
  const bool m_entered;
};

/** @} */

/** Look up the stored estimate of a table or partition, under the guard.
@return true if there is one (false too while the store is closed:
COMPRESSION_STATS, which keeps the estimates, is not installed) */
bool estimate_get(uint64_t table_id, Estimate *out);

/** The estimates in memory and the lines of their journal, 0 and 0 while
the store is closed (store_sizes() under the guard). */
void estimates_store_sizes(uint64_t *journal_lines, uint64_t *entries);

}  // namespace compression_stats

#endif  // PLUGIN_COMPRESSION_STATS_CS_STORE_H
