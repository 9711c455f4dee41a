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
  @file plugin/compression_stats/cs_fields.cc
  Storing values in the fields of a row of the plugin's
  INFORMATION_SCHEMA tables; see cs_fields.h.
*/

#include "plugin/compression_stats/cs_fields.h"

#include <cstring>

#include "my_inttypes.h"
#include "my_time.h"
#include "mysql/strings/m_ctype.h"
#include "sql/field.h"
#include "sql/sql_class.h"
#include "sql/tztime.h"

namespace compression_stats {

void store_string(Field *f, const char *s) {
  if (s == nullptr) {
    f->set_null();
    return;
  }
  f->set_notnull();
  f->store(s, strlen(s), system_charset_info);
}

void store_number(Field *f, uint64_t v) {
  f->set_notnull();
  f->store(static_cast<longlong>(v), true);
}

void store_dbl(Field *f, bool is_null, double v) {
  if (is_null) {
    f->set_null();
    return;
  }
  f->set_notnull();
  f->store(v);
}

void store_time(THD *thd, Field *f, time_t t) {
  MYSQL_TIME mt;
  thd->variables.time_zone->gmt_sec_to_TIME(&mt, static_cast<my_time_t>(t));
  f->set_notnull();
  f->store_time(&mt);
}

}  // namespace compression_stats
