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

/** @file handler/handler0zip_opt.h
 Per-table compression options in ENGINE_ATTRIBUTE: parsing, validation at
 CREATE and ALTER TABLE, and handing the values to dict0zip_opt.

 Accepted keys (a JSON object; a key whose value is null is as if absent):
 - "compression_level": integer 0..9, the zlib level of the table's pages
   (default: innodb_compression_level);
 - "compression_failure_threshold_pct": integer 0..100 (default:
   innodb_compression_failure_threshold_pct);
 - "compression_pad_pct_max": integer 0..75 (default:
   innodb_compression_pad_pct_max);
 - "compression_log_reorg_threshold_pct": integer 0..100 (default:
   innodb_compression_log_reorg_threshold_pct);
 - "compression_log_reserve_pct_max": integer 0..50 (default:
   innodb_compression_log_reserve_pct_max);
 - "compression_codec": "zlib" or "isal" (default:
   innodb_compression_codec).
 The list the parser uses is zip_opt_keys[] in handler0zip_opt.cc;
 docs/reference/variables.md documents each key.

 Bad input is an error (ER_ILLEGAL_HA_CREATE_OPTION with a message naming
 the key and the rule): not an object, an unknown key, a value that is not
 an integer, a value out of range, ENGINE_ATTRIBUTE on a column or an
 index. Malformed JSON is rejected by the parser before InnoDB sees it.
 Options on a table that is not ROW_FORMAT=COMPRESSED are an error with
 innodb_strict_mode=ON and a warning otherwise (they are then kept in the
 data dictionary but have no effect), as InnoDB does for KEY_BLOCK_SIZE.

 Created 2026-11-21 */

#ifndef handler0zip_opt_h
#define handler0zip_opt_h

#include <cstddef>
#include <string>

#include "dict0zip_opt.h"

class THD;
struct TABLE;
struct TABLE_SHARE;
struct HA_CREATE_INFO;
struct dict_table_t;

/** Parse the compression options of an ENGINE_ATTRIBUTE value.
@param[in]   str  attribute value (JSON), may be nullptr
@param[in]   len  its length
@param[out]  opt  options found (unset ones stay negative)
@param[out]  err  if not nullptr, what is wrong
@return true if the value is acceptable */
bool innobase_zip_opt_parse(const char *str, size_t len, dict_zip_opt_t *opt,
                            std::string *err);

/** Validate the ENGINE_ATTRIBUTE values of a table being created or
altered. Reports an error (or, for options on an uncompressed table in
non-strict mode, a warning).
@param[in]  thd          connection
@param[in]  form         the new table definition
@param[in]  create_info  create options (row format, key block size,
                         table ENGINE_ATTRIBUTE)
@param[in]  strict       innodb_strict_mode
@return nullptr if acceptable, else "ENGINE_ATTRIBUTE" (error reported) */
const char *innobase_zip_opt_invalid(THD *thd, const TABLE *form,
                                     const HA_CREATE_INFO *create_info,
                                     bool strict);

/** Reject ENGINE_ATTRIBUTE on columns and indexes, which InnoDB does not
use. Reports the error.
@param[in]  form  the new table definition
@return true if there is one */
bool innobase_zip_opt_column_or_index_attr(const TABLE *form);

/** Give a table object the options of its ENGINE_ATTRIBUTE, replacing any
it had. Only for an object no other connection uses yet: a table being
loaded from the data dictionary, created, or the new copy of a rebuild.
A table that is not compressed gets none.
@param[in,out]  table  table or partition in the dictionary cache
@param[in]      str    ENGINE_ATTRIBUTE value of the table, may be nullptr
@param[in]      len    its length */
void innobase_zip_opt_apply(dict_table_t *table, const char *str, size_t len);

/** Give a table object the options stored in a table share.
@see innobase_zip_opt_apply(dict_table_t*, const char*, size_t)
@param[in,out]  table  table or partition in the dictionary cache
@param[in]      share  table share of the same table definition */
void innobase_zip_opt_apply(dict_table_t *table, const TABLE_SHARE *share);

/** At the commit of an in-place ALTER TABLE that did not rebuild a table:
if the new definition gives the table other options, mark the table to be
reloaded from the committed data dictionary at its next open
(discard_after_ddl) instead of changing the live object before the DDL is
durable.
@param[in,out]  table  table or partition, not rebuilt
@param[in]      share  the new table definition */
void innobase_zip_opt_commit(dict_table_t *table, const TABLE_SHARE *share);

/** After EXCHANGE PARTITION swapped the data of a partition and a table:
if their options differ, reload both from the committed data dictionary.
@param[in,out]  part  the object that was the partition
@param[in,out]  swap  the object that was the table */
void innobase_zip_opt_exchange(dict_table_t *part, dict_table_t *swap);

#endif /* handler0zip_opt_h */
