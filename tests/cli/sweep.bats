#!/usr/bin/env bats
# dbio sweep: one row per point with the varied values, ranges, the result
# rewritten after each point, an interrupted sweep resumed without redoing
# its finished points, CSV, and bad --vary values. Also run --format=csv.

load helpers

@test "sweep: a 3-point sweep gives 3 rows with the varied values and exact counts per point" {
	run --separate-stderr "$DBIO" sweep --rw=read --size=4m --vary bs=4k,8k,16k --directory="$target" \
		--output="$BATS_TEST_TMPDIR/s.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c ' read ')" -eq 3 ]
	echo "$output" | grep -q '^4k '
	echo "$output" | grep -q '^8k '
	echo "$output" | grep -q '^16k '
	R=$BATS_TEST_TMPDIR/s.json
	[ "$(value "$R" 'd["sweep"]["completed"]')" -eq 3 ]
	[ "$(value "$R" '[j["point"]["bs"] for j in d["jobs"]]')" = "['4k', '8k', '16k']" ]
	[ "$(value "$R" '[j["runs"][0]["ops"]["read"]["count"] for j in d["jobs"]]')" = "[1024, 512, 256]" ]
	[ -z "$(ls -A "$target")" ]
}

@test "sweep: ranges A..B*F and A..B+S, a grid of two keys, CSV with a header" {
	run --separate-stderr "$DBIO" sweep --rw=write --size=1m --vary numjobs=1..3+1 --vary bs=4k..16k*2 \
		--directory="$target" --format=csv
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | head -1)" = "numjobs,bs,job,op,iops,iops_ci95,bw,bw_ci95,p99,p99_ci95" ]
	[ "$(echo "$output" | tail -n +2 | cut -d, -f1,2 | tr '\n' ' ')" = "1,4k 1,8k 1,16k 2,4k 2,8k 2,16k 3,4k 3,8k 3,16k " ]
}

# start_held_sweep ARG...: `dbio sweep ARG... --series-csv=series.csv` in the
# background ($bg_pid), where series.csv is a FIFO nothing reads: after
# writing a point's result, dbio waits to open it, so that the next point
# cannot begin before the test lets it (opens the FIFO), however slow the
# machine. Returns once the --output file ($R) says the first point is done.
start_held_sweep() {
	mkfifo series.csv
	"$DBIO" sweep "$@" --series-csv=series.csv >/dev/null 2>&1 &
	bg_pid=$!
	wait_until grep -q '"completed": 1,\?$' "$R"
}

@test "sweep: killed after its first point, --resume finishes without rerunning it" {
	R=$scratch/r.json
	start_held_sweep --rw=randread --size=4m --runtime=200ms --time_based --vary numjobs=1,2,3 \
		--directory="$target" --output="$R"
	kill -INT "$bg_pid"
	# Let it go on: the second point starts with the signal already in,
	# and stops at once.
	exec 6<>series.csv
	rc=0
	wait "$bg_pid" || rc=$?
	bg_pid=
	exec 6>&-
	[ "$rc" -eq 130 ]
	[ "$(value "$R" 'd["sweep"]["completed"]')" -eq 1 ]
	first=$(value "$R" 'd["jobs"][0]["runs"][0]["started_at"]')
	rm series.csv # the resumed sweep writes its series there, as a file
	run --separate-stderr "$DBIO" sweep --resume "$R" --directory="$target" --series-csv=series.csv
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"resuming at point 2 of 3"* ]]
	[ "$(value "$R" 'd["sweep"]["completed"]')" -eq 3 ]
	[ "$(value "$R" 'len(d["jobs"])')" -eq 3 ]
	[ "$(value "$R" '[j["point"]["numjobs"] for j in d["jobs"]]')" = "['1', '2', '3']" ]
	[ "$(value "$R" 'd["jobs"][0]["runs"][0]["started_at"]')" = "$first" ]
	[ "$(value "$R" 'd["partial"]')" = False ]
	[ -z "$(ls -A "$target")" ]
}

@test "sweep: bad --vary values are refused before anything runs" {
	run "$DBIO" sweep --size=1m --vary bsz=4k,8k --directory="$target"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--vary bsz=4k,8k: key 'bsz': unknown (did you mean 'bs'?)"* ]]
	run "$DBIO" sweep --size=1m --vary bs=16k..4k*2 --directory="$target"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--vary bs=16k..4k*2: bad range"* ]]
	run "$DBIO" sweep --size=1m --vary bs=4k,4x --directory="$target"
	[ "$status" -eq 2 ]
	[[ "$output" == *"key 'bs': bad value '4x'"* ]]
	run "$DBIO" sweep --size=1m --directory="$target"
	[ "$status" -eq 2 ]
	[[ "$output" == *"sweep: no --vary"* ]]
	[ -z "$(ls -A "$target")" ]
}

@test "run --format=csv: a header and a row per job and op type" {
	run --separate-stderr "$DBIO" run --rw=randrw --size=4m --directory="$target" --format=csv
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | head -1 | cut -d, -f1-4)" = "job,op,iops,iops_ci95" ]
	[ "$(echo "$output" | tail -n +2 | cut -d, -f1,2 | tr '\n' ' ')" = "job,read job,write " ]
}

@test "sweep --op: only the named op types become rows; the result keeps every op" {
	local kv
	need_kv_engine
	R=$BATS_TEST_TMPDIR/op.json
	# Lookups too: two phases, so the insert phase has a row of its own
	# (a job of one phase would repeat the whole run's figures on it).
	run --separate-stderr "$DBIO" sweep --workload=kv --kv_engine="$kv" --records=2000 --batch=500 \
		--lookups=500 --vary sync_each_batch=1,0 --op insert --metric=iops,elapsed,worst \
		--directory="$target" --format=csv --output="$R"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | tail -n +2 | cut -d, -f1-3 | tr '\n' ' ')" = "1,job,insert 1,job,phase insert 0,job,insert 0,job,phase insert " ]
	# A phase's row: no figure per op type, no worst interval (the series is
	# the run's), its own elapsed time.
	[ "$(echo "$output" | grep ',phase insert,' | cut -d, -f4,5,8,9 | sort -u)" = ",,," ]
	[ "$(echo "$output" | grep -c ',phase insert,,,[1-9][0-9]*,0,,$')" -eq 2 ]
	# 4 batches of inserts and one of lookups.
	[ "$(value "$R" 'd["jobs"][0]["runs"][0]["ops"]["batch"]["count"]')" -eq 5 ]
	[ -z "$(ls -A "$target")" ]
}

@test "sweep --op write,read: a row per point and op named; a name that is not an op type is refused" {
	run --separate-stderr "$DBIO" sweep --rw=randrw --size=1m --vary bs=4k,8k --op write,read --directory="$target"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c ' read ')" -eq 2 ]
	[ "$(echo "$output" | grep -c ' write ')" -eq 2 ]
	run --separate-stderr "$DBIO" sweep --size=1m --vary bs=4k,8k --op insert,inserts --directory="$target"
	[ "$status" -eq 2 ]
	# The phases after the op types: kv's verify first, then those of the
	# database workloads this build has.
	[[ "$stderr" == "dbio: command line: --op insert,inserts: item 2 is neither an op type nor a phase: expected a list of read, write, fsync, fdatasync, insert, lookup, update, commit, batch, index, transaction, log, sync_file_range, create, stat, delete, trim, rename; or a phase, bare or as 'phase NAME': verify"* ]]
	run --separate-stderr "$DBIO" run --size=1m --op insert --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: --op: only for \`dbio sweep\`" ]
	[ -z "$(ls -A "$target")" ]
}

@test "sweep --metric majflt,nvcsw,nivcsw (from the metric registry): columns with their titles" {
	run --separate-stderr "$DBIO" sweep --rw=write --size=1m --vary bs=4k,8k --metric iops,majflt,nvcsw,nivcsw \
		--directory="$target" --output "$result"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	grep -q '^bs  *job  *op  *ops/s  *major faults  *vol. switches  *invol. switches$' <<<"$output"
	[ "$(grep -c '^[48]k  *job  *write ' <<<"$output")" -eq 2 ]
	run --separate-stderr "$DBIO" sweep --resume "$result" --format csv --directory="$target"
	[ "$status" -eq 0 ]
	[ "$(head -1 <<<"$output")" = "bs,job,op,iops,iops_ci95,majflt,majflt_ci95,nvcsw,nvcsw_ci95,nivcsw,nivcsw_ci95" ]
	# The columns are the runs' rusage counts.
	[ "$(tail -n +2 <<<"$output" | cut -d, -f8 | tr '\n' ' ')" = "$(value "$result" '" ".join("%g" % j["runs"][0]["rusage"]["nvcsw"] for j in d["jobs"])') " ]
}

@test "sweep --metric: a name that is not a metric is named, with the registry's list" {
	run --separate-stderr "$DBIO" sweep --size=1m --vary bs=4k,8k --metric iops,faults --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: --metric iops,faults: 'faults' is not a metric: expected a list of iops, bw, lat_mean, p50, p95, p99, p99_9, max, elapsed, user, sys, pg_user, pg_sys, cpu, majflt, minflt, nvcsw, nivcsw, blocks_in, blocks_out, worst, worst2, engine_amp, fs_amp, device_amp, compaction_s, stall_s, lost_max, loss_states, lost_total, crash_states" ]
	[ -z "$(ls -A "$target")" ]
}

@test "sweep: a varied key's column is as wide as its longest value, so the columns stay aligned" {
	mkdir "$target/a" "$target/second-directory"
	run --separate-stderr "$DBIO" sweep --rw=write --size=1m --numjobs=2 --metric iops \
		--vary directory="$target/a,$target/a:$target/second-directory"
	[ "$status" -eq 0 ]
	echo "$output"
	# The "job" column begins at the same place in the header and both rows;
	# so it does in the table of the two-directory point's directories
	# below it; the page-cache warning follows, once.
	# The points are labelled by their number of directories (S3's
	# drives), their paths in a legend.
	table=$(grep -v '^warning: ' <<<"$output" | sed '/^directories of each point:$/,$d')
	[ "$(awk '{ print index($0, " job ") }' <<<"$table" | sort -u | wc -l)" -eq 1 ]
	[ "$(wc -l <<<"$table")" -eq 3 ]
	[ "$(sed -n '/^directories of each point:$/,/^$/p' <<<"$output")" = "directories of each point:
  1  $target/a
  2  $target/a:$target/second-directory" ]
	dirs=$(sed -n '/^per directory, of the points over several/,$p' <<<"$output" | sed 1d | grep -v '^warning: ')
	[ "$(awk '{ print index($0, " job ") }' <<<"$dirs" | sort -u | wc -l)" -eq 1 ]
	[ "$(awk '{ print index($0, " -  ") }' <<<"$dirs" | sed 1d | sort -u | wc -l)" -eq 1 ]
	[ "$(wc -l <<<"$dirs")" -eq 3 ]
	[ "$(grep -c '^warning: page cache: ' <<<"$output")" -eq 1 ]
	# Two points of one directory each: the number would not tell them
	# apart, so the paths label them, aligned, and there is no legend.
	run --separate-stderr "$DBIO" sweep --rw=write --size=1m --metric iops \
		--vary directory="$target/a,$target/second-directory"
	[ "$status" -eq 0 ]
	table=$(grep -v '^warning: ' <<<"$output")
	[ "$(awk '{ print index($0, " job ") }' <<<"$table" | sort -u | wc -l)" -eq 1 ]
	grep -q "^directory  *job  op" <<<"$table"
	grep -q "^$target/second-directory  job  write  " <<<"$table"
	! grep -q "^directories of each point" <<<"$output"
}

# resume_edit EDIT: $R with the Python statement EDIT applied (r the
# result) into bad.json, and a copy of it in before.json.
resume_edit() {
	"$PYTHON" - "$R" "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(r, open("bad.json", "w"))
PY
	cp bad.json before.json
}

# resume_fails EDIT MESSAGE: a copy of the finished 2-point sweep $R edited
# by the Python statement EDIT (r is the result) is refused by `sweep
# --resume` with exit 2 and MESSAGE, and is left as it was.
resume_fails() {
	resume_edit "$1"
	run --separate-stderr "$DBIO" sweep --resume bad.json --directory="$target"
	[ "$status" -eq 2 ] || { echo "$1: exit $status: $stderr"; return 1; }
	[ "$stderr" = "dbio: sweep: bad.json: $2" ] || { echo "$1: $stderr"; return 1; }
	cmp bad.json before.json
}

@test "sweep --resume: a malformed file is refused with exit 2, naming the file and what is wrong" {
	R=$scratch/s.json
	run --separate-stderr "$DBIO" sweep --rw=read --size=1m --vary bs=4k,8k --directory="$target" --output="$R"
	[ "$status" -eq 0 ]
	resume_fails 'r["argv"][2] = 5' "cannot resume: argv[2] is not a string"
	resume_fails 'r["argv"][3] = None' "cannot resume: argv[3] is not a string"
	resume_fails 'r["argv"] = "dbio sweep --vary bs=4k"' "cannot resume: argv is not an array"
	resume_fails 'r["argv"] = []' "cannot resume: argv holds 0 items: expected the \`dbio sweep\` command line"
	resume_fails 'r["argv"][1] = "run"' "cannot resume: argv[1] is 'run': expected 'sweep'"
	resume_fails 'r["argv"].append("--resume=x.json")' "cannot resume: argv[8] is '--resume=x.json': a recorded sweep neither resumes nor asks for help"
	resume_fails 'r["argv"].append("--help")' "cannot resume: argv[8] is '--help': a recorded sweep neither resumes nor asks for help"
	resume_fails 'del r["sweep"]' "cannot resume: no sweep object: not a result of \`dbio sweep\`"
	resume_fails 'r["sweep"] = []' "cannot resume: sweep is not an object"
	resume_fails 'del r["sweep"]["points"]' "cannot resume: sweep.points is not a whole number from 1 to 100000"
	resume_fails 'r["sweep"]["jobs_per_point"] = "1"' "cannot resume: sweep.jobs_per_point is not a whole number >= 1"
	resume_fails 'r["sweep"]["completed"] = -1' "sweep.completed is -1: not a figure a run makes (expected from 0 to 1e18)"
	resume_fails 'r["sweep"]["completed"] = 3' "cannot resume: sweep.completed is not a whole number from 0 to sweep.points (2)"
	resume_fails 'r["sweep"]["vary"] = None' "cannot resume: sweep.vary is not an array"
	resume_fails 'r["jobs"] = r["jobs"][:1]' "cannot resume: jobs holds 1 entry, fewer than sweep.completed (2) x sweep.jobs_per_point (1)"
	resume_fails 'r["sweep"]["points"] = 3' "cannot resume: argv makes 2 for sweep.points, the file says 3"
	resume_fails 'r["sweep"]["jobs_per_point"] = 2; r["jobs"] += r["jobs"]' "cannot resume: argv makes 1 for sweep.jobs_per_point, the file says 2"
	resume_fails 'r["sweep"]["vary"][0]["values"][1] = "16k"' "cannot resume: argv's --vary values are not those of sweep.vary"
	resume_fails 'r["argv"][2] = "--bsz=4k"' "cannot resume: its argv holds '--bsz=4k', a key this dbio does not know (it may name a path): a resume takes that only from the command line: give it again after --resume bad.json"
	resume_fails 'r["argv"][2] = "--rw=read\ndbio: forged"' "cannot resume: argv[2] holds a control character: a recorded command line has none"
	resume_fails 'r["jobs"] = {}' "not a dbio result: no jobs array"
	[ -z "$(ls -A "$target")" ]
}

@test "sweep --vary: '..' in a value of a text key is part of the value, not a range" {
	mkdir "$target/a" "$target/b" "$target/c"
	run --separate-stderr "$DBIO" sweep --rw=write --size=1m --vary directory="$target/a/../b,$target/c" \
		--output=s.json --format=csv
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(jpy s.json '[j["point"]["directory"] for j in r["jobs"]]')" = "[\"$target/a/../b\", \"$target/c\"]" ]
	# A numeric key's value with '..' must be a whole range.
	run --separate-stderr "$DBIO" sweep --size=1m --vary bs=4k..16k*2,32k --directory="$target"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "dbio: --vary bs=4k..16k*2,32k: bad range: expected A..B*F"* ]]
}

@test "sweep --vary: a key varied twice is refused, not overridden by the last" {
	run --separate-stderr "$DBIO" sweep --size=1m --vary bs=4k --vary bs=8k,16k --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: --vary bs=8k,16k: key 'bs' is varied twice (also --vary bs=4k): give all its values in one --vary" ]
	[ -z "$(ls -A "$target")" ]
}

@test "sweep --vary: an empty list item is refused, wherever it is" {
	run --separate-stderr "$DBIO" sweep --size=1m --vary bs=4k,,8k --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: --vary bs=4k,,8k: item 2 is empty: expected values separated by single commas, e.g. numjobs=1,2,4" ]
	run --separate-stderr "$DBIO" sweep --size=1m --vary bs=4k,8k, --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: --vary bs=4k,8k,: item 3 is empty: expected values separated by single commas, e.g. numjobs=1,2,4" ]
	run --separate-stderr "$DBIO" sweep --size=1m --vary numjobs=,1 --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: --vary numjobs=,1: item 1 is empty: expected values separated by single commas, e.g. numjobs=1,2,4" ]
	[ -z "$(ls -A "$target")" ]
}

# fill DIR: write zeros into DIR/fill until its filesystem is full.
fill() {
	dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null || true
}

@test "sweep --output on a full filesystem: says the file could not be written, not that the points are there" {
	mount_tmpfs "$scratch/full" 64k
	fill full
	run --separate-stderr "$DBIO" sweep --rw=read --size=1m --vary bs=4k,8k --directory="$target" --output=full/s.json
	echo "$stderr"
	[ "$status" -eq 1 ]
	[ -z "$(grep 'are in' <<<"$stderr")" ]
	[ "$(tail -1 <<<"$stderr")" = "dbio: full/s.json: cannot write: No space left on device: the finished points are not saved" ]
	[ ! -e full/s.json ]
	[ -z "$(ls -A "$target")" ]
}

# A result file is input anyone who can write it may have edited: nothing
# in its argv may make a resume read or write a path the command line did
# not name (issue 25, break 2). $R: a 2-point sweep (in the default
# directory, ./dbio-scratch, unless ARG... says) stopped after point 1.
resume_setup() {
	R=$scratch/s.json
	run --separate-stderr "$DBIO" sweep --rw=read --size=64k --vary bs=4k,8k "$@" --output="$R" --progress=none
	[ "$status" -eq 0 ]
	"$PYTHON" - "$R" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["sweep"]["completed"] = 1
r["jobs"] = r["jobs"][:1]
r["partial"] = True
json.dump(r, open(sys.argv[1], "w"))
PY
	echo precious >victim
}

@test "sweep --resume: a --series-csv in the file's argv is not taken: its file is untouched, and a note says so" {
	resume_setup
	resume_edit 'r["argv"].append("--series-csv=" + sys.argv[1].rsplit("/", 1)[0] + "/victim")'
	run --separate-stderr "$DBIO" sweep --resume bad.json --progress=none
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(head -1 <<<"$stderr")" = "dbio: sweep: bad.json: its argv's --series-csv=$scratch/victim is not taken from a result file: give --series-csv on the command line to write it" ]
	[ "$(cat victim)" = precious ]
	json_is bad.json sweep.completed=2 partial=false
	# The command line's --series-csv is written.
	run --separate-stderr "$DBIO" sweep --resume before.json --series-csv=mine.csv --progress=none
	[ "$status" -eq 0 ]
	[ "$(head -1 mine.csv)" = "job,run,thread,interval,end_s,duration_s,op,count,bytes,lat_mean_ns,lat_max_ns" ]
	[ "$(cat victim)" = precious ]
}

@test "sweep --resume: a log key, a job file, --force or another directory in the file's argv is refused, naming it" {
	resume_setup
	local k
	mkdir elsewhere
	printf 'root:$6$secret:20228:0:99999:7:::\n' >shadow
	local -a edits=(
		'r["argv"].append("--write_bw_log=" + sys.argv[1].rsplit("/", 1)[0] + "/victim")'
		'r["argv"].insert(2, sys.argv[1].rsplit("/", 1)[0] + "/shadow")'
		'r["argv"].append("--force")'
		'r["argv"].append("--directory=" + sys.argv[1].rsplit("/", 1)[0] + "/elsewhere")'
		'r["argv"].append("--pg_conninfo=host=/tmp")'
	)
	local -a want=(
		"dbio: sweep: bad.json: cannot resume: its argv holds '--write_bw_log=$scratch/victim', a key of free text (it may name a path): a resume takes that only from the command line: give it again after --resume bad.json"
		"dbio: sweep: bad.json: cannot resume: its argv holds '$scratch/shadow', a job file: a resume takes that only from the command line: give it again after --resume bad.json"
		"dbio: sweep: bad.json: cannot resume: its argv holds '--force', an override of the target checks: a resume takes that only from the command line: give it again after --resume bad.json"
		"dbio: sweep: bad.json: cannot resume: its argv holds '--directory=$scratch/elsewhere', a key of free text (it may name a path): a resume takes that only from the command line: give it again after --resume bad.json"
		"dbio: sweep: bad.json: cannot resume: its argv holds '--pg_conninfo=host=/tmp', a key of free text (it may name a path): a resume takes that only from the command line: give it again after --resume bad.json"
	)
	# A build without libpq has no pg_conninfo: refused all the same, as
	# a key it does not know.
	in_build workload=postgres ||
		want[4]="dbio: sweep: bad.json: cannot resume: its argv holds '--pg_conninfo=host=/tmp', a key this dbio does not know (it may name a path): a resume takes that only from the command line: give it again after --resume bad.json"
	for k in "${!edits[@]}"; do
		resume_edit "${edits[$k]}"
		run --separate-stderr "$DBIO" sweep --resume bad.json
		[ "$status" -eq 2 ] || { echo "${edits[$k]}: exit $status: $stderr"; false; }
		[ "$stderr" = "${want[$k]}" ] || { echo "${edits[$k]}: $stderr"; false; }
		cmp bad.json before.json
		[ "$(cat victim)" = precious ]
		[ -z "$(ls -A elsewhere)" ]
		[ ! -e dbio-scratch ]
	done
	# Nothing of the file that is no job file reaches the message.
	resume_edit 'r["argv"].insert(2, sys.argv[1].rsplit("/", 1)[0] + "/shadow")'
	run --separate-stderr "$DBIO" sweep --resume bad.json "$scratch/shadow"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: sweep: bad.json: cannot resume: $scratch/shadow:1: not a key: expected '[section]', 'key=value' or a bare key of letters, digits, '_' and '-' (the text is not shown: it may be from a file that is no job file)" ]
}

@test "sweep --resume: the command line may give only what may name a path, and the same as the file's argv" {
	resume_setup --directory="$target"
	cp "$R" before.json
	run --separate-stderr "$DBIO" sweep --resume "$R" --directory="$scratch"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: sweep: $R: cannot resume: its argv holds '--directory=$target', a key of free text (it may name a path): a resume takes that only from the command line: give it again after --resume $R" ]
	run --separate-stderr "$DBIO" sweep --resume "$R" --directory="$target" --write_bw_log=victim
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: sweep: $R: cannot resume: the command line gives '--write_bw_log=victim', which its argv does not hold: a resume runs the sweep the file recorded" ]
	run --separate-stderr "$DBIO" sweep --resume "$R" --directory="$target" --size=1m
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: sweep --resume: '--size=1m': the file's argv gives the sweep's keys of numbers, sizes, durations and choices; the command line only what may name a path (job files, keys of free text, --force)" ]
	run --separate-stderr "$DBIO" sweep --resume "$R" --output=victim
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: sweep --resume: takes no --output: the result file is rewritten in place" ]
	cmp "$R" before.json
	[ "$(cat victim)" = precious ]
	[ -z "$(ls -A "$target")" ]
}

@test "sweep --resume onto a full filesystem: says how many finished points the old file still holds" {
	run --separate-stderr "$DBIO" sweep --rw=read --size=1m --vary bs=4k,8k --directory="$target" --output=s.json
	[ "$status" -eq 0 ]
	mount_tmpfs "$scratch/full" 1m
	# The file as a sweep killed after its first point leaves it.
	"$PYTHON" - <<'PY'
import json
r = json.load(open("s.json"))
r["sweep"]["completed"] = 1
r["jobs"] = r["jobs"][:1]
r["partial"] = True
json.dump(r, open("full/s.json", "w"))
PY
	fill full
	run --separate-stderr "$DBIO" sweep --resume full/s.json --directory="$target"
	echo "$stderr"
	[ "$status" -eq 1 ]
	[ "$(tail -1 <<<"$stderr")" = "dbio: full/s.json: cannot write: No space left on device: it holds 1 of the 2 finished points; \`dbio sweep --resume full/s.json --directory=$target\` goes on from there" ]
	[ "$(jpy full/s.json 'r["sweep"]["completed"]')" -eq 1 ]
}

@test "sweep: SIGKILLed after 1 of 3 points, its file says partial with 1 point completed" {
	R=$scratch/k.json
	start_held_sweep --rw=randread --size=4m --runtime=200ms --time_based --vary numjobs=1,2,3 \
		--directory="$target" --output="$R"
	kill -KILL "$bg_pid"
	wait "$bg_pid" || true
	bg_pid=
	[ "$(jpy "$R" 'r["sweep"]["completed"]')" -eq 1 ]
	[ "$(jpy "$R" 'r["partial"]')" = true ]
	[ "$(jpy "$R" '"error" in r')" = false ]
	[ "$(jpy "$R" 'r["sweep"]["points"]')" -eq 3 ]
}

@test "sweep: a signal after the last point's runs: exit 0 and a file that says complete" {
	# Standard output is a pipe already full, so dbio, which prints its
	# table after writing the file of its last point, is still there to
	# be signalled when that file says every point is done.
	mkfifo out
	exec 5<>out
	filled=$("$PYTHON" -c '
import fcntl, os
fl = fcntl.fcntl(5, fcntl.F_GETFL)
fcntl.fcntl(5, fcntl.F_SETFL, fl | os.O_NONBLOCK)
n = 0
try:
    while True:
        n += os.write(5, b"x" * 4096)
except BlockingIOError:
    pass
fcntl.fcntl(5, fcntl.F_SETFL, fl)
print(n)
')
	"$DBIO" sweep --rw=read --size=1m --vary bs=4k,8k --directory="$target" --output=s.json >&5 2>err.txt &
	bg_pid=$!
	wait_until grep -q '"completed": 2,\?$' s.json
	kill -INT "$bg_pid"
	head -c "$filled" <&5 >/dev/null # room for the table, should dbio still be writing it
	rc=0
	wait "$bg_pid" || rc=$?
	exec 5>&-
	cat err.txt
	[ "$rc" -eq 0 ]
	[ "$(jpy s.json 'r["partial"]')" = false ]
	[ "$(jpy s.json 'r["sweep"]["completed"]')" -eq 2 ]
}

@test "sweep: control characters in a result's job names are escaped in the table" {
	run --separate-stderr "$DBIO" sweep --rw=read --size=1m --vary bs=4k,8k --directory="$target" --output=s.json
	[ "$status" -eq 0 ]
	"$PYTHON" - <<'PY'
import json
r = json.load(open("s.json"))
r["system"]["hostname"] = "host\x1b[31m\u009b"
for j in r["jobs"]:
    j["name"] = "job\x1b[31m\u009bx"
json.dump(r, open("s.json", "w"))
PY
	run --separate-stderr "$DBIO" sweep --resume s.json --directory="$target"
	[ "$status" -eq 0 ]
	[ "$(printf '%s%s' "$output" "$stderr" | grep -c $'\x1b')" -eq 0 ]
	[ "$(printf '%s' "$output" | grep -c $'\xc2\x9b')" -eq 0 ]
	[ "$(grep -c ' job\\x1b\[31m\\u009bx  *read ' <<<"$output")" -eq 2 ]
}

@test "sweep, run: a job name with control characters is refused at input" {
	run --separate-stderr "$DBIO" sweep --size=1m --name=$'a\x1b[31m' --vary bs=4k,8k --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'name': bad value 'a\x1b[31m': expected a name of UTF-8 text without control characters (job 'a\x1b[31m')" ]
	printf '[one\x9b]\nrw=read\nsize=1m\n' >c1.fio
	run --separate-stderr "$DBIO" run c1.fio --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: c1.fio:1: key 'name': bad value 'one\x9b': expected a name of UTF-8 text without control characters (job 'one\x9b')" ]
	printf '[two]\nname=t\twice\nrw=read\nsize=1m\n' >tab.fio
	run --separate-stderr "$DBIO" run tab.fio --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: tab.fio:2: key 'name': bad value 't\x09wice': expected a name of UTF-8 text without control characters (job 't\x09wice')" ]
	[ -z "$(ls -A "$target")" ]
}

@test "sweep: the progress line keeps its own terminal escapes (\\r ESC [K) while the notes are escaped" {
	run --separate-stderr "$DBIO" sweep --rw=read --size=1m --runtime=2s --time_based --progress=line \
		--vary bs=4k --directory="$target"
	[ "$status" -eq 0 ]
	[ "$(grep -c $'\r\x1b\\[K' <<<"$stderr")" -ge 1 ]
	grep -q '^dbio: point 1 of 1: bs=4k$' <<<"$stderr"
}

@test "sweep --output onto a FIFO: one JSON document at the end, not one per point" {
	mkfifo "$scratch/fifo"
	cat "$scratch/fifo" >"$scratch/got" &
	bg_pid=$!
	run --separate-stderr "$DBIO" sweep --rw=read --size=64k --vary bs=4k,8k,16k --directory="$target" \
		--output "$scratch/fifo" --progress=none
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ -p "$scratch/fifo" ]
	wait "$bg_pid"
	bg_pid=
	# One document (json.load refuses trailing data) with every point.
	json_is "$scratch/got" sweep.completed=3 partial=false
	[ "$(jpy "$scratch/got" 'len(r["jobs"])')" -eq 3 ]
}

@test "sweep --resume F --format json: the format of this command line wins over the recorded one" {
	run --separate-stderr "$DBIO" sweep --rw=read --size=64k --vary bs=4k,8k --directory="$target" \
		--output "$result" --progress=none
	[ "$status" -eq 0 ]
	run --separate-stderr "$DBIO" sweep --resume "$result" --format json --directory="$target"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	printf '%s\n' "$output" >"$scratch/out.json"
	json_is "$scratch/out.json" sweep.completed=2 jobs.1.point.bs=8k
}

@test "sweep with repeats: worst is a mean ± CI over the runs and says so; a spread has its mean's precision; page cache said once" {
	run --separate-stderr "$DBIO" sweep --rw=write --size=1m --bs=4k --vary numjobs=1,2 --repeat=2 \
		--log_interval=64ops --metric iops,worst,sys --directory="$target" --output "$result"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	echo "$output"
	grep -qE '^numjobs  job  op +ops/s +worst interval +sys s$' <<<"$output"
	# Each row: iops and worst as mean ± CI; sys (s, 2 decimals) with a
	# spread of 2 decimals too.
	[ "$(grep -cE '^[12] +job +write +[0-9.]+ ± [0-9.]+ +[0-9.]+ [mun]?s ± [0-9.]+ [mun]?s +[0-9]+\.[0-9]{2}( ± [0-9]+\.[0-9]{2})?$' <<<"$output")" -eq 2 ]
	grep -qx 'a figure with ± is the mean of the point'"'"'s complete runs ± its 95 % CI' <<<"$output"
	[ "$(grep -c '^warning: page cache: ' <<<"$output")" -eq 1 ]
	# The worst cell is the mean of the runs' worst intervals.
	want=$(jpy "$result" "sum(x['series']['worst'][0]['duration_ns'] for x in r['jobs'][0]['runs']) / 2")
	run --separate-stderr "$DBIO" compare "$result" --metric worst --format csv
	[ "$status" -eq 0 ]
	got=$(grep '^1,job,all,' <<<"$output" | cut -d, -f4)
	awk -v a="$got" -v b="$want" 'BEGIN { exit !(a == b) }' || { echo "$got vs $want"; false; }
}
