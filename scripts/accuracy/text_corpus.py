#!/usr/bin/env python3
"""Natural-language text for the estimator's accuracy table: paragraphs of
English prose from files found on the machine (the upstream LICENSE, the
common licenses, /usr/share/doc and, if installed, Vim's manual), in file
order, as INSERT statements for text_doc(id, source, body). Paragraphs
longer than 1500 characters are cut so that rows stay on their page at
every KEY_BLOCK_SIZE.

With --docs: the same paragraphs joined, in file order, into documents of
8 to 64 KB (sizes cycling through 8, 24, 40, 56, 16, 32, 48, 64 KB), as
INSERT statements for text_blob(id, title, body): columns stored off-page,
as in a wiki or a document store."""
import glob, os, sys

args = [a for a in sys.argv[1:] if a != "--docs"]
docs = "--docs" in sys.argv[1:]
src = args[0] if args else "."
files = [os.path.join(src, "LICENSE")]
files += sorted(glob.glob("/usr/share/common-licenses/*"))
files += sorted(glob.glob("/usr/share/doc/**/*.txt", recursive=True))
files += sorted(glob.glob("/usr/share/vim/vim*/doc/*.txt"))

def esc(s):
    return s.replace("\\", "\\\\").replace("'", "\\'")

rows = []
for f in files:
    try:
        text = open(f, encoding="utf-8", errors="replace").read()
    except OSError:
        continue
    name = os.path.basename(f)[:64]
    for para in text.split("\n\n"):
        para = " ".join(para.split())
        # prose: mostly letters and spaces
        if len(para) < 80 or sum(c.isalpha() or c == " " for c in para) < 0.8 * len(para):
            continue
        while para:
            rows.append((name, para[:1500]))
            para = para[1500:]

print("SET NAMES utf8mb4;")
if docs:
    sizes = [8, 24, 40, 56, 16, 32, 48, 64]
    out, cur, n = [], [], 0
    for _, b in rows:
        cur.append(b)
        n += len(b) + 2
        if n >= sizes[len(out) % len(sizes)] * 1024:
            out.append("\n\n".join(cur))
            cur, n = [], 0
    for i in range(0, len(out), 20):
        chunk = out[i:i + 20]
        print("INSERT INTO text_blob (title, body) VALUES " +
              ",".join("('%s','%s')" % (esc(b[:60]), esc(b)) for b in chunk) + ";")
    sys.stderr.write("%d documents, %d bytes\n" % (len(out), sum(len(b) for b in out)))
    sys.exit(0)
for i in range(0, len(rows), 500):
    chunk = rows[i:i + 500]
    print("INSERT INTO text_doc (source, body) VALUES " +
          ",".join("('%s','%s')" % (esc(n), esc(b)) for n, b in chunk) + ";")
sys.stderr.write("%d paragraphs, %d bytes\n" % (len(rows), sum(len(b) for _, b in rows)))
