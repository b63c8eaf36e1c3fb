#!/usr/bin/env bats
# dbio crash JOB: workload=fileio on the power-cut layer (src/powercut/), each
# block sealed (offset, file, sequence, crc32c) and checked at each crash
# state by workload/fileio/durable.c. 16 writes of 4 KiB (size=64k): every
# write is a cut (--acks 100), and so is every durability point. A write is
# acknowledged when the call that makes it durable returns (its fsync or
# fdatasync, or itself under O_SYNC/O_DSYNC); as fio, no sync follows the
# last write of a job bound by size. The synced jobs lose no acknowledged
# block; what a cut loses of what was written is exact: at the cut after
# write i, the writes since the last sync (i of them without any). The test
# hook DBIO_POWERCUT_KEEP (docs/errors.md) shows the checks can fail: with
# =all the written-and-lost counts are 0 and those tests fail, with =none
# the acknowledged blocks are lost and the safe tests fail.

load helpers

# crash_fileio KEY=VALUE...: dbio crash of 16 writes of 4 KiB into
# $result; the directory empty afterwards.
crash_fileio() {
	need_powercut
	run -0 --separate-stderr "$DBIO" crash --output "$result" --directory="$target" --workload=fileio \
		--bs=4k --size=64k "$@"
	is_empty_dir "$target"
}

d=jobs.0.runs.0.durability

@test "crash fileio: fsync=1 loses no acknowledged block in its 31 states; a cut after a write loses that write" {
	crash_fileio --rw=write --fsync=1
	json_is "$result" "$d.setting=fileio fsync=1" $d.unit=block $d.states=31 $d.at_durability_points=15 \
		$d.after_acknowledgements=16 $d.random_cuts_after=writes
	json_is "$result" $d.states_with_losses=0 $d.acknowledged_lost.max=0 $d.acknowledged_lost.total=0 \
		$d.acknowledged=15 $d.written=16 $d.torn_records=0
	json_is "$result" $d.written_lost.max=1 $d.written_lost.total=16
}

@test "crash fileio: fsync=4 loses no acknowledged block; up to the 4 writes since the last fsync of what was written" {
	crash_fileio --rw=write --fsync=4
	json_is "$result" "$d.setting=fileio fsync=4" $d.states=19 $d.at_durability_points=3 \
		$d.acknowledged_lost.total=0 $d.acknowledged=12 $d.written=16
	json_is "$result" $d.written_lost.max=4 $d.written_lost.total=40
}

@test "crash fileio: without a sync nothing is acknowledged, and a cut after write i loses all i written" {
	crash_fileio --rw=write
	json_is "$result" "$d.setting=fileio no sync" $d.states=16 $d.at_durability_points=0 \
		$d.acknowledged=0 $d.acknowledged_lost.total=0 $d.written=16
	json_is "$result" $d.written_lost.max=16 $d.written_lost.total=136
}

@test "crash fileio: end_fsync acknowledges every block at the end; before it every write is lost" {
	crash_fileio --rw=write --end_fsync=1 --ioengine=sync
	json_is "$result" "$d.setting=fileio end_fsync" $d.states=17 $d.at_durability_points=1 \
		$d.acknowledged=16 $d.acknowledged_lost.total=0
	json_is "$result" $d.written_lost.max=16 $d.written_lost.total=136
}

@test "crash fileio: fdatasync=2 of random writes loses no acknowledged block" {
	crash_fileio --rw=randwrite --fdatasync=2
	json_is "$result" "$d.setting=fileio fdatasync=2" $d.states=23 $d.at_durability_points=7 \
		$d.acknowledged=14 $d.acknowledged_lost.total=0
	json_is "$result" $d.written_lost.max=2 $d.written_lost.total=24
}

# The kernel makes an O_SYNC write durable with the write and an fsync of
# its range after it (generic_write_sync): two durability points a write.
@test "crash fileio: O_SYNC writes (sync=1) lose nothing: each is acknowledged when it returns" {
	crash_fileio --rw=write --sync=1
	json_is "$result" "$d.setting=fileio O_SYNC writes" $d.states=48 $d.at_durability_points=32 \
		$d.acknowledged=16 $d.states_with_losses=0 $d.acknowledged_lost.total=0
	json_is "$result" $d.written_lost.total=0
}

@test "crash fileio: O_DSYNC random writes through pvsync2 lose nothing" {
	crash_fileio --rw=randwrite --sync=dsync --ioengine=pvsync2
	json_is "$result" "$d.setting=fileio O_DSYNC writes" $d.states=48 $d.acknowledged=16 \
		$d.acknowledged_lost.total=0 $d.written_lost.total=0
}

@test "crash fileio: with DBIO_POWERCUT_KEEP=none every acknowledged block is lost, and the first is named" {
	DBIO_POWERCUT_KEEP=none crash_fileio --rw=write --fsync=1 --acks 0
	json_is "$result" $d.states=15 $d.states_with_losses=14 $d.acknowledged_lost.max=14 \
		$d.acknowledged_lost.total=105 $d.first_lost.key=0 $d.first_lost.sequence=1
	json_is "$result" "$d.first_lost.cut=fsync 2" "$d.first_lost.why=missing of dbio.job.0.0"
}

@test "crash fileio: the text report shows what was written and lost beside the write ops/s" {
	crash_fileio --rw=write --fsync=4
	[[ "$output" == *"after a power cut (fileio fsync=4): lost 0 acknowledged in 19 crash states, up to 0 of 12 in one (0 states with losses); "*" write ops/s"* ]]
	[[ "$output" == *"3 at fsync returns, 16 after writes; torn blocks: 0; written and lost (acknowledged or not): up to 4 of 16 blocks in one state, 40 in all"* ]]
}

@test "crash fileio: a job the check does not know is refused with its reason, and the layer is undone" {
	need_powercut
	run -2 --separate-stderr "$DBIO" crash --directory="$target" --workload=fileio --bs=4k --size=64k --rw=randrw
	[ "${stderr##*$'\n'}" = "dbio: command line: key 'rw': dbio crash checks fileio jobs that only write (rw=write or rw=randwrite) (job 'job')" ]
	is_empty_dir "$target"
	run -2 --separate-stderr "$DBIO" crash --directory="$target" --workload=fileio --bs=4k --size=64k --rw=write --verify=crc32c
	[ "${stderr##*$'\n'}" = "dbio: command line: key 'verify': verify= is for dbio run: dbio crash seals every block and reads it back at each cut (job 'job')" ]
	run -2 --separate-stderr "$DBIO" crash --directory="$target" --workload=fileio --bs=4k --size=64k --rw=write --ioengine=posixaio
	[ "${stderr##*$'\n'}" = "dbio: command line: key 'ioengine': dbio crash checks fileio through psync, sync, pvsync, pvsync2 or vsync for now (job 'job')" ]
	run -2 --separate-stderr "$DBIO" crash --directory="$target" --workload=fileio --bsrange=4k-8k --size=64k --rw=write
	[ "${stderr##*$'\n'}" = "dbio: command line: key 'bs': dbio crash checks writes of one block size (no bsrange, bssplit or blockalign below bs) (job 'job')" ]
	is_empty_dir "$target"
}

@test "crash fileio: the model is said in the result; a fault is refused for fileio, naming why, nothing left" {
	need_powercut
	run -0 --separate-stderr "$DBIO" crash --output "$result" --directory="$target" --workload=fileio \
		--rw=write --bs=4k --size=64k --fsync=4 --model=torn512
	json_is "$result" jobs.0.runs.0.durability.model=torn512 jobs.0.runs.0.durability.unit=block
	run -2 --separate-stderr "$DBIO" crash --directory="$target" --workload=fileio --rw=write --bs=4k \
		--size=64k --fsync=4 --fault=eio-fsync@2
	[ "$stderr" = "dbio: crash: command line: key 'crash_fault': a fault (--fault, crash_fault=) is checked on workload=kv only for now: a fileio job stops at its first I/O error; drop the fault, or give a kv job (job 'job')" ]
	is_empty_dir "$target"
}
