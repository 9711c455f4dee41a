#!/usr/bin/env python3
"""Builds the natural-text table of the Wikipedia experiments (BENCHMARKS.md,
section 5) as a tab-separated file for LOAD DATA: id, title, body.

The text is English prose from Debian 12 documentation packages (installed
by scripts/setup-deps.sh --bench), the closest thing to encyclopaedia
articles that the machine's registries hold:

  linux-doc        the kernel's Documentation/*.rst (42 MB: prose with
                   reStructuredText markup, much like wikitext)
  python3.11-doc   the Python documentation's reStructuredText sources (11 MB)
  perl-doc         the Perl manual's POD files (9 MB)
  dict-gcide       the GNU Collaborative International Dictionary of English,
                   mostly Webster's 1913 (40 MB of definitions and quotations)
  dict-foldoc, dict-jargon, dict-devil
                   the Free On-line Dictionary of Computing, the Jargon File,
                   Bierce's Devil's Dictionary (7 MB)

about 90 MB in all. Each source document (a file, or the running text of a
dictionary) is cut at paragraph boundaries into articles whose sizes follow
a log-normal distribution (median 4 KB, the middle half 2.2-7.4 KB, capped
at 64 KB), so that most articles stay in the row and the long tail goes to
off-page storage, as in a table of wiki articles. The title is the
source document's name and the article's first line.

A table of several hundred MB needs more text than that: the sources are
passed over again with other cut points (a different seed per pass) and the
articles of all passes are shuffled. InnoDB compresses every page on its own
(zlib's window is 32 KB), so text repeated a whole pass (over 100 MB) away
cannot make a page compress better; the size of the table grows, the
compressibility of each page stays that of the sources.

Deterministic: the same packages and arguments give the same file (its
SHA-256 and the package versions are written to OUT.manifest).

Usage: make_corpus.py --out FILE [--size-mb 400] [--seed 1]
"""

import argparse
import glob
import gzip
import hashlib
import math
import os
import random
import re
import subprocess
import sys

SOURCES = [
    # name, package, how to read it
    ("linux", "linux-doc-6.1", "rst_gz",
     "/usr/share/doc/linux-doc-6.1/Documentation/**/*.rst.gz"),
    ("python", "python3.11-doc", "rst",
     "/usr/share/doc/python3.11/html/_sources/**/*.rst.txt"),
    ("perl", "perl-doc", "pod", "/usr/share/perl/5.36/pod/*.pod"),
    ("gcide", "dict-gcide", "dict", "/usr/share/dictd/gcide.dict.dz"),
    ("foldoc", "dict-foldoc", "dict", "/usr/share/dictd/foldoc.dict.dz"),
    ("jargon", "dict-jargon", "dict", "/usr/share/dictd/jargon.dict.dz"),
    ("devil", "dict-devil", "dict", "/usr/share/dictd/devil.dict.dz"),
]

MEDIAN = 4096
SIGMA = 0.9
MIN_BODY = 256
MAX_BODY = 65536


def documents():
    """(source, document name, text) for every source document, in a fixed
    order."""
    for name, pkg, kind, pattern in SOURCES:
        files = sorted(glob.glob(pattern, recursive=True))
        if not files:
            sys.exit("make_corpus: no files for %s (%s): install package %s "
                     "(scripts/setup-deps.sh --bench)" % (name, pattern, pkg))
        for f in files:
            opener = gzip.open if f.endswith((".gz", ".dz")) else open
            with opener(f, "rb") as fh:
                text = fh.read().decode("utf-8", errors="replace")
            text = text.replace("\r", "")
            base = os.path.basename(f)
            doc = re.sub(r"\.(rst\.gz|rst\.txt|pod|dict\.dz)$", "", base)
            yield name, doc, text


def articles(rng, name, doc, text):
    """Cuts one document into articles at paragraph boundaries."""
    paras = re.split(r"\n\s*\n", text)
    body, size = [], 0
    target = cut_size(rng)
    for p in paras:
        p = p.strip("\n")
        if not p.strip():
            continue
        # A paragraph longer than the cap is cut at line boundaries.
        while len(p) > MAX_BODY:
            i = p.rfind("\n", 0, MAX_BODY) + 1 or MAX_BODY
            yield make(name, doc, body + [p[:i]])
            body, size, target = [], 0, cut_size(rng)
            p = p[i:]
        body.append(p)
        size += len(p) + 2
        if size >= target:
            yield make(name, doc, body)
            body, size, target = [], 0, cut_size(rng)
    if body and size >= MIN_BODY:
        yield make(name, doc, body)


def cut_size(rng):
    return int(min(MAX_BODY, max(MIN_BODY,
                                 MEDIAN * math.exp(rng.gauss(0, SIGMA)))))


def make(name, doc, paras):
    body = "\n\n".join(paras)[:MAX_BODY]
    first = next((l.strip(" =*#-") for l in body.splitlines()
                  if l.strip(" =*#-:.") and not l.startswith(("..", "="))),
                 "")
    title = ("%s %s: %s" % (name, doc, first))[:255]
    return title, body


def esc(s):
    return (s.replace("\\", "\\\\").replace("\t", "\\t")
            .replace("\n", "\\n").replace("\0", "\\0"))


def pkg_versions():
    out = []
    for _, pkg, _, _ in SOURCES:
        r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg],
                           capture_output=True, text=True)
        out.append("%s %s" % (pkg, r.stdout.strip() or "?"))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--size-mb", type=float, default=400,
                    help="body bytes to write, in MB (default 400)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    goal = int(args.size_mb * 2**20)
    docs = list(documents())
    unique = sum(len(t) for _, _, t in docs)
    written, rows, passes = 0, 0, 0
    h = hashlib.sha256()
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as out:
        while written < goal:
            rng = random.Random(args.seed * 1000 + passes)
            arts = [a for s, d, t in docs for a in articles(rng, s, d, t)]
            rng.shuffle(arts)
            for title, body in arts:
                rows += 1
                line = "%d\t%s\t%s\n" % (rows, esc(title), esc(body))
                out.write(line)
                h.update(line.encode("utf-8"))
                written += len(body.encode("utf-8"))
                if written >= goal:
                    break
            passes += 1
    os.replace(tmp, args.out)
    with open(args.out + ".manifest", "w") as m:
        m.write("rows %d\nbody_bytes %d\nunique_source_bytes %d\npasses %d\n"
                "seed %d\nsha256 %s\n" % (rows, written, unique, passes,
                                          args.seed, h.hexdigest()))
        m.write("".join("package %s\n" % v for v in pkg_versions()))
    print("make_corpus: %d articles, %.1f MB of body text (%.1f MB unique "
          "source text, %d passes) -> %s" % (rows, written / 2**20,
                                               unique / 2**20, passes, args.out))


if __name__ == "__main__":
    main()
