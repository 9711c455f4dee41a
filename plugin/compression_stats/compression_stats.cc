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
  Plugin declaration of INFORMATION_SCHEMA.COMPRESSION_STATS.

  INSTALL PLUGIN compression_stats SONAME 'compression_stats.so';
  or --plugin-load-add=compression_stats.so
*/

#ifndef LOG_COMPONENT_TAG
#define LOG_COMPONENT_TAG "compression_stats"
#endif

#include <mysql/plugin.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "mysql/components/services/log_builtins.h"
#include "mysqld_error.h"
#include "plugin/compression_stats/cs_engine.h"
#include "plugin/compression_stats/cs_estimates.h"
#include "plugin/compression_stats/cs_table.h"
#include "sql/table.h"

/* Error log services, named as LogPluginErrMsg() expects. */
SERVICE_TYPE(log_builtins) *log_bi = nullptr;
SERVICE_TYPE(log_builtins_string) *log_bs = nullptr;

namespace {

/** Registry handle of the logging services. */
SERVICE_TYPE(registry) *log_reg_srv = nullptr;

void validate_startup_values();

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
  validate_startup_values();
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

/** Refuse a value with the server's message for it. */
int wrong_value(SYS_VAR *var, const char *shown) {
  my_error(ER_WRONG_VALUE_FOR_VAR, MYF(0), var->name, shown);
  return 1;
}

/** Why a KEY_BLOCK_SIZE cannot be the SELECTIVE target, or nullptr.
@param v  size in KB */
const char *target_kbs_invalid(long long v) {
  if (v <= 0 || v > 16 || compression_stats::kbs_index(static_cast<uint>(v)) < 0) {
    return "KEY_BLOCK_SIZE is 1, 2, 4, 8 or 16";
  }
  const uint page_kb = compression_stats::engine_page_kb();
  if (page_kb != 0 && static_cast<uint>(v) > page_kb) {
    return "KEY_BLOCK_SIZE is at most innodb_page_size";
  }
  return nullptr;
}

/** compression_stats_delta: a number from 0 to 1. */
int check_delta(MYSQL_THD, SYS_VAR *var, void *save,
                struct st_mysql_value *value) {
  double d = 0;
  if (value->value_type(value) == MYSQL_VALUE_TYPE_STRING) {
    /* A quoted number, or a decimal literal, which arrives as a string. */
    char buf[64];
    int len = sizeof buf;
    const char *str = value->val_str(value, buf, &len);
    if (str == nullptr) {
      return wrong_value(var, "NULL");
    }
    const std::string v(str, static_cast<size_t>(len));
    char *end = nullptr;
    d = strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0') {
      return wrong_value(var, v.c_str());
    }
  } else {
    value->val_real(value, &d);
  }
  if (std::isnan(d) || d < 0.0 || d > 1.0) {
    char buf[64];
    snprintf(buf, sizeof buf, "%g (delta is a number from 0 to 1)", d);
    return wrong_value(var, buf);
  }
  *static_cast<double *>(save) = d;
  return 0;
}

/** compression_stats_target_key_block_size: 1, 2, 4, 8 or 16. */
int check_target_kbs(MYSQL_THD, SYS_VAR *var, void *save,
                     struct st_mysql_value *value) {
  if (value->value_type(value) != MYSQL_VALUE_TYPE_INT) {
    char buf[64];
    int len = sizeof buf;
    const char *str = value->val_str(value, buf, &len);
    return wrong_value(var, str != nullptr ? str : "NULL");
  }
  long long v = 0;
  value->val_int(value, &v);
  const char *why = target_kbs_invalid(v);
  if (why != nullptr) {
    char buf[120];
    snprintf(buf, sizeof buf, "%lld (%s)", v, why);
    return wrong_value(var, buf);
  }
  *static_cast<uint *>(save) = static_cast<uint>(v);
  return 0;
}

/* delta and target_key_block_size have a session value, so that the
advisor (compression_advisor.sql) can compute a plan at any size and delta
from the very verdicts COMPRESSION_STATS shows: one rule, one code path. */
MYSQL_THDVAR_DOUBLE(delta, PLUGIN_VAR_RQCMDARG,
                    "delta of the SELECTIVE strategy: a table is compressed "
                    "when its space savings are at least (1 - delta) times "
                    "the savings its compressed page size promises",
                    check_delta, nullptr, 0.10, 0.0, 1.0, 0);

MYSQL_THDVAR_UINT(target_key_block_size, PLUGIN_VAR_RQCMDARG,
                  "KEY_BLOCK_SIZE in KB that SELECTIVE verdicts of "
                  "uncompressed tables refer to: 1, 2, 4, 8 or 16, at most "
                  "innodb_page_size",
                  check_target_kbs, nullptr, 8, 1, 16, 0);

MYSQL_SYSVAR_ULONG(estimate_max_running,
                   compression_stats::sysvar_max_running, PLUGIN_VAR_RQCMDARG,
                   "COMPRESSION_STATS_ESTIMATE() calls that may run at once; "
                   "the others wait until one ends",
                   nullptr, nullptr, 2, 1, 64, 0);

MYSQL_SYSVAR_ULONG(estimate_sample_pages,
                   compression_stats::sysvar_sample_pages,
                   PLUGIN_VAR_RQCMDARG,
                   "Leaf pages per index that COMPRESSION_STATS_ESTIMATE() "
                   "trial-compresses when no sample size is given",
                   nullptr, nullptr, 128, 1, 1UL << 30, 0);

/** SHOW STATUS: the estimates in memory and the lines of their journal
(cs_store.h: the journal is compacted when it holds twice the estimates of
its last compaction plus 32 lines). */
int show_store(MYSQL_THD, SHOW_VAR *var, char *buf, bool lines) {
  uint64_t journal = 0;
  uint64_t entries = 0;
  compression_stats::estimates_store_sizes(&journal, &entries);
  var->type = SHOW_LONGLONG;
  var->value = buf;
  *reinterpret_cast<long long *>(buf) =
      static_cast<long long>(lines ? journal : entries);
  return 0;
}

int show_estimates(MYSQL_THD thd, SHOW_VAR *var, char *buf) {
  return show_store(thd, var, buf, false);
}

int show_journal_lines(MYSQL_THD thd, SHOW_VAR *var, char *buf) {
  return show_store(thd, var, buf, true);
}

SHOW_VAR compression_stats_status[] = {
    {"Compression_stats_estimates", reinterpret_cast<char *>(show_estimates),
     SHOW_FUNC, SHOW_SCOPE_GLOBAL},
    {"Compression_stats_estimates_journal_lines",
     reinterpret_cast<char *>(show_journal_lines), SHOW_FUNC,
     SHOW_SCOPE_GLOBAL},
    {nullptr, nullptr, SHOW_UNDEF, SHOW_SCOPE_UNDEF}};

SYS_VAR *compression_stats_sysvars[] = {
    MYSQL_SYSVAR(delta), MYSQL_SYSVAR(target_key_block_size),
    MYSQL_SYSVAR(estimate_sample_pages), MYSQL_SYSVAR(estimate_max_running),
    nullptr};

/** Check functions run only for SET: check the values the server was
started with (my.cnf, the command line) the same way, and replace a value
that SET would refuse with the default, saying so in the error log. */
void validate_startup_values() {
  uint &kbs = THDVAR(nullptr, target_key_block_size);
  const char *why = target_kbs_invalid(kbs);
  if (why != nullptr) {
    const uint page_kb = compression_stats::engine_page_kb();
    const uint fallback = page_kb != 0 && page_kb < 8 ? page_kb : 8;
    LogPluginErrMsg(WARNING_LEVEL, ER_COMPRESSION_STATS_STARTUP_VALUE_REPLACED,
                    "compression_stats_target_key_block_size", kbs, why,
                    fallback);
    kbs = fallback;
  }
}

}  // namespace

namespace compression_stats {

ulong sysvar_sample_pages = 128;
ulong sysvar_max_running = 2;

double delta_of(THD *thd) { return THDVAR(thd, delta); }

uint target_kbs_of(THD *thd) { return THDVAR(thd, target_key_block_size); }

}  // namespace compression_stats

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
    compression_stats_status,
    compression_stats_sysvars,
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
