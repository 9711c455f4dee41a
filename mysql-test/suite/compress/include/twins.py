#!/usr/bin/env python3
"""Differential twins: one seeded workload, an uncompressed table and its
compressed twins, and a check that every twin holds exactly the rows of the
uncompressed table (issue 45, section 2).

Every statement of the workload is applied to the reference table
(ROW_FORMAT=DYNAMIC) and to every twin inside one transaction (DML) or, for
DDL, to every table in turn under one lock, so the twins must agree whatever
the interleaving of the connections. At each checkpoint (every
--checkpoint-every statements, all connections paused) and at the end,
CHECKSUM TABLE of each twin is compared with the reference's, and so are a
digest of each secondary index (read through it with FORCE INDEX); on a
difference the rows are compared one by one in primary key order and the
first differing key is reported with both rows' digests. At the end CHECK
TABLE runs on every table. Exit status 0: all equal; 1: a difference or a
failed check; 2: an error (a statement failed, the server went away).

The tables (prefix --prefix, default tw_), on a server with 16 KB pages:
  ref          ROW_FORMAT=DYNAMIC, the reference
  k1_isal6     COMPRESSED KEY_BLOCK_SIZE=1,  codec isal, level 6
  k1_zlib1                  KEY_BLOCK_SIZE=1,  codec zlib, level 1
  k2_isal1, k2_zlib6, k4_isal6, k4_zlib1, k8_isal1, k8_zlib6,
  k16_isal6, k16_zlib1      (each size: both codecs, and both levels)
  k8_glob      COMPRESSED KEY_BLOCK_SIZE=8 without ENGINE_ATTRIBUTE: it
               follows innodb_compression_codec and innodb_compression_level,
               which the run switches
  pc_zlib      ROW_FORMAT=DYNAMIC COMPRESSION='zlib' (page compression)
  pc_lz4       ROW_FORMAT=DYNAMIC COMPRESSION='lz4'
Sizes above innodb_page_size are left out. "options" statements toggle the
codec and/or the level of the keyed twins in place (ALTER TABLE ...
ENGINE_ATTRIBUTE=...) and swap the page-compressed twins' algorithm.

Each connection runs its own stream, seeded by (--seed, connection number),
on its own key range; what it generates depends only on its seed, so the
counts printed on stdout are the same at every run of a seed and statement
count. The global modes (innodb_compression_append, _zlib_rescue, _codec,
_level, _codec_check, _bulk_split) are switched at seeded points and put
back at the end.

The server: the small buffer pool (pages evicted and read back) and change
buffering are server options (--innodb-buffer-pool-size=8M
--innodb-change-buffering=all); a warning is printed if they are not set.

Python 3 standard library only: the MySQL protocol client below speaks
to the server itself (unix socket or TCP; mysql_native_password and
caching_sha2_password, the latter's full authentication only over the
socket), so no client binary is needed.

Usage (see --help): twins.py --socket S --seed 1 --statements 2000
  --connections 2 [--report FILE] [--self-test-corrupt]
  twins.py --dry-run --seed 1 --statements 50   (no server: print the
  statement streams, to check that a seed always gives the same)
"""

import argparse
import bisect
import hashlib
import json
import os
import random
import socket
import struct
import sys
import re
import threading
import time

# ---------------------------------------------------------------------------
# A small MySQL client/server protocol client.

CLIENT_LONG_PASSWORD = 0x1
CLIENT_LONG_FLAG = 0x4
CLIENT_CONNECT_WITH_DB = 0x8
CLIENT_PROTOCOL_41 = 0x200
CLIENT_TRANSACTIONS = 0x2000
CLIENT_SECURE_CONNECTION = 0x8000
CLIENT_MULTI_RESULTS = 0x20000
CLIENT_PLUGIN_AUTH = 0x80000
CLIENT_PLUGIN_AUTH_LENENC_DATA = 0x200000
SERVER_MORE_RESULTS_EXISTS = 0x8
MAX_PACKET = 0xFFFFFF


class MySQLError(Exception):
    def __init__(self, code, state, message):
        super().__init__("ERROR %d (%s): %s" % (code, state, message))
        self.code = code
        self.state = state
        self.message = message


class Result:
    def __init__(self):
        self.columns = []
        self.rows = []
        self.affected = 0
        self.warnings = 0

    def scalar(self):
        return self.rows[0][0] if self.rows else None


def _lenenc(data, i):
    """Length-encoded integer at data[i]: (value, next index); None for NULL."""
    b = data[i]
    if b < 0xFB:
        return b, i + 1
    if b == 0xFB:
        return None, i + 1
    if b == 0xFC:
        return struct.unpack_from("<H", data, i + 1)[0], i + 3
    if b == 0xFD:
        return int.from_bytes(data[i + 1:i + 4], "little"), i + 4
    return struct.unpack_from("<Q", data, i + 1)[0], i + 9


def _lenenc_bytes(b):
    n = len(b)
    if n < 0xFB:
        return bytes([n]) + b
    if n < 0x10000:
        return b"\xfc" + struct.pack("<H", n) + b
    if n < 0x1000000:
        return b"\xfd" + n.to_bytes(3, "little") + b
    return b"\xfe" + struct.pack("<Q", n) + b


def _xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


def _scramble(plugin, password, nonce):
    if not password:
        return b""
    pw = password.encode()
    if plugin == "mysql_native_password":
        h1 = hashlib.sha1(pw).digest()
        h2 = hashlib.sha1(h1).digest()
        return _xor(h1, hashlib.sha1(nonce + h2).digest())
    if plugin == "caching_sha2_password":
        h1 = hashlib.sha256(pw).digest()
        h2 = hashlib.sha256(hashlib.sha256(h1).digest() + nonce).digest()
        return _xor(h1, h2)
    raise MySQLError(2059, "HY000", "authentication plugin %s not supported" % plugin)


class Connection:
    def __init__(self, socket_path=None, host="127.0.0.1", port=3306,
                 user="root", password="", database=None):
        if socket_path:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.connect(socket_path)
            self.secure = True
        else:
            self.sock = socket.create_connection((host, port))
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.secure = False
        self.rf = self.sock.makefile("rb", buffering=1 << 16)
        self.seq = 0
        self.password = password
        self._handshake(user, password, database)

    # -- packets
    def _read_exact(self, n):
        b = self.rf.read(n)
        if b is None or len(b) != n:
            raise MySQLError(2013, "HY000", "Lost connection to MySQL server")
        return b

    def _read_packet(self):
        out = b""
        while True:
            hdr = self._read_exact(4)
            n = hdr[0] | hdr[1] << 8 | hdr[2] << 16
            self.seq = (hdr[3] + 1) & 0xFF
            out += self._read_exact(n)
            if n < MAX_PACKET:
                return out

    def _write_packet(self, payload):
        chunks = []
        while True:
            part, payload = payload[:MAX_PACKET], payload[MAX_PACKET:]
            chunks.append(struct.pack("<I", len(part))[:3] + bytes([self.seq]) + part)
            self.seq = (self.seq + 1) & 0xFF
            if len(part) < MAX_PACKET:
                break
        self.sock.sendall(b"".join(chunks))

    @staticmethod
    def _error(p):
        code = struct.unpack_from("<H", p, 1)[0]
        if p[3:4] == b"#":
            state, msg = p[4:9].decode(), p[9:]
        else:
            state, msg = "HY000", p[3:]
        return MySQLError(code, state, msg.decode("utf-8", "replace"))

    # -- connection phase
    def _handshake(self, user, password, database):
        p = self._read_packet()
        if p[0] == 0xFF:
            raise self._error(p)
        i = p.index(b"\0", 1) + 1          # protocol version, server version
        self.server_version = p[1:i - 1].decode()
        i += 4                              # connection id
        salt = p[i:i + 8]
        i += 9
        caps = struct.unpack_from("<H", p, i)[0]
        i += 2 + 1 + 2                      # capabilities, charset, status
        caps |= struct.unpack_from("<H", p, i)[0] << 16
        i += 2
        salt_len = p[i]
        i += 1 + 10
        if caps & CLIENT_SECURE_CONNECTION:
            n = max(13, salt_len - 8)
            salt += p[i:i + n].rstrip(b"\0")
            i += n
        plugin = "mysql_native_password"
        if caps & CLIENT_PLUGIN_AUTH:
            plugin = p[i:p.index(b"\0", i)].decode()
        flags = (CLIENT_LONG_PASSWORD | CLIENT_LONG_FLAG | CLIENT_PROTOCOL_41
                 | CLIENT_TRANSACTIONS | CLIENT_SECURE_CONNECTION
                 | CLIENT_MULTI_RESULTS | CLIENT_PLUGIN_AUTH
                 | CLIENT_PLUGIN_AUTH_LENENC_DATA)
        if database:
            flags |= CLIENT_CONNECT_WITH_DB
        auth = _scramble(plugin, password, salt[:20])
        resp = struct.pack("<IIB", flags, 1 << 30, 255) + b"\0" * 23
        resp += user.encode() + b"\0" + _lenenc_bytes(auth)
        if database:
            resp += database.encode() + b"\0"
        resp += plugin.encode() + b"\0"
        self._write_packet(resp)
        while True:
            p = self._read_packet()
            if p[0] == 0x00:
                return
            if p[0] == 0xFF:
                raise self._error(p)
            if p[0] == 0xFE:                # authentication switch
                j = p.index(b"\0", 1)
                plugin = p[1:j].decode()
                salt = p[j + 1:].rstrip(b"\0")
                self._write_packet(_scramble(plugin, password, salt[:20]))
            elif p[0] == 0x01:              # caching_sha2_password
                if p[1:2] == b"\x03":      # fast authentication: OK follows
                    continue
                if p[1:2] == b"\x04":
                    if not self.secure:
                        raise MySQLError(2061, "HY000", "caching_sha2_password needs "
                                         "full authentication: use --socket (or a user "
                                         "with mysql_native_password)")
                    self._write_packet(password.encode() + b"\0")
                else:
                    raise MySQLError(2027, "HY000", "unexpected authentication packet")
            else:
                raise MySQLError(2027, "HY000", "unexpected authentication packet")

    # -- commands
    def query(self, sql):
        """Runs one statement; returns the last Result (rows as bytes or None)."""
        self.seq = 0
        self._write_packet(b"\x03" + sql.encode("utf-8"))
        res = None
        while True:
            res = Result()
            p = self._read_packet()
            if p[0] == 0xFF:
                raise self._error(p)
            if p[0] == 0x00:
                res.affected, i = _lenenc(p, 1)
                _, i = _lenenc(p, i)
                status, res.warnings = struct.unpack_from("<HH", p, i)
            elif p[0] == 0xFB:
                raise MySQLError(2027, "HY000", "LOAD DATA LOCAL is not supported")
            else:
                ncols, _ = _lenenc(p, 0)
                for _ in range(ncols):
                    c = self._read_packet()
                    i = 0
                    fields = []
                    for _ in range(6):      # catalog schema table org_table name org_name
                        n, i = _lenenc(c, i)
                        fields.append(c[i:i + n])
                        i += n
                    res.columns.append(fields[4].decode())
                p = self._read_packet()     # EOF after the columns
                while True:
                    p = self._read_packet()
                    if p[0] == 0xFE and len(p) < 9:
                        res.warnings, status = struct.unpack_from("<HH", p, 1)
                        break
                    if p[0] == 0xFF:
                        raise self._error(p)
                    row = []
                    i = 0
                    for _ in range(ncols):
                        n, i = _lenenc(p, i)
                        if n is None:
                            row.append(None)
                        else:
                            row.append(p[i:i + n])
                            i += n
                    res.rows.append(tuple(row))
            if not status & SERVER_MORE_RESULTS_EXISTS:
                return res

    def close(self):
        try:
            self.seq = 0
            self._write_packet(b"\x01")
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass


def s(v):
    """A result value as text."""
    return None if v is None else v.decode("utf-8", "replace")


# ---------------------------------------------------------------------------
# The tables.

COLUMNS = ("id", "grp", "num", "ver", "name", "note", "doc", "bin")
SCHEMA = """(
  id INT UNSIGNED NOT NULL,
  grp SMALLINT NOT NULL,
  num BIGINT NOT NULL,
  ver INT NOT NULL DEFAULT 0,
  name VARCHAR(200) NOT NULL,
  note VARCHAR(1500) NULL,
  doc MEDIUMTEXT NULL,
  bin MEDIUMBLOB NULL,
  PRIMARY KEY (id),
  KEY k_grp (grp, num),
  KEY k_num (num),
  KEY k_name (name(32)),
  KEY k_note (note(16))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"""
# The column the instant ADD/DROP COLUMN statements add and drop (never
# written by DML: a DROP by one connection may come at any point of another's
# stream).
EXTRA_COLUMN = "extra"
EXTRA_DEF = "extra VARCHAR(40) NOT NULL DEFAULT 'instant default'"
# Secondary-index digests compared at each checkpoint (read through the
# index: FORCE INDEX, covering where the index covers them).
INDEX_DIGESTS = (
    ("k_grp", "COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS(',', id, grp, num))), 0)"),
    ("k_num", "COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS(',', id, num))), 0)"),
    ("k_name", "COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS(',', id, LEFT(name, 32)))), 0)"),
    ("k_note", "COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS(',', id, COALESCE(LEFT(note, 16), '-')))), 0)"),
)


class Table:
    def __init__(self, short, kind, kbs=0, codec=None, level=None, pc=None):
        self.short = short        # name without the prefix
        self.kind = kind          # ref, zip, glob, pc
        self.kbs = kbs
        self.codec = codec
        self.level = level
        self.pc = pc
        self.name = None

    def create_options(self):
        if self.kind == "ref":
            return "ROW_FORMAT=DYNAMIC"
        if self.kind == "pc":
            return "ROW_FORMAT=DYNAMIC COMPRESSION='%s'" % self.pc
        opts = "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=%d" % self.kbs
        if self.kind == "zip":
            opts += " ENGINE_ATTRIBUTE='%s'" % self.attribute()
        return opts

    def attribute(self):
        return json.dumps({"compression_codec": self.codec, "compression_level": self.level})

    def describe(self):
        if self.kind == "ref":
            return "ROW_FORMAT=DYNAMIC, the reference"
        if self.kind == "pc":
            return "ROW_FORMAT=DYNAMIC COMPRESSION='%s'" % self.pc
        if self.kind == "glob":
            return "COMPRESSED KEY_BLOCK_SIZE=%d, no ENGINE_ATTRIBUTE (global codec and level)" % self.kbs
        return "COMPRESSED KEY_BLOCK_SIZE=%d, codec %s, level %d" % (self.kbs, self.codec, self.level)


def table_matrix(page_kb, have_isal):
    """The reference first, then the twins (see the module's doc)."""
    tabs = [Table("ref", "ref")]
    for i, kbs in enumerate((1, 2, 4, 8, 16)):
        if kbs > page_kb or page_kb > 16:
            continue
        lv = 6 if i % 2 == 0 else 1
        tabs.append(Table("k%d_isal%d" % (kbs, lv), "zip", kbs,
                          "isal" if have_isal else "zlib", lv))
        tabs.append(Table("k%d_zlib%d" % (kbs, 7 - lv), "zip", kbs, "zlib", 7 - lv))
    if page_kb <= 16:
        tabs.append(Table("k%d_glob" % min(8, page_kb), "glob", min(8, page_kb)))
    tabs.append(Table("pc_zlib", "pc", pc="zlib"))
    tabs.append(Table("pc_lz4", "pc", pc="lz4"))
    return tabs


# ---------------------------------------------------------------------------
# The statement streams.

WORDS = """the of and to in is that for it as was with be by on not he this are
or his from at which but have an they you were her she there been one all we
their has would when if so no what up out who them some could into more time
page table index record row column insert update delete compressed buffer
pool merge split level codec deflate inflate stream block size key value
order line stock warehouse district customer history payment delivery new
item quantity amount price date carrier balance credit discount tax data
entry note comment version number group name text blob field offset length
checksum digest twin reference mirror engine server client session query
transaction commit rollback lock wait change purge flush read write log
caf\u00e9 na\u00efve \u00fcber stra\u00dfe""".split()
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
N_GROUPS = 50
KEY_SPAN = 10_000_000       # each connection's keys: [w * KEY_SPAN + 1, (w + 1) * KEY_SPAN)

# Statement kinds and their weights (out of the sum) in a stream.
DML_WEIGHTS = (
    ("insert_seq", 14), ("insert_rand", 10), ("update_grow", 9),
    ("update_shrink", 8), ("update_offpage", 7), ("update_keys", 7),
    ("update_point", 8), ("delete_range", 6), ("delete_point", 5),
    ("txn_multi", 6), ("txn_rollback", 4), ("read", 6),
)
# Per 10,000 statements.
DDL_WEIGHTS = (
    ("optimize", 25), ("alter_force", 25), ("add_drop_column", 30),
    ("options", 60), ("mode", 200),
)
MODE_VALUES = (
    ("innodb_compression_append", ("ON", "OFF")),
    ("innodb_compression_zlib_rescue", ("OFF", "ZLIB_PAGES", "ON")),
    ("innodb_compression_codec", ("isal", "zlib")),
    ("innodb_compression_level", ("1", "6", "9")),
    ("innodb_compression_codec_check", ("ON", "OFF", "OFF", "OFF")),
    ("innodb_compression_bulk_split", ("TIGHT", "HALF")),
)
MODE_VARS = [v for v, _ in MODE_VALUES]


def sql_str(text):
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


class Stream:
    """The statements of one connection: a function of (seed, worker) only."""

    def __init__(self, seed, worker, target_rows, have_isal=True):
        self.rng = random.Random("twins:%s:%d" % (seed, worker))
        self.worker = worker
        self.base = worker * KEY_SPAN
        self.live = []            # sorted live keys
        self.max_key = self.base
        self.target = target_rows
        self.have_isal = have_isal
        self.n = 0

    # -- values
    def words(self, n_chars):
        r = self.rng
        out = []
        size = 0
        while size < n_chars:
            w = r.choice(WORDS)
            out.append(w)
            size += len(w) + 1
        return " ".join(out)[:n_chars]

    def alnum(self, n):
        return "".join(self.rng.choice(ALNUM) for _ in range(n))

    def text(self, n_chars, random_share):
        """Mostly words, a share of random letters (less compressible)."""
        r = self.rng
        parts = []
        size = 0
        while size < n_chars:
            k = min(n_chars - size, r.randint(20, 400))
            parts.append(self.alnum(k) if r.random() < random_share else self.words(k))
            size += k
        return "".join(parts)[:n_chars]

    def name_value(self):
        r = self.rng
        n = r.choice((r.randint(1, 24), r.randint(10, 60), r.randint(40, 200)))
        return self.words(n) or "x"

    def note_value(self):
        r = self.rng
        x = r.random()
        if x < 0.25:
            return None
        if x < 0.75:
            return self.text(r.randint(0, 300), 0.2)
        return self.text(r.randint(300, 1500), 0.3)

    def doc_value(self):
        r = self.rng
        x = r.random()
        if x < 0.2:
            return None
        if x < 0.8:
            return self.text(r.randint(0, 500), 0.1)
        return self.text(r.randint(2000, 24000), r.choice((0.0, 0.2, 0.5)))

    def bin_value(self):
        """None, or SQL for bytes: text and random bytes mixed."""
        r = self.rng
        x = r.random()
        if x < 0.5:
            return None
        if x < 0.8:
            n = r.randint(10, 200)
        else:
            n = r.randint(1000, 12000)
        raw = bytearray()
        while len(raw) < n:
            k = min(n - len(raw), r.randint(50, 800))
            if r.random() < 0.5:
                raw += self.words(k).encode()[:k]
            else:
                raw += r.randbytes(k)
        return bytes(raw)

    @staticmethod
    def lit(v):
        if v is None:
            return "NULL"
        if isinstance(v, bytes):
            return "X'%s'" % v.hex() if v else "''"
        if isinstance(v, int):
            return str(v)
        return sql_str(v)

    def row_values(self, key):
        r = self.rng
        vals = (key, r.randrange(N_GROUPS), r.randint(-2**40, 2**40), 0,
                self.name_value(), self.note_value(), self.doc_value(), self.bin_value())
        return "(" + ", ".join(self.lit(v) for v in vals) + ")"

    # -- keys
    def _add(self, k):
        bisect.insort(self.live, k)
        self.max_key = max(self.max_key, k)

    def _free_key(self):
        """A key not in use: in a hole below the largest key, or above it."""
        r = self.rng
        for _ in range(20):
            k = r.randint(self.base + 1, self.max_key + 1)
            i = bisect.bisect_left(self.live, k)
            if i == len(self.live) or self.live[i] != k:
                return k
        return self.max_key + r.randint(1, 50)

    def _range(self, max_len):
        """(low, high, keys) of a run of live keys."""
        r = self.rng
        i = r.randrange(len(self.live))
        j = min(len(self.live), i + r.randint(1, max_len))
        return self.live[i], self.live[j - 1], self.live[i:j]

    def _some(self, n):
        return sorted(set(self.rng.choice(self.live) for _ in range(n)))

    # -- DML statements: lists of templates ({t} = table name)
    def dml(self, kind):
        r = self.rng
        if kind == "insert_seq" or (not self.live and kind != "insert_rand"):
            n = r.choice((1, 2, 5, 10, 20))
            keys = [self.max_key + 1 + i for i in range(n)]
            for k in keys:
                self._add(k)
            return "insert_seq", ["INSERT INTO {t} (%s) VALUES %s" % (
                ", ".join(COLUMNS), ", ".join(self.row_values(k) for k in keys))]
        if kind == "insert_rand":
            out = []
            for _ in range(r.randint(1, 5)):
                k = self._free_key()
                self._add(k)
                out.append("INSERT INTO {t} (%s) VALUES %s" % (", ".join(COLUMNS), self.row_values(k)))
            return kind, out
        if kind == "update_grow":
            lo, hi, _ = self._range(40)
            return kind, ["UPDATE {t} SET name = LEFT(CONCAT(name, %s), 200), "
                          "note = LEFT(CONCAT(COALESCE(note, ''), %s), 1500), ver = ver + 1 "
                          "WHERE id BETWEEN %d AND %d" % (
                              sql_str(" " + self.words(r.randint(1, 40))),
                              sql_str(self.text(r.randint(10, 400), 0.3)), lo, hi)]
        if kind == "update_shrink":
            lo, hi, _ = self._range(40)
            return kind, ["UPDATE {t} SET name = LEFT(name, %d), "
                          "note = IF(ver %% 3 = %d, NULL, LEFT(note, %d)), ver = ver + 1 "
                          "WHERE id BETWEEN %d AND %d" % (
                              r.randint(1, 30), r.randrange(3), r.randint(0, 200), lo, hi)]
        if kind == "update_offpage":
            keys = self._some(r.randint(1, 4))
            ids = ", ".join(map(str, keys))
            x = r.random()
            if x < 0.4:      # grow the off-page columns (or bring them off-page)
                big = self.text(r.randint(3000, 20000), r.choice((0.0, 0.3, 0.6)))
                return kind, ["UPDATE {t} SET doc = IF(LENGTH(doc) > 60000, %s, "
                              "CONCAT(COALESCE(doc, ''), %s)), bin = %s, ver = ver + 1 "
                              "WHERE id IN (%s)" % (sql_str(big[:500]), sql_str(big),
                                                    self.lit(self.bin_value()), ids)]
            if x < 0.7:      # shrink them (back in the record)
                return kind, ["UPDATE {t} SET doc = LEFT(doc, %d), bin = IF(ver %% 2 = 0, NULL, "
                              "LEFT(bin, %d)), ver = ver + 1 WHERE id IN (%s)" % (
                                  r.randint(0, 300), r.randint(0, 100), ids)]
            # a partial change in the middle of a long value
            return kind, ["UPDATE {t} SET doc = INSERT(doc, %d, %d, %s), ver = ver + 1 "
                          "WHERE id IN (%s)" % (r.randint(1, 5000), r.randint(0, 200),
                                                sql_str(self.words(r.randint(1, 300))), ids)]
        if kind == "update_keys":
            lo, hi, _ = self._range(60)
            return kind, ["UPDATE {t} SET grp = (grp + %d) %% %d, num = num - %d, "
                          "ver = ver + 1 WHERE id BETWEEN %d AND %d" % (
                              r.randint(1, N_GROUPS - 1), N_GROUPS, r.randint(1, 10**6), lo, hi)]
        if kind == "update_point":
            k = r.choice(self.live)
            return kind, ["UPDATE {t} SET grp = %d, name = %s, note = %s, doc = %s, bin = %s, "
                          "ver = ver + 1 WHERE id = %d" % (
                              r.randrange(N_GROUPS), self.lit(self.name_value()),
                              self.lit(self.note_value()), self.lit(self.doc_value()),
                              self.lit(self.bin_value()), k)]
        if kind == "delete_range":
            lo, hi, keys = self._range(r.choice((5, 30, 80)))
            for k in keys:
                self.live.remove(k)
            return kind, ["DELETE FROM {t} WHERE id BETWEEN %d AND %d" % (lo, hi)]
        if kind == "delete_point":
            keys = self._some(r.randint(1, 5))
            for k in keys:
                self.live.remove(k)
            return kind, ["DELETE FROM {t} WHERE id IN (%s)" % ", ".join(map(str, keys))]
        raise ValueError(kind)

    def _pick_dml(self):
        r = self.rng
        kinds = [k for k, _ in DML_WEIGHTS]
        weights = [w for _, w in DML_WEIGHTS]
        n = len(self.live)
        # Keep the table near its target size: more inserts below it, more
        # deletes above it.
        fill = n / self.target if self.target else 1.0
        adj = []
        for k, w in zip(kinds, weights):
            if k.startswith("insert"):
                w = w * (3.0 if fill < 0.5 else 1.5 if fill < 1.0 else 0.5)
            elif k.startswith("delete"):
                w = w * (0.2 if fill < 0.5 else 1.0 if fill < 1.0 else 3.0)
            adj.append(w)
        return r.choices(kinds, adj)[0]

    def next(self):
        """The next statement: a dict with kind and what to run."""
        r = self.rng
        self.n += 1
        x = r.randrange(10000)
        for kind, w in DDL_WEIGHTS:
            if x < w:
                if kind == "mode":
                    var, vals = r.choice(MODE_VALUES)
                    val = r.choice(vals)
                    if var == "innodb_compression_codec" and not self.have_isal:
                        val = "zlib"
                    return {"kind": "mode", "var": var, "value": val}
                if kind == "options":
                    return {"kind": "options", "what": r.choice(("level", "codec", "both"))}
                return {"kind": kind}
            x -= w
        kind = self._pick_dml()
        if not self.live and kind not in ("insert_seq", "insert_rand"):
            kind = "insert_seq"
        if kind == "read":
            g = r.randrange(N_GROUPS)
            q = r.choice((
                "SELECT COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS(',', id, num))), 0) "
                "FROM {t} FORCE INDEX (k_grp) WHERE grp = %d" % g,
                "SELECT COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS(',', id, ver, LENGTH(doc), "
                "LENGTH(bin)))), 0) FROM {t} FORCE INDEX (k_name) WHERE name LIKE %s"
                % sql_str(r.choice(WORDS)[:2] + "%"),
                "SELECT COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS(',', id, SHA2(doc, 256), "
                "SHA2(bin, 256)))), 0) FROM {t} WHERE id BETWEEN %d AND %d"
                % (self.base, self.base + r.randint(1, max(1, self.max_key - self.base))),
            ))
            return {"kind": "read", "stmts": [q]}
        if kind in ("txn_multi", "txn_rollback"):
            saved = (list(self.live), self.max_key)
            stmts = []
            for _ in range(r.randint(2, 4)):
                k = self._pick_dml()
                if k in ("read", "txn_multi", "txn_rollback"):
                    k = "update_point"
                if not self.live:
                    k = "insert_seq"
                stmts += self.dml(k)[1]
            if kind == "txn_rollback":
                self.live, self.max_key = saved
            return {"kind": kind, "stmts": stmts, "rollback": kind == "txn_rollback"}
        kind, stmts = self.dml(kind)
        return {"kind": kind, "stmts": stmts}


# ---------------------------------------------------------------------------
# The run.

RETRY_CODES = {1213: "deadlock", 1205: "lock_wait_timeout", 1412: "table_def_changed"}


class Failure(Exception):
    """A twin differs from the reference, or a check failed: exit 1."""


class Run:
    def __init__(self, args):
        self.a = args
        self.out_lock = threading.Lock()
        self.ddl_lock = threading.Lock()
        self.stat_lock = threading.Lock()
        self.stop = threading.Event()
        self.error = None
        self.kinds = {}
        self.rows = {"inserted": 0, "updated": 0, "deleted": 0, "rolled_back_ops": 0}
        self.retries = {v: 0 for v in RETRY_CODES.values()}
        self.modes_set = {}
        self.extra_present = False
        self.column_toggles = 0
        self.option_toggles = {"level": 0, "codec": 0}
        self.checkpoints = 0
        self.compared = 0
        self.warnings = []

    # -- output
    def say(self, line):
        """Stable output (stdout): the same at every run of a seed."""
        with self.out_lock:
            print("twins: " + line, flush=True)

    def note(self, line):
        """Progress and timings (stderr, not in an mtr result)."""
        if not self.a.quiet:
            with self.out_lock:
                print("[twins %7.1fs] %s" % (time.time() - self.t0, line),
                      file=sys.stderr, flush=True)

    def warn(self, line):
        self.warnings.append(line)
        with self.out_lock:
            print("twins: WARNING: " + line, file=sys.stderr, flush=True)

    def connect(self):
        a = self.a
        c = Connection(socket_path=a.socket, host=a.host, port=a.port, user=a.user,
                       password=a.password, database=a.database)
        c.query("SET SESSION innodb_lock_wait_timeout = 20")
        c.query("SET SESSION lock_wait_timeout = 600")
        c.query("SET NAMES utf8mb4")
        return c

    def t(self, tab):
        return "`%s`" % tab.name

    # -- server state
    def global_var(self, c, name):
        return s(c.query("SELECT @@GLOBAL.%s" % name).scalar())

    def counters(self, c):
        out = {}
        for row in c.query("SELECT page_size, compress_ops, compress_ops_ok, compress_time, "
                           "uncompress_ops, uncompress_time FROM information_schema.INNODB_CMP").rows:
            ps = int(row[0])
            vals = [int(x) for x in row[1:]]
            out["cmp %5d" % ps] = vals
            tot = out.setdefault("cmp total", [0] * 5)
            for i, v in enumerate(vals):
                tot[i] += v
        for name, val in c.query(
                "SELECT VARIABLE_NAME, VARIABLE_VALUE FROM performance_schema.global_status "
                "WHERE VARIABLE_NAME LIKE 'Innodb\\_zip\\_codec\\_%' OR VARIABLE_NAME IN "
                "('Innodb_buffer_pool_reads', 'Innodb_buffer_pool_read_requests', "
                "'Innodb_pages_written', 'Innodb_data_reads') ORDER BY VARIABLE_NAME").rows:
            if s(val).lstrip("-").isdigit():     # not Innodb_zip_codec_isal_version
                out[s(name)] = int(s(val))
        status = s(c.query("SHOW ENGINE INNODB STATUS").rows[0][2])
        # "merged operations:\n insert 12, delete mark 3, delete 0"
        i = status.find("merged operations:")
        if i >= 0:
            line = status[i:].split("\n")[1]
            for part in line.split(","):
                part = part.strip()
                if part:
                    name, _, num = part.rpartition(" ")
                    out["change buffer merged %s" % name] = int(num)
        return out

    # -- setup
    def setup(self):
        a = self.a
        c = self.connect()
        self.ctl = c
        self.server_version = c.server_version
        page = int(self.global_var(c, "innodb_page_size"))
        self.page_kb = page // 1024
        bp = int(self.global_var(c, "innodb_buffer_pool_size"))
        cb = self.global_var(c, "innodb_change_buffering")
        self.bp, self.cb = bp, cb
        if bp > 64 * 1024 * 1024:
            self.warn("innodb_buffer_pool_size is %d MB: pages may never be evicted and "
                      "read back (run the server with --innodb-buffer-pool-size=8M)" % (bp >> 20))
        if cb.lower() != "all":
            self.warn("innodb_change_buffering is %s: secondary index changes are not "
                      "buffered (run the server with --innodb-change-buffering=all)" % cb)
        self.saved_modes = {}
        for var in MODE_VARS:
            try:
                self.saved_modes[var] = self.global_var(c, var)
            except MySQLError as e:
                raise SystemExit("twins: the server has no %s (not the patched server?): %s"
                                 % (var, e))
        self.have_isal = True
        try:
            c.query("SET GLOBAL innodb_compression_codec = isal")
        except MySQLError:
            self.have_isal = False
            self.warn("the server has no ISA-L codec: the isal twins use zlib")
        c.query("SET GLOBAL innodb_compression_codec = %s" % self.saved_modes["innodb_compression_codec"])
        self.tables = table_matrix(self.page_kb, self.have_isal)
        for tab in self.tables:
            tab.name = a.prefix + tab.short
        self.ref = self.tables[0]
        self.twins = self.tables[1:]
        for tab in self.tables:
            c.query("DROP TABLE IF EXISTS %s" % self.t(tab))
            r = c.query("CREATE TABLE %s %s %s" % (self.t(tab), SCHEMA, tab.create_options()))
            if r.warnings and tab.kind == "pc":
                w = c.query("SHOW WARNINGS").rows
                self.note("%s: %s" % (tab.name, "; ".join(s(x[2]) for x in w)))
        # The global modes start from seeded values too (and are switched
        # at seeded points by the streams).
        rng = random.Random("twins-modes:%s" % a.seed)
        self.initial_modes = []
        for var, vals in MODE_VALUES:
            val = rng.choice(vals)
            if var == "innodb_compression_codec" and not self.have_isal:
                val = "zlib"
            c.query("SET GLOBAL %s = %s" % (var, val))
            self.initial_modes.append("%s=%s" % (var, val))
        self.before = self.counters(c)

    def restore_modes(self):
        try:
            c = self.connect()
            for var, val in self.saved_modes.items():
                c.query("SET GLOBAL %s = %s" % (var, sql_str(val) if not val.isdigit() else val))
            c.close()
        except Exception as e:     # noqa: BLE001 - best effort at the end
            print("twins: could not restore the global modes: %s" % e, file=sys.stderr)

    def drop_tables(self):
        try:
            c = self.connect()
            for tab in self.tables:
                c.query("DROP TABLE IF EXISTS %s" % self.t(tab))
            c.close()
        except Exception as e:     # noqa: BLE001
            print("twins: could not drop the tables: %s" % e, file=sys.stderr)

    # -- executing statements
    def count(self, kind):
        with self.stat_lock:
            self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def run_dml(self, c, op, w):
        kind = op["kind"]
        consistent = kind == "read"
        attempt = 0
        while True:
            attempt += 1
            try:
                c.query("START TRANSACTION WITH CONSISTENT SNAPSHOT" if consistent
                        else "START TRANSACTION")
                affected = []
                for si, tmpl in enumerate(op["stmts"]):
                    ref_res = None
                    for tab in self.tables:
                        res = c.query(tmpl.format(t=self.t(tab)))
                        got = (res.affected, res.rows)
                        if ref_res is None:
                            ref_res = got
                            affected.append(res.affected)
                        elif got != ref_res:
                            detail = self.diagnose(c, tmpl, tab) if consistent else ""
                            c.query("ROLLBACK")
                            raise Failure(detail + 
                                "statement %d of connection %d (%s) gives %s on %s and %s on "
                                "the reference %s: %s" % (
                                    op["n"], w, kind, self.show(got), tab.name,
                                    self.show(ref_res), self.ref.name,
                                    tmpl.format(t=self.t(tab))[:300]))
                c.query("ROLLBACK" if op.get("rollback") or consistent else "COMMIT")
                break
            except MySQLError as e:
                if e.code not in RETRY_CODES or attempt > 50:
                    raise
                with self.stat_lock:
                    self.retries[RETRY_CODES[e.code]] += 1
                try:
                    c.query("ROLLBACK")
                except MySQLError:
                    pass
                time.sleep(0.01 * attempt)
        if op.get("rollback"):
            with self.stat_lock:
                self.rows["rolled_back_ops"] += 1
            return
        with self.stat_lock:
            for tmpl, n in zip(op["stmts"], affected):
                verb = tmpl.split(" ", 1)[0]
                key = {"INSERT": "inserted", "UPDATE": "updated", "DELETE": "deleted"}.get(verb)
                if key:
                    self.rows[key] += n

    def diagnose(self, c, tmpl, tab):
        """A read that differs: within the same snapshot, read it again on
        the twin (a difference that goes away is a wrong read, not wrong
        data) and name the rows whose columns differ."""
        out = []
        again = c.query(tmpl.format(t=self.t(tab))).rows
        ref = c.query(tmpl.format(t=self.t(self.ref))).rows
        out.append("read again in the same snapshot: %s (reference %s)" % (
            "equal" if again == ref else "still differs",
            [tuple(s(v) for v in r) for r in ref[:1]]))
        m = re.search(r"WHERE (.*)$", tmpl)
        where = m.group(1) if m else "TRUE"
        cols = ("SELECT id, ver, LENGTH(doc), LENGTH(bin), CRC32(doc), CRC32(bin), "
                "CRC32(note), num FROM {t} %s ORDER BY id" % ("WHERE " + where))
        if "FORCE INDEX" in tmpl:
            cols = cols.replace("{t} ", "{t} FORCE INDEX (%s) " % re.search(
                r"FORCE INDEX \((\w+)\)", tmpl).group(1))
        a = {r[0]: r for r in c.query(cols.format(t=self.t(tab))).rows}
        b = {r[0]: r for r in c.query(cols.format(t=self.t(self.ref))).rows}
        for k in sorted(set(a) | set(b), key=lambda v: int(v))[:1000]:
            if a.get(k) != b.get(k):
                out.append("row id %s: twin %s, reference %s" % (
                    s(k), a.get(k) and tuple(s(v) for v in a[k]),
                    b.get(k) and tuple(s(v) for v in b[k])))
                if len(out) > 6:
                    break
        return "; ".join(out) + "; "

    @staticmethod
    def show(got):
        aff, rows = got
        if rows:
            return "rows %s" % [tuple(s(v) for v in r) for r in rows[:3]]
        return "%d affected rows" % aff

    def ddl_all(self, c, stmt_for, label):
        """One DDL statement on every table that stmt_for(tab) gives one for."""
        for tab in self.tables:
            sql = stmt_for(tab)
            if sql is None:
                continue
            attempt = 0
            while True:
                attempt += 1
                try:
                    res = c.query(sql)
                    break
                except MySQLError as e:
                    if e.code not in RETRY_CODES or attempt > 20:
                        raise MySQLError(e.code, e.state, "%s (%s on %s)" % (e.message, label, tab.name))
                    with self.stat_lock:
                        self.retries[RETRY_CODES[e.code]] += 1
                    time.sleep(0.05 * attempt)
            for row in res.rows:          # OPTIMIZE TABLE: Table, Op, Msg_type, Msg_text
                if len(row) == 4 and s(row[2]) == "error":
                    raise Failure("%s on %s: %s" % (label, tab.name, s(row[3])))

    def run_ddl(self, c, op):
        kind = op["kind"]
        if kind == "mode":
            c.query("SET GLOBAL %s = %s" % (op["var"], op["value"]))
            with self.stat_lock:
                key = "%s=%s" % (op["var"], op["value"])
                self.modes_set[key] = self.modes_set.get(key, 0) + 1
            return
        with self.ddl_lock:
            if kind == "optimize":
                self.ddl_all(c, lambda tab: "OPTIMIZE TABLE %s" % self.t(tab), kind)
            elif kind == "alter_force":
                self.ddl_all(c, lambda tab: "ALTER TABLE %s FORCE" % self.t(tab), kind)
            elif kind == "add_drop_column":
                # Instant on the DYNAMIC tables; InnoDB rebuilds the
                # compressed ones (no instant ADD/DROP on ROW_FORMAT=COMPRESSED).
                if self.extra_present:
                    self.ddl_all(c, lambda tab: "ALTER TABLE %s DROP COLUMN %s"
                                 % (self.t(tab), EXTRA_COLUMN), kind)
                else:
                    self.ddl_all(c, lambda tab: "ALTER TABLE %s ADD COLUMN %s"
                                 % (self.t(tab), EXTRA_DEF), kind)
                self.extra_present = not self.extra_present
                self.column_toggles += 1
            elif kind == "options":
                what = op["what"]
                for tab in self.twins:
                    if tab.kind == "zip":
                        if what in ("level", "both"):
                            tab.level = 7 - tab.level
                        if what in ("codec", "both") and self.have_isal:
                            tab.codec = "zlib" if tab.codec == "isal" else "isal"
                    elif tab.kind == "pc" and what in ("codec", "both"):
                        tab.pc = "lz4" if tab.pc == "zlib" else "zlib"
                for k in ("level", "codec"):
                    if what in (k, "both"):
                        self.option_toggles[k] += 1

                def stmt(tab):
                    if tab.kind == "zip":
                        return "ALTER TABLE %s ENGINE_ATTRIBUTE=%s" % (self.t(tab), sql_str(tab.attribute()))
                    if tab.kind == "pc" and what in ("codec", "both"):
                        return "ALTER TABLE %s COMPRESSION=%s" % (self.t(tab), sql_str(tab.pc))
                    return None
                self.ddl_all(c, stmt, "options")

    def worker(self, w, stream, quota):
        try:
            c = self.conns[w]
            for _ in range(quota):
                if self.stop.is_set():
                    return
                op = stream.next()
                op["n"] = stream.n
                self.count(op["kind"])
                if "stmts" in op:
                    self.run_dml(c, op, w)
                else:
                    self.run_ddl(c, op)
        except Failure as e:
            self.fail(e)
        except Exception as e:     # noqa: BLE001 - reported, exit 2
            self.fail(e)

    def fail(self, e):
        with self.out_lock:
            if self.error is None:
                self.error = e
        self.stop.set()

    # -- checks
    def digest_sql(self, tab, where=""):
        cols = ["id", "grp", "num", "ver"] + ["COALESCE(SHA2(%s, 256), '-')" % x
                                               for x in ("name", "note", "doc", "bin")]
        if self.extra_present:
            cols.append("COALESCE(%s, '-')" % EXTRA_COLUMN)
        return ("SELECT id, SHA2(CONCAT_WS('#', %s), 256) FROM %s %s ORDER BY id"
                % (", ".join(cols), self.t(tab), where))

    def compare_rows(self, c, tab):
        """The first key where tab's rows differ from the reference's."""
        ref_rows = c.query(self.digest_sql(self.ref)).rows
        tw_rows = c.query(self.digest_sql(tab)).rows
        i = 0
        while i < len(ref_rows) or i < len(tw_rows):
            a = ref_rows[i] if i < len(ref_rows) else None
            b = tw_rows[i] if i < len(tw_rows) else None
            if a != b:
                ka = int(a[0]) if a else None
                kb = int(b[0]) if b else None
                if a is None or (b is not None and kb < ka):
                    return kb, "(no row)", s(b[1])
                if b is None or ka < kb:
                    return ka, s(a[1]), "(no row)"
                return ka, s(a[1]), s(b[1])
            i += 1
        return None

    def column_detail(self, c, tab, key):
        out = []
        for col in COLUMNS[1:]:
            q = "SELECT COALESCE(SHA2(%s, 256), 'NULL'), LENGTH(%s) FROM %%s WHERE id = %d" % (col, col, key)
            a = c.query(q % self.t(self.ref)).rows
            b = c.query(q % self.t(tab)).rows
            if a != b:
                out.append("%s: reference %s, twin %s" % (
                    col, [(s(x), s(y)) for x, y in a], [(s(x), s(y)) for x, y in b]))
        return out

    def checkpoint(self, final=False):
        c = self.ctl
        self.checkpoints += 1
        n = self.checkpoints
        t0 = time.time()
        if self.a.self_test_corrupt and n == 1:
            self.corrupt(c)
        ref_sum = s(c.query("CHECKSUM TABLE %s" % self.t(self.ref)).rows[0][1])
        ref_rows = int(c.query("SELECT COUNT(*) FROM %s" % self.t(self.ref)).scalar())
        ref_idx = {}
        for idx, expr in INDEX_DIGESTS:
            ref_idx[idx] = c.query("SELECT %s FROM %s FORCE INDEX (%s)"
                                   % (expr, self.t(self.ref), idx)).rows[0]
        for tab in self.twins:
            tw_sum = s(c.query("CHECKSUM TABLE %s" % self.t(tab)).rows[0][1])
            self.compared += 1
            if tw_sum != ref_sum:
                diff = self.compare_rows(c, tab)
                msg = ("MISMATCH at checkpoint %d: %s (now %s) CHECKSUM TABLE %s, reference %s %s"
                       % (n, tab.name, tab.describe(), tw_sum, self.ref.name, ref_sum))
                if diff:
                    key, da, db = diff
                    msg += ("\ntwins: first differing key %d: reference row digest %s, twin row "
                            "digest %s" % (key, da, db))
                    if da != "(no row)" and db != "(no row)":
                        for line in self.column_detail(c, tab, key):
                            msg += "\ntwins:   " + line
                else:
                    msg += "\ntwins: no row differs in the digests (a column outside them?)"
                raise Failure(msg)
            for idx, expr in INDEX_DIGESTS:
                got = c.query("SELECT %s FROM %s FORCE INDEX (%s)" % (expr, self.t(tab), idx)).rows[0]
                if got != ref_idx[idx]:
                    raise Failure("MISMATCH at checkpoint %d: index %s of %s (now %s): count and digest "
                                  "%s, reference %s (the clustered index agrees)" % (
                                      n, idx, tab.name, tab.describe(),
                                      [s(x) for x in got], [s(x) for x in ref_idx[idx]]))
        self.last_rows = ref_rows
        self.note("checkpoint %d: %d rows, %d twins equal to the reference (%.1f s)"
                  % (n, ref_rows, len(self.twins), time.time() - t0))

    def corrupt(self, c):
        """--self-test-corrupt: one statement applied to one twin only."""
        tab = self.twins[min(2, len(self.twins) - 1)]
        key = c.query("SELECT id FROM %s ORDER BY id LIMIT 1 OFFSET %d" % (
            self.t(self.ref), 7)).scalar()
        if key is None:
            key = c.query("SELECT MIN(id) FROM %s" % self.t(self.ref)).scalar()
        key = int(key)
        c.query("UPDATE %s SET note = CONCAT(COALESCE(note, ''), '!') WHERE id = %d"
                % (self.t(tab), key))
        self.say("self-test: one UPDATE applied to %s only, at key %d" % (tab.name, key))

    def check_tables(self):
        c = self.ctl
        bad = []
        for tab in self.tables:
            for row in c.query("CHECK TABLE %s" % self.t(tab)).rows:
                mt, txt = s(row[2]), s(row[3])
                if mt == "status" and txt == "OK":
                    continue
                if mt in ("error", "status") or "corrupt" in (txt or "").lower():
                    bad.append("%s: %s %s" % (tab.name, mt, txt))
                else:
                    self.note("CHECK TABLE %s: %s %s" % (tab.name, mt, txt))
        if bad:
            raise Failure("CHECK TABLE failed:\n" + "\n".join("twins:   " + b for b in bad))

    # -- the run
    def main(self):
        a = self.a
        self.t0 = time.time()
        self.saved_modes = {}
        self.tables = []
        try:
            self.setup()
        except MySQLError as e:
            self.say("ERROR during the setup: %s" % e)
            self.restore_modes()
            return 2
        self.say("%d tables: %s and %d twins (%s)" % (
            len(self.tables), self.ref.name, len(self.twins),
            ", ".join(t.short for t in self.twins)))
        if a.statements:
            self.say("seed %s, %d connections, %d statements, a checkpoint every %d" % (
                a.seed, a.connections, a.statements, a.checkpoint_every))
        else:
            self.note("seed %s, %d connections, %d seconds, a checkpoint every %d statements"
                      % (a.seed, a.connections, a.duration, a.checkpoint_every))
        streams = [Stream(a.seed, w, a.rows, self.have_isal) for w in range(a.connections)]
        self.conns = [self.connect() for _ in range(a.connections)]
        K = a.connections
        if a.statements:
            left = [a.statements // K + (1 if w < a.statements % K else 0) for w in range(K)]
        else:
            left = [None] * K
        per_round = [a.checkpoint_every // K + (1 if w < a.checkpoint_every % K else 0)
                     for w in range(K)]
        status = 0
        try:
            while True:
                quotas = [per_round[w] if left[w] is None else min(per_round[w], left[w])
                          for w in range(K)]
                if sum(quotas) == 0:
                    break
                threads = [threading.Thread(target=self.worker, args=(w, streams[w], quotas[w]))
                           for w in range(K)]
                for th in threads:
                    th.start()
                for th in threads:
                    th.join()
                if self.error:
                    raise self.error
                for w in range(K):
                    if left[w] is not None:
                        left[w] -= quotas[w]
                done = sum(st.n for st in streams)
                self.checkpoint()
                self.note("%d statements, %s" % (done, self.kind_summary()))
                if not a.statements and time.time() - self.t0 >= a.duration:
                    break
            self.check_tables()
            after = self.counters(self.ctl)
            self.final_report(after, "OK")
            self.say("statements: %d (%s)" % (sum(self.kinds.values()), self.kind_summary()))
            if a.statements:
                self.say("rows at the end: %d; checkpoints: %d; every twin equal to the "
                         "reference at each; CHECK TABLE clean on %d tables"
                         % (self.last_rows, self.checkpoints, len(self.tables)))
            fails = after.get("Innodb_zip_codec_check_failures", 0) - \
                self.before.get("Innodb_zip_codec_check_failures", 0)
            if fails:
                raise Failure("Innodb_zip_codec_check_failures grew by %d" % fails)
            self.say("OK")
        except Failure as e:
            self.say(str(e))
            self.say("FAILED (seed %s)" % a.seed)
            self.try_report("MISMATCH: %s" % e)
            status = 1
        except MySQLError as e:
            self.say("ERROR: %s" % e)
            self.try_report("ERROR: %s" % e)
            status = 2
        finally:
            self.stop.set()
            for c in getattr(self, "conns", []):
                c.close()
            self.restore_modes()
            if a.cleanup == "always" or (a.cleanup == "success" and status == 0):
                self.drop_tables()
        return status

    def kind_summary(self):
        return ", ".join("%s %d" % (k, self.kinds[k]) for k in sorted(self.kinds))

    def try_report(self, result):
        try:
            after = self.counters(self.connect())
        except Exception:      # noqa: BLE001
            after = {}
        self.final_report(after, result)

    def final_report(self, after, result):
        a = self.a
        if not a.report:
            return
        secs = time.time() - self.t0
        L = []
        L.append("# twins.py report, %s" % time.strftime("%Y-%m-%d %H:%M:%S"))
        L.append("server: %s, innodb_page_size %d KB, innodb_buffer_pool_size %d MB, "
                 "innodb_change_buffering %s" % (self.server_version, self.page_kb,
                                                 self.bp >> 20, self.cb))
        L.append("seed: %s; connections: %d; %s; target rows per connection %d; "
                 "checkpoint every %d statements" % (
                     a.seed, a.connections,
                     "statements %d" % a.statements if a.statements else "duration %d s" % a.duration,
                     a.rows, a.checkpoint_every))
        L.append("seconds: %.1f" % secs)
        L.append("result: %s" % result)
        L.append("statements: %d" % sum(self.kinds.values()))
        for k in sorted(self.kinds):
            L.append("  %-18s %d" % (k, self.kinds[k]))
        L.append("rows: inserted %(inserted)d, updated %(updated)d, deleted %(deleted)d, "
                 "rolled-back transactions %(rolled_back_ops)d" % self.rows)
        L.append("rows at the end: %s" % getattr(self, "last_rows", "?"))
        L.append("checkpoints: %d (%d twin checksums compared)" % (self.checkpoints, self.compared))
        L.append("retries: %s" % ", ".join("%s %d" % kv for kv in sorted(self.retries.items())))
        L.append("column add/drop: %d; option toggles: level %d, codec %d" % (
            self.column_toggles, self.option_toggles["level"], self.option_toggles["codec"]))
        L.append("global modes at the start: " + ", ".join(getattr(self, "initial_modes", [])))
        L.append("global modes set: " + (", ".join("%s x%d" % kv for kv in sorted(self.modes_set.items()))
                                         or "none"))
        L.append("tables at the end:")
        for tab in self.tables:
            L.append("  %-14s %s" % (tab.name, tab.describe()))
        L.append("counters (before, after, delta):")
        keys = sorted(set(self.before) | set(after))
        for k in keys:
            b, e = self.before.get(k), after.get(k)
            if isinstance(b, list) or isinstance(e, list):
                b = b or [0] * 5
                e = e or [0] * 5
                L.append("  %-44s %s" % (
                    "INNODB_CMP " + k[4:] + " ops/ok/time/unops/untime",
                    " | ".join("%d->%d (+%d)" % (x, y, y - x) for x, y in zip(b, e))))
            else:
                b = b or 0
                e = e if e is not None else b
                L.append("  %-44s %d -> %d (+%d)" % (k, b, e, e - b))
        for w in self.warnings:
            L.append("warning: " + w)

        def delta(k, i=None):
            b, e = self.before.get(k), after.get(k)
            if e is None or b is None:
                return 0
            return e[i] - b[i] if i is not None else e - b
        summ = [("statements", sum(self.kinds.values())), ("seconds", "%.0f" % secs),
                ("rows_inserted", self.rows["inserted"]), ("rows_updated", self.rows["updated"]),
                ("rows_deleted", self.rows["deleted"]), ("checkpoints", self.checkpoints),
                ("compress_ops", delta("cmp total", 0)), ("compress_ops_ok", delta("cmp total", 1)),
                ("uncompress_ops", delta("cmp total", 3))]
        for k in ("compress_isal", "compress_zlib", "compress_appended", "compress_rescued",
                  "checks", "check_failures"):
            summ.append(("codec_" + k, delta("Innodb_zip_codec_" + k)))
        summ.append(("buffer_pool_reads", delta("Innodb_buffer_pool_reads")))
        summ.append(("change_buffer_merges", sum(delta(k) for k in after
                                                 if k.startswith("change buffer merged"))))
        summ.append(("result", result.split(":")[0].split()[0]))
        L.append("summary: " + " ".join("%s=%s" % kv for kv in summ))
        mode = "a" if a.report_append else "w"
        with open(a.report, mode) as f:
            f.write("\n".join(L) + "\n\n")


def dry_run(a):
    """No server: print the streams (to check that a seed gives the same)."""
    streams = [Stream(a.seed, w, a.rows) for w in range(a.connections)]
    K = a.connections
    n = a.statements or 100
    counts = {}
    digest = hashlib.sha256()
    for i in range(n):
        w = i % K
        op = streams[w].next()
        counts[op["kind"]] = counts.get(op["kind"], 0) + 1
        line = "%d %d %s %s" % (w, streams[w].n, op["kind"],
                                json.dumps({k: v for k, v in op.items() if k != "kind"}, sort_keys=True))
        digest.update(line.encode())
        if a.dry_run == "print":
            print(line[:a.dry_run_width])
    print("statements %d: %s" % (n, ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    print("live rows per connection: %s" % [len(st.live) for st in streams])
    print("stream digest %s" % digest.hexdigest())


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", default="1")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--statements", type=int, help="total statements (all connections)")
    g.add_argument("--duration", type=float, help="seconds (checkpoint rounds until then)")
    p.add_argument("--connections", type=int, default=2)
    p.add_argument("--checkpoint-every", type=int, default=400,
                   help="statements between checkpoints (all connections)")
    p.add_argument("--rows", type=int, default=1500,
                   help="rows each connection keeps its key range near")
    p.add_argument("--socket", default=os.environ.get("MYSQL_UNIX_PORT"))
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=3306)
    p.add_argument("--user", default="root")
    p.add_argument("--password", default=os.environ.get("MYSQL_PWD", ""))
    p.add_argument("--database", default="test")
    p.add_argument("--prefix", default="tw_")
    p.add_argument("--report", help="write counts, seconds and the result to this file")
    p.add_argument("--report-append", action="store_true", help="append to --report")
    p.add_argument("--cleanup", choices=("success", "always", "never"), default="success",
                   help="drop the tables at the end (default: when all agreed)")
    p.add_argument("--self-test-corrupt", action="store_true",
                   help="apply one UPDATE to one twin only before the first checkpoint: "
                        "the run must fail and name the key")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--dry-run", nargs="?", const="print", choices=("print", "summary"),
                   help="no server: print the streams (or only their counts and digest)")
    p.add_argument("--dry-run-width", type=int, default=200)
    a = p.parse_args()
    if not a.statements and not a.duration:
        a.statements = 1000
    if a.connections < 1 or a.checkpoint_every < a.connections:
        p.error("--connections must be >= 1 and --checkpoint-every >= --connections")
    if a.dry_run:
        dry_run(a)
        return 0
    return Run(a).main()


if __name__ == "__main__":
    sys.exit(main())
