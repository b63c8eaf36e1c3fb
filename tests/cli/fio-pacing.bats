#!/usr/bin/env bats
# fio's keys of pacing and threads, with fio's meaning (docs/fio.md): rate
# and rate_iops cap a thread (measured ops/s within a bound; the waits are
# in no latency), rate_min fails a job that falls below it, thinktime pauses
# (fio's op counts, the pauses in the runtime, not in the latencies),
# startdelay and exitall, the CPUs, nice and I/O priority of each worker
# thread (strace, exact arguments), the queued engines' batch keys (strace,
# fio's op counts), and the values dbio refuses, each with its reason.

# serial: rates measured within 5 % over 2 s, which bats files running
# beside it on the same CPUs would bend (tests/run-all).

load helpers

# rate_of JOB: JOB's ops per second in the first run: reads and writes over
# its elapsed time.
rate_of() {
	jpy "$result" "round(sum(o['count'] for t, o in r['jobs'][$1]['runs'][0]['ops'].items() if t in ('read', 'write')) / (r['jobs'][$1]['runs'][0]['elapsed_ns'] / 1e9), 1)"
}

# need_strace: skip, saying why, unless strace is here.
need_strace() {
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
}

# traced KEYS...: `dbio run KEYS...` under strace -ff of the calls that
# set a thread's CPUs and priorities (and its reads and io_uring submits),
# one file a thread, $scratch/trace.<tid>, so that the calls of two
# threads are not cut in two; must exit 0.
traced() {
	rm -f "$scratch"/trace.*
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 run --separate-stderr strace -ff -qq \
		-e trace=sched_setaffinity,setpriority,ioprio_set,io_uring_enter,pread64 -o "$scratch/trace" \
		"$DBIO" run --output "$result" --progress=none --directory="$target" "$@"
	[ "$status" -eq 0 ] || {
		echo "$stderr" >&2
		return 1
	}
}

# calls NAME: the calls NAME of every thread, without strace's alignment,
# sorted.
calls() {
	cat "$scratch"/trace.* | grep "^$1(" | sed -E 's/\) +=/) =/' | sort
}

@test "rate_iops caps each thread of a time-based job: 200 ops/s within 5 % over 2 s; the waits are in no latency" {
	rate_bound
	for e in psync sync $(queued_engines_of_build); do
		[ -z "$(why_not_here "$e")" ] || continue
		# shellcheck disable=SC2046
		dbio_ok --directory="$target" --rw=read --size=1m --invalidate=0 --time_based --runtime=2s \
			--rate_iops=200 --numjobs=2 $(engine_keys "$e")
		rate=$(rate_of 0)
		# a cap: at most 2 * (2 s * 200 + 1) I/Os; a slow machine may do fewer
		[ "$(jpy "$result" 'run["ops"]["read"]["count"] <= 802')" = true ] || {
			echo "$e: $rate ops/s" >&2
			false
		}
		[ "$(jpy "$result" "$rate >= 0.95 * 400")" = true ] || {
			echo "$e: $rate ops/s" >&2
			false
		}
		# had the waits of 5 ms been in the latencies, they would add up
		# to the runtime of each thread
		[ "$(jpy "$result" 'run["ops"]["read"]["lat_ns"]["mean"] * run["ops"]["read"]["count"] < run["elapsed_ns"]')" = true ]
		json_is "$result" jobs.0.options.rate_iops=200 "$R0.partial=false"
	done
}

@test "rate R,W caps each direction apart: ,400k caps the writes of randrw at 100 per second, the reads go free" {
	rate_bound
	dbio_ok --directory="$target" --rw=randrw --size=1m --invalidate=0 --time_based --runtime=2s --rate=,400k
	[ "$(jpy "$result" 'run["ops"]["write"]["count"] <= 201')" = true ]
	[ "$(jpy "$result" 'run["ops"]["write"]["count"] >= 190')" = true ]
	# a write ahead of its rate gives way to a read, as in fio
	[ "$(jpy "$result" 'run["ops"]["read"]["count"] > 4 * run["ops"]["write"]["count"]')" = true ]
	json_is "$result" jobs.0.options.rate=,400k
}

@test "rate_process=poisson: gaps drawn around the rate's mean, 200 ops/s within 15 % over 2 s" {
	rate_bound
	dbio_ok --directory="$target" --rw=read --size=1m --invalidate=0 --time_based --runtime=2s \
		--rate_iops=200 --rate_process=poisson
	[ "$(jpy "$result" "abs($(rate_of 0) - 200) <= 30")" = true ]
	json_is "$result" jobs.0.options.rate_process=poisson
}

@test "rate and thinktime leave a size-bound job's op counts fio's" {
	fast_target
	cat >j.fio <<'EOF'
[global]
bs=4k
size=256k
[capped]
rw=randwrite
rate_iops=2000
fsync=16
[thinking]
rw=read
thinktime=2ms
thinktime_blocks=16
thinktime_spin=500
EOF
	same_as_fio j.fio
	grep -qx "capped write 64" dbio.counts
	grep -qx "capped sync 3" dbio.counts
	grep -qx "thinking read 64" dbio.counts
}

@test "thinktime: the pauses are in the runtime, not in the latencies; a queued engine drains before each" {
	rate_bound
	dbio_ok --directory="$target" --rw=read --size=256k --invalidate=0 --thinktime=5ms --thinktime_blocks=16
	# 64 reads, a pause after every 16: 4 pauses of 5 ms
	[ "$(jpy "$result" 'run["elapsed_ns"] >= 4 * 5000000')" = true ]
	[ "$(jpy "$result" 'run["ops"]["read"]["lat_ns"]["mean"] * 64 <= run["elapsed_ns"] - 4 * 5000000')" = true ]
	json_is "$result" "$R0.ops.read.count=64" jobs.0.options.thinktime=5000000
	for e in $(queued_engines_of_build); do
		[ -z "$(why_not_here "$e")" ] || continue
		# shellcheck disable=SC2046
		dbio_ok --directory="$target" --rw=read --size=256k --thinktime=5ms --thinktime_blocks=16 \
			--thinktime_blocks_type=issue $(engine_keys "$e")
		[ "$(jpy "$result" 'run["elapsed_ns"] >= 4 * 5000000')" = true ]
		# at most 8 reads in flight, none during a pause
		[ "$(jpy "$result" 'run["ops"]["read"]["lat_ns"]["mean"] * 64 <= 8 * (run["elapsed_ns"] - 4 * 5000000)')" = true ]
		json_is "$result" "$R0.ops.read.count=64"
	done
}

@test "rate_iops_min: a thread below its floor after fio's 2 s and one rate_cycle fails the job, naming the rate it got" {
	rate_bound
	run --separate-stderr "$DBIO" run --output "$result" --directory="$target" --rw=read --size=1m \
		--invalidate=0 --time_based --runtime=60s --rate_iops=20 --rate_iops_min=1000 --progress=none
	[ "$status" -eq 1 ]
	grep -Eqx "dbio: job 'job' thread 0: rate_iops_min=1000 not met: reads at (19|20|21) IOPS over the last 1\.[0-9]+ s" <<<"$stderr" || {
		echo "$stderr" >&2
		false
	}
	json_is "$result" "$R0.partial=true"
	# 20 I/Os a second for about 3 s, not 60
	[ "$(jpy "$result" 'run["ops"]["read"]["count"] < 200')" = true ]
	# met: the job runs its runtime
	dbio_ok --directory="$target" --rw=read --size=1m --invalidate=0 --time_based --runtime=3s \
		--rate_iops=100 --rate_iops_min=50 --rate_cycle=500
	json_is "$result" "$R0.partial=false"
}

@test "startdelay and exitall: a job starts its I/O after its delay, and its end stops the rest of its group" {
	rate_bound
	cat >j.fio <<'EOF'
[global]
bs=4k
exitall
[background]
rw=randread
size=1m
invalidate=0
time_based
runtime=60s
rate_iops=100
[late]
rw=write
size=64k
startdelay=1
EOF
	dbio_ok j.fio --directory="$target"
	# background ran until late finished, at least 1 s in, and no longer
	# than that by far: 100 reads a second, not 60 s of them
	[ "$(jpy "$result" 'r["jobs"][0]["runs"][0]["elapsed_ns"] >= 1e9')" = true ]
	[ "$(jpy "$result" 'r["jobs"][0]["runs"][0]["ops"]["read"]["count"] < 3000')" = true ]
	json_is "$result" jobs.1.runs.0.ops.write.count=16 jobs.0.runs.0.partial=false jobs.1.options.startdelay=1
}

@test "exit_what: group stops only the finishing job's reporting group, stonewall every job running" {
	for what in group stonewall; do
		cat >j.fio <<EOF
[global]
bs=4k
size=64k
[other]
rw=read
invalidate=0
time_based
runtime=2s
rate_iops=50
[short]
new_group
rw=write
exitall
exit_what=$what
EOF
		dbio_ok j.fio --directory="$target"
		if [ "$what" = group ]; then
			# short's group is its own (new_group): other runs its 2 s
			[ "$(jpy "$result" 'r["jobs"][0]["runs"][0]["elapsed_ns"] >= 2e9')" = true ]
		else
			[ "$(jpy "$result" 'r["jobs"][0]["runs"][0]["elapsed_ns"] < 2e9')" = true ]
		fi
		json_is "$result" jobs.1.runs.0.ops.write.count=16 "jobs.1.options.exit_what=$what"
	done
}

@test "exitall_on_error: a failing job stops the other jobs of its group; without it they run on" {
	cat >j.fio <<'EOF'
[global]
bs=4k
size=1m
invalidate=0
time_based
runtime=60s
rw=read
[steady]
rate_iops=50
[failing]
rate_iops=20
rate_iops_min=1000
exitall_on_error
EOF
	run --separate-stderr "$DBIO" run j.fio --output "$result" --directory="$target" --progress=none
	[ "$status" -eq 1 ]
	[[ $stderr == *"dbio: job 'failing' thread 0: rate_iops_min=1000 not met: "* ]]
	# steady stopped with failing, after about 3 s of its 60
	[ "$(jpy "$result" 'r["jobs"][0]["runs"][0]["ops"]["read"]["count"] < 1000')" = true ]
}

@test "cpus_allowed, cpumask, cpus_allowed_policy: each worker thread's CPUs, set before it prepares (strace)" {
	need_strace
	[ "$(nproc --all)" -ge 2 ] || skip "needs 2 CPUs, this machine has $(nproc --all)"
	traced --rw=read --size=64k --numjobs=2 --cpus_allowed=0-1 --cpus_allowed_policy=split
	[ "$(calls sched_setaffinity | tr '\n' ' ')" = "sched_setaffinity(0, 128, [0]) = 0 sched_setaffinity(0, 128, [1]) = 0 " ]
	json_is "$result" jobs.0.options.cpus_allowed=0-1 jobs.0.options.cpus_allowed_policy=split
	traced --rw=read --size=64k --numjobs=2 --cpus_allowed=0-1
	[ "$(calls sched_setaffinity | uniq -c | tr -s ' ')" = " 2 sched_setaffinity(0, 128, [0 1]) = 0" ]
	traced --rw=read --size=64k --cpumask=2
	[ "$(calls sched_setaffinity)" = "sched_setaffinity(0, 128, [1]) = 0" ]
	# split counts threads over the job files, as fio: a's one thread has
	# CPU 0, b's two threads CPUs 1 and 0
	printf '[global]\nrw=read\nsize=64k\ncpus_allowed=0-1\ncpus_allowed_policy=split\n[a]\n[b]\nnumjobs=2\n' >j.fio
	traced j.fio
	[ "$(calls sched_setaffinity | uniq -c | tr -s ' ' | tr '\n' ' ')" = " 2 sched_setaffinity(0, 128, [0]) = 0  1 sched_setaffinity(0, 128, [1]) = 0 " ]
	# a worker thread is pinned before its first read: the first call of
	# each of the three (the main thread's is the loader's read of dbio)
	[ "$(head -qn1 "$scratch"/trace.* | grep -c '^sched_setaffinity(0, ')" -eq 3 ]
}

@test "nice, prio, prioclass: each worker thread's nice value and I/O priority (strace, exact arguments)" {
	need_strace
	base=$(nice)
	want=$((base + 3 > 19 ? 19 : base + 3))
	traced --rw=read --size=64k --numjobs=2 --nice=3 --prio=5 --prioclass=3
	[ "$(calls setpriority | uniq -c | tr -s ' ')" = " 2 setpriority(PRIO_PROCESS, 0, $want) = 0" ]
	[ "$(calls ioprio_set | uniq -c | tr -s ' ')" = " 2 ioprio_set(IOPRIO_WHO_PROCESS, 0, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 5)) = 0" ]
	json_is "$result" jobs.0.options.nice=3 jobs.0.options.prio=5 jobs.0.options.prioclass=3
	# prio alone is best effort, as fio; neither given: no call
	traced --rw=read --size=64k --prio=2
	[ "$(calls ioprio_set)" = "ioprio_set(IOPRIO_WHO_PROCESS, 0, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 2)) = 0" ]
	traced --rw=read --size=64k
	[ -z "$(calls ioprio_set)" ]
	[ -z "$(calls setpriority)" ]
}

@test "iodepth_batch_submit: a queued engine submits every N I/Os it queues (strace); the batch keys keep fio's op counts" {
	need_strace
	need_engine io_uring
	traced --rw=read --size=256k --ioengine=io_uring --iodepth=8 --iodepth_batch_submit=2
	# every submit carries 2 requests (a completion may be resubmitted inside the engine)
	[ "$(calls io_uring_enter | grep -c '^io_uring_enter([0-9]*, 2, ')" -ge 16 ]
	[ "$(calls io_uring_enter | grep -c '^io_uring_enter([0-9]*, [3-9], ')" -eq 0 ]
	json_is "$result" "$R0.ops.read.count=64" jobs.0.options.iodepth_batch_submit=2
	# by default dbio submits a full queue at once
	traced --rw=read --size=256k --ioengine=io_uring --iodepth=8
	calls io_uring_enter | grep -q '^io_uring_enter([0-9]*, 8, '
	for e in $(queued_engines_of_build); do
		[ -z "$(why_not_here "$e")" ] || continue
		cat >j.fio <<EOF
[global]
ioengine=$e
direct=1
iodepth=16
iodepth_batch=4
iodepth_batch_complete_min=2
iodepth_batch_complete_max=8
iodepth_low=4
bs=4k
size=512k
[w]
rw=randwrite
[r]
rw=read
EOF
		[ "$e" = libaio ] || sed -i '/^direct=1$/d' j.fio
		rm -rf "$target" && mkdir "$target"
		same_as_fio j.fio
		grep -qx "w write 128" dbio.counts
		grep -qx "r read 128" dbio.counts
	done
}

@test "refused with the reason: continue_on_error, batch keys on psync, pacing in oltp" {
	printf '[j]\nsize=64k\ncontinue_on_error=all\n' >j.fio
	refused_file j.fio "dbio: j.fio:3: key 'continue_on_error': all is not honoured: dbio goes on after read and write errors but stops at a verify mismatch; use continue_on_error=io (job 'j')"
	printf '[j]\nsize=64k\niodepth_batch=4\n' >j.fio
	queued=$(queued_engines_of_build | sed 's/^/ioengine=/;2,$s/^ioengine=//' | join_list ', ' | sed 's/\(.*\), /\1 or /')
	# a build without liburing and libaio has none
	refused_file j.fio "dbio: j.fio:3: key 'iodepth_batch_submit': belongs to the engines that queue (${queued:-none in this build: see dbio --version}); this job is ioengine=psync, which keeps one I/O in flight (job 'j')"
	printf '[j]\nsize=64k\nrate=1m:2m\n' >j.fio
	refused_file j.fio "dbio: j.fio:3: key 'rate': bad value '1m:2m': expected one value for reads and writes, or R,W for each (R, caps reads only, ,W writes only), each bytes per second with an optional k, m or g suffix (binary), e.g. 1m or ,500k (job 'j')"
	printf '[j]\nsize=64k\ncpus_allowed=0-99999\n' >j.fio
	refused_file j.fio "dbio: j.fio:3: key 'cpus_allowed': CPU 99999: this machine has CPUs 0 to $(($(nproc --all) - 1)) (job 'j')"
	printf '[j]\nworkload=oltp\nnumjobs=2\ntime_based\nruntime=1\nsize=1m\nthinktime=10\n' >j.fio
	refused_file j.fio "dbio: j.fio:7: key 'thinktime': not for workload=oltp (yet): only workload=fileio paces its I/O (job 'j')"
	# accepted: the values that are dbio's behaviour
	dbio_ok --directory="$target" --size=64k --continue_on_error=none --io_submit_mode=inline
	json_is "$result" jobs.0.options.continue_on_error=none jobs.0.options.io_submit_mode=inline
}
