#!/usr/bin/env bash
# vs-sysbench.sh: dbio sysbench against Debian's sysbench 1.0.20 on the same
# command lines, taking turns run by run (the tool that starts a round
# alternates), median of RUNS:
#
#   1. layout: `sysbench fileio prepare` followed by `sync` (sysbench's
#      prepare fsyncs each file, the sync makes the directory durable too)
#      against `dbio sysbench fileio prepare` followed by `sync`, on SIZE in
#      FILES files; seconds, and the ratio dbio/sysbench (below 1: dbio is
#      faster). The page cache is not dropped: both write through it.
#   2. run: the same `run` of --file-test-mode=rndrw --file-fsync-freq=100
#      for -t seconds: reads/s, writes/s, fsyncs/s from each tool's report
#      (tests/cli/sysbench_parse.py reads both) and fsyncs per request, which
#      must agree within 5 %. This run waits on the device (an fsync per
#      100 requests): on a shared virtual disk its ratio moves by tens of
#      per cent from run to run, so every run's figure is printed with the
#      load average beside it.
#   3. loop: a rndrd run on the same files after a warm-up read, so that
#      every read is served by the page cache: reads/s of each tool's own
#      loop, with no device in the way (dbio/sysbench below 1: dbio's loop
#      is the slower).
#
#   bench/vs-sysbench.sh [-n RUNS] [-d DIR] [-s SIZE] [-f FILES] [-t SECONDS] [-T THREADS]
#
#   -n RUNS     runs of each tool (default 3)
#   -d DIR      a fresh directory is made inside DIR and removed at the end
#               (default: under /var/tmp, a disk rather than tmpfs)
#   -s SIZE     --file-total-size (default 256M)
#   -f FILES    --file-num (default 16)
#   -t SECONDS  --time of each run (default 5)
#   -T THREADS  --threads of each run (default 4)
#
# Environment: DBIO (the dbio binary, default ../dbio next to bench/).
# Needs sysbench and python3.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RUNS=3
PARENT=/var/tmp
SIZE=256M
FILES=16
SECS=5
THREADS=4

opt() {
	case $1 in
	n) RUNS=$2 ;;
	d) PARENT=$2 ;;
	s) SIZE=$2 ;;
	f) FILES=$2 ;;
	t) SECS=$2 ;;
	T) THREADS=$2 ;;
	esac
}
bench_opts n:d:s:f:t:T: "$@"
whole -n "$RUNS"
whole -f "$FILES"
whole -t "$SECS"
whole -T "$THREADS"
PARSE=$ROOT/tests/cli/sysbench_parse.py
need sysbench "scripts/install-deps installs it"
need_dbio

bench_work vs-sysbench "$PARENT"
# Each tool removes its own test files before the directory goes.
bench_cleanup() {
	(cd "$WORK/sysbench" 2>/dev/null && sysbench fileio --file-num=$FILES --file-total-size=$SIZE cleanup >/dev/null 2>&1) || true
	(cd "$WORK/dbio" 2>/dev/null && "$DBIO" sysbench fileio --file-num=$FILES --file-total-size=$SIZE cleanup >/dev/null 2>&1) || true
}
mkdir "$WORK/sysbench" "$WORK/dbio"
FILEIO=(fileio "--file-num=$FILES" "--file-total-size=$SIZE")

# tool NAME ARGS...: run NAME's sysbench (sysbench or dbio sysbench) in its
# own directory.
tool() {
	local name=$1
	shift
	if [ "$name" = sysbench ]; then (cd "$WORK/sysbench" && sysbench "$@"); else (cd "$WORK/dbio" && "$DBIO" sysbench "$@"); fi
}

# seconds CMD...: the wall time of CMD, then sync.
seconds() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	sync
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "layout: $SIZE in $FILES files (prepare + sync), $RUNS runs each, taking turns"
: >"$WORK/prep.sysbench"
: >"$WORK/prep.dbio"
for ((i = 0; i < RUNS; i++)); do
	order=(sysbench dbio)
	((i % 2)) && order=(dbio sysbench)
	for t in "${order[@]}"; do
		seconds tool "$t" "${FILEIO[@]}" prepare >>"$WORK/prep.$t"
		tool "$t" "${FILEIO[@]}" cleanup >/dev/null 2>&1
	done
done
ps=$(median <"$WORK/prep.sysbench")
pd=$(median <"$WORK/prep.dbio")
printf '  %-10s %8.3f s (median; runs: %s)\n' sysbench "$ps" "$(tr '\n' ' ' <"$WORK/prep.sysbench")"
printf '  %-10s %8.3f s (median; runs: %s)\n' dbio "$pd" "$(tr '\n' ' ' <"$WORK/prep.dbio")"
printf '  ratio dbio/sysbench: %.2f\n' "$(echo "$pd / $ps" | bc -l)"

echo "run: rndrw, --file-fsync-freq=100, $THREADS threads, ${SECS}s, $RUNS runs each, taking turns"
for t in sysbench dbio; do tool "$t" "${FILEIO[@]}" prepare >/dev/null 2>&1; done
# turns NAME ARGS...: RUNS runs of each tool's sysbench ARGS, taking turns
# (the tool that starts a round alternates): each run's figures (JSON, by
# sysbench_parse.py) into WORK/NAME.TOOL, the load after it into
# WORK/NAME-load.TOOL.
turns() {
	local name=$1 i t order
	shift
	for ((i = 0; i < RUNS; i++)); do
		order=(sysbench dbio)
		((i % 2)) && order=(dbio sysbench)
		for t in "${order[@]}"; do
			tool "$t" "$@" 2>/dev/null | python3 "$PARSE" >>"$WORK/$name.$t"
			load_avg >>"$WORK/$name-load.$t"
		done
	done
}
turns run --threads="$THREADS" --time="$SECS" "${FILEIO[@]}" --file-test-mode=rndrw --file-fsync-freq=100 run
python3 - "$WORK/run.sysbench" "$WORK/run.dbio" "$FILES" "$WORK/run-load.sysbench" "$WORK/run-load.dbio" <<'PY'
import json, statistics, sys
rows = {}
for name, path in (("sysbench", sys.argv[1]), ("dbio", sys.argv[2])):
    runs = [json.loads(l) for l in open(path)]
    med = lambda k: statistics.median(r[k] for r in runs)
    per_req = statistics.median(r["fsyncs_per_s"] / (r["reads_per_s"] + r["writes_per_s"]) for r in runs)
    rows[name] = (med("reads_per_s"), med("writes_per_s"), med("fsyncs_per_s"), per_req)
print("  %-10s %12s %12s %12s %16s" % ("tool", "reads/s", "writes/s", "fsyncs/s", "fsyncs/request"))
for name, (r, w, f, p) in rows.items():
    print("  %-10s %12.1f %12.1f %12.1f %16.4f" % (name, r, w, f, p))
expect = int(sys.argv[3]) / 100
s, d = rows["sysbench"][3], rows["dbio"][3]
print("  fsyncs per request: expected about %.4f (files / freq); dbio/sysbench %.3f%s" % (
    expect, d / s, "" if abs(d / s - 1) <= 0.05 else "  (NOT within 5 %)"))
print("  ratio dbio/sysbench of reads/s: %.3f" % (rows["dbio"][0] / rows["sysbench"][0]))
for name, path, load in (("sysbench", sys.argv[1], sys.argv[4]), ("dbio", sys.argv[2], sys.argv[5])):
    runs = [json.loads(l)["reads_per_s"] for l in open(path)]
    loads = [l.strip() for l in open(load)]
    print("  %-10s reads/s per run (load): %s" % (name, "  ".join("%.0f (%s)" % (r, l) for r, l in zip(runs, loads))))
PY

echo "loop: rndrd from the page cache, $THREADS threads, ${SECS}s, $RUNS runs each, taking turns"
LOOP=(--threads="$THREADS" --time="$SECS" "${FILEIO[@]}" --file-test-mode=rndrd run)
for t in sysbench dbio; do tool "$t" "${LOOP[@]}" >/dev/null 2>&1; done
turns loop "${LOOP[@]}"
python3 - "$WORK/loop.sysbench" "$WORK/loop.dbio" "$WORK/loop-load.sysbench" "$WORK/loop-load.dbio" <<'PY'
import json, statistics, sys
med = {}
for name, path, load in (("sysbench", sys.argv[1], sys.argv[3]), ("dbio", sys.argv[2], sys.argv[4])):
    runs = [json.loads(l)["reads_per_s"] for l in open(path)]
    loads = [l.strip() for l in open(load)]
    med[name] = statistics.median(runs)
    print("  %-10s %12.0f reads/s (median; per run (load): %s)" % (
        name, med[name], "  ".join("%.0f (%s)" % (r, l) for r, l in zip(runs, loads))))
print("  ratio dbio/sysbench: %.3f" % (med["dbio"] / med["sysbench"]))
PY
