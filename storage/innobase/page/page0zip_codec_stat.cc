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

/** @file page/page0zip_codec_stat.cc
 What the codecs of compressed pages (page0zip_codec.h) tell the DBA and
 the tests: their counters (SHOW GLOBAL STATUS LIKE 'Innodb_zip_codec%'),
 the versions of the libraries (error log at start), a failure of ISA-L
 (counted, logged once), innodb_compression_codec_check, and in builds
 with UNIV_ZIP_DEBUG the pages and BLOB streams validated.

 Created 2026-11-28 (split from page0zip_codec.cc) */

#include "page0zip_codec.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>

#ifdef HAVE_ISAL
#include <link.h>
#endif /* HAVE_ISAL */

#include "mysql/status_var.h"
#include "page/zipdecompress.h"
#include "page0zip.h"
#include "ut0new.h"

std::atomic<uint64_t> page_zip_codec_n_compress[PAGE_ZIP_CODEC_N];
std::atomic<uint64_t> page_zip_codec_n_appended{0};
std::atomic<uint64_t> page_zip_codec_n_rescued{0};
std::atomic<uint64_t> page_zip_lob_deflate_n_fast{0};
std::atomic<uint64_t> page_zip_lob_deflate_n_fallback{0};
std::atomic<uint64_t> page_zip_codec_n_checks{0};
std::atomic<uint64_t> page_zip_codec_n_check_failures{0};
std::atomic<uint64_t> page_zip_codec_n_isal_errors{0};
std::atomic<uint64_t> page_zip_validate_n_pages{0};
std::atomic<uint64_t> page_zip_validate_n_lobs{0};

/* The inflate's counters live in page0zip_inflate.cc, which the tools'
decompression library shares. */
extern std::atomic<uint64_t> page_zip_inflate_n_fast;
extern std::atomic<uint64_t> page_zip_inflate_n_fallback;
extern std::atomic<uint64_t> page_zip_lob_inflate_n_fast;
extern std::atomic<uint64_t> page_zip_lob_inflate_n_fallback;

namespace {
/** Whether a failure of ISA-L was logged since the start. */
std::atomic<bool> page_zip_isal_error_logged{false};

/** "ISA-L x.y.z (...)" of this server, set at start */
char page_zip_isal_version[FN_REFLEN + 64] = "not built";

#ifdef HAVE_ISAL
/** dl_iterate_phdr() callback: the path of the loaded libisal.
@param[in]      info  a loaded object
@param[in,out]  data  buffer of FN_REFLEN bytes for the path
@return 1 when found (stops the walk) */
int page_zip_isal_find(struct dl_phdr_info *info, size_t, void *data) {
  const char *name = info->dlpi_name;
  if (name == nullptr || strstr(name, "libisal") == nullptr) {
    return 0;
  }
  char *out = static_cast<char *>(data);
  char resolved[PATH_MAX];
  /* The SONAME link (libisal.so.2) names the file with the full version
  (libisal.so.2.0.30 for ISA-L 2.30.0). */
  const char *path = realpath(name, resolved) != nullptr ? resolved : name;
  const size_t len = std::min(strlen(path), size_t{FN_REFLEN - 1});
  memcpy(out, path, len);
  out[len] = '\0';
  return 1;
}
#endif /* HAVE_ISAL */
}  // namespace

void page_zip_isal_error(const char *what, int code) {
  page_zip_codec_n_isal_errors.fetch_add(1, std::memory_order_relaxed);
  /* Once: an ISA-L that fails, fails for every page, and the counter
  says how often. exchange() cannot miss the first failure. */
  if (!page_zip_isal_error_logged.exchange(true)) {
    ib::warn(ER_IB_ZIP_CODEC_ISAL_ERROR, what, code);
  }
}

void page_zip_codec_log_versions() {
#ifdef HAVE_ISAL
  char loaded[FN_REFLEN] = "";
  dl_iterate_phdr(page_zip_isal_find, loaded);
  snprintf(page_zip_isal_version, sizeof page_zip_isal_version,
           "ISA-L built with %s, loaded from %s", HAVE_ISAL_VERSION,
           loaded[0] != '\0' ? loaded : "(not found)");
#endif /* HAVE_ISAL */
  ib::info(ER_IB_ZIP_CODEC_VERSIONS, page_zip_codec_names[page_zip_codec],
           page_zip_isal_version, zlibVersion());
}

const char *page_zip_codec_isal_version() { return page_zip_isal_version; }

void page_zip_codec_check_page(const page_zip_des_t *page_zip) {
  const ulint size = UNIV_PAGE_SIZE;
  auto *pages = static_cast<byte *>(
      ut::aligned_alloc_withkey(UT_NEW_THIS_FILE_PSI_KEY, 2 * size, size));
  if (pages == nullptr) {
    return;
  }
  page_zip_des_t zips[2] = {*page_zip, *page_zip};
  bool ok[2];
  bool fast_used = false;
  for (int i = 0; i < 2; i++) {
    page_zip_inflate_force(i);
    const uint64_t fast0 =
        page_zip_inflate_n_fast.load(std::memory_order_relaxed);
    memset(pages + i * size, 0, size);
    ok[i] = page_zip_decompress_low(&zips[i], pages + i * size, true);
    if (i == 1) {
      fast_used =
          page_zip_inflate_n_fast.load(std::memory_order_relaxed) != fast0;
    }
  }
  page_zip_inflate_force(-1);

  if (fast_used || !ok[0] || !ok[1]) {
    page_zip_codec_n_checks.fetch_add(1, std::memory_order_relaxed);
    if (ok[0] != ok[1] || !ok[0] ||
        memcmp(pages, pages + size, size) != 0 ||
        zips[0].m_end != zips[1].m_end || zips[0].n_blobs != zips[1].n_blobs) {
      page_zip_codec_n_check_failures.fetch_add(1, std::memory_order_relaxed);
      ib::error(ER_IB_ZIP_CODEC_CHECK_FAILED,
                static_cast<ulong>(page_zip_get_size(page_zip)),
                ok[0] ? "ok" : "failed", ok[1] ? "ok" : "failed");
    }
  }
  ut::aligned_free(pages);
}

#ifdef UNIV_ZIP_DEBUG
void page_zip_validate_log() {
  /* A diagnostic line of this build variant only: no message of its
  own (ER_IB_MSG_0, as InnoDB's other debug notes). */
  ib::info() << "Page validation (UNIV_ZIP_DEBUG): "
             << page_zip_validate_n_pages.load(std::memory_order_relaxed)
             << " compressed pages and "
             << page_zip_validate_n_lobs.load(std::memory_order_relaxed)
             << " BLOB streams validated since start";
}

void page_zip_validate_count_page() {
  page_zip_validate_n_pages.fetch_add(1, std::memory_order_relaxed);
}

void page_zip_lob_validate(const byte *in, ulint len, const byte *stream,
                           ulint stream_len) {
  /* zlib reads it back, as page_zip_lob_inflate() would after a refusal
  of the fast inflate: the bytes must be the input, and the stream must
  end exactly where it was said to. */
  byte *out = static_cast<byte *>(
      ut::malloc_withkey(UT_NEW_THIS_FILE_PSI_KEY, len + 1));
  ut_a(out != nullptr);
  z_stream zs{};
  ut_a(inflateInit(&zs) == Z_OK);
  zs.next_in = const_cast<byte *>(stream);
  zs.avail_in = static_cast<uInt>(stream_len);
  zs.next_out = out;
  zs.avail_out = static_cast<uInt>(len + 1);
  const int err = inflate(&zs, Z_FINISH);
  ut_a(err == Z_STREAM_END);
  ut_a(zs.total_out == len);
  ut_a(zs.avail_in == 0);
  ut_a(memcmp(out, in, len) == 0);
  inflateEnd(&zs);
  ut::free(out);
  page_zip_validate_n_lobs.fetch_add(1, std::memory_order_relaxed);
}
#endif /* UNIV_ZIP_DEBUG */

void page_zip_codec_stat_get(page_zip_codec_stat_t *stat) {
  for (ulint i = 0; i < PAGE_ZIP_CODEC_N; i++) {
    stat->compress[i] =
        page_zip_codec_n_compress[i].load(std::memory_order_relaxed);
  }
  stat->inflate_fast = page_zip_inflate_n_fast.load(std::memory_order_relaxed);
  stat->inflate_fast_fallback =
      page_zip_inflate_n_fallback.load(std::memory_order_relaxed);
  stat->checks = page_zip_codec_n_checks.load(std::memory_order_relaxed);
  stat->check_failures =
      page_zip_codec_n_check_failures.load(std::memory_order_relaxed);
  stat->lob_inflate_fast =
      page_zip_lob_inflate_n_fast.load(std::memory_order_relaxed);
  stat->lob_inflate_fast_fallback =
      page_zip_lob_inflate_n_fallback.load(std::memory_order_relaxed);
  stat->lob_deflate_fast =
      page_zip_lob_deflate_n_fast.load(std::memory_order_relaxed);
  stat->lob_deflate_fast_fallback =
      page_zip_lob_deflate_n_fallback.load(std::memory_order_relaxed);
  stat->compress_appended =
      page_zip_codec_n_appended.load(std::memory_order_relaxed);
  stat->compress_rescued =
      page_zip_codec_n_rescued.load(std::memory_order_relaxed);
  stat->isal_errors =
      page_zip_codec_n_isal_errors.load(std::memory_order_relaxed);
  stat->validated_pages =
      page_zip_validate_n_pages.load(std::memory_order_relaxed);
  stat->validated_lobs =
      page_zip_validate_n_lobs.load(std::memory_order_relaxed);
}

namespace {
/** SHOW STATUS callback of one codec counter.
@tparam  F  reads the counter from a snapshot */
template <uint64_t (*F)(const page_zip_codec_stat_t &)>
int page_zip_codec_show(THD *, SHOW_VAR *var, char *buff) {
  page_zip_codec_stat_t stat;
  page_zip_codec_stat_get(&stat);
  var->type = SHOW_LONGLONG;
  var->value = buff;
  var->scope = SHOW_SCOPE_GLOBAL;
  *reinterpret_cast<longlong *>(buff) = static_cast<longlong>(F(stat));
  return 0;
}
uint64_t stat_zlib(const page_zip_codec_stat_t &s) {
  return s.compress[PAGE_ZIP_CODEC_ZLIB];
}
uint64_t stat_isal(const page_zip_codec_stat_t &s) {
  return s.compress[PAGE_ZIP_CODEC_ISAL];
}
uint64_t stat_fast(const page_zip_codec_stat_t &s) { return s.inflate_fast; }
uint64_t stat_fallback(const page_zip_codec_stat_t &s) {
  return s.inflate_fast_fallback;
}
uint64_t stat_lob_fast(const page_zip_codec_stat_t &s) {
  return s.lob_inflate_fast;
}
uint64_t stat_lob_fallback(const page_zip_codec_stat_t &s) {
  return s.lob_inflate_fast_fallback;
}
uint64_t stat_lob_deflate_fast(const page_zip_codec_stat_t &s) {
  return s.lob_deflate_fast;
}
uint64_t stat_lob_deflate_fallback(const page_zip_codec_stat_t &s) {
  return s.lob_deflate_fast_fallback;
}
uint64_t stat_appended(const page_zip_codec_stat_t &s) {
  return s.compress_appended;
}
uint64_t stat_rescued(const page_zip_codec_stat_t &s) {
  return s.compress_rescued;
}
uint64_t stat_checks(const page_zip_codec_stat_t &s) { return s.checks; }
uint64_t stat_check_failures(const page_zip_codec_stat_t &s) {
  return s.check_failures;
}
uint64_t stat_isal_errors(const page_zip_codec_stat_t &s) {
  return s.isal_errors;
}
#ifdef UNIV_ZIP_DEBUG
uint64_t stat_validated_pages(const page_zip_codec_stat_t &s) {
  return s.validated_pages;
}
uint64_t stat_validated_lobs(const page_zip_codec_stat_t &s) {
  return s.validated_lobs;
}
#endif /* UNIV_ZIP_DEBUG */

/** SHOW STATUS Innodb_zip_codec_isal_version. */
int page_zip_codec_show_isal_version(THD *, SHOW_VAR *var, char *buff) {
  var->type = SHOW_CHAR;
  var->value = buff;
  var->scope = SHOW_SCOPE_GLOBAL;
  snprintf(buff, SHOW_VAR_FUNC_BUFF_SIZE, "%s", page_zip_isal_version);
  return 0;
}
}  // namespace

SHOW_VAR page_zip_codec_status_variables[] = {
    {"compress_zlib",
     (char *)&page_zip_codec_show<stat_zlib>, SHOW_FUNC, SHOW_SCOPE_GLOBAL},
    {"compress_isal",
     (char *)&page_zip_codec_show<stat_isal>, SHOW_FUNC, SHOW_SCOPE_GLOBAL},
    {"compress_appended",
     (char *)&page_zip_codec_show<stat_appended>, SHOW_FUNC,
     SHOW_SCOPE_GLOBAL},
    {"compress_rescued",
     (char *)&page_zip_codec_show<stat_rescued>, SHOW_FUNC,
     SHOW_SCOPE_GLOBAL},
    {"inflate_fast",
     (char *)&page_zip_codec_show<stat_fast>, SHOW_FUNC, SHOW_SCOPE_GLOBAL},
    {"inflate_fast_fallback",
     (char *)&page_zip_codec_show<stat_fallback>, SHOW_FUNC,
     SHOW_SCOPE_GLOBAL},
    {"lob_inflate_fast",
     (char *)&page_zip_codec_show<stat_lob_fast>, SHOW_FUNC,
     SHOW_SCOPE_GLOBAL},
    {"lob_inflate_fast_fallback",
     (char *)&page_zip_codec_show<stat_lob_fallback>, SHOW_FUNC,
     SHOW_SCOPE_GLOBAL},
    {"lob_deflate_fast",
     (char *)&page_zip_codec_show<stat_lob_deflate_fast>, SHOW_FUNC,
     SHOW_SCOPE_GLOBAL},
    {"lob_deflate_fast_fallback",
     (char *)&page_zip_codec_show<stat_lob_deflate_fallback>, SHOW_FUNC,
     SHOW_SCOPE_GLOBAL},
    {"checks", (char *)&page_zip_codec_show<stat_checks>,
     SHOW_FUNC, SHOW_SCOPE_GLOBAL},
    {"check_failures",
     (char *)&page_zip_codec_show<stat_check_failures>, SHOW_FUNC,
     SHOW_SCOPE_GLOBAL},
    {"isal_errors",
     (char *)&page_zip_codec_show<stat_isal_errors>, SHOW_FUNC,
     SHOW_SCOPE_GLOBAL},
    {"isal_version", (char *)&page_zip_codec_show_isal_version, SHOW_FUNC,
     SHOW_SCOPE_GLOBAL},
#ifdef UNIV_ZIP_DEBUG
    /* Only where the checks run: their presence tells a test (or a DBA)
    that this server validates what it writes. */
    {"validated_pages",
     (char *)&page_zip_codec_show<stat_validated_pages>, SHOW_FUNC,
     SHOW_SCOPE_GLOBAL},
    {"validated_lobs",
     (char *)&page_zip_codec_show<stat_validated_lobs>, SHOW_FUNC,
     SHOW_SCOPE_GLOBAL},
#endif /* UNIV_ZIP_DEBUG */
    {NullS, NullS, SHOW_LONG, SHOW_SCOPE_GLOBAL}};
