/* Copyright (c) 2026, the mysql-compress authors.

This program is free software; you can redistribute it and/or modify it under
the terms of the GNU General Public License, version 2.0, as published by the
Free Software Foundation. */

#ifndef PLUGIN_COMPRESSION_STATS_CS_ENGINE_H
#define PLUGIN_COMPRESSION_STATS_CS_ENGINE_H

/**
  @file plugin/compression_stats/cs_engine.h
  Access to InnoDB's compression statistics through the component service
  "innodb_compression_stats" (the plugin never reaches into InnoDB).
*/

#include <mysql/components/services/innodb_compression_stats.h>

#include <cstdint>

namespace compression_stats {

/** Acquire the service. @return true on failure (error already logged). */
bool engine_acquire();

/** Release the service. */
void engine_release();

/** Read the statistics of one table or partition.
@param table_id  InnoDB table id (dd se_private_id)
@param[out] out  statistics
@return true if the table is not available */
bool engine_get_table(uint64_t table_id, innodb_zip_table_stats_t *out);

}  // namespace compression_stats

#endif  // PLUGIN_COMPRESSION_STATS_CS_ENGINE_H
