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

/** @file include/dict0zip_log.h
 An adaptive reserve for the modification log of compressed pages.

 Every change of a record in a compressed page is appended to the page's
 modification log; when the log has no room left, InnoDB recompresses the
 whole page (ZIP_REORGS_LOG_UPDATE, ZIP_REORGS_LOG_INSERT). Inserts fill the
 log as well as updates, so a page filled by inserts leaves its updates no
 room. InnoDB's adaptive padding does not help: it limits the uncompressed
 bytes of a page and reacts to failed compressions only.

 The log reserve is a number of bytes R of the compressed page that an
 ordinary insert into a leaf page must leave free (btr_cur_optimistic_insert
 sends the insert to a page split instead); updates may use it. R adapts per
 index like the pad: rounds of ZIP_PAD_ROUND_LEN updates that found room in
 their page; a round in which more than T % of them needed a recompression
 because the log was full grows R by one step (1/64 of the compressed page),
 ZIP_PAD_SUCCESSFUL_ROUND_LIMIT good rounds in a row give one step back; R
 never exceeds M % of the compressed page. A recompression counts against a
 round only if the recompressed page still keeps R bytes free: a page
 filled before R grew could not have been helped by it, and a round without
 any insert into the index never grows R (a table filled by its load and
 then only updated gets no reserve: only a rebuild gives its pages room).

 T is innodb_compression_log_reorg_threshold_pct (0, the default, switches
 the reserve off) and M innodb_compression_log_reserve_pct_max, or the
 table's own "compression_log_reorg_threshold_pct" and
 "compression_log_reserve_pct_max" in ENGINE_ATTRIBUTE. The settings,
 global and per table, are dict0zip_opt's
 (dict_index_zip_log_reorg_threshold_pct(),
 dict_index_zip_log_reserve_pct_max()); this module only reads them.

 The state lives on the index object (dict_index_t::zip_log) in atomics:
 no latch on the update or insert path. R is kept in memory only and starts
 at 0 when the index enters the dictionary cache, like the pad.

 Created 2026-11-23 */

#ifndef dict0zip_log_h
#define dict0zip_log_h

#include "univ.i"

#include <cstdint>

#include "page0types.h"

struct dict_index_t;

/** The high bit of zip_log_reserve_info_t::n_log_full: the current round
saw an insert into a leaf page of the index. */
constexpr uint32_t DICT_ZIP_LOG_INSERTED = 1U << 31;

/** Step of the reserve: this fraction of the compressed page size. */
constexpr ulint DICT_ZIP_LOG_STEP_DIV = 64;

/** The reserve an insert into a leaf page of an index must leave free in
the compressed page: 0 when the reserve is off for the index, else R capped
by the current maximum. Lock-free.
@param[in]  index     index
@param[in]  zip_size  compressed page size in bytes
@return bytes */
ulint dict_index_zip_log_reserve(const dict_index_t *index, ulint zip_size);

/** Whether an ordinary insert of a record into a leaf page leaves the
reserve free; counts a refusal when it does not. An insert is tried in
the MODIFY_LEAF pass, then, refused, in the MODIFY_TREE pass that splits
(row0ins.cc): a refusal counts in that pass only (the thread holds the
index latch X or SX), so that LOG_RESERVE_REFUSALS counts inserts, not
attempts. Lock-free.
@param[in,out]  index  index of the page (notes that its round saw an
                       insert)
@param[in]  page_zip  the compressed page
@param[in]  rec_size  size of the record in the uncompressed page
@return false if the insert must go to a page split instead */
bool dict_index_zip_log_admits(dict_index_t *index,
                               const page_zip_des_t *page_zip,
                               ulint rec_size);

/** Count an update of a record in a compressed leaf page for the
reserve's rounds, and close a round every ZIP_PAD_ROUND_LEN updates.
Lock-free; does nothing when the reserve is off.
@param[in,out]  index     index (a dummy index is ignored)
@param[in]      page_zip  the compressed page */
void dict_index_zip_log_update(dict_index_t *index,
                               const page_zip_des_t *page_zip);

/** Count a recompression of a compressed page for an update that found
the modification log full, if the recompressed page still keeps the
reserve free. Lock-free; does nothing when the reserve is off.
@param[in,out]  index     index (a dummy index is ignored)
@param[in]      page_zip  the compressed page, just recompressed */
void dict_index_zip_log_full(dict_index_t *index,
                             const page_zip_des_t *page_zip);

#endif /* dict0zip_log_h */
