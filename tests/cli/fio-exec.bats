#!/usr/bin/env bats
# fio's exec_prerun and exec_postrun: run by the shell around the job, their
# output in JOBNAME.prerun.txt / JOBNAME.postrun.txt of the current
# directory, recorded in the result; a symlink at that path is refused.
# docs/fio.md, docs/safety.md.

load helpers

@test "exec_prerun and exec_postrun: output files as fio's, command and status in the result" {
	"$DBIO" run --directory="$target" --name=pj --rw=read --bs=4k --size=16k --output "$result" \
		--exec_prerun='echo hello; echo err >&2' --exec_postrun='echo bye; ls "$PWD/target"' >/dev/null
	[ "$(cat pj.prerun.txt)" = "$(printf 'hello\nerr')" ]
	# postrun runs after the I/O, while the job's files are still there
	[ "$(cat pj.postrun.txt)" = "$(printf 'bye\ndbio.pj.0.0')" ]
	json_is "$result" jobs.0.runs.0.ops.read.count=4 jobs.0.runs.0.exec.prerun.status=0 \
		"jobs.0.runs.0.exec.prerun.command=echo hello; echo err >&2" \
		jobs.0.runs.0.exec.prerun.output=pj.prerun.txt jobs.0.runs.0.exec.postrun.status=0
	if python3 -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null; then
		run schema_valid "$result"
		[ "$status" -eq 0 ] || { echo "$output"; false; }
	fi
}

@test "exec_prerun exiting 3: no I/O and no postrun, as fio; the status recorded and the run fails" {
	run "$DBIO" run --directory="$target" --name=pj --rw=read --bs=4k --size=16k --output "$result" \
		--exec_prerun='echo x; exit 3' --exec_postrun='echo bye'
	[ "$status" -eq 1 ]
	[[ "$output" == *"exec_prerun exited with status 3 (its output is in pj.prerun.txt)"* ]]
	[ "$(cat pj.prerun.txt)" = x ]
	[ ! -e pj.postrun.txt ]
	json_is "$result" jobs.0.runs.0.ops.read.count=0 jobs.0.runs.0.exec.prerun.status=3
}

@test "exec_prerun: a symlink at JOBNAME.prerun.txt is refused, never followed, the command not run" {
	echo keep >victim
	ln -s "$PWD/victim" pj.prerun.txt
	run "$DBIO" run --directory="$target" --name=pj --rw=read --size=16k --exec_prerun='touch ran'
	[ "$status" -ne 0 ]
	[[ "$output" == *"pj.prerun.txt: a symlink: refusing to follow it"* ]]
	[ "$(cat victim)" = keep ]
	[ ! -e ran ]
	chown -h nobody pj.prerun.txt
	run "$DBIO" run --directory="$target" --name=pj --rw=read --size=16k --exec_prerun='touch ran'
	[ "$status" -ne 0 ]
	[[ "$output" == *"a symlink that belongs to user 65534: refusing to follow it"* ]]
	[ "$(cat victim)" = keep ]
	[ ! -e ran ]
}

@test "exec_postrun: a job name with '/' is refused" {
	run "$DBIO" run --directory="$target" --name=a/b --rw=read --size=16k --exec_postrun='echo x'
	[ "$status" -eq 2 ]
	[[ "$output" == *"expected a name without '/'"* ]]
}
