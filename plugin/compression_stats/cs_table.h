/* Copyright (c) 2026, the mysql-compress authors.

This program is free software; you can redistribute it and/or modify it under
the terms of the GNU General Public License, version 2.0, as published by the
Free Software Foundation. */

#ifndef PLUGIN_COMPRESSION_STATS_CS_TABLE_H
#define PLUGIN_COMPRESSION_STATS_CS_TABLE_H

/**
  @file plugin/compression_stats/cs_table.h
  INFORMATION_SCHEMA.COMPRESSION_STATS: columns and fill function.
*/

class THD;
class Item;
class Table_ref;
struct ST_FIELD_INFO;

namespace compression_stats {

/** Columns of INFORMATION_SCHEMA.COMPRESSION_STATS. */
extern ST_FIELD_INFO table_fields[];

/** Fill INFORMATION_SCHEMA.COMPRESSION_STATS: one row per InnoDB table and
leaf partition on which the user has any privilege. */
int fill_table(THD *thd, Table_ref *tables, Item *cond);

}  // namespace compression_stats

#endif  // PLUGIN_COMPRESSION_STATS_CS_TABLE_H
