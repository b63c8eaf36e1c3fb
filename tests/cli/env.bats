#!/usr/bin/env bats
# The environment a run records and controls: sysinfo of a loop filesystem
# made for the test, the system block of every result, repeat= summaries,
# cache= handling seen in the process's block reads and with fincore,
# mem_limit= cgroups, the log_interval= series (JSON and --series-csv), the
# /proc/diskstats counters of a direct write, and the bad values of these
# keys. Needs root for the loop filesystem, cache=drop and mem_limit; each
# test that cannot run says why.

# serial: a 128 MiB buffered write under mem_limit=32m needs writeback to
# keep up; with other files' I/O beside it the cgroup ran out of clean
# pages and its threads were killed (make test, 2026-12-01).

load helpers

# A loop device with an ext2 filesystem of 1 KiB blocks, shared by the
# tests of this file: LOOP_IMG (the image), LOOP_DEV, LOOP_MNT, or
# LOOP_SKIP saying why there is none.
setup_file() {
	loopfs_make dbio-env-loop 64M mkfs.ext2 1024
}

teardown_file() {
	loopfs_remove
}

# pycheck FILE [ARG...] <<'PY': runs the Python on stdin with r = the JSON in
# FILE, run = its first job's first run and args = the ARGs; a failed assert
# prints its message and fails the test.
pycheck() {
	local code
	code=$(cat)
	"$PYTHON" -c "import json, math, sys
r = json.load(open(sys.argv[1]))
args = sys.argv[2:]
run = r['jobs'][0]['runs'][0] if r.get('jobs') and r['jobs'][0].get('runs') else None
$code" "$@"
}

# needs_loop: skip, saying why, when setup_file made no loop filesystem.
needs_loop() {
	[ -n "$LOOP_MNT" ] || skip "no loop filesystem: $LOOP_SKIP"
}

# loop_dir: sets dir to a new empty directory on the loop filesystem
# (removed in teardown); skips without one.
loop_dir() {
	needs_loop
	dir=$(mktemp -d "$LOOP_MNT/t.XXXXXX")
	extra_dirs+=("$dir")
}

@test "sysinfo of a missing directory: exit 2 naming it, nothing described" {
	run -2 --separate-stderr "$DBIO" sysinfo "$target" "$scratch/missing"
	[ "$stderr" = "dbio: sysinfo: $scratch/missing: No such file or directory" ]
	[ -z "$output" ]
}

@test "sysinfo of a loop ext2 filesystem: type, block size, loop device, backing file and its filesystem" {
	needs_loop
	run --separate-stderr "$DBIO" sysinfo "$LOOP_MNT"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$scratch/sysinfo.json"
	local backing_fs devno
	backing_fs=$(findmnt -n -o FSTYPE -T "$(dirname "$LOOP_IMG")")
	devno=$(cat "/sys/class/block/$(basename "$LOOP_DEV")/dev")
	[ -n "$backing_fs" ]
	pycheck "$scratch/sysinfo.json" "$LOOP_MNT" "$LOOP_DEV" "$LOOP_IMG" "$backing_fs" "$devno" <<-'PY'
	mnt, dev, img, backing_fs, devno = args
	t = r["targets"][0]
	want = {"directory": mnt, "fs_type": "ext2", "fs_block_size_bytes": 1024, "mount_point": mnt,
	        "source": dev, "device": devno}
	for k, v in want.items():
	    assert t.get(k) == v, f"targets[0].{k}: expected {v!r}, got {t.get(k)!r}"
	b = t["block_device"]
	assert b["name"] == dev.split("/")[-1], f"block_device.name {b['name']!r}, expected {dev}"
	assert b["size_bytes"] == 64 << 20, b["size_bytes"]
	loop = b["loop"]
	assert loop["backing_file"] == img, f"backing_file {loop['backing_file']!r}, expected {img!r}"
	assert loop["backing_file_deleted"] is False
	assert loop["backing"]["fs_type"] == backing_fs, \
	    f"backing.fs_type {loop['backing']['fs_type']!r}, expected {backing_fs!r}"
	assert 0 < t["fs_free_bytes"] <= t["fs_total_bytes"] <= 64 << 20, (t["fs_free_bytes"], t["fs_total_bytes"])
	PY
}

@test "every result records the kernel release, vm.dirty_ratio and the target's filesystem" {
	dbio_ok --directory="$target" --rw=write --size=1m --bs=64k
	local fs
	fs=$(findmnt -n -o FSTYPE -T "$target")
	json_is "$result" "system.kernel_release=$(uname -r)" \
		"system.vm.dirty_ratio=$(cat /proc/sys/vm/dirty_ratio)" \
		"jobs.0.targets.0.fs_type=$fs" "jobs.0.targets.0.directory=$target"
}

@test "repeat=3: three runs, and the summary's n, mean, min, max and ci95 are those of the runs" {
	dbio_ok --directory="$target" --rw=read --size=4m --bs=64k --repeat=3 --format=text
	[[ "$output" == *"summary of 3 complete runs"* ]] || {
		printf '%s\n' "$output"
		false
	}
	pycheck "$result" <<-'PY'
	job = r["jobs"][0]
	runs = job["runs"]
	assert len(runs) == 3, len(runs)
	s = job["summary"]
	assert s["runs"] == 3, s["runs"]
	x = [run["ops"]["read"]["iops"] for run in runs]
	io = s["ops"]["read"]["iops"]
	def near(a, b, rel=1e-6):
	    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)
	assert io["n"] == 3, io["n"]
	mean = sum(x) / 3
	assert near(io["mean"], mean), (io["mean"], mean)
	assert near(io["min"], min(x), 1e-9) and near(io["max"], max(x), 1e-9), (io, x)
	sd = math.sqrt(sum((v - mean) ** 2 for v in x) / 2)
	assert near(io["stddev"], sd), (io["stddev"], sd)
	# t(0.975, 2) = 4.302653
	assert abs(io["ci95"] - 4.302653 * sd / math.sqrt(3)) <= 1e-5 * max(sd, 1), io["ci95"]
	assert near(io["cv"], sd / mean), (io["cv"], sd / mean)
	assert all(run["ops"]["read"]["count"] == 64 for run in runs)
	assert "write" not in s["ops"], sorted(s["ops"])
	assert s["elapsed_ns"]["n"] == 3
	PY
}

# cache_read CACHE: rw=read of 16 MiB in 1 MiB blocks with cache=CACHE in
# dir; leaves the first run's rusage.inblock in $inblock.
cache_read() {
	dbio_ok --directory="$dir" --rw=read --size=16m --bs=1m --cache="$1"
	json_is "$result" "$R0.ops.read.count=16" "jobs.0.options.cache=$1"
	inblock=$(jpy "$result" 'run["rusage"]["inblock"]')
}

dir_for_cache() {
	if [ -n "$LOOP_MNT" ]; then
		loop_dir
	else
		disk_dir
	fi
}

@test "cache=keep: a read right after the layout comes from the page cache (no block reads)" {
	dir_for_cache
	cache_read keep
	[ "$inblock" -eq 0 ] || {
		echo "inblock $inblock, expected 0" >&2
		false
	}
}

@test "cache=fadvise: the read goes to the device (>= 90 % of 16 MiB in block reads)" {
	dir_for_cache
	cache_read fadvise
	[ "$inblock" -ge $((16 * 2048 * 9 / 10)) ] || {
		echo "inblock $inblock, expected >= $((16 * 2048 * 9 / 10))" >&2
		false
	}
}

@test "cache=drop: the read goes to the device (>= 90 % of 16 MiB in block reads)" {
	[ "$(id -u)" -eq 0 ] || skip "cache=drop needs root"
	dir_for_cache
	cache_read drop
	[ "$inblock" -ge $((16 * 2048 * 9 / 10)) ] || {
		echo "inblock $inblock, expected >= $((16 * 2048 * 9 / 10))" >&2
		false
	}
}

@test "cache=: what fincore sees after a partial read of a 16 MiB file (keep: all of it; fadvise, drop: little)" {
	command -v fincore >/dev/null || skip "fincore (util-linux) is not installed"
	needs_loop # a loop device's small readahead keeps the partial read partial
	local c res
	for c in keep fadvise drop; do
		if [ "$c" = drop ] && [ "$(id -u)" -ne 0 ]; then
			echo "# cache=drop left out: it needs root" >&3
			continue
		fi
		# keep: another process dropping the page cache between the run
		# and fincore (seen on shared machines) empties it; try 3 times.
		for attempt in 1 2 3; do
			loop_dir
			dbio_ok --directory="$dir" --rw=read --filesize=16m --size=2m --bs=1m --cache="$c" --keep
			json_is "$result" "$R0.ops.read.count=2"
			res=$(fincore -b -n -o RES "$dir"/*)
			echo "cache=$c, attempt $attempt: $res bytes of 16 MiB resident"
			rm -rf "$dir"
			[ "$c" != keep ] || [ "$res" -eq $((16 << 20)) ] && break
		done
		if [ "$c" = keep ]; then
			[ "$res" -eq $((16 << 20)) ]
		else
			[ "$res" -lt $((8 << 20)) ]
		fi
	done
}

@test "cache=drop without root: exit 2, a message naming the key, nothing written" {
	local -a as_user=()
	if [ "$(id -u)" -eq 0 ]; then
		command -v setpriv >/dev/null || skip "root, and setpriv is not installed to drop privileges"
		as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
		"${as_user[@]}" test -x "$DBIO" || skip "uid 65534 cannot run $DBIO"
	fi
	dir=$(mktemp -d /tmp/dbio-env-nobody.XXXXXX)
	extra_dirs+=("$dir")
	chmod 777 "$dir"
	run -2 --separate-stderr "${as_user[@]}" "$DBIO" run --directory="$dir" --rw=read --size=1m --cache=drop \
		--output "$dir/result.json"
	[ "$stderr" = "dbio: command line: key 'cache': drop needs write access to /proc/sys/vm/drop_caches (run as root), or use cache=fadvise (job 'job')" ]
	is_empty_dir "$dir"
}

@test "mem_limit=32m: a 128 MiB buffered write runs in the limit, and its cgroup is removed" {
	[ "$(id -u)" -eq 0 ] || skip "mem_limit needs root"
	has_memcg || skip "no memory cgroup controller is mounted"
	disk_dir
	local pid rc=0
	"$DBIO" run --directory="$dir" --rw=write --size=128m --bs=64k --mem_limit=32m --output "$result" \
		>"$scratch/out" 2>"$scratch/err" &
	pid=$!
	wait "$pid" || rc=$?
	[ "$rc" -eq 0 ] || {
		echo "exit $rc" >&2
		cat "$scratch/err" >&2
		false
	}
	pycheck "$result" <<-'PY'
	m = run["memory"]
	assert m["limit_bytes"] == 33554432, m
	assert 0 < m["peak_bytes"] <= m["limit_bytes"], m
	assert run["ops"]["write"]["bytes"] == 128 << 20, run["ops"]["write"]["bytes"]
	assert r["jobs"][0]["options"]["mem_limit"] == 33554432
	# 128 MiB is twice the limit: no page-cache warning
	assert not any(w.startswith("page cache:") for w in r["jobs"][0]["warnings"]), r["jobs"][0]["warnings"]
	PY
	# No dbio-<pid> cgroup is left anywhere under the controllers (other
	# people's dbio-* may exist: only this run's is looked for).
	local left
	left=$(find /sys/fs/cgroup -maxdepth 8 -type d -name "dbio-$pid" 2>/dev/null)
	[ -z "$left" ] || {
		echo "cgroup left behind: $left" >&2
		false
	}
	is_empty_dir "$dir"
}

@test "a buffered job smaller than twice RAM warns 'page cache:' (RAM named as the limit)" {
	dbio_ok --directory="$target" --rw=write --size=1m --bs=64k
	pycheck "$result" <<-'PY'
	w = r["jobs"][0]["warnings"]
	assert any(x.startswith("page cache: the job's 1 MiB of files is less than twice the memory it may use (RAM: ") for x in w), w
	assert any(x.endswith(" of files, or a mem_limit of at most 512 KiB") for x in w), w
	PY
}

@test "log_interval=1000ops: 5 points (4 x 1000 + 96 writes), 2 worst of 1000, and the CSV" {
	run --separate-stderr "$DBIO" run --directory="$target" --rw=write --size=16m --bs=4k --log_interval=1000ops \
		--output "$result" --series-csv "$scratch/series.csv"
	[ "$status" -eq 0 ]
	pycheck "$result" <<-'PY'
	s = run["series"]
	assert s["grid"] == "ops", s["grid"]
	assert s["interval_ops"] == 1000, s.get("interval_ops")
	assert s["truncated"] is False
	pts = s["points"]
	counts = [p["ops"]["write"]["count"] for p in pts]
	assert counts == [1000, 1000, 1000, 1000, 96], counts
	assert all(set(p["ops"]) == {"write"} for p in pts), [sorted(p["ops"]) for p in pts]
	assert all(p["ops"]["write"]["bytes"] == 4096 * p["ops"]["write"]["count"] for p in pts)
	assert all(p["thread"] == 0 for p in pts)
	prev = 0
	for p in pts:  # contiguous: each interval starts where the last ended
	    assert p["duration_ns"] > 0 and p["end_ns"] - p["duration_ns"] == prev, (p, prev)
	    prev = p["end_ns"]
	w = s["worst"]
	assert len(w) == 2, w
	assert all(e["count"] == 1000 and e["index"] < 4 and e["thread"] == 0 for e in w), w
	whole = sorted((p["duration_ns"] for p in pts[:4]), reverse=True)
	assert [e["duration_ns"] for e in w] == whole[:2], (w, whole)
	assert [e["end_ns"] for e in w] == [pts[e["index"]]["end_ns"] for e in w], w
	PY
	"$PYTHON" - "$scratch/series.csv" <<-'PY'
	import csv, sys
	lines = open(sys.argv[1]).read().splitlines()
	assert lines[0] == "job,run,thread,interval,end_s,duration_s,op,count,bytes,lat_mean_ns,lat_max_ns", lines[0]
	rows = list(csv.DictReader(lines))
	assert len(rows) == 5, rows
	assert sum(int(x["count"]) for x in rows if x["op"] == "write") == 4096
	assert [x["interval"] for x in rows] == ["1", "2", "3", "4", "5"], rows
	assert all(x["job"] == "job" and x["run"] == "1" and x["thread"] == "0" for x in rows), rows
	assert [int(x["count"]) for x in rows] == [1000, 1000, 1000, 1000, 96]
	PY
}

@test "log_interval=200ms, runtime=1s time_based: a time grid of 200 ms intervals adding up to the writes" {
	dbio_ok --directory="$target" --rw=write --size=16m --bs=4k --runtime=1s --time_based --log_interval=200ms
	pycheck "$result" <<-'PY'
	s = run["series"]
	I = 200000000
	assert s["grid"] == "time", s["grid"]
	assert s["interval_ns"] == I, s.get("interval_ns")
	pts = s["points"]
	ends = [p["end_ns"] for p in pts]
	assert all(a < b for a, b in zip(ends, ends[1:])), f"end_ns not strictly increasing: {ends}"
	# five whole intervals, then those the run's end took past 1 s on the
	# grid (the thread's runtime counts from its first write, a little
	# after the grid's origin): each follows the one before, the last one
	# partial; how many there are is the machine's
	assert ends[:5] == [I, 2 * I, 3 * I, 4 * I, 5 * I], ends
	assert all(p["duration_ns"] == I for p in pts[:5]), [p["duration_ns"] for p in pts]
	for a, b in zip(pts[4:], pts[5:]):
	    assert 0 < b["duration_ns"] <= I and b["end_ns"] == a["end_ns"] + b["duration_ns"], (a, b)
	assert all(p["duration_ns"] == I for p in pts[5:-1]), [p["duration_ns"] for p in pts]
	total = sum(p["ops"].get("write", {}).get("count", 0) for p in pts)
	assert total == run["ops"]["write"]["count"], (total, run["ops"]["write"]["count"])
	assert "thread" not in pts[0]
	whole = [p["ops"].get("write", {}).get("count", 0) for p in pts[:5]]
	assert s["worst"][0]["count"] == min(whole), (s["worst"], whole)
	PY
}

@test "counters: a 32 MiB direct write on the loop filesystem shows 32 MiB written to the loop device" {
	loop_dir
	dbio_ok --directory="$dir" --direct=1 --rw=write --size=32m --bs=1m --fallocate=none
	local devno
	devno=$(cat "/sys/class/block/$(basename "$LOOP_DEV")/dev")
	pycheck "$result" "$devno" <<-'PY'
	c = run["counters"]
	d = c["total"]["disk"]
	assert d[0]["device"] == args[0], (d, args[0])
	wb = d[0]["write_bytes"]
	assert abs(wb - 33554432) <= 0.02 * 33554432, f"write_bytes {wb}, expected 33554432 within 2 %"
	assert c["total"]["duration_ns"] > 0
	assert len(c["samples"]) >= 1, c["samples"]
	assert all(x["duration_ns"] > 0 for x in c["samples"]), c["samples"]
	assert sum(x["duration_ns"] for x in c["samples"]) == c["total"]["duration_ns"]
	assert sum(x["disk"][0]["write_bytes"] for x in c["samples"]) == wb
	assert run["ops"]["write"]["bytes"] == 33554432
	assert r["jobs"][0]["warnings"] == [], r["jobs"][0]["warnings"]
	PY
}

# bad KEY=VALUE MESSAGE: `dbio run --KEY=VALUE` exits 2 with MESSAGE on
# stderr and writes nothing.
bad() {
	run -2 --separate-stderr "$DBIO" run --directory="$target" --rw=read --size=1m "--$1" --output "$result"
	[ "$stderr" = "$2" ] || {
		printf 'for %s:\n  got      %s\n  expected %s\n' "$1" "$stderr" "$2" >&2
		return 1
	}
	[ ! -e "$result" ]
	is_empty_dir "$target"
}

@test "bad values of log_interval, mem_limit, cache and repeat: exit 2 naming the key" {
	local li="expected 0, a duration of at least 1ms (1s, 250ms; a bare number is in seconds) or a count of operations such as 1000ops"
	bad log_interval=5x "dbio: command line: key 'log_interval': bad value '5x': $li"
	bad log_interval=10us "dbio: command line: key 'log_interval': bad value '10us': shorter than 1ms: $li"
	bad mem_limit=1k "dbio: command line: key 'mem_limit': 1 KiB is too small to run anything: give at least 4m, or 0 for no limit (job 'job')"
	bad cache=foo "dbio: command line: key 'cache': bad value 'foo': expected one of fadvise, drop, keep"
	bad repeat=0 "dbio: command line: key 'repeat': bad value '0': out of range: expected a whole number from 1 to 10000, or auto"
}
