/* Copyright (c) 2026, the mysql-compress authors.

   This program is free software; you can redistribute it and/or modify it under
   the terms of the GNU General Public License, version 2.0, as published by the
   Free Software Foundation.

   This program is distributed in the hope that it will be useful, but WITHOUT
   ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
   FOR A PARTICULAR PURPOSE. See the GNU General Public License, version 2.0,
   for more details.

   You should have received a copy of the GNU General Public License along with
   this program; if not, write to the Free Software Foundation, Inc.,
   51 Franklin St, Fifth Floor, Boston, MA 02110-1301  USA */

/**
  @file plugin/compression_stats/unittest/cs_advice-t.cc
  Unit test of the plugin's advice arithmetic (cs_advice.cc) without a
  server: the failure count, CP_ss, delta-closeness, the SELECTIVE verdict,
  the savings formula and every branch of the padding hint, on synthetic
  statistics. Built and run by scripts/unit-tests.sh (which scripts/run-tests.sh
  runs before the mtr suite): a plain program, because the server's build
  has WITH_UNIT_TESTS=OFF here (no googletest).

  Each expected value is worked out by hand in the comment beside it, from
  the rules of docs/tuning.md ("The padding hint") and docs/estimator.md
  ("SELECTIVE"), not copied from a run.
*/

#include "plugin/compression_stats/cs_advice.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace {

int n_checks = 0;
int n_failed = 0;

void check(bool ok, const char *what, int line) {
  n_checks++;
  if (!ok) {
    n_failed++;
    std::printf("not ok %d - %s (line %d)\n", n_checks, what, line);
  } else {
    std::printf("ok %d - %s\n", n_checks, what);
  }
}

#define CHECK(cond) check((cond), #cond, __LINE__)
#define CHECK_STR(a, b) check(std::strcmp((a), (b)) == 0, #a " == " #b, __LINE__)

/** Statistics of a compressed table of 16 KB pages at 8 KB, failure
threshold 5 %, InnoDB's padding round of 128 compressions and step of 128
bytes, no log reserve, 200-byte records. */
innodb_zip_table_stats_t base_stats() {
  innodb_zip_table_stats_t s;
  std::memset(&s, 0, sizeof s);
  s.size = sizeof s;
  s.logical_page_size = 16384;
  s.physical_page_size = 8192;
  s.is_compressed = 1;
  s.n_indexes = 1;
  s.effective_failure_threshold_pct = 5;
  s.effective_pad_pct_max = 50;
  s.zip_pad_increment = 128;
  s.zip_pad_round_len = 128;
  s.primary_avg_record_size = 200;
  s.log_reserve_step = 64;
  return s;
}

void test_failures() {
  using compression_stats::compress_failures;
  CHECK(compress_failures(10, 7) == 3);
  CHECK(compress_failures(10, 10) == 0);
  /* A read that saw a success before its attempt: no failure, no wrap. */
  CHECK(compress_failures(7, 10) == 0);
}

void test_sizes() {
  using compression_stats::expected_savings;
  using compression_stats::kbs_index;
  CHECK(kbs_index(1) == 0);
  CHECK(kbs_index(8) == 3);
  CHECK(kbs_index(16) == 4);
  CHECK(kbs_index(3) == -1);
  /* CP_ss = (1 - KEY_BLOCK_SIZE / page size) * 100. */
  CHECK(std::fabs(expected_savings(8, 16384) - 50.0) < 1e-9);
  CHECK(std::fabs(expected_savings(4, 16384) - 75.0) < 1e-9);
  CHECK(std::fabs(expected_savings(4, 8192) - 50.0) < 1e-9);
  CHECK(expected_savings(16, 16384) == 0.0);
  /* A size above the page: nothing to expect. */
  CHECK(expected_savings(8, 4096) == 0.0);
  /* Formula (1): 50 pages of 8 KB against 100 pages of 16 KB save 75 %. */
  CHECK(std::fabs(compression_stats::savings_pct(50, 8, 100, 16384) - 75.0) <
        1e-9);
}

void test_selective() {
  using compression_stats::delta_close;
  using compression_stats::selective_verdict;
  /* delta 0.1 at 8 KB: 45 <= T_ss. */
  CHECK(delta_close(45.0, 50.0, 0.1));
  CHECK(!delta_close(44.9, 50.0, 0.1));
  CHECK(delta_close(50.5, 50.0, 0.1)); /* above CP_ss counts as close */
  CHECK(!delta_close(10.0, 0.0, 0.1)); /* CP_ss 0: nothing to gain */
  double c;
  CHECK_STR(selective_verdict(false, true, true, 47, -200, 50, 0.1, &c),
            "EMPTY_TABLE");
  CHECK(std::isnan(c));
  CHECK_STR(selective_verdict(false, false, false, 0, -200, 50, 0.1, &c),
            "NO_ESTIMATE");
  CHECK_STR(selective_verdict(false, true, false, 47, -200, 50, 0.1, &c),
            "COMPRESS");
  CHECK(std::fabs(c - 0.94) < 1e-9);
  CHECK_STR(selective_verdict(false, true, false, 30, -200, 50, 0.1, &c),
            "KEEP_UNCOMPRESSED");
  CHECK_STR(selective_verdict(true, true, false, 46, -200, 50, 0.1, &c),
            "KEEP_COMPRESSED");
  /* Compressed, pages half empty now, a rebuild would be close. */
  CHECK_STR(selective_verdict(true, true, false, 20, 46, 50, 0.1, &c),
            "REBUILD");
  CHECK_STR(selective_verdict(true, true, false, 20, 30, 50, 0.1, &c),
            "UNCOMPRESS");
}

void test_padding_hint() {
  using compression_stats::padding_hint;
  uint64_t w, kbs, free_pct;

  innodb_zip_table_stats_t s = base_stats();
  s.primary.compress_ops = 100; /* less than one round of 128 */
  CHECK_STR(padding_hint(s, &w, &kbs, &free_pct), "NOT_ENOUGH_DATA");

  s = base_stats();
  s.primary.compress_ops = s.primary.compress_ops_ok = 1000;
  CHECK_STR(padding_hint(s, &w, &kbs, &free_pct), "NONE");

  s.effective_failure_threshold_pct = 0;
  CHECK_STR(padding_hint(s, &w, &kbs, &free_pct), "ADAPTIVE_PADDING_OFF");

  /* 20 % failures against a 5 % threshold, pad 256 not at its maximum:
  the next step, 384 bytes of 16,384, as bytes per 200-byte row:
  ceil(200 * 384 / (16384 - 384)) = ceil(4.8) = 5. */
  s = base_stats();
  s.primary.compress_ops = 1000;
  s.primary.compress_ops_ok = 800;
  s.primary_padding = 256;
  CHECK_STR(padding_hint(s, &w, &kbs, &free_pct), "ADD_PADDING_COLUMN");
  CHECK(w == 5);

  /* The pad at its maximum and still failing: 8 KB -> 16 KB is the page
  size itself, so uncompress; at 4 KB the next size is 8 KB. */
  s.primary_pad_at_max = 1;
  CHECK_STR(padding_hint(s, &w, &kbs, &free_pct), "UNCOMPRESS");
  s.physical_page_size = 4096;
  CHECK_STR(padding_hint(s, &w, &kbs, &free_pct), "INCREASE_KEY_BLOCK_SIZE");
  CHECK(kbs == 8);

  /* The modification log is the cost: 1,000 updates, 500 of them
  recompressed a page whose log was full (50 % > 5 %), no failures. No
  inserts fill pages (no insert recompression, no split): update-only,
  U0 = 1000 / 500 = 2, U1 = 100 / 25 = 4 without a log threshold, so
  F = 100 * (4 - 2) * 200 / 8192 = 4.88 % -> 5. */
  s = base_stats();
  s.primary.compress_ops = s.primary.compress_ops_ok = 1000;
  s.primary_reorg.updates = 1000;
  s.primary_reorg.log_update = 500;
  CHECK_STR(padding_hint(s, &w, &kbs, &free_pct), "REBUILD_WITH_FREE_SPACE");
  CHECK(free_pct == 5);

  /* Inserts fill pages too (10 splits: 100 * 10 >= 500): the reserve is
  the cure, and it is off. */
  s.primary.zip_splits = 10;
  CHECK_STR(padding_hint(s, &w, &kbs, &free_pct), "ENABLE_LOG_RESERVE");

  /* The reserve is on and still growing. */
  s.effective_log_reorg_threshold_pct = 10;
  s.primary_log_reserve = 256;
  CHECK_STR(padding_hint(s, &w, &kbs, &free_pct), "LOG_RESERVE_GROWING");
  /* At its maximum: a bigger page (8 KB -> 16 KB is the page: uncompress). */
  s.primary_log_reserve_at_max = 1;
  CHECK_STR(padding_hint(s, &w, &kbs, &free_pct), "UNCOMPRESS");

  /* Below the log threshold (10 %): 50 of 1,000 updates; the log is not
  the cost, the failures decide (none): NONE. */
  s = base_stats();
  s.effective_log_reorg_threshold_pct = 10;
  s.primary.compress_ops = s.primary.compress_ops_ok = 1000;
  s.primary_reorg.updates = 1000;
  s.primary_reorg.log_update = 50;
  CHECK_STR(padding_hint(s, &w, &kbs, &free_pct), "NONE");
}

/** current_bytes() of a page-compressed table: 1,000 pages of 16 KB in use
in a file of 1,500 pages. */
void test_current_bytes() {
  using compression_stats::current_bytes;
  innodb_zip_estimate_t e;
  std::memset(&e, 0, sizeof e);
  e.size = sizeof e;
  e.logical_page_size = e.physical_page_size = 16384;
  e.used_pages = 1000;
  e.page_status = INNODB_ZIP_EST_PAGE_OK;
  e.page_compression = 2;
  e.file_bytes = 1500 * 16384ULL;
  /* The pages in use take 6 MB; the free pages are allocated whole. */
  e.file_allocated_bytes = 6000000 + 500 * 16384ULL;
  CHECK(std::fabs(current_bytes(e) - 6000000) < 1);
  /* A sparse file: the free pages are holes. Unmeasured, the old rule
  takes them for whole pages and undercounts (clamped to 0). */
  e.file_allocated_bytes = 6000000;
  CHECK(current_bytes(e) == 0);
  /* Measured: nothing of the free pages is allocated. */
  e.file_free_measured = 1;
  e.file_free_allocated_bytes = 0;
  CHECK(std::fabs(current_bytes(e) - 6000000) < 1);
  /* Half of the free pages still allocated (freed before the variable was
  turned on). */
  e.file_allocated_bytes = 6000000 + 250 * 16384ULL;
  e.file_free_allocated_bytes = 250 * 16384ULL;
  CHECK(std::fabs(current_bytes(e) - 6000000) < 1);
  /* Not page-compressed: the pages of its page size. */
  e.page_compression = 0;
  CHECK(current_bytes(e) == 1000 * 16384.0);
}

void test_file_bytes() {
  using compression_stats::kbs_file_bytes;
  using compression_stats::page_file_bytes;
  innodb_zip_estimate_t e;
  std::memset(&e, 0, sizeof e);
  e.size = sizeof e;
  e.logical_page_size = e.physical_page_size = 16384;
  e.used_pages = 1000;
  e.data_bytes = 10000000;
  e.full_pages = 900;
  e.page_status = INNODB_ZIP_EST_PAGE_OK;
  e.fs_block_size = 4096;
  e.page_bytes[0] = 5000000;
  e.page_bytes[1] = 7000000;
  e.sizes[3].key_block_size = 8;
  e.sizes[3].pages = 1100;
  double b = 0;
  /* An estimate without the rebuilt file (older, or a shared tablespace):
  no figure. */
  CHECK(!page_file_bytes(e, 0, true, &b));
  CHECK(!kbs_file_bytes(e, 8, &b));
  e.rebuilt_file_estimated = 1;
  e.rebuilt_other_pages = 4;
  e.rebuilt_free_pages = 300;
  e.rebuilt_zip_file_pages[3] = 1100 + 4 + 200;
  /* Sparse: the pages, page 0 whole and 3 blocks. */
  CHECK(page_file_bytes(e, 0, true, &b) &&
        std::fabs(b - (5000000 + 16384 + 3 * 4096)) < 1);
  /* Not sparse: and the free pages whole. */
  CHECK(page_file_bytes(e, 1, false, &b) &&
        std::fabs(b - (7000000 + 16384 + 3 * 4096 + 300 * 16384.0)) < 1);
  /* No figure where page compression has none (the file system). */
  e.page_status = INNODB_ZIP_EST_PAGE_NO_PUNCH_HOLE;
  CHECK(!page_file_bytes(e, 0, true, &b));
  /* KEY_BLOCK_SIZE=8: the rebuilt file, all of 8 KB pages. */
  CHECK(kbs_file_bytes(e, 8, &b) && std::fabs(b - 1304 * 8192.0) < 1);
  CHECK(!kbs_file_bytes(e, 4, &b));
  /* Compressed at that size now: the file now, measured. */
  e.is_compressed = 1;
  e.physical_page_size = 8192;
  e.file_allocated_bytes = 12345678;
  CHECK(kbs_file_bytes(e, 8, &b) && b == 12345678);
}

}  // namespace

int main() {
  test_failures();
  test_sizes();
  test_selective();
  test_padding_hint();
  test_current_bytes();
  test_file_bytes();
  std::printf("1..%d\n# %d of %d checks failed\n", n_checks, n_failed,
              n_checks);
  return n_failed == 0 ? 0 : 1;
}
