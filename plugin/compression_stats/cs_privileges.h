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

#ifndef PLUGIN_COMPRESSION_STATS_CS_PRIVILEGES_H
#define PLUGIN_COMPRESSION_STATS_CS_PRIVILEGES_H

/**
  @file plugin/compression_stats/cs_privileges.h
  Who may see what: the visibility rule of the plugin's tables (the one of
  INFORMATION_SCHEMA.TABLES) and the stricter rule of the estimates and
  the activity of a table. Both raise no error; the callers decide.
*/

class THD;

namespace compression_stats {

/** Whether the user may see a table: the rule of CAN_ACCESS_TABLE
(sql/item_func.cc), which INFORMATION_SCHEMA.TABLES applies: any table
privilege, also on a column only, or any database privilege.
@param thd  the session
@param db   schema name as stored
@param tbl  table name as stored
@return whether the user may */
bool can_access_table(THD *thd, const char *db, const char *tbl);

/** Whether the user may run the estimator on a table and see its stored
estimates: SELECT on the whole table (a global, schema or table grant; a
grant on some columns is not enough, since the estimate compresses every
column), or PROCESS. Raises no error. */
bool may_see_estimates(THD *thd, const char *db, const char *tbl);

}  // namespace compression_stats

#endif  // PLUGIN_COMPRESSION_STATS_CS_PRIVILEGES_H
