#!/usr/bin/env bats
# fio's "how much and where" keys: io_size (io_limit) and number_ios (how
# much a thread does), offset and offset_increment (where in its files it
# starts), rw's offset modifiers (rw=write:4k, rw=read:-8k, rw=randread:8)
# with rw_sequencer — each with op counts checked against fio's, and the
# offsets against fio's write_iolog where they are fio's own.

load helpers

# dbio_offsets FILE: the reads and writes of `dbio run FILE`, "r0 r56 ..."
# (KiB; "/LEN" after one that is not 4 KiB), from strace on the files in
# $target; the layout's writes are left out (prefill=0).
dbio_offsets() {
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 # LeakSanitizer cannot run under ptrace
	rm -rf "$target" && mkdir "$target"
	strace -f -qq -y -e trace=pread64,pwrite64 -o "$scratch/trace" "$DBIO" run "$1" --prefill=0 \
		--directory="$target" --output="$result" >/dev/null 2>&1
	sed -nE 's/^[0-9]+ +p(read|write)64\([0-9]+<[^>]*\/target\/[^>]*>, .*, ([0-9]+), ([0-9]+)\) += [0-9]+$/\1 \3 \2/p' "$scratch/trace" |
		awk '{ printf "%s%s%d%s", (NR > 1 ? " " : ""), substr($1, 1, 1), $2 / 1024, ($3 != 4096 ? "/" $3 : "") } END { print "" }'
}

# fio_offsets FILE: the same from fio's write_iolog of FILE's one job.
fio_offsets() {
	command -v fio >/dev/null || skip "fio is not installed (scripts/install-deps installs it)"
	rm -rf "$target" "$scratch/iolog" && mkdir "$target"
	{
		cat "$1"
		echo "write_iolog=$scratch/iolog"
	} >"$scratch/logged.fio"
	fio --directory="$target" --output=/dev/null "$scratch/logged.fio" >/dev/null
	awk '$3 == "read" || $3 == "write" { printf "%s%s%d%s", (n++ ? " " : ""), substr($3, 1, 1), $4 / 1024, ($5 != 4096 ? "/" $5 : "") } END { print "" }' "$scratch/iolog"
}

@test "fio where: io_size above and below size, with loops, and io_limit give fio's op counts" {
	cat >j.fio <<'EOF'
[global]
size=1m
bs=4k
stonewall
[more]
rw=read
io_size=2m
[less]
rw=randwrite
io_size=512k
[loops]
rw=write
io_size=3m
loops=2
[partial]
rw=read
io_limit=1030k
[below-a-block]
rw=read
io_size=1026k
EOF
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'below-a-block read 256\nless write 128\nloops write 768\nmore read 512\npartial read 258')" ]
	json_is "$result" jobs.0.options.io_size=2097152 jobs.3.options.io_size=1054720
}

@test "fio where: number_ios stops a thread, times loops, as in fio" {
	cat >j.fio <<'EOF'
[global]
size=1m
bs=4k
stonewall
[fewer]
rw=randread
number_ios=100
loops=2
numjobs=2
[more-than-size]
rw=write
number_ios=1000
loops=2
EOF
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'fewer read 400\nmore-than-size write 512')" ]
}

@test "fio where: syncs at the end of a pass and of the budget are fio's" {
	fast_target
	cat >j.fio <<'EOF'
[global]
size=64k
bs=4k
stonewall
[loops]
rw=write
fsync=16
loops=2
[io-size]
rw=randwrite
fsync=16
io_size=128k
[budget]
rw=write
fsync=4
number_ios=8
EOF
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'budget sync 1\nbudget write 8\nio-size sync 2\nio-size write 32\nloops sync 2\nloops write 32')" ]
}

@test "fio where: offset and offset_increment give fio's op counts and file sizes" {
	cat >j.fio <<'EOF'
[global]
bs=4k
stonewall
[clones]
rw=write
size=1m
offset=256k
offset_increment=512k
numjobs=3
[in-filesize]
rw=read
filesize=1m
offset=256k
[unaligned]
rw=randread
filesize=1m
offset=1000
[one-file]
rw=randwrite
filesize=2m
offset_increment=512k
numjobs=3
filename=shared
EOF
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'clones write 768\nin-filesize read 192\none-file write 1152\nunaligned read 255')" ]
	rm -rf "$target" && mkdir "$target"
	dbio_ok --directory="$target" --keep --rw=write --size=1m --offset=256k --offset_increment=512k --numjobs=3
	[ "$(stat -c %s "$target/dbio.job.0.0")" -eq 1310720 ]
	[ "$(stat -c %s "$target/dbio.job.2.0")" -eq 2359296 ]
}

@test "fio where: the I/O starts at offset (strace)" {
	printf '[j]\nrw=write\nfilesize=64k\noffset=48k\n' >j.fio
	[ "$(dbio_offsets j.fio)" = "w48 w52 w56 w60" ]
}

@test "fio where: holes, backwards and random-every-N give fio's op counts" {
	cat >j.fio <<'EOF'
[global]
size=1m
bs=4k
stonewall
[holes]
rw=write:4k
[holes-to-the-end]
rw=write:8k
size=64k
loops=2
[bytes]
rw=read:100
[backwards]
rw=read:-8k
offset=64k
[random-every-8]
rw=randread:8
[identical]
rw=randwrite:3
rw_sequencer=identical
io_size=3m
EOF
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'backwards read 256\nbytes read 249\nholes write 256\nholes-to-the-end write 12\nidentical write 768\nrandom-every-8 read 256')" ]
	json_is "$result" jobs.0.options.rw=write:4k jobs.3.options.rw=read:-8k jobs.5.options.rw_sequencer=identical
}

@test "fio where: backwards and holed offsets are fio's, wrap included" {
	printf '[j]\nrw=read:-12k\nsize=64k\noffset=16k\n' >back.fio
	[ "$(dbio_offsets back.fio)" = "$(fio_offsets back.fio)" ]
	[ "$(dbio_offsets back.fio)" = "r52 r44 r36 r28 r20 r68 r60 r52 r44 r36 r28 r20 r68 r60 r52 r44" ]
	printf '[j]\nrw=write:8k\nsize=64k\n' >holes.fio
	[ "$(dbio_offsets holes.fio)" = "$(fio_offsets holes.fio)" ]
	printf '[j]\nrw=randread:4\nrw_sequencer=identical\nsize=64k\n' >ident.fio
	dbio_offsets ident.fio | awk '{ for (i = 1; i <= NF; i += 4) if ($i != $(i + 1) || $i != $(i + 2) || $i != $(i + 3)) exit 1 }'
}

@test "fio where: what fio means otherwise, or not at all, is refused with the reason" {
	printf '[j]\nsize=1m\noffset=25%%\n' >pct.fio
	refused_file pct.fio "dbio: pct.fio:3: key 'offset': '25%': fio takes a percentage of the size a file has before the job lays it out, which for a new file is 0 (fio starts such a job at 0), and dbio makes every file: give the offset in bytes (offset=256k) (job 'j')"
	printf '[j]\nsize=1m\ntime_based\nruntime=1\nio_size=2m\n' >tb.fio
	refused_file tb.fio "dbio: tb.fio:5: key 'io_size': bounds a job by its I/O, and this one is time_based: it runs for runtime= (fio ignores io_size then); drop one of the two (job 'j')"
	printf '[j]\nsize=1m\nrw=write:4k\nnrfiles=2\n' >nr.fio
	refused_file nr.fio "dbio: nr.fio:3: key 'rw': an offset modifier (:4k) with nrfiles=2: fio takes the files in turn, an I/O each, and dbio one after the other, so the modified offsets would differ; give one file per job (job 'j')"
	printf '[j]\nsize=1m\nrw=randread:0\n' >zero.fio
	refused_file zero.fio "dbio: zero.fio:3: key 'rw': bad offset modifier ':0': for a random pattern, expected a whole number of I/Os >= 1 (rw=randread:8: a new random offset every 8 I/Os) (job 'j')"
	printf '[j]\nsize=1m\nrw=read:4q\n' >bad.fio
	refused_file bad.fio "dbio: bad.fio:3: key 'rw': bad offset modifier ':4q': for a sequential pattern, expected bytes to skip after each I/O (rw=write:4k), negative to go backwards (rw=read:-8k) (job 'j')"
	printf '[j]\nfilesize=1m\noffset_increment=512k\nnumjobs=3\n' >past.fio
	refused_file past.fio "dbio: past.fio:3: key 'offset_increment': thread 2 starts at 1 MiB, which leaves less than one block (bs=4 KiB) of filesize=1 MiB (job 'j')"
	printf '[j]\nsize=1m\ndirect=1\noffset=1000\n' >direct.fio
	refused_file direct.fio "dbio: direct.fio:4: key 'offset': 1000 is not a multiple of 512, which direct=1 needs (job 'j')"
	run --separate-stderr "$DBIO" run --workload=oltp --numjobs=2 --time_based --runtime=1 --offset=4k --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'offset': not for workload=oltp: its transactions pick their pages over the whole database, for runtime= (job 'job')" ]
}

@test "fio where: bs=READ,WRITE gives fio's op counts, and results record both" {
	cat >j.fio <<'EOF'
[global]
size=1m
stonewall
[reads]
rw=read
bs=4k,64k
[writes]
rw=write
bs=4k,64k
[write-default-read]
rw=write
bs=,8k
[read-default-write]
rw=randwrite
bs=8k,
[one-list]
rw=randread
bs=16k
blocksize=2k,2k,2k
EOF
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'one-list read 512\nread-default-write write 256\nreads read 256\nwrite-default-read write 128\nwrites write 16')" ]
	json_is "$result" jobs.0.options.bs=4096,65536 jobs.2.options.bs=4096,8192 jobs.4.options.bs=2048
}

@test "fio where: bs=READ,WRITE,TRIM trims with the TRIM size, with fio's op counts (t0023's bs_no_rm)" {
	# fio 3.33: randtrimwrite 128 trims and 128 writes of 8k; trim 128;
	# randtrim of bs=4k,16k 64 (the trim size is the last one given)
	cat >j.fio <<'EOF'
[global]
filesize=1m
ioengine=null
stonewall
[randtrimwrite]
rw=randtrimwrite
bs=4k,4k,8k
norandommap=1
randrepeat=0
[trim]
rw=trim
bs=4k,4k,8k
[randtrim-inherits]
rw=randtrim
bs=4k,16k
EOF
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'randtrim-inherits trim 64\nrandtrimwrite trim 128\nrandtrimwrite write 128\ntrim trim 128')" ]
	json_is "$result" jobs.0.runs.0.ops.write.bytes=1048576 jobs.0.runs.0.ops.trim.bytes=1048576
}

@test "fio where: a mixed job of bs=READ,WRITE reads and writes each its own size (strace)" {
	printf '[j]\nrw=rw\nbs=4k,16k\nsize=256k\n' >j.fio
	dbio_offsets j.fio | tr ' ' '\n' >ops
	[ "$(grep -c '^r' ops)" -gt 0 ]
	[ "$(grep -c '^w' ops)" -gt 0 ]
	[ "$(grep -c '^r.*/' ops)" -eq 0 ]
	[ "$(grep -c '^w.*/16384$' ops)" -eq "$(grep -c '^w' ops)" ]
}

# sizes FILE: the sizes of the I/Os of dbio_offsets FILE, one a line.
sizes() {
	dbio_offsets "$1" | tr ' ' '\n' | sed -e 's/^[rw][0-9]*\///' -e 's/^[rw][0-9]*$/4096/'
}

@test "fio where: bsrange and bssplit draw fio's sizes; a pass is size bytes, as in fio" {
	printf '[j]\nrw=read\nbsrange=4k-16k\nsize=1m\n' >seq.fio
	sizes seq.fio >s
	[ "$(sort -un s | tr '\n' ' ')" = "4096 8192 12288 16384 " ]
	[ "$(paste -sd+ s | bc)" -eq 1048576 ]
	# random with the map: each block once, an I/O cut at a block done before
	printf '[j]\nrw=randwrite\nbssplit=4k/50:64k/50\nsize=1m\n' >split.fio
	sizes split.fio >s
	[ "$(paste -sd+ s | bc)" -eq 1048576 ]
	[ "$(awk '$1 % 4096 || $1 > 65536' s | wc -l)" -eq 0 ]
	[ "$(grep -cx 65536 s)" -gt 0 ]
	# reads and writes of their own sizes, size bytes in all
	printf '[j]\nrw=randrw\nbssplit=2k/50:4k/50,4k/90:8k/10\nsize=1m\n' >mixed.fio
	dbio_offsets mixed.fio | tr ' ' '\n' >ops
	[ "$(grep -c '^r' ops)" -gt 0 ]
	[ "$(grep -Ec '^r[0-9]+/(2048|4096)$|^r[0-9]+$' ops)" -eq "$(grep -c '^r' ops)" ]
	[ "$(grep -Ec '^w[0-9]+/8192$|^w[0-9]+$' ops)" -eq "$(grep -c '^w' ops)" ]
	[ "$(jpy "$result" "run['ops']['read']['bytes'] + run['ops']['write']['bytes']")" -ge 1048576 ]
	# fio's bytes are the same: size, whatever the sizes drawn
	command -v fio >/dev/null || skip "fio is not installed (scripts/install-deps installs it)"
	printf '[global]\nsize=1m\nstonewall\n[seq]\nrw=read\nbsrange=4k-16k\n[split]\nrw=randread\nbssplit=4k/10:64k/50:32k/\n' >j.fio
	dbio_ok j.fio --directory="$target"
	rm -rf "$target" && mkdir "$target"
	fio --directory="$target" --output-format=json --output=fio.json j.fio >/dev/null
	[ "$(jpy "$result" "[j['runs'][0]['ops']['read']['bytes'] for j in r['jobs']]")" = "[1048576, 1048576]" ]
	[ "$(value fio.json "[j['read']['io_bytes'] for j in d['jobs']]")" = "[1048576, 1048576]" ]
}

@test "fio where: bsrange and bssplit sizes, random offsets and a mix's directions are fio's draws: fio 3.33's op counts, numjobs=2" {
	cat >j.fio <<'EOF'
[global]
ioengine=psync
size=2m
numjobs=2
[bsr-write]
rw=write
bsrange=4k-16k
[bsr-randwrite]
rw=randwrite
bsrange=4k-16k
[bsr-randrw]
rw=randrw
bsrange=4k-16k
[bss-write]
rw=write
bssplit=4k/50:8k/30:16k/20
[bss-randwrite]
rw=randwrite
bssplit=4k/50:8k/30:16k/20
[bss-randrw]
rw=randrw
bssplit=4k/50:8k/30:16k/20
EOF
	dbio_ok j.fio --directory="$target"
	# fio 3.33's counts of this file (each job's two threads summed)
	[ "$(counts "$result")" = "$(printf '%s\n' 'bsr-randrw read 267' 'bsr-randrw write 237' 'bsr-randwrite write 502' \
		'bsr-write write 409' 'bss-randrw read 337' 'bss-randrw write 313' 'bss-randwrite write 648' 'bss-write write 550')" ]
	same_as_fio j.fio
}

@test "fio where: fio's draws with rwmixread and rwmixwrite, a queued engine, loops, randseed, tausworthe64, norandommap and verify" {
	cat >j.fio <<'EOF'
[global]
size=1m
[readwrite]
ioengine=psync
rw=readwrite
[mix70]
ioengine=posixaio
iodepth=8
rw=randrw
rwmixread=70
bsrange=1k-8k
[mix-w20]
ioengine=psync
rw=randrw
rwmixwrite=20
loops=3
bssplit=4k/50:16k/50
[taus64]
ioengine=psync
rw=randrw
random_generator=tausworthe64
randseed=1234
bsrange=4k-16k
[norandommap]
ioengine=psync
rw=randrw
norandommap
bsrange=4k-16k
[verify]
ioengine=psync
rw=randwrite
verify=crc32c
bsrange=4k-16k
EOF
	dbio_ok j.fio --directory="$target"
	# fio 3.33's counts; mix-w20's three loops are one loop's 100 and 25
	# each, as fio draws each loop again from the start
	[ "$(counts "$result")" = "$(printf '%s\n' 'mix-w20 read 300' 'mix-w20 write 75' 'mix70 read 216' 'mix70 write 83' \
		'norandommap read 62' 'norandommap write 47' 'readwrite read 132' 'readwrite write 124' 'taus64 read 57' \
		'taus64 write 75' 'verify read 119' 'verify write 119')" ]
	same_as_fio j.fio
	# another randseed: other draws, fio's again
	sed -i 's/^randseed=1234$/randseed=99/' j.fio
	rm -rf "$target" && mkdir "$target"
	same_as_fio j.fio
	[ "$(grep '^taus64 ' dbio.counts | tr '\n' ' ')" != "taus64 read 57 taus64 write 75 " ]
}

@test "fio where: t0023's and t0024's trimwrite jobs of bsrange and bssplit, with randrepeat=1, trim and write fio 3.33's counts" {
	# fio's t/jobs set randrepeat=0, with which fio's own counts vary
	# from run to run; with fio's default randrepeat=1 they are fixed
	for rw in randtrimwrite trimwrite; do
		printf '[global]\nfilesize=1M\nioengine=null\nrw=%s\n[basic]\n[bs]\nbs=8k,8k,8k\n[bsrange]\nbsrange=512-4k\n[bssplit]\nbssplit=512/25:1k/:2k/:4k/\n' \
			"$rw" >"$rw.fio"
	done
	printf '[basic_no_rm]\nnorandommap=1\n[bs_no_rm]\nbs=4k,4k,8k\nnorandommap=1\n[bsrange_no_rm]\nbsrange=512-4k\nnorandommap=1\n[bssplit_no_rm]\nbssplit=512/25:1k/:2k/:4k/\nnorandommap=1\n' >>randtrimwrite.fio
	dbio_ok randtrimwrite.fio --directory="$target"
	[ "$(counts "$result" | grep '^bs[rs]' | tr '\n' ' ')" = "bsrange trim 606 bsrange write 606 bsrange_no_rm trim 447 bsrange_no_rm write 447 bssplit trim 745 bssplit write 745 bssplit_no_rm trim 532 bssplit_no_rm write 532 " ]
	dbio_ok trimwrite.fio --directory="$target"
	[ "$(counts "$result" | grep '^bs[rs]' | tr '\n' ' ')" = "bsrange trim 463 bsrange write 463 bssplit trim 550 bssplit write 550 " ]
	same_as_fio randtrimwrite.fio
	rm -rf "$target" && mkdir "$target"
	same_as_fio trimwrite.fio
}

@test "fio where: bs_unaligned sizes of any length fill the file as fio does" {
	printf '[j]\nrw=write\nbsrange=1k-9k\nbs_unaligned\nsize=1m\n' >j.fio
	sizes j.fio >s
	[ "$(awk '$1 < 1024 || $1 > 9216' s | wc -l)" -eq 0 ]
	[ "$(awk '$1 % 1024' s | wc -l)" -gt 0 ]
	total=$(paste -sd+ s | bc)
	[ "$total" -le 1048576 ]
	[ $((1048576 - total)) -lt 1024 ]
}

@test "fio where: blockalign aligns random offsets, and bsrange=4k-4k is bs=4k, with fio's op counts" {
	cat >j.fio <<'EOF'
[global]
size=1m
stonewall
norandommap
[aligned]
rw=randread
bs=4k
ba=1k
[eight]
rw=randwrite
bs=8k
blockalign=4k
[tiobench]
rw=randwrite
bsrange=4k-4k
numjobs=2
EOF
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'aligned read 256\neight write 128\ntiobench write 512')" ]
	printf '[j]\nrw=randread\nbs=4k\nba=1k\nsize=64k\n' >ba.fio
	dbio_offsets ba.fio | tr ' ' '\n' | sed 's/^r//' >offs
	[ "$(awk '$1 > 60' offs | wc -l)" -eq 0 ]
	[ "$(awk '$1 % 4' offs | wc -l)" -gt 0 ]
}

@test "fio where: sizes fio takes otherwise, or not at all, are refused with the reason" {
	printf '[j]\nsize=1m\nbssplit=4k/60:8k/50\n' >sum.fio
	refused_file sum.fio "dbio: sum.fio:3: key 'bssplit': '4k/60:8k/50': the shares add up to 110, more than 100 (job 'j')"
	printf '[j]\nsize=1m\nbsrange=16k-4k\n' >inv.fio
	refused_file inv.fio "dbio: inv.fio:3: key 'bsrange': '16k-4k': the range is inverted (LO > HI) (job 'j')"
	printf '[j]\nsize=1m\nbsrange=4k-16k\nnrfiles=2\n' >nr.fio
	refused_file nr.fio "dbio: nr.fio:3: key 'bsrange': sizes or alignments that vary, with nrfiles=2: fio takes the files in turn, an I/O each, and dbio one after the other; give one file per job (job 'j')"
	printf '[j]\nsize=1m\ndirect=1\nbssplit=4k/50:1000/50\n' >direct.fio
	refused_file direct.fio "dbio: direct.fio:4: key 'bssplit': 1000 is not a multiple of 512, which direct=1 needs (the device's logical block size) (job 'j')"
	printf '[j]\nsize=1m\ndirect=1\nbsrange=4k-8k\nbs_unaligned\n' >unal.fio
	refused_file unal.fio "dbio: unal.fio:5: key 'bs_unaligned': sizes of any length do not go with direct=1, which needs multiples of 512 (job 'j')"
	printf '[j]\nsize=1m\nbs=4k,8k,16k,32k\n' >four.fio
	refused_file four.fio "dbio: four.fio:3: key 'bs': bad value '4k,8k,16k,32k': more than READ,WRITE,TRIM: expected a size from 1 B to 1 GiB with an optional k, m, g or t suffix (binary: 1k = 1024), e.g. 4k"
}


@test "fio where: zonemode=strided gives fio's op counts and offsets" {
	cat >j.fio <<'EOF'
[global]
size=256k
bs=4k
zonemode=strided
stonewall
[skip]
rw=read
zonesize=16k
zoneskip=16k
[range]
rw=write
zonesize=16k
zonerange=64k
fsync=5
[twice]
rw=read
zonesize=32k
zonerange=16k
[random]
rw=randread
zonesize=16k
zonerange=64k
[after-offset]
rw=write
zonesize=16k
zonerange=32k
zoneskip=32k
offset=8k
EOF
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'after-offset write 64\nrandom read 64\nrange sync 12\nrange write 64\nskip read 64\ntwice read 64')" ]
	printf '[j]\nrw=write\nsize=256k\nzonemode=strided\nzonesize=16k\nzonerange=32k\nzoneskip=32k\noffset=8k\n' >z.fio
	[ "$(dbio_offsets z.fio)" = "$(fio_offsets z.fio)" ]
	printf '[j]\nrw=read\nsize=256k\nzonemode=strided\nzonesize=32k\nzonerange=16k\n' >twice.fio
	[ "$(dbio_offsets twice.fio)" = "$(fio_offsets twice.fio)" ]
}

@test "fio where: zonesize alone is zonemode=strided, and random I/O stays in its zone" {
	printf '[j]\nrw=randread\nsize=256k\nzonesize=16k\nzonerange=64k\n' >j.fio
	dbio_offsets j.fio | tr ' ' '\n' | sed 's/^r//' >offs
	json_is "$result" jobs.0.options.zonemode=strided jobs.0.options.zonerange=65536
	# I/O n (from 0) is in zone n / 4 (of 4 zones, then over again)
	[ "$(awk '{ z = int((NR - 1) / 4) % 4; if ($1 < z * 64 || $1 >= z * 64 + 64) print }' offs | wc -l)" -eq 0 ]
	[ "$(wc -l <offs)" -eq 64 ]
}

@test "fio where: percentage_random gives fio's op counts; 0 is fio's sequential walk" {
	cat >j.fio <<'EOF'
[global]
size=1m
bs=4k
stonewall
[half]
rw=randread
percentage_random=50
[none]
rw=randwrite
percentage_random=0
fsync=7
EOF
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'half read 256\nnone sync 36\nnone write 256')" ]
	# READ,WRITE apart: a mixed job, so only the total is fio's
	rm -rf "$target" && mkdir "$target"
	dbio_ok --directory="$target" --rw=randrw --percentage_random=100,20 --size=1m --io_size=2m
	[ "$(jpy "$result" "run['ops']['read']['count'] + run['ops']['write']['count']")" -eq 512 ]
	json_is "$result" jobs.0.options.percentage_random=100,20
	printf '[j]\nrw=randread\nsize=64k\npercentage_random=0\n' >seq.fio
	[ "$(dbio_offsets seq.fio)" = "$(fio_offsets seq.fio)" ]
}

@test "fio where: random_distribution zoned, zoned_abs and normal, random_generator give fio's op counts" {
	cat >j.fio <<'EOF'
[global]
size=1m
bs=4k
stonewall
[zones]
rw=randread
norandommap
random_distribution=zoned:50/5:30/15:20/
[zones-map]
rw=randwrite
random_distribution=zoned:60/10:30/20:8/30:2/40
[absolute]
rw=randread
random_distribution=zoned_abs:60/64k:30/256k:10/512k
[normal]
rw=randread
random_distribution=normal:10
[lfsr]
rw=randread
norandommap
random_generator=lfsr
EOF
	same_as_fio j.fio
	[ "$(cat dbio.counts)" = "$(printf 'absolute read 256\nlfsr read 256\nnormal read 256\nzones read 256\nzones-map write 256')" ]
	json_is "$result" jobs.4.options.random_generator=lfsr
}

@test "fio where: zoned sends its shares of the accesses to its zones (strace)" {
	printf '[j]\nrw=randread\nsize=1m\nnorandommap\nrandom_distribution=zoned:50/5:50/\nio_size=8m\n' >j.fio
	dbio_offsets j.fio | tr ' ' '\n' | sed 's/^r//' >offs
	[ "$(wc -l <offs)" -eq 2048 ]
	# half the reads in the first 5 % (fio's 5 % of 256 blocks: 12 blocks, 48 KiB)
	hot=$(awk '$1 < 48' offs | wc -l)
	[ "$hot" -gt 900 ]
	[ "$hot" -lt 1150 ]
}

@test "fio where: lfsr does each block once, also with norandommap (strace)" {
	printf '[j]\nrw=randread\nsize=256k\nnorandommap\nrandom_generator=lfsr\n' >j.fio
	dbio_offsets j.fio | tr ' ' '\n' >offs
	[ "$(sort -u offs | wc -l)" -eq 64 ]
	[ "$(wc -l <offs)" -eq 64 ]
}

@test "fio where: two jobs of one file draw apart, as fio seeds each thread by its number; a lone job draws as before" {
	printf '[a]\nrw=randread\nsize=256k\nfilename=fa\n[b]\nstonewall\nrw=randread\nsize=256k\nfilename=fb\n' >j.fio
	dbio_offsets j.fio | tr ' ' '\n' >offs
	[ "$(wc -l <offs)" -eq 128 ]
	head -n 64 offs >a
	tail -n 64 offs >b
	run cmp -s a b
	[ "$status" -eq 1 ]
	[ "$(sort a | md5sum)" = "$(sort b | md5sum)" ]
	printf '[a]\nrw=randread\nsize=256k\nfilename=fa\n' >one.fio
	dbio_offsets one.fio | tr ' ' '\n' >one
	cmp a one
}

@test "fio where: zones and distributions fio takes otherwise, or not at all, are refused with the reason" {
	printf '[j]\nsize=1m\nzonemode=zbd\n' >zbd.fio
	refused_file zbd.fio "dbio: zbd.fio:3: key 'zonemode': zoned block devices (zonemode=zbd) are not in dbio: give zonemode=strided for zones of a file, or none (job 'j')"
	printf '[j]\nsize=1m\nzonemode=none\nzonesize=64k\n' >none.fio
	refused_file none.fio "dbio: none.fio:4: key 'zonesize': zonemode=none leaves no zones (fio 3.33 refuses the pair; later fio ignores zonesize): give zonemode=strided, or drop zonesize (job 'j')"
	printf '[j]\nsize=1m\nzonerange=64k\n' >range.fio
	refused_file range.fio "dbio: range.fio:3: key 'zonerange': zones need zonesize=, the bytes of I/O in each (job 'j')"
	printf '[j]\nsize=1m\nzonesize=64k\nnrfiles=2\n' >files.fio
	refused_file files.fio "dbio: files.fio:3: key 'zonesize': with nrfiles=2: fio turns zones off for more than one file; give one file per job (job 'j')"
	printf '[j]\nsize=1m\nrw=randread\npercentage_random=50\nnrfiles=2\n' >perc.fio
	refused_file perc.fio "dbio: perc.fio:4: key 'percentage_random': with nrfiles=2: fio takes the files in turn, an I/O each, and dbio one after the other, so the offsets would differ; give one file per job (job 'j')"
	printf '[j]\nsize=1m\nrw=randread\nrandom_distribution=zoned:50/5:30/15\n' >sum.fio
	refused_file sum.fio "dbio: sum.fio:4: key 'random_distribution': '50/5:30/15': the accesses add up to 80 and the zones to 20 %: expected accesses of 100 in all and zones of at most 100 % (job 'j')"
	printf '[j]\nsize=1m\nrw=randread\nrandom_distribution=zoned_abs:50/512k:50/1m\n' >abs.fio
	refused_file abs.fio "dbio: abs.fio:4: key 'random_distribution': the zones add up to 1.50 MiB, more than the 1 MiB a thread's region of its file holds (job 'j')"
	printf '[j]\nsize=1m\nrw=randread\nrandom_distribution=normal:10:0.3\n' >center.fio
	refused_file center.fio "dbio: center.fio:4: key 'random_distribution': 'normal:10:0.3': a center after the deviation is not taken yet: give normal:DEV alone (job 'j')"
	printf '[j]\nsize=1m\nrw=randread\nrandom_distribution=normal:100\n' >dev.fio
	refused_file dev.fio "dbio: dev.fio:4: key 'random_distribution': bad value 'normal:100': normal:DEV takes a deviation from 0 to below 100 (job 'j')"
	printf '[j]\nsize=1m\nrw=randread\npercentage_sequential=30\n' >seqp.fio
	refused_file seqp.fio "dbio: seqp.fio:4: key 'percentage_sequential': fio ignores it too (deprecated); drop the key"
}

# fio 3.33 has no sequence distribution (fio 3.41 does): the offsets are
# checked against fio's documented order (HOWTO, random_sequence_stride).
@test "fio where: random_distribution=sequence visits its blocks in order, strided a group on with random_sequence_stride" {
	printf '[j]\nrw=randread\nbs=4k\nsize=48k\nio_size=24k\nrandom_distribution=sequence:2,0,1\n' >rep.fio
	[ "$(dbio_offsets rep.fio)" = "r8 r0 r4 r8 r0 r4" ]
	printf '[j]\nrw=randread\nbs=4k\nsize=48k\nio_size=24k\nrandom_distribution=sequence:2,0,1\nrandom_sequence_stride=1\n' >stride.fio
	[ "$(dbio_offsets stride.fio)" = "r8 r0 r4 r20 r12 r16" ]
	# a group past the region ends the job, as in fio: 12 blocks, groups of 2
	printf '[j]\nrw=randwrite\nbs=4k\nsize=48k\nrandom_distribution=sequence:5,0\nrandom_sequence_stride=1\n' >end.fio
	[ "$(dbio_offsets end.fio)" = "w20 w0 w28 w8 w36 w16 w44 w24" ]
	# a sequential pattern ignores it, as fio
	printf '[j]\nrw=read\nbs=4k\nsize=16k\nrandom_distribution=sequence:2,0,1\n' >seq.fio
	[ "$(dbio_offsets seq.fio)" = "r0 r4 r8 r12" ]
}

@test "fio where: a sequence fio cannot follow is refused with the reason" {
	printf '[j]\nrw=randread\nsize=16k\nrandom_distribution=sequence:1,4\n' >past.fio
	refused_file past.fio "dbio: past.fio:4: key 'random_distribution': block 4 of the sequence is past the end: a thread's region of its file (16 KiB) holds 4 blocks of 4096 bytes, 0 to 3 (job 'j')"
	printf '[j]\nrw=randread\nsize=16k\nrandom_distribution=sequence:1,-2\n' >neg.fio
	refused_file neg.fio "dbio: neg.fio:4: key 'random_distribution': bad block '-2' in 'sequence:1,-2': sequence:B,B,... takes block numbers from 0, ',' between them (job 'j')"
	printf '[j]\nrw=randread\nsize=16k\nrandom_distribution=sequence:\n' >empty.fio
	refused_file empty.fio "dbio: empty.fio:4: key 'random_distribution': bad block '' in 'sequence:': sequence:B,B,... takes block numbers from 0, ',' between them (job 'j')"
	printf '[j]\nrw=randread\nsize=1m\nrandom_distribution=sequence:%s0\n' "$(printf '0,%.0s' $(seq 64))" >long.fio
	run "$DBIO" run long.fio --directory="$target"
	[ "$status" -eq 2 ]
	[[ "$output" == *"more than 64 blocks in the sequence (fio's limit) (job 'j')"* ]]
	printf '[j]\nrw=randread\nsize=16k\nnrfiles=2\nrandom_distribution=sequence:1\n' >files.fio
	refused_file files.fio "dbio: files.fio:5: key 'random_distribution': with nrfiles=2: fio takes the files in turn, an I/O each, and dbio one after the other, so the offsets would differ; give one file per job (job 'j')"
}
