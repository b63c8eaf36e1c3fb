#!/usr/bin/env bats
# The kernel's counters every run records (issue 30): the JSON of a run on
# a loop filesystem made for these tests (the loop device and the disk
# under its backing file, vmstat, PSI, /proc/self/io, schedstat, the
# figures per operation), the exact flush count of the loop device against
# the fdatasyncs dbio issued, `dbio compare` naming the counter that
# explains a known difference first (fdatasync=1 against fdatasync=64:
# device flushes per write; mem_limit against none: memory pressure or
# reclaim), a sweep's counter that moves with the swept key, the switch
# DBIO_COUNTERS=basic and `dbio help counters`. Needs root for the loop
# device and mem_limit; each test that cannot run says why.

# serial: the loop device's counters must count this file's I/O alone, and
# the mem_limit comparison reads the machine's memory pressure.

load helpers

# One ext2 filesystem of 4 KiB blocks on a loop device for the file:
# LOOP_DEV, LOOP_MNT, or LOOP_SKIP saying why there is none. ext2 has no
# journal: an fdatasync of a block already allocated is one flush.
setup_file() {
	loopfs_make dbio-counters 256M mkfs.ext2 4096
}

teardown_file() {
	loopfs_remove
}

setup() {
	dbio_setup
}

# loop_dir NAME: sets dir to a new empty directory on the loop filesystem;
# skips without one.
loop_dir() {
	[ -n "$LOOP_MNT" ] || skip "no loop filesystem: $LOOP_SKIP"
	dir="$LOOP_MNT/$1.$BATS_TEST_NUMBER"
	mkdir "$dir"
	extra_dirs+=("$dir")
}

# pycheck FILE [ARG...] <<'PY': the Python on stdin with r = the JSON in
# FILE, runs = its first job's runs and args = the ARGs.
pycheck() {
	local code
	code=$(cat)
	"$PYTHON" -c "import json, sys
r = json.load(open(sys.argv[1]))
args = sys.argv[2:]
runs = r['jobs'][0]['runs']
$code" "$@"
}

# why_first OUTPUT: the first counter line below compare's "Why:" line.
why_first() {
	printf '%s\n' "$1" | sed -n '/^Why: /{n;p;q}'
}

@test "counters: a run on a loop filesystem records the loop device, the disk under its file, vmstat, PSI, its own I/O and schedstat" {
	loop_dir one
	dbio_ok --directory="$dir" --rw=randwrite --bs=4k --size=8m --fdatasync=16
	local name
	name=$(basename "$LOOP_DEV")
	pycheck "$result" "$name" <<-'PY'
	run = runs[0]
	t = run["counters"]["total"]
	d = t["disk"]
	assert d[0]["name"] == args[0] and d[0]["role"] == "target", d[0]
	assert any(x["role"] == "loop backing" for x in d[1:]), d
	# fio's fdatasync=16: after every 16th write but the last (2048 / 16 - 1);
	# a sync(2) elsewhere on the machine may add its flush
	assert run["ops"]["fdatasync"]["count"] == 127, run["ops"]["fdatasync"]
	assert 127 <= d[0]["flush_ios"] <= 128, d[0]
	assert d[0]["write_bytes"] >= 8 * 1024 * 1024, d[0]
	for k in ("pgfault", "pgscan_direct", "allocstall", "compact_stall", "nr_dirtied", "nr_dirty"):
	    assert k in t["vmstat"], (k, t["vmstat"])
	for k in ("io", "memory", "cpu"):
	    p = t["pressure"][k]
	    assert p is None or p["some_us"] >= 0, p
	assert t["process_io"]["wchar"] >= 8 * 1024 * 1024, t["process_io"]
	assert run["sched"]["run_ns"] > 0, run["sched"]
	per = run["counters"]["per_op"]
	assert per["per"] == "write" and per["ops"] == 2048, per
	assert abs(per["device_flushes"] - d[0]["flush_ios"] / 2048) < 1e-9, per
	assert all("vmstat" in s and "disk" in s for s in run["counters"]["samples"])
	PY
}

@test "counters: fdatasync=1 against fdatasync=64: the loop device flushed once per fdatasync dbio issued, and compare names device flushes per write first" {
	loop_dir a
	local a=$dir
	loop_dir b
	run --separate-stderr "$DBIO" run --name=w --directory="$a" --rw=randwrite --bs=4k --size=8m --fdatasync=1 --repeat=3 --output "$scratch/a.json"
	[ "$status" -eq 0 ]
	run --separate-stderr "$DBIO" run --name=w --directory="$dir" --rw=randwrite --bs=4k --size=8m --fdatasync=64 --repeat=3 --output "$scratch/b.json"
	[ "$status" -eq 0 ]
	for f in a b; do
		# exact in a run no other process flushed the device during: a
		# sync(2) elsewhere on the machine reaches it too (seen once: 2
		# more than the 2047 fdatasyncs), so at most 2 more, and at least
		# one run of the three exact
		pycheck "$scratch/$f.json" <<-'PY'
		assert len(runs) == 3
		exact = 0
		for run in runs:
		    flushes = run["counters"]["total"]["disk"][0]["flush_ios"]
		    syncs = run["ops"]["fdatasync"]["count"]
		    assert syncs <= flushes <= syncs + 2, (flushes, syncs)
		    exact += flushes == syncs
		    assert run["ops"]["write"]["count"] == 2048
		assert exact >= 1, [(r["counters"]["total"]["disk"][0]["flush_ios"], r["ops"]["fdatasync"]["count"]) for r in runs]
		PY
	done
	run --separate-stderr "$DBIO" compare "$scratch/a.json" "$scratch/b.json"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -q "^Why: B vs A 'w': +[0-9.]* % write throughput"
	local first
	first=$(why_first "$output")
	[[ $first =~ ^\ \ device\ flushes\ per\ write\ +1\ →\ 0\.01[0-9]*\ +\(0\.01[0-9]*×\)\ \*$ ]] ||
		{ echo "first: '$first'"; false; }
	run --separate-stderr "$DBIO" report "$scratch/a.json" "$scratch/b.json" --html "$scratch/page.html"
	[ "$status" -eq 0 ]
	grep -q '^<h3>Why it changed</h3>' "$scratch/page.html"
	[[ $(grep -m1 '^<tr><td>' "$scratch/page.html") =~ ^'<tr><td>device flushes per write</td><td>1</td><td>0.01' ]]
	# the same two as the configurations of one matrix result: its page
	# explains them too (S0's and S1's pages are a matrix's)
	"$PYTHON" - "$scratch/a.json" "$scratch/b.json" "$scratch/m.json" <<-'PY'
	import json, sys
	a, b = (json.load(open(f)) for f in sys.argv[1:3])
	labels = ["fdatasync=1", "fdatasync=64"]
	for k, r in enumerate((a, b)):
	    for j in r["jobs"]:
	        j["config"] = {"index": k, "label": labels[k]}
	a["jobs"] += b["jobs"]
	a["matrix"] = {"configs": [{"label": l} for l in labels], "jobs_per_config": 1, "completed": 2}
	json.dump(a, open(sys.argv[3], "w"))
	PY
	run --separate-stderr "$DBIO" report "$scratch/m.json" --html "$scratch/matrix.html"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	grep -q '^<h3>Why it changed</h3>' "$scratch/matrix.html"
	[[ $(grep -m1 '^<tr><td>' "$scratch/matrix.html") =~ ^'<tr><td>device flushes per write</td><td>1</td><td>0.01' ]]
}

@test "counters: a 128 MiB sequential read under mem_limit=16m against none: compare names a counter of memory reclaim" {
	[ "$(id -u)" -eq 0 ] || skip "mem_limit needs root"
	# not the loop filesystem: the host's page cache holds its backing
	# file, so a read the cgroup's cache misses would not reach a device
	disk_dir
	local a=$dir
	disk_dir
	run --separate-stderr "$DBIO" run --name=r --directory="$a" --rw=read --bs=128k --size=128m --repeat=3 --output "$scratch/a.json"
	[ "$status" -eq 0 ]
	run --separate-stderr "$DBIO" run --name=r --directory="$dir" --rw=read --bs=128k --size=128m --repeat=3 --mem_limit=16m --output "$scratch/b.json"
	[ "$status" -eq 0 ]
	pycheck "$scratch/b.json" "$scratch/a.json" <<-'PY'
	for run in runs:
	    assert "memory_stat" in run["counters"]["total"]["cgroup"], run["counters"]["total"]
	assert "cgroup" not in json.load(open(args[0]))["jobs"][0]["runs"][0]["counters"]["total"]
	PY
	run --separate-stderr "$DBIO" compare "$scratch/a.json" "$scratch/b.json"
	[ "$status" -eq 0 ]
	# among the counters listed, not always first: under make test a
	# counter from 0 (4 bytes per read that the limited process wrote) led
	# once. cgroup v1 has no pgscan in memory.stat, and /proc/vmstat's
	# pgscan counts global reclaim only: there the refaults name it
	local listed
	listed=$(printf '%s\n' "$output" | sed -n '/^Why: /,/^(\*/p')
	printf '%s\n' "$listed" | grep -Eq '^  (memory pressure|pages scanned|cgroup pages scanned|page-cache refaults|cgroup refaults|allocation stalls)' ||
		{ echo "$output"; false; }
}

@test "counters: a sweep of fdatasync names device flushes per write as moving against it" {
	loop_dir s
	run --separate-stderr "$DBIO" sweep --name=w --directory="$dir" --rw=randwrite --bs=4k --size=4m --vary fdatasync=1,4,16,64 --output "$scratch/sweep.json"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -q "^Counters that move with fdatasync (Spearman's rho over the points):$"
	printf '%s\n' "$output" | grep -Eq "^  device flushes per op +rho -1\.00$"
	# the page draws each of those counters as a small chart of its figure
	# at the four points, in the text's order
	run --separate-stderr "$DBIO" report "$scratch/sweep.json" --html "$scratch/sweep.html"
	[ "$status" -eq 0 ]
	"$PYTHON" - "$scratch/sweep.json" "$scratch/sweep.html" <<-'PY'
	import re, sys
	page = open(sys.argv[2]).read()
	figs = re.findall(r'<figure class="multiple" data-counter="([a-z_]+)"><figcaption>([^<]*)</figcaption><svg [^>]*>(.*?)</svg></figure>', page)
	names = [f[0] for f in figs]
	assert "device_flushes" in names, names
	for name, caption, svg in figs:
	    pts = re.search(r'<polyline class="p" points="([^"]*)"', svg).group(1).split()
	    assert len(pts) == 4, (name, pts)
	flush = next(f for f in figs if f[0] == "device_flushes")
	assert flush[1] == "device flushes per op", flush
	ys = [float(p.split(",")[1]) for p in re.search(r'points="([^"]*)"', flush[2]).group(1).split()]
	assert ys == sorted(ys), ys  # fewer flushes per op at each point: the line goes down (y grows)
	PY
}

@test "counters: DBIO_COUNTERS=basic samples the target's own device, meminfo and vmstat's three fields only" {
	loop_dir basic
	DBIO_COUNTERS=basic dbio_ok --directory="$dir" --rw=write --bs=64k --size=4m
	pycheck "$result" <<-'PY'
	t = runs[0]["counters"]["total"]
	assert len(t["disk"]) == 1 and "flush_ios" not in t["disk"][0], t["disk"]
	for k in ("vmstat", "pressure", "process_io"):
	    assert k not in t, (k, t)
	assert t["pgpgout_kb"] >= 0 and t["cached_bytes"] > 0, t
	PY
}

@test "counters: dbio help counters lists each counter with its unit and meaning; a bad format is refused" {
	run --separate-stderr "$DBIO" help counters
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "device_flushes         device flushes, flushes per op" ]
	printf '%s\n' "$output" | grep -q "^io_pressure            io pressure (some), % of the run's time$"
	run --separate-stderr "$DBIO" help counters --schema
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: help counters: '--schema': unknown format: expected --text, --markdown or --man" ]
}
