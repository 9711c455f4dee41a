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
  @file plugin/compression_stats/cs_udf.cc
  COMPRESSION_STATS_ESTIMATE() and the life of the estimates; see
  cs_udf.h.

  The store (cs_store.h) maps InnoDB table ids to the last estimate.
  Table ids are never reused and change when a table is rebuilt, so an
  estimate can never be shown for other data than the data it was computed
  from: a dropped or rebuilt table simply has no estimate, and its entry is
  purged at the store's next compaction.

  performance_schema: the stages "estimating compression savings" (with
  progress) and "waiting for an estimate to end", the memory of the answer
  (memory/compression_stats/estimate_result), the mutex and condition of
  the slots (estimate_slots).
*/

#ifndef LOG_COMPONENT_TAG
#define LOG_COMPONENT_TAG "compression_stats"
#endif

#include "plugin/compression_stats/cs_udf.h"

#include <mysql/components/services/registry.h>
#include <mysql/components/services/udf_metadata.h>
#include <mysql/components/services/udf_registration.h>
#include <mysql/plugin.h>
#include <mysql/psi/mysql_cond.h>
#include <mysql/psi/mysql_memory.h>
#include <mysql/psi/mysql_mutex.h>
#include <mysql/psi/mysql_stage.h>
#include <mysql/service_plugin_registry.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "my_sys.h"
#include "mysql/components/services/log_builtins.h"
#include "mysql/strings/m_ctype.h"
#include "mysqld_error.h"
#include "plugin/compression_stats/cs_advice.h"
#include "plugin/compression_stats/cs_dd_walk.h"
#include "plugin/compression_stats/cs_engine.h"
#include "plugin/compression_stats/cs_privileges.h"
#include "plugin/compression_stats/cs_store.h"
#include "plugin/compression_stats/cs_sysvars.h"
#include "sql/auth/sql_security_ctx.h"
#include "sql/derror.h"
#include "sql/mysqld.h"
#include "sql/sql_class.h"
#include "sql/sql_error.h"

namespace compression_stats {

namespace {

/** Name of the loadable function. */
constexpr const char *udf_name = "compression_stats_estimate";

/** The stages of the function: estimating (with its progress), and
waiting for a slot (Estimate_slot). */
PSI_stage_info stage_estimating = {0, "estimating compression savings",
                                   PSI_FLAG_STAGE_PROGRESS, PSI_DOCUMENT_ME};
PSI_stage_info stage_waiting = {0, "waiting for an estimate to end", 0,
                                PSI_DOCUMENT_ME};
PSI_stage_info *stages[] = {&stage_estimating, &stage_waiting};

/** The answer of the function (result_len bytes per call). */
PSI_memory_key key_memory_result;
PSI_memory_info memory_info[] = {
    {&key_memory_result, "estimate_result", 0, 0,
     "The answer of COMPRESSION_STATS_ESTIMATE()."}};

/** The mutex and condition of the slots (Estimate_slot). */
PSI_mutex_key key_slot_mutex;
PSI_mutex_info slot_mutex_info[] = {
    {&key_slot_mutex, "estimate_slots", PSI_FLAG_SINGLETON, 0,
     PSI_DOCUMENT_ME}};
PSI_cond_key key_slot_cond;
PSI_cond_info slot_cond_info[] = {
    {&key_slot_cond, "estimate_slots", PSI_FLAG_SINGLETON, 0,
     PSI_DOCUMENT_ME}};

/** Estimates running; protected by slot_mutex. */
ulong slots_used = 0;
mysql_mutex_t slot_mutex;
mysql_cond_t slot_cond;

/** One of the compression_stats_estimate_max_running estimates that may
run at once, for the lifetime of the object: the others wait in the stage
"waiting for an estimate to end" (KILL QUERY ends the wait with
ER_QUERY_INTERRUPTED). Each estimate holds scratch pages of the buffer pool
and a bounded sample of record sizes (dict0zip_est.cc), so this bounds the
estimator's memory on the server. */
class Estimate_slot {
 public:
  explicit Estimate_slot(THD *thd) {
    mysql_mutex_lock(&slot_mutex);
    if (slots_used >= sysvar_max_running) {
      PSI_stage_info old_stage;
      thd->ENTER_COND(&slot_cond, &slot_mutex, &stage_waiting, &old_stage);
      while (slots_used >= sysvar_max_running && !thd_killed(thd)) {
        struct timespec abstime;
        set_timespec(&abstime, 1);
        mysql_cond_timedwait(&slot_cond, &slot_mutex, &abstime);
      }
      m_have = !thd_killed(thd);
      if (m_have) {
        slots_used++;
      }
      mysql_mutex_unlock(&slot_mutex);
      thd->EXIT_COND(&old_stage);
      return;
    }
    slots_used++;
    m_have = true;
    mysql_mutex_unlock(&slot_mutex);
  }
  ~Estimate_slot() {
    if (m_have) {
      mysql_mutex_lock(&slot_mutex);
      slots_used--;
      mysql_cond_signal(&slot_cond);
      mysql_mutex_unlock(&slot_mutex);
    }
  }
  Estimate_slot(const Estimate_slot &) = delete;
  Estimate_slot &operator=(const Estimate_slot &) = delete;
  /** Whether the slot was obtained (false: the query was killed). */
  bool have() const { return m_have; }

 private:
  bool m_have{false};
};

/** Declare the character set of the function's name arguments and answer
(utf8mb3, the character set of identifiers): the server converts the
arguments from the client's character set, so that a latin1 client names a
table café as a utf8mb4 client does. */
void declare_charsets(UDF_INIT *initid, UDF_ARGS *args) {
  SERVICE_TYPE(registry) *r = mysql_plugin_registry_acquire();
  if (r == nullptr) {
    return;
  }
  my_h_service h = nullptr;
  if (!r->acquire("mysql_udf_metadata", &h) && h != nullptr) {
    auto *svc = reinterpret_cast<SERVICE_TYPE(mysql_udf_metadata) *>(h);
    char cs[] = "utf8mb3";
    svc->argument_set(args, "charset", 0, cs);
    svc->argument_set(args, "charset", 1, cs);
    svc->result_set(initid, "charset", cs);
    r->release(h);
  }
  mysql_plugin_registry_release(r);
}

/** Whether the function is registered. */
bool udf_registered = false;

/** Lower-case a name as the data dictionary stores it. */
std::string dd_name(const char *s) {
  char buf[NAME_LEN + 1];
  snprintf(buf, sizeof buf, "%s", s);
  if (lower_case_table_names != 0) {
    my_casedn_str(files_charset_info, buf);
  }
  return buf;
}

/** Whether the user may estimate a table (may_see_estimates(): SELECT on
the whole table, or PROCESS); raises the error if not.
@return true if not */
bool check_select(THD *thd, const std::string &db, const std::string &tbl) {
  if (may_see_estimates(thd, db.c_str(), tbl.c_str())) {
    return false;
  }
  Security_context *sctx = thd->security_context();
  my_error(ER_TABLEACCESS_DENIED_ERROR, MYF(0), "SELECT",
           sctx->priv_user().str, sctx->host_or_ip().str, tbl.c_str());
  return true;
}

/** Progress of the stage across the partitions of a table. */
struct Progress {
  PSI_stage_progress *psi;
  /** Work done in the partitions before the current one. */
  uint64_t base;
  /** Partitions after the current one. */
  uint64_t remaining;
  /** Work of the current partition when it finished. */
  uint64_t last_total;
};

/** The estimator's progress callback (innodb_zip_est_progress_t): the
work of the stage over the whole table.
@param ctx    the Progress
@param done   work done in the current partition
@param total  work of the current partition */
void on_progress(void *ctx, uint64_t done, uint64_t total) {
  auto *p = static_cast<Progress *>(ctx);
  p->last_total = total;
  /* Later partitions are assumed to be as big as this one. */
  mysql_stage_set_work_estimated(p->psi, p->base + total * (1 + p->remaining));
  mysql_stage_set_work_completed(p->psi, p->base + done);
}

/** Raise the error of an estimator status. */
void raise_status(int status, const std::string &db, const std::string &tbl) {
  const char *d = db.c_str();
  const char *t = tbl.c_str();
  switch (status) {
    case INNODB_ZIP_EST_DROPPED:
      my_error(ER_COMPRESSION_STATS_TABLE_DROPPED, MYF(0), d, t);
      break;
    case INNODB_ZIP_EST_ALTERED:
      my_error(ER_COMPRESSION_STATS_TABLE_ALTERED, MYF(0), d, t);
      break;
    case INNODB_ZIP_EST_REDUNDANT:
      my_error(ER_COMPRESSION_STATS_REDUNDANT, MYF(0), d, t);
      break;
    case INNODB_ZIP_EST_INTERRUPTED:
      my_error(ER_QUERY_INTERRUPTED, MYF(0));
      break;
    case INNODB_ZIP_EST_UNREADABLE:
      my_error(ER_COMPRESSION_STATS_NO_TABLESPACE, MYF(0), d, t);
      break;
    case INNODB_ZIP_EST_INSTANT:
      my_error(ER_COMPRESSION_STATS_INSTANT_COLUMNS, MYF(0), d, t);
      break;
    case INNODB_ZIP_EST_PAGE_SIZE:
      my_error(ER_COMPRESSION_STATS_PAGE_SIZE, MYF(0), d, t);
      break;
    default:
      my_error(ER_COMPRESSION_STATS_NOT_ESTIMABLE, MYF(0), d, t);
      break;
  }
}

/** Result buffer of the function. */
constexpr size_t result_len = 512;

/** The function's init: checks the number of arguments, asks for the
names as strings and the sample as a number or a string, allocates the
answer (memory/compression_stats/estimate_result) and declares utf8mb3.
@return true on error (message set) */
bool udf_init(UDF_INIT *initid, UDF_ARGS *args, char *message) {
  if (args->arg_count < 2 || args->arg_count > 3) {
    snprintf(message, MYSQL_ERRMSG_SIZE,
             "COMPRESSION_STATS_ESTIMATE(schema, table [, sample_pages | "
             "'FULL']) takes 2 or 3 arguments");
    return true;
  }
  args->arg_type[0] = STRING_RESULT;
  args->arg_type[1] = STRING_RESULT;
  if (args->arg_count == 3 && args->arg_type[2] != INT_RESULT) {
    args->arg_type[2] = STRING_RESULT;
  }
  initid->maybe_null = true;
  initid->const_item = false;
  initid->max_length = result_len;
  initid->ptr =
      static_cast<char *>(my_malloc(key_memory_result, result_len, MYF(0)));
  if (initid->ptr == nullptr) {
    snprintf(message, MYSQL_ERRMSG_SIZE, "out of memory");
    return true;
  }
  declare_charsets(initid, args);
  return false;
}

/** The function's deinit: frees the answer. */
void udf_deinit(UDF_INIT *initid) { my_free(initid->ptr); }

/** The third argument of the function: the leaf pages to sample per
index, or 'FULL' (every page); compression_stats_estimate_sample_pages
when it is absent or NULL.
@param[in]  args    the arguments
@param[out] sample  pages to sample
@param[out] full    whether to read every page
@return true on error (raised: not a positive number nor 'FULL') */
bool parse_sample(const UDF_ARGS *args, uint64_t *sample, bool *full) {
  *sample = sysvar_sample_pages;
  *full = false;
  if (args->arg_count != 3 || args->args[2] == nullptr) {
    return false;
  }
  if (args->arg_type[2] == INT_RESULT) {
    const long long v = *reinterpret_cast<long long *>(args->args[2]);
    if (v < 1) {
      const std::string shown = std::to_string(v);
      my_error(ER_COMPRESSION_STATS_BAD_SAMPLE, MYF(0),
               "COMPRESSION_STATS_ESTIMATE", shown.c_str());
      return true;
    }
    *sample = static_cast<uint64_t>(v);
    return false;
  }
  const std::string a(args->args[2], args->lengths[2]);
  if (native_strcasecmp(a.c_str(), "FULL") == 0) {
    *full = true;
    return false;
  }
  char *end = nullptr;
  const long long v = strtoll(a.c_str(), &end, 10);
  if (a.empty() || end == nullptr || *end != '\0' || v < 1) {
    const std::string shown = "'" + a.substr(0, 64) + "'";
    my_error(ER_COMPRESSION_STATS_BAD_SAMPLE, MYF(0),
             "COMPRESSION_STATS_ESTIMATE", shown.c_str());
    return true;
  }
  *sample = static_cast<uint64_t>(v);
  return false;
}

/** Run the estimator on every partition of a table, in the stage
"estimating compression savings" with its progress; stops at the first
partition that cannot be estimated.
@param[in]  thd      the session
@param[in]  targets  the partitions (or the table)
@param[in]  sample   leaf pages to sample per index
@param[in]  full     whether to read every page
@param[out] results  the estimates, one per target
@param[out] start    when the estimates started
@return an innodb_zip_est_status_t: INNODB_ZIP_EST_OK, or the status of
the partition that failed */
int estimate_targets(THD *thd, const std::vector<Target> &targets,
                     uint64_t sample, bool full, std::vector<Estimate> *results,
                     std::chrono::steady_clock::time_point *start) {
  PSI_stage_info old_stage;
  thd->enter_stage(&stage_estimating, &old_stage, __func__, __FILE__,
                   __LINE__);
  Progress progress{thd->m_stage_progress_psi, 0, targets.size(), 0};
  *start = std::chrono::steady_clock::now();

  results->resize(targets.size());
  int status = INNODB_ZIP_EST_OK;
  for (size_t i = 0; i < targets.size() && status == INNODB_ZIP_EST_OK; i++) {
    progress.remaining = targets.size() - i - 1;
    progress.last_total = 0;
    status = engine_estimate(targets[i].id, sample, full, on_progress,
                             &progress, &(*results)[i].e);
    progress.base += progress.last_total;
    (*results)[i].computed_at = time(nullptr);
  }
  mysql_stage_set_work_estimated(progress.psi, progress.base);
  thd->enter_stage(&old_stage, nullptr, __func__, __FILE__, __LINE__);
  return status;
}

/** Store the estimates of a table's partitions (a warning if they could
not be written to the file) and write the answer of the function: the
savings of the whole table at compression_stats_target_key_block_size,
from the partitions that have a figure, as SPACE_SAVINGS counts them.
@param[in]  thd      the session
@param[in]  db       schema name
@param[in]  tbl      table name
@param[in]  targets  the partitions (or the table)
@param[in]  results  their estimates
@param[in]  secs     seconds the estimates took
@param[out] out      the answer, result_len bytes */
void save_and_answer(THD *thd, const std::string &db, const std::string &tbl,
                     const std::vector<Target> &targets,
                     const std::vector<Estimate> &results, double secs,
                     char *out) {
  double uncompressed = 0;
  double pages = 0;
  uint64_t sampled = 0;
  uint64_t leaf = 0;
  uint32_t logical = 0;
  const uint target_kbs = target_kbs_of(thd);
  std::vector<std::pair<uint64_t, Estimate>> entries;
  entries.reserve(targets.size());
  for (size_t i = 0; i < targets.size(); i++) {
    const innodb_zip_estimate_t &e = results[i].e;
    entries.emplace_back(targets[i].id, results[i]);
    double p;
    if (compressed_pages(e, target_kbs, false, &p)) {
      pages += p;
      uncompressed += e.full_pages;
    }
    sampled += e.sampled_pages;
    leaf += e.leaf_pages;
    logical = e.logical_page_size;
  }
  const bool saved = store_put(thd, entries);
  if (!saved) {
    push_warning_printf(thd, Sql_condition::SL_WARNING,
                        ER_COMPRESSION_STATS_NOT_SAVED,
                        ER_THD(thd, ER_COMPRESSION_STATS_NOT_SAVED),
                        store_file);
  }

  if (logical == 0 || uncompressed == 0) {
    snprintf(out, result_len,
             "%s.%s: estimated %zu partition(s) from %llu of %llu leaf pages "
             "in %.1f s",
             db.c_str(), tbl.c_str(), targets.size(),
             static_cast<unsigned long long>(sampled),
             static_cast<unsigned long long>(leaf), secs);
  } else {
    const double ss =
        savings_pct(pages, target_kbs, uncompressed, logical);
    snprintf(out, result_len,
             "%s.%s: SPACE_SAVINGS at KEY_BLOCK_SIZE=%u %.1f %% (CP_ss %.0f "
             "%%), from %llu of %llu leaf pages in %.1f s",
             db.c_str(), tbl.c_str(), target_kbs, ss,
             expected_savings(target_kbs, logical),
             static_cast<unsigned long long>(sampled),
             static_cast<unsigned long long>(leaf), secs);
  }
}

/** COMPRESSION_STATS_ESTIMATE(schema, table [, sample_pages | 'FULL']):
the arguments, the checks (the store open, an estimator, the privilege,
the table), a slot, the estimates, the answer. */
char *udf_estimate(UDF_INIT *initid, UDF_ARGS *args, char *,
                   unsigned long *length, unsigned char *is_null,
                   unsigned char *error) {
  THD *thd = current_thd;
  *is_null = 1;
  *error = 1;

  if (args->args[0] == nullptr || args->args[1] == nullptr) {
    my_error(ER_COMPRESSION_STATS_NULL_ARGUMENT, MYF(0),
             "COMPRESSION_STATS_ESTIMATE");
    return nullptr;
  }
  const std::string db =
      dd_name(std::string(args->args[0], args->lengths[0]).c_str());
  const std::string tbl =
      dd_name(std::string(args->args[1], args->lengths[1]).c_str());

  uint64_t sample = 0;
  bool full = false;
  if (parse_sample(args, &sample, &full)) {
    return nullptr;
  }

  /* Keeps the store and the engine service for the whole estimate. The
  function cannot run once the plugin is being uninstalled (it is
  unregistered first, which fails while a statement uses it), but the
  server's shutdown does not ask. */
  const Store_use use;
  if (!use.entered()) {
    my_error(ER_COMPRESSION_STATS_UNINSTALLING, MYF(0),
             "COMPRESSION_STATS_ESTIMATE");
    return nullptr;
  }
  if (!engine_has_estimator()) {
    my_error(ER_COMPRESSION_STATS_NO_ESTIMATOR, MYF(0));
    return nullptr;
  }
  if (check_select(thd, db, tbl)) {
    return nullptr;
  }
  std::vector<Target> targets;
  if (resolve_targets(thd, db, tbl, &targets)) {
    return nullptr;
  }
  const Estimate_slot slot(thd);
  if (!slot.have()) {
    my_error(ER_QUERY_INTERRUPTED, MYF(0));
    return nullptr;
  }

  std::vector<Estimate> results;
  std::chrono::steady_clock::time_point start;
  const int status =
      estimate_targets(thd, targets, sample, full, &results, &start);
  if (status != INNODB_ZIP_EST_OK) {
    if (!thd->is_error()) {
      raise_status(status, db, tbl);
    }
    return nullptr;
  }

  const double secs = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  char *out = initid->ptr;
  save_and_answer(thd, db, tbl, targets, results, secs, out);
  *length = strlen(out);
  *is_null = 0;
  *error = 0;
  return out;
}

/** Register or unregister the function. @return true on error */
bool udf_registration(bool reg) {
  SERVICE_TYPE(registry) *r = mysql_plugin_registry_acquire();
  if (r == nullptr) {
    return true;
  }
  bool err = true;
  my_h_service h = nullptr;
  if (!r->acquire("udf_registration", &h) && h != nullptr) {
    auto *udf = reinterpret_cast<SERVICE_TYPE(udf_registration) *>(h);
    if (reg) {
      err = udf->udf_register(udf_name, STRING_RESULT,
                              reinterpret_cast<Udf_func_any>(udf_estimate),
                              udf_init, udf_deinit);
    } else {
      int was_present = 0;
      err = udf->udf_unregister(udf_name, &was_present) != 0;
    }
    r->release(h);
  }
  mysql_plugin_registry_release(r);
  return err;
}

}  // namespace

bool estimates_init() {
  mysql_stage_register("compression_stats", stages, 2);
  mysql_memory_register("compression_stats", memory_info, 1);
  mysql_mutex_register(psi_lock_category, slot_mutex_info, 1);
  mysql_cond_register(psi_lock_category, slot_cond_info, 1);
  mysql_mutex_init(key_slot_mutex, &slot_mutex, MY_MUTEX_INIT_FAST);
  mysql_cond_init(key_slot_cond, &slot_cond);
  slots_used = 0;
  store_open();
  store_guard_open();
  if (udf_registration(true)) {
    LogPluginErr(WARNING_LEVEL, ER_COMPRESSION_STATS_UDF_REGISTER_FAILED,
                 udf_name);
  } else {
    udf_registered = true;
  }
  return false;
}

int estimates_check_uninstall() {
  if (!udf_registered) {
    return 0;
  }
  /* The server refuses to unregister a function that a statement is
  using (from its preparation to its end); once it is unregistered, no
  statement can start using it. A prepared statement does not hold it
  between executions: each EXECUTE looks the function up again and fails
  cleanly if it is gone. */
  if (udf_registration(false)) {
    THD *thd = current_thd;
    if (thd != nullptr) {
      push_warning_printf(thd, Sql_condition::SL_WARNING,
                          ER_COMPRESSION_STATS_FUNCTION_RUNNING,
                          ER_THD(thd, ER_COMPRESSION_STATS_FUNCTION_RUNNING),
                          udf_name);
    }
    return 1;
  }
  udf_registered = false;
  return 0;
}

void estimates_deinit() {
  if (udf_registered) {
    /* Server shutdown, where no statement runs any more. */
    if (udf_registration(false)) {
      LogPluginErr(WARNING_LEVEL, ER_COMPRESSION_STATS_UDF_UNREGISTER_FAILED,
                   udf_name);
    }
    udf_registered = false;
  }
  store_guard_close();
  store_close();
  mysql_cond_destroy(&slot_cond);
  mysql_mutex_destroy(&slot_mutex);
}

}  // namespace compression_stats
