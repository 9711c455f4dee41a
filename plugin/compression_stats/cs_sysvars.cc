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
  @file plugin/compression_stats/cs_sysvars.cc
  The system and status variables of the plugin, their check functions and
  the check of their start-up values; see cs_sysvars.h.
*/

#ifndef LOG_COMPONENT_TAG
#define LOG_COMPONENT_TAG "compression_stats"
#endif

#include "plugin/compression_stats/cs_sysvars.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "my_sys.h"
#include "mysql/components/services/log_builtins.h"
#include "mysqld_error.h"
#include "plugin/compression_stats/cs_advice.h"
#include "plugin/compression_stats/cs_engine.h"
#include "plugin/compression_stats/cs_store.h"

namespace compression_stats {

ulong sysvar_sample_pages = 128;
ulong sysvar_max_running = 2;

}  // namespace compression_stats

namespace {

/** Refuse a value with the server's message for it. */
int wrong_value(SYS_VAR *var, const char *shown) {
  my_error(ER_WRONG_VALUE_FOR_VAR, MYF(0), var->name, shown);
  return 1;
}

/** Why a KEY_BLOCK_SIZE cannot be the SELECTIVE target, or nullptr.
@param v  size in KB */
const char *target_kbs_invalid(long long v) {
  if (v <= 0 || v > 16 ||
      compression_stats::kbs_index(static_cast<uint>(v)) < 0) {
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

/** Compression_stats_estimates: the estimates in memory. */
int show_estimates(MYSQL_THD thd, SHOW_VAR *var, char *buf) {
  return show_store(thd, var, buf, false);
}

/** Compression_stats_estimates_journal_lines: the lines of the journal. */
int show_journal_lines(MYSQL_THD thd, SHOW_VAR *var, char *buf) {
  return show_store(thd, var, buf, true);
}

}  // namespace

namespace compression_stats {

SHOW_VAR status_variables[] = {
    {"Compression_stats_estimates", reinterpret_cast<char *>(show_estimates),
     SHOW_FUNC, SHOW_SCOPE_GLOBAL},
    {"Compression_stats_estimates_journal_lines",
     reinterpret_cast<char *>(show_journal_lines), SHOW_FUNC,
     SHOW_SCOPE_GLOBAL},
    {nullptr, nullptr, SHOW_UNDEF, SHOW_SCOPE_UNDEF}};

SYS_VAR *system_variables[] = {
    MYSQL_SYSVAR(delta), MYSQL_SYSVAR(target_key_block_size),
    MYSQL_SYSVAR(estimate_sample_pages), MYSQL_SYSVAR(estimate_max_running),
    nullptr};

double delta_of(THD *thd) { return THDVAR(thd, delta); }

uint target_kbs_of(THD *thd) { return THDVAR(thd, target_key_block_size); }

void validate_startup_values() {
  uint &kbs = THDVAR(nullptr, target_key_block_size);
  const char *why = target_kbs_invalid(kbs);
  if (why != nullptr) {
    const uint page_kb = compression_stats::engine_page_kb();
    const uint fallback = page_kb != 0 && page_kb < 8 ? page_kb : 8;
    LogPluginErr(WARNING_LEVEL, ER_COMPRESSION_STATS_STARTUP_VALUE_REPLACED,
                 "compression_stats_target_key_block_size", kbs, why,
                 fallback);
    kbs = fallback;
  }
}

}  // namespace compression_stats
