#!/usr/bin/env bats
# dbio run --workload=kv: inserts, lookups and updates on gdbm, LMDB,
# SQLite, LevelDB and RocksDB (scenario S2), read back from the result JSON, from the databases
# themselves (kept with --keep and opened with each engine's own tools), and
# from the durability calls strace sees.

load helpers

# need_kv_engines: ENGINES is the kv engines of the build under test (gdbm,
# lmdb, sqlite, leveldb and rocksdb, less those it left out); skips, saying so, without one.
need_kv_engines() {
	mapfile -t ENGINES < <(kv_engines_of_build)
	[ ${#ENGINES[@]} -gt 0 ] ||
		skip "this build has no kv engine: it left out $(left_out_text | grep -o 'kv_engine=[^)]*)' | join_list ', ')"
}
KV_COUNT="$BATS_TEST_DIRNAME/kv_count.py"

# is_lsm ENGINE: whether ENGINE is an LSM tree (leveldb, rocksdb), whose
# database is a directory and which syncs its own tables and MANIFEST.
is_lsm() {
	[ "$1" = leveldb ] || [ "$1" = rocksdb ]
}

# kv_ok ENGINE ARG...: a kv run on ENGINE in $target that must succeed.
kv_ok() {
	local engine=$1
	shift
	dbio_ok --workload=kv --kv_engine="$engine" --directory="$target" "$@"
}

# need_reader ENGINE: skips the test, saying why, when kv_count.py cannot
# open ENGINE's databases here.
need_reader() {
	case $1 in
	gdbm)
		"$PYTHON" -c 'import dbm.gnu' 2>/dev/null ||
			skip "python3's dbm.gnu is missing (Debian python3-gdbm; scripts/install-deps)"
		;;
	lmdb)
		if ! command -v mdb_stat >/dev/null || ! command -v mdb_dump >/dev/null; then
			skip "mdb_stat/mdb_dump are missing (Debian lmdb-utils; scripts/install-deps)"
		fi
		;;
	leveldb | rocksdb)
		local so
		so=$([ "$1" = leveldb ] && echo libleveldb.so.1d || echo librocksdb.so.7.8)
		"$PYTHON" -c "import ctypes; ctypes.CDLL('$so')" 2>/dev/null ||
			skip "python3 cannot load $so for kv_count.py (Debian lib$1 runtime; scripts/install-deps)"
		;;
	esac
}

# kv_count ENGINE FILE: kv_count.py's line for FILE (see that script).
kv_count() {
	"$PYTHON" "$KV_COUNT" "$1" "$2"
}

# need_strace: skips the test, saying why, unless strace can trace dbio here.
need_strace() {
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace refused)"
}

# syncs ENGINE ARG...: runs a kv job under strace and prints how many
# fsync/fdatasync calls name a file in $target plus how many msync calls
# (gdbm's gdbm_sync; dbio itself never msyncs) the run made. The fsync of
# the result file, outside $target, is not counted.
syncs() {
	local engine=$1 trace="$scratch/strace.out"
	shift
	rm -f "$trace"
	# LeakSanitizer (make SAN=1) cannot run under ptrace: leaks are
	# checked by every other test, not this one.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -y -o "$trace" -e trace=fsync,fdatasync,msync \
		"$DBIO" run --output "$result" --workload=kv --kv_engine="$engine" \
		--directory="$target" "$@" >/dev/null 2>"$scratch/strace.err" || {
		echo "dbio under strace failed ($engine $*):" >&2
		cat "$scratch/strace.err" >&2
		return 1
	}
	grep -E "(fsync|fdatasync)\([0-9]+<$target/dbio\.|msync\(" "$trace" | grep -vc 'resumed>' || true
}

@test "kv --keep: each thread's database holds exactly records records (each kv engine of the build)" {
	need_kv_engines
	fast_target # counts, not timings: spare the disk
	for e in "${ENGINES[@]}"; do need_reader "$e"; done
	for e in "${ENGINES[@]}"; do
		kv_ok "$e" --records=700 --batch=100 --numjobs=2 --keep
		json_is "$result" "$R0.threads=2" "$R0.ops.insert.count=1400" "$R0.database.engine=$e"
		local total=0
		for t in 0 1; do
			if is_lsm "$e"; then [ -d "$target/dbio.job.$t.db/$e" ]; else [ -f "$target/dbio.job.$t.db/$e" ]; fi
			run kv_count "$e" "$target/dbio.job.$t.db/$e"
			[ "$status" -eq 0 ]
			# 700 records, 700 distinct keys 0..699, values of 100..400 bytes
			read -r n distinct lo hi bytes vmin vmax order <<<"$output"
			[ "$n $distinct $lo $hi" = "700 700 0 699" ] || {
				echo "$e thread $t: got '$output'" >&2
				false
			}
			[ "$vmin" -ge 100 ]
			[ "$vmax" -le 400 ]
			[ "$e" != sqlite ] || [ "$order" = asc ]
			total=$((total + bytes))
		done
		# what the databases hold is what the JSON says was inserted
		json_is "$result" "$R0.ops.insert.bytes=$total"
		# everything left is the threads' files, dbio.<job>.<thread>.*
		rm -rf "$target"/dbio.job.0.* "$target"/dbio.job.1.*
		is_empty_dir "$target"
	done
}

@test "kv key_order=random inserts every record once, in a shuffled order (each kv engine of the build)" {
	need_kv_engines
	fast_target # counts, not timings: spare the disk
	for e in "${ENGINES[@]}"; do need_reader "$e"; done
	for e in "${ENGINES[@]}"; do
		kv_ok "$e" --records=700 --batch=64 --key_order=random --keep
		json_is "$result" "$R0.ops.insert.count=700" "jobs.0.options.key_order=random"
		run kv_count "$e" "$target/dbio.job.0.db/$e"
		[ "$status" -eq 0 ]
		read -r n distinct lo hi _ _ _ order <<<"$output"
		[ "$n $distinct $lo $hi" = "700 700 0 699" ] || {
			echo "$e: got '$output'" >&2
			false
		}
		# SQLite's rowids keep the insert order: not ascending
		[ "$e" != sqlite ] || [ "$order" = shuffled ]
		rm -rf "$target"/dbio.job.0.*
		is_empty_dir "$target"
	done
}

@test "kv: inserts, commits and batches counted exactly; batch over records is one batch" {
	need_kv_engines
	fast_target # counts, not timings: spare the disk
	for e in "${ENGINES[@]}"; do
		# 1050 records in batches of 100: 11 batches, the last of 50
		kv_ok "$e" --records=1050 --batch=100
		json_is "$result" "$R0.ops.insert.count=1050" "$R0.ops.batch.count=11" \
			"$R0.ops.commit.count=11" "$R0.ops.read.count=0" "$R0.ops.write.count=0" \
			"$R0.partial=false"
		run jpy "$result" '[p["name"] for p in run["phases"]]' \
			'[run["ops"].get(t, {"count": 0})["count"] for t in ("lookup", "update")]' \
			'all(p["elapsed_ns"] > 0 for p in run["phases"])' \
			'run["ops"]["batch"]["bytes"] == run["ops"]["insert"]["bytes"]'
		[ "${lines[*]}" = '["insert"] [0, 0] true true' ] || {
			echo "$e: ${lines[*]}" >&2
			false
		}
		is_empty_dir "$target"

		kv_ok "$e" --records=300 --batch=1000
		json_is "$result" "$R0.ops.insert.count=300" "$R0.ops.batch.count=1" "$R0.ops.commit.count=1"
		is_empty_dir "$target"
	done
}

@test "kv lookups and updates: exact counts, their batches, phases in order" {
	need_kv_engines
	fast_target # counts, not timings: spare the disk
	for e in "${ENGINES[@]}"; do
		# batches: 11 insert + 3 lookup (250) + 4 update (330) = 18
		kv_ok "$e" --records=1050 --batch=100 --lookups=250 --updates=330
		json_is "$result" "$R0.ops.insert.count=1050" "$R0.ops.lookup.count=250" \
			"$R0.ops.update.count=330" "$R0.ops.batch.count=18" "$R0.ops.commit.count=18" \
			"$R0.series.grid=batch"
		run jpy "$result" '[p["name"] for p in run["phases"]]' \
			'[p["elapsed_ns"] > 0 for p in run["phases"]]' \
			'len(run["series"]["points"])' \
			'[sorted(o for o in p["ops"] if o not in ("commit", "batch")) for p in run["series"]["points"]] == [["insert"]] * 11 + [["lookup"]] * 3 + [["update"]] * 4' \
			'run["ops"]["batch"]["bytes"] == run["ops"]["insert"]["bytes"] + run["ops"]["lookup"]["bytes"] + run["ops"]["update"]["bytes"]'
		[ "$status" -eq 0 ]
		[ "${lines[*]}" = '["insert", "lookup", "update"] [true, true, true] 18 true true' ] || {
			echo "$e: ${lines[*]}" >&2
			false
		}
		is_empty_dir "$target"
	done
}

@test "kv series: one point per batch on the batch grid; worst are the two longest" {
	need_kv_engines
	fast_target # counts, not timings: spare the disk
	for e in "${ENGINES[@]}"; do
		kv_ok "$e" --records=1050 --batch=100
		json_is "$result" "$R0.series.grid=batch"
		run jpy "$result" 'len(run["series"]["points"])' \
			'[p["ops"]["insert"]["count"] for p in run["series"]["points"]]' \
			'all(p["ops"]["batch"]["count"] == 1 and p["ops"]["commit"]["count"] == 1 for p in run["series"]["points"])' \
			'all(p["duration_ns"] == p["ops"]["batch"]["lat_max_ns"] for p in run["series"]["points"])' \
			'len(run["series"]["worst"])' \
			'[w["duration_ns"] for w in run["series"]["worst"]] == sorted((p["duration_ns"] for p in run["series"]["points"]), reverse=True)[:2]' \
			'all(run["series"]["points"][w["index"]]["duration_ns"] == w["duration_ns"] and run["series"]["points"][w["index"]]["end_ns"] == w["end_ns"] for w in run["series"]["worst"])' \
			'all(w["count"] == run["series"]["points"][w["index"]]["ops"]["insert"]["count"] for w in run["series"]["worst"])'
		[ "$status" -eq 0 ]
		[ "${lines[*]}" = '11 [100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 50] true true 2 true true true' ] || {
			echo "$e: ${lines[*]}" >&2
			false
		}
		is_empty_dir "$target"
	done
}

@test "kv series on a count grid: an interval per 1000 inserts, the last one only when it holds inserts" {
	need_kv_engines
	fast_target # counts, not timings: spare the disk
	e=${ENGINES[0]}
	# 30000 inserts in batches of 1000: 30 intervals; the last batch's commit,
	# after its last insert, makes no 31st.
	kv_ok "$e" --records=30000 --batch=1000 --log_interval=1000ops
	json_is "$result" "$R0.series.grid=ops" "$R0.series.interval_ops=1000"
	[ "$(value "$result" 'len(d["jobs"][0]["runs"][0]["series"]["points"])')" -eq 30 ]
	[ "$(value "$result" '[p["ops"]["insert"]["count"] for p in d["jobs"][0]["runs"][0]["series"]["points"]] == [1000] * 30')" = True ]
	[ "$(grep -c '^    series: 30 intervals of 1000 data operations per thread$' <<<"$output")" -eq 1 ]
	# 30500: 30 whole intervals and a partial one of 500, which is never the worst.
	kv_ok "$e" --records=30500 --batch=1000 --log_interval=1000ops
	[ "$(value "$result" '[p["ops"]["insert"]["count"] for p in d["jobs"][0]["runs"][0]["series"]["points"]] == [1000] * 30 + [500]')" = True ]
	[ "$(value "$result" '[w["count"] for w in d["jobs"][0]["runs"][0]["series"]["worst"]]')" = '[1000, 1000]' ]
	[ "$(grep -c '^    series: 31 intervals of 1000 data operations per thread, the last of 500$' <<<"$output")" -eq 1 ]
	run "$DBIO" report "$result" --html page.html
	[ "$status" -eq 0 ]
	[ "$(grep -c '<li>run 1: 31 intervals of 1000 reads and writes per thread, the last of 500; ' page.html)" -eq 1 ]
	# Two threads: the count is per thread.
	kv_ok "$e" --records=3050 --batch=1000 --log_interval=1000ops --numjobs=2
	[ "$(value "$result" 'len(d["jobs"][0]["runs"][0]["series"]["points"])')" -eq 8 ]
	[ "$(grep -c '^    series: 4 intervals of 1000 data operations per thread, the last of 50$' <<<"$output")" -eq 1 ]
	run "$DBIO" report "$result" --html page.html
	[ "$status" -eq 0 ]
	[ "$(grep -c '<li>run 1: 4 intervals of 1000 reads and writes per thread, the last of 50; ' page.html)" -eq 1 ]
}

@test "kv value_size: a range keeps each insert between 16+lo and 16+hi bytes; one size is exact" {
	need_kv_engines
	fast_target # counts, not timings: spare the disk
	for e in "${ENGINES[@]}"; do
		kv_ok "$e" --records=1000 --batch=250 --value_size=100-400
		run jpy "$result" 'run["ops"]["insert"]["count"]' \
			'116 * 1000 <= run["ops"]["insert"]["bytes"] <= 416 * 1000' \
			'116 <= run["ops"]["insert"]["bytes"] / run["ops"]["insert"]["count"] <= 416'
		[ "${lines[*]}" = "1000 true true" ]

		kv_ok "$e" --records=1000 --batch=250 --value_size=64 --updates=100 --lookups=100
		json_is "$result" "$R0.ops.insert.bytes=80000" "$R0.ops.update.bytes=8000" \
			"$R0.ops.lookup.bytes=8000" "$R0.ops.batch.bytes=96000" "jobs.0.options.value_size=64"
		is_empty_dir "$target"
	done
}

@test "kv value_size=64 --keep: every stored value is 64 bytes" {
	need_kv_engines
	fast_target # counts, not timings: spare the disk
	for e in "${ENGINES[@]}"; do need_reader "$e"; done
	for e in "${ENGINES[@]}"; do
		kv_ok "$e" --records=500 --batch=100 --value_size=64 --keep
		run kv_count "$e" "$target/dbio.job.0.db/$e"
		[ "$status" -eq 0 ]
		read -r n distinct _ _ bytes vmin vmax _ <<<"$output"
		[ "$n $distinct $bytes $vmin $vmax" = "500 500 40000 64 64" ] || {
			echo "$e: got '$output'" >&2
			false
		}
		rm -rf "$target"/dbio.job.0.*
		is_empty_dir "$target"
	done
}

@test "kv database: engine is kv_engine and disk_bytes > 0" {
	need_kv_engines
	for e in "${ENGINES[@]}"; do
		kv_ok "$e" --records=500 --batch=100
		json_is "$result" "$R0.database.engine=$e" "jobs.0.options.kv_engine=$e" "jobs.0.options.workload=kv"
		run jpy "$result" 'run["database"]["disk_bytes"] > 0' 'run["database"]["disk_bytes"] % 512'
		[ "${lines[*]}" = "true 0" ]
	done
}

@test "kv without --keep leaves the directory empty: no database, journal, lock or wal" {
	need_kv_engines
	for e in "${ENGINES[@]}"; do
		for s in 1 0; do
			kv_ok "$e" --records=500 --batch=100 --lookups=50 --updates=50 --numjobs=2 \
				--sync_each_batch=$s
			is_empty_dir "$target"
		done
	done
}

@test "kv refuses a database left by an earlier --keep run and leaves it alone" {
	need_kv_engines
	fast_target # counts, not timings: spare the disk
	for e in "${ENGINES[@]}"; do
		kv_ok "$e" --records=100 --keep
		local before
		before=$(cksum "$target/dbio.job.0.db/$e")
		run --separate-stderr "$DBIO" run --output "$result.2" --workload=kv --kv_engine="$e" \
			--records=100 --directory="$target"
		[ "$status" -eq 2 ]
		# the message names the first of the thread's files it finds
		[[ "$stderr" == *"$target/dbio.job.0.db: already exists: left by an earlier run? remove it and run again"* ]] || {
			echo "$e: stderr: $stderr" >&2
			false
		}
		[ ! -e "$result.2" ]
		[ "$(cksum "$target/dbio.job.0.db/$e")" = "$before" ]
		rm -rf "$target"/dbio.job.0.*
		is_empty_dir "$target"
	done
}

@test "kv sync_each_batch=1 syncs every batch; =0 leaves it to writeback (strace)" {
	need_kv_engines
	need_strace
	fast_target
	for e in "${ENGINES[@]}"; do
		# 1000 records in batches of 100: 10 batches
		on=$(syncs "$e" --records=1000 --batch=100 --sync_each_batch=1)
		off=$(syncs "$e" --records=1000 --batch=100 --sync_each_batch=0)
		echo "$e: sync on $on, off $off durability calls" >&2
		[ "$on" -ge 10 ]
		if [ "$e" = sqlite ]; then
			[ "$off" -eq 0 ] # synchronous=OFF
		elif is_lsm "$e"; then
			# its own syncs (a flushed table, the MANIFEST, CURRENT) either
			# way, and one more for each of the 10 batches' log writes
			[ $((on - off)) -ge 10 ]
		else
			[ "$off" -le 2 ] # at most at creation and close (gdbm)
		fi
		is_empty_dir "$target"
	done
}

# Updates must reach the disk like the inserts ("synced like the inserts",
# dbio help options). They do not on SQLite with a fixed value_size: an
# update writes a value byte for byte equal to the one inserted (the record
# number and the same fill), SQLite sees an unchanged row and writes nothing,
# and the update batches commit without a single sync.
@test "kv updates with sync_each_batch=1 add a sync per update batch (value_size=64)" {
	need_kv_engines
	need_strace
	fast_target
	for e in "${ENGINES[@]}"; do
		base=$(syncs "$e" --records=1000 --batch=100 --value_size=64)
		upd=$(syncs "$e" --records=1000 --batch=100 --value_size=64 --updates=300)
		json_is "$result" "$R0.ops.update.count=300"
		echo "$e: $base durability calls without updates, $upd with 3 update batches" >&2
		[ $((upd - base)) -ge 3 ] || {
			echo "$e: the 3 update batches made $((upd - base)) durability calls, expected at least 3" >&2
			false
		}
	done
}

# bad_value ARG... -- MESSAGE: a kv run with ARG exits 2, writes no result and
# no file, and says MESSAGE on stderr (a glob: a * stands for any text).
bad_value() {
	local args=() msg
	while [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	msg=$2
	run --separate-stderr "$DBIO" run --output "$result" --directory="$target" --records=100 "${args[@]}"
	[ "$status" -eq 2 ] || {
		echo "${args[*]}: exit $status, expected 2; stderr: $stderr" >&2
		return 1
	}
	# shellcheck disable=SC2053 # $msg is a pattern
	[[ "$stderr" == $msg ]] || {
		echo "${args[*]}: stderr '$stderr'" >&2
		echo "expected '$msg'" >&2
		return 1
	}
	[ ! -e "$result" ]
	is_empty_dir "$target"
}

@test "kv bad values exit 2 naming the key" {
	local engines
	engines=$(kv_engines_of_build | join_list ', ')
	bad_value --workload=kv --kv_engine=foo -- \
		"dbio: command line: key 'kv_engine': bad value 'foo': expected one of ${engines:-(none built in)} (job 'job')"
	bad_value --workload=kv --batch=0 -- \
		"dbio: command line: key 'batch': bad value '0': out of range: expected a whole number from 1 to 100000000"
	bad_value --workload=kv --records=0 -- \
		"dbio: command line: key 'records': bad value '0': out of range: expected a whole number from 1 to 1000000000"
	bad_value --workload=kv --records=2000000000 -- \
		"dbio: command line: key 'records': bad value '2000000000': out of range: expected a whole number from 1 to 1000000000"
	bad_value --workload=kv --value_size=400-100 -- \
		"dbio: command line: key 'value_size': bad value '400-100': the range is inverted (lo > hi): expected a size or a range lo-hi of sizes with optional k or m suffixes, e.g. 100-400 or 4k"
	bad_value --workload=kv --value_size=0 -- \
		"dbio: command line: key 'value_size': bad value '0': sizes must be from 1 byte to 64 MiB: expected a size or a range lo-hi of sizes with optional k or m suffixes, e.g. 100-400 or 4k"
	bad_value --workload=nosuch -- \
		"dbio: command line: key 'workload': bad value 'nosuch': expected one of fileio, kv* (job 'job')" # more workloads may follow kv
	bad_value --workload=kv --key_order=sideways -- \
		"dbio: command line: key 'key_order': bad value 'sideways': expected one of seq, random"
	bad_value --workload=kv --sync_each_batch=2 -- \
		"dbio: command line: key 'sync_each_batch': bad value '2': expected 0 or 1 (a bare key means 1)"
}

@test "kv time_based is refused: a kv job runs its records, lookups and updates" {
	local kv
	need_kv_engine # the job's kv_engine is checked first
	bad_value --workload=kv --kv_engine="$kv" --time_based --runtime=1 -- \
		"dbio: command line: key 'time_based': not for workload=kv: a kv job runs its records, lookups and updates (job 'job')"
}

# A kv job has no files of its own size: the page-cache warning written for
# fileio ("the job's 0 B of files ... use direct=1, at least N GiB of files")
# and the job line's fileio keys (rw=read bs=4 KiB size=0 B ioengine=psync)
# describe a job that does not exist.
@test "kv job: the summary and warnings describe the kv job, not fileio keys it does not use" {
	need_built kv_engine=sqlite
	kv_ok sqlite --records=100
	run jpy "$result" '[w for w in r["jobs"][0]["warnings"] if "0 B of files" in w]'
	[ "$output" = "[]" ] || {
		echo "warnings: $output" >&2
		false
	}
	run --separate-stderr "$DBIO" run --output "$result.2" --workload=kv --kv_engine=sqlite --records=100 --directory="$target"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *sqlite* ]] || {
		echo "job line: ${lines[0]}" >&2
		false
	}
	[[ "${lines[0]}" != *"ioengine="* ]]
}

# ---- the files database libraries make ----

@test "kv: every file a library opens is inside the thread's 0700 directory, named through /proc/self/fd (strace)" {
	need_kv_engines
	need_strace
	fast_target
	for e in "${ENGINES[@]}"; do
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 run --separate-stderr strace -f -qq \
			-e trace=open,openat,mkdir,mkdirat -o "$scratch/trace" "$DBIO" run --output "$result" --progress=none \
			--workload=kv --kv_engine="$e" --records=300 --batch=50 --directory="$target"
		[ "$status" -eq 0 ] || { echo "$e: $stderr"; false; }
		# dbio makes the directory 0700 and its own file in it, by fd ...
		grep -qE "mkdirat\([0-9]+, \"dbio\.job\.0\.db\", 0700\) = 0" "$scratch/trace"
		if is_lsm "$e"; then # a directory for the LSM tree's files
			grep -qE "mkdirat\([0-9]+, \"$e\", 0700\) += 0" "$scratch/trace"
		else
			grep -qE "openat\([0-9]+, \"$e\", O_WRONLY\|O_CREAT\|O_EXCL\|O_NOFOLLOW\|O_CLOEXEC, 0644\) = [0-9]+" "$scratch/trace"
		fi
		# ... and the library opens only /proc/self/fd/N/... names there:
		# nothing by a path through the target, where a name can be planted.
		lib=$(grep -E "open(at)?\(.*\"/proc/self/fd/[0-9]+/$e" "$scratch/trace" | grep -c ' = [0-9]' || true)
		[ "$lib" -ge 1 ] || { echo "$e: no library open through /proc/self/fd"; false; }
		through=$(grep -F "\"$target/" "$scratch/trace" | grep -vE 'O_DIRECTORY' || true)
		[ -z "$through" ] || { echo "$e: opened through the target's path: $through"; false; }
		is_empty_dir "$target"
	done
}

@test "kv: another user planting lock, journal and database names in a world-writable target reaches nothing" {
	need_kv_engines
	attacker_dir 1777
	echo precious >"$atk/victim"
	# The attacker plants, in a loop while dbio runs, every name a library
	# makes beside its database, at the old names and inside dbio's
	# directory, as symlinks to the victim.
	cat >"$atk/plant.sh" <<-'SH'
		t=$1 v=$2 stop=$3
		# From when dbio's first file appears (after its checks) to the end.
		while [ -z "$(ls "$t")" ] && [ ! -e "$stop" ]; do :; done
		while [ ! -e "$stop" ]; do
			for n in dbio.job.0.lmdb-lock dbio.job.0.sqlite-journal dbio.job.0.sqlite-wal dbio.job.0.gdbm \
				dbio.job.0.db/lmdb-lock dbio.job.0.db/sqlite-journal dbio.job.0.db/sqlite-wal \
				dbio.job.0.db/sqlite-shm dbio.job.0.db/import.sqlite-journal; do
				ln -s "$v" "$t/$n" 2>/dev/null
			done
		done
	SH
	for e in "${ENGINES[@]}"; do
		rm -f "$atk/stop"
		setpriv --reuid=65534 --regid=65534 --clear-groups sh "$atk/plant.sh" "$target" "$atk/victim" \
			"$atk/stop" &
		bg_pid=$!
		run --separate-stderr "$DBIO" run --output "$result" --progress=none --workload=kv --kv_engine="$e" \
			--records=2000 --batch=100 --directory="$target"
		: >"$atk/stop"
		wait "$bg_pid" || true
		bg_pid=
		[ "$(cat "$atk/victim")" = precious ] || { echo "$e: the victim was written"; false; }
		[ "$status" -eq 0 ] || { echo "$e: $stderr"; false; }
		# What is left is the attacker's own symlinks, none inside dbio's
		# directory, which is gone.
		[ ! -e "$target/dbio.job.0.db" ]
		[ -z "$(find "$target" -mindepth 1 ! -type l)" ]
		find "$target" -mindepth 1 -maxdepth 1 -type l -delete
	done
	# A directory of the attacker's at dbio's name is refused, not used.
	setpriv --reuid=65534 --regid=65534 --clear-groups mkdir "$target/dbio.job.0.db"
	run --separate-stderr "$DBIO" run --output "$result" --progress=none --workload=kv --kv_engine="${ENGINES[0]}" \
		--records=100 --directory="$target"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"$target/dbio.job.0.db: already exists: left by an earlier run? remove it and run again"* ]]
	[ "$(stat -c %U "$target/dbio.job.0.db")" = nobody ]
}

@test "kv: another user swapping root's directory in for the thread's database directory mid-run: it is left whole, named in a warning" {
	need_kv_engines
	swap_target
	swap_when_full dbio.kvj.0.db
	run --separate-stderr "$DBIO" run --output "$result" --progress=none --workload=kv --kv_engine="${ENGINES[0]}" \
		--records=100000 --name=kvj --force --directory="$target"
	wait "$bg_pid"
	bg_pid=
	[ -e "$atk/swapped" ]
	precious_intact dbio.kvj.0.db
	[[ $stderr == *"dbio: warning: $target/dbio.kvj.0.db: not removed: the name is now a directory of uid 0 mode 0700, not the one dbio made (dbio emptied its own directory, wherever it was moved): look at it and remove it by hand"* ]]
	# dbio's own directory, moved, is emptied.
	[ -z "$(ls -A "$target/moved")" ]
}
