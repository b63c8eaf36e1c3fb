#!/usr/bin/env bats
# valgrind memcheck on one short run of each workload and engine (issue 17,
# "sanitizers"): no invalid read or write, no use of uninitialised memory,
# no definitely lost block — valgrind's own verdict, through its exit
# status. Skipped, saying why, when valgrind is not installed and when the
# binary under test is built with a sanitizer (ASan and TSan cannot run
# under valgrind; `make SAN=1 test` covers them).

load helpers

# memcheck ARG...: `dbio run ARG...` under valgrind, which must find
# nothing (exit 99 when it does) and let dbio exit 0 with a result.
memcheck() {
	command -v valgrind >/dev/null || skip "valgrind is not installed (scripts/install-deps installs it)"
	case $(basename "$DBIO") in
	*-san | *-tsan | *-fuzz) skip "$(basename "$DBIO") is built with a sanitizer, which valgrind cannot run" ;;
	esac
	run --separate-stderr valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--show-leak-kinds=definite "$DBIO" run --directory="$target" --progress=none --output="$result" "$@"
	if [ "$status" -ne 0 ]; then
		printf 'valgrind dbio run %s: exit %s\n%s\n' "$*" "$status" "$stderr" >&2
		return 1
	fi
	json_is "$result" jobs.0.runs.0.partial=false
	is_empty_dir "$target"
}

@test "valgrind: fileio, psync randrw with a verify pass" {
	memcheck --size=1m --rw=randrw --bs=4k --verify=crc32c
}

@test "valgrind: fileio through each queued engine" {
	local e
	for e in $(queued_engines_of_build); do
		memcheck --size=1m --rw=randread --bs=4k --ioengine="$e" --iodepth=4 --direct=1
	done
}

@test "valgrind: fileio through mmap, with two threads on a shared file" {
	memcheck --size=1m --rw=randrw --bs=4k --ioengine=mmap --numjobs=2 --share_files=1
}

@test "valgrind: kv on each engine of the build" {
	local e
	need_kv_engine
	for e in $(kv_engines_of_build); do
		memcheck --workload=kv --kv_engine="$e" --records=500
	done
}

@test "valgrind: import" {
	need_built workload=import
	memcheck --workload=import --rows=500 --indexes=2
}

@test "valgrind: oltp" {
	need_built workload=oltp
	memcheck --workload=oltp --numjobs=2 --size=2m --time_based --runtime=1
}

@test "valgrind: meta, create, stat and delete" {
	memcheck --workload=meta --meta_files=200
}
