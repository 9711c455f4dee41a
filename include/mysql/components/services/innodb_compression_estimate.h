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

#ifndef INNODB_COMPRESSION_ESTIMATE_SERVICE_H
#define INNODB_COMPRESSION_ESTIMATE_SERVICE_H

/**
  @file include/mysql/components/services/innodb_compression_estimate.h

  Service "innodb_compression_estimate": InnoDB's space savings estimator.
  For one table or partition it trial-compresses a sample of the real leaf
  pages of every index with page_zip_compress() (InnoDB's compressed page
  format, at the level the table would use), for every KEY_BLOCK_SIZE, and
  extrapolates to the whole table. Read-only: nothing is copied, written or
  counted.

  Registered as "innodb_compression_estimate.innodb" next to
  "innodb_compression_stats". The result structure may grow at its end:
  the caller passes the size it knows, InnoDB sets @c size to what it filled.
*/

#include <mysql/components/service.h>
#include <stddef.h>
#include <stdint.h>

/** Number of KEY_BLOCK_SIZEs estimated: 1, 2, 4, 8 and 16 KB. */
#define INNODB_ZIP_EST_N_SIZES 5

/** Number of page compression methods estimated: zlib and lz4. */
#define INNODB_ZIP_EST_N_PAGE_METHODS 2
/** Names of the methods, indexed as innodb_zip_estimate_t::page_bytes;
method m is COMPRESSION's algorithm m + 1. */
#define INNODB_ZIP_PAGE_METHOD_NAMES {"zlib", "lz4"}
/** Names of COMPRESSION's algorithms (innodb_zip_estimate_t::
page_compression). */
#define INNODB_ZIP_PAGE_COMPRESSION_NAMES {"none", "zlib", "lz4"}

/** Whether a table's file can hold page-compressed pages
(innodb_zip_estimate_t::page_status). */
enum innodb_zip_est_page_status_t {
  INNODB_ZIP_EST_PAGE_OK = 0,
  /** The estimate was made before page compression was estimated. */
  INNODB_ZIP_EST_PAGE_NOT_ESTIMATED = 1,
  /** The table is in the system tablespace or a general tablespace:
  COMPRESSION needs a file-per-table tablespace. */
  INNODB_ZIP_EST_PAGE_SHARED_TABLESPACE = 2,
  /** The file system of the table's file cannot punch holes. */
  INNODB_ZIP_EST_PAGE_NO_PUNCH_HOLE = 3,
  /** The file system block is larger than half a page: no page can shrink
  by a block. */
  INNODB_ZIP_EST_PAGE_BLOCK_SIZE = 4
};

/** Estimate for one KEY_BLOCK_SIZE. */
struct innodb_zip_est_size_t {
  /** KEY_BLOCK_SIZE in KB; 0 if not possible with this innodb_page_size. */
  uint32_t key_block_size;
  /** Pages of key_block_size KB all B-trees would use, compressed. */
  uint64_t pages;
  /** Sampled leaf pages that, filled as an uncompressed page is filled,
  did not compress to key_block_size, in percent. */
  double failure_pct;
};

/** Result of an estimate of one table or partition. */
struct innodb_zip_estimate_t {
  /** out: number of bytes InnoDB filled in */
  size_t size;
  /** innodb_page_size in bytes */
  uint32_t logical_page_size;
  /** Current size of a page on disk (KEY_BLOCK_SIZE if compressed). */
  uint32_t physical_page_size;
  /** 1 if the table is ROW_FORMAT=COMPRESSED now. */
  uint32_t is_compressed;
  /** zlib level of the trials: the table's own, else the global one. */
  uint32_t level;
  /** 1 if every leaf page was read (full scan). */
  uint32_t full_scan;
  /** Number of B-tree indexes estimated. */
  uint32_t n_indexes;
  /** Pages in use by all B-trees now, of physical_page_size each. */
  uint64_t used_pages;
  /** Leaf pages in use now. */
  uint64_t leaf_pages;
  /** Leaf pages the trials started from. */
  uint64_t sampled_pages;
  /** Records copied into trial pages. */
  uint64_t sampled_records;
  /** Estimated bytes of user records (directory included) in all leaf
  pages. */
  uint64_t data_bytes;
  /** Pages of logical_page_size the same data takes uncompressed, built
  as ALTER TABLE builds it (15/16 full clustered index pages). */
  uint64_t uncompressed_pages;
  /** Estimates, by KEY_BLOCK_SIZE 1, 2, 4, 8, 16 KB. */
  struct innodb_zip_est_size_t sizes[INNODB_ZIP_EST_N_SIZES];
  /** Sampled records with columns stored off-page (BLOB pages). */
  uint64_t extern_records;
  /** Pages of logical_page_size the same records take packed into full
  uncompressed pages, nothing left free: the baseline of the space savings
  (no compressed page holds more records than one such page). */
  uint64_t full_pages;
  /** By KEY_BLOCK_SIZE 1, 2, 4, 8, 16 KB: pages all B-trees would use if
  the rows were inserted in key order into the compressed table (pages
  filled as far as they compress); 0 where sizes[] has key_block_size 0. */
  uint64_t inserted_pages[INNODB_ZIP_EST_N_SIZES];
  /** Estimated bytes of the columns stored off-page (BLOB pages), whole
  columns, uncompressed. They are in full_pages, uncompressed_pages,
  sizes[].pages and inserted_pages as the pages InnoDB would store them in:
  uncompressed LOB pages, or zlib streams in compressed BLOB pages. */
  uint64_t extern_bytes;
  /** Pages of physical_page_size that hold off-page columns now (the leaf
  segments' pages that are not B-tree leaves); included in used_pages. */
  uint64_t extern_pages;
  /** Codec of the trials (innodb_compression_codec or the table's
  "compression_codec"): an index into INNODB_ZIP_CODEC_NAMES. (Added in
  the codec version: present if size covers it.) */
  uint32_t codec;
  /** Transparent page compression (COMPRESSION='zlib' and 'lz4'; added in
  the page compression version: present if size covers page_status, else
  the caller takes INNODB_ZIP_EST_PAGE_NOT_ESTIMATED).
  An innodb_zip_est_page_status_t: whether the table's file can hold
  page-compressed pages; page_bytes and page_whole_pct are set only if it
  is INNODB_ZIP_EST_PAGE_OK. */
  uint32_t page_status;
  /** Block size of the file system of the table's file, in bytes: what a
  page-compressed page is rounded up to. */
  uint32_t fs_block_size;
  /** The tablespace's COMPRESSION now: an index into
  INNODB_ZIP_PAGE_COMPRESSION_NAMES. */
  uint32_t page_compression;
  /** zlib level of page compression (innodb_compression_level). */
  uint32_t page_zlib_level;
  /** Bytes of the table's file now, and bytes allocated to it on disk (what
  du counts: punched holes and sparse regions are not). */
  uint64_t file_bytes;
  uint64_t file_allocated_bytes;
  /** By method (INNODB_ZIP_PAGE_METHOD_NAMES): bytes on disk all B-trees and
  BLOB pages would take after a rebuild with that COMPRESSION, each page as
  os_file_compress_page() writes it, rounded up to fs_block_size; a page
  that does not shrink by one block whole. The pages are those of
  uncompressed_pages. */
  uint64_t page_bytes[INNODB_ZIP_EST_N_PAGE_METHODS];
  /** By method: sampled pages that would be stored whole (not shrunk by a
  block), in percent. */
  double page_whole_pct[INNODB_ZIP_EST_N_PAGE_METHODS];
  /** Bytes allocated on disk to the free pages of the file (the pages its
  extent descriptors mark free and the pages from the free limit to its
  end), counted with FIEMAP; valid if file_free_measured is 1 (Linux, a
  file with COMPRESSION other than None). With
  innodb_page_compression_sparse they are holes, without it whole pages:
  file_allocated_bytes less this is what the pages in use take. (Added in
  the sparse file version: present if size covers file_free_measured.) */
  uint64_t file_free_allocated_bytes;
  /** 1 if file_free_allocated_bytes was measured, else 0. */
  uint32_t file_free_measured;
  /** The file a rebuild leaves (ALTER TABLE, OPTIMIZE TABLE: a sorted
  index build), modelled on InnoDB's rules for reserving pages and
  extending files (storage/innobase/include/fsp0est.h). Of an uncompressed
  or page-compressed rebuild, in pages of logical_page_size: the pages in
  use that belong to no index (the file's header pages, extent descriptor
  and change buffer bitmap pages), and the free pages the file keeps (the
  extents its segments and the file reserve). (Added in the rebuilt file
  version: present if size covers rebuilt_file_estimated.) */
  uint64_t rebuilt_other_pages;
  uint64_t rebuilt_free_pages;
  /** By KEY_BLOCK_SIZE 1, 2, 4, 8, 16 KB: all pages of the file a rebuild
  at that size leaves (sizes[].pages, the other pages and the free pages),
  of key_block_size KB; 0 where sizes[] has key_block_size 0. */
  uint64_t rebuilt_zip_file_pages[INNODB_ZIP_EST_N_SIZES];
  /** 1 if the rebuilt file was estimated (a file-per-table tablespace),
  else 0. */
  uint32_t rebuilt_file_estimated;
};

/** Names of the page codecs, indexed by innodb_zip_estimate_t::codec and
innodb_zip_table_stats_t::effective_codec. */
#define INNODB_ZIP_CODEC_NAMES {"zlib", "isal"}
/** Number of names in INNODB_ZIP_CODEC_NAMES. */
#define INNODB_ZIP_N_CODECS 2

/** Outcome of estimate_table(). */
enum innodb_zip_est_status_t {
  INNODB_ZIP_EST_OK = 0,
  /** No such table, or InnoDB is not running. */
  INNODB_ZIP_EST_NO_TABLE = 1,
  /** The table was dropped or rebuilt while it was estimated. */
  INNODB_ZIP_EST_DROPPED = 2,
  /** An index being estimated went away (the table was rebuilt, or the
  index dropped) while the table was estimated. */
  INNODB_ZIP_EST_ALTERED = 3,
  /** ROW_FORMAT=REDUNDANT: the compressed format cannot hold its pages. */
  INNODB_ZIP_EST_REDUNDANT = 4,
  /** The connection was killed. */
  INNODB_ZIP_EST_INTERRUPTED = 5,
  /** Tablespace missing, discarded or corrupted. */
  INNODB_ZIP_EST_UNREADABLE = 6,
  /** Instantly added or dropped columns: the records are not in the
  format ALTER TABLE would write. */
  INNODB_ZIP_EST_INSTANT = 7,
  /** innodb_page_size above 16K: InnoDB cannot compress pages. */
  INNODB_ZIP_EST_PAGE_SIZE = 8
};

/** Progress callback: done and total units of work (trial pages). */
typedef void (*innodb_zip_est_progress_t)(void *ctx, uint64_t done,
                                          uint64_t total);

BEGIN_SERVICE_DEFINITION(innodb_compression_estimate)

/**
  Estimate the space savings of one InnoDB table or partition for every
  KEY_BLOCK_SIZE.

  Opens the table by id under a shared metadata lock of the calling
  connection for each trial page and releases it in between, so that DDL
  can proceed; a table dropped, rebuilt or altered meanwhile ends the
  estimate with the matching status.

  @param table_id      dd::Table::se_private_id() or
                       dd::Partition::se_private_id()
  @param sample_pages  leaf pages to sample per index (>= 1)
  @param full_scan     nonzero: start a trial at every leaf page instead
  @param progress      called after each trial page, or NULL
  @param ctx           passed to progress
  @param[out] est      the estimate
  @param est_size      sizeof(*est) as the caller knows it
  @return an innodb_zip_est_status_t
*/
DECLARE_METHOD(int, estimate_table,
               (uint64_t table_id, uint64_t sample_pages, int full_scan,
                innodb_zip_est_progress_t progress, void *ctx,
                struct innodb_zip_estimate_t *est, size_t est_size));

END_SERVICE_DEFINITION(innodb_compression_estimate)

#endif /* INNODB_COMPRESSION_ESTIMATE_SERVICE_H */
