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


/** @file btr/btr0load_est.cc
 Savings estimator, the model of the page loader of ALTER TABLE
 (include/btr0load_est.h).

 Created 2026-11-21 (moved from page/page0zip_est.cc in issue 31) */

#include "btr0load_est.h"

#include <algorithm>
#include <cmath>

#include "ddl0ddl.h"
#include "dict0dict.h"
#include "dict0mem.h"
#include "page0page.h"

namespace {

/** Page builds the loader model simulates at most per index and size;
the rest is extrapolated from the steady state. */
constexpr uint64_t BTR_LOAD_EST_MAX_BUILDS = 1 << 20;

}  // namespace

ulint btr_load_est_reserve(bool clustered) {
  if (ddl::fill_factor == 100 && clustered) {
    return dict_index_get_space_reserve();
  }
  return UNIV_PAGE_SIZE * (100 - ddl::fill_factor) / 100;
}

double btr_load_est_full(double bytes) {
  return bytes / page_get_free_space_of_empty(true);
}

double btr_load_est_leaf_pages(
    const btr_load_est_t &idx,
    const page_zip_est_vector_t<page_zip_est_unit_t> &units, ulint k,
    double bytes, btr_load_est_build_t build) {
  const ulint usable = page_get_free_space_of_empty(true);

  if (units.empty() || bytes <= 0) {
    return 0;
  }

  if (k == INNODB_ZIP_EST_N_SIZES) {
    /* Uncompressed: fill to the reserve, no compression. */
    const ulint limit = usable - btr_load_est_reserve(idx.clustered);
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

  for (size_t i = 0; done < bytes && builds < BTR_LOAD_EST_MAX_BUILDS;
       i = (i + 1) % units.size(), builds++) {
    const page_zip_est_unit_t &u = units[i];
    const ulint fit = build == BTR_LOAD_EST_INSERTED ? u.fit0[k] : u.fit[k];
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
    if (idx.tight || build == BTR_LOAD_EST_INSERTED) {
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

void btr_load_est_failures(
    const btr_load_est_t &idx,
    const page_zip_est_vector_t<page_zip_est_unit_t> &units, ulint k,
    uint64_t &fail, uint64_t &total) {
  const ulint limit = page_get_free_space_of_empty(true) -
                      btr_load_est_reserve(idx.clustered);
  for (const auto &u : units) {
    if (u.cum.size() < 2) {
      continue;
    }
    total++;
    if (page_zip_est_recs_upto(u, limit) > u.fit[k]) {
      fail++;
    }
  }
}

double btr_load_est_tree_pages(double leaf, double upper) {
  if (leaf <= 0) {
    return 0;
  }
  const double n_leaf = std::max(1.0, std::ceil(leaf - 1e-6));
  if (n_leaf <= 1) {
    return 1;
  }
  return n_leaf + std::max(1.0, n_leaf * (upper - 1));
}
