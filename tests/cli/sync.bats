#!/usr/bin/env bats
# dbio sync: every method and writes-per-sync cell runs, the sync calls are
# counted exactly (one per N writes), and the table has a row per method.

load helpers

# The target is under /var/tmp, on a disk where /tmp may be a tmpfs (no
# O_DIRECT, syncs that reach no device).
setup() {
	dbio_setup
	DIR=$(mktemp -d /var/tmp/dbio-sync.XXXXXX)
	extra_dirs+=("$DIR")
}

@test "sync: a table row per method, 24 cells, one sync call per N writes" {
	run "$DBIO" sync "$DIR" --runtime=200ms --output="$BATS_TEST_TMPDIR/s.json"
	echo "$output"
	[ "$status" -eq 0 ]
	for m in write+fdatasync write+fsync O_DSYNC O_SYNC O_DIRECT+fdatasync write+sync_file_range; do
		echo "$output" | grep -q "^$m "
	done
	echo "$output" | grep -q "groups/s"
	R=$BATS_TEST_TMPDIR/s.json
	[ "$(value "$R" 'len(d["jobs"])')" -eq 24 ]
	echo "$output" | grep -q "^sync_file_range writes the data back but not the file's metadata"
	# write+fdatasync with 8 writes per sync: fdatasyncs = writes / 8 (a
	# trailing partial group has no sync yet).
	w=$(value "$R" '[j for j in d["jobs"] if j["name"] == "write+fdatasync-8"][0]["runs"][0]["ops"]["write"]["count"]')
	s=$(value "$R" '[j for j in d["jobs"] if j["name"] == "write+fdatasync-8"][0]["runs"][0]["ops"]["fdatasync"]["count"]')
	[ "$w" -gt 0 ]
	[ "$s" -eq $((w / 8)) ]
	w=$(value "$R" '[j for j in d["jobs"] if j["name"] == "write+fsync-2"][0]["runs"][0]["ops"]["write"]["count"]')
	s=$(value "$R" '[j for j in d["jobs"] if j["name"] == "write+fsync-2"][0]["runs"][0]["ops"]["fsync"]["count"]')
	[ "$s" -eq $((w / 2)) ]
	w=$(value "$R" '[j for j in d["jobs"] if j["name"] == "write+sync_file_range-16"][0]["runs"][0]["ops"]["write"]["count"]')
	s=$(value "$R" '[j for j in d["jobs"] if j["name"] == "write+sync_file_range-16"][0]["runs"][0]["ops"]["sync_file_range"]["count"]')
	[ "$w" -gt 0 ]
	[ "$s" -eq $((w / 16)) ]
	# O_DSYNC: synchronous writes, no sync calls; the option is recorded.
	[ "$(value "$R" '[j for j in d["jobs"] if j["name"] == "O_DSYNC-1"][0]["options"]["sync"]')" = dsync ]
	[ "$(value "$R" '[j for j in d["jobs"] if j["name"] == "O_DSYNC-1"][0]["runs"][0]["ops"]["fsync"]["count"]')" -eq 0 ]
	[ "$(value "$R" '[j for j in d["jobs"] if j["name"] == "O_DIRECT+fdatasync-16"][0]["options"]["direct"]')" = True ]
	# Every cell overwrote its own 8 KiB blocks: N blocks, bs 8 KiB.
	[ "$(value "$R" '[j for j in d["jobs"] if j["name"] == "O_SYNC-16"][0]["options"]["size"]')" -eq 131072 ]
	# one cell after another, never two at once (stonewall)
	run jpy "$R" 'all(j["starts_group"] for j in r["jobs"])' \
		'all(span(i)[0] >= span(i - 1)[1] - 0.002 for i in range(1, 24))'
	[ "${lines[*]}" = "true true" ]
	[ -z "$(ls -A "$DIR")" ]
}

@test "sync: two directories is an error; a bad key names it" {
	run "$DBIO" sync "$DIR" "$DIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"sync: one directory at most, got 2"* ]]
	run "$DBIO" sync "$DIR" --runtime=fast
	[ "$status" -eq 2 ]
	[[ "$output" == *"key 'runtime': bad value 'fast'"* ]]
	[ -z "$(ls -A "$DIR")" ]
}
