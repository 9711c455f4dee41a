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


/** @file include/dict0zip_size.h
 What a table occupies, for the readers of its compression statistics
 (the innodb_compression_stats service, COMPRESSION_STATS): the pages
 allocated to its indexes, from the index statistics where they are
 known, and the average record size of its clustered index, sampled at
 random leaf pages as dict_stats samples and cached on the index's counter
 entry (dict0zip_stat.h), so that a monitoring query reads no page of an
 idle table and does not dive into a busy one at every poll.

 Created 2026-11-21 (moved from handler/zip_stat_service.cc in issue 31) */

#ifndef dict0zip_size_h
#define dict0zip_size_h

#include "univ.i"

#include <cstdint>

struct dict_table_t;

/** Pages allocated to all indexes of a table. Taken from the table's
index statistics (the figures INFORMATION_SCHEMA.TABLES and
mysql.innodb_index_stats show, as of their last update) so that a
monitoring query reads no page of the table; persistent statistics not yet
loaded are loaded from mysql.innodb_index_stats, which does not read the
table either. Counted from the B-trees only for a table with transient
statistics (STATS_PERSISTENT=0) that no statement has opened yet.
@param[in]   table       open table
@param[out]  from_stats  whether the figure came from the statistics
@return number of pages, UINT64_MAX if they cannot be counted */
uint64_t dict_zip_size_allocated_pages(dict_table_t *table, bool *from_stats);

/** Average size of a clustered index record of a compressed table,
sampled at most once per DICT_ZIP_SIZE_REC_MAX_AGE (600 s) and cached on the
clustered index's counter entry with its time, so that a monitoring query
repeated every few seconds does not dive into the table every time.

The sample is taken again when it is older than DICT_ZIP_SIZE_REC_MAX_AGE
or older than the table's last statistics update (ANALYZE TABLE, or the
automatic recalculation after a tenth of the rows changed). It is only
taken for a table whose clustered index InnoDB compressed pages of since
the start or the last reset: only such a table can need the padding hint
it serves, and its pages are in the buffer pool, so an idle table is never
read.
@param[in]   table   open compressed table
@param[in]   active  whether the clustered index compressed pages
@param[out]  wall    when the returned size was sampled, seconds since
                     the epoch
@return bytes per record, 0 if unknown */
uint32_t dict_zip_size_avg_record_size(dict_table_t *table, bool active,
                                       int64_t *wall);

#endif /* dict0zip_size_h */
