#!/usr/bin/env bash
# jobs-scale.sh: how `dbio compare F F` grows with the number of jobs in F
# (issue 25, break 9: it was quadratic, 50,000 jobs took 20 s). Each F is a
# result whose jobs hold a name only (every name twice, so that occurrences
# are numbered too): what compare does per job besides its figures. Prints
# per size the median elapsed time (s) over RUNS, the largest maximum RSS
# (MiB, GNU time's) and the 1-minute load average before each size, and the
# ratio of each median to the one before (2 when linear: the sizes double).
#
#   bench/jobs-scale.sh [-n RUNS] [-s SIZES]
#   # defaults: 3 runs; sizes 25000,50000,100000,200000
#
# Environment: DBIO (default ../dbio next to bench/). Needs python3 and
# /usr/bin/time.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RUNS=3
SIZES=25000,50000,100000,200000
opt() {
	case $1 in
	n) RUNS=$2 ;;
	s) SIZES=$2 ;;
	esac
}
bench_opts n:s: "$@"
whole -n "$RUNS"
[[ $SIZES =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "-s: expected sizes like 25000,50000, got '$SIZES'"
need_dbio
need python3 "it writes the result files"
[ -x /usr/bin/time ] || die "/usr/bin/time not found: apt-get install time"
bench_tmp jobs-scale
private_dbio

echo "dbio compare F F, F of N name-only jobs; $RUNS runs each; $(nproc) CPUs"
printf '%10s %10s %10s %10s %8s\n' jobs "median s" "max MiB" "vs before" load
prev=
for n in ${SIZES//,/ }; do
	python3 - "$n" "$TMP/r.json" <<'PY'
import json, sys
n = int(sys.argv[1])
jobs = [{"name": "j%d" % (i // 2), "runs": []} for i in range(n)]
json.dump({"schema_version": 1, "tool": {"name": "dbio"}, "system": {}, "jobs": jobs},
          open(sys.argv[2], "w"))
PY
	load=$(load_avg)
	: >"$TMP/t"
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -a -o "$TMP/t" -f "%e %M" "$DBIO" compare "$TMP/r.json" "$TMP/r.json" >/dev/null
	done
	read -r med mib < <(python3 - "$TMP/t" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
print(f"{statistics.median(float(e) for e, _ in rows):.2f} {max(int(m) for _, m in rows) / 1024:.0f}")
PY
)
	ratio=-
	[ -z "$prev" ] || ratio=$(python3 -c "print(f'{$med / max($prev, 0.01):.2f}')")
	printf '%10s %10s %10s %10s %8s\n' "$n" "$med" "$mib" "$ratio" "$load"
	prev=$med
done
