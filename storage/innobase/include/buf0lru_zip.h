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
 buf_LRU_evict_from_unzip_LRU() (buf0lru.cc), and the costs its AUTO value
 weighs (buf0lru_zip.cc).

 A compressed page in the buffer pool may hold its uncompressed frame too.
 When the pool needs a free block, InnoDB either frees such a frame and
 keeps the compressed page (the unzip_LRU: a later access decompresses the
 page again) or evicts from the common LRU (a later access reads the page
 from disk). Either way the unzip_LRU is not used while it holds at most
 10 % of the LRU. Beyond that:
 - AUTO (the default) weighs what each side cost over the last 50 seconds:
   the time spent decompressing pages whose frame had been freed, against
   the time threads waited for synchronous page reads, each second's wait
   weighed by the share of that second the CPUs were idle (a wait costs
   the server only while the CPU has nothing else to do); it frees a
   frame while the first is at most the second;
 - UPSTREAM is MySQL's formula: free frames unless decompressions (all of
   them) outnumber 50 x the page I/O (reads and writes: the page cleaner's
   flushes count, which makes a write-heavy load look I/O-bound);
 - UNZIP and LRU take one side, for a DBA who knows which resource is
   short and for the benchmark (BENCHMARKS.md, section 7b).

 Created 2026-11-26 */

#ifndef buf0lru_zip_h
#define buf0lru_zip_h

#include <chrono>

#include "univ.i"

/** Values of innodb_buffer_pool_unzip_lru_policy. */
enum buf_lru_unzip_policy_t {
  /** Measured costs (the default; buf0lru_zip.cc). */
  BUF_LRU_UNZIP_POLICY_AUTO = 0,
  /** Free uncompressed frames first, as if the load were I/O-bound. */
  BUF_LRU_UNZIP_POLICY_UNZIP = 1,
  /** Evict from the common LRU, as if the load were CPU-bound. */
  BUF_LRU_UNZIP_POLICY_LRU = 2,
  /** Upstream's formula: decompressions against 50 x the page I/O. */
  BUF_LRU_UNZIP_POLICY_UPSTREAM = 3
};

/** innodb_buffer_pool_unzip_lru_policy: a buf_lru_unzip_policy_t. Read
without a latch at each decision. */
extern ulong buf_lru_unzip_policy;

/** Records a decompression of a compressed page whose uncompressed frame
had been freed (Buf_fetch::zip_page_handler()).
@param[in]      d       how long the decompression took */
void buf_lru_zip_note_refetch_unzip(std::chrono::steady_clock::duration d);

/** Records a synchronous page read that a query waited for
(buf_read_page()).
@param[in]      d       how long the read took */
void buf_lru_zip_note_user_read(std::chrono::steady_clock::duration d);

/** Debug builds: the fault point buf_lru_zip_read_slow adds 20 ms to each
timed page read, as slow storage would, so that a test can make a load
I/O-bound. */
void buf_lru_zip_debug_read_sleep();

/** Ends an interval of the window (once a second, from
buf_LRU_stat_update()).
@param[in]      evict_started   whether any buffer pool instance has
evicted a page (before that no interval enters the window) */
void buf_lru_zip_stat_update(bool evict_started);

/** AUTO's decision. Takes no latch; the caller holds
buf_pool->LRU_list_mutex.
@return true to free an uncompressed frame from the unzip_LRU, false to
evict from the common LRU */
bool buf_lru_zip_auto_free_frame();

#endif /* buf0lru_zip_h */
