"""Logging of the harness."""

import sys
import time


def log(msg):
    print("[bench %s] %s" % (time.strftime("%H:%M:%S"), msg), flush=True)


def die(msg):
    log("ERROR: " + msg)
    sys.exit(1)
