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

/** @file fuzz/replay_main.cc
 A main() for the fuzz targets without libFuzzer: runs every file named on
 the command line, and every regular file of every directory named, once
 through LLVMFuzzerTestOneInput(), in name order. Built with g++ and
 -fsanitize=address,undefined -fno-sanitize-recover=all by
 scripts/fuzz.sh, so that CI replays the committed corpora without clang:
 any sanitizer report (or abort) ends the process non-zero, after the name
 of the input is printed.

 Prints "<n> inputs" on success; on a failure, the input's name after
 the report. REPLAY_VERBOSE=1 names each input before it runs. */

#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

/** The input being run, for the message of a failure. */
const char *current = "";

/** Name the input that failed: AddressSanitizer's and
UndefinedBehaviorSanitizer's reports end in their death callback, an
assertion or a mismatch of two implementations in abort(). */
void name_current() {
  static const char msg[] = "replay: FAILED on input ";
  (void)!write(2, msg, sizeof msg - 1);
  (void)!write(2, current, strlen(current));
  (void)!write(2, "\n", 1);
}

extern "C" void on_abort(int) {
  name_current();
  signal(SIGABRT, SIG_DFL);
  raise(SIGABRT);
}

}  // namespace

extern "C" void __sanitizer_set_death_callback(void (*callback)(void));

int main(int argc, char **argv) {
  __sanitizer_set_death_callback(name_current);
  signal(SIGABRT, on_abort);
  const bool verbose = getenv("REPLAY_VERBOSE") != nullptr;
  std::vector<std::string> files;
  for (int i = 1; i < argc; i++) {
    if (!fuzz::collect(argv[i], &files)) {
      return 2;
    }
  }
  size_t n = 0;
  for (const std::string &f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      fprintf(stderr, "replay: cannot read %s\n", f.c_str());
      return 2;
    }
    const std::vector<char> buf((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
    current = f.c_str();
    if (verbose) {
      fprintf(stderr, "replay: %s\n", current);
    }
    /* A copy of exactly the input's size, as libFuzzer passes it, so that
    a read past the input is caught too. */
    std::vector<uint8_t> data(buf.begin(), buf.end());
    uint8_t *p = data.empty() ? nullptr : data.data();
    LLVMFuzzerTestOneInput(p, data.size());
    n++;
  }
  printf("%zu inputs\n", n);
  return 0;
}
