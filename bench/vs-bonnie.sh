#!/usr/bin/env bash
# vs-bonnie.sh: the cost of growth — bonnie++'s small-file tests (create,
# read/stat, delete; sequential and random order) with bonnie++ 2.00 and
# with the same command behind dbio (`dbio bonnie`, workload=meta), at about
# 10^4, 10^5 and 10^6 files, the tools taking turns (bonnie++, dbio,
# bonnie++, dbio ...; the tool that starts a round rotates). Prints per count
# and phase the median ops/s of each tool and dbio/bonnie++, and dbio's peak
# memory (maximum resident set) at each count.
#
#   bench/vs-bonnie.sh [-n RUNS] [-N RUNS_AT_10^6] [-c COUNTS] [-d DIR] [-f]
#   bench/vs-bonnie.sh -s SIZE [-D] [-n RUNS] [-d DIR]
#
#   -n RUNS     runs of each tool at the smaller counts (default 3)
#   -N RUNS     runs of each tool at 10^6 files (default 1: it is long)
#   -c COUNTS   bonnie++'s -n values, ',' between them (default 10,98,977:
#               10240, 100352 and 1000448 files; -n counts in 1024s)
#   -d DIR      where the files go: a fresh directory is made inside DIR and
#               removed at the end (default: under /tmp)
#   -s SIZE     instead of the file tests, the block tests: block write,
#               rewrite, block read and seeks of a SIZE MiB file in 8 KiB
#               calls (`-s SIZE:8k -n 0 -r 0 -f`), K/sec and seeks/sec
#   -D          with -s: bonnie++'s -D (O_DIRECT where it creates the file,
#               that is the block write; dbio bonnie -D does the same)
#   -f          each run on a fresh ext4 (a loop image in DIR, made and
#               removed around the run; needs root, mkfs.ext4 and losetup):
#               ext4 skips inodes deleted in the last seconds when it
#               allocates (recently_deleted), so on a reused filesystem a
#               run's creates pay for the previous run's deletes — at 10^6
#               files that cost dominates (perf: 60 % of a create), whichever
#               tool runs
#
# Both run `-s 0 -n COUNT -u root -q`: 0-byte files in one directory, as
# bonnie++ does by default. bonnie++ prints +++++ for a phase shorter than
# 500 ms (it cannot time it, it says); such a cell is shown as +++++.
# Environment: DBIO (default ../dbio next to bench/). Needs bonnie++ (Debian:
# apt-get install bonnie++), python3 and /usr/bin/time.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RUNS=3
BIG_RUNS=1
COUNTS=10,98,977
PARENT=/tmp
FRESH=0
BLOCK_MIB=0
DIRECT=""

opt() {
	case $1 in
	n) RUNS=$2 ;;
	N) BIG_RUNS=$2 ;;
	c) COUNTS=$2 ;;
	d) PARENT=$2 ;;
	f) FRESH=1 ;;
	s) BLOCK_MIB=$2 ;;
	D) DIRECT=-D ;;
	esac
}
bench_opts n:N:c:d:s:Df "$@"
whole -n "$RUNS"
whole -N "$BIG_RUNS"
[[ $BLOCK_MIB =~ ^[0-9]+$ ]] || die "-s: expected a size in MiB, a whole number, got '$BLOCK_MIB'"
[ -z "$DIRECT" ] || [ "$BLOCK_MIB" != 0 ] || die "-D: only with -s (the block tests)"
if [ "$BLOCK_MIB" != 0 ]; then
	COUNTS=0     # one "count": the block tests, no files
	FRESH=0
fi
[ "$BLOCK_MIB" != 0 ] || [[ $COUNTS =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "-c: expected counts like 10,98,977, got '$COUNTS'"

need_dbio
BONNIE=$(command -v bonnie++ || echo /usr/sbin/bonnie++)
[ -x "$BONNIE" ] || die "bonnie++ not found: apt-get install bonnie++"
need python3 "apt-get install python3"
[ -x /usr/bin/time ] || die "/usr/bin/time not found: apt-get install time"

bench_work vs-bonnie "$PARENT"
bench_cleanup() {
	if mountpoint -q "$WORK/t" 2>/dev/null; then umount "$WORK/t"; fi
}
cp "$DBIO" "$WORK/dbio" # a rebuild during the run does not mix versions
mkdir "$WORK/out"

# run_tool TOOL COUNT I: one run; its CSV line in out/TOOL.COUNT.I, its
# peak RSS (KiB) in out/TOOL.COUNT.I.rss.
run_tool() {
	local tool=$1 count=$2 i=$3 dir="$WORK/t/run" out="$WORK/out/$1.$2.$3"
	mkdir "$WORK/t"
	if [ "$FRESH" = 1 ]; then
		# room for the files' inodes, 8 KiB each (sparse), and the directory
		truncate -s "$((count * 1024 * 8192 + 268435456))" "$WORK/img"
		mkfs.ext4 -q -F -N "$((count * 1024 + 65536))" "$WORK/img"
		mount -o loop "$WORK/img" "$WORK/t"
	fi
	mkdir "$dir" # dbio wants a directory of its own: a fresh ext4 holds lost+found
	local args=(-d "$dir" -s 0 -n "$count" -u root -q)
	[ "$BLOCK_MIB" = 0 ] || args=(-d "$dir" -s "$BLOCK_MIB:8k" -n 0 -r 0 -f $DIRECT -u root -q)
	if [ "$tool" = bonnie ]; then
		/usr/bin/time -f %M -o "$out.rss" "$BONNIE" "${args[@]}" >"$out" 2>/dev/null
	else
		/usr/bin/time -f %M -o "$out.rss" "$WORK/dbio" bonnie "${args[@]}" --progress=none >"$out" 2>/dev/null
	fi
	rm -rf -- "$dir"
	if [ "$FRESH" = 1 ]; then
		umount "$WORK/t"
		rm -f -- "$WORK/img"
	fi
	rmdir "$WORK/t"
	if [ "$BLOCK_MIB" = 0 ]; then
		echo "  $tool -n $count run $i: $(cut -d, -f27-38 "$out" | tr ',' ' ')" >&2
	else
		echo "  $tool -s $BLOCK_MIB $DIRECT run $i: $(cut -d, -f12-21 "$out" | tr ',' ' ')" >&2
	fi
}

IFS=, read -ra counts <<<"$COUNTS"
for count in "${counts[@]}"; do
	runs=$RUNS
	[ "$count" -ge 900 ] && runs=$BIG_RUNS
	for ((i = 0; i < runs; i++)); do
		if ((i % 2 == 0)); then
			run_tool bonnie "$count" "$i"
			run_tool dbio "$count" "$i"
		else
			run_tool dbio "$count" "$i"
			run_tool bonnie "$count" "$i"
		fi
	done
done

python3 - "$WORK/out" "$COUNTS" "$BLOCK_MIB" <<'PY'
import glob, os, statistics, sys
out, counts, block = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
if block:
    # bonnie++'s CSV (0-based fields): 11 block write, 13 rewrite, 17 block read (K/sec), 19 seeks/sec
    phases, fields = ["write K/s", "rewrite K/s", "read K/s", "seeks/s"], [11, 13, 17, 19]
else:
    phases = ["seq create", "seq read", "seq delete", "rand create", "rand read", "rand delete"]
    fields = [26 + 2 * p for p in range(6)]
def cells(tool, count):
    rows = []
    for f in sorted(glob.glob(f"{out}/{tool}.{count}.[0-9]*")):
        if f.endswith(".rss"):
            continue
        line = open(f).read().strip().splitlines()[-1].split(",")
        rows.append(([line[i] for i in fields], int(open(f + ".rss").read().split()[-1])))
    return rows
def median(vals):
    nums = [float(v) for v in vals if v and "+" not in v]
    return statistics.median(nums) if len(nums) == len(vals) and nums else None
print("files     phase        bonnie++ ops/s   dbio ops/s   dbio/bonnie++   (median of runs)" if not block else
      f"{block} MiB   phase        bonnie++ value   dbio value   dbio/bonnie++   (median of runs; K/s = KiB/s)")
for count in counts:
    b, d = cells("bonnie", count), cells("dbio", count)
    n = f"{block} MiB" if block else int(count) * 1024
    for p, name in enumerate(phases):
        bm, dm = median([r[0][p] for r in b]), median([r[0][p] for r in d])
        bs = f"{bm:14.0f}" if bm is not None else f"{'+++++':>14}"
        ds = f"{dm:12.0f}" if dm is not None else f"{'?':>12}"
        ratio = f"{dm / bm:13.2f}" if bm and dm else f"{'-':>13}"
        print(f"{n:<9} {name:<12} {bs} {ds} {ratio}   runs: {len(b)}")
    print(f"{n:<9} peak RSS     {max(r[1] for r in b):11d} KiB {max(r[1] for r in d):9d} KiB")
PY
