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
  @file plugin/compression_stats/cs_estimates.cc
  COMPRESSION_STATS_ESTIMATE(), the store of estimates and
  INFORMATION_SCHEMA.COMPRESSION_ESTIMATES.

  The store (cs_store.h) maps InnoDB table ids to the last estimate.
  Table ids are never reused and change when a table is rebuilt, so an
  estimate can never be shown for other data than the data it was computed
  from: a dropped or rebuilt table simply has no estimate, and its entry is
  purged at the store's next compaction.
*/

#ifndef LOG_COMPONENT_TAG
#define LOG_COMPONENT_TAG "compression_stats"
#endif

#include "plugin/compression_stats/cs_estimates.h"

#include <mysql/components/services/registry.h>
#include <mysql/components/services/udf_metadata.h>
#include <mysql/components/services/udf_registration.h>
#include <mysql/psi/mysql_cond.h>
#include <mysql/psi/mysql_memory.h>
#include <mysql/plugin.h>
#include <mysql/psi/mysql_file.h>
#include <mysql/psi/mysql_mutex.h>
#include <mysql/psi/mysql_stage.h>
#include <mysql/service_plugin_registry.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "my_sys.h"
#include "mysql/components/services/log_builtins.h"
#include "mysql/strings/m_ctype.h"
#include "mysqld_error.h"
#include "plugin/compression_stats/cs_engine.h"
#include "sql/dd/properties.h"
#include "sql/dd/types/table.h"
#include "plugin/compression_stats/cs_store.h"
#include "plugin/compression_stats/cs_table.h"
#include "sql/auth/auth_acls.h"
#include "sql/auth/auth_common.h"
#include "sql/auth/sql_security_ctx.h"
#include "sql/dd/cache/dictionary_client.h"
#include "sql/dd/types/partition.h"
#include "sql/dd/types/schema.h"
#include "sql/dd/types/table.h"
#include "sql/derror.h"
#include "sql/field.h"
#include "sql/mdl.h"
#include "sql/mysqld.h"
#include "sql/sql_class.h"
#include "sql/tztime.h"
#include "sql_string.h"

namespace compression_stats {

namespace {

bool compressed_pages(const innodb_zip_estimate_t &e, uint kbs, bool rebuilt,
                      double *pages);
double savings_pct(double pages, uint kbs, double uncompressed_pages,
                   uint logical);

/** Name of the loadable function. */
constexpr const char *udf_name = "compression_stats_estimate";

constexpr uint kbs_list[INNODB_ZIP_EST_N_SIZES] = {1, 2, 4, 8, 16};

PSI_stage_info stage_estimating = {0, "estimating compression savings",
                                   PSI_FLAG_STAGE_PROGRESS, PSI_DOCUMENT_ME};
PSI_stage_info stage_waiting = {0, "waiting for an estimate to end", 0,
                                PSI_DOCUMENT_ME};
PSI_stage_info *stages[] = {&stage_estimating, &stage_waiting};

PSI_memory_key key_memory_result;
PSI_memory_info memory_info[] = {{&key_memory_result, "estimate_result", 0,
                                  0, "The answer of COMPRESSION_STATS_ESTIMATE()."}};

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

/** Bit of store_users: the store is closed (not yet loaded, or being
freed); no new user may enter. */
constexpr uint32_t store_closed = 1U << 31;

/** In-use guard of the store, its mutex and the engine service: the number
of threads using them (a running estimate, a lookup of COMPRESSION_STATS or
COMPRESSION_ESTIMATES), or'ed with store_closed. The fill of
COMPRESSION_ESTIMATES holds a reference to its own plugin only, so it can
run while COMPRESSION_STATS, which owns the store, is uninstalled:
estimates_deinit() closes the guard and waits for the users to leave
before it frees anything. */
std::atomic<uint32_t> store_users{store_closed};

/** Enter the guard. @return false if the store is closed */
bool store_enter() {
  uint32_t n = store_users.load();
  do {
    if (n & store_closed) {
      return false;
    }
  } while (!store_users.compare_exchange_weak(n, n + 1));
  return true;
}

/** Leave the guard entered by store_enter(). */
void store_leave() { store_users.fetch_sub(1); }

/** A use of the store for the lifetime of the object. */
class Store_use {
 public:
  Store_use() : m_entered(store_enter()) {}
  ~Store_use() {
    if (m_entered) {
      store_leave();
    }
  }
  Store_use(const Store_use &) = delete;
  Store_use &operator=(const Store_use &) = delete;
  /** Whether the store may be used. */
  bool entered() const { return m_entered; }

 private:
  const bool m_entered;
};

/** One table or partition to estimate. */
struct Target {
  std::string part;
  std::string subpart;
  uint64_t id;
};

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

/** The table's partitions (or the table itself) and their ids.
@return true on error (raised) */
bool resolve(THD *thd, const std::string &db, const std::string &tbl,
             std::vector<Target> *out) {
  MDL_request req;
  MDL_REQUEST_INIT(&req, MDL_key::TABLE, db.c_str(), tbl.c_str(),
                   MDL_SHARED_HIGH_PRIO, MDL_EXPLICIT);
  if (thd->mdl_context.acquire_lock(&req,
                                    thd->variables.lock_wait_timeout)) {
    return true;
  }
  bool err = false;
  {
    dd::cache::Dictionary_client *dc = thd->dd_client();
    const dd::cache::Dictionary_client::Auto_releaser releaser(dc);
    const dd::Table *tab = nullptr;
    if (dc->acquire(db.c_str(), tbl.c_str(), &tab)) {
      err = true;
    } else if (tab == nullptr) {
      my_error(ER_NO_SUCH_TABLE, MYF(0), db.c_str(), tbl.c_str());
      err = true;
    } else if (tab->engine() != "InnoDB") {
      my_error(ER_COMPRESSION_STATS_NOT_INNODB, MYF(0), db.c_str(),
               tbl.c_str(), tab->engine().c_str());
      err = true;
    } else if (tab->partition_type() == dd::Table::PT_NONE) {
      out->push_back({std::string(), std::string(), tab->se_private_id()});
    } else {
      for (const dd::Partition *p : tab->leaf_partitions()) {
        const dd::Partition *parent = p->parent();
        const dd::String_type &part =
            parent != nullptr ? parent->name() : p->name();
        out->push_back({std::string(part.c_str()),
                        parent != nullptr ? std::string(p->name().c_str())
                                          : std::string(),
                        p->se_private_id()});
      }
    }
  }
  thd->mdl_context.release_lock(req.ticket);
  return err;
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

void udf_deinit(UDF_INIT *initid) { my_free(initid->ptr); }

/** COMPRESSION_STATS_ESTIMATE(schema, table [, sample_pages | 'FULL']) */
char *udf_estimate(UDF_INIT *initid, UDF_ARGS *args, char *, unsigned long *length,
                   unsigned char *is_null, unsigned char *error) {
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

  uint64_t sample = sysvar_sample_pages;
  bool full = false;
  if (args->arg_count == 3 && args->args[2] != nullptr) {
    if (args->arg_type[2] == INT_RESULT) {
      const long long v = *reinterpret_cast<long long *>(args->args[2]);
      if (v < 1) {
        const std::string shown = std::to_string(v);
        my_error(ER_COMPRESSION_STATS_BAD_SAMPLE, MYF(0),
                 "COMPRESSION_STATS_ESTIMATE", shown.c_str());
        return nullptr;
      }
      sample = static_cast<uint64_t>(v);
    } else {
      const std::string a(args->args[2], args->lengths[2]);
      if (native_strcasecmp(a.c_str(), "FULL") == 0) {
        full = true;
      } else {
        char *end = nullptr;
        const long long v = strtoll(a.c_str(), &end, 10);
        if (a.empty() || end == nullptr || *end != '\0' || v < 1) {
          const std::string shown = "'" + a.substr(0, 64) + "'";
          my_error(ER_COMPRESSION_STATS_BAD_SAMPLE, MYF(0),
                   "COMPRESSION_STATS_ESTIMATE", shown.c_str());
          return nullptr;
        }
        sample = static_cast<uint64_t>(v);
      }
    }
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
  if (resolve(thd, db, tbl, &targets)) {
    return nullptr;
  }
  const Estimate_slot slot(thd);
  if (!slot.have()) {
    my_error(ER_QUERY_INTERRUPTED, MYF(0));
    return nullptr;
  }

  PSI_stage_info old_stage;
  thd->enter_stage(&stage_estimating, &old_stage, __func__, __FILE__,
                   __LINE__);
  Progress progress{thd->m_stage_progress_psi, 0, targets.size(), 0};
  const auto start = std::chrono::steady_clock::now();

  std::vector<Estimate> results(targets.size());
  int status = INNODB_ZIP_EST_OK;
  for (size_t i = 0; i < targets.size() && status == INNODB_ZIP_EST_OK; i++) {
    progress.remaining = targets.size() - i - 1;
    progress.last_total = 0;
    status = engine_estimate(targets[i].id, sample, full, on_progress,
                             &progress, &results[i].e);
    progress.base += progress.last_total;
    results[i].computed_at = time(nullptr);
  }
  mysql_stage_set_work_estimated(progress.psi, progress.base);
  thd->enter_stage(&old_stage, nullptr, __func__, __FILE__, __LINE__);

  if (status != INNODB_ZIP_EST_OK) {
    if (!thd->is_error()) {
      raise_status(status, db, tbl);
    }
    return nullptr;
  }

  const double secs = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();

  /* The whole table at the target size, for the answer: the partitions
  that have a figure, as SPACE_SAVINGS counts them. */
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

  char *out = initid->ptr;
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


enum ce_column {
  CE_TABLE_SCHEMA = 0,
  CE_TABLE_NAME,
  CE_PARTITION_NAME,
  CE_SUBPARTITION_NAME,
  CE_TABLE_ID,
  CE_IS_COMPRESSED,
  CE_PAGE_COMPRESSION,
  CE_METHOD,
  CE_KEY_BLOCK_SIZE,
  CE_SOURCE,
  CE_USED_PAGES,
  CE_UNCOMPRESSED_BYTES,
  CE_ESTIMATED_BYTES,
  CE_SPACE_SAVINGS,
  CE_REBUILT_SPACE_SAVINGS,
  CE_INSERTED_SPACE_SAVINGS,
  CE_CURRENT_SIZE_SAVINGS,
  CE_EXPECTED_SPACE_SAVINGS,
  CE_CLOSENESS,
  CE_ESTIMATED_FAILURE_PCT,
  CE_COMPRESSION_LEVEL,
  CE_COMPRESSION_CODEC,
  CE_SAMPLED_PAGES,
  CE_LEAF_PAGES,
  CE_FULL_SCAN,
  CE_OFF_PAGE_RECORDS,
  CE_OFF_PAGE_BYTES,
  CE_BLOB_PAGES,
  CE_FS_BLOCK_SIZE,
  CE_UNAVAILABLE_REASON,
  CE_COMPUTED_AT,
};

}  // namespace


ST_FIELD_INFO estimate_fields[] = {
    CS_STR("TABLE_SCHEMA", NAME_CHAR_LEN, 0),
    CS_STR("TABLE_NAME", NAME_CHAR_LEN, 0),
    CS_STR("PARTITION_NAME", NAME_CHAR_LEN, MY_I_S_MAYBE_NULL),
    CS_STR("SUBPARTITION_NAME", NAME_CHAR_LEN, MY_I_S_MAYBE_NULL),
    CS_U64("TABLE_ID", 0),
    CS_STR("IS_COMPRESSED", 3, 0),
    CS_STR("PAGE_COMPRESSION", 4, 0),
    CS_STR("METHOD", 20, 0),
    CS_U64("KEY_BLOCK_SIZE", MY_I_S_MAYBE_NULL),
    CS_STR("SOURCE", 10, 0),
    CS_U64("USED_PAGES", 0),
    CS_U64("UNCOMPRESSED_BYTES", 0),
    CS_U64("ESTIMATED_BYTES", MY_I_S_MAYBE_NULL),
    CS_DOUBLE("SPACE_SAVINGS"),
    CS_DOUBLE("REBUILT_SPACE_SAVINGS"),
    CS_DOUBLE("INSERTED_SPACE_SAVINGS"),
    CS_DOUBLE("CURRENT_SIZE_SAVINGS"),
    CS_DOUBLE("EXPECTED_SPACE_SAVINGS"),
    CS_DOUBLE("CLOSENESS"),
    CS_DOUBLE("ESTIMATED_FAILURE_PCT"),
    CS_U64("COMPRESSION_LEVEL", MY_I_S_MAYBE_NULL),
    CS_STR("COMPRESSION_CODEC", 8, 0),
    CS_U64("SAMPLED_PAGES", 0),
    CS_U64("LEAF_PAGES", 0),
    CS_STR("FULL_SCAN", 3, 0),
    CS_U64("OFF_PAGE_RECORDS", 0),
    CS_U64("OFF_PAGE_BYTES", 0),
    CS_U64("BLOB_PAGES", 0),
    CS_U64("FS_BLOCK_SIZE", MY_I_S_MAYBE_NULL),
    CS_STR("UNAVAILABLE_REASON", 160, MY_I_S_MAYBE_NULL),
    {"COMPUTED_AT", 0, MYSQL_TYPE_DATETIME, 0, MY_I_S_MAYBE_NULL, "", 0},
    {nullptr, 0, MYSQL_TYPE_NULL, 0, 0, nullptr, 0}};

int kbs_index(uint kbs) {
  for (int i = 0; i < INNODB_ZIP_EST_N_SIZES; i++) {
    if (kbs_list[i] == kbs) {
      return i;
    }
  }
  return -1;
}

namespace {

/** Pages of kbs KB a table or partition takes at that size.
@param[in]   e        its estimate
@param[in]   kbs      KEY_BLOCK_SIZE in KB
@param[in]   rebuilt  the estimate for a rebuild even if the table is
                      compressed at that size now
@param[out]  pages    the pages: measured (used now) for a table compressed
                      at that size unless rebuilt, else estimated
@return false if there is no figure (empty, size impossible) */
bool compressed_pages(const innodb_zip_estimate_t &e, uint kbs, bool rebuilt,
                      double *pages) {
  const int k = kbs_index(kbs);
  if (k < 0 || e.sizes[k].key_block_size == 0 || e.data_bytes == 0 ||
      e.full_pages == 0 || e.logical_page_size == 0) {
    return false;
  }
  const bool measured =
      !rebuilt && e.is_compressed && e.physical_page_size == kbs * 1024;
  *pages = static_cast<double>(measured ? e.used_pages : e.sizes[k].pages);
  return true;
}

/** Formula (1): savings in percent of pages of kbs KB against
uncompressed pages of logical bytes (full_pages, the baseline). */
double savings_pct(double pages, uint kbs, double uncompressed_pages,
                   uint logical) {
  return 100.0 * (1.0 - pages * kbs * 1024 / (uncompressed_pages * logical));
}

}  // namespace

bool estimate_savings(const innodb_zip_estimate_t &e, uint kbs,
                      Savings which, double *ss) {
  double pages;
  if (!compressed_pages(e, kbs, which != Savings::TABLE, &pages)) {
    return false;
  }
  switch (which) {
    case Savings::TABLE:
    case Savings::REBUILT:
      break;
    case Savings::INSERTED:
      pages = static_cast<double>(e.inserted_pages[kbs_index(kbs)]);
      if (pages == 0) {
        return false;
      }
      break;
    case Savings::CURRENT_SIZE:
      /* Against the pages in use now, of the table's page size now. */
      if (e.used_pages == 0 || e.physical_page_size == 0 ||
          current_bytes(e) <= 0) {
        return false;
      }
      *ss = 100.0 * (1.0 - pages * kbs * 1024 / current_bytes(e));
      return true;
  }
  *ss = savings_pct(pages, kbs, e.full_pages, e.logical_page_size);
  return true;
}

uint32_t dd_page_compression(const dd::Table &tab) {
  dd::String_type c;
  if (!tab.options().exists("compress") || tab.options().get("compress", &c)) {
    return 0;
  }
  if (my_strcasecmp(system_charset_info, c.c_str(), "zlib") == 0) {
    return 1;
  }
  if (my_strcasecmp(system_charset_info, c.c_str(), "lz4") == 0) {
    return 2;
  }
  return 0;
}

const char *page_unavailable_reason(const innodb_zip_estimate_t &e) {
  switch (e.page_status) {
    case INNODB_ZIP_EST_PAGE_OK:
      return nullptr;
    case INNODB_ZIP_EST_PAGE_SHARED_TABLESPACE:
      return "COMPRESSION needs a file-per-table tablespace: the table is in "
             "the system tablespace or a general tablespace";
    case INNODB_ZIP_EST_PAGE_NO_PUNCH_HOLE:
      return "the file system of the table's file cannot punch holes";
    case INNODB_ZIP_EST_PAGE_BLOCK_SIZE:
      return "the file system block is more than half a page: no page can "
             "shrink by a block";
    default:
      return "estimated before page compression was estimated: run "
             "COMPRESSION_STATS_ESTIMATE() again";
  }
}

double current_bytes(const innodb_zip_estimate_t &e) {
  const double used =
      static_cast<double>(e.used_pages) * e.physical_page_size;
  if (e.page_status == INNODB_ZIP_EST_PAGE_NOT_ESTIMATED ||
      e.page_compression == 0 || e.file_allocated_bytes == 0 ||
      e.file_bytes < used) {
    return used;
  }
  /* Free pages of the file are allocated (fallocate() or zeros written)
  and never punched: what is left is the pages in use. */
  const double in_use =
      static_cast<double>(e.file_allocated_bytes) - (e.file_bytes - used);
  return std::clamp(in_use, 0.0, used);
}

bool page_savings(const innodb_zip_estimate_t &e, int m, Savings which,
                  double *ss) {
  if (m < 0 || m >= INNODB_ZIP_EST_N_PAGE_METHODS ||
      page_unavailable_reason(e) != nullptr || e.data_bytes == 0 ||
      e.full_pages == 0 || e.logical_page_size == 0 ||
      e.page_bytes[m] == 0) {
    return false;
  }
  const double bytes = static_cast<double>(e.page_bytes[m]);
  if (which == Savings::CURRENT_SIZE) {
    const double now = current_bytes(e);
    if (now <= 0) {
      return false;
    }
    *ss = 100.0 * (1.0 - bytes / now);
    return true;
  }
  *ss = 100.0 * (1.0 - bytes / (static_cast<double>(e.full_pages) *
                                e.logical_page_size));
  return true;
}

double expected_savings(uint kbs, uint logical_page_size) {
  if (logical_page_size == 0 || kbs * 1024 > logical_page_size) {
    return 0;
  }
  return (1.0 - static_cast<double>(kbs) * 1024 / logical_page_size) * 100.0;
}

bool delta_close(double ss, double cp, double delta) {
  /* (1 - delta) * CP_ss <= T_ss. Above CP_ss counts as close (it hardly
  happens: the baseline is the records in full uncompressed pages, which no
  compressed page holds more of; README.md, "SELECTIVE"). With CP_ss = 0
  there is nothing to gain. */
  return cp > 0 && ss >= (1.0 - delta) * cp - 1e-9;
}

const char *selective_verdict(bool is_compressed, bool have_ss, bool empty,
                              double ss, double rebuilt_ss, double cp,
                              double delta, double *closeness) {
  *closeness = std::nan("");
  if (empty) {
    return "EMPTY_TABLE";
  }
  if (!have_ss) {
    return "NO_ESTIMATE";
  }
  if (cp > 0) {
    *closeness = ss / cp;
  }
  const bool close = delta_close(ss, cp, delta);
  if (is_compressed) {
    if (close) {
      return "KEEP_COMPRESSED";
    }
    /* The data compresses well, the pages are half empty: a rebuild at the
    same size makes the table delta-close. */
    return delta_close(rebuilt_ss, cp, delta) ? "REBUILD" : "UNCOMPRESS";
  }
  return close ? "COMPRESS" : "KEEP_UNCOMPRESSED";
}

void store_time(THD *thd, Field *f, time_t t) {
  MYSQL_TIME mt;
  thd->variables.time_zone->gmt_sec_to_TIME(&mt, static_cast<my_time_t>(t));
  f->set_notnull();
  f->store_time(&mt);
}

bool estimate_get(uint64_t table_id, Estimate *out) {
  const Store_use use;
  if (!use.entered()) {
    /* COMPRESSION_STATS, which keeps the estimates, is not installed. */
    return false;
  }
  return store_find(table_id, out);
}

void estimates_store_sizes(uint64_t *journal_lines, uint64_t *entries) {
  *journal_lines = *entries = 0;
  const Store_use use;
  if (use.entered()) {
    store_sizes(journal_lines, entries);
  }
}

bool estimates_init() {
  mysql_stage_register("compression_stats", stages, 2);
  mysql_memory_register("compression_stats", memory_info, 1);
  mysql_mutex_register("compression_stats", slot_mutex_info, 1);
  mysql_cond_register("compression_stats", slot_cond_info, 1);
  mysql_mutex_init(key_slot_mutex, &slot_mutex, MY_MUTEX_INIT_FAST);
  mysql_cond_init(key_slot_cond, &slot_cond);
  slots_used = 0;
  store_open();
  store_users.store(0);
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
  /* No new user; wait for the lookups (and estimates) under way. */
  store_users.fetch_or(store_closed);
  while ((store_users.load() & ~store_closed) != 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  store_close();
  mysql_cond_destroy(&slot_cond);
  mysql_mutex_destroy(&slot_mutex);
}

int fill_estimates(THD *thd, Table_ref *tables, Item *cond) {
  TABLE *t = tables->table;
  const Lookup lk = lookup_from_cond(cond, t);
  /* Only the tables whose estimates the user may see: the rule of the
  estimator itself (may_see_estimates()). */
  return for_each_table(
      thd,
      [&](const dd::Schema &sch, const dd::Table &tab, const char *part,
          const char *subpart, uint64_t id) {
        Estimate m;
        if (!estimate_get(id, &m)) {
          return false;
        }
        /* The table's COMPRESSION as the data dictionary has it (InnoDB's
        tablespace learns it only when a statement opens the table). */
        if (m.e.page_status != INNODB_ZIP_EST_PAGE_NOT_ESTIMATED) {
          m.e.page_compression = dd_page_compression(tab);
        }
        const innodb_zip_estimate_t &e = m.e;
        static const char *const page_names[] =
            INNODB_ZIP_PAGE_COMPRESSION_NAMES;
        /* What every row of the table has. */
        auto common = [&](Field **f) {
          store_string(f[CE_TABLE_SCHEMA], sch.name().c_str());
          store_string(f[CE_TABLE_NAME], tab.name().c_str());
          store_string(f[CE_PARTITION_NAME], part);
          store_string(f[CE_SUBPARTITION_NAME], subpart);
          store_number(f[CE_TABLE_ID], id);
          store_string(f[CE_IS_COMPRESSED], e.is_compressed ? "YES" : "NO");
          store_string(f[CE_PAGE_COMPRESSION],
                       page_names[e.page_compression <= 2 ? e.page_compression
                                                          : 0]);
          store_number(f[CE_USED_PAGES], e.used_pages);
          store_number(f[CE_UNCOMPRESSED_BYTES],
                       e.full_pages * e.logical_page_size);
          store_number(f[CE_SAMPLED_PAGES], e.sampled_pages);
          store_number(f[CE_LEAF_PAGES], e.leaf_pages);
          store_string(f[CE_FULL_SCAN], e.full_scan ? "YES" : "NO");
          store_number(f[CE_OFF_PAGE_RECORDS], e.extern_records);
          store_number(f[CE_OFF_PAGE_BYTES], e.extern_bytes);
          store_number(f[CE_BLOB_PAGES], e.extern_pages);
          store_time(thd, f[CE_COMPUTED_AT], m.computed_at);
        };
        for (int k = 0; k < INNODB_ZIP_EST_N_SIZES; k++) {
          const uint kbs = e.sizes[k].key_block_size;
          if (kbs == 0) {
            continue;
          }
          Field **f = t->field;
          common(f);
          char method[32];
          snprintf(method, sizeof method, "KEY_BLOCK_SIZE=%u", kbs);
          store_string(f[CE_METHOD], method);
          store_number(f[CE_KEY_BLOCK_SIZE], kbs);
          /* The table's own size: what it uses now, measured. */
          const bool measured =
              e.is_compressed && e.physical_page_size == kbs * 1024;
          store_string(f[CE_SOURCE], measured ? "MEASURED" : "ESTIMATED");
          const uint64_t pages = measured ? e.used_pages : e.sizes[k].pages;
          store_number(f[CE_ESTIMATED_BYTES],
                       pages * static_cast<uint64_t>(kbs) * 1024);
          /* SPACE_SAVINGS uses the same pages (compressed_pages()). */
          double ss = 0;
          const bool have = estimate_savings(e, kbs, Savings::TABLE, &ss);
          for (const auto &[col, which] :
               {std::pair{CE_SPACE_SAVINGS, Savings::TABLE},
                std::pair{CE_REBUILT_SPACE_SAVINGS, Savings::REBUILT},
                std::pair{CE_INSERTED_SPACE_SAVINGS, Savings::INSERTED},
                std::pair{CE_CURRENT_SIZE_SAVINGS, Savings::CURRENT_SIZE}}) {
            double v = 0;
            const bool h = estimate_savings(e, kbs, which, &v);
            store_dbl(f[col], !h, v);
          }
          const double cp = expected_savings(kbs, e.logical_page_size);
          store_dbl(f[CE_EXPECTED_SPACE_SAVINGS], false, cp);
          store_dbl(f[CE_CLOSENESS], !have || cp <= 0, cp > 0 ? ss / cp : 0);
          store_dbl(f[CE_ESTIMATED_FAILURE_PCT], !have, e.sizes[k].failure_pct);
          store_number(f[CE_COMPRESSION_LEVEL], e.level);
          static const char *const codec_names[] = INNODB_ZIP_CODEC_NAMES;
          store_string(f[CE_COMPRESSION_CODEC],
                       codec_names[e.codec < INNODB_ZIP_N_CODECS ? e.codec : 0]);
          f[CE_FS_BLOCK_SIZE]->set_null();
          f[CE_UNAVAILABLE_REASON]->set_null();
          if (schema_table_store_record(thd, t)) {
            return true;
          }
        }
        /* Page compression: one row per method, NULL figures and a reason
        where the table's file cannot take it. */
        static const char *const methods[] = INNODB_ZIP_PAGE_METHOD_NAMES;
        const char *reason = page_unavailable_reason(e);
        for (int pm = 0; pm < INNODB_ZIP_EST_N_PAGE_METHODS; pm++) {
          Field **f = t->field;
          common(f);
          store_string(f[CE_METHOD], pm == 0 ? "PAGE_ZLIB" : "PAGE_LZ4");
          f[CE_KEY_BLOCK_SIZE]->set_null();
          /* Always an estimate of a rebuild: the pages a page-compressed
          table writes now are not all compressed yet (only a rebuild
          compresses the pages written before). */
          store_string(f[CE_SOURCE], "ESTIMATED");
          double ss = 0;
          const bool have = page_savings(e, pm, Savings::TABLE, &ss);
          if (have) {
            store_number(f[CE_ESTIMATED_BYTES], e.page_bytes[pm]);
          } else {
            f[CE_ESTIMATED_BYTES]->set_null();
          }
          store_dbl(f[CE_SPACE_SAVINGS], !have, ss);
          store_dbl(f[CE_REBUILT_SPACE_SAVINGS], !have, ss);
          store_dbl(f[CE_INSERTED_SPACE_SAVINGS], !have, ss);
          double cur = 0;
          const bool hc = page_savings(e, pm, Savings::CURRENT_SIZE, &cur);
          store_dbl(f[CE_CURRENT_SIZE_SAVINGS], !hc, cur);
          /* No page size promises anything: CP_ss and closeness are of
          KEY_BLOCK_SIZE. */
          store_dbl(f[CE_EXPECTED_SPACE_SAVINGS], true, 0);
          store_dbl(f[CE_CLOSENESS], true, 0);
          /* The pages that stay whole (do not shrink by a block). */
          store_dbl(f[CE_ESTIMATED_FAILURE_PCT], !have, e.page_whole_pct[pm]);
          if (pm == 0 && reason == nullptr) {
            store_number(f[CE_COMPRESSION_LEVEL], e.page_zlib_level);
          } else {
            f[CE_COMPRESSION_LEVEL]->set_null();
          }
          store_string(f[CE_COMPRESSION_CODEC], methods[pm]);
          if (e.fs_block_size != 0) {
            store_number(f[CE_FS_BLOCK_SIZE], e.fs_block_size);
          } else {
            f[CE_FS_BLOCK_SIZE]->set_null();
          }
          store_string(f[CE_UNAVAILABLE_REASON],
                       reason != nullptr
                           ? reason
                           : (have ? nullptr : "the table holds no records"));
          if (schema_table_store_record(thd, t)) {
            return true;
          }
        }
        return false;
      },
      may_see_estimates, &lk);
}

}  // namespace compression_stats
