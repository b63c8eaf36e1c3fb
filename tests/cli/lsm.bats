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
		# more flushed; RocksDB compacts its level 0 into one file of
		# level 1 every 4 flushes, so a run may end with that one file
		[ "$many" -gt "$small" ]
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

# ---- db_bench's workloads (benchmarks=) ----

# phases FILE: "name=ops" for each phase of the first run, space-separated.
phases() {
	jpy "$1" '" ".join("%s=%d" % (p["name"], p["ops"]) for p in run["phases"])'
}

# found FILE I: the found figure of phase I of the first run.
found() {
	jpy "$1" "int(run['phases'][$2]['figures']['found'])"
}

@test "lsm benchmarks: fillseq then the reads find every record: exact ops and found per phase" {
	need_lsms
	fast_target
	for e in "${LSMS[@]}"; do
		dbio_ok --workload=kv --kv_engine="$e" --directory="$target" --records=3000 --lookups=1200 --batch=1 \
			--sync_each_batch=0 --value_size=100 --benchmarks=fillseq,readrandom,seekrandom,readseq
		# readseq walks lookups (1200) of the 3000 keys; a seek lands on its own key
		[ "$(phases "$result")" = "fillseq=3000 readrandom=1200 seekrandom=1200 readseq=1200" ]
		[ "$(found "$result" 1) $(found "$result" 2) $(found "$result" 3)" = "1200 1200 1200" ]
		json_is "$result" "$R0.ops.insert.count=3000" "$R0.ops.lookup.count=3600" "$R0.ops.insert.bytes=348000" \
			"$R0.ops.batch.count=6600" "$R0.ops.lookup.bytes=$((3600 * 116))"
		is_empty_dir "$target"
	done
}

@test "lsm benchmarks: fillrandom draws keys with repeats, deleterandom removes some; readseq and the engine's library agree on what is left" {
	need_lsms
	fast_target
	local left=()
	for e in "${LSMS[@]}"; do
		rm -rf "${target:?}"/*
		dbio_ok --workload=kv --kv_engine="$e" --directory="$target" --records=4000 --batch=10 --sync_each_batch=0 \
			--value_size=50 --benchmarks=fillrandom,overwrite,deleterandom,readseq,readrandom --keep
		# readseq is asked for records (4000) steps and stops at the last key
		n=$(found "$result" 3)
		[ "$(phases "$result")" = "fillrandom=4000 overwrite=4000 deleterandom=4000 readseq=$n readrandom=4000" ]
		# 8000 draws of 4000 keys leave about 1 - e^-2 = 86 % of them; 4000 deletes about e^-1 of those
		[ "$n" -gt 1000 ]
		[ "$n" -lt 1700 ]
		run "$PYTHON" "$KV_COUNT" "$e" "$target/dbio.job.0.db/$e"
		[ "${output%% *}" = "$n" ]
		left+=("$n $(found "$result" 4)")
	done
	# one seed, the same draws: both engines hold the same records
	[ ${#left[@]} -lt 2 ] || [ "${left[0]}" = "${left[1]}" ]
}

@test "lsm benchmarks: fillsync does LevelDB's db_bench's records/1000 puts and RocksDB's records, each batch synced whatever sync_each_batch says (strace)" {
	need_lsms
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace refused)"
	fast_target
	# syncs ENGINE RECORDS BENCHMARK: the fsync and fdatasync calls of a run
	syncs() {
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -o "$scratch/trace" -e trace=fsync,fdatasync \
			"$DBIO" run --output "$result" --workload=kv --kv_engine="$1" --directory="$target" --records="$2" \
			--batch=1 --sync_each_batch=0 --benchmarks="$3" >/dev/null 2>&1
		grep -cE '^[0-9]+ +f(data)?sync\(' "$scratch/trace" || true
	}
	for e in "${LSMS[@]}"; do
		async=$(syncs "$e" 50 fillrandom)
		# RocksDB's db_bench (7.8.3) writes --num puts for fillsync, LevelDB's --num / 1000
		if [ "$e" = rocksdb ]; then
			synced=$(syncs "$e" 50 fillsync)
		else
			synced=$(syncs "$e" 50000 fillsync)
		fi
		[ "$(phases "$result")" = "fillsync=50" ]
		echo "$e: $async syncs for 50 puts of fillrandom, $synced for the 50 of fillsync" >&2
		[ $((synced - async)) -ge 50 ]
	done
}

@test "lsm benchmarks: what db_bench's list cannot mean here is refused, naming the key" {
	need_lsms
	e=${LSMS[0]}
	local names="fillseq, fillrandom, fillsync, overwrite, readseq, readrandom, deleterandom, seekrandom, readwhilewriting"
	refused --workload=kv --kv_engine="$e" --benchmarks=fillseq,readhot -- \
		"dbio: command line: key 'benchmarks': 'readhot' is not one of db_bench's workloads that dbio runs: $names (job 'job')"
	refused --workload=kv --kv_engine="$e" --benchmarks=fillseq,readrandom --readers=2 -- \
		"dbio: command line: key 'readers': readwhilewriting's reader threads: add readwhilewriting to benchmarks= (job 'job')"
	refused --workload=kv --kv_engine="$e" --benchmarks=fillseq,readrandom,fillrandom -- \
		"dbio: command line: key 'benchmarks': fillrandom after another benchmark: db_bench starts each fill on a fresh database, dbio's kv job has one database per thread: put the fill first, or give it a job of its own (job 'job')"
	refused --workload=kv --kv_engine="$e" --benchmarks=fillseq --updates=10 -- \
		"dbio: command line: key 'updates': not with benchmarks: db_bench's overwrite is the updates (benchmarks=...,overwrite) (job 'job')"
	refused --workload=kv --kv_engine="$e" --benchmarks=fillseq --verify=1 -- \
		"dbio: command line: key 'verify': not with benchmarks: fillrandom's repeats and deleterandom leave no one value per record to check (job 'job')"
	refused --workload=kv --kv_engine="$e" --benchmarks=fillseq --key_order=random -- \
		"dbio: command line: key 'key_order': not with benchmarks: fillseq and fillrandom say the order of their keys (job 'job')"
	for other in $(kv_engines_of_build | grep -vxE 'rocksdb|leveldb'); do
		refused --workload=kv --kv_engine="$other" --benchmarks=fillseq -- \
			"dbio: command line: key 'benchmarks': db_bench's workloads need deletes and an ordered iterator, which dbio's kv_engine=$other has not got (yet): use kv_engine=leveldb or rocksdb (job 'job')"
	done
}

# ---- write amplification three ways ----

@test "lsm amplification: rocksdb's WAL bytes are its log format's exact size; flush and compaction bytes are the tables its LOG says it made (within 1 %)" {
	need_lsm rocksdb
	dbio_ok --workload=kv --kv_engine=rocksdb --directory="$target" --records=30000 --value_size=200 --batch=100 \
		--sync_each_batch=0 --write_buffer_size=256k --lookups=100000 --keep
	# a WriteBatch of 100 puts: a 12-byte header, then per put its type, the
	# key's length, 16 key bytes, the value's length (2 bytes for 200) and 200 bytes
	json_is "$result" "$R0.phases.0.figures.user_bytes=6480000.0" "$R0.phases.0.figures.wal_bytes=$((300 * (12 + 100 * 220))).0"
	[ "$(jpy "$result" 'abs(run["phases"][0]["figures"]["engine_write_amp"] - run["phases"][0]["figures"]["engine_write_bytes"] / 6480000) < 1e-9')" = true ]
	# the tables RocksDB's own event log says it wrote (table_file_creation),
	# against the flush and compaction bytes of its statistics over the phases
	"$PYTHON" - "$result" "$target/dbio.job.0.db/rocksdb/LOG" <<'PY'
import json, re, sys
run = json.load(open(sys.argv[1]))["jobs"][0]["runs"][0]
ours = sum(p["figures"]["flush_bytes"] + p["figures"]["compaction_bytes"] for p in run["phases"])
log = 0
for line in open(sys.argv[2]):
    m = re.search(r"EVENT_LOG_v1 (\{.*\})", line)
    if m and json.loads(m.group(1)).get("event") == "table_file_creation":
        log += json.loads(m.group(1))["file_size"]
print(f"flush + compaction: {ours:.0f} bytes in dbio's phases, {log} in RocksDB's LOG", file=sys.stderr)
sys.exit(0 if log > 0 and abs(ours - log) <= 0.01 * log else 1)
PY
}

@test "lsm amplification: every kv engine's phases carry user, filesystem and device bytes and their ratios" {
	local engines
	engines=$(kv_engines_of_build)
	[ -n "$engines" ] || skip "this build has no kv engine"
	for e in $engines; do
		rm -rf "${target:?}"/*
		dbio_ok --workload=kv --kv_engine="$e" --directory="$target" --records=2000 --value_size=84 --updates=500
		json_is "$result" "$R0.phases.0.figures.user_bytes=200000.0" "$R0.phases.1.figures.user_bytes=50000.0"
		# what went through write(2) is at least what was put (the WAL, the
		# pages); not gdbm's, which writes its pages through a mapping
		[ "$e" = gdbm ] || [ "$(jpy "$result" 'all(p["figures"]["fs_write_bytes"] >= p["figures"]["user_bytes"] for p in run["phases"])')" = true ] || {
			echo "$e: $(jpy "$result" 'run["phases"]')" >&2
			false
		}
		[ "$(jpy "$result" 'all(abs(p["figures"]["fs_write_amp"] * p["figures"]["user_bytes"] - p["figures"]["fs_write_bytes"]) < 1e-3 for p in run["phases"])')" = true ]
		# the engine's own account only from the engines that keep one
		case $e in
		rocksdb | leveldb) [ "$(jpy "$result" '"engine_write_bytes" in run["phases"][0]["figures"]')" = true ] ;;
		*) [ "$(jpy "$result" '"engine_write_bytes" in run["phases"][0]["figures"]')" = false ] ;;
		esac
	done
}

@test "lsm amplification in the views: the run's figures are its phases' sums, and sweep and compare show them as metrics" {
	need_lsm rocksdb
	dbio_ok --workload=kv --kv_engine=rocksdb --directory="$target" --records=2000 --value_size=84 --updates=500
	# the run's: the phases' bytes summed, the ratio of the sums
	[ "$(jpy "$result" 'run["figures"]["user_bytes"] == 250000.0')" = true ]
	[ "$(jpy "$result" 'run["figures"]["engine_write_bytes"] == sum(p["figures"].get("engine_write_bytes", 0) for p in run["phases"])')" = true ]
	[ "$(jpy "$result" 'abs(run["figures"]["engine_write_amp"] - run["figures"]["engine_write_bytes"] / 250000) < 1e-9')" = true ]
	[ "$(jpy "$result" 'abs(run["figures"]["fs_write_amp"] - run["figures"]["fs_write_bytes"] / 250000) < 1e-9')" = true ]
	amp=$(jpy "$result" 'round(run["figures"]["engine_write_amp"], 2)')
	ins=$(jpy "$result" 'round(run["phases"][0]["figures"]["engine_write_amp"], 2)')
	# compare: a phase's row has the phase's, the whole run's row the run's
	run --separate-stderr "$DBIO" compare "$result" "$result" --metric engine_amp,fs_amp,compaction_s
	[ "$status" -eq 0 ]
	grep -qE "^job +phase insert +engine_amp +$ins x +$ins x " <<<"$output"
	grep -qE "^job +all +engine_amp +$amp x +$amp x " <<<"$output"
	grep -qE "^job +phase update +compaction_s +[0-9.]+ s " <<<"$output"
	# sweep: a column per metric on the op's row (the whole run's)
	run --separate-stderr "$DBIO" sweep --workload=kv --directory="$target" --records=2000 --value_size=84 \
		--vary kv_engine=gdbm,rocksdb --op insert --metric=iops,engine_amp,fs_amp,device_amp,stall_s --progress=none
	[ "$status" -eq 0 ]
	grep -qE '^kv_engine +job +op +ops/s +engine amp +fs amp +device amp +stall s$' <<<"$output"
	grep -qE '^gdbm .* insert +[0-9.]+ +- +[0-9.]+ ' <<<"$output"
	grep -qE '^rocksdb .* insert +[0-9.]+ +[0-9.]+ +[0-9.]+ ' <<<"$output"
}

# ---- the engine's library in the result ----

@test "lsm environment: each kv engine's library version and whether it was built with assertions, in the result and the text" {
	local engines
	engines=$(kv_engines_of_build)
	[ -n "$engines" ] || skip "this build has no kv engine"
	for e in $engines; do
		rm -rf "${target:?}"/*
		dbio_ok --workload=kv --kv_engine="$e" --directory="$target" --records=100
		[ -n "$(jpy "$result" 'run["database"]["version"]')" ]
	done
	need_lsm rocksdb
	dbio_ok --workload=kv --kv_engine=rocksdb --directory="$target" --records=100
	# the version Debian's own db_bench (the same package's build) prints
	if command -v db_bench >/dev/null; then
		want=$(db_bench --benchmarks= --db="$scratch/db_bench" 2>&1 | sed -n 's/^RocksDB: *version //p')
		[ "$(jpy "$result" 'run["database"]["version"]')" = "$want" ]
	fi
	# assertions: whether the library imports glibc's __assert_fail, as nm sees it
	command -v nm >/dev/null || skip "nm is not installed (binutils)"
	lib=$(ldd "$DBIO" | sed -n 's/.*librocksdb[^ ]* => \([^ ]*\).*/\1/p')
	[ -n "$lib" ]
	if nm -D "$lib" | grep -qw __assert_fail; then want=true; else want=false; fi
	[ "$(jpy "$result" 'run["database"]["assertions"]')" = "$want" ]
	if [ "$want" = true ]; then
		[[ "$output" == *"database: this rocksdb library was built with assertions on (it calls assert()): slower than a release build, as db_bench warns"* ]]
	fi
}

@test "lsm benchmarks: readwhilewriting's readers share the thread's database with one writer; the phase is the readers' gets" {
	need_lsms
	for e in "${LSMS[@]}"; do
		run -0 --separate-stderr "$DBIO" run --directory="$target" --workload=kv --kv_engine="$e" --records=3000 \
			--lookups=5000 --batch=10 --sync_each_batch=0 --benchmarks=fillseq,readwhilewriting --readers=3 \
			--progress=none --format=json --output="$result"
		# 3 readers of 5000 gets each, every key there (the writer overwrites keys of the fill)
		json_is "$result" "$R0.phases.1.name=readwhilewriting" "$R0.phases.1.ops=15000" \
			"$R0.phases.1.figures.found=15000.0" "$R0.phases.1.figures.readers=3.0" \
			"$R0.phases.1.lat_op=lookup" "$R0.phases.1.lat.count=15000" "$R0.ops.lookup.count=15000" \
			"$R0.threads=1"
		# the writer's puts are the run's updates, and the phase says how many
		run -0 jpy "$result" 'run["ops"].get("update", {"count": 0})["count"] == run["phases"][1]["figures"]["writes"] > 0'
		[ "$output" = true ]
		run -0 jpy "$result" 'run["ops"].get("update", {"bytes": 0})["bytes"] == run["phases"][1]["figures"]["user_bytes"]'
		[ "$output" = true ]
		is_empty_dir "$target"
	done
}
