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

/** @file page/page0comp_est.cc
 Estimate of transparent page compression; see page0comp_est.h.

 How InnoDB writes a page of a tablespace with COMPRESSION='zlib' or 'lz4'
 (fil_io() and os_file_compress_page() in os0file.cc): page 0 as it is;
 every other page but R-tree pages has its content after the 38-byte FIL
 header compressed (compress2() at innodb_compression_level, or
 LZ4_compress_default()), must fit in the page less one file system block,
 gets its compression header in the FIL header and is rounded up to a
 whole block; the rest of the page is punched out of the file. A page that
 does not fit is written whole. The estimate calls that function itself on
 the pages the estimator builds, so that what it counts is what the server
 would write.

 Created 2026-11-25 */

#include "page0comp_est.h"

#include <algorithm>
#include <atomic>
#include <string>

#include "fil0fil.h"
#include "fil0sparse.h"
#include "fsp0fsp.h"
#include "lob0pages.h"
#include "os0file.h"
#include "srv0srv.h"

namespace {

/** Counter that makes the names of probe files unique in this process. */
std::atomic<uint64_t> page_comp_est_probe_no{0};

/** Whether the file system of a directory punches holes: a scratch file
(not a tablespace, never the table's own file) gets two blocks, the first
is punched out, and the file is removed.
@param[in]  dir         directory of the table's file, with its separator
@param[in]  block_size  file system block size
@return true if the hole was punched */
bool page_comp_est_probe(const std::string &dir, ulint block_size) {
  bool ok = false;
  DBUG_EXECUTE_IF("page_comp_est_no_punch_hole", return false;);
  const std::string name =
      dir + "#compression_est_probe." + std::to_string(os_proc_get_number()) +
      "." + std::to_string(page_comp_est_probe_no.fetch_add(1));
  bool success = false;
  pfs_os_file_t fh = os_file_create_simple_no_error_handling(
      innodb_temp_file_key, name.c_str(), OS_FILE_CREATE, OS_FILE_READ_WRITE,
      false, &success);
  if (!success) {
    /* The directory cannot take a new file (permissions, space): the
    server's own check would not run either; keep to the file's flag. */
    return true;
  }
  /* Two blocks of zeros (a block is at most half of a page of at most
  UNIV_ZIP_SIZE_MAX here: the estimator runs only where pages can be
  compressed). The file is not opened with O_DIRECT. */
  byte buf[UNIV_ZIP_SIZE_MAX] = {};
  IORequest request(IORequest::WRITE);
  if (2 * block_size <= sizeof buf &&
      os_file_write(request, name.c_str(), fh, buf, 0, 2 * block_size) ==
          DB_SUCCESS) {
    ok = os_file_punch_hole(fh.m_file, 0, block_size) == DB_SUCCESS;
  }
  os_file_close(fh);
  os_file_delete_if_exists(innodb_temp_file_key, name.c_str(), nullptr);
  return ok;
}

}  // namespace

void page_comp_est_file(space_id_t space_id, page_comp_est_file_t *file) {
  *file = page_comp_est_file_t{};
  fil_space_t *space = fil_space_acquire_silent(space_id);
  if (space == nullptr) {
    return;
  }
  file->current = static_cast<uint32_t>(space->compression_type);
  std::string path;
  bool punch_hole = false;
  if (!space->files.empty()) {
    const fil_node_t &node = space->files.front();
    path = node.name;
    file->block_size = static_cast<uint32_t>(node.block_size);
    punch_hole = node.punch_hole;
  }
  const bool per_table = fsp_is_file_per_table(space_id, space->flags) &&
                         !fsp_is_system_temporary(space_id);
  fil_space_release(space);

  if (!per_table) {
    file->status = INNODB_ZIP_EST_PAGE_SHARED_TABLESPACE;
    return;
  }
  os_file_stat_t stat_info{};
  if (!path.empty() &&
      os_file_get_status(path.c_str(), &stat_info, false, true) ==
          DB_SUCCESS) {
    file->file_bytes = stat_info.size;
    file->allocated_bytes = stat_info.alloc_size;
    if (stat_info.block_size != 0) {
      file->block_size = stat_info.block_size;
    }
    /* What the free pages of a page-compressed file take: holes with
    innodb_page_compression_sparse, whole pages without (or before). */
    if (file->current != 0) {
      file->free_measured =
          fil_sparse_free_allocated(space_id, &file->free_allocated_bytes);
    }
  }
  if (file->block_size == 0 || file->block_size * 2 > UNIV_PAGE_SIZE) {
    file->status = INNODB_ZIP_EST_PAGE_BLOCK_SIZE;
    return;
  }
  /* A conversion writes a new file beside this one, which InnoDB tests
  when it creates it (os_is_sparse_file_supported()): the file system is
  asked the same way. The flag of this file says nothing of that new file
  (it is off for a ROW_FORMAT=COMPRESSED tablespace, and it is not tested
  when an existing file is opened); it is all there is in read-only mode. */
  const auto sep = path.find_last_of(OS_PATH_SEPARATOR);
  const std::string dir =
      sep == std::string::npos ? std::string() : path.substr(0, sep + 1);
  const bool fs_ok = srv_read_only_mode
                         ? punch_hole
                         : page_comp_est_probe(dir, file->block_size);
  if (!IORequest::is_punch_hole_supported() || !fs_ok) {
    file->status = INNODB_ZIP_EST_PAGE_NO_PUNCH_HOLE;
    return;
  }
  file->status = INNODB_ZIP_EST_PAGE_OK;
}

void page_comp_est_page(const byte *page, ulint block_size, byte *scratch,
                        uint32_t bytes[INNODB_ZIP_EST_N_PAGE_METHODS]) {
  for (ulint m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
    const Compression compression(
        static_cast<Compression::Type>(Compression::ZLIB + m));
    ulint len = UNIV_PAGE_SIZE;
    /* The function reads the source only. */
    os_file_compress_page(compression, block_size, const_cast<byte *>(page),
                          UNIV_PAGE_SIZE, scratch, &len);
    bytes[m] = static_cast<uint32_t>(len);
  }
}

void page_comp_est_lob(const byte *data, ulint len, bool complete,
                       ulint block_size, byte *page, byte *scratch,
                       double *n_pages,
                       double bytes[INNODB_ZIP_EST_N_PAGE_METHODS]) {
  const ulint payload = lob::data_page_t::payload();
  for (ulint off = 0; off < len; off += payload) {
    const ulint n = std::min(payload, len - off);
    if (n < payload && !complete) {
      /* The end of a prefix: the page would be fuller. */
      break;
    }
    /* A fresh page is zeroed (fsp_init_file_page()); the header of a data
    page is small against its payload. */
    memset(page, 0, UNIV_PAGE_SIZE);
    mach_write_to_2(page + FIL_PAGE_TYPE, FIL_PAGE_TYPE_LOB_DATA);
    memcpy(page + lob::data_page_t::LOB_PAGE_DATA, data + off, n);
    uint32_t b[INNODB_ZIP_EST_N_PAGE_METHODS];
    page_comp_est_page(page, block_size, scratch, b);
    *n_pages += 1;
    for (ulint m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
      bytes[m] += b[m];
    }
  }
}
