/*****************************************************************************

Copyright (c) 2026, the mysql-compress authors.

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
51 Franklin St, Fifth Floor, Boston, MA 02110-1301  USA

*****************************************************************************/

/** @file handler/handler0zip_service.cc
 The "innodb_compression_stats" and "innodb_compression_estimate"
 component services, InnoDB side: let server plugins read the compression
 facts and counters of a table, and estimate its savings, without reaching
 into InnoDB internals. See
 include/mysql/components/services/innodb_compression_stats.h and
 innodb_compression_estimate.h. Only the glue lives here (registration,
 opening the table, filling the versioned structures); what is measured
 comes from dict/: the counters (dict0zip_stat.h), the options in effect
 (dict0zip_opt.h, dict0zip_log.h), the sizes (dict0zip_size.h) and the
 estimator.

 Created 2026-11-21 */

#include "handler0zip_service.h"
#include "page0zip_codec.h"

#include <mysql/components/my_service.h>
#include <mysql/components/service_implementation.h>
#include <mysql/components/services/innodb_compression_estimate.h>
#include <mysql/components/services/innodb_compression_stats.h>
#include <mysql/components/services/registry.h>
#include <mysql/service_plugin_registry.h>

#include <algorithm>
#include <cstring>

#include "dict0dd.h"
#include "dict0dict.h"
#include "dict0mem.h"
#include "dict0zip_log.h"
#include "dict0zip_opt.h"
#include "dict0zip_size.h"
#include "dict0zip_stat.h"
#include "ha_prototypes.h"
#include "dict0zip_est.h"
#include "sql/current_thd.h"
#include "srv0srv.h"
#include "srv0shutdown.h"
#include "srv0start.h"

namespace {

/** Name of our implementation in the registry. */
constexpr const char *zip_stat_service_impl = "innodb_compression_stats.innodb";

/** Name of the estimator's implementation in the registry. */
constexpr const char *zip_est_service_impl =
    "innodb_compression_estimate.innodb";

/** Whether the implementation is registered. */
bool zip_stat_service_registered = false;

/** Whether the estimator's implementation is registered. */
bool zip_est_service_registered = false;

/** Copy counters of the registry into the service structure.
@param[in]   c    counters indexed by dict_zip_stat_counter_t
@param[out]  out  service counters */
void zip_stat_copy_counters(const uint64_t c[DICT_ZIP_STAT_N_COUNTERS],
                            innodb_zip_counters_t &out) {
  out.compress_ops = c[DICT_ZIP_STAT_COMPRESS_OPS];
  out.compress_ops_ok = c[DICT_ZIP_STAT_COMPRESS_OK];
  out.compress_usecs = c[DICT_ZIP_STAT_COMPRESS_USECS];
  out.uncompress_ops = c[DICT_ZIP_STAT_UNCOMPRESS_OPS];
  out.uncompress_usecs = c[DICT_ZIP_STAT_UNCOMPRESS_USECS];
  out.zip_splits = c[DICT_ZIP_STAT_SPLITS];
  out.zip_reorgs = c[DICT_ZIP_STAT_REORGS];
}

/** Copy the reorganization counters of the registry into the service
structure.
@param[in]   c    counters indexed by dict_zip_stat_counter_t
@param[out]  out  service counters */
void zip_stat_copy_reorgs(const uint64_t c[DICT_ZIP_STAT_N_COUNTERS],
                          innodb_zip_reorg_counters_t &out) {
  out.log_update = c[DICT_ZIP_STAT_REORGS_LOG_UPDATE];
  out.log_insert = c[DICT_ZIP_STAT_REORGS_LOG_INSERT];
  out.compress_failed = c[DICT_ZIP_STAT_REORGS_COMPRESS_FAILED];
  out.other = c[DICT_ZIP_STAT_REORGS_OTHER];
  out.usecs_log_update = c[DICT_ZIP_STAT_REORG_USECS_LOG_UPDATE];
  out.usecs_log_insert = c[DICT_ZIP_STAT_REORG_USECS_LOG_INSERT];
  out.usecs_compress_failed = c[DICT_ZIP_STAT_REORG_USECS_COMPRESS_FAILED];
  out.usecs_other = c[DICT_ZIP_STAT_REORG_USECS_OTHER];
  out.updates = c[DICT_ZIP_STAT_UPDATES];
}

/** Whether a caller's arguments and InnoDB's state allow a read of a
table's statistics.
@param[in]  table_id    InnoDB table or partition id
@param[in]  stats       output structure
@param[in]  stats_size  its size as the caller knows it
@return the session, or nullptr if the read is refused */
THD *zip_stat_can_read(uint64_t table_id, const innodb_zip_table_stats_t *stats,
                       size_t stats_size) {
  constexpr size_t v1_size =
      offsetof(innodb_zip_table_stats_t, secondary) +
      sizeof(innodb_zip_counters_t);

  if (stats == nullptr || stats_size < v1_size || srv_is_being_started ||
      srv_shutdown_state.load() != SRV_SHUTDOWN_NONE || dict_sys == nullptr) {
    return nullptr;
  }

  THD *thd = current_thd;

  /* Only user tables and partitions, from a connection (for the MDL). */
  if (thd == nullptr || table_id == 0 || table_id == UINT64_MAX ||
      dict_table_is_sdi(table_id)) {
    return nullptr;
  }
  return thd;
}

/** Fill the service structure from an open table.
@param[in]  table       the table, open
@param[out] stats       filled in; stats->size is the bytes filled
@param[in]  stats_size  sizeof(*stats) as the caller knows it */
void zip_stat_fill(dict_table_t *table, innodb_zip_table_stats_t *stats,
                   size_t stats_size) {
  innodb_zip_table_stats_t s;
  memset(&s, 0, sizeof s);

  const page_size_t page_size = dict_table_page_size(table);
  s.logical_page_size = static_cast<uint32_t>(page_size.logical());
  s.physical_page_size = static_cast<uint32_t>(page_size.physical());
  s.is_compressed = page_size.is_compressed() ? 1 : 0;
  s.n_indexes = static_cast<uint32_t>(UT_LIST_GET_LEN(table->indexes));
  bool from_stats = false;
  s.allocated_pages = dict_zip_size_allocated_pages(table, &from_stats);

  uint64_t primary[DICT_ZIP_STAT_N_COUNTERS];
  uint64_t secondary[DICT_ZIP_STAT_N_COUNTERS];
  dict_zip_stat_get_table(table, primary, secondary);
  zip_stat_copy_counters(primary, s.primary);
  zip_stat_copy_counters(secondary, s.secondary);
  zip_stat_copy_reorgs(primary, s.primary_reorg);
  zip_stat_copy_reorgs(secondary, s.secondary_reorg);
  if (const dict_index_t *clust = table->first_index(); clust != nullptr) {
    s.primary_padding = clust->zip_pad.pad.load();
    s.effective_level =
        static_cast<uint32_t>(page_zip_level_value(dict_index_zip_level(clust)));
    s.effective_failure_threshold_pct =
        static_cast<uint32_t>(dict_index_zip_failure_threshold_pct(clust));
    s.effective_pad_pct_max =
        static_cast<uint32_t>(dict_index_zip_pad_pct_max(clust));
  }
  s.own_level = dict_zip_opt_get(table).m_level >= 0 ? 1 : 0;
  static_assert(INNODB_ZIP_N_CODECS == PAGE_ZIP_CODEC_N,
                "the service names every codec of page0zip_codec.h");
  if (const dict_index_t *clust = table->first_index(); clust != nullptr) {
    s.effective_codec = static_cast<uint32_t>(
        page_zip_level_codec(dict_index_zip_level(clust)));
  }
  s.own_codec = dict_zip_opt_get(table).m_codec >= 0 ? 1 : 0;
  switch (dict_tf_get_rec_format(table->flags)) {
    case REC_FORMAT_REDUNDANT:
      s.row_format = INNODB_ZIP_ROW_FORMAT_REDUNDANT;
      break;
    case REC_FORMAT_COMPACT:
      s.row_format = INNODB_ZIP_ROW_FORMAT_COMPACT;
      break;
    case REC_FORMAT_DYNAMIC:
      s.row_format = INNODB_ZIP_ROW_FORMAT_DYNAMIC;
      break;
    case REC_FORMAT_COMPRESSED:
      s.row_format = INNODB_ZIP_ROW_FORMAT_COMPRESSED;
      break;
  }
  if (const dict_index_t *clust = table->first_index(); clust != nullptr) {
    s.effective_log_reorg_threshold_pct =
        static_cast<uint32_t>(dict_index_zip_log_reorg_threshold_pct(clust));
    s.effective_log_reserve_pct_max =
        static_cast<uint32_t>(dict_index_zip_log_reserve_pct_max(clust));
    s.primary_log_reserve =
        dict_index_zip_log_reserve(clust, page_size.physical());
    s.log_reserve_step =
        static_cast<uint32_t>(page_size.physical() / DICT_ZIP_LOG_STEP_DIV);
    /* The condition under which dict_index_zip_log_update() stops growing
    the reserve. */
    s.primary_log_reserve_at_max =
        s.primary_log_reserve + s.log_reserve_step >
                page_size.physical() * s.effective_log_reserve_pct_max / 100
            ? 1
            : 0;
  }
  s.allocated_pages_from_stats = from_stats ? 1 : 0;
  if (s.is_compressed) {
    int64_t wall = 0;
    s.primary_avg_record_size = dict_zip_size_avg_record_size(
        table, s.primary.compress_ops > 0, &wall);
    s.primary_avg_record_size_sampled_at =
        s.primary_avg_record_size == 0 ? 0 : static_cast<uint64_t>(wall);
  }
  s.zip_pad_increment = ZIP_PAD_INCR;
  s.zip_pad_round_len = ZIP_PAD_ROUND_LEN;
  /* The condition under which dict_index_zip_pad_update() stops growing
  the pad. */
  s.primary_pad_at_max =
      s.primary_padding + ZIP_PAD_INCR >=
              (UNIV_PAGE_SIZE * s.effective_pad_pct_max) / 100
          ? 1
          : 0;

  s.size = std::min(stats_size, sizeof s);
  memcpy(stats, &s, s.size);
}

/** @see innodb_compression_stats::get_table_stats */
DEFINE_BOOL_METHOD(zip_stat_get_table_stats,
                   (uint64_t table_id, innodb_zip_table_stats_t *stats,
                    size_t stats_size)) {
  THD *thd = zip_stat_can_read(table_id, stats, stats_size);
  if (thd == nullptr) {
    return true;
  }
  MDL_ticket *mdl = nullptr;
  dict_table_t *table = dd_table_open_on_id(table_id, thd, &mdl, false, true);
  if (table == nullptr) {
    return true;
  }
  zip_stat_fill(table, stats, stats_size);
  dd_table_close(table, thd, &mdl, false);
  return false;
}

/** Open a table or partition for its statistics. A table in InnoDB's
cache is opened as get_table_stats() opens it (dd_table_open_on_id(),
which also reloads a table a DDL statement left to be discarded). One
that is not cached is loaded from the data dictionary object of the name
the caller gives, acquired into the shared dictionary cache:
dd_table_open_on_id() would find the name of the id through an uncached
copy of the whole dd::Table that lives until the statement's outermost
Auto_releaser ends, about 70 KB for a table of 40 columns, 1.5 GB for a
read of 20,000 tables (BENCHMARKS.md, 9b).
@param[in]  thd       session; holds a metadata lock on the table
@param[in]  schema    schema name as the data dictionary stores it
@param[in]  name      table name as the data dictionary stores it
@param[in]  table_id  InnoDB id of the table or of one of its partitions
@param[out] mdl       the metadata lock dd_table_open_on_id() took, or
                      nullptr
@return the table (close with dd_table_close()), or nullptr if there is
no such table or partition, or it cannot be opened now */
dict_table_t *zip_stat_open_by_name(THD *thd, const char *schema,
                                    const char *name, table_id_t table_id,
                                    MDL_ticket **mdl) {
  *mdl = nullptr;
  if (dict_table_t *probe = dd_table_open_on_id_in_mem(table_id, false);
      probe != nullptr) {
    dd_table_close(probe, nullptr, nullptr, false);
    /* Evicted since: dd_table_open_on_id() loads it the costly way, once. */
    return dd_table_open_on_id(table_id, thd, mdl, false, true);
  }
  dd::cache::Dictionary_client *dc = dd::get_dd_client(thd);
  const dd::cache::Dictionary_client::Auto_releaser releaser(dc);
  const dd::Table *dd_table = nullptr;
  if (dc->acquire(schema, name, &dd_table) || dd_table == nullptr ||
      dd_table->engine() != innobase_hton_name) {
    return nullptr;
  }
  const dd::Partition *dd_part = nullptr;
  if (dd_table_is_partitioned(*dd_table)) {
    for (const dd::Partition *p : dd_table->leaf_partitions()) {
      if (p->se_private_id() == table_id) {
        dd_part = p;
        break;
      }
    }
    if (dd_part == nullptr) {
      return nullptr;
    }
  } else if (dd_table->se_private_id() != table_id) {
    return nullptr;
  }
  std::string partition;
  if (dd_part != nullptr) {
    dict_name::build_partition(dd_part, partition);
  }
  std::string ib_name;
  dict_name::build_table(schema, name, partition, false, true, ib_name);
  dict_table_t *table = nullptr;
  if (dd_table_open_on_dd_obj(thd, dc, *dd_table, dd_part, ib_name.c_str(),
                              table, nullptr) != 0) {
    return nullptr;
  }
  return table;
}

/** @see innodb_compression_stats::get_table_stats_by_name */
DEFINE_BOOL_METHOD(zip_stat_get_table_stats_by_name,
                   (const char *schema, const char *name, uint64_t table_id,
                    innodb_zip_table_stats_t *stats, size_t stats_size)) {
  THD *thd = zip_stat_can_read(table_id, stats, stats_size);
  if (thd == nullptr || schema == nullptr || name == nullptr) {
    return true;
  }
  MDL_ticket *mdl = nullptr;
  dict_table_t *table =
      zip_stat_open_by_name(thd, schema, name, table_id, &mdl);
  if (table == nullptr) {
    return true;
  }
  zip_stat_fill(table, stats, stats_size);
  dd_table_close(table, thd, mdl != nullptr ? &mdl : nullptr, false);
  return false;
}

/** @see innodb_compression_estimate::estimate_table */
DEFINE_METHOD(int, zip_est_estimate_table,
              (uint64_t table_id, uint64_t sample_pages, int full_scan,
               innodb_zip_est_progress_t progress, void *ctx,
               innodb_zip_estimate_t *est, size_t est_size)) {
  /* The first version ended with sizes[]. */
  constexpr size_t v1_size = offsetof(innodb_zip_estimate_t, extern_records);
  if (est == nullptr || est_size < v1_size) {
    return INNODB_ZIP_EST_NO_TABLE;
  }
  innodb_zip_estimate_t e;
  memset(&e, 0, sizeof e);
  const int err = dict_zip_est_table(table_id, sample_pages, full_scan != 0,
                                     progress, ctx, &e);
  e.size = std::min(est_size, sizeof e);
  memcpy(est, &e, e.size);
  return err;
}

}  // namespace

BEGIN_SERVICE_IMPLEMENTATION(innodb, innodb_compression_stats)
zip_stat_get_table_stats, zip_stat_get_table_stats_by_name,
    END_SERVICE_IMPLEMENTATION();

BEGIN_SERVICE_IMPLEMENTATION(innodb, innodb_compression_estimate)
zip_est_estimate_table END_SERVICE_IMPLEMENTATION();

void innodb_zip_stat_service_register() {
  SERVICE_TYPE(registry) *r = mysql_plugin_registry_acquire();
  if (r == nullptr) {
    ib::warn(ER_IB_ZIP_STAT_SERVICE_NO_REGISTRY);
    return;
  }
  {
    my_service<SERVICE_TYPE(registry_registration)> reg("registry_registration",
                                                        r);
    using svc_t = SERVICE_TYPE_NO_CONST(innodb_compression_stats);
    if (reg.is_valid() &&
        !reg->register_service(
            zip_stat_service_impl,
            reinterpret_cast<my_h_service>(const_cast<svc_t *>(
                &SERVICE_IMPLEMENTATION(innodb, innodb_compression_stats))))) {
      zip_stat_service_registered = true;
    }
    using est_t = SERVICE_TYPE_NO_CONST(innodb_compression_estimate);
    if (reg.is_valid() &&
        !reg->register_service(
            zip_est_service_impl,
            reinterpret_cast<my_h_service>(const_cast<est_t *>(
                &SERVICE_IMPLEMENTATION(innodb, innodb_compression_estimate))))) {
      zip_est_service_registered = true;
    }
  }
  mysql_plugin_registry_release(r);

  if (!zip_stat_service_registered) {
    ib::warn(ER_IB_ZIP_STAT_SERVICE_NOT_REGISTERED, "innodb_compression_stats");
  }
  if (!zip_est_service_registered) {
    ib::warn(ER_IB_ZIP_STAT_SERVICE_NOT_REGISTERED,
             "innodb_compression_estimate");
  }
}

void innodb_zip_stat_service_unregister() {
  if (!zip_stat_service_registered && !zip_est_service_registered) {
    return;
  }
  SERVICE_TYPE(registry) *r = mysql_plugin_registry_acquire();
  if (r == nullptr) {
    return;
  }
  {
    my_service<SERVICE_TYPE(registry_registration)> reg("registry_registration",
                                                        r);
    /* Fails while a plugin still holds a reference; the methods then
    refuse to work once InnoDB has shut down. */
    if (zip_stat_service_registered && reg.is_valid() &&
        !reg->unregister(zip_stat_service_impl)) {
      zip_stat_service_registered = false;
    }
    if (zip_est_service_registered && reg.is_valid() &&
        !reg->unregister(zip_est_service_impl)) {
      zip_est_service_registered = false;
    }
  }
  mysql_plugin_registry_release(r);
}
