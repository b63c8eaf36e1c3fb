#!/usr/bin/env bash
# vs-db_bench.sh: `dbio db_bench` against Debian's db_bench (rocksdb-tools)
# with the same flags on the same directory, taking turns, and for each
# benchmark the median ops/s of each tool over the runs, the ratio
# dbio/db_bench of the medians and the lowest and highest of the rounds'
# own ratios, with the load average at the end of each round.
#
#   bench/vs-db_bench.sh [-n RUNS] [-d DIR] [-N NUM] [-b BENCHMARKS]
#   # defaults: 5 runs, /tmp, 200000 records, fillseq,readrandom
#
# Each run starts on an empty directory after a sync. A round runs each
# tool twice, in the order A B B A, and the tool that is A alternates from
# round to round (fills first: db_bench's fill benchmarks make a fresh
# database, dbio's job makes its own): the machine's speed drifts by 20 %
# and more over a minute when it is shared (memory-bound skiplist inserts
# feel every neighbour), and A B B A cancels a drift that is steady over
# the round. A round's ratio is dbio's two runs' ops/s summed over
# db_bench's; the medians are of every run. Both get
# --value_size=100 --batch_size=1 --threads=1 --sync=0 --compression_type=none
# (dbio's values are incompressible, db_bench's half compressible by
# default: with no compression the two write the same bytes).
# readwhilewriting (after a fill): --threads=1 is one reader beside the
# writer in both; the ops/s are the reader's, as db_bench reports them
# (bench/vs-db_bench.sh -b fillseq,readwhilewriting).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RUNS=5 PARENT=/tmp NUM=200000 LIST=fillseq,readrandom
opt() {
	case $1 in
	n) whole -n "$2" && RUNS=$2 ;;
	d) PARENT=$2 ;;
	N) whole -N "$2" && NUM=$2 ;;
	b) LIST=$2 ;;
	esac
}
bench_opts "n:d:N:b:" "$@"
need db_bench "apt-get install rocksdb-tools (scripts/install-deps)"
need python3 "apt-get install python3"
need_dbio
bench_tmp vs-db_bench
bench_work vs-db_bench "$PARENT"
private_dbio

FLAGS=(--benchmarks="$LIST" --num="$NUM" --value_size=100 --batch_size=1 --threads=1 --sync=0
	--compression_type=none)

# lines TOOL RUN: the result lines ("name : ... ops/sec ...") of one run into TMP/TOOL.RUN
lines() {
	rm -rf "${WORK:?}"/*
	if [ "$1" = dbio ]; then
		"$DBIO" db_bench "${FLAGS[@]}" --db="$WORK" --progress=none
	else
		db_bench "${FLAGS[@]}" --db="$WORK/db_bench" 2>/dev/null
	fi | grep -E '^[a-z]+ +: .* ops/sec' >"$TMP/$1.$2"
}

# the tool that starts a round alternates, and each run starts after a sync
# (the last run's dirty pages written back): with db_bench first in every
# round, readrandom came out 0.865; alternating, 1.078 (bench/README.md)
for ((r = 1; r <= RUNS; r++)); do
	if ((r % 2)); then order=(db_bench dbio dbio db_bench); else order=(dbio db_bench db_bench dbio); fi
	for t in "${order[@]}"; do
		rm -rf "${WORK:?}"/*
		sync
		# the second run of a tool in a round: its own file
		if [ -e "$TMP/$t.$r.1" ]; then lines "$t" "$r.2"; else lines "$t" "$r.1"; fi
	done
	echo "round $r of $RUNS done, load average $(load_avg)" >&2
done
python3 - "$TMP" "$RUNS" "$LIST" "$(load_avg)" <<'PY'
import re, statistics, sys
tmp, runs, names, load = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4]
def ops(tool, r):
    out = {}
    for line in open(f"{tmp}/{tool}.{r}"):
        m = re.match(r"(\w+)\s*:.*?micros/op (\d+) ops/sec", line)
        if m:
            out[m.group(1)] = int(m.group(2))
    return out
rounds = range(1, runs + 1)
d = [[ops("dbio", f"{r}.{k}") for k in (1, 2)] for r in rounds]
b = [[ops("db_bench", f"{r}.{k}") for k in (1, 2)] for r in rounds]
print(f"{'benchmark':<14} {'dbio ops/s':>12} {'db_bench ops/s':>15} {'ratio':>7}  {'rounds':>13} {'median round':>13}   ({runs} rounds of A B B A, medians of {2 * runs} runs each; load average {load} at the end)")
for n in names:
    dm = statistics.median(x[n] for pair in d for x in pair)
    bm = statistics.median(x[n] for pair in b for x in pair)
    # each round's own ratio, and their lowest, highest and median
    rr = [sum(x[n] for x in dp) / sum(y[n] for y in bp) for dp, bp in zip(d, b)]
    print(f"{n:<14} {dm:>12.0f} {bm:>15.0f} {dm / bm:>7.3f}  {min(rr):>6.3f}-{max(rr):<6.3f} {statistics.median(rr):>13.3f}")
PY
