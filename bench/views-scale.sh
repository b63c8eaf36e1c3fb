#!/bin/sh
# How dbio's views scale with a big result: jansson's own json_load_file
# (the floor: every view loads the whole tree), then `dbio compare F F`,
# `dbio report F --html`, `dbio plot F --out` on the same file, taking
# turns, RUNS rounds. Prints per command the median, minimum and maximum
# elapsed time (s), the median CPU time (user + sys, s) and the largest
# maximum RSS (MiB, /usr/bin/time -v's), and that RSS over the file's size.
#
#   bench/views-scale.sh [-n RUNS] [-f RESULT.json] [-j JOBS]
#   # defaults: 3 rounds; bench/make-big-result.sh's result of 12,000 jobs,
#   # made in a scratch directory when -f is not given
#
# Needs ./dbio (built), python3, a C compiler and jansson's headers
# (bench/json-load.c), GNU time (/usr/bin/time) and gnuplot for the plots.
set -eu
die() { echo "views-scale: $*" >&2; exit 1; }
RUNS=3 FILE= JOBS=12000
while getopts n:f:j: o; do
	case $o in
	n) RUNS=$OPTARG ;;
	f) FILE=$OPTARG ;;
	j) JOBS=$OPTARG ;;
	*) die "usage: bench/views-scale.sh [-n RUNS] [-f RESULT.json] [-j JOBS]" ;;
	esac
done
case $RUNS in '' | *[!0-9]* | 0) die "-n '$RUNS': expected a positive number" ;; esac
[ -x ./dbio ] || die "./dbio not found: run from the top of the tree after make"
[ -x /usr/bin/time ] || die "/usr/bin/time not found (Debian package time)"
command -v python3 >/dev/null || die "python3 not found"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/dbio-views.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
cp ./dbio "$WORK/dbio" # a rebuild during the run does not mix versions
cc -O2 -o "$WORK/json-load" bench/json-load.c -ljansson || die "cannot build bench/json-load.c (libjansson-dev)"
if [ -z "$FILE" ]; then
	FILE="$WORK/big.json"
	bench/make-big-result.sh "$FILE" "$JOBS"
fi
[ -r "$FILE" ] || die "$FILE: cannot read"
SIZE=$(wc -c <"$FILE")
for round in $(seq "$RUNS"); do
	for view in floor compare report plot; do
		rm -rf "$WORK/plots" "$WORK/page.html"
		case $view in
		floor) set -- "$WORK/json-load" "$FILE" ;;
		compare) set -- "$WORK/dbio" compare "$FILE" "$FILE" ;;
		report) set -- "$WORK/dbio" report "$FILE" --html "$WORK/page.html" ;;
		plot) set -- "$WORK/dbio" plot "$FILE" --out "$WORK/plots" ;;
		esac
		/usr/bin/time -o "$WORK/t" -f "%e %U %S %M" "$@" >/dev/null 2>"$WORK/err" ||
			{ cat "$WORK/err" >&2; die "$view failed"; }
		echo "$view $(cat "$WORK/t")" >>"$WORK/times"
	done
done
python3 - "$WORK/times" "$SIZE" "$FILE" "$RUNS" <<'PY'
import statistics, sys
rows, size = {}, int(sys.argv[2])
for line in open(sys.argv[1]):
    v, e, u, s, m = line.split()
    rows.setdefault(v, []).append((float(e), float(u) + float(s), int(m)))
print(f"{sys.argv[3]}: {size / 1048576:.1f} MiB; {sys.argv[4]} rounds, taking turns")
print(f"{'view':8} {'elapsed median':>15} {'min':>7} {'max':>7} {'CPU median':>11} {'max RSS':>10} {'RSS/size':>9}")
for v in ("floor", "compare", "report", "plot"):
    e = [r[0] for r in rows[v]]
    cpu = statistics.median(r[1] for r in rows[v])
    rss = max(r[2] for r in rows[v]) / 1024
    print(f"{v:8} {statistics.median(e):13.2f} s {min(e):5.2f} s {max(e):5.2f} s {cpu:9.2f} s "
          f"{rss:6.0f} MiB {rss * 1048576 / size:8.1f}x")
print("floor: jansson's json_load_file alone (bench/json-load.c); compare loads the file twice.")
PY
