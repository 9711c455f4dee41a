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

/** SHOW STATUS Innodb_zip_log_page_image_bytes: their bytes. */
int show_innodb_zip_log_page_image_bytes(THD *thd, SHOW_VAR *var, char *buff);

#endif /* i_s_zip_stat_h */
