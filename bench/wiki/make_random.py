#!/usr/bin/env python3
"""A corpus of the Wikipedia table's columns (id, title, body) made of
random strings over 64 symbols, as TPC-C's a-strings (clause 4.3.2.2):
they compress to about 3/4, the specification's random data. For
bench/wiki-ab.py --corpus.

  bench/wiki/make_random.py --out FILE [--size-mb 25] [--seed 1]"""

import argparse
import random

SYMBOLS = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
           "+/")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--size-mb", type=int, default=25)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    limit = args.size_mb * 1000 * 1000
    n = 0
    with open(args.out, "w") as f:
        i = 0
        while n < limit:
            i += 1
            # Bodies of 300 bytes to 20 KB: in-row and off-page, as the
            # Wikipedia corpus.
            body = "".join(rnd.choices(SYMBOLS, k=rnd.randint(300, 20000)))
            title = "".join(rnd.choices(SYMBOLS, k=rnd.randint(8, 60)))
            line = "%d\t%s\t%s\n" % (i, title, body)
            f.write(line)
            n += len(line)


if __name__ == "__main__":
    main()
