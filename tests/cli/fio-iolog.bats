#!/usr/bin/env bats
# fio's iologs and filename_format, with fio's meaning (docs/fio.md, "I/O
# logs: read_iolog and write_iolog"): a log fio 3.33 wrote, replayed by
# dbio, does what fio's own replay of it does (reads, writes and syncs,
# bytes per direction); a log dbio wrote, replayed by fio, does what dbio
# did; version 2 logs, the replay keys (replay_no_stall, replay_time_scale,
# replay_redirect, replay_align, replay_scale, replay_skip,
# read_iolog_chunked); each bad line refused with its line; the log and
# every file it names treated as input of another user (a planted symlink,
# a device, '..'); write_iolog's path guarded as --output is;
# filename_format's names as fio makes them, and its escapes refused.

load helpers

need_fio() {
	command -v fio >/dev/null || skip "fio is not installed (scripts/install-deps installs it)"
}

# bytes_of dbio|fio FILE: "op bytes" for the reads, writes and trims of the
# first job of a dbio result or of fio's JSON.
bytes_of() {
	"$PYTHON" - "$@" <<'EOF'
import json, sys
r = json.load(open(sys.argv[2]))
for op in ("read", "write", "trim"):
    if sys.argv[1] == "fio":
        print(op, r["jobs"][0][op]["io_bytes"])
    else:
        o = r["jobs"][0]["runs"][0]["ops"].get(op)
        print(op, o["bytes"] if o else 0)
EOF
}

# log LINE...: the iolog v.log of these lines.
log() {
	printf '%s\n' "$@" >v.log
}

@test "a log fio wrote: dbio's replay does what fio's replay of it does, op for op and byte for byte" {
	need_fio
	printf '[rep]\nrw=randrw\nbs=4k\nsize=256k\nnrfiles=2\nfsync=3\n' >w.fio
	fio --directory="$target" --write_iolog=fio.log --output=/dev/null w.fio
	[ "$(head -1 fio.log)" = "fio version 3 iolog" ]
	printf '[rep]\nread_iolog=fio.log\n' >r.fio
	fio --output-format=json --output=fio.json r.fio >/dev/null
	# dbio replays onto files it makes, as for filename=: fio's go first
	rm -f "$target"/*
	dbio_ok r.fio
	fio_counts fio.json >fio.counts
	counts "$result" >dbio.counts
	grep -q '^rep sync ' fio.counts
	diff fio.counts dbio.counts
	bytes_of fio fio.json >fio.bytes
	bytes_of dbio "$result" >dbio.bytes
	diff fio.bytes dbio.bytes
	# the log's two files, in the log's directory, removed at the end
	json_is "$result" jobs.0.options.nrfiles=2 "jobs.0.options.directory=$target"
	is_empty_dir "$target"
}

@test "a log dbio wrote (fio 3.33's version 3): fio's replay of it does what dbio did" {
	need_fio
	dbio_ok --name=cap --rw=randrw --bs=4k --size=256k --nrfiles=2 --fsync=3 --directory="$target" --write_iolog=dbio.log --keep
	counts "$result" >dbio.counts
	[ "$(head -1 dbio.log)" = "fio version 3 iolog" ]
	grep -qx "0 $target/dbio.cap.0.1 add" dbio.log
	[ "$(grep -c ' read ' dbio.log)" -eq "$(jpy "$result" 'run["ops"]["read"]["count"]')" ]
	# fio replays onto the files dbio kept
	fio --name=cap --read_iolog=dbio.log --output-format=json --output=fio.json >/dev/null
	fio_counts fio.json >fio.counts
	grep -q '^cap sync ' dbio.counts
	diff dbio.counts fio.counts
	bytes_of fio fio.json >fio.bytes
	bytes_of dbio "$result" >dbio.bytes
	diff dbio.bytes fio.bytes
	# and dbio's own replay of it, onto files it makes anew
	rm -f "$target"/*
	mv "$result" first.json
	dbio_ok --name=cap --read_iolog=dbio.log
	counts "$result" >again.counts
	diff dbio.counts again.counts
}

@test "a queued engine's log: fio writes it at iodepth 8, dbio replays its reads and writes" {
	need_fio
	need_queued_engine
	local e
	e=$(queued_engines_of_build | head -1)
	printf '[q]\nrw=randrw\nbs=4k\nsize=128k\nioengine=%s\niodepth=8\n' "$e" >w.fio
	fio --directory="$target" --write_iolog=q.log --output=/dev/null w.fio
	fio --name=q --read_iolog=q.log --ioengine="$e" --iodepth=8 --output-format=json --output=fio.json >/dev/null
	rm -f "$target"/*
	dbio_ok --name=q --read_iolog=q.log --ioengine="$e" --iodepth=8
	fio_counts fio.json >fio.counts
	counts "$result" >dbio.counts
	diff fio.counts dbio.counts
}

@test "a version 2 log: reads, writes, syncs and datasyncs as written, the same as fio's replay" {
	need_fio
	log "fio version 2 iolog" "a add" "b add" "a open" "b open" \
		"a write 0 8192" "b write 4096 4096" "a sync 0 0" "b datasync 0 0" \
		"a read 0 4096" "b read 4096 4096" "a write 16384 4096" "a close" "b close"
	dbio_ok --name=v2 --read_iolog=v.log --directory="$target"
	json_is "$result" "$R0.ops.read.count=2" "$R0.ops.read.bytes=8192" "$R0.ops.write.count=3" \
		"$R0.ops.write.bytes=16384" "$R0.ops.fsync.count=1" "$R0.ops.fdatasync.count=1" \
		jobs.0.options.nrfiles=2 jobs.0.options.filesize=24576
	# fio lays its files out from its own size: give it files to replay on
	(cd "$target" && fio --name=v2 --read_iolog=../v.log --output-format=json --output=../fio.json >/dev/null)
	fio_counts fio.json >fio.counts
	counts "$result" >dbio.counts
	diff fio.counts dbio.counts
}

@test "read_iolog_chunked=1 replays the same log the same way" {
	log "fio version 3 iolog" "0 f add" "1 f open" "2 f write 0 4096" "3 f write 4096 4096" "4 f read 0 4096" "5 f close"
	dbio_ok --name=c --read_iolog=v.log --read_iolog_chunked=1 --directory="$target"
	json_is "$result" "$R0.ops.write.count=2" "$R0.ops.read.count=1"
}

@test "numjobs=2: each clone replays the whole log on the same files, as fio's clones" {
	log "fio version 3 iolog" "0 f add" "1 f open" "2 f write 0 4096" "3 f write 4096 4096" "5 f close"
	dbio_ok --name=n --read_iolog=v.log --numjobs=2 --directory="$target"
	json_is "$result" "$R0.ops.write.count=4" jobs.0.options.nrfiles=1
}

@test "version 3 timestamps are kept: runtime= ends a replay whose next line is 1000 s later; replay_no_stall issues it at once" {
	log "fio version 3 iolog" "0 f add" "0 f open" "10 f write 0 4096" "1000000000 f write 4096 4096" "1000000001 f close"
	dbio_ok --name=t --read_iolog=v.log --runtime=1 --directory="$target"
	json_is "$result" "$R0.ops.write.count=1"
	[ "$(jpy "$result" 'run["elapsed_ns"] >= 1e9')" = true ]
	dbio_ok --name=t --read_iolog=v.log --replay_no_stall=1 --directory="$target"
	json_is "$result" "$R0.ops.write.count=2"
}

@test "a version 2 wait line waits until its milliseconds after the start (fio 3.33's code)" {
	log "fio version 2 iolog" "f add" "f open" "f write 0 4096" "f wait 1000 0" "f write 4096 4096" "f close"
	dbio_ok --name=w --read_iolog=v.log --directory="$target"
	json_is "$result" "$R0.ops.write.count=2"
	[ "$(jpy "$result" 'run["elapsed_ns"] >= 1e9')" = true ]
}

@test "replay_time_scale=50 runs a log at half its pace: 0.5 s between two writes takes 1 s" {
	log "fio version 3 iolog" "0 f add" "0 f open" "0 f write 0 4096" "500000 f write 4096 4096" "500001 f close"
	dbio_ok --name=t --read_iolog=v.log --replay_time_scale=50 --directory="$target"
	json_is "$result" "$R0.ops.write.count=2"
	[ "$(jpy "$result" 'run["elapsed_ns"] >= 1e9')" = true ]
}

@test "replay_scale, replay_align, replay_skip and replay_redirect change the replayed I/O as fio's" {
	log "fio version 3 iolog" "0 a add" "0 b add" "0 a open" "0 b open" \
		"1 a write 8192 4096" "2 b write 20480 4096" "3 a read 8192 4096" "4 b sync 0 0" "5 a close" "5 b close"
	# offsets halved, then aligned down to 8 KiB; the read and sync left out;
	# every I/O onto one file (what dbio did, read back from its own log)
	dbio_ok --name=s --read_iolog=v.log --replay_scale=2 --replay_align=8k --replay_skip=read,sync \
		--replay_redirect=one --directory="$target" --write_iolog=did.log
	json_is "$result" "$R0.ops.write.count=2" jobs.0.options.nrfiles=1
	jpy "$result" '"read" in run["ops"] and run["ops"]["read"]["count"] or 0' | grep -qx 0
	[ "$(grep -c ' write ' did.log)" -eq 2 ]
	grep -q " $target/one write 0 4096\$" did.log
	grep -q " $target/one write 8192 4096\$" did.log
	run grep -c " $target/one add\$" did.log
	[ "$output" -eq 1 ]
}

@test "the null engine touches no file: a log naming /dev/null replays (fio's t0038: large trims, small writes)" {
	log "fio version 3 iolog" "30 /dev/null add" "40 /dev/null open" "50 /dev/null trim 0 2147483648" \
		"60 /dev/null write 0 4096" "70 /dev/null trim 4096 2147483648" "80 /dev/null write 4096 4096" "90 /dev/null close"
	dbio_ok --name=n --read_iolog=v.log --ioengine=null --iodepth=128
	json_is "$result" "$R0.ops.write.count=2" "$R0.ops.trim.count=2" "$R0.ops.trim.bytes=4294967296"
}

@test "each bad line of a log is refused with its line, what was wrong and what is accepted" {
	local acc="expected '[TIME ]FILE add|open|close' or '[TIME ]FILE read|write|trim|sync|datasync OFFSET LENGTH' (TIME in microseconds, version 3 only; 'FILE wait MS 0' in version 2)"
	printf '[b]\nread_iolog=v.log\n' >b.fio
	log "fio version 1 iolog"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:1: the first line is 'fio version 1 iolog': expected 'fio version 2 iolog' or 'fio version 3 iolog' (fio's iolog version 1 and blktrace's traces are not replayed) (job 'b')"
	log "fio version 2 iolog" "x add" "x open" "x read 0 4096 9"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:4: 5 fields: $acc (job 'b')"
	log "fio version 2 iolog" "x add" "x open" "x frob 0 4096"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:4: unknown action 'frob': $acc (job 'b')"
	log "fio version 2 iolog" "x add" "x open" "x read 0x10 4096"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:4: '0x10 4096': the offset and length are bytes, decimal (job 'b')"
	log "fio version 2 iolog" "x add" "x read 0 4096"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:3: 'x' is not open: an 'open' line comes before its read (job 'b')"
	log "fio version 2 iolog" "x add" "x open" "y write 0 4096"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:4: 'y' was not added: an 'add' line names a file before any other line does (job 'b')"
	log "fio version 2 iolog" "x add" "x add"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:3: 'x' is added twice (job 'b')"
	log "fio version 2 iolog" "x add" "x open" "x write 9223372036854771712 4096"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:4: a write of 4096 bytes at 9223372036854771712: past byte 9223372035781033983, the end of dbio's largest file (2^63 - 1 GiB) (job 'b')"
	log "fio version 2 iolog" "x add" "x open" "x read 0 0"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:4: a read of 0 bytes (job 'b')"
	log "fio version 2 iolog" "x add" "x open" "x sync"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:4: 'sync' takes an offset and a length: $acc (job 'b')"
	log "fio version 3 iolog" "1 x add" "2 x open" "3 x wait 0 4096"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:4: 'wait' is version 2's: a version 3 log times each line by its timestamp (job 'b')"
	log "fio version 3 iolog" "x add"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:2: 'x' is not a timestamp: a version 3 line starts with the microseconds since the start; $acc (job 'b')"
	log "fio version 3 iolog" "1 x add" "2 x open" "3 x close"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log: no read, write, trim or sync to replay (after replay_skip) (job 'b')"
	log "fio version 2 iolog" "x add" "x open" "x write 0 4096"
	refused_file b.fio "dbio: command line: key 'replay_skip': 'reads' in 'reads': expected a comma list of read, write, sync, trim (job 'b')" --replay_skip=reads
	refused_file b.fio "dbio: command line: key 'replay_align': 3000 is not a power of 2 (job 'b')" --replay_align=3000
	log "fio version 2 iolog" "x add" "x open" "x write 100 4096"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:4: a write of 4096 bytes at 100: direct=1 needs multiples of 512 (job 'b')" --direct=1
	refused_file b.fio "dbio: command line: key 'rate': does not apply with read_iolog=: the log says which I/O is done, where and when; drop the key (job 'b')" --rate=1m
}

@test "the replay keys without read_iolog, write_iolog with numjobs=2, and either with workload=oltp are refused" {
	run --separate-stderr "$DBIO" run --name=x --replay_no_stall=1 --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'replay_no_stall': applies to a replay only: give read_iolog=FILE (job 'x')" ]
	run --separate-stderr "$DBIO" run --name=x --write_iolog=w.log --numjobs=2 --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'write_iolog': with numjobs=2: fio's clones would intersperse their lines in one file; give numjobs=1, or a job section of its own with its own write_iolog (job 'x')" ]
	need_built workload=oltp
	run --separate-stderr "$DBIO" run --name=x --workload=oltp --write_iolog=w.log --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'write_iolog': not for workload=oltp: only workload=fileio replays or writes fio's iologs (job 'x')" ]
	[ ! -e w.log ]
}

@test "a log's files stay in one directory it names: '..', a relative path, a device, two directories are refused" {
	printf '[b]\nread_iolog=v.log\n' >b.fio
	log "fio version 2 iolog" "../x add" "../x open" "../x write 0 4096"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log: file '../x' is not in directory=$target: a replayed file is a name in directory=, or a path in one directory without directory=, as filename= is (job 'b')"
	log "fio version 2 iolog" ".. add" ".. open" ".. write 0 4096"
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log: file '..': not a file's name; a replayed file is a name in directory= or an absolute path in one directory, as filename= is (job 'b')"
	# without directory=: the path of the log's first file is the job's directory
	printf '[b]\nread_iolog=v.log\n' >nodir.fio
	log "fio version 2 iolog" "$target/../x add" "$target/../x open" "$target/../x write 0 4096"
	run --separate-stderr "$DBIO" run nodir.fio
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: nodir.fio:2: key 'read_iolog': v.log: file '$target/../x': '.' or '..' in its path; a replayed file is named by its own directory (job 'b')" ]
	log "fio version 2 iolog" "/dev/sda add" "/dev/sda open" "/dev/sda write 0 4096"
	run --separate-stderr "$DBIO" run nodir.fio
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: nodir.fio:2: key 'read_iolog': v.log: file '/dev/sda' is a device: dbio replays onto files it creates; give replay_redirect=NAME (a file in directory=) (job 'b')" ]
	mkdir -p "$target/a" "$target/b"
	log "fio version 2 iolog" "$target/a/x add" "$target/b/y add" "$target/a/x open" "$target/a/x write 0 4096"
	run --separate-stderr "$DBIO" run nodir.fio
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: nodir.fio:2: key 'read_iolog': v.log: file '$target/b/y' is not in $target/a, as the log's first file: dbio replays a log's files in one directory (give replay_redirect= for one file) (job 'b')" ]
	run --separate-stderr "$DBIO" run nodir.fio --replay_redirect=/dev/sda
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'replay_redirect': v.log: file '/dev/sda' is a device: dbio replays onto files it creates; give replay_redirect=NAME (a file in directory=) (job 'b')" ]
}

@test "a symlink planted where the log names a file is not followed: the replay is refused and its target left alone" {
	echo precious >victim
	ln -s "$scratch/victim" "$target/f"
	log "fio version 3 iolog" "0 f add" "0 f open" "1 f write 0 4096" "2 f close"
	run --separate-stderr "$DBIO" run --name=p --read_iolog=v.log --directory="$target" --output="$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $target: holds files that are not dbio's (such as 'f'): refusing to work there; choose an empty directory or pass --force" ]
	# --force lets dbio work beside foreign files, never on them
	run --separate-stderr "$DBIO" run --name=p --read_iolog=v.log --directory="$target" --output="$result" --force
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $target/f: a file the replayed log names exists, and dbio replays only onto files it creates (and removes): remove it (key 'read_iolog', job 'p')" ]
	[ "$(cat victim)" = precious ]
	[ -L "$target/f" ]
	[ ! -e "$result" ]
}

@test "a log that is another user's symlink, a directory or a device is refused before anything runs" {
	printf '[b]\nread_iolog=%s\n' /dev/zero >dev.fio
	refused_file dev.fio "dbio: dev.fio:2: key 'read_iolog': /dev/zero: not a regular file: dbio replays an iolog file (fio's '-' for stdin, a socket or a device are refused) (job 'b')"
	printf '[b]\nread_iolog=missing.log\n' >m.fio
	refused_file m.fio "dbio: m.fio:2: key 'read_iolog': missing.log: cannot open: No such file or directory (job 'b')"
	[ "$(id -u)" -eq 0 ] || skip "needs root to plant a symlink owned by another user"
	log "fio version 3 iolog" "0 f add" "0 f open" "1 f write 0 4096"
	ln -s "$scratch/v.log" planted.log
	chown -h nobody planted.log
	printf '[b]\nread_iolog=planted.log\n' >s.fio
	refused_file s.fio "dbio: key 'read_iolog': planted.log: a symlink that belongs to user $(id -u nobody): refusing to follow it (give the path it points to)"
}

@test "a file that is no iolog has none of its content shown; '-' (fio's stdin) and a write_iolog onto the replayed log are refused" {
	printf 'root:$6$secret:20228:0:99999:7:::\nx add\n' >notlog
	printf '[b]\nread_iolog=notlog\n' >b.fio
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': notlog:1: not an fio iolog (its content is not shown): the first line must be 'fio version 2 iolog' or 'fio version 3 iolog' (job 'b')"
	[[ "$stderr" != *secret* ]]
	# a line after the header is quoted, its control characters escaped
	log "fio version 2 iolog" "x add" "x open" $'x fr\033[2Job 0 4096'
	printf '[b]\nread_iolog=v.log\n' >b.fio
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:4: unknown action 'fr\\x1b[2Job': expected '[TIME ]FILE add|open|close' or '[TIME ]FILE read|write|trim|sync|datasync OFFSET LENGTH' (TIME in microseconds, version 3 only; 'FILE wait MS 0' in version 2) (job 'b')"
	log "fio version 2 iolog" "x add" "x open" "x write 0 4096"
	cp v.log -
	printf '[b]\nread_iolog=-\n' >b.fio
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': '-' is fio's stdin, which dbio does not replay: give the log's file (./- for a file of that name) (job 'b')"
	printf '[b]\nread_iolog=v.log\nwrite_iolog=./same.log\n' >b.fio
	ln -s v.log same.log
	refused_file b.fio "dbio: b.fio:3: key 'write_iolog': ./same.log is the file read_iolog=v.log replays: it would be overwritten; give write_iolog= another path (job 'b')"
	ln v.log hard.log
	printf '[b]\nread_iolog=v.log\nwrite_iolog=hard.log\n' >b.fio
	refused_file b.fio "dbio: b.fio:3: key 'write_iolog': hard.log is the file read_iolog=v.log replays: it would be overwritten; give write_iolog= another path (job 'b')"
	[ "$(cat v.log)" = "$(printf 'fio version 2 iolog\nx add\nx open\nx write 0 4096')" ]
	is_empty_dir "$target"
}

@test "write_iolog with a queued engine logs in issue order, as fio: the timestamps never go back" {
	need_built ioengine=io_uring
	dbio_ok --name=q --rw=randrw --bs=4k --size=256k --ioengine=io_uring --iodepth=8 --nrfiles=2 '--filename_format=q.$filenum' --write_iolog=q.log --directory="$target"
	[ "$(grep -cE ' (read|write) ' q.log)" -eq 64 ]
	sed 1d q.log | awk 'NR > 1 && $1 < last { print "line " NR + 1 ": " $0 " after " last; bad = 1 } { last = $1 } END { exit bad }'
}

@test "write_iolog's path is guarded as --output is: another user's symlink, a device refused before the run; a regular file replaced whole" {
	refused_file_cmd() {
		rm -f "$result"
		run --separate-stderr "$DBIO" run --name=w --size=64k --directory="$target" --output="$result" "$@"
		[ "$status" -eq 2 ]
		[ ! -e "$result" ]
		is_empty_dir "$target"
	}
	refused_file_cmd --write_iolog=/dev/null
	[ "$stderr" = "dbio: command line: key 'write_iolog': /dev/null: not a regular file: dbio writes an iolog to a new or regular file only (job 'w')" ]
	refused_file_cmd --write_iolog="$target"
	echo old >w.log
	dbio_ok --name=w --size=64k --directory="$target" --write_iolog=w.log
	[ "$(head -1 w.log)" = "fio version 3 iolog" ]
	[ "$(grep -c ' read ' w.log)" -eq 16 ]
	[ "$(id -u)" -eq 0 ] || skip "needs root to plant a symlink owned by another user"
	echo precious >victim
	ln -s "$scratch/victim" s.log
	chown -h nobody s.log
	refused_file_cmd --write_iolog=s.log
	[ "$stderr" = "dbio: write_iolog s.log: a symlink that belongs to user $(id -u nobody): refusing to follow it (give the path it points to)" ]
	[ "$(cat victim)" = precious ]
}

@test "filename_format names the files as fio does: per thread with \$jobnum, shared without it" {
	need_fio
	printf '[ff]\nrw=write\nbs=4k\nsize=64k\nnumjobs=2\nnrfiles=2\nfilename_format=t.$jobnum.$FileNum\n' >f.fio
	dbio_ok f.fio --directory="$target" --keep
	ls "$target" >dbio.names
	json_is "$result" "$R0.ops.write.count=32"
	rm -rf "$target" && mkdir "$target"
	fio --directory="$target" --output=/dev/null f.fio
	ls "$target" >fio.names
	diff fio.names dbio.names
	[ "$(cat dbio.names | tr '\n' ' ')" = "t.0.0 t.0.1 t.1.0 t.1.1 " ]
	# without $jobnum, every thread's names are the same files (fio's sharing)
	rm -rf "$target" && mkdir "$target"
	printf '[ff]\nrw=write\nbs=4k\nsize=64k\nnumjobs=2\nnrfiles=2\nfilename_format=$jobname.shared.$filenum$clientuid\n' >s.fio
	dbio_ok s.fio --directory="$target" --keep
	[ "$(ls "$target" | tr '\n' ' ')" = "ff.shared.0 ff.shared.1 " ]
	json_is "$result" "$R0.ops.write.count=32"
}

@test "filename_format: an absolute format names the directory; '..', '/', a device, two files of one name are refused" {
	dbio_ok --name=abs --size=64k "--filename_format=$target/\$jobname.data" --keep
	[ "$(ls "$target")" = "abs.data" ]
	rm -f "$target"/*
	refused() {
		run --separate-stderr "$DBIO" run --name=ff --size=64k --output="$result" "$@"
		[ "$status" -eq 2 ]
		is_empty_dir "$target"
	}
	refused --directory="$target" '--filename_format=../$jobname'
	[ "$stderr" = "dbio: command line: key 'filename_format': '../\$jobname' makes '../ff' for thread 0's file 0: expected the name of a file in directory= (no '/', not '.' or '..'; dbio makes no subdirectories) (job 'ff')" ]
	refused --directory="$target" '--filename_format=sub/$filenum'
	[ "$stderr" = "dbio: command line: key 'filename_format': 'sub/\$filenum' makes 'sub/0' for thread 0's file 0: expected the name of a file in directory= (no '/', not '.' or '..'; dbio makes no subdirectories) (job 'ff')" ]
	refused --directory="$target" '--filename_format=/tmp/x'
	[ "$stderr" = "dbio: command line: key 'filename_format': '/tmp/x': an absolute path beside directory=$target: fio would make it under directory=; give names in directory= (no '/') or no directory= (job 'ff')" ]
	refused '--filename_format=/tmp/$jobname/x'
	[ "$stderr" = "dbio: command line: key 'filename_format': '/tmp/\$jobname/x': its directory holds a keyword, '.' or '..': dbio makes a job's files in one directory, named plainly (job 'ff')" ]
	refused '--filename_format=/dev/sda'
	[ "$stderr" = "dbio: command line: key 'filename_format': '/dev/sda' is a device: dbio formats and measures a device only in \`dbio matrix --device\`; give names of files (job 'ff')" ]
	refused --directory="$target" --nrfiles=2 '--filename_format=$jobname'
	[ "$stderr" = "dbio: command line: key 'filename_format': '\$jobname' gives the 2 files of a thread one name: add \$filenum (job 'ff')" ]
	refused --directory="$target" --filename=a '--filename_format=$jobname'
	[ "$stderr" = "dbio: command line: key 'filename_format': filename= names the files: give one of the two (job 'ff')" ]
}

@test "filename_format: two threads' files of one name, control characters, and the shared list's limit are refused before the run, saying what is accepted" {
	refused() {
		run --separate-stderr "$DBIO" run --name=a --rw=write --directory="$target" --output="$result" "$@"
		[ "$status" -eq 2 ]
		[ ! -e "$result" ]
		is_empty_dir "$target"
	}
	refused --bs=4k --size=44k --numjobs=12 --nrfiles=11 '--filename_format=$jobnum$filenum'
	[ "$stderr" = "dbio: command line: key 'filename_format': '\$jobnum\$filenum' makes '110' for thread 1's file 10 and for thread 11's file 0: expected a name of its own for each; put a separator between the keywords (\$jobnum.\$filenum) (job 'a')" ]
	refused --size=64k $'--filename_format=a\tb'
	[ "$stderr" = "dbio: command line: key 'filename_format': 'a\\x09b' makes a name with a control character (tab, newline, ...) or bytes that are not UTF-8 for thread 0's file 0: expected printable names (job 'a')" ]
	refused --size=64k $'--filename_format=a\nb$filenum'
	[ "$stderr" = "dbio: command line: key 'filename_format': 'a\\x0ab\$filenum' makes a name with a control character (tab, newline, ...) or bytes that are not UTF-8 for thread 0's file 0: expected printable names (job 'a')" ]
	refused --bs=512 --size=5120000 --nrfiles=10000 '--filename_format=f$filenum'
	[ "$stderr" = "dbio: command line: key 'filename_format': 'f\$filenum': the names of its 10000 shared files, joined by ':', take more than the 16383 bytes of filename='s list (at file 2915, 'f2915'): give fewer files or shorter names, or \$jobnum with numjobs above 1 (files of each thread's own have no such limit) (job 'a')" ]
	# 1000 shared files fit, and are written once each
	dbio_ok --name=a --rw=write --bs=512 --size=512000 --nrfiles=1000 '--filename_format=f$filenum' --directory="$target"
	json_is "$result" "$R0.ops.write.count=1000"
	# the numbers run together but each pair's name is its own: it runs
	dbio_ok --name=a --rw=write --bs=4k --size=8k --numjobs=2 --nrfiles=2 '--filename_format=$jobnum.$filenum' --directory="$target"
	json_is "$result" "$R0.ops.write.count=4"
}

@test "a log of 1000 files replays them all; over 4096 files, or names past filename='s 16 KiB, are refused with the limit" {
	"$PYTHON" -c '
import sys
n, pre = int(sys.argv[1]), sys.argv[2]
print("fio version 2 iolog")
for v in ("add", "open", "write 0 512"):
    for i in range(n): print("%s%d %s" % (pre, i, v))' 1000 f >v.log
	dbio_ok --name=m --read_iolog=v.log --directory="$target"
	json_is "$result" "$R0.ops.write.count=1000" "$R0.ops.write.bytes=512000"
	printf '[b]\nread_iolog=v.log\n' >b.fio
	"$PYTHON" -c '
import sys
print("fio version 2 iolog")
for i in range(4097): print("f%d add" % i)' >v.log
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log:4098: file 4097 ('f4096'): dbio replays logs of at most 4096 files (job 'b')"
	"$PYTHON" -c '
print("fio version 2 iolog")
for i in range(4000): print("a_long_file_name_%d add" % i)
print("a_long_file_name_0 open")
print("a_long_file_name_0 write 0 512")' >v.log
	refused_file b.fio "dbio: b.fio:2: key 'read_iolog': v.log: the names of its 4000 files, joined by ':', take more than the 16383 bytes of filename='s list (at file 'a_long_file_name_785'): dbio replays logs whose names fit; give shorter names (job 'b')"
	is_empty_dir "$target"
}

@test "filename_format: a file of the format's name that is already there is not dbio's, and is left alone" {
	echo precious >"$target/ff.0"
	run --separate-stderr "$DBIO" run --name=ff --size=64k --directory="$target" '--filename_format=$jobname.$filenum' --output="$result"
	[ "$status" -ne 0 ]
	[ "$(cat "$target/ff.0")" = precious ]
	[ ! -e "$result" ]
}
