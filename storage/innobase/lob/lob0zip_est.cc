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


/** @file lob/lob0zip_est.cc
 Savings estimator, the off-page columns (include/lob0zip_est.h).

 Created 2026-11-21 (moved from page/page0zip_est.cc in issue 31) */

#include "lob0zip_est.h"
#include "page0comp_est.h"
#include "page0zip_codec.h"

#include <algorithm>
#include <cmath>

#include "dict0dict.h"
#include "dict0mem.h"
#include "lob0first.h"
#include "lob0impl.h"
#include "lob0pages.h"
#include "page0zip.h"
#include "rem0rec.h"
#include "zlob0first.h"
#include "zlob0index.h"

#include <zlib.h>

namespace {

/** Off-page columns of a trial's start page read and deflated; the others
take their ratio. */
constexpr ulint LOB_ZIP_EST_FIELDS = 4;

/** Uncompressed BLOB pages of one off-page column written anew
(lob::insert(), lob/lob0ins.cc): the first page with the LOB index and
some data, data pages, and index pages once the first page's entries (one
per page of data) are used up.
@param[in]  len  bytes of the column
@return pages */
double lob_zip_est_pages(double len) {
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
void lob_zip_est_zentries(ulint zip_size, ulint *n_index, ulint *n_frag) {
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
double lob_zip_est_zpages(ulint len,
                          const page_zip_est_vector_t<double> &zchunks,
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
  lob_zip_est_zentries(zip_size, &n_index, &n_frag);
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
@param[in]      level    level word of the index
@param[in,out]  s        scratch (zlib heap)
@param[out]     out      output buffer of LOB_ZIP_EST_OUT bytes
@param[out]     zchunks  bytes of each stream, appended to
@return bytes of the streams */
ulint lob_zip_est_deflate(const byte *data, ulint len, bool chunked,
                          ulint level, Page_zip_est_scratch &s, byte *out,
                          page_zip_est_vector_t<double> &zchunks) {
  ulint total = 0;
  ulint off = 0;
  do {
    const ulint n = chunked ? std::min<ulint>(len - off, lob::Z_CHUNK_SIZE)
                            : len;
    /* The codec that writes the BLOBs (lob0zip_write.cc): the fast one
    if it is the index's and writes the stream; the estimator's own work,
    not counted. A prefix longer than a chunk is only read when chunked. */
    static_assert(page_zip_lob_deflate_bound(lob::Z_CHUNK_SIZE) <=
                  LOB_ZIP_EST_OUT);
    const ulint fast =
        n <= lob::Z_CHUNK_SIZE
            ? page_zip_lob_deflate(level, data + off, n, out, LOB_ZIP_EST_OUT,
                                   false)
            : 0;
    if (fast != 0) {
      total += fast;
      zchunks.push_back(static_cast<double>(fast));
      off += n;
      continue;
    }
    z_stream strm;
    memset(&strm, 0, sizeof strm);
    page_zip_set_alloc(&strm, s.zlib_heap());
    /* zlib: the level of the word. */
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

}  // namespace

void lob_zip_est_rec_fields(const dict_index_t *index, const rec_t *rec,
                            const ulint *offsets,
                            page_zip_est_vector_t<lob_zip_est_field_t> &lobs) {
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

void lob_zip_est_fields(
    dict_index_t *index,
    const page_zip_est_vector_t<lob_zip_est_field_t> &fields, ulint level,
    Page_zip_est_scratch &s, page_zip_est_unit_t &unit) {
  if (fields.empty()) {
    return;
  }

  const page_size_t page_size = dict_table_page_size(index->table);
  byte *buf = s.lob_buf();
  byte *out = buf + LOB_ZIP_EST_PREFIX;
  /* Per field: the streams of the chunks read, and the ratio of them. */
  auto zread = page_zip_est_vector<page_zip_est_vector_t<double>>();
  zread.resize(fields.size(), page_zip_est_vector<double>());
  auto field_ratio = page_zip_est_vector<double>();
  field_ratio.assign(fields.size(), -1);
  double read = 0;
  double zbytes = 0;
  const ulint step =
      (fields.size() + LOB_ZIP_EST_FIELDS - 1) / LOB_ZIP_EST_FIELDS;
  for (ulint j = step / 2; j < fields.size(); j += step) {
    const lob_zip_est_field_t &f = fields[j];
    const ulint want = std::min<ulint>(f.len, LOB_ZIP_EST_PREFIX);
    const ulint got = lob::btr_copy_externally_stored_field_prefix(
        nullptr, index, buf, want, page_size, f.data, false, f.local_len);
    if (got == 0) {
      continue;
    }
    const ulint z = lob_zip_est_deflate(
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
    unit.lob_pages += lob_zip_est_pages(static_cast<double>(len));
    for (ulint k = 0; k < INNODB_ZIP_EST_N_SIZES; k++) {
      const ulint zip_size = page_zip_est_kbs[k] * 1024;
      if (zip_size <= UNIV_PAGE_SIZE) {
        unit.lob_zip[k] += lob_zip_est_zpages(len, zchunks, zip_size);
      }
    }
  }
}
