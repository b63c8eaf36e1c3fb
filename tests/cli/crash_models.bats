#!/usr/bin/env bats
# dbio crash's crash models (--model: what a cut keeps of each file's writes
# since its last fsync) and injected faults (--fault), with the toy writers
# of tests/cli/crash_writer.py and kv jobs. The models draw from --seed (the
# cut's number and the file's name), so each toy's figures repeat exactly.
# With DBIO_POWERCUT_KEEP=all in the environment of bats (a cut keeps
# everything) the tests of reordering, torn records and of the record lost
# after an fsync's EIO fail: nothing is lost, nothing torn. (A write that
# ENOSPC refused is lost with or without the layer: it never reached the
# file.)

load helpers

WRITER="$BATS_TEST_DIRNAME/crash_writer.py"

# toy MODE OPTION...: dbio crash of the toy writer MODE for 10 records with
# OPTION...; the layer's directory gone afterwards.
toy() {
	need_powercut
	local mode=$1
	shift
	run -0 "$DBIO" crash "$@" --exec "$PYTHON $WRITER $mode 10" "$target"
	is_empty_dir "$target"
}

@test "crash models: under reorder a writer that never fsyncs keeps a later record where an earlier was lost" {
	toy ack-no-sync --model=reorder
	[ "${lines[10]}" = "crash states checked: 10, with losses: 9, acknowledged lost: max 6, total 30" ]
	[ "${lines[11]}" = "model reorder (seed 1): states with torn records: 0 (torn records: 0), with a later record kept where an earlier was lost: 8" ]
	[ "${lines[2]}" = "state 3: acknowledged 3, lost 2, a later record kept where an earlier was lost" ]
	local first=$output
	# the same seed, the same states
	toy ack-no-sync --model=reorder --seed 1
	[ "$output" = "$first" ]
}

@test "crash models: under lose the same writer loses every record in every state, in order" {
	toy ack-no-sync
	[ "${lines[9]}" = "state 10: acknowledged 10, lost 10" ]
	[ "${lines[10]}" = "crash states checked: 10, with losses: 10, acknowledged lost: max 10, total 55" ]
	[ "${#lines[@]}" -eq 11 ] # no model line
}

@test "crash models: a writer of 8 KiB records that fsyncs after acknowledging shows torn records under torn4k and torn512" {
	toy big-ack-then-sync --model=torn4k
	[ "${lines[10]}" = "crash states checked: 10, with losses: 10, acknowledged lost: max 1, total 10" ]
	[ "${lines[11]}" = "model torn4k (seed 1): states with torn records: 4 (torn records: 4), with a later record kept where an earlier was lost: 0" ]
	[ "${lines[5]}" = "state 6: acknowledged 6, lost 1, torn 1" ]
	toy big-ack-then-sync --model=torn512
	[ "${lines[11]}" = "model torn512 (seed 1): states with torn records: 10 (torn records: 10), with a later record kept where an earlier was lost: 0" ]
	# under lose the unsynced record is gone whole: nothing torn
	toy big-ack-then-sync
	[ "${lines[10]}" = "crash states checked: 10, with losses: 10, acknowledged lost: max 1, total 10" ]
	run -1 grep -c torn <<<"$output"
}

@test "crash models: a writer that fsyncs before it acknowledges loses nothing under every model" {
	for model in reorder torn512 torn4k; do
		toy sync-then-ack --model=$model
		[ "${lines[10]}" = "crash states checked: 10, with losses: 0, acknowledged lost: max 0, total 0" ]
	done
}

@test "crash faults: a writer that ignores an fsync's EIO and acknowledges loses that record for good" {
	toy sync-then-ack-ignore --fault=eio-fsync@3
	[ "${lines[1]}" = "state 2: acknowledged 2, lost 0" ]
	[ "${lines[2]}" = "state 3: acknowledged 3, lost 1" ]
	# its later fsyncs succeed, and the record dropped at the failed one stays lost
	[ "${lines[10]}" = "end: acknowledged 10, lost 1, a later record kept where an earlier was lost" ]
	[ "${lines[11]}" = "crash states checked: 11, with losses: 9, acknowledged lost: max 1, total 9" ]
	[ "${lines[12]}" = "fault eio-fsync@3: hit fsync 3 of log: EIO after 3 durability points; errors the writer reported: 0; states after it: 9, with losses: 9, acknowledged lost: max 1" ]
}

@test "crash faults: a writer that checks the fsync reports the EIO, acknowledges nothing it lost" {
	toy sync-then-ack-check --fault=eio-fsync@3
	[ "${lines[2]}" = "writer: error: fsync of rec3: Input/output error" ]
	[ "${lines[10]}" = "end: acknowledged 9, lost 0" ]
	[ "${lines[12]}" = "fault eio-fsync@3: hit fsync 3 of log: EIO after 3 durability points; errors the writer reported: 1; states after it: 8, with losses: 0, acknowledged lost: max 0" ]
}

@test "crash faults: ENOSPC on a write: the writer that ignores it loses the record, the one that checks reports it" {
	toy sync-then-ack-ignore --fault=enospc-write@3
	[ "${lines[10]}" = "end: acknowledged 10, lost 1, a later record kept where an earlier was lost" ]
	[ "${lines[12]}" = "fault enospc-write@3: hit write 3 of log: ENOSPC after 3 durability points; errors the writer reported: 0; states after it: 9, with losses: 9, acknowledged lost: max 1" ]
	toy sync-then-ack-check --fault=enospc-write@3
	[ "${lines[2]}" = "writer: error: write of rec3: No space left on device" ]
	[ "${lines[12]}" = "fault enospc-write@3: hit write 3 of log: ENOSPC after 3 durability points; errors the writer reported: 1; states after it: 8, with losses: 0, acknowledged lost: max 0" ]
}

@test "crash faults: a fault past the writer's last fsync never hits" {
	toy sync-then-ack-ignore --fault=eio-fsync@11
	[ "${lines[10]}" = "end: acknowledged 10, lost 0" ]
	[ "${lines[12]}" = "fault eio-fsync@11: never hit (the writer made fewer)" ]
}

@test "crash models: a bad --model, --fault, --seed or job key is refused, saying what is accepted" {
	run -2 --separate-stderr "$DBIO" crash --model=torn --exec true "$target"
	[ "$stderr" = "dbio: crash: --model 'torn': expected lose, reorder, torn512 or torn4k" ]
	for f in eio-fsync eio-fsync@0 eio-fsync@-1 eio-fsync@x enospc@3 eio-write@2; do
		run -2 --separate-stderr "$DBIO" crash --fault="$f" --exec true "$target"
		[ "$stderr" = "dbio: crash: --fault '$f': expected eio-fsync@N, enospc-write@N (N from 1) or none" ]
	done
	run -2 --separate-stderr "$DBIO" crash --seed=-1 --exec true "$target"
	[ "$stderr" = "dbio: crash: --seed '-1': expected a number from 0 to 18446744073709551615" ]
	run -2 --separate-stderr "$DBIO" crash --seed=3 --directory="$target" --workload=kv
	[ "$stderr" = "dbio: crash: --seed '3': for --exec; a job's crash model draws from its randseed" ]
	need_powercut
	need_built kv_engine=sqlite # kv's default engine
	run -2 --separate-stderr "$DBIO" crash --directory="$target" --workload=kv --crash_model=tear
	[ "$stderr" = "dbio: crash: command line: key 'crash_model': bad value 'tear': expected lose, reorder, torn512 or torn4k (job 'job')" ]
	run -2 --separate-stderr "$DBIO" crash --directory="$target" --workload=kv --crash_fault=eio@1
	[ "$stderr" = "dbio: crash: command line: key 'crash_fault': bad value 'eio@1': expected eio-fsync@N, enospc-write@N (N from 1) or none (job 'job')" ]
	is_empty_dir "$target"
}

# crash_kv ENGINE KEY=VALUE...: dbio crash of 100 records in batches of 10
# on ENGINE (skipped when the build left it out) into $result.
crash_kv() {
	need_powercut
	kv_engines_of_build | grep -qxF "$1" || skip "this build left out kv_engine=$1"
	local engine=$1
	shift
	run --separate-stderr "$DBIO" crash --output "$result" --directory="$target" --workload=kv \
		--kv_engine="$engine" --records=100 --batch=10 --value_size=64-128 "$@"
	is_empty_dir "$target"
}

@test "crash faults kv: gdbm sees the 4th fsync's EIO as a failed gdbm_sync; nothing acknowledged is lost" {
	crash_kv gdbm --sync_each_batch=1 --fault=eio-fsync@4
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"gdbm insert: gdbm_sync: Error synchronizing file" ]]
	json_is "$result" jobs.0.runs.0.durability.version=2 jobs.0.runs.0.durability.model=lose \
		jobs.0.runs.0.durability.fault.fault=eio-fsync@4 jobs.0.runs.0.durability.fault.hit=true \
		"jobs.0.runs.0.durability.fault.what=fsync 4 of dbio.job.0.db/gdbm: EIO" \
		jobs.0.runs.0.durability.fault.seen=true \
		"jobs.0.runs.0.durability.fault.error=gdbm_sync: Error synchronizing file" \
		jobs.0.runs.0.durability.fault.states_after=1 jobs.0.runs.0.durability.fault.lost_after_max=0 \
		jobs.0.runs.0.durability.acknowledged=20 jobs.0.runs.0.durability.acknowledged_lost.total=0
}

@test "crash faults kv: SQLite's COMMIT fails on an fsync's EIO, and the text report says so" {
	crash_kv sqlite --sqlite_synchronous=extra --crash_fault=eio-fsync@8
	[ "$status" -eq 1 ]
	[[ "$output" == *"      fault eio-fsync@8: hit fsync 8 of dbio.job.0.db/sqlite-journal: EIO; the workload saw it: COMMIT: disk I/O error; 2 states after it, 0 with losses, up to 0 acknowledged lost in one"* ]]
	json_is "$result" jobs.0.runs.0.durability.fault.seen=true jobs.0.runs.0.durability.fault.lost_after_max=0
}

@test "crash faults kv: LMDB's commit fails on ENOSPC; a fault the run never reaches is said not to hit" {
	crash_kv lmdb --sync_each_batch=1 --fault=enospc-write@5
	# bats shows this only when the test fails: it failed once under load
	echo "status $status; stderr: $stderr; output: $output"
	[ "$status" -eq 1 ]
	json_is "$result" jobs.0.runs.0.durability.fault.seen=true \
		"jobs.0.runs.0.durability.fault.error=mdb_txn_commit: No space left on device"
	crash_kv lmdb --sync_each_batch=1 --fault=enospc-write@100000
	[ "$status" -eq 0 ]
	json_is "$result" jobs.0.runs.0.durability.fault.hit=false jobs.0.runs.0.durability.fault.seen=false \
		jobs.0.runs.0.durability.acknowledged_lost.total=0
	[[ "$output" == *"      fault enospc-write@100000: never hit"* ]]
}

@test "crash models kv: crash_model=reorder in a job file: gdbm without a sync still loses, and the text names the model" {
	need_powercut
	kv_engines_of_build | grep -qxF gdbm || skip "this build left out kv_engine=gdbm"
	cat >"$scratch/crash.fio" <<EOF
[crashed]
directory=$target
workload=kv
kv_engine=gdbm
sync_each_batch=0
records=100
batch=10
value_size=64-128
crash_model=reorder
EOF
	run -0 --separate-stderr "$DBIO" crash --output "$result" "$scratch/crash.fio"
	[[ "$output" == *"    after a power cut (gdbm no gdbm_sync, crash model reorder): lost "* ]]
	json_is "$result" jobs.0.runs.0.durability.model=reorder jobs.0.runs.0.durability.states=10
	run -0 jpy "$result" 'run["durability"]["states_with_losses"] >= 9'
	[ "$output" = true ]
	# --model over the job's key
	run -0 --separate-stderr "$DBIO" crash --model=torn4k --output "$result" "$scratch/crash.fio"
	json_is "$result" jobs.0.runs.0.durability.model=torn4k
	is_empty_dir "$target"
}

@test "crash models: an acknowledged file that is a symlink in the mount, or outside the cut, is never read through" {
	need_powercut
	echo secret >"$scratch/outside"
	# the layer makes no symlink (ENOSYS), and a durable name is a regular
	# file or a directory; the check of a torn record opens with O_NOFOLLOW
	run -0 "$DBIO" crash --model=torn4k \
		--exec "ln -s $scratch/outside link 2>/dev/null || echo 'error: no symlink'; echo 'link secret'; read x" \
		"$target"
	[ "${lines[0]}" = "writer: error: no symlink" ]
	[ "${lines[1]}" = "state 1: acknowledged 1, lost 1" ]
	run -1 --separate-stderr "$DBIO" crash --model=torn512 --exec "echo '../outside secret'; read x" "$target"
	[ "$stderr" = "dbio: crash: cut 1: cannot check it: Invalid argument" ]
	[ "$(cat "$scratch/outside")" = secret ]
	is_empty_dir "$target"
}

@test "crash models kv: LMDB's map shorter than its pages under reorder is a state that did not open, not a crash of dbio" {
	# MDB_NOSYNC: reorder may keep a meta page naming pages whose write,
	# which grew the file, it dropped; reading them through the map
	# raises SIGBUS in the check, which counts the state as not opened
	crash_kv lmdb --sync_each_batch=0 --model=reorder --records=500 --value_size=64-256
	[ "$status" -eq 0 ]
	json_is "$result" jobs.0.runs.0.durability.model=reorder jobs.0.runs.0.durability.states=50 \
		jobs.0.runs.0.durability.states_with_losses=50
	run -0 jpy "$result" 'run["durability"]["not_opened"] > 0'
	[ "$output" = true ]
}
