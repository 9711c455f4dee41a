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

#ifndef PLUGIN_COMPRESSION_STATS_CS_SYSVARS_H
#define PLUGIN_COMPRESSION_STATS_CS_SYSVARS_H

/**
  @file plugin/compression_stats/cs_sysvars.h
  The plugin's system variables (compression_stats_delta,
  compression_stats_target_key_block_size,
  compression_stats_estimate_max_running,
  compression_stats_estimate_sample_pages) and status variables
  (Compression_stats_estimates, Compression_stats_estimates_journal_lines),
  all defined in cs_sysvars.cc; compression_stats.cc hands the two arrays
  to the server in the plugin declaration.
*/

#include <mysql/plugin.h>

#include "my_inttypes.h"

class THD;

namespace compression_stats {

/** compression_stats_estimate_sample_pages: leaf pages per index that
COMPRESSION_STATS_ESTIMATE() trial-compresses when no sample size is
given. */
extern ulong sysvar_sample_pages;

/** compression_stats_estimate_max_running: COMPRESSION_STATS_ESTIMATE()
calls that may run at once. */
extern ulong sysvar_max_running;

/** compression_stats_delta of a session (its global value for nullptr). */
double delta_of(THD *thd);

/** compression_stats_target_key_block_size of a session (its global value
for nullptr). */
uint target_kbs_of(THD *thd);

/** The system variables, for the plugin declaration (ends with nullptr). */
extern SYS_VAR *system_variables[];

/** The status variables, for the plugin declaration (ends with an entry
of nullptr names). */
extern SHOW_VAR status_variables[];

/** Check functions run only for SET: check the values the server was
started with (my.cnf, the command line) the same way, and replace a value
that SET would refuse with the default, saying so in the error log. Called
once the engine service is acquired (it reads innodb_page_size). */
void validate_startup_values();

}  // namespace compression_stats

#endif  // PLUGIN_COMPRESSION_STATS_CS_SYSVARS_H
