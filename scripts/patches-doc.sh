#!/usr/bin/env bash
# Generates PATCHES.md, the index of the patch series, from the series files
# and the patch headers: the headers are the one source of truth, PATCHES.md
# is derived from them and never edited by hand.
#   bash scripts/patches-doc.sh            write PATCHES.md
#   bash scripts/patches-doc.sh --check    exit 1 if PATCHES.md differs from
#                                          what would be written (CI)
#   bash scripts/patches-doc.sh --stdout   print it instead of writing it
# Either way it first checks every header: DEP-3 fields Subject, Author and
# Forwarded; paragraphs What, Why and Tests; every compress.NAME test a
# Tests paragraph names exists in mysql-test/suite/compress/t (upstream
# suite.NAME tests are checked too when the pristine tree is in the cache).
# Exit status 2 when a header breaks these rules.
set -euo pipefail
. "$(dirname "$0")/common.sh"

mode=write
case "${1:-}" in
  '') ;;
  --check) mode=check ;;
  --stdout) mode=stdout ;;
  *) printf 'usage: %s [--check|--stdout]\n' "$0" >&2; exit 2 ;;
esac
command -v python3 >/dev/null ||
  die "python3 is needed to generate PATCHES.md (bash scripts/setup-deps.sh installs it)"

out=$(mktemp "${TMPDIR:-/tmp}/patches-doc.XXXXXX")
trap 'rm -f "$out"' EXIT

UPSTREAM_DEBVER="$UPSTREAM_DEBVER" UPSTREAM_SHA256="$UPSTREAM_SHA256" \
UPSTREAM_PKG="$UPSTREAM_PKG" UPSTREAM_VER="$UPSTREAM_VER" \
python3 - "$COMPRESS_ROOT" "$PRISTINE_DIR" > "$out" <<'PYEOF'
import os
import re
import sys

ROOT, PRISTINE = sys.argv[1], sys.argv[2]
SERIES = [
    ("patches/series", "patches",
     "Upstream files outside InnoDB (applied first)"),
    ("storage/innobase/patches/series", "innodb",
     "InnoDB (storage/innobase)"),
]
FIELDS_REQUIRED = ["Subject", "Author", "Forwarded"]
LABELS = ["What", "Why", "Tests", "Hooks", "Scope", "Limits", "Cost"]
LABELS_REQUIRED = ["What", "Why", "Tests"]
SUITE_DIR = "mysql-test/suite/compress/t"
UPSTREAM_SUITES = ["innodb_zip", "innodb", "main", "sys_vars"]

errors = []


def err(msg):
    errors.append(msg)


# --- reading the series and the patches -----------------------------------

def read_series(path):
    names = []
    with open(os.path.join(ROOT, path)) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            names.append(line.split()[0])
    return names


HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def parse_patch(path):
    """Header lines, and {file: [added, removed]} in order of appearance."""
    with open(path) as f:
        lines = f.read().split("\n")
    start = None
    for i in range(len(lines) - 1):
        if lines[i].startswith("--- ") and lines[i + 1].startswith("+++ "):
            start = i
            break
    if start is None:
        err("%s: no diff in it" % path)
        return lines, {}, {}
    header = lines[:start]
    files, added_lines = {}, {}
    i = start
    cur = None
    while i < len(lines):
        line = lines[i]
        if line.startswith("--- ") and i + 1 < len(lines) and \
                lines[i + 1].startswith("+++ "):
            new = lines[i + 1][4:].split("\t")[0]
            old = line[4:].split("\t")[0]
            name = new if new != "/dev/null" else old
            cur = name.split("/", 1)[1] if "/" in name else name
            files.setdefault(cur, [0, 0])
            added_lines.setdefault(cur, [])
            i += 2
            continue
        m = HUNK.match(line)
        if m and cur is not None:
            old_n = int(m.group(1)) if m.group(1) is not None else 1
            new_n = int(m.group(2)) if m.group(2) is not None else 1
            i += 1
            while (old_n > 0 or new_n > 0) and i < len(lines):
                l = lines[i]
                if l.startswith("\\"):
                    pass
                elif l.startswith("+"):
                    files[cur][0] += 1
                    added_lines[cur].append(l[1:])
                    new_n -= 1
                elif l.startswith("-"):
                    files[cur][1] += 1
                    old_n -= 1
                else:
                    old_n -= 1
                    new_n -= 1
                i += 1
            continue
        i += 1
    return header, files, added_lines


FIELD = re.compile(r"^([A-Za-z][A-Za-z0-9-]*):(?: (.*)|)$")
LABEL = re.compile(r"^(%s):(?: (.*)|)$" % "|".join(LABELS))
BAD_START = ("--- ", "+++ ", "*** ", "diff ", "Index:", "@@", "===")


def parse_header(name, header):
    lines = [l.rstrip() for l in header]
    for l in lines:
        if l.startswith(BAD_START):
            err("%s: header line %r would be read as a diff by patch" % (name, l))
    while lines and not lines[0]:
        lines.pop(0)
    fields, order = {}, []
    i = 0
    while i < len(lines) and lines[i]:
        m = FIELD.match(lines[i])
        if m:
            key = m.group(1)
            fields[key] = (m.group(2) or "").strip()
            order.append(key)
        elif lines[i][:1].isspace() and order:
            fields[order[-1]] += " " + lines[i].strip()
        else:
            err("%s: %r in the field paragraph is not a DEP-3 field" % (name, lines[i]))
        i += 1
    sections, sorder = {}, []
    cur = None
    for l in lines[i:]:
        m = LABEL.match(l)
        if m:
            cur = m.group(1)
            if cur in sections:
                err("%s: two %s: paragraphs" % (name, cur))
            sections[cur] = [m.group(2) or ""]
            sorder.append(cur)
        elif cur is None:
            if l:
                err("%s: %r is outside any of the paragraphs %s" %
                    (name, l, ", ".join(l2 + ":" for l2 in LABELS)))
        else:
            sections[cur].append(l)
    for k in sections:
        while sections[k] and not sections[k][-1]:
            sections[k].pop()
    for f in FIELDS_REQUIRED:
        if not fields.get(f):
            err("%s: no DEP-3 field %s:" % (name, f))
    for f in LABELS_REQUIRED:
        if f not in sections or not any(sections[f]):
            err("%s: no %s: paragraph" % (name, f))
    fwd = fields.get("Forwarded", "")
    if fwd and fwd not in ("no", "not-needed") and "://" not in fwd:
        err("%s: Forwarded: is %r (no, not-needed or a URL)" % (name, fwd))
    return fields, order, sections, sorder


TEST_REF = re.compile(r"\b(compress|%s)\.([A-Za-z0-9_*-]+[A-Za-z0-9_*])" %
                      "|".join(UPSTREAM_SUITES))


def check_tests(name, text):
    for suite, test in TEST_REF.findall(text):
        pattern = re.compile("^" + re.escape(test).replace(r"\*", ".*") + r"\.test$")
        if suite == "compress":
            d = os.path.join(ROOT, SUITE_DIR)
        elif os.path.isdir(os.path.join(PRISTINE, "mysql-test")):
            d = os.path.join(PRISTINE, "mysql-test",
                             "t" if suite == "main" else "suite/%s/t" % suite)
        else:
            continue
        present = os.listdir(d) if os.path.isdir(d) else []
        if not any(pattern.match(f) for f in present):
            err("%s: its Tests: paragraph names %s.%s, which is not in %s" %
                (name, suite, test, os.path.relpath(d, ROOT)
                 if d.startswith(ROOT) else d))


# --- markdown --------------------------------------------------------------

PATH_DIRS = ("storage|plugin|include|mysql-test|bench|scripts|docs|page|dict|"
             "btr|handler|srv|lob|log|row|buf|fil|os|ut|gis|sync|memory|wait|"
             "share|patches|sql|components")
CODE_PATTERNS = [
    re.compile(r"^[\w.+-]+\.(cc|h|ic|cmake|txt|test|result|inc|opt|sh|py|md|"
               r"patch|sql)$"),
    re.compile(r"^(%s)/\S*$" % PATH_DIRS),
    re.compile(r"^(compress|%s)\.[\w*-]+$" % "|".join(UPSTREAM_SUITES)),
    re.compile(r"^-?-?[A-Za-z][\w-]*=\S+$"),
]


def is_code(core):
    if "`" in core or not re.search(r"[A-Za-z]", core):
        return False
    if core.count("(") != core.count(")") or core.count("[") != core.count("]"):
        return False
    if "_" in core or "::" in core or core.endswith("()") or "->" in core:
        return True
    return any(p.match(core) for p in CODE_PATTERNS)


def escape(s):
    out = []
    for j, c in enumerate(s):
        if c in "\\`*[]~|":
            out.append("\\" + c)
        elif c == "<":
            out.append("&lt;")
        elif c == "_":
            prev = s[j - 1] if j else ""
            nxt = s[j + 1] if j + 1 < len(s) else ""
            out.append("_" if prev.isalnum() and nxt.isalnum() else "\\_")
        else:
            out.append(c)
    return "".join(out)


def token(tok):
    m = re.match(r"^([(\"']*)(.*?)([),.;:\"']*)$", tok)
    lead, core, trail = m.group(1), m.group(2), m.group(3)
    while trail and trail[0] == ")" and core.count("(") > core.count(")"):
        core, trail = core + ")", trail[1:]
    while trail and trail[0] == "'" and core.count("'") % 2 == 1:
        core, trail = core + "'", trail[1:]
    if core and is_code(core):
        return escape(lead) + "`" + core + "`" + escape(trail)
    return escape(tok)


def inline(text):
    return "".join(t if t.isspace() else token(t)
                   for t in re.split(r"(\s+)", text) if t)


def md_line(line):
    m = re.match(r"^(\s*)(- |\d+\. )?(.*)$", line)
    indent, marker, rest = m.group(1), m.group(2) or "", m.group(3)
    body = inline(rest)
    if not marker and not indent and re.match(r"^(#|>|\+ |\d+[.)] |=+$|-+$)", body):
        body = "\\" + body
    return indent + marker + body


def section_md(label, lines):
    """A labelled paragraph; a line after a list that is neither an item
    nor indented starts a new paragraph (markdown would join it to the
    last item)."""
    out = []
    in_list = False
    for n, l in enumerate(lines):
        item = re.match(r"^(- |\d+\. )", l) is not None
        if in_list and l and not item and not l[:1].isspace():
            out.append("")
            in_list = False
        in_list = in_list or item
        if not l:
            in_list = False
        if n == 0:
            out.append(("**%s:** " % label + md_line(l)).rstrip())
        else:
            out.append(md_line(l) if l else "")
    return out


def cell(s):
    return s.replace("|", "\\|")


# --- the document ----------------------------------------------------------

overlay = []
for d in ("storage", "plugin", "include", "sql", "components"):
    base = os.path.join(ROOT, d)
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = [x for x in dirnames if x != "patches"]
        for f in filenames:
            if f.endswith((".orig", ".rej", "~")):
                continue
            overlay.append(os.path.relpath(os.path.join(dirpath, f), ROOT))
overlay.sort()
overlay_set = set(overlay)

patches = []
for series, key, title in SERIES:
    if not os.path.exists(os.path.join(ROOT, series)):
        continue
    sdir = os.path.dirname(series)
    for name in read_series(series):
        path = os.path.join(ROOT, sdir, name)
        if not os.path.exists(path):
            err("%s names %s, which does not exist" % (series, name))
            continue
        header, files, added = parse_patch(path)
        fields, order, sections, sorder = parse_header(name, header)
        if "Tests" in sections:
            check_tests(name, "\n".join(sections["Tests"]))
        built = []
        for f, lines in added.items():
            if not (f.endswith("CMakeLists.txt") or f.endswith(".cmake")):
                continue
            base = os.path.dirname(f)
            for l in lines:
                if l.lstrip().startswith("#"):
                    continue
                for w in re.findall(r"[\w./-]+\.(?:cc|c|cmake)\b", l):
                    cand = os.path.normpath(os.path.join(base, w))
                    if cand in overlay_set and cand not in built:
                        built.append(cand)
        patches.append(dict(series=series, key=key, title=title, name=name,
                            num=name.split("-")[0], files=files, built=built,
                            fields=fields, sections=sections, sorder=sorder))

if errors:
    for e in errors:
        print("patches-doc: " + e, file=sys.stderr)
    sys.exit(2)

env = os.environ
o = []
w = o.append
w("# The patch series")
w("")
w("<!-- Generated by scripts/patches-doc.sh from the series files and the "
  "patch headers. Do not edit: edit a header and run "
  "`bash scripts/patches-doc.sh`; CI fails while this file is stale. -->")
w("")
w("Upstream is MySQL %s from Debian's source package `%s` (%s, orig tarball "
  "sha256 `%s…%s`, checked by `scripts/fetch-upstream.sh`)." %
  (env["UPSTREAM_VER"], env["UPSTREAM_PKG"], env["UPSTREAM_DEBVER"],
   env["UPSTREAM_SHA256"][:8], env["UPSTREAM_SHA256"][-4:]))
w("`scripts/prepare-tree.sh` builds the source tree in the cache from three "
  "inputs:")
w("")
w("1. the pristine upstream tree;")
w("2. the patches to upstream files, in two quilt-style series applied in "
  "this order:")
w("   `patches/series` (files outside InnoDB) and "
  "`storage/innobase/patches/series` (InnoDB).")
w("   Each patch is applied with `patch -p1 --fuzz=0` to pristine copies of "
  "the files it touches;")
w("   a patch that needs fuzz stops the build. "
  "`COMPRESS_SKIP_PATCHES=\"0003 0002\"` leaves patches out")
w("   by number prefix, to check that a feature's tests fail without its "
  "patch;")
w("3. the files of our own, overlaid at their natural paths "
  "(`storage/`, `plugin/`, `include/`,")
w("   `mysql-test/`). A file of ours that exists upstream is refused: "
  "upstream files change only")
w("   through a patch.")
w("")
w("Only files whose content changed are written into the tree, and files "
  "that a previous run wrote")
w("but that are no longer ours go back to pristine, so ninja rebuilds only "
  "what changed.")
w("")
w("**Why this layout.** New logic lives in new files of ours; the patches "
  "only hook it in (a call,")
w("a field, a variable, one CMakeLists line per new source file), so they "
  "stay small, read as the")
w("list of places where upstream behaves differently, and carry over to a "
  "new upstream release")
w("with little work. One feature per patch, in dependency order, so that "
  "a feature can be left")
w("out with `COMPRESS_SKIP_PATCHES` and its tests seen to fail (a later "
  "patch that builds on it")
w("may then not apply). The plugin (`plugin/compression_stats/`) needs no "
  "patch: MySQL's build")
w("adds every directory under `plugin/`, and mysql-test-run finds the "
  "suite `mysql-test/suite/compress`.")
w("")
w("**Patch headers.** Each patch starts with a header above its first "
  "`--- a/` line, which `patch`")
w("ignores. It follows [DEP-3](https://dep-team.pages.debian.net/deps/dep3/):"
  " a first paragraph of")
w("fields (`Subject:` the one-line title; `Author:`; `Forwarded: no`, not "
  "sent to MySQL, or")
w("`not-needed`, meaningful only in this project), then the long "
  "description in paragraphs")
w("`What:` (what the hunks do and which files of ours they hook in), "
  "`Why:` and `Tests:` (as")
w("`suite.test`), and where needed `Hooks:`, `Scope:`, `Limits:` or "
  "`Cost:`. This file is")
w("generated from those headers and the hunks by `scripts/patches-doc.sh`, "
  "which also checks that")
w("every `compress.*` test a header names exists; `scripts/run-tests.sh` "
  "(CI) runs")
w("`bash scripts/patches-doc.sh --check` first and fails while this file "
  "is stale.")
w("")
w("**Editing the series.** `. scripts/quilt-env.sh` gives a sparse quilt "
  "tree in the cache")
w("(`qadd FILE` brings in a pristine file and `quilt add`s it; "
  "`quilt refresh` writes the patch")
w("with the project's settings from `scripts/quiltrc`; quilt keeps the "
  "header). Then run")
w("`bash scripts/patches-doc.sh`.")
w("")

# index
w("## Index")
w("")
w("| patch | subject | upstream files | lines + / − |")
w("| --- | --- | ---: | ---: |")
for p in patches:
    add = sum(v[0] for v in p["files"].values())
    rem = sum(v[1] for v in p["files"].values())
    label = ("%s/%s" % (p["key"], p["num"])) if p["key"] == "patches" else p["num"]
    w("| [%s](#%s-%s) | %s | %d | +%d / −%d |" %
      (label, p["key"], p["num"], cell(inline(p["fields"]["Subject"])),
       len(p["files"]), add, rem))
w("")

for series, key, title in SERIES:
    group = [p for p in patches if p["series"] == series]
    if not group:
        continue
    w("## `%s`: %s" % (series, title))
    w("")
    for p in group:
        w('### <a id="%s-%s"></a>%s %s' %
          (key, p["num"], p["num"], inline(p["fields"]["Subject"])))
        w("")
        w("`%s/%s` · Forwarded: %s" %
          (os.path.dirname(series), p["name"], p["fields"]["Forwarded"]))
        w("")
        for label in p["sorder"]:
            o.extend(section_md(label, p["sections"][label]))
            w("")
        w("| upstream file | + | − |")
        w("| --- | ---: | ---: |")
        for f, (a, r) in p["files"].items():
            w("| `%s` | %d | %d |" % (f, a, r))
        w("")
        if p["built"]:
            w("Files of ours it adds to the build: %s." %
              ", ".join("`%s`" % f for f in p["built"]))
            w("")

# reverse indexes
w("## Upstream files and the patches that change them")
w("")
w("| upstream file | patches |")
w("| --- | --- |")
by_file = {}
for p in patches:
    for f in p["files"]:
        by_file.setdefault(f, []).append(p)
for f in sorted(by_file):
    w("| `%s` | %s |" % (f, ", ".join(
        "[%s](#%s-%s)" % (p["num"], p["key"], p["num"]) for p in by_file[f])))
w("")

w("## Files of ours")
w("")
w("Overlaid by `scripts/prepare-tree.sh` at these paths (besides the test "
  "suite `mysql-test/suite/compress`).")
w("")
w("| file | how it enters the build |")
w("| --- | --- |")
built_by = {}
for p in patches:
    for f in p["built"]:
        built_by.setdefault(f, p)
for f in overlay:
    if f in built_by:
        p = built_by[f]
        how = "%s by [%s](#%s-%s)" % (
            "INCLUDEd" if f.endswith(".cmake") else "compiled",
            p["num"], p["key"], p["num"])
    elif f.endswith(".h"):
        how = "header"
    elif f.endswith(".sql"):
        how = "SQL script, not built (installed with the `mysql` client)"
    elif f.startswith("plugin/") and f.endswith("CMakeLists.txt"):
        how = "MySQL's build adds every directory under `plugin/`"
    elif f.startswith("plugin/") and "/unittest/" in f:
        how = "a unit test, compiled and run by `scripts/unit-tests.sh`"
    elif f.startswith("plugin/"):
        how = "compiled by the plugin's `CMakeLists.txt`"
    else:
        how = "not in any CMakeLists hunk of the series"
    w("| `%s` | %s |" % (f, how))
print("\n".join(o))
PYEOF

case "$mode" in
  stdout) cat "$out" ;;
  write)
    if cmp -s "$out" "$COMPRESS_ROOT/PATCHES.md"; then
      log "PATCHES.md is up to date"
    else
      cp "$out" "$COMPRESS_ROOT/PATCHES.md"
      log "PATCHES.md written ($(wc -l < "$out") lines)"
    fi ;;
  check)
    if ! cmp -s "$out" "$COMPRESS_ROOT/PATCHES.md"; then
      log "ERROR: PATCHES.md is stale: it is generated from the series and the patch headers, and differs from what they give now:"
      diff -u "$COMPRESS_ROOT/PATCHES.md" "$out" | sed -n '1,40p' >&2 || true
      log "run: bash scripts/patches-doc.sh   (then commit PATCHES.md with the patch change)"
      exit 1
    fi
    log "PATCHES.md matches the series and the patch headers" ;;
esac
