#!/usr/bin/env bats
# dbio run: what a run does, read back as exact figures from the result JSON.

load helpers

# check_mode RW READS WRITES [KEY=VALUE...]: rw=RW over 16 MiB in 4 KiB blocks
# makes READS reads and WRITES writes; READS or WRITES "mixed" means some of
# each, 4096 together.
check_mode() {
	local rw=$1 reads=$2 writes=$3
	shift 3
	dbio_ok --directory="$target" --rw="$rw" --size=16m --bs=4k "$@"
	run jpy "$result" 'run["ops"]["read"]["count"] + run["ops"]["write"]["count"]' \
		'run["ops"]["read"]["bytes"] + run["ops"]["write"]["bytes"]' \
		'run["ops"]["read"]["bytes"] == 4096 * run["ops"]["read"]["count"]' \
		'run["ops"]["write"]["bytes"] == 4096 * run["ops"]["write"]["count"]' \
		'run["ops"]["fsync"]["count"] + run["ops"]["fdatasync"]["count"]'
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "4096 16777216 true true 0" ]
	if [ "$reads" = mixed ]; then
		run jpy "$result" 'run["ops"]["read"]["count"] > 0 and run["ops"]["write"]["count"] > 0'
		[ "$output" = true ]
	else
		json_is "$result" "$R0.ops.read.count=$reads" "$R0.ops.write.count=$writes" \
			"$R0.partial=false" partial=false
	fi
	is_empty_dir "$target"
}

@test "rw=rewrite: each 8 KiB block read, then written back at the same offset; data unchanged" {
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 # LeakSanitizer cannot run under ptrace
	run --separate-stderr strace -f -qq -e trace=pread64,pwrite64 -o "$scratch/trace" \
		"$DBIO" run --output "$result" --directory="$target" --rw=rewrite --size=4m --bs=8k --keep
	[ "$status" -eq 0 ]
	json_is "$result" "$R0.ops.read.count=512" "$R0.ops.write.count=512" \
		"$R0.ops.read.bytes=4194304" "$R0.ops.write.bytes=4194304" jobs.0.options.rw=rewrite
	# The worker's calls on the job's file (the last fd dbio opened for
	# it): read at 0, write at 0, read at 8192, write at 8192, ...
	fd=$(grep -o 'pwrite64([0-9]*' "$scratch/trace" | tail -1 | sed 's/.*(//')
	grep -E "p(read|write)64\($fd, " "$scratch/trace" | awk -F', ' '{ split($1, c, " "); sub(/\(.*/, "", c[2]); sub(/\).*/, "", $NF); print c[2], $NF }' |
		tail -n 1024 >"$scratch/calls"
	awk 'NR % 2 == 1 && ($1 != "pread64" || $2 != (NR - 1) / 2 * 8192) { bad = 1 }
	     NR % 2 == 0 && ($1 != "pwrite64" || $2 != (NR / 2 - 1) * 8192) { bad = 1 }
	     END { exit bad || NR != 1024 }' "$scratch/calls"
	# What was read is what was written back: the file is as laid out.
	mkdir "$scratch/ref"
	run --separate-stderr "$DBIO" run --output "$scratch/r2.json" --directory="$scratch/ref" --rw=read \
		--size=4m --bs=8k --keep
	[ "$status" -eq 0 ]
	cmp "$target/dbio.job.0.0" "$scratch/ref/dbio.job.0.0"
	rm -f "$target"/dbio.* "$scratch"/ref/dbio.*
}

@test "rw=rewrite on a queued engine is refused: it cannot chain a write on a read" {
	local queued e
	need_queued_engine
	for e in $queued; do
		run --separate-stderr "$DBIO" run --directory="$target" --rw=rewrite --size=1m --ioengine="$e"
		[ "$status" -eq 2 ]
		[ "$stderr" = "dbio: command line: key 'rw': rewrite with ioengine=$e: each block is read, then written back, one after the other; use ioengine=psync, sync or mmap (job 'job')" ]
	done
	is_empty_dir "$target"
}

@test "rw=read: 4096 reads of 4 KiB over 16 MiB, no writes" {
	check_mode read 4096 0
}

@test "rw=write: 4096 writes of 4 KiB over 16 MiB, no reads" {
	check_mode write 0 4096
}

@test "rw=randread: 4096 reads, no writes" {
	check_mode randread 4096 0
}

@test "rw=randwrite: 4096 writes, no reads" {
	check_mode randwrite 0 4096
}

@test "rw=randrw: 4096 reads and writes together" {
	check_mode randrw mixed mixed
}

@test "rw=readwrite: 4096 reads and writes together" {
	check_mode readwrite mixed mixed
}

@test "rw=randrw with rwmixread=100 only reads" {
	check_mode randrw 4096 0 --rwmixread=100
}

@test "rw=readwrite with rwmixread=0 only writes" {
	check_mode readwrite 0 4096 --rwmixread=0
}

@test "fsync=4: one fsync per 4 writes but the last, 1023 for 4096 writes (as fio)" {
	fast_target
	dbio_ok --directory="$target" --rw=write --size=16m --bs=4k --fsync=4
	json_is "$result" "$R0.ops.write.count=4096" "$R0.ops.fsync.count=1023" \
		"$R0.ops.fdatasync.count=0" "$R0.ops.fsync.bytes=0" jobs.0.options.fsync=4
}

@test "fdatasync=8: 511 fdatasyncs for 4096 writes; with fsync=4 only fsyncs (as fio: the strongest due)" {
	fast_target
	dbio_ok --directory="$target" --rw=write --size=16m --bs=4k --fdatasync=8
	json_is "$result" "$R0.ops.write.count=4096" "$R0.ops.fdatasync.count=511" \
		"$R0.ops.fsync.count=0"
	dbio_ok --directory="$target" --rw=write --size=16m --bs=4k --fdatasync=8 --fsync=4
	json_is "$result" "$R0.ops.write.count=4096" "$R0.ops.fdatasync.count=0" \
		"$R0.ops.fsync.count=1023"
}

@test "sync_file_range=wait_before,write,wait_after:4: 1023 calls for 4096 writes, with those flags (strace)" {
	fast_target
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	# LeakSanitizer (make SAN=1) cannot run under ptrace: leaks are checked
	# by every other test, not this one.
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	run strace -f -qq -e trace=sync_file_range -o "$scratch/trace" "$DBIO" run --output "$result" \
		--directory="$target" --rw=write --size=16m --bs=4k --sync_file_range=wait_before,write,wait_after:4
	[ "$status" -eq 0 ]
	json_is "$result" "$R0.ops.write.count=4096" "$R0.ops.sync_file_range.count=1023" \
		"$R0.ops.sync_file_range.bytes=0" "$R0.ops.fsync.count=0" "$R0.ops.fdatasync.count=0" \
		jobs.0.options.sync_file_range=wait_before,write,wait_after:4
	# Every call covers the whole file (offset 0, length 0) with the three flags.
	[ "$(grep -c 'sync_file_range(' "$scratch/trace")" -eq 1023 ]
	[ "$(grep -c 'sync_file_range([0-9]*, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE|SYNC_FILE_RANGE_WAIT_AFTER) = 0' "$scratch/trace")" -eq 1023 ]
}

@test "sync_file_range=write:16 on io_uring: drains, then the same calls, with the write flag only (strace)" {
	need_engine io_uring
	fast_target
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 # LeakSanitizer cannot run under ptrace
	run strace -f -qq -e trace=sync_file_range -o "$scratch/trace2" "$DBIO" run --output "$result" \
		--directory="$target" --rw=randwrite --size=16m --bs=4k --ioengine=io_uring --iodepth=8 \
		--sync_file_range=write:16 --fdatasync=64
	[ "$status" -eq 0 ]
	# as fio: at every 64th write the fdatasync, not both; none after the last
	json_is "$result" "$R0.ops.write.count=4096" "$R0.ops.sync_file_range.count=192" "$R0.ops.fdatasync.count=63"
	[ "$(grep -c 'sync_file_range([0-9]*, 0, 0, SYNC_FILE_RANGE_WRITE) = 0' "$scratch/trace2")" -eq 192 ]
}

@test "sync_file_range: bad values and ioengine=mmap are refused, naming the key" {
	for v in write write:0 write:-1 write:4x :4 write,:4 ,write:4 wait_before,bogus:4 write:; do
		run --separate-stderr "$DBIO" run --directory="$target" --size=1m --rw=write --sync_file_range="$v"
		[ "$status" -eq 2 ] || {
			echo "sync_file_range=$v: exit $status" >&2
			return 1
		}
		[ "$stderr" = "dbio: command line: key 'sync_file_range': bad value '$v': expected FLAGS:N, FLAGS one or more of wait_before, write, wait_after joined by commas, N a count of writes >= 1 (wait_before,write,wait_after:8) (job 'job')" ]
	done
	run --separate-stderr "$DBIO" run --directory="$target" --size=1m --rw=write --ioengine=mmap --sync_file_range=write:1
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"key 'ioengine': mmap writes through the mapping, which sync_file_range does not write back"* ]]
	is_empty_dir "$target"
}

@test "end_fsync adds one fsync per file per thread" {
	fast_target
	dbio_ok --directory="$target" --rw=write --size=16m --bs=4k --end_fsync --nrfiles=4 --numjobs=2
	json_is "$result" "$R0.ops.write.count=8192" "$R0.ops.fsync.count=8" "$R0.threads=2"
	dbio_ok --directory="$target" --rw=randwrite --size=16m --bs=4k --end_fsync=1 --fsync=4
	json_is "$result" "$R0.ops.write.count=4096" "$R0.ops.fsync.count=1024"
}

@test "end_fsync on a job that only reads makes no fsync" {
	dbio_ok --directory="$target" --rw=read --size=1m --bs=4k --end_fsync
	json_is "$result" "$R0.ops.read.count=256" "$R0.ops.fsync.count=0"
}

@test "numjobs=4: four threads, each doing the whole size" {
	dbio_ok --directory="$target" --rw=randwrite --size=16m --bs=4k --numjobs=4
	json_is "$result" "$R0.threads=4" "$R0.ops.write.count=16384" "$R0.ops.write.bytes=67108864" \
		"$R0.ops.read.count=0" jobs.0.options.numjobs=4
	dbio_ok --directory="$target" --rw=randwrite --size=16m --bs=4k --numjobs=1
	json_is "$result" "$R0.threads=1" "$R0.ops.write.count=4096" "$R0.ops.write.bytes=16777216"
}

@test "loops=3: three passes, three times the operations" {
	dbio_ok --directory="$target" --rw=randread --size=16m --bs=4k --loops=3
	json_is "$result" "$R0.ops.read.count=12288" "$R0.ops.read.bytes=50331648"
}

@test "share_files=1: four threads share one set of files and one size" {
	dbio_ok --directory="$target" --rw=randwrite --size=16m --bs=4k --numjobs=4 --share_files=1 \
		--nrfiles=2 --keep
	json_is "$result" "$R0.threads=4" "$R0.ops.write.count=4096" "$R0.ops.write.bytes=16777216"
	run ls "$target"
	[ "${lines[*]}" = "dbio.job.shared.0 dbio.job.shared.1" ]
	[ "$(stat -c %s "$target/dbio.job.shared.0")" -eq 8388608 ]
	rm "$target"/dbio.job.shared.*
}

@test "share_files=1 with size not divisible by numjobs still does size in all" {
	dbio_ok --directory="$target" --rw=write --size=16m --bs=4k --numjobs=3 --share_files=1
	json_is "$result" "$R0.threads=3" "$R0.ops.write.count=4096"
}

@test "nrfiles=4 over two directories: two files in each, named dbio.*" {
	mkdir "$scratch/a" "$scratch/b"
	dbio_ok --directory="$scratch/a:$scratch/b" --rw=write --size=16m --bs=4k --nrfiles=4 --keep
	json_is "$result" "$R0.ops.write.count=4096" jobs.0.targets.0.directory="$scratch/a" \
		jobs.0.targets.1.directory="$scratch/b"
	run ls "$scratch/a"
	[ "${lines[*]}" = "dbio.job.0.0 dbio.job.0.2" ]
	run ls "$scratch/b"
	[ "${lines[*]}" = "dbio.job.0.1 dbio.job.0.3" ]
	[ "$(stat -c %s "$scratch/b/dbio.job.0.3")" -eq 4194304 ]
	rm "$scratch"/a/dbio.job.* "$scratch"/b/dbio.job.*
	is_empty_dir "$scratch/a"
	is_empty_dir "$scratch/b"
}

@test "a job over three directories reports each one's reads and writes, adding up to the totals" {
	mkdir "$scratch/a" "$scratch/b" "$scratch/c"
	# Six threads with one file each: threads 0 and 3 in a, 1 and 4 in b,
	# 2 and 5 in c; 1024 writes of 4 KiB each.
	dbio_ok --directory="$scratch/a:$scratch/b:$scratch/c" --rw=write --size=4m --bs=4k --numjobs=6
	json_is "$result" "$R0.ops.write.count=6144" \
		"$R0.targets.0.directory=$scratch/a" "$R0.targets.1.directory=$scratch/b" \
		"$R0.targets.2.directory=$scratch/c" \
		"$R0.targets.0.write.count=2048" "$R0.targets.1.write.count=2048" "$R0.targets.2.write.count=2048" \
		"$R0.targets.0.write.bytes=8388608" "$R0.targets.2.write.bytes=8388608" \
		"$R0.targets.0.read.count=0" "$R0.targets.1.read.bytes=0"
	# Each directory's ops/s is its count over the run's elapsed time (so
	# they add up to the job's); its time in use is more than 0 and at most
	# the run's.
	[ "$(jpy "$result" 'all(0 < t["elapsed_ns"] <= run["elapsed_ns"] and abs(t["write"]["iops"] - 2048 / (run["elapsed_ns"] / 1e9)) < 1e-6 * t["write"]["iops"] for t in run["targets"])')" = true ]
	[[ "$output" == *"per directory:"* ]]
	[[ "$output" == *"$scratch/b "*"busy "*"read "*"write "*"MiB/s"* ]]
	# One directory: no per-directory figures.
	dbio_ok --directory="$scratch/a" --rw=write --size=1m --bs=4k
	[ "$(jpy "$result" '"targets" in run')" = false ]
	[[ "$output" != *"per directory:"* ]]
	is_empty_dir "$scratch/a"
	is_empty_dir "$scratch/b"
	is_empty_dir "$scratch/c"
}

@test "mixed reads and writes on io_uring over two directories: the per-directory counts add up to the totals" {
	need_engine io_uring
	mkdir "$scratch/a" "$scratch/b"
	dbio_ok --directory="$scratch/a:$scratch/b" --rw=randrw --size=2m --bs=4k --numjobs=2 --nrfiles=3 \
		--ioengine=io_uring --iodepth=4
	[ "$(jpy "$result" 'sum(t["read"]["count"] for t in run["targets"]) == run["ops"]["read"]["count"] and sum(t["write"]["count"] for t in run["targets"]) == run["ops"]["write"]["count"] and sum(t["read"]["count"] + t["write"]["count"] for t in run["targets"]) == 1024')" = true ]
	is_empty_dir "$scratch/a"
	is_empty_dir "$scratch/b"
}

# Bounds that hold however loaded the machine: one thread's operations follow
# each other (the end of one is the start of the next), so their latencies
# add up to its elapsed time; an operation starts only before the deadline,
# so the run ends within its longest operation after it.

@test "time_based runtime=1s runs for one second, however small the size" {
	dbio_ok --directory="$target" --rw=randread --size=1m --bs=4k --time_based --runtime=1s
	run jpy "$result" 'run["elapsed_ns"]' 'run["ops"]["read"]["count"]' 'run["ops"]["read"]["lat_ns"]["max"]'
	[ "$status" -eq 0 ]
	elapsed=${lines[0]} reads=${lines[1]} max=${lines[2]}
	[ "$elapsed" -ge 1000000000 ] # not stopped before the runtime
	[ "$reads" -gt 256 ] # more than the size's 256 blocks: it went round again
	# stopped by the runtime: the last read started before 1 s
	[ "$elapsed" -lt $((1000000000 + max)) ]
	json_is "$result" partial=false "$R0.partial=false"
}

@test "ramp_time is run before the measured phase and not counted" {
	dbio_ok --directory="$target" --rw=randread --size=1m --bs=4k --time_based --ramp_time=300ms \
		--runtime=500ms
	run jpy "$result" 'run["elapsed_ns"]' 'run["ops"]["read"]["lat_ns"]["max"]' \
		'abs(run["ops"]["read"]["lat_ns"]["mean"] * run["ops"]["read"]["count"] - run["elapsed_ns"]) <= 1000'
	[ "$status" -eq 0 ]
	elapsed=${lines[0]} max=${lines[1]}
	[ "$elapsed" -ge 450000000 ] # the first measured op starts a little after the ramp
	# the deadline is 500 ms after the ramp: the last read started before it
	[ "$elapsed" -lt $((500000000 + max)) ]
	# The reads counted are those of the measured phase: their latencies
	# add up to its elapsed time (to the mean's 10 digits in the JSON);
	# the 300 ms of the ramp's reads would be on top.
	[ "${lines[2]}" = true ]
	json_is "$result" jobs.0.options.ramp_time=300000000 jobs.0.options.runtime=500000000
}

@test "random writes visit every block exactly once per pass (no hole is left)" {
	dbio_ok --directory="$target" --rw=randwrite --size=4m --bs=4k --fallocate=none --prefill=0 --keep
	[ "$(du -B1 "$target/dbio.job.0.0" | cut -f1)" -eq 4194304 ]
	rm "$target/dbio.job.0.0"
	dbio_ok --directory="$target" --rw=randwrite --size=4m --bs=4k --fallocate=none --prefill=0 --keep \
		--share_files --numjobs=3
	json_is "$result" "$R0.ops.write.count=1024"
	[ "$(du -B1 "$target/dbio.job.shared.0" | cut -f1)" -eq 4194304 ]
	rm "$target/dbio.job.shared.0"
}

@test "runtime without time_based stops when the size is done" {
	dbio_ok --directory="$target" --rw=read --size=1m --bs=4k --runtime=30s
	# Each block read once (a time-based job goes round again), and the run
	# ended before its runtime: it did not wait out the 30 s.
	json_is "$result" "$R0.ops.read.count=256" "$R0.ops.read.bytes=1048576" partial=false
	run jpy "$result" 'run["elapsed_ns"] < r["jobs"][0]["options"]["runtime"]'
	[ "$output" = true ]
}

@test "a job file: [global] applies to every job; with stonewall, jobs run one after another in file order" {
	cat >jobs.fio <<'EOF'
; a comment
[global]
rw=randread
size=16m
bs=4k
stonewall

[zeta]
# keeps the global bs
[alpha]
bs=8k
rw=write
EOF
	dbio_ok jobs.fio --directory="$target"
	json_is "$result" jobs.0.name=zeta jobs.1.name=alpha jobs.0.options.bs=4096 \
		jobs.1.options.bs=8192 jobs.0.runs.0.ops.read.count=4096 jobs.0.runs.0.ops.write.count=0 \
		jobs.1.runs.0.ops.write.count=2048 jobs.1.runs.0.ops.read.count=0
	[ "${stderr_lines[0]}" = "dbio: running zeta (1 of 2)" ]
	[ "${stderr_lines[1]}" = "dbio: running alpha (2 of 2)" ]
	run jpy "$result" 'span(1)[0] >= span(0)[1] - 0.002'
	[ "$output" = true ]
	is_empty_dir "$target"
}

@test "command-line keys are defaults the job file overrides, as fio's; --set overrides the file" {
	printf '[j]\nrw=read\nbs=4k\nsize=16m\n' >j.fio
	dbio_ok j.fio --directory="$target" --bs=8k --numjobs=2
	json_is "$result" jobs.0.options.bs=4096 jobs.0.options.numjobs=2 "$R0.ops.read.count=8192"
	dbio_ok j.fio --directory="$target" --set bs=8k
	json_is "$result" jobs.0.options.bs=8192 "$R0.ops.read.count=2048" "$R0.ops.read.bytes=16777216"
	# "--key value" is the same as "--key=value", and --set=KEY=VALUE as --set KEY=VALUE
	dbio_ok j.fio --directory "$target" --set=bs=16k
	json_is "$result" jobs.0.options.bs=16384 "$R0.ops.read.count=1024"
}

@test "--format=json prints the result, schema_version 1, on stdout only" {
	run --separate-stderr "$DBIO" run --directory="$target" --rw=write --size=1m --format=json
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	printf '%s\n' "$output" >stdout.json
	json_is stdout.json schema_version=1 tool.name=dbio jobs.0.name=job "$R0.ops.write.count=256"
	run --separate-stderr "$DBIO" run --directory="$target" --rw=write --size=1m --format json
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >stdout.json
	json_is stdout.json schema_version=1
}

@test "--format=json with --output writes the same result to both" {
	run --separate-stderr "$DBIO" run --directory="$target" --rw=write --size=1m --format=json \
		--output "$result"
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$result")" ]
}

# has_line REGEX: a line of $output matches the extended REGEX whole.
has_line() {
	grep -Eqx -- "$1" <<<"$output" || {
		printf 'no line matches: %s\noutput:\n%s\n' "$1" "$output" >&2
		return 1
	}
}

@test "text output: the op table with its units and the cpu and faults lines" {
	dbio_ok --directory="$target" --rw=randrw --size=1m --bs=4k
	[[ "${lines[0]}" == "job job: rw=randrw bs=4 KiB size=1 MiB nrfiles=1 ioengine=psync numjobs=1"* ]]
	has_line '  run 1: elapsed [0-9.]+ [mun]?s, 1 thread'
	has_line ' +op +count +ops/s +MiB/s +lat min +mean +p50 +p95 +p99 +p99\.9 +max'
	has_line ' +read +[0-9]+ +[0-9.]+ +[0-9.]+( +[0-9.]+ [mun]?s){7}'
	has_line ' +write +[0-9]+ +[0-9.]+ +[0-9.]+( +[0-9.]+ [mun]?s){7}'
	has_line '    cpu: user [0-9.]+ s, sys [0-9.]+ s, [0-9.]+ % of one core'
	has_line '    faults: [0-9]+ major, [0-9]+ minor; context switches: [0-9]+ voluntary, [0-9]+ involuntary'
	has_line '    block I/O: [0-9]+ in, [0-9]+ out \(512-byte blocks\)'
	[ "${stderr_lines[*]}" = "dbio: running job (1 of 1)" ]
}

@test "percentile_list=99.5:99.99 adds those percentiles to lat_ns" {
	dbio_ok --directory="$target" --rw=randread --size=1m --bs=4k --percentile_list=99.5:99.99
	run jpy "$result" 'sorted(run["ops"]["read"]["lat_ns"]["percentiles"])' \
		'run["ops"]["read"]["lat_ns"]["percentiles"]["99.5"] <= run["ops"]["read"]["lat_ns"]["percentiles"]["99.99"] <= run["ops"]["read"]["lat_ns"]["max"]' \
		'r["jobs"][0]["options"]["percentile_list"]'
	[ "${lines[0]}" = '["99.5", "99.99"]' ]
	[ "${lines[1]}" = true ]
	[ "${lines[2]}" = '[99.5, 99.99]' ]
}

@test "the result JSON has every key of the format" {
	dbio_ok --directory="$target" --rw=randread --size=1m --bs=4k
	json_has "$result" schema_version tool.version command_line argv started_at finished_at \
		partial system jobs.0.name jobs.0.options jobs.0.targets.0.directory \
		"$R0.started_at" "$R0.elapsed_ns" "$R0.partial" "$R0.threads"
	local ru=$R0.rusage rd=$R0.ops.read
	json_has "$result" "$ru.user_s" "$ru.sys_s" "$ru.cpu_pct" "$ru.majflt" "$ru.minflt" "$ru.nvcsw" "$ru.nivcsw" \
		"$ru.inblock" "$ru.oublock"
	json_has "$result" "$rd.count" "$rd.bytes" "$rd.iops" "$rd.bw_bytes" "$rd.lat_ns.min" "$rd.lat_ns.mean" \
		"$rd.lat_ns.max" "$rd.lat_ns.stddev" "$rd.lat_ns.p50" "$rd.lat_ns.p90" "$rd.lat_ns.p95" "$rd.lat_ns.p99" \
		"$rd.lat_ns.p99_9" "$rd.lat_ns.percentiles" "$rd.lat_hist.buckets" \
		"$R0.ops.write.count" "$R0.ops.fsync.count" "$R0.ops.fdatasync.count"
	json_is "$result" schema_version=1 tool.name=dbio tool.version="$("$DBIO" --version | sed -n '1s/^dbio //p')" \
		partial=false jobs.0.name=job jobs.0.options.bs=4096 jobs.0.options.size=1048576 \
		jobs.0.options.rw=randread jobs.0.options.direct=false "$R0.ops.read.count=256" \
		"$R0.ops.read.bytes=1048576" "$R0.partial=false" "$R0.threads=1"
	run jpy "$result" 'r["command_line"].endswith(" run --output " + r["argv"][3] + " --directory=" + r["jobs"][0]["targets"][0]["directory"] + " --rw=randread --size=1m --bs=4k")' \
		'sum(b[1] for b in run["ops"]["read"]["lat_hist"]["buckets"]) == run["ops"]["read"]["count"]' \
		'run["ops"]["read"]["lat_ns"]["min"] <= run["ops"]["read"]["lat_ns"]["p50"] <= run["ops"]["read"]["lat_ns"]["p90"] <= run["ops"]["read"]["lat_ns"]["p95"] <= run["ops"]["read"]["lat_ns"]["p99"] <= run["ops"]["read"]["lat_ns"]["p99_9"] <= run["ops"]["read"]["lat_ns"]["max"]' \
		'all(isinstance(run["rusage"][k], int) for k in ("majflt", "minflt", "nvcsw", "nivcsw", "inblock", "oublock"))' \
		'abs(run["ops"]["read"]["iops"] - run["ops"]["read"]["count"] / (run["elapsed_ns"] / 1e9)) < 1e-3 * run["ops"]["read"]["iops"]' \
		'"error" not in r'
	[ "${lines[*]}" = "true true true true true true" ]
}

@test "a write job's histogram holds every write, and an unused op has none" {
	dbio_ok --directory="$target" --rw=write --size=1m --bs=4k --fdatasync=2
	run jpy "$result" \
		'sum(b[1] for b in run["ops"]["write"]["lat_hist"]["buckets"])' \
		'sum(b[1] for b in run["ops"]["fdatasync"]["lat_hist"]["buckets"])' \
		'run["ops"]["read"]["lat_hist"]["buckets"]'
	[ "${lines[*]}" = "256 127 []" ]
}

@test "jobs/s3-disks.fio: write, rewrite and read on two directories, exact counts per job and directory" {
	mkdir "$scratch/d1" "$scratch/d2"
	dbio_ok "$BATS_TEST_DIRNAME/../../jobs/s3-disks.fio" --directory="$scratch/d1:$scratch/d2" --numjobs=2 --set size=1m
	json_is "$result" jobs.0.name=write jobs.1.name=rewrite jobs.2.name=read \
		jobs.0.runs.0.ops.write.count=256 jobs.0.runs.0.ops.fsync.count=2 \
		jobs.1.runs.0.ops.read.count=256 jobs.1.runs.0.ops.write.count=256 jobs.1.runs.0.ops.fsync.count=2 \
		jobs.2.runs.0.ops.read.count=256 jobs.2.runs.0.ops.write.count=0 jobs.2.runs.0.ops.fsync.count=0 \
		jobs.1.runs.0.targets.0.read.count=128 jobs.1.runs.0.targets.1.write.count=128 \
		jobs.2.runs.0.targets.1.read.bytes=1048576 jobs.1.options.cache=fadvise
	is_empty_dir "$scratch/d1"
	is_empty_dir "$scratch/d2"
}

# BUG: keys within their own bounds whose product sizes
# a buffer passed validation and failed only at run time, after the layout.
@test "oltp: group_commit * log_record beyond half the RAM is refused before anything is written" {
	local ram_kib
	ram_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
	[ "$ram_kib" -lt $((195 * 1024 * 1024)) ] || skip "this machine has the RAM for a 98 GiB log buffer"
	run -2 --separate-stderr "$DBIO" run --workload=oltp --log_record=1m --group_commit=100000 --numjobs=4 \
		--time_based --runtime=10s --size=64m --directory="$target" --output "$result"
	[[ "$stderr" == "dbio: command line: key 'group_commit': group_commit * log_record = 97.66 GiB of log buffer, more than the "*" accepted (half of the machine's "*" of RAM): lower group_commit or log_record (job 'job')" ]]
	[ ! -e "$result" ]
	is_empty_dir "$target"
}

@test "bs * numjobs of I/O buffers beyond half of mem_limit is refused, naming the keys and the limit" {
	run -2 --separate-stderr "$DBIO" run --bs=64m --numjobs=2 --mem_limit=128m --size=128m \
		--directory="$target" --output "$result"
	[ "$stderr" = "dbio: command line: key 'bs': bs * numjobs = 128 MiB of I/O buffers, more than the 64 MiB accepted (half of mem_limit=128 MiB): lower bs or numjobs (job 'job')" ]
	[ ! -e "$result" ]
	is_empty_dir "$target"
}

@test "a queued engine's bs * iodepth * numjobs of buffers beyond half the RAM is refused" {
	local queued engine
	need_queued_engine
	engine=$(head -1 <<<"$queued")
	run -2 --separate-stderr "$DBIO" run --ioengine="$engine" --direct=1 --iodepth=4096 --bs=1g --numjobs=64 \
		--size=2g --directory="$target" --output "$result"
	[[ "$stderr" == "dbio: command line: key 'bs': bs * iodepth * numjobs = 256 TiB of I/O buffers, more than the "*" accepted (half of the machine's "*" of RAM): lower bs, iodepth or numjobs (job 'job')" ]]
	[ ! -e "$result" ]
	is_empty_dir "$target"
}

@test "repeat=3: the closing table shows each job's mean over its runs ± CI, as the summary holds it, and says so" {
	printf '[global]\nsize=1m\nrepeat=3\ndirectory=%s\n[a]\nrw=read\nstonewall\n[b]\nrw=randwrite\nstonewall\n' "$target" >"$scratch/two.fio"
	# --wide: the table in one piece (without it, cut to 80 columns: scenarios.bats).
	dbio_ok "$scratch/two.fio" --wide
	# The closing table: a row per job after the header.
	table=$(sed -n '/^job  *op  *ops\/s  *MiB\/s  *lat mean  *lat p99  *cpu$/,/^ran in: /p' <<<"$output")
	[ -n "$table" ] || { echo "$output"; false; }
	for j in 0 1; do
		name=$(jpy "$result" "r['jobs'][$j]['name']")
		op=$(jpy "$result" "[o for o, v in r['jobs'][$j]['summary']['ops'].items()][0]")
		want=$(jpy "$result" "'%.1f ± %.1f' % (r['jobs'][$j]['summary']['ops']['$op']['iops']['mean'], r['jobs'][$j]['summary']['ops']['$op']['iops']['ci95'])")
		last=$(jpy "$result" "'%.1f' % r['jobs'][$j]['runs'][2]['ops']['$op']['iops']")
		row=$(grep "^$name  *$op " <<<"$table")
		[[ "$row" == *" $want  "* ]] || { echo "row: $row; want the mean $want"; false; }
		[[ "$row" == *"  mean of 3 runs" ]] || { echo "row: $row"; false; }
		[[ "$row" != *" $last  "* ]] || [[ "$want" == "$last ± "* ]] || { echo "row shows the last run $last"; false; }
	done
	grep -qx '(a mean of runs ± the 95 % confidence interval of that mean)' <<<"$table"
}

@test "the closing table: an fsync moves no bytes, so its row has no MiB/s ('-'), as the sweep's and the page's" {
	printf '[global]\nsize=64k\ndirectory=%s\n[w]\nrw=write\nfsync=4\nstonewall\n[r]\nrw=read\nstonewall\n' "$target" >"$scratch/two.fio"
	dbio_ok "$scratch/two.fio"
	table=$(sed -n '/^job  *op  *ops\/s  *MiB\/s  *lat mean  *lat p99  *cpu$/,/^ran in: /p' <<<"$output")
	grep -Eq '^w +write +[0-9.]+ +[0-9.]+ +' <<<"$table" || { echo "$table"; false; }
	grep -Eq '^ +fsync +[0-9.]+ +- +[0-9.]+ [mun]?s ' <<<"$table" || { echo "$table"; false; }
	# The run's own op table too: 3 fsyncs, no MiB/s.
	grep -Eq '^    fsync +3 +[0-9.]+ +- +[0-9.]+ [mun]?s ' <<<"$output" || { echo "$output"; false; }
}

@test "import text: a phase line has its time and time per op, no second ops/s beside the op table's" {
	need_built workload=import
	dbio_ok --workload=import --rows=3000 --batch=1000 --indexes=3 --directory="$target"
	[ "$(grep -c '^    phase ' <<<"$output")" -eq 3 ]
	[ -z "$(grep '^    phase .*ops/s' <<<"$output")" ]
	el=$(jpy "$result" "[p['elapsed_ns'] for p in run['phases'] if p['name'] == 'index'][0] / 3")
	grep -qE '^    phase index   3 ops in [0-9.]+ [mun]?s \([0-9.]+ [mun]?s of the phase per op\), user ' <<<"$output"
	# The time per index is the phase's elapsed / 3, as units_fmt_ns prints it (3 digits).
	per=$(sed -n 's/^    phase index .*(\([0-9.]*\) \([mun]\?s\) of the phase per op).*/\1 \2/p' <<<"$output")
	got=$(awk -v v="${per% *}" -v u="${per#* }" 'BEGIN { f = u == "s" ? 1e9 : u == "ms" ? 1e6 : u == "us" ? 1e3 : 1; printf "%.0f", v * f }')
	awk -v a="$got" -v b="$el" 'BEGIN { exit !(a >= b * 0.99 - 1 && a <= b * 1.01 + 1) }' || { echo "$got vs $el"; false; }
	grep -qE '^    insert +3000 ' <<<"$output"
}
