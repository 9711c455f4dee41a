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

/** @file handler/i_s_zip_stat.cc
 INFORMATION_SCHEMA tables of the always-on compression statistics
 (dict0zip_stat.h):

 - INNODB_CMP_PER_TABLE: one row per compressed table or partition, counters
   split into the clustered index and the sum of the secondary indexes;
 - INNODB_CMP_PER_TABLE_RESET: the same, and reading it resets the counters
   (as INNODB_CMP_RESET does for INNODB_CMP);
 - INNODB_CMP_PER_TABLE_INDEX: one row per index.

 Like INNODB_CMP, they require the PROCESS privilege: for a user without
 it, reading them fails with ER_SPECIFIC_ACCESS_DENIED_ERROR. Modelled on
 INNODB_CMP_PER_INDEX in handler/i_s.cc.

 Created 2026-11-21 */

#include "i_s_zip_stat.h"

#include <field.h>
#include <sql_show.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "auth_acls.h"
#include "dict0dict.h"
#include "dict0mem.h"
#include "dict0types.h"
#include "dict0zip_opt.h"
#include "dict0zip_stat.h"
#include "ha_prototypes.h"
#include "mysql/plugin.h"
#include "sql/auth/auth_common.h"
#include "sql/sql_class.h"

#include "my_dbug.h"

namespace {

constexpr char zip_stat_author[] = "mysql-compress authors";

/** Version of these I_S plugins: the InnoDB major version and our own
postfix. The server keeps the columns of a plugin's table in the data
dictionary and refreshes them only when the version changes: bump the
postfix whenever a column changes. */
constexpr uint64_t zip_stat_plugin_version = (INNODB_VERSION_MAJOR << 8 | 2);

struct st_mysql_information_schema zip_stat_i_s_info = {
    MYSQL_INFORMATION_SCHEMA_INTERFACE_VERSION};

/** An unsigned BIGINT column. */
#define ZIP_STAT_U64(name)                                         \
  {name, MY_INT64_NUM_DECIMAL_DIGITS, MYSQL_TYPE_LONGLONG, 0,      \
   MY_I_S_UNSIGNED, "", 0}
/** A VARCHAR column. */
#define ZIP_STAT_STR(name, len, flags) \
  {name, len, MYSQL_TYPE_STRING, 0, flags, "", 0}
/** The end marker of a column list. */
#define ZIP_STAT_END {nullptr, 0, MYSQL_TYPE_NULL, 0, 0, "", 0}

/** Columns that identify a table. */
enum {
  ZS_TABLE_ID = 0,
  ZS_TABLE_SCHEMA,
  ZS_TABLE_NAME,
  ZS_PARTITION_NAME,
  ZS_SUBPARTITION_NAME,
  ZS_KEY_BLOCK_SIZE,
  ZS_N_IDENT
};

/** Counters shown per table (for the clustered and secondary indexes) and
per index, in this order. */
const dict_zip_stat_counter_t zip_stat_split_counters[] = {
    DICT_ZIP_STAT_COMPRESS_OPS, DICT_ZIP_STAT_COMPRESS_OK,
    DICT_ZIP_STAT_COMPRESS_USECS, DICT_ZIP_STAT_UNCOMPRESS_OPS,
    DICT_ZIP_STAT_UNCOMPRESS_USECS};
constexpr size_t N_SPLIT = std::size(zip_stat_split_counters);

/** Reorganizations by cause, their time and the updates, last in both
tables, in this order; then UPDATES_PER_LOG_REORG. */
const dict_zip_stat_counter_t zip_stat_reorg_counters[] = {
    DICT_ZIP_STAT_REORGS_LOG_UPDATE,      DICT_ZIP_STAT_REORGS_LOG_INSERT,
    DICT_ZIP_STAT_REORGS_COMPRESS_FAILED, DICT_ZIP_STAT_REORGS_OTHER,
    DICT_ZIP_STAT_REORG_USECS_LOG_UPDATE, DICT_ZIP_STAT_REORG_USECS_LOG_INSERT,
    DICT_ZIP_STAT_REORG_USECS_COMPRESS_FAILED,
    DICT_ZIP_STAT_REORG_USECS_OTHER,      DICT_ZIP_STAT_UPDATES};

/** A DOUBLE column that may be NULL. */
#define ZIP_STAT_DOUBLE(name)                                          \
  {name, MAX_DOUBLE_STR_LENGTH, MYSQL_TYPE_DOUBLE, 0, MY_I_S_MAYBE_NULL, \
   "", 0}

/** The columns of zip_stat_reorg_counters and UPDATES_PER_LOG_REORG. */
#define ZIP_STAT_REORG_COLUMNS                                  \
  ZIP_STAT_U64("ZIP_REORGS_LOG_UPDATE"),                        \
      ZIP_STAT_U64("ZIP_REORGS_LOG_INSERT"),                    \
      ZIP_STAT_U64("ZIP_REORGS_COMPRESS_FAILED"),               \
      ZIP_STAT_U64("ZIP_REORGS_OTHER"),                         \
      ZIP_STAT_U64("ZIP_REORG_USECS_LOG_UPDATE"),               \
      ZIP_STAT_U64("ZIP_REORG_USECS_LOG_INSERT"),               \
      ZIP_STAT_U64("ZIP_REORG_USECS_COMPRESS_FAILED"),          \
      ZIP_STAT_U64("ZIP_REORG_USECS_OTHER"),                    \
      ZIP_STAT_U64("ZIP_UPDATES"), ZIP_STAT_DOUBLE("UPDATES_PER_LOG_REORG")

/** The identifying columns, first in both tables (see enum above). */
#define ZIP_STAT_IDENT_COLUMNS                                        \
  ZIP_STAT_U64("TABLE_ID"), ZIP_STAT_STR("TABLE_SCHEMA", NAME_CHAR_LEN, 0), \
      ZIP_STAT_STR("TABLE_NAME", NAME_CHAR_LEN, 0),                   \
      ZIP_STAT_STR("PARTITION_NAME", NAME_CHAR_LEN, MY_I_S_MAYBE_NULL), \
      ZIP_STAT_STR("SUBPARTITION_NAME", NAME_CHAR_LEN, MY_I_S_MAYBE_NULL), \
      ZIP_STAT_U64("KEY_BLOCK_SIZE")

ST_FIELD_INFO zip_stat_table_fields[] = {
    ZIP_STAT_IDENT_COLUMNS,
    ZIP_STAT_U64("INDEXES"),
    ZIP_STAT_U64("COMPRESS_OPS_PRIMARY"),
    ZIP_STAT_U64("COMPRESS_OPS_OK_PRIMARY"),
    ZIP_STAT_U64("COMPRESS_USECS_PRIMARY"),
    ZIP_STAT_U64("UNCOMPRESS_OPS_PRIMARY"),
    ZIP_STAT_U64("UNCOMPRESS_USECS_PRIMARY"),
    ZIP_STAT_U64("COMPRESS_OPS_SECONDARY"),
    ZIP_STAT_U64("COMPRESS_OPS_OK_SECONDARY"),
    ZIP_STAT_U64("COMPRESS_USECS_SECONDARY"),
    ZIP_STAT_U64("UNCOMPRESS_OPS_SECONDARY"),
    ZIP_STAT_U64("UNCOMPRESS_USECS_SECONDARY"),
    ZIP_STAT_U64("ZIP_SPLITS"),
    ZIP_STAT_U64("ZIP_REORGS"),
    ZIP_STAT_U64("REDO_PAGE_IMAGES"),
    ZIP_STAT_U64("REDO_PAGE_IMAGE_BYTES"),
    ZIP_STAT_REORG_COLUMNS,
    ZIP_STAT_END};

ST_FIELD_INFO zip_stat_index_fields[] = {
    ZIP_STAT_IDENT_COLUMNS,
    ZIP_STAT_U64("INDEX_ID"),
    ZIP_STAT_STR("INDEX_NAME", NAME_CHAR_LEN, 0),
    ZIP_STAT_STR("INDEX_TYPE", 16, 0),
    ZIP_STAT_U64("COMPRESS_OPS"),
    ZIP_STAT_U64("COMPRESS_OPS_OK"),
    ZIP_STAT_U64("COMPRESS_USECS"),
    ZIP_STAT_U64("UNCOMPRESS_OPS"),
    ZIP_STAT_U64("UNCOMPRESS_USECS"),
    ZIP_STAT_U64("ZIP_SPLITS"),
    ZIP_STAT_U64("ZIP_REORGS"),
    ZIP_STAT_U64("PADDING"),
    ZIP_STAT_U64("FILL_LIMIT"),
    ZIP_STAT_U64("PAD_INCREMENTS"),
    ZIP_STAT_U64("PAD_DECREMENTS"),
    ZIP_STAT_U64("REDO_PAGE_IMAGES"),
    ZIP_STAT_U64("REDO_PAGE_IMAGE_BYTES"),
    ZIP_STAT_REORG_COLUMNS,
    ZIP_STAT_U64("LOG_RESERVE"),
    ZIP_STAT_U64("LOG_RESERVE_INCREMENTS"),
    ZIP_STAT_U64("LOG_RESERVE_DECREMENTS"),
    ZIP_STAT_U64("LOG_RESERVE_REFUSALS"),
    ZIP_STAT_END};

/** The page fill limit that an adaptive pad gives, as
dict_index_zip_pad_optimal_page_size() computes it, with the table's own
failure threshold and maximum pad (ENGINE_ATTRIBUTE) where it has them.
@param[in]  pad  pad in bytes
@param[in]  opt  the table's options (dict0zip_opt.h); empty for an index
                 whose table is not in the dictionary cache
@return bytes of a page that inserts may fill */
uint64_t zip_stat_fill_limit(uint64_t pad, const dict_zip_opt_t &opt) {
  const uint64_t threshold = dict_zip_opt_failure_threshold_pct(opt);
  const uint64_t pad_max = dict_zip_opt_pad_pct_max(opt);
  if (threshold == 0) {
    return UNIV_PAGE_SIZE;
  }
  const uint64_t min_sz = (UNIV_PAGE_SIZE * (100 - pad_max)) / 100;
  return std::max<uint64_t>(UNIV_PAGE_SIZE - pad, min_sz);
}

/** Store the columns of zip_stat_reorg_counters and
UPDATES_PER_LOG_REORG: updates per reorganization for a full modification
log on update, NULL if there was none.
@param[in]      fields  columns of the row
@param[in,out]  col     position of the first, then after the last
@param[in]      c       counters
@return 0 on success */
int zip_stat_store_reorgs(Field **fields, size_t &col,
                          const uint64_t c[DICT_ZIP_STAT_N_COUNTERS]) {
  int err = 0;
  for (const dict_zip_stat_counter_t i : zip_stat_reorg_counters) {
    err |= fields[col++]->store(c[i], true);
  }
  Field *f = fields[col++];
  if (c[DICT_ZIP_STAT_REORGS_LOG_UPDATE] == 0) {
    f->set_null();
  } else {
    f->set_notnull();
    err |= f->store(double(c[DICT_ZIP_STAT_UPDATES]) /
                    double(c[DICT_ZIP_STAT_REORGS_LOG_UPDATE]));
  }
  return err;
}

/** Names of one table as shown to the user. */
struct zip_stat_names_t {
  std::string schema;
  std::string table;
  std::string partition;    /*!< empty if not partitioned */
  std::string subpartition; /*!< empty if not subpartitioned */
  bool is_tmp{false};    /*!< an intermediate table of a DDL */
};

/** Split a dictionary table name into user-visible names.
@param[in]  dict_name  "db/t", "db/t#p#p0" or "db/t#p#p0#sp#s0"
@return the names */
zip_stat_names_t zip_stat_split_name(const std::string &dict_name) {
  zip_stat_names_t n;
  std::string part;
  dict_name::get_table(dict_name, true, n.schema, n.table, part, n.is_tmp);
  if (!part.empty()) {
    dict_name::get_partition(part, true, n.partition, n.subpartition);
  }
  return n;
}

/** Current names and compression options of the tables and indexes in
the dictionary cache. */
struct zip_stat_cache_names_t {
  /** table id -> dictionary name */
  std::map<table_id_t, std::string> tables;
  /** table id -> compression options (dict0zip_opt.h) */
  std::map<table_id_t, dict_zip_opt_t> opts;
  /** (space, index id) -> index name */
  std::map<uint64_t, std::string> indexes;
};

/** Look up the current names and compression options of the tables of a
snapshot, for tables that are in the dictionary cache. Entries of evicted
tables keep the name they had when evicted (a rename loads the table into
the cache) and have no options (FILL_LIMIT follows the global values).
Entries whose cached table no longer has the index (DROP INDEX, a rolled
back ADD INDEX) are discarded from the registry and from the snapshot.
@param[in,out]  snap  snapshot
@return names found in the cache */
zip_stat_cache_names_t zip_stat_current_names(
    std::vector<dict_zip_stat_snapshot_t> &snap) {
  zip_stat_cache_names_t names;
  std::map<table_id_t, bool> wanted;
  for (const auto &s : snap) {
    wanted[s.m_table_id] = false;
  }

  auto visit = [&](const dict_table_t *table) {
    auto w = wanted.find(table->id);
    if (w == wanted.end()) {
      return;
    }
    w->second = true; /* cached */
    names.tables[table->id] = table->name.m_name;
    names.opts[table->id] = dict_zip_opt_get(table);
    for (const dict_index_t *index = table->first_index(); index != nullptr;
         index = index->next()) {
      names.indexes[index_id_t(index->space, index->id).conv_to_int()] =
          index->name();
    }
  };
  dict_sys_mutex_enter();
  for (const dict_table_t *table : dict_sys->table_LRU) {
    visit(table);
  }
  for (const dict_table_t *table : dict_sys->table_non_LRU) {
    visit(table);
  }
  dict_sys_mutex_exit();

  std::vector<index_id_t> gone;
  std::vector<dict_zip_stat_snapshot_t> live;
  live.reserve(snap.size());
  for (auto &s : snap) {
    if (wanted[s.m_table_id] &&
        names.indexes.find(s.m_id.conv_to_int()) == names.indexes.end()) {
      gone.push_back(s.m_id);
    } else if (!s.m_fts_aux) {
      live.push_back(std::move(s));
    }
  }
  dict_zip_stat_drop_indexes(gone);
  snap.swap(live);
  return names;
}

/** Store a string or NULL.
@param[in,out]  field  column
@param[in]      str    value, NULL if empty and nullable */
int zip_stat_store_str(Field *field, const std::string &str) {
  if (str.empty() && field->is_nullable()) {
    field->set_null();
    return 0;
  }
  field->set_notnull();
  return field->store(str.c_str(), str.length(), system_charset_info);
}

/** Store the identifying columns of a row.
@return 0 on success */
int zip_stat_store_ident(Field **fields, table_id_t table_id,
                         const zip_stat_names_t &n, uint32_t zip_size) {
  int err = 0;
  err |= fields[ZS_TABLE_ID]->store(table_id, true);
  err |= zip_stat_store_str(fields[ZS_TABLE_SCHEMA], n.schema);
  err |= zip_stat_store_str(fields[ZS_TABLE_NAME], n.table);
  err |= zip_stat_store_str(fields[ZS_PARTITION_NAME], n.partition);
  err |= zip_stat_store_str(fields[ZS_SUBPARTITION_NAME], n.subpartition);
  err |= fields[ZS_KEY_BLOCK_SIZE]->store(zip_size / 1024, true);
  return err;
}

/** Take a snapshot and resolve names; false if the user lacks PROCESS. */
bool zip_stat_collect(THD *thd, bool reset,
                      std::vector<dict_zip_stat_snapshot_t> &snap,
                      zip_stat_cache_names_t &names) {
  /* Same rule as INNODB_CMP: deny access to users without PROCESS. */
  if (check_global_access(thd, PROCESS_ACL)) {
    return false;
  }
  snap = dict_zip_stat_snapshot(reset);
  names = zip_stat_current_names(snap);
  return true;
}

/** Name of the table of an entry: current if cached, else last known. */
const std::string &zip_stat_table_name(const zip_stat_cache_names_t &names,
                                       const dict_zip_stat_snapshot_t &s) {
  auto it = names.tables.find(s.m_table_id);
  return it == names.tables.end() ? s.m_table_name : it->second;
}

/** Fill INNODB_CMP_PER_TABLE or INNODB_CMP_PER_TABLE_RESET.
@return 0 on success, 1 on failure */
int zip_stat_table_fill_low(THD *thd, Table_ref *tables, bool reset) {
  DBUG_TRACE;
  TABLE *table = tables->table;
  Field **fields = table->field;

  std::vector<dict_zip_stat_snapshot_t> snap;
  zip_stat_cache_names_t names;
  if (!zip_stat_collect(thd, reset, snap, names)) {
    return 0;
  }

  /* Aggregate the indexes of each table. */
  struct agg_t {
    std::string dict_name;
    uint32_t zip_size{0};
    uint64_t n_indexes{0};
    uint64_t primary[DICT_ZIP_STAT_N_COUNTERS]{};
    uint64_t secondary[DICT_ZIP_STAT_N_COUNTERS]{};
  };
  std::map<table_id_t, agg_t> agg;
  for (const auto &s : snap) {
    agg_t &a = agg[s.m_table_id];
    a.dict_name = zip_stat_table_name(names, s);
    a.zip_size = s.m_zip_size;
    a.n_indexes++;
    uint64_t *dst = s.m_clustered ? a.primary : a.secondary;
    for (unsigned i = 0; i < DICT_ZIP_STAT_N_COUNTERS; i++) {
      dst[i] += s.m_counters[i];
    }
  }

  for (const auto &it : agg) {
    const agg_t &a = it.second;
    const zip_stat_names_t n = zip_stat_split_name(a.dict_name);
    if (n.is_tmp) {
      continue;
    }
    size_t col = ZS_N_IDENT;
    int err = zip_stat_store_ident(fields, it.first, n, a.zip_size);
    err |= fields[col++]->store(a.n_indexes, true);
    for (size_t i = 0; i < N_SPLIT; i++) {
      err |= fields[col++]->store(a.primary[zip_stat_split_counters[i]], true);
    }
    for (size_t i = 0; i < N_SPLIT; i++) {
      err |=
          fields[col++]->store(a.secondary[zip_stat_split_counters[i]], true);
    }
    err |= fields[col++]->store(
        a.primary[DICT_ZIP_STAT_SPLITS] + a.secondary[DICT_ZIP_STAT_SPLITS],
        true);
    err |= fields[col++]->store(
        a.primary[DICT_ZIP_STAT_REORGS] + a.secondary[DICT_ZIP_STAT_REORGS],
        true);
    err |= fields[col++]->store(a.primary[DICT_ZIP_STAT_REDO_IMAGES] +
                                    a.secondary[DICT_ZIP_STAT_REDO_IMAGES],
                                true);
    err |= fields[col++]->store(a.primary[DICT_ZIP_STAT_REDO_IMAGE_BYTES] +
                                    a.secondary[DICT_ZIP_STAT_REDO_IMAGE_BYTES],
                                true);
    uint64_t sum[DICT_ZIP_STAT_N_COUNTERS];
    for (unsigned i = 0; i < DICT_ZIP_STAT_N_COUNTERS; i++) {
      sum[i] = a.primary[i] + a.secondary[i];
    }
    err |= zip_stat_store_reorgs(fields, col, sum);
    if (err || schema_table_store_record(thd, table)) {
      return 1;
    }
  }
  return 0;
}

int zip_stat_table_fill(THD *thd, Table_ref *tables, Item *) {
  return zip_stat_table_fill_low(thd, tables, false);
}

int zip_stat_table_reset_fill(THD *thd, Table_ref *tables, Item *) {
  return zip_stat_table_fill_low(thd, tables, true);
}

/** Fill INNODB_CMP_PER_TABLE_INDEX.
@return 0 on success, 1 on failure */
int zip_stat_index_fill(THD *thd, Table_ref *tables, Item *) {
  DBUG_TRACE;
  TABLE *table = tables->table;
  Field **fields = table->field;

  std::vector<dict_zip_stat_snapshot_t> snap;
  zip_stat_cache_names_t names;
  if (!zip_stat_collect(thd, false, snap, names)) {
    return 0;
  }

  for (const auto &s : snap) {
    const zip_stat_names_t n =
        zip_stat_split_name(zip_stat_table_name(names, s));
    if (n.is_tmp) {
      continue;
    }
    auto idx = names.indexes.find(s.m_id.conv_to_int());
    const std::string &index_name =
        idx == names.indexes.end() ? s.m_index_name : idx->second;

    size_t col = ZS_N_IDENT;
    int err = zip_stat_store_ident(fields, s.m_table_id, n, s.m_zip_size);
    err |= fields[col++]->store(s.m_id.m_index_id, true);
    err |= zip_stat_store_str(fields[col++], index_name);
    err |= zip_stat_store_str(fields[col++],
                              s.m_clustered ? "PRIMARY" : "SECONDARY");
    for (size_t i = 0; i < N_SPLIT; i++) {
      err |= fields[col++]->store(s.m_counters[zip_stat_split_counters[i]],
                                  true);
    }
    err |= fields[col++]->store(s.m_counters[DICT_ZIP_STAT_SPLITS], true);
    err |= fields[col++]->store(s.m_counters[DICT_ZIP_STAT_REORGS], true);
    err |= fields[col++]->store(s.m_pad, true);
    const auto opt = names.opts.find(s.m_table_id);
    err |= fields[col++]->store(
        zip_stat_fill_limit(s.m_pad, opt == names.opts.end()
                                         ? dict_zip_opt_t{}
                                         : opt->second),
        true);
    err |= fields[col++]->store(s.m_counters[DICT_ZIP_STAT_PAD_INCREMENTS],
                                true);
    err |= fields[col++]->store(s.m_counters[DICT_ZIP_STAT_PAD_DECREMENTS],
                                true);
    err |= fields[col++]->store(s.m_counters[DICT_ZIP_STAT_REDO_IMAGES], true);
    err |= fields[col++]->store(s.m_counters[DICT_ZIP_STAT_REDO_IMAGE_BYTES],
                                true);
    err |= zip_stat_store_reorgs(fields, col, s.m_counters);
    err |= fields[col++]->store(s.m_log_reserve, true);
    for (const dict_zip_stat_counter_t i :
         {DICT_ZIP_STAT_LOG_RESERVE_INCREMENTS,
          DICT_ZIP_STAT_LOG_RESERVE_DECREMENTS,
          DICT_ZIP_STAT_LOG_RESERVE_REFUSALS}) {
      err |= fields[col++]->store(s.m_counters[i], true);
    }
    if (err || schema_table_store_record(thd, table)) {
      return 1;
    }
  }
  return 0;
}

int zip_stat_table_init(void *p) {
  auto *schema = static_cast<ST_SCHEMA_TABLE *>(p);
  schema->fields_info = zip_stat_table_fields;
  schema->fill_table = zip_stat_table_fill;
  return 0;
}

int zip_stat_table_reset_init(void *p) {
  auto *schema = static_cast<ST_SCHEMA_TABLE *>(p);
  schema->fields_info = zip_stat_table_fields;
  schema->fill_table = zip_stat_table_reset_fill;
  return 0;
}

int zip_stat_index_init(void *p) {
  auto *schema = static_cast<ST_SCHEMA_TABLE *>(p);
  schema->fields_info = zip_stat_index_fields;
  schema->fill_table = zip_stat_index_fill;
  return 0;
}

int zip_stat_deinit(void *) { return 0; }

/** Declare one INFORMATION_SCHEMA plugin of this file. */
constexpr st_mysql_plugin zip_stat_plugin(const char *name, const char *descr,
                                          int (*init)(void *)) {
  return {MYSQL_INFORMATION_SCHEMA_PLUGIN,
          &zip_stat_i_s_info,
          name,
          zip_stat_author,
          descr,
          PLUGIN_LICENSE_GPL,
          init,
          nullptr,
          zip_stat_deinit,
          zip_stat_plugin_version,
          nullptr,
          nullptr,
          nullptr,
          0UL};
}

}  // namespace

struct st_mysql_plugin i_s_innodb_cmp_per_table = zip_stat_plugin(
    "INNODB_CMP_PER_TABLE",
    "Always-on InnoDB compression statistics per table and partition",
    zip_stat_table_init);

struct st_mysql_plugin i_s_innodb_cmp_per_table_reset = zip_stat_plugin(
    "INNODB_CMP_PER_TABLE_RESET",
    "Always-on InnoDB compression statistics per table; reading resets them",
    zip_stat_table_reset_init);

struct st_mysql_plugin i_s_innodb_cmp_per_table_index = zip_stat_plugin(
    "INNODB_CMP_PER_TABLE_INDEX",
    "Always-on InnoDB compression statistics per index",
    zip_stat_index_init);

namespace {
/** Show one of the redo totals as a BIGINT status value. */
int zip_stat_show_redo(SHOW_VAR *var, char *buff, bool bytes) {
  uint64_t images;
  uint64_t nbytes;
  dict_zip_stat_redo_totals(images, nbytes);
  var->type = SHOW_LONGLONG;
  var->value = buff;
  var->scope = SHOW_SCOPE_GLOBAL;
  *reinterpret_cast<longlong *>(buff) =
      static_cast<longlong>(bytes ? nbytes : images);
  return 0;
}
}  // namespace

int show_innodb_zip_log_page_images(THD *, SHOW_VAR *var, char *buff) {
  return zip_stat_show_redo(var, buff, false);
}

int show_innodb_zip_log_page_image_bytes(THD *, SHOW_VAR *var, char *buff) {
  return zip_stat_show_redo(var, buff, true);
}
