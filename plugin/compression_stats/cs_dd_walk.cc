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
  @file plugin/compression_stats/cs_dd_walk.cc
  The data dictionary walk, its push-down and its metadata locks; see
  cs_dd_walk.h.

  Tables are enumerated from the data dictionary (the server's view), one
  schema at a time. A monitoring query must not wait behind DDL: every
  table lock taken here for a fill is taken only if it is free now, and a
  table whose lock is not free is left out with a warning
  (ER_COMPRESSION_STATS_TABLE_SKIPPED).
*/

#include "plugin/compression_stats/cs_dd_walk.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "my_inttypes.h"
#include "mysql/strings/m_ctype.h"
#include "mysqld_error.h"
#include "plugin/compression_stats/cs_privileges.h"
#include "sql/dd/cache/dictionary_client.h"
#include "sql/dd/properties.h"
#include "sql/dd/types/partition.h"
#include "sql/dd/types/schema.h"
#include "sql/dd/types/table.h"
#include "sql/derror.h"
#include "sql/field.h"
#include "sql/item.h"
#include "sql/item_cmpfunc.h"
#include "sql/mdl.h"
#include "sql/mysqld.h"
#include "sql/mysqld_cs.h"
#include "sql/sql_class.h"
#include "sql/sql_error.h"
#include "sql/table.h"

namespace compression_stats {

namespace {

/** A schema or table name as the metadata lock keys spell it: lowered
when lower_case_table_names is 2 (names are stored as given, locked in
lower case), as stored otherwise.
@param[in]  name  name as stored in the data dictionary
@param[out] buf   buffer of NAME_LEN + 1 bytes
@return the name to lock */
const char *mdl_name_case(const char *name, char *buf) {
  if (lower_case_table_names != 2) {
    return name;
  }
  snprintf(buf, NAME_LEN + 1, "%s", name);
  my_casedn_str(files_charset_info, buf);
  return buf;
}

/** Whether a name matches a lookup value under the columns' collation
(case-insensitive, trailing spaces ignored). */
bool name_matches(const std::string &value, const char *name) {
  const CHARSET_INFO *cs = system_charset_info;
  return cs->coll->strnncollsp(cs, pointer_cast<const uchar *>(value.data()),
                               value.size(), pointer_cast<const uchar *>(name),
                               strlen(name)) == 0;
}

/** If an item is "column = constant" (either way round) on a column of
the filled table, the column's position and the constant, in the system
character set. */
bool lookup_equality(Item *item, const TABLE *table, uint *field_index,
                     std::string *value) {
  if (item->type() != Item::FUNC_ITEM) {
    return false;
  }
  auto *func = down_cast<Item_func *>(item);
  if (func->functype() != Item_func::EQ_FUNC || func->argument_count() != 2) {
    return false;
  }
  for (uint k = 0; k < 2; k++) {
    Item *col = func->arguments()[k];
    Item *val = func->arguments()[1 - k];
    /* A constant that is cheap to evaluate: no subquery, no stored
    function. */
    /* A string: "TABLE_NAME = 5" compares as numbers ('5.0' matches),
    which a name filter cannot follow. */
    if (col->type() != Item::FIELD_ITEM || !val->const_item() ||
        val->has_subquery() || val->has_stored_program() ||
        val->result_type() != STRING_RESULT) {
      continue;
    }
    const Field *field = down_cast<Item_field *>(col)->field;
    if (field == nullptr || field->table != table) {
      continue;
    }
    String buf;
    const String *res = val->val_str(&buf);
    if (res == nullptr || val->null_value) {
      continue;
    }
    String conv;
    uint errors = 0;
    if (conv.copy(res->ptr(), res->length(), res->charset(),
                  system_charset_info, &errors) ||
        errors != 0) {
      continue;
    }
    *field_index = field->field_index();
    value->assign(conv.ptr(), conv.length());
    return true;
  }
  return false;
}

/** Add an equality of a condition to a lookup: the first value compared
with TABLE_SCHEMA (column 0) and the first compared with TABLE_NAME
(column 1); other items are ignored. */
void lookup_add(Item *item, const TABLE *table, Lookup *lk) {
  uint idx = 0;
  std::string value;
  if (!lookup_equality(item, table, &idx, &value)) {
    return;
  }
  if (idx == 0 && !lk->has_schema) {
    lk->has_schema = true;
    lk->schema = value;
  } else if (idx == 1 && !lk->has_table) {
    lk->has_table = true;
    lk->table = value;
  }
}

/** A shared metadata lock on a table that is acquired by name into the
dictionary cache: the dictionary client requires one for as long as a
cached object is in use (a debug build asserts it). Taken without waiting;
a table whose lock is not free now is skipped with a warning, as in
emit_row(). Released when the object goes out of scope, which must be
after the Auto_releaser that holds the cached object. */
class Table_lock {
 public:
  explicit Table_lock(THD *thd) : m_thd(thd) {}
  Table_lock(const Table_lock &) = delete;
  Table_lock &operator=(const Table_lock &) = delete;
  ~Table_lock() {
    if (m_ticket != nullptr) {
      m_thd->mdl_context.release_lock(m_ticket);
    }
  }

  /** Lock a table by name.
  @param[in]  schema  schema name as stored
  @param[in]  table   table name as stored
  @param[out] locked  true if the lock is held now; false if a DDL
                      statement holds it (a warning was pushed)
  @return true on error */
  bool try_lock(const char *schema, const char *table, bool *locked) {
    if (try_lock_table(m_thd, schema, table, &m_ticket)) {
      return true;
    }
    *locked = m_ticket != nullptr;
    if (m_ticket == nullptr) {
      warn_table_skipped(m_thd, schema, table);
    }
    return false;
  }

 private:
  THD *m_thd;
  MDL_ticket *m_ticket{nullptr};
};

}  // namespace

void warn_table_skipped(THD *thd, const char *schema, const char *table) {
  push_warning_printf(thd, Sql_condition::SL_WARNING,
                      ER_COMPRESSION_STATS_TABLE_SKIPPED,
                      ER_THD(thd, ER_COMPRESSION_STATS_TABLE_SKIPPED), schema,
                      table, "a DDL statement holds its metadata lock");
}

bool try_lock_table(THD *thd, const char *schema, const char *table,
                    MDL_ticket **ticket) {
  char sbuf[NAME_LEN + 1];
  char tbuf[NAME_LEN + 1];
  MDL_request req;
  MDL_REQUEST_INIT(&req, MDL_key::TABLE, mdl_name_case(schema, sbuf),
                   mdl_name_case(table, tbuf), MDL_SHARED_HIGH_PRIO,
                   MDL_EXPLICIT);
  if (thd->mdl_context.try_acquire_lock(&req)) {
    return true;
  }
  *ticket = req.ticket;
  return false;
}

Lookup lookup_from_cond(Item *cond, const TABLE *table) {
  Lookup lk;
  if (cond == nullptr) {
    return lk;
  }
  if (cond->type() == Item::COND_ITEM &&
      down_cast<Item_cond *>(cond)->functype() == Item_func::COND_AND_FUNC) {
    for (Item &arg : *down_cast<Item_cond *>(cond)->argument_list()) {
      lookup_add(&arg, table, &lk);
    }
  } else {
    lookup_add(cond, table, &lk);
  }
  return lk;
}

int for_each_table(THD *thd, const Table_visitor &visit, Table_filter may_see,
                   const Lookup *lookup) {
  if (may_see == nullptr) {
    may_see = can_access_table;
  }
  const Lookup all;
  const Lookup &lk = lookup != nullptr ? *lookup : all;
  dd::cache::Dictionary_client *dc = thd->dd_client();
  const dd::cache::Dictionary_client::Auto_releaser releaser(dc);

  /* The schema objects are fetched uncached: they live until the
  statement's outermost releaser ends (a few hundred bytes each). */
  std::vector<const dd::Schema *> schemas;
  if (dc->fetch_global_components(&schemas)) {
    return 1;
  }
  for (const dd::Schema *sch : schemas) {
    if (lk.has_schema && !name_matches(lk.schema, sch->name().c_str())) {
      continue;
    }
    /* The names first (one index scan of the dictionary), then one table
    object at a time. Table objects are not fetched by schema: fetched
    objects are uncached and are freed only when the statement ends, which
    made a full read of 20,000 tables of 40 columns hold 1.5 GB of them
    (BENCHMARKS.md, 9b). An object acquired by name goes to the shared
    dictionary cache and is released after its visit, so the cache's own
    bound (table_definition_cache) holds. */
    std::vector<dd::String_type> names;
    if (lk.has_table && lower_case_table_names != 0) {
      /* Names are stored in lower case: one look-up finds the table. */
      std::string name(lk.table);
      name.resize(my_casedn_str(files_charset_info, name.data()));
      names.emplace_back(name.c_str());
    } else if (dc->fetch_schema_table_names_by_engine(sch, "InnoDB", &names)) {
      return 1;
    }
    for (const dd::String_type &name : names) {
      if (thd->killed) {
        return 1;
      }
      /* The privilege first: a table the user may not see is not locked,
      so no warning names it. */
      if ((lk.has_table && !name_matches(lk.table, name.c_str())) ||
          !may_see(thd, sch->name().c_str(), name.c_str())) {
        continue;
      }
      /* The lock is declared before the releaser: released after the
      cached object. */
      Table_lock lock(thd);
      bool locked = false;
      if (lock.try_lock(sch->name().c_str(), name.c_str(), &locked)) {
        return 1;
      }
      if (!locked) {
        continue;
      }
      const dd::cache::Dictionary_client::Auto_releaser table_releaser(dc);
      const dd::Table *tab = nullptr;
      if (dc->acquire(sch->name().c_str(), name.c_str(), &tab)) {
        return 1;
      }
      /* Dropped since it was listed, or not an InnoDB table any more. */
      if (tab == nullptr || tab->engine() != "InnoDB" ||
          tab->hidden() != dd::Abstract_table::HT_VISIBLE) {
        continue;
      }
      if (tab->partition_type() == dd::Table::PT_NONE) {
        if (visit(*sch, *tab, nullptr, nullptr, tab->se_private_id())) {
          return 1;
        }
        continue;
      }
      for (const dd::Partition *p : tab->leaf_partitions()) {
        const dd::Partition *parent = p->parent();
        if (visit(*sch, *tab,
                  parent != nullptr ? parent->name().c_str()
                                    : p->name().c_str(),
                  parent != nullptr ? p->name().c_str() : nullptr,
                  p->se_private_id())) {
          return 1;
        }
      }
    }
  }
  return 0;
}

bool resolve_targets(THD *thd, const std::string &db, const std::string &tbl,
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

}  // namespace compression_stats
