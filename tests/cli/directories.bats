#!/usr/bin/env bats
# A job over several directories (scenario S3, one job over several
# disks): files go round-robin, file i to directory i mod N, so a job with
# fewer files (or, for a workload that makes its own, threads) than
# directories is refused before anything is written, naming the idle
# ones. Per-directory rates are over the run, so they add up to the
# job's; "busy" is the device's io_ticks over the run.

load helpers

# Four directories under $target.
setup() {
	dbio_setup
	mkdir "$target/d1" "$target/d2" "$target/d3" "$target/d4"
	dirs="$target/d1:$target/d2:$target/d3:$target/d4"
}

all_empty() {
	local d
	for d in d1 d2 d3 d4; do
		[ -z "$(ls -A "$target/$d")" ] || return 1
	done
}

@test "numjobs=2 over four directories: exit 2 naming d3 and d4, nothing written" {
	run -2 --separate-stderr "$DBIO" run --rw=write --size=1m --numjobs=2 --directory="$dirs" --output="$result"
	[ "$stderr" = "dbio: command line: key 'directory': 4 directories but only 2 files (numjobs=2 x nrfiles=1; file i goes to directory i mod 4): $target/d3 and $target/d4 would get no I/O; give at least 4 files (numjobs or nrfiles), or fewer directories (job 'job')" ]
	[ ! -e "$result" ]
	all_empty
}

@test "share_files with nrfiles=2 over three directories, and a job file: exit 2 naming the file and line" {
	printf '[s]\nrw=randread\nsize=1m\nnumjobs=8\nshare_files=1\nnrfiles=2\ndirectory=%s\n' \
		"$target/d1:$target/d2:$target/d3" >s.fio
	run -2 --separate-stderr "$DBIO" run s.fio
	[ "$stderr" = "dbio: s.fio:7: key 'directory': 3 directories but only 2 files (nrfiles=2, shared by its threads; file i goes to directory i mod 3): $target/d3 would get no I/O; give at least 3 files (nrfiles), or fewer directories (job 's')" ]
	all_empty
}

@test "kv with numjobs=3 over four directories: exit 2 naming d4" {
	need_kv_engine
	run -2 --separate-stderr "$DBIO" run --workload=kv --kv_engine="$kv" --records=100 --numjobs=3 --directory="$dirs"
	[ "$stderr" = "dbio: command line: key 'directory': 4 directories but only 3 threads (numjobs=3; thread t works in directory t mod 4): $target/d4 would get no I/O; give at least 4 threads (numjobs), or fewer directories (job 'job')" ]
	all_empty
}

@test "sweep --vary directory=d1,d1:d2,d1:d2:d3 with numjobs=2: refused before the first point runs" {
	run -2 --separate-stderr "$DBIO" sweep --rw=write --size=1m --numjobs=2 --output="$result" \
		--vary directory="$target/d1,$target/d1:$target/d2,$target/d1:$target/d2:$target/d3"
	[ "$stderr" = "dbio: command line: key 'directory': 3 directories but only 2 files (numjobs=2 x nrfiles=1; file i goes to directory i mod 3): $target/d3 would get no I/O; give at least 3 files (numjobs or nrfiles), or fewer directories (job 'job')" ]
	[ -z "$output" ]
	[ ! -e "$result" ]
	all_empty
}

@test "numjobs=2 x nrfiles=2 over four disk directories: a quarter each, rates add up, busy is the device's" {
	local disk
	disk=$(mktemp -d /var/tmp/dbio-dirs.XXXXXX)
	extra_dirs+=("$disk")
	[ "$("$PYTHON" -c 'import os, sys; print(os.major(os.stat(sys.argv[1]).st_dev))' "$disk")" -ne 0 ] ||
		skip "/var/tmp is not on a block device"
	mkdir "$disk/d1" "$disk/d2" "$disk/d3" "$disk/d4"
	run "$DBIO" run --rw=write --bs=64k --size=8m --numjobs=2 --nrfiles=2 --direct=1 \
		--directory="$disk/d1:$disk/d2:$disk/d3:$disk/d4" --output="$result"
	echo "$output"
	[ "$status" -eq 0 ]
	text=$output
	# 2 threads x 8 MiB in 64 KiB writes = 256, 64 in each directory.
	run jpy "$result" 'run["ops"]["write"]["count"]' '[t["write"]["count"] for t in run["targets"]]' \
		'abs(sum(t["write"]["bw_bytes"] for t in run["targets"]) - run["ops"]["write"]["bw_bytes"]) <= 1e-6 * run["ops"]["write"]["bw_bytes"]' \
		'len(set(t["busy_ns"] for t in run["targets"]))' \
		'all(isinstance(t["busy_ns"], int) and 0 < t["busy_ns"] <= run["elapsed_ns"] + 100 * 10**6 for t in run["targets"])'
	[ "${lines[*]}" = "256 [64, 64, 64, 64] true 1 true" ]
	# The text shows the device's busy time, in ms, on each directory's line.
	run grep -cE "^      $disk/d[1-4] +busy +[0-9.]+ ms  read " <<<"$text"
	[ "$output" = 4 ]
	for d in d1 d2 d3 d4; do
		[ -z "$(ls -A "$disk/$d")" ]
	done
}

@test "directories on tmpfs: busy is null in the result and '-' in the text" {
	local shm
	[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || skip "/dev/shm is not a tmpfs"
	shm=$(mktemp -d /dev/shm/dbio-dirs.XXXXXX)
	extra_dirs+=("$shm")
	mkdir "$shm/a" "$shm/b"
	run "$DBIO" run --rw=write --size=1m --numjobs=2 --directory="$shm/a:$shm/b" --output="$result"
	[ "$status" -eq 0 ]
	[[ "$output" == *"      $shm/a"*" busy        -  read "* ]]
	run jpy "$result" '[t["busy_ns"] for t in run["targets"]]'
	[ "$output" = "[null, null]" ]
}
