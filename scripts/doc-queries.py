#!/usr/bin/env python3
"""A query the docs give a DBA runs in a test: the SQL block of a doc that
follows a marker is the same statement (whitespace aside) as a test's
`let $name =` block, so a change to one that the other does not follow
fails here. Exits 1 and says which pair differs.
  scripts/doc-queries.py"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (doc, the text the ```sql block follows, test, the mysqltest variable)
PAIRS = [
    ("docs/operations.md", "give every such table one pair**",
     "mysql-test/suite/compress/t/part_row_format.test", "own_pairs"),
]


def norm(sql):
    return " ".join(sql.replace(";", " ").split())


def doc_query(path, marker):
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    at = text.find(marker)
    if at < 0:
        return None
    m = re.compile(r"```sql\n(.*?)\n[ ]*```", re.S).search(text, at)
    return m.group(1) if m else None


def test_query(path, name):
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    m = re.search(r"^let \$%s =\n(.*?;)\n" % re.escape(name), text, re.M | re.S)
    return m.group(1) if m else None


def main():
    bad = 0
    for doc, marker, test, name in PAIRS:
        d, t = doc_query(doc, marker), test_query(test, name)
        if d is None or t is None:
            print("doc-queries: %s" % ("no SQL block after %r in %s" % (marker, doc)
                                       if d is None else "no let $%s in %s" % (name, test)))
            bad += 1
        elif norm(d) != norm(t):
            print("doc-queries: the query of %s differs from $%s of %s" % (doc, name, test))
            bad += 1
    if not bad:
        print("doc-queries: %d documented queries are the ones their tests run" % len(PAIRS))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
