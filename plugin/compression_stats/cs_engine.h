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

#ifndef PLUGIN_COMPRESSION_STATS_CS_ENGINE_H
#define PLUGIN_COMPRESSION_STATS_CS_ENGINE_H

/**
  @file plugin/compression_stats/cs_engine.h
  Access to InnoDB's compression statistics through the component service
  "innodb_compression_stats" (the plugin never reaches into InnoDB).
*/

#include <mysql/components/services/innodb_compression_estimate.h>
#include <mysql/components/services/innodb_compression_stats.h>

#include <cstdint>

namespace compression_stats {

/** Acquire the service. @return true on failure (error already logged). */
bool engine_acquire();

/** Release the service. */
void engine_release();

/** Read the statistics of one table or partition, under a metadata lock
the caller holds on the table (get_table_stats_by_name(): a table that
InnoDB has not cached is loaded through the shared dictionary cache).
@param schema    schema name as the data dictionary stores it
@param table     table name as the data dictionary stores it
@param table_id  InnoDB table id (dd se_private_id of the table or of a
                 leaf partition)
@param[out] out  statistics
@return true if the table is not available */
bool engine_get_table(const char *schema, const char *table, uint64_t table_id,
                      innodb_zip_table_stats_t *out);

/** Run InnoDB's savings estimator on one table or partition.
@see innodb_compression_estimate::estimate_table
@return an innodb_zip_est_status_t; INNODB_ZIP_EST_NO_TABLE if this
InnoDB has no estimator */
int engine_estimate(uint64_t table_id, uint64_t sample_pages, bool full_scan,
                    innodb_zip_est_progress_t progress, void *ctx,
                    innodb_zip_estimate_t *out);

/** Whether this InnoDB provides the estimator. */
bool engine_has_estimator();

/** innodb_page_size in KB, read through the server's system variable
service; 0 if it cannot be read. */
unsigned engine_page_kb();

}  // namespace compression_stats

#endif  // PLUGIN_COMPRESSION_STATS_CS_ENGINE_H
