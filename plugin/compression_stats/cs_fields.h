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

#ifndef PLUGIN_COMPRESSION_STATS_CS_FIELDS_H
#define PLUGIN_COMPRESSION_STATS_CS_FIELDS_H

/**
  @file plugin/compression_stats/cs_fields.h
  What the plugin's two INFORMATION_SCHEMA tables share: the macros of
  their column definitions (ST_FIELD_INFO) and the functions that store a
  value, or NULL, in a field of a row.
*/

#include <cstdint>
#include <ctime>

class THD;
class Field;

/** Column definitions shared by the plugin's INFORMATION_SCHEMA tables. */
#define CS_STR(name, len, flags) {name, len, MYSQL_TYPE_STRING, 0, flags, "", 0}
#define CS_U64(name, flags) \
  {name, MY_INT64_NUM_DECIMAL_DIGITS, MYSQL_TYPE_LONGLONG, 0, \
   MY_I_S_UNSIGNED | (flags), "", 0}
#define CS_DOUBLE(name) \
  {name, MAX_DOUBLE_STR_LENGTH, MYSQL_TYPE_DOUBLE, 0, MY_I_S_MAYBE_NULL, "", 0}

namespace compression_stats {

/** Store a string, or NULL for nullptr. */
void store_string(Field *f, const char *s);
/** Store an unsigned number. */
void store_number(Field *f, uint64_t v);
/** Store a double, or NULL. */
void store_dbl(Field *f, bool is_null, double v);
/** Store a point in time in a DATETIME field, in the session time zone. */
void store_time(THD *thd, Field *f, time_t t);

}  // namespace compression_stats

#endif  // PLUGIN_COMPRESSION_STATS_CS_FIELDS_H
