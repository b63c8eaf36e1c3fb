#!/usr/bin/env bats
# sysbench fileio in dbio: the job key fsync_scope=job (sysbench's
# --file-fsync-freq: after every N requests of all threads together, every
# file is fsynced), with exact counts against Debian's sysbench 1.0.20 on
# the same parameters (strace -c), and `dbio sysbench fileio` itself:
# sysbench's command line, prepare / run / cleanup in the current
# directory, its output read by the same parser as real sysbench's, and the
# refusals with their exact messages.

load helpers

# need_sysbench: skip, saying why, unless sysbench and strace are here.
need_sysbench() {
	command -v sysbench >/dev/null || skip "sysbench is not installed (scripts/install-deps)"
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
}

# syscalls CMD...: the pwrite64, fsync and fdatasync calls of CMD and its
# threads, as "write N" and "sync N" lines (strace -c); its standard output
# in $scratch/cmd.out. Reads are left out: both programs pread a few files
# of their own as they start.
syscalls() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -c -o "$scratch/strace.out" \
		-e trace=pwrite64,fsync,fdatasync "$@" >"$scratch/cmd.out" 2>"$scratch/cmd.err" || {
		cat "$scratch/cmd.err" >&2
		return 1
	}
	awk '$NF == "pwrite64" { w = $(NF-1) } $NF == "fsync" || $NF == "fdatasync" { s += $(NF-1) }
		END { printf "write %d\nsync %d\n", w, s }' "$scratch/strace.out"
}

# files_of N: test_file.0:...:test_file.N-1, sysbench's names.
files_of() {
	local i names=test_file.0
	for ((i = 1; i < $1; i++)); do names+=":test_file.$i"; done
	echo "$names"
}

@test "fsync_scope=job: every file fsynced after each 100 requests of all threads, as sysbench (1 and 4 threads, strace)" {
	need_sysbench
	mkdir sb && cd sb
	sysbench fileio --file-num=16 --file-total-size=16M prepare >/dev/null
	for t in 1 4; do
		syscalls sysbench --threads=$t --events=2000 --time=0 fileio --file-num=16 --file-total-size=16M \
			--file-test-mode=rndwr --file-fsync-freq=100 run >"$scratch/sysbench.$t"
		# 2000 events: 1728 writes, 17 rounds of 16 fsyncs, and each thread's 16 at the end
		[ "$(cat "$scratch/sysbench.$t")" = "$(printf 'write 1728\nsync %d' $((272 + 16 * t)))" ]
	done
	sysbench fileio --file-num=16 --file-total-size=16M cleanup >/dev/null
	cd "$scratch"
	for t in 1 4; do
		rm -rf "$target"/*
		# the JSON on standard output: an --output file would add its own fsync
		syscalls "$DBIO" run --directory="$target" --format=json --rw=randwrite --bs=16k --size=16m \
			--nrfiles=16 --filename="$(files_of 16)" --numjobs=$t --norandommap=1 \
			--io_size=$((1728 / t * 16))k --fsync=100 --fsync_scope=job --end_fsync=1 >"$scratch/dbio.$t"
		[ "$(cat "$scratch/dbio.$t")" = "$(cat "$scratch/sysbench.$t")" ]
		run counts "$scratch/cmd.out"
		[ "$output" = "$(printf 'job sync %d\njob write 1728' $((272 + 16 * t)))" ]
	done
}

@test "fsync_scope=job counts reads too, and makes no round without a write since the last" {
	# 1 thread, 4 files: rounds after requests 100, 200, ... of a mixed job
	dbio_ok --directory="$target" --output="$result" --rw=randrw --bs=4k --size=1m --nrfiles=4 \
		--norandommap=1 --io_size=4000k --fsync=100 --fsync_scope=job
	run counts "$result"
	[ "${lines[1]}" = "job sync 36" ]
	# reads only: never a round
	dbio_ok --directory="$target" --output="$result" --rw=randread --bs=4k --size=1m --nrfiles=4 \
		--norandommap=1 --io_size=4000k --fsync=100 --fsync_scope=job
	jpy "$result" "run['ops']['fsync']['count']" | grep -qx 0
}

@test "fsync_scope=job with fdatasync and a queued engine: the same rounds" {
	need_engine libaio
	dbio_ok --directory="$target" --output="$result" --rw=randwrite --bs=4k --size=1m --nrfiles=4 \
		--norandommap=1 --io_size=4000k --fdatasync=100 --fsync_scope=job \
		--ioengine=libaio --iodepth=8
	[ "$(jpy "$result" "run['ops']['fdatasync']['count']")" = 36 ]
	[ "$(jpy "$result" "run['ops']['write']['count']")" = 1000 ]
}

@test "fsync_scope=job: refused without a sync, with both, and with threads on files of their own" {
	run --separate-stderr "$DBIO" run --directory="$target" --rw=randwrite --size=1m --fsync_scope=job
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'fsync_scope': job needs fsync=N or fdatasync=N: the number of reads and writes between two rounds (job 'job')" ]
	run --separate-stderr "$DBIO" run --directory="$target" --rw=randwrite --size=1m --fsync_scope=job --fsync=2 --fdatasync=3
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'fsync_scope': job takes one of fsync=N and fdatasync=N, not both (job 'job')" ]
	run --separate-stderr "$DBIO" run --directory="$target" --rw=randwrite --size=1m --fsync_scope=job --fsync=2 --numjobs=2
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'fsync_scope': job needs every thread on all the files: name them with filename=, or use numjobs=1 (share_files=1 gives each thread a slice) (job 'job')" ]
	is_empty_dir "$target"
}

# sb ARGS...: `dbio sysbench ARGS...` in the current directory.
sb() {
	run --separate-stderr "$DBIO" sysbench "$@"
}

SMALL=(--file-num=4 --file-total-size=4M)

@test "dbio sysbench: prepare makes test_file.0..3 marked as dbio's, run keeps them, cleanup leaves nothing" {
	mkdir work && cd work
	sb fileio "${SMALL[@]}" prepare
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "sysbench 1.0.20 (dbio "*"'s sysbench mode)" ]]
	[ "${lines[1]}" = "4 files, 1024Kb each, 4Mb total" ]
	[ "${lines[4]}" = "Creating file test_file.0" ]
	[ "${lines[7]}" = "Creating file test_file.3" ]
	[[ "${lines[8]}" =~ ^4194304\ bytes\ written\ in\ [0-9.]+\ seconds\ \([0-9.]+\ MiB/sec\)\.$ ]]
	[ "$(ls | tr '\n' ' ')" = "test_file.0 test_file.1 test_file.2 test_file.3 " ]
	[ "$(stat -c %s test_file.3)" = 1048576 ]
	[ "$("$PYTHON" -c 'import os; print(os.getxattr("test_file.0", "trusted.dbio.kept").decode())')" = sysbench ]
	sb --events=100 --time=0 fileio "${SMALL[@]}" --file-test-mode=rndrd run
	[ "$status" -eq 0 ]
	[ "$(ls | tr '\n' ' ')" = "test_file.0 test_file.1 test_file.2 test_file.3 " ]
	sb fileio "${SMALL[@]}" cleanup
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "Removing test files..." ]
	is_empty_dir .
}

@test "dbio sysbench: writes and fsyncs of rndwr, seqwr and --file-fsync-all are sysbench's (strace, 1 and 4 threads)" {
	need_sysbench
	mkdir sysb dbio
	(cd sysb && sysbench fileio --file-num=16 --file-total-size=16M prepare >/dev/null)
	(cd dbio && "$DBIO" sysbench fileio --file-num=16 --file-total-size=16M prepare >/dev/null)
	local t mode all
	for t in 1 4; do
		for mode in rndwr seqwr; do
			for all in off on; do
				args=(--threads=$t --events=2000 --time=0 fileio --file-num=16 --file-total-size=16M
					--file-test-mode=$mode --file-fsync-freq=100 --file-fsync-all=$all run)
				sysbench_counts=$(cd sysb && syscalls sysbench "${args[@]}")
				dbio_counts=$(cd dbio && syscalls "$DBIO" sysbench "${args[@]}")
				if [ $all = off ]; then
					# 1728 writes, 17 rounds of 16 fsyncs, 16 per thread at the end
					[ "$sysbench_counts" = "$(printf 'write 1728\nsync %d' $((272 + 16 * t)))" ]
					[ "$dbio_counts" = "$sysbench_counts" ]
				else
					# an fsync after each write; dbio, as fio, none after a
					# thread's last, and one more when a sequential thread
					# starts its second pass over the files (fio's resync):
					# 1 thread of seqwr writes 2000 of the 1024 blocks
					[ "$sysbench_counts" = "$(printf 'write 2000\nsync 2000')" ]
					local resync=0
					if [ $mode = seqwr ] && [ $t = 1 ]; then resync=1; fi
					[ "$dbio_counts" = "$(printf 'write 2000\nsync %d' $((2000 - t + resync)))" ]
				fi
			done
		done
	done
	(cd sysb && sysbench fileio --file-num=16 --file-total-size=16M cleanup >/dev/null)
}

@test "dbio sysbench: one parser reads sysbench's report and dbio's; the same events, reads and writes" {
	need_sysbench
	mkdir sysb dbio
	(cd sysb && sysbench fileio "${SMALL[@]}" prepare >/dev/null)
	(cd dbio && "$DBIO" sysbench fileio "${SMALL[@]}" prepare >/dev/null)
	args=(--events=1000 --time=0 fileio "${SMALL[@]}" --file-test-mode=rndrw --file-fsync-freq=100 run)
	(cd sysb && sysbench "${args[@]}") >sysbench.txt
	(cd dbio && "$DBIO" sysbench --output ../dbio-result.json "${args[@]}") >dbio.txt
	"$PYTHON" "$BATS_TEST_DIRNAME/sysbench_parse.py" sysbench.txt >sysbench.json
	"$PYTHON" "$BATS_TEST_DIRNAME/sysbench_parse.py" dbio.txt >dbio.json
	# the same fields from both
	[ "$(jpy sysbench.json 'sorted(r)')" = "$(jpy dbio.json 'sorted(r)')" ]
	[ "$(jpy dbio.json "r['events']")" = 1000 ]
	[ "$(jpy sysbench.json "r['events']")" = 1000 ]
	[ "$(jpy dbio.json "r['percentile']")" = 95 ]
	# 1000 events: 964 requests and 9 rounds of 4 fsyncs (and 4 at the end);
	# dbio's reads and writes (rwmixread=60, drawn) add up to the same 964
	[ "$(jpy dbio-result.json "run['ops']['read']['count'] + run['ops']['write']['count']")" = 964 ]
	[ "$(jpy dbio-result.json "run['ops']['fsync']['count']")" = 40 ]
	(cd sysb && sysbench fileio "${SMALL[@]}" cleanup >/dev/null)
	run "$PYTHON" "$BATS_TEST_DIRNAME/sysbench_parse.py" /dev/null
	[ "$status" -eq 1 ]
	[ "$output" = "sysbench_parse: not a sysbench fileio report: sections missing or out of order" ]
}

@test "dbio sysbench: --format json and --output give dbio's result, which dbio compare reads" {
	mkdir work && cd work
	sb fileio "${SMALL[@]}" prepare
	# --format takes "json" as its value: no command is left, as sysbench says
	sb --events=400 --time=0 fileio "${SMALL[@]}" --file-test-mode=rndwr --format json
	[ "$status" -eq 1 ]
	[ "$stderr" = "The 'fileio' test requires a command argument. See 'sysbench fileio help'" ]
	sb --events=400 --time=0 fileio "${SMALL[@]}" --file-test-mode=rndwr --format=json run
	[ "$status" -eq 0 ]
	echo "$output" >a.json
	[ "$(jpy a.json "r['jobs'][0]['name']")" = sysbench-rndwr ]
	[ "$(jpy a.json "run['ops']['write']['count']")" = 388 ]
	[ "$(jpy a.json "run['ops']['fsync']['count']")" = 16 ]
	[ "$(jpy a.json "r['jobs'][0]['options']['fsync_scope']")" = job ]
	sb --events=400 --time=0 fileio "${SMALL[@]}" --file-test-mode=rndwr --output b.json run
	[ "$status" -eq 0 ]
	[[ "$output" == *"File operations:"* ]]
	[ "$(jpy b.json "run['ops']['write']['count']")" = 388 ]
	run "$DBIO" compare a.json b.json
	[ "$status" -eq 0 ]
	sb fileio "${SMALL[@]}" cleanup
	[ "$(ls | tr '\n' ' ')" = "a.json b.json " ]
}

@test "dbio sysbench: a foreign test_file.0 and a planted symlink are refused by prepare, run and cleanup, untouched" {
	echo foreign >test_file.0
	echo secret >"$target/secret"
	ln -s "$target/secret" test_file.1
	sb fileio "${SMALL[@]}" prepare
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: sysbench: prepare: ./test_file.0: exists and is not a file dbio prepared: refusing to touch it; remove it by hand or work in another directory" ]
	sb --time=1 fileio "${SMALL[@]}" --file-test-mode=rndwr run
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: sysbench: run: ./test_file.0: exists and is not a file dbio prepared: refusing to touch it; remove it by hand or work in another directory" ]
	rm test_file.0
	sb fileio "${SMALL[@]}" prepare
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: sysbench: prepare: ./test_file.1: exists and is not a file dbio prepared: refusing to touch it; remove it by hand or work in another directory" ]
	# test_file.0 was made and marked before the refusal: cleanup takes it, not the symlink
	sb fileio "${SMALL[@]}" cleanup
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: sysbench: cleanup: ./test_file.1: not a file dbio prepared: left in place" ]
	[ "$(cat "$target/secret")" = secret ]
	[ -L test_file.1 ]
	[ ! -e test_file.0 ]
	# a missing file is sysbench's FATAL (test_file.1, the symlink, comes after)
	sb --time=1 fileio "${SMALL[@]}" --file-test-mode=rndwr run
	[ "$status" -eq 1 ]
	[ "${lines[-2]}" = "FATAL: Cannot open file 'test_file.0' errno = 2 (No such file or directory)" ]
	[ "${lines[-1]}" = "WARNING: Did you forget to run the prepare step?" ]
	[ -L test_file.1 ]
}

# sysbench's own refusals: ARGS|STREAM|LINE, LINE the message on STREAM
# (out: standard output, after the banner; err: standard error), exit 1.
SYSBENCH_REFUSALS=(
	"--threads=x fileio run|err|Invalid value for the 'threads' option: 'x'"
	"--events=1e3 fileio run|err|Invalid value for the 'events' option: '1e3'"
	"--events=2147483648 fileio run|err|Invalid value for the 'events' option: '2147483648'"
	"--verbosity=x fileio prepare|err|Invalid value for the 'verbosity' option: 'x'"
	"--threads=0 fileio prepare|out|FATAL: Invalid value for --threads: 0."
	"--percentile=101 fileio prepare|out|FATAL: Invalid value for --percentile: 101"
	"--rand-type=foo fileio prepare|out|FATAL: Invalid random numbers distribution: foo."
	"--forced-shutdown=x fileio --file-test-mode=seqrd run|out|FATAL: Invalid value for --forced-shutdown: 'x'"
	"fileio|err|The 'fileio' test requires a command argument. See 'sysbench fileio help'"
	"fileio --file-test-mode=rndrd foo|err|Unknown command: foo"
	"fileio prepare extra|err|Unrecognized command line argument: extra"
	"fileio --invalid-option prepare|err|invalid option: --invalid-option"
	"fileio --rand-zipfian-exp=1 prepare|err|invalid option: --rand-zipfian-exp=1"
	"fileio --validate=maybe prepare|err|invalid option: --validate=maybe"
	"fileio --file-fsync-end=yes prepare|err|invalid option: --file-fsync-end=yes"
	"fileio run|out|FATAL: Missing required argument: --file-test-mode"
	"fileio --file-test-mode=rnd run|out|FATAL: Invalid IO operations mode: rnd."
	"fileio --file-test-mode= run|out|FATAL: Missing required argument: --file-test-mode"
	"fileio --file-num prepare|out|FATAL: Invalid value for file-num: 0"
	"fileio --file-num=0 prepare|out|FATAL: Invalid value for file-num: 0"
	"fileio --file-total-size=1X prepare|out|FATAL: Invalid value for file-total-size: 0"
	"fileio --file-io-mode=foo prepare|out|FATAL: unknown I/O mode: foo"
	"fileio --file-merged-requests=-1 prepare|out|FATAL: Invalid value for file-merged-requests: -1."
	"fileio --file-block-size=0 --file-test-mode=seqrd run|out|FATAL: Invalid value for file-block-size: 0."
	"fileio --file-extra-flags=sync,odirect --file-test-mode=seqrd run|out|FATAL: Invalid value for file-extra-flags: sync"
	"fileio --file-fsync-freq=-1 prepare|out|FATAL: Invalid value for file-fsync-freq: -1."
	"fileio --file-fsync-mode=foo prepare|out|FATAL: Invalid fsync mode: foo."
	"fileio --file-rw-ratio=-1 prepare|out|FATAL: Invalid value for --file-rw-ratio: -1.000000."
)

@test "dbio sysbench: what sysbench refuses is refused with its message, stream and exit status 1 (and real sysbench's, when installed)" {
	mkdir dbio sysb
	local entry args stream line real=0
	command -v sysbench >/dev/null && real=1
	for entry in "${SYSBENCH_REFUSALS[@]}"; do
		IFS='|' read -r args stream line <<<"$entry"
		# (not run: bats' run resets $status for the loop's test of it)
		(cd dbio && "$DBIO" sysbench $args >../out 2>../err) && status=0 || status=$?
		[ "$status" -eq 1 ] || { echo "$args: status $status" >&2; false; }
		if [ "$stream" = out ]; then
			grep -qxF -- "$line" out || { echo "$args: no '$line' in:" >&2; cat out err >&2; false; }
			[ ! -s err ]
		else
			[ "$(cat err)" = "$line" ] || { echo "$args: stderr '$(cat err)'" >&2; false; }
		fi
		if [ $real = 1 ]; then
			# the same lines from sysbench but its banner and fileio's option list
			(cd sysb && sysbench $args >../sout 2>../serr) && status=0 || status=$?
			[ "$status" -eq 1 ]
			diff <(grep -v -e '^sysbench 1\.0\.20 ' -e '^  --' out) <(grep -v -e '^sysbench 1\.0\.20 ' -e '^  --' sout)
			diff err serr
		fi
	done
	is_empty_dir dbio
}

@test "dbio sysbench: what sysbench takes and dbio does not is refused naming why, exit 2, nothing made" {
	mkdir work && cd work
	local m=(fileio --file-test-mode=rndrw run) entry
	local -a bad=(
		"--file-merged-requests=8|--file-merged-requests=8: refused: dbio does not merge requests (only 0, sysbench's default, is taken)"
		"--validate|--validate with --file-test-mode=rndrw: refused: dbio checks a mixed job's blocks after its writes, not at each read as sysbench does"
		"--file-extra-flags=direct --file-io-mode=mmap|--file-extra-flags=direct with --file-io-mode=mmap: refused: a mapping copies through the page cache, so O_DIRECT would change nothing measured; drop one of them"
		"--time=0|--time=0 and --events=0: refused: the run would never end (sysbench runs until it is killed); give one of them"
		"--threads=4097|--threads=4097: refused: dbio runs at most 4096 threads in a job"
		"--file-num=1167|--file-num=1167: refused: dbio names sysbench's files in one filename= key of 16383 bytes: at most 1166 files"
		"--file-total-size=10 --file-num=20|--file-total-size / --file-num is 0 bytes a file: refused: dbio needs at least a byte in each"
		"--forced-shutdown=5|--forced-shutdown=5: refused: dbio's threads stop at --time themselves; only off is taken"
		"--thread-stack-size=128K|--thread-stack-size=128K: refused: dbio sizes its threads' stacks itself; only 64K is taken"
		"--report-checkpoints=10,20|--report-checkpoints=10,20: refused: dbio's counters run through the whole run, they are not reset at checkpoints"
		"--debug|--debug: refused: dbio does not print each request as sysbench's debug level does; take --verbosity=4 at most"
		"--verbosity=5|--verbosity=5: refused: dbio does not print each request as sysbench's debug level does; take --verbosity=4 at most"
		"--config-file=opts.txt|--config-file=opts.txt: refused: dbio reads sysbench's options from the command line only"
		"--events=-1|--events=-1: refused: dbio takes 0 or more (sysbench makes 4294967295 of it)"
		"--file-rw-ratio=inf|--file-rw-ratio=inf: refused: rndrw needs a finite ratio above 0 for dbio's rwmixread"
		"--file-total-size=9223372036854775808|--file-total-size=9223372036854775808: refused: more than 2^63-1 bytes"
	)
	# (not $i: bats' run sets it)
	for entry in "${bad[@]}"; do
		sb ${entry%%|*} "${m[@]}"
		[ "$status" -eq 2 ] || { echo "${entry%%|*}: status $status: $stderr" >&2; false; }
		[ "$stderr" = "dbio: sysbench: ${entry#*|}" ] || { echo "$stderr" >&2; false; }
	done
	sb --validate fileio --file-num=3 --file-total-size=1M --file-test-mode=seqrd run
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: sysbench: --validate with files of 349525 bytes in blocks of 16384: refused: dbio checks whole blocks, and the last of each file would be read short" ]
	sb oltp_read_write run
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: sysbench: 'oltp_read_write': dbio runs sysbench's fileio test only: dbio sysbench [options] fileio [options] prepare|run|cleanup" ]
	sb --threads=2
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: sysbench: no test: dbio runs sysbench's fileio test only: dbio sysbench [options] fileio [options] prepare|run|cleanup" ]
	is_empty_dir .
}

@test "dbio sysbench: --time ends the run whatever --events says: --events=2^31-1 (sysbench's most) with --time=1, and each limit alone" {
	mkdir work && cd work
	sb fileio "${SMALL[@]}" prepare
	# timeout only guards against the old hang (a loop over the events
	# before the run, deaf to SIGTERM: -k); it bounds nothing the test asserts
	run --separate-stderr timeout -k 10 120 "$DBIO" sysbench --time=1 --events=2147483647 fileio "${SMALL[@]}" --file-test-mode=rndwr --output="$result" run
	[ "$status" -eq 0 ]
	[ "$(jpy "$result" 'run["elapsed_ns"] >= 1e9')" = true ]
	[ "$(jpy "$result" '0 < run["ops"]["write"]["count"] < 2**63 - 1')" = true ]
	[ "$(jpy "$result" 'r["jobs"][0]["options"]["runtime"]')" = 1000000000 ]
	[[ "$output" == *"    total time:                          "[1-9]* ]]
	# --events alone still ends at its count: 1000 events, freq 100, 4 files
	sb --time=0 --events=1000 fileio "${SMALL[@]}" --file-test-mode=rndwr --output="$result" run
	[ "$status" -eq 0 ]
	[ "$(jpy "$result" 'run["ops"]["write"]["count"]')" = 964 ]
	sb fileio "${SMALL[@]}" cleanup
	is_empty_dir .
}

@test "dbio sysbench: a huge finite --file-rw-ratio is sysbench's reads only" {
	mkdir work && cd work
	sb fileio "${SMALL[@]}" prepare
	sb --events=100 --time=0 fileio "${SMALL[@]}" --file-test-mode=rndrw --file-rw-ratio=1e308 --output="$result" run
	[ "$status" -eq 0 ]
	[ "$(jpy "$result" 'r["jobs"][0]["options"]["rwmixread"]')" = 100 ]
	[ "$(jpy "$result" 'run["ops"]["read"]["count"]')" = 100 ]
	sb fileio "${SMALL[@]}" cleanup
}

@test "dbio sysbench: --histogram prints sysbench's latency histogram; --percentile=99 its line" {
	sb fileio "${SMALL[@]}" prepare
	sb --events=200 --time=0 --histogram --percentile=99 fileio "${SMALL[@]}" --file-test-mode=rndrd run
	[ "$status" -eq 0 ]
	[[ "$output" == *"Latency histogram (values are in milliseconds)"* ]]
	# the bars count every event
	[ "$(awk '/^ +[0-9.]+ \|/ { n += $NF } END { print n }' <<<"$output")" = 200 ]
	[[ "$output" == *"         99th percentile: "* ]]
}

@test "dbio sysbench: --report-interval=1 prints sysbench's line for each second of a 3 s run, after it" {
	mkdir work && cd work
	sb fileio "${SMALL[@]}" prepare
	sb --time=3 --report-interval=1 fileio "${SMALL[@]}" --file-test-mode=rndrw run
	[ "$status" -eq 0 ]
	run grep -E '^\[ [0-9]+s \] reads: [0-9.]+ MiB/s writes: [0-9.]+ MiB/s fsyncs: [0-9.]+/s latency \(ms,95%\): n/a$' <<<"$output"
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" == "[ 1s ] "* ]]
	[[ "${lines[2]}" == "[ 3s ] "* ]]
	sb fileio "${SMALL[@]}" cleanup
	is_empty_dir .
}

@test "dbio sysbench: sync, async and mmap do the same requests and fsyncs: 500 events, 2 threads" {
	mkdir work && cd work
	sb fileio "${SMALL[@]}" prepare
	local modes=(sync mmap)
	# async is libaio, which a build may leave out
	[ -z "$(why_not_here libaio)" ] && modes+=(async)
	for io in "${modes[@]}"; do
		sb --events=500 --time=0 --threads=2 fileio "${SMALL[@]}" --file-test-mode=rndwr --file-io-mode=$io --format=json run
		[ "$status" -eq 0 ]
		echo "$output" >r.json
		# 416 requests and 4 rounds of 4 fsyncs, 84 requests more; each thread's 4 at the end
		[ "$(jpy r.json "run['ops']['write']['count']")" = 484 ]
		[ "$(jpy r.json "run['ops']['fsync']['count']")" = 24 ]
	done
	[ "$(jpy r.json "r['jobs'][0]['options']['ioengine']")" = "$([ "${modes[-1]}" = async ] && echo libaio || echo mmap)" ]
}

# both ARGS...: `dbio sysbench ARGS` in ./dbio, its standard output in
# $out, standard error in $err, status in $rc; when sysbench is installed,
# the same in ./sysb, and the two outputs must be the same but for the
# banner, figures (digits around a '.', and the spaces before them) and the
# threads' spread of more than one thread.
both() {
	# (dbio prints n/a for the spread of more threads than one: it keeps no count of each)
	local mask='/^sysbench 1\.0\.20 \(/d; s/ *[0-9]+\.[0-9]+/ X/g; s#/( X|n/a)$#/S#' a sargs=()
	for a in "$@"; do
		# dbio's own options are not sysbench's
		[[ $a == --output=* || $a == --dbio-lines ]] || sargs+=("$a")
	done
	rc=0
	(cd dbio && "$DBIO" sysbench "$@" >../dbio.out 2>../dbio.err) || rc=$?
	out=$(cat dbio.out)
	err=$(cat dbio.err)
	if command -v sysbench >/dev/null; then
		local src=0
		(cd sysb && sysbench "${sargs[@]}" >../sysb.out 2>../sysb.err) || src=$?
		[ "$rc" = "$src" ] || { echo "status $rc, sysbench's $src: $*" >&2; return 1; }
		diff <(sed -E "$mask" sysb.out) <(sed -E "$mask" dbio.out) >&2 || { echo "stdout differs: $*" >&2; return 1; }
		diff sysb.err dbio.err >&2 || { echo "stderr differs: $*" >&2; return 1; }
	fi
}

@test "dbio sysbench: prepare prints sysbench's lines: Creating, Extending, Reusing, Kb and Mb, the extra flags, No bytes written" {
	mkdir dbio sysb
	both fileio --file-num=2 --file-total-size=1M prepare
	[ "$rc" -eq 0 ]
	[[ "$out" == "sysbench 1.0.20 (dbio "*"'s sysbench mode)

2 files, 512Kb each, 1Mb total
Creating files for the test...
Extra file open flags: (none)
Creating file test_file.0
Creating file test_file.1
1048576 bytes written in "*" seconds ("*" MiB/sec)." ]]
	both fileio --file-num=2 --file-total-size=2M --file-extra-flags=dsync,sync prepare
	[ "$(sed 1,4d <<<"$out" | head -3)" = "Extra file open flags: sync dsync 
Extending existing file test_file.0
Extending existing file test_file.1" ]
	[ "$(stat -c %s dbio/test_file.1)" = 1048576 ]
	both fileio --file-num=2 --file-total-size=16K prepare
	[ "$(sed 1,2d <<<"$out")" = "2 files, 8Kb each, 0Mb total
Creating files for the test...
Extra file open flags: (none)
Reusing existing file test_file.0
Reusing existing file test_file.1
No bytes written." ]
	both fileio --file-num=2 cleanup
	[ "$(sed 1,2d <<<"$out")" = "Removing test files..." ]
	# prepare writes whole blocks: 3 files of 8 KiB in 16 KiB blocks hold 16 KiB each
	both fileio --file-num=3 --file-total-size=24K prepare
	[ "$(stat -c %s dbio/test_file.2)" = 16384 ]
	[[ "$out" == *"49152 bytes written in "* ]]
	both fileio --file-num=3 cleanup
	is_empty_dir dbio
}

@test "dbio sysbench: the old names and sizes people paste run with sysbench's meaning: --test=fileio, --num-threads, --max-requests, --max-time, --file-block-size=8K" {
	mkdir dbio sysb
	local args=(--test=fileio --num-threads=2 --max-requests=10 --max-time=5 --file-total-size=2M --file-num=16 --file-block-size=8K)
	both "${args[@]}" prepare
	[ "$rc" -eq 0 ]
	[ "$err" = "WARNING: the --test option is deprecated. You can pass a script name or path on the command line without any options." ]
	[ "$(head -3 <<<"$out")" = "WARNING: --num-threads is deprecated, use --threads instead
WARNING: --max-requests is deprecated, use --events instead
WARNING: --max-time is deprecated, use --time instead" ]
	both "${args[@]}" --file-test-mode=rndrd --output=../r.json run
	[ "$rc" -eq 0 ]
	[ "$(sed -n '/^Running/,/^Doing/p' <<<"$out")" = "Running the test with following options:
Number of threads: 2
Initializing random number generator from current time


Extra file open flags: (none)
16 files, 128KiB each
2MiB total file size
Block size 8KiB
Number of IO requests: 10
Read/Write ratio for combined random IO test: 1.50
Periodic FSYNC enabled, calling fsync() each 100 requests.
Calling fsync() at the end of test, Enabled.
Using synchronous I/O mode
Doing random read test" ]
	[[ "$out" == *"    total number of events:              10"* ]]
	[ "$(jpy r.json 'r["jobs"][0]["options"]["numjobs"], r["jobs"][0]["options"]["bs"], run["ops"]["read"]["count"]')" = "[2, 8192, 10]" ]
	[ "$(jpy r.json 'r["jobs"][0]["options"]["runtime"]')" = 5000000000 ]
	both --test=fileio --file-num=16 cleanup
	is_empty_dir dbio
}

@test "dbio sysbench: run checks the files as sysbench does: missing and short are FATAL, seqwr makes them anew, a block that does not divide the file" {
	mkdir dbio sysb
	local a=(fileio --file-num=4 --file-total-size=32M --verbosity=2)
	both "${a[@]}" --file-test-mode=rndrd --events=1 run
	[ "$rc" -eq 1 ]
	[ "$out" = "FATAL: Cannot open file 'test_file.0' errno = 2 (No such file or directory)
WARNING: Did you forget to run the prepare step?" ]
	both "${a[@]}" --file-total-size=1M prepare
	[ -z "$out" ]
	both "${a[@]}" --file-test-mode=rndwr --events=1 run
	[ "$rc" -eq 1 ]
	[ "$out" = "FATAL: Size of file 'test_file.0' is 256KiB, but at least 8MiB is expected.
WARNING: Did you run 'prepare' with different --file-total-size or --file-num values?" ]
	# seqwr writes its files anew, whatever their size
	both "${a[@]}" --file-test-mode=seqwr --events=1 --file-fsync-freq=0 --file-fsync-end=off run
	[ "$rc" -eq 0 ]
	[ -z "$out$err" ]
	[ "$(stat -c %s dbio/test_file.0) $(stat -c %s dbio/test_file.3)" = "16384 0" ]
	both "${a[@]}" cleanup
	# 4097-byte blocks in 8 KiB files (sysbench's GH-198): the requests stay in the files
	a=(fileio --file-num=128 --file-total-size=1M --file-block-size=4097 --events=2 --verbosity=2)
	both "${a[@]}" prepare
	[ "$(stat -c %s dbio/test_file.127)" = 8194 ]
	both "${a[@]}" --file-test-mode=seqrd run
	[ "$rc" -eq 0 ]
	[ -z "$out$err" ]
	both "${a[@]}" --file-test-mode=rndrd --output=../r.json run
	[ "$rc" -eq 0 ]
	[ -z "$out$err" ]
	[ "$(jpy r.json 'r["jobs"][0]["options"]["bs"], run["ops"]["read"]["count"]')" = "[4097, 2]" ]
	both "${a[@]}" cleanup
	is_empty_dir dbio
}

@test "dbio sysbench: --verbosity 0 to 4 as sysbench's levels; a run prints nothing on standard error, dbio's lines only with --dbio-lines" {
	mkdir dbio sysb
	local a=(fileio --file-num=4 --file-total-size=4M)
	both "${a[@]}" --verbosity=1 prepare
	[ -z "$out$err" ]
	both "${a[@]}" --file-test-mode=rndrw --events=20 --verbosity=4 run
	[ "$rc" -eq 0 ]
	[ -z "$err" ]
	[ "$(grep -c '^dbio' <<<"$out")" = 0 ]
	grep -qxF "    events (avg/stddev):           20.0000/0.00" <<<"$out"
	[ "$(grep -x -e 'Event limit exceeded, exiting...' -e 'Done.' <<<"$out")" = "Event limit exceeded, exiting...
Done." ]
	cd dbio
	sb "${a[@]}" --file-test-mode=rndrd --events=20 --dbio-lines run
	cd ..
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == *$'\ndbio:\n    latency (ms) by operation:'* ]]
	[[ "$output" == *$'\n        read                           20 '* ]]
	both "${a[@]}" --verbosity=0 cleanup
	[ -z "$out$err" ]
}

@test "dbio sysbench: --validate as sysbench's: prepare and writes leave each block's checksum and offset, reads check every block, a bad one is FATAL (exit 1)" {
	mkdir dbio sysb
	local a=(fileio --file-num=4 --file-total-size=4M)
	both "${a[@]}" --validate prepare
	[ "$rc" -eq 0 ]
	both "${a[@]}" --file-test-mode=rndwr --events=50 --validate --output=../w.json run
	[ "$rc" -eq 0 ]
	[ "$(grep -x -e 'Validation checks: on.' -e 'Using checksums validation.' <<<"$out")" = "Validation checks: on.
Using checksums validation." ]
	# writes carry dbio's verify header and read nothing back, as sysbench's
	[ "$(jpy w.json 'r["jobs"][0]["options"]["verify"], r["jobs"][0]["options"]["do_verify"], run["ops"]["read"]["count"]')" = '["crc32c", false, 0]' ]
	both "${a[@]}" --file-test-mode=rndrd --events=200 --validate --output=../r.json run
	[ "$rc" -eq 0 ]
	[ "$(jpy r.json 'r["jobs"][0]["options"]["verify"], run["ops"]["read"]["count"]')" = '["crc32c", 200]' ]
	both "${a[@]}" --file-test-mode=seqrd --events=256 --validate run
	[ "$rc" -eq 0 ]
	# one block changed on the disk: the read of it fails the run
	printf 'garbage!' | dd of=dbio/test_file.2 bs=1 seek=$((16384 * 5 + 100)) conv=notrunc status=none
	cd dbio
	sb "${a[@]}" --file-test-mode=seqrd --events=256 --validate run
	cd ..
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "FATAL: $scratch/dbio/test_file.2: verify=crc32c: 1 of 256 blocks read back did not match what was written, exiting..." ]
	[[ "$stderr" == *"test_file.2: verify=crc32c: block of 16384 bytes at offset 81920: crc32c of the data expected 0x"* ]]
	# blocks prepared without --validate carry no checksum: FATAL, exit 1,
	# as sysbench's (its three FATAL lines name its checksum, dbio's one
	# line the count, and standard error each block)
	both "${a[@]}" cleanup
	both "${a[@]}" prepare
	cd dbio
	sb "${a[@]}" --file-test-mode=rndrd --events=5 --validate run
	cd ..
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == "FATAL: "*"/test_file."*": verify=crc32c: "*" blocks read back did not match what was written, exiting..." ]]
	if command -v sysbench >/dev/null; then
		cd sysb
		run sysbench "${a[@]}" --file-test-mode=rndrd --events=5 --validate run
		cd ..
		[ "$status" -eq 1 ]
		[[ "${lines[-1]}" == "FATAL: Validation failed on file "*", exiting..." ]]
	fi
	both "${a[@]}" cleanup
}

@test "dbio sysbench: dbio help sysbench, --help and the man page are the table's; fileio help lists fileio's options" {
	run "$DBIO" help sysbench
	[ "$status" -eq 0 ]
	local usage=$output
	[[ "$usage" == "usage: dbio sysbench [OPTIONS] fileio [OPTIONS] prepare|run|cleanup|help"* ]]
	[[ "$usage" == *$'\n  --file-block-size=N\n'*"block size to use in all IO operations [16384]"* ]]
	[[ "$usage" == *$'\n  --validate[=on|off]\n'* ]]
	[[ "$usage" == *$'\n  --num-threads=N'*"deprecated alias for --threads [1]"* ]]
	run "$DBIO" sysbench --help
	[ "$output" = "$usage" ]
	run "$DBIO" help sysbench --man
	[[ "$output" == *$'.TP\n\\fB\\-\\-file\\-extra\\-flags\\fR=\\fI[LIST,...]\\fR\n'* ]]
	[[ "$output" == *$'.TP\n\\fB\\-\\-histogram\\fR[=on|off]\\fR\n'* ]]
	grep -qF -- '\fB\-\-file\-extra\-flags\fR=\fI[LIST,...]\fR' "$BATS_TEST_DIRNAME/../../docs/dbio.1"
	run "$DBIO" sysbench fileio help
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "fileio options:" ]
	[[ "${lines[2]}" == "  --file-num=N "*"number of files to create [128]" ]]
	[ "${#lines[@]}" -eq 15 ]
	# sysbench's own words, its typo too: dbio's notes are in dbio help sysbench
	[ "${lines[7]}" = "  --file-async-backlog=N        number of asynchronous operatons to queue per thread [128]" ]
	[ "${lines[9]}" = "  --file-fsync-freq=N           do fsync() after this number of requests (0 - don't use fsync()) [100]" ]
	if command -v sysbench >/dev/null; then
		diff <(sysbench fileio help | tail -n +2) <("$DBIO" sysbench fileio help | tail -n +2)
	fi
}

@test "dbio sysbench: --file-num=800 (as users paste it): 800 files made, read and removed, the events sysbench counts" {
	mkdir work && cd work
	run -0 "$DBIO" sysbench fileio --file-num=800 --file-total-size=16M prepare
	[ "$(grep -c '^Creating file test_file\.' <<<"$output")" -eq 800 ]
	# 16M / 800 is 20971 bytes a file; sysbench writes whole 16 KiB blocks: 2 each
	[[ "$output" == *$'\n26214400 bytes written in '* ]]
	[ "$(find . -name 'test_file.*' -size 32768c | wc -l)" -eq 800 ]
	run -0 "$DBIO" sysbench --events=1600 fileio --file-num=800 --file-total-size=16M --file-test-mode=rndrd run
	[[ "$output" == *$'\n    total number of events:              1600\n'* ]]
	run -0 "$DBIO" sysbench fileio --file-num=800 cleanup
	[ -z "$(ls)" ]
}
