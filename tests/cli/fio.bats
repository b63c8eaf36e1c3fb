#!/usr/bin/env bats
# fio job files mean to dbio what they mean to fio: jobs of a file run
# together unless stonewall (wait_for, new_group), comments anywhere on a
# line, include, ${VAR} and fio's words in values, fio's keys that change
# nothing measured, every key dbio does not know listed at once — and, where
# fio is installed, the op counts of a file checked against fio's own.

load helpers

@test "fio: jobs of a file run at the same time unless stonewall, as in fio" {
	cat >j.fio <<'EOF'
[global]
rw=randread
size=1m
time_based
runtime=400ms

[a]
[b]
[c]
stonewall
[d]
EOF
	dbio_ok j.fio --directory="$target"
	[ "${stderr_lines[0]}" = "dbio: running a and its group (1 of 4)" ]
	[ "${stderr_lines[1]}" = "dbio: running c and its group (3 of 4)" ]
	# a and b overlap, c and d overlap, and c starts after a and b have
	# ended (timestamps in ms: 2 ms for their rounding).
	run jpy "$result" \
		'span(1)[0] < span(0)[1] and span(0)[0] < span(1)[1]' \
		'span(3)[0] < span(2)[1] and span(2)[0] < span(3)[1]' \
		'span(2)[0] >= max(span(0)[1], span(1)[1]) - 0.002'
	[ "${lines[*]}" = "true true true" ]
	json_is "$result" jobs.0.group=0 jobs.1.group=0 jobs.2.group=1 jobs.3.group=1
	json_is "$result" jobs.0.starts_group=true jobs.1.starts_group=false jobs.2.starts_group=true
	json_is "$result" jobs.3.starts_group=false
}

@test "fio: wait_for_previous is stonewall; new_group starts a reporting group without waiting" {
	cat >j.fio <<'EOF'
[global]
rw=read
size=64k
[a]
[b]
new_group
[c]
wait_for_previous
EOF
	dbio_ok j.fio --directory="$target"
	json_is "$result" jobs.1.starts_group=false jobs.2.starts_group=true
	json_is "$result" jobs.0.group=0 jobs.1.group=1 jobs.2.group=2
}

@test "fio: the first job of every job file after the first waits for the files before it" {
	printf '[a]\nrw=read\nsize=64k\n[b]\nrw=read\nsize=64k\n' >one.fio
	printf '[c]\nrw=read\nsize=64k\n[d]\nrw=read\nsize=64k\n' >two.fio
	dbio_ok one.fio two.fio --directory="$target"
	json_is "$result" jobs.1.starts_group=false jobs.2.starts_group=true jobs.3.starts_group=false
	json_is "$result" jobs.2.group=1 jobs.3.group=1
}

@test "fio: wait_for the only job running is a stonewall; wait_for an earlier group changes nothing" {
	cat >j.fio <<'EOF'
[global]
rw=read
size=64k
[writers]
[readers]
wait_for=writers
[more]
wait_for=writers
EOF
	dbio_ok j.fio --directory="$target"
	json_is "$result" jobs.1.starts_group=true jobs.2.starts_group=false
	# fio's groupid counts stonewall and new_group only
	json_is "$result" jobs.1.group=0 jobs.2.group=0
}

@test "fio: wait_for a job running beside others, or no job before, is refused" {
	printf '[a]\nsize=64k\n[b]\nsize=64k\n[c]\nsize=64k\nwait_for=a\n' >beside.fio
	refused_file beside.fio "dbio: beside.fio:7: key 'wait_for': 'a' runs at the same time as 'b' (no stonewall between them), and dbio starts a job only with its group: say stonewall to wait for every job before this one (job 'c')"
	printf '[a]\nsize=64k\nwait_for=z\n[z]\nsize=64k\n' >later.fio
	refused_file later.fio "dbio: later.fio:3: key 'wait_for': no job named 'z' comes before job 'a': wait_for names an earlier job of the job files (job 'a')"
	[ ! -e "$result" ]
	is_empty_dir "$target"
}

@test "fio: two jobs of one name may run one after another, not together" {
	printf '[global]\nsize=64k\n[a]\n[a]\nstonewall\n' >ok.fio
	dbio_ok ok.fio --directory="$target"
	json_is "$result" jobs.0.name=a jobs.1.name=a
	printf '[global]\nsize=64k\n[a]\n[a]\n' >bad.fio
	refused_file bad.fio "dbio: bad.fio:4: job 'a': runs at the same time as the job 'a' before it (no stonewall between them), and the files of two jobs of one name would be one: give it another name, or add stonewall"
}

@test "fio: ; and # begin a comment anywhere on a line" {
	cat >j.fio <<'EOF'
; a comment
# another
[j] ; the job
rw=read   ; sequential
bs=8k # eight KiB
size=64k;64 KiB
EOF
	dbio_ok j.fio --directory="$target"
	json_is "$result" jobs.0.name=j jobs.0.options.bs=8192 jobs.0.options.size=65536 "$R0.ops.read.count=8"
}

@test "fio: include reads keys into the section, beside the job file or from the working directory" {
	mkdir sub
	printf 'bs=8k\ninclude more.inc\n' >sub/keys.inc
	printf '; nested\nsize=128k\n' >sub/more.inc
	printf '[j]\nrw=read\ninclude keys.inc\n' >sub/j.fio
	dbio_ok sub/j.fio --directory="$target"
	json_is "$result" jobs.0.options.bs=8192 jobs.0.options.size=131072 "$R0.ops.read.count=16"
	printf 'rw=write\n' >cwd.inc
	printf '[j]\nsize=64k\ninclude cwd.inc\n' >sub/k.fio
	dbio_ok sub/k.fio --directory="$target"
	json_is "$result" jobs.0.options.rw=write "$R0.ops.write.count=16"
}

@test "fio: a bad include is refused with where it was: missing file, a section, a loop, a bad key" {
	printf '[j]\nsize=64k\ninclude nothere.inc\n' >a.fio
	refused_file a.fio "dbio: a.fio:3: include: nothere.inc: cannot include: No such file or directory"
	printf 'bs=4k\n[other]\n' >sect.inc
	printf '[j]\nsize=64k\ninclude sect.inc\n' >b.fio
	refused_file b.fio "dbio: sect.inc:2: a section in an included file: an included file holds keys only (as in fio)"
	printf 'include loop.inc\n' >loop.inc
	printf '[j]\nsize=64k\ninclude loop.inc\n' >c.fio
	refused_file c.fio "dbio: loop.inc:1: include loop.inc: more than 8 includes deep (an include loop?)"
	printf 'bs=lots\n' >badv.inc
	printf '[j]\nsize=64k\ninclude badv.inc\n' >d.fio
	run --separate-stderr "$DBIO" run d.fio --directory="$target"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "dbio: badv.inc:1: key 'bs': bad value 'lots'"* ]]
	is_empty_dir "$target"
}

@test "fio: \${VAR} is the environment's, \$ncpus and \$mb_memory the machine's, arithmetic computed" {
	cat >j.fio <<'EOF'
[j]
rw=read
bs=${DBIO_TEST_BS}
numjobs=$ncpus*2
size=(2*64)k
description=$mb_memory MiB
filesize=($pagesize*32)
EOF
	DBIO_TEST_BS=8k dbio_ok j.fio --directory="$target"
	cpus=$(getconf _NPROCESSORS_CONF)
	mib=$(($(getconf _PHYS_PAGES) * $(getconf PAGESIZE) / 1048576))
	json_is "$result" jobs.0.options.bs=8192 jobs.0.options.numjobs=$((cpus * 2)) jobs.0.options.size=131072
	json_is "$result" "jobs.0.options.description=$mib MiB" jobs.0.options.filesize=$((32 * $(getconf PAGESIZE)))
	json_is "$result" "$R0.ops.read.count=$((cpus * 2 * 16))"
}

@test "fio: an unset \${VAR} or arithmetic that does not compute is refused" {
	printf '[j]\nsize=64k\nbs=${DBIO_TEST_UNSET}\n' >a.fio
	unset DBIO_TEST_UNSET
	refused_file a.fio "dbio: a.fio:3: key 'bs': \${DBIO_TEST_UNSET} is not set in the environment (fio would make it empty): set it, e.g. DBIO_TEST_UNSET=... dbio run ..."
	printf '[j]\nsize=(64/0)k\n' >b.fio
	refused_file b.fio "dbio: b.fio:2: key 'size': bad value '(64/0)k': cannot compute '(64/0)k' (whole numbers with + - * / % and parentheses)"
}

@test "fio: keys that change nothing measured are accepted, recorded, and kept out of the brief" {
	cat >j.fio <<'EOF'
[j]
description=a plain read
thread
threads=4
group_reporting
gtod_reduce=1
clat_percentiles=1
lat_percentiles=1
rw=read
size=64k
EOF
	dbio_ok j.fio --directory="$target"
	json_is "$result" "jobs.0.options.description=a plain read" jobs.0.options.thread=true
	json_is "$result" jobs.0.options.threads=4 jobs.0.options.group_reporting=true jobs.0.options.gtod_reduce=true
	json_is "$result" "jobs.0.brief=rw=read bs=4 KiB size=64 KiB nrfiles=1 ioengine=psync numjobs=1"
	json_is "$result" "$R0.threads=1" "$R0.ops.read.count=16"
	run "$DBIO" help options
	[[ "$output" == *"dbio always uses threads; recorded, changes nothing measured"* ]]
}

@test "fio: every key dbio does not know is listed at once, each where it was given; nothing runs" {
	printf '[global]\nbogus_one=1\n[j]\nsize=64k\nrwmix=30\nbogus_two\n' >j.fio
	run --separate-stderr "$DBIO" run j.fio --directory="$target" --output="$result"
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 3 ]
	[[ "${stderr_lines[0]}" == "dbio: j.fio:2: key 'bogus_one': "* ]]
	[ "${stderr_lines[1]}" = "dbio: j.fio:5: key 'rwmix': unknown (did you mean 'rwmixread'?)" ]
	[[ "${stderr_lines[2]}" == "dbio: j.fio:6: key 'bogus_two': "* ]]
	[ ! -e "$result" ]
	is_empty_dir "$target"
}

@test "fio: a writer and a reader together give fio's op counts per job and op type" {
	cat >j.fio <<'EOF'
[global]
size=1m
bs=4k
[writer]
rw=write
fsync=16
[reader]
rw=randread
bs=8k
EOF
	same_as_fio j.fio
	# fsync=16: fio syncs before the next write, so not after the 256th
	[ "$(cat dbio.counts)" = "$(printf 'reader read 128\nwriter sync 15\nwriter write 256')" ]
}

@test "fio: stonewall, numjobs and [global] scoping give fio's op counts" {
	cat >j.fio <<'EOF'
[global]
size=512k
bs=4k
rw=randwrite
[a]
numjobs=2
[global]
bs=16k
[b]
stonewall
rw=read
[c]
rw=write
fdatasync=8
EOF
	same_as_fio j.fio
	grep -qx "a write 256" dbio.counts
	grep -qx "b read 32" dbio.counts
}

@test "fio: a key or engine fio documents is refused with its reason, all of a file at once, never 'unknown'" {
	printf '[j]\nsize=64k\ncgroup_weight=100\nmerge_blktrace_file=trace.bin\nioengine=rdma\nbogus=1\n' >j.fio
	refused_file j.fio "$(printf '%s\n' \
		"dbio: j.fio:3: key 'cgroup_weight': fio key dbio does not honour yet: sets the I/O weight of the job's cgroup" \
		"dbio: j.fio:4: key 'merge_blktrace_file': blktrace's traces are not replayed, nor merged: dbio replays fio's own iologs (read_iolog=)" \
		"dbio: j.fio:5: key 'ioengine': 'rdma' is fio's RDMA network engine; dbio's engines are $(engines_of_build | join_list ', ')" \
		"dbio: j.fio:6: key 'bogus': unknown (\`dbio help options\` lists the keys)")"
	run --separate-stderr "$DBIO" run --directory="$target" --size=64k --ioengine=rdma
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'ioengine': 'rdma' is fio's RDMA network engine; dbio's engines are $(engines_of_build | join_list ', ') (job 'job')" ]
	run --separate-stderr "$DBIO" run --directory="$target" --size=64k --cgroup_weight=100
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'cgroup_weight': fio key dbio does not honour yet: sets the I/O weight of the job's cgroup" ]
}

@test "fio: fio's other names for keys are the keys: readwrite, blocksize, nr_files, timeout, wait_for_previous" {
	printf '[a]\nreadwrite=write\nblocksize=8k\nnr_files=2\nsize=64k\n[b]\nwait_for_previous\nrw=read\nsize=64k\ntimeout=5s\n' >j.fio
	dbio_ok j.fio --directory="$target"
	json_is "$result" jobs.0.options.rw=write jobs.0.options.bs=8192 jobs.0.options.nrfiles=2 "$R0.ops.write.count=8"
	json_is "$result" jobs.1.starts_group=true jobs.1.options.runtime=5000000000
	run --separate-stderr "$DBIO" help fio-keys
	[[ "$output" == *"readwrite "*"honoured by the workloads that do file I/O (fileio, oltp) (fio's other name for rw)"* ]]
}

# meta_counts FILE: "job op count" of a meta result's measured phase.
meta_counts() {
	"$PYTHON" - "$1" <<'PY'
import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    for t, o in sorted(j["runs"][0]["ops"].items()):
        if o["count"]:
            print(j["name"], t, o["count"])
PY
}

@test "fio: filecreate, filestat and filedelete run on workload=meta, one phase each, with fio's counts per job" {
	command -v fio >/dev/null || skip "fio is not installed (scripts/install-deps installs it)"
	for e in filecreate:create filestat:stat filedelete:delete; do
		printf '[global]\nioengine=%s\nfilesize=4k\nnrfiles=20\nopenfiles=1\nfallocate=none\n[t0]\n[t1]\nnumjobs=2\n' "${e%%:*}" >m.fio
		dbio_ok m.fio --directory="$target"
		meta_counts "$result" >dbio.counts
		[ "$(cat dbio.counts)" = "$(printf 't0 %s 20\nt1 %s 40' "${e#*:}" "${e#*:}")" ]
		json_is "$result" jobs.0.options.meta_phases="${e#*:}" jobs.0.options.meta_kind=file jobs.0.options.meta_files=20
		is_empty_dir "$target"
		# fio counts each call of these engines as a read
		fio --directory="$target" --output-format=json --output=fio.json m.fio >/dev/null
		run "$PYTHON" -c 'import json, sys; print(" ".join(str(j["read"]["total_ios"]) for j in json.load(open(sys.argv[1]))["jobs"]))' fio.json
		[ "$output" = "20 20 20" ]
		rm -rf "$target" && mkdir "$target"
	done
}

@test "fio: dircreate, dirstat and dirdelete make, stat and remove directories (strace), nothing left" {
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 # LeakSanitizer cannot run under ptrace
	printf '[global]\nnrfiles=10\n[c]\nioengine=dircreate\n[s]\nioengine=dirstat\n[d]\nioengine=dirdelete\n' >m.fio
	# a file per thread (-ff): no call split by another thread's
	run strace -ff -qq -e trace=mkdirat,newfstatat,unlinkat -o "$scratch/tr" "$DBIO" run m.fio \
		--output "$result" --directory="$target"
	[ "$status" -eq 0 ]
	cat "$scratch"/tr.* >"$scratch/trace"
	meta_counts "$result" >dbio.counts
	[ "$(cat dbio.counts)" = "$(printf 'c create 10\ns stat 10\nd delete 10')" ]
	# s and d make their 10 unmeasured first; everything is removed
	[ "$(grep -c 'mkdirat([0-9]*, "[0-9]*", 0700) *= 0' "$scratch/trace")" -eq 30 ]
	[ "$(grep -c 'unlinkat([0-9]*, "[0-9]*", AT_REMOVEDIR) *= 0' "$scratch/trace")" -eq 30 ]
	is_empty_dir "$target"
}

@test "fio: a metadata engine on another workload, or openfiles below nrfiles for file I/O, is refused" {
	run --separate-stderr "$DBIO" run --workload=kv --ioengine=filecreate --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'ioengine': 'filecreate' is fio's metadata engine, a job of workload=meta; this job is workload=kv (job 'job')" ]
	run --separate-stderr "$DBIO" run --openfiles=1 --nrfiles=2 --size=1m --directory="$target"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'openfiles': 1 of nrfiles=2: dbio keeps every file of a thread open through the run, and does not close and reopen files between I/Os as fio then does; give openfiles of at least nrfiles, or none (job 'job')" ]
}

@test "fio: bad values, fio's refused keys and unknown keys of a file are listed together; hundreds end with a count" {
	printf '[j]\nrw=trimread\nbs=huge\nsize=1m\nmerge_blktrace_file=trace.bin\n' >j.fio
	refused_file j.fio "$(printf '%s\n' \
		"dbio: j.fio:2: key 'rw': bad value 'trimread': expected one of read, write, randread, randwrite, randrw, readwrite, rewrite, trim, randtrim, trimwrite, randtrimwrite" \
		"dbio: j.fio:3: key 'bs': bad value 'huge': expected a size from 1 B to 1 GiB with an optional k, m, g or t suffix (binary: 1k = 1024), e.g. 4k" \
		"dbio: j.fio:5: key 'merge_blktrace_file': blktrace's traces are not replayed, nor merged: dbio replays fio's own iologs (read_iolog=)")"
	{
		printf '[j]\nsize=1m\n'
		for i in $(seq 300); do printf 'bogus_key_%s=1\n' "$i"; done
	} >many.fio
	run --separate-stderr "$DBIO" run many.fio --directory="$target"
	[ "$status" -eq 2 ]
	n=${#stderr_lines[@]}
	[ "${stderr_lines[0]}" = "dbio: many.fio:3: key 'bogus_key_1': unknown (\`dbio help options\` lists the keys)" ]
	[ "${stderr_lines[n - 1]}" = "dbio: many.fio: $((300 - (n - 1))) more keys refused, not shown: fix these and run again" ]
	[ "$n" -gt 50 ]
}
