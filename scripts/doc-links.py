#!/usr/bin/env python3
"""Check the links between the project's Markdown files: every relative
link [text](path#anchor) names a file that exists and, with an anchor, a
heading of that file (GitHub's anchors: lower case, punctuation dropped,
spaces to hyphens, -1, -2 for repeats). Usage:
  scripts/doc-links.py [FILE.md ...]   (default: every tracked .md file)
Prints each broken link as file:line; non-zero if any. scripts/unit-tests.sh
runs it."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path, cache={}):
    if path not in cache:
        seen = {}
        out = set()
        in_code = False
        for line in open(path, encoding="utf-8"):
            if line.startswith("```"):
                in_code = not in_code
                continue
            if in_code:
                continue
            out.update(re.findall(r'<a (?:id|name)="([^"]+)"', line))
            m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            text = re.sub(r'<a (?:id|name)="[^"]*"></a>', "", m.group(2))
            text = re.sub(r"`", "", text)
            text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
            a = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
            n = seen.get(a, 0)
            seen[a] = n + 1
            out.add(a if n == 0 else "%s-%d" % (a, n))
        cache[path] = out
    return cache[path]


def main(argv):
    files = argv or [f for f in subprocess.run(
        ["git", "-C", ROOT, "ls-files", "*.md"], capture_output=True,
        text=True).stdout.split() if not f.startswith("bench/results/")]
    bad = 0
    for f in files:
        path = os.path.join(ROOT, f)
        in_code = False
        for no, line in enumerate(open(path, encoding="utf-8"), 1):
            if line.startswith("```"):
                in_code = not in_code
            if in_code:
                continue
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target) or target.startswith("mailto"):
                    continue
                file_part, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                if not os.path.exists(dest):
                    print("%s:%d: no such file: %s" % (f, no, target))
                    bad += 1
                elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                    print("%s:%d: no such heading: %s" % (f, no, target))
                    bad += 1
    if bad:
        print("doc-links: %d broken links" % bad)
        return 1
    print("doc-links: every link of %d Markdown files resolves" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
