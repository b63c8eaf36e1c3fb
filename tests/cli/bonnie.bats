#!/usr/bin/env bats
# dbio bonnie: bonnie++ 2.00's command line run as dbio jobs — exact counts
# of blocks and files per -s and -n, bonnie++'s CSV line read by Debian's
# bon_csv2txt and bon_csv2html, -q, -x, -b, -r as a memory limit and the
# 2 x RAM rule, refusals with their exact messages, nothing left behind
# (also after SIGINT).

load helpers

# bonnie ARG...: `dbio bonnie -d $target ARG... --output $result`, which must
# exit 0; stdout and stderr in $output and $stderr.
bonnie() {
	run --separate-stderr "$DBIO" bonnie -d "$target" "$@" --output "$result" --progress=none
	[ "$status" -eq 0 ] || {
		echo "dbio bonnie $* exited $status; stderr:" >&2
		printf '%s\n' "$stderr" >&2
		return 1
	}
}

# csv_field N: field N (from 0) of the CSV line in $output.
csv_field() {
	cut -d, -f"$(($1 + 1))" <<<"$(tail -n 1 <<<"$output")"
}

@test "bonnie: blocks per -s SIZE:CHUNK:SEEKS:SEEKERS and files per -n NUM:MAX:MIN:DIRS, exact" {
	# -r 0: the counts alone. A 64 MiB rewrite in a 32 MiB memory cgroup
	# (-r 32) was killed by the kernel once in seven runs under the
	# sanitizers on a loaded machine: cgroup v1 reclaim waits on the
	# dirty page cache's writeback, and does not always wait long enough
	# (docs/bonnie.md). -r as a memory cgroup is the next test's.
	bonnie -s 64:16k:1000:4 -r 0 -n 1:2k:1k:2 -z 7 -m box -q
	# block write, rewrite, read: 64 MiB / 16 KiB = 4096 blocks; seeks: 1000 by 4 threads, 10 % writes;
	json_is "$result" jobs.0.name=block-write "$R0.ops.write.count=4096" "$R0.ops.write.bytes=67108864" \
		jobs.1.name=rewrite jobs.1.runs.0.ops.read.count=4096 jobs.1.runs.0.ops.write.count=4096 \
		jobs.2.name=block-read jobs.2.runs.0.ops.read.count=4096 jobs.2.runs.0.ops.write.count=0 \
		jobs.3.name=seeks jobs.3.runs.0.threads=4 jobs.3.options.rwmixread=90 \
		jobs.0.options.bs=16384 jobs.0.options.mem_limit=0 jobs.0.options.randseed=7
	[ "$(jpy "$result" 'sum(r["jobs"][3]["runs"][0]["ops"][o]["count"] for o in ("read", "write"))')" -eq 1000 ]
	[ "$(jpy "$result" '50 < r["jobs"][3]["runs"][0]["ops"]["write"]["count"] < 150')" = true ]
	# files: 1024 created, read and deleted in each order, sizes 1024..2048 bytes, in 2 directories
	for j in 4 5; do
		json_is "$result" "jobs.$j.runs.0.ops.create.count=1024" "jobs.$j.runs.0.ops.read.count=1024" \
			"jobs.$j.runs.0.ops.delete.count=1024" "jobs.$j.options.meta_dirs=2" \
			"jobs.$j.runs.0.phases.1.name=read"
		[ "$(jpy "$result" "1024 * 1024 < r['jobs'][$j]['runs'][0]['ops']['create']['bytes'] < 1024 * 2048")" = true ]
	done
	json_is "$result" jobs.4.options.meta_order=seq jobs.5.options.meta_order=random
	# -q: the CSV line alone on stdout, bonnie++'s fields where bonnie++ puts them
	[ "${#lines[@]}" -eq 1 ]
	# (bonnie++ 2.00a leaves io_chunk_size empty and writes the directories one field late)
	[ "$(cut -d, -f1,3-10 <<<"$output")" = "1.98,box,1,7,64M,,1000,4," ]
	[ "$(cut -d, -f22-26 <<<"$output")" = "1,2048,1024,,2" ]
	[ "$(awk -F, '{print NF}' <<<"$output")" -eq 50 ]
	[[ "$stderr" == *"Version dbio-"*"box 64M:16k::1000:4 "* ]]
	is_empty_dir "$target"
}

@test "bonnie: -r RAM is made true: every job runs in a memory cgroup of RAM MiB, and its peak stays in it" {
	[ "$(id -u)" -eq 0 ] || skip "needs root (a memory cgroup)"
	# -s 0: the file tests alone (bonnie++'s way to skip the block tests).
	bonnie -s 0 -r 16 -n 1:2k:1k:2 -q
	json_is "$result" jobs.0.name=files-seq jobs.1.name=files-random \
		jobs.0.options.mem_limit=16777216 jobs.1.options.mem_limit=16777216 \
		jobs.0.runs.0.memory.limit_bytes=16777216 jobs.1.runs.0.memory.limit_bytes=16777216
	[ "$(jpy "$result" 'all(0 < j["runs"][0]["memory"]["peak_bytes"] <= 16 << 20 for j in r["jobs"])')" = true ]
	is_empty_dir "$target"
}

@test "bonnie: Debian's bon_csv2txt and bon_csv2html read the CSV line and show its figures" {
	command -v bon_csv2txt >/dev/null || skip "bonnie++ is not installed (scripts/install-deps)"
	bonnie -s 4 -r 0 -n 1 -m ci -q
	files_s=$(csv_field 26)
	# a figure, or +++++ for a test under 500 ms (as bonnie++)
	[[ "$(csv_field 11)" =~ ^([0-9]+|\+{5})$ ]]
	[[ "$files_s" =~ ^([0-9]+|\+{5})$ ]]
	txt=$(bon_csv2txt <<<"$output" 2>&1)
	# the block line: name, size, then the write rate as bon_csv2txt writes it (k, m or g)
	grep -E "^ci +4M::8192:5 +([0-9.]+[kmg]|\+{5}) +([0-9]+|\+{3}) " <<<"$txt"
	grep -E "^ci +1 +${files_s//+/\\+} +([0-9]+|\+{3}) " <<<"$txt"
	[ "$(grep -c '^Latency' <<<"$txt")" -eq 2 ]
	html=$(bon_csv2html <<<"$output" 2>&1)
	grep -q "<td>$files_s</td>" <<<"$html"
	grep -q ">4M<" <<<"$html"
}

@test "bonnie: a comma in -m is refused, as it would shift bonnie++'s CSV; an ESC or a newline in -m is escaped in the table and the CSV, which bon_csv2txt reads in place" {
	command -v bon_csv2txt >/dev/null || skip "bonnie++ is not installed (scripts/install-deps)"
	run -2 --separate-stderr "$DBIO" bonnie -d "$target" -s 0 -n 1 -m 'a,b,c'
	[ "$stderr" = "dbio: bonnie: -m a,b,c: a comma would split the name across columns of bonnie++'s CSV line (bonnie++ 2.00a writes it as it is, and bon_csv2txt then reads every figure in the wrong column): give a name without one" ]
	is_empty_dir "$target"
	bonnie -s 0 -n 1 -m "$(printf 'e\033[31mX\nq')"
	# nothing raw: no ESC and no line of the name's second half
	[ "$(grep -c $'\033' <<<"$output")" -eq 0 ]
	[ "$(grep -c '^q' <<<"$output")" -eq 0 ]
	[ "$(grep -c '^e\\x1b\[31mX\\x0aq ' <<<"$output")" -eq 1 ]
	csv=$(tail -n 1 <<<"$output")
	# bonnie++ 2.00a's 50 fields, the name in the third
	[ "$(awk -F, '{ print NF }' <<<"$csv")" -eq 50 ]
	[ "$(cut -d, -f3 <<<"$csv")" = 'e\x1b[31mX\x0aq' ]
	grep -qE "^e\\\\x1b\\[31mX\\\\x0aq +1 +([0-9]+|\+{5}) +([0-9]+|\+{3}) " <<<"$(bon_csv2txt <<<"$csv")"
}

@test "bonnie: without -q the table and the CSV line go to stdout; -x 2 runs twice: bonnie++'s header line, then a line each, no table" {
	bonnie -s 0 -n 1 -m once
	[ "${#lines[@]}" -eq 6 ]
	[ "$(grep -c '^Version dbio-' <<<"$output")" -eq 1 ]
	grep -qE '^ +1( +([0-9]+|\+{5}) +([0-9]+|\+{3})){6}$' <<<"$output"
	[[ "${lines[5]}" == 1.98,dbio-*,once,* ]]
	bonnie -s 0 -n 1 -x 2 -m twice
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" == format_version,bonnie_version,name,concurrency,seed,file_size,io_chunk_size,putc,* ]]
	[ "$(awk -F, '{ print NF }' <<<"${lines[0]}")" -eq 48 ]
	[ "$(grep -c '^1\.98,dbio-' <<<"$output")" -eq 2 ]
	json_is "$result" jobs.0.name=files-seq jobs.0.options.repeat=2 jobs.0.runs.1.ops.create.count=1024 \
		jobs.1.runs.1.ops.delete.count=1024 jobs.0.runs.0.phases.1.name=stat
	is_empty_dir "$target"
}

@test "bonnie: -b fsyncs after every write and the directory after every create and delete; -D is O_DIRECT for the block write, as bonnie++ 2.00" {
	bonnie -s 2 -r 0 -n 1 -b -D -q
	# fsync=1 as fio 3.33 counts it: 256 writes, 255 fsyncs (fio --fsync=1 on 2 MiB of 8 KiB writes says the same)
	# bonnie++ 2.00 -D (strace): O_DIRECT where it creates the file, O_RDWR alone where rewrite, read and seeks reopen it
	json_is "$result" "$R0.ops.write.count=256" "$R0.ops.fsync.count=255" jobs.0.options.direct=true \
		jobs.1.options.direct=false jobs.2.options.direct=false jobs.3.options.direct=false \
		jobs.1.runs.0.ops.fsync.count=255 jobs.4.options.meta_fsync_dir=true
	is_empty_dir "$target"
}

@test "bonnie: the 2 x RAM rule: a file smaller than twice -r (or the machine's RAM) is refused" {
	run -2 --separate-stderr "$DBIO" bonnie -d "$target" -s 20 -r 16
	[ "$stderr" = "dbio: bonnie: -s 20: the file should be at least twice the RAM (16 MiB, -r), or the page cache serves the reads (bonnie++'s rule); give -s 32 or more, a smaller -r (dbio then runs in a memory cgroup of that size, mem_limit, so the rule holds), or -r 0 to skip the check" ]
	ram=$(($(getconf _PHYS_PAGES) * $(getconf PAGESIZE) / 1048576))
	run -2 --separate-stderr "$DBIO" bonnie -d "$target" -s 8 -n 0
	[ "$stderr" = "dbio: bonnie: -s 8: the file should be at least twice the RAM ($ram MiB, this machine's; -r sets it), or the page cache serves the reads (bonnie++'s rule); give -s $((2 * ram)) or more, a smaller -r (dbio then runs in a memory cgroup of that size, mem_limit, so the rule holds), or -r 0 to skip the check" ]
	is_empty_dir "$target"
}

@test "bonnie: bad options are refused with what is accepted, before anything is written" {
	check() {
		local want=$1
		shift
		run -2 --separate-stderr "$DBIO" bonnie -d "$target" "$@"
		[ "$stderr" = "dbio: bonnie: $want" ] || {
			echo "got: $stderr" >&2
			return 1
		}
	}
	check "-s 64:100: the chunk size is a power of two from 256 to 1048576 bytes, or 1k to 1024k (k alone: bonnie++ reads 1m as 1 byte)" -s 64:100
	check "-s x: the size is a whole number of MiB, or of GiB with g (64, 2g)" -s x
	check "-s 1:8k:1:2:3: expected SIZE[:CHUNK[:SEEKS[:SEEKERS]]]" -s 1:8k:1:2:3
	check "-n 1:10:20: the smallest file size (MIN) is more than the largest (MAX)" -n 1:10:20
	check "-n 1:-2: hard and symbolic links (MAX -1 and -2) are not supported: dbio makes files" -n 1:-2
	check "-n 1:4k:1k:2:4k: the fifth field (the chunk size of the small files' writes) is not supported: dbio writes each small file in one call" -n 1:4k:1k:2:4k
	check "-u nobody: dbio runs as the user that starts it and switches to no other; -u root (or 0) is accepted" -u nobody
	check "-s 4:1m: the chunk size is a power of two from 256 to 1048576 bytes, or 1k to 1024k (k alone: bonnie++ reads 1m as 1 byte)" -s 4:1m
	check "-c 0: the concurrency is a whole number from 1 to 200 (bonnie++ 2.00a's range)" -c 0
	check "-c 201: the concurrency is a whole number from 1 to 200 (bonnie++ 2.00a's range)" -c 201
	check "-c 2x: the concurrency is a whole number from 1 to 200 (bonnie++ 2.00a's range)" -c 2x
	check "-s 32 with -c 3: the file size times -c should be at least twice the RAM (64 MiB, -r), or the page cache serves the reads (bonnie++'s rule); give -s 43 or more, a smaller -r (dbio then runs in a memory cgroup of that size, mem_limit, so the rule holds), or -r 0 to skip the check" -s 32 -r 64 -c 3
	check "-f 20: per-char tests are not run by dbio: putc and getc time the C library's stdio buffer, not the storage; -f alone (skip them) is accepted" -f20
	check "-p: bonnie++'s semaphores between processes are not supported: one dbio command runs its jobs in order; run several targets from one job file" -p 3
	check "'-Q': unknown option: expected -d, -s, -n, -m, -r, -x, -z, -q, -f, -b, -D, -u, -g, -c, -p, -y, -Z, --format, --output, --series-csv, --progress, --set, --keep, --force, --wide or --help" -Q
	check "'-Q': unknown option: expected -d, -s, -n, -m, -r, -x, -z, -q, -f, -b, -D, -u, -g, -c, -p, -y, -Z, --format, --output, --series-csv, --progress, --set, --keep, --force, --wide or --help" -qQ
	check "-s: needs a value" -s
	check "-s 64:100: the chunk size is a power of two from 256 to 1048576 bytes, or 1k to 1024k (k alone: bonnie++ reads 1m as 1 byte)" -qs64:100
	check "'extra': bonnie++ takes no operands; the directory is -d DIR" extra
	check "-s 0 and -n 0: no test left to run" -s 0 -n 0
	check "-r 8: dbio makes -r true with a memory cgroup (mem_limit) and needs at least 16 MiB in it; give -r 16 or more, or -r 0 to skip the check" -s 16 -r 8
	check "'--bs=4k': bonnie++'s options are single letters (-d DIR, -s SIZE ...); of dbio's, --output, --format, --force and --progress" --bs=4k
	is_empty_dir "$target"
}

@test "bonnie: -u root is accepted; --format json prints dbio's result" {
	run --separate-stderr "$DBIO" bonnie -d "$target" -u root:root -s 0 -n 1 --format json --progress=none
	[ "$status" -eq 0 ]
	[ "$(jq -r '.jobs | map(.name) | join(",")' <<<"$output")" = "files-seq,files-random" ]
	[ "$(jq -r '.argv[1]' <<<"$output")" = bonnie ]
}

@test "bonnie: SIGINT while creating files: exit 130, no file left behind" {
	"$DBIO" bonnie -d "$target" -s 0 -n 500:0:0:10 --progress=none >/dev/null 2>"$scratch/err" &
	bg_pid=$!
	wait_for "$target/dbio.files-seq.0.db/d9/9"
	kill -INT "$bg_pid"
	rc=0
	wait "$bg_pid" || rc=$?
	bg_pid=
	[ "$rc" -eq 130 ] || { cat "$scratch/err"; false; }
	is_empty_dir "$target"
}

@test "bonnie: a symlink planted where a block file goes is refused, its target untouched" {
	echo keep >"$scratch/victim"
	ln -s "$scratch/victim" "$target/dbio.block-write.0.0"
	run -2 --separate-stderr "$DBIO" bonnie -d "$target" -s 1 -r 0 -n 0 -q --progress=none
	[ "$stderr" = "dbio: $target/dbio.block-write.0.0: already exists: left by an earlier run? remove it and run again" ]
	[ "$(cat "$scratch/victim")" = keep ]
	[ "$(ls -A "$target")" = dbio.block-write.0.0 ]
}

# csv_shape: the CSV line in $output with each figure, %CP and latency
# replaced by its class (F: a whole number, a seeks/s figure or +++++;
# C: a whole %CP or +++; L: NNus, NNms or NNs), the rest kept; fails on a
# field of a measured column that is none of them.
csv_shape() {
	python3 -c '
import re, sys
f = sys.argv[1].split(",")
out = []
for i, v in enumerate(f):
    fig = 9 <= i <= 37 and not 21 <= i <= 25
    cpu = fig and (i - (9 if i <= 20 else 26)) % 2 == 1
    if v == "" or not (fig or i >= 38):
        out.append(v)
    elif cpu and re.fullmatch(r"\d+|\+{3}", v):
        out.append("C")
    elif fig and not cpu and re.fullmatch(r"\d+(\.\d)?|\+{5}", v):
        out.append("F")
    elif i >= 38 and re.fullmatch(r"\d+(us|ms|s)", v):
        out.append("L")
    else:
        sys.exit("field %d: %r" % (i, v))
print(",".join(out))' "$(tail -n 1 <<<"$output")"
}

@test "bonnie: every field of the CSV line per option set is where and as bonnie++ 2.00a writes it (bench/bonnie-csv.sh compares with a real run)" {
	v="1.98,dbio-[0-9.]+,box,1"
	check_shape() {
		local want=$1
		shift
		bonnie -m box -q "$@"
		got=$(csv_shape)
		[[ "$got" =~ ^$want$ ]] || {
			echo "dbio bonnie $*: got $got" >&2
			return 1
		}
		[ "$(awk -F, '{ print NF }' <<<"$(tail -n 1 <<<"$output")")" -eq 50 ]
	}
	# each part is its fields, a comma before each
	io=",,,F,C,F,C,,,F,C,F,C"    # putc and getc empty: dbio never runs them
	noio=",,,,,,,,,,,,,,,,"      # -s 0: size, chunk, seeks, seekers and the 12 figures empty
	nofiles=",,,,,,,,,,,,,,,,," # -n 0: the 5 settings and the 12 figures
	files=",F,C,F,C,F,C,F,C,F,C,F,C"
	check_shape "$v,5,4M,,8192,5$io$nofiles,,L,L,,L,L,,,,,," -s 4 -r 0 -n 0 -z 5
	# the chunk is not in the line (bonnie++ 2.00a leaves io_chunk_size empty); seeks and seekers are
	check_shape "$v,24301,4M,,100,2$io$nofiles,,L,L,,L,L,,,,,," -s 4:16k:100:2 -r 0 -n 0 -f
	check_shape "$v,24301,1G,,8192,5$io$nofiles,,L,L,,L,L,,,,,," -s 1g -r 0 -n 0 -f
	# -c N: bonnie++ 2.00a runs one copy all the same and writes N in the line
	check_shape "1.98,dbio-[0-9.]+,box,3,24301,4M,,8192,5$io$nofiles,,L,L,,L,L,,,,,," -s 4 -r 0 -n 0 -c 3
	# MAX alone leaves MIN empty; DIRS above 1 goes one field late (as bonnie++ 2.00a), 1 leaves it empty
	check_shape "$v,24301$noio,1,4096,,,$files,,,,,,,L,L,L,L,L,L" -s 0 -n 1:4k
	check_shape "$v,24301$noio,1,4096,1024,,2$files,,,,,,,L,L,L,L,L,L" -s 0 -n 1:4k:1k:2
	check_shape "$v,24301$noio,1,,,,3$files,,,,,,,L,L,L,L,L,L" -s 0 -n 1:0:0:3
	check_shape "$v,24301$noio,1,,,,$files,,,,,,,L,L,L,L,L,L" -s 0 -n 1:0:0:1
}

@test "bonnie: %CP is bonnie++'s: (user + system CPU) / elapsed * 100, truncated, +++ under 500 ms; a single-threaded test stays within 100 %" {
	# -b: a directory fsync after each create and delete, so that the file tests take long enough
	# to be timed; more files where 1024 are too quick (tmpfs)
	for n in 1 16; do
		bonnie -s 0 -n $n -b -q
		[ "$(cut -d, -f27 <<<"$(tail -n 1 <<<"$output")")" = "+++++" ] || break
	done
	csv=$(tail -n 1 <<<"$output")
	timed=0
	for k in 0 1 2 3 4 5; do
		fig=$(cut -d, -f$((27 + 2 * k)) <<<"$csv")
		cp=$(cut -d, -f$((28 + 2 * k)) <<<"$csv")
		job=$((k / 3))
		phase=$((k % 3))
		p="r['jobs'][$job]['runs'][0]['phases'][$phase]"
		secs="($p['elapsed_ns'] / 1e9)"
		want=$(jpy "$result" "'+++' if $secs < 0.5 else int(($p['rusage']['user_s'] + $p['rusage']['sys_s']) / $secs * 100)")
		[ "$cp" = "$want" ] || {
			echo "phase $k: %CP $cp, from the result $want" >&2
			return 1
		}
		if [ "$cp" = "+++" ]; then
			[ "$fig" = "+++++" ]
		else
			timed=$((timed + 1))
			[ "$cp" -le 102 ] # one thread: at most its elapsed time, a clock tick of slack
			[ "$fig" = "$(jpy "$result" "int($n * 1024 / $secs)")" ]
		fi
	done
	# the creates with a directory fsync each take longer than 500 ms
	[ "$timed" -ge 1 ]
}
