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

/** @file include/dict0zip_opt.h
 Per-table compression options of ROW_FORMAT=COMPRESSED tables.

 A table (and each of its partitions) can carry its own level, failure
 threshold, maximum padding, log reserve threshold and maximum, and codec,
 set by the user in ENGINE_ATTRIBUTE (the six keys and their ranges:
 handler/handler0zip_opt.h), for example:

   ENGINE_ATTRIBUTE='{"compression_level": 1,
                      "compression_failure_threshold_pct": 10,
                      "compression_pad_pct_max": 25,
                      "compression_log_reorg_threshold_pct": 10,
                      "compression_log_reserve_pct_max": 20,
                      "compression_codec": "isal"}'

 The data dictionary persists the attribute (the server stores it with the
 table). InnoDB keeps the parsed values on the table object itself,
 dict_table_t::zip_opt, packed into one atomic word:
 - a table loaded from the data dictionary gets the values of its committed
   definition (dd_open_table);
 - a table being created, or the new copy of a table being rebuilt, gets
   the values of the new definition (it is invisible to other connections
   until the DDL commits, and must compress with them while it is built);
 - an ALTER TABLE that changes the attribute without a rebuild, and
   EXCHANGE PARTITION, mark the table discard_after_ddl: it is evicted and
   reloaded from the committed definition at its next open, so a DDL that
   fails at commit leaves the old values;
 - the values go away with the table object; DISCARD/IMPORT TABLESPACE,
   which gives the table a new id, keeps them.
 A value that is not set follows the global variable
 (innodb_compression_level, innodb_compression_failure_threshold_pct,
 innodb_compression_pad_pct_max, innodb_compression_codec and the log
 reserve's innodb_compression_log_reorg_threshold_pct and
 innodb_compression_log_reserve_pct_max, whose values live here), read at
 each use, so a change of the global applies at once.

 This module alone owns the options: the packed word on the table object,
 the defaults, and the effective values (dict_zip_opt_*() of a set of
 options, dict_index_zip_*() of an index); every reader asks it.

 The look-ups below run on the compression path: one relaxed load through
 index->table, no latch, no hash. The dummy index of a change buffer merge
 has no table of its own: dict_index_zip_level() is given the page, whose
 header names the index, and reads the options of that index's table if
 the table is in the dictionary cache (found through the counter registry,
 dict_zip_stat_with_index(), under its mutex: the rare path of a merge that
 recompresses a page), else the global values.

 Crash recovery needs no look-up: the redo records that make recovery
 recompress a page (MLOG_ZIP_PAGE_COMPRESS_NO_DATA, MLOG_ZIP_PAGE_REORGANIZE)
 carry the level that was used, which is now the table's own level.

 Created 2026-11-21 */

#ifndef dict0zip_opt_h
#define dict0zip_opt_h

#include "univ.i"

#include "dict0types.h"
#include "page0types.h"

struct dict_index_t;
struct dict_table_t;

/** Highest zlib level. */
constexpr int DICT_ZIP_OPT_LEVEL_MAX = 9;
/** Highest innodb_compression_failure_threshold_pct. */
constexpr int DICT_ZIP_OPT_THRESHOLD_MAX = 100;
/** Highest innodb_compression_pad_pct_max. */
constexpr int DICT_ZIP_OPT_PAD_MAX = 75;
/** Highest innodb_compression_log_reserve_pct_max. */
constexpr int DICT_ZIP_OPT_LOG_RESERVE_MAX = 50;
/** Highest codec number (page_zip_codec_t). */
constexpr int DICT_ZIP_OPT_CODEC_MAX = 1;

/** The packed options of a table (dict_table_t::zip_opt). */
using dict_zip_opt_word_t = uint64_t;

/** The options of one table. A negative value means "not set: follow the
global variable". */
struct dict_zip_opt_t {
  /** zlib level, 0..9. */
  int m_level{-1};
  /** Failure threshold in percent, 0..100 (0 disables adaptive padding). */
  int m_failure_threshold_pct{-1};
  /** Maximum padding in percent of the page, 0..75. */
  int m_pad_pct_max{-1};
  /** Log-full recompressions per 100 updates above which the log reserve
  grows, 0..100 (0 disables the reserve; dict0zip_log.h). */
  int m_log_reorg_threshold_pct{-1};
  /** Maximum log reserve in percent of the compressed page, 0..50. */
  int m_log_reserve_pct_max{-1};
  /** Codec of the table's pages (page_zip_codec_t, page0zip_codec.h). */
  int m_codec{-1};

  /** @return whether no option is set */
  bool empty() const {
    return m_level < 0 && m_failure_threshold_pct < 0 && m_pad_pct_max < 0 &&
           m_log_reorg_threshold_pct < 0 && m_log_reserve_pct_max < 0 &&
           m_codec < 0;
  }

  bool operator==(const dict_zip_opt_t &o) const {
    return m_level == o.m_level &&
           m_failure_threshold_pct == o.m_failure_threshold_pct &&
           m_pad_pct_max == o.m_pad_pct_max &&
           m_log_reorg_threshold_pct == o.m_log_reorg_threshold_pct &&
           m_log_reserve_pct_max == o.m_log_reserve_pct_max &&
           m_codec == o.m_codec;
  }
};

/** Where each option sits in the packed word: its lowest bit and its width
in bits. The word is never persisted (the data dictionary keeps the
ENGINE_ATTRIBUTE text), so the layout may change between versions. */
struct dict_zip_opt_field_t {
  int dict_zip_opt_t::*m_member;
  unsigned m_shift;
  unsigned m_bits;
};

/** The layout: value + 1 in each field, so that 0 means "not set". */
constexpr dict_zip_opt_field_t dict_zip_opt_fields[] = {
    {&dict_zip_opt_t::m_level, 0, 4},
    {&dict_zip_opt_t::m_failure_threshold_pct, 4, 7},
    {&dict_zip_opt_t::m_pad_pct_max, 11, 7},
    {&dict_zip_opt_t::m_log_reorg_threshold_pct, 18, 7},
    {&dict_zip_opt_t::m_log_reserve_pct_max, 25, 6},
    {&dict_zip_opt_t::m_codec, 31, 2}};

static_assert(DICT_ZIP_OPT_LEVEL_MAX + 1 < (1 << 4), "level field");
static_assert(DICT_ZIP_OPT_THRESHOLD_MAX + 1 < (1 << 7), "threshold fields");
static_assert(DICT_ZIP_OPT_PAD_MAX + 1 < (1 << 7), "pad field");
static_assert(DICT_ZIP_OPT_LOG_RESERVE_MAX + 1 < (1 << 6), "reserve field");
static_assert(DICT_ZIP_OPT_CODEC_MAX + 1 < (1 << 2), "codec field");
static_assert(31 + 2 <= 64, "the fields fit one word");

/** Pack options into one word (dict_zip_opt_fields), so that a
zero-initialized table has no options.
@param[in]  opt  options
@return packed value */
inline dict_zip_opt_word_t dict_zip_opt_pack(const dict_zip_opt_t &opt) {
  dict_zip_opt_word_t v = 0;
  for (const dict_zip_opt_field_t &f : dict_zip_opt_fields) {
    v |= static_cast<dict_zip_opt_word_t>(opt.*f.m_member + 1) << f.m_shift;
  }
  return v;
}

/** Unpack options packed by dict_zip_opt_pack().
@param[in]  v  packed value
@return options */
inline dict_zip_opt_t dict_zip_opt_unpack(dict_zip_opt_word_t v) {
  dict_zip_opt_t opt;
  for (const dict_zip_opt_field_t &f : dict_zip_opt_fields) {
    opt.*f.m_member =
        static_cast<int>((v >> f.m_shift) & ((1ULL << f.m_bits) - 1)) - 1;
  }
  return opt;
}

/** innodb_compression_log_reorg_threshold_pct: log-full recompressions
per 100 updates above which the log reserve of an index grows
(dict0zip_log.h); 0 switches the reserve off. */
extern ulong dict_zip_opt_log_reorg_threshold_pct;

/** innodb_compression_log_reserve_pct_max: the highest log reserve, in
percent of the compressed page size. */
extern ulong dict_zip_opt_log_reserve_pct_max;

/** Set the options of a table object, replacing the previous ones. Called
only on a table that no other connection can use yet (being loaded,
created or rebuilt).
@param[in,out]  table  table (or partition)
@param[in]      opt    options */
void dict_zip_opt_set(dict_table_t *table, const dict_zip_opt_t &opt);

/** Get the options of a table. Lock-free.
@param[in]  table  table (or partition)
@return the options; empty if none were set */
dict_zip_opt_t dict_zip_opt_get(const dict_table_t *table);

/** Failure threshold of the adaptive padding that a set of options gives:
its own value, else innodb_compression_failure_threshold_pct.
@param[in]  opt  options (empty: the global value)
@return threshold in percent; 0 means no adaptive padding */
ulint dict_zip_opt_failure_threshold_pct(const dict_zip_opt_t &opt);

/** Maximum padding that a set of options gives: its own value, else
innodb_compression_pad_pct_max.
@param[in]  opt  options (empty: the global value)
@return maximum pad in percent of the page */
ulint dict_zip_opt_pad_pct_max(const dict_zip_opt_t &opt);

/** Level word to compress a page of an index with (page0zip_codec.h):
the table's own level, else innodb_compression_level, and the table's own
codec, else innodb_compression_codec. Lock-free. Callers compute it once
per compression and pass it down, so that the compression and the
decision to log the page image (page_zip_log_images()) agree; compressed
BLOBs are written with it too (page_zip_lob_deflate(), zlib's calls
page_zip_level_value() of it).
@param[in]  index  index; may be the dummy index of a change buffer merge,
                   whose table is then found through the page header
                   (under the registry mutex; the global values if it is
                   not cached)
@param[in]  page   the page being compressed, or nullptr
@return level word */
ulint dict_index_zip_level(const dict_index_t *index,
                           const page_t *page = nullptr);

/** Failure threshold of the adaptive padding of an index: the table's own
value, else innodb_compression_failure_threshold_pct. Lock-free.
@param[in]  index  index (a dummy index gets the global value)
@return threshold in percent; 0 means no adaptive padding */
ulint dict_index_zip_failure_threshold_pct(const dict_index_t *index);

/** Maximum padding of an index: the table's own value, else
innodb_compression_pad_pct_max. Lock-free.
@param[in]  index  index (a dummy index gets the global value)
@return maximum pad in percent of the page */
ulint dict_index_zip_pad_pct_max(const dict_index_t *index);

/** Log-full recompressions per 100 updates above which the log reserve of
an index grows: the table's own value, else
innodb_compression_log_reorg_threshold_pct. Lock-free.
@param[in]  index  index
@return threshold in percent; 0 means no log reserve */
ulint dict_index_zip_log_reorg_threshold_pct(const dict_index_t *index);

/** Maximum log reserve of an index: the table's own value, else
innodb_compression_log_reserve_pct_max. Lock-free.
@param[in]  index  index
@return maximum reserve in percent of the compressed page */
ulint dict_index_zip_log_reserve_pct_max(const dict_index_t *index);

#endif /* dict0zip_opt_h */
