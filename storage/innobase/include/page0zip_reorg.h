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

/** @file include/page0zip_reorg.h
 page_zip_reorganize() without the rebuild, for a page that is in its
 rebuilt form already: a page filled by inserts in key order, whose
 modification log fills long before the page does.

 Created 2026-11-27 */

#ifndef page0zip_reorg_h
#define page0zip_reorg_h

#include "univ.i"

#include "dict0types.h"
#include "page0types.h"

/** Whether rebuilding a page (page_zip_reorganize(): copy, page_create(),
page_copy_rec_list_end_no_locks()) would leave every user record where it
is, with the same heap number: the page has no garbage and no free list,
and its records are in heap number order along the record list. Then the
heap is tiled by the records in list order from PAGE_ZIP_START, as the
rebuild lays them out, so that compressing the page as it is gives the
compressed records a rebuild would, and the record locks (by heap number)
and the adaptive hash index (by address) stay valid.
@param[in]  page   uncompressed page of a ROW_FORMAT=COMPRESSED index
@param[in]  index  its index (debug builds check the tiling with it)
@return whether the rebuild can be skipped */
bool page_zip_reorganize_is_noop(const page_t *page,
                                 const dict_index_t *index);

/** Count a page_zip_reorganize() that only compressed the page. */
void page_zip_reorganize_count_in_place();

#ifndef UNIV_LIBRARY
#include "mysql/status_var.h"

/** SHOW STATUS Innodb_zip_reorganize_in_place: calls of
page_zip_reorganize() (a full modification log, an update that did not fit)
that found the page in its rebuilt form and only compressed it, since the
server started. */
int show_innodb_zip_reorganize_in_place(THD *thd, SHOW_VAR *var, char *buff);
#endif /* !UNIV_LIBRARY */

#endif /* page0zip_reorg_h */
