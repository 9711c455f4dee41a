"""Experiment codecs: zlib and ISA-L on InnoDB's own pages (every
generator's TPC-C data, English text, random bytes)."""

import json
import os
import statistics
import sys
import time

from . import register
from .. import settings
from ..datadir import copy_datadir
from ..layouts import Layout
from ..paths import work_path
from ..report import md_table, write_csv
from ..server import Server
from ..settings import DATA_CHOICES, DB
from ..tpcc import load
from ..util import log
from .wiki import wiki_corpus


# ---------------------------------------------------------------------------
# Experiment: codecs (Percona's compression-methods study, on InnoDB's own
# pages and InnoDB's own functions)

# (codec, table level): zlib at 1, 6 and 9; ISA-L at the table levels that
# map to its levels 1, 2 and 3 (docs/codec.md).
CODEC_POINTS = [("zlib", 1), ("zlib", 6), ("zlib", 9),
                ("isal", 1), ("isal", 6), ("isal", 9)]
STUDY_TABLES = ["stock", "order_line", "customer"]


@register("codecs")
def exp_codecs(args, out):
    """For each codec and level, on real pages of the benchmark's tables
    (spec, DBT-2 and aged TPC-C data, each loaded by tpcc.lua), English
    text and random bytes: page_zip_compress() and page_zip_decompress()
    themselves, timed by InnoDB's per-table counters (microseconds per page,
    compressed bytes), and the share of full pages that fit each
    KEY_BLOCK_SIZE (the estimator's trials, which call page_zip_compress()
    on copies of the real pages). Each kind of TPC-C data has its own
    server (its own loaded copy); text and random bytes are measured with
    the first."""
    quick = args.quick
    W = args.warehouses or 1
    reps = args.reps or (1 if quick else 3)
    text_mb = 10 if quick else 40
    kinds = [d for d in (args.study_data or ("spec" if quick else
                                             "spec,dbt2,aged")).split(",") if d]
    for d in kinds:
        if d not in DATA_CHOICES:
            sys.exit("--study-data: %s is not one of %s" % (d, DATA_CHOICES))
    load_opts = {"innodb_buffer_pool_size": "1G"}
    tsv, _ = wiki_corpus(text_mb)
    opts = {"innodb_buffer_pool_size": "2G",
            "innodb_buffer_pool_load_at_startup": "OFF",
            "innodb_buffer_pool_dump_at_shutdown": "OFF",
            "secure-file-priv": os.path.dirname(tsv)}
    rows, fit_rows, sources_all = [], [], []
    keep = settings.DATA
    try:
        for i, d in enumerate(kinds):
            settings.DATA = d
            base = Layout("N", "", note="no compression")
            load("codecs", base, W, load_opts)
            live = work_path("codecs-datadir")
            copy_datadir(base.saved, live)
            srv = Server(live, opts)
            srv.start()
            try:
                sources = codecs_measure(srv, opts, W, reps, quick, tsv,
                                         i == 0, rows, fit_rows)
                sources_all += sources
            finally:
                srv.stop()
    finally:
        settings.DATA = keep
    codecs_report(out, rows, fit_rows, sources_all, reps, W, kinds, text_mb)


def codecs_measure(srv, opts, W, reps, quick, tsv, extra, rows, fit_rows):
    """The measurements of exp_codecs on its running server: the TPC-C
    tables of the loaded data (DATA), and if extra, English text and random
    bytes. Appends to rows and fit_rows; returns the sources measured."""
    srv.sql("DROP DATABASE IF EXISTS study")
    srv.sql("CREATE DATABASE study")
    if extra:
        codecs_study_tables(srv, quick, tsv)
    sources = [("%s.%s" % (DB, t), "%s (%s)" % (t, settings.DATA)) for t in STUDY_TABLES]
    if extra:
        sources += [("study.text_docs", "English text"),
                    ("study.random_rows", "random bytes")]
    for rep in range(reps):
        for codec, level in CODEC_POINTS:
            codecs_measure_point(srv, opts, sources, rep, codec, level, rows,
                                 fit_rows)
            log("codecs %s rep %d %s level %d done" % (settings.DATA, rep + 1, codec,
                                                       level))
    return sources


def codecs_study_tables(srv, quick, tsv):
    """English text and random bytes, in the B-tree pages."""
    srv.sql("CREATE TABLE study.docs (id INT PRIMARY KEY, title "
            "VARCHAR(255), body MEDIUMTEXT) CHARACTER SET utf8mb4")
    srv.sql("LOAD DATA INFILE '%s' INTO TABLE study.docs CHARACTER SET "
            "utf8mb4 (id, title, body)" % tsv)
    # The documents cut into rows of 700 characters, so that the text is in
    # the B-tree pages (a whole document would go to BLOB pages, which
    # stay on zlib whatever the codec).
    srv.sql("CREATE TABLE study.seq (n INT PRIMARY KEY)")
    srv.sql("SET SESSION cte_max_recursion_depth = 1000000; "
            "INSERT INTO study.seq WITH RECURSIVE s(n) AS (SELECT 0 UNION "
            "ALL SELECT n + 1 FROM s WHERE n < 2000) SELECT n FROM s")
    srv.sql("CREATE TABLE study.text_docs (doc INT, part INT, txt "
            "VARCHAR(700), PRIMARY KEY (doc, part)) CHARACTER SET utf8mb4")
    srv.sql("INSERT INTO study.text_docs SELECT d.id, s.n, SUBSTRING(d.body, "
            "s.n * 700 + 1, 700) FROM study.docs d JOIN study.seq s ON "
            "s.n * 700 < CHAR_LENGTH(d.body)")
    srv.sql("DROP TABLE study.docs, study.seq")
    srv.sql("CREATE TABLE study.random_rows (id INT PRIMARY KEY, "
            "b VARBINARY(300))")
    srv.sql("SET SESSION cte_max_recursion_depth = 1000000; "
            "INSERT INTO study.random_rows WITH RECURSIVE s(n) AS (SELECT 1 "
            "UNION ALL SELECT n + 1 FROM s WHERE n < %d) SELECT n, "
            "RANDOM_BYTES(40 + n %% 200) FROM s" % (20000 if quick else 100000))


def codecs_measure_point(srv, opts, sources, rep, codec, level, rows,
                         fit_rows):
    """One codec and level, one repetition, every source."""
    attr = json.dumps({"compression_codec": codec,
                       "compression_level": level})
    first = len(rows)
    for src, label in sources:
        dst = "study.c_" + src.split(".")[1]
        srv.sql("DROP TABLE IF EXISTS %s" % dst)
        srv.sql("CREATE TABLE %s LIKE %s" % (dst, src))
        srv.sql("ALTER TABLE %s ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8 "
                "ENGINE_ATTRIBUTE='%s'" % (dst, attr))
        # Rows in key order: each page is compressed as it fills
        # (and when a record no longer fits), as inserts do.
        srv.sql("INSERT INTO %s SELECT * FROM %s ORDER BY 1" % (dst, src))
        # Sizes from the index statistics, recounted now.
        srv.sql("ANALYZE TABLE %s" % dst)
        c = srv.sql(
            "SELECT COMPRESS_OPS, COMPRESS_OPS_OK, COMPRESS_USECS, "
            "DATA_LENGTH + INDEX_LENGTH FROM information_schema."
            "COMPRESSION_STATS s JOIN information_schema.TABLES t "
            "USING (TABLE_SCHEMA, TABLE_NAME) WHERE s.TABLE_SCHEMA = "
            "'study' AND s.TABLE_NAME = '%s'" % dst.split(".")[1])[0]
        # Leaf pages in use (exact, from ANALYZE), not the extents
        # allocated: the difference between codecs is in how many rows a
        # page holds before its compression fails.
        leaf = srv.sql(
            "SELECT SUM(stat_value) FROM mysql.innodb_index_stats WHERE "
            "database_name = 'study' AND table_name = '%s' AND stat_name = "
            "'n_leaf_pages'" % dst.split(".")[1])[0][0]
        rows.append({"rep": rep + 1, "codec": codec, "level": level,
                     "data": label, "dst": dst, "compress_ops": int(c[0]),
                     "compress_ok": int(c[1]),
                     "compress_us": int(c[2]) / max(int(c[0]), 1),
                     "bytes": int(leaf) * 8192,
                     "allocated_bytes": int(c[3])})
    # Decompression: a restart empties the buffer pool; every page
    # is read back by a full scan, once with each inflate.
    for inflate in ("zlib", "isal"):
        srv.opts = dict(opts, innodb_compression_codec=inflate)
        srv.stop()
        srv.start()
        for r in rows[first:]:
            srv.sql("CHECKSUM TABLE %s" % r["dst"])
            d = srv.sql("SELECT UNCOMPRESS_OPS, UNCOMPRESS_USECS FROM "
                        "information_schema.COMPRESSION_STATS WHERE "
                        "TABLE_SCHEMA = 'study' AND TABLE_NAME = '%s'"
                        % r["dst"].split(".")[1])[0]
            r["decompress_us_" + inflate] = int(d[1]) / max(int(d[0]), 1)
            r["decompress_ops_" + inflate] = int(d[0])
    srv.opts = opts
    # The share of full pages that fit each size, from the
    # estimator's trials of the uncompressed tables (first rep).
    if rep == 0:
        srv.sql("SET GLOBAL innodb_compression_codec = %s" % codec)
        srv.sql("SET GLOBAL innodb_compression_level = %d" % level)
        for src, label in sources:
            sch, tab = src.split(".")
            t0 = time.time()
            srv.sql("SELECT COMPRESSION_STATS_ESTIMATE('%s', '%s', 256)"
                    % (sch, tab))
            secs = time.time() - t0
            for kbs, fail, est in srv.sql(
                    "SELECT KEY_BLOCK_SIZE, ESTIMATED_FAILURE_PCT, "
                    "ESTIMATED_BYTES FROM information_schema."
                    "COMPRESSION_ESTIMATES WHERE KEY_BLOCK_SIZE IS NOT NULL AND TABLE_SCHEMA = '%s' "
                    "AND TABLE_NAME = '%s'" % (sch, tab)):
                fit_rows.append({
                    "codec": codec, "level": level, "data": label,
                    "kbs": int(kbs),
                    "fit_pct": 100 - float(fail) if fail != "NULL" else "",
                    "estimated_bytes": int(est), "estimate_s": secs})
        srv.sql("SET GLOBAL innodb_compression_codec = DEFAULT")
        srv.sql("SET GLOBAL innodb_compression_level = DEFAULT")


def codecs_report(out, rows, fit_rows, sources, reps, W, kinds, text_mb):
    """pages.csv, fit.csv, report.md and the plot of exp_codecs."""
    write_csv(os.path.join(out, "pages.csv"), rows)
    write_csv(os.path.join(out, "fit.csv"), fit_rows)

    # Report: medians over the repetitions, ratios against zlib level 6.
    def med(data, codec, level, key):
        v = [r[key] for r in rows if r["data"] == data and r["codec"] == codec
             and r["level"] == level and key in r]
        return statistics.median(v) if v else float("nan")
    md = ["# Experiment codecs: zlib and ISA-L on InnoDB's own pages", "",
          "Measured %s. page_zip_compress() of rows inserted in key order "
          "into KEY_BLOCK_SIZE=8 copies, timed by COMPRESS_USECS / "
          "COMPRESS_OPS (failed attempts included); page_zip_decompress() of "
          "every page after a restart, by UNCOMPRESS_USECS / UNCOMPRESS_OPS, "
          "with zlib's inflate and ISA-L's; %d repetition(s), medians. "
          "Bytes: the leaf pages in use (mysql.innodb_index_stats "
          "n_leaf_pages after ANALYZE) times 8 KB. "
          "Data: %d warehouse(s) of TPC-C data from each generator (%s), "
          "%d MB of English text (bench/wiki), random bytes." % (
              time.strftime("%Y-%m-%d"), reps, W, ", ".join(kinds), text_mb),
          ""]
    hdr = ["data", "codec", "level", "compress us/page", "vs zlib 6",
           "bytes", "bytes vs zlib 6", "fail %", "inflate zlib us",
           "inflate isal us", "inflate speed-up"]
    tab = []
    for src, label in sources:
        z6c = med(label, "zlib", 6, "compress_us")
        z6b = med(label, "zlib", 6, "bytes")
        for codec, level in CODEC_POINTS:
            cu = med(label, codec, level, "compress_us")
            b = med(label, codec, level, "bytes")
            ops = med(label, codec, level, "compress_ops")
            ok = med(label, codec, level, "compress_ok")
            dz = med(label, codec, level, "decompress_us_zlib")
            di = med(label, codec, level, "decompress_us_isal")
            tab.append([label, codec, level, "%.1f" % cu, "%.2fx" % (z6c / cu),
                        "%.0f" % b, "%+.1f %%" % (100 * (b / z6b - 1)),
                        "%.1f" % (100 * (1 - ok / max(ops, 1))),
                        "%.1f" % dz, "%.1f" % di, "%.2fx" % (dz / di)])
    md += [md_table(hdr, tab), "", "## Share of full pages that fit", "",
           "From the estimator's trials of the uncompressed tables (256 "
           "sampled leaf pages per index): % of full 16 KB pages that "
           "compress into each size.", ""]
    ftab = []
    for src, label in sources:
        for codec, level in CODEC_POINTS:
            f = {r["kbs"]: r for r in fit_rows if r["data"] == label and
                 r["codec"] == codec and r["level"] == level}
            ftab.append([label, codec, level] + [
                ("%.0f" % f[k]["fit_pct"]) if k in f and f[k]["fit_pct"] != ""
                else "-" for k in (16, 8, 4, 2, 1)] + [
                "%.2f" % f[8]["estimate_s"] if 8 in f else "-"])
    md += [md_table(["data", "codec", "level", "16K", "8K", "4K", "2K", "1K",
                     "estimate s"], ftab), ""]
    codecs_plot(os.path.join(out, "codecs.png"), rows, sources, med)
    md += ["![compression time against bytes](codecs.png)", ""]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")


def codecs_plot(path, rows, sources, med):
    """The study's plot, as Percona's study draws it: time per page against
    compressed size, one marker per codec and level, one colour per data."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib missing: no plot " + path)
        return
    fig, axes = plt.subplots(1, 2, figsize=(12, 5))
    marks = {"zlib": "o", "isal": "s"}
    for n, (src, label) in enumerate(sources):
        colour = "C%d" % (n % 10)
        z6b = med(label, "zlib", 6, "bytes")
        for codec, level in CODEC_POINTS:
            b = 100.0 * med(label, codec, level, "bytes") / z6b
            axes[0].scatter(med(label, codec, level, "compress_us"), b,
                            marker=marks[codec], color=colour,
                            label=label if (codec, level) == ("zlib", 6) else None)
            axes[0].annotate("%s %d" % (codec, level),
                             (med(label, codec, level, "compress_us"), b),
                             fontsize=6)
            for inflate, m in (("zlib", "o"), ("isal", "s")):
                axes[1].scatter(med(label, codec, level,
                                    "decompress_us_" + inflate), n,
                                marker=m, color=colour)
    axes[0].set_xscale("log")
    axes[0].set_xlabel("page_zip_compress() us per page (log)")
    axes[0].set_ylabel("bytes on disk, % of zlib level 6")
    axes[0].set_title("compression: circles zlib, squares ISA-L")
    axes[0].legend(fontsize=7)
    axes[1].set_yticks(range(len(sources)))
    axes[1].set_yticklabels([l for _, l in sources], fontsize=7)
    axes[1].set_xlabel("page_zip_decompress() us per page")
    axes[1].set_title("decompression: circles zlib, squares ISA-L")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
