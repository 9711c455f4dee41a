# Shared settings for the project's scripts; sourced, not run.
# The persistent cache holds the upstream tarball, the pristine and patched
# trees, the build tree and ccache. It lives outside the work tree so that a
# later session or CI run on the same machine rebuilds incrementally.
COMPRESS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
COMPRESS_CACHE_DIR="${COMPRESS_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mysql-compress}"
UPSTREAM_PKG="mysql-9.7"
UPSTREAM_DEBVER="9.7.2-4"
UPSTREAM_VER="9.7.2"
UPSTREAM_SHA256="e5a676c7cb73738dc6ea33db2093806ebd512b629a139b897fcab68fcd81aaa4"
DL_DIR="$COMPRESS_CACHE_DIR/upstream"
PRISTINE_DIR="$COMPRESS_CACHE_DIR/pristine"
SRC_DIR="$COMPRESS_CACHE_DIR/src"
BUILD_DIR="$COMPRESS_CACHE_DIR/build"
SUPER_DIR="$COMPRESS_CACHE_DIR/super"
MTR_VARDIR="$COMPRESS_CACHE_DIR/mtr-var"
export CCACHE_DIR="${CCACHE_DIR:-$COMPRESS_CACHE_DIR/ccache}"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-10G}"
# ccache: treat files by content, so re-touched but unchanged files hit.
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-include_file_mtime,include_file_ctime,time_macros}"

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
