#!/usr/bin/env bats
# fio's command line in `dbio run` (docs/fio.md, "fio's command line"):
# single-dash options (`fio -name=x -rw=read`), jobs made on the command
# line by each -name, and options beside a job file as defaults that the
# file's keys override — with --set for a key over the file's. The op
# counts are fio 3.33's for the same command lines; where fio is installed
# they are checked against it too.

load helpers

# counts FIOJSON: "job:reads:writes" for each job of fio's JSON (of either
# tool), space-separated.
counts() {
	"$PYTHON" - "$1" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
print(" ".join("%s:%d:%d" % (j["jobname"], j["read"]["total_ios"], j["write"]["total_ios"]) for j in r["jobs"]))
EOF
}

# both WANT ARGS...: `dbio run --output-format=json ARGS` gives the counts
# WANT, and so does `fio --output-format=json ARGS` where fio is installed
# (in an empty directory of its own: its files are made where it runs).
both() {
	local want=$1
	shift
	run --separate-stderr "$DBIO" run --output-format=json "$@" --directory="$target"
	[ "$status" -eq 0 ] || {
		echo "dbio: $stderr" >&2
		return 1
	}
	printf '%s\n' "$output" >dbio.json
	[ "$(counts dbio.json)" = "$want" ] || {
		echo "dbio: $(counts dbio.json), expected $want" >&2
		return 1
	}
	command -v fio >/dev/null || return 0
	mkdir -p fio-dir
	(cd fio-dir && fio --output-format=json "$@" >../fio.json)
	[ "$(counts fio.json)" = "$want" ] || {
		echo "fio: $(counts fio.json), expected $want" >&2
		return 1
	}
}

two_jobs() {
	printf '[global]\nioengine=null\n[a]\nsize=4m\nbs=4k\nrw=read\n[b]\nrw=read\nsize=2m\n' >"$scratch/p.fio"
}

@test "fio cmdline: options beside a job file are defaults its keys override, before or after the file, as fio's" {
	two_jobs
	# a keeps its size and bs; b takes bs=64k, keeps its size
	both "a:1024:0 b:32:0" "$scratch/p.fio" --size=8m --bs=64k
	both "a:1024:0 b:32:0" --size=8m --bs=64k "$scratch/p.fio"
	# the file's [global] overrides them too, under fio's other name
	printf '[global]\nioengine=null\nbs=4k\n[a]\nsize=4m\nrw=read\n' >"$scratch/g.fio"
	both "a:1024:0" "$scratch/g.fio" --blocksize=64k
}

@test "fio cmdline: an option a job file's key overrides is named on stderr once, with the line that wins and --set" {
	two_jobs
	run --separate-stderr "$DBIO" run --output-format=json "$scratch/p.fio" --size=8m --bs=64k --directory="$target"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(grep -c '^dbio: note:' <<<"$stderr")" -eq 2 ]
	grep -qxF "dbio: note: --size=8m beside a job file is a default: job 'a' sets size at $scratch/p.fio:4, which wins, as in fio; --set size=8m puts it over the file" <<<"$stderr"
	grep -qxF "dbio: note: --bs=64k beside a job file is a default: job 'a' sets bs at $scratch/p.fio:5, which wins, as in fio; --set bs=64k puts it over the file" <<<"$stderr"
	# stdout is still the JSON alone; a key no job sets, or --set, says nothing
	"$PYTHON" -c 'import json, sys; json.load(sys.stdin)' <<<"$output"
	run --separate-stderr "$DBIO" run "$scratch/p.fio" --set size=8m --numjobs=1 --directory="$target"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[[ "$stderr" != *"note:"* ]]
}

@test "fio cmdline: --set KEY=VALUE is a key over the job file's, for every job" {
	two_jobs
	dbio_ok "$scratch/p.fio" --directory="$target" --set size=8m --set bs=64k
	json_is "$result" "$R0.ops.read.count=128" "jobs.1.runs.0.ops.read.count=128"
	json_is "$result" "jobs.0.options.size=8388608" "jobs.1.options.bs=65536"
	run -2 --separate-stderr "$DBIO" run "$scratch/p.fio" --set size
	[ "$stderr" = "dbio: command line: --set: bad value 'size': expected KEY=VALUE (a job key and its value)" ]
	run -2 --separate-stderr "$DBIO" run "$scratch/p.fio" --set nosuch=1 --directory="$target"
	[[ "$stderr" == "dbio: command line: key 'nosuch': unknown"* ]]
}

@test "fio cmdline: single-dash options, and each -name a job of its own with the options before the first for all" {
	both "x:256:0" -name=x -ioengine=null -rw=read -size=1m -bs=4k
	both "x:256:0 y:0:512" -ioengine=null -rw=read -bs=4k -name=x -size=1m -name=y -size=2m -rw=write
	# dbio's own options take one dash too, as fio's (getopt_long_only)
	run --separate-stderr "$DBIO" run -name=x -ioengine=null -size=64k -directory="$target" -output="$result"
	[ "$status" -eq 0 ]
	json_is "$result" "jobs.0.name=x" "$R0.ops.read.count=16"
	# a dash and a word that is no option nor key stays a job file's name
	run -2 --separate-stderr "$DBIO" run -nosuch=1
	[ "$stderr" = "dbio: -nosuch=1: cannot open job file: No such file or directory" ]
}

@test "fio cmdline: --max-jobs=N is taken and changes nothing, as in fio 3.33 (run-fio-tests.py passes --max-jobs=16)" {
	dbio_ok --max-jobs=2 --name=x --numjobs=4 --ioengine=null --size=1m --directory="$target"
	json_is "$result" "$R0.ops.read.count=1024" "jobs.0.options.numjobs=4"
	if command -v fio >/dev/null; then # fio runs all four, one entry each
		(cd "$target" && fio --output-format=json --max-jobs=2 --name=x --numjobs=4 --ioengine=null --size=1m >"$scratch/fio.json")
		[ "$(counts "$scratch/fio.json")" = "x:256:0 x:256:0 x:256:0 x:256:0" ]
	fi
	run -2 --separate-stderr "$DBIO" run --max-jobs=0 --size=1m
	[ "$stderr" = "dbio: command line: --max-jobs: bad value '0': expected a whole number from 1" ]
}

@test "fio cmdline: --section NAME runs only that job section ([global] applies), given again for more; the others are not read, as fio's" {
	# [b]'s key is one dbio does not know: skipped unread, as fio skips it
	printf '[global]\nioengine=null\nsize=1m\n[a]\nrw=write\n[b]\nrw=read\nno_such_key=1\n[c]\nrw=read\n' >"$scratch/s.fio"
	both "a:0:256 c:256:0" --section=a --section c "$scratch/s.fio"
	both "c:256:0" "$scratch/s.fio" --section=c
	run -2 --separate-stderr "$DBIO" run "$scratch/s.fio" --section=zz --directory="$target"
	[ "$stderr" = "dbio: --section zz: no job: no [section] of the job files has that name (fio: \"No job(s) defined\")" ]
	run -2 --separate-stderr "$DBIO" run --section=a --name=x --size=1m --directory="$target"
	[ "$stderr" = "dbio: --section a: picks the [sections] of job files, and none was given" ]
	is_empty_dir "$target"
}

@test "fio cmdline: --parse-only checks every key and runs nothing: exit 0, or 2 with the key at fault, no file made" {
	printf '[a]\nrw=write\nsize=1m\n' >"$scratch/p.fio"
	run -0 --separate-stderr "$DBIO" run --parse-only "$scratch/p.fio" --directory="$target"
	[ -z "$output" ]
	[ -z "$stderr" ]
	is_empty_dir "$target"
	printf '[a]\nrw=write\nsize=1m\nbs=3x\n' >"$scratch/bad.fio"
	run -2 --separate-stderr "$DBIO" run --parse-only "$scratch/bad.fio" --directory="$target"
	[[ "$stderr" == "dbio: $scratch/bad.fio:4: key 'bs': "* ]]
	is_empty_dir "$target"
}

@test "fio cmdline: --readonly refuses a job that would write, before any I/O; a job reading back kept files runs" {
	run -2 --separate-stderr "$DBIO" run --readonly --name=x --rw=randwrite --size=1m --directory="$target"
	[ "$stderr" = "dbio: command line: key 'rw': --readonly: the job writes or trims: fio's read-only mode refuses it (job 'x')" ]
	run -2 --separate-stderr "$DBIO" run --readonly --name=x --rw=read --size=1m --directory="$target"
	[[ "$stderr" == "dbio: command line: key 'rw': --readonly: dbio would lay out the job's files first, writing them"* ]]
	run -2 --separate-stderr "$DBIO" run --readonly --workload=meta --directory="$target"
	[[ "$stderr" == "dbio: command line: key 'workload': --readonly: workload=meta writes"* ]]
	is_empty_dir "$target"
	# written and kept, then read back under --readonly: every block checked
	dbio_ok --keep --name=v --rw=write --bs=4k --size=64k --verify=crc32c --directory="$target"
	run -0 --separate-stderr "$DBIO" run --readonly --output="$scratch/ro.json" --name=v --rw=write --bs=4k \
		--size=64k --verify=crc32c --verify_only=1 --directory="$target"
	json_is "$scratch/ro.json" "$R0.ops.read.count=16" "$R0.ops.write.count=0"
}

@test "fio cmdline: fio's ETA and pool options are taken (--eta, --eta-newline, --eta-interval, --alloc-size, --warnings-fatal, --output-format=normal), bad values refused" {
	both "x:256:0" --name=x --ioengine=null --size=1m --eta=never --eta-newline=2 --eta-interval 500ms \
		--alloc-size=1024 --warnings-fatal
	run -0 --separate-stderr "$DBIO" run --name=x --ioengine=null --size=1m --output-format=normal --directory="$target"
	[[ "$output" == "job x: rw=read bs=4 KiB size=1 MiB"* ]]
	run -2 --separate-stderr "$DBIO" run --name=x --eta=sometimes
	[ "$stderr" = "dbio: command line: --eta: bad value 'sometimes': expected always, never or auto" ]
	run -2 --separate-stderr "$DBIO" run --name=x --eta-newline=0
	[ "$stderr" = "dbio: command line: --eta-newline: bad value '0': expected a time above 0 (2, 500ms, 2s, 1m)" ]
	run -2 --separate-stderr "$DBIO" run --name=x --output-format=terse
	[ "$stderr" = "dbio: command line: --output-format: 'terse': fio's terse output is not in dbio; expected json, json+ or normal" ]
}

@test "fio cmdline: each fio option dbio does not take is refused with its reason, not as an unknown key" {
	for o in --status-interval=1 --minimal --terse-version=3 --debug=io --showcmd --aux-path=/tmp --idle-prof=system \
		--server --daemonize=/tmp/p --client=h --remote-config=f --trigger-file=f --trigger-timeout=1 \
		--trigger=cmd --trigger-remote=cmd --inflate-log=l --merge-blktrace-only --crctest --cpuclock-test \
		--enghelp --cmdhelp=all; do
		run -2 --separate-stderr "$DBIO" run --name=x --size=1m "$o" --directory="$target"
		[[ "$stderr" == "dbio: command line: ${o%%=*}: fio's option, not taken: "?* ]] || {
			echo "$o: $stderr" >&2
			false
		}
	done
	is_empty_dir "$target"
}
