#!/usr/bin/env bats
# mem_limit: the job's threads (and the stall probe) run in a child process
# inside a memory cgroup; dbio's own process stays outside. A job that
# outgrows the limit is killed by the kernel, and dbio says so (exit 1,
# "the job exceeded mem_limit=…"), writes a partial result, and removes the
# job's files and the cgroup. A job that fits brings every figure back
# from the child: ops, the probe's stalls, the time series, per-directory
# counts, the cgroup's peak.

load helpers

setup() {
	dbio_setup
	[ "$(id -u)" -eq 0 ] || skip "mem_limit needs root (it makes a memory cgroup)"
	has_memcg || skip "no memory cgroup controller is mounted"
	DIR=$(mktemp -d /var/tmp/dbio-memlimit.XXXXXX)
	extra_dirs+=("$DIR")
}

# no_cgroup PID: no dbio-PID cgroup is left under any controller (other
# people's dbio-* may exist: only this run's is looked for).
no_cgroup() {
	find /sys/fs/cgroup -maxdepth 8 -type d -name "dbio-$1" 2>/dev/null
}

# dbio_bg ARG...: dbio run ARG... --output=$result in the background (its
# pid in bg_pid, for the cgroup's name), then wait: its exit status in rc,
# its stderr printed (for a failing test) and in $scratch/err.
dbio_bg() {
	"$DBIO" run "$@" --output="$result" --progress=none >"$scratch/out" 2>"$scratch/err" &
	bg_pid=$!
	rc=0
	wait "$bg_pid" || rc=$?
	cat "$scratch/err"
}

@test "kv gdbm, 100000 records in mem_limit=8m: exit 1, the message, a partial result, no files, no cgroup" {
	in_build kv_engine=gdbm || skip "this build has no gdbm (libgdbm-dev)"
	dbio_bg --workload=kv --kv_engine=gdbm --records=100000 --mem_limit=8m --directory="$DIR"
	[ "$rc" -eq 1 ]
	# The kernel either kills the job's process (the usual end) or, now
	# and then, fails one of gdbm's writes; each is said with the limit.
	run tail -1 "$scratch/err"
	[[ "$output" =~ ^"dbio: the job exceeded mem_limit=8m (peak "[0-9.]+" "(KiB|MiB)", page cache included)"( after [0-9]+ of 100000 operations)?": the kernel killed its threads; give a larger mem_limit, or fewer records or threads"$ ||
		"$output" =~ ^"dbio: $DIR/dbio.job.0.db/gdbm: gdbm insert: gdbm_store: "[A-Za-z\ ]+" (the job filled its mem_limit=8m: peak "[0-9.]+" "(KiB|MiB)", page cache included)"$ ]]
	run grep -c "^dbio: partial result written to $result\$" "$scratch/err"
	[ "$output" = 1 ]
	run jpy "$result" 'r["partial"]' 'run["partial"]' 'run["memory"]["limit_bytes"]' \
		'4 << 20 <= run["memory"]["peak_bytes"] <= 9 << 20' '"mem_limit=8m" in r["error"]'
	echo "$output"
	# The peak reaches the limit; the kernel may charge a few pages past it
	# before it kills (seen: 8.00 MiB printed for a peak just over 8 MiB).
	[ "${lines[*]}" = "true true 8388608 true true" ]
	run no_cgroup "$bg_pid"
	[ -z "$output" ]
	[ -z "$(ls -A "$DIR")" ]
}

@test "a job that fits its mem_limit: ops, probe stalls, series, per-directory counts and peak come back from the child" {
	mkdir "$DIR/a" "$DIR/b"
	dbio_bg --rw=randwrite --bs=4k --size=64m --numjobs=2 --runtime=1s --time_based --mem_limit=32m \
		--probe=write --probe_stall=1ns --log_interval=100ms --directory="$DIR/a:$DIR/b"
	[ "$rc" -eq 0 ]
	run jpy "$result" 'run["partial"]' 'run["ops"]["write"]["count"] > 0' \
		'run["probe"]["count"] >= 8' 'len(run["probe"]["stalls"]) == run["probe"]["count"]' \
		'9 <= len(run["series"]["points"]) <= 11' \
		'sum(t["write"]["count"] for t in run["targets"]) == run["ops"]["write"]["count"]' \
		'len(run["targets"])' 'run["memory"]["limit_bytes"]' '0 < run["memory"]["peak_bytes"] <= 32 << 20' \
		'run["threads"]'
	echo "$output"
	[ "${lines[*]}" = "false true true true true true 2 33554432 true 2" ]
	run no_cgroup "$bg_pid"
	[ -z "$output" ]
	[ -z "$(ls -A "$DIR/a")" ]
	[ -z "$(ls -A "$DIR/b")" ]
}

@test "SIGTERM to dbio during a mem_limit run reaches the job: exit 143, partial result, no files, no cgroup" {
	"$DBIO" run --rw=randwrite --bs=4k --size=16m --runtime=30s --time_based --mem_limit=32m \
		--directory="$DIR" --output="$result" --progress=none >"$scratch/out" 2>"$scratch/err" &
	bg_pid=$!
	sleep 1.5
	kill -TERM "$bg_pid"
	rc=0
	wait "$bg_pid" || rc=$?
	cat "$scratch/err"
	[ "$rc" -eq 143 ]
	run jpy "$result" 'run["partial"]' 'run["ops"]["write"]["count"] > 0' 'run["elapsed_ns"] < 10 * 10**9'
	[ "${lines[*]}" = "true true true" ]
	run no_cgroup "$bg_pid"
	[ -z "$output" ]
	[ -z "$(ls -A "$DIR")" ]
}
