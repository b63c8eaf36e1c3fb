#!/usr/bin/env bats
# A build without the optional libraries (make dbio-min: WITHOUT="gdbm lmdb
# sqlite3 rocksdb leveldb liburing libaio" and the others) still runs everything else, and a job asking for
# a left-out engine, kv backend or workload is told which Debian package
# brings it back, with exit status 2 and nothing written.

load helpers

DBIO_MIN=${DBIO_MIN:-"$BATS_TEST_DIRNAME/../../dbio-min"}

setup_file() {
	[ -x "$DBIO_MIN" ] || {
		echo "no build without optional libraries at $DBIO_MIN: run make dbio-min, or set DBIO_MIN" >&2
		return 1
	}
}

# min_refuses KEYS PACKAGE MESSAGE: dbio-min run KEYS exits 2 with MESSAGE on
# stderr, naming PACKAGE, and leaves the target directory empty.
min_refuses() {
	local keys=$1 want=$2
	# shellcheck disable=SC2086
	run --separate-stderr "$DBIO_MIN" run --directory="$target" --output "$result" $keys
	[ "$status" -eq 2 ] || {
		echo "exit $status for $keys; stderr: $stderr" >&2
		return 1
	}
	[ "$stderr" = "dbio: command line: $want (job 'job')" ] || {
		echo "stderr for $keys: $stderr" >&2
		echo "expected:         dbio: command line: $want (job 'job')" >&2
		return 1
	}
	[ ! -e "$result" ]
	is_empty_dir "$target"
}

@test "build without libraries: each left-out kv engine names its package" {
	min_refuses "--workload=kv --kv_engine=gdbm" \
		"key 'kv_engine': 'gdbm' is not in this build of dbio: install libgdbm-dev and build dbio again"
	min_refuses "--workload=kv --kv_engine=lmdb" \
		"key 'kv_engine': 'lmdb' is not in this build of dbio: install liblmdb-dev and build dbio again"
	min_refuses "--workload=kv --kv_engine=sqlite" \
		"key 'kv_engine': 'sqlite' is not in this build of dbio: install libsqlite3-dev and build dbio again"
	min_refuses "--workload=kv --kv_engine=rocksdb" \
		"key 'kv_engine': 'rocksdb' is not in this build of dbio: install librocksdb-dev and build dbio again"
	min_refuses "--workload=kv --kv_engine=leveldb" \
		"key 'kv_engine': 'leveldb' is not in this build of dbio: install libleveldb-dev and build dbio again"
	min_refuses "--workload=kv" \
		"key 'kv_engine': 'sqlite' is not in this build of dbio: install libsqlite3-dev and build dbio again"
}

@test "build without libraries: the keys of a left-out kv engine name its package" {
	run --separate-stderr "$DBIO_MIN" run --directory="$target" --output "$result" --workload=kv --kv_engine=rocksdb \
		--max_background_jobs=4
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'max_background_jobs': belongs to kv_engine=rocksdb, which this build of dbio left out: install librocksdb-dev and build dbio again" ]
	# a key both LSM engines have: the first of them
	run --separate-stderr "$DBIO_MIN" run --directory="$target" --output "$result" --workload=kv --kv_engine=leveldb \
		--write_buffer_size=8m
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'write_buffer_size': belongs to kv_engine=rocksdb, which this build of dbio left out: install librocksdb-dev and build dbio again" ]
	[ ! -e "$result" ]
	is_empty_dir "$target"
}

@test "build without libraries: import, postgres and the queued I/O engines name their packages" {
	min_refuses "--workload=import" \
		"key 'workload': 'import' is not in this build of dbio: install libsqlite3-dev and build dbio again"
	min_refuses "--workload=postgres" \
		"key 'workload': 'postgres' is not in this build of dbio: install libpq-dev and build dbio again"
	min_refuses "--ioengine=io_uring --size=1m" \
		"key 'ioengine': 'io_uring' is not in this build of dbio: install liburing-dev and build dbio again"
	min_refuses "--ioengine=libaio --direct=1 --size=1m" \
		"key 'ioengine': 'libaio' is not in this build of dbio: install libaio-dev and build dbio again"
}

@test "build without libraries: an unknown value is still 'bad value', with what this build has" {
	min_refuses "--workload=kv --kv_engine=bdb" "key 'kv_engine': bad value 'bdb': expected one of (none built in)"
	min_refuses "--ioengine=nosuch" "key 'ioengine': bad value 'nosuch': expected one of psync, sync, pvsync2, posixaio, mmap, null, falloc, ftruncate"
	# one of fio's: its reason, with the engines of this build
	min_refuses "--ioengine=vsync" "key 'ioengine': 'vsync' is fio's readv/writev engine; sync (read, write) is the nearest; dbio's engines are psync, sync, pvsync2, posixaio, mmap, null, falloc, ftruncate"
	min_refuses "--workload=tpcc" "key 'workload': bad value 'tpcc': expected one of fileio, kv, oltp, meta"
}

@test "build without libraries: --version lists what was left out and the package of each" {
	run "$DBIO_MIN" --version
	[ "$status" -eq 0 ]
	[[ "$output" == *"workloads: fileio, kv, oltp, meta"* ]]
	want="left out of this build (install the package and build again): ioengine=io_uring (liburing-dev), ioengine=libaio (libaio-dev), kv_engine=gdbm (libgdbm-dev), kv_engine=lmdb (liblmdb-dev), kv_engine=rocksdb (librocksdb-dev), kv_engine=leveldb (libleveldb-dev), kv_engine=sqlite (libsqlite3-dev), workload=import (libsqlite3-dev), workload=postgres (libpq-dev), verify=xxhash (libxxhash-dev), verify=md5 (libssl-dev), verify=sha1 (libssl-dev), verify=sha256 (libssl-dev), verify=sha512 (libssl-dev), verify=sha3-224 (libssl-dev), verify=sha3-256 (libssl-dev), verify=sha3-384 (libssl-dev), verify=sha3-512 (libssl-dev)"
	grep -qxF "$want" <<<"$output"
}

@test "--version's kv_engine line is the list a bad kv_engine is refused with, in every build" {
	local bin list
	for bin in "$DBIO" "$DBIO_MIN"; do
		list=$("$bin" --version | sed -n 's/^  kv_engine: //p')
		[ -n "$list" ]
		run -2 --separate-stderr "$bin" run --workload=kv --kv_engine=/ --directory=/nonexistent
		[ "$stderr" = "dbio: command line: key 'kv_engine': bad value '/': expected one of $list (job 'job')" ]
	done
	[ "$("$DBIO_MIN" --version | sed -n 's/^  kv_engine: //p')" = "(none built in)" ]
}

# parts BINARY KEY: every value of KEY (ioengine, kv_engine, workload) that
# BINARY's build has, and every one it left out, one per line, sorted.
parts() {
	local DBIO=$1 # the helpers read the build of $DBIO
	{
		case $2 in
		ioengine) engines_of_build ;;
		kv_engine) kv_engines_of_build ;;
		workload) workloads_of_build ;;
		esac
		left_out_of_build | sed -n "s/^$2=//p"
	} | sort
}

@test "build without libraries: what a build has and what it left out are the same parts in every build" {
	local key
	for key in ioengine kv_engine workload; do
		[ -n "$(parts "$DBIO" $key)" ]
		[ "$(parts "$DBIO" $key)" = "$(parts "$DBIO_MIN" $key)" ] || {
			printf '%s: %s\n' "$key" "$(parts "$DBIO" $key | join_list ', ')" "$(parts "$DBIO_MIN" $key | join_list ', ')" >&2
			false
		}
		# none both in a build and left out of it
		[ -z "$(parts "$DBIO" $key | uniq -d)" ]
		[ -z "$(parts "$DBIO_MIN" $key | uniq -d)" ]
	done
}

@test "build without libraries: fileio and oltp still run, with exact counts" {
	run --separate-stderr "$DBIO_MIN" run --directory="$target" --output "$result" --rw=randwrite \
		--size=4m --bs=4k --fsync=16
	[ "$status" -eq 0 ]
	json_is "$result" "$R0.ops.write.count=1024" "$R0.ops.fsync.count=63" "$R0.ops.write.bytes=4194304"
	run --separate-stderr "$DBIO_MIN" run --directory="$target" --output "$result" --workload=oltp \
		--size=4m --numjobs=2 --runtime=300ms --time_based
	[ "$status" -eq 0 ]
	[ "$(jpy "$result" "run['ops']['commit']['count'] == run['ops']['fdatasync']['count'] > 0")" = true ]
	is_empty_dir "$target"
}

@test "make WITHOUT names the optional libraries when given another" {
	run make -C "$BATS_TEST_DIRNAME/../.." -n WITHOUT=bdb all
	[ "$status" -ne 0 ]
	[[ "$output" == *"WITHOUT: 'bdb' is not an optional library; expected some of: gdbm lmdb sqlite3 liburing libaio"* ]]
}

@test "build without libraries: a key of a part it left out names the package, not 'unknown'" {
	run --separate-stderr "$DBIO_MIN" run --directory="$target" --size=1m --registerfiles=1
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'registerfiles': belongs to ioengine=io_uring, which this build of dbio left out: install liburing-dev and build dbio again" ]
	printf '[j]\nworkload=import\nrows=10\njournal_mode=wal\n' >j.fio
	run --separate-stderr "$DBIO_MIN" run j.fio --directory="$target"
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "dbio: j.fio:3: key 'rows': belongs to workload=import, which this build of dbio left out: install libsqlite3-dev and build dbio again" ]
	[ "${stderr_lines[1]}" = "dbio: j.fio:4: key 'journal_mode': belongs to workload=import, which this build of dbio left out: install libsqlite3-dev and build dbio again" ]
}

@test "the keys util/built.c names for a left-out part are that part's keys in the full build" {
	build_is_full || skip "needs the build with every library"
	for key in registerfiles fixedbufs sqthread_poll; do
		run --separate-stderr "$DBIO" run --directory="$target" --size=1m "--$key=1"
		[ "$stderr" = "dbio: command line: key '$key': belongs to ioengine=io_uring; this job is ioengine=psync (job 'job')" ]
	done
	for kv in page_size=4k journal_mode=wal synchronous=full; do
		run --separate-stderr "$DBIO" run --directory="$target" --size=1m "--$kv"
		[ "$stderr" = "dbio: command line: key '${kv%%=*}': belongs to workload=import; this job is workload=fileio (job 'job')" ]
	done
	# rows and indexes are postgres's too
	for kv in rows=1 indexes=1; do
		run --separate-stderr "$DBIO" run --directory="$target" --size=1m "--$kv"
		[ "$stderr" = "dbio: command line: key '${kv%%=*}': belongs to workload=import and postgres; this job is workload=fileio (job 'job')" ]
	done
	for kv in scale=1 clients=1 transactions=1 shared_buffers=1GB wal_level=minimal pg_fsync=off synchronous_commit=off \
		full_page_writes=off checkpoint_timeout=1h max_wal_size=2GB wal_sync_method=fsync maintenance_work_mem=1GB \
		pg_conninfo=host=/x; do
		run --separate-stderr "$DBIO" run --directory="$target" --size=1m "--$kv"
		[ "$stderr" = "dbio: command line: key '${kv%%=*}': belongs to workload=postgres; this job is workload=fileio (job 'job')" ]
	done
	for kv in max_background_jobs=4 disable_wal=1 use_fsync=1; do
		run --separate-stderr "$DBIO" run --directory="$target" --size=1m "--$kv"
		[ "$stderr" = "dbio: command line: key '${kv%%=*}': belongs to kv_engine=rocksdb; this job is workload=fileio (job 'job')" ]
	done
	for kv in write_buffer_size=8m cache_size=1m compression_type=none; do
		run --separate-stderr "$DBIO" run --directory="$target" --size=1m "--$kv"
		[ "$stderr" = "dbio: command line: key '${kv%%=*}': belongs to kv_engine=leveldb and rocksdb; this job is workload=fileio (job 'job')" ]
	done
}
