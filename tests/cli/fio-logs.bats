#!/usr/bin/env bats
# fio's log files and command priorities, with fio's meaning (docs/fio.md):
# write_lat_log, write_bw_log and write_iops_log write fio's files in fio's
# format (the same job through fio 3.33 and dbio: the same files, the same
# number of lines, the same direction, block size and, for sequential jobs,
# offset columns), log_avg_msec's windows, per_job_logs, log_unix_epoch,
# fio2gnuplot reading dbio's bandwidth log, the log paths guarded as
# --output is (a planted symlink), and cmdprio's share of I/Os at a command
# priority (the log_prio column: exact at 0 and 100 %, within a bound
# between), refused for an engine that cannot give an I/O its own priority.

load helpers

# logs_of TOOL JOBFILE: run JOBFILE with TOOL (fio or dbio) in $target, in
# $scratch/TOOL (the logs land in the current directory, as fio's).
logs_of() {
	mkdir -p "$scratch/$1"
	rm -rf "$target" && mkdir "$target"
	if [ "$1" = fio ]; then
		(cd "$scratch/fio" && fio --directory="$target" --output=/dev/null "$scratch/$2")
	else
		(cd "$scratch/dbio" && "$DBIO" run --progress=none --directory="$target" --output="$result" "$scratch/$2" >/dev/null)
	fi
}

# columns N FILE: columns N (cut's list, e.g. 3-5) of FILE's lines.
columns() {
	cut -d, -f"$1" "$2"
}

# prio_share FILE: percent of FILE's lines (log_prio=1) whose priority is
# not 0x0000, rounded.
prio_share() {
	awk -F', ' '{ n++ } $NF != "0x0000" { p++ } END { printf "%d\n", 100 * p / n + 0.5 }' "$1"
}

need_fio() {
	command -v fio >/dev/null || skip "fio is not installed (scripts/install-deps installs it)"
}

@test "write_lat_log, write_bw_log, write_iops_log: psync, the same files and lines as fio 3.33, offsets exact" {
	need_fio
	cat >j.fio <<'EOF'
[seq]
filename=f
rw=write
bs=4k
size=256k
write_lat_log=t
write_bw_log=t
write_iops_log=t
log_offset=1
EOF
	logs_of fio j.fio
	logs_of dbio j.fio
	[ "$(cd fio && ls)" = "$(cd dbio && ls)" ]
	[ "$(cd dbio && ls | tr '\n' ' ')" = "t_bw.1.log t_clat.1.log t_iops.1.log t_lat.1.log t_slat.1.log " ]
	for k in lat clat bw iops; do
		[ "$(wc -l <"dbio/t_$k.1.log")" -eq 64 ]
		[ "$(wc -l <"fio/t_$k.1.log")" -eq 64 ]
		# direction, block size, offset and priority, line by line
		diff <(columns 3-6 "fio/t_$k.1.log") <(columns 3-6 "dbio/t_$k.1.log")
	done
	# a synchronous engine has no submission latency: fio's slat log is empty too
	[ ! -s fio/t_slat.1.log ]
	[ ! -s dbio/t_slat.1.log ]
	[ "$(columns 2 dbio/t_iops.1.log | sort -u)" = " 1" ]
	# per I/O, bw is its bytes over its completion latency (KiB/s as fio: bytes * 10^6 / ns)
	paste -d, dbio/t_clat.1.log dbio/t_bw.1.log |
		awk -F', *' '{ if ($8 != int(4096 * 1000000 / $2)) { print; bad = 1 } } END { exit bad }'
	# lat is at least clat; the times are whole milliseconds from the start
	paste -d, dbio/t_lat.1.log dbio/t_clat.1.log | awk -F', *' '$2 < $7 { bad = 1 } END { exit bad }'
	run grep -cvx '[0-9][0-9]*' <(columns 1 dbio/t_lat.1.log)
	[ "$output" = 0 ]
}

@test "a queued engine's logs: slat lines too, the same count as fio's; random reads: direction and block size exact" {
	need_fio
	need_queued_engine
	for e in $queued; do
		[ -z "$(why_not_here "$e")" ] || continue
		cat >j.fio <<EOF
[rand]
filename=f
rw=randread
bs=8k
size=512k
ioengine=$e
iodepth=4
direct=1
write_lat_log=q
write_bw_log=q
EOF
		rm -rf fio dbio
		logs_of fio j.fio
		logs_of dbio j.fio
		for k in lat clat slat bw; do
			[ "$(wc -l <"dbio/q_$k.1.log")" -eq 64 ]
			[ "$(wc -l <"fio/q_$k.1.log")" -eq 64 ]
			diff <(columns 3-5 "fio/q_$k.1.log") <(columns 3-5 "dbio/q_$k.1.log")
		done
		# lat = slat + clat, line by line
		paste -d, dbio/q_lat.1.log dbio/q_clat.1.log dbio/q_slat.1.log |
			awk -F', *' '{ if ($2 != $7 + $12) bad = 1 } END { exit bad }'
	done
}

@test "numjobs and per_job_logs: a file per thread named by fio's thread number, or one file for all" {
	need_fio
	cat >j.fio <<'EOF'
[first]
rw=read
bs=4k
size=64k
write_iops_log=n
[second]
rw=read
bs=4k
size=64k
numjobs=2
write_iops_log=n
[shared]
stonewall
rw=read
bs=4k
size=64k
numjobs=3
per_job_logs=0
write_iops_log=s
EOF
	logs_of fio j.fio
	logs_of dbio j.fio
	[ "$(cd fio && ls | tr '\n' ' ')" = "n_iops.1.log n_iops.2.log n_iops.3.log s_iops.log " ]
	[ "$(cd dbio && ls | tr '\n' ' ')" = "n_iops.1.log n_iops.2.log n_iops.3.log s_iops.log " ]
	for f in n_iops.1.log n_iops.2.log n_iops.3.log; do
		[ "$(wc -l <"dbio/$f")" -eq 16 ]
	done
	[ "$(wc -l <dbio/s_iops.log)" -eq 48 ]
	[ "$(wc -l <fio/s_iops.log)" -eq 48 ]
}

@test "write_bw_log given empty or bare is named after the job, as fio's; a path in the name is from the current directory" {
	mkdir logs
	dbio_ok --directory="$target" --name=jb --size=64k --write_bw_log= --write_lat_log=logs/l
	[ "$(wc -l <jb_bw.1.log)" -eq 16 ]
	[ "$(wc -l <logs/l_clat.1.log)" -eq 16 ]
	printf '[bare]\nsize=64k\nwrite_iops_log\n' >j.fio
	dbio_ok j.fio --directory="$target"
	[ "$(wc -l <bare_iops.1.log)" -eq 16 ]
}

@test "log_avg_msec: a line per direction per window, runtime / window within 2, block size and offset 0" {
	need_fio
	cat >j.fio <<'EOF'
[mix]
filename=f
rw=randrw
bs=4k
size=1m
time_based
runtime=2s
write_lat_log=w
write_bw_log=w
write_iops_log=w
log_avg_msec=200
log_offset=1
EOF
	logs_of fio j.fio
	logs_of dbio j.fio
	for tool in fio dbio; do
		for k in lat clat bw iops; do
			for d in 0 1; do
				n=$(awk -F', ' -v d="$d" '$3 == d' "$tool/w_$k.1.log" | wc -l)
				# 2 s / 200 ms = 10 windows, fio's helper thread may miss one or two
				[ "$n" -ge 8 ] && [ "$n" -le 11 ] || {
					echo "$tool $k direction $d: $n lines" >&2
					false
				}
			done
			[ "$(columns 4-5 "$tool/w_$k.1.log" | sort -u)" = " 0, 0" ]
		done
	done
	# one window per 200 ms step of the grid: before the last (the end of the
	# phase), each line is in a later step than the one before
	awk -F', ' '$3 == 0 { print $1 }' dbio/w_lat.1.log | sed '$d' |
		awk '{ s = int($1 / 200); if (s < 1 || s <= last) bad = 1; last = s } END { exit bad }'
	# iops over a window is the I/Os of it: a mean of over 1 per second
	awk -F', ' '$2 < 1 { bad = 1 } END { exit bad }' dbio/w_iops.1.log
}

@test "log_max_value: the largest latency of each window, at least its mean" {
	dbio_ok --directory="$target" --rw=read --size=1m --time_based --runtime=1s --write_lat_log=m --log_avg_msec=250
	mv m_clat.1.log mean.log
	dbio_ok --directory="$target" --rw=read --size=1m --time_based --runtime=1s --write_lat_log=m --log_avg_msec=250 \
		--log_max_value=1
	[ "$(wc -l <m_clat.1.log)" -ge 3 ]
	# the largest latency of a window of thousands of reads is far above a mean of them
	[ "$(awk -F', ' '{ s += $2 } END { print int(s / NR) }' m_clat.1.log)" -gt \
		"$(awk -F', ' '{ s += $2 } END { print int(s / NR) }' mean.log)" ]
}

@test "log_unix_epoch: the times are milliseconds since 1970, within 10 s of the clock" {
	dbio_ok --directory="$target" --size=64k --write_iops_log=u --log_unix_epoch=1
	now=$(date +%s%3N)
	first=$(head -1 u_iops.1.log | cut -d, -f1)
	[ $((now - first)) -ge 0 ]
	[ $((now - first)) -lt 10000 ]
}

@test "fio2gnuplot reads dbio's bandwidth log and plots it" {
	command -v fio2gnuplot >/dev/null || skip "fio2gnuplot is not installed (Debian's fio package has it)"
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	dbio_ok --directory="$target" --rw=read --size=4m --time_based --runtime=2s --write_bw_log=g --log_avg_msec=100
	mkdir plots
	run fio2gnuplot -b -g -d plots
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "g_bw.1.log"
	ls plots/*.png
}

@test "a log path holding another user's symlink is refused before anything runs; its target is left alone" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to plant a symlink owned by another user"
	echo precious >victim
	ln -s "$scratch/victim" s_bw.1.log
	chown -h nobody s_bw.1.log
	printf '[j]\nsize=64k\nwrite_bw_log=s\n' >j.fio
	run --separate-stderr "$DBIO" run j.fio --directory="$target" --output="$result"
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: write_bw_log s_bw.1.log: a symlink that belongs to user $(id -u nobody): refusing to follow it (give the path it points to)" ]
	[ "$(cat victim)" = precious ]
	is_empty_dir "$target"
	# a regular file is replaced whole, as --output is
	rm s_bw.1.log
	echo old >s_bw.1.log
	dbio_ok j.fio --directory="$target"
	[ "$(wc -l <s_bw.1.log)" -eq 16 ]
}

@test "cmdprio_percentage: 0 and 100 % exact, 30 % within 6 points over 2048 I/Os; log_prio shows ioprio's value" {
	need_queued_engine
	for e in $queued; do
		[ -z "$(why_not_here "$e")" ] || continue
		[ "$e" != posixaio ] || continue # no priority per I/O, as fio's posixaio has none
		for pct in 0 100 30; do
			rm -f p_clat.1.log
			# shellcheck disable=SC2046
			dbio_ok --directory="$target" --rw=randread --bs=4k --size=8m $(engine_keys "$e") --direct=1 \
				--write_lat_log=p --log_prio=1 --cmdprio_percentage="$pct" --cmdprio_class=1 --cmdprio=3
			[ "$(wc -l <p_clat.1.log)" -eq 2048 ]
			share=$(prio_share p_clat.1.log)
			case $pct in
			0 | 100) [ "$share" -eq "$pct" ] ;;
			*) [ "$share" -ge 24 ] && [ "$share" -le 36 ] || {
				echo "$e: $share % at the command priority" >&2
				false
			} ;;
			esac
		done
		# real-time class 1, level 3: 1 << 13 | 3
		[ "$(columns 5 p_clat.1.log | sort -u | tr '\n' ' ')" = " 0x0000  0x2003 " ]
		# without log_prio, fio's column is 1 for the real-time class
		# shellcheck disable=SC2046
		dbio_ok --directory="$target" --rw=randread --bs=4k --size=1m $(engine_keys "$e") --direct=1 \
			--write_lat_log=r --cmdprio_percentage=100
		[ "$(columns 5 r_clat.1.log | sort -u)" = " 1" ]
		# the draws are apart: the same reads and writes at the same offsets with and without cmdprio
		# shellcheck disable=SC2046
		dbio_ok --directory="$target" --rw=randrw --bs=4k --size=1m $(engine_keys "$e") --direct=1 \
			--write_lat_log=o --log_offset=1
		# shellcheck disable=SC2046
		dbio_ok --directory="$target" --rw=randrw --bs=4k --size=1m $(engine_keys "$e") --direct=1 \
			--write_lat_log=r --log_offset=1 --cmdprio_percentage=50
		diff <(columns 3,5 r_clat.1.log | sort) <(columns 3,5 o_clat.1.log | sort)
	done
}

@test "cmdprio_bssplit: fio's forms, each block size its own share and priority; prio and prioclass for the rest" {
	need_queued_engine
	for e in $queued; do
		[ -z "$(why_not_here "$e")" ] || continue
		[ "$e" != posixaio ] || continue # no priority per I/O, as fio's posixaio has none
		rm -f b_clat.1.log
		# shellcheck disable=SC2046
		dbio_ok --directory="$target" --rw=randread --size=8m $(engine_keys "$e") --direct=1 --bssplit=4k/50:8k/50 \
			--cmdprio_bssplit=4k/100/3/2:8k/0 --prioclass=2 --prio=7 --write_lat_log=b --log_prio=1
		# 4k: all idle class 3 level 2 (0x6002); 8k: the thread's best-effort 7 (0x4007)
		[ "$(awk -F', ' '$4 == 4096 { print $5 }' b_clat.1.log | sort -u)" = 0x6002 ]
		[ "$(awk -F', ' '$4 == 8192 { print $5 }' b_clat.1.log | sort -u)" = 0x4007 ]
		# the first form takes cmdprio_class and cmdprio; READS,WRITES apart
		rm -f c_clat.1.log
		# shellcheck disable=SC2046
		dbio_ok --directory="$target" --rw=randrw --size=4m $(engine_keys "$e") --direct=1 --bs=4k \
			--cmdprio_bssplit=4k/100,4k/0 --cmdprio_class=2 --cmdprio=1 --write_lat_log=c --log_prio=1
		[ "$(awk -F', ' '$3 == 0 { print $5 }' c_clat.1.log | sort -u)" = 0x4001 ]
		[ "$(awk -F', ' '$3 == 1 { print $5 }' c_clat.1.log | sort -u)" = 0x0000 ]
	done
}

@test "refused with the reason: cmdprio on psync, bad cmdprio values, histogram and compressed logs, logs in oltp" {
	printf '[j]\nsize=64k\ncmdprio_percentage=20\n' >j.fio
	# the queued engines but posixaio give each I/O its priority
	engines=$(queued_engines_of_build | grep -vx posixaio | sed 's/^/ioengine=/;2,$s/^ioengine=//' | join_list ', ' | sed 's/\(.*\), /\1 or /')
	refused_file j.fio "dbio: j.fio:3: key 'cmdprio_percentage': belongs to the engines that give each I/O its own priority (${engines:-none in this build: see dbio --version}); this job is ioengine=psync: use prio and prioclass for the priority of its threads (job 'j')"
	# the values, on an engine that takes them (a build without liburing has none to try)
	if engines_of_build | grep -qx io_uring; then
		printf '[j]\nsize=64k\nioengine=io_uring\ncmdprio_percentage=101\n' >j.fio
		refused_file j.fio "dbio: j.fio:4: key 'cmdprio_percentage': bad value '101': expected a whole number from 0 to 100, or R,W for reads and writes apart (job 'j')"
		printf '[j]\nsize=64k\nioengine=io_uring\ncmdprio_bssplit=4k/60/1/0:4k/50/2/0\n' >j.fio
		refused_file j.fio "dbio: j.fio:4: key 'cmdprio_bssplit': the percentages of 4096 bytes add up to 110: at most 100 (job 'j')"
		printf '[j]\nsize=64k\nioengine=io_uring\ncmdprio_bssplit=4k/60/1\n' >j.fio
		refused_file j.fio "dbio: j.fio:4: key 'cmdprio_bssplit': bad entry '4k/60/1': expected BS/PERCENT or BS/PERCENT/CLASS/LEVEL[/HINT]: a block size, a percent (0 to 100), a class (0 to 3), a level (0 to 7), a hint (0 to 1023), e.g. 64k/25/1/0 (job 'j')"
		printf '[j]\nsize=64k\nioengine=io_uring\ncmdprio_bssplit=4k/60\ncmdprio_percentage=10\n' >j.fio
		refused_file j.fio "dbio: j.fio:4: key 'cmdprio_bssplit': given with cmdprio_percentage: the two are exclusive, as in fio; give one of them (job 'j')"
	fi
	printf '[j]\nsize=64k\nwrite_hist_log=h\n' >j.fio
	run --separate-stderr "$DBIO" run j.fio --directory="$target"
	[ "$status" -eq 2 ]
	[[ $stderr == *"key 'write_hist_log': fio's latency histogram logs (write_hist_log) are not in dbio"* ]]
	printf '[j]\nsize=64k\nwrite_bw_log=z\nlog_store_compressed=1\n' >j.fio
	run --separate-stderr "$DBIO" run j.fio --directory="$target"
	[ "$status" -eq 2 ]
	[[ $stderr == *"key 'log_store_compressed': dbio keeps its log lines in memory and writes them as text"* ]]
	run --separate-stderr "$DBIO" run --workload=oltp --numjobs=2 --time_based --runtime=1s --size=1m \
		--write_lat_log=o --directory="$target"
	[ "$status" -eq 2 ]
	[[ $stderr == *"key 'write_lat_log': not for workload=oltp (yet): only workload=fileio writes fio's logs and command priorities"* ]]
	[ ! -e o_lat.1.log ]
}

@test "a trim's log lines carry fio's direction 2, each trimwrite trim before its write at the same offset (fio's t0023)" {
	printf '[t]\nioengine=null\nrw=randtrimwrite\nfilesize=64k\nbs=4k\nlog_offset=1\nper_job_logs=0\nwrite_bw_log\n' >j.fio
	dbio_ok j.fio --directory="$target"
	[ "$(wc -l <t_bw.log)" -eq 32 ]
	[ "$(cut -d, -f3 t_bw.log | sort | uniq -c | tr -s ' ' | tr '\n' ';')" = " 16 1; 16 2;" ]
	# odd lines trims, even lines the write of the same block after it
	"$PYTHON" - t_bw.log <<'PY'
import sys
rows = [[int(v) for v in l.split(",")] for l in open(sys.argv[1])]
for trim, write in zip(rows[0::2], rows[1::2]):
    assert trim[2] == 2 and write[2] == 1, (trim, write)
    assert trim[3:5] == write[3:5], (trim, write)
assert sorted(r[4] for r in rows[0::2]) == [i * 4096 for i in range(16)]
PY
}

# fio_log_format FILE REGEX: FILE's first line matches REGEX, as fio's
# t/run-fio-tests.py (FioJobFileTest_LogFileFormat) checks it.
fio_log_format() {
	"$PYTHON" -c 'import re, sys; sys.exit(0 if re.match(sys.argv[2], open(sys.argv[1]).readline()) else 1)' "$1" "$2" || {
		echo "$1: first line '$(head -1 "$1")' does not match $2" >&2
		return 1
	}
}

@test "log_window_value (log_max_value's newer name) and log_issue_time: the columns of fio's t0033 and t0034" {
	# fio 3.33 has neither key (it refuses both); the forms are fio's HEAD
	# (HOWTO.rst, Log File Formats) as run-fio-tests.py checks them.
	cat >t.fio <<-JOB
		[global]
		rw=read
		filename=tfile
		size=8k
		time_based
		runtime=400ms
		[job1]
		write_bw_log=log
		log_prio=1
		[job2]
		write_lat_log=log
		log_avg_msec=100
		log_window_value=both
		[job3]
		write_iops_log=log
		log_offset=1
		log_prio=1
		[job4]
		write_lat_log=log
		write_bw_log=log
		write_iops_log=log
		log_offset=1
		log_issue_time=1
		[job5]
		write_lat_log=log
		log_offset=1
		log_issue_time=1
		log_avg_msec=100
		log_window_value=both
	JOB
	dbio_ok --directory="$target" t.fio
	fio_log_format log_bw.1.log '\d+, \d+, \d+, \d+, 0x[\da-f]+\n'
	fio_log_format log_clat.2.log '\d+, \d+, \d+, \d+, 0, \d+\n'
	fio_log_format log_iops.3.log '\d+, \d+, \d+, \d+, \d+, 0x[\da-f]+\n'
	fio_log_format log_clat.4.log '\d+, \d+, \d+, \d+, \d+, \d+, \d+\n'
	fio_log_format log_lat.4.log '\d+, \d+, \d+, \d+, \d+, \d+, 0\n'
	fio_log_format log_bw.4.log '\d+, \d+, \d+, \d+, \d+, \d+, 0\n'
	fio_log_format log_iops.4.log '\d+, \d+, \d+, \d+, \d+, \d+, 0\n'
	fio_log_format log_clat.5.log '\d+, \d+, \d+, \d+, 0, 0, \d+, 0\n'
	# both: the mean of a window is at most its largest
	awk -F', ' '$2 > $3 { bad = 1 } END { exit bad }' log_clat.2.log
	# the issue time (ns) plus the clat is the completion, in the line's ms
	awk -F', ' '{ if (int(($7 + $2) / 1000000) != $1) bad = 1 } END { exit bad }' log_clat.4.log
	[ "$(tail -1 log_clat.4.log | cut -d, -f7)" -gt 0 ]
	# log_max_value=1, fio 3.33's form, is still the largest alone
	dbio_ok --directory="$target" --rw=read --size=8k --time_based --runtime=300ms --write_lat_log=m \
		--log_avg_msec=100 --log_max_value=1
	fio_log_format m_clat.1.log '\d+, \d+, \d+, \d+, \d+\n'
}

@test "log_issue_time without log_offset or write_lat_log, and a bad log_window_value: refused as fio refuses them" {
	run --separate-stderr "$DBIO" run --directory="$target" --rw=read --size=8k --write_lat_log=x --log_issue_time=1
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'log_issue_time': needs write_lat_log and log_offset=1, as in fio: the issue time is a column of the latency logs after the offset (job 'job')" ]
	run --separate-stderr "$DBIO" run --directory="$target" --rw=read --size=8k --write_bw_log=x --log_offset=1 --log_issue_time=1
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'log_issue_time': needs write_lat_log and log_offset=1, as in fio: the issue time is a column of the latency logs after the offset (job 'job')" ]
	run --separate-stderr "$DBIO" run --directory="$target" --rw=read --size=8k --write_lat_log=x --log_window_value=mean
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'log_window_value': bad value 'mean': expected one of avg, max, both" ]
}

@test "--bandwidth-log: fio's agg-read_bw.log, agg-write_bw.log and agg-trim_bw.log, a line per 500 ms (fio's t0030)" {
	# fio 3.33 with --bandwidth-log --eta=always, rw=write rate=4m for 2.2 s:
	# agg-write_bw.log "624, 3288, 1, 0, 0", "1249, 4083, 1, 0, 0",
	# "1999, 4112, 1, 0, 0"; agg-read_bw.log's lines carry 0 (direction 0).
	dbio_ok --directory="$target" --rw=write --size=64m --rate=4m --time_based --runtime=2200ms --bandwidth-log
	[ "$(wc -l <agg-write_bw.log)" -ge 3 ]
	[ "$(wc -l <agg-read_bw.log)" = "$(wc -l <agg-write_bw.log)" ]
	[ "$(wc -l <agg-trim_bw.log)" = "$(wc -l <agg-write_bw.log)" ]
	fio_log_format agg-write_bw.log '\d+, \d+, 1, 0, 0\n'
	awk -F', ' '$2 != 0 || $3 != 0 { bad = 1 } END { exit bad }' agg-read_bw.log
	# after the first, each line is the rate's 4096 KiB/s within 10 %
	sed 1d agg-write_bw.log | awk -F', ' '$2 < 3686 || $2 > 4506 { bad = 1 } END { exit bad }'
	# a line every 500 ms or so
	awk -F', ' 'NR > 1 && ($1 - last < 450 || $1 - last > 700) { bad = 1 } { last = $1 } END { exit bad }' agg-write_bw.log
	# =NAME names the files, as fio's
	dbio_ok --directory="$target" --rw=read --size=1m --bandwidth-log=mine
	[ -f mine-read_bw.log ]
	[ -f mine-write_bw.log ]
	[ -f mine-trim_bw.log ]
	run --separate-stderr "$DBIO" run --directory="$target" --size=1m --bandwidth-log=
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: --bandwidth-log: needs a name after '=' (or none: agg-read_bw.log ...)" ]
}

@test "--bandwidth-log: the window goes on across stonewall groups, as fio's: four 371 ms groups log their bytes" {
	# fio 3.33 with --bandwidth-log --eta=always on these four groups (384
	# KiB each at 1 MiB/s): 3 lines at about 750, 1500 and 2000 ms (fio's
	# groups have more time between them than dbio's); the
	# window is the run's, so each group's tail is in the next line
	printf '[global]\ndirectory=%s\nbs=4k\nrate=1m\nrw=write\nsize=384k\n[a]\nstonewall\n[b]\nstonewall\n[c]\nstonewall\n[d]\nstonewall\n' "$target" >short.fio
	run --separate-stderr "$DBIO" run short.fio --output="$result" --bandwidth-log
	[ "$status" -eq 0 ]
	# a line at each 500 ms of the run's 1.48 s or more: 2 or 3 (before,
	# with a window per group, none)
	[ "$(wc -l <agg-write_bw.log)" -ge 2 ]
	[ "$(wc -l <agg-write_bw.log)" -le 3 ]
	fio_log_format agg-write_bw.log '\d+, \d+, 1, 0, 0\n'
	# the lines' KiB (rate x ms since the line before) add up to the 1536
	# KiB written, but for the tail after the last line (under 500 ms of
	# the last group, which fio does not log either): 1000 KiB or more
	awk -F', ' '{ kib += $2 * ($1 - last) / 1000; last = $1 } END { exit !(kib >= 1000 && kib <= 1546) }' agg-write_bw.log
}

@test "fio's other name of a key: its errors name it as given; both names at one level: the later wins, as in fio" {
	run --separate-stderr "$DBIO" run --name=x --directory="$target" --size=64k --log_avg_msec=100 --log_window_value=MAX
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: command line: key 'log_window_value': bad value 'MAX': expected one of avg, max, both" ]
	# fio reads bs=16k then blocksize=2k in one section as 2 KiB blocks
	# (fio-where.bats runs fio on it); dbio too, in either order
	printf '[x]\nblocksize=4k\nbs=8k\nsize=64k\n' >al.fio
	dbio_ok al.fio --directory="$target"
	json_is "$result" "$R0.ops.read.count=8"
	printf '[x]\nbs=8k\nblocksize=4k\nsize=64k\n' >al.fio
	dbio_ok al.fio --directory="$target"
	json_is "$result" "$R0.ops.read.count=16"
	# a section's overrides [global]'s
	printf '[global]\nblocksize=4k\n[x]\nbs=8k\nsize=64k\n' >al.fio
	dbio_ok al.fio --directory="$target"
	json_is "$result" "$R0.ops.read.count=8"
}

@test "--bandwidth-log: another user's symlink at a log's path is refused before anything runs; its target is left alone" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to plant a symlink owned by another user"
	echo precious >victim
	ln -s "$scratch/victim" agg-trim_bw.log
	chown -h nobody agg-trim_bw.log
	run --separate-stderr "$DBIO" run --directory="$target" --output="$result" --size=64k --bandwidth-log
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: --bandwidth-log agg-trim_bw.log: a symlink that belongs to user $(id -u nobody): refusing to follow it (give the path it points to)" ]
	[ "$(cat victim)" = precious ]
	is_empty_dir "$target"
	[ ! -e agg-read_bw.log ]
}
