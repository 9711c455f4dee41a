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

#ifndef PLUGIN_COMPRESSION_STATS_CS_ESTIMATES_H
#define PLUGIN_COMPRESSION_STATS_CS_ESTIMATES_H

/**
  @file plugin/compression_stats/cs_estimates.h
  INFORMATION_SCHEMA.COMPRESSION_ESTIMATES: columns and fill function.
  The function that makes the estimates is in cs_udf.h, the store that
  keeps them in cs_store.h, their arithmetic in cs_advice.h.
*/

class THD;
class Item;
class Table_ref;
struct ST_FIELD_INFO;

namespace compression_stats {

/** Columns of INFORMATION_SCHEMA.COMPRESSION_ESTIMATES. */
extern ST_FIELD_INFO estimate_fields[];

/** Fill INFORMATION_SCHEMA.COMPRESSION_ESTIMATES: the rows of the stored
estimate of every InnoDB table and leaf partition whose estimates the user
may see (may_see_estimates()). */
int fill_estimates(THD *thd, Table_ref *tables, Item *cond);

}  // namespace compression_stats

#endif  // PLUGIN_COMPRESSION_STATS_CS_ESTIMATES_H
