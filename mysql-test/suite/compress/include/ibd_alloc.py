#!/usr/bin/env python3
"""Allocated bytes of an InnoDB .ibd file, page by page (what du counts).

Usage: ibd_alloc.py FILE [PAGE_SIZE] [--sql PREFIX]
Prints one line of key=value pairs (with --sql: one SET @PREFIXkey = value;
statement per figure, for mysqltest to source):
  file_bytes       size of the file
  allocated_bytes  blocks allocated to the file (st_blocks * 512)
  in_use_pages     B-tree and BLOB pages (page types INDEX, RTREE, the LOB
                   and BLOB types; page-compressed pages by their original
                   type), the pages the estimator counts
  in_use_bytes     bytes allocated to those pages (SEEK_DATA/SEEK_HOLE)
  free_pages       pages of type 0 (allocated to the file, never used or
                   freed), and free_bytes the bytes allocated to them
  other_pages      the rest (file header, bitmaps, inodes, SDI), other_bytes
  compressed_pages pages written page-compressed (type 14)
"""
import os
import sys

FIL_PAGE_TYPE = 24
FIL_PAGE_COMPRESSED = 14
FIL_PAGE_ORIGINAL_TYPE_V1 = 28
IN_USE = {17855, 17854,            # INDEX, RTREE
          10, 11, 12,              # BLOB, ZBLOB, ZBLOB2
          22, 23, 24,              # LOB_INDEX, LOB_DATA, LOB_FIRST
          25, 26, 27, 28, 29}      # ZLOB_FIRST, DATA, INDEX, FRAG, FRAG_ENTRY


def main():
    args = sys.argv[1:]
    sql = None
    if "--sql" in args:
        i = args.index("--sql")
        sql = args[i + 1]
        del args[i:i + 2]
    path = args[0]
    ps = int(args[1]) if len(args) > 1 else 16384
    fd = os.open(path, os.O_RDONLY)
    st = os.fstat(fd)
    size = st.st_size
    ranges = []
    off = 0
    while off < size:
        try:
            d = os.lseek(fd, off, os.SEEK_DATA)
        except OSError:
            break
        h = os.lseek(fd, d, os.SEEK_HOLE)
        ranges.append((d, h))
        off = h
    out = {"file_bytes": size, "allocated_bytes": st.st_blocks * 512,
           "in_use_pages": 0, "in_use_bytes": 0, "free_pages": 0,
           "free_bytes": 0, "other_pages": 0, "other_bytes": 0,
           "compressed_pages": 0}
    r = 0
    for pg in range(size // ps):
        a, b = pg * ps, (pg + 1) * ps
        while r < len(ranges) and ranges[r][1] <= a:
            r += 1
        alloc = 0
        j = r
        while j < len(ranges) and ranges[j][0] < b:
            alloc += min(b, ranges[j][1]) - max(a, ranges[j][0])
            j += 1
        os.lseek(fd, a, os.SEEK_SET)
        hdr = os.read(fd, 38)
        t = int.from_bytes(hdr[FIL_PAGE_TYPE:FIL_PAGE_TYPE + 2], "big")
        if t == FIL_PAGE_COMPRESSED:
            out["compressed_pages"] += 1
            t = int.from_bytes(hdr[FIL_PAGE_ORIGINAL_TYPE_V1:
                                   FIL_PAGE_ORIGINAL_TYPE_V1 + 2], "big")
        kind = "in_use" if t in IN_USE else "free" if t == 0 else "other"
        out[kind + "_pages"] += 1
        out[kind + "_bytes"] += alloc
    os.close(fd)
    if sql is not None:
        for k, v in out.items():
            print("SET @%s%s = %d;" % (sql, k, v))
    else:
        print(" ".join("%s=%d" % kv for kv in out.items()))


if __name__ == "__main__":
    main()
