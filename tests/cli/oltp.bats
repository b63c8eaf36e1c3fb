#!/usr/bin/env bats
# workload=oltp: transactions of page reads and writes with a commit that
# waits for the log writer's fdatasync. Counts must tie out exactly: every
# transaction did its reads and writes and one commit; with group_commit=1
# every commit had its own log write and fdatasync.

load helpers

# The target is under /var/tmp, on a disk where /tmp may be a tmpfs (no
# O_DIRECT, syncs that reach no device).
setup() {
	dbio_setup
	DIR=$(mktemp -d /var/tmp/dbio-oltp.XXXXXX)
	extra_dirs+=("$DIR")
}

op() { # op FILE TYPE FIELD
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["jobs"][0]["runs"][0]["ops"][sys.argv[2]][sys.argv[3]])' "$@"
}

@test "oltp group_commit=1: reads, writes, commits, log writes and fdatasyncs tie out exactly" {
	run "$DBIO" run --workload=oltp --numjobs=3 --size=16m --runtime=1s --time_based --oltp_reads=3 \
		--oltp_writes=2 --log_record=256 --directory="$DIR" --output="$BATS_TEST_TMPDIR/o.json"
	echo "$output"
	[ "$status" -eq 0 ]
	R=$BATS_TEST_TMPDIR/o.json
	t=$(op "$R" transaction count)
	[ "$t" -gt 0 ]
	[ "$(op "$R" commit count)" -eq "$t" ]
	[ "$(op "$R" read count)" -eq $((3 * t)) ]
	[ "$(op "$R" write count)" -eq $((2 * t)) ]
	[ "$(op "$R" read bytes)" -eq $((3 * t * 8192)) ]
	[ "$(op "$R" log count)" -eq "$t" ]
	[ "$(op "$R" fdatasync count)" -eq "$t" ]
	[ "$(op "$R" log bytes)" -eq $((t * 256)) ]
	[ -z "$(ls -A "$DIR")" ]
}

@test "oltp group_commit=16 with 8 committers: fewer fdatasyncs than commits, every record logged once" {
	run "$DBIO" run --workload=oltp --numjobs=9 --size=16m --runtime=1s --time_based --group_commit=16 \
		--random_distribution=zipf:1.2 --directory="$DIR" --output="$BATS_TEST_TMPDIR/o.json"
	[ "$status" -eq 0 ]
	R=$BATS_TEST_TMPDIR/o.json
	t=$(op "$R" transaction count)
	s=$(op "$R" fdatasync count)
	[ "$s" -lt "$t" ]
	[ "$s" -ge $(((t + 15) / 16)) ]
	[ "$(op "$R" log bytes)" -eq $((t * 512)) ]
	[ -z "$(ls -A "$DIR")" ]
}

@test "oltp and random_distribution: bad values name the key" {
	run "$DBIO" run --workload=oltp --numjobs=1 --size=1m --runtime=1s --time_based --directory="$DIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"key 'numjobs': 1: workload=oltp needs at least 2 threads"* ]]
	run "$DBIO" run --workload=oltp --numjobs=2 --size=1m --runtime=1s --directory="$DIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"key 'runtime': workload=oltp runs for a time: give runtime= and time_based"* ]]
	run "$DBIO" run --rw=randread --size=1m --random_distribution=zipf:0 --directory="$DIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"key 'random_distribution': bad value 'zipf:0': expected random, zipf:THETA (0 < THETA <= 10), pareto:H (0 < H < 1), normal:DEV, zoned:ACCESS/PERCENT:..., zoned_abs:ACCESS/SIZE:... or sequence:B,B,..."* ]]
	run "$DBIO" run --rw=randread --size=1m --random_distribution=pareto:1 --directory="$DIR"
	[ "$status" -eq 2 ]
	[ -z "$(ls -A "$DIR")" ]
}

@test "oltp refuses an engine that queues: it issues one page I/O at a time (it crashed before)" {
	local e
	for e in $(queued_engines_of_build); do
		run --separate-stderr "$DBIO" run --workload=oltp --numjobs=2 --size=1m --runtime=1s --time_based \
			--ioengine="$e" --iodepth=4 --directory="$DIR"
		[ "$status" -eq 2 ]
		[ "$stderr" = "dbio: command line: key 'ioengine': $e queues I/O; workload=oltp issues one page I/O at a time from each thread: give an engine that keeps one I/O in flight (psync, the default) (job 'job')" ]
		[ -z "$(ls -A "$DIR")" ]
	done
}

@test "oltp defaults run: 5 threads (a log writer and 4) on 256 MiB for 10 s" {
	run "$DBIO" run --workload=oltp --directory="$DIR" --output="$result"
	echo "$output"
	[ "$status" -eq 0 ]
	run json_is "$result" jobs.0.options.numjobs=5 jobs.0.options.size=268435456 \
		jobs.0.options.runtime=10000000000 jobs.0.options.time_based=true $R0.threads=5
	echo "$output"
	[ "$status" -eq 0 ]
	e=$(jpy "$result" 'run["elapsed_ns"]')
	[ "$e" -ge 10000000000 ]
	[ "$e" -lt 12000000000 ]
	[ "$(op "$result" transaction count)" -gt 0 ]
	[ -z "$(ls -A "$DIR")" ]
}
