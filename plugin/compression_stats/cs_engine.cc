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
  @file plugin/compression_stats/cs_engine.cc
  Acquires and calls the "innodb_compression_stats" component service.
*/

#include "plugin/compression_stats/cs_engine.h"

#include <mysql/components/services/mysql_system_variable.h>
#include <mysql/components/services/registry.h>
#include <mysql/plugin.h>

#include <cstdlib>
#include <mysql/service_plugin_registry.h>

#include "mysql/components/services/log_builtins.h"
#include "mysqld_error.h"

namespace compression_stats {

namespace {
SERVICE_TYPE(registry) *reg_srv = nullptr;
SERVICE_TYPE(innodb_compression_stats) *zip_srv = nullptr;
SERVICE_TYPE(innodb_compression_estimate) *est_srv = nullptr;
}  // namespace

bool engine_acquire() {
  reg_srv = mysql_plugin_registry_acquire();
  if (reg_srv == nullptr) {
    return true;
  }
  my_h_service h = nullptr;
  if (reg_srv->acquire("innodb_compression_stats", &h) || h == nullptr) {
    mysql_plugin_registry_release(reg_srv);
    reg_srv = nullptr;
    return true;
  }
  zip_srv = reinterpret_cast<SERVICE_TYPE(innodb_compression_stats) *>(h);
  /* The estimator is optional: without it, COMPRESSION_STATS still works
  and the estimate function reports that it is missing. */
  h = nullptr;
  if (!reg_srv->acquire("innodb_compression_estimate", &h) && h != nullptr) {
    est_srv = reinterpret_cast<SERVICE_TYPE(innodb_compression_estimate) *>(h);
  }
  return false;
}

void engine_release() {
  using est_t = SERVICE_TYPE_NO_CONST(innodb_compression_estimate);
  if (est_srv != nullptr) {
    reg_srv->release(
        reinterpret_cast<my_h_service>(const_cast<est_t *>(est_srv)));
    est_srv = nullptr;
  }
  using svc_t = SERVICE_TYPE_NO_CONST(innodb_compression_stats);
  if (zip_srv != nullptr) {
    reg_srv->release(
        reinterpret_cast<my_h_service>(const_cast<svc_t *>(zip_srv)));
    zip_srv = nullptr;
  }
  if (reg_srv != nullptr) {
    mysql_plugin_registry_release(reg_srv);
    reg_srv = nullptr;
  }
}

bool engine_get_table(const char *schema, const char *table, uint64_t table_id,
                      innodb_zip_table_stats_t *out) {
  if (zip_srv == nullptr) {
    return true;
  }
  return zip_srv->get_table_stats_by_name(schema, table, table_id, out,
                                          sizeof(*out));
}

int engine_estimate(uint64_t table_id, uint64_t sample_pages, bool full_scan,
                    innodb_zip_est_progress_t progress, void *ctx,
                    innodb_zip_estimate_t *out) {
  if (est_srv == nullptr) {
    return INNODB_ZIP_EST_NO_TABLE;
  }
  memset(out, 0, sizeof(*out));
  const int err = est_srv->estimate_table(
      table_id, sample_pages, full_scan ? 1 : 0, progress, ctx, out,
      sizeof(*out));
  if (out->size < offsetof(innodb_zip_estimate_t, page_status) +
                      sizeof(out->page_status)) {
    /* An engine without the page compression estimate. */
    out->page_status = INNODB_ZIP_EST_PAGE_NOT_ESTIMATED;
  }
  if (out->size < offsetof(innodb_zip_estimate_t, file_free_measured) +
                      sizeof(out->file_free_measured)) {
    /* An engine that does not measure the free pages of the file. */
    out->file_free_measured = 0;
  }
  if (out->size < offsetof(innodb_zip_estimate_t, rebuilt_file_estimated) +
                      sizeof(out->rebuilt_file_estimated)) {
    /* An engine that does not estimate the rebuilt file. */
    out->rebuilt_file_estimated = 0;
  }
  return err;
}

bool engine_has_estimator() { return est_srv != nullptr; }

unsigned engine_page_kb() {
  if (reg_srv == nullptr) {
    return 0;
  }
  my_h_service h = nullptr;
  if (reg_srv->acquire("mysql_system_variable_reader", &h) || h == nullptr) {
    return 0;
  }
  auto *svc =
      reinterpret_cast<SERVICE_TYPE(mysql_system_variable_reader) *>(h);
  char buf[32] = {0};
  void *val = buf;
  size_t len = sizeof buf - 1;
  unsigned kb = 0;
  if (!svc->get(nullptr, "GLOBAL", "mysql_server", "innodb_page_size", &val,
                &len)) {
    kb = static_cast<unsigned>(strtoul(static_cast<char *>(val), nullptr, 10) /
                               1024);
  }
  reg_srv->release(h);
  return kb;
}

}  // namespace compression_stats
