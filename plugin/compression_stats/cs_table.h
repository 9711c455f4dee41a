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

#ifndef PLUGIN_COMPRESSION_STATS_CS_TABLE_H
#define PLUGIN_COMPRESSION_STATS_CS_TABLE_H

/**
  @file plugin/compression_stats/cs_table.h
  INFORMATION_SCHEMA.COMPRESSION_STATS: columns and fill function.
*/

#include <cstdint>
#include <functional>
#include <string>

class THD;
class Item;
class Field;
class Item;
struct TABLE;
class Table_ref;
struct ST_FIELD_INFO;
namespace dd {
class Schema;
class Table;
}  // namespace dd

/** Column definitions shared by the plugin's INFORMATION_SCHEMA tables. */
#define CS_STR(name, len, flags) {name, len, MYSQL_TYPE_STRING, 0, flags, "", 0}
#define CS_U64(name, flags) \
  {name, MY_INT64_NUM_DECIMAL_DIGITS, MYSQL_TYPE_LONGLONG, 0, \
   MY_I_S_UNSIGNED | (flags), "", 0}
#define CS_DOUBLE(name) \
  {name, MAX_DOUBLE_STR_LENGTH, MYSQL_TYPE_DOUBLE, 0, MY_I_S_MAYBE_NULL, "", 0}

namespace compression_stats {

/** Columns of INFORMATION_SCHEMA.COMPRESSION_STATS. */
extern ST_FIELD_INFO table_fields[];

/** Fill INFORMATION_SCHEMA.COMPRESSION_STATS: one row per InnoDB table and
leaf partition on which the user has any privilege. */
int fill_table(THD *thd, Table_ref *tables, Item *cond);

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
                INFORMATION_SCHEMA.TABLES)
@param lookup   visit only the tables it names, or all if nullptr
@return 1 on error, else 0 */
int for_each_table(THD *thd, const Table_visitor &visit,
                   Table_filter may_see = nullptr,
                   const Lookup *lookup = nullptr);

/** Whether the user may run the estimator on a table and see its stored
estimates: SELECT on the whole table (a global, schema or table grant; a
grant on some columns is not enough, since the estimate compresses every
column), or PROCESS. Raises no error. */
bool may_see_estimates(THD *thd, const char *db, const char *tbl);

/** Store a string, or NULL for nullptr. */
void store_string(Field *f, const char *s);
/** Store an unsigned number. */
void store_number(Field *f, uint64_t v);
/** Store a double, or NULL. */
void store_dbl(Field *f, bool is_null, double v);

}  // namespace compression_stats

#endif  // PLUGIN_COMPRESSION_STATS_CS_TABLE_H
