#!/usr/bin/env bats
# dbio crash JOB: workload=kv on the power-cut layer (src/powercut/), its
# acknowledged records checked at each crash state by workload/kv_durable.c.
# 100 records in batches of 10: 10 acknowledgements (commits that returned),
# every one of them a cut (--acks 100), and the first 100 fsync returns.
# Each engine's safe setting loses nothing; its unsafe one loses, at the
# cut after acknowledgement i, all 10*i records acknowledged so far (550 in
# all). The test hook DBIO_POWERCUT_KEEP (docs/errors.md) shows the checks
# can fail: with =all (a cut keeps everything) the unsafe settings' tests
# fail, with =none (a cut keeps nothing) the safe ones'.

load helpers

# crash_kv ENGINE KEY=VALUE...: dbio crash of 100 records on ENGINE (skipped
# when the build left it out) into $result; DIR empty afterwards.
crash_kv() {
	need_powercut
	kv_engines_of_build | grep -qxF "$1" || skip "this build left out kv_engine=$1"
	local engine=$1
	shift
	run -0 --separate-stderr "$DBIO" crash --output "$result" --directory="$target" --workload=kv \
		--kv_engine="$engine" --records=100 --batch=10 --value_size=64-128 "$@"
	is_empty_dir "$target"
}

# safe: every state checked, none lost, every record acknowledged.
safe() {
	json_is "$result" jobs.0.runs.0.durability.states_with_losses=0 \
		jobs.0.runs.0.durability.acknowledged_lost.total=0 jobs.0.runs.0.durability.acknowledged_lost.max=0 \
		jobs.0.runs.0.durability.after_acknowledgements=10 jobs.0.runs.0.durability.acknowledged=100 \
		jobs.0.runs.0.durability.not_opened=0 jobs.0.runs.0.durability.torn_records=0
}

# unsafe: no fsync at all, so each of the 10 states after an acknowledgement
# loses everything acknowledged (10, 20 ... 100: 550), the first being key 0.
unsafe() {
	json_is "$result" jobs.0.runs.0.durability.states=10 jobs.0.runs.0.durability.at_durability_points=0 \
		jobs.0.runs.0.durability.states_with_losses=10 jobs.0.runs.0.durability.acknowledged_lost.max=100 \
		jobs.0.runs.0.durability.acknowledged_lost.total=550 jobs.0.runs.0.durability.first_lost.key=0 \
		jobs.0.runs.0.durability.first_lost.sequence=1 "jobs.0.runs.0.durability.first_lost.cut=ack 1" \
		jobs.0.runs.0.durability.first_lost.why=missing jobs.0.runs.0.durability.torn_records=0
}

@test "crash kv: gdbm with gdbm_sync per batch loses nothing at its 10 syncs and 10 acknowledgements" {
	crash_kv gdbm --sync_each_batch=1
	safe
	json_is "$result" jobs.0.runs.0.durability.states=20 jobs.0.runs.0.durability.at_durability_points=10 \
		"jobs.0.runs.0.durability.setting=gdbm gdbm_sync per batch" jobs.0.runs.0.durability.version=2 jobs.0.runs.0.durability.model=lose
}

@test "crash kv: gdbm without gdbm_sync loses every acknowledged record" {
	crash_kv gdbm --sync_each_batch=0
	unsafe
	json_is "$result" "jobs.0.runs.0.durability.setting=gdbm no gdbm_sync"
}

@test "crash kv: LMDB's synced commits lose nothing" {
	crash_kv lmdb --sync_each_batch=1
	safe
	json_is "$result" "jobs.0.runs.0.durability.setting=lmdb synced commits"
}

@test "crash kv: LMDB with MDB_NOSYNC loses every acknowledged record" {
	crash_kv lmdb --sync_each_batch=0
	unsafe
	json_is "$result" "jobs.0.runs.0.durability.setting=lmdb MDB_NOSYNC"
}

@test "crash kv: SQLite synchronous=EXTRA loses nothing, and integrity_check passes in every state" {
	crash_kv sqlite --sqlite_synchronous=extra
	safe
	json_is "$result" "jobs.0.runs.0.durability.setting=sqlite synchronous=EXTRA" \
		jobs.0.runs.0.durability.integrity_failed=0
}

@test "crash kv: SQLite synchronous=FULL loses the last commit, at most: its journal's unlink is not durable" {
	crash_kv sqlite --sqlite_synchronous=full
	json_is "$result" jobs.0.runs.0.durability.acknowledged_lost.max=10 \
		"jobs.0.runs.0.durability.first_lost.cut=ack 1" jobs.0.runs.0.durability.integrity_failed=0
	# every state right after an acknowledgement loses that commit's 10
	run -0 jpy "$result" 'run["durability"]["states_with_losses"] >= 10'
	[ "$output" = true ]
}

@test "crash kv: SQLite synchronous=OFF loses every acknowledged record" {
	crash_kv sqlite --sync_each_batch=0
	unsafe
	json_is "$result" "jobs.0.runs.0.durability.setting=sqlite synchronous=OFF"
}

@test "crash kv: RocksDB with its WAL synced per batch loses nothing: its open replays the WAL" {
	crash_kv rocksdb --sync_each_batch=1
	safe
	json_is "$result" "jobs.0.runs.0.durability.setting=rocksdb WAL synced per batch" \
		jobs.0.runs.0.durability.after_acknowledgements=10
}

@test "crash kv: RocksDB with its WAL not synced loses every acknowledged record" {
	crash_kv rocksdb --sync_each_batch=0
	unsafe
	json_is "$result" "jobs.0.runs.0.durability.setting=rocksdb WAL not synced"
}

@test "crash kv: RocksDB without a WAL loses every acknowledged record" {
	crash_kv rocksdb --sync_each_batch=0 --disable_wal=1
	unsafe
	json_is "$result" "jobs.0.runs.0.durability.setting=rocksdb no WAL"
}

@test "crash kv: RocksDB's synced WAL loses nothing across memtable flushes (a new WAL, SST files, MANIFEST)" {
	# 1000 records of 64-128 bytes fill a 64 KiB memtable about twice
	crash_kv rocksdb --sync_each_batch=1 --write_buffer_size=64k --records=1000 --cuts 20 --acks 40
	json_is "$result" jobs.0.runs.0.durability.states=60 jobs.0.runs.0.durability.states_with_losses=0 \
		jobs.0.runs.0.durability.acknowledged_lost.total=0 jobs.0.runs.0.durability.acknowledged=1000 \
		jobs.0.runs.0.durability.not_opened=0
	# the premise: the same records flush memtables (RocksDB's own count)
	run -0 --separate-stderr "$DBIO" run --format json --output "$result" --directory="$target" \
		--workload=kv --kv_engine=rocksdb --records=1000 --batch=10 --value_size=64-128 \
		--write_buffer_size=64k --benchmarks=fillseq
	run -0 jpy "$result" 'run["phases"][0]["figures"]["flush_bytes"] > 0'
	[ "$output" = true ]
}

@test "crash kv: LevelDB with its log synced per batch loses nothing while it writes one log" {
	crash_kv leveldb --sync_each_batch=1
	safe
	json_is "$result" "jobs.0.runs.0.durability.setting=leveldb log synced per batch" \
		jobs.0.runs.0.durability.states=20
}

@test "crash kv: LevelDB with its log not synced loses every acknowledged record" {
	crash_kv leveldb --sync_each_batch=0
	unsafe
	json_is "$result" "jobs.0.runs.0.durability.setting=leveldb log not synced"
}

@test "crash kv: LevelDB's synced log loses a batch written to a new log whose name is not yet durable" {
	# a full memtable starts a new log file, and LevelDB syncs the
	# directory only for a MANIFEST: till its compaction's MANIFEST, a
	# synced batch in the new log is in a file that a cut does not keep
	crash_kv leveldb --sync_each_batch=1 --write_buffer_size=64k --records=2000 --acks 200 --cuts 0
	json_is "$result" jobs.0.runs.0.durability.states=200 jobs.0.runs.0.durability.not_opened=0 \
		jobs.0.runs.0.durability.first_lost.why=missing jobs.0.runs.0.durability.torn_records=0
	run -0 jpy "$result" 'run["durability"]["states_with_losses"] >= 1'
	[ "$output" = true ]
}

@test "crash kv: the text report shows what a cut lost beside the write ops/s, and names the first lost record" {
	need_powercut
	kv_engines_of_build | grep -qxF gdbm || skip "this build left out kv_engine=gdbm"
	run -0 --separate-stderr "$DBIO" crash --directory="$target" --workload=kv --kv_engine=gdbm \
		--sync_each_batch=0 --records=100 --batch=10 --value_size=64-128
	[[ "$output" =~ "    after a power cut (gdbm no gdbm_sync): lost 550 acknowledged in 10 crash states, up to 100 of 100 in one (10 states with losses); "[0-9]+" write ops/s" ]]
	[[ "$output" == *"      0 at fsync returns, 10 after acknowledgements; did not open: 0, integrity_check failed: 0, torn records: 0"* ]]
	[[ "$output" == *"      first lost: key 0000000000000000, acknowledged write 1, at the cut 'ack 1': missing"* ]]
}

@test "crash kv: --acks 3 --cuts 2 cuts after 3 of the 10 acknowledgements and at 2 fsync returns" {
	crash_kv gdbm --sync_each_batch=1 --acks 3 --cuts 2
	json_is "$result" jobs.0.runs.0.durability.states=5 jobs.0.runs.0.durability.at_durability_points=2 \
		jobs.0.runs.0.durability.after_acknowledgements=3
}

@test "crash kv: with DBIO_POWERCUT_KEEP=none the engine finds no database, and every acknowledged record is lost" {
	DBIO_POWERCUT_KEEP=none crash_kv gdbm --sync_each_batch=1 --cuts 0
	json_is "$result" jobs.0.runs.0.durability.states=10 jobs.0.runs.0.durability.not_opened=10 \
		jobs.0.runs.0.durability.acknowledged_lost.total=550
}

@test "crash kv: with DBIO_POWERCUT_KEEP=all nothing is lost, even without a sync" {
	# LMDB writes its pages at each commit (gdbm keeps some in its own
	# cache until a sync, so a cut of everything written still loses)
	DBIO_POWERCUT_KEEP=all crash_kv lmdb --sync_each_batch=0
	json_is "$result" jobs.0.runs.0.durability.states=10 jobs.0.runs.0.durability.acknowledged_lost.total=0
}

@test "crash kv: a job dbio crash cannot check is refused before anything is made" {
	need_powercut
	need_built kv_engine=sqlite # kv's default engine
	run -2 --separate-stderr "$DBIO" crash --directory="$target" --workload=meta
	[ "$stderr" = "dbio: crash: command line: key 'workload': 'meta': dbio crash checks workload=kv, fileio and postgres for now (job 'job')" ]
	run -2 --separate-stderr "$DBIO" crash --directory="$target" --workload=kv --numjobs=2
	[ "$stderr" = "dbio: crash: command line: key 'numjobs': '2': dbio crash checks one thread (numjobs=1) (job 'job')" ]
	run -2 --separate-stderr "$DBIO" crash --acks x --directory="$target" --workload=kv
	[ "$stderr" = "dbio: crash: --acks 'x': expected a count from 0 to 1000000" ]
	run -2 --separate-stderr "$DBIO" crash --acks 3 --exec true "$target"
	[ "$stderr" = "dbio: crash: --acks '3': for dbio crash JOBFILE, not --exec" ]
	run -2 --separate-stderr "$DBIO" crash
	is_empty_dir "$target"
}

@test "crash kv: a value too small for the record's checksum is refused, and the layer is undone" {
	need_powercut
	need_built kv_engine=sqlite # kv's default engine
	run -2 --separate-stderr "$DBIO" crash --directory="$target" --workload=kv --records=10 --batch=5 \
		--value_size=8-30
	[[ "$stderr" == *"crash: value_size 8: below 24 bytes leaves no room for the record's checksum"* ]]
	is_empty_dir "$target"
}

@test "crash kv: a SIGKILLed dbio crash of a job leaves no mount behind, and --cleanup removes its layer" {
	need_powercut
	kv_engines_of_build | grep -qxF sqlite || skip "this build left out kv_engine=sqlite"
	"$DBIO" crash --directory="$target" --workload=kv --kv_engine=sqlite --records=1000000 --batch=10 \
		>"$scratch/stdout" 2>"$scratch/stderr" &
	bg_pid=$!
	layer="$target/.dbio-powercut.$bg_pid"
	wait_for "$layer/live/dbio.job.0.db/sqlite"
	kill -KILL "$bg_pid"
	wait "$bg_pid" || true
	bg_pid=
	run -1 grep -F " $layer/mnt " /proc/self/mountinfo
	run -0 "$DBIO" crash --cleanup "$target"
	[ "$output" = "removed 1 power-cut layer of a killed dbio in $target" ]
	is_empty_dir "$target"
}

@test "crash kv: updates are checked too: none lost with gdbm_sync, all 100 records lost at each update commit with MDB_NOSYNC" {
	crash_kv gdbm --sync_each_batch=1 --updates=100 --key_order=random
	json_is "$result" jobs.0.runs.0.durability.states=40 jobs.0.runs.0.durability.acknowledged_lost.total=0 \
		jobs.0.runs.0.durability.acknowledged=100
	crash_kv lmdb --sync_each_batch=0 --updates=100 --key_order=random
	# 10 insert commits (10, 20 ... 100 lost: 550), 10 update commits (100 each)
	json_is "$result" jobs.0.runs.0.durability.states=20 jobs.0.runs.0.durability.states_with_losses=20 \
		jobs.0.runs.0.durability.acknowledged_lost.total=1550 jobs.0.runs.0.durability.acknowledged_lost.max=100
}

@test "crash kv: compare of a safe and an unsafe setting shows what a cut lost beside the speed, by default" {
	crash_kv gdbm --sync_each_batch=1
	mv "$result" "$scratch/safe.json"
	crash_kv gdbm --sync_each_batch=0
	run -0 --separate-stderr "$DBIO" compare "$scratch/safe.json" "$result"
	# the two results differ in the setting alone: the directory is the
	# user's, not the layer's mount (which has dbio's pid in it)
	[[ "$output" == *$'environment: 1 field differs\n  options.sync_each_batch (job \'job\'): A true, B false\n'* ]]
	# the durability rows come after elapsed ... faults, A's figures first
	local nl=$'\n' re
	re="${nl}job +all +elapsed .*${nl}job +all +lost_max +0 ops +100 ops +n/a \(A shown as 0 ops\)${nl}"
	re+="job +all +loss_states +0 states +10 states +n/a \(A shown as 0 states\)${nl}"
	re+="job +all +crash_states +20 states +10 states +-50\.0 %"
	[[ "$output" =~ $re ]] || {
		echo "$output" >&2
		return 1
	}
	run -0 --separate-stderr "$DBIO" compare --metric lost_total --format json "$scratch/safe.json" "$result"
	[ "$(jq -r '[.rows[] | select(.metric == "lost_total") | .values[].mean] | @tsv' <<<"$output")" = $'0\t550' ]
}
