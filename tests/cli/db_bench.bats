#!/usr/bin/env bats
# dbio db_bench: RocksDB's db_bench command line made into a kv job of
# benchmarks=, printed as db_bench prints its results.

load helpers

need_rocksdb() {
	kv_engines_of_build | grep -qx rocksdb || skip "this build left out kv_engine=rocksdb (librocksdb-dev; scripts/install-deps)"
}

@test "db_bench: a result line per benchmark, in db_bench's format, with exact operations and found" {
	need_rocksdb
	run --separate-stderr "$DBIO" db_bench --benchmarks=fillseq,readrandom,seekrandom --num=5000 --reads=2000 \
		--db="$target" --progress=none --output="$result"
	[ "$status" -eq 0 ]
	# fillseq      :       5.757 micros/op 173670 ops/sec 0.576 seconds 100000 operations;   19.2 MB/s
	num='[0-9]+\.[0-9]{3}'
	grep -qE "^fillseq      : +$num micros/op [0-9]+ ops/sec $num seconds 5000 operations; +[0-9]+\.[0-9] MB/s$" <<<"$output"
	grep -qE "^readrandom   : +$num micros/op [0-9]+ ops/sec $num seconds 2000 operations; +[0-9]+\.[0-9] MB/s \(2000 of 2000 found\)$" <<<"$output"
	grep -qE "^seekrandom   : +$num micros/op [0-9]+ ops/sec $num seconds 2000 operations; \(2000 of 2000 found\)$" <<<"$output"
	json_is "$result" jobs.0.options.kv_engine=rocksdb jobs.0.options.records=5000 jobs.0.options.lookups=2000 \
		jobs.0.options.batch=1 jobs.0.options.value_size=100 jobs.0.options.sync_each_batch=false
	# MB/s is the phase's keys and values over its seconds
	[ "$(jpy "$result" 'round(run["phases"][0]["figures"]["user_bytes"] / 1048576 / (run["phases"][0]["elapsed_ns"] / 1e9), 1)')" = \
		"$(sed -n 's/^fillseq .* \([0-9.]*\) MB\/s$/\1/p' <<<"$output")" ]
	is_empty_dir "$target"
}

@test "db_bench --histogram=1: the latencies of each benchmark, as db_bench prints them" {
	need_rocksdb
	run --separate-stderr "$DBIO" db_bench --benchmarks=fillrandom,readrandom --num=3000 --db="$target" --histogram=1 \
		--progress=none
	[ "$status" -eq 0 ]
	grep -qx "Microseconds per write:" <<<"$output"
	grep -qx "Microseconds per read:" <<<"$output"
	grep -qE "^Count: 3000 Average: [0-9.]+  StdDev: [0-9.]+$" <<<"$output"
	grep -qE "^Percentiles: P50: [0-9.]+ P75: [0-9.]+ P99: [0-9.]+ P99.9: [0-9.]+ P99.99: [0-9.]+$" <<<"$output"
}

@test "db_bench: Debian's build with assertions is said, as db_bench says it" {
	need_rocksdb
	command -v nm >/dev/null || skip "nm is not installed (binutils)"
	lib=$(ldd "$DBIO" | sed -n 's/.*librocksdb[^ ]* => \([^ ]*\).*/\1/p')
	nm -D "$lib" | grep -qw __assert_fail || skip "this librocksdb was built without assertions"
	run --separate-stderr "$DBIO" db_bench --num=100 --db="$target" --progress=none
	[ "$status" -eq 0 ]
	grep -qx "WARNING: Assertions are enabled; benchmarks unnecessarily slow" <<<"$output"
}

@test "db_bench: a flag dbio does not take, a missing --db, a benchmark it cannot run: refused, exit 2" {
	run --separate-stderr "$DBIO" db_bench --num=100
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: db_bench: --db: needed: the directory to make the database in" ]
	run --separate-stderr "$DBIO" db_bench --bloom_bits=10 --db="$target"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "dbio: db_bench: '--bloom_bits': unknown option: expected --benchmarks, --num,"* ]]
	need_rocksdb
	run --separate-stderr "$DBIO" db_bench --benchmarks=fillseq,readreverse --db="$target"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "dbio: db_bench: --benchmarks=fillseq,readreverse: 'readreverse' is not one of db_bench's workloads that dbio runs: "* ]]
	is_empty_dir "$target"
}

@test "db_bench: an error names the flag the user gave and its value, not a line of the job file dbio made of them" {
	need_rocksdb
	run --separate-stderr "$DBIO" db_bench --num=abc --db="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: db_bench: --num=abc: bad value 'abc': expected a whole number from 1 to 1000000000" ]
	run --separate-stderr "$DBIO" db_bench --compression_type=lzx --db="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: db_bench: --compression_type=lzx: bad value 'lzx': expected one of none, snappy, zlib, bzip2, lz4, lz4hc, zstd" ]
	run --separate-stderr "$DBIO" db_bench --disable_wal=1 --sync=1 --db="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: db_bench: --disable_wal=1: RocksDB makes a write durable through its WAL: with disable_wal=1 set sync_each_batch=0" ]
	# a check of the target, after the job file was read
	run --separate-stderr "$DBIO" db_bench --db="$target"/none/db
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: db_bench: --db=$target/none/db: No such file or directory (db_bench makes the last directory of the path, not its parents)" ]
	kv_engines_of_build | grep -qx leveldb || skip "this build left out kv_engine=leveldb"
	run --separate-stderr "$DBIO" db_bench --kv_engine=leveldb --statistics=1 --db="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: db_bench: --statistics=1: belongs to kv_engine=rocksdb; this job is kv_engine=leveldb" ]
	is_empty_dir "$target"
}

@test "db_bench: db_bench's own defaults where they are not RocksDB's (no statistics, pipelined writes), a series on a 1 s grid, not a point per put" {
	need_rocksdb
	run --separate-stderr "$DBIO" db_bench --benchmarks=fillseq --num=3000 --db="$target" --progress=none --output="$result"
	[ "$status" -eq 0 ]
	json_is "$result" jobs.0.options.statistics=false jobs.0.options.enable_pipelined_write=true \
		jobs.0.options.log_interval=1000000000ns
	# no statistics: no engine account, the process's and the device's still there
	[ "$(jpy "$result" '"engine_write_bytes" in run["phases"][0]["figures"]')" = false ]
	[ "$(jpy "$result" '"fs_write_bytes" in run["phases"][0]["figures"]')" = true ]
	[ "$(jpy "$result" 'len(run["series"]["points"]) <= 5')" = true ]
	run --separate-stderr "$DBIO" db_bench --benchmarks=fillseq --num=3000 --db="$target" --statistics=1 \
		--enable_pipelined_write=0 --progress=none --output="$result"
	[ "$status" -eq 0 ]
	json_is "$result" jobs.0.options.statistics=true jobs.0.options.enable_pipelined_write=false
	json_is "$result" "$R0.phases.0.figures.user_bytes=$((3000 * 116)).0"
	[ "$(jpy "$result" 'run["phases"][0]["figures"]["wal_bytes"] > 3000 * 116')" = true ]
	# a kv job of its own keeps RocksDB's defaults
	printf '[kv]\nworkload=kv\nkv_engine=rocksdb\nrecords=100\ndirectory=%s\n' "$target" >"$BATS_TEST_TMPDIR/j.fio"
	run --separate-stderr "$DBIO" run "$BATS_TEST_TMPDIR/j.fio" --progress=none --output="$result"
	[ "$status" -eq 0 ]
	json_is "$result" jobs.0.options.statistics=true jobs.0.options.enable_pipelined_write=false
}

@test "db_bench --benchmarks= (empty) runs no benchmark, as db_bench: its head alone, exit 0, nothing written" {
	need_rocksdb
	run --separate-stderr "$DBIO" db_bench --benchmarks= --num=500 --value_size=40 --db="$target" --progress=none
	[ "$status" -eq 0 ]
	[ "$output" = "Keys:       16 bytes each
Values:     40 bytes each (seeded random: not compressible)
Entries:    500
------------------------------------------------" ]
	is_empty_dir "$target"
	# its flags are still checked
	run --separate-stderr "$DBIO" db_bench --benchmarks= --num=abc --db="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: db_bench: --num=abc: bad value 'abc': expected a whole number from 1 to 1000000000" ]
}

@test "db_bench: a bool flag takes gflags' spellings, any case; another value is refused as db_bench refuses it" {
	need_rocksdb
	for flag in sync disable_wal use_fsync histogram statistics enable_pipelined_write; do
		run --separate-stderr "$DBIO" db_bench --benchmarks= --"$flag"=2 --db="$target"
		[ "$status" -eq 2 ]
		[ "$stderr" = "dbio: db_bench: --$flag=2: illegal value '2' specified for bool flag '$flag': expected 1, 0, true, false, t, f, yes, no, y or n (any case, as db_bench's flags)" ]
	done
	run --separate-stderr "$DBIO" db_bench --benchmarks= --histogram= --db="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: db_bench: --histogram=: illegal value '' specified for bool flag 'histogram': expected 1, 0, true, false, t, f, yes, no, y or n (any case, as db_bench's flags)" ]
	for v in 1 0 true false TRUE False t F yes No y N; do
		run -0 --separate-stderr "$DBIO" db_bench --benchmarks= --histogram="$v" --db="$target"
	done
	run -0 --separate-stderr "$DBIO" db_bench --benchmarks=fillseq --num=10 --sync=Yes --statistics=T \
		--enable_pipelined_write=no --db="$target" --progress=none --output="$result"
	json_is "$result" jobs.0.options.sync_each_batch=true jobs.0.options.statistics=true \
		jobs.0.options.enable_pipelined_write=false
}

@test "db_bench --histogram=1: each benchmark's own latencies, in the text and in the result's phase" {
	need_rocksdb
	run -0 --separate-stderr "$DBIO" db_bench --histogram=1 --benchmarks=fillseq,readrandom --num=200 \
		--db="$target" --progress=none --output="$result"
	[ "$(grep -c '^Count: 200 Average: ' <<<"$output")" = 2 ]
	[ "$(grep -c '^Count: ' <<<"$output")" = 2 ]
	[ "$(sed -n '/^fillseq /{n;p}' <<<"$output")" = "Microseconds per write:" ]
	[ "$(sed -n '/^readrandom /{n;p}' <<<"$output")" = "Microseconds per read:" ]
	json_is "$result" "$R0.phases.0.lat_op=batch" "$R0.phases.0.lat.count=200" \
		"$R0.phases.1.lat_op=lookup" "$R0.phases.1.lat.count=200"
	# the run's batch count has both benchmarks' batches (a read's too): 400
	json_is "$result" "$R0.ops.batch.count=400"
	# three writes of one op type: each its own
	run -0 --separate-stderr "$DBIO" db_bench --histogram=1 --benchmarks=fillseq,overwrite,deleterandom \
		--num=300 --db="$target" --progress=none --output="$result"
	[ "$(grep -c '^Count: 300 Average: ' <<<"$output")" = 3 ]
	[ "$(sed -n '/^deleterandom /{n;p}' <<<"$output")" = "Microseconds per delete:" ]
	json_is "$result" "$R0.phases.2.lat.count=300" "$R0.ops.batch.count=900"
}

@test "kv benchmarks=: each phase's own latencies merge over the threads and cross mem_limit's child" {
	need_rocksdb
	[ "$(id -u)" -eq 0 ] || skip "mem_limit needs root (it makes a memory cgroup)"
	has_memcg || skip "no memory cgroup controller is mounted"
	run -0 --separate-stderr "$DBIO" run --directory="$target" --workload=kv --kv_engine=rocksdb --records=300 \
		--batch=10 --benchmarks=fillseq,readrandom --numjobs=2 --mem_limit=512m --progress=none \
		--format=json --output="$result"
	# 2 threads: 30 batches of fillseq each, 300 gets of readrandom each
	json_is "$result" "$R0.phases.0.lat.count=60" "$R0.phases.1.lat.count=600" "$R0.ops.batch.count=120"
	schema_valid "$result"
}

@test "db_bench --db: its last directory made, as db_bench makes it; a symlink, a file or a missing parent refused" {
	need_rocksdb
	run -0 --separate-stderr "$DBIO" db_bench --benchmarks=fillseq --num=10 --db="$target/new" --progress=none
	[ -d "$target/new" ]
	is_empty_dir "$target/new"
	mkdir "$scratch/victim"
	ln -s "$scratch/victim" "$target/link"
	run --separate-stderr "$DBIO" db_bench --benchmarks=fillseq --num=10 --db="$target/link"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: db_bench: --db=$target/link: a symbolic link: refusing to follow it (give the directory it points to)" ]
	is_empty_dir "$scratch/victim"
	ln -s "$scratch/nowhere" "$target/dangling"
	run --separate-stderr "$DBIO" db_bench --benchmarks=fillseq --num=10 --db="$target/dangling"
	[ "$status" -eq 2 ]
	[ ! -e "$scratch/nowhere" ]
	: >"$target/file"
	run --separate-stderr "$DBIO" db_bench --benchmarks=fillseq --num=10 --db="$target/file"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: db_bench: --db=$target/file: not a directory" ]
	[ ! -s "$target/file" ]
	run --separate-stderr "$DBIO" db_bench --db=
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: db_bench: --db=: empty: expected a directory" ]
	run --separate-stderr "$DBIO" db_bench --db="$target/a#b"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: db_bench: --db=$target/a#b: '#': dbio takes no '#', ';', ':', '\$', '[' or ']' in a directory name, nor blanks around it (its job files read them as a comment, a list of directories, a variable)" ]
	[ ! -e "$target/a" ]
}

@test "db_bench: a control character in a value is shown escaped, on one line" {
	run --separate-stderr "$DBIO" db_bench --db="$target/a
b"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: db_bench: --db=$target/a\x0ab: a control character in the value: expected text" ]
	run --separate-stderr "$DBIO" db_bench --db="$target" --num=$'1\e[2J'
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: db_bench: --num=1\x1b[2J: a control character in the value: expected text" ]
	is_empty_dir "$target"
}

@test "db_bench --benchmarks=fillseq,readwhilewriting --threads=2: two readers beside one writer on one database, the readers' line" {
	need_rocksdb
	run -0 --separate-stderr "$DBIO" db_bench --benchmarks=fillseq,readwhilewriting --num=2000 --reads=700 \
		--threads=2 --db="$target" --progress=none --output="$result"
	num='[0-9]+\.[0-9]{3}'
	grep -qE "^readwhilewriting : +$num micros/op [0-9]+ ops/sec $num seconds 1400 operations; +[0-9]+\.[0-9] MB/s \(1400 of 1400 found\)$" <<<"$output"
	# db_bench's threads share one database: one kv thread, 2 readers
	json_is "$result" jobs.0.options.readers=2 jobs.0.options.numjobs=1 "$R0.phases.0.ops=2000" \
		"$R0.phases.1.ops=1400" "$R0.phases.1.lat.count=1400"
	schema_valid "$result"
	# micros/op is the readers' (db_bench leaves the writer out): seconds * 2 readers / operations
	line=$(grep '^readwhilewriting ' <<<"$output")
	run -0 jpy "$result" '"%.3f" % (run["phases"][1]["elapsed_ns"] / 1e3 * 2 / 1400)'
	[ "$output" = "$(sed -n 's/^readwhilewriting : *\([0-9.]*\) micros.*/\1/p' <<<"$line")" ]
}

@test "dbio db_bench: fillsync does --num synced puts and says num / 1000 after them, as RocksDB's db_bench 7.8.3" {
	need_rocksdb
	run -0 --separate-stderr "$DBIO" db_bench --benchmarks=fillsync --num=1500 --db="$target/db"
	local re='(^|'$'\n'')fillsync     : +[0-9.]+ micros/op [0-9]+ ops/sec [0-9.]+ seconds 1500 operations; +[0-9.]+ MB/s \(1 ops\)'
	[[ "$output" =~ $re ]] || {
		echo "$output" >&2
		return 1
	}
}

@test "dbio db_bench: gflags' other spellings are db_bench's: -num=10, --num 10, a bool alone (--histogram) or negated (--nohistogram)" {
	need_rocksdb
	run -0 --separate-stderr "$DBIO" db_bench --benchmarks=fillseq -num=10 --db "$target/a" --histogram
	[[ "$output" == *" 10 operations;"* ]]
	[[ "$output" == *$'\nMicroseconds per write:\nCount: 10 '* ]]
	# whole microseconds, as db_bench's: the median between Min and Max
	local min median max
	read -r min median max < <(sed -n 's/^Min: \([0-9]*\)  Median: \([0-9.]*\)  Max: \([0-9]*\)$/\1 \2 \3/p' <<<"$output")
	python3 -c "import sys; assert $min <= $median <= $max, sys.argv" "$output"
	run -0 --separate-stderr "$DBIO" db_bench --benchmarks=fillseq --num 10 --db "$target/b" --nohistogram
	[[ "$output" == *" 10 operations;"* ]]
	[[ "$output" != *"Microseconds per"* ]]
	run -2 --separate-stderr "$DBIO" db_bench --benchmarks=fillseq --num
	[ "$stderr" = "dbio: db_bench: --num: needs a value" ]
}

@test "db_bench: RocksDB's OPTIONS file has db_bench's values where db_bench's differ from RocksDB's (delayed_write_rate, table cache shards, the hard pending-compaction limit, the pinned top level); a kv job keeps RocksDB's" {
	need_rocksdb
	run -0 --separate-stderr "$DBIO" db_bench --benchmarks=fillseq --num=1000 --db="$target" --keep --progress=none
	opts=$(find "$target" -name 'OPTIONS-*' | sort | tail -n 1)
	[ -n "$opts" ]
	grep -qx '  delayed_write_rate=8388608' "$opts"
	grep -qx '  table_cache_numshardbits=4' "$opts"
	grep -qx '  hard_pending_compaction_bytes_limit=137438953472' "$opts"
	grep -qx '  pin_top_level_index_and_filter=false' "$opts"
	grep -qx '  enable_pipelined_write=true' "$opts"
	if command -v db_bench >/dev/null; then # db_bench 7.8.3 writes the same values
		db_bench --benchmarks=fillseq --num=1000 --db="$scratch/db_bench" >/dev/null 2>&1
		theirs=$(find "$scratch/db_bench" -name 'OPTIONS-*' | sort | tail -n 1)
		for k in delayed_write_rate table_cache_numshardbits hard_pending_compaction_bytes_limit \
			pin_top_level_index_and_filter enable_pipelined_write; do
			[ "$(grep "^  $k=" "$opts")" = "$(grep "^  $k=" "$theirs")" ]
		done
	fi
	rm -rf "${target:?}"/*
	# a kv job of its own keeps RocksDB's, and each is set by its key
	run -0 --separate-stderr "$DBIO" run --workload=kv --kv_engine=rocksdb --records=100 --keep \
		--delayed_write_rate=4m --table_cache_numshardbits=2 --directory="$target"
	opts=$(find "$target" -name 'OPTIONS-*' | sort | tail -n 1)
	grep -qx '  delayed_write_rate=4194304' "$opts"
	grep -qx '  table_cache_numshardbits=2' "$opts"
	grep -qx '  hard_pending_compaction_bytes_limit=274877906944' "$opts"
	grep -qx '  pin_top_level_index_and_filter=true' "$opts"
	rm -rf "${target:?}"/*
	run -2 --separate-stderr "$DBIO" run --workload=kv --kv_engine=gdbm --delayed_write_rate=4m --directory="$target"
	[[ "$stderr" == *"key 'delayed_write_rate'"* ]]
	run -2 --separate-stderr "$DBIO" db_bench --table_cache_numshardbits=20 --db="$target"
	[[ "$stderr" == *"table_cache_numshardbits"* ]]
}
