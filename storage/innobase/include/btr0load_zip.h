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

/** @file include/btr0load_zip.h
 Settings of the B-tree bulk loader (btr0load.cc) for compressed indexes:
 innodb_compression_bulk_split, which selects the tight split, and
 innodb_compression_bulk_free_pct, the free space it keeps. Their values
 are defined in btr0load.cc beside innodb_fill_factor's ddl::fill_factor,
 the loader's other variable; the loader reads them once per B-tree build
 and the savings estimator's model of the loader once per estimate.

 Created 2026-11-23 */

#ifndef btr0load_zip_h
#define btr0load_zip_h

#include "univ.i"

/** How the B-tree bulk loader (ALTER TABLE, OPTIMIZE TABLE, CREATE INDEX)
handles a page of a compressed index that does not compress into its
KEY_BLOCK_SIZE (innodb_compression_bulk_split). */
enum btr_load_zip_split_t : ulong {
  /** Move the upper half of the records to a new page that is committed at
  once, as upstream MySQL does. */
  BTR_LOAD_ZIP_SPLIT_HALF = 0,
  /** Keep as many records as compress into the page with
  btr_load_zip_reserve() bytes left free, and carry the rest to the next
  page, which goes on filling. */
  BTR_LOAD_ZIP_SPLIT_TIGHT = 1
};

/** innodb_compression_bulk_split: a btr_load_zip_split_t. */
extern ulong btr_load_zip_split;

/** innodb_compression_bulk_free_pct: the share of each compressed page, in
percent, that the tight split leaves free for the modification log. */
extern ulong btr_load_zip_free_pct;

/** Bytes the tight split leaves free on a compressed page.
@param[in] zip_size  compressed page size in bytes
@param[in] free_pct  innodb_compression_bulk_free_pct, as read by the caller
@return bytes to keep free */
inline ulint btr_load_zip_reserve(ulint zip_size, ulint free_pct) {
  return zip_size * free_pct / 100;
}

#endif /* btr0load_zip_h */
