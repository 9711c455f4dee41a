/*****************************************************************************

Copyright (c) 2026, the mysql-compress authors.

This program is free software; you can redistribute it and/or modify it under
the terms of the GNU General Public License, version 2.0, as published by the
Free Software Foundation.

This program is distributed in the hope that it will be useful, but WITHOUT
ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
FOR A PARTICULAR PURPOSE. See the GNU General Public License, version 2.0,
for more details.

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
 creation and after every successful start. When crash recovery meets a
 record that makes it recompress a page and the running zlib differs from
 the recorded one, recovery stops before applying anything more and the
 server refuses to start, naming both versions. The way out: start the
 build with the recorded zlib (it finishes recovery and a clean shutdown
 leaves no such records), or start once with
 innodb_compression_recovery_zlib_override=ON to accept the risk.

 A start without crash recovery, or whose redo holds no such record, just
 records the running version. A data directory without the file (made by
 a build without the guard, or restored from a backup) is not checked; the
 file is written after recovery.

 Created 2026-11-21 */

#ifndef srv0zip_guard_h
#define srv0zip_guard_h

#include "univ.i"

#include "mtr0types.h"

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

/** Check a redo record that recovery is about to apply.
@param[in]  type  record type
@return true if recovery must stop (the error is logged once) */
bool recv_zip_guard_check(mlog_id_t type);

/** @return whether recovery was stopped by the guard */
bool recv_zip_guard_tripped();

/** @return number of redo records met by crash recovery since start-up
that make it recompress a page (MLOG_ZIP_PAGE_COMPRESS_NO_DATA,
MLOG_ZIP_PAGE_REORGANIZE) */
uint64_t recv_zip_guard_recompress_records();

#endif /* srv0zip_guard_h */
