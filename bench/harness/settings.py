"""What a run measures: the benchmark's schema (constants) and the
run-wide choices cli.main() sets from the command line (--data,
--load-threads, --codec, --codecs). Read these as settings.DATA,
settings.CODEC ...: a name imported from here would keep the value it had
at import time."""

DB = "tpcc"
TABLES = ["warehouse", "district", "customer", "history", "new_orders",
          "orders", "order_line", "item", "stock"]
TX_TYPES = ["new_order", "payment", "order_status", "delivery", "stock_level"]


# The initial data of tpcc.lua prepare (--data; BENCHMARKS.md "Data"):
# spec, dbt2 or aged. Set once by main() for the whole run.
DATA = "spec"
DATA_CHOICES = ("spec", "dbt2", "aged")
# Sessions that load the warehouses in parallel (tpcc.lua prepare
# --threads; --load-threads). Each session inserts its warehouses in key
# order, so with 2 or more the inserts of a table go to several places.
LOAD_THREADS = 2
# --codec: the page codec of every server of the run (None: the default);
# --codecs: tuning, paper and wiki run each compressed configuration with
# each of these (codec_names()).
CODEC = None
CODECS = []
