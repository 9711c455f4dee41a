"""Table layouts of the TPC-C-like database: what tpcc.lua prepare gets
(table options, padding) and the codec variants of --codecs."""

import json

from . import settings


COMPRESSED = "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=%d"


class Layout:
    """A table layout: what tpcc.lua prepare gets, and its loaded copy.
    rebuild_free_pct: after the load, rebuild every compressed table with
    ALTER TABLE ... FORCE (the tight bulk load of patches 0015-0017) leaving
    this % of each compressed page free (innodb_compression_bulk_free_pct)."""

    def __init__(self, name, table_options="", padding="", note="",
                 rebuild_free_pct=None, codec=None, kind=None):
        self.name = name
        # "none" (uncompressed), "zip" (ROW_FORMAT=COMPRESSED tables),
        # "page" (page compression, COMPRESSION=...: the codec does not
        # apply), "choose" (CH: made from the uncompressed copy by
        # make_choose(), not loaded).
        self.kind = kind or ("zip" if table_options else "none")
        # The page codec the layout is loaded with (innodb_compression_codec);
        # None: the run's (--codec), else the server's default.
        self.codec = codec
        self.table_options = table_options
        self.padding = padding
        self.note = note
        self.rebuild_free_pct = rebuild_free_pct
        self.saved = None
        # After load(): bytes allocated per table (ibd_alloc()) and the
        # split of ibd_split(); CH: the advisor's choices.
        self.alloc = {}
        self.split = {}
        self.choices = []


def codec_names(name, compressed):
    """--codecs zlib,isal: the (name, codec) pairs a configuration runs as,
    a compressed one once per codec, side by side ("A8@zlib", "A8@isal"),
    an uncompressed one, or any without --codecs, once as itself (codec
    None: the run's, --codec, else the server's default)."""
    if not (settings.CODECS and compressed):
        return [(name, None)]
    return [("%s@%s" % (name, k), k) for k in settings.CODECS]


def codec_layouts(layouts):
    """codec_names() of table layouts: each variant a Layout of its own,
    loaded with its codec (the experiment runs it with codec_opts())."""
    return [lay if k is None else
            Layout(n, lay.table_options, lay.padding, lay.note,
                   lay.rebuild_free_pct, codec=k, kind=lay.kind)
            for lay in layouts
            for n, k in codec_names(lay.name, lay.kind == "zip")]


def codec_opts(opts, codec):
    """Server options with innodb_compression_codec = codec (if not None):
    the tables have no codec of their own, they follow the variable."""
    return dict(opts, innodb_compression_codec=codec) if codec else opts


def codec_field(codec):
    """The codec column of a result row under --codecs ("" for an
    uncompressed configuration); without --codecs, none."""
    return {"codec": codec or ""} if settings.CODECS else {}


# Page compression beside ROW_FORMAT=COMPRESSED (issue 29): every table
# COMPRESSION='zlib' (PZ) or 'lz4' (PL), loaded so (tpcc.lua
# --table-options); the page codec (--codec, --codecs) does not apply.
PAGE_LAYOUTS = [("PZ", "zlib"), ("PL", "lz4")]


def page_layouts():
    return [Layout(n, "*:COMPRESSION='%s'" % c, kind="page",
                   note="every table COMPRESSION='%s' (page compression)" % c)
            for n, c in PAGE_LAYOUTS]


def choose_layout():
    """The CH layout before make_choose() makes it (one per mix)."""
    return Layout("CH", kind="choose",
                  note="CHOOSE at 8 KB, delta 0.10, on the uncompressed copy")


# Tables Callaghan compressed: every one but warehouse and district.
TUNED_TABLES = ["customer", "history", "new_orders", "orders", "order_line",
                "item", "stock"]


def opts_for(tables, kbs=8, level=None, threshold=None):
    attr = {}
    if level is not None:
        attr["compression_level"] = level
    if threshold is not None:
        attr["compression_failure_threshold_pct"] = threshold
    o = COMPRESSED % kbs
    if attr:
        o += " ENGINE_ATTRIBUTE='%s'" % json.dumps(attr)
    return ";".join("%s:%s" % (t, o) for t in tables)
