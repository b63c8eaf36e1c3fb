#!/usr/bin/env bats
# fio's latency target: the search for the deepest queue whose I/Os meet a
# latency, its last window, its result, and its failure at depth 1.

# serial: fio's own runtime of a 100 ms window is held to a bound, which
# bats files running beside it on the same CPUs stretch (tests/run-all).

load helpers

# depth FILE: "depth_min depth_max elapsed_ms" of a result's first run.
depth() {
	"$PYTHON" - "$1" <<'EOF2'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["runs"][0]
lt = r["latency_target"]
print(lt["depth_min"], lt["depth_max"], r["elapsed_ns"] // 1000000)
EOF2
}

@test "fio latency target: a target every depth meets ends at iodepth after one last window, as fio" {
	rate_bound
	engines_of_build | grep -qx io_uring || skip "io_uring is not in this build (liburing)"
	# the page cache answers in microseconds: every depth meets 10 s
	printf '[j]\nioengine=io_uring\nrw=randread\nbs=4k\nsize=4m\niodepth=16\ntime_based\nruntime=30\nlatency_target=10s\nlatency_window=100ms\n' >j.fio
	dbio_ok j.fio --directory="$target"
	read -r lo hi ms < <(depth "$result")
	echo "depth $lo-$hi, last window $ms ms"
	[ "$lo" -eq 16 ]
	[ "$hi" -eq 16 ]
	# depths 1 2 4 8 16, 16 again, then the last window: measured alone
	[ "$ms" -ge 100 ]
	[ "$ms" -lt 600 ]
	json_is "$result" "jobs.0.runs.0.latency_target.target_ns=10000000000" \
		"jobs.0.runs.0.latency_target.window_ns=100000000" "jobs.0.runs.0.latency_target.percentile=100.0"
	# fio's JSON view: its names and units (the window in microseconds)
	rm -rf "$target" && mkdir "$target"
	"$DBIO" run j.fio --directory="$target" --output-format=json >fio-view.json 2>/dev/null
	"$PYTHON" -c 'import json,sys; j=json.load(open("fio-view.json"))["jobs"][0]; print(j["latency_depth"], j["latency_target"], j["latency_window"], j["latency_percentile"])' >view
	[ "$(cat view)" = "16 10000000000 100000 100.0" ]
	# the result validates against docs/result.schema.json
	if "$PYTHON" -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null; then
		"$PYTHON" -c 'import json,sys,jsonschema
for e in jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).iter_errors(json.load(open(sys.argv[1]))):
    sys.exit(e.message[:300])' "$result" "$BATS_TEST_DIRNAME/../../docs/result.schema.json"
	fi
	command -v fio >/dev/null || skip "fio is not installed (scripts/install-deps installs it)"
	rm -rf "$target" && mkdir "$target"
	fio --directory="$target" --output-format=json --output=fio.json j.fio >/dev/null
	# fio too ends after one last window at depth 16; its runtime is its
	# own clock's (100 ms on a quiet machine, CI once saw more), so it
	# gets dbio's bound
	read -r fdepth fms < <("$PYTHON" -c 'import json,sys; j=json.load(open("fio.json"))["jobs"][0]; print(j["latency_depth"], j["job_runtime"])')
	echo "fio: depth $fdepth, runtime $fms ms"
	[ "$fdepth" -eq 16 ]
	[ "$fms" -ge 100 ]
	[ "$fms" -lt 600 ]
}

@test "fio latency target: with latency_run the search goes on for the runtime" {
	rate_bound
	engines_of_build | grep -qx io_uring || skip "io_uring is not in this build (liburing)"
	printf '[j]\nioengine=io_uring\nrw=randread\nbs=4k\nsize=4m\niodepth=8\ntime_based\nruntime=1\nlatency_target=10s\nlatency_window=50ms\nlatency_run=1\n' >j.fio
	dbio_ok j.fio --directory="$target"
	read -r lo hi ms < <(depth "$result")
	[ "$lo" -eq 8 ]
	[ "$hi" -eq 8 ]
	[ "$ms" -ge 990 ]
}

@test "fio latency target: an I/O over the target at depth 1 fails the job, as fio" {
	rate_bound
	engines_of_build | grep -qx io_uring || skip "io_uring is not in this build (liburing)"
	printf '[j]\nioengine=io_uring\nrw=randread\nbs=4k\nsize=4m\niodepth=16\nlatency_target=1ns\n' >j.fio
	run --separate-stderr "$DBIO" run j.fio --directory="$target" --output="$result"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"dbio: job 'j' thread 0: latency_target=1 ns not met at queue depth 1: a read took "* ]]
}

@test "fio latency target: what it cannot do is refused with the reason" {
	printf '[j]\nioengine=psync\nsize=1m\nlatency_target=1ms\n' >sync.fio
	# "ioengine=a, b or c", as engine_list_queued writes it
	queued=$(queued_engines_of_build | sed 's/^/ioengine=/;2,$s/^ioengine=//' | join_list ', ' | sed 's/\(.*\), /\1 or /')
	refused_file sync.fio "dbio: sync.fio:4: key 'latency_target': searches for a queue depth: it needs an engine that queues (${queued:-none in this build: see dbio --version}); ioengine=psync keeps one I/O in flight (job 'j')"
	printf '[j]\nsize=1m\nlatency_percentile=101\n' >pct.fio
	refused_file pct.fio "dbio: pct.fio:3: key 'latency_percentile': bad value '101': expected a percentage from 0 to 100 (job 'j')"
	printf '[j]\nsize=1m\nworkload=oltp\nnumjobs=2\ntime_based\nruntime=1\nlatency_target=1ms\n' >oltp.fio
	refused_file oltp.fio "dbio: oltp.fio:7: key 'latency_target': not for workload=oltp: it searches for a queue depth, and oltp keeps one I/O in flight per thread (job 'j')"
}
