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

/** @file include/srv0zip_guard.h
 Crash recovery guard for compressed pages whose images were not logged.

 With innodb_log_compressed_pages=OFF, InnoDB writes no page image when it
 recompresses a page of a ROW_FORMAT=COMPRESSED table; the redo record
 (MLOG_ZIP_PAGE_COMPRESS_NO_DATA, MLOG_ZIP_PAGE_REORGANIZE) only holds the
 compression level, and crash recovery compresses the page again. That is
 only right if zlib produces the same bytes as the zlib that wrote the
 record: a different zlib can produce a page that does not fit, or a page
 whose later redo records (which address bytes of the compressed page) no
 longer apply.

 The guard records the zlib version (zlibVersion(), the library really
 loaded) in the file ZIP_GUARD_FILE_NAME of the data directory, at database
 creation and after every successful start. The decision is taken where
 recovery applies the records of a page (recv_recover_page_func()), so only
 records that recovery really applies count: a record whose page was
 written to disk after it (page LSN not older than the record) is skipped
 by recovery and is no reason to refuse. When recovery is about to apply
 such a record and the running zlib differs from the recorded one, the
 server refuses to start, naming both versions. The way out: start the
 build with the recorded zlib (it finishes recovery and a clean shutdown
 leaves no such records), or start once with
 innodb_compression_recovery_zlib_override=ON to accept the risk.

 What a refusal leaves behind, and why that is safe:
 - the page whose records would be recompressed is left untouched: the
   guard decides on all records of a page before the first one is applied
   (all are applied, or none), and from the refusal on every other page of
   the batch is left untouched as well;
 - pages of the same batch that were applied before the refusal hold all
   their records of the batch; recv_apply_hashed_log_recs() writes them out
   at the end of the batch, as after any batch of a multi-batch recovery;
 - recovery then stops (recv_recovery_begin() returns DB_ERROR, the server
   aborts its start) before InnoDB writes any checkpoint: checkpoints are
   only written once recovery finished. The next start therefore scans the
   redo log again from the same checkpoint, skips on every page what the
   page already holds (redo apply compares each record with the page LSN,
   so it is idempotent) and meets the untouched page again: it refuses
   again, or with the right zlib or the override applies the rest.
 So no page is ever changed by a record of the zlib in question, and the
 data directory after a refusal is one that a crash during an upstream
 multi-batch recovery could leave.

 A start without crash recovery, or whose redo holds no such record that
 recovery applies, just records the running version. A data directory
 without the file (made by a build without the guard, or restored from a
 backup) is not checked; the file is written after recovery.

 Created 2026-11-21 */

#ifndef srv0zip_guard_h
#define srv0zip_guard_h

#include "univ.i"

#include "log0types.h"
#include "mtr0types.h"

class THD;
struct SHOW_VAR;
struct recv_addr_t;

/** Name of the file in the data directory. */
constexpr const char ZIP_GUARD_FILE_NAME[] = "ib_zlib_version";

/** innodb_compression_recovery_zlib_override: let crash recovery
recompress pages although zlib changed. */
extern bool srv_zip_guard_override;

/** Read the recorded zlib version. Called before crash recovery. */
void srv_zip_guard_load();

/** Record the running zlib version if it differs from the recorded one.
Called after a database was created and after recovery succeeded; does
nothing in read-only mode. A failure to write is logged as a warning. */
void srv_zip_guard_store();

/** Decide, before recovery applies the first redo record to a page,
whether it may apply them. Counts the records that make recovery
recompress the page, among those it will apply: the records at or after
the page LSN, as recv_recover_page_func() selects them (a
MLOG_INIT_FILE_PAGE record resets the comparison to the newest
modification of the block, as there).
@param[in]  recv_addr   the redo records of the page, in LSN order
@param[in]  page_lsn    LSN of the page (FIL_PAGE_LSN, or the newest
                        modification of the block in the buffer pool)
@param[in]  newest_lsn  newest modification of the block, 0 if none
@return true if recovery must leave the page untouched: the zlib changed
(the error is logged once) or the guard already refused */
bool srv_zip_guard_page(const recv_addr_t *recv_addr, lsn_t page_lsn,
                        lsn_t newest_lsn);

/** @return whether recovery was stopped by the guard */
bool srv_zip_guard_tripped();

/** @return number of redo records applied by crash recovery since
start-up that made it recompress a page (MLOG_ZIP_PAGE_COMPRESS_NO_DATA,
MLOG_ZIP_PAGE_REORGANIZE); records skipped because the page on disk was
newer do not count */
uint64_t srv_zip_guard_recompress_records();

/** SHOW STATUS Innodb_zip_recovery_recompress_records: redo records met by
crash recovery at this start that make it recompress a page of a compressed
table (written with innodb_log_compressed_pages=OFF);
srv_zip_guard_recompress_records(). */
int show_innodb_zip_recovery_recompress_records(THD *thd, SHOW_VAR *var,
                                                char *buff);

#endif /* srv0zip_guard_h */
