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

/** @file fuzz/bench_main.cc
 A main() that times the page decompression of the page_decompress target
 (scripts/fuzz.sh bench): the inputs named on the command line (files, or
 the regular files of directories; the seed corpus holds real pages) are
 read into memory once, then run ROUNDS times through
 LLVMFuzzerTestOneInput() with fuzz_bench_on set, which decompresses each
 with zlib only (both the patched and the upstream library have it) and
 adds the time spent in page_zip_decompress_low() alone to fuzz_bench_ns.
 Built with g++ -O2, without sanitizers, once against the patched tree
 and once against the upstream one, so that the cost of the checks of
 patches 0034 and 0035 on good pages is measured on the same bytes.

 Usage: bench ROUNDS PATH...
 Prints one line: inputs, decompressions, pages returned, total and
 per-decompression nanoseconds. */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" bool fuzz_bench_on;
extern "C" uint64_t fuzz_bench_ns, fuzz_bench_calls, fuzz_bench_ok;


int main(int argc, char **argv) {
  if (argc < 3 || atoi(argv[1]) < 1) {
    fprintf(stderr, "usage: %s ROUNDS PATH...\n", argv[0]);
    return 2;
  }
  const int rounds = atoi(argv[1]);
  std::vector<std::string> files;
  for (int i = 2; i < argc; i++) {
    if (!fuzz::collect(argv[i], &files)) {
      return 2;
    }
  }
  std::vector<std::vector<uint8_t>> inputs;
  for (const std::string &f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      fprintf(stderr, "bench: cannot read %s\n", f.c_str());
      return 2;
    }
    inputs.emplace_back((std::istreambuf_iterator<char>(in)),
                        std::istreambuf_iterator<char>());
  }
  fuzz_bench_on = true;
  /* One round to warm the caches and the allocator, not counted. */
  for (const auto &in : inputs) {
    LLVMFuzzerTestOneInput(in.data(), in.size());
  }
  fuzz_bench_ns = fuzz_bench_calls = fuzz_bench_ok = 0;
  for (int r = 0; r < rounds; r++) {
    for (const auto &in : inputs) {
      LLVMFuzzerTestOneInput(in.data(), in.size());
    }
  }
  printf("inputs %zu decompressions %llu returned %llu ns %llu ns_per_page %.1f\n",
         inputs.size(), (unsigned long long)fuzz_bench_calls,
         (unsigned long long)fuzz_bench_ok, (unsigned long long)fuzz_bench_ns,
         fuzz_bench_calls ? double(fuzz_bench_ns) / double(fuzz_bench_calls)
                          : 0.0);
  return fuzz_bench_calls ? 0 : 1;
}
