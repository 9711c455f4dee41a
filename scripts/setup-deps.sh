#!/usr/bin/env bash
# Installs the Debian 12 packages needed to fetch, build and test the patched
# MySQL 9.7.2. Idempotent: packages already present are not reinstalled.
set -euo pipefail

PKGS=(
  build-essential cmake ninja-build ccache bison pkgconf dpkg-dev
  libssl-dev libtirpc-dev rpcsvc-proto libedit-dev libncurses-dev
  zlib1g-dev libzstd-dev liblz4-dev libicu-dev libprotobuf-dev
  libprotoc-dev protobuf-compiler libaio-dev libnuma-dev
  perl libjson-perl python3 gcovr quilt patch
  unzip  # compress.upgrade_stock84 unpacks a stock data directory
  # the fast page codec (innodb_compression_codec=isal): ISA-L's igzip for
  # deflate and inflate. Optional for the build: without it InnoDB builds
  # on zlib alone and says so at configure time.
  libisal-dev
)
# bench/run.sh: the benchmark's own packages.
if [ "${1:-}" = "--bench" ]; then
  PKGS=(sysbench valgrind python3-matplotlib
        # bench/wiki/make_corpus.py: the English text of the wiki table
        linux-doc-6.1 python3.11-doc perl-doc
        dict-gcide dict-foldoc dict-jargon dict-devil)
fi
# scripts/zipdebug-matrix.sh: upstream's innodb_stress suite runs a
# generator written for mysql.connector, which Debian 12 does not package;
# it runs on PyMySQL through scripts/pyshim (mysql.connector's few calls
# that the generator makes).
if [ "${1:-}" = "--stress" ]; then
  PKGS=(python3-pymysql)
fi
# scripts/loopfs.sh: the file systems of the sparse file measurements
# (issue 47): XFS and ext4 images mounted on loop devices.
if [ "${1:-}" = "--loopfs" ]; then
  PKGS=(xfsprogs e2fsprogs util-linux)
fi
# scripts/fuzz.sh: clang with libFuzzer and the sanitizer runtimes (the
# replay of the corpora needs only g++ and is built without these).
if [ "${1:-}" = "--fuzz" ]; then
  PKGS=(clang-14 libclang-rt-14-dev llvm-14)
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-deps: all ${1:+${1#--} }packages present"
  exit 0
fi

echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
