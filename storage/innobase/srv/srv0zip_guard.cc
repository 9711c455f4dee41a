/*****************************************************************************

Copyright (c) 2026, the mysql-compress authors.

This program is free software; you can redistribute it and/or modify it under
the terms of the GNU General Public License, version 2.0, as published by the
Free Software Foundation.

This program is distributed in the hope that it will be useful, but WITHOUT
ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
FOR A PARTICULAR PURPOSE. See the GNU General Public License, version 2.0,
for more details.

*****************************************************************************/

/** @file srv/srv0zip_guard.cc
 Crash recovery guard for compressed pages whose images were not logged.
 See include/srv0zip_guard.h.

 Created 2026-11-21 */

#include "srv0zip_guard.h"

#include <zlib.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <unistd.h>

#include "fil0fil.h"
#include "mysqld_error.h"
#include "srv0srv.h"
#include "ut0log.h"

bool srv_zip_guard_override = false;

namespace {

/** The version read from the file; empty if there was no file. */
std::string srv_zip_guard_recorded;

/** Whether the guard stopped recovery. */
std::atomic<bool> srv_zip_guard_stopped{false};

/** Whether the override was reported. */
std::atomic<bool> srv_zip_guard_override_noted{false};

/** Records met by recovery that recompress a page. */
std::atomic<uint64_t> srv_zip_guard_n_records{0};

/** Longest version string kept. */
constexpr size_t ZIP_GUARD_MAX_LEN = 64;

/** @return the directory of the file: innodb_data_home_dir, else the
data directory (as for ib_buffer_pool) */
std::string srv_zip_guard_dir() {
  return std::string(srv_data_home != nullptr && srv_data_home[0] != '\0'
                         ? srv_data_home
                         : MySQL_datadir_path.path().c_str());
}

/** @return the path of the file */
std::string srv_zip_guard_path() {
  std::string dir = srv_zip_guard_dir();
  if (!dir.empty() && dir.back() != OS_PATH_SEPARATOR) {
    dir += OS_PATH_SEPARATOR;
  }
  return dir + ZIP_GUARD_FILE_NAME;
}

/** Write a whole file durably: write a temporary file, fsync it, rename it
over the file, fsync the directory.
@param[in]  path  file
@param[in]  data  content
@return true on success */
bool srv_zip_guard_write(const std::string &path, const std::string &data) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0640);
  if (fd < 0) {
    return false;
  }
  const bool ok = ::write(fd, data.data(), data.size()) ==
                      static_cast<ssize_t>(data.size()) &&
                  ::fsync(fd) == 0;
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    return false;
  }
  const int dfd = ::open(srv_zip_guard_dir().c_str(), O_RDONLY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return true;
}

}  // namespace

void srv_zip_guard_load() {
  srv_zip_guard_recorded.clear();
  srv_zip_guard_stopped.store(false);

  FILE *f = fopen(srv_zip_guard_path().c_str(), "r");
  if (f == nullptr) {
    return;
  }
  char buf[ZIP_GUARD_MAX_LEN + 1];
  if (fgets(buf, sizeof buf, f) != nullptr) {
    buf[strcspn(buf, "\r\n")] = '\0';
    srv_zip_guard_recorded = buf;
  }
  fclose(f);
}

void srv_zip_guard_store() {
  if (srv_read_only_mode) {
    return;
  }
  const char *running = zlibVersion();
  if (srv_zip_guard_recorded == running) {
    return;
  }
  if (!srv_zip_guard_recorded.empty()) {
    ib::info(ER_IB_MSG_1123, running)
        << " (the data directory recorded zlib " << srv_zip_guard_recorded
        << "; now recording " << running << " in " << ZIP_GUARD_FILE_NAME
        << ")";
  }
  if (!srv_zip_guard_write(srv_zip_guard_path(),
                           std::string(running) + "\n")) {
    ib::warn(ER_IB_MSG_1123, running)
        << " (could not record the zlib version in " << srv_zip_guard_path()
        << ": " << strerror(errno) << ")";
    return;
  }
  srv_zip_guard_recorded = running;
}

bool recv_zip_guard_check(mlog_id_t type) {
  if (type != MLOG_ZIP_PAGE_COMPRESS_NO_DATA &&
      type != MLOG_ZIP_PAGE_REORGANIZE) {
    return false;
  }

  srv_zip_guard_n_records.fetch_add(1, std::memory_order_relaxed);

  const char *running = zlibVersion();

  if (srv_zip_guard_recorded.empty() || srv_zip_guard_recorded == running ||
      srv_force_recovery >= SRV_FORCE_NO_LOG_REDO) {
    return false;
  }

  if (srv_zip_guard_override) {
    if (!srv_zip_guard_override_noted.exchange(true)) {
      ib::warn(ER_IB_MSG_1123, running)
          << " (crash recovery recompresses pages of ROW_FORMAT=COMPRESSED "
             "tables that were written with zlib "
          << srv_zip_guard_recorded
          << "; allowed by innodb_compression_recovery_zlib_override=ON)";
    }
    return false;
  }

  if (!srv_zip_guard_stopped.exchange(true)) {
    ib::error(ER_IB_MSG_1123, running)
        << " (crash recovery stopped: the redo log holds compressed pages "
           "logged without their images (innodb_log_compressed_pages=OFF), "
           "which recovery must recompress, but they were written with zlib "
        << srv_zip_guard_recorded << " and this server uses zlib " << running
        << "; recompressing them with another zlib version can corrupt "
           "them. Start the server build that uses zlib "
        << srv_zip_guard_recorded
        << " to finish recovery, or, to accept the risk, start once with "
           "--innodb-compression-recovery-zlib-override=ON)";
  }
  return true;
}

bool recv_zip_guard_tripped() { return srv_zip_guard_stopped.load(); }

uint64_t recv_zip_guard_recompress_records() {
  return srv_zip_guard_n_records.load(std::memory_order_relaxed);
}
