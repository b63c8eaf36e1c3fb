#!/usr/bin/env bats
# dbio and the user's data: it works only in directories that are empty or
# hold its own files, never touches a file it did not create, cleans up after
# success, failure and signals, and says why it refuses.

load helpers

@test "a directory holding a foreign file is refused, the file untouched" {
	echo "precious data" >"$target/precious"
	touch -d 2001-02-03 "$target/precious"
	run -2 --separate-stderr "$DBIO" run --directory="$target" --rw=write --size=1m --output "$result"
	[ "$stderr" = "dbio: $target: holds files that are not dbio's (such as 'precious'): refusing to work there; choose an empty directory or pass --force" ]
	[ -z "$output" ]
	[ ! -e "$result" ]
	run ls -A "$target"
	[ "$output" = precious ]
	[ "$(cat "$target/precious")" = "precious data" ]
	[ "$(stat -c %Y "$target/precious")" = "$(date -d 2001-02-03 +%s)" ]
}

@test "--force works beside a foreign file and leaves only that file" {
	echo "precious data" >"$target/precious"
	dbio_ok --directory="$target" --rw=randrw --size=1m --numjobs=2 --nrfiles=2 --force
	json_is "$result" "$R0.threads=2" partial=false
	run ls -A "$target"
	[ "$output" = precious ]
	[ "$(cat "$target/precious")" = "precious data" ]
}

@test "a foreign file in the second of two directories is refused too" {
	mkdir "$scratch/b"
	: >"$scratch/b/other"
	run -2 --separate-stderr "$DBIO" run --directory="$target:$scratch/b" --size=1m --nrfiles=2
	[ "$stderr" = "dbio: $scratch/b: holds files that are not dbio's (such as 'other'): refusing to work there; choose an empty directory or pass --force" ]
	is_empty_dir "$target"
}

@test "scratch files are removed after a successful run" {
	dbio_ok --directory="$target" --rw=randread --size=4m --numjobs=2 --nrfiles=2
	json_is "$result" "$R0.ops.read.count=2048"
	is_empty_dir "$target"
}

@test "--keep leaves the files, with their full size" {
	dbio_ok --directory="$target" --rw=read --size=4m --numjobs=2 --nrfiles=2 --keep
	run ls "$target"
	[ "${lines[*]}" = "dbio.job.0.0 dbio.job.0.1 dbio.job.1.0 dbio.job.1.1" ]
	[ "$(stat -c %s "$target/dbio.job.1.1")" -eq 2097152 ]
	rm "$target"/dbio.job.*
}

@test "a leftover file of the job is refused and kept, even with --force" {
	echo "from an earlier run" >"$target/dbio.job.0.0"
	run -2 --separate-stderr "$DBIO" run --directory="$target" --rw=write --size=1m --output "$result"
	[ "$stderr" = "dbio: $target/dbio.job.0.0: already exists: left by an earlier run? remove it and run again" ]
	[ ! -e "$result" ]
	run -2 --separate-stderr "$DBIO" run --directory="$target" --rw=write --size=1m --force
	[[ "$stderr" == *"already exists"* ]]
	run ls -A "$target"
	[ "$output" = dbio.job.0.0 ]
	[ "$(cat "$target/dbio.job.0.0")" = "from an earlier run" ]
}

@test "a symlink named like a job file is refused, its target untouched" {
	echo "precious data" >"$scratch/precious"
	ln -s "$scratch/precious" "$target/dbio.job.0.0"
	run -2 --separate-stderr "$DBIO" run --directory="$target" --rw=write --size=1m
	[[ "$stderr" == *"dbio.job.0.0: already exists"* ]]
	[ -L "$target/dbio.job.0.0" ]
	[ "$(cat "$scratch/precious")" = "precious data" ]
}

@test "another job's leftover files are left alone" {
	echo "other job" >"$target/dbio.other.0.0"
	dbio_ok --directory="$target" --rw=write --size=1m --name=mine
	run ls -A "$target"
	[ "$output" = dbio.other.0.0 ]
	[ "$(cat "$target/dbio.other.0.0")" = "other job" ]
}

# BUG: dbio takes every dbio.<job>.* file for its own leftover, so job 'a' is
# refused ("dbio.a.b.0.0: already exists") beside a file of job 'a.b' that it
# would never create.
@test "a file of a job whose name extends this job's name is not a leftover" {
	echo "job a.b" >"$target/dbio.a.b.0.0"
	dbio_ok --directory="$target" --rw=write --size=1m --name=a
	run ls -A "$target"
	[ "$output" = dbio.a.b.0.0 ]
}

# interrupt SIGNAL STATUS: a 30 s job stopped by SIGNAL in its measured phase
# exits STATUS, writes a partial result naming the signal and leaves its
# directory empty.
interrupt() {
	start_running --directory="$target" --rw=write --size=1m --time_based --runtime=30s
	kill "-$1" "$bg_pid"
	finish_running "$2"
	json_is "$result" partial=true error="interrupted by $1" "$R0.partial=true"
	# It wrote, and stopped short of its runtime.
	run jpy "$result" 'run["ops"]["write"]["count"] > 0' 'run["elapsed_ns"] < r["jobs"][0]["options"]["runtime"]'
	[ "${lines[*]}" = "true true" ]
	[ "$(tail -n 1 "$scratch/err")" = "dbio: interrupted by $1" ]
	grep -qx "dbio: partial result written to $result" "$scratch/err"
	grep -q "PARTIAL" "$scratch/stdout"
	is_empty_dir "$target"
}

@test "SIGINT: exit 130, a partial result, the directory emptied" {
	interrupt SIGINT 130
}

@test "SIGTERM: exit 143, a partial result, the directory emptied" {
	interrupt SIGTERM 143
}

@test "SIGINT after the result was written: exit 0, the complete result stands, and stderr says so" {
	mkfifo out.fifo csv.fifo
	# dbio writes --output, then --series-csv. The result goes into a FIFO
	# read to its end; the CSV (over 8 KiB) into a FIFO of one page that is
	# read only after the signal: dbio is still there, blocked writing it,
	# when the SIGINT comes, and the result it wrote is already whole.
	run --separate-stderr "$PYTHON" - "$DBIO" "$target" <<'PY'
import fcntl, os, signal, subprocess, sys, time
csv = os.open("csv.fifo", os.O_RDONLY | os.O_NONBLOCK)
fcntl.fcntl(csv, 1031, 4096)  # F_SETPIPE_SZ: one page
p = subprocess.Popen([sys.argv[1], "run", "--rw=read", "--size=64k", "--time_based", "--runtime=2s",
                      "--log_interval=10ms", "--numjobs=4", "--progress=none", "--directory=" + sys.argv[2],
                      "--output", "out.fifo", "--series-csv", "csv.fifo"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
with open("out.fifo", "rb") as f:
    open("got.json", "wb").write(f.read())
p.send_signal(signal.SIGINT)
data = b""
while True:  # until dbio has opened the CSV FIFO, written it and closed it
    try:
        chunk = os.read(csv, 65536)
    except BlockingIOError:
        chunk = None
    if chunk:
        data += chunk
    elif chunk == b"" and data:
        break
    else:
        time.sleep(0.01)
open("got.csv", "wb").write(data)
err = p.stderr.read().decode()
print(p.wait())
sys.stderr.write(err)
PY
	[ "$output" = 0 ] || { echo "exit $output: $stderr"; false; }
	[ "${stderr_lines[-1]}" = "dbio: interrupted by SIGINT after the result was complete: it stands" ]
	json_is got.json partial=false "$R0.partial=false"
	[ "$(wc -c <got.csv)" -gt 8192 ]
	head -1 got.csv | grep -q '^job,run,thread,interval,'
	is_empty_dir "$target"
}

# stop_signal SIGNAL STATUS: SIGHUP (a closed terminal) and SIGQUIT (the
# quit key) stop a job as SIGTERM does. The signal is sent as soon as the
# job's file exists, so it lands while the file is laid out or while the
# threads run: either way the result is partial and written, and the
# directory emptied.
stop_signal() {
	"$DBIO" run --directory="$target" --rw=write --size=1m --time_based --runtime=60s \
		--output "$result" >"$scratch/stdout" 2>"$scratch/stderr" 3>&- &
	bg_pid=$!
	wait_for "$target/dbio.job.0.0"
	kill "-$1" "$bg_pid"
	local rc=0
	wait "$bg_pid" || rc=$?
	bg_pid=
	[ "$rc" -eq "$2" ] || {
		echo "exit status $rc, expected $2; stderr:" >&2
		cat "$scratch/stderr" >&2
		return 1
	}
	json_is "$result" partial=true error="interrupted by $1" "$R0.partial=true"
	[ "$(tail -n 1 "$scratch/stderr")" = "dbio: interrupted by $1" ]
	is_empty_dir "$target"
}

@test "SIGHUP: exit 129, a partial result, the directory emptied" {
	stop_signal SIGHUP 129
}

@test "SIGQUIT: exit 131, a partial result, the directory emptied" {
	stop_signal SIGQUIT 131
}

@test "under nohup, SIGHUP stays ignored: the job runs to its end" {
	command -v nohup >/dev/null || skip "nohup is not installed"
	nohup "$DBIO" run --directory="$target" --rw=write --size=1m --time_based --runtime=3s \
		--output "$result" >"$scratch/stdout" 2>"$scratch/stderr" 3>&- &
	bg_pid=$!
	wait_for "$target/dbio.job.0.0"
	kill -HUP "$bg_pid"
	local rc=0
	wait "$bg_pid" || rc=$?
	bg_pid=
	[ "$rc" -eq 0 ] || {
		echo "exit status $rc, expected 0; stderr:" >&2
		cat "$scratch/stderr" >&2
		return 1
	}
	json_is "$result" partial=false "$R0.partial=false"
	is_empty_dir "$target"
}

@test "SIGINT while the files are laid out: exit 130, nothing left" {
	"$DBIO" run --directory="$target" --rw=read --size=1g --nrfiles=4 --prefill=1 \
		--output "$result" >"$scratch/stdout" 2>"$scratch/stderr" 3>&- &
	bg_pid=$!
	wait_for "$target/dbio.job.0.0"
	kill -INT "$bg_pid"
	local rc=0
	wait "$bg_pid" || rc=$?
	bg_pid=
	[ "$rc" -eq 130 ]
	json_is "$result" partial=true error="interrupted by SIGINT" "$R0.partial=true" \
		"$R0.ops.read.count=0"
	is_empty_dir "$target"
}

@test "ENOSPC: exit 1, the error said, the partial result written, the filesystem emptied" {
	local small="$scratch/small"
	mount_tmpfs "$small" 4m
	run -1 --separate-stderr "$DBIO" run --directory="$small" --rw=write --size=16m --fallocate=none \
		--prefill=0 --output "$result"
	[[ "${stderr_lines[-1]}" == "dbio: $small/dbio.job.0.0: write of 4096 bytes at offset "*": No space left on device" ]]
	json_is "$result" partial=true "$R0.partial=true"
	run jpy "$result" '"No space left on device" in r["error"]' 'run["ops"]["write"]["count"] > 0'
	[ "${lines[*]}" = "true true" ]
	is_empty_dir "$small"
}

@test "ENOSPC while preallocating: exit 1, the filesystem emptied" {
	local small="$scratch/small"
	mount_tmpfs "$small" 4m
	run -1 --separate-stderr "$DBIO" run --directory="$small" --rw=write --size=16m --nrfiles=2 \
		--output "$result"
	[[ "${stderr_lines[-1]}" == "dbio: $small/dbio.job.0."*": cannot preallocate 8 MiB: No space left on device" ]]
	json_is "$result" partial=true
	is_empty_dir "$small"
}

@test "the default directory ./dbio-scratch is created and removed" {
	mkdir cwd
	cd cwd
	dbio_ok --rw=write --size=1m
	json_is "$result" jobs.0.options.directory=./dbio-scratch jobs.0.targets.0.directory=./dbio-scratch \
		"$R0.ops.write.count=256"
	is_empty_dir "$scratch/cwd"
	dbio_ok --rw=write --size=1m --keep
	run ls -A dbio-scratch
	[ "$output" = dbio.job.0.0 ]
	rm -r dbio-scratch
}

@test "an existing ./dbio-scratch is used and kept" {
	mkdir cwd cwd/dbio-scratch
	cd cwd
	dbio_ok --rw=write --size=1m
	is_empty_dir "$scratch/cwd/dbio-scratch"
}

# ---- output paths ----

# A job quick enough to run many times: 64 KiB of reads.
QUICK=(--rw=read --size=64k --progress=none)

@test "--output onto a character device writes through it and leaves the node (a /dev/null of the test's own)" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to make a device node"
	mknod "$scratch/null" c 1 3
	mknod "$scratch/full" c 1 7
	run --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output "$scratch/null"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(stat -c %F "$scratch/null")" = "character special file" ]
	[ "$(stat -c %t:%T "$scratch/null")" = "1:3" ]
	# /dev/full says ENOSPC: the run's result cannot be written, exit 1, the node stays.
	run --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output "$scratch/full"
	[ "$status" -eq 1 ]
	[ "${stderr_lines[-1]}" = "dbio: $scratch/full: cannot write: No space left on device" ]
	[ "$(stat -c %F "$scratch/full")" = "character special file" ]
	[ -z "$(ls -A "$scratch" | grep dbio-tmp)" ]
	is_empty_dir "$target"
}

@test "--output onto a FIFO writes the JSON into it and leaves the FIFO" {
	mkfifo "$scratch/fifo"
	cat "$scratch/fifo" >"$scratch/got" &
	bg_pid=$!
	run --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output "$scratch/fifo"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	# Still a FIFO (or cat would wait forever: teardown kills it).
	[ -p "$scratch/fifo" ]
	wait "$bg_pid"
	bg_pid=
	json_is "$scratch/got" "$R0.ops.read.count=16" partial=false
}

@test "--output onto a FIFO another user planted that nobody reads: refused promptly, the FIFO left" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to own a FIFO as another user"
	mkfifo "$scratch/fifo"
	chown 65534:65534 "$scratch/fifo"
	# timeout only guards against a hang (dbio before this waited forever)
	run --separate-stderr timeout 60 "$DBIO" run "${QUICK[@]}" --directory="$target" --output "$scratch/fifo"
	[ "$status" -eq 1 ]
	[ "${stderr_lines[-1]}" = "dbio: $scratch/fifo: a FIFO that no process reads: refusing to wait for one (start its reader first)" ]
	[ -p "$scratch/fifo" ]
	[ "$(stat -c %u:%g "$scratch/fifo")" = 65534:65534 ]
	[ -z "$(ls -A "$scratch" | grep dbio-tmp)" ]
}

# no_raw_controls_in FILE: FILE holds no ESC byte, no C1 control (U+009B as
# UTF-8, c2 9b) and no DEL.
no_raw_controls_in() {
	[ "$(grep -c $'\x1b' "$1")" -eq 0 ] || { echo "raw ESC in $1"; return 1; }
	[ "$(grep -c $'\xc2\x9b' "$1")" -eq 0 ] || { echo "raw U+009B in $1"; return 1; }
	[ "$(grep -c $'\x7f' "$1")" -eq 0 ] || { echo "raw DEL in $1"; return 1; }
}

@test "JSON holds no raw control character: run --format json, --output-format=json and the result file parse back to the same path" {
	local d=$'d\x1b[31m\xc2\x9bx\x7f'
	mkdir "$target/$d"
	run --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target/$d" --format json --output "$result"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	printf '%s\n' "$output" >stdout.json
	no_raw_controls_in stdout.json
	no_raw_controls_in "$result"
	json_is stdout.json "jobs.0.options.directory=$target/$d" "argv.5=--directory=$target/$d"
	json_is "$result" "jobs.0.options.directory=$target/$d" "argv.5=--directory=$target/$d"
	grep -qF 'd\u001B[31m\u009Bx\u007F' stdout.json
	run --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target/$d" --output-format=json
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	printf '%s\n' "$output" >fio.json
	no_raw_controls_in fio.json
	json_is fio.json "jobs.0.job options.directory=$target/$d"
}

# restore_dev_stdout: put /dev/stdout back as the symlink it is, should a
# broken dbio have replaced it with a file (as dbio before issue 11 did).
restore_dev_stdout() {
	[ -L /dev/stdout ] || { rm -f /dev/stdout && ln -s /proc/self/fd/1 /dev/stdout; }
}

@test "--output /dev/stdout and - put the JSON after the text on standard output; a redirect file is not replaced" {
	[ -L /dev/stdout ] || skip "/dev/stdout is not a symlink here"
	on_teardown restore_dev_stdout
	"$DBIO" run "${QUICK[@]}" --directory="$target" --output /dev/stdout >"$scratch/out" 2>"$scratch/err"
	[ -L /dev/stdout ]
	grep -q '^job job: rw=read' "$scratch/out"
	sed -n '/^{/,$p' "$scratch/out" >"$scratch/json"
	json_is "$scratch/json" "$R0.ops.read.count=16"
	"$DBIO" run "${QUICK[@]}" --directory="$target" --output - --format=csv >"$scratch/out2"
	head -1 "$scratch/out2" | grep -q '^job,op,'
	sed -n '/^{/,$p' "$scratch/out2" >"$scratch/json2"
	json_is "$scratch/json2" "$R0.ops.read.count=16"
}

@test "--output: a symlink of another user is refused, one of root's is followed to its file" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to own symlinks as another user"
	echo precious >"$scratch/victim"
	chmod 1777 "$scratch"
	ln -s "$scratch/victim" "$scratch/planted.json"
	chown -h 65534:65534 "$scratch/planted.json"
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output "$scratch/planted.json"
	[ "$stderr" = "dbio: --output $scratch/planted.json: a symlink that belongs to user 65534: refusing to follow it (give the path it points to)" ]
	[ "$(cat "$scratch/victim")" = precious ]
	[ -L "$scratch/planted.json" ]
	# The same for report --html and --series-csv.
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --series-csv "$scratch/planted.json"
	[[ "$stderr" == "dbio: --series-csv $scratch/planted.json: a symlink that belongs to user 65534"* ]]
	# root's own symlink: the file it points to gets the result; the link stays.
	ln -s "$scratch/mine.json" "$scratch/link.json"
	: >"$scratch/mine.json"
	run --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output "$scratch/link.json"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ -L "$scratch/link.json" ]
	json_is "$scratch/mine.json" "$R0.ops.read.count=16"
	# A symlink to nothing is refused before running.
	ln -s "$scratch/nothing" "$scratch/dangling.json"
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output "$scratch/dangling.json"
	[ "$stderr" = "dbio: --output $scratch/dangling.json: a symlink to nothing (No such file or directory): give a file name" ]
	[ ! -e "$scratch/nothing" ]
}

@test "--output, --series-csv, sync --output and report --html refuse a block device and a directory before running" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to make a device node"
	mknod "$scratch/blk" b 7 200
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output "$scratch/blk"
	[ "$stderr" = "dbio: --output $scratch/blk: is a block device: refusing to write a file onto it" ]
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --log_interval=10ms --series-csv "$scratch/blk"
	[ "$stderr" = "dbio: --series-csv $scratch/blk: is a block device: refusing to write a file onto it" ]
	run -2 --separate-stderr "$DBIO" sync "$target" --runtime=100ms --output "$scratch/blk"
	[ "$stderr" = "dbio: --output $scratch/blk: is a block device: refusing to write a file onto it" ]
	dbio_ok "${QUICK[@]}" --directory="$target"
	run -2 --separate-stderr "$DBIO" report "$result" --html "$scratch/blk"
	[ "$stderr" = "dbio: report: --html $scratch/blk: is a block device: refusing to write a file onto it" ]
	[ "$(stat -c %F "$scratch/blk")" = "block special file" ]
	mkdir "$scratch/adir"
	run -2 --separate-stderr "$DBIO" report "$result" --html "$scratch/adir"
	[ "$stderr" = "dbio: report: --html $scratch/adir: is a directory: expected a file name" ]
	is_empty_dir "$target"
}

@test "report --html onto a character device writes through it; a regular file is replaced atomically" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to make a device node"
	mknod "$scratch/null" c 1 3
	dbio_ok "${QUICK[@]}" --directory="$target"
	run --separate-stderr "$DBIO" report "$result" --html "$scratch/null"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(stat -c %F "$scratch/null")" = "character special file" ]
	echo old >"$scratch/r.html"
	ln "$scratch/r.html" "$scratch/hardlink"
	run "$DBIO" report "$result" --html "$scratch/r.html"
	[ "$status" -eq 0 ]
	# Replaced by rename: the old inode (the hard link) keeps the old text.
	[ "$(cat "$scratch/hardlink")" = old ]
	head -1 "$scratch/r.html" | grep -qx '<!DOCTYPE html>'
}

@test "a database kept with --keep, swapped by another user for a later job's database directory, is not removed" {
	command -v sqlite3 >/dev/null || skip "sqlite3 is not installed"
	in_build kv_engine=sqlite || skip "this build has no SQLite (libsqlite3-dev)"
	swap_target
	rm -r "$target/precious"
	dbio_ok --workload=kv --kv_engine=sqlite --records=500 --name=kept --keep --directory="$target"
	rows=$(sqlite3 "$target/dbio.kept.0.db/sqlite" 'select count(*) from kv')
	[ "$rows" = 500 ]
	swap_when_full dbio.kvb.0.db dbio.kept.0.db
	run --separate-stderr "$DBIO" run --output "$result" --progress=none --workload=kv --kv_engine=sqlite \
		--records=100000 --name=kvb --directory="$target"
	wait "$bg_pid"
	bg_pid=
	[ -e "$atk/swapped" ]
	[ "$(sqlite3 "$target/dbio.kvb.0.db/sqlite" 'select count(*) from kv')" = "$rows" ]
	[[ $stderr == *"dbio: warning: $target/dbio.kvb.0.db: not removed: the name is now a directory of uid 0 mode 0700, not the one dbio made"* ]]
}

# Whole paths (docs/safety.md, sections 1 and 3): a symlink of another user
# is refused wherever it is in a path, not only as its last component.
#
# plant_middle: $scratch/u, a directory of user nobody (65534), holding
# nobody's symlink u/sub to $scratch/victim, which holds a precious
# out.json; $via is "$scratch/u/sub", $refusal the end of the message.
plant_middle() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to own a symlink as another user"
	mkdir "$scratch/victim" "$scratch/u"
	echo precious >"$scratch/victim/out.json"
	chown 65534:65534 "$scratch/u"
	ln -s "$scratch/victim" "$scratch/u/sub"
	chown -h 65534:65534 "$scratch/u/sub"
	via="$scratch/u/sub"
	refusal="component '$via' is a symlink that belongs to user 65534: refusing to follow it (give the path it points to)"
}

# run_ok ARG...: `dbio run ARG...` exits 0.
run_ok() {
	run --separate-stderr "$DBIO" run "$@"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
}

# victim_untouched: victim/ holds only out.json, still "precious".
victim_untouched() {
	[ "$(cat "$scratch/victim/out.json")" = precious ]
	run ls -A "$scratch/victim"
	[ "$output" = out.json ]
}

@test "whole path: run --output through another user's symlink in the middle is refused, its target untouched" {
	plant_middle
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output="$via/out.json"
	[ "$stderr" = "dbio: --output $via/out.json: $refusal" ]
	victim_untouched
	is_empty_dir "$target"
}

@test "whole path: --series-csv through another user's symlink in the middle is refused, its target untouched" {
	plant_middle
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --log_interval=10ms --series-csv="$via/out.json"
	[ "$stderr" = "dbio: --series-csv $via/out.json: $refusal" ]
	victim_untouched
}

@test "whole path: sweep --output through another user's symlink in the middle is refused, its target untouched" {
	plant_middle
	run -2 --separate-stderr "$DBIO" sweep "${QUICK[@]}" --vary bs=4k,8k --directory="$target" --output="$via/out.json"
	[ "$stderr" = "dbio: --output $via/out.json: $refusal" ]
	victim_untouched
}

@test "whole path: sync --output through another user's symlink in the middle is refused, its target untouched" {
	plant_middle
	run -2 --separate-stderr "$DBIO" sync "$target" --runtime=100ms --output "$via/out.json"
	[ "$stderr" = "dbio: --output $via/out.json: $refusal" ]
	victim_untouched
}

@test "whole path: bonnie --output through another user's symlink in the middle is refused, its target untouched" {
	plant_middle
	run -2 --separate-stderr "$DBIO" bonnie -d "$target" -s 8 -r 0 -n 0 --output "$via/out.json" --progress=none
	[ "${stderr_lines[-1]}" = "dbio: --output $via/out.json: $refusal" ]
	victim_untouched
}

@test "whole path: sysbench --output through another user's symlink in the middle is refused, its target untouched" {
	plant_middle
	cd "$target"
	"$DBIO" sysbench fileio --file-num=1 --file-total-size=64K prepare >/dev/null
	run -2 --separate-stderr "$DBIO" sysbench --output "$via/out.json" fileio --file-num=1 --file-total-size=64K --file-test-mode=seqwr --time=1 run
	[ "$stderr" = "dbio: --output $via/out.json: $refusal" ]
	victim_untouched
	"$DBIO" sysbench fileio --file-num=1 --file-total-size=64K cleanup >/dev/null
	is_empty_dir "$target"
}

@test "whole path: report --html through another user's symlink in the middle is refused, its target untouched" {
	plant_middle
	dbio_ok "${QUICK[@]}" --directory="$target"
	run -2 --separate-stderr "$DBIO" report "$result" --html "$via/out.json"
	[ "$stderr" = "dbio: report: --html $via/out.json: $refusal" ]
	victim_untouched
}

@test "whole path: plot --out through another user's symlink, in the middle or last, is refused, its target untouched" {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: apt-get install gnuplot-nox)"
	plant_middle
	dbio_ok "${QUICK[@]}" --directory="$target"
	run -2 --separate-stderr "$DBIO" plot "$result" --out "$via/plots"
	[ "$stderr" = "dbio: plot: --out $via/plots: $refusal" ]
	run -2 --separate-stderr "$DBIO" plot "$result" --out "$via"
	[ "$stderr" = "dbio: plot: --out $via: a symlink that belongs to user 65534: refusing to follow it (give the path it points to)" ]
	victim_untouched
}

@test "whole path: fio's write_bw_log, write_lat_log and write_iops_log through another user's symlink in the middle are refused" {
	plant_middle
	for key in write_bw_log write_lat_log write_iops_log; do
		printf '[j]\nsize=64k\n%s=%s/s\n' "$key" "$via" >j.fio
		run -2 --separate-stderr "$DBIO" run j.fio --directory="$target" --output="$result"
		[[ "$stderr" == "dbio: $key $via/s_"*".1.log: $refusal" ]] || { echo "$key: $stderr"; false; }
	done
	victim_untouched
	is_empty_dir "$target"
	[ ! -e "$result" ]
}

@test "whole path: a target directory through another user's symlink in the middle is refused before anything is written" {
	plant_middle
	mkdir "$scratch/victim/d"
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$via/d" --keep
	[ "$stderr" = "dbio: command line: key 'directory': $via/d: $refusal" ]
	is_empty_dir "$scratch/victim/d"
	# the target itself another user's symlink: refused as well
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$via" --keep --force
	[ "$stderr" = "dbio: command line: key 'directory': $via: a symlink that belongs to user 65534: refusing to follow it (give the path it points to)" ]
	# fio's filename=/dir/name: its directory is the target
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --filename="$via/d/f" --keep
	[ "$stderr" = "dbio: command line: key 'directory': $via/d: $refusal" ]
	is_empty_dir "$scratch/victim/d"
	[ "$(cat "$scratch/victim/out.json")" = precious ]
}

@test "whole path: a middle symlink of root or of dbio's user is followed as a shell would; another user's beside it is refused" {
	plant_middle
	ln -s "$scratch/victim" "$scratch/u/mine" # root's, in nobody's directory
	run_ok "${QUICK[@]}" --directory="$target" --output="$scratch/u/mine/r.json"
	json_is "$scratch/victim/r.json" "$R0.ops.read.count=16"
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output="$scratch/u/sub/r2.json"
	[ "$stderr" = "dbio: --output $scratch/u/sub/r2.json: $refusal" ]
	[ ! -e "$scratch/victim/r2.json" ]
}

@test "whole path: a relative middle symlink is resolved from its own directory, under the same rule" {
	plant_middle
	mkdir "$scratch/w"
	ln -s ../victim "$scratch/w/rel" # root's: followed, from w/
	run_ok "${QUICK[@]}" --directory="$target" --output=w/rel/r.json
	json_is "$scratch/victim/r.json" "$R0.ops.read.count=16"
	ln -s ../victim u/relother
	chown -h 65534:65534 u/relother
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output=u/relother/out.json
	[ "$stderr" = "dbio: --output u/relother/out.json: component 'u/relother' is a symlink that belongs to user 65534: refusing to follow it (give the path it points to)" ]
	[ "$(cat "$scratch/victim/out.json")" = precious ]
}

@test "whole path: a chain of two symlinks whose second belongs to another user is refused, naming the second" {
	plant_middle
	ln -s "$via" "$scratch/l1" # root's, to nobody's
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output="$scratch/l1/out.json"
	[ "$stderr" = "dbio: --output $scratch/l1/out.json: $refusal" ]
	ln -s "$via/out.json" "$scratch/l2.json" # the chain as the last component
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output="$scratch/l2.json"
	[ "$stderr" = "dbio: --output $scratch/l2.json: $refusal" ]
	victim_untouched
}

@test "whole path: '..' after a symlink is the parent of its target; after another user's, refused" {
	plant_middle
	mkdir -p "$scratch/deep/inner"
	ln -s "$scratch/deep/inner" "$scratch/mine"
	run_ok "${QUICK[@]}" --directory="$target" --output="$scratch/mine/../r.json"
	json_is "$scratch/deep/r.json" "$R0.ops.read.count=16"
	[ ! -e "$scratch/r.json" ]
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output="$via/../out.json"
	[ "$stderr" = "dbio: --output $via/../out.json: $refusal" ]
	[ ! -e "$scratch/out.json" ]
	victim_untouched
}

@test "whole path: empty and '.' components are skipped, a path of PATH_MAX bytes is refused" {
	plant_middle
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output="$scratch/u//./sub/out.json"
	[ "$stderr" = "dbio: --output $scratch/u//./sub/out.json: $refusal" ]
	victim_untouched
	long=$(printf 'a/%.0s' $(seq 2100))
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --directory="$target" --output="$long"
	[ "$stderr" = "dbio: --output $long: cannot write there: File name too long" ]
}

@test "whole path: a ./dbio-scratch that is another user's symlink is refused; nothing is made through it" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to own a symlink as another user"
	chmod 1777 "$scratch"
	mkdir "$scratch/victim"
	ln -s "$scratch/victim" "$scratch/dbio-scratch"
	chown -h 65534:65534 "$scratch/dbio-scratch"
	run -2 --separate-stderr "$DBIO" run "${QUICK[@]}" --keep
	[ "$stderr" = "dbio: command line: key 'directory': ./dbio-scratch: a symlink that belongs to user 65534: refusing to follow it (give the path it points to)" ]
	is_empty_dir "$scratch/victim"
	[ -L "$scratch/dbio-scratch" ]
}
