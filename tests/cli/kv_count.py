#!/usr/bin/env python3
"""Read back a database a `dbio run --workload=kv --keep` left behind.

usage: kv_count.py ENGINE FILE

Prints one line, fields separated by spaces:
  records distinct min_key max_key bytes min_value max_value order
records   the engine's own count (SQLite count(*), gdbm's key count, LMDB's
          "Entries:" from mdb_stat -n, the keys a LevelDB or RocksDB
          iterator walks)
distinct  distinct keys read back
min_key, max_key  the smallest and largest key as numbers (dbio's keys are
          16-digit decimal record numbers)
bytes     the sum of key and value lengths over all records
min_value, max_value  the shortest and longest value
order     SQLite only: "asc" if the rows were inserted in ascending key order
          (rowid order), "shuffled" if not; "-" for the other engines

Needs python3's sqlite3, dbm.gnu (Debian python3-gdbm), for LMDB mdb_stat
and mdb_dump (Debian lmdb-utils), and for LevelDB and RocksDB (FILE is then
the database's directory) their shared libraries, called through ctypes
(libleveldb1d, librocksdb7.8): the engine's own code reads its files, not
dbio's. Exits 2 with a message when one is missing or the file cannot be
read.
"""
import subprocess
import sys


def die(msg):
    print(f"kv_count: {msg}", file=sys.stderr)
    sys.exit(2)


def read_sqlite(path):
    import sqlite3

    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    (n,) = db.execute("SELECT count(*) FROM kv").fetchone()
    rows = db.execute("SELECT k, v FROM kv ORDER BY rowid").fetchall()
    db.close()
    keys = [int(bytes(k)) for k, _ in rows]
    order = "asc" if keys == sorted(keys) else "shuffled"
    return n, [(bytes(k), bytes(v)) for k, v in rows], order


def read_gdbm(path):
    try:
        import dbm.gnu
    except ImportError:
        die("python3's dbm.gnu is missing: apt-get install python3-gdbm")
    db = dbm.gnu.open(path, "ru")
    pairs = []
    k = db.firstkey()
    while k is not None:
        pairs.append((k, db[k]))
        k = db.nextkey(k)
    n = len(db)
    db.close()
    return n, pairs, "-"


def read_lmdb(path):
    try:
        stat = subprocess.run(["mdb_stat", "-n", path], capture_output=True, text=True, check=True).stdout
        dump = subprocess.run(["mdb_dump", "-n", path], capture_output=True, text=True, check=True).stdout
    except FileNotFoundError:
        die("mdb_stat/mdb_dump are missing: apt-get install lmdb-utils")
    except subprocess.CalledProcessError as e:
        die(f"{path}: {e.cmd[0]} failed: {e.stderr.strip()}")
    n = None
    for line in stat.splitlines():
        if line.strip().startswith("Entries:"):
            n = int(line.split(":")[1])
    if n is None:
        die(f"{path}: no Entries: line in mdb_stat -n output")
    lines = dump.splitlines()
    body = lines[lines.index("HEADER=END") + 1 : lines.index("DATA=END")]
    vals = [bytes.fromhex(l.strip()) for l in body]
    return n, list(zip(vals[0::2], vals[1::2])), "-"


def read_lsm(prefix, soname, path):
    """Every key and value of a LevelDB or RocksDB database, walked with the
    engine's own iterator through its C API (the same function names in
    both: leveldb_*, rocksdb_*)."""
    import ctypes

    try:
        lib = ctypes.CDLL(soname)
    except OSError as e:
        die(f"{soname}: {e}")

    def fn(name, res, *args):
        f = getattr(lib, f"{prefix}_{name}")
        f.restype, f.argtypes = res, list(args)
        return f

    vp, sz = ctypes.c_void_p, ctypes.c_size_t
    options_create = fn("options_create", vp)
    open_db = fn("open", vp, vp, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p))
    readoptions_create = fn("readoptions_create", vp)
    create_iterator = fn("create_iterator", vp, vp, vp)
    seek_first = fn("iter_seek_to_first", None, vp)
    valid = fn("iter_valid", ctypes.c_ubyte, vp)
    nxt = fn("iter_next", None, vp)
    key = fn("iter_key", ctypes.POINTER(ctypes.c_char), vp, ctypes.POINTER(sz))
    value = fn("iter_value", ctypes.POINTER(ctypes.c_char), vp, ctypes.POINTER(sz))
    iter_destroy = fn("iter_destroy", None, vp)
    close = fn("close", None, vp)
    err = ctypes.c_char_p()
    db = open_db(options_create(), path.encode(), ctypes.byref(err))
    if not db:
        die(f"{path}: {prefix}_open: {err.value.decode() if err.value else 'failed'}")
    it = create_iterator(db, readoptions_create())
    pairs = []
    seek_first(it)
    kl, vl = sz(), sz()
    while valid(it):
        k = key(it, ctypes.byref(kl))
        v = value(it, ctypes.byref(vl))
        pairs.append((ctypes.string_at(k, kl.value), ctypes.string_at(v, vl.value)))
        nxt(it)
    iter_destroy(it)
    close(db)
    return len(pairs), pairs, "-"


def main():
    if len(sys.argv) != 3:
        die("usage: kv_count.py ENGINE FILE")
    engine, path = sys.argv[1:]
    readers = {
        "sqlite": read_sqlite,
        "gdbm": read_gdbm,
        "lmdb": read_lmdb,
        "leveldb": lambda p: read_lsm("leveldb", "libleveldb.so.1d", p),
        "rocksdb": lambda p: read_lsm("rocksdb", "librocksdb.so.7.8", p),
    }
    if engine not in readers:
        die(f"unknown engine {engine}")
    n, pairs, order = readers[engine](path)
    keys = [int(k) for k, _ in pairs]
    vlens = [len(v) for _, v in pairs] or [0]
    print(
        n,
        len(set(keys)),
        min(keys, default=-1),
        max(keys, default=-1),
        sum(len(k) + len(v) for k, v in pairs),
        min(vlens),
        max(vlens),
        order,
    )


main()
