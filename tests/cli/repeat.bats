#!/usr/bin/env bats
# repeat=auto: at least 3 runs, then more until the 95 % CI of the headline
# figure is within repeat_ci of its mean, or repeat_max runs, or
# repeat_time; every run kept, and the result and the text say why it
# stopped. The noise is made, not hoped for: rate_iops paces the writes
# (100 at 500/s: 198 ms a run, steady on a loaded machine), and DBIO_FAULT's
# slow fault stalls the last write of the first run by 200 ms.
# serial: a quiet job must stop at 3 runs with its CI within 25 %: a run
# another file's burst delays by 50 ms (seen at load 6, CI 2026-12-02)
# makes it run more.

load helpers

setup() { dbio_setup; }
teardown() { dbio_teardown; }

JOB=(--ioengine=psync --rw=write --size=400k --bs=4k --rate_iops=500 --repeat=auto)
# the 100th write, the first run's last, stalls 200 ms
SLOW_FIRST=slow:write:after=99:times=1

# auto FIELD: the first job's repeat_auto.FIELD in $result.
auto() {
	value "$result" "d['jobs'][0]['repeat_auto']['$1']"
}

@test "repeat=auto: a quiet job stops at 3 runs, within repeat_ci, and says so" {
	dbio_ok "${JOB[@]}" --repeat_ci=25 --directory="$target"
	[ "$(auto runs)" -eq 3 ]
	[ "$(auto stopped)" = ci ]
	[ "$(auto figure)" = elapsed ]
	[ "$(value "$result" 'len(d["jobs"][0]["runs"])')" -eq 3 ]
	[ "$(value "$result" 'd["jobs"][0]["options"]["repeat"]')" = auto ]
	[ "$(value "$result" 'd["jobs"][0]["repeat_auto"]["ci_pct"] <= 25')" = True ]
	grep -Eq '^  repeat=auto: stopped after 3 runs: the 95 % CI of elapsed is ±[0-9.]+ % of its mean, within repeat_ci=25 %$' <<<"$output"
	# every run did the whole job: 100 writes of 4 KiB
	[ "$(value "$result" '[r["ops"]["write"]["count"] for r in d["jobs"][0]["runs"]]')" = "[100, 100, 100]" ]
	# the result, repeat_auto and repeat=auto in it, is the schema's
	python3 -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null || return 0
	schema_valid "$result"
}

@test "repeat=auto: a noisy job runs more, every run kept, until its CI is within repeat_ci" {
	DBIO_FAULT=$SLOW_FIRST dbio_ok "${JOB[@]}" --repeat_ci=25 --repeat_max=30 --directory="$target"
	n=$(auto runs)
	echo "runs $n, CI $(auto ci_pct) %"
	# 404 ms then 198 ms runs: the CI is within 25 % of the mean after 9
	# (27 % after 8); a margin for a run the load slows.
	[ "$n" -ge 6 ]
	[ "$n" -le 14 ]
	[ "$(auto stopped)" = ci ]
	[ "$(value "$result" 'len(d["jobs"][0]["runs"])')" -eq "$n" ]
	[ "$(value "$result" 'd["jobs"][0]["summary"]["runs"]')" -eq "$n" ]
	[ "$(value "$result" 'd["jobs"][0]["repeat_auto"]["ci_pct"] <= 25')" = True ]
	grep -q "^  repeat=auto: stopped after $n runs: the 95 % CI of elapsed is ±" <<<"$output"
	# the progress said how wide the CI was before each run after the 3rd
	[ "$(grep -c '^dbio:   run [0-9]* (repeat=auto: the 95 % CI ±' <<<"$stderr")" -eq $((n - 3)) ]
}

@test "repeat=auto: the caps: repeat_max runs, or repeat_time after the first began; the CI as it stands" {
	DBIO_FAULT=$SLOW_FIRST dbio_ok "${JOB[@]}" --repeat_max=5 --directory="$target"
	[ "$(auto runs)" -eq 5 ]
	[ "$(auto stopped)" = repeat_max ]
	[ "$(value "$result" 'd["jobs"][0]["repeat_auto"]["ci_pct"] > 5')" = True ]
	grep -Eq '^  repeat=auto: stopped after 5 runs: the 95 % CI of elapsed is ±[0-9.]+ % of its mean, at repeat_max=5, above repeat_ci=5 %$' <<<"$output"
	# 3 runs take at least 800 ms: past repeat_time=500ms, so no 4th.
	DBIO_FAULT=$SLOW_FIRST dbio_ok "${JOB[@]}" --repeat_max=100 --repeat_time=500ms --directory="$target"
	[ "$(auto runs)" -eq 3 ]
	[ "$(auto stopped)" = repeat_time ]
	grep -Eq '^  repeat=auto: stopped after 3 runs: the 95 % CI of elapsed is ±[0-9.]+ % of its mean, repeat_time=500 ms after the first began, above repeat_ci=5 %$' <<<"$output"
}

@test "repeat=auto in a sweep: each point judged on its own" {
	run --separate-stderr "$DBIO" sweep "${JOB[@]}" --repeat_ci=25 --directory="$target" \
		--vary bs=4k,8k --output="$result" --progress=none
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(value "$result" '[j["repeat_auto"]["stopped"] for j in d["jobs"]]')" = "['ci', 'ci']" ]
	[ "$(value "$result" '[len(j["runs"]) for j in d["jobs"]]')" = "[3, 3]" ]
}

@test "repeat=auto: its keys alone, or bad values, are refused with the reason" {
	run --separate-stderr "$DBIO" run --repeat_max=4 --size=1m --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'repeat_max': only with repeat=auto, not repeat=1: it caps the runs repeat=auto makes (job 'job')" ]
	run --separate-stderr "$DBIO" run --repeat=sometimes --size=1m --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'repeat': bad value 'sometimes': expected a whole number from 1 to 10000, or auto" ]
	run --separate-stderr "$DBIO" run --repeat=auto --repeat_max=2 --size=1m --directory="$target"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "dbio: command line: key 'repeat_max': bad value '2': "* ]]
}
