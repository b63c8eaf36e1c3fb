#!/usr/bin/env bats
# trace=block (issue 30): bpftrace on the block tracepoints of the devices
# under a job's directory, on an ext4 filesystem on a loop device made for
# these tests: a direct=1 job of N 4 KiB writes shows N write requests of
# 4 KiB at the loop device, their bytes, the histograms of sizes and
# device latencies in the JSON and where the time went in the text; the
# refusals before anything is written (no bpftrace on PATH, a bpftrace
# others can write, mem_limit); a SIGKILLed dbio takes its bpftrace along.
# Needs root, a loop device, bpftrace and tracefs; each test that cannot
# run says why.

# serial: the loop device's requests must be this file's alone.

load helpers

setup_file() {
	loopfs_make dbio-tracer 128M mkfs.ext4 4096
}

teardown_file() {
	loopfs_remove
}

setup() {
	dbio_setup
}

# traced_dir NAME: dir, a new empty directory on the loop filesystem;
# skips without one, or without bpftrace and the block tracepoints.
traced_dir() {
	[ -n "$LOOP_MNT" ] || skip "no loop filesystem: $LOOP_SKIP"
	command -v bpftrace >/dev/null || skip "bpftrace is not installed"
	[ -d /sys/kernel/tracing/events/block/block_rq_issue ] ||
		skip "tracefs is not mounted at /sys/kernel/tracing"
	dir="$LOOP_MNT/$1.$BATS_TEST_NUMBER"
	mkdir "$dir"
	extra_dirs+=("$dir")
}

@test "tracer: 200 direct 4 KiB writes are at least 200 write requests of 4 KiB at the loop device, with their histograms in the JSON and where the time went in the text" {
	traced_dir w
	dbio_ok --name=w --directory="$dir" --rw=write --bs=4k --size=800k --direct=1 --trace=block
	"$PYTHON" - "$result" "$(basename "$LOOP_DEV")" <<-'PY'
	import json, sys
	run = json.load(open(sys.argv[1]))["jobs"][0]["runs"][0]
	assert run["ops"]["write"]["count"] == 200, run["ops"]["write"]
	t = run["trace"]
	assert t["tool"] == "bpftrace", t
	d = t["disk"][0]
	assert d["name"] == sys.argv[2], d
	w = d["ops"]["write"]
	# the job's writes, and at most the journal's few more
	assert 200 <= w["requests"] <= 220, w
	assert 200 * 4096 <= w["bytes"] <= 200 * 4096 + 256 * 1024, w
	assert sum(b["count"] for b in w["size_bytes"]) == w["requests"], w
	four = [b for b in w["size_bytes"] if b["min"] == 4096]
	assert four and four[0]["max"] == 8191 and four[0]["count"] >= 200, w["size_bytes"]
	assert 200 <= w["completed"] <= w["requests"], w
	assert sum(b["count"] for b in w["device_lat_ns"]) == w["completed"], w
	assert w["device_ns"] >= w["device_lat_ns"][0]["min"] * w["completed"], w
	assert d["requests"] >= w["requests"] and d["device_ns"] >= w["device_ns"], d
	per = run["counters"]["per_op"]
	assert per["per"] == "write" and per["ops"] == 200, per
	assert abs(per["device_time"] - d["device_ns"] / 200) < 1e-6, per
	assert abs(per["traced_requests"] - d["requests"] / 200) < 1e-9, per
	assert 0 < per["device_wait"] < 100, per
	PY
	[[ "$output" == *"block requests (bpftrace) on "*" $(basename "$LOOP_DEV"):"* ]]
	[[ "$output" == *"      write: "*" requests, "*"; sizes: 4 KiB-8 KiB "* ]]
	[[ "$output" == *"where the time went, per write: "*" in dbio (user), "*" in the system call ("*" of it on the device: "*" % of the threads' time waiting on the device"* ]]
	run schema_valid "$result"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "tracer: without trace= no bpftrace runs and the run has no trace" {
	traced_dir none
	dbio_ok --name=w --directory="$dir" --rw=write --bs=4k --size=64k --direct=1
	json_is "$result" "$R0.ops.write.count=16"
	run "$PYTHON" -c 'import json, sys; print("trace" in json.load(open(sys.argv[1]))["jobs"][0]["runs"][0])' "$result"
	[ "$output" = False ]
}

@test "tracer: no bpftrace on PATH is refused before anything is written" {
	mkdir "$scratch/empty"
	run --separate-stderr env PATH="$scratch/empty" "$DBIO" run --name=w --directory="$target" --rw=write --bs=4k --size=64k --trace=block
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'trace': block needs bpftrace: no bpftrace on PATH ($scratch/empty): install bpftrace (job 'w')" ]
	[ -z "$(ls -A "$target")" ]
}

@test "tracer: a bpftrace on PATH that others can write is never run as root" {
	[ "$(id -u)" -eq 0 ] || skip "needs root: a file of another user's"
	mkdir "$scratch/bin"
	printf '#!/bin/sh\ntouch %s/ran\n' "$scratch" >"$scratch/bin/bpftrace"
	chmod 0777 "$scratch/bin/bpftrace"
	run --separate-stderr env PATH="$scratch/bin:/usr/bin:/bin" "$DBIO" run --name=w --directory="$target" --rw=write --bs=4k --size=64k --trace=block
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'trace': block needs bpftrace: $scratch/bin/bpftrace is not root's or others can write it: dbio runs it as root only when it is (job 'w')" ]
	[ ! -e "$scratch/ran" ]
	[ -z "$(ls -A "$target")" ]
}

@test "tracer: trace=block with mem_limit is refused, naming both" {
	run --separate-stderr "$DBIO" run --name=w --directory="$target" --rw=write --bs=4k --size=64k --trace=block --mem_limit=64m
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'trace': block cannot be used with mem_limit (bpftrace would run under the job's memory limit): give one of them (job 'w')" ]
}

@test "tracer: a bad trace= value says what is accepted" {
	run --separate-stderr "$DBIO" run --name=w --directory="$target" --rw=write --bs=4k --size=64k --trace=blk
	[ "$status" -eq 2 ]
	[[ "$stderr" == "dbio: command line: key 'trace': "*"'blk'"*"none"*"block"* ]]
}

@test "tracer: a SIGKILLed dbio takes its bpftrace along" {
	traced_dir kill
	"$DBIO" run --name=w --directory="$dir" --rw=randread --bs=4k --size=1m --direct=1 --time_based=1 --runtime=60 --trace=block --progress=none >"$scratch/out" 2>&1 &
	bg_pid=$!
	local bpf= i
	# bpftrace is dbio's child once the run has laid out its file
	for ((i = 0; i < 600; i++)); do
		bpf=$(pgrep -P "$bg_pid" -x bpftrace || true)
		[ -z "$bpf" ] || break
		read -r -t 0.1 <> <(:) || true
	done
	[ -n "$bpf" ]
	kill -KILL "$bg_pid"
	wait "$bg_pid" || true
	for ((i = 0; i < 600; i++)); do
		[ -e "/proc/$bpf" ] || break
		! grep -q '^State:.*Z' "/proc/$bpf/status" 2>/dev/null || break
		read -r -t 0.1 <> <(:) || true
	done
	[ ! -e "/proc/$bpf" ] || grep -q '^State:.*Z' "/proc/$bpf/status"
}
