/* Copyright (c) 2026, the mysql-compress authors.

This program is free software; you can redistribute it and/or modify it under
the terms of the GNU General Public License, version 2.0, as published by the
Free Software Foundation. */

/**
  @file plugin/compression_stats/compression_stats.cc
  Plugin declaration of INFORMATION_SCHEMA.COMPRESSION_STATS.

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
#include "plugin/compression_stats/cs_table.h"
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
    LogPluginErrMsg(ERROR_LEVEL, ER_LOG_PRINTF_MSG,
                    "The innodb_compression_stats service is not available: "
                    "this server's InnoDB does not carry the mysql-compress "
                    "patches");
    deinit_logging_service_for_plugin(&log_reg_srv, &log_bi, &log_bs);
    return 1;
  }
  auto *schema = static_cast<ST_SCHEMA_TABLE *>(p);
  schema->fields_info = compression_stats::table_fields;
  schema->fill_table = compression_stats::fill_table;
  return 0;
}

int compression_stats_deinit(void *) {
  compression_stats::engine_release();
  deinit_logging_service_for_plugin(&log_reg_srv, &log_bi, &log_bs);
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
    nullptr,
    compression_stats_deinit,
    0x0100,
    nullptr,
    nullptr,
    nullptr,
    0,
} mysql_declare_plugin_end;
