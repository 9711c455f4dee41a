#!/bin/sh
# Build the codec microbenchmark (single gcc invocation).
# Needs: apt-get install libisal-dev libdeflate-dev zlib1g-dev
set -e
cd "$(dirname "$0")"
gcc -O2 -Wall -Wextra -std=gnu11 -o rawbench rawbench.c -lisal -ldeflate -lz
echo "built $(pwd)/rawbench; run: ./rawbench -t (tests only) or ./rawbench [-r PAGES_PER_TRIAL] [-k TRIALS]"
