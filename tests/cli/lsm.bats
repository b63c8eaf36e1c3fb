#!/usr/bin/env bats
# kv_engine=rocksdb and kv_engine=leveldb: the LSM trees as kv engines.
# Records read back with each engine's own library (kv_count.py), each
# engine's own keys honoured (what they change is seen in the database's
# files) and refused on every other engine with their owner's name. The
# generic kv behaviour (counts, batches, syncs, series) is kv.bats's, which
# runs on these engines too.

load helpers

KV_COUNT="$BATS_TEST_DIRNAME/kv_count.py"

# need_lsm ENGINE: skip, saying why, unless this build has ENGINE.
need_lsm() {
	kv_engines_of_build | grep -qx "$1" || skip "this build left out kv_engine=$1 (lib$1-dev; scripts/install-deps)"
}

# need_lsms: LSMS is the LSM engines of this build; skip, saying so, without one.
need_lsms() {
	mapfile -t LSMS < <(kv_engines_of_build | grep -xE 'rocksdb|leveldb')
	[ ${#LSMS[@]} -gt 0 ] || skip "this build left out kv_engine=rocksdb and leveldb (librocksdb-dev, libleveldb-dev)"
}

# lsm_count ENGINE: kv_count.py's line for the database of thread 0 (kept).
lsm_count() {
	"$PYTHON" "$KV_COUNT" "$1" "$target/dbio.job.0.db/$1"
}

# refused ARG... -- MESSAGE: a run exits 2 with exactly MESSAGE on
# stderr, writes no result and no file.
refused() {
	local args=()
	while [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	run --separate-stderr "$DBIO" run --output "$result" --directory="$target" "${args[@]}"
	[ "$status" -eq 2 ] || {
		echo "${args[*]}: exit $status, expected 2; stderr: $stderr" >&2
		return 1
	}
	[ "$stderr" = "$2" ] || {
		echo "${args[*]}: stderr '$stderr'" >&2
		echo "expected '$2'" >&2
		return 1
	}
	[ ! -e "$result" ]
	is_empty_dir "$target"
}

@test "lsm: inserts, lookups, updates and verify on rocksdb and leveldb: exact counts, every record read back by the engine's library" {
	need_lsms
	fast_target
	for e in "${LSMS[@]}"; do
		rm -rf "${target:?}"/*
		dbio_ok --workload=kv --kv_engine="$e" --directory="$target" --records=5000 --batch=250 --lookups=700 \
			--updates=300 --verify=1 --value_size=100 --keep
		json_is "$result" "$R0.ops.insert.count=5000" "$R0.ops.update.count=300" "$R0.ops.lookup.count=5700" \
			"$R0.ops.batch.count=25" "$R0.database.engine=$e" "$R0.ops.insert.bytes=580000"
		# 5000 records, keys 0..4999, each 16 + 100 bytes: as the engine's own iterator reads them
		run lsm_count "$e"
		[ "$status" -eq 0 ]
		[ "$output" = "5000 5000 0 4999 580000 100 100 -" ] || {
			echo "$e: got '$output'" >&2
			false
		}
		[ "$(jpy "$result" 'run["database"]["disk_bytes"] > 0')" = true ]
	done
}

@test "lsm: the engine's keys are in the job's options with the engine's defaults, and only on that engine" {
	need_lsm rocksdb
	dbio_ok --workload=kv --kv_engine=rocksdb --directory="$target" --records=100
	json_is "$result" jobs.0.options.write_buffer_size=67108864 jobs.0.options.cache_size=8388608 \
		jobs.0.options.compression_type=snappy jobs.0.options.max_background_jobs=2 \
		jobs.0.options.disable_wal=false jobs.0.options.use_fsync=false
	need_lsm leveldb
	dbio_ok --workload=kv --kv_engine=leveldb --directory="$target" --records=100 --write_buffer_size=1m
	json_is "$result" jobs.0.options.write_buffer_size=1048576 jobs.0.options.cache_size=8388608 \
		jobs.0.options.compression_type=snappy
	[ "$(jpy "$result" '"max_background_jobs" in r["jobs"][0]["options"]')" = false ]
	other=$(kv_engines_of_build | grep -vxE 'rocksdb|leveldb' | head -1)
	[ -n "$other" ] || return 0
	dbio_ok --workload=kv --kv_engine="$other" --directory="$target" --records=100
	[ "$(jpy "$result" '"write_buffer_size" in r["jobs"][0]["options"]')" = false ]
}

@test "lsm: an engine's key on another engine or workload is refused, naming its owner" {
	need_lsm rocksdb
	need_lsm leveldb
	refused --workload=kv --kv_engine=leveldb --max_background_jobs=4 -- \
		"dbio: command line: key 'max_background_jobs': belongs to kv_engine=rocksdb; this job is kv_engine=leveldb (job 'job')"
	refused --workload=kv --kv_engine=leveldb --disable_wal=1 -- \
		"dbio: command line: key 'disable_wal': belongs to kv_engine=rocksdb; this job is kv_engine=leveldb (job 'job')"
	refused --workload=kv --kv_engine=leveldb --use_fsync=1 -- \
		"dbio: command line: key 'use_fsync': belongs to kv_engine=rocksdb; this job is kv_engine=leveldb (job 'job')"
	refused --workload=fileio --size=1m --compression_type=none -- \
		"dbio: command line: key 'compression_type': belongs to kv_engine=leveldb and rocksdb; this job is workload=fileio (job 'job')"
	for other in $(kv_engines_of_build | grep -vxE 'rocksdb|leveldb'); do
		for kv in write_buffer_size=8m cache_size=1m compression_type=none; do
			refused --workload=kv --kv_engine="$other" "--$kv" -- \
				"dbio: command line: key '${kv%%=*}': belongs to kv_engine=leveldb and rocksdb; this job is kv_engine=$other (job 'job')"
		done
		refused --workload=kv --kv_engine="$other" --max_background_jobs=4 -- \
			"dbio: command line: key 'max_background_jobs': belongs to kv_engine=rocksdb; this job is kv_engine=$other (job 'job')"
	done
	# in a job file, with its line
	printf '[j]\nworkload=kv\nkv_engine=leveldb\nrecords=10\ndisable_wal=1\n' >j.fio
	run --separate-stderr "$DBIO" run j.fio --directory="$target" --output "$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: j.fio:5: key 'disable_wal': belongs to kv_engine=rocksdb; this job is kv_engine=leveldb (job 'j')" ]
}

@test "lsm: what an engine cannot do with its keys is refused before anything is written" {
	need_lsm rocksdb
	refused --workload=kv --kv_engine=rocksdb --disable_wal=1 -- \
		"dbio: command line: key 'disable_wal': RocksDB makes a write durable through its WAL: with disable_wal=1 set sync_each_batch=0 (job 'job')"
	refused --workload=kv --kv_engine=rocksdb --compression_type=lz5 -- \
		"dbio: command line: key 'compression_type': bad value 'lz5': expected one of none, snappy, zlib, bzip2, lz4, lz4hc, zstd"
	refused --workload=kv --kv_engine=rocksdb --write_buffer_size=1k -- \
		"dbio: command line: key 'write_buffer_size': bad value '1k': out of range: expected a size from 64 KiB to 64 GiB with an optional k, m, g or t suffix (binary: 1k = 1024), e.g. 4k"
	need_lsm leveldb
	refused --workload=kv --kv_engine=leveldb --compression_type=zstd -- \
		"dbio: command line: key 'compression_type': LevelDB compresses with snappy or not at all: none or snappy (the others are kv_engine=rocksdb's) (job 'job')"
	refused --workload=kv --kv_engine=leveldb --cache_size=0 -- \
		"dbio: command line: key 'cache_size': LevelDB always has a block cache: give it a size (0, no block cache, is kv_engine=rocksdb's) (job 'job')"
}

# sst_files ENGINE: how many table files the kept database of thread 0 has.
sst_files() {
	find "$target/dbio.job.0.db/$1" -maxdepth 1 \( -name '*.sst' -o -name '*.ldb' \) | wc -l
}

@test "lsm: write_buffer_size is the engine's memtable: a small one flushes tables during the run, the default at most one" {
	need_lsms
	fast_target
	for e in "${LSMS[@]}"; do
		# 4000 records of 16 + 400 bytes: 1.6 MiB, under either default memtable
		rm -rf "${target:?}"/*
		dbio_ok --workload=kv --kv_engine="$e" --directory="$target" --records=4000 --value_size=400 \
			--sync_each_batch=0 --compression_type=none --keep
		# LevelDB writes its memtable out on close; RocksDB leaves it in its WAL
		small=$(sst_files "$e")
		rm -rf "${target:?}"/*
		dbio_ok --workload=kv --kv_engine="$e" --directory="$target" --records=4000 --value_size=400 \
			--sync_each_batch=0 --compression_type=none --write_buffer_size=64k --keep
		many=$(sst_files "$e")
		echo "$e: $small table files with the default memtable, $many with 64 KiB" >&2
		[ "$small" -le 1 ]
		[ "$many" -ge 2 ] # more flushed, and compacted together
		run lsm_count "$e"
		[ "${output%% *}" = 4000 ]
	done
}

@test "lsm: rocksdb disable_wal=1 writes no WAL, and its records are still all there after the close" {
	need_lsm rocksdb
	fast_target
	dbio_ok --workload=kv --kv_engine=rocksdb --directory="$target" --records=3000 --value_size=200 \
		--sync_each_batch=0 --disable_wal=1 --keep
	json_is "$result" jobs.0.options.disable_wal=true
	# every .log (WAL) file is empty; the close flushed the memtable to a table
	[ "$(find "$target/dbio.job.0.db/rocksdb" -name '*.log' -size +0 | wc -l)" -eq 0 ]
	[ "$(sst_files rocksdb)" -ge 1 ]
	run lsm_count rocksdb
	[ "$output" = "3000 3000 0 2999 648000 200 200 -" ]
}
