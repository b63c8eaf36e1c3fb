#!/usr/bin/env python3
"""Read back a database a `dbio run --workload=kv --keep` left behind.

usage: kv_count.py ENGINE FILE

Prints one line, fields separated by spaces:
  records distinct min_key max_key bytes min_value max_value order
records   the engine's own count (SQLite count(*), gdbm's key count, LMDB's
          "Entries:" from mdb_stat -n)
distinct  distinct keys read back
min_key, max_key  the smallest and largest key as numbers (dbio's keys are
          16-digit decimal record numbers)
bytes     the sum of key and value lengths over all records
min_value, max_value  the shortest and longest value
order     SQLite only: "asc" if the rows were inserted in ascending key order
          (rowid order), "shuffled" if not; "-" for the other engines

Needs python3's sqlite3, dbm.gnu (Debian python3-gdbm) and, for LMDB,
mdb_stat and mdb_dump (Debian lmdb-utils). Exits 2 with a message when one is
missing or the file cannot be read.
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


def main():
    if len(sys.argv) != 3:
        die("usage: kv_count.py ENGINE FILE")
    engine, path = sys.argv[1:]
    readers = {"sqlite": read_sqlite, "gdbm": read_gdbm, "lmdb": read_lmdb}
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
