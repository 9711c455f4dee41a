"""Where things are. The cache and the build tree come from
scripts/common.sh, the one place they are derived (COMPRESS_CACHE_DIR,
COMPRESS_VARIANT: BUILD_DIR is build-<variant>); the rest is the
harness's own, under them."""

import os
import subprocess

from .util import die

COMMON_SH = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
        __file__)))), "scripts", "common.sh")


def _common():
    """COMPRESS_ROOT, COMPRESS_CACHE_DIR, COMPRESS_VARIANT and BUILD_DIR as
    scripts/common.sh sets them (it dies on an unknown variant)."""
    r = subprocess.run(
        ["bash", "-c", '. "$1" && printf "%s\\0" "$COMPRESS_ROOT" '
         '"$COMPRESS_CACHE_DIR" "$COMPRESS_VARIANT" "$BUILD_DIR"',
         "harness", COMMON_SH], capture_output=True, text=True)
    if r.returncode != 0:
        die("%s: %s" % (COMMON_SH, r.stderr.strip()))
    return r.stdout.split("\0")[:4]


ROOT, CACHE, VARIANT, BUILD_DIR = _common()
# COMPRESS_BENCH_BUILD: a copy of the build's binaries to run instead
# (scripts/bench-snapshot.sh), so that a rebuild does not replace the server
# a long run restarts.
BUILD = os.environ.get("COMPRESS_BENCH_BUILD") or BUILD_DIR
BIN = os.path.join(BUILD, "runtime_output_directory")
PLUGIN_DIR = os.path.join(BUILD, "plugin_output_directory")
BENCH = os.path.join(CACHE, "bench")
LUA = os.path.join(ROOT, "bench", "tpcc", "tpcc.lua")
ADVISOR = os.path.join(ROOT, "plugin", "compression_stats",
                       "compression_advisor.sql")
# The server helper shared with scripts/ (start, stop, kill -9,
# initialize, client): see server.py.
SERVER_LIB = os.path.join(ROOT, "scripts", "server-lib.sh")
PORT = int(os.environ.get("COMPRESS_BENCH_PORT", "13307"))
DEFAULT_PORT = 13307
# Where a run keeps what only one server at a time may use: its socket,
# pid files and error log (run/) and its working copies of data
# directories (live-datadir, codecs-datadir). The default port keeps them
# directly under BENCH, as always; another port (COMPRESS_BENCH_PORT) gets
# BENCH/port-<PORT>/, or COMPRESS_BENCH_RUN_DIR if set, so that a second
# run cannot overwrite the first one's files. Kept loaded copies
# (BENCH/data) and the base data directory are shared.
RUN_ROOT = os.environ.get("COMPRESS_BENCH_RUN_DIR") or (
    BENCH if PORT == DEFAULT_PORT else os.path.join(BENCH, "port-%d" % PORT))


def work_path(name):
    """A working directory of this run (see RUN_ROOT)."""
    return os.path.join(RUN_ROOT, name)
