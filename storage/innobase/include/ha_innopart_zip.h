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

/** @file include/ha_innopart_zip.h
 ROW_FORMAT and KEY_BLOCK_SIZE of a partition of its own.

 A partition or subpartition may give a ROW_FORMAT and KEY_BLOCK_SIZE of
 its own:
   PARTITION p2025 VALUES LESS THAN (2026) ROW_FORMAT=COMPRESSED
   KEY_BLOCK_SIZE=8
 The server keeps them in dd::Partition::options() under "row_type" (the
 enum row_type value) and "key_block_size" (KB, 0 if none), both present
 only when the partition gave either option (set_partition_options() in
 sql/dd/dd_table.cc). KEY_BLOCK_SIZE alone is kept with ROW_TYPE_DEFAULT,
 which InnoDB turns into COMPRESSED as it does for a table. A partition
 without the keys has the table's options.

 InnoDB uses the pair wherever it creates or opens a partition:
 - CREATE TABLE (ha_innopart::create()), ADD, REORGANIZE, COALESCE and
   REBUILD PARTITION (alter_part::create()) and the in-place rebuild of a
   partitioned table (ha_innopart::prepare_inplace_alter_table()) create
   each partition inside an Innopart_row_format_scope, which gives the
   partition's pair to the create options and to the statement's own
   TABLE_SHARE, where create_table_info_t reads them;
 - opening (dd_fill_dict_table()) hands the pair to format_validate()
   and leaves the TABLE_SHARE alone: the table definition cache shares it;
 - TRUNCATE keeps the old table flags of the partition
   (innobase_truncate::prepare()) and takes its KEY_BLOCK_SIZE.
 As before, a partition whose real row format differs from the table's
 (dd::Table::row_format()) has it in its se_private_data "format"
 (dd_set_table_options()); its compressed page size follows from its
 KEY_BLOCK_SIZE as a table's does.

 Created 2026-12-06 */

#ifndef ha_innopart_zip_h
#define ha_innopart_zip_h

#include <cstdint>

enum row_type : int;
struct HA_CREATE_INFO;
struct TABLE;
struct TABLE_SHARE;

namespace dd {
class Partition;
}  // namespace dd

/** Read the ROW_FORMAT and KEY_BLOCK_SIZE a partition has of its own.
A value that cannot be read is as if the partition had none, as in
get_partition_options() of sql/dd_table_share.cc.
@param[in]   part  leaf partition (partition or subpartition)
@param[out]  type  its ROW_FORMAT; ROW_TYPE_DEFAULT if it gave only
                   KEY_BLOCK_SIZE
@param[out]  kbs   its KEY_BLOCK_SIZE in KB, 0 if none
@return whether the partition has its own pair; if not, *type and *kbs
are left as they are */
bool innopart_own_row_format(const dd::Partition *part, row_type *type,
                             uint32_t *kbs);

/** The row format InnoDB creates a table in for the given create
options: ha_innobase::get_real_row_type(), which the server stores as
dd::Table::row_format(). Defined in ha_innodb.cc.
@param[in]  create_info  create options
@return ROW_TYPE_REDUNDANT, ROW_TYPE_COMPACT, ROW_TYPE_DYNAMIC or
ROW_TYPE_COMPRESSED */
row_type innobase_get_real_row_type(const HA_CREATE_INFO *create_info);

/** Gives one partition its own ROW_FORMAT and KEY_BLOCK_SIZE for the
time it is created. create_table_info_t reads them from the create
options (row_type, key_block_size) and from the TABLE_SHARE (row_type,
real_row_type), and asserts that both row types agree. If the partition
has its own pair, the constructor sets all of them, and the share's
key_block_size, to the partition's, with real_row_type as the server
would have computed it for a table with these options; the destructor
puts the old values back. A partition without a pair changes nothing.

Use it only with a TABLE that belongs to the statement, whose
TABLE_SHARE no other thread can see: the one ha_create_table() builds
for CREATE TABLE, or the altered TABLE of ALTER TABLE. Never with an
open table's share, which the table definition cache shares. */
class Innopart_row_format_scope {
 public:
  /** Give a partition its own ROW_FORMAT and KEY_BLOCK_SIZE.
  @param[in]      part         leaf partition to be created
  @param[in,out]  create_info  create options; tablespace already set
                               for this partition
  @param[in,out]  form         table definition of the statement */
  Innopart_row_format_scope(const dd::Partition *part,
                            HA_CREATE_INFO *create_info, TABLE *form);

  /** Put the table's values back. */
  ~Innopart_row_format_scope();

  Innopart_row_format_scope(const Innopart_row_format_scope &) = delete;
  Innopart_row_format_scope &operator=(const Innopart_row_format_scope &) =
      delete;

 private:
  /** Create options changed, or nullptr if nothing was changed */
  HA_CREATE_INFO *m_create_info{nullptr};

  /** Table share changed, or nullptr if nothing was changed */
  TABLE_SHARE *m_share{nullptr};

  /** Old HA_CREATE_INFO::row_type */
  row_type m_row_type{};

  /** Old HA_CREATE_INFO::key_block_size */
  uint32_t m_key_block_size{0};

  /** Old TABLE_SHARE::row_type */
  row_type m_share_row_type{};

  /** Old TABLE_SHARE::real_row_type */
  row_type m_share_real_row_type{};

  /** Old TABLE_SHARE::key_block_size */
  uint32_t m_share_key_block_size{0};
};

#endif /* ha_innopart_zip_h */
