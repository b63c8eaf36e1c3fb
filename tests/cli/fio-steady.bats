#!/usr/bin/env bats
# fio's steady state, with fio's meaning (docs/fio.md, "Steady state"):
# steadystate=MODE:LIMIT with steadystate_duration stops a job once the
# samples of its last window settle, or lets it run its runtime and says it
# did not; both side by side with fio 3.33 on the same job file (both
# attain, or neither); with group_reporting the jobs of a reporting group
# are judged together; the result's samples, criterion and units, fio's
# JSON view and the text line; and the forms dbio refuses, each with its
# reason. The arithmetic is tests/unit/test_steady.c's.

# serial: a steady 500 IOPS must settle within 5 %, which bats files
# running beside it on the same CPUs would unsettle (tests/run-all).

load helpers

# fpy FILE EXPR: prints the Python expression EXPR evaluated with r = the
# JSON of FILE (fio's, which jpy does not read) and ss = its first job's
# steadystate object.
fpy() {
	"$PYTHON" -c 'import json, sys
r = json.load(open(sys.argv[1]))
ss = r["jobs"][0].get("steadystate")
v = eval(sys.argv[2])
print(v if isinstance(v, str) else json.dumps(v))' "$1" "$2"
}

# fio_attains FILE WANT: fio 3.33 (skipped, saying why, without it) runs
# FILE in $target, its JSON in fio.json; its first job's
# steadystate.attained must be WANT (1 or 0).
fio_attains() {
	command -v fio >/dev/null || skip "fio is not installed (scripts/install-deps installs it)"
	rm -rf "$target" && mkdir "$target"
	fio --directory="$target" --output-format=json --output=fio.json "$1" >/dev/null
	[ "$(fpy fio.json 'ss["attained"]')" = "$2" ]
}

# holds EXPR: the Python expression EXPR (jpy's r and run) is true of the
# result; says which one when it is not.
holds() {
	[ "$(jpy "$result" "$1")" = true ] || {
		echo "not true of the result: $1" >&2
		return 1
	}
}

@test "a job at a steady 500 IOPS attains iops:5% over 3 s and stops, well before its 30 s runtime; fio 3.33 too" {
	rate_bound
	printf '[steady]\nrw=read\nsize=1m\ninvalidate=0\ntime_based\nruntime=30\nrate_iops=500\nss=iops:5%%\nss_dur=3\n' >j.fio
	dbio_ok j.fio --directory="$target"
	json_is "$result" "$R0.steadystate.attained=true" "$R0.steadystate.mode=iops" "$R0.steadystate.limit=5.0" \
		"$R0.steadystate.limit_unit=%" "$R0.steadystate.criterion_unit=%" "$R0.steadystate.unit=IOPS" \
		"$R0.steadystate.duration_ns=3000000000" "$R0.steadystate.interval_ns=1000000000" "$R0.partial=false"
	# the window: 3 samples of 500 IOPS within 5 % of their mean, their
	# bandwidth 4 KiB each
	[ "$(jpy "$result" 'len(run["steadystate"]["window"]["iops"])')" = 3 ]
	holds 'all(475 <= x <= 525 for x in run["steadystate"]["window"]["iops"])'
	holds 'all(abs(b - 4096 * i) <= 4096 for b, i in zip(run["steadystate"]["window"]["bw_bytes_per_s"], run["steadystate"]["window"]["iops"]))'
	holds 'run["steadystate"]["criterion"] < 5'
	# attained at the third check (3 s into the job), stopped there: far
	# below the runtime of 30 s (the bound: half of it)
	holds '3e9 <= run["steadystate"]["attained_ns"] < 15e9'
	holds 'run["elapsed_ns"] < 15e9'
	holds 'abs(run["ops"]["read"]["count"] - run["elapsed_ns"] / 1e9 * 500) <= 25'
	fio_attains j.fio 1
	[ "$(fpy fio.json 'r["jobs"][0]["job_runtime"]')" -lt 15000 ]
}

@test "iops:0% is never attained: the job runs its whole runtime and says so; fio 3.33 neither" {
	rate_bound
	printf '[unsteady]\nrw=read\nsize=1m\ninvalidate=0\ntime_based\nruntime=3\nrate_iops=200\nss=iops:0%%\nss_dur=2\n' >j.fio
	dbio_ok j.fio --directory="$target"
	json_is "$result" "$R0.steadystate.attained=false" "$R0.steadystate.attained_ns=null"
	holds 'run["elapsed_ns"] >= 3e9'
	# a sample at 1, 2 and 3 s (the last may miss the end): judged, not met
	holds 'run["steadystate"]["samples_taken"] >= 2'
	holds 'run["steadystate"]["criterion"] >= 0'
	[ "$(jpy "$result" 'len(run["steadystate"]["window"]["iops"])')" = 2 ]
	fio_attains j.fio 0
	[ "$(fpy fio.json 'r["jobs"][0]["job_runtime"]')" -ge 3000 ]
}

@test "with group_reporting two jobs of a group are judged together: the window holds their sum, both stop; as fio's" {
	rate_bound
	printf '[global]\nrw=read\nsize=1m\ninvalidate=0\ntime_based\nruntime=30\nrate_iops=300\ngroup_reporting\nss=iops_slope:5%%\nss_dur=2\n[a]\n[b]\n' >j.fio
	dbio_ok j.fio --directory="$target"
	json_is "$result" "$R0.steadystate.attained=true" "jobs.1.runs.0.steadystate.attained=true" \
		"$R0.steadystate.mode=iops_slope" "$R0.steadystate.criterion_unit=% per interval"
	holds 'all(570 <= x <= 630 for x in run["steadystate"]["window"]["iops"])'
	holds 'run["steadystate"]["window"] == r["jobs"][1]["runs"][0]["steadystate"]["window"]'
	holds 'max(j["runs"][0]["elapsed_ns"] for j in r["jobs"]) < 15e9'
	fio_attains j.fio 1
	[ "$(fpy fio.json 'all(570 <= x <= 630 for x in ss["data"]["iops"])')" = true ]
}

@test "lat mode, steadystate_check_interval and steadystate_ramp_time (fio after 3.33): samples after the ramp, one per interval" {
	rate_bound
	printf '[lat]\nrw=read\nsize=1m\ninvalidate=0\ntime_based\nruntime=30\nrate_iops=200\nsteadystate=lat:1ms\nsteadystate_duration=4\nsteadystate_check_interval=2\nsteadystate_ramp_time=1\n' >j.fio
	dbio_ok j.fio --directory="$target"
	# the mean latencies of page-cached reads stay well within 1 ms of
	# each other; a percentage would trip over one slow read
	json_is "$result" "$R0.steadystate.attained=true" "$R0.steadystate.mode=lat" "$R0.steadystate.unit=ns" \
		"$R0.steadystate.limit=1000000.0" "$R0.steadystate.limit_unit=ns" \
		"$R0.steadystate.samples_from_ns=2000000000" "$R0.steadystate.interval_ns=2000000000"
	# the ramp of 1 s rounds up to the first whole interval: samples of
	# 2-4 s and 4-6 s, attained with the second
	[ "$(jpy "$result" 'len(run["steadystate"]["window"]["lat_ns"])')" = 2 ]
	holds 'all(x > 0 for x in run["steadystate"]["window"]["lat_ns"])'
	holds '6e9 <= run["steadystate"]["attained_ns"] < 15e9'
}

@test "fio's JSON view and the text report show the steady state" {
	printf '[steady]\nrw=read\nsize=1m\ninvalidate=0\ntime_based\nruntime=30\nrate_iops=500\nss=bw:10%%\nss_dur=2\n' >j.fio
	run --separate-stderr "$DBIO" run j.fio --directory="$target" --output-format=json
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >fio.json
	json_is fio.json jobs.0.steadystate.ss=bw:10.000000% jobs.0.steadystate.duration=2 \
		jobs.0.steadystate.attained=1
	[ "$(fpy fio.json 'len(ss["data"]["bw"])')" = 2 ]
	[ "$(fpy fio.json 'ss["criterion"].endswith("%")')" = true ]
	[ "$(fpy fio.json 'abs(ss["data"]["iops_mean"] - 500) <= 25')" = true ]
	run --separate-stderr "$DBIO" run j.fio --directory="$target"
	[ "$status" -eq 0 ]
	line=$(printf '%s\n' "$output" | grep 'steady state:')
	[[ $line =~ ^\ +steady\ state:\ bw:10%\ attained\ after\ [0-9.]+\ s:\ largest\ deviation\ [0-9.]+\ %\ of\ the\ mean,\ mean\ [0-9.]+\ MiB/s,\ 2\ samples\ of\ 1\.00\ s$ ]] || {
		echo "$line" >&2
		false
	}
}

@test "refused with the reason: bad modes and limits, windows against the interval, numjobs alone, groups that disagree, oltp" {
	printf '[j]\nsize=64k\nss=foo:5\nss_dur=3\n' >j.fio
	refused_file j.fio "dbio: j.fio:3: key 'steadystate': bad value 'foo:5': unknown mode 'foo': expected MODE:LIMIT, MODE one of iops, iops_slope, bw, bw_slope, lat, lat_slope, LIMIT a number (IOPS; bytes per second for bw, k, m, g binary; a time for lat, bare in microseconds) or N% of the window's mean, e.g. iops:10% or bw_slope:1m (job 'j')"
	printf '[j]\nsize=64k\nss=iops\nss_dur=3\n' >j.fio
	refused_file j.fio "dbio: j.fio:3: key 'steadystate': bad value 'iops': a limit is needed after the mode, as in fio: expected MODE:LIMIT, MODE one of iops, iops_slope, bw, bw_slope, lat, lat_slope, LIMIT a number (IOPS; bytes per second for bw, k, m, g binary; a time for lat, bare in microseconds) or N% of the window's mean, e.g. iops:10% or bw_slope:1m (job 'j')"
	printf '[j]\nsize=64k\nss=bw:fast\n' >j.fio
	refused_file j.fio "dbio: j.fio:3: key 'steadystate': bad value 'bw:fast': bad limit 'fast': expected MODE:LIMIT, MODE one of iops, iops_slope, bw, bw_slope, lat, lat_slope, LIMIT a number (IOPS; bytes per second for bw, k, m, g binary; a time for lat, bare in microseconds) or N% of the window's mean, e.g. iops:10% or bw_slope:1m (job 'j')"
	printf '[j]\nsize=64k\nss=iops_slope:x%%\n' >j.fio
	refused_file j.fio "dbio: j.fio:3: key 'steadystate': bad value 'iops_slope:x%': bad limit 'x%': expected MODE:LIMIT, MODE one of iops, iops_slope, bw, bw_slope, lat, lat_slope, LIMIT a number (IOPS; bytes per second for bw, k, m, g binary; a time for lat, bare in microseconds) or N% of the window's mean, e.g. iops:10% or bw_slope:1m (job 'j')"
	printf '[j]\nsize=64k\nss=iops:5%%\nss_dur=1500ms\n' >j.fio
	refused_file j.fio "dbio: j.fio:4: key 'steadystate_duration': 1.50 s: expected a whole number of at least 2 steadystate_check_interval (1.00 s), as in fio: the window holds one sample per interval (job 'j')"
	printf '[j]\nsize=64k\nss=iops:5%%\nss_dur=1\n' >j.fio
	refused_file j.fio "dbio: j.fio:4: key 'steadystate_duration': 1.00 s: expected a whole number of at least 2 steadystate_check_interval (1.00 s), as in fio: the window holds one sample per interval (job 'j')"
	printf '[j]\nsize=64k\nss=iops:5%%\nss_dur=2\nss_interval=500ms\n' >j.fio
	refused_file j.fio "dbio: j.fio:5: key 'steadystate_check_interval': 500 ms: too short: at least 1 s, as in fio (job 'j')"
	printf '[j]\nsize=64k\nnumjobs=2\nss=iops:5%%\nss_dur=2\n' >j.fio
	refused_file j.fio "dbio: j.fio:5: key 'steadystate_duration': with numjobs=2 and no group_reporting fio judges each thread alone, which dbio does not do: it judges a job's threads together, as fio does with group_reporting; add group_reporting (job 'j')"
	printf '[a]\nsize=64k\nss=iops:5%%\nss_dur=2\n[b]\nsize=64k\n' >j.fio
	refused_file j.fio "dbio: j.fio:5: key 'steadystate': differs from job 'a' of the same reporting group: as fio, the jobs of a group must agree on steadystate, steadystate_duration and steadystate_ramp_time (or start a new group: new_group, stonewall) (job 'b')"
	printf '[a]\nsize=64k\nss=iops:5%%\nss_dur=2\n[b]\nnew_group\nsize=64k\nss=iops:5%%\nss_dur=4\nss_interval=2\n' >j.fio
	refused_file j.fio "dbio: j.fio:10: key 'steadystate_check_interval': differs from job 'a': fio takes one check interval for every job (job 'b')"
	printf '[j]\nworkload=oltp\ntime_based\nruntime=1\nsize=1m\nss=iops:5%%\nss_dur=2\n' >j.fio
	refused_file j.fio "dbio: j.fio:7: key 'steadystate_duration': not for workload=oltp (yet): only workload=fileio takes steady-state samples (job 'j')"
	# fio refuses these too; and without ss_dur the other keys are parsed
	# and do nothing, as in fio
	dbio_ok --directory="$target" --size=64k --ss=bw_slope:1m --ss_ramp=5
	json_is "$result" jobs.0.options.steadystate=bw_slope:1m jobs.0.options.steadystate_duration=0
	[ "$(jpy "$result" '"steadystate" in run')" = false ]
}

@test "the result validates against docs/result.schema.json: a window attained, and one that never filled (its figures null)" {
	python3 -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null ||
		skip "python3 with jsonschema >= 4 (Draft 2020-12) is not installed"
	printf '[global]\nrw=read\nsize=1m\ninvalidate=0\ntime_based\nrate_iops=500\n[a]\nruntime=30\nss=iops:10%%\nss_dur=2\n[b]\nnew_group\nruntime=1\nss=iops:10%%\nss_dur=3\n' >j.fio
	dbio_ok j.fio --directory="$target"
	json_is "$result" "$R0.steadystate.attained=true" "jobs.1.runs.0.steadystate.attained=false" \
		"jobs.1.runs.0.steadystate.criterion=null" "jobs.1.runs.0.steadystate.mean=null"
	python3 - "$BATS_TEST_DIRNAME/../../docs/result.schema.json" "$result" <<'PY'
import json, sys, jsonschema
V = jsonschema.Draft202012Validator
errors = list(V(json.load(open(sys.argv[1])), format_checker=V.FORMAT_CHECKER).iter_errors(json.load(open(sys.argv[2]))))
for e in errors:
    print("/%s: %s" % ("/".join(map(str, e.absolute_path)), e.message[:300]))
sys.exit(1 if errors else 0)
PY
}
