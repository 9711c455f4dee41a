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

class THD;

/** SHOW STATUS Innodb_zip_log_page_images: redo records holding a whole
compressed page image (MLOG_ZIP_PAGE_COMPRESS) written since start-up. */
int show_innodb_zip_log_page_images(THD *thd, SHOW_VAR *var, char *buff);

/** SHOW STATUS Innodb_zip_recovery_recompress_records: redo records met by
crash recovery at this start that make it recompress a page of a compressed
table (written with innodb_log_compressed_pages=OFF). */
int show_innodb_zip_recovery_recompress_records(THD *thd, SHOW_VAR *var,
                                                char *buff);

/** SHOW STATUS Innodb_zip_log_page_image_bytes: their bytes. */
int show_innodb_zip_log_page_image_bytes(THD *thd, SHOW_VAR *var, char *buff);

#endif /* i_s_zip_stat_h */
