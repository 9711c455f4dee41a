"""Output helpers: CSV files, Markdown tables, medians and ratios."""

import csv
import statistics


def write_csv(path, rows, fields=None):
    if not rows:
        return
    fields = fields or list(dict.fromkeys(k for r in rows for k in r))
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "| " + " | ".join("---" if i == 0 else "---:"
                             for i in range(len(header))) + " |"]
    for r in rows:
        out.append("| " + " | ".join(str(x) for x in r) + " |")
    return "\n".join(out)


def spread(values):
    """median (min-max) of a list."""
    if not values:
        return "-"
    med = statistics.median(values)
    if len(values) == 1:
        return "%.0f" % med
    return "%.0f (%.0f-%.0f)" % (med, min(values), max(values))


def ratio_spread(num, den):
    """Median ratio and its range over the repetitions (paired by rep)."""
    rs = [n / d for n, d in zip(num, den) if d > 0]
    if not rs:
        return "-"
    if len(rs) == 1:
        return "%.2fx" % rs[0]
    return "%.2fx (%.2f-%.2f)" % (statistics.median(rs), min(rs), max(rs))


def med3(values):
    if not values:
        return (0, 0, 0)
    return (statistics.median(values), min(values), max(values))


def med_of(rs, key, fmt="%.2f"):
    """The median of a field over result rows, formatted; "-" if none."""
    v = [r[key] for r in rs if r.get(key) is not None and r.get(key) != ""]
    return fmt % statistics.median(v) if v else "-"


def time_split_table(rows_by_layout, names):
    """The paper's Table 5 for one profile and mix: per layout, the mean
    elapsed time of a transaction and the waits in it, ms per transaction
    (medians over the repetitions)."""
    tab = []
    for n in names:
        rs = rows_by_layout.get(n, [])
        if not rs:
            continue
        tab.append([n, med_of(rs, "elapsed_ms_per_tx"),
                    med_of(rs, "row_lock_ms_per_tx"),
                    med_of(rs, "index_tree_rw_lock_ms_per_tx"),
                    med_of(rs, "file_io_ms_per_tx"),
                    med_of(rs, "file_read_ms_per_tx"),
                    med_of(rs, "file_write_ms_per_tx"),
                    med_of(rs, "compression_ms_per_tx")])
    return md_table(["layout", "elapsed ms/tx", "row lock wait",
                     "index latch wait", "file I/O (all threads)",
                     "of which reads", "of which writes",
                     "(de)compression"], tab)
