#!/usr/bin/env bats
# DBIO_FAULT, the test hook (src/util/fault.h, docs/errors.md): EIO, ENOSPC,
# EINTR and short transfers injected into dbio's syscall table. Each failure
# ends with its message, exit 1, a partial result that counts only what was
# done, and the directory emptied; EINTR and short transfers are continued,
# so the job ends as if nothing happened. A failed fsync is data loss, never
# retried. Engines and workloads the hook cannot reach are refused.

load helpers

# fails WANT_TAIL SPEC ARG...: with DBIO_FAULT=SPEC, `dbio run ARG...` exits 1
# with stderr's last line "dbio: $target/dbio.job.0.0: WANT_TAIL", after
# the hook's warning; the result is partial with the same error; nothing
# is left in $target.
fails() {
	local want=$1 spec=$2
	shift 2
	DBIO_FAULT=$spec run -1 --separate-stderr "$DBIO" run --directory="$target" --output "$result" "$@"
	[ "${stderr_lines[0]}" = "dbio: warning: DBIO_FAULT=$spec: injecting faults (a test hook)" ]
	[ "${stderr_lines[-1]}" = "dbio: $target/dbio.job.0.0: $want" ]
	json_is "$result" partial=true "error=$target/dbio.job.0.0: $want" "$R0.partial=true"
	is_empty_dir "$target"
}

@test "DBIO_FAULT eio:read:after=10: the 11th read fails with its offset; 10 reads counted, exit 1" {
	fails "read of 4096 bytes at offset 40960: Input/output error" eio:read:after=10 --rw=read --size=1m
	json_is "$result" "$R0.ops.read.count=10" "$R0.ops.read.bytes=40960"
}

@test "DBIO_FAULT eio:write:after=7: 7 writes counted, the 8th named" {
	fails "write of 4096 bytes at offset 28672: Input/output error" eio:write:after=7 --rw=write --size=1m
	json_is "$result" "$R0.ops.write.count=7"
}

@test "DBIO_FAULT enospc:write:after=5 on pvsync2: No space left on device, 5 writes counted" {
	fails "write of 4096 bytes at offset 20480: No space left on device" enospc:write:after=5 \
		--rw=write --size=1m --ioengine=pvsync2
	json_is "$result" "$R0.ops.write.count=5"
}

@test "DBIO_FAULT eio:fsync: a failed fsync is reported as data loss, exit 1, even when the next fsync would succeed" {
	# Only the 4th fsync fails: a retry would pass, and dbio must not retry.
	fails "fsync: Input/output error: what the job wrote to it since its last successful sync may be lost (not retried)" \
		eio:fsync:after=3:times=1 --rw=write --size=1m --fsync=16
	json_is "$result" "$R0.ops.fsync.count=3" "$R0.ops.write.count=64"
}

@test "DBIO_FAULT eio:fsync on fdatasync and on io_uring's syncs: data loss too" {
	fails "fdatasync: Input/output error: what the job wrote to it since its last successful sync may be lost (not retried)" \
		eio:fsync:after=1 --rw=randwrite --size=1m --fdatasync=8
	json_is "$result" "$R0.ops.fdatasync.count=1" "$R0.ops.write.count=16"
	in_build ioengine=io_uring || skip "this build has no io_uring"
	need_engine io_uring
	rm -f "$result"
	fails "fsync: Input/output error: what the job wrote to it since its last successful sync may be lost (not retried)" \
		eio:fsync:after=2 --rw=write --size=1m --fsync=4 --ioengine=io_uring --iodepth=4
	json_is "$result" "$R0.ops.fsync.count=2" "$R0.ops.write.count=12"
}

@test "DBIO_FAULT short:read|write:times=0: every transfer cut in half is continued; exact counts, exit 0" {
	DBIO_FAULT=short:read:times=0,short:write:times=0 dbio_ok --directory="$target" --rw=randrw --size=1m --bs=8k
	json_is "$result" partial=false
	run jpy "$result" 'run["ops"]["read"]["count"] + run["ops"]["write"]["count"]' \
		'run["ops"]["read"]["bytes"] + run["ops"]["write"]["bytes"]'
	[ "${lines[0]}" = 128 ]
	[ "${lines[1]}" = 1048576 ]
	is_empty_dir "$target"
}

@test "DBIO_FAULT eintr:write:times=50 and eintr:read:times=50: retried, exact counts, exit 0" {
	DBIO_FAULT=eintr:write:times=50,eintr:read:times=50 dbio_ok --directory="$target" --rw=read --size=1m --prefill=1
	json_is "$result" partial=false "$R0.ops.read.count=256"
	DBIO_FAULT=eintr:write:times=50 dbio_ok --directory="$target" --rw=write --size=1m
	json_is "$result" "$R0.ops.write.count=256"
}

@test "DBIO_FAULT eio:open: the file cannot be created; nothing left, exit 1" {
	DBIO_FAULT=eio:open run -1 --separate-stderr "$DBIO" run --directory="$target" --output "$result" --rw=write --size=1m
	[ "${stderr_lines[-1]}" = "dbio: $target/dbio.job.0.0: cannot create: Input/output error" ]
	is_empty_dir "$target"
}

@test "DBIO_FAULT enospc:fallocate: the layout's preallocation fails with its size" {
	DBIO_FAULT=enospc:fallocate run -1 --separate-stderr "$DBIO" run --directory="$target" --output "$result" --rw=write --size=1m
	[ "${stderr_lines[-1]}" = "dbio: $target/dbio.job.0.0: cannot preallocate 1 MiB: No space left on device" ]
	is_empty_dir "$target"
}

@test "DBIO_FAULT: engines whose reads and writes bypass the syscall table are refused, exit 2, nothing written" {
	local e why
	for e in $(engines_of_build); do
		case $e in
		io_uring | libaio | null) why="reads and writes" ;;
		mmap) why="reads and writes" ;;
		*) continue ;;
		esac
		DBIO_FAULT=eio:read run -2 --separate-stderr "$DBIO" run --directory="$target" --output "$result" \
			--size=1m $(engine_keys "$e")
		[ "${stderr_lines[-1]}" = "dbio: command line: key 'ioengine': DBIO_FAULT=eio:read cannot reach ioengine=$e: its $why do not go through dbio's syscall table; use ioengine=sync, psync or pvsync2 (job 'job')" ]
		[ ! -e "$result" ]
		is_empty_dir "$target"
	done
	in_build ioengine=mmap || skip "this build has no mmap"
	DBIO_FAULT=eio:fsync run -2 --separate-stderr "$DBIO" run --directory="$target" --size=1m --ioengine=mmap --rw=write --fsync=1
	[ "${stderr_lines[-1]}" = "dbio: command line: key 'ioengine': DBIO_FAULT=eio:fsync cannot reach ioengine=mmap: its syncs do not go through dbio's syscall table; use ioengine=sync, psync or pvsync2 (job 'job')" ]
}

@test "DBIO_FAULT: a kv job is refused for faults its library's I/O would never meet" {
	need_kv_engine
	DBIO_FAULT=eio:write run -2 --separate-stderr "$DBIO" run --directory="$target" --workload=kv --kv_engine="$kv"
	[ "${stderr_lines[-1]}" = "dbio: command line: key 'workload': DBIO_FAULT=eio:write cannot reach workload=kv: its database library or server reads, writes and syncs by itself, not through dbio's syscall table; fault only open there (job 'job')" ]
	is_empty_dir "$target"
}

@test "DBIO_FAULT: a postgres job is refused: its server does the I/O" {
	need_built workload=postgres
	DBIO_FAULT=eio:write run -2 --separate-stderr "$DBIO" run --directory="$target" --workload=postgres
	[ "${stderr_lines[-1]}" = "dbio: command line: key 'workload': DBIO_FAULT=eio:write cannot reach workload=postgres: its database library or server reads, writes and syncs by itself, not through dbio's syscall table; fault only open there (job 'job')" ]
	is_empty_dir "$target"
}

@test "DBIO_FAULT: a malformed value exits 2 with what is accepted, before anything runs" {
	local accepted="expected KIND:OP[:after=N][:times=N], several separated by ',', with KIND eio, enospc, eintr, short or slow and OP read, write, fsync, open or fallocate"
	DBIO_FAULT=eio:reed run -2 --separate-stderr "$DBIO" run --directory="$target" --size=1m
	[ "$stderr" = "dbio: DBIO_FAULT=eio:reed: 'reed': unknown operation: $accepted" ]
	DBIO_FAULT=eio:read:after=-1 run -2 --separate-stderr "$DBIO" run --directory="$target" --size=1m
	[ "$stderr" = "dbio: DBIO_FAULT=eio:read:after=-1: 'after=-1': not a whole number of calls: $accepted" ]
	DBIO_FAULT=eio:read, run -2 --separate-stderr "$DBIO" run --directory="$target" --size=1m
	[ "$stderr" = "dbio: DBIO_FAULT=eio:read,: '': no operation: $accepted" ]
	is_empty_dir "$target"
}

@test "DBIO_FAULT is not a key: a job file cannot set it" {
	printf '[j]\nDBIO_FAULT=eio:read\nsize=1m\n' >j.fio
	run -2 --separate-stderr "$DBIO" run j.fio --directory="$target"
	[[ "$stderr" == "dbio: j.fio:2: key 'DBIO_FAULT': unknown"* ]]
}

# ---- continue_on_error: go on after EIO, counted by errno ----

@test "continue_on_error=read: 5 failed reads gone on after: 251 reads done, errors EIO 5 with the first named, exit 0" {
	DBIO_FAULT=eio:read:after=10:times=5 dbio_ok --directory="$target" --rw=read --size=1m --continue_on_error=read
	json_is "$result" partial=false "$R0.ops.read.count=251" "$R0.ops.read.bytes=1028096" \
		"$R0.errors.total=5" "$R0.errors.by_errno.EIO=5" "$R0.errors.first_errno=EIO" \
		"$R0.errors.first=$target/dbio.job.0.0: read of 4096 bytes at offset 40960: Input/output error"
	is_empty_dir "$target"
	[[ "$output" == *"    I/O errors gone on after (continue_on_error, not counted above): 5, EIO 5; the first: $target/dbio.job.0.0: read of 4096 bytes at offset 40960: Input/output error"* ]]
}

@test "continue_on_error=io: read and write errors of a mixed job are both gone on after; ops + errors = the job's I/Os" {
	DBIO_FAULT=eio:read:after=3:times=4,eio:write:after=2:times=6 dbio_ok --directory="$target" --rw=randrw \
		--size=1m --continue_on_error=io --numjobs=2
	json_is "$result" "$R0.errors.total=10" "$R0.errors.by_errno.EIO=10"
	run jpy "$result" 'run["ops"]["read"]["count"] + run["ops"]["write"]["count"]'
	[ "$output" = $((512 - 10)) ]
}

@test "continue_on_error: fio's JSON gives total_err and first_error (the errno), as fio" {
	DBIO_FAULT=eio:write:after=1:times=3 run -0 --separate-stderr "$DBIO" run --directory="$target" --rw=write \
		--size=1m --continue_on_error=write --output-format=json
	printf '%s\n' "$output" >fio.json
	json_is fio.json jobs.0.total_err=3 jobs.0.first_error=5 jobs.0.error=0 jobs.0.write.total_ios=253
}

@test "continue_on_error=read does not go on after a write error, nor io after ENOSPC or a failed fsync" {
	fails "write of 4096 bytes at offset 8192: Input/output error" eio:write:after=2 --rw=write --size=1m \
		--continue_on_error=read
	rm -f "$result"
	fails "write of 4096 bytes at offset 8192: No space left on device" enospc:write:after=2 --rw=write --size=1m \
		--continue_on_error=io
	rm -f "$result"
	fails "fsync: Input/output error: what the job wrote to it since its last successful sync may be lost (not retried)" \
		eio:fsync:after=1 --rw=write --size=1m --fsync=8 --continue_on_error=io
}

@test "continue_on_error without errors: the run says 0 errors; without the key, no errors object" {
	dbio_ok --directory="$target" --rw=read --size=1m --continue_on_error=read
	json_is "$result" "$R0.errors.total=0" "$R0.ops.read.count=256"
	run jpy "$result" '"first" in run["errors"]'
	[ "$output" = false ]
	dbio_ok --directory="$target" --rw=read --size=1m
	run jpy "$result" '"errors" in run'
	[ "$output" = false ]
}

@test "continue_on_error: verify, all and 1 are refused with the reason; oltp is refused" {
	run -2 --separate-stderr "$DBIO" run --directory="$target" --size=1m --continue_on_error=verify
	[ "$stderr" = "dbio: command line: key 'continue_on_error': verify is not honoured: dbio goes on after read and write errors but stops at a verify mismatch; use continue_on_error=io (job 'job')" ]
	run -2 --separate-stderr "$DBIO" run --directory="$target" --size=1m --continue_on_error=1
	[ "$stderr" = "dbio: command line: key 'continue_on_error': 1 is not honoured: dbio goes on after read and write errors but stops at a verify mismatch; use continue_on_error=io (job 'job')" ]
	in_build workload=oltp || skip "this build has no oltp"
	run -2 --separate-stderr "$DBIO" run --directory="$target" --workload=oltp --numjobs=2 --size=1m --time_based --runtime=1s \
		--continue_on_error=io
	[ "$stderr" = "dbio: command line: key 'continue_on_error': io with workload=oltp: workload=fileio only (job 'job')" ]
}
