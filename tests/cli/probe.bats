#!/usr/bin/env bats
# The stall probe: it runs every probe_interval during the measured phase,
# records every probe at or above probe_stall with its time into the run, and
# leaves no file behind. Also workload=import's phases and counts.

load helpers

# The target is under /var/tmp, on a disk where /tmp may be a tmpfs (no
# O_DIRECT, syncs that reach no device).
setup() {
	dbio_setup
	DIR=$(mktemp -d /var/tmp/dbio-probe.XXXXXX)
	extra_dirs+=("$DIR")
}

# span_ns FILE: nanoseconds from the start of the first run of FILE to the end
# of the result, plus 1 ms for the rounding of those times to milliseconds:
# every probe of the run started within it.
span_ns() {
	jpy "$1" 'round((ts(r["finished_at"]) - ts(run["started_at"])) * 1e9) + 1000000'
}

@test "probe=write every 100 ms over a 1 s run: 10 or 11 probes, each a stall at probe_stall=1ns" {
	run "$DBIO" run --rw=randwrite --size=16m --runtime=1s --time_based --probe=write --probe_stall=1ns \
		--directory="$DIR" --output="$BATS_TEST_TMPDIR/p.json"
	echo "$output"
	[ "$status" -eq 0 ]
	R=$BATS_TEST_TMPDIR/p.json
	n=$(value "$R" 'd["jobs"][0]["runs"][0]["probe"]["count"]')
	[ "$n" -ge 8 ] # 10 or 11 on a quiet machine; a probe that runs late delays the next
	# No more than one per 100 ms from 0 within the run (not a time bound:
	# the run's own times, however late it ended).
	span=$(span_ns "$R")
	[ "$n" -le $((span / 100000000 + 1)) ]
	[ "$(value "$R" 'len(d["jobs"][0]["runs"][0]["probe"]["stalls"])')" -eq "$n" ]
	[ "$(value "$R" 'd["jobs"][0]["runs"][0]["probe"]["kind"]')" = write ]
	# Stalls are in time order, on the 100 ms grid: probe k never starts
	# before k * 100 ms (it may start late on a loaded machine).
	value "$R" 'all(b["t_ns"] > a["t_ns"] for a, b in zip(d["jobs"][0]["runs"][0]["probe"]["stalls"], d["jobs"][0]["runs"][0]["probe"]["stalls"][1:]))' | grep -q True
	value "$R" 'all(s["t_ns"] >= k * 100000000 for k, s in enumerate(d["jobs"][0]["runs"][0]["probe"]["stalls"]))' | grep -q True
	value "$R" "all(s['t_ns'] < $span for s in d['jobs'][0]['runs'][0]['probe']['stalls'])" | grep -q True
	value "$R" 'all(s["lat_ns"] > 0 for s in d["jobs"][0]["runs"][0]["probe"]["stalls"])' | grep -q True
	[[ "$output" == *"probe: a 4 KiB write + fdatasync every 100 ms: $n probes"* ]]
	[ -z "$(ls -A "$DIR")" ]
}

@test "probe=read with the default 100 ms stall: counted, no file left; a leftover probe file is refused" {
	run "$DBIO" run --rw=randread --size=16m --runtime=500ms --time_based --probe=read --probe_interval=50ms \
		--directory="$DIR" --output="$BATS_TEST_TMPDIR/p.json"
	[ "$status" -eq 0 ]
	n=$(value "$BATS_TEST_TMPDIR/p.json" 'd["jobs"][0]["runs"][0]["probe"]["count"]')
	[ "$n" -ge 7 ] # 10 or 11 on a quiet machine
	[ "$n" -le $(($(span_ns "$BATS_TEST_TMPDIR/p.json") / 50000000 + 1)) ]
	[ "$(value "$BATS_TEST_TMPDIR/p.json" 'd["jobs"][0]["runs"][0]["probe"]["stall_ns"]')" -eq 100000000 ]
	[ -z "$(ls -A "$DIR")" ]
	touch "$DIR/dbio.job.probe"
	run "$DBIO" run --rw=randread --size=1m --probe=read --directory="$DIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"dbio.job.probe: already exists: left by an earlier run?"* ]]
	[ -f "$DIR/dbio.job.probe" ]
}

@test "probe: bad values name the key" {
	run "$DBIO" run --size=1m --probe=sometimes --directory="$DIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"key 'probe': bad value 'sometimes': expected one of none, write, read"* ]]
	run "$DBIO" run --size=1m --probe=write --probe_interval=10us --directory="$DIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"key 'probe_interval': bad value '10us': out of range"* ]]
	[ -z "$(ls -A "$DIR")" ]
}

@test "import: phases schema, load, index; rows, commits and indexes counted exactly; nothing left" {
	need_built workload=import
	run "$DBIO" run --workload=import --rows=2500 --batch=1000 --indexes=4 --page_size=1024 \
		--directory="$DIR" --output="$BATS_TEST_TMPDIR/i.json"
	echo "$output"
	[ "$status" -eq 0 ]
	R=$BATS_TEST_TMPDIR/i.json
	[ "$(value "$R" '[p["name"] for p in d["jobs"][0]["runs"][0]["phases"]]')" = "['schema', 'load', 'index']" ]
	[ "$(value "$R" 'd["jobs"][0]["runs"][0]["ops"]["insert"]["count"]')" -eq 2500 ]
	[ "$(value "$R" 'd["jobs"][0]["runs"][0]["ops"]["commit"]["count"]')" -eq 3 ]
	[ "$(value "$R" 'd["jobs"][0]["runs"][0]["ops"]["index"]["count"]')" -eq 4 ]
	[ "$(value "$R" 'd["jobs"][0]["runs"][0]["phases"][1]["ops"]')" -eq 2500 ]
	[ "$(value "$R" 'd["jobs"][0]["runs"][0]["database"]["engine"]')" = sqlite ]
	[ -z "$(ls -A "$DIR")" ]
}

@test "import --keep: the table holds rows rows, the indexes exist, the page size is page_size" {
	need_built workload=import
	run "$DBIO" run --workload=import --rows=1234 --indexes=6 --page_size=2048 --keep --directory="$DIR"
	[ "$status" -eq 0 ]
	db=$DIR/dbio.job.0.db/import.sqlite
	[ -f "$db" ]
	run python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); print(c.execute("select count(*) from records").fetchone()[0], c.execute("select count(*) from sqlite_master where type = \"index\" and name like \"records_%\"").fetchone()[0], c.execute("pragma page_size").fetchone()[0])' "$db"
	[ "$output" = "1234 6 2048" ]
}

@test "import: bad values name the key" {
	need_built workload=import
	run "$DBIO" run --workload=import --indexes=7 --directory="$DIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"key 'indexes': bad value '7': out of range"* ]]
	run "$DBIO" run --workload=import --page_size=3000 --directory="$DIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"key 'page_size': 3000: expected a power of two from 512 to 65536"* ]]
	run "$DBIO" run --workload=import --journal_mode=yes --directory="$DIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"key 'journal_mode': bad value 'yes': expected one of delete, truncate, persist, memory, wal, off"* ]]
	[ -z "$(ls -A "$DIR")" ]
}
