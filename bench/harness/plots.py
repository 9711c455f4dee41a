"""Plots (matplotlib, if installed; a missing one costs the plot only)."""

from .util import log


def bar_plot(path, title, labels, series, ylabel):
    """series: {name: [values per label]} -> grouped bars with error bars
    given as (median, min, max) tuples."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib missing: no plot " + path)
        return
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(labels) * len(series)), 4))
    width = 0.8 / max(len(series), 1)
    for i, (name, vals) in enumerate(series.items()):
        xs = [j + i * width for j in range(len(labels))]
        med = [v[0] for v in vals]
        err = [[v[0] - v[1] for v in vals], [v[2] - v[0] for v in vals]]
        ax.bar(xs, med, width, yerr=err, capsize=3, label=name)
    ax.set_xticks([j + width * (len(series) - 1) / 2 for j in range(len(labels))])
    ax.set_xticklabels(labels, rotation=20, ha="right")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if len(series) > 1:
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def stacked_plot(path, title, labels, series, ylabel):
    """series: {part: [value per label]} -> one stacked bar per label."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib missing: no plot " + path)
        return
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(labels)), 4))
    bottom = [0.0] * len(labels)
    for name, vals in series.items():
        ax.bar(labels, vals, bottom=bottom, label=name)
        bottom = [a + b for a, b in zip(bottom, vals)]
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7)
    plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def curve_plot(path, curve, u_mb, c_mbs, bp_mb, disks=(0,)):
    """c_mbs: {compressed layout ("8K", or "8K@isal" under --codecs): MB}."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib missing: no plot " + path)
        return
    fig, axes = plt.subplots(1, len(disks), figsize=(7 * len(disks), 4),
                             squeeze=False)
    for ax, d in zip(axes[0], disks):
        for lay, label in [("N", "uncompressed")] + [
                (c, "compressed 8 KB" + (" (%s)" % c.partition("@")[2]
                                         if "@" in c else ""))
                for c in c_mbs]:
            rs = [r for r in curve if r["layout"] == lay and r["read_iops"] == d]
            ax.plot([r["range_frac"] * u_mb for r in rs],
                    [r["reads_per_s"] for r in rs], marker="o", label=label)
        ax.axvline(bp_mb, color="grey", ls="--")
        ax.text(bp_mb, ax.get_ylim()[1] * 0.95, " pool = range (N)", fontsize=8)
        for i, (c, c_mb) in enumerate(c_mbs.items()):
            ax.axvline(bp_mb * u_mb / c_mb, color="grey", ls=":")
            ax.text(bp_mb * u_mb / c_mb, ax.get_ylim()[1] * (0.85 - 0.1 * i),
                    " pool = range (%s)" % c, fontsize=8)
        ax.set_xlabel("key range, MB of uncompressed data")
        ax.set_ylabel("point reads/s")
        ax.set_title("Buffer pool %d MB, %s" % (
            bp_mb, "this disk" if d == 0 else "disk throttled to %d reads/s" % d))
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
