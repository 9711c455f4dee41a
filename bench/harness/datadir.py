"""Data directories: the initialized base, kept copies of loaded layouts
(a cache under BENCH/data, least recently used ones deleted when the disk
fills), copies that keep their source's allocation, and the bytes on disk
of the benchmark's tables."""

import glob
import os
import shutil
import subprocess
import sys

from .paths import BENCH, ROOT
from .server import initialize
from .settings import DB, TABLES
from .util import die, log


def base_datadir():
    """An initialized, empty data directory, made once and copied."""
    d = os.path.join(BENCH, "base-datadir")
    if os.path.isdir(os.path.join(d, "mysql")):
        return d
    shutil.rmtree(d, ignore_errors=True)
    log("initializing the base data directory")
    os.makedirs(BENCH, exist_ok=True)
    # scripts/server-lib.sh srv_init (its log: base-datadir.init.err)
    initialize(d, ["--innodb-redo-log-capacity=1G"])
    return d


# Kept copies of loaded layouts (BENCH/data) are a cache: each is about
# 1.3 GB (the 1 GB redo log included), and `all` alone makes about 25.
# Before a copy is made, the least recently used kept copies that this run
# has not used are deleted until FREE_SPACE_MIN bytes are free.
FREE_SPACE_MIN = 8 * 2**30
IN_USE = set()


def make_room():
    data = os.path.join(BENCH, "data")
    while shutil.disk_usage(BENCH).free < FREE_SPACE_MIN:
        kept = []
        for n in os.listdir(data) if os.path.isdir(data) else []:
            d = os.path.join(data, n)
            if os.path.isdir(d) and d not in IN_USE:
                meta = d + ".json"
                kept.append((os.path.getmtime(meta if os.path.exists(meta)
                                              else d), d))
        if not kept:
            die("less than %d GB free under %s and no kept copy left to "
                "delete" % (FREE_SPACE_MIN // 2**30, BENCH))
        _, victim = min(kept)
        log("freeing disk space: deleting the kept copy %s"
            % os.path.basename(victim))
        if os.path.exists(victim + ".json"):
            os.remove(victim + ".json")
        shutil.rmtree(victim, ignore_errors=True)


def copy_datadir(src, dst, allocation=False):
    """cp -a src dst; allocation: then give the copy's .ibd files of the
    benchmark's schema the extents of their sources (copy_allocation())."""
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    IN_USE.add(os.path.abspath(src))
    make_room()
    subprocess.run(["cp", "-a", src, dst], check=True)
    if os.path.dirname(os.path.abspath(dst)) == os.path.join(BENCH, "data"):
        IN_USE.add(os.path.abspath(dst))
    if allocation:
        copy_allocation(os.path.join(src, DB), os.path.join(dst, DB))


# ---------------------------------------------------------------------------
# Bytes on disk (what du counts)
#
# DATA_LENGTH + INDEX_LENGTH counts pages at the physical page size: it does
# not see the holes page compression punches, nor the free pages a file
# keeps allocated. The blocks allocated to each .ibd file do. cp -a keeps a
# file's holes but also turns the extents InnoDB preallocated with
# fallocate() and never wrote (unwritten extents, which SEEK_DATA reports
# as holes) into holes: a copy is smaller on disk than its source.
# copy_allocation() gives the copy its source's extents back, so that the
# allocated bytes of a measured run's copy start where the load left them.

FS_IOC_FIEMAP = 0xC020660B
FIEMAP_FLAG_SYNC = 1
FIEMAP_EXTENT_LAST = 1
FALLOC_FL_KEEP_SIZE = 1


def file_extents(path):
    """The extents (offset, length) allocated to a file, unwritten ones
    included (the FIEMAP ioctl); None where the file system cannot say."""
    import fcntl
    import struct
    out = []
    start = 0
    n = 256
    with open(path, "rb") as f:
        while True:
            buf = bytearray(struct.pack("=QQLLLL", start, 2**64 - 1 - start,
                                        FIEMAP_FLAG_SYNC, 0, n, 0)
                            + bytes(56 * n))
            try:
                fcntl.ioctl(f.fileno(), FS_IOC_FIEMAP, buf)
            except OSError:
                return None
            mapped = struct.unpack_from("=L", buf, 20)[0]
            if mapped == 0:
                break
            last = False
            for i in range(mapped):
                lo, _, ln = struct.unpack_from("=QQQ", buf, 32 + 56 * i)
                flags = struct.unpack_from("=L", buf, 32 + 56 * i + 40)[0]
                out.append((lo, ln))
                last = last or bool(flags & FIEMAP_EXTENT_LAST)
            start = lo + ln
            if last:
                break
    return out


_FALLOCATE = []


def copy_allocation(src_dir, dst_dir):
    """Allocate in each .ibd file of dst_dir (a cp -a copy of src_dir) the
    extents its source has allocated (fallocate KEEP_SIZE: data already
    copied stays; holes of the source stay holes). Logs once and does
    nothing where FIEMAP or fallocate() is missing."""
    if _FALLOCATE == [None] or not os.path.isdir(src_dir):
        return
    if not _FALLOCATE:
        import ctypes
        import ctypes.util
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
            fa = libc.fallocate
            fa.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64,
                           ctypes.c_int64]
            _FALLOCATE.append(fa)
        except (OSError, AttributeError):
            _FALLOCATE.append(None)
            log("no fallocate(): copies keep cp's allocation (preallocated "
                "free extents not counted after the runs)")
            return
    for name in sorted(os.listdir(src_dir)):
        if not name.endswith(".ibd"):
            continue
        ext = file_extents(os.path.join(src_dir, name))
        if ext is None:
            _FALLOCATE[:] = [None]
            log("no FIEMAP on this file system: copies keep cp's allocation "
                "(preallocated free extents not counted after the runs)")
            return
        fd = os.open(os.path.join(dst_dir, name), os.O_WRONLY)
        try:
            for off, ln in ext:
                if _FALLOCATE[0](fd, FALLOC_FL_KEEP_SIZE, off, ln) != 0:
                    log("fallocate failed on %s: the copy's allocation is "
                        "cp's" % name)
                    break
        finally:
            os.close(fd)


def table_files(datadir, table):
    """The .ibd files of a table of the benchmark's schema: its own, or
    those of its partitions (table#p#part.ibd, table#p#part#sp#sub.ibd),
    sorted."""
    d = os.path.join(datadir, DB)
    p = os.path.join(d, table + ".ibd")
    if os.path.exists(p):
        return [p]
    return sorted(glob.glob(os.path.join(glob.escape(d), table + "#p#*.ibd")))


def ibd_alloc(datadir):
    """{table: bytes allocated to its .ibd file, or its partitions' files}
    of the benchmark's schema (os.stat st_blocks * 512, what du counts)."""
    out = {}
    for t in TABLES:
        files = table_files(datadir, t)
        if files:
            out[t] = sum(os.stat(p).st_blocks * 512 for p in files)
    return out


def ibd_alloc_parts(datadir, table):
    """{partition: bytes allocated to its .ibd file} of a partitioned
    table ({} if it has no partitions)."""
    return {os.path.basename(p)[:-4].split("#p#", 1)[1]:
            os.stat(p).st_blocks * 512
            for p in table_files(datadir, table) if "#p#" in p}


IBD_ALLOC = os.path.join(ROOT, "mysql-test", "suite", "compress", "include",
                         "ibd_alloc.py")


def physical_page_size(path):
    """The page size of an .ibd file's pages on disk, from its FSP flags:
    KEY_BLOCK_SIZE for ROW_FORMAT=COMPRESSED (ZIP_SSIZE, bits 1-4 of
    FSP_SPACE_FLAGS at byte 38 + 16 of page 0), else 16 KB."""
    with open(path, "rb") as f:
        f.seek(54)
        flags = int.from_bytes(f.read(4), "big")
    ssize = (flags >> 1) & 15
    return 512 << ssize if ssize else 16384


def ibd_split(datadir):
    """Allocated bytes of the schema's .ibd files split page by page by
    ibd_alloc.py: {"in_use": B-tree and BLOB pages, "free": pages never used
    or freed, "other": file header, bitmaps, inodes, SDI,
    "compressed_pages": pages written page-compressed}, summed over the
    tables; {} if the tool fails."""
    out = {"in_use": 0, "free": 0, "other": 0, "compressed_pages": 0}
    for p in (f for t in TABLES for f in table_files(datadir, t)):
        r = subprocess.run([sys.executable, IBD_ALLOC, p,
                            str(physical_page_size(p))],
                           capture_output=True, text=True)
        if r.returncode != 0:
            log("ibd_alloc.py failed on %s: %s" % (p, r.stderr[-300:]))
            return {}
        kv = dict(x.split("=") for x in r.stdout.split())
        for k in ("in_use", "free", "other"):
            out[k] += int(kv[k + "_bytes"])
        out["compressed_pages"] += int(kv["compressed_pages"])
    return out
