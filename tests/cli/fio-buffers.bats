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
