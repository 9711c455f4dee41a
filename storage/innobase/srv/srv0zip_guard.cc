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

/** @file srv/srv0zip_guard.cc
 Crash recovery guard for compressed pages whose images were not logged.
 See include/srv0zip_guard.h.

 The file is read and written with the server's file API (mysys my_open(),
 my_read(), my_write(), my_sync(), my_rename(), my_delete(), my_close()),
 and nothing is allocated on the heap: paths and the recorded version live
 in fixed buffers.

 Created 2026-11-21 */

#include "srv0zip_guard.h"

#include <fcntl.h>
#include <zlib.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "fil0fil.h"
#include "log0recv.h"
#include "my_io.h"
#include "my_sys.h"
#include "my_thread_local.h"
#include "mysql/status_var.h"
#include "mysqld_error.h"
#include "srv0srv.h"
#include "ut0log.h"

bool srv_zip_guard_override = false;

namespace {

/** Longest version string kept. */
constexpr size_t ZIP_GUARD_MAX_LEN = 64;

/** The version read from the file; empty if there was no file. Written
only while the server starts single-threaded (before and after recovery),
read by the threads that apply redo. */
char srv_zip_guard_recorded[ZIP_GUARD_MAX_LEN + 1];

/** Whether the guard stopped recovery. */
std::atomic<bool> srv_zip_guard_stopped{false};

/** Whether the override was reported. */
std::atomic<bool> srv_zip_guard_override_noted{false};

/** Records applied by recovery that recompressed a page. */
std::atomic<uint64_t> srv_zip_guard_n_records{0};

/** @return whether a redo record makes recovery recompress a page */
bool srv_zip_guard_recompresses(mlog_id_t type) {
  return type == MLOG_ZIP_PAGE_COMPRESS_NO_DATA ||
         type == MLOG_ZIP_PAGE_REORGANIZE;
}

/** Write the directory of the file: innodb_data_home_dir, else the data
directory (as for ib_buffer_pool), ending with a path separator.
@param[out]  buf  buffer
@param[in]   len  size of the buffer
@return false if the path does not fit */
bool srv_zip_guard_dir(char *buf, size_t len) {
  const char *dir = srv_data_home != nullptr && srv_data_home[0] != '\0'
                        ? srv_data_home
                        : MySQL_datadir_path.path().c_str();
  const size_t n = strlen(dir);
  const bool sep = n > 0 && dir[n - 1] != OS_PATH_SEPARATOR;
  const int w = snprintf(buf, len, "%s%s", dir, sep ? OS_PATH_SEPARATOR_STR : "");
  return w >= 0 && static_cast<size_t>(w) < len;
}

/** Write the path of the file, with a suffix.
@param[out]  buf     buffer
@param[in]   len     size of the buffer
@param[in]   suffix  suffix ("" for the file itself)
@return false if the path does not fit */
bool srv_zip_guard_path(char *buf, size_t len, const char *suffix) {
  if (!srv_zip_guard_dir(buf, len)) {
    return false;
  }
  const size_t n = strlen(buf);
  const int w = snprintf(buf + n, len - n, "%s%s", ZIP_GUARD_FILE_NAME, suffix);
  return w >= 0 && static_cast<size_t>(w) < len - n;
}

/** Write a whole file durably: write a temporary file, sync it, rename it
over the file, sync the directory (where the platform can open one).
@param[in]   data  content
@param[in]   len   length of the content
@param[out]  path  the file, for messages (FN_REFLEN bytes)
@param[out]  err   my_errno() of the failure
@return true on success */
bool srv_zip_guard_write(const char *data, size_t len, char *path, int *err) {
  char tmp[FN_REFLEN];
  char dir[FN_REFLEN];
  *err = 0;
  if (!srv_zip_guard_path(path, FN_REFLEN, "") ||
      !srv_zip_guard_path(tmp, sizeof tmp, ".tmp") ||
      !srv_zip_guard_dir(dir, sizeof dir)) {
    *err = ENAMETOOLONG;
    return false;
  }

  const File fd = my_open(tmp, O_WRONLY | O_CREAT | O_TRUNC, MYF(0));
  if (fd < 0) {
    *err = my_errno();
    return false;
  }
  bool ok = my_write(fd, reinterpret_cast<const uchar *>(data), len,
                     MYF(MY_NABP)) == 0 &&
            my_sync(fd, MYF(0)) == 0;
  if (!ok) {
    *err = my_errno();
  }
  if (my_close(fd, MYF(0)) != 0 && ok) {
    *err = my_errno();
    ok = false;
  }
  if (ok && my_rename(tmp, path, MYF(0)) != 0) {
    *err = my_errno();
    ok = false;
  }
  if (!ok) {
    my_delete(tmp, MYF(0));
    return false;
  }

  /* Make the rename durable. Best effort: not every platform can open a
  directory, and the file is only a safety net. */
  const File dfd = my_open(dir, O_RDONLY, MYF(0));
  if (dfd >= 0) {
    my_sync(dfd, MYF(0));
    my_close(dfd, MYF(0));
  }
  return true;
}

/** Decide on a record that recovery is about to apply and that
recompresses a page.
@return true if recovery must stop (the error is logged once) */
bool srv_zip_guard_refuse() {
  const char *running = zlibVersion();

  if (srv_zip_guard_recorded[0] == '\0' ||
      strcmp(srv_zip_guard_recorded, running) == 0 ||
      srv_force_recovery >= SRV_FORCE_NO_LOG_REDO) {
    return false;
  }

  if (srv_zip_guard_override) {
    if (!srv_zip_guard_override_noted.exchange(true)) {
      ib::warn(ER_IB_ZIP_GUARD_OVERRIDDEN, srv_zip_guard_recorded, running);
    }
    return false;
  }

  if (!srv_zip_guard_stopped.exchange(true)) {
    ib::error(ER_IB_ZIP_GUARD_STOPPED, srv_zip_guard_recorded, running,
              srv_zip_guard_recorded);
  }
  return true;
}

}  // namespace

void srv_zip_guard_load() {
  srv_zip_guard_recorded[0] = '\0';
  srv_zip_guard_stopped.store(false);

  char path[FN_REFLEN];
  if (!srv_zip_guard_path(path, sizeof path, "")) {
    return;
  }
  const File fd = my_open(path, O_RDONLY, MYF(0));
  if (fd < 0) {
    return;
  }
  char buf[ZIP_GUARD_MAX_LEN + 1];
  const size_t n =
      my_read(fd, reinterpret_cast<uchar *>(buf), ZIP_GUARD_MAX_LEN, MYF(0));
  my_close(fd, MYF(0));
  if (n == MY_FILE_ERROR) {
    return;
  }
  buf[n] = '\0';
  buf[strcspn(buf, "\r\n")] = '\0';
  memcpy(srv_zip_guard_recorded, buf, strlen(buf) + 1);
}

void srv_zip_guard_store() {
  if (srv_read_only_mode) {
    return;
  }
  const char *running = zlibVersion();
  if (strcmp(srv_zip_guard_recorded, running) == 0) {
    return;
  }
  if (srv_zip_guard_recorded[0] != '\0') {
    ib::info(ER_IB_ZIP_GUARD_RECORDED, running, srv_zip_guard_recorded,
             running, ZIP_GUARD_FILE_NAME);
  }
  char line[ZIP_GUARD_MAX_LEN + 2];
  const int len = snprintf(line, sizeof line, "%s\n", running);
  char path[FN_REFLEN] = "";
  int err = 0;
  if (len < 0 || static_cast<size_t>(len) >= sizeof line) {
    /* A version this long is not a zlib version: keep nothing. */
    return;
  }
  if (!srv_zip_guard_write(line, static_cast<size_t>(len), path, &err)) {
    char msg[128];
    ib::warn(ER_IB_ZIP_GUARD_STORE_FAILED, running,
             path[0] != '\0' ? path : ZIP_GUARD_FILE_NAME,
             my_strerror(msg, sizeof msg, err));
    return;
  }
  /* The version is shorter than the line. */
  memcpy(srv_zip_guard_recorded, running, strlen(running) + 1);
}

bool srv_zip_guard_page(const recv_addr_t *recv_addr, lsn_t page_lsn,
                        lsn_t newest_lsn) {
  if (srv_zip_guard_stopped.load()) {
    /* Refused: leave every page alone until recovery stops. */
    return true;
  }

  /* The records recv_recover_page_func() will apply: those that start
  at or after the LSN of the page. Undo tablespaces, whose records it
  may also skip, hold no compressed page. */
  uint64_t n = 0;
  lsn_t lsn = page_lsn;
  for (const recv_t *recv : recv_addr->rec_list) {
    if (recv->type == MLOG_INIT_FILE_PAGE) {
      lsn = newest_lsn;
    }
    if (recv->start_lsn >= lsn && srv_zip_guard_recompresses(recv->type)) {
      n++;
    }
  }

  if (n == 0) {
    return false;
  }
  if (srv_zip_guard_refuse()) {
    return true;
  }
  srv_zip_guard_n_records.fetch_add(n, std::memory_order_relaxed);
  return false;
}

bool srv_zip_guard_tripped() { return srv_zip_guard_stopped.load(); }

uint64_t srv_zip_guard_recompress_records() {
  return srv_zip_guard_n_records.load(std::memory_order_relaxed);
}

int show_innodb_zip_recovery_recompress_records(THD *, SHOW_VAR *var,
                                                char *buff) {
  var->type = SHOW_LONGLONG;
  var->value = buff;
  var->scope = SHOW_SCOPE_GLOBAL;
  *reinterpret_cast<longlong *>(buff) =
      static_cast<longlong>(srv_zip_guard_recompress_records());
  return 0;
}
