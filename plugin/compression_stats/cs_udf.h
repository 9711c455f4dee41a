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

#ifndef PLUGIN_COMPRESSION_STATS_CS_UDF_H
#define PLUGIN_COMPRESSION_STATS_CS_UDF_H

/**
  @file plugin/compression_stats/cs_udf.h
  The loadable function COMPRESSION_STATS_ESTIMATE(schema, table
  [, sample_pages | 'FULL']): runs InnoDB's savings estimator on every
  partition of a table, stores the estimates (cs_store.h) and answers with
  the savings at compression_stats_target_key_block_size. Also the life of
  what the estimates need: the function's registration, the limit of
  estimates running at once, the store and its guard.
*/

namespace compression_stats {

/** Register the instruments (stages, memory, the slots' mutex and
condition), load the stored estimates, open the store to its users and
register the function.
@return false (a failed registration of the function is logged, and the
tables work without it) */
bool estimates_init();

/** Whether the plugin may be uninstalled: unregisters the function,
which the server refuses while a statement uses it (an estimate running).
@return 0 if it may (the function is gone), 1 if not (a warning says why) */
int estimates_check_uninstall();

/** Unregister the function if still registered, wait for the users of the
store under way and free it. */
void estimates_deinit();

}  // namespace compression_stats

#endif  // PLUGIN_COMPRESSION_STATS_CS_UDF_H
