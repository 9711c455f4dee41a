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

/** @file fuzz/fuzz_common.h
 What the fuzz targets share: the globals that the tools linking InnoDB's
 decompression library (innochecksum, ibd2sdi) define themselves, and the
 one place that sets the logical page size for the library.

 Include it in exactly one translation unit per binary (each fuzz target
 is its own binary). */

#ifndef fuzz_common_h
#define fuzz_common_h

#include "my_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iostream>

#include "page0size.h"
#include "univ.i"

/* Replaces the declarations of srv0srv.cc, as innochecksum and ibd2sdi
do: the library reads the logical page size from these. */
ulong srv_page_size;
ulong srv_page_size_shift;
page_size_t univ_page_size(0, 0, false);

/** Error logging classes of the library (ut0ut.h), as in the tools. Quiet:
a fuzzer runs millions of inputs; ib::fatal still aborts. */
namespace ib {
logger::~logger() = default;
info::~info() = default;
warn::~warn() = default;
error::~error() = default;
fatal::~fatal() {
  std::cerr << "[FATAL] fuzz: " << m_oss.str() << std::endl;
  ut_error;
}
}  // namespace ib

/** Report a failed assertion (ut_a(), ut_error) and abort, as the tools
do: libFuzzer and the replay driver report the abort with the input. */
[[noreturn]] void ut_dbg_assertion_failed(const char *expr, const char *file,
                                          uint64_t line) {
  fprintf(stderr, "fuzz: Assertion failure in file %s line %llu\n", file,
          static_cast<unsigned long long>(line));
  if (expr != nullptr) {
    fprintf(stderr, "fuzz: Failing assertion: %s\n", expr);
  }
  fflush(stderr);
  abort();
}

namespace fuzz {

/** Set the logical page size (innodb_page_size) the library works with,
as ibd2sdi does once it has read the tablespace flags.
@param[in]  shift  12 (4 KB), 13 (8 KB) or 14 (16 KB) */
inline void set_logical_page_size(ulint shift) {
  srv_page_size_shift = shift;
  srv_page_size = 1UL << shift;
  univ_page_size.copy_from(page_size_t(srv_page_size, srv_page_size, false));
}

/** Read a big-endian 4-byte value. */
inline uint32_t be32(const unsigned char *p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) |
         (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

/** Whether the input is to be left out as an instance of a known bug
that is not fixed yet: FUZZ_SKIP in the environment lists the ids of
fuzz/known_bugs.txt, comma-separated (scripts/fuzz.sh run sets it; the
replay never does). A fuzzer that keeps finding one bug finds no other.
@param[in]  id  the bug's id */
inline bool skip_known(const char *id) {
  static const char *skip = getenv("FUZZ_SKIP");
  if (skip == nullptr) {
    return false;
  }
  const size_t n = strlen(id);
  for (const char *p = skip; (p = strstr(p, id)) != nullptr; p += n) {
    if ((p == skip || p[-1] == ',') && (p[n] == '\0' || p[n] == ',')) {
      return true;
    }
  }
  return false;
}

/** A difference between two implementations that must agree: abort, so
that libFuzzer and the replay driver both report it with the input. */
[[noreturn]] inline void mismatch(const char *what) {
  fprintf(stderr, "fuzz: MISMATCH: %s\n", what);
  fflush(stderr);
  abort();
}

}  // namespace fuzz

#endif /* fuzz_common_h */
