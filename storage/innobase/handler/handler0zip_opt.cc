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

/** @file handler/handler0zip_opt.cc
 Per-table compression options in ENGINE_ATTRIBUTE. See
 handler/handler0zip_opt.h.

 Created 2026-11-21 */

#include "handler0zip_opt.h"

#include <cstring>

#include "dict0mem.h"
#include "ha_prototypes.h"
#include "my_sys.h"
#include "page0zip_codec.h"
#include "mysqld_error.h"
#include "sql-common/json_dom.h"
#include "sql/field.h"
#include "sql/handler.h"
#include "sql/key.h"
#include "sql/sql_error.h"
#include "sql/table.h"

namespace {

/** One accepted key. */
struct zip_opt_key_t {
  /** JSON key. */
  const char *m_name;
  /** Highest value (the lowest is 0). */
  int m_max;
  /** The member of dict_zip_opt_t it sets. */
  int dict_zip_opt_t::*m_member;
  /** Names of the values 0..m_max, for a key whose value is a string;
  nullptr for an integer key. */
  const char *const *m_names;
};

/** The accepted keys. */
const zip_opt_key_t zip_opt_keys[] = {
    {"compression_level", DICT_ZIP_OPT_LEVEL_MAX, &dict_zip_opt_t::m_level,
     nullptr},
    {"compression_failure_threshold_pct", DICT_ZIP_OPT_THRESHOLD_MAX,
     &dict_zip_opt_t::m_failure_threshold_pct, nullptr},
    {"compression_pad_pct_max", DICT_ZIP_OPT_PAD_MAX,
     &dict_zip_opt_t::m_pad_pct_max, nullptr},
    {"compression_log_reorg_threshold_pct", DICT_ZIP_OPT_THRESHOLD_MAX,
     &dict_zip_opt_t::m_log_reorg_threshold_pct, nullptr},
    {"compression_log_reserve_pct_max", DICT_ZIP_OPT_LOG_RESERVE_MAX,
     &dict_zip_opt_t::m_log_reserve_pct_max, nullptr},
    {"compression_codec", DICT_ZIP_OPT_CODEC_MAX, &dict_zip_opt_t::m_codec,
     page_zip_codec_names},
};
static_assert(DICT_ZIP_OPT_CODEC_MAX + 1 == PAGE_ZIP_CODEC_N, "codec key");

/** Whether the new table definition is ROW_FORMAT=COMPRESSED, as
create_table_info_t::innobase_table_flags() decides: an explicit
ROW_FORMAT=COMPRESSED, or KEY_BLOCK_SIZE with no ROW_FORMAT; never a
temporary table.
@param[in]  create_info  create options
@return whether the table will be compressed */
bool zip_opt_is_compressed(const HA_CREATE_INFO *create_info) {
  if (create_info->options & HA_LEX_CREATE_TMP_TABLE) {
    return false;
  }
  return create_info->row_type == ROW_TYPE_COMPRESSED ||
         (create_info->row_type == ROW_TYPE_DEFAULT &&
          create_info->key_block_size != 0);
}

}  // namespace

bool innobase_zip_opt_parse(const char *str, size_t len, dict_zip_opt_t *opt,
                            std::string *err) {
  *opt = dict_zip_opt_t{};

  if (str == nullptr || len == 0) {
    return true;
  }

  std::string parse_err;
  const Json_dom_ptr dom = Json_dom::parse(
      str, len,
      [&parse_err](const char *msg, size_t) {
        parse_err = msg != nullptr ? msg : "invalid JSON";
      },
      [&parse_err]() { parse_err = "JSON nested too deeply"; });

  if (dom == nullptr) {
    /* The SQL parser checks the syntax, so this is not expected. */
    if (err != nullptr) {
      *err = "ENGINE_ATTRIBUTE is not valid JSON: " + parse_err;
    }
    return false;
  }

  if (dom->json_type() != enum_json_type::J_OBJECT) {
    if (err != nullptr) {
      *err =
          "ENGINE_ATTRIBUTE must be a JSON object such as "
          "'{\"compression_level\": 1}'";
    }
    return false;
  }

  for (const auto &member : *down_cast<const Json_object *>(dom.get())) {
    const zip_opt_key_t *key = nullptr;
    for (const zip_opt_key_t &k : zip_opt_keys) {
      if (member.first == k.m_name) {
        key = &k;
        break;
      }
    }

    if (key == nullptr) {
      if (err != nullptr) {
        *err = "ENGINE_ATTRIBUTE key \"" + member.first +
               "\" is unknown; InnoDB accepts \"compression_level\", "
               "\"compression_failure_threshold_pct\", "
               "\"compression_pad_pct_max\", "
               "\"compression_log_reorg_threshold_pct\", "
               "\"compression_log_reserve_pct_max\" and "
               "\"compression_codec\"";
      }
      return false;
    }

    const Json_dom *value = member.second.get();
    long long v;
    std::string shown;

    if (key->m_names != nullptr) {
      /* A name, as the variable of the same name takes it. */
      if (value->json_type() == enum_json_type::J_NULL) {
        continue;
      }
      int found = -1;
      if (value->json_type() == enum_json_type::J_STRING) {
        const std::string &name =
            down_cast<const Json_string *>(value)->value();
        for (int i = 0; i <= key->m_max; i++) {
          if (native_strcasecmp(name.c_str(), key->m_names[i]) == 0) {
            found = i;
          }
        }
      }
      std::string names;
      for (int i = 0; i <= key->m_max; i++) {
        names += std::string(i == 0 ? "\"" : i == key->m_max ? " or \"" : ", \"") +
                 key->m_names[i] + "\"";
      }
      if (found < 0) {
        if (err != nullptr) {
          *err = std::string("ENGINE_ATTRIBUTE \"") + key->m_name +
                 "\" must be " + names + " or null";
        }
        return false;
      }
      /* A codec this build lacks is refused by CREATE and ALTER
      (innobase_zip_opt_invalid()), and read as zlib by a table that
      was created by another build (dict_index_zip_level()). */
      opt->*(key->m_member) = found;
      continue;
    }

    switch (value->json_type()) {
      case enum_json_type::J_NULL:
        /* Explicitly "follow the global variable". */
        continue;
      case enum_json_type::J_INT:
        v = down_cast<const Json_int *>(value)->value();
        shown = std::to_string(v);
        break;
      case enum_json_type::J_UINT: {
        const unsigned long long u =
            down_cast<const Json_uint *>(value)->value();
        /* Anything above the range reads as out of range. */
        v = u > 1000 ? 1000 : static_cast<long long>(u);
        shown = std::to_string(u);
        break;
      }
      default:
        if (err != nullptr) {
          *err = std::string("ENGINE_ATTRIBUTE \"") + key->m_name +
                 "\" must be an integer from 0 to " +
                 std::to_string(key->m_max) + " or null";
        }
        return false;
    }

    if (v < 0 || v > key->m_max) {
      if (err != nullptr) {
        *err = std::string("ENGINE_ATTRIBUTE \"") + key->m_name +
               "\" must be an integer from 0 to " +
               std::to_string(key->m_max) + "; " + shown +
               " is out of range";
      }
      return false;
    }

    opt->*(key->m_member) = static_cast<int>(v);
  }

  return true;
}

bool innobase_zip_opt_column_or_index_attr(const TABLE *form) {
  const TABLE_SHARE *share = form->s;


  for (uint i = 0; i < share->fields; i++) {
    const Field *field = form->field[i];
    if (field->m_engine_attribute.length > 0) {
      my_printf_error(ER_ILLEGAL_HA_CREATE_OPTION,
                      "InnoDB: ENGINE_ATTRIBUTE is not supported on column "
                      "'%s'; compression options belong to the table",
                      MYF(0), field->field_name);
      return true;
    }
  }

  for (uint i = 0; i < share->keys; i++) {
    const KEY *key = &form->key_info[i];
    if (key->engine_attribute.length > 0) {
      my_printf_error(ER_ILLEGAL_HA_CREATE_OPTION,
                      "InnoDB: ENGINE_ATTRIBUTE is not supported on index "
                      "'%s'; compression options belong to the table",
                      MYF(0), key->name);
      return true;
    }
  }

  return false;
}

const char *innobase_zip_opt_invalid(THD *thd, const TABLE *form,
                                     const HA_CREATE_INFO *create_info,
                                     bool strict) {
  /* The server's own temporary tables (GROUP BY, DISTINCT, derived
  tables) are not built from the data dictionary: their KEY objects carry
  no attributes, and no user can give them any. */
  if (create_info->options & HA_LEX_CREATE_INTERNAL_TMP_TABLE) {
    return nullptr;
  }

  if (form != nullptr && innobase_zip_opt_column_or_index_attr(form)) {
    return "ENGINE_ATTRIBUTE";
  }

  dict_zip_opt_t opt;
  std::string err;

  if (!innobase_zip_opt_parse(create_info->engine_attribute.str,
                              create_info->engine_attribute.length, &opt,
                              &err)) {
    my_printf_error(ER_ILLEGAL_HA_CREATE_OPTION, "InnoDB: %s", MYF(0),
                    err.c_str());
    return "ENGINE_ATTRIBUTE";
  }

  if (opt.m_codec >= 0 &&
      !page_zip_codec_available(static_cast<ulint>(opt.m_codec))) {
    my_printf_error(ER_ILLEGAL_HA_CREATE_OPTION,
                    "InnoDB: ENGINE_ATTRIBUTE \"compression_codec\": \"%s\""
                    " needs a build with ISA-L (libisal-dev); this one has"
                    " zlib only",
                    MYF(0), page_zip_codec_names[opt.m_codec]);
    return "ENGINE_ATTRIBUTE";
  }

  if (!opt.empty() && !zip_opt_is_compressed(create_info) && form != nullptr &&
      form->part_info != nullptr) {
    /* A partition may have a row format of its own: the table's options
    apply to its compressed partitions (zip_opt_of() gives the others
    none), so an uncompressed one only says that it ignores them. */
    push_warning_printf(thd, Sql_condition::SL_WARNING,
                        ER_ILLEGAL_HA_CREATE_OPTION,
                        "InnoDB: ENGINE_ATTRIBUTE compression options are "
                        "ignored by a partition that is not "
                        "ROW_FORMAT=COMPRESSED");
  } else if (!opt.empty() && !zip_opt_is_compressed(create_info)) {
    if (strict) {
      my_printf_error(ER_ILLEGAL_HA_CREATE_OPTION,
                      "InnoDB: ENGINE_ATTRIBUTE compression options require "
                      "ROW_FORMAT=COMPRESSED",
                      MYF(0));
      return "ENGINE_ATTRIBUTE";
    }
    push_warning_printf(thd, Sql_condition::SL_WARNING,
                        ER_ILLEGAL_HA_CREATE_OPTION,
                        "InnoDB: ENGINE_ATTRIBUTE compression options are "
                        "ignored: the table is not ROW_FORMAT=COMPRESSED");
  }

  return nullptr;
}

namespace {

/** The options a table gets from an ENGINE_ATTRIBUTE value.
@param[in]  table  table or partition
@param[in]  str    ENGINE_ATTRIBUTE value, may be nullptr
@param[in]  len    its length
@return options; none for a table that is not compressed, and none for a
value stored before it could be checked */
dict_zip_opt_t zip_opt_of(const dict_table_t *table, const char *str,
                          size_t len) {
  dict_zip_opt_t opt;

  if (!DICT_TF_GET_ZIP_SSIZE(table->flags) ||
      !innobase_zip_opt_parse(str, len, &opt, nullptr)) {
    opt = dict_zip_opt_t{};
  }
  return opt;
}

}  // namespace

void innobase_zip_opt_apply(dict_table_t *table, const char *str,
                            size_t len) {
  if (table == nullptr || table->is_temporary()) {
    return;
  }
  dict_zip_opt_set(table, zip_opt_of(table, str, len));
}

void innobase_zip_opt_apply(dict_table_t *table, const TABLE_SHARE *share) {
  innobase_zip_opt_apply(table, share->engine_attribute.str,
                         share->engine_attribute.length);
}

void innobase_zip_opt_commit(dict_table_t *table, const TABLE_SHARE *share) {
  if (table == nullptr || table->is_temporary()) {
    return;
  }
  const dict_zip_opt_t opt = zip_opt_of(table, share->engine_attribute.str,
                                        share->engine_attribute.length);
  if (dict_zip_opt_pack(opt) !=
      table->zip_opt.load(std::memory_order_relaxed)) {
    /* Not before the data dictionary commits: at its next open the table
    is reloaded from the committed definition (ha_innobase::open), so a DDL
    that fails after this point leaves the old values. */
    table->discard_after_ddl = true;
  }
}

void innobase_zip_opt_exchange(dict_table_t *part, dict_table_t *swap) {
  if (part->zip_opt.load(std::memory_order_relaxed) !=
      swap->zip_opt.load(std::memory_order_relaxed)) {
    /* The data of each object now belongs to the other definition:
    reload both from the committed data dictionary. */
    part->discard_after_ddl = true;
    swap->discard_after_ddl = true;
  }
}
