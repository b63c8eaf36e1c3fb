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
# Each run starts on an empty directory after a sync, and the tool that
# starts a round alternates (fills first: db_bench's fill benchmarks make a
# fresh database, dbio's job makes its own). Both get
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
	if ((r % 2)); then order=(db_bench dbio); else order=(dbio db_bench); fi
	for t in "${order[@]}"; do
		rm -rf "${WORK:?}"/*
		sync
		lines "$t" "$r"
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
d = [ops("dbio", r) for r in range(1, runs + 1)]
b = [ops("db_bench", r) for r in range(1, runs + 1)]
print(f"{'benchmark':<14} {'dbio ops/s':>12} {'db_bench ops/s':>15} {'ratio':>7}  {'rounds':>13}   (median of {runs}; load average {load} at the end)")
for n in names:
    dm = statistics.median(x[n] for x in d)
    bm = statistics.median(x[n] for x in b)
    # the spread: the lowest and highest of the rounds' own ratios
    rr = [x[n] / y[n] for x, y in zip(d, b)]
    print(f"{n:<14} {dm:>12.0f} {bm:>15.0f} {dm / bm:>7.3f}  {min(rr):>6.3f}-{max(rr):<6.3f}")
PY
