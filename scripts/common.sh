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
UPSTREAM_BYTES=429211578   # the orig tarball's size, for fetch-upstream.sh's messages
DL_DIR="$COMPRESS_CACHE_DIR/upstream"
PRISTINE_DIR="$COMPRESS_CACHE_DIR/pristine"
SRC_DIR="$COMPRESS_CACHE_DIR/src"
# COMPRESS_VARIANT selects a build variant with its own build tree (the
# patched source tree and ccache are shared): "debug" (assertions,
# UNIV_DEBUG, SAFE_MUTEX, DBUG_EXECUTE_IF fault injection), "zipdebug"
# (debug plus InnoDB's extra checks, WITH_INNODB_EXTRA_DEBUG: UNIV_ZIP_DEBUG
# validates every compressed page and BLOB stream written), "zipcheck"
# (the default optimized build with UNIV_ZIP_DEBUG in InnoDB only), "asan"
# (AddressSanitizer + UndefinedBehaviorSanitizer, alignment checks
# included), "debug-asan" (both), or "zipdebug-asan" (zipdebug with the
# sanitizers: the debug-only tests, page validation, ASAN and UBSAN in one
# build).
# Empty: the default RelWithDebInfo build. Every script honours it.
COMPRESS_VARIANT="${COMPRESS_VARIANT:-}"
case "$COMPRESS_VARIANT" in
  ''|debug|zipdebug|zipcheck|asan|debug-asan|zipdebug-asan) ;;
  *) printf 'COMPRESS_VARIANT must be empty, debug, zipdebug, zipcheck, asan, debug-asan or zipdebug-asan, not %s\n' "$COMPRESS_VARIANT" >&2; exit 2 ;;
esac
_vsuffix="${COMPRESS_VARIANT:+-$COMPRESS_VARIANT}"
BUILD_DIR="$COMPRESS_CACHE_DIR/build$_vsuffix"
SUPER_DIR="$COMPRESS_CACHE_DIR/super$_vsuffix"
MTR_VARDIR="$COMPRESS_CACHE_DIR/mtr-var$_vsuffix"
export CCACHE_DIR="${CCACHE_DIR:-$COMPRESS_CACHE_DIR/ccache}"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-10G}"
# ccache: treat files by content, so re-touched but unchanged files hit.
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-include_file_mtime,include_file_ctime,time_macros}"
# Paths under the cache hashed relative to the build directory: a variant
# tree (build-zipcheck/) hits the default tree's objects outside InnoDB.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$COMPRESS_CACHE_DIR}"

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
