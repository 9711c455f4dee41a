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
  @file plugin/compression_stats/compression_stats.cc
  Plugin declaration of INFORMATION_SCHEMA.COMPRESSION_STATS and
  INFORMATION_SCHEMA.COMPRESSION_ESTIMATES: their init and deinit
  functions and the error log services. What the plugin does is in the
  cs_*.h files: cs_table.h and cs_estimates.h (the two tables), cs_udf.h
  (COMPRESSION_STATS_ESTIMATE()), cs_store.h (the estimates store),
  cs_sysvars.h (system and status variables), cs_dd_walk.h (the data
  dictionary), cs_privileges.h, cs_advice.h (hints and verdicts),
  cs_fields.h, cs_engine.h (the InnoDB services).

  INSTALL PLUGIN compression_stats SONAME 'compression_stats.so';
  or --plugin-load-add=compression_stats.so
*/

#ifndef LOG_COMPONENT_TAG
#define LOG_COMPONENT_TAG "compression_stats"
#endif

#include <mysql/plugin.h>

#include "mysql/components/services/log_builtins.h"
#include "mysqld_error.h"
#include "plugin/compression_stats/cs_engine.h"
#include "plugin/compression_stats/cs_estimates.h"
#include "plugin/compression_stats/cs_sysvars.h"
#include "plugin/compression_stats/cs_table.h"
#include "plugin/compression_stats/cs_udf.h"
#include "sql/sql_show.h"
#include "sql/table.h"

/* Error log services, named as LogPluginErrMsg() expects. */
SERVICE_TYPE(log_builtins) *log_bi = nullptr;
SERVICE_TYPE(log_builtins_string) *log_bs = nullptr;

namespace {

/** Registry handle of the logging services. */
SERVICE_TYPE(registry) *log_reg_srv = nullptr;

/** Initialize the INFORMATION_SCHEMA plugin. Fails when InnoDB's
compression statistics service is not available. */
int compression_stats_init(void *p) {
  if (init_logging_service_for_plugin(&log_reg_srv, &log_bi, &log_bs)) {
    return 1;
  }
  if (compression_stats::engine_acquire()) {
    LogPluginErr(ERROR_LEVEL, ER_COMPRESSION_STATS_NO_SERVICE);
    deinit_logging_service_for_plugin(&log_reg_srv, &log_bi, &log_bs);
    return 1;
  }
  auto *schema = static_cast<ST_SCHEMA_TABLE *>(p);
  schema->fields_info = compression_stats::table_fields;
  schema->fill_table = compression_stats::fill_table;
  compression_stats::estimates_init();
  compression_stats::validate_startup_values();
  return 0;
}

/** Refuse UNINSTALL PLUGIN while COMPRESSION_STATS_ESTIMATE() is in use:
the server would unload the library under it. */
int compression_stats_check_uninstall(void *) {
  return compression_stats::estimates_check_uninstall();
}

int compression_stats_deinit(void *) {
  compression_stats::estimates_deinit();
  compression_stats::engine_release();
  deinit_logging_service_for_plugin(&log_reg_srv, &log_bi, &log_bs);
  return 0;
}

/** INFORMATION_SCHEMA.COMPRESSION_ESTIMATES: the stored estimates, which
the COMPRESSION_STATS plugin keeps. */
int compression_estimates_init(void *p) {
  auto *schema = static_cast<ST_SCHEMA_TABLE *>(p);
  schema->fields_info = compression_stats::estimate_fields;
  schema->fill_table = compression_stats::fill_estimates;
  return 0;
}

struct st_mysql_information_schema compression_stats_info = {
    MYSQL_INFORMATION_SCHEMA_INTERFACE_VERSION};

}  // namespace

mysql_declare_plugin(compression_stats){
    MYSQL_INFORMATION_SCHEMA_PLUGIN,
    &compression_stats_info,
    "COMPRESSION_STATS",
    "mysql-compress authors",
    "Per-table InnoDB compression statistics and space facts",
    PLUGIN_LICENSE_GPL,
    compression_stats_init,
    compression_stats_check_uninstall,
    compression_stats_deinit,
    /* The server keeps the columns of a plugin's I_S table in the data
       dictionary and refreshes them only when this version changes: bump
       both versions whenever a column of either table changes. */
    0x0301,
    compression_stats::status_variables,
    compression_stats::system_variables,
    nullptr,
    0,
},
    {
        MYSQL_INFORMATION_SCHEMA_PLUGIN,
        &compression_stats_info,
        "COMPRESSION_ESTIMATES",
        "mysql-compress authors",
        "InnoDB's space savings estimates by KEY_BLOCK_SIZE",
        PLUGIN_LICENSE_GPL,
        compression_estimates_init,
        nullptr,
        nullptr,
        0x0301,
        nullptr,
        nullptr,
        nullptr,
        0,
    } mysql_declare_plugin_end;
