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

#ifndef PLUGIN_COMPRESSION_STATS_CS_DD_WALK_H
#define PLUGIN_COMPRESSION_STATS_CS_DD_WALK_H

/**
  @file plugin/compression_stats/cs_dd_walk.h
  The plugin's reads of the data dictionary: the walk over every InnoDB
  table and leaf partition a user may see (the rows of COMPRESSION_STATS
  and COMPRESSION_ESTIMATES), the WHERE clause pushed down to it, the
  metadata locks it takes without waiting, the partitions of one table
  (COMPRESSION_STATS_ESTIMATE()) and a table's COMPRESSION option.
*/

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

class THD;
class Item;
class MDL_ticket;
struct TABLE;
namespace dd {
class Schema;
class Table;
}  // namespace dd

namespace compression_stats {

/** Called for each visible InnoDB table or leaf partition: schema, table,
partition and subpartition name (or nullptr), InnoDB table id.
Returns true to stop with an error. */
using Table_visitor =
    std::function<bool(const dd::Schema &, const dd::Table &, const char *,
                       const char *, uint64_t)>;

/** Whether the user may see a table (schema and table name). */
using Table_filter = bool (*)(THD *, const char *, const char *);

/** The tables a WHERE clause restricts a fill to: the values that
TABLE_SCHEMA and TABLE_NAME (columns 0 and 1 of the plugin's tables) are
compared with by equality, at the top level of the condition or of its AND.
Matching is case-insensitive and ignores trailing spaces, like the columns'
collation, so a table the server's own evaluation of the WHERE clause would
keep is never left out; the server still applies the whole WHERE clause. */
struct Lookup {
  bool has_schema{false};
  std::string schema;
  bool has_table{false};
  std::string table;
};

/** Extract the lookup values of a fill's condition.
@param cond   the condition the server pushed to the fill, or nullptr
@param table  the INFORMATION_SCHEMA table being filled
@return the values found (none if the condition has no usable equality) */
Lookup lookup_from_cond(Item *cond, const TABLE *table);

/** Visit every InnoDB table and leaf partition of the data dictionary that
the user may see.
@param thd      the session
@param visit    called for each
@param may_see  which tables the user may see; nullptr: those on which the
                user has any privilege (the rule of
                INFORMATION_SCHEMA.TABLES, can_access_table())
@param lookup   visit only the tables it names, or all if nullptr
@return 1 on error, else 0 */
int for_each_table(THD *thd, const Table_visitor &visit,
                   Table_filter may_see = nullptr,
                   const Lookup *lookup = nullptr);

/** Take a table's shared metadata lock only if it is free now.
MDL_SHARED_HIGH_PRIO is granted unless an exclusive lock is granted (a DDL
in its exclusive phase), even while a DDL waits for one.
@param[in]  thd     session
@param[in]  schema  schema name as stored
@param[in]  table   table name as stored
@param[out] ticket  the lock, or nullptr if it is not free now
@return true on error */
bool try_lock_table(THD *thd, const char *schema, const char *table,
                    MDL_ticket **ticket);

/** Warn that a table was left out of the result because a DDL statement
holds its metadata lock. */
void warn_table_skipped(THD *thd, const char *schema, const char *table);

/** One table or partition to estimate. */
struct Target {
  std::string part;
  std::string subpart;
  uint64_t id;
};

/** The partitions of a table (or the table itself) and their ids, read
under the table's shared metadata lock (waiting for it up to
lock_wait_timeout, as a statement would).
@param[in]  thd  the session
@param[in]  db   schema name as the data dictionary stores it
@param[in]  tbl  table name as the data dictionary stores it
@param[out] out  the leaf partitions, or the table
@return true on error (raised: no such table, not InnoDB, lock wait) */
bool resolve_targets(THD *thd, const std::string &db, const std::string &tbl,
                     std::vector<Target> *out);

/** The COMPRESSION of a table as the data dictionary has it: 0 none, 1
zlib, 2 lz4 (INNODB_ZIP_PAGE_COMPRESSION_NAMES). */
uint32_t dd_page_compression(const dd::Table &tab);

}  // namespace compression_stats

#endif  // PLUGIN_COMPRESSION_STATS_CS_DD_WALK_H
