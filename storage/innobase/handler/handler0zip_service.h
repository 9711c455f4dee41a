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

/** @file handler/handler0zip_service.h
 The "innodb_compression_stats" component service, InnoDB side.

 Created 2026-11-21 */

#ifndef handler0zip_service_h
#define handler0zip_service_h

/** Register the service implementation "innodb_compression_stats.innodb"
in the component registry. Called at the end of innodb_init(). A failure is
logged and does not stop InnoDB. */
void innodb_zip_stat_service_register();

/** Unregister the service. Called from innodb_deinit(). */
void innodb_zip_stat_service_unregister();

#endif /* handler0zip_service_h */
