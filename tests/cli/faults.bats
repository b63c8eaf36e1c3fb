#!/usr/bin/env bats
# When the storage under a running job fails or is not what it seems: the
# mmap engine meeting SIGBUS (a full filesystem, a file truncated under
# it), a filesystem that turns read-only mid-run, files that cannot be
# removed, and direct=1 on a filesystem held in RAM. Each ends with a
# message that says what happened, the result written (partial when the job
# stopped), and every file either removed or named in a warning. Needs root
# for the tmpfs and loop mounts; each test that cannot run says why.

load helpers

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
	finish_running 1
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

@test "a filesystem turning read-only mid-run: the write error stands, the file left behind is named" {
	loop_mnt="$scratch/mnt"
	mount_ext4 "$loop_mnt" 64m errors=remount-ro
	local trigger="/sys/fs/ext4/${loop_dev#/dev/}/trigger_fs_error" dir="$loop_mnt/d"
	[ -w "$trigger" ] || skip "$trigger: not there, cannot make ext4 fail"
	mkdir "$dir"
	start_running --rw=write --size=8m --time_based --runtime=60s --directory="$dir"
	echo 1 >"$trigger" # an ext4 error: errors=remount-ro turns the filesystem read-only
	finish_running 1
	grep -qx "dbio: warning: $dir/dbio.job.0.0: cannot remove: Read-only file system: remove it by hand" "$scratch/err"
	[[ "$(tail -n 1 "$scratch/err")" == "dbio: $dir/dbio.job.0.0: write of 4096 bytes at offset "*": Read-only file system" ]]
	json_is "$result" partial=true "$R0.partial=true"
	run jpy "$result" 'r["error"].endswith(": Read-only file system")'
	[ "$output" = true ]
}

@test "files and the scratch directory that cannot be removed are each named in a warning; the run's error stands" {
	local ram="$scratch/ram"
	mount_tmpfs "$ram" 64m
	mkdir "$ram/probe"
	chattr +a "$ram/probe" 2>/dev/null || skip "chattr +a is not supported on tmpfs here"
	chattr -a "$ram/probe"
	rmdir "$ram/probe"
	cd "$ram"
	# No --directory: dbio makes ./dbio-scratch and removes it afterwards.
	start_running --rw=write --size=1m --time_based --runtime=60s
	on_teardown chattr -a "$ram/dbio-scratch"
	chattr +a "$ram/dbio-scratch" # entries can be added, not removed
	kill -TERM "$bg_pid"
	finish_running 143
	grep -qx "dbio: warning: ./dbio-scratch/dbio.job.0.0: cannot remove: Operation not permitted: remove it by hand" "$scratch/err"
	grep -qx "dbio: warning: ./dbio-scratch: cannot remove the directory dbio made: Operation not permitted: remove it by hand" "$scratch/err"
	[ "$(tail -n 1 "$scratch/err")" = "dbio: interrupted by SIGTERM" ]
	json_is "$result" partial=true error="interrupted by SIGTERM"
}

@test "direct=1 on tmpfs: a warning that the files live in RAM" {
	local ram="$scratch/ram"
	mount_tmpfs "$ram" 64m
	run --separate-stderr "$DBIO" run --direct=1 --rw=write --size=1m --directory="$ram" --output "$result"
	grep -qx "dbio: warning: $ram: direct=1 on tmpfs, which keeps its files in RAM: the job measures memory, not storage (job 'job')" <<<"$stderr"
	# Before Linux 6.6 tmpfs refuses O_DIRECT, which the open says.
	[ "$status" -eq 0 ] || [[ "${stderr_lines[-1]}" == "dbio: $ram/dbio.job.0.0: cannot open with direct=1: the filesystem does not support O_DIRECT" ]]
}
