#!/usr/bin/env bats
# dbio report: one self-contained HTML page; every string from a result is
# escaped (a job named <script>alert(1)</script> stays text); the page
# renders in headless Chromium; without gnuplot the page is still written,
# with the tables and a note; bad input exits 2 and writes nothing.

load helpers

# A result whose job is named <script>alert(1)</script>. A job name cannot
# hold '/', so the name of a real result is edited: a result file can come
# from anywhere, and the report must not trust it.
hostile_result() {
	dbio_ok --rw=randwrite --size=2m --runtime=1s --time_based --log_interval=200ms --repeat=2 \
		--directory="$target" --name='<script>alert(1)'
	"$PYTHON" - "$result" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for job in r["jobs"]:
    job["name"] = job["options"]["name"] = "<script>alert(1)</script>"
    job["warnings"].append("<img src=x onerror=alert(2)> & \"quotes\" 'too'")
r["system"]["hostname"] = "host<i>'\"&"
json.dump(r, open(sys.argv[1], "w"))
PY
}

# no_raw_markup FILE: the page holds the escaped forms and none raw.
no_raw_markup() {
	grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$1"
	grep -qF '&lt;img src=x onerror=alert(2)&gt; &amp; &quot;quotes&quot; &#39;too&#39;' "$1"
	grep -qF 'host&lt;i&gt;&#39;&quot;&amp;' "$1"
	[ -z "$(grep -i '<script' "$1")" ]
	[ -z "$(grep -i '<img' "$1")" ]
	[ -z "$(grep '<i>' "$1")" ]
}

@test "report: a job named <script>alert(1)</script> is escaped everywhere, SVG included" {
	hostile_result
	run --separate-stderr "$DBIO" report "$result" --html report.html
	[ "$status" -eq 0 ] || {
		echo "$stderr" >&2
		return 1
	}
	[ -z "$output" ]
	no_raw_markup report.html
	if command -v gnuplot >/dev/null; then
		# The series plot's title names the job too, inside the SVG.
		grep -c '<svg' report.html | grep -qx 2
		grep -qF 'job &lt;script&gt;alert(1)&lt;/script&gt;: ops/s and max latency' report.html
	fi
}

@test "report: self-contained, responsive, printable, with the tables of the result" {
	hostile_result
	run "$DBIO" report "$result" --html report.html
	[ "$status" -eq 0 ]
	grep -q '<meta name="viewport" content="width=device-width, initial-scale=1">' report.html
	grep -q '@media print' report.html
	grep -q 'overflow-x:auto' report.html
	# Nothing loaded from elsewhere: no script, link, image, iframe, url() to a file, @import.
	[ -z "$(grep -Ei '<(script|link|img|iframe|object|embed)[ >]' report.html)" ]
	[ -z "$(grep -Ei '@import|<[^>]*[[:space:]]src=|url\((https?:|file:|//)' report.html)" ]
	for want in 'Environment' 'kernel_release' 'mount_options' 'Repeats' 'CV of ops/s' \
		'ops/s' 'MiB/s' 'p99.9' 'major faults' 'Per-interval series' 'worst interval #'; do
		grep -qF "$want" report.html || {
			echo "missing: $want" >&2
			return 1
		}
	done
	# The page parses as HTML with balanced tables.
	"$PYTHON" - report.html <<'PY'
import html.parser, sys
class P(html.parser.HTMLParser):
    depth = 0
    def handle_starttag(self, tag, attrs):
        if tag == "table": self.depth += 1
    def handle_endtag(self, tag):
        if tag == "table": self.depth -= 1
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
sys.exit(p.depth)
PY
}

@test "report: a sweep and a second file give sweep and side-by-side tables" {
	run "$DBIO" sweep --rw=randread --size=1m --repeat=2 --vary numjobs=1,2 --directory="$target" \
		--output s.json --format json
	[ "$status" -eq 0 ]
	run "$DBIO" sweep --rw=randread --size=1m --repeat=2 --vary numjobs=1,2 --directory="$target" \
		--output t.json --format json
	[ "$status" -eq 0 ]
	run --separate-stderr "$DBIO" report s.json t.json --html both.html
	[ "$status" -eq 0 ]
	grep -q '<h2 class="first" id="compare">Side by side</h2>' both.html
	# The files named A and B, with the legend in the table of files.
	grep -qF '<tr><td class="l"><b>A</b></td><td class="l">s.json</td>' both.html
	grep -qF '<tr><td class="l"><b>B</b></td><td class="l">t.json</td>' both.html
	grep -qF '<th title="s.json">A</th><th title="t.json">B</th><th>B vs A</th>' both.html
	grep -q '<h3>Sweep</h3>' both.html
	[ "$(grep -c 'job numjobs=2</td><td class="l">read' both.html)" -ge 1 ]
	# A change in percent against the first file for every figure of t.json.
	[ "$(grep -Ec '<td class="(better|worse|noise)">[-+][0-9.]+ %</td>' both.html)" -eq 8 ]
	if command -v gnuplot >/dev/null; then
		grep -q 'throughput (mean, 95 % CI) by numjobs' both.html
		grep -q 'one bar per result' both.html
	fi
}

@test "report: renders in headless Chromium to a page that is not blank" {
	command -v chromium >/dev/null || skip "chromium is not installed (Debian: apt-get install chromium)"
	hostile_result
	run "$DBIO" report "$result" --html report.html
	[ "$status" -eq 0 ]
	screenshot report.html page.png
	run colours page.png
	[ "$status" -eq 0 ] || {
		echo "$output" >&2
		return 1
	}
	echo "distinct colours: $output"
	[ "$output" -gt 16 ]
}

@test "report: without gnuplot the page is still written, with tables and a note" {
	hostile_result
	run --separate-stderr gnuplot_as /dev/null "$DBIO" report "$result" --html report.html
	[ "$status" -eq 0 ]
	[ "$stderr" = "dbio: report: gnuplot not found: install Debian's gnuplot-nox: the page has the tables only" ]
	grep -qF "Plots omitted: gnuplot not found: install Debian&#39;s gnuplot-nox." report.html
	[ -z "$(grep '<svg' report.html)" ]
	grep -q 'Repeats' report.html
	no_raw_markup report.html
}

@test "report: bad input exits 2 and writes nothing" {
	dbio_ok --rw=read --size=1m --directory="$target"
	run -2 --separate-stderr "$DBIO" report missing.json --html r.html
	[ "$stderr" = "dbio: report: missing.json: cannot read: No such file or directory" ]
	echo 'not json' >bad.json
	run -2 --separate-stderr "$DBIO" report "$result" bad.json --html r.html
	[[ "$stderr" == "dbio: report: bad.json: not JSON: "*" (line 1)" ]]
	echo '{"schema_version": 99, "tool": {"name": "dbio"}, "jobs": []}' >new.json
	run -2 --separate-stderr "$DBIO" report new.json --html r.html
	[ "$stderr" = "dbio: report: new.json: schema_version 99 is newer than this dbio's (1): read it with a newer dbio" ]
	run -2 --separate-stderr "$DBIO" report "$result" --html ""
	[ "$stderr" = "dbio: report: --html FILE is required: the page to write" ]
	run -2 --separate-stderr "$DBIO" report "$result" --html
	[ "$stderr" = "dbio: report: --html: needs a value" ]
	run -2 --separate-stderr "$DBIO" report "$result" --html nodir/r.html
	[ "$stderr" = "dbio: report: --html nodir/r.html: cannot write there: No such file or directory" ]
	mkdir adir
	run -2 --separate-stderr "$DBIO" report "$result" --html adir
	[ "$stderr" = "dbio: report: --html adir: is a directory: expected a file name" ]
	[ ! -e r.html ]
	[ -z "$(ls -A adir)" ]
}

@test "report: the page replaces an old one atomically and leaves no temporary files" {
	dbio_ok --rw=read --size=1m --directory="$target"
	echo old >r.html
	run "$DBIO" report "$result" --html r.html
	[ "$status" -eq 0 ]
	head -1 r.html | grep -qx '<!DOCTYPE html>'
	[ "$(ls -A | grep -c dbio-tmp)" -eq 0 ]
}

@test "report: SIGTERM while gnuplot draws: exit 143, no page, nothing left in TMPDIR" {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (scripts/install-deps)"
	dbio_ok --rw=read --size=1m --directory="$target"
	# A gnuplot that says it started and waits to be let go, then draws.
	mkdir "$scratch/bin" "$scratch/tmp"
	cp "$(readlink -f /usr/bin/gnuplot)" "$scratch/bin/real-gnuplot"
	cat >"$scratch/bin/gnuplot" <<-SH
		#!/bin/sh
		: >"$scratch/started"
		while [ ! -e "$scratch/release" ] && [ -d "$scratch" ]; do sleep 0.05; done
		exec "$scratch/bin/real-gnuplot" "\$@"
	SH
	chmod 755 "$scratch/bin/gnuplot"
	# dbio runs gnuplot from /usr/bin only: this one takes its place there,
	# in a mount namespace of dbio's own (gnuplot_as, but without a shell
	# between: the signal must reach dbio itself).
	TMPDIR="$scratch/tmp" unshare -m --propagation private sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
		sh "$scratch/bin/gnuplot" "$(readlink -f /usr/bin/gnuplot)" "$DBIO" report "$result" --html "$scratch/r.html" \
		2>"$scratch/err" &
	bg_pid=$!
	wait_for "$scratch/started"
	kill -TERM "$bg_pid"
	: >"$scratch/release"
	rc=0
	wait "$bg_pid" || rc=$?
	bg_pid=
	[ "$rc" -eq 143 ] || { cat "$scratch/err"; false; }
	grep -qx "dbio: report: interrupted by SIGTERM: no page written" "$scratch/err" || { cat "$scratch/err"; false; }
	[ ! -e "$scratch/r.html" ]
	is_empty_dir "$scratch/tmp"
}

@test "report: control characters of a result are escaped visibly in the page, never written raw" {
	dbio_ok --rw=write --size=1m --log_interval=100ops --directory="$target"
	"$PYTHON" - "$result" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["system"]["hostname"] = "host\x1b[31m\u009b"
for j in r["jobs"]:
    j["name"] = j["options"]["name"] = "job\x1b[31m\u009bx"
json.dump(r, open(sys.argv[1], "w"))
PY
	run --separate-stderr "$DBIO" report "$result" --html r.html
	[ "$status" -eq 0 ]
	[ "$(grep -c $'\x1b' r.html)" -eq 0 ]
	[ "$(grep -c $'\xc2\x9b' r.html)" -eq 0 ]
	grep -qF 'job\x1b[31m\u009bx' r.html
	grep -qF 'host\x1b[31m\u009b' r.html
}

# kv_sweep: a kv sweep (S2's shape, scaled down) over two sync settings,
# 2,000 records in batches of 500, two runs each, with the write probe,
# into s2.json.
kv_sweep() {
	need_kv_engine
	run --separate-stderr "$DBIO" sweep --workload=kv --kv_engine="$kv" --records=2000 --batch=500 \
		--repeat=2 --probe=write --vary sync_each_batch=1,0 --directory="$target" --output s2.json \
		--format json
	[ "$status" -eq 0 ] || {
		echo "$stderr" >&2
		return 1
	}
}

@test "report: a kv sweep shows its inserts, commits, phases and probe, never file I/O" {
	kv_sweep
	run --separate-stderr "$DBIO" report s2.json --html s2.html
	[ "$status" -eq 0 ]
	# The sweep table: a row per point and op type, the point named on its first.
	[ "$(grep -c '<tr><td class="l">1</td><td class="l">s2</td><td class="l">insert</td>' s2.html)" -eq 0 ]
	[ "$(grep -c '<tr><td class="l">1</td><td class="l">job</td><td class="l">insert</td>' s2.html)" -eq 1 ]
	[ "$(grep -c '<tr><td class="l">0</td><td class="l">job</td><td class="l">insert</td>' s2.html)" -eq 1 ]
	[ "$(grep -c '<tr><td class="l"></td><td class="l"></td><td class="l">commit</td>' s2.html)" -eq 2 ]
	# Per run: 2 points x 2 runs of insert, commit and batch rows.
	[ "$(grep -Ec '<tr><td>[12]</td><td class="l">insert</td><td>2000</td>' s2.html)" -eq 4 ]
	[ "$(grep -Ec '<tr><td>[12]</td><td class="l">commit</td><td>4</td>' s2.html)" -eq 4 ]
	# A commit moves no bytes of its own: no MiB/s, not 0.
	[ "$(grep -c '<td class="l">commit</td><td>4</td><td>[0-9.]*</td><td>–</td>' s2.html)" -eq 4 ]
	# The repeats' table of each point: insert, commit, batch.
	[ "$(grep -Ec '<tr><td class="l">insert</td><td>[0-9.]+ ± [0-9.]+</td>' s2.html)" -eq 2 ]
	# Phases: the insert phase with its 2000 records, mean over 2 runs.
	[ "$(grep -c '<h4>Phases</h4>' s2.html)" -eq 2 ]
	[ "$(grep -Ec '<tr><td class="l">insert</td><td>[0-9.]+ [mµ]?s ± [0-9.]+ [mµn]?s</td><td>2000</td>' s2.html)" -eq 2 ]
	# The stall probe of every run.
	[ "$(grep -c '<h4>Stall probe</h4>' s2.html)" -eq 2 ]
	[ "$(grep -Ec '<tr><td>[12]</td><td class="l">write every 100 ms</td>' s2.html)" -eq 4 ]
	# The series: 4 batches each, no "reads and writes" for a database job.
	[ "$(grep -c '4 database batches (a point per batch of each thread); worst batch #' s2.html)" -eq 4 ]
	[ "$(grep -c 'reads and writes' s2.html)" -eq 0 ]
	# The job's brief is the workload's keys.
	[ "$(grep -c "<p><code>workload=kv kv_engine=$kv records=2000 batch=500" s2.html)" -eq 2 ]
	[ "$(grep -c 'rw=read bs=' s2.html)" -eq 0 ]
}

@test "report: a kv sweep's page renders in headless Chromium, not blank" {
	command -v chromium >/dev/null || skip "chromium is not installed (Debian: apt-get install chromium)"
	kv_sweep
	run "$DBIO" report s2.json --html s2.html
	[ "$status" -eq 0 ]
	screenshot s2.html s2.png
	run colours s2.png
	[ "$status" -eq 0 ]
	echo "distinct colours: $output"
	[ "$output" -gt 16 ]
}

@test "report: a matrix names each configuration, A and B, with phases side by side" {
	[ "$(id -u)" -eq 0 ] || skip "needs root (dbio matrix: loop devices, mkfs, mount)"
	[ -c /dev/loop-control ] || skip "no /dev/loop-control: loop devices are not available"
	command -v mkfs.ext2 >/dev/null || skip "mkfs.ext2 not installed (Debian package e2fsprogs)"
	need_built workload=import
	on_teardown "$DBIO" matrix --cleanup
	mkdir images
	run --separate-stderr "$DBIO" matrix --workload=import --rows=2000 --batch=1000 --repeat=2 \
		--image "$scratch/images" --image-size 64m --fs 'ext2:-b 1024' --fs 'ext2:-b 4096' \
		--output s0.json --format json
	[ "$status" -eq 0 ] || {
		echo "$stderr" >&2
		return 1
	}
	run --separate-stderr "$DBIO" report s0.json --html s0.html
	[ "$status" -eq 0 ]
	# The legend, and a heading per configuration's job (not two "job s0").
	grep -qF '<tr><td class="l"><b>A</b></td><td class="l">ext2 -b 1024</td>' s0.html
	grep -qF '<tr><td class="l"><b>B</b></td><td class="l">ext2 -b 4096</td>' s0.html
	[ "$(grep -c '>job job on A: ext2 -b 1024</h3>' s0.html)" -eq 1 ]
	[ "$(grep -c '>job job on B: ext2 -b 4096</h3>' s0.html)" -eq 1 ]
	# The configurations side by side: a column each, the change against A.
	grep -qF '<th title="ext2 -b 1024">A</th><th title="ext2 -b 4096">B</th><th>B vs A</th>' s0.html
	# S0's question: the index phase's elapsed time, user and system CPU, per configuration.
	[ "$(grep -Ec '<td class="l">phase index</td><td class="l">elapsed</td><td>[0-9.]+ [mµ]?s' s0.html)" -eq 1 ]
	[ "$(grep -c '<td class="l">phase index</td><td class="l">user (s)</td>' s0.html)" -eq 1 ]
	[ "$(grep -c '<td class="l">phase load</td><td class="l">sys (s)</td>' s0.html)" -eq 1 ]
	[ "$(grep -c '<h4>Phases</h4>' s0.html)" -eq 2 ]
	[ "$(grep -c 'reads and writes' s0.html)" -eq 0 ]
	# A job of one phase (kv's inserts alone) has no phase rows beside the
	# run's, on the page as in the text: the same runs cut to their first.
	"$PYTHON" -c 'import json, sys
r = json.load(open("s0.json"))
for job in r["jobs"]:
    for run in job["runs"]:
        run["phases"] = run["phases"][:1]
json.dump(r, open("one.json", "w"))'
	run --separate-stderr "$DBIO" report one.json --html one.html
	[ "$status" -eq 0 ]
	[ "$(grep -c '<td class="l">phase schema</td>' one.html)" -eq 0 ]
	[ "$(grep -c '<td class="l">all</td><td class="l">elapsed time</td>' one.html)" -eq 1 ]
	run --separate-stderr "$DBIO" compare one.json --metric elapsed
	[ "$status" -eq 0 ]
	[ "$(grep -c 'phase schema' <<<"$output")" -eq 0 ]
	if command -v gnuplot >/dev/null; then
		# The bars of each configuration and the elapsed time of each phase, embedded.
		grep -qF 'A: ext2 -b 1024</text>' s0.html
		grep -q 'one bar per configuration' s0.html
		grep -q 'elapsed time per phase (mean, 95 % CI), a bar per phase' s0.html
	fi
}
