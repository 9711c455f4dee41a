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

/** @file btr/btr0load_zip.cc
 Global variables of the tight split of the B-tree bulk loader.

 Created 2026-11-23 */

#include "btr0load_zip.h"

ulong btr_load_zip_split = BTR_LOAD_ZIP_SPLIT_TIGHT;

ulong btr_load_zip_free_pct = 3;
