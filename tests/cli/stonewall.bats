#!/usr/bin/env bats
# stonewall_s and stonewall_wearout in one process (docs/mpi.md: IOR's
# stonewalling; tests/cli/mpi.bats runs them over ranks): the stonewall
# cuts a job bound by size short, in the synchronous and the queued loop
# of fileio, and records what was done by then; bad values, and the keys
# for a workload that does not honour them, are refused before any I/O.

# serial: the stonewall must stop a rate-bound job within 0.5 s of its
# time, which other bats files running beside it on 2 cores can stretch.

load helpers

# A job that would take 40 s (4096 reads at 100 per second), cut at 1 s.
SLOW=(--rw=read --bs=4k --size=16m --rate_iops=100 --stonewall_s=1 --progress=none)

# engines_to_try: psync, and the first queued engine of the build, if any.
engines_to_try() {
	echo psync
	queued_engines_of_build | head -n 1
}

@test "stonewall: stonewall_s cuts a job bound by size short at 1 s, in both loops" {
	rate_bound
	for eng in $(engines_to_try); do
		dbio_ok --directory="$target" --ioengine="$eng" --iodepth=1 "${SLOW[@]}"
		n=$(jpy "$result" 'run["ops"]["read"]["count"]')
		# 100 reads a second for 1 s: the rate's schedule, give or take one
		[ "$n" -ge 90 ]
		[ "$n" -le 101 ]
		json_is "$result" "$R0.partial=false" "$R0.stonewall.at_ns=1000000000" \
			"$R0.stonewall.wearout=false" "$R0.stonewall.ops=$n" "$R0.stonewall.bytes=$((n * 4096))" \
			"$R0.stonewall.target_ops=$n"
		# measured from the start to the stonewall: at least 1 s; at most
		# one rate slot (10 ms) and a loaded machine's scheduling (0.49 s) more
		elapsed=$(jpy "$result" 'run["elapsed_ns"]')
		[ "$elapsed" -ge 990000000 ]
		[ "$elapsed" -lt 1500000000 ]
		passed=$(jpy "$result" 'run["stonewall"]["passed_ns"]')
		[ "$passed" -ge 1000000000 ]
		rate=$(jpy "$result" 'run["stonewall"]["bw_bytes"] == run["stonewall"]["bytes"] and run["stonewall"]["iops"] == run["stonewall"]["ops"]')
		[ "$rate" = true ]
		is_empty_dir "$target"
	done
}

@test "stonewall: with stonewall_wearout alone the agreed work is the process's own, split over numjobs" {
	rate_bound
	dbio_ok --directory="$target" --numjobs=2 --stonewall_wearout=1 "${SLOW[@]}"
	n=$(jpy "$result" 'run["ops"]["read"]["count"]')
	[ "$n" -ge 180 ]
	[ "$n" -le 202 ]
	json_is "$result" "$R0.threads=2" "$R0.stonewall.wearout=true" "$R0.stonewall.ops=$n" \
		"$R0.stonewall.target_ops=$n"
	elapsed=$(jpy "$result" 'run["elapsed_ns"]')
	[ "$elapsed" -lt 1500000000 ]
}

@test "stonewall: a job that ends before its stonewall ends as usual" {
	rate_bound
	dbio_ok --directory="$target" --rw=read --bs=4k --size=1m --stonewall_s=60 --progress=none
	json_is "$result" "$R0.ops.read.count=256" "$R0.stonewall.ops=256" "$R0.stonewall.target_ops=256"
	elapsed=$(jpy "$result" 'run["elapsed_ns"]')
	[ "$elapsed" -lt 60000000000 ]
}

@test "stonewall: the text report gives the work done by the stonewall and its rate" {
	rate_bound
	run --separate-stderr "$DBIO" run --directory="$target" --output="$result" "${SLOW[@]}"
	[ "$status" -eq 0 ]
	[[ "$output" == *"stonewall_s=1.00 s"* ]]
	n=$(jpy "$result" 'run["stonewall"]["ops"]')
	line=$(grep -E "^    stonewall at 1\.00 s \(passed at 1\.[0-9]{3} s\): $n reads and writes done, stonewall rate $n\.0 ops/s, [0-9.]+ MiB/s$" <<<"$output")
	[ -n "$line" ]
}

@test "stonewall: bad values are refused with the key named, exit 2, before any I/O" {
	refused_file --stonewall_wearout=1 \
		"dbio: command line: key 'stonewall_wearout': needs stonewall_s: the wear-out starts at the stonewall, e.g. stonewall_s=10s (job 'job')"
	refused_file --stonewall_s=0 \
		"dbio: command line: key 'stonewall_s': must be more than 0: a duration such as 10 or 10s (seconds), 500ms; leave it out for no stonewall (job 'job')"
	refused_file --stonewall_s=-1 \
		"dbio: command line: key 'stonewall_s': bad value '-1': expected a duration with a suffix ns, us, ms, s, m or h (a bare number is in seconds), e.g. 30s"
	refused_file --stonewall_s=abc \
		"dbio: command line: key 'stonewall_s': bad value 'abc': expected a duration with a suffix ns, us, ms, s, m or h (a bare number is in seconds), e.g. 30s"
	refused_file --stonewall_s=1 \
		"dbio: command line: key 'stonewall_s': 1.00 s is within ramp_time=2.00 s: the stonewall counts from the start, ramp included, and would stop the job before it measured anything (job 'job')" \
		--ramp_time=2
	# in a job file, at its line: errors.bats (jobs/stonewall-wearout-alone.fio)
}

@test "stonewall: a workload that does not stop at a stonewall refuses the keys" {
	for wl in $(workloads_of_build); do
		[ "$wl" = fileio ] && continue
		refused_file --workload="$wl" \
			"dbio: command line: key 'stonewall_s': not for workload=$wl: only workload=fileio stops its I/O at a stonewall (job 'job')" \
			--stonewall_s=1
	done
}

@test "stonewall: a result with a stonewall validates against docs/result.schema.json" {
	python3 -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null ||
		skip "python3 with jsonschema >= 4 (Draft 2020-12) is not installed: python3-jsonschema"
	dbio_ok --directory="$target" --stonewall_wearout=1 "${SLOW[@]}"
	json_has "$result" "$R0.stonewall"
	run python3 - "$BATS_TEST_DIRNAME/../../docs/result.schema.json" "$result" <<'PY'
import json, sys, jsonschema
V = jsonschema.Draft202012Validator
v = V(json.load(open(sys.argv[1])), format_checker=V.FORMAT_CHECKER)
errors = ["/%s: %s" % ("/".join(map(str, e.absolute_path)), e.message[:300])
          for e in v.iter_errors(json.load(open(sys.argv[2])))]
print("\n".join(errors))
sys.exit(1 if errors else 0)
PY
	echo "$output"
	[ "$status" -eq 0 ]
}
