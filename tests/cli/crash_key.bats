#!/usr/bin/env bats
# crash=1 (issue 28): dbio run and dbio sweep run a job's points on the
# power-cut layer, as dbio crash does (cmd/crash_job.c, crash_run_group),
# with the durability section in each result and the sweep table's column
# "lost after a cut". 100 records in batches of 10 on SQLite: synchronous=OFF
# loses, at the cut after acknowledgement i, all 10*i acknowledged records
# (10 states with losses, up to 100); EXTRA loses nothing; FULL at most the
# last commit (its rollback journal's unlink is not made durable,
# docs/options.md sqlite_synchronous). The test hook DBIO_POWERCUT_KEEP=all
# (a cut keeps everything) makes the off row's test fail.

load helpers

KV=(--workload=kv --kv_engine=sqlite --records=100 --batch=10 --value_size=64-128)

need_sqlite_layer() {
	need_powercut
	kv_engines_of_build | grep -qxF sqlite || skip "this build left out kv_engine=sqlite"
}

@test "crash key: sweep over sqlite_synchronous: off loses every acknowledged record, extra none, full at most the last commit" {
	need_sqlite_layer
	run -0 --separate-stderr "$DBIO" sweep --vary sqlite_synchronous=off,full,extra --crash=1 \
		--directory="$target" "${KV[@]}" --output "$result"
	is_empty_dir "$target"
	[[ "${lines[0]}" =~ ^sqlite_synchronous\ +job\ +op\ +ops/s\ +crash\ states\ +lost\ after\ a\ cut$ ]]
	[[ "${lines[1]}" =~ ^off\ +job\ +insert\ +[0-9.]+\ +10\ +10\ /\ up\ to\ 100\ acknowledged$ ]]
	[[ "${lines[2]}" =~ ^full\ +job\ +insert\ +[0-9.]+\ +[0-9]+\ +[0-9]+\ /\ up\ to\ 10\ acknowledged$ ]]
	[[ "${lines[3]}" =~ ^extra\ +job\ +insert\ +[0-9.]+\ +[0-9]+\ +0\ /\ 0\ acknowledged$ ]]
	[ "${lines[-1]}" = "lost after a cut: the crash states with losses / the most acknowledged operations one of them lost" ]
	json_is "$result" jobs.0.runs.0.durability.states=10 jobs.0.runs.0.durability.states_with_losses=10 \
		jobs.0.runs.0.durability.acknowledged_lost.max=100 jobs.0.runs.0.durability.acknowledged_lost.total=550 \
		"jobs.0.runs.0.durability.setting=sqlite synchronous=OFF" "jobs.0.options.directory=$target" \
		jobs.1.runs.0.durability.acknowledged_lost.max=10 jobs.1.runs.0.durability.integrity_failed=0 \
		jobs.2.runs.0.durability.states_with_losses=0 jobs.2.runs.0.durability.acknowledged=100 \
		"jobs.2.runs.0.durability.setting=sqlite synchronous=EXTRA"
}

@test "crash key: dbio run of a job file with crash=1 has the durability section; crash=0 none" {
	need_sqlite_layer
	printf '[safe]\nworkload=kv\nkv_engine=sqlite\nrecords=100\nbatch=10\nsync_each_batch=0\ncrash=1\ndirectory=%s\n' \
		"$target" >"$scratch/job.fio"
	run -0 --separate-stderr "$DBIO" run --output "$result" "$scratch/job.fio"
	is_empty_dir "$target"
	[[ "$output" == *"after a power cut (sqlite synchronous=OFF): lost 550 acknowledged in 10 crash states, up to 100 of 100 in one (10 states with losses)"* ]]
	json_is "$result" jobs.0.runs.0.durability.states_with_losses=10 "jobs.0.options.directory=$target"
	# the HTML page says it too, beside the op tables, escaped
	run -0 "$DBIO" report "$result" --html "$scratch/page.html"
	grep -qF '<pre class="durability">    after a power cut (sqlite synchronous=OFF): lost 550 acknowledged in 10 crash states, up to 100 of 100 in one (10 states with losses);' "$scratch/page.html"
	grep -qF "first lost: key 0000000000000000, acknowledged write 1, at the cut &#39;ack 1&#39;: missing" "$scratch/page.html"
	# and compare puts the losses beside the speed: 100 lost at most against none
	cp "$result" "$scratch/off.json"
	run -0 --separate-stderr "$DBIO" run --output "$result" "$scratch/job.fio" --set sqlite_synchronous=extra
	run -0 --separate-stderr "$DBIO" compare "$scratch/off.json" "$result"
	[[ "$output" =~ safe\ +all\ +lost_max\ +100\ ops\ +0\ ops ]]
	[[ "$output" =~ safe\ +all\ +loss_states\ +10\ states\ +0\ states ]]
	sed 's/^crash=1$/crash=0/' "$scratch/job.fio" >"$scratch/off.fio"
	run -0 --separate-stderr "$DBIO" run --output "$result" "$scratch/off.fio"
	[[ "$output" != *"after a power cut"* ]]
	run -0 jq -e '.jobs[0].runs[0] | has("durability") | not' "$result"
}

@test "crash key: a job dbio crash cannot check is refused with dbio crash's reason, nothing run" {
	need_sqlite_layer
	run -2 --separate-stderr "$DBIO" run --crash=1 --directory="$target" --workload=oltp
	[ "$stderr" = "dbio: command line: key 'workload': 'oltp': dbio crash checks workload=kv, fileio and postgres for now (job 'job')" ]
	run -2 --separate-stderr "$DBIO" sweep --vary batch=10,20 --crash=1 --directory="$target" "${KV[@]}" --numjobs=2
	[ "$stderr" = "dbio: command line: key 'numjobs': '2': dbio crash checks one thread (numjobs=1) (job 'job')" ]
	run -2 --separate-stderr "$DBIO" run --crash=1 --directory="$target" "${KV[@]}" --crash_model=sideways
	[ "$stderr" = "dbio: command line: key 'crash_model': bad value 'sideways': expected lose, reorder, torn512 or torn4k (job 'job')" ]
	# in a job file, the line of the key at fault
	printf '[j]\nworkload=kv\nkv_engine=sqlite\nrecords=10\ncrash=1\ncrash_fault=eio@1\n' >"$scratch/fault.fio"
	run -2 --separate-stderr "$DBIO" run "$scratch/fault.fio" --directory="$target"
	[ "$stderr" = "dbio: $scratch/fault.fio:6: key 'crash_fault': bad value 'eio@1': expected eio-fsync@N, enospc-write@N (N from 1) or none (job 'j')" ]
	printf '[j]\nworkload=kv\nkv_engine=sqlite\nrecords=10\nnumjobs=3\ncrash=1\n' >"$scratch/threads.fio"
	run -2 --separate-stderr "$DBIO" run "$scratch/threads.fio" --directory="$target"
	[ "$stderr" = "dbio: $scratch/threads.fio:5: key 'numjobs': '3': dbio crash checks one thread (numjobs=1) (job 'j')" ]
	printf '[a]\nworkload=kv\nkv_engine=sqlite\nrecords=10\ncrash=1\ndirectory=%s\n[b]\nworkload=kv\nkv_engine=sqlite\nrecords=10\ndirectory=%s\n' \
		"$target" "$target" >"$scratch/two.fio"
	run -2 --separate-stderr "$DBIO" run "$scratch/two.fio"
	[ "$stderr" = "dbio: $scratch/two.fio:5: key 'crash': dbio crash checks one job at a time: give it a group of its own (stonewall) (job 'a')" ]
	is_empty_dir "$target"
}

@test "crash key: dbio crash of a job file with crash=1 runs it on one layer, not a layer over its own" {
	need_sqlite_layer
	# synchronous=OFF: its states and losses are the same each run (FULL's
	# states with losses vary, 11 to 13 of 50 in three runs).
	printf '[unsafe]\nworkload=kv\nkv_engine=sqlite\nrecords=100\nbatch=10\nsync_each_batch=0\ncrash=1\ndirectory=%s\n' \
		"$target" >"$scratch/job.fio"
	run -0 --separate-stderr timeout -s KILL 60 "$DBIO" crash --output "$result" "$scratch/job.fio"
	is_empty_dir "$target"
	json_is "$result" "jobs.0.options.directory=$target"
	run -0 jq -c '.jobs[0].runs[0].durability | del(.elapsed)' "$result"
	with=$output
	# The same states and losses as the file without the key.
	sed '/^crash=1$/d' "$scratch/job.fio" >"$scratch/plain.fio"
	run -0 --separate-stderr "$DBIO" crash --output "$result" "$scratch/plain.fio"
	run -0 jq -c '.jobs[0].runs[0].durability | del(.elapsed)' "$result"
	[ "$output" = "$with" ]
	[ "$(jq '.jobs[0].runs[0].durability.states_with_losses' "$result")" -gt 0 ]
}

@test "crash key: a build without the layer refuses crash=1, naming libfuse3-dev" {
	# dbio-min leaves out every optional library, fuse3 and sqlite3 too.
	[ -x "${DBIO_MIN:-}" ] || skip "no DBIO_MIN (make test sets it)"
	run "$DBIO_MIN" crash --cleanup "$target"
	[ "$output" = "dbio: crash: the power-cut layer is left out of this build: install libfuse3-dev and build again" ]
	run -2 --separate-stderr "$DBIO_MIN" run --crash=1 --directory="$target" --size=64k
	[ "$stderr" = "dbio: command line: key 'crash': the power-cut layer is left out of this build: install libfuse3-dev and build again (job 'job')" ]
}

@test "crash key: a directory through another user's symlink is refused before a layer is made there" {
	need_sqlite_layer
	mkdir -m 700 "$scratch/victim"
	mkdir "$scratch/u"
	chown 65534:65534 "$scratch/u"
	ln -s "$scratch/victim" "$scratch/u/link"
	chown -h 65534:65534 "$scratch/u/link"
	run -2 --separate-stderr "$DBIO" run --crash=1 --directory="$scratch/u/link" "${KV[@]}"
	[[ "$stderr" == *"$scratch/u/link: a symlink that belongs to user 65534: refusing to follow it"* ]]
	is_empty_dir "$scratch/victim"
}
