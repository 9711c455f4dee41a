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

/** @file handler/ha_innopart_zip.cc
 ROW_FORMAT and KEY_BLOCK_SIZE of a partition of its own
 (include/ha_innopart_zip.h).

 Created 2026-12-06 */

#include "ha_innopart_zip.h"

#include "sql/dd/properties.h"
#include "sql/dd/types/partition.h"
#include "sql/handler.h"
#include "sql/table.h"

bool innopart_own_row_format(const dd::Partition *part, row_type *type,
                             uint32_t *kbs) {
  const dd::Properties &options = part->options();
  uint32_t value = 0;
  uint32_t size = 0;

  /* Properties::get() returns true on failure. */
  if (!options.exists("row_type") || options.get("row_type", &value) ||
      value > static_cast<uint32_t>(ROW_TYPE_PAGED) ||
      (options.exists("key_block_size") &&
       options.get("key_block_size", &size))) {
    return false;
  }

  *type = static_cast<row_type>(value);
  *kbs = size;
  return true;
}

Innopart_row_format_scope::Innopart_row_format_scope(
    const dd::Partition *part, HA_CREATE_INFO *create_info, TABLE *form) {
  row_type type{};
  uint32_t kbs{0};

  if (!innopart_own_row_format(part, &type, &kbs)) {
    return;
  }

  TABLE_SHARE *share = form->s;

  m_create_info = create_info;
  m_row_type = create_info->row_type;
  m_key_block_size = create_info->key_block_size;
  m_share = share;
  m_share_row_type = share->row_type;
  m_share_real_row_type = share->real_row_type;
  m_share_key_block_size = share->key_block_size;

  create_info->row_type = type;
  create_info->key_block_size = kbs;
  share->row_type = type;
  share->key_block_size = kbs;
  /* create_table_info_t::innobase_table_flags() reads it for
  ROW_FORMAT=DEFAULT. A table gets it from dd::Table::row_format(), which
  the server set from handler::get_real_row_type() of its create options:
  do the same with the partition's. */
  share->real_row_type = innobase_get_real_row_type(create_info);
}

Innopart_row_format_scope::~Innopart_row_format_scope() {
  if (m_create_info == nullptr) {
    return;
  }

  m_create_info->row_type = m_row_type;
  m_create_info->key_block_size = m_key_block_size;
  m_share->row_type = m_share_row_type;
  m_share->real_row_type = m_share_real_row_type;
  m_share->key_block_size = m_share_key_block_size;
}
