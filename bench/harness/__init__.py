"""The benchmark harness (bench/run.sh runs `python3 -m harness`): the
command line in cli.py, one module per experiment in experiments/, and
what they share:

  paths.py     where things are (scripts/common.sh's cache and build tree)
  settings.py  the schema's names and the run-wide --data, --codec(s) ...
  server.py    one mysqld, through scripts/server-lib.sh
  datadir.py   the base data directory, kept copies, bytes on disk
  device.py    storage profiles (--device) and --pool-pct
  metrics.py   what a run measures, from the server and tpcc.lua
  layouts.py   table layouts and their codec variants
  tpcc.py      loading, CHOOSE, rebuilds, estimates, the measured run
  perf.py      perf call stacks of measured runs (--perf)
  callgrind.py callgrind of mysqld (overhead, hotpath)
  report.py    CSV and Markdown helpers
  plots.py     matplotlib plots
"""
