"""mysql.connector.connect() and mysql.connector.Error over PyMySQL, as
mysql-test/suite/innodb_stress/t/load_generator.py uses them: connect()
with user, host, port, db, ssl_disabled and raw; a connection's cursor()
(buffered or not: PyMySQL's cursors buffer), commit(), rollback(), close()
and the autocommit attribute; errors whose args[0] is the server's or the
client's error number. raw=True returns every value as bytes, as
mysql.connector does."""
try:
    import pymysql
except ImportError:
    # A python3 other than Debian's (pyenv, a venv) on PATH: Debian's
    # package is in its dist-packages.
    import sys
    sys.path.append("/usr/lib/python3/dist-packages")
    import pymysql

Error = pymysql.MySQLError


class _Connection:
    def __init__(self, con):
        self._con = con

    @property
    def autocommit(self):
        return self._con.get_autocommit()

    @autocommit.setter
    def autocommit(self, value):
        self._con.autocommit(bool(value))

    def cursor(self, buffered=False, **_):
        return self._con.cursor()

    def commit(self):
        self._con.commit()

    def rollback(self):
        self._con.rollback()

    def close(self):
        self._con.close()


def connect(user=None, host="127.0.0.1", port=3306, db=None, database=None,
            password="", ssl_disabled=True, raw=False, **_):
    kwargs = dict(user=user, host=host, port=int(port), password=password,
                  database=database or db, autocommit=False)
    if raw:
        # No conversion, no decoding: bytes, as mysql.connector's raw mode.
        kwargs.update(use_unicode=False, conv={})
    return _Connection(pymysql.connect(**kwargs))
