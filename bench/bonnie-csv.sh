#!/usr/bin/env bash
# bonnie-csv.sh: dbio bonnie's CSV line against real bonnie++ 2.00a's, field
# by field, for each option set below: both tools run with the same options
# (plus -d DIR -u root -q) and every field of bonnie++'s 48 is classed —
# empty, a figure (a number or +++++), a %CP (a number or +++), a latency
# (NNus, NNms, NNs), or a value both must print alike (the size, seeks,
# files, directories; the seed with -z). Prints per option set a table
# (field, name, bonnie++, dbio, same) and the count of fields that differ;
# then feeds both tools' lines to bon_csv2txt and bon_csv2html and checks
# that each reads them (exit 0, the name in what it prints). Exits 1 when a
# field differs other than those docs/bonnie.md explains (ALLOWED below).
#
#   bench/bonnie-csv.sh [-d DIR] [-o SETS]
#
#   -d DIR   where the files go: a fresh directory inside DIR (default /tmp)
#   -o SETS  only the option sets whose number is in SETS (1,3,5)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

parent=${TMPDIR:-/tmp}
only=""
opt() {
	case $1 in
	d) parent=$2 ;;
	o) only=,$2, ;;
	esac
}
bench_opts "d:o:" "$@"
need_dbio
need bonnie++ "scripts/install-deps (the bonnie++ package)"
need bon_csv2txt "the bonnie++ package"
need bon_csv2html "the bonnie++ package"
bench_tmp bonnie-csv
bench_work bonnie-csv "$parent"

# The option sets: each option of the issue's list at least once.
sets=(
	"-s 4 -r 0 -n 0"
	"-s 4 -r 0 -n 0 -f"
	"-s 4:16k -r 0 -n 0 -f"
	"-s 4:8k:100:2 -r 0 -n 0 -f"
	"-s 4 -r 0 -n 0 -f -D"
	"-s 4 -r 0 -n 0 -f -b"
	"-s 32 -r 16 -n 0 -f"
	"-s 0 -n 1"
	"-s 0 -n 1:4k"
	"-s 0 -n 1:4k:1k:2"
	"-s 0 -n 1:0:0:3"
	"-s 0 -n 1 -b"
	"-s 0 -n 1 -x 2 -z 7"
	"-s 0 -n 1 -x 1"
	"-s 0 -n 1 -m host1 -c 1"
	"-s 4 -r 0 -n 0 -f -c 3"
	"-s 4 -r 0 -n 1 -f -z 99"
)

# Fields a dbio line prints otherwise, by design (docs/bonnie.md): the
# version (dbio-VERSION), and without -f the per-char tests bonnie++ runs
# and dbio does not (putc, getc, their %CP and latencies).
ALLOWED="1"
ALLOWED_PERCHAR="9 10 15 16 38 41"

compare() { # compare SETNO OPTS BONNIE_CSV DBIO_CSV ALLOWED...
	python3 - "$@" <<'PY'
import re, sys
setno, opts, bfile, dfile, allowed = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
allowed = {int(x) for x in allowed.split()}
names = ("format_version bonnie_version name concurrency seed file_size io_chunk_size seeks seekers "
         "putc putc_cpu put_block put_block_cpu rewrite rewrite_cpu getc getc_cpu get_block get_block_cpu "
         "seeks_s seeks_cpu num_files max_size min_size num_dirs(empty) dirs(file_chunk_size) "
         "seq_create seq_create_cpu seq_stat seq_stat_cpu seq_del seq_del_cpu ran_create ran_create_cpu "
         "ran_stat ran_stat_cpu ran_del ran_del_cpu putc_lat put_block_lat rewrite_lat getc_lat "
         "get_block_lat seeks_lat seq_create_lat seq_stat_lat seq_del_lat ran_create_lat ran_stat_lat "
         "ran_del_lat").split()
def lines(path):
    return [l.rstrip("\n").split(",") for l in open(path) if l.startswith("1.98,")]
def header(path):
    return sum(1 for l in open(path) if l.startswith("format_version,"))
def cls(i, v):
    if v == "":
        return "empty"
    if 9 <= i <= 20 or 26 <= i <= 37:
        cpu = (i - 9) % 2 == 1 if i <= 20 else (i - 26) % 2 == 1
        if cpu:
            return "cpu" if re.fullmatch(r"\d+|\+\+\+", v) else "bad:" + v
        return "figure" if re.fullmatch(r"\d+(\.\d)?|\+\+\+\+\+", v) else "bad:" + v
    if i >= 38:
        return "latency" if re.fullmatch(r"\d+(us|ms|s)", v) else "bad:" + v
    if i == 4 and "-z" not in opts.split():
        return "number" if re.fullmatch(r"\d+", v) else "bad:" + v
    if i == 2 and "-m" not in opts.split():
        return "text"
    return "=" + v
b, d = lines(bfile), lines(dfile)
bad = 0
print(f"\n## {setno}: {opts}\n")
print(f"lines: bonnie++ {len(b)}, dbio {len(d)}; header lines: bonnie++ {header(bfile)}, dbio {header(dfile)}")
if len(b) != len(d) or header(bfile) != header(dfile):
    bad += 1
print("\n| # | field | bonnie++ | dbio | same |\n|--:|-------|----------|------|------|")
for i in range(max(len(b[0]), len(d[0]))):
    bv = b[0][i] if i < len(b[0]) else "(none)"
    dv = d[0][i] if i < len(d[0]) else "(none)"
    same = cls(i, bv) == cls(i, dv) and not cls(i, dv).startswith("bad")
    mark = "yes" if same else ("no (explained)" if i in allowed else "no")
    if not same and i not in allowed:
        bad += 1
    print(f"| {i} | {names[i] if i < len(names) else '?'} | `{bv}` | `{dv}` | {mark} |")
# a +++++ figure goes with a +++ %CP, in every line of each tool
for who, ls in (("bonnie++", b), ("dbio", d)):
    for l in ls:
        for i in list(range(9, 21, 2)) + list(range(26, 38, 2)):
            if (l[i] == "+++++") != (l[i + 1] == "+++"):
                print(f"{who}: field {i} {l[i]} with %CP {l[i + 1]}")
                bad += 1
print(f"\nfields: {len(b[0])} and {len(d[0])}; differing beyond the explained: {bad}")
sys.exit(1 if bad else 0)
PY
}

status=0
n=0
for opts in "${sets[@]}"; do
	n=$((n + 1))
	[ -z "$only" ] || [[ $only == *,$n,* ]] || continue
	allowed=$ALLOWED
	[[ " $opts " == *" -f "* ]] || allowed="$allowed $ALLOWED_PERCHAR"
	mkdir -p "$WORK/b" "$WORK/d"
	# shellcheck disable=SC2086 # the options are words
	bonnie++ -d "$WORK/b" -u root -q $opts >"$TMP/b.csv" 2>"$TMP/b.err" ||
		die "bonnie++ $opts failed: $(cat "$TMP/b.err")"
	# shellcheck disable=SC2086
	"$DBIO" bonnie -d "$WORK/d" -u root -q $opts --progress=none >"$TMP/d.csv" 2>"$TMP/d.err" ||
		die "dbio bonnie $opts failed: $(cat "$TMP/d.err")"
	compare "$n" "$opts" "$TMP/b.csv" "$TMP/d.csv" "$allowed" || status=1
	for tool in b d; do
		name=$(grep -m1 '^1\.98,' "$TMP/$tool.csv" | cut -d, -f3)
		grep '^1\.98,' "$TMP/$tool.csv" >"$TMP/lines.csv"
		bon_csv2txt <"$TMP/lines.csv" >"$TMP/txt" 2>"$TMP/txt.err" && grep -q "^$name " "$TMP/txt" ||
			{ echo "bon_csv2txt did not read the $tool line: $(cat "$TMP/txt.err")"; status=1; }
		bon_csv2html <"$TMP/lines.csv" >"$TMP/html" 2>"$TMP/html.err" && grep -q ">$name<" "$TMP/html" ||
			{ echo "bon_csv2html did not read the $tool line: $(cat "$TMP/html.err")"; status=1; }
	done
	echo "bon_csv2txt and bon_csv2html: read both lines"
	rm -rf "$WORK/b" "$WORK/d"
done
exit "$status"
