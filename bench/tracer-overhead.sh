#!/usr/bin/env bash
# tracer-overhead.sh: what trace=block (bpftrace on the block tracepoints)
# costs a job that does nothing but device I/O: the same fio-like job —
# randread, bs=4k, psync, direct=1, one thread, time_based for -t seconds
# on a file of -s — run with trace=none and trace=block, taking turns (the
# one that starts a round alternates), RUNS rounds; prints each run's ops/s
# with the load average beside it, the medians, and the ratio
# traced/untraced of the medians (1: no cost; 0.95: the tracer took 5 %).
# On a loaded machine the rate moves by tens of per cent from run to run,
# so it also prints the median time on a CPU per read of the job's thread
# (schedstat, the counter cpu_run): the tracer's programs run on the
# thread that issues a request, so the difference is their cost per read,
# less sensitive to the load than the rate. bpftrace's start (before the
# measured phase) is in neither figure.
#
#   bench/tracer-overhead.sh [-n RUNS] [-d DIR] [-s SIZE] [-t SECONDS] [-l]
#
#   -n RUNS     rounds (default 5)
#   -d DIR      a fresh directory is made inside DIR and removed at the end
#               (default: under /var/tmp, a disk rather than tmpfs: direct
#               I/O must reach a block device for the tracer to see it)
#   -s SIZE     the file (default 256M)
#   -t SECONDS  runtime of each run (default 5)
#   -l          run on an ext4 filesystem on a loop device made in DIR's
#               fresh directory (its image twice SIZE): the loop device
#               serves its reads from the page cache of its backing file, so
#               the job issues many more requests per second than a shared
#               virtual disk allows and the tracer's cost per request shows
#               (run it under `flock /tmp/dbio-shared.lock` beside others
#               who make loop devices)
#
# Environment: DBIO (the dbio binary, default ../dbio next to bench/).
# Needs root, bpftrace, tracefs mounted and python3.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RUNS=5
PARENT=/var/tmp
SIZE=256M
SECS=5
LOOP=0

opt() {
	case $1 in
	n) RUNS=$2 ;;
	d) PARENT=$2 ;;
	s) SIZE=$2 ;;
	t) SECS=$2 ;;
	l) LOOP=1 ;;
	esac
}
bench_opts n:d:s:t:l "$@"
whole -n "$RUNS"
whole -t "$SECS"
need bpftrace "apt-get install bpftrace"
need python3 "apt-get install python3"
need_dbio
bench_tmp tracer-overhead
private_dbio
bench_work tracer-overhead "$PARENT"
DIR=$WORK
LOOPDEV=
bench_cleanup() {
	if [ -n "$LOOPDEV" ]; then
		umount "$WORK/mnt" 2>/dev/null || umount -l "$WORK/mnt" 2>/dev/null || true
		losetup -d "$LOOPDEV" 2>/dev/null || true
	fi
}
if ((LOOP)); then
	need losetup "apt-get install mount"
	need mkfs.ext4 "apt-get install e2fsprogs"
	bytes=$(numfmt --from=iec "$SIZE")
	truncate -s $((2 * bytes + (64 << 20))) "$WORK/disk.img"
	mkfs.ext4 -q -F -b 4096 "$WORK/disk.img"
	LOOPDEV=$(losetup -f --show "$WORK/disk.img")
	mkdir "$WORK/mnt"
	mount "$LOOPDEV" "$WORK/mnt"
	mkdir "$WORK/mnt/d"
	DIR=$WORK/mnt/d
	echo "on $LOOPDEV (ext4, image in $WORK)"
fi

# one NAME TRACE: one run into TMP/NAME.TRACE.json, its ops/s and the load
# average appended to TMP/TRACE.txt.
one() {
	local out="$TMP/$1.$2.json"
	"$DBIO" run --name=rr --directory="$DIR" --rw=randread --bs=4k --size="$SIZE" \
		--ioengine=psync --direct=1 --time_based=1 --runtime="$SECS" --trace="$2" \
		--progress=none --output "$out" >/dev/null
	python3 -c 'import json, sys; run = json.load(open(sys.argv[1]))["jobs"][0]["runs"][0]; print("%.1f" % run["ops"]["read"]["iops"], sys.argv[2], "%.0f" % run["counters"]["per_op"]["cpu_run"])' \
		"$out" "$(load_avg)" >>"$TMP/$2.txt"
}

for ((i = 0; i < RUNS; i++)); do
	if ((i % 2)); then order=(block none); else order=(none block); fi
	for t in "${order[@]}"; do one "$i" "$t"; done
done
python3 - "$TMP/none.txt" "$TMP/block.txt" <<'PY'
import statistics, sys
rows, cpu = {}, {}
for name, path in (("trace=none", sys.argv[1]), ("trace=block", sys.argv[2])):
    runs = [l.split() for l in open(path)]
    rows[name] = statistics.median(float(r[0]) for r in runs)
    cpu[name] = statistics.median(float(r[2]) for r in runs)
    print("  %-12s %s  median %.1f reads/s, %.0f ns on a CPU per read" % (name, ", ".join("%s (load %s)" % (r[0], r[1]) for r in runs), rows[name], cpu[name]))
print("  ratio traced/untraced of the medians: %.3f; CPU per read %+.0f ns" % (rows["trace=block"] / rows["trace=none"], cpu["trace=block"] - cpu["trace=none"]))
PY
