#!/usr/bin/env bats
# fio's verify keys (docs/fio.md, Verification): a job that writes with
# verify= reads every block back and checks it (fio's op counts: the reads
# show as reads), verify_backlog, do_verify=0, loops; a job that only reads
# checks what it reads; a later group works on the file an earlier one
# wrote (fio's surface-scan); bytes flipped in N blocks of a kept file give
# exactly N reports and exit 1; the values dbio refuses, each with its
# reason; what a reopened file must be (no symlink, no hard link); and
# fio's verify state between runs (verify_state_save with --keep, then
# verify_state_load: fio 3.33's counts, t0036, t0037) with what a state
# file must be (dbio's mark, every field; no symlink, no device node).

load helpers

# corrupt FILE BLOCK...: 8 bytes of 'X' into each 4 KiB BLOCK of FILE, 100
# bytes in (past the header: the checksum of the data catches it).
corrupt() {
	local file=$1 b
	shift
	for b in "$@"; do
		printf 'XXXXXXXX' | dd of="$file" bs=1 seek=$((b * 4096 + 100)) conv=notrunc status=none
	done
}

# need_verify VALUE...: skip, naming the package, when this build left out
# one of these verify= values (libxxhash-dev, libssl-dev).
need_verify() {
	local v what
	for v; do
		what=$(left_out_text | grep -o "verify=$v ([^)]*)") || true
		[ -z "$what" ] || skip "this build left out $what"
	done
}

# kept_job RW SIZE VERIFY: w.fio, one job writing the file data with 4 KiB
# blocks (to keep with --keep and read back with --verify_only=1).
kept_job() {
	printf '[w]\nrw=%s\nbs=4k\nsize=%s\nfilename=data\nverify=%s\n' "$1" "$2" "$3" >w.fio
}

# reports: how many lines of dbio's stderr report a bad block.
reports() {
	grep -c 'verify=[a-z0-9-]*: block of [0-9]* bytes at offset' <<<"$stderr" || true
}

# copy_block FROM TO N: 4 KiB block N of file FROM over block N of TO.
copy_block() {
	dd if="$1" of="$2" bs=4096 skip="$3" seek="$3" count=1 conv=notrunc status=none
}

# one_bad_block JOBFILE DIR LINE [KEY...]: verify_only of JOBFILE's kept
# files in DIR exits 1 reporting one bad block, with LINE (a grep -x
# pattern) among its lines.
one_bad_block() {
	local job=$1 dir=$2 line=$3
	shift 3
	run --separate-stderr "$DBIO" run "$job" --directory="$dir" --force --verify_only=1 "$@"
	[ "$status" -eq 1 ]
	[ "$(reports)" -eq 1 ]
	grep -qx "$line" <<<"$stderr"
}

@test "fio verify: writes are read back and checked: fio's op counts, every checksum, loops, backlog, do_verify=0" {
	need_verify md5 sha256 xxhash sha512 sha1
	cat >j.fio <<'EOF'
[global]
bs=4k
size=1m
stonewall
[seq]
rw=write
verify=crc32c
[rand]
rw=randwrite
verify=md5
[loops]
rw=write
loops=2
verify=sha256
[backlog]
rw=randwrite
verify=xxhash
verify_backlog=16
[backlog-odd]
rw=write
verify=crc32c-intel
verify_backlog=100
[interval]
rw=randwrite
bs=16k
verify=sha512
verify_interval=4k
[meta-pattern]
rw=write
verify=meta
verify_pattern=0xaa555aa5
[pattern]
rw=write
verify=pattern
verify_pattern="dbio"
[no-read-back]
rw=write
verify=sha1
do_verify=0
[null]
rw=write
verify=null
EOF
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'backlog read 256\nbacklog write 256\nbacklog-odd read 256\nbacklog-odd write 256\ninterval read 64\ninterval write 64\nloops read 512\nloops write 512\nmeta-pattern read 256\nmeta-pattern write 256\nno-read-back write 256\nnull read 256\nnull write 256\npattern read 256\npattern write 256\nrand read 256\nrand write 256\nseq read 256\nseq write 256')" ]
	json_is "$result" jobs.0.options.verify=crc32c jobs.0.options.do_verify=true
}

@test "fio verify: every engine reads back what it wrote, and a job that only reads checks it" {
	for e in psync sync pvsync2 mmap $(queued_engines_of_build); do
		[ -z "$(why_not_here "$e")" ] || continue
		rm -rf "$target" && mkdir "$target"
		# shellcheck disable=SC2046
		dbio_ok --directory="$target" --rw=randwrite --size=1m --verify=crc32c $(engine_keys "$e")
		[ "$(jpy "$result" 'run["ops"]["read"]["count"] == run["ops"]["write"]["count"] == 256')" = true ] || {
			echo "$e: $(jpy "$result" '[run["ops"][t]["count"] for t in ("read", "write")]')" >&2
			false
		}
	done
	# a job that reads a file dbio laid out (no headers) finds no header in any block
	run --separate-stderr "$DBIO" run --output "$result" --directory="$target" --rw=read --size=64k --verify=crc32c
	[ "$status" -eq 1 ]
	[ "$(reports)" -eq 16 ]
	[[ "$stderr" == *"job.0.0: verify=crc32c: 16 of 16 blocks read back did not match what was written"* ]]
	[[ "$stderr" == *"verify=crc32c: block of 4096 bytes at offset 0: no header: magic expected 0xacca, found "* ]]
}

@test "fio verify: a stonewalled job reads and checks the file an earlier group wrote (fio's surface-scan), which goes at the end" {
	cat >j.fio <<'EOF'
[global]
bs=64k
size=4m
ioengine=sync
verify=meta
verify_pattern=0xaa555aa5
verify_interval=512
[write-phase]
filename=datafile.tmp
rw=write
fill_device=0
do_verify=0
[verify-phase]
stonewall
create_serialize=0
filename=datafile.tmp
rw=read
do_verify=1
EOF
	dbio_ok j.fio --directory="$target"
	is_empty_dir "$target"
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'verify-phase read 64\nwrite-phase write 64')" ]
}

@test "fio verify: bytes flipped in 3 blocks of a kept file: verify_only reports exactly those 3 and exits 1, and leaves the file" {
	kept_job randwrite 1m crc32c
	dbio_ok w.fio --directory="$target" --keep
	[ "$(jpy "$result" 'run["ops"]["read"]["count"]')" = 256 ]
	corrupt "$target/data" 3 17 200
	run --separate-stderr "$DBIO" run w.fio --directory="$target" --force --verify_only=1 --output="$result"
	[ "$status" -eq 1 ]
	[ "$(reports)" -eq 3 ]
	[[ "$stderr" == *"$target/data: verify=crc32c: 3 of 256 blocks read back did not match what was written"* ]]
	for off in 12288 69632 819200; do
		grep -q "^dbio: $target/data: verify=crc32c: block of 4096 bytes at offset $off: crc32c of the data expected 0x[0-9a-f]\{8\}, found 0x[0-9a-f]\{8\}$" <<<"$stderr"
	done
	# verify_only wrote nothing
	[ "$(jpy "$result" '[j["runs"][0]["ops"]["write"]["count"] for j in r["jobs"]]')" = "[0]" ]
	[ -f "$target/data" ]
	# verify_fatal: the first bad block stops the job
	run --separate-stderr "$DBIO" run w.fio --directory="$target" --force --verify_only=1 --verify_fatal=1
	[ "$status" -eq 1 ]
	[ "$(reports)" -eq 1 ]
	[[ "$stderr" == *"1 of "*" blocks read back did not match what was written (verify_fatal: stopped at the first)"* ]]
}

@test "fio verify: with a queued engine too, verify_only of a kept file writes nothing and reports exactly the 3 flipped blocks" {
	[ -z "$(why_not_here libaio)" ] || skip "$(why_not_here libaio)"
	printf '[w]\nrw=randwrite\nbs=4k\nsize=1m\nfilename=data\nverify=crc32c\nioengine=libaio\niodepth=8\ndirect=1\n' >w.fio
	dbio_ok w.fio --directory="$target" --keep
	corrupt "$target/data" 3 17 200
	run --separate-stderr "$DBIO" run w.fio --directory="$target" --force --verify_only=1 --output="$result"
	[ "$status" -eq 1 ]
	[ "$(reports)" -eq 3 ]
	[[ "$stderr" == *"$target/data: verify=crc32c: 3 of 256 blocks read back did not match what was written"* ]]
	json_is "$result" "$R0.ops.read.count=256" "$R0.ops.write.count=0"
	# the corruption is still there: nothing was written over it
	[ "$(dd if="$target/data" bs=1 skip=$((17 * 4096 + 100)) count=8 status=none)" = XXXXXXXX ]
}

@test "fio verify: a block written elsewhere is caught by its header, verify_dump shows the header found" {
	need_verify xxhash
	kept_job write 64k xxhash
	dbio_ok w.fio --directory="$target" --keep
	dd if="$target/data" of="$target/data" bs=4096 skip=5 seek=9 count=1 conv=notrunc status=none
	run --separate-stderr "$DBIO" run w.fio --directory="$target" --force --verify_only=1 --verify_dump=1
	[ "$status" -eq 1 ]
	[ "$(reports)" -eq 1 ]
	grep -q "^dbio: $target/data: verify=xxhash: block of 4096 bytes at offset 36864: offset in the header expected 36864, found 20480 (a block written elsewhere); header bytes found: caac020f00100000" <<<"$stderr"
}

@test "fio verify: a block of a run with another randseed, copied to the same offset, is caught by the seed in its header" {
	kept_job write 64k crc32c
	mkdir "$target/one" "$target/two"
	dbio_ok w.fio --directory="$target/one" --keep --randseed=1
	dbio_ok w.fio --directory="$target/two" --keep --randseed=2
	copy_block "$target/one/data" "$target/two/data" 3
	one_bad_block w.fio "$target/two" "dbio: $target/two/data: verify=crc32c: block of 4096 bytes at offset 12288: seed in the header expected 2, found 1 (a block of another run or job: randseed differs)" --randseed=2
	# the file it came from still passes with its own seed
	run --separate-stderr "$DBIO" run w.fio --directory="$target/one" --force --verify_only=1 --randseed=1
	[ "$status" -eq 0 ]
}

@test "fio verify: a block of another file of the job, at the same offset, is caught by the file name in its header" {
	printf '[w]\nrw=write\nbs=4k\nsize=64k\nfilename=f0:f1\nverify=crc32c\n' >two.fio
	dbio_ok two.fio --directory="$target" --keep
	copy_block "$target/f0" "$target/f1" 2
	one_bad_block two.fio "$target" "dbio: $target/f1: verify=crc32c: block of 4096 bytes at offset 8192: file name checksum in the header expected 0x[0-9a-f]\{8\}, found 0x[0-9a-f]\{8\} (a block of another file)"
}

@test "fio verify: a block another job wrote into a file of the same name with the same seed is caught by the thread in its header" {
	printf '[a]\nrw=write\nbs=4k\nsize=32k\nfilename=data\nverify=crc32c\n' >a.fio
	printf '[b]\nrw=write\nbs=4k\nsize=32k\nfilename=other\nverify=crc32c\n[c]\nrw=write\nbs=4k\nsize=32k\nfilename=data\nverify=crc32c\n' >b.fio
	mkdir "$target/a" "$target/b"
	dbio_ok a.fio --directory="$target/a" --keep
	dbio_ok b.fio --directory="$target/b" --keep
	# a.fio's job a is fio's thread 0, b.fio's job c thread 1
	copy_block "$target/a/data" "$target/b/data" 1
	one_bad_block b.fio "$target/b" "dbio: $target/b/data: verify=crc32c: block of 4096 bytes at offset 4096: thread in the header expected 1, found 0 (a block another thread or job wrote)"
	# the threads of one job on one file overwrite each other's blocks, as
	# in fio: a block read back may be any of theirs
	printf '[s]\nrw=randwrite\nbs=4k\nsize=256k\nnumjobs=2\nfilename=shared\nverify=crc32c\n' >s.fio
	mkdir "$target/s"
	dbio_ok s.fio --directory="$target/s"
	[ "$(jpy "$result" 'sum(x["runs"][0]["ops"]["read"]["count"] for x in r["jobs"])')" = 128 ]
}

@test "fio verify: verify_only opens no symlink and no file with a second link" {
	kept_job write 64k crc32c
	echo secret >"$scratch/outside"
	ln -s "$scratch/outside" "$target/data"
	run --separate-stderr "$DBIO" run w.fio --directory="$target" --force --verify_only=1
	[ "$status" -eq 1 ]
	[ "$stderr" = "dbio: running w (1 of 1)"$'\n'"dbio: $target/data: cannot open: Too many levels of symbolic links: verify_only reads back what a run with --keep wrote before" ]
	rm "$target/data"
	ln "$scratch/outside" "$target/data"
	run --separate-stderr "$DBIO" run w.fio --directory="$target" --force --verify_only=1
	[ "$status" -eq 1 ]
	[ "$stderr" = "dbio: running w (1 of 1)"$'\n'"dbio: $target/data: not a regular file of dbio's user with one link: not opened again" ]
	[ "$(cat "$scratch/outside")" = secret ]
}

@test "fio verify: the values dbio does not do are refused with their reason" {
	printf '[j]\nrw=write\nsize=1m\nverify=crc64\n' >a.fio
	refused_file a.fio "dbio: a.fio:4: key 'verify': fio's own checksum, not in dbio: use crc32c (or xxhash, md5, sha1, sha256, sha512) (job 'j')"
	printf '[j]\nrw=write\nsize=1m\nbs=4k\nverify=crc32c\nverify_interval=3k\n' >b.fio
	refused_file b.fio "dbio: b.fio:6: key 'verify_interval': 3 KiB does not divide the block size 4 KiB: give a divisor of every block size (job 'j')"
	printf '[j]\nrw=write\nsize=1m\nverify=meta\nverify_pattern=0xzz\n' >c.fio
	refused_file c.fio "dbio: c.fio:5: key 'verify_pattern': cannot read '0xzz' at '0xzz': expected 0x and hex digits (0xaa555aa5), \"text\" or a decimal number, run together (job 'j')"
	printf '[j]\nrw=write\nsize=1m\nverify=pattern\n' >d.fio
	refused_file d.fio "dbio: d.fio:4: key 'verify': pattern checks verify_pattern, and none is given: give verify_pattern= (job 'j')"
	printf '[j]\nrw=write\nsize=1m\nverify_backlog=4\n' >e.fio
	refused_file e.fio "dbio: e.fio:4: key 'verify_backlog': has nothing to do without verify=: give verify=crc32c (or another) (job 'j')"
	printf '[j]\nrw=write\nsize=1m\nverify=crc32c\nverify_backlog=1x\n' >f.fio
	refused_file f.fio "dbio: f.fio:5: key 'verify_backlog': bad value '1x': expected a whole number from 0 with an optional k, m, g or t suffix (binary: 1k = 1024)"
	printf '[j]\nrw=write\nsize=1m\nverify_backlog_batch=4\n' >l.fio
	refused_file l.fio "dbio: l.fio:4: key 'verify_backlog_batch': has nothing to do without verify=: give verify=crc32c (or another) (job 'j')"
	printf '[j]\nrw=write\nsize=1m\nverify=crc32c\nverify_only=1\ntime_based\nruntime=1\n' >p.fio
	refused_file p.fio "dbio: p.fio:5: key 'verify_only': not with time_based: it reads back the writes of a job bound by size (job 'j')"
	printf '[j]\nrw=write\nsize=1m\nverify=crc32c\nexperimental_verify=1\nramp_time=1\n' >o.fio
	refused_file o.fio "dbio: o.fio:5: key 'experimental_verify': not with ramp_time: the read back makes the offsets again from the start, and the ramp's writes came first (job 'j')"
	printf '[j]\nrw=write\nsize=1m\nverify=crc32c\nverify_pattern=%%o\n' >g.fio
	refused_file g.fio "dbio: g.fio:5: key 'verify_pattern': fio's %o (the block's offset) is not in dbio: give bytes (0x hex, \"text\" or decimal numbers) (job 'j')"
	printf '[j]\nrw=write\nsize=1m\nverify=crc32c\nverify_only=1\nramp_time=1\n' >i.fio
	refused_file i.fio "dbio: i.fio:6: key 'ramp_time': not with verify_only: the ramp's writes would overwrite what is to be checked (job 'j')"
	printf '[j]\nrw=write\nsize=1m\nverify=1\n' >k.fio
	refused_file k.fio "dbio: k.fio:4: key 'verify': 1 is workload=kv's; for files name the check: crc32c (or xxhash, md5, sha1, sha256, sha512, meta) (job 'j')"
	# the log of the writes, and kv's table of the records, against the memory
	printf '[j]\nrw=write\nsize=1t\nbs=512\nmem_limit=1g\nverify=crc32c\n' >m.fio
	refused_file m.fio "dbio: m.fio:3: key 'size': (size or io_size) * loops / bs * 16 bytes * numjobs = 32.00 GiB of verify's log of the writes, more than the 512 MiB accepted (half of mem_limit=1 GiB): lower size, loops or numjobs, or raise bs (job 'j')"
	# kv's table, on a kv engine of this build (a build without them has none)
	kv=$(kv_engines_of_build | head -1)
	if [ -n "$kv" ]; then
		printf '[j]\nworkload=kv\nrecords=100000000\nmem_limit=1g\nverify=1\nkv_engine=%s\n' "$kv" >n.fio
		refused_file n.fio "dbio: n.fio:3: key 'records': records * 12 bytes * numjobs = 1.12 GiB of verify's table of what each record holds, more than the 512 MiB accepted (half of mem_limit=1 GiB): lower records or numjobs (job 'j')"
	fi
}

# backlog_gap JOB: the writes of JOB in $result that no read back checked.
backlog_gap() {
	jpy "$result" "[j for j in r['jobs'] if j['name'] == '$1'][0]['runs'][0]['ops']['write']['count'] - [j for j in r['jobs'] if j['name'] == '$1'][0]['runs'][0]['ops']['read']['count']"
}

@test "fio verify: verify_backlog with a queued engine reads back while it writes, as fio (t0006), verify_backlog_batch too, and do_verify=0 reads nothing" {
	[ -z "$(why_not_here libaio)" ] || skip "$(why_not_here libaio)"
	cat >j.fio <<'EOF'
[global]
bs=4k
size=1m
filename=data
stonewall
verify=crc32c
verify_backlog=16
[aio]
rw=randwrite
ioengine=libaio
iodepth=8
direct=1
[aio-randrw]
rw=randrw
ioengine=libaio
iodepth=8
direct=1
verify=meta
verify_pattern=0xaaa
verify_backlog=1k
[batch-less]
rw=write
verify_backlog_batch=4
[batch-more]
rw=write
verify_backlog_batch=32
[no-read-back]
rw=write
do_verify=0
EOF
	dbio_ok j.fio --directory="$target"
	# fio 3.33 on this job: aio 256 reads and 256 writes, aio-randrw 256
	# reads (its 116 reads and a read back of each of its 140 writes),
	# batch-less and batch-more 256 and 256, no-read-back 256 writes and no
	# read (fio logs no write to check with do_verify=0)
	[ "$(counts "$result" | grep -v '^aio-randrw')" = "$(printf 'aio read 256\naio write 256\nbatch-less read 256\nbatch-less write 256\nbatch-more read 256\nbatch-more write 256\nno-read-back write 256')" ]
	[ "$(jpy "$result" "[j for j in r['jobs'] if j['name'] == 'aio-randrw'][0]['runs'][0]['ops']['read']['count']")" = 256 ]
	json_is "$result" jobs.1.options.verify_backlog=1024
	# time_based: no read back after the runtime (fio's verify phase never
	# starts), so what was read back was read while writing; fio 3.33 left
	# 1 write (libaio) and 14 (batch 4 of 16) unchecked in a second
	cat >t.fio <<'EOF'
[global]
bs=4k
size=1m
filename=data
stonewall
verify=crc32c
verify_backlog=16
time_based
runtime=1
[tb-aio]
rw=randwrite
ioengine=libaio
iodepth=8
direct=1
[tb-batch]
rw=randwrite
verify_backlog_batch=4
EOF
	dbio_ok t.fio --directory="$target"
	[ "$(jpy "$result" "r['jobs'][0]['runs'][0]['ops']['read']['count'] > 0")" = true ]
	[ "$(backlog_gap tb-aio)" -ge 0 ]
	[ "$(backlog_gap tb-aio)" -lt 24 ] # verify_backlog + iodepth
	[ "$(backlog_gap tb-batch)" -ge 12 ] # the batch leaves 12 of each 16
	[ "$(backlog_gap tb-batch)" -le 16 ]
}

@test "fio verify: verify_backlog takes fio's suffixes (t0009: 1m), and the null engine's time_based job reads back every 1k blocks" {
	printf '[j]\nioengine=null\niodepth=16\nrw=randwrite\nbs=4k\nsize=20g\nnorandommap\ntime_based\nruntime=1\nverify=crc32c\nverify_backlog=1k\nverify_async=6\nverify_async_cpus=0\n' >j.fio
	dbio_ok j.fio --directory="$target"
	json_is "$result" jobs.0.options.verify_backlog=1024 jobs.0.options.verify_async_cpus=0
	[ "$(jpy "$result" 'run["ops"]["read"]["count"] > 0 and run["ops"]["read"]["count"] % 1024 == 0')" = true ]
	[ "$(jpy "$result" 'run["ops"]["write"]["count"] - run["ops"]["read"]["count"] < 1024 + 16')" = true ]
	printf '[j]\nrw=write\nsize=1m\nverify=crc32c\nverify_backlog=1m\n' >m.fio
	dbio_ok m.fio --directory="$target"
	json_is "$result" jobs.0.options.verify_backlog=1048576 "$R0.ops.read.count=256" "$R0.ops.write.count=256"
}

@test "fio verify: experimental_verify replays the offsets to read back, as fio's (t0025, t0026)" {
	need_verify md5
	cat >j.fio <<'EOF'
[global]
filename=data
stonewall
verify=md5
experimental_verify=1
[seq]
size=128k
rw=write
[rand]
size=1m
rw=randwrite
[rand-bs]
size=1m
rw=randwrite
bsrange=4k-64k
EOF
	dbio_ok j.fio --directory="$target"
	# fio 3.33: seq 32 and 32 (t0025's 128 KiB read), rand 256 and 256,
	# rand-bs 44 and 44 (bsrange's sizes and offsets are fio's draws)
	[ "$(counts "$result")" = "$(printf 'rand read 256\nrand write 256\nrand-bs read 44\nrand-bs write 44\nseq read 32\nseq write 32')" ]
	[ "$(jpy "$result" '[j["runs"][0]["ops"]["read"]["bytes"] == j["runs"][0]["ops"]["write"]["bytes"] for j in r["jobs"]]')" = "[true, true, true]" ]
	# a mixed job: the writes are read back, its reads passed over; fio 3.33 fails this job (bad header rand_seed)
	printf '[m]\nfilename=data\nsize=1m\nrw=randrw\nverify=md5\nexperimental_verify=1\n' >m.fio
	dbio_ok m.fio --directory="$target"
	[ "$(jpy "$result" 'run["ops"]["read"]["count"] == 256 and run["ops"]["write"]["count"] < 256')" = true ]
	# loops: each loop read back. fio 3.33 and 3.42 write 7 of loops=8 and
	# read back the first only (t0026's job1: 1792 writes, 256 reads)
	printf '[l]\nfilename=data\nsize=1m\nrw=randwrite\nloops=8\nverify=md5\nexperimental_verify=1\n' >l.fio
	dbio_ok l.fio --directory="$target"
	json_is "$result" "$R0.ops.read.count=2048" "$R0.ops.write.count=2048"
	# time_based (t0026's job2): no read back after the runtime, as fio
	printf '[t]\nfilename=data\nsize=1m\nrw=randrw\ntime_based\nruntime=1\nverify=md5\nexperimental_verify=1\n' >t.fio
	dbio_ok t.fio --directory="$target"
	json_is "$result" "$R0.partial=false"
}

@test "fio verify: jobs sharing a file each extend it to their offset + size, as fio (t0002: offset=4G of a smaller file)" {
	printf '[global]\nfilename=shared\nbs=4k\nsize=1m\n[w]\nrw=write\n[r]\noffset=4m\nrw=read\n' >j.fio
	dbio_ok j.fio --directory="$target" --keep
	# fio 3.33: w 256 writes, r 256 reads, and a file of 5 MiB
	[ "$(counts "$result")" = "$(printf 'r read 256\nw write 256')" ]
	[ "$(stat -c %s "$target/shared")" -eq 5242880 ]
}

@test "fio verify: a job that only reads with loops=2 checks each loop, as fio since 3.37 (t0029: 8 KiB)" {
	need_verify md5
	printf '[global]\nfilename=f\nsize=4k\nverify=md5\n[write]\nrw=write\ndo_verify=0\n[read]\nstonewall\nrw=read\nloops=2\ndo_verify=1\n' >j.fio
	dbio_ok j.fio --directory="$target"
	# fio 3.42 (built from fio's tree) reads 2 blocks, 8 KiB; fio 3.33 1 (its
	# bug, fixed by fio's 96a7e64c "verify: fix loops option behavior of read-verify workloads")
	[ "$(counts "$result")" = "$(printf 'read read 2\nwrite write 1')" ]
	json_is "$result" jobs.1.runs.0.ops.read.bytes=8192
}

@test "fio verify: fill_device writes until the filesystem is full, then ends normally with fio's bytes; without it ENOSPC fails the job" {
	local small="$scratch/small"
	mount_tmpfs "$small" 8m
	printf '[fill]\nrw=write\nbs=64k\nsize=64m\nfilename=fill\nfill_device=1\nverify=crc32c\n' >j.fio
	dbio_ok j.fio --directory="$small"
	is_empty_dir "$small"
	# 8 MiB of tmpfs hold 128 blocks of 64 KiB; as fio, nothing is read back after the fill
	[ "$(counts "$result")" = "fill write 128" ]
	json_is "$result" partial=false
	command -v fio >/dev/null || skip "fio is not installed (scripts/install-deps installs it)"
	fio --directory="$small" --output-format=json --output=fio.json j.fio >/dev/null 2>&1
	# fio's total_ios counts the write that failed too (129); its bytes and latencies do not
	[ "$("$PYTHON" -c 'import json; w = json.load(open("fio.json"))["jobs"][0]["write"]; print(w["io_bytes"], w["lat_ns"]["N"])')" = "8388608 128" ]
	[ "$(jpy "$result" 'run["ops"]["write"]["bytes"]')" = 8388608 ]
	rm -f "$small/fill"
	run -1 --separate-stderr "$DBIO" run j.fio --set fill_device=0 --fallocate=none --directory="$small" --output="$result"
	[ "${stderr_lines[-1]}" = "dbio: $small/fill: write of 65536 bytes at offset 8388608: No space left on device" ]
	json_is "$result" partial=true
	is_empty_dir "$small"
}

@test "fio verify: workload=kv verify=1 reads every record back after the updates, on every kv engine of the build" {
	local engines
	engines=$(kv_engines_of_build)
	[ -n "$engines" ] || skip "this build has no kv engine"
	for kv in $engines; do
		rm -rf "$target" && mkdir "$target"
		dbio_ok --directory="$target" --workload=kv --kv_engine="$kv" --records=3000 --batch=500 \
			--lookups=100 --updates=1000 --verify=1
		[ "$(jpy "$result" '" ".join("%s=%d" % (p["name"], p["ops"]) for p in run["phases"])')" = "insert=3000 lookup=100 update=1000 verify=3000" ] || {
			echo "$kv: $(jpy "$result" 'run["phases"]')" >&2
			false
		}
		# the gets of the read back count as lookups
		[ "$(jpy "$result" 'run["ops"]["lookup"]["count"]')" = 3100 ]
		is_empty_dir "$target"
	done
	printf '[j]\nworkload=kv\nrecords=10\nverify=crc64\n' >a.fio
	dbio_ok a.fio --directory="$target"
	[ "$(jpy "$result" '" ".join(p["name"] for p in run["phases"])')" = "insert verify" ]
}

@test "fio verify: verify_only refuses root's file another user renamed in as the file, and shows none of its bytes" {
	attacker_dir 777
	printf 'TOPSECRET-PASSWORD-0001;%.0s' $(seq 400) >"$target/secret"
	chmod 600 "$target/secret"
	setpriv --reuid=65534 --regid=65534 --clear-groups mv "$target/secret" "$target/data"
	run --separate-stderr "$DBIO" run --directory="$target" --name=v --filename=data --rw=write --bs=512 \
		--size=9600 --verify=crc32c --verify_only=1 --verify_dump=1 --force --progress=none --output="$result"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"dbio: $target/data: not a file dbio kept: it lacks the mark trusted.dbio.kept that --keep leaves (verify_only reads back only such a file, and needs root and extended attributes to tell it): not opened"* ]]
	! grep -q 544f50534543524554 "$result"
	! grep -q 544f50534543524554 <<<"$stderr"
	[ "$(head -c 24 "$target/data")" = "TOPSECRET-PASSWORD-0001;" ]
	[ "$(stat -c %s "$target/data")" -eq 9600 ]
}

@test "fio verify: --keep then --verify_only=1 of the same job, with dbio's own file names, reads every block back" {
	dbio_ok --directory="$target" --name=v --rw=randwrite --bs=4k --size=1m --verify=crc32c --keep
	[ -f "$target/dbio.v.0.0" ]
	run --separate-stderr "$DBIO" run --directory="$target" --name=v --rw=randwrite --bs=4k --size=1m \
		--verify=crc32c --verify_only=1 --progress=none --output="$result"
	[ "$status" -eq 0 ]
	[ "$(jpy "$result" 'run["ops"]["read"]["count"]')" = 256 ]
	[ "$(jpy "$result" 'run["ops"]["write"]["count"]')" = 0 ]
	[ -f "$target/dbio.v.0.0" ]
}

@test "fio verify: a later group's filename= swapped by another user for root's file between groups is refused, the file untouched" {
	attacker_dir 777
	mkdir -m 700 "$atk/home"
	chown 65534 "$atk/home"
	printf 'TOPSECRET-PASSWORD-0001;%.0s' $(seq 400) >"$atk/home/secret"
	chmod 600 "$atk/home/secret"
	printf '[w]\ndirectory=%s\nfilename=data\nrw=write\nbs=512\nsize=9600\nruntime=2s\ntime_based\n[r]\nstonewall\ndirectory=%s\nfilename=data\nrw=write\nbs=512\nsize=9600\nverify=crc32c\nverify_dump=1\n' \
		"$target" "$target" >j.fio
	(
		for _ in $(seq 6000); do
			[ -f "$target/data" ] && break
			sleep 0.01
		done
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			sh -c 'mv "$1/data" "$2/dbiodata" && mv "$2/secret" "$1/data"' sh "$target" "$atk/home" &&
			: >"$atk/swapped"
	) &
	bg_pid=$!
	run --separate-stderr "$DBIO" run j.fio --progress=none --output="$result"
	wait "$bg_pid"
	bg_pid=
	[ -e "$atk/swapped" ]
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"dbio: $target/data: not the file the earlier job created (replaced since): not opened again"* ]]
	! grep -q 544f50534543524554 "$result"
	[ "$(head -c 24 "$target/data")" = "TOPSECRET-PASSWORD-0001;" ]
	[ "$(stat -c %s "$target/data")" -eq 9600 ]
}

@test "fio verify: a verify_interval larger than the smallest block is that block, as fio clamps it (fio's t0004)" {
	printf '[j]\nrw=write\nbs=512\nsize=64k\nverify=crc32c\nverify_interval=1m\n' >j.fio
	dbio_ok j.fio --directory="$target"
	json_is "$result" "$R0.ops.write.count=128" "$R0.ops.read.count=128" "$R0.partial=false"
	command -v fio >/dev/null || skip "fio is not installed (scripts/install-deps installs it)"
	(cd "$target" && fio --output-format=json --output="$scratch/fio.json" "$scratch/j.fio" >/dev/null)
	[ "$("$PYTHON" -c 'import json,sys; j = json.load(open(sys.argv[1]))["jobs"][0]; print(j["write"]["total_ios"], j["read"]["total_ios"])' "$scratch/fio.json")" = "128 128" ]
}


@test "fio verify: io_size past size: each pass writes size and reads it back, the read back counting toward io_size, as released fio (3.33 to 3.42)" {
	cat >j.fio <<'EOF2'
[global]
bs=4k
size=1m
verify=crc32c
do_verify=1
stonewall
[w2m]
rw=write
io_size=2m
[rw2m]
rw=randwrite
io_size=2m
[w2m-loops2]
rw=write
io_size=2m
loops=2
[rw2m-loops2]
rw=randwrite
io_size=2m
loops=2
[w3m]
rw=write
io_size=3m
[w5m]
rw=write
io_size=5m
[rw3m]
rw=randwrite
io_size=3m
[w512k]
rw=write
io_size=512k
EOF2
	dbio_ok j.fio --directory="$target"
	# fio 3.33's counts, measured with fio --output-format=json: 2 MiB of
	# io_size is one pass (1 MiB written + 1 MiB read back), 3 MiB two, 5 MiB
	# three; loops=2 two passes, each read back
	[ "$(counts "$result")" = "$(printf '%s\n' 'rw2m read 256' 'rw2m write 256' 'rw2m-loops2 read 512' \
		'rw2m-loops2 write 512' 'rw3m read 512' 'rw3m write 512' 'w2m read 256' 'w2m write 256' \
		'w2m-loops2 read 512' 'w2m-loops2 write 512' 'w3m read 512' 'w3m write 512' 'w512k read 128' \
		'w512k write 128' 'w5m read 768' 'w5m write 768')" ]
	json_is "$result" partial=false
	# the side by side with fio itself
	rm -rf "$target" && mkdir "$target"
	same_as_fio j.fio
}

# state_jobs [PRE_KEY...]: fio's t0036 as two job files, pre.fio (writes
# the file vfile with verify=md5, plus PRE_KEYs, one a line) and post.fio
# (reads it back with verify_state_load=1); and nost.fio, post.fio without
# verify_state_load.
state_jobs() {
	local common='[global]\nfilename=vfile\nverify=md5\nsize=512k\n[job]\n'
	{
		printf "${common}rw=write\nverify_state_save=1\n"
		printf '%s\n' "$@"
	} >pre.fio
	printf "${common}rw=read\nverify_state_load=1\n" >post.fio
	printf "${common}rw=read\n" >nost.fio
}

# fio_pair DIR: fio 3.33 runs pre.fio then post.fio in DIR (the state file
# in DIR, its current directory); post.fio's op counts into fio.counts.
fio_pair() {
	command -v fio >/dev/null || skip "fio is not installed (scripts/install-deps installs it)"
	mkdir -p "$1"
	(cd "$1" && fio --output-format=json --output=pre.json ../pre.fio >/dev/null)
	(cd "$1" && fio --output-format=json --output=post.json ../post.fio >/dev/null)
	fio_counts "$1/post.json" >fio.counts
}

@test "fio verify: verify_state_save with --keep, then verify_state_load reads back what the write job completed, fio 3.33's counts (t0036; cut short by io_size: 50)" {
	need_verify md5
	state_jobs
	dbio_ok pre.fio --directory="$target" --keep
	[ "$(counts "$result")" = "$(printf 'job read 128\njob write 128')" ]
	# one state file per thread: dbio.<job>.verify.<fio's thread number>.state
	[ "$(stat -c %s "$target/dbio.job.verify.0.state")" -eq 312 ]
	dbio_ok post.fio --directory="$target"
	# fio 3.33 (t0036-pre.fio, t0036-post.fio): 128 reads
	[ "$(counts "$result")" = "job read 128" ]
	[ -f "$target/vfile" ]
	# a write job cut short (io_size=200k: 50 of the 128 blocks): the job
	# that loads its state reads back the 50 it wrote, as fio 3.33
	rm -rf "$target" && mkdir "$target"
	state_jobs io_size=200k
	dbio_ok pre.fio --directory="$target" --keep
	[ "$(counts "$result")" = "$(printf 'job read 50\njob write 50')" ]
	dbio_ok post.fio --directory="$target"
	[ "$(counts "$result")" = "job read 50" ]
	json_is "$result" $R0.ops.read.bytes=204800 partial=false
	counts "$result" >dbio.counts
	fio_pair fio-run
	diff fio.counts dbio.counts
	# without the state the same read job checks all 128 blocks of the
	# kept file and finds no header in the 78 never written (fio 3.33
	# also fails: "bad magic header 0 ... offset 204800")
	run --separate-stderr "$DBIO" run nost.fio --directory="$target" --output="$result"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"dbio: $target/vfile: verify=md5: 78 of 128 blocks read back did not match what was written"* ]]
	[[ "$stderr" == *"dbio: $target/vfile: verify=md5: block of 4096 bytes at offset 204800: no header: magic expected 0xacca, found 0x0000"* ]]
	# the kept file stays, unchanged by the reads
	[ "$(stat -c %s "$target/vfile")" -eq 524288 ]
}

@test "fio verify: t0037's verify state: libaio at iodepth=32 over four files, loops=4, reads back the 512 writes (fio 3.42; 3.33 reads 128, its loops bug of t0029)" {
	need_verify md5
	need_engine libaio
	local common='[global]\nfilename=f.1:f.2:f.3:f.4\nverify=md5\nioengine=libaio\niodepth=32\nsize=512k\nloops=4\n[job]\n'
	printf "${common}rw=write\nverify_state_save=1\n" >pre.fio
	printf "${common}rw=read\nverify_state_load=1\n" >post.fio
	dbio_ok pre.fio --directory="$target" --keep
	[ "$(counts "$result")" = "$(printf 'job read 512\njob write 512')" ]
	dbio_ok post.fio --directory="$target"
	# fio 3.42 (built from fio's tree): 512 reads; fio 3.33 reads one loop,
	# 128, with or without the state (fixed by fio's 96a7e64c, as t0029)
	[ "$(counts "$result")" = "job read 512" ]
}

@test "fio verify: no state file without --keep (the files go), and verify_state_save=0 saves none" {
	need_verify md5
	state_jobs
	dbio_ok pre.fio --directory="$target"
	is_empty_dir "$target"
	sed -i 's/verify_state_save=1/verify_state_save=0/' pre.fio
	dbio_ok pre.fio --directory="$target" --keep
	[ "$(ls "$target")" = vfile ]
	run --separate-stderr "$DBIO" run post.fio --directory="$target" --output="$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $target/dbio.job.verify.0.state: no verify state: verify_state_load reads what a job of the same name saved in an earlier run with verify= and --keep (job 'job')" ]
}

@test "fio verify: a corrupt, cut, foreign or mismatched verify state file is refused, naming the file and what is wrong, before anything is read" {
	need_verify md5
	state_jobs
	dbio_ok pre.fio --directory="$target" --keep
	local st="$target/dbio.job.verify.0.state"
	cp --preserve=xattr "$st" good.state
	rm "$result"
	# one byte of the saved write count changed
	printf '\x07' | dd of="$st" bs=1 seek=296 count=1 conv=notrunc status=none
	run --separate-stderr "$DBIO" run post.fio --directory="$target" --output="$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $st: verify state is corrupt: its crc32c does not match its bytes" ]
	[ ! -e "$result" ]
	# cut short
	cp --preserve=xattr good.state "$st" && truncate -s 311 "$st"
	run --separate-stderr "$DBIO" run post.fio --directory="$target" --output="$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $st: verify state of 311 bytes, expected 312: corrupt or not dbio's" ]
	# another magic
	cp --preserve=xattr good.state "$st" && printf 'X' | dd of="$st" bs=1 count=1 conv=notrunc status=none
	run --separate-stderr "$DBIO" run post.fio --directory="$target" --output="$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $st: not a verify state file of dbio (no magic DBIOVST)" ]
	# another version, its crc32c made right: the version is what is refused
	cp --preserve=xattr good.state "$st"
	"$PYTHON" - "$st" <<'PY'
import struct, sys
def crc32c(data):
    crc = 0xffffffff
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82f63b78 if crc & 1 else 0)
    return crc ^ 0xffffffff
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[8:12] = struct.pack("<I", 2)
b[308:312] = struct.pack("<I", crc32c(bytes(b[:308])))
with open(p, "r+b") as f:
    f.write(b)
PY
	run --separate-stderr "$DBIO" run post.fio --directory="$target" --output="$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $st: verify state of version 2; this dbio reads version 1" ]
	# the same bytes without dbio's mark (a copy root made by hand)
	rm "$st" && cp good.state "$st"
	run --separate-stderr "$DBIO" run post.fio --directory="$target" --output="$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $st: not a verify state dbio saved: it lacks the mark trusted.dbio.kept=verify-state (needs root and extended attributes)" ]
	# a read job of another verify= and of other blocks
	cp --preserve=xattr good.state "$st"
	run --separate-stderr "$DBIO" run post.fio --directory="$target" --output="$result" --set verify=crc32c
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $st: saved by a job with verify=md5; job 'job' has verify=crc32c" ]
	run --separate-stderr "$DBIO" run post.fio --directory="$target" --output="$result" --bs=8k
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $st: saved by a job of 1 files and blocks of 4096 bytes; job 'job' has 1 and 8192" ]
	# the good one still reads back
	dbio_ok post.fio --directory="$target"
	[ "$(counts "$result")" = "job read 128" ]
}

@test "fio verify: a symlink or a device node planted at the verify state's name is neither followed nor replaced, by the job that saves nor by the one that loads" {
	need_verify md5
	state_jobs
	printf 'PRECIOUS\n' >precious
	ln -s "$PWD/precious" "$target/dbio.job.verify.0.state"
	run --separate-stderr "$DBIO" run pre.fio --directory="$target" --keep --output="$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $target/dbio.job.verify.0.state: exists and is not a verify state dbio saved (a symlink, a device node or another's file): not replaced; remove it, or give verify_state_save=0 (job 'job')" ]
	[ "$(cat precious)" = PRECIOUS ]
	# nothing laid out
	[ "$(ls "$target")" = dbio.job.verify.0.state ]
	run --separate-stderr "$DBIO" run post.fio --directory="$target" --output="$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $target/dbio.job.verify.0.state: a symlink, not a verify state dbio saved: not opened" ]
	rm "$target/dbio.job.verify.0.state"
	mknod "$target/dbio.job.verify.0.state" c 1 3
	run --separate-stderr "$DBIO" run pre.fio --directory="$target" --keep --output="$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $target/dbio.job.verify.0.state: exists and is not a verify state dbio saved (a symlink, a device node or another's file): not replaced; remove it, or give verify_state_save=0 (job 'job')" ]
	run --separate-stderr "$DBIO" run post.fio --directory="$target" --output="$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $target/dbio.job.verify.0.state: not a regular file, not a verify state dbio saved: not opened" ]
	[ -c "$target/dbio.job.verify.0.state" ]
}

@test "fio verify: another user's file renamed in as the verify state is not taken, and the state dbio saved is replaced only by dbio" {
	need_verify md5
	attacker_dir 777
	state_jobs
	dbio_ok pre.fio --directory="$target" --keep
	cp --preserve=xattr "$target/dbio.job.verify.0.state" good.state
	# user 65534 swaps in a file of its own
	setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "cp '$target/dbio.job.verify.0.state' '$target/x' && mv -f '$target/x' '$target/dbio.job.verify.0.state'"
	run --separate-stderr "$DBIO" run post.fio --directory="$target" --output="$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $target/dbio.job.verify.0.state: not a regular file of dbio's user with one link: not a verify state dbio saved" ]
	[ "$(stat -c %u "$target/dbio.job.verify.0.state")" -eq 65534 ]
	# a run that writes again (the kept file removed) replaces dbio's own state
	rm "$target/dbio.job.verify.0.state" "$target/vfile"
	cp --preserve=xattr good.state "$target/dbio.job.verify.0.state"
	dbio_ok pre.fio --directory="$target" --keep
	dbio_ok post.fio --directory="$target"
	[ "$(counts "$result")" = "job read 128" ]
}

@test "fio verify: verify_state_load is refused where it means nothing, with the reason" {
	printf '[j]\nrw=read\nsize=1m\nverify_state_load=1\n' >a.fio
	refused_file a.fio "dbio: a.fio:4: key 'verify_state_load': has nothing to do without verify=: give verify=crc32c (or another) (job 'j')"
	printf '[j]\nrw=write\nsize=1m\nverify=crc32c\nverify_state_load=1\n' >b.fio
	refused_file b.fio "dbio: b.fio:5: key 'verify_state_load': for a job that only reads (rw=read or randread): it checks the writes an earlier run's job saved with verify_state_save (job 'j')"
	printf '[j]\nrw=read\nsize=1m\nverify=crc32c\nverify_state_load=1\ntime_based\nruntime=1\n' >c.fio
	refused_file c.fio "dbio: c.fio:5: key 'verify_state_load': not with time_based: it reads back as many blocks as the saved job wrote (job 'j')"
}

@test "fio verify: a job that only reads with verify= reads back the kept file of its name, and lays out one that is not there" {
	need_verify md5
	dbio_ok --directory="$target" --name=v --rw=write --bs=4k --size=64k --verify=md5 --keep
	[ -f "$target/dbio.v.0.0" ]
	dbio_ok --directory="$target" --name=v --rw=read --bs=4k --size=64k --verify=md5
	[ "$(counts "$result")" = "v read 16" ]
	[ -f "$target/dbio.v.0.0" ]
	# a file named with filename=, kept: no --force needed
	dbio_ok --directory="$target" --name=w --filename=named --rw=write --bs=4k --size=64k --verify=md5 --keep
	dbio_ok --directory="$target" --name=w --filename=named --rw=randread --bs=4k --size=64k --verify=md5
	[ "$(counts "$result")" = "w read 16" ]
	# a file of the job's name that dbio did not keep is still refused
	printf 'x%.0s' $(seq 100) >"$target/other"
	run --separate-stderr "$DBIO" run --directory="$target" --name=o --filename=other --rw=read --size=64k --verify=md5 --force --output="$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: $target/other: exists, and dbio measures only files it creates (and removes): remove it or name another file (key 'filename', job 'o')" ]
}
