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

/** @file include/buf0lru_zip.h
 The buffer pool's choice between its two evictions of compressed pages:
 innodb_buffer_pool_unzip_lru_policy, read by
 buf_LRU_evict_from_unzip_LRU() (buf0lru.cc).

 A compressed page in the buffer pool may hold its uncompressed frame too.
 When the pool needs a free block, InnoDB either frees such a frame and
 keeps the compressed page (the unzip_LRU: a later access decompresses the
 page again) or evicts from the common LRU (a later access reads the page
 from disk). Upstream decides by a formula (AUTO): use the unzip_LRU unless
 it holds at most 10 % of the LRU, or unless decompressions outnumber 50 x
 the page I/O of the last intervals (reads and writes: the page cleaner's
 flushes count), in which case the load is taken as CPU-bound. UNZIP and
 LRU take one side whatever the formula says (the 10 % slack stays), for a
 DBA who knows which resource is short and for the benchmark that asks
 whether the formula chooses well (BENCHMARKS.md, section 7b).

 Created 2026-11-26 */

#ifndef buf0lru_zip_h
#define buf0lru_zip_h

#include "univ.i"

/** Values of innodb_buffer_pool_unzip_lru_policy. */
enum buf_lru_unzip_policy_t {
  /** Upstream's formula (the default). */
  BUF_LRU_UNZIP_POLICY_AUTO = 0,
  /** Free uncompressed frames first, as if the load were I/O-bound. */
  BUF_LRU_UNZIP_POLICY_UNZIP = 1,
  /** Evict from the common LRU, as if the load were CPU-bound. */
  BUF_LRU_UNZIP_POLICY_LRU = 2
};

/** innodb_buffer_pool_unzip_lru_policy: a buf_lru_unzip_policy_t. Defined
in buf0lru.cc; read without a latch at each decision. */
extern ulong buf_lru_unzip_policy;

#endif /* buf0lru_zip_h */
