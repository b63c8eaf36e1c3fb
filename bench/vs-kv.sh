#!/usr/bin/env bash
# vs-kv.sh: dbio's kv workload against kv-loop.c, a bare C program making the
# same engine calls on the same records (issue 5, "Speed": dbio's harness must
# not slow the engines; within 5 %). For each engine (gdbm, lmdb, sqlite) and
# sync_each_batch 1 and 0, dbio and kv-loop insert RECORDS records in batches
# of 1,000 (16-byte keys, 100-400-byte values), taking turns run by run (the
# tool that starts a round alternates). Reports per cell the median, minimum
# and maximum elapsed time of each, and the ratio dbio/kv-loop per round
# (run i of dbio against run i of kv-loop): median, min, max.
#
#   bench/vs-kv.sh [-n RUNS] [-r RECORDS] [-d DIR] [-e ENGINES] [-s SYNCS]
#
#   -n RUNS     runs of each tool per cell (default 5)
#   -r RECORDS  records per run (default 100000)
#   -d DIR      where the databases go: a fresh directory is made inside DIR
#               and removed at the end (default: a fresh directory under /tmp)
#   -e ENGINES  comma-separated, among gdbm,lmdb,sqlite (default: all three)
#   -s SYNCS    comma-separated sync_each_batch values, among 1,0 (default 1,0)
#
# Elapsed time is dbio's runs[0].elapsed_ns (first batch to the end of the
# last commit: not the open, not the close) and what kv-loop prints for the
# same span. Both run in their own empty directory on the same filesystem
# (dbio refuses a directory holding files that are not its own); each tool
# creates its database there and removes it afterwards. Before every run the
# script calls sync (not timed), so that the writeback of the previous run's
# database (sync_each_batch=0 leaves it all dirty) does not land in the next.
#
# Environment: DBIO (path of the dbio binary, default ../dbio next to bench/),
# CC (default cc). Needs python3 (reads the JSON results), a C compiler and
# the development files of gdbm, LMDB and SQLite (kv-loop is built with
# cc -O2 -lgdbm -llmdb -lsqlite3 into a temp dir).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RUNS=5
RECORDS=100000
PARENT=""
ENGINES=gdbm,lmdb,sqlite
SYNCS=1,0
BATCH=1000
VALUE_SIZE=100-400

opt() {
        case $1 in
        n) RUNS=$2 ;;
        r) RECORDS=$2 ;;
        d) PARENT=$2 ;;
        e) ENGINES=$2 ;;
        s) SYNCS=$2 ;;
        esac
}
bench_opts n:r:d:e:s: "$@"
whole -n "$RUNS"
whole -r "$RECORDS"
[[ $ENGINES =~ ^(gdbm|lmdb|sqlite)(,(gdbm|lmdb|sqlite))*$ ]] ||
        die "-e: expected engines among gdbm,lmdb,sqlite, comma-separated, got '$ENGINES'"
[[ $SYNCS =~ ^[01](,[01])*$ ]] || die "-s: expected 1, 0 or 1,0, got '$SYNCS'"
IFS=, read -r -a ENGINE_LIST <<<"$ENGINES"
IFS=, read -r -a SYNC_LIST <<<"$SYNCS"

CC=${CC:-cc}

need_dbio
need python3 "it reads the JSON results"
need "$CC" "set CC="

bench_tmp vs-kv-tmp
bench_work vs-kv "${PARENT:-/tmp}"
# One empty directory per tool, side by side on the same filesystem.
mkdir "$WORK/dbio" "$WORK/loop"
private_dbio
BIN=$TMP/bin
LOG=$TMP/log
RES=$TMP/results.tsv # engine sync tool run elapsed_s
: >"$RES"

"$CC" -O2 -I"$HERE/../src" -o "$BIN/kv-loop" "$HERE/kv-loop.c" -lgdbm -llmdb -lsqlite3 2>"$TMP/cc.log" ||
        die "cannot build $HERE/kv-loop.c with $CC -lgdbm -llmdb -lsqlite3 (are libgdbm-dev, liblmdb-dev and libsqlite3-dev installed?):
$(cat "$TMP/cc.log")"

progress() { printf '  %s\n' "$*" >&2; }

# empty DIR: the tool left nothing behind (its database removed)
empty() {
        local left
        left=$(find "$1" -mindepth 1 -maxdepth 1 -printf '%f ')
        [ -z "$left" ] || die "$1 not empty after a run: $left"
}

# dbio_run ENGINE SYNC RUN
dbio_run() {
        local e=$1 s=$2 i=$3 out=$TMP/dbio.$1.$2.$3.json
        sync
        echo "== dbio $e sync=$s run $i" >>"$LOG"
        "$BIN/dbio" run --directory="$WORK/dbio" --workload=kv --kv_engine="$e" --records="$RECORDS" \
                --batch="$BATCH" --value_size="$VALUE_SIZE" --sync_each_batch="$s" --output="$out" \
                --format=text >>"$LOG" 2>&1 || die "dbio failed ($e, sync $s, run $i):
$(tail -5 "$LOG")"
        empty "$WORK/dbio"
        local el
        el=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["jobs"][0]["runs"][0]["elapsed_ns"] / 1e9)' "$out")
        printf '%s\t%s\tdbio\t%s\t%s\n' "$e" "$s" "$i" "$el" >>"$RES"
}

# loop_run ENGINE SYNC RUN
loop_run() {
        local e=$1 s=$2 i=$3 out
        sync
        out=$("$BIN/kv-loop" "$e" "$WORK/loop" "$RECORDS" "$BATCH" "$VALUE_SIZE" "$s" 2>>"$LOG") ||
                die "kv-loop failed ($e, sync $s, run $i): $(tail -3 "$LOG")"
        echo "== kv-loop $e sync=$s run $i: $out" >>"$LOG"
        empty "$WORK/loop"
        local el
        el=$(sed -n 's/.*elapsed_s=\([0-9.]*\).*/\1/p' <<<"$out")
        [ -n "$el" ] || die "kv-loop printed no elapsed_s: $out"
        printf '%s\t%s\tkv-loop\t%s\t%s\n' "$e" "$s" "$i" "$el" >>"$RES"
}

START=$(date '+%Y-%m-%d %H:%M')
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
for e in "${ENGINE_LIST[@]}"; do
        for s in "${SYNC_LIST[@]}"; do
                echo "$e, sync_each_batch=$s: $RUNS runs of each tool, $RECORDS records" >&2
                for i in $(seq 1 "$RUNS"); do
                        progress "run $i/$RUNS"
                        # The tool that starts a round alternates.
                        if [ $((i % 2)) -eq 1 ]; then
                                dbio_run "$e" "$s" "$i"
                                loop_run "$e" "$s" "$i"
                        else
                                loop_run "$e" "$s" "$i"
                                dbio_run "$e" "$s" "$i"
                        fi
                done
        done
done

# ---------------------------------------------------------------- report
DBIO_VERSION=$("$BIN/dbio" --version 2>/dev/null | head -1 || true)
GIT_REV=$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)
FS=$(df -T -- "$WORK" | awk 'NR == 2 { print $2 " on " $1 }')
LIBS=$(for p in libgdbm6 libgdbm6t64 liblmdb0 libsqlite3-0; do
        dpkg-query -W -f='${Package} ${Version}\n' "$p" 2>/dev/null || true
done | paste -sd, - | sed 's/,/, /g')
export RUNS RECORDS BATCH VALUE_SIZE DBIO_VERSION GIT_REV FS LIBS START LOAD ENGINES SYNCS
python3 - "$RES" <<'PY'
import os, statistics, sys
from collections import defaultdict

el = defaultdict(dict)   # (engine, sync, tool) -> {run: seconds}
for line in open(sys.argv[1]):
    e, s, tool, run, secs = line.rstrip("\n").split("\t")
    el[(e, s, tool)][int(run)] = float(secs)

env = os.environ
print(f"dbio kv vs kv-loop: {env['START']}, {os.cpu_count()} CPUs, kernel {os.uname().release}, "
      f"load average at start {env['LOAD']}")
print(f"{env['DBIO_VERSION']} (git {env['GIT_REV']}); {env['LIBS'] or 'library versions unknown'}; "
      f"databases on {env['FS']}")
print(f"workload=kv key_order=seq records={env['RECORDS']} batch={env['BATCH']} "
      f"value_size={env['VALUE_SIZE']}; {env['RUNS']} runs per tool and cell, alternating "
      "(the tool that starts a round alternates); sync before every run")
print("elapsed = first batch to the end of the last commit (dbio: runs[0].elapsed_ns); "
      "ratio = dbio / kv-loop of the same round; < 1.05 is within 5 %")
print()
hdr = (f"  {'engine':<7}{'sync':>5}{'dbio s':>10}{'min':>9}{'max':>9}{'loop s':>10}{'min':>9}"
       f"{'max':>9}{'ratio':>8}{'min':>8}{'max':>8}  per round")
print(hdr)
for e in env["ENGINES"].split(","):
    for s in env["SYNCS"].split(","):
        d, l = el.get((e, s, "dbio"), {}), el.get((e, s, "kv-loop"), {})
        if not d or not l:
            continue
        rat = [d[i] / l[i] for i in sorted(d) if i in l and l[i] > 0]
        dv, lv = list(d.values()), list(l.values())
        print(f"  {e:<7}{s:>5}{statistics.median(dv):>10.3f}{min(dv):>9.3f}{max(dv):>9.3f}"
              f"{statistics.median(lv):>10.3f}{min(lv):>9.3f}{max(lv):>9.3f}"
              f"{statistics.median(rat):>8.3f}{min(rat):>8.3f}{max(rat):>8.3f}  "
              f"{' '.join(f'{x:.3f}' for x in rat)}")
PY
