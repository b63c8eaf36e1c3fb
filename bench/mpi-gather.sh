#!/usr/bin/env bash
# The cost of growth under MPI (docs/mpi.md): what rank 0 pays to gather
# and merge every rank's result, at -np 1, 2, 4 and 8 (oversubscribed on a
# small machine), taking turns over the rank counts, RUNS rounds. Prints per
# rank count the median (min-max) of the bytes gathered per rank, the
# gather time and the merge time, from each result's ranks.gather. Then
# the merge alone at 1, 10, 100 and 1,000 ranks (bench/mpi-merge.c: one
# rank's result parsed and merged N times, no MPI), for the extrapolation.
#
#     bench/mpi-gather.sh [-n RUNS] [-d DIR] [-t SECONDS] [-p "1 2 4 8"] [-m "1 10 100 1000"]
#     # defaults: 5 rounds, /tmp, 1 s time-based 4 KiB random reads per rank
#
# Needs mpirun (openmpi-bin), ./dbio-mpi (make MPI=1), make and python3.
# Copies ./dbio-mpi first so a rebuild does not mix versions; removes what
# it made.
set -euo pipefail

runs=5 dir=/tmp secs=1 nps="1 2 4 8" merges="1 10 100 1000"
while getopts "n:d:t:p:m:" o; do
	case $o in
	n) runs=$OPTARG ;;
	d) dir=$OPTARG ;;
	t) secs=$OPTARG ;;
	p) nps=$OPTARG ;;
	m) merges=$OPTARG ;;
	*)
		echo "usage: $0 [-n RUNS] [-d DIR] [-t SECONDS] [-p \"1 2 4 8\"] [-m \"1 10 100 1000\"]" >&2
		exit 2
		;;
	esac
done
here=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$here/dbio-mpi" ] || {
	echo "mpi-gather: $here/dbio-mpi not found: make MPI=1" >&2
	exit 2
}
command -v mpirun >/dev/null || {
	echo "mpi-gather: mpirun not found: install openmpi-bin" >&2
	exit 2
}
work=$(mktemp -d "$dir/dbio-mpi-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cp "$here/dbio-mpi" "$work/dbio-mpi"
mkdir "$work/target"

for ((i = 1; i <= runs; i++)); do
	for np in $nps; do
		mpirun --allow-run-as-root --oversubscribe -np "$np" "$work/dbio-mpi" run \
			--directory="$work/target" --output="$work/r-$np-$i.json" --progress=none \
			--rw=randread --bs=4k --size=16m --time_based --runtime="$secs" --format=csv >/dev/null
	done
done

python3 - "$work" "$runs" $nps <<'EOF'
import json, statistics, sys
work, runs, nps = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def fmt(v, unit, scale=1):
    v = [x / scale for x in v]
    return "%.1f %s (%.1f-%.1f)" % (statistics.median(v), unit, min(v), max(v))
print("ranks  bytes per rank (mean)    gather at rank 0          merge at rank 0           "
      "merge per rank")
for np in nps:
    g = [json.load(open("%s/r-%s-%d.json" % (work, np, i)))["ranks"]["gather"] for i in range(1, runs + 1)]
    print("%5s  %-24s %-25s %-25s %s" % (
        np, fmt([x["bytes"] / int(np) for x in g], "KiB", 1024),
        fmt([x["gather_ns"] for x in g], "ms", 1e6), fmt([x["merge_ns"] for x in g], "ms", 1e6),
        fmt([x["merge_ns"] / int(np) for x in g], "ms", 1e6)))
EOF

# the merge alone: one rank's part (a run outside mpirun is a plain result)
make -s -C "$here" build/bench/mpi-merge
"$work/dbio-mpi" run --directory="$work/target" --output="$work/part.json" --progress=none \
	--rw=randread --bs=4k --size=16m --time_based --runtime="$secs" --format=csv >/dev/null
# shellcheck disable=SC2086 # the rank counts are words
"$here/build/bench/mpi-merge" "$work/part.json" "$runs" $merges
