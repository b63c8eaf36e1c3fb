#!/usr/bin/env bats
# dbio plot: gnuplot draws valid SVG for a run with a time series, a run
# with a count series, a sweep and several files; PNG on request; bad input
# exits 2 naming what is wrong and draws nothing; without gnuplot it says
# which package to install and exits 1.

load helpers

need_gnuplot() {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: apt-get install gnuplot-nox)"
}

# valid_svg FILE...: each parses as XML and its root element is <svg>.
valid_svg() {
	"$PYTHON" - "$@" <<'PY'
import sys, xml.dom.minidom
for f in sys.argv[1:]:
    root = xml.dom.minidom.parse(f).documentElement
    if root.tagName != "svg":
        sys.exit(f"{f}: root element is <{root.tagName}>, not <svg>")
PY
}

@test "plot: a run with a time series: series and latency plots, valid SVG, data and script kept" {
	need_gnuplot
	dbio_ok --rw=randwrite --size=2m --runtime=1s --time_based --log_interval=100ms --repeat=2 \
		--directory="$target"
	run --separate-stderr "$DBIO" plot "$result" --out plots
	[ "$status" -eq 0 ] || {
		echo "$stderr" >&2
		return 1
	}
	[ "$output" = "$(printf 'plots/series-j1-job.svg\nplots/latency.svg')" ]
	valid_svg plots/series-j1-job.svg plots/latency.svg
	[ -s plots/series-j1-job.dat ]
	[ -s plots/series-j1-job.gp ]
	# Axes say their units; the worst intervals are marked.
	grep -q 'ops/s' plots/series-j1-job.svg
	grep -q 'time into the run (s)' plots/series-j1-job.svg
	grep -q 'max latency in the interval (' plots/series-j1-job.svg
	grep -q '2nd worst' plots/series-j1-job.svg
	grep -q 'latency (' plots/latency.svg
}

@test "plot: a count series (per 100 operations) shows the time each interval took" {
	need_gnuplot
	dbio_ok --rw=write --size=1m --log_interval=100ops --directory="$target"
	run "$DBIO" plot "$result" --out plots
	[ "$status" -eq 0 ]
	valid_svg plots/series-j1-job.svg
	grep -q 'time the interval took (' plots/series-j1-job.svg
	grep -q 'interval of 100 reads and writes' plots/series-j1-job.svg
}

@test "plot: a kv run's batch series: a point per batch, its time, and its longest put or commit" {
	need_gnuplot
	local kv
	need_kv_engine
	dbio_ok --workload=kv --kv_engine="$kv" --records=3000 --batch=500 --directory="$target"
	run --separate-stderr "$DBIO" plot "$result" --out plots
	[ "$status" -eq 0 ] || {
		echo "$stderr" >&2
		return 1
	}
	valid_svg plots/series-j1-job.svg
	grep -q 'time and max latency per batch' plots/series-j1-job.svg
	grep -q 'batch, per thread (number)' plots/series-j1-job.svg
	grep -q 'time the batch took (' plots/series-j1-job.svg
	grep -q 'max latency of one operation in the batch (' plots/series-j1-job.svg
	# The thread's block: batches 1..6, each with its time and a latency
	# that is a put or commit of the batch: shorter than the batch itself.
	[ "$(awk 'NF == 0 { exit } { print $1 }' plots/series-j1-job.dat | tr '\n' ' ')" = "1 2 3 4 5 6 " ]
	awk 'NF == 0 { exit } $3 == "?" || $3 + 0 <= 0 || $3 + 0 > $2 + 0 { bad = 1 } END { exit bad }' \
		plots/series-j1-job.dat
}

@test "plot: a sweep gives curves with error bars against the varied value" {
	need_gnuplot
	run "$DBIO" sweep --rw=randread --size=1m --repeat=2 --vary numjobs=1,2 --directory="$target" \
		--output "$result" --format json
	[ "$status" -eq 0 ]
	run --separate-stderr "$DBIO" plot "$result" --out plots
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'plots/latency.svg\nplots/sweep-iops.svg')" ]
	valid_svg plots/sweep-iops.svg plots/latency.svg
	grep -q 'numjobs (count)' plots/sweep-iops.svg
	grep -q 'throughput (ops/s)' plots/sweep-iops.svg
	# Two points, each with mean and CI.
	[ "$(grep -c . plots/sweep-iops.dat)" -eq 2 ]
	run "$DBIO" plot "$result" --out plots2 --metric p99
	[ "$status" -eq 0 ]
	valid_svg plots2/sweep-p99.svg
	grep -q 'p99 latency (' plots2/sweep-p99.svg
}

@test "plot: several files get comparison bars and per-file names; png on request" {
	need_gnuplot
	dbio_ok --rw=read --size=1m --directory="$target"
	cp "$result" a.json
	dbio_ok --rw=write --size=1m --directory="$target"
	run --separate-stderr "$DBIO" plot a.json "$result" --out plots
	[ "$status" -eq 0 ]
	valid_svg plots/latency-f1.svg plots/latency-f2.svg plots/compare-iops.svg
	grep -q 'a.json' plots/compare-iops.svg
	run "$DBIO" plot a.json --out png --format png
	[ "$status" -eq 0 ]
	[ "$(head -c 8 png/latency.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}

@test "plot --metric of the whole run (from the metric registry): one curve and one bar per job, op all" {
	need_gnuplot
	run "$DBIO" sweep --rw=randrw --size=1m --repeat=2 --vary numjobs=1,2 --directory="$target" \
		--output "$result" --format json
	[ "$status" -eq 0 ]
	cp "$result" a.json
	run --separate-stderr "$DBIO" plot a.json "$result" --out plots --metric elapsed
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	valid_svg plots/sweep-elapsed.svg plots/compare-elapsed.svg
	grep -q 'elapsed time (mean, 95 % CI) by numjobs' plots/sweep-elapsed.svg
	# A curve per file ("all", not one per op type), of two points each.
	[ "$(grep -c 'title .*all' plots/sweep-elapsed.gp)" -eq 2 ]
	[ "$(grep -c . plots/sweep-elapsed.dat)" -eq 4 ]
	# The bars: a row per point, the same figure for both files.
	[ "$(awk 'NF { print $1, ($2 == $4) }' plots/compare-elapsed.dat | tr '\n' ' ')" = "0 1 1 1 " ]
	grep -q "'job numjobs=1 all' 0, 'job numjobs=2 all' 1" plots/compare-elapsed.gp
	run --separate-stderr "$DBIO" plot "$result" --out plots2 --metric p95
	[ "$status" -eq 0 ]
	grep -q 'p95 latency (' plots2/sweep-p95.svg
}

@test "plot: a job name with quotes and markup stays text in the SVG" {
	need_gnuplot
	dbio_ok --rw=write --size=1m --log_interval=100ops --directory="$target" --name="it's <b>&\"x\""
	run "$DBIO" plot "$result" --out plots
	[ "$status" -eq 0 ]
	valid_svg plots/*.svg
	grep -q "job it's &lt;b>&amp;\"x\"" plots/series-j1-*.svg
}

@test "plot: bad input exits 2 and says what is wrong" {
	dbio_ok --rw=read --size=1m --directory="$target"
	run -2 --separate-stderr "$DBIO" plot missing.json --out plots
	[ "$stderr" = "dbio: plot: missing.json: cannot read: No such file or directory" ]
	echo '{"schema_version": 1, "jobs": [' >bad.json
	run -2 --separate-stderr "$DBIO" plot "$result" bad.json --out plots
	[[ "$stderr" == "dbio: plot: bad.json: not JSON: "*" (line 2)" ]]
	echo '{"a": 1}' >other.json
	run -2 --separate-stderr "$DBIO" plot other.json --out plots
	[ "$stderr" = "dbio: plot: other.json: not a dbio result: no schema_version" ]
	run -2 --separate-stderr "$DBIO" plot "$result"
	[ "$stderr" = "dbio: plot: --out DIR is required: the directory to write the plots to" ]
	run -2 --separate-stderr "$DBIO" plot --out plots
	[[ "$stderr" == "dbio: plot: no result file: usage: "* ]]
	run -2 --separate-stderr "$DBIO" plot "$result" --out plots --format jpg
	[ "$stderr" = "dbio: plot: --format 'jpg': unknown: expected svg or png" ]
	run -2 --separate-stderr "$DBIO" plot "$result" --out plots --metric speed
	[[ "$stderr" == "dbio: plot: --metric 'speed': unknown: expected one of iops, "* ]]
	run -2 --separate-stderr "$DBIO" plot "$result" --out plots --colour
	[[ "$stderr" == "dbio: plot: '--colour': unknown option: "* ]]
	run -2 --separate-stderr "$DBIO" plot "$result" --out plots --fromat=png
	[ "$stderr" = "dbio: plot: '--fromat': unknown option (did you mean '--format'?): expected --out, --format, --metric, --op or --help" ]
	[ ! -e plots ]
}

@test "plot: after --, an argument that begins with -- is a result file" {
	run -2 --separate-stderr "$DBIO" plot --out plots -- --nosuch.json
	[ "$stderr" = "dbio: plot: --nosuch.json: cannot read: No such file or directory" ]
	[ ! -e plots ]
}

@test "plot: an output directory that cannot be made is refused" {
	need_gnuplot
	dbio_ok --rw=read --size=1m --directory="$target"
	touch file
	run -2 --separate-stderr "$DBIO" plot "$result" --out file/plots
	[ "$stderr" = "dbio: plot: --out file/plots: cannot create: Not a directory" ]
	run -2 --separate-stderr "$DBIO" plot "$result" --out file
	[ "$stderr" = "dbio: plot: --out file: not a directory" ]
}

@test "plot: without gnuplot it names the package and exits 1" {
	dbio_ok --rw=read --size=1m --directory="$target"
	run -1 --separate-stderr gnuplot_as /dev/null "$DBIO" plot "$result" --out plots
	[ "$stderr" = "dbio: plot: gnuplot not found: install Debian's gnuplot-nox" ]
	[ ! -e plots ]
}

@test "plot: the kept script redraws the same image by hand, beside its data" {
	need_gnuplot
	dbio_ok --rw=randwrite --size=1m --log_interval=100ops --directory="$target"
	run --separate-stderr "$DBIO" plot "$result" --out plots
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	cp plots/latency.svg first.svg
	rm plots/latency.svg
	(cd plots && gnuplot latency.gp)
	valid_svg plots/latency.svg
	cmp first.svg plots/latency.svg
}

@test "plot: a symlink another user planted in --out is refused, never followed" {
	need_gnuplot
	[ "$(id -u)" -eq 0 ] || skip "needs root to own symlinks as another user"
	dbio_ok --rw=randwrite --size=1m --directory="$target"
	mkdir -m 1777 plots
	echo precious >victim
	for f in latency.svg latency.dat latency.gp; do
		ln -s "$scratch/victim" "plots/$f"
		chown -h 65534:65534 "plots/$f"
	done
	run --separate-stderr "$DBIO" plot "$result" --out plots
	[ "$status" -eq 1 ]
	[ "$stderr" = "dbio: plot: plots/latency.dat: a symlink that belongs to user 65534: refusing to follow it (give the path it points to)" ]
	[ "$(cat victim)" = precious ]
	[ -L plots/latency.svg ]
}

# kv_sweep: a kv sweep over two sync settings, 2,000 records in batches
# of 500, one run each, into $result.
kv_sweep() {
	need_kv_engine
	run --separate-stderr "$DBIO" sweep --workload=kv --kv_engine="$kv" --records=2000 --batch=500 \
		--vary sync_each_batch=1,0 --directory="$target" --output "$result" --format json
	[ "$status" -eq 0 ] || {
		echo "$stderr" >&2
		return 1
	}
}

@test "plot: a kv sweep's ops/s: records, commits and batches each on an axis of their own" {
	need_gnuplot
	local kv
	kv_sweep
	run --separate-stderr "$DBIO" plot "$result" --out plots
	[ "$status" -eq 0 ]
	[ ! -e plots/sweep-iops.svg ]
	valid_svg plots/sweep-iops-records.svg plots/sweep-iops-commits.svg plots/sweep-iops-batches.svg
	grep -qx "set ylabel 'throughput (records/s)'" plots/sweep-iops-records.gp
	grep -qx "set ylabel 'throughput (commits/s)'" plots/sweep-iops-commits.gp
	# Each plot's curves are of its kind only: one per op type of that kind.
	[ "$(grep -c "title 'insert'" plots/sweep-iops-records.gp)" -eq 1 ]
	[ "$(grep -c "title 'commit'" plots/sweep-iops-records.gp)" -eq 0 ]
	[ "$(grep -c "title 'batch'" plots/sweep-iops-commits.gp)" -eq 0 ]
	# The elapsed time of each phase, per point.
	valid_svg plots/phases.svg
	grep -qF "plot dat using 2:3 title 'insert'" plots/phases.gp
	grep -qF "'job sync_each_batch=1' 0, 'job sync_each_batch=0' 1" plots/phases.gp
}

@test "plot --op insert: the sweep plot has the insert curve only" {
	need_gnuplot
	local kv
	kv_sweep
	run --separate-stderr "$DBIO" plot "$result" --out plots --op insert
	[ "$status" -eq 0 ]
	valid_svg plots/sweep-iops.svg
	[ "$(ls plots | grep -c '^sweep-')" -eq 3 ] # its .svg, .dat and .gp
	[ "$(grep -c "title 'insert'" plots/sweep-iops.gp)" -eq 1 ]
	[ "$(grep -Ec "title '(commit|batch)'" plots/sweep-iops.gp)" -eq 0 ]
	run -2 --separate-stderr "$DBIO" plot "$result" --out plots --op insert,bogus
	[[ "$stderr" == "dbio: plot: --op insert,bogus: item 2 is not an op type: expected a list of read, write, "* ]]
}

@test "plot: a matrix's bars name each configuration, A: and B: in the legend" {
	need_gnuplot
	[ "$(id -u)" -eq 0 ] || skip "needs root (dbio matrix: loop devices, mkfs, mount)"
	[ -c /dev/loop-control ] || skip "no /dev/loop-control: loop devices are not available"
	command -v mkfs.ext2 >/dev/null || skip "mkfs.ext2 not installed (Debian package e2fsprogs)"
	on_teardown "$DBIO" matrix --cleanup
	mkdir images
	run --separate-stderr "$DBIO" matrix --rw=write --bs=4k --size=1m --repeat=2 --image "$scratch/images" \
		--image-size 64m --fs 'ext2:-b 1024' --fs 'ext2:-b 4096' --output "$result" --format json
	[ "$status" -eq 0 ] || {
		echo "$stderr" >&2
		return 1
	}
	run --separate-stderr "$DBIO" plot "$result" --out plots
	[ "$status" -eq 0 ]
	valid_svg plots/matrix-iops.svg
	grep -qF "plot dat using 2:3 title 'A: ext2 -b 1024', \\" plots/matrix-iops.gp
	grep -qF "dat using 4:5 title 'B: ext2 -b 4096'" plots/matrix-iops.gp
	grep -q 'one bar per configuration' plots/matrix-iops.svg
	# The latency curves name the configuration too.
	grep -qF "title 'job on A: ext2 -b 1024 write'" plots/latency.gp
	grep -qF "title 'job on B: ext2 -b 4096 write'" plots/latency.gp
}

@test "plot: a sweep of 40 kv points draws the series of 32, the longest worst batches, and says so" {
	need_gnuplot
	local kv
	need_kv_engine
	run --separate-stderr "$DBIO" sweep --workload=kv --kv_engine="$kv" --records=400 --batch=100 \
		--vary randseed=$(seq -s, 1 40) --directory="$target" --output "$result" --format json
	[ "$status" -eq 0 ]
	run --separate-stderr "$DBIO" plot "$result" --out plots
	[ "$status" -eq 0 ]
	[ "$(ls plots | grep -c '^series-.*\.svg$')" -eq 32 ]
	[ "$stderr" = "dbio: plot: series of 32 of the 40 jobs with one drawn: at most 32 per result file, those with the longest worst interval" ]
	# None left out has a longer worst batch than one drawn.
	"$PYTHON" - "$result" plots <<'PY'
import json, os, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
worst = [max(r["series"]["worst"][0]["duration_ns"] for r in j["runs"]) for j in jobs]
drawn = {int(f.split("-")[1][1:]) - 1 for f in os.listdir(sys.argv[2]) if f.startswith("series-") and f.endswith(".svg")}
assert len(drawn) == 32, drawn
assert min(worst[i] for i in drawn) >= max(worst[i] for i in range(len(jobs)) if i not in drawn)
PY
}

@test "plot: gnuplot runs as root with an environment of dbio's: another user's startup file in HOME is not read" {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (scripts/install-deps)"
	dbio_ok --rw=read --size=1m --directory="$target"
	# sudo -E and su -m keep the user's HOME (and GNUPLOT_LIB, a directory
	# gnuplot loads from).
	mkdir "$scratch/home"
	echo "system(\"id > $scratch/home/PWNED\")" >"$scratch/home/.gnuplot"
	chown -R 65534:65534 "$scratch/home"
	run --separate-stderr env HOME="$scratch/home" GNUPLOT_LIB="$scratch/home" "$DBIO" plot "$result" --out plots
	[ "$status" -eq 0 ]
	[ ! -e "$scratch/home/PWNED" ]
	[ -s plots/latency.svg ]
}

@test "plot: gnuplot runs as root from /usr/bin only, never a gnuplot first in PATH" {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (scripts/install-deps)"
	dbio_ok --rw=read --size=1m --directory="$target"
	mkdir "$scratch/bin"
	printf '#!/bin/sh\nid > %s/bin/PWNED\n' "$scratch" >"$scratch/bin/gnuplot"
	chmod 755 "$scratch/bin/gnuplot"
	chown -R 65534:65534 "$scratch/bin"
	run --separate-stderr env PATH="$scratch/bin:$PATH" "$DBIO" plot "$result" --out plots
	[ "$status" -eq 0 ]
	[ ! -e "$scratch/bin/PWNED" ]
	[ -s plots/latency.svg ]
}
