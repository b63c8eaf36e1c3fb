#!/usr/bin/env bats
# dbio run under mpirun (docs/mpi.md): the MPI build (make MPI=1, ./dbio-mpi,
# or $DBIO_MPI) run as 2 and 4 ranks on this machine. Every rank's counts
# add up in the merged result, a rank that fails stops them all with its
# rank and host named, bad input is refused once, and each rank's
# directory is dbio's own.

# serial: the stonewall tests bound each rank's end to [0.99 s, 1.5 s)
# with four ranks on 2 cores; other bats files beside them stretch that.

load helpers

DBIO_MPI=${DBIO_MPI:-"$BATS_TEST_DIRNAME/../../dbio-mpi"}
# Under AddressSanitizer (make SAN=1: dbio-mpi-san) Open MPI's libraries
# keep memory to the end by design; with whole stacks (not the fast
# unwinder, which stops inside them) lsan-mpi.supp names them, and every
# other leak still fails the run.
case "$DBIO_MPI" in
*-san)
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
	export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$BATS_TEST_DIRNAME/lsan-mpi.supp"
	export OMPI_MCA_mca_base_component_disable_dlclose=1
	;;
esac

setup() {
	dbio_setup
	command -v mpirun >/dev/null || skip "mpirun not found: install openmpi-bin"
	[ -x "$DBIO_MPI" ] || skip "no MPI build at $DBIO_MPI: make MPI=1 (needs libopenmpi-dev)"
	host=$(hostname)
}

teardown() { dbio_teardown; }

# mpi_run N ARG...: `dbio-mpi run ARG...` as N ranks, at most 120 s (a hang
# fails the test with status 124); output in $output and $stderr.
mpi_run() {
	local n=$1
	shift
	run --separate-stderr timeout 120 mpirun --allow-run-as-root --oversubscribe -np "$n" \
		"$DBIO_MPI" run "$@"
}

JOB=(--rw=randread --bs=4k --size=4m --progress=none)

@test "mpi: 2 and 4 ranks: aggregate counts are the sum of the ranks and N times one rank's" {
	run --separate-stderr "$DBIO" run --output "$result" --directory="$target" "${JOB[@]}"
	[ "$status" -eq 0 ]
	one=$(jpy "$result" 'run["ops"]["read"]["count"]')
	[ "$one" -eq 1024 ]
	for n in 2 4; do
		mpi_run "$n" --directory="$target" --output="$result" "${JOB[@]}"
		[ "$status" -eq 0 ]
		json_is "$result" "ranks.count=$n" "$R0.threads=$n" "$R0.ops.read.count=$((n * one))" \
			"$R0.ops.read.bytes=$((n * one * 4096))" "jobs.0.options.directory=$target"
		sum=$(jpy "$result" 'sum(x["ops"]["read"]["count"] for x in r["ranks"]["jobs"][0]["runs"][0]["ranks"])')
		[ "$sum" -eq $((n * one)) ]
		hist=$(jpy "$result" 'sum(c for _, c in run["ops"]["read"]["lat_hist"]["buckets"])')
		[ "$hist" -eq $((n * one)) ]
		json_is "$result" "ranks.hosts.0.hostname=$host" "ranks.hosts.0.ranks.$((n - 1))=$((n - 1))"
		# each rank worked in rank<r> and removed it
		is_empty_dir "$target"
	done
}

@test "mpi: the aggregate rate is the total over the first start to the last end" {
	mpi_run 4 --directory="$target" --output="$result" "${JOB[@]}"
	[ "$status" -eq 0 ]
	ok=$(jpy "$result" '(lambda x: x["elapsed_ns"] == max(k["end_ns"] for k in x["ranks"]) - min(k["start_ns"] for k in x["ranks"]))(r["ranks"]["jobs"][0]["runs"][0])')
	[ "$ok" = true ]
	json_is "$result" "$R0.elapsed_ns=$(jpy "$result" 'r["ranks"]["jobs"][0]["runs"][0]["elapsed_ns"]')"
	rate=$(jpy "$result" 'abs(run["ops"]["read"]["iops"] - run["ops"]["read"]["count"] / (run["elapsed_ns"] / 1e9)) < 1e-3 * run["ops"]["read"]["iops"]')
	[ "$rate" = true ]
	spread=$(jpy "$result" '(lambda a, v: a["min"] == min(v) and a["max"] == max(v))(r["ranks"]["jobs"][0]["runs"][0]["across"]["ops"]["read"]["iops"], [k["ops"]["read"]["iops"] for k in r["ranks"]["jobs"][0]["runs"][0]["ranks"]])')
	[ "$spread" = true ]
}

@test "mpi: the merged result is read by compare and report" {
	mpi_run 2 --directory="$target" --output="$result" "${JOB[@]}"
	[ "$status" -eq 0 ]
	run --separate-stderr "$DBIO" compare "$result" "$result"
	[ "$status" -eq 0 ]
	run --separate-stderr "$DBIO" report "$result" --html "$scratch/r.html"
	[ "$status" -eq 0 ]
	[ -s "$scratch/r.html" ]
}

@test "mpi: bad input is refused by every rank, said once, exit 2, nothing made" {
	mpi_run 4 --directory="$target" --rw=bogus --size=4m
	[ "$status" -eq 2 ]
	n=$(grep -c "key 'rw': bad value 'bogus'" <<<"$stderr")
	[ "$n" -eq 1 ]
	is_empty_dir "$target"
}

@test "mpi: mem_limit (a child process of its own) is refused under MPI by every rank, said once, exit 2, nothing made" {
	mpi_run 2 --directory="$target" "${JOB[@]}" --mem_limit=64m
	[ "$status" -eq 2 ]
	n=$(grep -c "job 'job': mem_limit does not run under MPI (it runs the job in a child process, which cannot take part in MPI); leave it out, or run without mpirun" <<<"$stderr")
	[ "$n" -eq 1 ]
	is_empty_dir "$target"
}

@test "mpi: a rank whose directory is a planted symlink stops every rank, naming rank and host" {
	mkdir "$scratch/elsewhere"
	ln -s "$scratch/elsewhere" "$target/rank1"
	mpi_run 2 --directory="$target" "${JOB[@]}"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"dbio: rank 1 on $host: $target/rank1: is a symbolic link, not the rank's directory: refusing to work there; remove it and run again"* ]]
	is_empty_dir "$scratch/elsewhere"
	[ ! -e "$target/rank0" ]
}

@test "mpi: a target through another user's symlink in the middle stops every rank before any rank directory is made" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to own a symlink as another user"
	mkdir -p "$scratch/victim/d" "$scratch/u"
	chown 65534:65534 "$scratch/u"
	ln -s "$scratch/victim" "$scratch/u/sub"
	chown -h 65534:65534 "$scratch/u/sub"
	mpi_run 2 --directory="$scratch/u/sub/d" "${JOB[@]}"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"dbio: "*"command line: key 'directory': $scratch/u/sub/d: component '$scratch/u/sub' is a symlink that belongs to user 65534: refusing to follow it (give the path it points to)"* ]] || {
		echo "$stderr"
		false
	}
	is_empty_dir "$scratch/victim/d"
}

@test "mpi: a rank that runs out of space stops every rank cleanly, naming rank and host" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs"
	mkdir "$target/rank2"
	mount -t tmpfs -o size=1m dbio-mpi-test "$target/rank2"
	on_teardown unmount "$target/rank2"
	mpi_run 4 --directory="$target" --output="$result" --rw=write --bs=64k --size=4m --progress=none
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"dbio: rank 2 on $host: "*"No space left on device"* ]]
	json_is "$result" "partial=true" "ranks.count=4"
	for r in 0 1 3; do
		[ ! -e "$target/rank$r" ]
	done
}

@test "mpi: a rank that fails while the others run stops them before their runtime" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs"
	mkdir "$target/rank2"
	mount -t tmpfs -o size=1m dbio-mpi-test "$target/rank2"
	on_teardown unmount "$target/rank2"
	# no preallocation: the writes of the measured phase run out of space
	mpi_run 4 --directory="$target" --output="$result" --rw=write --bs=64k --size=4m --fallocate=none \
		--time_based --runtime=600 --progress=none
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"dbio: rank 2 on $host: $target/rank2/dbio.job.0.0: write of 65536 bytes at offset "*": No space left on device"* ]]
	json_is "$result" "partial=true" "ranks.jobs.0.runs.0.ranks.0.partial=true" "ranks.jobs.0.runs.0.ranks.3.partial=true"
	# the others stopped when told, long before their 600 s
	early=$(jpy "$result" 'all(x["elapsed_ns"] < 300e9 for x in r["ranks"]["jobs"][0]["runs"][0]["ranks"])')
	[ "$early" = true ]
}

# mpi_mpmd ARGS0 -- ARGS1: `dbio-mpi run` as two ranks (MPMD), rank 0 with
# ARGS0 and rank 1 with ARGS1; at most 120 s.
mpi_mpmd() {
	local a=() b=()
	while [ "$1" != -- ]; do
		a+=("$1")
		shift
	done
	shift
	b=("$@")
	run --separate-stderr timeout 120 mpirun --allow-run-as-root --oversubscribe \
		-np 1 "$DBIO_MPI" run "${a[@]}" : -np 1 "$DBIO_MPI" run "${b[@]}"
}

# plan_differs WHAT: stderr says, once, that rank 1's plan differs with WHAT.
plan_differs() {
	local n
	n=$(grep -cxF "dbio: rank 1 on $host: the plan differs from rank 0's: $1: every rank must run the same jobs with the same keys (docs/mpi.md)" <<<"$stderr")
	[ "$n" -eq 1 ] || {
		echo "stderr: $stderr" >&2
		return 1
	}
}

@test "mpi: ranks given other job files or keys refuse together, naming the rank and the first difference, exit 2, nothing made" {
	printf '[a]\nrw=write\nbs=4k\nsize=1m\n' >"$scratch/a.fio"
	printf '[a]\nrw=write\nbs=8k\nsize=1m\n' >"$scratch/b.fio"
	printf '[a]\nrw=write\nbs=4k\nsize=1m\n[c]\nrw=read\nbs=4k\nsize=1m\n' >"$scratch/c.fio"
	mpi_mpmd "$scratch/a.fio" --directory="$target" -- "$scratch/b.fio" --directory="$target"
	[ "$status" -eq 2 ]
	plan_differs "job 'a' key 'bs': '8192' here, '4096' on rank 0"
	is_empty_dir "$target"
	# the break: rank 1's second job vanished from the merged result
	mpi_mpmd "$scratch/a.fio" --directory="$target" -- "$scratch/c.fio" --directory="$target"
	[ "$status" -eq 2 ]
	plan_differs "the number of jobs: '2' here, '1' on rank 0"
	is_empty_dir "$target"
	mpi_mpmd "${JOB[@]}" --directory="$target" -- "${JOB[@]}" --directory="$target" --rw=randwrite
	[ "$status" -eq 2 ]
	plan_differs "job 'job' key 'rw': 'randwrite' here, 'randread' on rank 0"
	mpi_mpmd "${JOB[@]}" --directory="$target" -- "${JOB[@]}" --directory="$target" --keep
	[ "$status" -eq 2 ]
	plan_differs "the command line's --keep: 'given' here, 'not given' on rank 0"
	is_empty_dir "$target"
	# what may differ: the pace (rate*, thinktime*), a seed from each
	# rank's clock (randrepeat=0), where rank 0 alone writes (--output)
	mpi_mpmd "${JOB[@]}" --directory="$target" --randrepeat=0 --output="$result" -- \
		"${JOB[@]}" --directory="$target" --randrepeat=0 --rate_iops=5000 --output="$scratch/other.json"
	[ "$status" -eq 0 ]
	json_is "$result" "ranks.count=2" "$R0.ops.read.count=2048"
	[ ! -e "$scratch/other.json" ]
	is_empty_dir "$target"
}

# rank_pid R: the pid of rank R of the dbio-mpi working in $target.
rank_pid() {
	local p
	for p in $(pgrep -f -- "--directory=$target"); do
		if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1"; then
			echo "$p"
			return 0
		fi
	done
	echo "no rank $1 working in $target" >&2
	return 1
}

# mpi_start N ARG...: `dbio-mpi run ARG...` as N ranks in the background
# ($bg_pid: mpirun), a long time-based job in $target, returning once rank
# 0's progress line shows the measured phase (every rank passed the start
# barrier); stderr in $scratch/stderr.
mpi_start() {
	local n=$1
	shift
	timeout 120 mpirun --allow-run-as-root --oversubscribe -np "$n" "$DBIO_MPI" run --directory="$target" \
		--output="$result" --rw=randread --bs=4k --size=4m --time_based --runtime=600 --progress=line "$@" \
		>"$scratch/stdout" 2>"$scratch/stderr" 3>&- &
	bg_pid=$!
	wait_for_text "$scratch/stderr" " ops/s, "
}

@test "mpi: SIGTERM to one rank stops every rank: the merged result partial, naming the rank and signal, exit 143, nothing left" {
	mpi_start 2
	pid=$(rank_pid 1)
	kill -TERM "$pid"
	finish_running 143
	json_is "$result" "partial=true" "error=rank 1 on $host: interrupted by SIGTERM" "ranks.count=2" \
		"ranks.jobs.0.runs.0.ranks.0.partial=true" "ranks.jobs.0.runs.0.ranks.1.partial=true"
	# rank 0 stopped when told, long before its 600 s
	early=$(jpy "$result" 'all(x["elapsed_ns"] < 300e9 for x in r["ranks"]["jobs"][0]["runs"][0]["ranks"])')
	[ "$early" = true ]
	grep -qxF "dbio: rank 1 on $host: interrupted by SIGTERM" "$scratch/err"
	is_empty_dir "$target"
}

@test "mpi: SIGKILL of one rank: the others remove their files, rank 0 writes its own partial result; the next run removes the dead rank's" {
	mpi_start 2
	pid=$(rank_pid 1)
	kill -KILL "$pid"
	# mpirun ends the job: SIGTERM to the others, SIGKILL a second later
	wait "$bg_pid" || true
	bg_pid=
	json_is "$result" "partial=true"
	why=$(jpy "$result" 'r["error"]')
	[ "$why" = "mpi: the launcher stopped this rank (SIGTERM): another rank ended or mpirun was stopped; each rank removed its own files, and rank 0's result holds its own figures alone" ]
	[ ! -e "$target/rank0" ]
	run ls -A "$target/rank1"
	[ "$output" = "dbio.job.0.0" ]
	# the next run of the job there takes rank 1's marked leftover away
	mpi_run 2 --directory="$target" "${JOB[@]}"
	[ "$status" -eq 0 ]
	is_empty_dir "$target/rank1"
	[ ! -e "$target/rank0" ]
}

@test "mpi: another command under mpirun is refused; a build without MPI says so" {
	run --separate-stderr timeout 60 mpirun --allow-run-as-root -np 1 "$DBIO_MPI" sysinfo
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"dbio: sysinfo: started by an MPI launcher: only \`dbio run\` and \`dbio sweep\` run as MPI ranks (docs/mpi.md)"* ]]
	run --separate-stderr timeout 60 mpirun --allow-run-as-root -np 1 "$DBIO" run --directory="$target" "${JOB[@]}"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"dbio: mpi: started by an MPI launcher, but this dbio is built without MPI"* ]]
	is_empty_dir "$target"
}

@test "mpi: a sweep under 2 ranks: every point merged, N times one rank's counts" {
	run --separate-stderr timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2 "$DBIO_MPI" sweep \
		--directory="$target" --rw=randread --size=4m --vary bs=4k,16k --output="$result" --progress=none
	[ "$status" -eq 0 ]
	json_is "$result" "partial=false" "sweep.completed=2" "ranks.count=2" \
		"jobs.0.point.bs=4k" "$R0.ops.read.count=2048" "$R0.threads=2" \
		"jobs.1.point.bs=16k" "jobs.1.runs.0.ops.read.count=512" "jobs.1.runs.0.threads=2" \
		"ranks.jobs.1.runs.0.ranks.1.ops.read.count=256"
	is_empty_dir "$target"
	run --separate-stderr timeout 60 mpirun --allow-run-as-root -np 2 "$DBIO_MPI" sweep --resume "$result"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"dbio: command line: --resume: not under MPI: run the whole sweep again"* ]]
}

@test "mpi: --version says whether MPI is in" {
	run "$DBIO_MPI" --version
	[ "$status" -eq 0 ]
	[[ "$output" == *"mpi: in: runs as one rank of mpirun (docs/mpi.md)"* ]]
	run "$DBIO" --version
	[ "$status" -eq 0 ]
	[[ "$output" == *"mpi: not in this build (make MPI=1 with libopenmpi-dev and openmpi-bin)"* ]]
}

@test "mpi: a merged result validates against docs/result.schema.json" {
	python3 -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null ||
		skip "python3 with jsonschema >= 4 (Draft 2020-12) is not installed: python3-jsonschema"
	mpi_run 2 --directory="$target" --output="$result" "${JOB[@]}" --log_interval=10ms
	[ "$status" -eq 0 ]
	# and one with a stonewall and its wear-out (run.stonewall, the ranks')
	mpi_run 2 --directory="$target" --output="$scratch/wall.json" "${JOB[@]}" --rate_iops=100 \
		--stonewall_s=200ms --stonewall_wearout=1
	[ "$status" -eq 0 ]
	json_has "$scratch/wall.json" "$R0.stonewall" "ranks.jobs.0.runs.0.stonewall" "ranks.jobs.0.runs.0.ranks.1.stonewall"
	run python3 - "$BATS_TEST_DIRNAME/../../docs/result.schema.json" "$result" "$scratch/wall.json" <<'PY'
import json, sys, jsonschema
V = jsonschema.Draft202012Validator
v = V(json.load(open(sys.argv[1])), format_checker=V.FORMAT_CHECKER)
errors = ["%s: /%s: %s" % (p, "/".join(map(str, e.absolute_path)), e.message[:300])
          for p in sys.argv[2:] for e in v.iter_errors(json.load(open(p)))]
print("\n".join(errors))
sys.exit(1 if errors else 0)
PY
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpi: the text report ends with the ranks: aggregate beside each rank's spread" {
	mpi_run 2 --directory="$target" "${JOB[@]}"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ranks: 2 on 1 host: $host (2)"* ]]
	[[ "$output" == *"op            all ops/s  all MiB/s     rank min    rank mean     rank max     stddev"* ]]
	line=$(grep -E '^    read +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$' <<<"$output")
	[ -n "$line" ]
}

# ---- stonewall_s and stonewall_wearout (IOR's -D and stoneWallingWearOut) ----

# mpi_two FAST SLOW ARG...: two ranks of `dbio-mpi run ARG...` (MPMD: one
# command line each), rank 0 with the extra key FAST, rank 1 with SLOW, so
# that one rank is slower on purpose (a lower rate_iops); at most 120 s.
mpi_two() {
	local fast=$1 slow=$2
	shift 2
	run --separate-stderr timeout 120 mpirun --allow-run-as-root --oversubscribe \
		-np 1 "$DBIO_MPI" run "$@" "$fast" : -np 1 "$DBIO_MPI" run "$@" "$slow"
}

# 1024 reads per rank, rank 0 at 200 a second a thread, rank 1 at 100:
# either would take over 5 s; the stonewall stands at 1 s.
WALL=(--rw=read --bs=4k --size=4m --stonewall_s=1 --progress=none)

# rank_is R EXPR: EXPR (Python, k = rank R of the first run's ranks[]) for
# the result.
rank_is() {
	jpy "$result" "(lambda k: $2)(r['ranks']['jobs'][0]['runs'][0]['ranks'][$1])"
}

@test "mpi: stonewall_s stops every rank at 1 s, the slow rank with less done" {
	for eng in psync $(queued_engines_of_build | head -n 1); do
		mpi_two --rate_iops=200 --rate_iops=50 --directory="$target" --output="$result" \
			--ioengine="$eng" "${WALL[@]}"
		[ "$status" -eq 0 ]
		fast=$(rank_is 0 'k["ops"]["read"]["count"]')
		slow=$(rank_is 1 'k["ops"]["read"]["count"]')
		# the rates' schedules: 200 and 50 reads in the second, give or take a few
		[ "$fast" -ge 180 ]
		[ "$fast" -le 201 ]
		[ "$slow" -ge 45 ]
		[ "$slow" -le 51 ]
		json_is "$result" "$R0.ops.read.count=$((fast + slow))" "$R0.partial=false" \
			"$R0.stonewall.wearout=false" "$R0.stonewall.ops=$((fast + slow))" \
			"$R0.stonewall.target_ops=$fast" \
			"ranks.jobs.0.runs.0.ranks.0.stonewall.ops=$fast" \
			"ranks.jobs.0.runs.0.ranks.1.stonewall.ops=$slow" \
			"ranks.jobs.0.runs.0.ranks.1.stonewall.target_ops=$fast" \
			"ranks.jobs.0.runs.0.stonewall.ops.min=$slow.0" "ranks.jobs.0.runs.0.stonewall.ops.max=$fast.0"
		# each rank ends at the stonewall: 1 s after the start barrier, plus
		# at most one slot of its rate (20 ms) and a loaded machine's
		# scheduling (the bound: 0.5 s)
		for r in 0 1; do
			end=$(rank_is $r 'k["end_ns"]')
			[ "$end" -ge 990000000 ]
			[ "$end" -lt 1500000000 ]
		done
		# IOR's stonewall rate: all ranks' bytes at the stonewall over 1 s
		rate=$(jpy "$result" 'run["stonewall"]["bw_bytes"]')
		[ "$rate" = "$(((fast + slow) * 4096)).0" ]
		[[ "$output" == *"stonewall at 1.00 s: reads and writes done per rank min $slow mean "*" max $fast (all $((fast + slow))); stonewall rate "*" ops/s, "*" MiB/s"* ]]
		[[ "$output" != *"wear-out"* ]]
		is_empty_dir "$target"
	done
}

@test "mpi: stonewall_wearout: every rank does the most work any did at the stonewall, the slow one later" {
	for eng in psync $(queued_engines_of_build | head -n 1); do
		mpi_two --rate_iops=200 --rate_iops=100 --directory="$target" --output="$result" \
			--ioengine="$eng" --iodepth=1 --numjobs=2 --stonewall_wearout=1 "${WALL[@]}"
		[ "$status" -eq 0 ]
		target_ops=$(jpy "$result" 'run["stonewall"]["target_ops"]')
		most=$(jpy "$result" 'max(k["stonewall"]["ops"] for k in r["ranks"]["jobs"][0]["runs"][0]["ranks"])')
		[ "$target_ops" -eq "$most" ]
		# two threads at 200 a second for 1 s: about 400
		[ "$most" -ge 360 ]
		# every rank did exactly the agreed work (its threads share one count)
		[ "$(rank_is 0 'k["ops"]["read"]["count"]')" -eq "$target_ops" ]
		[ "$(rank_is 1 'k["ops"]["read"]["count"]')" -eq "$target_ops" ]
		json_is "$result" "$R0.ops.read.count=$((2 * target_ops))" "$R0.stonewall.wearout=true" \
			"ranks.jobs.0.runs.0.ranks.1.stonewall.target_ops=$target_ops"
		# the slow rank had done about half by the stonewall and took about
		# 1 s more to do the rest: it ends at least 0.5 s after the fast one
		late=$(jpy "$result" '(lambda x: x[1]["end_ns"] - x[0]["end_ns"])(r["ranks"]["jobs"][0]["runs"][0]["ranks"])')
		[ "$late" -ge 500000000 ]
		wearout=$(jpy "$result" 'r["ranks"]["jobs"][0]["runs"][0]["stonewall"]["wearout_ns"] == r["ranks"]["jobs"][0]["runs"][0]["ranks"][1]["end_ns"] - 1000000000')
		[ "$wearout" = true ]
		[[ "$output" == *"wear-out: every rank to $target_ops reads and writes; the last ended "*" ms after the stonewall"* ]]
		is_empty_dir "$target"
	done
}

@test "mpi: stonewall_wearout without stonewall_s is refused by every rank, said once, exit 2" {
	mpi_run 2 --directory="$target" --output="$result" "${JOB[@]}" --stonewall_wearout=1
	[ "$status" -eq 2 ]
	# mpirun adds its own words on the exit status after dbio's line
	n=$(grep -cxF "dbio: command line: key 'stonewall_wearout': needs stonewall_s: the wear-out starts at the stonewall, e.g. stonewall_s=10s (job 'job')" <<<"$stderr")
	[ "$n" -eq 1 ]
	[ ! -e "$result" ]
	is_empty_dir "$target"
}
