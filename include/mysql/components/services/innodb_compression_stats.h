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

#ifndef INNODB_COMPRESSION_STATS_SERVICE_H
#define INNODB_COMPRESSION_STATS_SERVICE_H

/**
  @file include/mysql/components/services/innodb_compression_stats.h

  Service "innodb_compression_stats": InnoDB's compression statistics of one
  table or partition, for server plugins (plugin/compression_stats).

  InnoDB registers the implementation "innodb_compression_stats.innodb" in
  the component registry when it initializes and unregisters it when it
  deinitializes. A plugin acquires it with mysql_plugin_registry_acquire()
  and registry->acquire("innodb_compression_stats", ...).

  The statistics structure may grow at its end in later versions: the
  caller passes the size of the structure it was compiled with, InnoDB fills
  at most that many bytes and sets @c size to the number of bytes it filled.
*/

#include <mysql/components/service.h>
#include <stddef.h>
#include <stdint.h>

/** Counters of a group of indexes (the clustered index, or all secondary
indexes together). Counts since server start or the last read of
INFORMATION_SCHEMA.INNODB_CMP_PER_TABLE_RESET. */
struct innodb_zip_counters_t {
  /** Page compression attempts. */
  uint64_t compress_ops;
  /** Page compressions that fitted the compressed page size. */
  uint64_t compress_ops_ok;
  /** Microseconds spent compressing, failures included. */
  uint64_t compress_usecs;
  /** Page decompressions. */
  uint64_t uncompress_ops;
  /** Microseconds spent decompressing. */
  uint64_t uncompress_usecs;
  /** Page splits that only compression made necessary. */
  uint64_t zip_splits;
  /** Reorganizations (recompressions) of compressed pages. */
  uint64_t zip_reorgs;
};

/** Reorganizations (recompressions) of compressed pages by cause, and
updates, of a group of indexes. (Added in the fourth version.) */
struct innodb_zip_reorg_counters_t {
  /** Because the modification log had no room for an updated record. */
  uint64_t log_update;
  /** Because the modification log had no room for an inserted record. */
  uint64_t log_insert;
  /** Because a page filled by a split, merge or root raise did not
  compress. */
  uint64_t compress_failed;
  /** Any other cause (deleted space reclaimed, merges). */
  uint64_t other;
  /** Microseconds spent in them, in the same order. */
  uint64_t usecs_log_update;
  uint64_t usecs_log_insert;
  uint64_t usecs_compress_failed;
  uint64_t usecs_other;
  /** Updates of records in compressed pages that found room, after a
  reorganization or without one. */
  uint64_t updates;
};

/** Compression facts and statistics of one InnoDB table or partition. */
struct innodb_zip_table_stats_t {
  /** out: number of bytes InnoDB filled in */
  size_t size;
  /** InnoDB page size (innodb_page_size) in bytes. */
  uint32_t logical_page_size;
  /** Size of a page on disk: KEY_BLOCK_SIZE in bytes for a compressed
  table, else the logical page size. */
  uint32_t physical_page_size;
  /** 1 if ROW_FORMAT=COMPRESSED. */
  uint32_t is_compressed;
  /** Number of indexes. */
  uint32_t n_indexes;
  /** Pages allocated to all indexes (both segments of each B-tree), or
  UINT64_MAX if the tablespace cannot be read (discarded, missing). */
  uint64_t allocated_pages;
  /** Counters of the clustered index. */
  struct innodb_zip_counters_t primary;
  /** Sum of the counters of the secondary indexes. */
  struct innodb_zip_counters_t secondary;
  /** Current adaptive padding of the clustered index in bytes: the room
  InnoDB leaves free in its pages so that they compress. (Added after the
  first version: present if size covers it.) */
  uint64_t primary_padding;
  /** zlib level used for the table's pages: its own "compression_level"
  from ENGINE_ATTRIBUTE, else innodb_compression_level now. (Added after
  the first version, like the fields below.) */
  uint32_t effective_level;
  /** 1 if the level is the table's own. */
  uint32_t own_level;
  /** innodb_compression_failure_threshold_pct in effect for the table. */
  uint32_t effective_failure_threshold_pct;
  /** innodb_compression_pad_pct_max in effect for the table. */
  uint32_t effective_pad_pct_max;
  /** Average size in bytes of a clustered index record in the
  uncompressed page, record headers included, sampled from a few leaf
  pages; 0 if unknown (empty or uncompressed table). */
  uint32_t primary_avg_record_size;
  /** InnoDB's adaptive padding rule, so that callers need not copy it:
  the pad grows by zip_pad_increment bytes after a round of
  zip_pad_round_len compressions that failed too often. */
  uint32_t zip_pad_increment;
  uint32_t zip_pad_round_len;
  /** 1 if the clustered index's pad cannot grow any more (one more step
  would reach the table's maximum pad). */
  uint32_t primary_pad_at_max;
  /** 1 if allocated_pages comes from the table's index statistics (as of
  their last update, like INFORMATION_SCHEMA.TABLES), 0 if it was counted
  from the B-trees now. (Added in the third version, like the field
  below.) */
  uint32_t allocated_pages_from_stats;
  /** When primary_avg_record_size was sampled, seconds since the epoch;
  0 if there is no sample. InnoDB caches the sample and takes it again
  after 10 minutes or after a statistics update, and only for a table it
  compressed pages of since the start, so that a monitoring query does not
  read idle tables. */
  uint64_t primary_avg_record_size_sampled_at;
  /** Reorganizations by cause of the clustered index (fourth version). */
  struct innodb_zip_reorg_counters_t primary_reorg;
  /** Sum of them over the secondary indexes. */
  struct innodb_zip_reorg_counters_t secondary_reorg;
  /** Current log reserve of the clustered index in bytes: room in its
  compressed leaf pages that inserts leave to updates (0 when off). */
  uint64_t primary_log_reserve;
  /** innodb_compression_log_reorg_threshold_pct in effect for the table
  (0: no reserve). */
  uint32_t effective_log_reorg_threshold_pct;
  /** innodb_compression_log_reserve_pct_max in effect for the table. */
  uint32_t effective_log_reserve_pct_max;
  /** 1 if the clustered index's reserve cannot grow any more. */
  uint32_t primary_log_reserve_at_max;
  /** Step of the reserve in bytes. */
  uint32_t log_reserve_step;
  /** Codec of the table's pages (fifth version): its own
  "compression_codec", else innodb_compression_codec now; an index into
  INNODB_ZIP_CODEC_NAMES (innodb_compression_estimate.h). */
  uint32_t effective_codec;
  /** 1 if the codec is the table's own. */
  uint32_t own_codec;
  /** The row format InnoDB uses for the table or partition (sixth
  version): one of INNODB_ZIP_ROW_FORMAT_*. A partition may have its own
  (ROW_FORMAT as a partition option), so the table's options need not
  tell. */
  uint32_t row_format;
};

/** Values of innodb_zip_table_stats_t::row_format; 0: not filled (an
older InnoDB). */
#define INNODB_ZIP_ROW_FORMAT_UNKNOWN 0
#define INNODB_ZIP_ROW_FORMAT_REDUNDANT 1
#define INNODB_ZIP_ROW_FORMAT_COMPACT 2
#define INNODB_ZIP_ROW_FORMAT_DYNAMIC 3
#define INNODB_ZIP_ROW_FORMAT_COMPRESSED 4

BEGIN_SERVICE_DEFINITION(innodb_compression_stats)

/**
  Get the compression statistics of one InnoDB table or partition.

  Opens the table by id under a shared metadata lock of the calling
  connection, so it may wait for a concurrent exclusive DDL: a caller that
  must not wait (a monitoring query) takes a shared metadata lock on the
  table first with MDL_context::try_acquire_lock(), as COMPRESSION_STATS
  does, and skips the table when it cannot. Reads no page of the table
  except to sample primary_avg_record_size (see there) or to count the
  pages of a table whose statistics are transient and not yet computed.

  @param table_id    InnoDB table id: dd::Table::se_private_id() of a
                     table, dd::Partition::se_private_id() of a partition
  @param[in,out] stats  filled in; stats->size is set to the bytes filled
  @param stats_size  sizeof(*stats) as the caller knows it
  @retval false  success
  @retval true   no such table, InnoDB not running, or bad arguments
*/
DECLARE_BOOL_METHOD(get_table_stats,
                    (uint64_t table_id, struct innodb_zip_table_stats_t *stats,
                     size_t stats_size));

/**
  get_table_stats() for a caller that knows the table's name and holds a
  shared metadata lock on it (a walk over the data dictionary, as
  COMPRESSION_STATS makes). A table that is not in InnoDB's cache is
  loaded from the dictionary object of that name in the shared dictionary
  cache, whose size the server bounds, instead of through a copy that
  lives until the caller's statement ends (get_table_stats() finds the
  name of an id that way: about 70 KB per table of 40 columns). Added
  after get_table_stats(): a plugin built before it uses only the first
  method.

  @param schema      schema name as the data dictionary stores it
  @param table       table name as the data dictionary stores it
  @param table_id    InnoDB id of the table or of one of its leaf
                     partitions
  @param[in,out] stats  filled in; stats->size is set to the bytes filled
  @param stats_size  sizeof(*stats) as the caller knows it
  @retval false  success
  @retval true   no such table or partition of that name, InnoDB not
                 running, or bad arguments
*/
DECLARE_BOOL_METHOD(get_table_stats_by_name,
                    (const char *schema, const char *table, uint64_t table_id,
                     struct innodb_zip_table_stats_t *stats,
                     size_t stats_size));

END_SERVICE_DEFINITION(innodb_compression_stats)

#endif /* INNODB_COMPRESSION_STATS_SERVICE_H */
