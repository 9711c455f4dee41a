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

/** @file page/page0zip_est.cc
 Space savings estimator.

 For each B-tree of a table, a trial starts at a leaf page (at random
 positions, or at every leaf page in a full scan): the records of that page
 and of its right siblings are copied, in key order and without the
 delete-marked ones, into a scratch page of the buffer pool until it is as
 full as the uncompressed page loader of ALTER TABLE would fill it. Then,
 for each KEY_BLOCK_SIZE from 16 KB down to 1 KB, a binary search on the
 number of leading records finds the most records that page_zip_compress()
 fits into that size. This is InnoDB's own compressed page format (dense
 directory, uncompressed system columns, node pointers), at the zlib level
 the table would use.

 The fits are then fed to a model of the compressed page loader of
 ALTER TABLE (btr0load.cc): it fills a page up to the adaptive pad and
 compresses it; on failure it keeps what fits with
 innodb_compression_bulk_free_pct of the page free and carries the rest on
 (innodb_compression_bulk_split=TIGHT, then the fits are searched with that
 free space), or splits the page in half (HALF); the pad follows
 dict_index_zip_pad_update(). The variables are read when the estimate
 starts. The pages the model produces per byte of
 records, times the bytes of records in the leaf pages, give the leaf
 pages of the compressed B-tree; non-leaf pages scale with them.

 Off-page columns (BLOB pages) are modelled apart: for the columns of the
 start page's records, a few of them are read whole and deflated as InnoDB
 would store them in a compressed table (lob/zlob0ins.cc: one zlib stream
 in whole pages up to 128 KB, else a stream per 128 KB chunk, lob/lob0impl.cc),
 and the pages they take at each size, uncompressed (lob/lob0ins.cc) and
 packed full are extrapolated to the start pages. The leaf segment holds the
 BLOB pages too, so the B-tree leaves of a clustered index with long columns
 are counted from the node pointers one level up.

 Nothing is written: the scratch pages are private, page_zip_compress()
 runs with no mini-transaction, and dict_zip_trial keeps the trials
 out of every compression statistic and out of the adaptive padding.

 Created 2026-11-21 */

#include "page0zip_est.h"
#include "page0comp_est.h"
#include "page0zip_codec.h"

#include <mysql/plugin.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "btr0btr.h"
#include "btr0cur.h"
#include "btr0pcur.h"
#include "buf0buf.h"
#include "ddl0ddl.h"
#include "dict0dd.h"
#include "dict0dict.h"
#include "dict0mem.h"
#include "dict0zip_opt.h"
#include "dict0zip_stat.h"
#include "fsp0fsp.h"
#include "lob0first.h"
#include "lob0impl.h"
#include "lob0lob.h"
#include "lob0pages.h"
#include "zlob0first.h"
#include "zlob0index.h"
#include "mtr0mtr.h"
#include "page0cur.h"
#include "page0page.h"
#include "page0zip.h"
#include "btr0load_zip.h"
#include "page0zip_fit.h"
#include "rem0rec.h"
#include "sql/current_thd.h"
#include "srv0shutdown.h"
#include "srv0srv.h"
#include "srv0start.h"

#include <zlib.h>

namespace {

/** KEY_BLOCK_SIZEs in KB, in the order of innodb_zip_estimate_t::sizes. */
constexpr ulint page_zip_est_kbs[INNODB_ZIP_EST_N_SIZES] = {1, 2, 4, 8, 16};

/** Leaf pages of innodb_page_size one trial may read (the start page and
right siblings); a table with smaller (compressed) pages may read as many
bytes of pages, so that its trials fill a page as well: a 1 KB page holds a
sixteenth of the records a 16 KB page holds, and a trial cut short after 8
of them would count a page that is half empty as full. */
constexpr ulint PAGE_ZIP_EST_MAX_RUN = 8;

/** Leaf pages one trial of an index may read.
@param[in]  index  index
@return PAGE_ZIP_EST_MAX_RUN pages' worth of bytes in the index's pages */
ulint page_zip_est_max_run(const dict_index_t *index) {
  const ulint physical = dict_table_page_size(index->table).physical();
  return PAGE_ZIP_EST_MAX_RUN * std::max<ulint>(1, UNIV_PAGE_SIZE / physical);
}

/** Binary search precision: stop when the candidates differ by fewer
bytes of records than this. */
constexpr ulint PAGE_ZIP_EST_PRECISION = 64;

/** Off-page columns of a trial's start page read and deflated; the others
take their ratio. */
constexpr ulint PAGE_ZIP_EST_LOB_FIELDS = 4;

/** Bytes of an off-page column read at most: its first two chunks of
lob::Z_CHUNK_SIZE; the rest takes their ratio. */
constexpr ulint PAGE_ZIP_EST_LOB_PREFIX = 2 * lob::Z_CHUNK_SIZE;

/** Page builds the loader model simulates at most per index and size;
the rest is extrapolated from the steady state. */
constexpr uint64_t PAGE_ZIP_EST_MAX_BUILDS = 1 << 20;

/** A vector whose memory performance_schema counts
(memory/innodb/page0zip_est). */
template <typename T>
using page_zip_est_vector_t = std::vector<T, ut::allocator<T>>;

/** A new, empty page_zip_est_vector_t. */
template <typename T>
page_zip_est_vector_t<T> page_zip_est_vector() {
  return page_zip_est_vector_t<T>(ut::allocator<T>(UT_NEW_THIS_FILE_PSI_KEY()));
}

/** Trials of one index the loader model keeps at most. A full scan (or a
sample that large) trial-compresses every page it reads and counts every
page in the sums, but keeps the record sizes of a uniform sample of this
many trials (reservoir sampling) for the model: bounded memory, 2 bytes per
record of a trial, so at most 2.5 MB per index (the narrowest records,
1,250 in a 16 KB page) and 0.2 MB for 200-byte rows, whatever the size of
the table. (It kept every trial: a quarter of the leaf bytes of narrow
rows.) */
constexpr size_t PAGE_ZIP_EST_MAX_UNITS = 1024;

/* page_zip_est_unit_t::cum holds bytes of one uncompressed page, and the
estimator runs only where pages can be compressed (page_zip_est_table()). */
static_assert(UNIV_ZIP_SIZE_MAX <= UINT16_MAX);

/** One trial: the records of a run of leaf pages as they fill one
uncompressed page. */
struct page_zip_est_unit_t {
  /** cum[c]: bytes of the first c records with their page directory
  (at most innodb_page_size, which is 16 KB at most for compression). */
  page_zip_est_vector_t<uint16_t> cum{page_zip_est_vector<uint16_t>()};
  /** Per size: the most leading records that compress into it with the
  free space of the bulk loader (innodb_compression_bulk_free_pct). */
  uint32_t fit[INNODB_ZIP_EST_N_SIZES];
  /** Per size: the most leading records that compress into it with
  nothing left free, as far as key-ordered inserts fill a page. */
  uint32_t fit0[INNODB_ZIP_EST_N_SIZES];
  /** Bytes of the off-page columns of the start page's records. */
  double lob_bytes{0};
  /** Uncompressed BLOB pages those columns take when rebuilt. */
  double lob_pages{0};
  /** Per size: compressed BLOB pages those columns take. */
  double lob_zip[INNODB_ZIP_EST_N_SIZES]{};
  /** Page compression (page0comp_est.h), if estimated: by method, bytes on
  disk of the start page as ALTER TABLE fills an uncompressed page
  (0: not estimated). */
  uint16_t pc_bytes[INNODB_ZIP_EST_N_PAGE_METHODS]{};
  /** BLOB data pages of the columns read, and by method their bytes on
  disk with page compression. */
  double lob_pc_pages{0};
  double lob_pc_bytes[INNODB_ZIP_EST_N_PAGE_METHODS]{};
};

/** One B-tree being estimated. */
struct page_zip_est_index_t {
  /** Index id. */
  space_index_t id;
  /** Whether it is the clustered index. */
  bool clustered;
  /** Failure threshold of its adaptive padding. */
  ulint threshold;
  /** Maximum pad in percent. */
  ulint pad_max;
  /** Whether ALTER TABLE would split tightly
  (innodb_compression_bulk_split=TIGHT) */
  bool tight;
  /** Share of each compressed page in percent that the tight split keeps
  free (innodb_compression_bulk_free_pct); 0 with HALF */
  ulint free_pct;
  /** B-tree leaf pages. */
  ulint leaf_pages;
  /** Pages in use in both segments, BLOB pages included. */
  ulint used_pages;
  /** BLOB pages in the leaf segment now. */
  ulint lob_pages;
  /** Sum of the used bytes of the trials' start pages. */
  uint64_t start_bytes;
  /** Whether a trial starts at every leaf page: a full scan, or an index
  with no more leaf pages than the sample. */
  bool full;
  /** Trials made (start pages read). */
  uint64_t started{0};
  /** Sums over all trials made, of what each unit also holds: bytes of the
  off-page columns, their uncompressed and compressed BLOB pages. */
  double sum_lob_bytes{0};
  double sum_lob_pages{0};
  double sum_lob_zip[INNODB_ZIP_EST_N_SIZES]{};
  /** Page compression: trials measured, and by method the sums of their
  bytes on disk and the trials that stay whole; BLOB data pages measured
  and their bytes on disk. */
  uint64_t pc_trials{0};
  double sum_pc_bytes[INNODB_ZIP_EST_N_PAGE_METHODS]{};
  uint64_t pc_whole[INNODB_ZIP_EST_N_PAGE_METHODS]{};
  double sum_lob_pc_pages{0};
  double sum_lob_pc_bytes[INNODB_ZIP_EST_N_PAGE_METHODS]{};
  /** A uniform sample of at most PAGE_ZIP_EST_MAX_UNITS of the trials,
  for the loader model. */
  page_zip_est_vector_t<page_zip_est_unit_t> units{
      page_zip_est_vector<page_zip_est_unit_t>()};
  /** State of the reservoir sampling. */
  uint64_t rng{0x9E3779B97F4A7C15ULL};

  /** Add a trial: count it in the sums, keep it in the sample with
  probability PAGE_ZIP_EST_MAX_UNITS / started (Algorithm R). */
  void add(page_zip_est_unit_t &&unit) {
    started++;
    sum_lob_bytes += unit.lob_bytes;
    sum_lob_pages += unit.lob_pages;
    for (ulint k = 0; k < INNODB_ZIP_EST_N_SIZES; k++) {
      sum_lob_zip[k] += unit.lob_zip[k];
    }
    if (unit.pc_bytes[0] != 0) {
      pc_trials++;
      for (ulint m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
        sum_pc_bytes[m] += unit.pc_bytes[m];
        pc_whole[m] += unit.pc_bytes[m] >= UNIV_PAGE_SIZE;
      }
    }
    sum_lob_pc_pages += unit.lob_pc_pages;
    for (ulint m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
      sum_lob_pc_bytes[m] += unit.lob_pc_bytes[m];
    }
    if (units.size() < PAGE_ZIP_EST_MAX_UNITS) {
      units.push_back(std::move(unit));
      return;
    }
    /* xorshift64: the same tables give the same estimates. */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    const uint64_t j = rng % started;
    if (j < PAGE_ZIP_EST_MAX_UNITS) {
      units[j] = std::move(unit);
    }
  }
};

/** Scratch blocks of the buffer pool, released at the end of the scope. */
class Page_zip_est_scratch {
 public:
  Page_zip_est_scratch()
      : m_full(buf_block_alloc(nullptr)),
        m_trial(buf_block_alloc(nullptr)),
        m_zip(buf_block_alloc(nullptr)),
        m_heap(mem_heap_create(UNIV_PAGE_SIZE, UT_LOCATION_HERE)) {}
  ~Page_zip_est_scratch() {
    buf_block_free(m_full);
    buf_block_free(m_trial);
    buf_block_free(m_zip);
    mem_heap_free(m_heap);
    if (m_lob_heap != nullptr) {
      mem_heap_free(m_lob_heap);
    }
    if (m_zlib_heap != nullptr) {
      mem_heap_free(m_zlib_heap);
    }
  }

  /** A buffer of PAGE_ZIP_EST_LOB_PREFIX bytes for an off-page column,
  allocated on first use. */
  byte *lob_buf() {
    if (m_lob_heap == nullptr) {
      m_lob_heap = mem_heap_create(PAGE_ZIP_EST_LOB_PREFIX + UNIV_PAGE_SIZE,
                                   UT_LOCATION_HERE);
      m_lob_buf = static_cast<byte *>(
          mem_heap_alloc(m_lob_heap, PAGE_ZIP_EST_LOB_PREFIX + UNIV_PAGE_SIZE));
    }
    return m_lob_buf;
  }

  /** An empty heap for zlib (page_zip_set_alloc()), as zInserter uses. */
  mem_heap_t *zlib_heap() {
    if (m_zlib_heap == nullptr) {
      m_zlib_heap = mem_heap_create(250000, UT_LOCATION_HERE);
    } else {
      mem_heap_empty(m_zlib_heap);
    }
    return m_zlib_heap;
  }
  Page_zip_est_scratch(const Page_zip_est_scratch &) = delete;
  Page_zip_est_scratch &operator=(const Page_zip_est_scratch &) = delete;

  /** The records of the current trial, as a full uncompressed page. */
  buf_block_t *m_full;
  /** A prefix of m_full being tried. */
  buf_block_t *m_trial;
  /** Output of page_zip_compress(). */
  buf_block_t *m_zip;
  /** Heap for record offsets. */
  mem_heap_t *m_heap;
  /** File system block size of the table's file if page compression is
  estimated, else 0. */
  ulint m_pc_block_size{0};

 private:
  /** Heap of m_lob_buf. */
  mem_heap_t *m_lob_heap{nullptr};
  /** Off-page column being read; its zlib output goes to its end. */
  byte *m_lob_buf{nullptr};
  /** Heap of the zlib streams. */
  mem_heap_t *m_zlib_heap{nullptr};
};

/** Make a scratch block an empty leaf page of an index.
@param[in,out]  block  scratch block
@param[in]      index  index */
void page_zip_est_page_init(buf_block_t *block, const dict_index_t *index) {
  page_t *page = page_create_low(block, true, FIL_PAGE_INDEX);
  /* page_create_low() leaves the level, the index id and the siblings to
  the caller, and the block holds whatever it held before. */
  mach_write_to_2(page + PAGE_HEADER + PAGE_LEVEL, 0);
  mach_write_to_8(page + PAGE_HEADER + PAGE_INDEX_ID, index->id);
  mach_write_to_4(page + FIL_PAGE_PREV, FIL_NULL);
  mach_write_to_4(page + FIL_PAGE_NEXT, FIL_NULL);
}

/** Bytes the uncompressed loader (btr0load.cc) leaves free in a page.
@param[in]  clustered  whether the index is clustered */
ulint page_zip_est_reserve(bool clustered) {
  if (ddl::fill_factor == 100 && clustered) {
    return dict_index_get_space_reserve();
  }
  return UNIV_PAGE_SIZE * (100 - ddl::fill_factor) / 100;
}

/** An off-page column of a record of a trial's start page. */
struct page_zip_est_lob_t {
  /** The field in the record (in the latched start page), ending with
  the BLOB reference. */
  const byte *data;
  /** Bytes of it in the record. */
  ulint local_len;
  /** Bytes of the whole column. */
  ulint len;
};

/** List the off-page columns of a record: the written ones (reference not
null, not being written or freed).
@param[in]      index    clustered index
@param[in]      rec      record
@param[in]      offsets  its offsets
@param[in,out]  lobs     the columns, appended to */
void page_zip_est_rec_lobs(const dict_index_t *index, const rec_t *rec,
                           const ulint *offsets,
                           page_zip_est_vector_t<page_zip_est_lob_t> &lobs) {
  for (ulint i = 0; i < rec_offs_n_fields(offsets); i++) {
    if (!rec_offs_nth_extern(index, offsets, i)) {
      continue;
    }
    ulint local_len;
    const byte *data = rec_get_nth_field(index, rec, offsets, i, &local_len);
    if (local_len < BTR_EXTERN_FIELD_REF_SIZE) {
      continue;
    }
    const lob::ref_t ref(const_cast<byte *>(data) + local_len -
                         BTR_EXTERN_FIELD_REF_SIZE);
    if (ref.is_null_relaxed() || ref.is_being_modified()) {
      continue;
    }
    lobs.push_back(
        {data, local_len, local_len - BTR_EXTERN_FIELD_REF_SIZE + ref.length()});
  }
}


/** Uncompressed BLOB pages of one off-page column written anew
(lob::insert(), lob/lob0ins.cc): the first page with the LOB index and
some data, data pages, and index pages once the first page's entries (one
per page of data) are used up.
@param[in]  len  bytes of the column
@return pages */
double page_zip_est_lob_pages(double len) {
  const double first = static_cast<double>(lob::first_page_t::max_space_available());
  const double n_data =
      len > first ? std::ceil((len - first) / lob::data_page_t::payload()) : 0;
  const double entries = 1 + n_data;
  const double in_first = static_cast<double>(lob::first_page_t::node_count());
  const double n_index =
      entries > in_first
          ? std::ceil((entries - in_first) / lob::node_page_t::node_count())
          : 0;
  return 1 + n_data + n_index;
}

/** Index and fragment entries in the first page of a compressed LOB
(z_first_page_t::get_n_index_entries(), get_n_frag_entries()).
@param[in]   zip_size  compressed page size
@param[out]  n_index   index entries
@param[out]  n_frag    fragment entries */
void page_zip_est_zlob_entries(ulint zip_size, ulint *n_index, ulint *n_frag) {
  switch (zip_size) {
    case 16384:
      *n_index = 100;
      *n_frag = 200;
      return;
    case 8192:
      *n_index = 80;
      *n_frag = 100;
      return;
    case 4096:
      *n_index = *n_frag = 40;
      return;
    case 2048:
      *n_index = *n_frag = 20;
      return;
    default:
      *n_index = *n_frag = 5;
  }
}

/** Compressed BLOB pages of one off-page column of a compressed table.
@param[in]  len       bytes of the column
@param[in]  zchunks   bytes of the zlib stream of each chunk of it: one
                      stream up to lob::Z_CHUNK_SIZE, else one per chunk
@param[in]  zip_size  compressed page size
@return pages */
double page_zip_est_zlob_pages(ulint len, const page_zip_est_vector_t<double> &zchunks,
                               ulint zip_size) {
  if (lob::ref_t::use_single_z_stream(len)) {
    /* zInserter::write_into_single_page(): one stream, in whole pages
    after the file page header. */
    return std::max(1.0, std::ceil(zchunks[0] / (zip_size - FIL_PAGE_DATA)));
  }
  /* lob::z_insert() and z_insert_strm(): the first page holds the LOB
  index, the fragment entries and the start of the first chunk's stream;
  the rest of a stream goes to data pages while it is no smaller than a
  quarter of a fragment page (z_frag_page_t::can_data_fit()), and its tail
  to fragments, which the column's own fragment pages hold. */
  ulint n_index;
  ulint n_frag;
  page_zip_est_zlob_entries(zip_size, &n_index, &n_frag);
  const double first = static_cast<double>(
      zip_size - lob::z_first_page_t::OFFSET_INDEX_BEGIN -
      n_index * lob::z_index_entry_t::SIZE -
      n_frag * lob::z_frag_entry_t::SIZE - FIL_PAGE_DATA_END);
  const double data = static_cast<double>(
      zip_size - lob::z_data_page_t::OFFSET_DATA_BEGIN - FIL_PAGE_DATA_END);
  const double frag_max = static_cast<double>(
      zip_size - lob::z_frag_page_t::OFFSET_FRAGS_BEGIN -
      lob::z_frag_page_t::OFFSET_PAGE_DIR_ENTRY_COUNT);
  /* A fragment's header and its page directory slot. */
  const double frag_overhead = static_cast<double>(
      lob::frag_node_t::overhead());
  double pages = 1;
  double frag_bytes = 0;
  bool first_used = false;
  for (const double z : zchunks) {
    double remain = std::ceil(z);
    if (!first_used) {
      remain -= std::min(remain, first);
      first_used = true;
    }
    while (remain > 0 && remain >= frag_max / 4) {
      pages++;
      remain -= std::min(remain, data);
    }
    if (remain > 0) {
      frag_bytes += remain + frag_overhead;
    }
  }
  pages += std::ceil(frag_bytes / frag_max);
  if (zchunks.size() > n_index) {
    /* z_index_page_t: more index entries. */
    const double per_page = static_cast<double>(
        (zip_size - FIL_PAGE_DATA - FIL_PAGE_DATA_END) /
        lob::z_index_entry_t::SIZE);
    pages += std::ceil((zchunks.size() - n_index) / per_page);
  }
  return pages;
}

/** Bytes of the zlib streams InnoDB writes for an off-page column of a
compressed table (or for a prefix of it).
@param[in]      data     the column or its prefix
@param[in]      len      bytes of data
@param[in]      chunked  the whole column is longer than lob::Z_CHUNK_SIZE:
                         a stream per chunk (z_insert_chunk()), else one
                         stream (zInserter::prepare())
@param[in]      level    zlib level
@param[in,out]  s        scratch (zlib heap)
@param[out]     out      output buffer of UNIV_PAGE_SIZE bytes
@param[out]     zchunks  bytes of each stream, appended to
@return bytes of the streams */
ulint page_zip_est_lob_deflate(const byte *data, ulint len, bool chunked,
                               ulint level, Page_zip_est_scratch &s,
                               byte *out, page_zip_est_vector_t<double> &zchunks) {
  ulint total = 0;
  ulint off = 0;
  do {
    const ulint n = chunked ? std::min<ulint>(len - off, lob::Z_CHUNK_SIZE)
                            : len;
    z_stream strm;
    memset(&strm, 0, sizeof strm);
    page_zip_set_alloc(&strm, s.zlib_heap());
    /* Compressed BLOBs are zlib's: the level of the word. */
    const int zlevel = static_cast<int>(page_zip_level_value(level));
    int err = chunked ? deflateInit(&strm, zlevel)
                      : deflateInit2(&strm, zlevel,
                                     Z_DEFLATED, 15, 7, Z_DEFAULT_STRATEGY);
    ut_a(err == Z_OK);
    strm.next_in = const_cast<byte *>(data + off);
    strm.avail_in = static_cast<uInt>(n);
    do {
      strm.next_out = out;
      strm.avail_out = static_cast<uInt>(UNIV_PAGE_SIZE);
      err = deflate(&strm, Z_FINISH);
    } while (err == Z_OK);
    ut_a(err == Z_STREAM_END);
    total += strm.total_out;
    zchunks.push_back(static_cast<double>(strm.total_out));
    deflateEnd(&strm);
    off += n;
  } while (off < len);
  return total;
}

/** Model the off-page columns of the records of a trial's start page: a
few of them, evenly spaced, are read (their first PAGE_ZIP_EST_LOB_PREFIX
bytes) and deflated at the table's level; the others, and the rest of
longer ones, take the ratio of those.
@param[in]      index   clustered index
@param[in]      fields  the columns (page_zip_est_rec_lobs()), in the
                        start page, which is latched
@param[in]      level   zlib level
@param[in,out]  s       scratch blocks
@param[in,out]  unit    the trial: its lob_ members are set */
void page_zip_est_lob(dict_index_t *index,
                      const page_zip_est_vector_t<page_zip_est_lob_t> &fields,
                      ulint level, Page_zip_est_scratch &s,
                      page_zip_est_unit_t &unit) {
  if (fields.empty()) {
    return;
  }

  const page_size_t page_size = dict_table_page_size(index->table);
  byte *buf = s.lob_buf();
  byte *out = buf + PAGE_ZIP_EST_LOB_PREFIX;
  /* Per field: the streams of the chunks read, and the ratio of them. */
  auto zread = page_zip_est_vector<page_zip_est_vector_t<double>>();
  zread.resize(fields.size(), page_zip_est_vector<double>());
  auto field_ratio = page_zip_est_vector<double>();
  field_ratio.assign(fields.size(), -1);
  double read = 0;
  double zbytes = 0;
  const ulint step = (fields.size() + PAGE_ZIP_EST_LOB_FIELDS - 1) /
                     PAGE_ZIP_EST_LOB_FIELDS;
  for (ulint j = step / 2; j < fields.size(); j += step) {
    const page_zip_est_lob_t &f = fields[j];
    const ulint want = std::min<ulint>(f.len, PAGE_ZIP_EST_LOB_PREFIX);
    const ulint got = lob::btr_copy_externally_stored_field_prefix(
        nullptr, index, buf, want, page_size, f.data, false, f.local_len);
    if (got == 0) {
      continue;
    }
    const ulint z = page_zip_est_lob_deflate(
        buf, got, !lob::ref_t::use_single_z_stream(f.len), level, s, out,
        zread[j]);
    read += got;
    zbytes += z;
    field_ratio[j] = static_cast<double>(z) / got;
    if (s.m_pc_block_size != 0) {
      page_comp_est_lob(buf, got, got >= f.len, s.m_pc_block_size,
                        s.m_trial->frame, s.m_zip->frame, &unit.lob_pc_pages,
                        unit.lob_pc_bytes);
    }
    if (got < f.len) {
      /* Only whole chunks count as read. */
      zread[j].resize(got / lob::Z_CHUNK_SIZE);
    }
  }
  /* None could be read (being purged): stored as they are. */
  const double ratio = read > 0 ? zbytes / read : 1.0;

  auto zchunks = page_zip_est_vector<double>();
  for (ulint j = 0; j < fields.size(); j++) {
    const ulint len = fields[j].len;
    const double r = field_ratio[j] >= 0 ? field_ratio[j] : ratio;
    zchunks = zread[j];
    if (lob::ref_t::use_single_z_stream(len)) {
      zchunks.resize(1, len * r);
    } else {
      for (ulint off = zchunks.size() * lob::Z_CHUNK_SIZE; off < len;
           off += lob::Z_CHUNK_SIZE) {
        zchunks.push_back(std::min<ulint>(len - off, lob::Z_CHUNK_SIZE) * r);
      }
    }
    unit.lob_bytes += len;
    unit.lob_pages += page_zip_est_lob_pages(static_cast<double>(len));
    for (ulint k = 0; k < INNODB_ZIP_EST_N_SIZES; k++) {
      const ulint zip_size = page_zip_est_kbs[k] * 1024;
      if (zip_size <= UNIV_PAGE_SIZE) {
        unit.lob_zip[k] += page_zip_est_zlob_pages(len, zchunks, zip_size);
      }
    }
  }
}

/** Copy the user records of a leaf page and of its right siblings into
the scratch page until it is full.
@param[in]      index    index
@param[in]      start    latched leaf page to start at
@param[in,out]  mtr      mini-transaction holding the latches
@param[in,out]  s        scratch blocks
@param[out]     unit     cumulative record sizes
@param[in,out]  n_ext    records with off-page columns, added to
@param[in]      level    zlib level, for the off-page columns of the start
                         page (page_zip_est_lob()) */
void page_zip_est_collect(dict_index_t *index, buf_block_t *start,
                          mtr_t *mtr, Page_zip_est_scratch &s,
                          page_zip_est_unit_t &unit, uint64_t &n_ext,
                          ulint level) {
  page_zip_est_page_init(s.m_full, index);
  rec_t *cur = page_get_infimum_rec(s.m_full->frame);
  const ulint limit = page_get_free_space_of_empty(true);
  ulint bytes = 0;
  ulint *offsets = nullptr;
  const page_t *page = buf_block_get_frame(start);

  /* Only a clustered index has off-page columns. */
  auto lobs = page_zip_est_vector<page_zip_est_lob_t>();
  const bool with_lobs = index->is_clustered();

  mem_heap_empty(s.m_heap);
  unit.cum.assign(1, 0);

  for (ulint n_pages = 1;; n_pages++) {
    bool full = false;
    for (const rec_t *rec = page_rec_get_next_const(page_get_infimum_rec(page));
         !page_rec_is_supremum(rec); rec = page_rec_get_next_const(rec)) {
      if (rec_get_deleted_flag(rec, true)) {
        /* Purged or rolled back: a rebuilt table does not have it. */
        continue;
      }
      offsets = rec_get_offsets(rec, index, offsets, ULINT_UNDEFINED,
                                UT_LOCATION_HERE, &s.m_heap);
      const ulint size = rec_offs_size(offsets);
      const ulint n = unit.cum.size();
      if (rec_offs_any_extern(offsets)) {
        n_ext++;
        if (n_pages == 1 && with_lobs) {
          page_zip_est_rec_lobs(index, rec, offsets, lobs);
        }
      }
      if (bytes + size + page_dir_calc_reserved_space(n) > limit) {
        full = true;
        break;
      }
      rec_t *ins = page_cur_insert_rec_low(cur, index, rec, offsets, nullptr);
      if (ins == nullptr) {
        full = true;
        break;
      }
      cur = ins;
      bytes += size;
      unit.cum.push_back(
          static_cast<uint16_t>(bytes + page_dir_calc_reserved_space(n)));
    }

    if (n_pages == 1) {
      /* The start page's columns, read while it is the only page of the
      trial latched. */
      page_zip_est_lob(index, lobs, level, s, unit);
    }
    const page_no_t next = btr_page_get_next(page, mtr);
    if (full || n_pages >= page_zip_est_max_run(index) || next == FIL_NULL) {
      return;
    }
    /* Left to right, as every B-tree scan latches siblings. */
    buf_block_t *block = btr_block_get(
        page_id_t(index->space, next), dict_table_page_size(index->table),
        RW_S_LATCH, UT_LOCATION_HERE, index, mtr);
    page = buf_block_get_frame(block);
    if (!page_is_leaf(page) || btr_page_get_index_id(page) != index->id) {
      return;
    }
  }
}

/** Whether the first n records of the trial compress into a size.
@param[in]      index     index
@param[in,out]  s         scratch blocks
@param[in]      n         number of leading records
@param[in]      n_all     number of records in s.m_full
@param[in]      zip_size  compressed page size in bytes
@param[in]      level     zlib level
@return true if page_zip_compress() succeeds */
bool page_zip_est_fits(dict_index_t *index, Page_zip_est_scratch &s, ulint n,
                       ulint n_all, ulint zip_size, ulint level,
                       ulint reserve) {
  const page_t *page = s.m_full->frame;

  if (n < n_all) {
    page_zip_est_page_init(s.m_trial, index);
    rec_t *cur = page_get_infimum_rec(s.m_trial->frame);
    const rec_t *rec = page_rec_get_next_const(page_get_infimum_rec(page));
    ulint *offsets = nullptr;
    mem_heap_empty(s.m_heap);
    for (ulint i = 0; i < n; i++, rec = page_rec_get_next_const(rec)) {
      offsets = rec_get_offsets(rec, index, offsets, ULINT_UNDEFINED,
                                UT_LOCATION_HERE, &s.m_heap);
      cur = page_cur_insert_rec_low(cur, index, rec, offsets, nullptr);
      ut_a(cur != nullptr);
    }
    page = s.m_trial->frame;
  }

  page_zip_des_t page_zip;
  page_zip_des_init(&page_zip);
  page_zip_set_size(&page_zip, zip_size);
  page_zip.data = s.m_zip->frame;

  page_zip_fit_t fit;
  fit.reserve = reserve;

  dict_zip_trial = true;
  const bool ok =
      page_zip_compress_fit(&page_zip, page, index, level, nullptr, &fit);
  dict_zip_trial = false;
  return ok;
}

/** The most leading records of the trial, between two bounds, that
compress into a size.
@param[in]      index     index
@param[in,out]  s         scratch blocks (m_full holds the trial)
@param[in]      unit      the trial
@param[in]      zip_size  compressed page size in bytes
@param[in]      level     zlib level
@param[in]      reserve   bytes to keep free
@param[in]      lo        a number of records known to fit (0 always does)
@param[in]      hi        no more records than this can fit
@return the number found, within PAGE_ZIP_EST_PRECISION bytes */
ulint page_zip_est_search(dict_index_t *index, Page_zip_est_scratch &s,
                          const page_zip_est_unit_t &unit, ulint zip_size,
                          ulint level, ulint reserve, ulint lo, ulint hi) {
  const ulint n_all = unit.cum.size() - 1;
  if (hi <= lo ||
      page_zip_est_fits(index, s, hi, n_all, zip_size, level, reserve)) {
    return std::max(lo, hi);
  }
  /* lo fits, hi does not. */
  while (hi - lo > 1 &&
         ulint{unit.cum[hi]} - unit.cum[lo] > PAGE_ZIP_EST_PRECISION) {
    const ulint mid = lo + (hi - lo) / 2;
    if (page_zip_est_fits(index, s, mid, n_all, zip_size, level, reserve)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/** Find, for every size, how many leading records of the trial fit, with
the bulk loader's free space and with none.
@param[in]      index     index
@param[in,out]  s         scratch blocks (m_full holds the trial)
@param[in]      level     zlib level
@param[in]      free_pct  free space of the bulk loader in percent
@param[in,out]  unit      the trial */
void page_zip_est_fit_sizes(dict_index_t *index, Page_zip_est_scratch &s,
                            ulint level, ulint free_pct,
                            page_zip_est_unit_t &unit) {
  const ulint n_all = unit.cum.size() - 1;
  /* A smaller size never fits more records than a larger one, and a page
  with free space never more than one without. */
  ulint hi = n_all;
  ulint hi0 = n_all;

  for (ulint k = INNODB_ZIP_EST_N_SIZES; k-- > 0;) {
    const ulint zip_size = page_zip_est_kbs[k] * 1024;
    if (zip_size > UNIV_PAGE_SIZE) {
      unit.fit[k] = unit.fit0[k] = static_cast<uint32_t>(n_all);
      continue;
    }
    const ulint reserve = btr_load_zip_reserve(zip_size, free_pct);
    const ulint fit =
        page_zip_est_search(index, s, unit, zip_size, level, reserve, 0, hi);
    /* With no free space: from what fits with it up to what fits at the
    larger size; the same search when there is no free space. */
    const ulint fit0 =
        reserve == 0 ? fit
                     : page_zip_est_search(index, s, unit, zip_size, level, 0,
                                           fit, std::max(fit, hi0));
    unit.fit[k] = static_cast<uint32_t>(fit);
    unit.fit0[k] = static_cast<uint32_t>(fit0);
    hi = fit;
    hi0 = fit0;
  }
}

/** Records of a trial that fit in a page filled up to a number of bytes.
@param[in]  unit   the trial
@param[in]  limit  bytes of records and directory the page may hold
@return number of leading records, at least 2 (or all there are), as the
loader keeps at least two records in a page */
ulint page_zip_est_recs_upto(const page_zip_est_unit_t &unit, ulint limit) {
  const auto it = std::upper_bound(
      unit.cum.begin(), unit.cum.end(),
      static_cast<uint16_t>(std::min<ulint>(limit, UINT16_MAX)));
  const ulint n = static_cast<ulint>(it - unit.cum.begin()) - 1;
  return std::max(n, std::min<ulint>(2, unit.cum.size() - 1));
}

/** Page compression of a trial: the start of its records as ALTER TABLE
fills an uncompressed page (the model of page_zip_est_model() for
INNODB_ZIP_EST_N_SIZES), in a zeroed page as a new page is, written as
page compression writes it (page0comp_est.h).
@param[in]      index  index
@param[in,out]  s      scratch blocks (m_full holds the trial)
@param[in,out]  unit   the trial: pc_bytes is set */
void page_zip_est_page_comp(dict_index_t *index, Page_zip_est_scratch &s,
                            page_zip_est_unit_t &unit) {
  if (unit.cum.size() < 2) {
    return;
  }
  const ulint limit = page_get_free_space_of_empty(true) -
                      page_zip_est_reserve(index->is_clustered());
  const ulint n = page_zip_est_recs_upto(unit, limit);
  memset(s.m_trial->frame, 0, UNIV_PAGE_SIZE);
  page_zip_est_page_init(s.m_trial, index);
  rec_t *cur = page_get_infimum_rec(s.m_trial->frame);
  const rec_t *rec =
      page_rec_get_next_const(page_get_infimum_rec(s.m_full->frame));
  ulint *offsets = nullptr;
  mem_heap_empty(s.m_heap);
  for (ulint i = 0; i < n; i++, rec = page_rec_get_next_const(rec)) {
    offsets = rec_get_offsets(rec, index, offsets, ULINT_UNDEFINED,
                              UT_LOCATION_HERE, &s.m_heap);
    cur = page_cur_insert_rec_low(cur, index, rec, offsets, nullptr);
    ut_a(cur != nullptr);
  }
  uint32_t bytes[INNODB_ZIP_EST_N_PAGE_METHODS];
  page_comp_est_page(s.m_trial->frame, s.m_pc_block_size, s.m_zip->frame,
                     bytes);
  for (ulint m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
    unit.pc_bytes[m] = static_cast<uint16_t>(bytes[m]);
  }
}

/** How the pages of a model are filled. */
enum page_zip_est_build_t {
  /** ALTER TABLE's page loader as innodb_compression_bulk_split and
  innodb_compression_bulk_free_pct select it. */
  PAGE_ZIP_EST_ALTER,
  /** Rows inserted in key order into the compressed table: each page
  takes records as long as it compresses with nothing left free (the
  tight split with no free space, which builds the same pages). */
  PAGE_ZIP_EST_INSERTED
};

/** Leaf pages of innodb_page_size the records of an index take packed
into full uncompressed pages, with no byte left free: the baseline of the
space savings. No compressed page holds more records than one such page (it
decompresses into one), so no size saves more than its page size promises,
records that do not compress save nothing, and compression is not credited
with pages fuller than ALTER TABLE or inserts leave uncompressed pages (15/16
of a clustered index page). Exact bytes, not whole records per page: the
record that does not fit any more is a property of the page size, not of
compression.
@param[in]  bytes  bytes of records (with their directory) in the index's
                   leaf pages
@return leaf pages */
double page_zip_est_full(double bytes) {
  return bytes / page_get_free_space_of_empty(true);
}

/** Model of the page loader of ALTER TABLE for one index: pages filled up
to the adaptive pad, compressed, split tightly or in half on failure; the
pad as in dict_index_zip_pad_update().
@param[in]  idx    the index and its trials
@param[in]  k      size index, or INNODB_ZIP_EST_N_SIZES for uncompressed
@param[in]  bytes  bytes of records in the index's leaf pages
@param[in]  build  ALTER TABLE's loader or key-ordered inserts
@return leaf pages the index would have */
double page_zip_est_model(const page_zip_est_index_t &idx, ulint k,
                          double bytes,
                          page_zip_est_build_t build = PAGE_ZIP_EST_ALTER) {
  const ulint usable = page_get_free_space_of_empty(true);
  const auto &units = idx.units;

  if (units.empty() || bytes <= 0) {
    return 0;
  }

  if (k == INNODB_ZIP_EST_N_SIZES) {
    /* Uncompressed: fill to the reserve, no compression. */
    const ulint limit = usable - page_zip_est_reserve(idx.clustered);
    double filled = 0;
    for (const auto &u : units) {
      filled += u.cum[page_zip_est_recs_upto(u, limit)];
    }
    return filled > 0 ? bytes * units.size() / filled : 0;
  }

  const ulint pad_limit = UNIV_PAGE_SIZE * idx.pad_max / 100;
  ulint pad = 0;
  ulint success = 0;
  ulint failure = 0;
  ulint n_rounds = 0;

  /* Account one compression as dict_index_zip_success() or
  dict_index_zip_failure() would. */
  auto account = [&](bool ok) {
    if (idx.threshold == 0) {
      return;
    }
    (ok ? success : failure)++;
    if (success + failure < ZIP_PAD_ROUND_LEN) {
      return;
    }
    const ulint fail_pct = failure * 100 / (success + failure);
    success = failure = 0;
    if (fail_pct > idx.threshold) {
      if (pad + ZIP_PAD_INCR < pad_limit) {
        pad += ZIP_PAD_INCR;
      }
      n_rounds = 0;
    } else if (++n_rounds >= ZIP_PAD_SUCCESSFUL_ROUND_LIMIT && pad > 0) {
      pad -= ZIP_PAD_INCR;
      n_rounds = 0;
    }
  };

  double done = 0;
  double pages = 0;
  uint64_t builds = 0;

  for (size_t i = 0; done < bytes && builds < PAGE_ZIP_EST_MAX_BUILDS;
       i = (i + 1) % units.size(), builds++) {
    const page_zip_est_unit_t &u = units[i];
    const ulint fit = build == PAGE_ZIP_EST_INSERTED ? u.fit0[k] : u.fit[k];
    if (u.cum.size() < 2) {
      /* An empty page (an empty index). */
      continue;
    }
    /* dict_index_zip_pad_optimal_page_size() */
    ulint padding = 0;
    if (idx.threshold != 0) {
      const ulint optimal =
          std::max(UNIV_PAGE_SIZE - pad,
                   UNIV_PAGE_SIZE * (100 - idx.pad_max) / 100);
      padding = UNIV_PAGE_SIZE - optimal;
    }
    const ulint n = page_zip_est_recs_upto(u, usable - std::min(padding, usable));
    /* Page_load::init() compresses the new empty page (page_create_zip()),
    a success the padding counts too. */
    account(true);
    if (n <= fit) {
      done += u.cum[n];
      account(true);
      pages += 1;
      continue;
    }
    if (idx.tight || build == PAGE_ZIP_EST_INSERTED) {
      /* Btree_load::page_split_tight(): the page keeps what fits with the
      free space (one record at least), the rest goes on to the next page,
      which this model starts afresh; the trials (the attempt on the full
      page included) do not count in the padding, the final compression
      does (page_zip_fit_count()). */
      done += u.cum[std::max<ulint>(fit, 1)];
      account(true);
      pages += 1;
      continue;
    }
    done += u.cum[n];
    /* Btree_load::page_split(): halves, split again while too big; every
    new half starts as an empty compressed page. */
    account(false);
    ulint pieces = 2;
    account(true);
    while ((n + pieces - 1) / pieces > fit && pieces < n) {
      for (ulint j = 0; j < pieces; j++) {
        account(false);
        account(true);
      }
      pieces *= 2;
    }
    for (ulint j = 0; j < pieces; j++) {
      account(true);
    }
    pages += pieces;
  }

  if (done <= 0) {
    return 0;
  }
  /* Beyond the simulated builds, the last state goes on. */
  return pages * bytes / done;
}

/** Share of trials whose fully filled uncompressed page does not fit.
@param[in]  idx  the index and its trials
@param[in]  k    size index
@return failures and trials, added to the sums given */
void page_zip_est_failures(const page_zip_est_index_t &idx, ulint k,
                           uint64_t &fail, uint64_t &total) {
  const ulint limit = page_get_free_space_of_empty(true) -
                      page_zip_est_reserve(idx.clustered);
  for (const auto &u : idx.units) {
    if (u.cum.size() < 2) {
      continue;
    }
    total++;
    if (page_zip_est_recs_upto(u, limit) > u.fit[k]) {
      fail++;
    }
  }
}

/** Open the table of an estimate for one step.
@param[in]   thd       connection
@param[in]   table_id  table id
@param[out]  mdl       metadata lock
@return the table, or nullptr if it is gone */
dict_table_t *page_zip_est_open(THD *thd, uint64_t table_id, MDL_ticket **mdl) {
  *mdl = nullptr;
  return dd_table_open_on_id(table_id, thd, mdl, false, true);
}

/** Whether the records of a table may be in a format that a rebuild
would not write: instantly added columns, or row versions (INSTANT ADD or
DROP COLUMN). page_zip_compress() must not see such records.
@param[in]  table  table, held open under a metadata lock
@return true if the table cannot be estimated */
bool page_zip_est_instant(const dict_table_t *table) {
  return table->has_instant_cols() || table->has_row_versions();
}

/** Pages of a B-tree built by a model: whole leaf pages (one at least), and
non-leaf pages in the ratio of the tree now, with a root above two or more
leaves (a one-page tree now that a compressed build splits gets one).
@param[in]  leaf   leaf pages the model built (a fraction, extrapolated)
@param[in]  upper  pages in use per leaf page in the tree now
@return pages */
double page_zip_est_tree_pages(double leaf, double upper) {
  if (leaf <= 0) {
    return 0;
  }
  const double n_leaf = std::max(1.0, std::ceil(leaf - 1e-6));
  if (n_leaf <= 1) {
    return 1;
  }
  return n_leaf + std::max(1.0, n_leaf * (upper - 1));
}

/** Whether the records of an index may have columns stored off-page: a
clustered index with a long column (BLOB, TEXT, JSON, long VARCHAR). */
bool page_zip_est_may_have_lobs(const dict_index_t *index) {
  if (!index->is_clustered()) {
    return false;
  }
  for (ulint i = 0; i < index->n_fields; i++) {
    if (DATA_BIG_COL(index->get_col(i))) {
      return true;
    }
  }
  return false;
}

/** Leaf pages of a B-tree, counted as the node pointers one level up.
@param[in]      index  index
@param[in]      root   its latched root page
@param[in,out]  mtr    mini-transaction holding the index SX-latched
@return leaf pages */
ulint page_zip_est_count_leaves(dict_index_t *index, const page_t *root,
                                mtr_t *mtr) {
  if (page_is_leaf(root)) {
    return 1;
  }
  btr_pcur_t pcur;
  pcur.open_at_side(true, index, BTR_SEARCH_TREE | BTR_ALREADY_S_LATCHED, true,
                    1, mtr);
  buf_block_t *block = pcur.get_block();
  pcur.close();
  ulint n = 0;
  for (;;) {
    const page_t *page = buf_block_get_frame(block);
    n += page_get_n_recs(page);
    const page_no_t next = btr_page_get_next(page, mtr);
    if (next == FIL_NULL) {
      break;
    }
    /* The index latch keeps the level as it is; keep only one page of
    it latched. */
    buf_block_t *right =
        btr_block_get(page_id_t(index->space, next),
                      dict_table_page_size(index->table), RW_S_LATCH,
                      UT_LOCATION_HERE, index, mtr);
    mtr->memo_release(block, MTR_MEMO_PAGE_S_FIX);
    block = right;
  }
  return std::max<ulint>(n, 1);
}

/** Count the pages of an index.
@param[in]   index  index
@param[out]  leaf   B-tree leaf pages
@param[out]  used   pages in use in both segments
@param[out]  lobs   BLOB pages in the leaf segment
@return false if the index cannot be read */
bool page_zip_est_index_size(dict_index_t *index, ulint *leaf, ulint *used,
                             ulint *lobs) {
  mtr_t mtr;
  mtr_start(&mtr);
  mtr_s_lock(dict_index_get_lock(index), &mtr, UT_LOCATION_HERE);
  *leaf = btr_get_size(index, BTR_N_LEAF_PAGES, &mtr);
  *lobs = 0;
  if (*leaf == ULINT_UNDEFINED) {
    mtr_commit(&mtr);
    return false;
  }
  page_t *root = btr_root_get(index, &mtr);
  ulint top = 0;
  ulint n_leaf = 0;
  fseg_n_reserved_pages(root + PAGE_HEADER + PAGE_BTR_SEG_TOP, &top, &mtr);
  fseg_n_reserved_pages(root + PAGE_HEADER + PAGE_BTR_SEG_LEAF, &n_leaf, &mtr);
  *used = top + n_leaf;
  mtr_commit(&mtr);
  if (!page_zip_est_may_have_lobs(index)) {
    return true;
  }
  /* The leaf segment holds the BLOB pages too (btr_get_size()): count the
  B-tree leaves one level up. Walking a level needs the index SX-latched
  (btr_cur_open_at_index_side() with BTR_ALREADY_S_LATCHED, as dict_stats
  does), where btr_get_size() wants it S-latched: a second
  mini-transaction. The tree may have changed in between; the clamp below
  keeps the figures consistent. */
  mtr_start(&mtr);
  mtr_sx_lock(dict_index_get_lock(index), &mtr, UT_LOCATION_HERE);
  if (index->page != FIL_NULL && !dict_index_is_online_ddl(index) &&
      index->is_committed()) {
    const ulint btree =
        page_zip_est_count_leaves(index, btr_root_get(index, &mtr), &mtr);
    if (btree < *leaf) {
      *lobs = *leaf - btree;
      *leaf = btree;
    }
  }
  mtr_commit(&mtr);
  return true;
}

/** Whether an index is estimated: a committed B-tree that a rebuild keeps
(not full-text, not spatial, not corrupted, not being built or dropped). */
bool page_zip_est_wanted(const dict_index_t *index) {
  return !(index->type & (DICT_FTS | DICT_SPATIAL)) &&
         !index->is_corrupted() && !index->to_be_dropped &&
         index->is_committed() && index->page != FIL_NULL &&
         !dict_index_is_online_ddl(index);
}

}  // namespace

int page_zip_est_table(uint64_t table_id, uint64_t sample_pages,
                       bool full_scan, innodb_zip_est_progress_t progress,
                       void *ctx, innodb_zip_estimate_t *est) {
  THD *thd = current_thd;

  if (thd == nullptr || srv_is_being_started || dict_sys == nullptr ||
      srv_shutdown_state.load() != SRV_SHUTDOWN_NONE || table_id == 0 ||
      table_id == UINT64_MAX || dict_table_is_sdi(table_id)) {
    return INNODB_ZIP_EST_NO_TABLE;
  }
  if (UNIV_PAGE_SIZE > UNIV_ZIP_SIZE_MAX) {
    /* ROW_FORMAT=COMPRESSED needs innodb_page_size <= 16K. */
    return INNODB_ZIP_EST_PAGE_SIZE;
  }
  if (sample_pages == 0) {
    sample_pages = 1;
  }
  /* The loader ALTER TABLE would use now, read once for all indexes. */
  const bool tight = btr_load_zip_split == BTR_LOAD_ZIP_SPLIT_TIGHT;
  const ulint free_pct = btr_load_zip_free_pct;

  auto indexes = page_zip_est_vector<page_zip_est_index_t>();
  ulint other_pages = 0;
  ulint level = 0;
  /* Whether the file can take page compression, and its block size. */
  page_comp_est_file_t pc_file;

  /* 1. What to estimate, under one metadata lock. */
  {
    MDL_ticket *mdl;
    dict_table_t *table = page_zip_est_open(thd, table_id, &mdl);
    if (table == nullptr) {
      return INNODB_ZIP_EST_NO_TABLE;
    }
    int err = INNODB_ZIP_EST_OK;
    if (!dict_table_is_comp(table)) {
      err = INNODB_ZIP_EST_REDUNDANT;
    } else if (table->ibd_file_missing || dict_table_is_discarded(table) ||
               table->is_corrupted() ||
               srv_force_recovery >= SRV_FORCE_NO_IBUF_MERGE) {
      err = INNODB_ZIP_EST_UNREADABLE;
    } else if (page_zip_est_instant(table)) {
      err = INNODB_ZIP_EST_INSTANT;
    }

    const page_size_t page_size = dict_table_page_size(table);
    est->logical_page_size = static_cast<uint32_t>(page_size.logical());
    est->physical_page_size = static_cast<uint32_t>(page_size.physical());
    est->is_compressed = page_size.is_compressed() ? 1 : 0;
    level = dict_index_zip_level(table->first_index());
    est->level = static_cast<uint32_t>(page_zip_level_value(level));
    est->codec = static_cast<uint32_t>(page_zip_level_codec(level));
    if (err == INNODB_ZIP_EST_OK) {
      page_comp_est_file(table->space, &pc_file);
    }

    for (dict_index_t *index = table->first_index();
         err == INNODB_ZIP_EST_OK && index != nullptr; index = index->next()) {
      if (index->type & DICT_FTS) {
        continue;
      }
      page_zip_est_index_t idx;
      ulint leaf = 0;
      ulint used = 0;
      ulint lobs = 0;
      if (index->page == FIL_NULL ||
          !page_zip_est_index_size(index, &leaf, &used, &lobs)) {
        continue;
      }
      if (!page_zip_est_wanted(index)) {
        /* Kept at the table's average ratio. */
        other_pages += used;
        continue;
      }
      idx.id = index->id;
      idx.clustered = index->is_clustered();
      idx.threshold = dict_index_zip_failure_threshold_pct(index);
      idx.pad_max = dict_index_zip_pad_pct_max(index);
      idx.tight = tight;
      idx.free_pct = tight ? free_pct : 0;
      idx.leaf_pages = std::max<ulint>(leaf, 1);
      idx.used_pages = std::max(used, idx.leaf_pages + lobs);
      idx.lob_pages = lobs;
      idx.start_bytes = 0;
      idx.full = full_scan || idx.leaf_pages <= sample_pages;
      indexes.push_back(std::move(idx));
    }
    dd_table_close(table, thd, &mdl, false);
    if (err != INNODB_ZIP_EST_OK) {
      return err;
    }
  }

  uint64_t total = 0;
  for (const auto &idx : indexes) {
    total += idx.full ? idx.leaf_pages : sample_pages;
  }

  /* 2. The trials, each under its own metadata lock so that DDL can go
  on between them: each trial checks the table again. */
  Page_zip_est_scratch scratch;
  if (pc_file.status == INNODB_ZIP_EST_PAGE_OK) {
    scratch.m_pc_block_size = pc_file.block_size;
  }
  uint64_t done = 0;
  uint64_t sampled_recs = 0;
  uint64_t extern_recs = 0;

  for (auto &idx : indexes) {
    const bool full = idx.full;
    const uint64_t n_trials = full ? UINT64_MAX : sample_pages;
    page_no_t next = FIL_NULL;

    for (uint64_t t = 0; t < n_trials; t++) {
      if (thd_killed(thd)) {
        return INNODB_ZIP_EST_INTERRUPTED;
      }
      MDL_ticket *mdl;
      dict_table_t *table = page_zip_est_open(thd, table_id, &mdl);
      if (table == nullptr) {
        return INNODB_ZIP_EST_DROPPED;
      }
      /* An ALTER TABLE ... ALGORITHM=INSTANT between two trials (it waits
      for the metadata lock of a trial, not for the estimate) reloads the
      table with row versions: check again under this trial's lock, which
      keeps the table as it is until dd_table_close(). */
      if (page_zip_est_instant(table)) {
        dd_table_close(table, thd, &mdl, false);
        return INNODB_ZIP_EST_INSTANT;
      }
      dict_index_t *index = table->first_index();
      while (index != nullptr && index->id != idx.id) {
        index = index->next();
      }
      if (index == nullptr || !page_zip_est_wanted(index)) {
        dd_table_close(table, thd, &mdl, false);
        return INNODB_ZIP_EST_ALTERED;
      }

      mtr_t mtr;
      mtr_start(&mtr);
      buf_block_t *block = nullptr;
      if (!full) {
        btr_cur_t cursor;
        if (btr_cur_open_at_rnd_pos(index, BTR_SEARCH_LEAF, &cursor, __FILE__,
                                    __LINE__, &mtr)) {
          block = btr_cur_get_block(&cursor);
        }
      } else if (t == 0) {
        btr_pcur_t pcur;
        pcur.open_at_side(true, index, BTR_SEARCH_LEAF, true, 0, &mtr);
        block = pcur.get_block();
        pcur.close();
      } else if (next != FIL_NULL) {
        block = btr_block_get(page_id_t(index->space, next),
                              dict_table_page_size(table), RW_S_LATCH,
                              UT_LOCATION_HERE, index, &mtr);
        const page_t *p = buf_block_get_frame(block);
        if (!fil_page_index_page_check(p) || !page_is_leaf(p) ||
            btr_page_get_index_id(p) != index->id) {
          /* The tree changed under the scan: stop it here. */
          block = nullptr;
        }
      }

      if (block != nullptr) {
        const page_t *page = buf_block_get_frame(block);
        idx.start_bytes += page_get_data_size(page) +
                           page_dir_calc_reserved_space(page_get_n_recs(page));
        next = btr_page_get_next(page, &mtr);
        page_zip_est_unit_t unit;
        page_zip_est_collect(index, block, &mtr, scratch, unit, extern_recs,
                             level);
        mtr_commit(&mtr);
        sampled_recs += unit.cum.size() - 1;
        page_zip_est_fit_sizes(index, scratch, level, idx.free_pct, unit);
        if (scratch.m_pc_block_size != 0) {
          page_zip_est_page_comp(index, scratch, unit);
        }
        idx.add(std::move(unit));
      } else {
        mtr_commit(&mtr);
        next = FIL_NULL;
      }
      dd_table_close(table, thd, &mdl, false);

      if (full && total < done + 1) {
        /* The index grew during the scan. */
        total = done + 1;
      }
      if (progress != nullptr) {
        progress(ctx, ++done, total);
      }
      if (full && next == FIL_NULL) {
        break;
      }
    }
  }

  /* 3. Extrapolation. */
  double uncompressed = 0;
  double full = 0;
  double estimated[INNODB_ZIP_EST_N_SIZES] = {};
  double inserted[INNODB_ZIP_EST_N_SIZES] = {};
  uint64_t fail[INNODB_ZIP_EST_N_SIZES] = {};
  uint64_t trials[INNODB_ZIP_EST_N_SIZES] = {};
  uint64_t leaf_pages = 0;
  uint64_t used_pages = other_pages;
  uint64_t sampled_pages = 0;
  double data_bytes = 0;
  double extern_bytes = 0;
  uint64_t extern_pages = 0;
  double known_used = 0;
  double pc_bytes[INNODB_ZIP_EST_N_PAGE_METHODS] = {};
  uint64_t pc_trials = 0;
  uint64_t pc_whole[INNODB_ZIP_EST_N_PAGE_METHODS] = {};

  for (const auto &idx : indexes) {
    leaf_pages += idx.leaf_pages;
    used_pages += idx.used_pages;
    sampled_pages += idx.started;
    if (idx.units.empty()) {
      continue;
    }
    /* Bytes of records in all leaf pages: every leaf page was a start
    page in a full scan; else the average start page times the pages. */
    const double bytes =
        idx.full ? static_cast<double>(idx.start_bytes)
                  : static_cast<double>(idx.start_bytes) / idx.started *
                        idx.leaf_pages;
    data_bytes += bytes;
    known_used += idx.used_pages;
    /* Off-page columns: as the bytes of records, the start pages' times the
    leaf pages. */
    const double per_start =
        idx.full ? 1.0 : static_cast<double>(idx.leaf_pages) / idx.started;
    const double lob_bytes = idx.sum_lob_bytes * per_start;
    const double lob_pages = idx.sum_lob_pages * per_start;
    double lob_zip[INNODB_ZIP_EST_N_SIZES] = {};
    for (ulint k = 0; k < INNODB_ZIP_EST_N_SIZES; k++) {
      lob_zip[k] = idx.sum_lob_zip[k] * per_start;
    }
    extern_bytes += lob_bytes;
    extern_pages += idx.lob_pages;
    /* Non-leaf pages in proportion to the leaf pages. */
    const double upper =
        static_cast<double>(idx.used_pages - idx.lob_pages) / idx.leaf_pages;
    const double tree_pages = page_zip_est_tree_pages(
        page_zip_est_model(idx, INNODB_ZIP_EST_N_SIZES, bytes), upper);
    uncompressed += tree_pages + lob_pages;
    /* Page compression: the pages of the uncompressed rebuild, at the
    average bytes on disk of the trials' pages (non-leaf pages as leaf
    pages) and of the BLOB data pages read (whole if none was). */
    pc_trials += idx.pc_trials;
    for (ulint m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
      const double page = idx.pc_trials > 0
                              ? idx.sum_pc_bytes[m] / idx.pc_trials
                              : static_cast<double>(UNIV_PAGE_SIZE);
      const double lob = idx.sum_lob_pc_pages > 0
                             ? idx.sum_lob_pc_bytes[m] / idx.sum_lob_pc_pages
                             : static_cast<double>(UNIV_PAGE_SIZE);
      pc_bytes[m] += tree_pages * page + lob_pages * lob;
      pc_whole[m] += idx.pc_whole[m];
    }
    /* The baseline is not rounded to whole pages: the compressed sizes
    are, so that a small table that does not compress saves nothing.
    Off-page columns in full BLOB data pages. */
    full += std::max(1.0, page_zip_est_full(bytes) * upper) +
            lob_bytes / lob::data_page_t::payload();
    for (ulint k = 0; k < INNODB_ZIP_EST_N_SIZES; k++) {
      estimated[k] +=
          page_zip_est_tree_pages(page_zip_est_model(idx, k, bytes), upper) +
          lob_zip[k];
      inserted[k] +=
          page_zip_est_tree_pages(
              page_zip_est_model(idx, k, bytes, PAGE_ZIP_EST_INSERTED),
              upper) +
          lob_zip[k];
      page_zip_est_failures(idx, k, fail[k], trials[k]);
    }
  }

  /* Indexes not estimated (spatial) keep the table's ratio. */
  const double scale = known_used > 0 ? (known_used + other_pages) / known_used
                                      : 1.0;

  bool all_full = true;
  for (const auto &idx : indexes) {
    all_full = all_full && idx.full;
  }
  est->full_scan = all_full ? 1 : 0;
  est->n_indexes = static_cast<uint32_t>(indexes.size());
  est->used_pages = used_pages;
  est->leaf_pages = leaf_pages;
  est->sampled_pages = sampled_pages;
  est->sampled_records = sampled_recs;
  est->data_bytes = static_cast<uint64_t>(data_bytes);
  /* The same loader model for both sizes, so that the savings measure how
  the data compresses, not how fragmented the table is now. */
  est->uncompressed_pages = static_cast<uint64_t>(uncompressed * scale + 0.5);
  est->full_pages = static_cast<uint64_t>(full * scale + 0.5);
  est->extern_records = extern_recs;
  est->extern_bytes = static_cast<uint64_t>(extern_bytes + 0.5);
  est->extern_pages = extern_pages;
  est->page_status = pc_file.status;
  est->fs_block_size = pc_file.block_size;
  est->page_compression = pc_file.current;
  est->page_zlib_level = page_zip_level;
  est->file_bytes = pc_file.file_bytes;
  est->file_allocated_bytes = pc_file.allocated_bytes;
  for (ulint m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
    const bool ok = pc_file.status == INNODB_ZIP_EST_PAGE_OK;
    est->page_bytes[m] =
        ok ? static_cast<uint64_t>(pc_bytes[m] * scale + 0.5) : 0;
    est->page_whole_pct[m] =
        ok && pc_trials > 0 ? 100.0 * pc_whole[m] / pc_trials : 0.0;
  }
  for (ulint k = 0; k < INNODB_ZIP_EST_N_SIZES; k++) {
    const ulint kbs = page_zip_est_kbs[k];
    auto &out = est->sizes[k];
    if (kbs * 1024 > UNIV_PAGE_SIZE) {
      out.key_block_size = 0;
      out.pages = 0;
      out.failure_pct = 0;
      est->inserted_pages[k] = 0;
      continue;
    }
    est->inserted_pages[k] = static_cast<uint64_t>(inserted[k] * scale + 0.5);
    out.key_block_size = static_cast<uint32_t>(kbs);
    out.pages = static_cast<uint64_t>(estimated[k] * scale + 0.5);
    out.failure_pct =
        trials[k] == 0 ? 0.0 : 100.0 * static_cast<double>(fail[k]) / trials[k];
  }
  return INNODB_ZIP_EST_OK;
}
