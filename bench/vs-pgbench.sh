#!/usr/bin/env bash
# vs-pgbench.sh: dbio's workload=postgres against PostgreSQL's own tools on
# the same directory, the same server settings, taking turns, median of N
# (issue 15):
#   transactions  dbio's transaction phase (pgbench's TPC-B-like script from
#                 -c clients, -t transactions each, at -s scale) against
#                 pgbench -M simple -n -c C -j C -t T on a server just made
#                 by initdb and loaded by pgbench -i -s S, then CHECKPOINT
#                 (dbio's phase also follows a CHECKPOINT): tps of each and
#                 dbio / pgbench
#   import        dbio's import phase (COPY of -r rows, one COPY) against
#                 psql -c "\copy records FROM FILE" of rows of the same
#                 shape and size distribution (dbio's generator is its own,
#                 so not byte for byte the same rows): rows/s of each
#
#   bench/vs-pgbench.sh [-d DIR] [-n TURNS] [-s SCALE] [-c CLIENTS] [-t TXNS] [-r ROWS]
#
#   -d DIR      parent of the scratch directory (default /var/tmp); the user
#               postgres must be able to reach it; removed at the end
#   -n TURNS    turns of each tool (default 5)
#   -s, -c, -t  pgbench's scale, clients, transactions per client (1, 4, 500)
#   -r ROWS     rows of the import (default 500000)
#
# Settings of both: PostgreSQL's defaults, which dbio passes explicitly.
# Environment: DBIO (default ../dbio next to bench/). Needs root (the
# servers run as postgres through runuser), postgresql-15, python3.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PARENT=/var/tmp
TURNS=5
SCALE=1
CLIENTS=4
TXNS=500
ROWS=500000

opt() {
	case $1 in
	d) PARENT=$2 ;;
	n) TURNS=$2 ;;
	s) SCALE=$2 ;;
	c) CLIENTS=$2 ;;
	t) TXNS=$2 ;;
	r) ROWS=$2 ;;
	esac
}
bench_opts d:n:s:c:t:r: "$@"
whole -n "$TURNS"
whole -s "$SCALE"
whole -c "$CLIENTS"
whole -t "$TXNS"
whole -r "$ROWS"
[ "$(id -u)" -eq 0 ] || die "needs root: the servers run as the user postgres (runuser)"
need_dbio
BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$BIN/pgbench" ] || die "no pgbench in /usr/lib/postgresql/*/bin: install postgresql-15"

SCRATCH=$(mktemp -d "$PARENT/dbio-vs-pgbench.XXXXXX")
chmod 755 "$SCRATCH"
PGDIR=$SCRATCH/pg
TARGET=$SCRATCH/target # dbio's: it refuses a directory holding files not its own
mkdir -m 755 "$TARGET"
bench_cleanup() {
	[ -f "$PGDIR/data/postmaster.pid" ] && runuser -u postgres -- "$BIN/pg_ctl" -D "$PGDIR/data" -m immediate stop >/dev/null 2>&1
	rm -rf "$SCRATCH"
}

SETTINGS=(-c shared_buffers=128MB -c wal_level=replica -c fsync=on -c synchronous_commit=on
	-c full_page_writes=on -c checkpoint_timeout=5min -c max_wal_size=1GB
	-c wal_sync_method=fdatasync -c maintenance_work_mem=64MB)

# server_up: a fresh cluster in $PGDIR, started as dbio starts its own.
server_up() {
	mkdir -m 700 "$PGDIR" && chown postgres: "$PGDIR"
	runuser -u postgres -- "$BIN/initdb" -D "$PGDIR/data" -U postgres --auth=trust -E UTF8 --locale=C \
		>"$SCRATCH/initdb.log" 2>&1 || die "initdb failed: $(tail -3 "$SCRATCH/initdb.log")"
	runuser -u postgres -- "$BIN/pg_ctl" -D "$PGDIR/data" -w -l "$PGDIR/server.log" \
		-o "-c listen_addresses= -c unix_socket_directories=$PGDIR ${SETTINGS[*]}" start >/dev/null ||
		die "the server did not start: $(tail -3 "$PGDIR/server.log")"
}
server_down() {
	runuser -u postgres -- "$BIN/pg_ctl" -D "$PGDIR/data" -m fast stop >/dev/null
	rm -rf "$PGDIR"
}
psql_() { "$BIN/psql" -X -q -h "$PGDIR" -U postgres -d postgres "$@"; }

# dbio_run PHASE KEYS...: the phase's ops/s from a dbio run.
dbio_run() {
	local phase=$1
	shift
	"$DBIO" run --workload=postgres --directory="$TARGET" --output "$SCRATCH/r.json" "$@" >/dev/null 2>&1 ||
		die "dbio run $* failed"
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); p=[p for p in r["jobs"][0]["runs"][0]["phases"] if p["name"]==sys.argv[2]][0]; print(p["ops"]*1e9/p["elapsed_ns"])' \
		"$SCRATCH/r.json" "$phase"
}

pgbench_run() {
	server_up
	"$BIN/pgbench" -h "$PGDIR" -U postgres -i -q -s "$SCALE" postgres >/dev/null 2>&1 || die "pgbench -i failed"
	psql_ -c CHECKPOINT >/dev/null
	"$BIN/pgbench" -h "$PGDIR" -U postgres -M simple -n -c "$CLIENTS" -j "$CLIENTS" -t "$TXNS" postgres 2>/dev/null |
		sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p'
	server_down
}

# The rows psql copies: dbio's columns, name 8-24 and payload 100-400
# letters, ids 1..ROWS.
python3 - "$ROWS" >"$SCRATCH/records.tsv" <<'PY'
import random, sys
rng = random.Random(1)
n = int(sys.argv[1])
st = ["new", "paid", "shipped", "returned", "cancelled"]
letters = "abcdefghijklmnopqrstuvwxyz"
out = sys.stdout
for i in range(1, n + 1):
    c = rng.randrange(10000000)
    out.write(f"{i}\t{rng.randrange(n // 10 + 1)}\t{1700000000 + rng.randrange(100000000)}\t{c // 100}.{c % 100:02d}\t"
              f"{rng.choice(st)}\t{''.join(rng.choices(letters, k=rng.randint(8, 24)))}\t"
              f"{''.join(rng.choices(letters, k=rng.randint(100, 400)))}\n")
PY
chmod 644 "$SCRATCH/records.tsv"

psql_import() {
	local t0 t1
	server_up
	psql_ -c "CREATE TABLE records(id bigint NOT NULL, customer bigint NOT NULL, created bigint NOT NULL, amount double precision CHECK (amount >= 0), status text NOT NULL, name text NOT NULL, payload text)" >/dev/null
	t0=$(date +%s%N)
	psql_ -c "\\copy records FROM '$SCRATCH/records.tsv'" >/dev/null
	t1=$(date +%s%N)
	server_down
	python3 -c "print($ROWS * 1e9 / ($t1 - $t0))"
}

median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

D_TPS=() P_TPS=() D_IMP=() P_IMP=()
for ((i = 1; i <= TURNS; i++)); do
	D_TPS+=("$(dbio_run transactions --rows=1 --indexes=0 --scale="$SCALE" --clients="$CLIENTS" --transactions="$TXNS")")
	P_TPS+=("$(pgbench_run)")
	D_IMP+=("$(dbio_run import --rows="$ROWS" --indexes=0)")
	P_IMP+=("$(psql_import)")
	echo "turn $i: tps dbio ${D_TPS[-1]} pgbench ${P_TPS[-1]}; import rows/s dbio ${D_IMP[-1]} psql ${P_IMP[-1]}; load $(load_avg)" >&2
done
dt=$(median "${D_TPS[@]}") pt=$(median "${P_TPS[@]}") di=$(median "${D_IMP[@]}") pi=$(median "${P_IMP[@]}")
printf '| measure (median of %d, taking turns) | dbio | PostgreSQL tool | dbio / tool |\n|---|---|---|---|\n' "$TURNS"
printf '| tps, scale %d, %d clients x %d transactions | %.1f | %.1f (pgbench) | %.3f |\n' "$SCALE" "$CLIENTS" "$TXNS" "$dt" "$pt" "$(python3 -c "print($dt / $pt)")"
printf '| import rows/s, %d rows, one COPY | %.0f | %.0f (psql \\copy) | %.3f |\n' "$ROWS" "$di" "$pi" "$(python3 -c "print($di / $pi)")"
