#!/usr/bin/env bats
# dbio run --workload=meta: files created, stated and deleted per thread,
# each operation timed: exact counts, bytes and phases, the files spread over
# meta_dirs directories of the thread's private directory, a random order
# that visits every file once, refusals, and nothing left behind after a
# run or a signal.

load helpers

@test "meta: every file created, stated and deleted once per thread; bytes, phases and counts exact" {
	dbio_ok --workload=meta --meta_files=500 --meta_dirs=5 --meta_size=1k --numjobs=2 --directory="$target"
	json_is "$result" "$R0.threads=2" "$R0.ops.create.count=1000" "$R0.ops.create.bytes=1024000" \
		"$R0.ops.stat.count=1000" "$R0.ops.stat.bytes=0" "$R0.ops.delete.count=1000" \
		"$R0.phases.0.name=create" "$R0.phases.1.name=stat" "$R0.phases.2.name=delete" \
		"$R0.phases.0.ops=1000" "$R0.phases.2.ops=1000" jobs.0.options.meta_files=500 jobs.0.options.meta_dirs=5
	# The job's own keys only: no file keys in a meta job's options.
	[ "$(jpy "$result" '"bs" in r["jobs"][0]["options"]')" = false ]
	is_empty_dir "$target"
}

@test "meta: the files are spread over meta_dirs directories of the thread's 0700 directory (strace)" {
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 run --separate-stderr strace -f -qq \
		-e trace=mkdirat,openat,unlinkat -o "$scratch/trace" "$DBIO" run --output "$result" --progress=none \
		--workload=meta --meta_files=40 --meta_dirs=4 --meta_order=random --directory="$target"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	grep -qE 'mkdirat\([0-9]+, "dbio\.job\.0\.db", 0700\) += 0' "$scratch/trace"
	[ "$(grep -cE 'mkdirat\([0-9]+, "d[0-3]", 0700\) += 0' "$scratch/trace")" -eq 4 ]
	[ "$(grep -cE 'openat\([0-9]+, "[0-9]+", O_WRONLY\|O_CREAT\|O_EXCL\|O_NOFOLLOW\|O_CLOEXEC, 0644\) += [0-9]+' "$scratch/trace")" -eq 40 ]
	# Every file deleted once, in an order other than the creation order.
	deleted=$(grep -oE 'unlinkat\([0-9]+, "[0-9]+", 0\) += 0' "$scratch/trace" | grep -oE '"[0-9]+"' | tr -d '"')
	[ "$(sort -n <<<"$deleted" | tr '\n' ' ')" = "$(seq 0 39 | tr '\n' ' ')" ]
	[ "$(tr '\n' ' ' <<<"$deleted")" != "$(seq 0 39 | tr '\n' ' ')" ]
	is_empty_dir "$target"
}

@test "meta: bad keys are refused before anything is written" {
	run -2 --separate-stderr "$DBIO" run --workload=meta --meta_files=3 --meta_dirs=4 --directory="$target"
	[ "$stderr" = "dbio: command line: key 'meta_dirs': 4 directories for 3 files: at most one per file (job 'job')" ]
	run -2 --separate-stderr "$DBIO" run --workload=meta --time_based --runtime=1s --directory="$target"
	[ "$stderr" = "dbio: command line: key 'time_based': not for workload=meta: a meta job runs its files (job 'job')" ]
	run -2 --separate-stderr "$DBIO" run --workload=meta --records=5 --directory="$target"
	[ "$stderr" = "dbio: command line: key 'records': belongs to workload=kv; this job is workload=meta (job 'job')" ]
	run -2 --separate-stderr "$DBIO" run --meta_files=5 --size=64k --directory="$target"
	[ "$stderr" = "dbio: command line: key 'meta_files': belongs to workload=meta; this job is workload=fileio (job 'job')" ]
	is_empty_dir "$target"
}

@test "meta: SIGTERM while creating: exit 143, a partial result, the directory emptied" {
	"$DBIO" run --workload=meta --meta_files=10000000 --meta_dirs=10 --directory="$target" --output "$result" \
		--progress=none >/dev/null 2>"$scratch/err" &
	bg_pid=$!
	wait_for "$target/dbio.job.0.db/d9/9"
	kill -TERM "$bg_pid"
	rc=0
	wait "$bg_pid" || rc=$?
	bg_pid=
	[ "$rc" -eq 143 ] || { cat "$scratch/err"; false; }
	json_is "$result" partial=true "$R0.partial=true"
	[ "$(jpy "$result" 'run["ops"]["create"]["count"] >= 10')" = true ]
	is_empty_dir "$target"
}

@test "meta: read and rename phases, sizes drawn between meta_size and meta_size_max: exact counts and bytes" {
	dbio_ok --workload=meta --meta_files=300 --meta_dirs=3 --meta_size=1k --meta_size_max=4k --meta_order=random \
		--meta_phases=create,read,rename,delete --directory="$target"
	json_is "$result" "$R0.ops.create.count=300" "$R0.ops.read.count=300" "$R0.ops.rename.count=300" \
		"$R0.ops.delete.count=300" "$R0.phases.1.name=read" "$R0.phases.2.name=rename"
	# What the reads read is what the creates wrote: every size in [1024, 4096], not all the same.
	[ "$(jpy "$result" 'run["ops"]["read"]["bytes"] == run["ops"]["create"]["bytes"]')" = true ]
	[ "$(jpy "$result" '300 * 1024 < run["ops"]["create"]["bytes"] < 300 * 4096')" = true ]
	is_empty_dir "$target"
}

@test "meta: meta_fsync_dir=1 fsyncs the directory once per create, rename and delete (strace)" {
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 run --separate-stderr strace -f -qq \
		-e trace=fsync,renameat,renameat2 -o "$scratch/trace" "$DBIO" run --progress=none \
		--workload=meta --meta_files=20 --meta_dirs=2 --meta_fsync_dir=1 \
		--meta_phases=create,stat,rename,delete --directory="$target"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(grep -cE 'fsync\([0-9]+\) += 0' "$scratch/trace")" -eq 60 ]
	[ "$(grep -cE 'renameat2?\([0-9]+, "[0-9]+", [0-9]+, "[0-9]+r"' "$scratch/trace")" -eq 20 ]
	is_empty_dir "$target"
}

@test "meta: meta_size_max below meta_size, and read or rename of directories, are refused" {
	run -2 --separate-stderr "$DBIO" run --workload=meta --meta_size=4k --meta_size_max=1k --directory="$target"
	[ "$stderr" = "dbio: command line: key 'meta_size_max': 1024 is less than meta_size (4096): the largest size must be at least the smallest (job 'job')" ]
	run -2 --separate-stderr "$DBIO" run --workload=meta --meta_kind=dir --meta_phases=create,read --directory="$target"
	[ "$stderr" = "dbio: command line: key 'meta_phases': 'create,read' with meta_kind=dir: directories are created, statted and deleted only (job 'job')" ]
	is_empty_dir "$target"
}

@test "meta: another user swapping root's directory in for the thread's directory mid-run: it is left whole, named in a warning" {
	swap_target
	swap_when_full dbio.m.0.db
	run --separate-stderr "$DBIO" run --output "$result" --progress=none --workload=meta --meta_files=20000 \
		--meta_dirs=4 --name=m --force --directory="$target"
	wait "$bg_pid"
	bg_pid=
	[ -e "$atk/swapped" ]
	precious_intact dbio.m.0.db
	[[ $stderr == *"dbio: warning: $target/dbio.m.0.db: not removed: the name is now a directory of uid 0 mode 0700, not the one dbio made"* ]]
	[ -z "$(ls -A "$target/moved")" ]
}
