#!/usr/bin/env bats
# dbio compare: side-by-side results, change in percent and Welch's t-test,
# --fail-above, sweep points, environment differences, and every input
# error with its exact message and exit status 2.
#
# The files in results/ are synthetic, with known per-run figures. They are
# minimal: they hold what compare reads (schema_version, tool.name, system,
# jobs[].name/point/options/targets/runs[].partial/ops/rusage) and do NOT
# validate against docs/result.schema.json.
#   base.json       read iops 1000, 1100, 1200, 1300, 1400 (and a partial run
#                   of 5 ops/s that must be left out); p99 100..140 us
#   faster.json     iops 1200..1600: +16.7 %, t = -2, df = 8, p = 0.0805
#   slower.json     iops 600..640: -48.3 %, p = 0.0011; p99 200..240 us: +83.3 %
#   single.json     one run of 1300 ops/s: no repeats
#   newkernel.json  base's runs on kernel 6.18.0 with 1 KiB filesystem blocks
#   sweep-a/b.json  numjobs=1,2 / numjobs=2,1,4 (other order, one more point)
#   twice-a/b.json  two jobs named "job" each
#   two-jobs.json   base's job and a job "extra"

load helpers

RESULTS="$BATS_TEST_DIRNAME/results"

# compare ARG...: run `dbio compare` in results/ with stdout and stderr apart.
compare() {
	cd "$RESULTS" || return 1
	run --separate-stderr "$DBIO" compare "$@"
}

# max_columns: the widest line of standard input, in characters ("±" is one).
max_columns() {
	python3 -c 'import sys; print(max(len(l) for l in sys.stdin.read().splitlines()))'
}

# has_line TEXT: $output has a line exactly TEXT.
has_line() {
	grep -qxF -- "$1" <<<"$output" || {
		echo "no line: $1"
		echo "in: $output"
		return 1
	}
}

@test "compare: a real result against itself: every change 0.0 %, within noise, exit 0" {
	dbio_ok --rw=randread --size=1m --repeat=2 --directory="$target"
	run --separate-stderr "$DBIO" compare "$result" "$result" --metric iops,bw,lat_mean,p99,max,cpu --wide
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ -z "$stderr" ]
	has_line "environment: identical"
	rows=$(grep -c "^job  \(read\|all\) " <<<"$output")
	[ "$rows" -eq 6 ] || { echo "$output"; false; }
	[ "$(grep -c '  0\.0 %, p=1\.0000, within noise$' <<<"$output")" -eq 6 ] || { echo "$output"; false; }
	has_line "6 of 6 changes tested (both sides with repeats): 0 significant, 0 regressions"
}

@test "compare: --metric worst,worst2,nivcsw (from the metric registry): a row each, op all" {
	dbio_ok --rw=write --size=1m --log_interval=64ops --repeat=2 --directory="$target"
	run --separate-stderr "$DBIO" compare "$result" "$result" --metric iops,worst,worst2,nivcsw --wide
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ -z "$stderr" ]
	grep -q '^job  write  iops  ' <<<"$output"
	grep -q '^job  all    worst   ' <<<"$output"
	grep -q '^job  all    worst2  ' <<<"$output"
	grep -q '^job  all    nivcsw  .* switches  ' <<<"$output"
	has_line "4 of 4 changes tested (both sides with repeats): 0 significant, 0 regressions"
	run --separate-stderr "$DBIO" compare "$result" "$result" --metric worst --format csv
	[ "$status" -eq 0 ]
	[ "$(cut -d, -f1-4,7 <<<"$output" | tail -n +2)" = "job,all,worst,ns,2" ]
}

@test "compare: known per-run iops give the exact change and p-value" {
	compare base.json faster.json --wide
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	has_line "A = base.json"
	has_line "B = faster.json"
	has_line "job  op    metric  A                     B                     B vs A"
	has_line "job  read  iops    1200.0 ± 196.3 ops/s  1400.0 ± 196.3 ops/s  +16.7 %, p=0.0805, within noise"
	has_line "job  read  bw         4.69 ± 0.77 MiB/s     5.47 ± 0.77 MiB/s  +16.7 %, p=0.0805, within noise"
	has_line "job  read  p99         120 us ± 19.6 us      120 us ± 19.6 us  0.0 %, p=1.0000, within noise"
	# The write op did nothing: no row.
	[ -z "$(grep ' write ' <<<"$output")" ]
}

@test "compare: a table wider than 100 columns (not a terminal) puts the files in rows, metrics as columns, each line at most 100 columns" {
	compare base.json faster.json slower.json
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(sed -n '/^job  read$/,/^\* significant/p' <<<"$output")" = "job  read
                          iops                 bw               p99
  A       1200.0 ± 196.3 ops/s  4.69 ± 0.77 MiB/s  120 us ± 19.6 us
  B       1400.0 ± 196.3 ops/s  5.47 ± 0.77 MiB/s  120 us ± 19.6 us
  C         620.0 ± 19.6 ops/s  2.42 ± 0.08 MiB/s  220 us ± 19.6 us
  B vs A               +16.7 %            +16.7 %             0.0 %
  C vs A             -48.3 % !          -48.3 % !         +83.3 % !
* significant, ! significant regression, ~ no repeats (p-values: --wide)" ] || { echo "$output"; false; }
	[ "$(max_columns <<<"$output")" -le 100 ]
	# More metrics than fit a line: blocks of columns, each line within 100.
	compare base.json faster.json slower.json --metric iops,bw,lat_mean,p99,cpu
	[ "$status" -eq 0 ]
	[ "$(max_columns <<<"$output")" -le 100 ]
	[ "$(grep -c '^  C vs A  ' <<<"$output")" -eq 2 ] || { echo "$output"; false; }
	grep -qE '^ +iops +bw +lat_mean +p99$' <<<"$output" || { echo "$output"; false; }
	# Two files, nine metrics: a row each, the long form fits 100.
	compare base.json faster.json --metric iops,bw,lat_mean,p50,p95,p99,p99_9,max,cpu
	has_line "job  read  lat_mean        845 us ± 140 us        722 us ± 102 us  -14.6 %, p=0.0872, within noise"
	# A significant change is marked.
	compare base.json faster.json faster.json --metric iops --alpha 0.1
	[ "$status" -eq 0 ]
	[ "$(grep -cE '^  [BC] vs A +\+16\.7 % \*$' <<<"$output")" -eq 2 ] || { echo "$output"; false; }
	# A narrow table keeps a column per file.
	compare base.json single.json --metric cpu
	[ "$status" -eq 0 ]
	has_line "job  all  cpu     50.0 ± 0.0 %  50.0 %  0.0 %, n/a (no repeats)"
}

# with_user IN OUT SECONDS...: IN with each complete run's user CPU set to
# the next of SECONDS.
with_user() {
	"$PYTHON" - "$@" <<'PY'
import json, sys
src, dst, *secs = sys.argv[1:]
d = json.load(open(src))
runs = [r for r in d["jobs"][0]["runs"] if not r["partial"]]
for r, s in zip(runs, secs):
    r["rusage"]["user_s"] = float(s)
d["jobs"][0]["runs"] = runs[:len(secs)]
json.dump(d, open(dst, "w"))
PY
}

@test "compare: a figure shown as zero at its precision gets no percentage, and is never significant" {
	# user 0.00 s both sides (0.001 .. 0.004 s): +150 % would be noise.
	with_user "$RESULTS/base.json" "$scratch/a.json" 0.001 0.001 0.002 0.002
	with_user "$RESULTS/base.json" "$scratch/b.json" 0.004 0.004 0.005 0.004
	with_user "$RESULTS/base.json" "$scratch/c.json" 0.8 0.9 0.8 0.9
	cd "$scratch"
	run --separate-stderr "$DBIO" compare a.json b.json --metric user
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	has_line "job  all  user    0.00 ± 0.00 s  0.00 ± 0.00 s  n/a (both shown as 0.00 s)"
	has_line "1 of 1 changes tested (both sides with repeats): 0 significant, 0 regressions"
	# One side shown as zero: no -100 % either; the short form says n/a.
	run --separate-stderr "$DBIO" compare c.json a.json --metric user --fail-above 0
	[ "$status" -eq 0 ]
	has_line "job  all  user    0.85 ± 0.09 s  0.00 ± 0.00 s  n/a (B shown as 0.00 s)"
	run --separate-stderr "$DBIO" compare c.json a.json b.json --metric user --stacked
	has_line "  B vs A            n/a"
	has_line "n/a: a side shown as 0 at the figure's precision, no percentage of it"
	# JSON: no change_pct, not significant.
	run --separate-stderr "$DBIO" compare a.json b.json --metric user --format json
	[ "$(value <(printf "%s" "$output") 'd["rows"][0]["changes"][0]["change_pct"]')" = "None" ]
	[ "$(value <(printf "%s" "$output") 'd["rows"][0]["changes"][0]["verdict"]')" = "n/a (under the resolution)" ]
}

# on_tty COLS CMD...: CMD's standard output on a terminal COLS wide
# (script(1) makes one), carriage returns dropped.
on_tty() {
	local cols=$1
	shift
	script -qec "stty cols $cols; $(printf '%q ' "$@") 2>/dev/null" /dev/null | tr -d '\r'
}

@test "compare: the seed's shape (a row per point, a column per file) whenever it fits the width, blocks only when it does not" {
	# Two sweeps: a row per point, op and metric, a column per file; the
	# changes with their p-value when that fits 100 columns (not a terminal).
	compare base.json faster.json --metric iops
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	has_line "job  read  iops    1200.0 ± 196.3 ops/s  1400.0 ± 196.3 ops/s  +16.7 %, p=0.0805, within noise"
	# With the p-value it would pass 100; "+95.2 % *" fits.
	compare sweep-a.json sweep-b.json --metric iops
	has_line "numjobs  job  op    metric  A                   B                   B vs A"
	has_line "2        job  read  iops    210.0 ± 24.8 ops/s  410.0 ± 24.8 ops/s  +95.2 % *"
	[ "$(max_columns <<<"$output")" -le 100 ]
	compare sweep-a.json sweep-b.json --metric iops,p99
	has_line "2        job  read  iops    210.0 ± 24.8 ops/s  410.0 ± 24.8 ops/s  +95.2 % *"
	has_line "2        job  read  p99          100 us ± 0 ns       100 us ± 0 ns  0.0 %"
	has_line "* significant, ! significant regression, ~ no repeats (p-values: --wide)"
	[ "$(max_columns <<<"$output")" -le 100 ]
	# --stacked: the blocks however narrow.
	compare sweep-a.json sweep-b.json --metric iops --stacked
	[ "$status" -eq 0 ]
	[ "$(sed -n '/^2  job  read$/,/B vs A/p' <<<"$output")" = "2  job  read
                        iops
  A       210.0 ± 24.8 ops/s
  B       410.0 ± 24.8 ops/s
  B vs A           +95.2 % *" ] || { echo "$output"; false; }
	compare sweep-a.json sweep-b.json --wide --stacked
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: compare: --wide and --stacked: give one of them (a column per file, or the files in rows)" ]
}

@test "compare: on a terminal the text fits its width: columns when wide enough, blocks when not" {
	command -v script >/dev/null || skip "no script(1) to make a terminal"
	cd "$RESULTS"
	# 200 columns: the long form fits.
	output=$(on_tty 200 "$DBIO" compare sweep-a.json sweep-b.json --metric iops,p99)
	has_line "2        job  read  iops    210.0 ± 24.8 ops/s  410.0 ± 24.8 ops/s  +95.2 %, p<0.0001, significant, improvement"
	# 60 columns: not even "+95.2 % *" fits; blocks, each line within 60.
	output=$(on_tty 60 "$DBIO" compare sweep-a.json sweep-b.json --metric iops,p99)
	has_line "2  job  read"
	has_line "  B vs A           +95.2 % *          0.0 %"
	# (the table's lines; the legend's are prose)
	[ "$(grep -E '^(  |[0-9]  job)' <<<"$output" | max_columns)" -le 60 ] || { echo "$output"; false; }
	# --wide on 60 columns: a column per file all the same.
	output=$(on_tty 60 "$DBIO" compare sweep-a.json sweep-b.json --metric iops --wide)
	has_line "2        job  read  iops    210.0 ± 24.8 ops/s  410.0 ± 24.8 ops/s  +95.2 %, p<0.0001, significant, improvement"
}

@test "compare --format markdown: a table of pipes, figures right-aligned, a column per file" {
	compare base.json faster.json --metric iops --format markdown
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	has_line "| job | op | metric | A | B | B vs A |"
	has_line "|---|---|---|---:|---:|---:|"
	has_line "| job | read | iops | 1200.0 ± 196.3 ops/s | 1400.0 ± 196.3 ops/s | +16.7 %, p=0.0805, within noise |"
	has_line "A = base.json"
}

@test "compare: --alpha 0.1 makes p = 0.0805 significant" {
	compare base.json faster.json --metric iops --alpha=0.1 --wide
	[ "$status" -eq 0 ]
	has_line "job  read  iops    1200.0 ± 196.3 ops/s  1400.0 ± 196.3 ops/s  +16.7 %, p=0.0805, significant, improvement"
	has_line "1 of 1 changes tested (both sides with repeats): 1 significant, 0 regressions"
}

@test "compare: a significant drop in iops and rise in latency are regressions" {
	compare base.json slower.json --metric iops,p99 --wide
	[ "$status" -eq 0 ]
	has_line "job  read  iops    1200.0 ± 196.3 ops/s  620.0 ± 19.6 ops/s  -48.3 %, p=0.0011, significant, regression"
	has_line "job  read  p99         120 us ± 19.6 us    220 us ± 19.6 us  +83.3 %, p<0.0001, significant, regression"
}

@test "compare: without repeats the change has no test: n/a (no repeats)" {
	compare base.json single.json --metric iops --fail-above 1 --wide
	[ "$status" -eq 0 ]
	has_line "job  read  iops    1200.0 ± 196.3 ops/s  1300.0 ops/s  +8.3 %, n/a (no repeats)"
}

@test "compare: --fail-above exits 1 on a significant regression above it and says which" {
	compare base.json slower.json --metric iops,p99 --fail-above 40
	[ "$status" -eq 1 ]
	[ "$stderr" = "dbio: compare: regression beyond --fail-above 40 %: 'job' read iops: slower.json against base.json: -48.3 %, p=0.0011, significant, regression
dbio: compare: regression beyond --fail-above 40 %: 'job' read p99: slower.json against base.json: +83.3 %, p<0.0001, significant, regression" ]
	# The table is printed all the same.
	has_line "job  read  iops    1200.0 ± 196.3 ops/s  620.0 ± 19.6 ops/s  -48.3 % !"

	compare base.json slower.json --metric iops,p99 --fail-above=50
	[ "$status" -eq 1 ]
	[ "$stderr" = "dbio: compare: regression beyond --fail-above 50 %: 'job' read p99: slower.json against base.json: +83.3 %, p<0.0001, significant, regression" ]
}

@test "compare: --fail-above exits 0 when every regression is below it, or not significant" {
	compare base.json slower.json --metric iops,p99 --fail-above 90
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	# faster is better; itself is no change.
	compare base.json faster.json base.json --fail-above 0
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

@test "compare: sweep files are matched by point, not position; a point in one file only is left out" {
	compare sweep-a.json sweep-b.json --metric iops --wide
	[ "$status" -eq 0 ]
	[ "$stderr" = "dbio: compare: job 'job' numjobs=4 is in sweep-b.json but not in sweep-a.json: left out" ]
	has_line "numjobs  job  op    metric  A                   B                   B vs A"
	has_line "1        job  read  iops    110.0 ± 24.8 ops/s  110.0 ± 24.8 ops/s  0.0 %, p=1.0000, within noise"
	has_line "2        job  read  iops    210.0 ± 24.8 ops/s  410.0 ± 24.8 ops/s  +95.2 %, p<0.0001, significant, improvement"
}

@test "compare: jobs of the same name are matched by position among them" {
	compare twice-a.json twice-b.json --metric iops --format csv
	[ "$status" -eq 0 ]
	[ "$output" = "job,op,metric,unit,a_value,a_ci95,a_runs,b_value,b_ci95,b_runs,b_change_pct,b_p_value,b_significant,b_regression
job,read,iops,ops/s,110,24.84137712,3,110,24.84137712,3,0.0000,1,false,false
job #2,read,iops,ops/s,210,24.84137712,3,410,24.84137712,3,95.2381,1.64831e-05,true,false" ]
}

@test "compare: a job in one file only is left out with a warning; the common ones are compared" {
	compare two-jobs.json base.json --metric iops --wide
	[ "$status" -eq 0 ]
	[ "$stderr" = "dbio: compare: job 'extra' is in two-jobs.json but not in base.json: left out" ]
	has_line "job  read  iops    1200.0 ± 196.3 ops/s  1200.0 ± 196.3 ops/s  0.0 %, p=1.0000, within noise"
	[ -z "$(grep extra <<<"$output")" ]
}

@test "compare: environment differences are listed: kernel release and filesystem block size" {
	compare base.json newkernel.json --metric iops
	[ "$status" -eq 0 ]
	has_line "environment: 2 fields differ"
	has_line "  system.kernel_release: A 6.1.0, B 6.18.0"
	has_line "  targets[0].fs_block_size_bytes (job 'job'): A 4096, B 1024"
	compare base.json newkernel.json --format=json
	[ "$status" -eq 0 ]
	echo "$output" >"$scratch/c.json"
	[ "$(jpy "$scratch/c.json" 'r["environment"]')" = '{"identical": false, "differences": [{"field": "system.kernel_release", "jobs": null, "values": ["6.1.0", "6.18.0"]}, {"field": "targets[0].fs_block_size_bytes", "jobs": "'"'job'"'", "values": [4096, 1024]}]}' ]
}

@test "compare: --format json: files, rows with values, change_pct, p_value, significant, regression" {
	compare base.json faster.json slower.json --format json --metric iops
	[ "$status" -eq 0 ]
	echo "$output" >"$scratch/c.json"
	run jpy "$scratch/c.json" 'r["alpha"]' '[f["path"] for f in r["files"]]' 'len(r["rows"])' \
		'[r["rows"][0][k] for k in ("job", "point", "op", "metric", "unit")]' \
		'[(v["file"], v["runs"], v["mean"]) for v in r["rows"][0]["values"]]' \
		'[(c["file"], round(c["change_pct"], 4), round(c["p_value"], 4), c["significant"], c["regression"], c["verdict"]) for c in r["rows"][0]["changes"]]' \
		'(r["tested"], r["significant"], r["regressions"])'
	[ "$status" -eq 0 ]
	[ "$output" = '0.05
["base.json", "faster.json", "slower.json"]
1
["job", null, "read", "iops", "ops/s"]
[["A", 5, 1200.0], ["B", 5, 1400.0], ["C", 5, 620.0]]
[["B", 16.6667, 0.0805, false, false, "within noise"], ["C", -48.3333, 0.0011, true, true, "significant, regression"]]
[2, 1, 1]' ] || { echo "$output"; false; }
}

@test "compare: --format csv: one header row and a row per job, op and metric" {
	compare base.json single.json --format csv --metric iops,cpu
	[ "$status" -eq 0 ]
	[ "$output" = "job,op,metric,unit,a_value,a_ci95,a_runs,b_value,b_ci95,b_runs,b_change_pct,b_p_value,b_significant,b_regression
job,read,iops,ops/s,1200,196.3243161,5,1300,0,1,8.3333,,,
job,all,cpu,%,50,0,5,50,0,1,0.0000,,," ]
}

@test "compare: --help prints the usage; compare is in dbio --help" {
	run "$DBIO" compare --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: dbio compare A.json B.json [C.json ...] [--metric LIST] [--op LIST]" ]]
	run "$DBIO" --help
	grep -q '^  compare ' <<<"$output"
}

# Errors: exit 2 and the exact message, nothing on stdout.
compare_fails() { # compare_fails MESSAGE ARG...
	local want=$1
	shift
	compare "$@"
	[ "$status" -eq 2 ] || { echo "exit $status, stderr: $stderr"; return 1; }
	[ "$stderr" = "$want" ] || { echo "expected: $want"; echo "got:      $stderr"; return 1; }
	[ -z "$output" ]
}

@test "compare: errors: fewer than two files" {
	compare_fails "dbio: compare: base.json: not a result of dbio matrix or dbio sweep: give a second result file to compare it with (one result alone is shown for dbio matrix with 2 or more configurations, and for dbio sweep)" base.json
	compare_fails "dbio: compare: expected result files, got none: dbio compare A.json B.json [C.json ...], or one result of dbio matrix or dbio sweep"
}

@test "compare: errors: a missing file, a directory, not JSON" {
	compare_fails "dbio: compare: missing.json: cannot read: No such file or directory" base.json missing.json
	compare_fails "dbio: compare: .: cannot read: Is a directory" . base.json
	compare_fails "dbio: compare: not-json.json: not JSON: '[' or '{' expected near 'jobs' (line 1)" base.json not-json.json
}

@test "compare: errors: not a dbio result, or a newer schema_version" {
	compare_fails "dbio: compare: not-dbio.json: not a dbio result: tool.name is 'fio', not 'dbio'" base.json not-dbio.json
	compare_fails "dbio: compare: no-version.json: not a dbio result: no schema_version" no-version.json base.json
	compare_fails "dbio: compare: newer.json: schema_version 2 is newer than this dbio's (1): read it with a newer dbio" base.json newer.json
}

# The one loader (result_load) and its one rule: compare, report and plot
# refuse each malformed file with exit 2 and the same message.
@test "compare, report and plot refuse a malformed result the same way" {
	local f want
	declare -A why=(
		[not-json.json]="not JSON: '[' or '{' expected near 'jobs' (line 1)"
		[not-object.json]="not a dbio result: no schema_version"
		[no-version.json]="not a dbio result: no schema_version"
		[version-0.json]="not a dbio result: schema_version is not a whole number >= 1"
		[version-negative.json]="not a dbio result: schema_version is not a whole number >= 1"
		[version-text.json]="not a dbio result: schema_version is not a whole number >= 1"
		[newer.json]="schema_version 2 is newer than this dbio's (1): read it with a newer dbio"
		[no-tool.json]="not a dbio result: no tool.name"
		[not-dbio.json]="not a dbio result: tool.name is 'fio', not 'dbio'"
		[jobs-not-array.json]="not a dbio result: no jobs array"
	)
	cd "$RESULTS"
	for f in "${!why[@]}"; do
		want="$f: ${why[$f]}"
		run --separate-stderr "$DBIO" compare base.json "$f"
		[ "$status" -eq 2 ] || { echo "compare $f: exit $status: $stderr"; false; }
		[ "$stderr" = "dbio: compare: $want" ] || { echo "compare $f: $stderr"; false; }
		run --separate-stderr "$DBIO" report "$f" --html "$scratch/r.html"
		[ "$status" -eq 2 ] || { echo "report $f: exit $status: $stderr"; false; }
		[ "$stderr" = "dbio: report: $want" ] || { echo "report $f: $stderr"; false; }
		run --separate-stderr "$DBIO" plot "$f" --out "$scratch/plots"
		[ "$status" -eq 2 ] || { echo "plot $f: exit $status: $stderr"; false; }
		[ "$stderr" = "dbio: plot: $want" ] || { echo "plot $f: $stderr"; false; }
	done
	[ ! -e "$scratch/r.html" ]
	[ ! -e "$scratch/plots" ]
}

# A figure no run makes (negative, or beyond 1e18) is refused by the one
# rule, by JSON path, for every view and for sweep --resume: an edited file
# is not drawn as "p99 -1 ns" nor summed into "no jobs with operations".
@test "compare, report, plot and sweep --resume refuse a figure no run makes, naming its path and value" {
	local path want cmd
	"$DBIO" run --rw=read --size=64k --directory="$target" --output="$scratch/good.json" >/dev/null
	declare -A edit=(
		[jobs.0.runs.0.ops.read.lat_ns.p99]=-1
		[jobs.0.runs.0.ops.read.count]=1e308
		[jobs.0.runs.0.ops.read.bytes]=-4096
		[jobs.0.runs.0.elapsed_ns]=-1
		[jobs.0.runs.0.rusage.user_s]=-0.5
		[jobs.0.runs.0.ops.read.lat_hist.buckets.0.1]=-3
		[jobs.0.summary.elapsed_ns.mean]=-2.5
		[jobs.0.summary.ops.read.iops.max]=2e18
	)
	declare -A shown=(
		[jobs.0.runs.0.ops.read.lat_ns.p99]='jobs[0].runs[0].ops.read.lat_ns.p99 is -1'
		[jobs.0.runs.0.ops.read.count]='jobs[0].runs[0].ops.read.count is 1e+308'
		[jobs.0.runs.0.ops.read.bytes]='jobs[0].runs[0].ops.read.bytes is -4096'
		[jobs.0.runs.0.elapsed_ns]='jobs[0].runs[0].elapsed_ns is -1'
		[jobs.0.runs.0.rusage.user_s]='jobs[0].runs[0].rusage.user_s is -0.5'
		[jobs.0.runs.0.ops.read.lat_hist.buckets.0.1]='jobs[0].runs[0].ops.read.lat_hist.buckets[0][1] is -3'
		[jobs.0.summary.elapsed_ns.mean]='jobs[0].summary.elapsed_ns.mean is -2.5'
		[jobs.0.summary.ops.read.iops.max]='jobs[0].summary.ops.read.iops.max is 2e+18'
	)
	for path in "${!edit[@]}"; do
		"$PYTHON" - "$scratch/good.json" "$scratch/bad.json" "$path" "${edit[$path]}" <<-'PY'
			import json, sys
			r = json.load(open(sys.argv[1]))
			keys = sys.argv[3].split(".")
			v = r
			for k in keys[:-1]:
			    v = v[int(k)] if isinstance(v, list) else v[k]
			last = keys[-1]
			val = float(sys.argv[4]) if ("e" in sys.argv[4] or "." in sys.argv[4]) else int(sys.argv[4])
			if isinstance(v, list):
			    v[int(last)] = val
			else:
			    v[last] = val
			json.dump(r, open(sys.argv[2], "w"))
		PY
		want="bad.json: ${shown[$path]}: not a figure a run makes (expected from 0 to 1e18)"
		run --separate-stderr "$DBIO" compare good.json bad.json
		[ "$status" -eq 2 ] || { echo "compare $path: exit $status: $stderr"; false; }
		[ "$stderr" = "dbio: compare: $want" ] || { echo "compare $path: $stderr"; false; }
		run --separate-stderr "$DBIO" report bad.json --html "$scratch/r.html"
		[ "$status" -eq 2 ] || { echo "report $path: exit $status: $stderr"; false; }
		[ "$stderr" = "dbio: report: $want" ] || { echo "report $path: $stderr"; false; }
		run --separate-stderr "$DBIO" plot bad.json --out "$scratch/plots"
		[ "$status" -eq 2 ] || { echo "plot $path: exit $status: $stderr"; false; }
		[ "$stderr" = "dbio: plot: $want" ] || { echo "plot $path: $stderr"; false; }
		cp bad.json before.json
		run --separate-stderr "$DBIO" sweep --resume bad.json
		[ "$status" -eq 2 ] || { echo "sweep $path: exit $status: $stderr"; false; }
		[ "$stderr" = "dbio: sweep: $want" ] || { echo "sweep $path: $stderr"; false; }
		cmp before.json bad.json
	done
	[ ! -e "$scratch/r.html" ]
	[ ! -e "$scratch/plots" ]
}

@test "compare: errors: no job in common lists what each file has" {
	compare_fails "dbio: compare: no job in common: base.json has 'job'; sweep-a.json has 'job' numjobs=1, 'job' numjobs=2" base.json sweep-a.json
}

@test "compare: errors: bad --metric, --alpha, --fail-above, --format, unknown option" {
	compare_fails "dbio: compare: --metric iops,p98: 'p98' is not a metric: expected a list of iops, bw, lat_mean, p50, p95, p99, p99_9, max, elapsed, user, sys, pg_user, pg_sys, cpu, majflt, minflt, nvcsw, nivcsw, blocks_in, blocks_out, worst, worst2, engine_amp, fs_amp, device_amp, compaction_s, stall_s, lost_max, loss_states, lost_total, crash_states" base.json faster.json --metric iops,p98
	compare_fails "dbio: compare: --alpha 1: expected a significance level between 0 and 1, e.g. 0.05" base.json faster.json --alpha 1
	compare_fails "dbio: compare: --alpha 0: expected a significance level between 0 and 1, e.g. 0.05" base.json faster.json --alpha=0
	compare_fails "dbio: compare: --fail-above 5%: expected a percentage >= 0, e.g. 5 or 2.5" base.json faster.json --fail-above 5%
	compare_fails "dbio: compare: --fail-above -1: expected a percentage >= 0, e.g. 5 or 2.5" base.json faster.json --fail-above -1
	compare_fails "dbio: compare: --fail-above: needs a value" base.json faster.json --fail-above
	compare_fails "dbio: compare: --format xml: expected text, markdown, csv or json" base.json faster.json --format xml
	compare_fails "dbio: compare: '--metrics': unknown option (did you mean '--metric'?): expected --metric, --op, --alpha, --fail-above, --format, --wide, --stacked, --html or --help" base.json faster.json --metrics=iops
	compare_fails "dbio: compare: '--frobnicate': unknown option: expected --metric, --op, --alpha, --fail-above, --format, --wide, --stacked, --html or --help" base.json faster.json --frobnicate
	compare_fails "dbio: compare: --wide: takes no value" base.json faster.json --wide=1
	compare_fails "dbio: compare: --op reads: item 1 is neither an op type nor a phase of these files' jobs: expected a list of read, write, fsync, fdatasync, insert, lookup, update, commit, batch, index, transaction, log, sync_file_range, create, stat, delete, trim, rename" base.json faster.json --op reads
	compare_fails "dbio: compare: --op write,insert: no job in these files did any of these op types or went through such a phase" base.json faster.json --op write,insert
}

@test "compare --op insert: two kv results compared on their inserts only" {
	local kv
	need_kv_engine
	dbio_ok --workload=kv --kv_engine="$kv" --records=2000 --batch=500 --directory="$target"
	mv "$result" kv-a.json
	dbio_ok --workload=kv --kv_engine="$kv" --records=2000 --batch=500 --directory="$target"
	run --separate-stderr "$DBIO" compare kv-a.json "$result" --metric iops,p99,elapsed --op insert --wide
	[ "$status" -eq 0 ]
	[ "$(grep -c '^job  *insert  *iops ' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^job  *insert  *p99 ' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^job  *all  *elapsed ' <<<"$output")" -eq 1 ]
	[ -z "$(grep -E '^job +(commit|batch) ' <<<"$output")" ]
	# Without --op the commit and batch rows are there.
	run --separate-stderr "$DBIO" compare kv-a.json "$result" --metric iops --wide
	[ "$(grep -cE '^job +(insert|commit|batch) +iops ' <<<"$output")" -eq 3 ]
}

# hostile_pair: a.json and b.json, base.json with a job named
# job ESC[31m U+009B x and hostnames holding the same, and c.json whose
# tool.name clears the screen.
hostile_pair() {
	"$PYTHON" - "$RESULTS/base.json" <<'PY'
import json, sys
for name, host in (("a.json", "host\x1b[31mA\u009b"), ("b.json", "host\x1b[31mB\u009b")):
    r = json.load(open(sys.argv[1]))
    r["system"]["hostname"] = host
    for j in r["jobs"]:
        j["name"] = "job\x1b[31m\u009bx"
    json.dump(r, open(name, "w"))
r["tool"]["name"] = "fio\x1b[2J"
json.dump(r, open("c.json", "w"))
PY
}

# no_raw_controls TEXT: TEXT holds no ESC byte and no C1 control (U+009B).
no_raw_controls() {
	[ "$(printf '%s' "$1" | grep -c $'\x1b')" -eq 0 ] || { echo "raw ESC in: $1"; return 1; }
	[ "$(printf '%s' "$1" | grep -c $'\xc2\x9b')" -eq 0 ] || { echo "raw U+009B in: $1"; return 1; }
}

@test "compare: control characters from result files are shown escaped, never sent raw to the terminal" {
	hostile_pair
	run --separate-stderr "$DBIO" compare a.json b.json --wide
	[ "$status" -eq 0 ]
	no_raw_controls "$output"
	no_raw_controls "$stderr"
	grep -qF 'job\x1b[31m\u009bx  read  iops ' <<<"$output"
	has_line '  system.hostname: A host\x1b[31mA\u009b, B host\x1b[31mB\u009b'
	run --separate-stderr "$DBIO" compare a.json b.json --format csv
	[ "$status" -eq 0 ]
	no_raw_controls "$output"
	grep -qF 'job\x1b[31m\u009bx,read,iops,' <<<"$output"
	# Error messages too: a job name in "no job in common", a tool name.
	run --separate-stderr "$DBIO" compare a.json "$RESULTS/base.json"
	[ "$status" -eq 2 ]
	no_raw_controls "$stderr"
	[[ "$stderr" == *"a.json has 'job\x1b[31m\u009bx'"* ]]
	run --separate-stderr "$DBIO" compare a.json c.json
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: compare: c.json: not a dbio result: tool.name is 'fio\x1b[2J', not 'dbio'" ]
}

@test "compare --format json: control characters from result files are escaped, the JSON parses back to the same names" {
	hostile_pair
	run --separate-stderr "$DBIO" compare a.json b.json --format json
	[ "$status" -eq 0 ]
	no_raw_controls "$output"
	no_raw_controls "$stderr"
	printf '%s\n' "$output" >cmp.json
	json_is cmp.json "rows.0.job=job"$'\x1b[31m\xc2\x9b'"x" \
		"environment.differences.0.values.1=host"$'\x1b[31m'"B"$'\xc2\x9b'
	grep -qF '"job": "job\u001B[31m\u009Bx"' cmp.json
}

# import_pair: a.json and b.json, two scaled-down S0 runs (two repeats each),
# made once for the file's tests that read them. --set, not --rows=: beside
# a job file an option is a default the file's own rows= overrides (fio's
# precedence), and S0's 350,000 rows took 14 s a file.
import_pair() {
	need_built workload=import
	if [ ! -e "$BATS_FILE_TMPDIR/b.json" ]; then
		mkdir "$target/a" "$target/b"
		dbio_ok jobs/s0-index-rebuild.fio --set rows=2000 --set batch=500 --repeat=2 --directory="$target/a"
		mv "$result" "$BATS_FILE_TMPDIR/a.json"
		dbio_ok jobs/s0-index-rebuild.fio --set rows=2000 --set batch=500 --repeat=2 --set page_size=1024 \
			--directory="$target/b"
		mv "$result" "$BATS_FILE_TMPDIR/b.json"
	fi
	cp "$BATS_FILE_TMPDIR/a.json" "$BATS_FILE_TMPDIR/b.json" "$scratch/"
	# What the test compares is what it asked for.
	json_is "$scratch/a.json" jobs.0.options.rows=2000 jobs.0.options.page_size=4096
	json_is "$scratch/b.json" jobs.0.options.rows=2000 jobs.0.options.page_size=1024
}

@test "compare --op index: import's index phase as rows of its own, its elapsed the result's" {
	cd "$BATS_TEST_DIRNAME/../.."
	import_pair
	run --separate-stderr "$DBIO" compare "$scratch/a.json" "$scratch/b.json" --op index \
		--metric elapsed,user,sys,majflt,blocks_in,blocks_out --format csv
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	# The whole run's six rows, then the index phase's six.
	[ "$(cut -d, -f2 <<<"$output" | tail -n +2 | sort | uniq -c | awk '{ print $1 " " $2 " " $3 }' | paste -sd' ')" = "6 all  6 phase index" ]
	want=$(jpy "$scratch/a.json" "sum([p['elapsed_ns'] for p in x['phases'] if p['name'] == 'index'][0] for x in r['jobs'][0]['runs']) / 2")
	got=$(grep '^s0,phase index,elapsed,ns,' <<<"$output" | cut -d, -f5)
	awk -v a="$got" -v b="$want" 'BEGIN { exit !(a - b <= 0.5 && b - a <= 0.5) }' || { echo "$got vs $want"; false; }
	want=$(jpy "$scratch/b.json" "r['jobs'][0]['runs'][1]['phases'][2]['rusage']['oublock'] + r['jobs'][0]['runs'][0]['phases'][2]['rusage']['oublock']")
	got=$(grep '^s0,phase index,blocks_out,blocks,' <<<"$output" | cut -d, -f8)
	awk -v a="$got" -v b="$want" 'BEGIN { exit !(a * 2 == b) }' || { echo "$got vs $want / 2"; false; }
	# Text: the rows read "phase index"; a phase's own name works as --op.
	run --separate-stderr "$DBIO" compare "$scratch/a.json" "$scratch/b.json" --op load --metric elapsed --wide
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	grep -qE '^s0   phase load  elapsed  ' <<<"$output"
	[ -z "$(grep 'phase index' <<<"$output")" ]
	run --separate-stderr "$DBIO" compare "$scratch/a.json" "$scratch/b.json" --op lod
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"item 1 is neither an op type nor a phase of these files' jobs: expected a list of read, "*"; or a phase: schema load index" ]]
}

@test "compare: jobs with phases default to elapsed, user, sys, cpu and faults, whole run and each phase" {
	cd "$BATS_TEST_DIRNAME/../.."
	import_pair
	run --separate-stderr "$DBIO" compare "$scratch/a.json" "$scratch/b.json" --format csv
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(tail -n +2 <<<"$output" | cut -d, -f3 | sort -u | paste -sd,)" = "cpu,elapsed,majflt,minflt,sys,user" ]
	[ "$(tail -n +2 <<<"$output" | cut -d, -f2 | uniq | paste -sd,)" = "all,phase schema,phase load,phase index" ]
	# A file I/O result keeps iops, bw, p99.
	compare base.json faster.json --format csv
	[ "$(tail -n +2 <<<"$output" | cut -d, -f3 | paste -sd,)" = "iops,bw,p99" ]
}

# jobs_file N FILE: a result of N jobs with names only (no runs), every name
# twice, so that each job's occurrence (#1, #2) is numbered too.
jobs_file() {
	"$PYTHON" - "$RESULTS/base.json" "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"] = [{"name": "j%d" % (i // 2), "runs": []} for i in range(int(sys.argv[2]))]
json.dump(d, open(sys.argv[3], "w"))
PY
}

# instructions N: what callgrind counts for `dbio compare` of a file of N jobs
# with itself (repeatable, whatever else the machine does: not a time).
instructions() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$DBIO" compare "$scratch/$1.json" \
		"$scratch/$1.json" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

@test "compare: its work grows linearly with the number of jobs (callgrind's instructions, 3,000 against 6,000 jobs)" {
	command -v valgrind >/dev/null || skip "valgrind is not installed (scripts/install-deps installs it)"
	case $(basename "$DBIO") in
	*-san | *-tsan | *-fuzz) skip "$(basename "$DBIO") is built with a sanitizer, which valgrind cannot run" ;;
	esac
	jobs_file 3000 "$scratch/3000.json"
	jobs_file 6000 "$scratch/6000.json"
	small=$(instructions 3000)
	large=$(instructions 6000)
	[ -n "$small" ]
	[ -n "$large" ]
	# Linear: 2; quadratic (each job matched against every earlier one, as
	# before): about 3.4 at these sizes, and 4 in the limit.
	ratio=$(( large * 100 / small ))
	echo "instructions: $small for 3,000 jobs, $large for 6,000: ratio $ratio %"
	[ "$ratio" -lt 250 ]
}

@test "compare --html: each counter the explanation names is drawn as a small chart of A and B beside it" {
	cd "$scratch" || return 1
	for f in 1 64; do
		run --separate-stderr "$DBIO" run --name=w --directory="$target" --rw=randwrite --bs=4k --size=1m --fdatasync=$f --repeat=3 --output "$scratch/s$f.json"
		[ "$status" -eq 0 ]
	done
	run --separate-stderr "$DBIO" compare "$scratch/s1.json" "$scratch/s64.json" --html "$scratch/page.html"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$scratch/text"
	"$PYTHON" - "$scratch/text" "$scratch/page.html" <<-'PY'
	import re, sys
	text = open(sys.argv[1]).read().split("\n")
	page = open(sys.argv[2]).read()
	start = next(i for i, l in enumerate(text) if l.startswith("Why: B vs A 'w'"))
	named = []
	for l in text[start + 1:]:
	    m = re.match(r"^  (.+?)\s+\S+ → ", l)
	    if not m:
	        break
	    named.append(m.group(1))
	assert named, text
	figs = re.findall(r'<figure class="multiple" data-counter="[a-z_]+"><figcaption>([^<]*)</figcaption><svg [^>]*>(.*?)</svg></figure>', page)
	assert [f[0] for f in figs] == named, (figs, named)
	for caption, svg in figs:
	    assert svg.count("<rect ") == 2, svg
	    assert ">A</text>" in svg and ">B</text>" in svg, svg
	PY
}

@test "compare --html: a symlink another user planted at the page's path is refused, never followed" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to own symlinks as another user"
	mkdir -m 1777 "$scratch/pages"
	echo precious >"$scratch/victim"
	ln -s "$scratch/victim" "$scratch/pages/p.html"
	chown -h 65534:65534 "$scratch/pages/p.html"
	compare base.json slower.json --html "$scratch/pages/p.html"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: compare: --html $scratch/pages/p.html: a symlink that belongs to user 65534: refusing to follow it (give the path it points to)" ]
	[ "$(cat "$scratch/victim")" = precious ]
	[ -z "$output" ]
}

@test "compare --html with one file is refused: one file's page is dbio report's" {
	compare base.json --html "$scratch/p.html"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: compare: --html needs two result files or more (one file's page: dbio report FILE --html PAGE)" ]
	[ ! -e "$scratch/p.html" ]
}
