#!/usr/bin/env bats
# Every I/O engine passes the same matrix: exact op counts and bytes per rw
# mode, fsync counts, identical data whichever engine wrote it, the direct=1
# alignment error, and iodepth > 1 capped at 1 (with fio's note) where the engine cannot queue.
# The engines are those of the build under test (dbio --version): a test of
# an engine the build left out skips, saying so. io_uring is skipped (with
# the reason) where the kernel refuses it; libaio runs with direct=1 (it
# refuses buffered I/O) and is skipped where the target's filesystem has no
# O_DIRECT.

load helpers

# queues ENGINE: ENGINE keeps iodepth I/Os in flight (a queued engine).
queues() {
	case $1 in
	io_uring | libaio | posixaio) return 0 ;;
	*) return 1 ;;
	esac
}

# matrix ENGINE: every rw mode over 16 MiB in 4 KiB blocks makes exactly
# 4096 reads and writes and moves 16777216 bytes, with the engine recorded.
matrix() {
	local e=$1 rw reads writes keys
	need_engine "$e"
	keys=$(engine_keys "$e")
	for rw in read:4096:0 write:0:4096 randread:4096:0 randwrite:0:4096 randrw:mixed:mixed \
		readwrite:mixed:mixed; do
		IFS=: read -r rw reads writes <<<"$rw"
		# shellcheck disable=SC2086
		dbio_ok --directory="$target" --rw="$rw" --size=16m --bs=4k $keys
		run jpy "$result" 'run["ops"]["read"]["count"] + run["ops"]["write"]["count"]' \
			'run["ops"]["read"]["bytes"] + run["ops"]["write"]["bytes"]' \
			'run["ops"]["fsync"]["count"] + run["ops"]["fdatasync"]["count"]' \
			'r["jobs"][0]["options"]["ioengine"]'
		[ "$status" -eq 0 ]
		[ "${lines[*]}" = "4096 16777216 0 $e" ] || {
			echo "$e rw=$rw: ${lines[*]}" >&2
			return 1
		}
		if [ "$reads" = mixed ]; then
			run jpy "$result" 'run["ops"]["read"]["count"] > 0 and run["ops"]["write"]["count"] > 0'
			[ "$output" = true ]
		else
			json_is "$result" "$R0.ops.read.count=$reads" "$R0.ops.write.count=$writes" \
				"$R0.partial=false"
		fi
		is_empty_dir "$target"
	done
}

# matrix_writes ENGINE: for an engine that only writes (ftruncate, as in
# fio): the writing modes as matrix does, and each mode that reads refused
# before anything runs.
matrix_writes() {
	local e=$1 rw
	need_engine "$e"
	for rw in write randwrite; do
		dbio_ok --directory="$target" --rw="$rw" --size=16m --bs=4k --ioengine="$e"
		json_is "$result" "$R0.ops.read.count=0" "$R0.ops.write.count=4096" \
			"$R0.ops.write.bytes=16777216" "$R0.partial=false" "jobs.0.options.ioengine=$e"
		is_empty_dir "$target"
	done
	for rw in read randread randrw readwrite rewrite; do
		run -2 --separate-stderr "$DBIO" run --directory="$target" --rw="$rw" --size=16m --ioengine="$e"
		[ "$stderr" = "dbio: command line: key 'ioengine': '$e' only writes (each write truncates the file to its offset; fio fails a read or trim of it): use rw=write or randwrite, or ioengine=falloc (job 'job')" ]
		is_empty_dir "$target"
	done
}

# syncs ENGINE: fsync=4 makes writes/4 fsyncs, fdatasync=8 writes/8.
syncs() {
	local e=$1 keys mib=16 writes
	need_engine "$e"
	keys=$(engine_keys "$e")
	if [ "$e" != libaio ]; then # tmpfs has no O_DIRECT
		fast_target
	else # on the disk, where 16 MiB took 1535 syncs and 9 s
		mib=4
	fi
	writes=$((mib * 256))
	# shellcheck disable=SC2086
	dbio_ok --directory="$target" --rw=write --size=${mib}m --bs=4k --fsync=4 $keys
	# as fio: a sync after every 4th write but the last (fio syncs before
	# the next I/O, and there is none)
	json_is "$result" "$R0.ops.write.count=$writes" "$R0.ops.fsync.count=$((writes / 4 - 1))" \
		"$R0.ops.fdatasync.count=0"
	# shellcheck disable=SC2086
	dbio_ok --directory="$target" --rw=randwrite --size=${mib}m --bs=4k --fdatasync=8 $keys
	json_is "$result" "$R0.ops.write.count=$writes" "$R0.ops.fdatasync.count=$((writes / 8 - 1))" \
		"$R0.ops.fsync.count=0"
}

@test "psync: every rw mode gives exactly 4096 ops and 16 MiB" { matrix psync; }
@test "sync: every rw mode gives exactly 4096 ops and 16 MiB" { matrix sync; }
@test "pvsync2: every rw mode gives exactly 4096 ops and 16 MiB" { matrix pvsync2; }
@test "mmap: every rw mode gives exactly 4096 ops and 16 MiB" { matrix mmap; }
@test "null: every rw mode gives exactly 4096 ops and 16 MiB" { matrix null; }
@test "falloc: every rw mode gives exactly 4096 ops and 16 MiB" { matrix falloc; }
@test "ftruncate: every rw mode gives exactly 4096 ops and 16 MiB (it only writes: the others are refused)" {
	matrix_writes ftruncate
}
@test "io_uring iodepth=8: every rw mode gives exactly 4096 ops and 16 MiB" { matrix io_uring; }
@test "libaio direct=1 iodepth=8: every rw mode gives exactly 4096 ops and 16 MiB" { matrix libaio; }
@test "posixaio iodepth=8: every rw mode gives exactly 4096 ops and 16 MiB" { matrix posixaio; }

@test "psync: fsync=4 gives writes/4 - 1 fsyncs, fdatasync=8 writes/8 - 1" { syncs psync; }
@test "sync: fsync=4 gives writes/4 - 1 fsyncs, fdatasync=8 writes/8 - 1" { syncs sync; }
@test "pvsync2: fsync=4 gives writes/4 - 1 fsyncs, fdatasync=8 writes/8 - 1" { syncs pvsync2; }
@test "mmap: fsync=4 gives writes/4 - 1 fsyncs (msync), fdatasync=8 writes/8 - 1" { syncs mmap; }
@test "null: fsync=4 gives writes/4 - 1 fsyncs, fdatasync=8 writes/8 - 1" { syncs null; }
@test "falloc: fsync=4 gives writes/4 - 1 fsyncs, fdatasync=8 writes/8 - 1" { syncs falloc; }
@test "ftruncate: fsync=4 gives writes/4 - 1 fsyncs, fdatasync=8 writes/8 - 1" { syncs ftruncate; }
@test "io_uring: fsync=4 gives writes/4 - 1 fsyncs, fdatasync=8 writes/8 - 1" { syncs io_uring; }
@test "libaio: fsync=4 gives writes/4 - 1 fsyncs, fdatasync=8 writes/8 - 1" { syncs libaio; }
@test "posixaio: fsync=4 gives writes/4 - 1 fsyncs, fdatasync=8 writes/8 - 1" { syncs posixaio; }

@test "io_uring at iodepth 1 and 32, with registerfiles and fixedbufs: exact counts" {
	need_engine io_uring
	local keys threads
	for keys in "--iodepth=1" "--iodepth=32" "--iodepth=32 --registerfiles=1" \
		"--iodepth=16 --fixedbufs=1 --registerfiles=1 --nrfiles=4 --numjobs=2"; do
		threads=1
		[[ $keys == *numjobs=2* ]] && threads=2
		# shellcheck disable=SC2086
		dbio_ok --directory="$target" --ioengine=io_uring --rw=randrw --size=16m --bs=4k $keys
		run jpy "$result" 'run["ops"]["read"]["count"] + run["ops"]["write"]["count"]' \
			'run["ops"]["read"]["bytes"] + run["ops"]["write"]["bytes"]'
		[ "${lines[*]}" = "$((4096 * threads)) $((16777216 * threads))" ] || {
			echo "$keys: ${lines[*]}" >&2
			return 1
		}
	done
}

@test "io_uring sqthread_poll=1: the ring is set up with a kernel polling thread (strace); exact counts" {
	need_engine io_uring
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 run --separate-stderr strace -f -qq \
		-e trace=io_uring_setup -o "$scratch/trace" "$DBIO" run --output "$result" --progress=none \
		--directory="$target" --ioengine=io_uring --iodepth=8 --sqthread_poll=1 --rw=randrw --size=16m
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	grep -q 'io_uring_setup(8, {flags=IORING_SETUP_SQPOLL, .*sq_thread_idle=1000' "$scratch/trace" ||
		{ cat "$scratch/trace"; false; }
	json_is "$result" jobs.0.options.sqthread_poll=true
	[ "$(jpy "$result" 'run["ops"]["read"]["count"] + run["ops"]["write"]["count"]')" -eq 4096 ]
	# Not an option of another engine.
	run --separate-stderr "$DBIO" run --directory="$target" --sqthread_poll=1 --size=16m
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'sqthread_poll': belongs to ioengine=io_uring; this job is ioengine=psync (job 'job')" ]
}

@test "pvsync2: one preadv2/pwritev2 per block, with RWF_HIPRI when hipri=1 (strace); exact counts" {
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	for hipri in 0 1; do
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 run --separate-stderr strace -f -qq \
			-e trace=preadv2,pwritev2 -o "$scratch/trace" "$DBIO" run --output "$result" --progress=none \
			--directory="$target" --ioengine=pvsync2 --hipri=$hipri --rw=rewrite --size=1m
		[ "$status" -eq 0 ] || { echo "$stderr"; false; }
		json_is "$result" "$R0.ops.read.count=256" "$R0.ops.write.count=256" jobs.0.options.hipri="$([ $hipri = 1 ] && echo true || echo false)"
		flag=0
		[ "$hipri" = 0 ] || flag=RWF_HIPRI
		[ "$(grep -c "^[0-9]* *preadv2(.*\], 1, [0-9]*, $flag) = 4096\$" "$scratch/trace")" -eq 256 ] || { head "$scratch/trace"; false; }
		[ "$(grep -c "^[0-9]* *pwritev2(.*\], 1, [0-9]*, $flag) = 4096\$" "$scratch/trace")" -eq 256 ]
	done
}

@test "io_uring time-based with a ramp: counts only what was issued after the ramp" {
	need_engine io_uring
	dbio_ok --directory="$target" --ioengine=io_uring --iodepth=16 --rw=randread --size=16m --bs=4k \
		--time_based --runtime=300ms --ramp_time=100ms
	run jpy "$result" 'run["ops"]["read"]["count"] > 0' 'run["ops"]["read"]["bytes"] == 4096 * run["ops"]["read"]["count"]' \
		'run["ops"]["write"]["count"]'
	[ "${lines[*]}" = "true true 0" ]
}

# The data of a write job depends only on randseed: the same file whichever
# engine wrote it (null, falloc and ftruncate write no data and are left
# out: fio's falloc and ftruncate allocate or cut the file instead). dbio does not read
# into a file it did not lay out, so "read back by another engine" is this:
# every engine's file has the checksum of psync's.
@test "data written by one engine is what every other engine writes (sha256)" {
	local e sums=() ref="" why
	for e in $(engines_of_build); do
		case $e in null | falloc | ftruncate) continue ;; esac
		why=$(why_not_here "$e")
		if [ -n "$why" ]; then
			echo "# left out of this comparison: $why" >&3
			continue
		fi
		mkdir "$scratch/$e"
		# shellcheck disable=SC2046
		dbio_ok --directory="$scratch/$e" --name=data --rw=write --size=4m --bs=4k --prefill=0 \
			--randseed=77 --keep $(engine_keys "$e")
		local files=("$scratch/$e"/dbio.data.*)
		[ ${#files[@]} -eq 1 ]
		local sum
		sum=$(sha256sum "${files[0]}" | cut -d' ' -f1)
		sums+=("$e=$sum")
		[ -n "$ref" ] || ref=$sum
		[ "$sum" = "$ref" ] || {
			printf '%s\n' "${sums[@]}" >&2
			return 1
		}
	done
	[ ${#sums[@]} -ge 3 ]
	# And another seed writes other data.
	mkdir "$scratch/other"
	dbio_ok --directory="$scratch/other" --name=data --rw=write --size=4m --bs=4k --prefill=0 \
		--randseed=78 --keep
	[ "$(sha256sum "$scratch"/other/dbio.data.* | cut -d' ' -f1)" != "$ref" ]
}

@test "direct=1 with bs=1000 fails with the alignment message on every engine" {
	local e want
	for e in $(engines_of_build); do
		want="dbio: command line: key 'bs': 1000 is not a multiple of 512, which direct=1 needs (the device's logical block size) (job 'job')"
		[ "$e" != mmap ] ||
			want="dbio: command line: key 'ioengine': mmap copies through the page cache, so direct=1 cannot apply; use direct=0, or another engine (ioengine=psync) with direct=1 (job 'job')"
		run -2 --separate-stderr "$DBIO" run --directory="$target" --output "$result" \
			--ioengine="$e" --direct=1 --bs=1000 --size=1m --rw=write # ftruncate only writes
		[ "$stderr" = "$want" ] || {
			printf '%s: %s\n' "$e" "$stderr" >&2
			return 1
		}
		is_empty_dir "$target"
	done
}

@test "iodepth > 1 on an engine that cannot queue runs at depth 1 with fio's note, as fio caps it" {
	local e n=0
	for e in $(engines_of_build); do
		queues "$e" && continue
		[ "$e" != null ] || continue # null queues, as fio's (fio-engines.bats)
		rw=randread
		[ "$e" != ftruncate ] || rw=randwrite
		dbio_ok --directory="$target" --ioengine="$e" --iodepth=4 --size=1m --rw=$rw
		run jpy "$result" 'run["ops"]["read"]["count"] + run["ops"]["write"]["count"]' \
			'[w for w in r["jobs"][0]["warnings"] if w.startswith("iodepth > 1")][0]'
		[ "${lines[0]}" = 256 ]
		[ "${lines[1]}" = 'iodepth > 1 with a synchronous engine: the queue depth is capped at 1, as fio caps it ("note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1"); for I/O in flight use a queued engine (dbio --version lists them)' ] || {
			printf '%s: %s\n' "$e" "${lines[1]}" >&2
			return 1
		}
		is_empty_dir "$target"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] # the loop checked something: psync, sync, pvsync2 and mmap are in every build
}

@test "iodepth > 1 on a queued engine is accepted" {
	local e n=0
	for e in $(engines_of_build); do
		queues "$e" || continue
		run --separate-stderr "$DBIO" run --directory=/nonexistent --ioengine="$e" --iodepth=4 --direct=1 \
			--size=1m
		# refused only for the directory, after every key was accepted
		[ "$stderr" = "dbio: command line: key 'directory': /nonexistent: No such file or directory (job 'job')" ] || {
			printf '%s: %s\n' "$e" "$stderr" >&2
			return 1
		}
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || skip "this build has no queued engine: it left out $(left_out_text | grep -o 'ioengine=[^)]*)' | join_list ', ')"
}

@test "libaio without direct=1 runs, as in fio, with a warning saying what it measures" {
	need_built ioengine=libaio
	dbio_ok --directory="$target" --ioengine=libaio --iodepth=8 --size=1m
	json_is "$result" "$R0.ops.read.count=256" jobs.0.options.direct=false
	json_is "$result" "jobs.0.warnings.0=libaio without direct=1: the kernel does buffered I/O inside io_submit, one request after the other, so iodepth puts no more I/O in flight (fio runs it so too); use direct=1, or ioengine=io_uring for queued buffered I/O"
	dbio_ok --directory="$target" --ioengine=libaio --iodepth=8 --size=1m --direct=1 --filesize=1m
	run jpy "$result" 'len([w for w in r["jobs"][0]["warnings"] if w.startswith("libaio")])'
	[ "$output" = 0 ]
}

@test "io_uring hipri without direct=1 is refused" {
	need_built ioengine=io_uring
	run -2 --separate-stderr "$DBIO" run --directory="$target" --output "$result" \
		--ioengine=io_uring --hipri=1 --size=1m
	[ "$stderr" = "dbio: command line: key 'ioengine': hipri=1 (polled completion) needs direct=1: the kernel polls only for O_DIRECT I/O (job 'job')" ]
}

@test "dbio --version lists the engines ioengine= takes, and each left-out one with its package" {
	run "$DBIO" --version
	[ "$status" -eq 0 ]
	local engines e pkg
	engines=$(engines_of_build | join_list ', ')
	[ -n "$engines" ]
	# ioengine= refuses an unknown value with the same list
	run -2 --separate-stderr "$DBIO" run --directory="$target" --ioengine=nope --size=1m
	[ "$stderr" = "dbio: command line: key 'ioengine': bad value 'nope': expected one of $engines (job 'job')" ]
	# a left-out engine is refused, naming the package --version names
	for e in $(left_out_of_build | sed -n 's/^ioengine=//p'); do
		! grep -qxF "$e" <<<"$(engines_of_build)" || false
		pkg=$(version_text | grep -o "ioengine=$e ([^)]*)" | sed 's/.*(\(.*\))/\1/')
		[ -n "$pkg" ]
		run -2 --separate-stderr "$DBIO" run --directory="$target" --ioengine="$e" --direct=1 --size=1m
		[ "$stderr" = "dbio: command line: key 'ioengine': '$e' is not in this build of dbio: install $pkg and build dbio again (job 'job')" ]
	done
	is_empty_dir "$target"
}

@test "every engine of the build has its matrix and sync tests in this file" {
	local e missing=
	for e in $(engines_of_build); do
		grep -q "^@test \"$e[ :].*every rw mode gives exactly 4096 ops" "$BATS_TEST_FILENAME" ||
			missing="$missing $e(matrix)"
		grep -q "^@test \"$e: fsync=4 gives writes/4 - 1 fsyncs" "$BATS_TEST_FILENAME" || missing="$missing $e(syncs)"
	done
	[ -z "$missing" ] || {
		echo "no test for:$missing" >&2
		false
	}
}
