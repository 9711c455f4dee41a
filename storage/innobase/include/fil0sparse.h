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


/** @file include/fil0sparse.h
 Sparse files for page-compressed tablespaces.

 In a tablespace with COMPRESSION='zlib' or 'lz4' (transparent page
 compression) a page write punches the file system blocks past the
 page's compressed length. The pages a file extension adds are another
 matter: Fil_shard::space_extend() reserves them with posix_fallocate()
 and, with innodb_extend_and_initialize=ON, writes them with zeros, so the
 file keeps whole blocks for every page it has, in use or not, and a
 table converted to page compression saves on disk a third less than its
 pages do. With innodb_page_compression_sparse=ON (the default) such a
 file grows as a hole: a page gets blocks at its first write, for its
 compressed length only. A page read from a hole reads as zeros, which
 InnoDB takes for a page never written (BlockReporter::is_corrupted()).

 Pages freed later (by the B-tree, a dropped index, a purged LOB) keep
 their blocks. With innodb_page_compression_punch_freed=ON (OFF by
 default) they are punched too, once that is safe for every reader of the
 files. A punched page reads as zeros with LSN 0, onto which a recovery
 replays every record of the page after the checkpoint it starts from. MySQL
 logs no record for the free of a page (only its extent descriptor
 changes), so a page may be punched only when every recovery that may read
 it starts at a checkpoint past its free: then every change of the page is
 older than that checkpoint, and the next record for it is the
 initialization at its next allocation.
 - The server's own crash recovery starts at its latest checkpoint. A hot
   physical backup (XtraBackup, MySQL Enterprise Backup) replays redo from
   the checkpoint of its own start onto files it copied later: a page
   freed after that start and punched before the copy reaches it is
   zeros in the backup, and the backup does not restore. Such a copy sends
   the server no signal in XtraBackup's --lock-ddl=REDUCED or OFF modes and
   in MySQL Enterprise Backup without redo log archiving, hence OFF by
   default. With the variable ON no page is punched while LOCK INSTANCE
   FOR BACKUP is held (XtraBackup's default --lock-ddl=ON holds it for the
   whole copy, taken before its redo copy starts) or redo log archiving is
   active, and a page is punched only once the checkpoint of
   FIL_SPARSE_PUNCH_LAG seconds ago has passed its free (a tool that reads
   its checkpoint and signals within that time is covered either way).
   Clone reads pages through the buffer pool and stamps an all-zero page
   with the current LSN (clone0snapshot.cc): safe either way.
 - The free paths of fsp0fsp.cc (fsp_free_page(), fseg_free_page_low(),
   fseg_free_extent()) note the pages on fil_space_t::sparse_freed under
   the tablespace's X-latch, unstamped. A free that cannot be noted (the
   variable OFF, the tablespace no longer page-compressed, changes of the
   page waiting in the change buffer, whose merge would log records to the
   freed page) drops the tablespace's older notes, which could otherwise
   punch a page used and freed again since.
 - Once a second the master thread (fil_sparse_punch_step()) takes the
   X-latch of each tablespace that has notes: the mini-transactions that
   noted frees have committed, so it stamps the new notes with the current
   LSN. Notes whose stamp the lagged checkpoint has passed are ready; a
   page of a ready note is punched if the extent descriptor says it is
   still free and no later note (one not ready) has it, as a page freed
   again after being allocated anew would; at most FIL_SPARSE_STEP_PAGES
   pages and FIL_SPARSE_STEP_CALLS fallocate() calls per tablespace and
   step. Notes beyond FIL_SPARSE_MAX_NOTES of a tablespace are all
   dropped (never punched: the blocks stay, nothing is lost), and every
   noted page that will not be punched is counted in
   file_sparse_pages_dropped: freed - punched - dropped are pending.
 - Not in a tablespace quiesced by FLUSH TABLES ... FOR EXPORT (a file
   copy must not read a page while it is punched): its notes wait for
   UNLOCK TABLES.
 - The notes live in memory: those not punched at a shutdown or a crash
   leave their blocks allocated until the pages are allocated and freed
   again.
 - Not while the doublewrite buffer is or was in DETECT_ONLY mode: its
   recovery refuses an all-zero page it has an entry for.

 Created 2026-11-28 */

#ifndef fil0sparse_h
#define fil0sparse_h

#include <bitset>

#include "fil0fil.h"
#include "fsp0types.h"
#include "univ.i"

struct mtr_t;

/** innodb_page_compression_sparse: whether the files of page-compressed
tablespaces grow without reserving disk blocks. */
extern bool fil_page_compression_sparse;

/** innodb_page_compression_punch_freed: whether the pages freed in
page-compressed tablespaces are punched (see above; OFF by default). */
extern bool fil_page_compression_punch_freed;

/** Whether an extension of a file of a tablespace adds its pages as a hole:
innodb_page_compression_sparse is ON, the tablespace is page-compressed
(a file-per-table tablespace, COMPRESSION other than None) and the file
system of the file punches holes. Linux only (elsewhere extensions reserve,
as upstream).
@param[in]      space   tablespace
@param[in]      file    its file that grows
@return true for a sparse extension */
bool fil_space_extend_sparse(const fil_space_t *space, const fil_node_t *file);

/** Extends an open file to a size without allocating disk blocks
(ftruncate()); logs an error if it fails.
@param[in]      file    file of a tablespace, open
@param[in]      size    new size in bytes, larger than the current one
@return 0 or the errno of the failure (the caller then writes zeros, as
after a failed posix_fallocate()) */
int fil_node_extend_sparse(const fil_node_t *file, os_offset_t size);

/** At most this many notes of freed pages per tablespace (16 bytes each);
beyond, the notes of the tablespace are dropped. */
constexpr size_t FIL_SPARSE_MAX_NOTES = 65536;

/** At most this many pages are examined per tablespace per step. */
constexpr page_no_t FIL_SPARSE_STEP_PAGES = 4096;

/** At most this many fallocate() calls per tablespace per step (its
X-latch is held meanwhile). */
constexpr size_t FIL_SPARSE_STEP_CALLS = 256;

/** A page is punched once the checkpoint of this many seconds ago has
passed its free: a backup tool that reads its start checkpoint and then
takes LOCK INSTANCE FOR BACKUP or starts redo log archiving within this
time never copies a page punched after its start. */
constexpr uint64_t FIL_SPARSE_PUNCH_LAG = 30;

/** Notes pages freed in a tablespace, to be punched once that is safe;
where they cannot be noted (innodb_page_compression_punch_freed OFF, the
tablespace not page-compressed, changes buffered for one of the pages)
drops the tablespace's earlier notes instead. The caller holds the
tablespace's X-latch (a free path of fsp0fsp.cc).
@param[in]      space_id        tablespace
@param[in]      first           first page freed
@param[in]      n               number of pages from first */
void fil_sparse_note_free(space_id_t space_id, page_no_t first, page_no_t n);

/** Holds the punching of a tablespace while FLUSH TABLES ... FOR EXPORT
has it quiesced (row0quiesce.cc), so that a copy of its file never reads a
page while it is punched. Takes the tablespace's X-latch: a step that is
punching in it ends first.
@param[in]      space_id        tablespace
@param[in]      start           true at the quiesce, false at its end */
void fil_sparse_export(space_id_t space_id, bool start);

/** Frees the notes of a tablespace whose fil_space_t is freed.
@param[in,out]  space   tablespace */
void fil_sparse_space_free(fil_space_t *space);

/** Stamps the notes of freed pages and punches the pages the checkpoint
allows (see above); called once a second by the master thread, whose THD
takes the backup lock's shared mode for the step. */
void fil_sparse_punch_step();

/** Punches the file system blocks of pages of a single-file tablespace
(fil0fil.cc: it opens the file as an I/O would).
@param[in]      space   tablespace, X-latched by the caller
@param[in]      first   first page
@param[in]      n       number of pages
@return DB_SUCCESS, DB_IO_NO_PUNCH_HOLE if the file system refused (the
file is then no longer punched) or another error */
dberr_t fil_space_punch_pages(fil_space_t *space, page_no_t first,
                              page_no_t n);

/** The pages of an extent that its descriptor says are free (fsp0fsp.cc).
@param[in]      space_id        tablespace, X-latched in mtr
@param[in]      page_size       its page size
@param[in]      first           first page of the extent
@param[out]     free            bit i set if page first + i is free
@param[in,out]  mtr             mini-transaction
@return false if the extent is beyond the tablespace's free limit (its
pages were never used; free is then empty) */
bool fsp_extent_free_bits(space_id_t space_id, const page_size_t &page_size,
                          page_no_t first,
                          std::bitset<FSP_EXTENT_SIZE_MIN> &free, mtr_t *mtr);

/** Bytes the file system allocates to the free pages of a single-file
tablespace: the pages its extent descriptors mark free below the free limit
and every page from the free limit to the end of the file, counted with the
FIEMAP ioctl (allocated blocks, written or only reserved, as st_blocks
counts them). The estimator uses it to tell the bytes of the pages in use
from the file's (with innodb_page_compression_sparse the free pages are
holes, without it they keep whole pages). Takes the tablespace's X-latch
for one extent descriptor page at a time. Linux only.
@param[in]      space_id        tablespace
@param[out]     bytes           allocated bytes of the free pages
@return false if not known (not Linux, not one file, the file could not be
opened or the file system does not answer FIEMAP) */
bool fil_sparse_free_allocated(space_id_t space_id, uint64_t *bytes);

#endif /* fil0sparse_h */
