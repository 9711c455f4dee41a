"""perf call stacks of every measured run (--perf): CPU samples sorted into
STACK_BUCKETS."""

import os
import re
import signal
import subprocess
import time


# Buckets of a CPU sample by its whole call stack (perf record
# --call-graph dwarf: mysqld and the codec libraries have no frame
# pointers, their .eh_frame unwinds them): the first bucket a frame of the
# stack matches, in this order, so that a split's recompression counts as
# compression and the split's own work (moving records, allocating the new
# page) as the split. "latch spins and waits" and "file I/O system calls"
# are matched on the innermost frames (the leaf and its callers up to the
# first InnoDB function), the rest by any frame.
STACK_BUCKETS = [
    ("compression", "any", r"^(page_zip_compress|page_zip_compress_fit|"
     r"page_zip_compress_deflate|page_zip_codec_compress|page_zip_deflate)"),
    ("decompression", "any", r"^(page_zip_decompress|"
     r"page_zip_decompress_low|page_zip_codec_inflate|page_zip_inflate)"),
    # Off-page columns of compressed tables (lob::zInserter, lob::zReader,
    # lob::z_insert_chunk, lob::z_read_chunk, ...): their zlib streams do
    # not go through the page codec. Matched on the raw symbol ("raw").
    ("off-page columns (lob::)", "raw", r"\blob::"),
    ("splits and reorganizations", "any", r"^(btr_page_split_and_insert|"
     r"btr_root_raise_and_insert|btr_page_reorganize|btr_page_reorganize_low|"
     r"btr_page_reorganize_block|page_zip_reorganize|btr_compress|"
     r"btr_lift_page_up|btr_insert_into_right_sibling)"),
    ("latch spins and waits", "leaf", r"^(ut_delay|sync_array|os_event|"
     r"rw_lock|PolicyMutex|TTASEventMutex|pthread_mutex|pthread_cond|"
     r"pthread_rwlock|futex|__lll|sched_yield|__futex|do_futex|"
     r"futex_wait|futex_wake)"),
    ("file I/O system calls", "leaf", r"^(pread|pwrite|__pread|__pwrite|"
     r"fsync|fdatasync|__fsync|io_submit|io_getevents|os_file_io|"
     r"os_file_pread|os_file_pwrite|ksys_pread|ksys_pwrite|vfs_read|"
     r"vfs_write|blkdev_|iomap_|ext4_|xfs_)"),
]
STACK_REST = "the rest (SQL layer, B-tree search, rows, locks, redo)"
# A sample whose leaf is in a codec library counts as compression or
# decompression by the leaf's name alone: ISA-L's assembly has no unwind
# information, so perf's stack of such a sample stops in the library and
# never reaches page_zip_*() (before 2026-11-27 these samples fell into
# STACK_REST: BENCHMARKS 7c's first run). Only the codec layer calls ISA-L;
# zlib's C code unwinds, and its leaves keep their stacks' bucket (zlib
# also serves off-page columns and the estimator's own streams).
CODEC_LIBS = ("libisal.so", "libz.so")
CUT_STACK_LIBS = ("libisal.so",)
CODEC_LEAF_INFLATE = re.compile(r"(inflate|decode|read_header)", re.I)


def codec_leaf_bucket(sym, dso):
    """compression or decompression for a leaf in ISA-L (whose stacks are
    cut), else None."""
    if not any(lib in os.path.basename(dso or "") for lib in CUT_STACK_LIBS):
        return None
    if sym.startswith("[unknown]") or "adler32" in sym:
        return None  # stripped zlib internals, checksums: either direction
    return ("decompression" if CODEC_LEAF_INFLATE.search(sym)
            else "compression")


def clean_symbol(sym):
    """A perf symbol without its arguments, templates, namespaces and
    offset."""
    sym = re.sub(r"\+0x[0-9a-f]+$", "", sym.strip())
    sym = re.sub(r"\(.*$", "", sym)
    sym = re.sub(r"<[^<>]*>", "", sym)
    sym = re.sub(r"<[^<>]*>", "", sym)
    return sym.split("::")[-1].strip()


def perf_record_stacks(pid, secs, data, freq=99):
    """perf record of a process for secs seconds, cpu-clock (this VM has
    no hardware counters), call stacks by DWARF unwinding."""
    subprocess.run(["perf", "record", "-e", "cpu-clock", "-F", str(freq),
                    "--call-graph", "dwarf,8192", "-p", str(pid), "-o", data,
                    "--", "sleep", str(secs)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class PerfRecorder:
    """perf record from the constructor to stop() (a load whose length is
    not known beforehand), as perf_record_stacks() but system-wide and
    filtered to the process afterwards: `perf record -p` follows only the
    threads that exist when it attaches, and a connection's thread may not."""

    def __init__(self, pid, data, freq=99):
        self.pid, self.data, self.freq = pid, data, freq
        self.proc = subprocess.Popen(
            ["perf", "record", "-a", "-e", "cpu-clock", "-F", str(freq),
             "--call-graph", "dwarf,8192", "-o", data],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)  # perf's start-up, before the work begins

    def stop(self, outfile):
        """Ends the recording; returns perf_stack_buckets() of it."""
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait()
        return perf_stack_buckets(self.data, outfile, self.freq, self.pid)


# The (de)compression buckets split by the callee of InnoDB's function
# (its part: the codec library, the field list, the directory, the
# records' columns, ...), the outermost such frame of the stack.
PART_ROOTS = {"compression": ("page_zip_compress",),
              "decompression": ("page_zip_decompress_low",
                                "page_zip_decompress")}


def part_of(bucket, frames, leaf_dso):
    """The part of a compression or decompression sample: "library libz"
    or "library libisal" for a leaf in a codec library, else the callee of
    outermost frame of the first PART_ROOTS function in its stack ("self"
    if the sample is in that frame)."""
    roots = PART_ROOTS.get(bucket)
    if not roots:
        return None
    base = os.path.basename(leaf_dso or "")
    if any(lib in base for lib in CODEC_LIBS):
        return "library %s" % base.split(".so")[0]
    # the first root of PART_ROOTS found (page_zip_decompress_low before
    # its wrapper), its outermost frame
    for root in roots:
        for j in range(len(frames) - 1, -1, -1):
            if frames[j] == root:
                return frames[j - 1] if j > 0 else "self"
    return "outside %s" % roots[0]


def stack_counts(script, by_part=None):
    """Samples per bucket and per bucket its leaf functions, from the text
    of perf script -F ip,sym,dso (one stack per sample, innermost frame
    first, blank line between samples). by_part: a dict filled with
    {bucket: {part: samples}} for the (de)compression buckets (part_of)."""
    counts = {b: 0 for b, _, _ in STACK_BUCKETS}
    counts[STACK_REST] = 0
    leaves = {b: {} for b in counts}
    pats = [(b, where, re.compile(p)) for b, where, p in STACK_BUCKETS]

    def classify(frames, leaf_dso, raw):
        # innermost frames: the leaf and its callers up to (and with) the
        # first InnoDB-looking function
        inner = []
        for f in frames:
            inner.append(f)
            if re.match(r"^(os_|buf_|fil_|btr_|row_|srv_|log_|trx_|lock_|"
                        r"page_|mtr_|dict_|ha_innobase|Fil_)", f):
                break
        for b, where, pat in pats[:2]:
            if any(pat.match(f) for f in frames):
                return b
        # a codec library's leaf under a stack that does not reach InnoDB
        lib = codec_leaf_bucket(frames[0], leaf_dso)
        if lib and not any(f.startswith("page_zip") for f in frames):
            return lib
        for b, where, pat in pats[2:]:
            if where == "raw":
                if any(pat.search(f) for f in raw):
                    return b
            elif any(pat.match(f) for f in (frames if where == "any" else inner)):
                return b
        return STACK_REST

    def flush(frames):
        if not frames:
            return
        b = classify(frames, dsos[0], raws)
        if by_part is not None and b in PART_ROOTS:
            pb = by_part.setdefault(b, {})
            k = part_of(b, frames, dsos[0])
            pb[k] = pb.get(k, 0) + 1
        counts[b] += 1
        leaves[b][frames[0]] = leaves[b].get(frames[0], 0) + 1

    frames, dsos, raws = [], [], []
    for line in script.splitlines():
        line = line.strip()
        if not line:
            flush(frames)
            frames, dsos, raws = [], [], []
            continue
        parts = line.split(None, 1)
        if len(parts) == 2 and re.match(r"^[0-9a-f]+$", parts[0]):
            m = re.match(r"^(.*?)\s+\(([^()]*)\)$", parts[1])
            sym, dso = (m.group(1), m.group(2)) if m else (parts[1], "")
            frames.append(clean_symbol(sym))
            dsos.append(dso)
            raws.append(sym)
        else:
            flush(frames)
            frames, dsos, raws = [], [], []
    flush(frames)
    return counts, leaves


def perf_stack_buckets(data, outfile, freq=99, pid=None):
    """Sort the samples of a perf record --call-graph file into
    STACK_BUCKETS; writes outfile (per bucket its top leaf functions) and
    returns {bucket: CPU seconds}. The data file is removed. pid: only
    that process's samples (of a system-wide record)."""
    r = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym,dso",
                        "--no-inline"] + (["--pid", str(pid)] if pid else []),
                       capture_output=True, text=True)
    parts = {}
    counts, leaves = stack_counts(r.stdout, parts)
    total = sum(counts.values())
    with open(outfile, "w") as f:
        f.write("# %d samples at %d Hz (perf record -e cpu-clock "
                "--call-graph dwarf), by bucket (bench/harness/perf.py "
                "STACK_BUCKETS) and leaf function\n" % (total, freq))
        for b, n in counts.items():
            f.write("\n%s: %d samples (%.1f %%)\n" % (
                b, n, 100.0 * n / max(total, 1)))
            for sym, m in sorted(leaves[b].items(), key=lambda x: -x[1])[:12]:
                f.write("  %6d  %s\n" % (m, sym))
        for b, pb in parts.items():
            f.write("\n%s by part (callee of %s; bench/harness/perf.py "
                    "part_of):\n" % (b, PART_ROOTS[b][0]))
            for k, m in sorted(pb.items(), key=lambda x: -x[1])[:16]:
                f.write("  %6d  %s\n" % (m, k))
    try:
        os.remove(data)
    except OSError:
        pass
    return {b: n / float(freq) for b, n in counts.items()}
