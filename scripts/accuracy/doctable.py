"""What scripts/accuracy/page-table.py and file-table.py share: the command
line ([--OPTION VALUE] [--check DOC] CSV ...) and the check that DOC holds
the generated table verbatim."""
import contextlib
import io
import sys

# stat -f names ext4 by its magic number, which ext2 and ext3 share.
FS = {"ext2/ext3": "ext4"}
NAMES = {"random": "random bytes", "dbt2": "TPC-C DBT-2", "spec": "TPC-C spec",
         "text": "English text", "docs": "documents off-page"}


def run(argv, table, option, default, what, script):
    """Parse argv, print table(csvs, value) or, with --check DOC, fail
    unless DOC holds it. option: the numeric option (--points, --pct) with
    its default; what: the table's name in messages; script: the script
    that prints it. Returns the exit status."""
    value = default
    check = None
    while argv[:1] in ([option], ["--check"]):
        if argv[0] == option:
            value = float(argv[1])
        else:
            check = argv[1]
        argv = argv[2:]
    if check:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            table(argv, value)
        if out.getvalue().strip() not in open(check).read():
            print("%s: the %s differs from what %s give: run %s on them and paste it"
                  % (check, what, " ".join(argv), script))
            return 1
        print("%s: the %s matches %d CSVs" % (check, what, len(argv)))
        return 0
    table(argv, value)
    return 0


