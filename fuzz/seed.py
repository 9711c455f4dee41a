#!/usr/bin/env python3
"""Seed inputs of the fuzz targets from real compressed pages
(scripts/fuzz.sh seed; fuzz/README.md).

  seed.py --out DIR FILE.ibd...   write DIR/page_decompress/* and
                                  DIR/lob_inflate/*, deduplicated
  seed.py --trim DIR --max-files N --max-bytes B
                                  keep files of DIR within both budgets,
                                  the smallest of each selector in turn

A tablespace's page size and compressed page size come from the flags of
its page 0 (FSP_SPACE_FLAGS); uncompressed tablespaces are skipped.

page_decompress: every page whose FIL_PAGE_TYPE is an index page
(FIL_PAGE_INDEX 17855, FIL_PAGE_RTREE 17854, FIL_PAGE_SDI 17853), as it
is on disk, after the selector byte of fuzz_page_decompress.cc: its
logical page size, its compressed page size, both inflates compared.

lob_inflate: every chain of compressed BLOB pages that starts at a
FIL_PAGE_TYPE_ZBLOB (11) or FIL_PAGE_SDI_ZBLOB (19) page, followed by
FIL_PAGE_NEXT, renumbered from fuzz_lob_inflate.cc's first page number,
after its selector byte (the compressed page size, the chain in order,
compared with zlib) and the BLOB's length (what zlib inflates from the
chain). Chains longer than the target's -max_len are left out.
"""

import argparse
import hashlib
import os
import struct
import sys
import zlib

FIL_PAGE_NEXT = 12
FIL_PAGE_TYPE = 24
FIL_PAGE_DATA = 38
FIL_NULL = 0xFFFFFFFF
FSP_SPACE_FLAGS = 38 + 16
INDEX_TYPES = {17855, 17854, 17853}
ZBLOB_FIRST = {11, 19}
# fuzz_lob_inflate.cc
LOB_FIRST_PAGE_NO = 5
LOB_MAX_LEN = 256 * 1024
LOB_MAX_INPUT = 4 + 4 * 16384


def space_sizes(data):
    """(logical page size, compressed page size or 0) from page 0."""
    flags = struct.unpack_from(">I", data, FSP_SPACE_FLAGS)[0]
    zssize = (flags >> 1) & 15
    pssize = (flags >> 6) & 15
    logical = 16384 if pssize == 0 else 512 << pssize
    return logical, (512 << zssize) if zssize else 0


def page_selector(logical, zip_size):
    family = {16384: 0, 8192: 1, 4096: 2}[logical]
    zidx = zip_size.bit_length() - 1 - 10
    return family | zidx << 2 | 2 << 5


def lob_seed(data, zip_size, first):
    """The lob_inflate input of the chain starting at page first, or
    None."""
    pages = []
    page_no = first
    seen = set()
    n_pages = len(data) // zip_size
    while page_no != FIL_NULL:
        if page_no >= n_pages or page_no in seen:
            return None
        seen.add(page_no)
        page = bytearray(data[page_no * zip_size:(page_no + 1) * zip_size])
        page_no = struct.unpack_from(">I", page, FIL_PAGE_NEXT)[0]
        pages.append(page)
        if 4 + len(pages) * zip_size > LOB_MAX_INPUT:
            return None
    d = zlib.decompressobj()
    length = 0
    try:
        for p in pages:
            length += len(d.decompress(bytes(p[FIL_PAGE_DATA:])))
    except zlib.error:
        return None
    if not d.eof or length == 0 or length > LOB_MAX_LEN:
        return None
    for i, p in enumerate(pages):
        nxt = LOB_FIRST_PAGE_NO + i + 1 if i + 1 < len(pages) else FIL_NULL
        struct.pack_into(">I", p, FIL_PAGE_NEXT, nxt)
    zidx = zip_size.bit_length() - 1 - 10
    sel = zidx | 1 << 4
    v = length - 1
    return bytes([sel, v & 255, (v >> 8) & 255, (v >> 16) & 255]) + b"".join(
        bytes(p) for p in pages)


def write(outdir, data, seen):
    h = hashlib.sha1(data).hexdigest()
    if h in seen:
        return 0
    seen.add(h)
    with open(os.path.join(outdir, h), "wb") as f:
        f.write(data)
    return 1


def spread(items, n):
    """At most n of items, evenly spaced."""
    if len(items) <= n:
        return items
    return [items[i * len(items) // n] for i in range(n)]


def extract(out, files, per_file):
    pdir = os.path.join(out, "page_decompress")
    ldir = os.path.join(out, "lob_inflate")
    os.makedirs(pdir, exist_ok=True)
    os.makedirs(ldir, exist_ok=True)
    seen = set()
    n_pages = n_lobs = 0
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        if len(data) < FSP_SPACE_FLAGS + 4:
            continue
        logical, zip_size = space_sizes(data)
        if zip_size == 0 or zip_size > logical:
            print(f"seed.py: {path}: not compressed, skipped", file=sys.stderr)
            continue
        sel = page_selector(logical, zip_size)
        index_pages = []
        blob_pages = []
        for i in range(len(data) // zip_size):
            t = struct.unpack_from(">H", data, i * zip_size + FIL_PAGE_TYPE)[0]
            if t in INDEX_TYPES:
                index_pages.append(i)
            elif t in ZBLOB_FIRST:
                blob_pages.append(i)
        # At most per_file of each, spread over the file (the leaves,
        # the node pointer pages, the secondary indexes).
        for i in spread(index_pages, per_file):
            page = data[i * zip_size:(i + 1) * zip_size]
            n_pages += write(pdir, bytes([sel]) + page, seen)
        for i in spread(blob_pages, per_file):
            s = lob_seed(data, zip_size, i)
            if s is not None:
                n_lobs += write(ldir, s, seen)
    print(f"seed.py: {n_pages} index pages, {n_lobs} BLOB chains from "
          f"{len(files)} files", file=sys.stderr)


def trim(d, max_files, max_bytes):
    """Keep files within both budgets: the smallest of each selector byte
    (page size, compressed page size) in turn, so that every kind keeps
    some."""
    groups = {}
    for f in os.listdir(d):
        path = os.path.join(d, f)
        with open(path, "rb") as fh:
            sel = fh.read(1)
        groups.setdefault(sel, []).append((os.path.getsize(path), f))
    for g in groups.values():
        g.sort(reverse=True)
    total = kept = 0
    keep = set()
    progress = True
    while progress and kept < max_files:
        progress = False
        for sel in sorted(groups):
            g = groups[sel]
            while g and kept < max_files:
                size, f = g.pop()
                if total + size <= max_bytes:
                    keep.add(f)
                    total += size
                    kept += 1
                    progress = True
                    break
    n = 0
    for f in os.listdir(d):
        n += 1
        if f not in keep:
            os.remove(os.path.join(d, f))
    print(f"seed.py: {d}: kept {kept} of {n} files, {total} bytes",
          file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--trim")
    ap.add_argument("--max-files", type=int, default=48)
    ap.add_argument("--max-bytes", type=int, default=196608)
    ap.add_argument("--per-file", type=int, default=400)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    if a.trim:
        trim(a.trim, a.max_files, a.max_bytes)
    elif a.out:
        extract(a.out, a.files, a.per_file)
    else:
        ap.error("--out or --trim")


if __name__ == "__main__":
    main()
