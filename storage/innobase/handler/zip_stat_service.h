/*****************************************************************************

Copyright (c) 2026, the mysql-compress authors.

This program is free software; you can redistribute it and/or modify it under
the terms of the GNU General Public License, version 2.0, as published by the
Free Software Foundation.

*****************************************************************************/

/** @file handler/zip_stat_service.h
 The "innodb_compression_stats" component service, InnoDB side.

 Created 2026-11-21 */

#ifndef zip_stat_service_h
#define zip_stat_service_h

/** Register the service implementation "innodb_compression_stats.innodb"
in the component registry. Called at the end of innodb_init(). A failure is
logged and does not stop InnoDB. */
void innodb_zip_stat_service_register();

/** Unregister the service. Called from innodb_deinit(). */
void innodb_zip_stat_service_unregister();

#endif /* zip_stat_service_h */
