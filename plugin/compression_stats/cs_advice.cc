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

/**
  @file plugin/compression_stats/cs_advice.cc
  The advice arithmetic: the padding hint (docs/tuning.md, "Padding hint"), the
  savings of an estimate, CP_ss and the SELECTIVE verdict; see
  cs_advice.h. Nothing here reads the server: every input is an argument.
*/

#include "plugin/compression_stats/cs_advice.h"

#include <algorithm>
#include <cmath>

namespace compression_stats {

namespace {

/** The KEY_BLOCK_SIZEs in KB, in the order of innodb_zip_estimate_t::sizes. */
constexpr unsigned kbs_list[INNODB_ZIP_EST_N_SIZES] = {1, 2, 4, 8, 16};

/** The part of the padding hint about the modification log (docs/tuning.md,
"Padding hint"): when the clustered index recompresses its pages because
the log is full more often than allowed, and more often than compressions
fail, the cure is room for the log, not padding.
Allowed: innodb_compression_log_reorg_threshold_pct in effect, or the
failure threshold while the reserve is off. Needs a round of updates.
@param[in]   s    statistics of the table
@param[out]  kbs  SUGGESTED_KEY_BLOCK_SIZE in KB, or unchanged
@return the hint, or nullptr if the log is not the table's cost */
const char *log_hint(const innodb_zip_table_stats_t &s, uint64_t *kbs,
                     uint64_t *free_pct) {
  if (!CS_HAS(s, log_reserve_step)) {
    return nullptr;
  }
  const innodb_zip_reorg_counters_t &r = s.primary_reorg;
  const uint64_t t = s.effective_log_reorg_threshold_pct > 0
                         ? s.effective_log_reorg_threshold_pct
                         : s.effective_failure_threshold_pct;
  const uint64_t failures =
      compress_failures(s.primary.compress_ops, s.primary.compress_ops_ok);
  if (r.updates < s.zip_pad_round_len || t == 0 ||
      100 * r.log_update <= t * r.updates || r.log_update <= failures) {
    return nullptr;
  }
  /* Do inserts fill the pages? The reserve keeps room only in pages that
  inserts fill: inserts that found the log full (recompressions on insert)
  and page splits (new pages) show them. Fewer than one of either per 100
  log-full recompressions on update: the recompressed pages are the ones a
  load filled, which only free space given at a rebuild can reach. */
  if (100 * (r.log_insert + s.primary.zip_splits) < r.log_update &&
      s.primary_avg_record_size != 0 && s.physical_page_size != 0) {
    /* Room for the updates a page takes between two recompressions to
    grow from U0 (measured: updates / log-full recompressions) to U1 =
    100 / T1, each update logging about a record: F = (U1 - U0) * R bytes,
    in percent of the compressed page. T1 is the log threshold in effect,
    or 25 (one recompression per 4 updates) without one: where BENCHMARKS
    2d measured the gain of free space on TPC-C's stock and customer. */
    const double t1 = s.effective_log_reorg_threshold_pct > 0
                          ? s.effective_log_reorg_threshold_pct
                          : 25.0;
    const double u0 = static_cast<double>(r.updates) / r.log_update;
    const double u1 = 100.0 / t1;
    const double pct = u1 > u0 ? 100.0 * (u1 - u0) * s.primary_avg_record_size /
                                     s.physical_page_size
                               : 0.0;
    if (pct <= 25.0) {
      /* innodb_compression_bulk_free_pct takes 0 to 25. */
      *free_pct = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(pct)));
      return "REBUILD_WITH_FREE_SPACE";
    }
  } else if (s.effective_log_reorg_threshold_pct == 0) {
    return "ENABLE_LOG_RESERVE";
  }
  if (s.effective_log_reorg_threshold_pct == 0) {
    /* Update-only pages that need more room than a rebuild can leave. */
    const uint64_t bigger = 2 * s.physical_page_size;
    if (bigger >= s.logical_page_size) {
      return "UNCOMPRESS";
    }
    *kbs = bigger / 1024;
    return "INCREASE_KEY_BLOCK_SIZE";
  }
  if (!s.primary_log_reserve_at_max && s.primary_log_reserve > 0) {
    /* The reserve is still growing. */
    return "LOG_RESERVE_GROWING";
  }
  /* At its maximum, or 0 with the log still the cost: the reserve cannot
  help (it grows only in rounds with inserts; pages filled by a load and
  then only updated need more room than it can hold back). */
  const uint64_t bigger = 2 * s.physical_page_size;
  if (bigger >= s.logical_page_size) {
    return "UNCOMPRESS";
  }
  *kbs = bigger / 1024;
  return "INCREASE_KEY_BLOCK_SIZE";
}

}  // namespace

uint64_t compress_failures(uint64_t ops, uint64_t ok) {
  return ok >= ops ? 0 : ops - ok;
}

const char *padding_hint(const innodb_zip_table_stats_t &s, uint64_t *width,
                         uint64_t *kbs, uint64_t *free_pct) {
  *width = 0;
  *kbs = 0;
  *free_pct = 0;
  const innodb_zip_counters_t &p = s.primary;
  const uint64_t u = s.logical_page_size;
  const uint64_t threshold = s.effective_failure_threshold_pct;
  const uint64_t pad = s.primary_padding;
  const uint64_t step = s.zip_pad_increment;

  if (const char *h = log_hint(s, kbs, free_pct); h != nullptr) {
    return h;
  }
  if (threshold == 0) {
    /* Adaptive padding is off: InnoDB gives no padding to learn from. */
    return "ADAPTIVE_PADDING_OFF";
  }
  /* Not even one round of InnoDB's adaptive padding yet. */
  if (p.compress_ops < s.zip_pad_round_len) {
    return "NOT_ENOUGH_DATA";
  }
  const bool failing =
      100 * compress_failures(p.compress_ops, p.compress_ops_ok) >
      threshold * p.compress_ops;
  if (!failing && pad == 0) {
    return "NONE";
  }
  if (failing && s.primary_pad_at_max) {
    /* The pad is at its maximum and failures are still too frequent. */
    const uint64_t bigger = 2 * s.physical_page_size;
    if (bigger >= u) {
      return "UNCOMPRESS";
    }
    *kbs = bigger / 1024;
    return "INCREASE_KEY_BLOCK_SIZE";
  }
  if (s.primary_avg_record_size == 0) {
    return "NOT_ENOUGH_DATA";
  }
  /* The pad InnoDB converged to, or its next step while still failing,
  turned into bytes per row: rows of R + W bytes fill a page with as much
  data as rows of R bytes fill it minus the pad. */
  const uint64_t target = pad + (failing ? step : 0);
  const uint64_t r = s.primary_avg_record_size;
  *width = (r * target + (u - target) - 1) / (u - target);
  return "ADD_PADDING_COLUMN";
}

int kbs_index(unsigned kbs) {
  for (int i = 0; i < INNODB_ZIP_EST_N_SIZES; i++) {
    if (kbs_list[i] == kbs) {
      return i;
    }
  }
  return -1;
}

bool compressed_pages(const innodb_zip_estimate_t &e, unsigned kbs,
                      bool rebuilt, double *pages) {
  const int k = kbs_index(kbs);
  if (k < 0 || e.sizes[k].key_block_size == 0 || e.data_bytes == 0 ||
      e.full_pages == 0 || e.logical_page_size == 0) {
    return false;
  }
  const bool measured =
      !rebuilt && e.is_compressed && e.physical_page_size == kbs * 1024;
  *pages = static_cast<double>(measured ? e.used_pages : e.sizes[k].pages);
  return true;
}

double savings_pct(double pages, unsigned kbs, double uncompressed_pages,
                   unsigned logical) {
  return 100.0 * (1.0 - pages * kbs * 1024 / (uncompressed_pages * logical));
}

bool estimate_savings(const innodb_zip_estimate_t &e, unsigned kbs,
                      Savings which, double *ss) {
  double pages;
  if (!compressed_pages(e, kbs, which != Savings::TABLE, &pages)) {
    return false;
  }
  switch (which) {
    case Savings::TABLE:
    case Savings::REBUILT:
      break;
    case Savings::INSERTED:
      pages = static_cast<double>(e.inserted_pages[kbs_index(kbs)]);
      if (pages == 0) {
        return false;
      }
      break;
    case Savings::CURRENT_SIZE:
      /* Against the pages in use now, of the table's page size now. */
      if (e.used_pages == 0 || e.physical_page_size == 0 ||
          current_bytes(e) <= 0) {
        return false;
      }
      *ss = 100.0 * (1.0 - pages * kbs * 1024 / current_bytes(e));
      return true;
  }
  *ss = savings_pct(pages, kbs, e.full_pages, e.logical_page_size);
  return true;
}

const char *page_unavailable_reason(const innodb_zip_estimate_t &e) {
  switch (e.page_status) {
    case INNODB_ZIP_EST_PAGE_OK:
      return nullptr;
    case INNODB_ZIP_EST_PAGE_SHARED_TABLESPACE:
      return "COMPRESSION needs a file-per-table tablespace: the table is in "
             "the system tablespace or a general tablespace";
    case INNODB_ZIP_EST_PAGE_NO_PUNCH_HOLE:
      return "the file system of the table's file cannot punch holes";
    case INNODB_ZIP_EST_PAGE_BLOCK_SIZE:
      return "the file system block is more than half a page: no page can "
             "shrink by a block";
    default:
      return "estimated before page compression was estimated: run "
             "COMPRESSION_STATS_ESTIMATE() again";
  }
}

double current_bytes(const innodb_zip_estimate_t &e) {
  const double used =
      static_cast<double>(e.used_pages) * e.physical_page_size;
  if (e.page_status == INNODB_ZIP_EST_PAGE_NOT_ESTIMATED ||
      e.page_compression == 0 || e.file_allocated_bytes == 0 ||
      e.file_bytes < used) {
    return used;
  }
  /* The file's allocation less that of its free pages: measured where
  the engine could (holes with innodb_page_compression_sparse, whole pages
  without); else taken as whole pages (fallocate() or zeros written, never
  punched, as upstream keeps them). */
  const double free_pages =
      e.file_free_measured != 0
          ? static_cast<double>(e.file_free_allocated_bytes)
          : static_cast<double>(e.file_bytes) - used;
  const double in_use = static_cast<double>(e.file_allocated_bytes) - free_pages;
  return std::clamp(in_use, 0.0, used);
}

bool page_savings(const innodb_zip_estimate_t &e, int m, Savings which,
                  double *ss) {
  if (m < 0 || m >= INNODB_ZIP_EST_N_PAGE_METHODS ||
      page_unavailable_reason(e) != nullptr || e.data_bytes == 0 ||
      e.full_pages == 0 || e.logical_page_size == 0 ||
      e.page_bytes[m] == 0) {
    return false;
  }
  const double bytes = static_cast<double>(e.page_bytes[m]);
  if (which == Savings::CURRENT_SIZE) {
    const double now = current_bytes(e);
    if (now <= 0) {
      return false;
    }
    *ss = 100.0 * (1.0 - bytes / now);
    return true;
  }
  *ss = 100.0 * (1.0 - bytes / (static_cast<double>(e.full_pages) *
                                e.logical_page_size));
  return true;
}

bool page_file_bytes(const innodb_zip_estimate_t &e, int m, bool sparse,
                     double *bytes) {
  double ss;
  if (!page_savings(e, m, Savings::TABLE, &ss) ||
      e.rebuilt_file_estimated == 0 || e.fs_block_size == 0) {
    return false;
  }
  const double page = e.logical_page_size;
  /* Page 0 is written whole (fil_io()); the header, inode, SDI, extent
  descriptor and bitmap pages are nearly empty: a block each. */
  const double other =
      e.rebuilt_other_pages > 0
          ? page + static_cast<double>(e.rebuilt_other_pages - 1) *
                       e.fs_block_size
          : 0;
  *bytes = static_cast<double>(e.page_bytes[m]) + other +
           (sparse ? 0 : static_cast<double>(e.rebuilt_free_pages) * page);
  return true;
}

bool kbs_file_bytes(const innodb_zip_estimate_t &e, unsigned kbs,
                    double *bytes) {
  double pages;
  if (!compressed_pages(e, kbs, false, &pages)) {
    return false;
  }
  const bool measured = e.is_compressed && e.physical_page_size == kbs * 1024;
  if (measured) {
    if (e.file_allocated_bytes == 0) {
      return false;
    }
    *bytes = static_cast<double>(e.file_allocated_bytes);
    return true;
  }
  const int k = kbs_index(kbs);
  if (e.rebuilt_file_estimated == 0 || e.rebuilt_zip_file_pages[k] == 0) {
    return false;
  }
  *bytes = static_cast<double>(e.rebuilt_zip_file_pages[k]) * kbs * 1024;
  return true;
}

double expected_savings(unsigned kbs, unsigned logical_page_size) {
  if (logical_page_size == 0 || kbs * 1024 > logical_page_size) {
    return 0;
  }
  return (1.0 - static_cast<double>(kbs) * 1024 / logical_page_size) * 100.0;
}

bool delta_close(double ss, double cp, double delta) {
  /* (1 - delta) * CP_ss <= T_ss. Above CP_ss counts as close (it hardly
  happens: the baseline is the records in full uncompressed pages, which no
  compressed page holds more of; docs/estimator.md, "SELECTIVE"). With CP_ss = 0
  there is nothing to gain. */
  return cp > 0 && ss >= (1.0 - delta) * cp - 1e-9;
}

const char *selective_verdict(bool is_compressed, bool have_ss, bool empty,
                              double ss, double rebuilt_ss, double cp,
                              double delta, double *closeness) {
  *closeness = std::nan("");
  if (empty) {
    return "EMPTY_TABLE";
  }
  if (!have_ss) {
    return "NO_ESTIMATE";
  }
  if (cp > 0) {
    *closeness = ss / cp;
  }
  const bool close = delta_close(ss, cp, delta);
  if (is_compressed) {
    if (close) {
      return "KEEP_COMPRESSED";
    }
    /* The data compresses well, the pages are half empty: a rebuild at the
    same size makes the table delta-close. */
    return delta_close(rebuilt_ss, cp, delta) ? "REBUILD" : "UNCOMPRESS";
  }
  return close ? "COMPRESS" : "KEEP_UNCOMPRESSED";
}

}  // namespace compression_stats
