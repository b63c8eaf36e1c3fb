#!/usr/bin/env bats
# fio's buffer keys: what the writes carry. Each file is read back after the
# run and its 4 KiB blocks counted (how many differ) and compressed (zlib),
# in dbio's files and in fio's of the same job file.

load helpers

# content DIR: "blocks N unique U zlib Z shared S" over the files of DIR (Z:
# percent of the size that zlib leaves; S: blocks found in more than one
# file).
content() {
	"$PYTHON" - "$1" <<'EOF2'
import hashlib, os, sys, zlib
n = raw = comp = 0
files = {}
for name in sorted(os.listdir(sys.argv[1])):
    d = open(os.path.join(sys.argv[1], name), "rb").read()
    for i in range(0, len(d), 4096):
        n += 1
        files.setdefault(hashlib.sha1(d[i:i + 4096]).digest(), set()).add(name)
    raw += len(d)
    comp += len(zlib.compress(d, 1))
shared = sum(1 for f in files.values() if len(f) > 1)
print("blocks", n, "unique", len(files), "zlib", round(100 * comp / raw), "shared", shared)
EOF2
}

# both FILE: dbio's and fio's files of FILE, content of each into
# dbio.content and fio.content.
both() {
	command -v fio >/dev/null || skip "fio is not installed (scripts/install-deps installs it)"
	rm -rf "$target" && mkdir "$target"
	"$DBIO" run "$1" --directory="$target" --keep --output="$result" >/dev/null 2>&1
	content "$target" >dbio.content
	rm -rf "$target" && mkdir "$target"
	fio --directory="$target" --output=/dev/null "$1" >/dev/null
	content "$target" >fio.content
}

# field NAME FILE: the number after NAME in FILE.
field() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' "$2"; }

@test "fio buffers: by default every block written differs, as fio's (scramble_buffers)" {
	printf '[j]\nrw=write\nbs=4k\nsize=1m\n' >j.fio
	both j.fio
	[ "$(field unique dbio.content)" -eq 256 ]
	[ "$(field unique fio.content)" -eq 256 ]
	# without the stamps every write carries the same buffer
	printf '[j]\nrw=write\nbs=4k\nsize=1m\nscramble_buffers=0\n' >j.fio
	both j.fio
	[ "$(field unique dbio.content)" -eq 1 ]
	[ "$(field unique fio.content)" -eq 1 ]
}

@test "fio buffers: zero_buffers and buffer_compress_percentage=100 write zeros, as fio" {
	for key in zero_buffers=1 buffer_compress_percentage=100; do
		printf '[j]\nrw=write\nbs=4k\nsize=1m\n%s\n' "$key" >j.fio
		both j.fio
		[ "$(cat dbio.content)" = "blocks 256 unique 1 zlib 0 shared 0" ]
		[ "$(cat fio.content)" = "blocks 256 unique 1 zlib 0 shared 0" ]
	done
}

@test "fio buffers: buffer_compress_percentage compresses to its share in both tools (within 3 points), every block new" {
	for pct in 25 50 75; do
		printf '[j]\nrw=write\nbs=4k\nsize=2m\nbuffer_compress_percentage=%s\n' "$pct" >j.fio
		both j.fio
		[ "$(field unique dbio.content)" -eq 512 ]
		[ "$(field unique fio.content)" -eq 512 ]
		d=$(field zlib dbio.content) f=$(field zlib fio.content)
		echo "pct $pct: dbio $d %, fio $f %"
		[ $((d - (100 - pct))) -le 3 ]
		[ $(((100 - pct) - d)) -le 3 ]
		[ $((d - f)) -le 3 ]
		[ $((f - d)) -le 3 ]
	done
}

@test "fio buffers: dedupe_percentage repeats its share of the writes, as fio (within 3 points)" {
	printf '[j]\nrw=write\nbs=4k\nsize=4m\ndedupe_percentage=40\n' >rep.fio
	both rep.fio
	d=$(field unique dbio.content) f=$(field unique fio.content)
	echo "repeat: dbio $d, fio $f of 1024"
	# 60 % new: 614 of 1024 blocks; 3 points are 31 blocks
	[ $((d - 614)) -le 31 ]
	[ $((614 - d)) -le 31 ]
	[ $((f - 614)) -le 31 ]
	[ $((614 - f)) -le 31 ]
	printf '[j]\nrw=write\nbs=4k\nsize=1m\ndedupe_percentage=100\n' >all.fio
	both all.fio
	[ "$(field unique dbio.content)" -eq 1 ]
	[ "$(field unique fio.content)" -eq 1 ]
}

@test "fio buffers: dedupe_mode=working_set with dedupe_global repeats pages of the other job, as fio" {
	# fio's examples/dedupe-global.fio at iodepth=1 (fio's first iodepth
	# buffers take pages of its working set that it never writes new)
	printf '[global]\nioengine=psync\nsize=4m\ndedupe_mode=working_set\ndedupe_global=1\ndedupe_percentage=50\nblocksize=4k\nrw=write\nbuffer_compress_percentage=50\ndedupe_working_set_percentage=50\n[a]\n[b]\n' >g.fio
	both g.fio
	d=$(field unique dbio.content) f=$(field unique fio.content)
	echo "global: dbio $d, fio $f of 2048"
	[ $((d - 1024)) -le 61 ]
	[ $((1024 - d)) -le 61 ]
	[ $((f - 1024)) -le 61 ]
	[ $((1024 - f)) -le 61 ]
	[ "$(field zlib dbio.content)" -ge 47 ]
	[ "$(field zlib dbio.content)" -le 53 ]
	# the jobs share blocks (each repeats the other's), in both tools; without
	# dedupe_global they share none
	d=$(field shared dbio.content) f=$(field shared fio.content)
	echo "shared: dbio $d, fio $f"
	[ "$d" -ge 100 ]
	[ "$f" -ge 100 ]
	sed -i '/dedupe_global/d' g.fio
	both g.fio
	[ "$(field shared dbio.content)" -eq 0 ]
	[ "$(field shared fio.content)" -eq 0 ]
}

@test "fio buffers: what fio refuses, and workload=oltp, are refused with the reason" {
	printf '[j]\nrw=write\nsize=1m\nnrfiles=2\ndedupe_percentage=10\ndedupe_mode=working_set\n' >files.fio
	refused_file files.fio "dbio: files.fio:6: key 'dedupe_mode': working_set with nrfiles=2: fio keeps a working set for one file per job; give nrfiles=1 (job 'j')"
	printf '[j]\nrw=write\nsize=1m\ndedupe_percentage=60\ndedupe_mode=working_set\ndedupe_working_set_percentage=50\n' >sum.fio
	refused_file sum.fio "dbio: sum.fio:6: key 'dedupe_working_set_percentage': 50 with dedupe_percentage=60: the working set's pages are new writes, so at most 50 % of the writes can repeat them; the two may add up to 100 at most (job 'j')"
	printf '[j]\nrw=write\nsize=1m\ndedupe_mode=copy\n' >mode.fio
	run --separate-stderr "$DBIO" run mode.fio --directory="$target"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"key 'dedupe_mode': bad value 'copy'"*"repeat"*"working_set"* ]]
	printf '[j]\nworkload=oltp\nnumjobs=2\ntime_based\nruntime=1\nzero_buffers=1\n' >oltp.fio
	refused_file oltp.fio "dbio: oltp.fio:6: key 'zero_buffers': not for workload=oltp: its pages and log records carry data of their own (job 'j')"
}

# pattern_blocks FILE HEX BS: how many BS-byte blocks of FILE are HEX's
# bytes repeated from the block's start (and cut at its end), of how many.
pattern_blocks() {
	"$PYTHON" - "$@" <<'EOF2'
import sys
d = open(sys.argv[1], "rb").read()
p, bs = bytes.fromhex(sys.argv[2]), int(sys.argv[3])
block = (p * (bs // len(p) + 1))[:bs]
print(sum(d[i:i + bs] == block for i in range(0, len(d), bs)), len(d) // bs)
EOF2
}

@test "fio buffers: buffer_pattern's bytes fill every write from its start, byte for byte as fio's file" {
	# "ab"7 is 61 62 07: 4096 bytes is not a whole number of them, so
	# each block starts the pattern over (4096 = 3 * 1365 + 1: a block
	# ends in 61, and the next starts 61 62)
	printf '[j]\nrw=write\nbs=4k\nsize=64k\nbuffer_pattern="ab"7\n' >j.fio
	rm -rf "$target" && mkdir "$target"
	dbio_ok j.fio --directory="$target" --keep
	[ "$(pattern_blocks "$target"/dbio.j.0.0 616207 4096)" = "16 16" ]
	[ "$(od -A n -t x1 -N 5 "$target"/dbio.j.0.0)" = " 61 62 07 61 62" ]
	[ "$(od -A n -t x1 -j 4094 -N 4 "$target"/dbio.j.0.0)" = " 07 61 61 62" ]
	if command -v fio >/dev/null; then
		fio --filename="$target/fio.f" --output=/dev/null j.fio >/dev/null
		cmp "$target"/dbio.j.0.0 "$target/fio.f"
	fi
	# a job that reads too puts the pattern back before each write: the
	# blocks written are the pattern, the others what the layout wrote
	printf '[j]\nrw=randrw\nbs=4k\nsize=256k\nnorandommap=0\nbuffer_pattern=0xdeadbeef\n' >rw.fio
	rm -rf "$target" && mkdir "$target"
	dbio_ok rw.fio --directory="$target" --keep
	writes=$(jpy "$result" 'run["ops"]["write"]["count"]')
	[ "$writes" -gt 0 ]
	[ "$(pattern_blocks "$target"/dbio.j.0.0 deadbeef 4096)" = "$writes 64" ]
}

@test "fio buffers: buffer_pattern's bad values and what it does not go with are refused with the reason" {
	printf '[j]\nrw=write\nsize=1m\nbuffer_pattern=0xzz\n' >bad.fio
	refused_file bad.fio "dbio: bad.fio:4: key 'buffer_pattern': cannot read '0xzz' at '0xzz': expected 0x and hex digits (0xdeadbeef), \"text\" or a decimal number, run together (job 'j')"
	printf "[j]\nrw=write\nsize=1m\nbuffer_pattern='data.bin'\n" >file.fio
	refused_file file.fio "dbio: file.fio:4: key 'buffer_pattern': pattern file data.bin: No such file or directory (job 'j')"
	printf '[j]\nrw=write\nsize=1m\nbuffer_pattern=0xaa\ndedupe_percentage=10\n' >dedupe.fio
	refused_file dedupe.fio "dbio: dedupe.fio:4: key 'buffer_pattern': with dedupe_percentage: dbio writes the pattern alone; give one or the other (job 'j')"
	printf '[j]\nrw=write\nsize=1m\nbuffer_pattern=0xaa\nverify=crc32c\n' >verify.fio
	refused_file verify.fio "dbio: verify.fio:4: key 'buffer_pattern': with verify: the writes carry verify's headers and verify_pattern; give verify_pattern instead (job 'j')"
	printf '[j]\nworkload=oltp\nnumjobs=2\ntime_based\nruntime=1\nbuffer_pattern=0xaa\n' >oltp.fio
	refused_file oltp.fio "dbio: oltp.fio:6: key 'buffer_pattern': not for workload=oltp: its pages and log records carry data of their own (job 'j')"
}

@test "fio buffers: buffer_pattern and verify_pattern in fio's file form ('NAME'): the file's bytes, written and checked (fio's t0027)" {
	# t0027: a 16 KiB pattern file, one 16 KiB write of it, then a read
	# with verify=pattern of the same file. fio 3.33 writes its first 512
	# bytes only (its cap then: the file differs from byte 513 on, and it
	# fails t0027); newer fio reads the whole file, as dbio does.
	head -c 16384 /dev/urandom >p.bin
	head -c 100 /dev/urandom >q.bin
	printf "[global]\nfilename=tfile\nsize=16k\nbs=16k\n[write_job]\nreadwrite=write\nbuffer_pattern='p.bin'\n[read_job]\nstonewall=1\nreadwrite=read\nverify=pattern\nverify_pattern='PAT'\n" >t.fio
	sed "s/PAT/p.bin/" t.fio >good.fio
	sed "s/PAT/q.bin/" t.fio >bad.fio
	rm -rf "$target" && mkdir "$target"
	dbio_ok good.fio --directory="$target" --keep
	cmp "$target/tfile" p.bin
	json_is "$result" "$R0.ops.write.count=1" "jobs.1.runs.0.ops.read.count=1"
	rm -rf "$target" && mkdir "$target"
	run --separate-stderr "$DBIO" run bad.fio --directory="$target"
	[ "$status" -eq 1 ]
	echo "$stderr" | grep -qF "verify=pattern: 1 of 1 blocks read back did not match what was written"
}

@test "fio buffers: a pattern file that is missing, not a regular file, empty, too big or misquoted is refused with the reason" {
	mkfifo fifo
	mkdir dir
	: >empty
	head -c 65537 /dev/zero >big
	head -c 16 /dev/urandom >p.bin
	local v want
	while IFS='|' read -r v want; do
		run --separate-stderr "$DBIO" run --directory="$target" --size=16k --rw=write --buffer_pattern="$v"
		[ "$status" -eq 2 ]
		[ "$stderr" = "dbio: command line: key 'buffer_pattern': $want (job 'job')" ]
	done <<-'EOF2'
		'nope'|pattern file nope: No such file or directory
		'dir'|pattern file dir: a directory: the pattern is a regular file's bytes
		'fifo'|pattern file fifo: a FIFO: the pattern is a regular file's bytes
		'/dev/null'|pattern file /dev/null: a character device: the pattern is a regular file's bytes
		'empty'|pattern file empty: 0 bytes: expected 1 to 65536
		'big'|pattern file big: 65537 bytes: expected 1 to 65536
		'p.bin'0xaa|bad value ''p.bin'0xaa': fio's file form is a file's name in single quotes, alone ('pattern.bin')
		'p.bin|bad value ''p.bin': fio's file form is a file's name in single quotes, alone ('pattern.bin')
	EOF2
	run --separate-stderr "$DBIO" run --directory="$target" --size=16k --rw=read --verify=pattern --verify_pattern="'nope'"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'verify_pattern': pattern file nope: No such file or directory (job 'job')" ]
	is_empty_dir "$target"
}

@test "fio buffers: a pattern file behind another user's symlink is refused, nothing read or written" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to plant a symlink owned by another user"
	head -c 16 /dev/urandom >secret
	ln -s "$scratch/secret" evil
	chown -h nobody evil
	run --separate-stderr "$DBIO" run --directory="$target" --size=16k --rw=write --buffer_pattern="'evil'"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'buffer_pattern': pattern file evil: a symlink that belongs to user $(id -u nobody): refusing to follow it (give the path it points to) (job 'job')" ]
	is_empty_dir "$target"
}
