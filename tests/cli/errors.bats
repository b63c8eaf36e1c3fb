#!/usr/bin/env bats
# Bad input: exit status 2, one exact line on stderr, nothing on stdout, and
# nothing written anywhere: the target directory stays empty, no --output
# file, no ./dbio-scratch.

load helpers

# refused MESSAGE ARG...: `dbio ARG...` exits 2 with exactly MESSAGE on
# stderr and writes nothing.
refused() {
	local want=$1 before
	shift
	before=$(ls -A "$scratch")
	run -2 --separate-stderr "$DBIO" "$@"
	[ "$stderr" = "$want" ] || {
		printf 'stderr:   %s\nexpected: %s\n' "$stderr" "$want" >&2
		return 1
	}
	[ -z "$output" ]
	is_empty_dir "$target"
	[ ! -e "$result" ]
	[ ! -e dbio-scratch ]
	[ "$(ls -A "$scratch")" = "$before" ]
}

# bad_job NAME: jobs/NAME.fio is refused with the line in jobs/NAME.expected,
# where @ENGINES@ stands for the I/O engines of the build under test.
bad_job() {
	local want
	[ -f "$JOBS/$1.expected" ]
	cp "$JOBS/$1.fio" .
	want=$(cat "$JOBS/$1.expected")
	want=${want//@ENGINES@/$(engines_of_build | join_list ', ')}
	refused "$want" run "$1.fio" --directory="$target" --output "$result"
}

@test "command line: unknown key, with the key meant" {
	refused "dbio: command line: key 'bsz': unknown (did you mean 'bs'?)" \
		run --directory="$target" --output "$result" --bsz=4k --size=1m
}

@test "command line: bad size" {
	refused "dbio: command line: key 'size': bad value '1x': expected a size in bytes with an optional k, m, g or t suffix (binary: 1k = 1024), e.g. 4k" \
		run --directory="$target" --output "$result" --size=1x
}

@test "command line: bad rw lists the accepted values" {
	refused "dbio: command line: key 'rw': bad value 'foo': expected one of read, write, randread, randwrite, randrw, readwrite, rewrite, trim, randtrim, trimwrite, randtrimwrite" \
		run --directory="$target" --output "$result" --size=1m --rw=foo
}

@test "command line: rwmixread=101 is out of range" {
	refused "dbio: command line: key 'rwmixread': bad value '101': out of range: expected a whole number from 0 to 100" \
		run --directory="$target" --output "$result" --size=1m --rw=randrw --rwmixread=101
}

@test "command line: time_based without runtime" {
	refused "dbio: command line: key 'time_based': needs a runtime, e.g. runtime=30s (job 'job')" \
		run --directory="$target" --output "$result" --size=1m --time_based
}

@test "command line: no size" {
	refused "dbio: command line: key 'size': missing: give size= (bytes of I/O) or filesize= (bytes per file) (job 'job')" \
		run --directory="$target" --output "$result" --rw=write
}

@test "command line: direct=1 with bs=1000" {
	refused "dbio: command line: key 'bs': 1000 is not a multiple of 512, which direct=1 needs (the device's logical block size) (job 'job')" \
		run --directory="$target" --output "$result" --direct=1 --bs=1000 --size=1000k
}

@test "command line: unknown ioengine lists the engines" {
	local engines
	engines=$(engines_of_build | join_list ', ')
	[ -n "$engines" ]
	refused "dbio: command line: key 'ioengine': bad value 'libaio-nope': expected one of $engines (job 'job')" \
		run --directory="$target" --output "$result" --size=1m --ioengine=libaio-nope
}

@test "command line: a bad duration" {
	refused "dbio: command line: key 'runtime': bad value '5x': expected a duration with a suffix ns, us, ms, s, m or h (a bare number is in seconds), e.g. 30s" \
		run --directory="$target" --output "$result" --size=1m --runtime=5x
}

@test "command line: a bad key is refused even beside a good job file" {
	printf '[a]\nsize=1m\n' >good.fio
	refused "dbio: command line: key 'bsz': unknown (did you mean 'bs'?)" \
		run good.fio --directory="$target" --output "$result" --bsz=4k
}

@test "command line: a directory that does not exist" {
	refused "dbio: command line: key 'directory': $scratch/nope: No such file or directory (job 'job')" \
		run --directory="$scratch/nope" --output "$result" --size=1m
}

@test "command line: a directory that is a file" {
	: >"$scratch/plain"
	refused "dbio: command line: key 'directory': $scratch/plain: not a directory (job 'job')" \
		run --directory="$scratch/plain" --output "$result" --size=1m
}

@test "command line: an empty directory between ':'" {
	refused "dbio: command line: key 'directory': bad value '$target::$target': an empty directory between ':' separators (job 'job')" \
		run --directory="$target::$target" --output "$result" --size=1m
}

@test "--output in a directory that does not exist" {
	refused "dbio: --output $scratch/nope/r.json: cannot write there: No such file or directory" \
		run --directory="$target" --output "$scratch/nope/r.json" --size=1m
}

# BUG: dbio runs the whole job, then fails (exit 1) to write the result, which
# is lost: "dbio: <dir>: cannot write: Is a directory".
@test "--output naming a directory is refused before running" {
	mkdir "$scratch/out"
	run -2 --separate-stderr "$DBIO" run --directory="$target" --output "$scratch/out" --rw=write --size=1m
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "dbio: "*"$scratch/out"*"directory"* ]]
	is_empty_dir "$scratch/out"
	is_empty_dir "$target"
}

@test "--output without a value" {
	refused "dbio: command line: --output: needs a value" run --directory="$target" --size=1m --output
}

@test "a run option's form: a flag given a value, --progress without one" {
	refused "dbio: command line: --keep: takes no value" run --directory="$target" --size=1m --keep=1
	refused "dbio: command line: --progress: needs a value" run --directory="$target" --size=1m --progress
	refused "dbio: command line: --vary: only for \`dbio sweep\`" sync "$target" --vary bs=4k
}

@test "--format=xml" {
	refused "dbio: command line: --format: bad value 'xml': expected text, json, csv, fio-json or fio-json+" \
		run --directory="$target" --output "$result" --size=1m --format=xml
}

@test "a job file that does not exist" {
	refused "dbio: nonexistent.fio: cannot open job file: No such file or directory" \
		run nonexistent.fio --directory="$target" --output "$result"
}

@test "unknown command" {
	refused "dbio: 'frob': unknown command (\`dbio --help\` lists the commands)" frob
}

@test "a mistyped command: did you mean the closest one" {
	refused "dbio: 'rnu': unknown command (did you mean 'run'?)" rnu
	refused "dbio: 'swep': unknown command (did you mean 'sweep'?)" swep
}

@test "dbio without a command prints the usage and exits 2" {
	run -2 --separate-stderr "$DBIO"
	[ "${lines[0]}" = "usage: dbio <command> [arguments]" ]
	is_empty_dir "$target"
}

@test "job file: unknown key, at its file:line" {
	bad_job unknown-key
}

@test "job file: bad value, at its file:line" {
	bad_job bad-value
}

@test "job file: bad size" {
	bad_job bad-size
}

@test "job file: value out of range" {
	bad_job out-of-range
}

@test "job file: key outside a section" {
	bad_job key-outside-section
}

@test "job file: malformed section header" {
	bad_job malformed-section
}

@test "job file: only [global], no job" {
	bad_job only-global
}

@test "job file: empty" {
	bad_job empty
}

@test "job file: a job without size, at its section" {
	bad_job missing-size
}

@test "job file: time_based without runtime" {
	bad_job time-based-without-runtime
}

@test "job file: unknown ioengine" {
	bad_job unknown-ioengine
}

@test "job file: direct=1 with bs=1000" {
	bad_job direct-bad-bs
}

@test "job file: two jobs of one name running together" {
	bad_job same-name-together
}

@test "job file: a job name with '/'" {
	bad_job slash-in-name
}

@test "job file: a line that is not key=value" {
	bad_job junk-line
}

@test "job file: stonewall_wearout without stonewall_s, at its file:line" {
	bad_job stonewall-wearout-alone
}

@test "every bad job file has its expected message, and every message its file" {
	local f missing=
	for f in "$JOBS"/*.fio; do
		[ -f "${f%.fio}.expected" ] || missing="$missing ${f##*/}"
		grep -q "bad_job $(basename "$f" .fio)\$" "$BATS_TEST_FILENAME" || missing="$missing untested:${f##*/}"
	done
	for f in "$JOBS"/*.expected; do
		[ -f "${f%.expected}.fio" ] || missing="$missing ${f##*/}"
		[ "$(wc -l <"$f")" -eq 1 ] || missing="$missing not-one-line:${f##*/}"
	done
	[ -z "$missing" ] || {
		echo "unpaired:$missing" >&2
		return 1
	}
}

# ---- what inih would misread (issue 11, breaks 8 and 14) ----

@test "a comment longer than 65534 bytes is refused, not half read as keys" {
	{
		printf '[j]\nrw=read\nsize=1m\n# '
		head -c 70000 /dev/zero | tr '\0' x
		printf ' rw=randwrite\n'
	} >long.fio
	refused "dbio: long.fio:4: line longer than 65534 bytes (comments too): split it" \
		run long.fio --directory="$target" --output "$result"
}

@test "a NUL byte in a job file is refused with its line and column" {
	printf '[j]\nrw=read\nsize=1m\x00junk\n' >nul.fio
	refused "dbio: nul.fio:3: a NUL byte at column 8: a job file is text" \
		run nul.fio --directory="$target" --output "$result"
}

@test "a UTF-8 byte-order mark at the start of a job file is skipped" {
	printf '\xef\xbb\xbf[global]\nsize=64k\n[j]\nrw=read\n' >bom.fio
	run --separate-stderr "$DBIO" run bom.fio --directory="$target" --output "$result"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	json_is "$result" jobs.0.name=j "$R0.ops.read.count=16"
}

# ---- keys that belong to another workload or engine ----

@test "a key of another workload or engine is refused, naming whom it belongs to" {
	refused "dbio: command line: key 'records': belongs to workload=kv; this job is workload=fileio (job 'job')" \
		run --rw=read --size=64k --records=5 --directory="$target" --output "$result"
	owners=ioengine=pvsync2
	! in_build ioengine=io_uring || owners="$owners and io_uring"
	refused "dbio: command line: key 'hipri': belongs to $owners; this job is ioengine=psync (job 'job')" \
		run --ioengine=psync --hipri=1 --size=64k --directory="$target" --output "$result"
	refused "dbio: command line: key 'bs': belongs to the workloads that do file I/O (fileio, oltp); this job is workload=kv, which does no file I/O (job 'job')" \
		run --workload=kv --bs=8k --directory="$target" --output "$result"
}

@test "a key of another workload in a job file is refused at its line" {
	need_built workload=import
	printf '[a]\nrw=read\nsize=64k\njournal_mode=wal\n' >own.fio
	refused "dbio: own.fio:4: key 'journal_mode': belongs to workload=import; this job is workload=fileio (job 'a')" \
		run own.fio --directory="$target" --output "$result"
}

@test "a key for several jobs ([global], or the command line over job files) need only be one job's own" {
	# workload=meta, which every build has, beside a fileio job.
	printf '[global]\nmeta_files=300\nsize=64k\n[files]\nrw=read\n[db]\nworkload=meta\nmeta_dirs=3\n' >mix.fio
	run --separate-stderr "$DBIO" run mix.fio --directory="$target" --output "$result" --bs=8k --progress=none
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	json_is "$result" jobs.0.options.bs=8192 jobs.1.options.meta_files=300 "jobs.0.runs.0.ops.read.count=8" \
		"jobs.1.runs.0.ops.create.count=300"
	# Each job's options are its own: no meta key in the file job, no file key in the meta job.
	[ "$(jpy "$result" '"meta_files" in r["jobs"][0]["options"]' '"bs" in r["jobs"][1]["options"]')" = "$(printf 'false\nfalse')" ]
	printf '[global]\nmeta_files=300\n[files]\nrw=read\nsize=64k\n' >none.fio
	rm "$result"
	refused "dbio: none.fio:2: key 'meta_files': belongs to workload=meta; no job it was given to is" \
		run none.fio --directory="$target" --output "$result"
}

# ---- text of files that are no job files, and control characters (issue 25, breaks 6 and 14) ----

@test "a file that is no job file, included or named, has no line of it shown in the message" {
	printf 'root:$6$s3cr3t:20228:0:99999:7:::\ndaemon:*:20228:0:99999:7:::\n' >shadow
	printf 'hunter2 is the password\n' >notes
	printf '[a]\nrw=read\nsize=64k\ninclude shadow\n' >a.fio
	refused "dbio: shadow:1: not a key: expected '[section]', 'key=value' or a bare key of letters, digits, '_' and '-' (the text is not shown: it may be from a file that is no job file)" \
		run a.fio --directory="$target" --output "$result"
	refused "dbio: shadow:1: not a key: expected '[section]', 'key=value' or a bare key of letters, digits, '_' and '-' (the text is not shown: it may be from a file that is no job file)" \
		run shadow --directory="$target" --output "$result"
	printf '[a]\nrw=read\nsize=64k\ninclude notes\n' >b.fio
	refused "dbio: notes:1: not a key: expected '[section]', 'key=value' or a bare key of letters, digits, '_' and '-' (the text is not shown: it may be from a file that is no job file)" \
		run b.fio --directory="$target" --output "$result"
	refused "dbio: command line: not a key: expected '[section]', 'key=value' or a bare key of letters, digits, '_' and '-' (the text is not shown: it may be from a file that is no job file)" \
		run '--s3cr3t:x=1' --size=64k --directory="$target" --output "$result"
}

# On the old dbio an include of a FIFO waited for a writer forever and
# /dev/zero was read to 64 MiB: timeout keeps such a dbio from hanging the
# suite; it bounds nothing this dbio does.
@test "include of a FIFO, a character device or a directory is refused without reading it; a pipe on the command line is read" {
	mkfifo fifo
	mkdir dir
	local what
	for what in fifo:'a FIFO' /dev/zero:'a character device' dir:'a directory'; do
		printf '[a]\nrw=read\nsize=64k\ninclude %s\n' "${what%%:*}" >inc.fio
		run -2 --separate-stderr timeout 60 "$DBIO" run inc.fio --directory="$target" --output "$result"
		[ "$stderr" = "dbio: inc.fio:4: include: ${what%%:*}: cannot include: ${what#*:}: a job file is a regular file" ] ||
			{ echo "$what: $stderr"; false; }
		is_empty_dir "$target"
	done
	[ -p fifo ]
	refused "dbio: /dev/zero: cannot open job file: a character device: a job file is a regular file or a pipe" \
		run /dev/zero --directory="$target" --output "$result"
	refused "dbio: dir: cannot open job file: a directory: a job file is a regular file or a pipe" \
		run dir --directory="$target" --output "$result"
	run --separate-stderr "$DBIO" run <(printf '[p]\nrw=read\nsize=64k\n') --directory="$target" --output "$result" \
		--progress=none
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	json_is "$result" jobs.0.name=p "jobs.0.runs.0.ops.read.count=16"
}

@test "a newline or ESC in a \${VAR} value, a key's value or a file name is escaped: one message line, nothing forged" {
	printf '[a]\nrw=read\nsize=64k\nbs=${X}\n' >v.fio
	X=$'4k\ndbio: all fine\e[2K' refused "dbio: v.fio:4: key 'bs': bad value '4k\\x0adbio: all fine\\x1b[2K': expected a size from 1 B to 1 GiB with an optional k, m, g or t suffix (binary: 1k = 1024), e.g. 4k" \
		run v.fio --directory="$target" --output "$result"
	refused "dbio: command line: key 'rw': bad value 'read\\x0adbio: forged': expected one of read, write, randread, randwrite, randrw, readwrite, rewrite, trim, randtrim, trimwrite, randtrimwrite" \
		run $'--rw=read\ndbio: forged' --size=64k --directory="$target" --output "$result"
	refused "dbio: a\\x0adbio: forged.fio: cannot open job file: No such file or directory" \
		run $'a\ndbio: forged.fio' --directory="$target" --output "$result"
}
