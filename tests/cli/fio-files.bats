#!/usr/bin/env bats
# fio's file keys: filename (names in directory, ':' lists, every clone on
# the same files, an absolute path, never a device or a file dbio did not
# create), buffered, rwmixwrite, fsync_on_close, overwrite, and unlink and
# create_on_open accepted — with op counts checked against fio's.

load helpers

@test "fio files: filename, a ':' list and clones on one file give fio's op counts" {
	cat >j.fio <<'EOF'
[global]
size=1m
bs=4k
[w]
rw=write
filename=data
numjobs=2
[r]
stonewall
rw=randread
filename=a:b
EOF
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'r read 256\nw write 512')" ]
	json_is "$result" jobs.0.options.nrfiles=1 jobs.1.options.nrfiles=2 jobs.0.options.filename=data
}

@test "fio files: the named files are the ones written (strace), and two clones share one" {
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 # LeakSanitizer cannot run under ptrace
	run strace -f -qq -e trace=openat -o "$scratch/trace" "$DBIO" run --output "$result" \
		--directory="$target" --rw=write --size=64k --filename=one:two --numjobs=2
	[ "$status" -eq 0 ]
	# laid out once each, with O_EXCL and O_NOFOLLOW, then opened by both threads
	[ "$(grep -c '"one", O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW' "$scratch/trace")" -eq 1 ]
	[ "$(grep -c '"two", O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW' "$scratch/trace")" -eq 1 ]
	[ "$(grep -c 'dbio\.job\.' "$scratch/trace")" -eq 0 ]
	json_is "$result" "$R0.ops.write.count=32" "$R0.threads=2"
}

@test "fio files: an absolute filename names the directory too" {
	dbio_ok --filename="$target/data" --rw=write --size=64k
	json_is "$result" jobs.0.options.directory="$target" jobs.0.options.filename=data "$R0.ops.write.count=16"
	is_empty_dir "$target"
}

@test "fio files: a device, a path, a name twice, an existing file, a shared file of two sizes: refused" {
	run --separate-stderr "$DBIO" run --filename=/dev/sda --size=1m
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'filename': '/dev/sda' is a device: dbio formats and measures a device only in \`dbio matrix --device /dev/sda --destroy-data\`; for a job file, give a filename (or directory=) on a filesystem (job 'job')" ]
	run --separate-stderr "$DBIO" run --filename=a:../b --size=1m --directory="$target"
	[ "$stderr" = "dbio: command line: key 'filename': 'a:../b': name 2 of the list is '../b': expected names of files in directory= (no '/', not '.' or '..'), ':' between them (job 'job')" ]
	run --separate-stderr "$DBIO" run --filename=a:b:a --size=1m --directory="$target"
	[ "$stderr" = "dbio: command line: key 'filename': 'a:b:a': 'a' is named twice (job 'job')" ]
	run --separate-stderr "$DBIO" run --filename=a:b --nrfiles=3 --size=1m --directory="$target"
	[ "$stderr" = "dbio: command line: key 'nrfiles': 3, but filename names 2 files: give one of the two, or make them agree (job 'job')" ]
	printf '[a]\nsize=64k\nfilename=x\n[b]\nsize=256k\nfilename=y:x\n' >sh.fio
	refused_file sh.fio "dbio: sh.fio:6: key 'filename': 'x' is a file of job 'a' too, which runs at the same time and makes it 64 KiB; here it is 128 KiB: jobs that share a file must agree on its size (filesize=) (job 'b')"
	# a file that is there is not dbio's: not written, not removed
	echo keep >"$target/data"
	run --separate-stderr "$DBIO" run --filename=data --rw=write --size=64k --directory="$target" --force
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $target/data: exists, and dbio measures only files it creates (and removes): remove it or name another file (key 'filename', job 'job')" ]
	[ "$(cat "$target/data")" = keep ]
}

@test "fio files: a symlink planted at a filename is not followed, and stays" {
	ln -s /etc/hostname "$target/data"
	run --separate-stderr "$DBIO" run --filename=data --rw=write --size=64k --directory="$target" --force
	[ "$status" -eq 2 ]
	[ -L "$target/data" ]
	[ "$(readlink "$target/data")" = /etc/hostname ]
}

@test "fio files: buffered=0 is direct=1, rwmixwrite is 100 - rwmixread, and contradictions are refused" {
	dbio_ok --directory="$target" --rw=randrw --rwmixwrite=30 --buffered=0 --size=64k --ioengine=null
	json_is "$result" jobs.0.options.direct=true jobs.0.options.rwmixread=70 jobs.0.options.rwmixwrite=30
	run --separate-stderr "$DBIO" run --directory="$target" --buffered=0 --direct=0 --size=64k
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'buffered': 0 contradicts direct=0: buffered=0 is direct=1 (job 'job')" ]
	run --separate-stderr "$DBIO" run --directory="$target" --rw=randrw --rwmixwrite=30 --rwmixread=60 --size=64k
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'rwmixwrite': 30 and rwmixread=60 do not add up to 100: give one of the two (job 'job')" ]
}

@test "fio files: fsync_on_close fsyncs each file once at the end, overwrite lays a write job's files out first" {
	fast_target
	dbio_ok --directory="$target" --rw=write --size=64k --nrfiles=2 --fsync_on_close=1
	json_is "$result" "$R0.ops.write.count=16" "$R0.ops.fsync.count=2" jobs.0.options.end_fsync=true
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 # LeakSanitizer cannot run under ptrace
	run strace -f -qq -e trace=pwrite64 -o "$scratch/trace" "$DBIO" run --output "$result" \
		--directory="$target" --rw=randwrite --size=64k --bs=4k --overwrite=1
	[ "$status" -eq 0 ]
	# the layout's one 64 KiB write, then the job's 16 of 4 KiB
	[ "$(grep -c 'pwrite64(.*, 65536, 0)' "$scratch/trace")" -eq 1 ]
	[ "$(grep -c 'pwrite64(.*, 4096, ' "$scratch/trace")" -eq 16 ]
	json_is "$result" jobs.0.options.prefill=1 "$R0.ops.write.count=16"
}

@test "fio files: unlink and create_on_open are accepted and recorded; the files go either way" {
	dbio_ok --directory="$target" --rw=write --size=64k --unlink=0 --create_on_open=1
	json_is "$result" jobs.0.options.unlink=false jobs.0.options.create_on_open=true
	is_empty_dir "$target"
}

@test "fio files: jobs running together that name one file share it, with fio's op counts" {
	cat >j.fio <<'EOF'
[global]
size=1m
filename=shared
[w]
rw=write
[r]
rw=randread
[r2]
rw=read
size=512k
filesize=1m
EOF
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'r read 256\nr2 read 128\nw write 256')" ]
	json_is "$result" jobs.0.starts_group=true jobs.1.starts_group=false jobs.2.starts_group=false
}

@test "fio files: a shared file is laid out once, filled because a sharer reads, and removed once (strace)" {
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 # LeakSanitizer cannot run under ptrace
	printf '[global]\nsize=64k\nfilename=shared\n[w]\nrw=write\n[r]\nrw=read\n' >j.fio
	run strace -f -qq -e trace=openat,unlinkat,pwrite64 -o "$scratch/trace" "$DBIO" run j.fio \
		--output "$result" --directory="$target"
	[ "$status" -eq 0 ]
	[ "$(grep -c '"shared", O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW' "$scratch/trace")" -eq 1 ]
	# filled for r, with one write of the whole 64 KiB before the jobs' own
	[ "$(grep -c 'pwrite64(.*, 65536, 0)' "$scratch/trace")" -eq 1 ]
	[ "$(grep -c 'unlinkat(.*"shared"' "$scratch/trace")" -eq 1 ]
	json_is "$result" "jobs.0.runs.0.ops.write.count=16" "jobs.1.runs.0.ops.read.count=16"
	is_empty_dir "$target"
}

# fadvise NAME KEYS...: run a 64 KiB job of two files with the page cache
# kept (no DONTNEED of cache=fadvise) under strace -e fadvise64; the calls,
# without the descriptor, sorted, into $scratch/fadvise.
fadvise_calls() {
	rm -f "$scratch"/trace.*
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 run --separate-stderr strace -ff -qq \
		-e trace=fadvise64 -o "$scratch/trace" "$DBIO" run --output "$result" --progress=none \
		--directory="$target" --size=64k --nrfiles=2 --cache=keep "$@"
	[ "$status" -eq 0 ] || {
		echo "$stderr" >&2
		return 1
	}
	cat "$scratch"/trace.* | grep '^fadvise64(' | sed -E 's/^fadvise64\([0-9]+, /fadvise64(/; s/\) +=/) =/' |
		sort >"$scratch/fadvise"
}

@test "fadvise_hint: fio's values give fio's posix_fadvise at open, over each file's region (strace)" {
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	seq2=$(printf 'fadvise64(0, 32768, POSIX_FADV_SEQUENTIAL) = 0\nfadvise64(0, 32768, POSIX_FADV_SEQUENTIAL) = 0')
	rand2=$(printf 'fadvise64(0, 32768, POSIX_FADV_RANDOM) = 0\nfadvise64(0, 32768, POSIX_FADV_RANDOM) = 0')
	# not given, and 0: no hint (dbio's default)
	fadvise_calls --rw=read
	[ "$(cat "$scratch/fadvise")" = "" ]
	fadvise_calls --rw=randread --fadvise_hint=0
	[ "$(cat "$scratch/fadvise")" = "" ]
	# 1: by rw, as fio (td_random)
	fadvise_calls --rw=read --fadvise_hint=1
	[ "$(cat "$scratch/fadvise")" = "$seq2" ]
	fadvise_calls --rw=randwrite --fadvise_hint=1
	[ "$(cat "$scratch/fadvise")" = "$rand2" ]
	# sequential and random: whatever rw is
	fadvise_calls --rw=randread --fadvise_hint=sequential
	[ "$(cat "$scratch/fadvise")" = "$seq2" ]
	fadvise_calls --rw=write --fadvise_hint=random
	[ "$(cat "$scratch/fadvise")" = "$rand2" ]
	json_is "$result" jobs.0.options.fadvise_hint=random "$R0.ops.write.count=16"
	# the thread's region: from its offset, what it covers
	fadvise_calls --rw=read --fadvise_hint=1 --offset=16k --filesize=64k
	[ "$(cat "$scratch/fadvise")" = "$(printf 'fadvise64(16384, 49152, POSIX_FADV_SEQUENTIAL) = 0\nfadvise64(16384, 49152, POSIX_FADV_SEQUENTIAL) = 0')" ]
}

@test "fadvise_hint: a value fio does not have is refused with fio's values" {
	run --separate-stderr "$DBIO" run --directory="$target" --size=64k --fadvise_hint=noreuse
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'fadvise_hint': bad value 'noreuse': expected one of 0, 1, sequential, random" ]
	run "$DBIO" help fio-keys
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep '^fadvise_hint ' | tr -s ' ')" = "fadvise_hint honoured by workload=fileio" ]
}

@test "filename= written, then read in a later group, in the default ./dbio-scratch (fio's t0029): no warning, nothing left" {
	printf '[global]\nfilename=f\nsize=4k\nverify=crc32c\n[write]\nrw=write\ndo_verify=0\n[read]\nstonewall=1\nrw=read\nloops=2\ndo_verify=1\n' >j.fio
	run --separate-stderr "$DBIO" run j.fio --output-format=json
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	echo "$output" >fio.json
	json_is fio.json "jobs.0.write.io_kbytes=4" "jobs.1.read.io_kbytes=8"
	[ ! -e dbio-scratch ]
}
