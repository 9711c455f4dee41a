/*****************************************************************************

Copyright (c) 2026, the mysql-compress authors.

This program is free software; you can redistribute it and/or modify it under
the terms of the GNU General Public License, version 2.0, as published by the
Free Software Foundation.

*****************************************************************************/

/** @file handler/i_s_zip_stat.h
 INFORMATION_SCHEMA tables of the always-on compression statistics.

 Created 2026-11-21 */

#ifndef i_s_zip_stat_h
#define i_s_zip_stat_h

#include "mysql/plugin.h"

/** INFORMATION_SCHEMA.INNODB_CMP_PER_TABLE */
extern struct st_mysql_plugin i_s_innodb_cmp_per_table;
/** INFORMATION_SCHEMA.INNODB_CMP_PER_TABLE_RESET */
extern struct st_mysql_plugin i_s_innodb_cmp_per_table_reset;
/** INFORMATION_SCHEMA.INNODB_CMP_PER_TABLE_INDEX */
extern struct st_mysql_plugin i_s_innodb_cmp_per_table_index;

#endif /* i_s_zip_stat_h */
