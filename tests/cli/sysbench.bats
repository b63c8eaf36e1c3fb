#!/usr/bin/env bats
# sysbench fileio in dbio: the job key fsync_scope=job (sysbench's
# --file-fsync-freq: after every N requests of all threads together, every
# file is fsynced), with exact counts against Debian's sysbench 1.0.20 on
# the same parameters (strace -c), and `dbio sysbench fileio` itself:
# sysbench's command line, prepare / run / cleanup in the current
# directory, its output read by the same parser as real sysbench's, and the
# refusals with their exact messages.

load helpers

# need_sysbench: skip, saying why, unless sysbench and strace are here.
need_sysbench() {
	command -v sysbench >/dev/null || skip "sysbench is not installed (scripts/install-deps)"
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
}

# syscalls CMD...: the pwrite64, fsync and fdatasync calls of CMD and its
# threads, as "write N" and "sync N" lines (strace -c); its standard output
# in $scratch/cmd.out. Reads are left out: both programs pread a few files
# of their own as they start.
syscalls() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -c -o "$scratch/strace.out" \
		-e trace=pwrite64,fsync,fdatasync "$@" >"$scratch/cmd.out" 2>"$scratch/cmd.err" || {
		cat "$scratch/cmd.err" >&2
		return 1
	}
	awk '$NF == "pwrite64" { w = $(NF-1) } $NF == "fsync" || $NF == "fdatasync" { s += $(NF-1) }
		END { printf "write %d\nsync %d\n", w, s }' "$scratch/strace.out"
}

# files_of N: test_file.0:...:test_file.N-1, sysbench's names.
files_of() {
	local i names=test_file.0
	for ((i = 1; i < $1; i++)); do names+=":test_file.$i"; done
	echo "$names"
}

@test "fsync_scope=job: every file fsynced after each 100 requests of all threads, as sysbench (1 and 4 threads, strace)" {
	need_sysbench
	mkdir sb && cd sb
	sysbench fileio --file-num=16 --file-total-size=16M prepare >/dev/null
	for t in 1 4; do
		syscalls sysbench --threads=$t --events=2000 --time=0 fileio --file-num=16 --file-total-size=16M \
			--file-test-mode=rndwr --file-fsync-freq=100 run >"$scratch/sysbench.$t"
		# 2000 events: 1728 writes, 17 rounds of 16 fsyncs, and each thread's 16 at the end
		[ "$(cat "$scratch/sysbench.$t")" = "$(printf 'write 1728\nsync %d' $((272 + 16 * t)))" ]
	done
	sysbench fileio --file-num=16 --file-total-size=16M cleanup >/dev/null
	cd "$scratch"
	for t in 1 4; do
		rm -rf "$target"/*
		# the JSON on standard output: an --output file would add its own fsync
		syscalls "$DBIO" run --directory="$target" --format=json --rw=randwrite --bs=16k --size=16m \
			--nrfiles=16 --filename="$(files_of 16)" --numjobs=$t --norandommap=1 \
			--io_size=$((1728 / t * 16))k --fsync=100 --fsync_scope=job --end_fsync=1 >"$scratch/dbio.$t"
		[ "$(cat "$scratch/dbio.$t")" = "$(cat "$scratch/sysbench.$t")" ]
		run counts "$scratch/cmd.out"
		[ "$output" = "$(printf 'job sync %d\njob write 1728' $((272 + 16 * t)))" ]
	done
}

@test "fsync_scope=job counts reads too, and makes no round without a write since the last" {
	# 1 thread, 4 files: rounds after requests 100, 200, ... of a mixed job
	dbio_ok --directory="$target" --output="$result" --rw=randrw --bs=4k --size=1m --nrfiles=4 \
		--norandommap=1 --io_size=4000k --fsync=100 --fsync_scope=job
	run counts "$result"
	[ "${lines[1]}" = "job sync 36" ]
	# reads only: never a round
	dbio_ok --directory="$target" --output="$result" --rw=randread --bs=4k --size=1m --nrfiles=4 \
		--norandommap=1 --io_size=4000k --fsync=100 --fsync_scope=job
	jpy "$result" "run['ops']['fsync']['count']" | grep -qx 0
}

@test "fsync_scope=job with fdatasync and a queued engine: the same rounds" {
	dbio_ok --directory="$target" --output="$result" --rw=randwrite --bs=4k --size=1m --nrfiles=4 \
		--norandommap=1 --io_size=4000k --fdatasync=100 --fsync_scope=job \
		--ioengine=libaio --iodepth=8
	[ "$(jpy "$result" "run['ops']['fdatasync']['count']")" = 36 ]
	[ "$(jpy "$result" "run['ops']['write']['count']")" = 1000 ]
}

@test "fsync_scope=job: refused without a sync, with both, and with threads on files of their own" {
	run --separate-stderr "$DBIO" run --directory="$target" --rw=randwrite --size=1m --fsync_scope=job
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'fsync_scope': job needs fsync=N or fdatasync=N: the number of reads and writes between two rounds (job 'job')" ]
	run --separate-stderr "$DBIO" run --directory="$target" --rw=randwrite --size=1m --fsync_scope=job --fsync=2 --fdatasync=3
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'fsync_scope': job takes one of fsync=N and fdatasync=N, not both (job 'job')" ]
	run --separate-stderr "$DBIO" run --directory="$target" --rw=randwrite --size=1m --fsync_scope=job --fsync=2 --numjobs=2
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'fsync_scope': job needs every thread on all the files: name them with filename=, or use numjobs=1 (share_files=1 gives each thread a slice) (job 'job')" ]
	is_empty_dir "$target"
}
