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
  @file plugin/compression_stats/cs_privileges.cc
  The privilege checks of the plugin; see cs_privileges.h. They ask the
  server's own check_access() and check_grant(), as
  INFORMATION_SCHEMA.TABLES does, with names lowered as the grant tables
  store them when lower_case_table_names is 2.
*/

#include "plugin/compression_stats/cs_privileges.h"

#include <cstdio>
#include <cstring>

#include "my_inttypes.h"
#include "mysql/strings/m_ctype.h"
#include "sql/auth/auth_acls.h"
#include "sql/auth/auth_common.h"
#include "sql/auth/sql_security_ctx.h"
#include "sql/mysqld.h"
#include "sql/sql_class.h"
#include "sql/table.h"

namespace compression_stats {

namespace {

/** Whether the user holds privileges on a table.
@param thd          the session
@param db           schema name
@param tbl          table name
@param want         the privileges
@param any          true: any one of want, also on a column only (the rule
                    of CAN_ACCESS_TABLE); false: all of want on the table
                    itself (global, schema or table grant), column grants do
                    not count
@return whether it does */
bool has_table_access(THD *thd, const char *db, const char *tbl,
                      Access_bitmask want, bool any) {
  char db_buf[NAME_LEN + 1];
  char tbl_buf[NAME_LEN + 1];
  snprintf(db_buf, sizeof(db_buf), "%s", db);
  snprintf(tbl_buf, sizeof(tbl_buf), "%s", tbl);
  if (lower_case_table_names == 2) {
    my_casedn_str(files_charset_info, db_buf);
    my_casedn_str(files_charset_info, tbl_buf);
  }
  Access_bitmask db_access = 0;
  if (check_access(thd, SELECT_ACL, db_buf, &db_access, nullptr, false,
                   true)) {
    return false;
  }
  if (any ? (db_access & want) != 0 : (db_access & want) == want) {
    return true;
  }
  Table_ref tl;
  tl.db = db_buf;
  tl.db_length = strlen(db_buf);
  tl.table_name = tbl_buf;
  tl.table_name_length = strlen(tbl_buf);
  tl.grant.privilege = db_access;
  if (check_grant(thd, want, &tl, any, 1, true)) {
    return false;
  }
  /* check_grant() also passes when only some columns are granted, leaving
  the checks of the columns to later: what the table grants is in
  grant.privilege. */
  return any || (tl.grant.privilege & want) == want;
}

}  // namespace

bool can_access_table(THD *thd, const char *db, const char *tbl) {
  return has_table_access(thd, db, tbl, TABLE_OP_ACLS, true);
}

bool may_see_estimates(THD *thd, const char *db, const char *tbl) {
  return thd->security_context()->check_access(PROCESS_ACL) ||
         has_table_access(thd, db, tbl, SELECT_ACL, false);
}

}  // namespace compression_stats
