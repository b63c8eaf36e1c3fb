#!/usr/bin/env bats
# When the storage under a running job fails or is not what it seems. The
# mmap engine meeting SIGBUS (a full filesystem, a file truncated under it)
# ends with a message that says what happened, the partial result written
# and the files removed. Needs root for the tmpfs mounts; each test that
# cannot run says why.

load helpers

# wait_for_text FILE TEXT: poll until FILE holds TEXT, for at most 10 s.
wait_for_text() {
	local i
	for ((i = 0; i < 200; i++)); do
		grep -qF -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	echo "$1 did not show '$2' within 10 s; it holds:" >&2
	cat "$1" >&2
	return 1
}

# start_running ARG...: `dbio run ARG... --output $result` in the
# background with the progress line on, returning once that line shows the
# threads doing I/O (the measured phase has begun). Its stdout and stderr go
# to $scratch/stdout and $scratch/stderr.
start_running() {
	"$DBIO" run "$@" --progress=line --output "$result" >"$scratch/stdout" 2>"$scratch/stderr" 3>&- &
	bg_pid=$!
	wait_for_text "$scratch/stderr" " ops/s, "
}

# finish STATUS: wait for the background dbio, which must exit STATUS; its
# stderr, with the progress line's carriage returns and erase codes taken
# out, is then in $scratch/err (one message a line).
finish() {
	local rc=0
	wait "$bg_pid" || rc=$?
	bg_pid=
	tr '\r' '\n' <"$scratch/stderr" | sed -e 's/\x1b\[K//g' -e '/^$/d' >"$scratch/err"
	[ "$rc" -eq "$1" ] || {
		echo "exit status $rc, expected $1; stderr:" >&2
		cat "$scratch/err" >&2
		return 1
	}
}

@test "mmap: writes into a sparse file on a full filesystem end with ENOSPC, not SIGBUS; partial result, files removed" {
	local small="$scratch/small"
	mount_tmpfs "$small" 32m
	run -1 --separate-stderr "$DBIO" run --ioengine=mmap --rw=write --fallocate=none --size=64m \
		--directory="$small" --output "$result"
	[[ "${stderr_lines[-1]}" == "dbio: $small/dbio.job.0.0: write of 4096 bytes at offset "*": No space left on device" ]]
	json_is "$result" partial=true "$R0.partial=true"
	run jpy "$result" '"No space left on device" in r["error"]' 'run["ops"]["write"]["count"] > 0'
	[ "${lines[*]}" = "true true" ]
	is_empty_dir "$small"
}

# truncated RW OP: an mmap job doing RW whose file is cut to 0 bytes while
# it runs stops with an error saying so, instead of dying of SIGBUS.
truncated() {
	start_running --ioengine=mmap --rw="$1" --size=16m --time_based --runtime=60s --directory="$target"
	truncate -s 0 "$target/dbio.job.0.0"
	finish 1
	[[ "$(tail -n 1 "$scratch/err")" == "dbio: $target/dbio.job.0.0: $2 of 4096 bytes at offset "*": the file ends at 0 bytes now: truncated while the job ran?" ]]
	json_is "$result" partial=true "$R0.partial=true"
	run jpy "$result" "run['ops']['$2']['count'] > 0"
	[ "$output" = true ]
	is_empty_dir "$target"
}

@test "mmap: a file truncated under a writing job is an error, not SIGBUS; partial result, files removed" {
	truncated write write
}

@test "mmap: a file truncated under a reading job is an error, not SIGBUS; partial result, files removed" {
	truncated read read
}
