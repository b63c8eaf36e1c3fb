#!/usr/bin/env bats
# fio's falloc and ftruncate engines and its trim modes, with fio's meaning
# (docs/fio.md, docs/engines.md): fio 3.33's op counts on the same job
# files (reads, writes and trims), the calls each engine makes and their
# modes (strace), the size and blocks the files are left with, the trims in
# dbio's result and in fio's JSON, and the refusals, each with its text.

load helpers

# need_strace: skip, saying why, unless strace is here.
need_strace() {
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
}

# traced CALLS KEYS...: `dbio run KEYS...` under strace -ff of CALLS (a
# strace -e trace= list), one file a thread, $scratch/trace.<tid>, so that
# the calls of two threads are not cut in two; must exit 0.
traced() {
	local calls=$1
	shift
	rm -f "$scratch"/trace.*
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 run --separate-stderr strace -ff -qq \
		-e trace="$calls" -o "$scratch/trace" \
		"$DBIO" run --output "$result" --progress=none --directory="$target" "$@"
	[ "$status" -eq 0 ] || {
		echo "$stderr" >&2
		return 1
	}
}

# calls NAME: the calls NAME of the trace, each thread's in order, without
# strace's alignment: "fallocate(4, 0, 0, 4096) = 0".
calls() {
	cat "$scratch"/trace.* | sed -E 's/\) +=/) =/' | grep "^$1("
}

# every_mode ENGINE MODE...: a job file of one job per MODE on ENGINE, each
# after the one before (stonewall), 64 KiB in 4 KiB blocks, into modes.fio.
every_mode() {
	local e=$1 rw
	shift
	printf '[global]\nioengine=%s\nbs=4k\nsize=64k\nstonewall\n' "$e" >modes.fio
	for rw in "$@"; do
		printf '[%s]\nrw=%s\nfilename=%s\n' "$rw" "$rw" "$rw" >>modes.fio
	done
}

@test "falloc: every rw mode, trims too, makes fio 3.33's reads, writes and trims" {
	every_mode falloc read write randread randwrite trim randtrim trimwrite randtrimwrite rewrite
	# rewrite is dbio's own: fio knows no such mode
	sed -i '/^\[rewrite\]$/,$d' modes.fio
	same_as_fio modes.fio
	[ "$(grep -c . dbio.counts)" -eq 10 ]
	grep -qx 'trimwrite trim 16' dbio.counts
	grep -qx 'trimwrite write 16' dbio.counts
	grep -qx 'randtrim trim 16' dbio.counts
}

@test "falloc: several files and threads, trims of 8 KiB: fio 3.33's counts" {
	cat >mix.fio <<'JOB'
[global]
ioengine=falloc
size=256k
stonewall

[threads]
rw=randtrim
bs=8k
numjobs=2
nrfiles=2

[writes]
rw=randwrite
bs=16k
nrfiles=4
JOB
	same_as_fio mix.fio
	[ "$(cat dbio.counts)" = "$(printf 'threads trim 64\nwrites write 16')" ]
}

# fio 3.33's falloc engine passes a sync to fallocate(2) with length 0,
# which fails the job with EINVAL; fio's newer engine (and dbio) fsyncs.
@test "falloc: fsync=3 is an fsync after every third write, as in fio's newer engine (strace)" {
	need_strace
	traced fallocate,fsync --ioengine=falloc --rw=write --size=64k --bs=4k --fsync=3
	# the data file's: the descriptor the fallocates went to (the result
	# file is fsynced too)
	fd=$(calls fallocate | tail -1 | sed 's/fallocate(\([0-9]*\),.*/\1/')
	[ "$(calls fsync | grep -c "^fsync($fd) = 0")" -eq 5 ]
	json_is "$result" "$R0.ops.write.count=16" "$R0.ops.fsync.count=5"
}

@test "falloc: one fallocate per I/O, in fio's mode for each direction (strace)" {
	need_strace
	traced fallocate --ioengine=falloc --rw=write --size=16k --bs=4k --fallocate=none --name=w
	[ "$(calls fallocate | grep -c 'fallocate([0-9]*, 0, [0-9]*, 4096) = 0')" -eq 4 ]
	calls fallocate | grep -q 'fallocate([0-9]*, 0, 12288, 4096) = 0'
	traced fallocate --ioengine=falloc --rw=read --size=16k --bs=4k --fallocate=none --name=r
	[ "$(calls fallocate | grep -c 'fallocate([0-9]*, FALLOC_FL_KEEP_SIZE, [0-9]*, 4096) = 0')" -eq 4 ]
	traced fallocate --ioengine=falloc --rw=trimwrite --size=16k --bs=4k --fallocate=none --name=tw
	[ "$(calls fallocate | grep -c 'fallocate([0-9]*, FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE, [0-9]*, 4096) = 0')" -eq 4 ]
	[ "$(calls fallocate | grep -c 'fallocate([0-9]*, 0, [0-9]*, 4096) = 0')" -eq 4 ]
	# a trim, then the write of the same block
	[ "$(calls fallocate | grep -o 'fallocate([0-9]*, [A-Z_|0]*, [0-9]*' | sed 's/.*, //' | paste -sd' ')" = "0 0 4096 4096 8192 8192 12288 12288" ]
	json_is "$result" "$R0.ops.trim.count=4" "$R0.ops.trim.bytes=16384" "$R0.ops.write.count=4" "$R0.ops.read.count=0"
}

@test "falloc: a trim job leaves its file the size it was with no blocks, as fio's does" {
	printf '[t]\nioengine=falloc\nrw=trim\nbs=4k\nsize=256k\nfilename=f\n' >t.fio
	dbio_ok t.fio --directory="$target" --keep
	[ "$(stat -c %s "$target/f")" -eq 262144 ]
	[ "$(stat -c %b "$target/f")" -eq 0 ]
	rm -f "$target/f"
	printf '[t]\nioengine=falloc\nrw=trimwrite\nbs=4k\nsize=256k\nfilename=f\n' >t.fio
	dbio_ok t.fio --directory="$target" --keep
	[ "$(stat -c %s "$target/f")" -eq 262144 ]
	[ "$(($(stat -c %b "$target/f") * 512))" -ge 262144 ]
}

@test "trims are fio's trim in fio's JSON and in the text report" {
	run --separate-stderr "$DBIO" run --directory="$target" --ioengine=falloc --rw=randtrim --size=64k \
		--bs=4k --output-format=json
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >fio.json
	json_is fio.json jobs.0.trim.total_ios=16 jobs.0.trim.io_bytes=65536 jobs.0.read.total_ios=0 \
		jobs.0.write.total_ios=0
	run --separate-stderr "$DBIO" run --directory="$target" --ioengine=falloc --rw=trim --size=64k --bs=4k
	[ "$status" -eq 0 ]
	[[ $output == *trim* ]]
}

@test "ftruncate: writes make fio 3.33's counts; reads and trims are refused" {
	every_mode ftruncate write randwrite
	same_as_fio modes.fio
	[ "$(cat dbio.counts)" = "$(printf 'randwrite write 16\nwrite write 16')" ]
	rm -f "$target"/*
	for rw in read randread randrw rw trim randtrim trimwrite; do
		printf '[j]\nioengine=ftruncate\nrw=%s\nsize=64k\n' "$rw" >r.fio
		refused_file r.fio "dbio: r.fio:2: key 'ioengine': 'ftruncate' only writes (each write truncates the file to its offset; fio fails a read or trim of it): use rw=write or randwrite, or ioengine=falloc (job 'j')"
	done
}

@test "ftruncate: one ftruncate to each write's offset; the file is left at the last one, as fio leaves it" {
	need_strace
	printf '[g]\nioengine=ftruncate\nrw=write\nbs=4k\nsize=16k\nfilename=f\n' >g.fio
	traced ftruncate g.fio --keep
	[ "$(calls ftruncate | sed 's/.*, \([0-9]*\)).*/\1/' | paste -sd' ')" = "0 4096 8192 12288" ]
	[ "$(stat -c %s "$target/f")" -eq 12288 ]
	json_is "$result" "$R0.ops.write.count=4" "$R0.ops.write.bytes=16384"
}

@test "trims on an engine that cannot trim a file, and rates with trims, are refused before anything runs" {
	local e
	for e in psync sync pvsync2 mmap $(queued_engines_of_build); do
		printf '[j]\nioengine=%s\nrw=randtrim\nsize=64k\n' "$e" >j.fio
		refused_file j.fio "dbio: j.fio:3: key 'rw': trims with ioengine=$e: fio's engines trim with the BLKDISCARD ioctl, which only block devices take (fio fails on a file); use ioengine=falloc, which punches holes (job 'j')"
	done
	printf '[j]\nioengine=falloc\nrw=trimwrite\nsize=64k\nrate_iops=100\n' >j.fio
	refused_file j.fio "dbio: j.fio:5: key 'rate_iops': with rw=trim, randtrim, trimwrite or randtrimwrite: dbio does not pace trims; run without it (job 'j')"
}

@test "null: trims complete at once, as fio's null engine's" {
	dbio_ok --directory="$target" --ioengine=null --rw=trimwrite --size=64k --bs=4k
	json_is "$result" "$R0.ops.trim.count=16" "$R0.ops.write.count=16" "$R0.ops.read.count=0"
}

@test "null: no file is made or opened, so a 1 TiB filesize runs where there is no TiB free, as fio's null engine (t0010, t0011)" {
	dbio_ok --directory="$target" --ioengine=null --rw=write --filesize=1t --size=1t --bs=1m --io_size=64m
	json_is "$result" "$R0.ops.write.count=64" "$R0.ops.write.bytes=67108864"
	is_empty_dir "$target"
	# a named file that is there is neither refused nor touched: fio's
	# null never opens it
	printf 'mine' >"$target/theirs"
	dbio_ok --force --directory="$target" --ioengine=null --rw=randwrite --filename=theirs --size=1m
	json_is "$result" "$R0.ops.write.count=256"
	[ "$(cat "$target/theirs")" = mine ]
}

@test "null: iodepth=16 is taken and queues as fio's null does (t0010, t0016): fio's counts, no cap" {
	run --separate-stderr "$DBIO" run --directory="$target" --ioengine=null --iodepth=16 --rw=randread \
		--size=1m --bs=4k --output-format=json --output "$result"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	echo "$output" >fio.json
	json_is fio.json "jobs.0.read.total_ios=256" "jobs.0.job options.iodepth=16"
	# the queued loop: not capped at 1 as a synchronous engine is
	run jpy "$result" 'len([w for w in r["jobs"][0]["warnings"] if w.startswith("iodepth")])'
	[ "$output" = 0 ]
}

# ---- NUMA ----

# node_cpus N: node N's CPUs as strace prints a CPU set ("[0 1]").
node_cpus() {
	"$PYTHON" - "/sys/devices/system/node/node$1/cpulist" <<'PY'
import sys
cpus = []
for part in open(sys.argv[1]).read().strip().split(","):
    lo, _, hi = part.partition("-")
    cpus += range(int(lo), int(hi or lo) + 1)
print("[" + " ".join(map(str, cpus)) + "]")
PY
}

# need_numa: skip, saying why, unless the kernel lists its NUMA nodes.
need_numa() {
	[ -r /sys/devices/system/node/online ] || skip "no /sys/devices/system/node/online: this kernel lists no NUMA nodes"
}

@test "numa_cpu_nodes and numa_mem_policy: each thread runs on its node's CPUs with the policy's mode (strace)" {
	need_strace
	need_numa
	local cpus p
	cpus=$(node_cpus 0)
	for p in bind:0:MPOL_BIND:0x00000000000001 interleave::MPOL_INTERLEAVE: prefer:0:MPOL_PREFERRED:0x00000000000001 \
		local::MPOL_LOCAL:; do
		IFS=: read -r mode nodes mpol mask <<<"$p"
		traced sched_setaffinity,set_mempolicy --size=64k --numjobs=2 --numa_cpu_nodes=0 \
			--numa_mem_policy="$mode${nodes:+:$nodes}"
		[ "$(calls sched_setaffinity | grep -c "^sched_setaffinity(0, [0-9]*, $(sed 's/[][]/\\&/g' <<<"$cpus")) = 0")" -eq 2 ]
		if [ "$mode" = local ]; then
			[ "$(calls set_mempolicy | grep -c "^set_mempolicy(MPOL_LOCAL, NULL, 0) = 0")" -eq 2 ]
		else
			# interleave without nodes: every node there is (node 0 at least)
			[ "$(calls set_mempolicy | grep -c "^set_mempolicy($mpol, \[0x[0-9a-f]*[13579bdf]\], 65) = 0")" -eq 2 ]
		fi
		json_is "$result" "$R0.ops.read.count=32" "jobs.0.options.numa_cpu_nodes=0"
	done
	# default makes no call, as in fio
	traced sched_setaffinity,set_mempolicy --size=64k --numa_mem_policy=default
	[ -z "$(calls set_mempolicy)" ]
}

@test "a node this machine does not have is refused, with the nodes it has, as fio fails on it (fio's numa.fio)" {
	need_numa
	local online missing
	online=$(cat /sys/devices/system/node/online)
	missing=$(("${online##*[-,]}" + 1))
	printf '[job2]\nioengine=psync\nsize=64k\nnuma_cpu_nodes=0-%s\n' "$missing" >n.fio
	refused_file n.fio "dbio: n.fio:4: key 'numa_cpu_nodes': '0-$missing': node $missing is not on this machine, which has node $online (/sys/devices/system/node/online); fio fails on it too: name only nodes it has (job 'job2')"
	printf '[job2]\nioengine=psync\nsize=64k\nnuma_mem_policy=interleave:0-%s\n' "$missing" >n.fio
	refused_file n.fio "dbio: n.fio:4: key 'numa_mem_policy': 'interleave:0-$missing': node $missing is not on this machine, which has node $online (/sys/devices/system/node/online); fio fails on it too: name only nodes it has (job 'job2')"
	if command -v fio >/dev/null; then
		run fio --directory="$target" n.fio
		[[ $output == *"numa_parse_nodestring failed"* ]]
		rm -rf "${target:?}"/*
	fi
	printf '[j]\nsize=64k\nnuma_mem_policy=prefer:0-1\n' >n.fio
	refused_file n.fio "dbio: n.fio:3: key 'numa_mem_policy': 'prefer:0-1': prefer takes one node: prefer:NODE, e.g. prefer:0 (job 'j')"
	printf '[j]\nsize=64k\nnuma_cpu_nodes=first\n' >n.fio
	refused_file n.fio "dbio: n.fio:3: key 'numa_cpu_nodes': bad value 'first': expected NUMA nodes: numbers from 0 and ranges, e.g. 0 or 0-1,3, or all (job 'j')"
}

# ---- fio's examples of these engines, in the tests' own words ----

@test "falloc fragmenting a file, then libaio and sync on it (fio's falloc.fio): the op types, exact counts where bound by size" {
	need_engine libaio
	cat >frag.fio <<'JOB'
[global]
ioengine=falloc
direct=0
buffered=0
size=1m
filesize=1m
group_reporting

[grow]
stonewall
runtime=1
time_based
bssplit=4k/10:64k/50:32k/40
rw=randwrite
filename=frag

[punch]
bs=4k
runtime=1
time_based
rw=randtrim
numjobs=2
filename=frag

[dio-write]
stonewall
ioengine=libaio
iodepth=16
direct=1
rw=write
bs=64k
filename=frag

[read]
stonewall
ioengine=sync
buffered=1
rw=read
bs=64k
filename=frag
JOB
	dbio_ok frag.fio --directory="$target"
	json_is "$result" "jobs.0.runs.0.ops.read.count=0" "jobs.1.runs.0.ops.write.count=0" \
		"jobs.1.runs.0.ops.read.count=0" "jobs.2.runs.0.ops.write.count=16" "jobs.2.options.direct=true" \
		"jobs.3.runs.0.ops.read.count=16" "jobs.3.options.direct=false"
	[ "$(jpy "$result" 'r["jobs"][0]["runs"][0]["ops"]["write"]["count"] > 0' '"trim" in r["jobs"][0]["runs"][0]["ops"]')" = "$(printf 'true\nfalse')" ]
	[ "$(jpy "$result" 'r["jobs"][1]["runs"][0]["ops"]["trim"]["count"] > 0')" = true ]
	# fio's falloc engine ignores direct: buffered=0 after direct=0 is
	# direct=1, the later key winning as in fio (the libaio job needs it)
	json_is "$result" "jobs.0.options.direct=true"
	is_empty_dir "$target"
}

@test "ftruncate time-based (fio's ftruncate.fio): writes only; the file is left at a write's offset, within its size" {
	printf '[grow]\nioengine=ftruncate\nsize=1m\nfilename=t\nruntime=1s\ntime_based\nbs=4k\nrw=write\n' >g.fio
	dbio_ok g.fio --directory="$target" --keep
	json_is "$result" "$R0.ops.read.count=0"
	[ "$(jpy "$result" 'run["ops"]["write"]["count"] > 256' '"trim" in run["ops"]')" = "$(printf 'true\nfalse')" ] # it wrapped: past one pass of 256
	size=$(stat -c %s "$target/t")
	[ $((size % 4096)) -eq 0 ]
	[ "$size" -lt 1048576 ]
	[ "$(stat -c %b "$target/t")" -eq 0 ] # cut to nothing, then grown sparse
}

@test "buffered and direct both in a job file: the later one wins, as fio reads the file; the command line's direct is a default the file's keys override, --set is over them" {
	printf '[j]\nbuffered=1\ndirect=1\nsize=64k\n' >b.fio
	dbio_ok b.fio --directory="$target" --ioengine=null
	json_is "$result" jobs.0.options.direct=true
	printf '[global]\ndirect=1\n[j]\nbuffered=1\nsize=64k\n' >b.fio
	dbio_ok b.fio --directory="$target" --ioengine=null
	json_is "$result" jobs.0.options.direct=false
	dbio_ok b.fio --directory="$target" --ioengine=null --direct=1
	json_is "$result" jobs.0.options.direct=false
	dbio_ok b.fio --directory="$target" --ioengine=null --set direct=1
	json_is "$result" jobs.0.options.direct=true
}

@test "falloc and ftruncate never punch or cut a file dbio did not make: a planted symlink at the filename stays, and its target too" {
	local e rw
	printf 'keep me\n' >"$scratch/victim"
	ln -s "$scratch/victim" "$target/data"
	for e in falloc:trim ftruncate:write; do
		IFS=: read -r e rw <<<"$e"
		run --separate-stderr "$DBIO" run --ioengine="$e" --filename=data --rw="$rw" --size=64k \
			--directory="$target" --force
		[ "$status" -ne 0 ]
		[ -L "$target/data" ]
		[ "$(cat "$scratch/victim")" = "keep me" ]
	done
}

# overlaps LOG: pairs of I/Os at one offset of LOG (a clat log with
# log_offset and log_issue_time) whose times in flight, from the issue to
# the completion, overlap.
overlaps() {
	awk -F', ' '{ n[$5]++; s[$5, n[$5]] = $7; e[$5, n[$5]] = $7 + $2 }
		END { for (o in n) for (i = 1; i <= n[o]; i++) for (j = i + 1; j <= n[o]; j++)
			if (s[o, i] < e[o, j] && s[o, j] < e[o, i]) c++; print c + 0 }' "$1"
}

@test "serialize_overlap: no two I/Os in flight share a byte; fio 3.33's 2000 writes (fio's t0013)" {
	need_queued_engine
	# fio 3.33, libaio, iodepth=16, randwrite of 4 blocks, norandommap,
	# loops=500, serialize_overlap=1: write.total_ios 2000.
	local e
	for e in null $queued; do
		dbio_ok --directory="$target" --name=so $(engine_keys "$e") --iodepth=16 --rw=randwrite --bs=4k \
			--size=16k --norandommap --loops=500 --serialize_overlap=1 --write_lat_log="$e" --log_offset=1 \
			--log_issue_time=1
		json_is "$result" "$R0.ops.write.count=2000"
		[ "$(overlaps "${e}_clat.1.log")" = 0 ]
	done
	# without it, I/Os at the same offset are in flight together
	dbio_ok --directory="$target" --name=so --ioengine=null --iodepth=16 --rw=randwrite --bs=4k --size=16k \
		--norandommap --loops=500 --write_lat_log=free --log_offset=1 --log_issue_time=1
	[ "$(overlaps free_clat.1.log)" -gt 0 ]
	# a synchronous engine has one in flight: accepted, fio's counts
	dbio_ok --directory="$target" --rw=randwrite --bs=4k --size=16k --norandommap --loops=5 --serialize_overlap=1
	json_is "$result" "$R0.ops.write.count=20"
	run --separate-stderr "$DBIO" run --directory="$target" --size=16k --serialize_overlap=2
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'serialize_overlap': bad value '2': expected 0 or 1 (a bare key means 1)" ]
}
