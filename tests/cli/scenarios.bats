#!/usr/bin/env bats
# The five scenarios of SCENARIOS.md, each by the README's command scaled
# down to seconds: its text table and its HTML page (rendered in headless
# Chromium, not blank) must show the figures the scenario's report showed,
# labelled by configuration, the page the same numbers as the text. The
# matrix ones run on 64 MiB loop images in the scratch directory; teardown
# removes their mounts and loop devices whatever happens.

load helpers

S0_JOB="$BATS_TEST_DIRNAME/../../jobs/s0-index-rebuild.fio"
S2_JOB="$BATS_TEST_DIRNAME/../../jobs/s2-inserts.fio"

setup() {
	dbio_setup
	if [ "$(id -u)" -eq 0 ]; then
		on_teardown undo_matrix
	fi
}

# cell FILE BLOCK ROW COLUMN: in the text of dbio compare or matrix (FILE),
# the cell of row ROW (a configuration, "A") under COLUMN ("elapsed") of the
# block that starts with the line BLOCK ("s0  phase index"), its unit
# ("s", "%", "faults") left off. Fails when there is none.
cell() {
	"$PYTHON" - "$@" <<'PY'
import re, sys
path, block, row, column = sys.argv[1:]
lines = open(path).read().splitlines()
start = lines.index(block) + 1
head = None
for line in lines[start:]:
    if line and not line.startswith(" "):
        break  # the next block
    cells = re.split(r"\s{2,}", line.strip())
    if not line.startswith("  ") or len(line) - len(line.lstrip()) > 2:
        head = cells
    elif head and cells[0] == row and column in head:
        text = cells[1 + head.index(column)]
        # elapsed keeps its units, as the page shows it ("218 ms ± 1.64 s");
        # the other columns' unit is the page's row label
        print(text if column == "elapsed" else re.sub(r" (s|%|faults)$", "", text))
        sys.exit(0)
sys.exit(f"no cell {row}/{column} in block {block!r}")
PY
}

# row_cell FILE COLUMN KEY=VALUE...: in a table of a header line and rows
# (dbio sweep's), the COLUMN of the row whose KEY columns hold the VALUEs.
row_cell() {
	"$PYTHON" - "$@" <<'PY'
import re, sys
path, column, *want = sys.argv[1:]
lines = [l for l in open(path).read().splitlines() if l.strip()]
for i, line in enumerate(lines):
    if column in re.split(r"\s{2,}", line.strip()):
        head = re.split(r"\s{2,}", line.strip())
        for row in lines[i + 1:]:
            cells = dict(zip(head, re.split(r"\s{2,}", row.strip())))
            if all(cells.get(k) == v for k, v in (w.split("=", 1) for w in want)):
                print(cells[column])
                sys.exit(0)
sys.exit(f"no row {want} with column {column!r}")
PY
}

# page_text HTML: the page's visible text, a cell per "|", µs as the text
# tables write it (us).
page_text() {
	"$PYTHON" - "$1" <<'PY'
import html, re, sys
t = open(sys.argv[1]).read()
t = re.sub(r"<(svg|style).*?</\1>", "", t, flags=re.S)
t = re.sub(r"</t[dh]>", "|", t)
t = html.unescape(re.sub(r"<[^>]+>", "", t)).replace("µs", "us")
print(t)
PY
}

# succeeds ARG...: `dbio ARG...` must exit 0; its stdout in $output, and
# its stderr shown when it did not.
succeeds() {
	run --separate-stderr "$DBIO" "$@"
	[ "$status" -eq 0 ] || {
		echo "dbio $* exited $status: $stderr" >&2
		return 1
	}
}

# html_page RESULT PAGE: dbio report RESULT --html PAGE, its text in
# $page, and its screenshot must not be blank.
html_page() {
	succeeds report "$1" --html "$2"
	page=$(page_text "$2")
	screenshot "$2" "$2.png"
	run colours "$2.png"
	[ "$status" -eq 0 ]
	echo "distinct colours of $2: $output"
	[ "$output" -gt 16 ]
}

@test "S0: the index rebuild on ext2 -b 1024 and -b 4096, per phase: elapsed, user, sys, CPU, faults, named by configuration, text and page" {
	need_matrix
	need_built workload=import
	succeeds matrix "$S0_JOB" --set rows=3000 --repeat=2 --image "$images" \
		--image-size 64m --fs 'ext2:-b 1024' --fs 'ext2:-b 4096' --output s0.json --progress=none
	printf '%s\n' "$output" >s0.txt
	cat s0.txt
	[[ "$output" == *"A = ext2 -b 1024"* ]]
	[[ "$output" == *"B = ext2 -b 4096"* ]]
	[[ "$output" == *"targets[0].fs_block_size_bytes (job 's0'): A 1024, B 4096"* ]]
	[ "$(max_columns <s0.txt)" -le 80 ]
	# The index phase's figures, both configurations, with their spread.
	for col in elapsed user sys cpu majflt minflt; do
		for cfg in A B; do
			cell s0.txt "s0  phase index" "$cfg" "$col" >/dev/null
		done
	done
	[[ "$(cell s0.txt "s0  phase index" A elapsed)" == *" ± "* ]]
	# The writeback settings in force, recorded with the result.
	json_has s0.json system.vm.dirty_ratio system.vm.dirty_background_ratio system.vm.dirty_expire_centisecs

	# dbio report of the saved result prints the same table.
	succeeds report s0.json
	[ "$(grep -A4 '^s0  phase index$' <<<"$output")" = "$(grep -A4 '^s0  phase index$' s0.txt)" ]

	# dbio compare of the saved matrix: the index phase alone.
	run --separate-stderr "$DBIO" compare s0.json --op "phase index" --metric elapsed,user,sys,cpu,majflt,minflt
	[ "$status" -eq 0 ]
	[[ "$output" == *"s0  phase index"* ]]
	[[ "$output" != *"s0  phase load"* ]]

	html_page s0.json s0.html
	[[ "$page" == *"A|ext2 -b 1024|"* ]]
	[[ "$page" == *"B|ext2 -b 4096|"* ]]
	[[ "$page" == *"dirty_background_ratio"* ]]
	# The same figures as the text, on the phase's rows of the side-by-side table.
	for cfg in A B; do
		e=$(cell s0.txt "s0  phase index" "$cfg" elapsed)
		c=$(cell s0.txt "s0  phase index" "$cfg" cpu)
		f=$(cell s0.txt "s0  phase index" "$cfg" minflt)
		echo "$cfg: elapsed $e, cpu $c, minflt $f"
		[[ "$page" == *"phase index|elapsed|"*"$e|"* ]]
		[[ "$page" == *"phase index|CPU (% of one core)|"*"$c|"* ]]
		[[ "$page" == *"phase index|minor faults|"*"$f|"* ]]
	done
}

@test "S0: dbio sweep --op takes a phase, bare or as 'phase index', and refuses what is neither" {
	need_built workload=import
	run --separate-stderr "$DBIO" sweep "$S0_JOB" --set rows=2000 --directory="$target" --vary page_size=1024,4096 \
		--op load --metric elapsed,user,sys,majflt --output sw.json --progress=none
	[ "$status" -eq 0 ]
	[ "$(grep -c '  s0   phase load ' <<<"$output")" -eq 2 ]
	[ "$(grep -c 'phase index\|phase schema' <<<"$output")" -eq 0 ]
	# Figures of the whole run: one "all" row a point, then its phases.
	run "$DBIO" compare sw.json --metric elapsed
	[ "$(grep -Ec '^(1024|4096) +s0 +all ' <<<"$output")" -eq 2 ]
	[ "$(grep -Ec '^(1024|4096) +s0 +(insert|commit|batch|index) ' <<<"$output")" -eq 0 ]
	[ "$(grep -Ec '^(1024|4096) +s0 +phase (schema|load|index) ' <<<"$output")" -eq 6 ]
	# Beside a figure per op type, bare "index" is the op type's row and
	# the phase's, and the table says whose elapsed time each holds.
	run "$DBIO" compare sw.json --op index --metric iops,elapsed
	[ "$(grep -Ec '^(1024|4096) +s0 +index ' <<<"$output")" -eq 2 ]
	[ "$(grep -Ec '^(1024|4096) +s0 +phase index ' <<<"$output")" -eq 2 ]
	[[ "$output" == *"the whole run's on an op type's row: elapsed (a phase's row: the phase's)"* ]]
	run "$DBIO" compare sw.json --op "phase index" --metric iops,elapsed
	[ "$(grep -Ec '^(1024|4096) +s0 +index ' <<<"$output")" -eq 0 ]
	[ "$(grep -Ec '^(1024|4096) +s0 +phase index ' <<<"$output")" -eq 2 ]
	run -2 --separate-stderr "$DBIO" sweep "$S0_JOB" --directory="$target" --vary page_size=1024 --op lod
	[[ "$stderr" == "dbio: command line: --op lod: item 1 is neither an op type nor a phase: expected a list of read, write,"*"; or a phase, bare or as 'phase NAME': "*" load "* ]]
	is_empty_dir "$target"
}

@test "S1: sequential read per filesystem with the scheduler recorded; compare says the change in percent and whether it is noise" {
	need_matrix
	succeeds matrix --rw=read --bs=1m --size=16m --repeat=2 --progress=none \
		--image "$images" --image-size 64m --fs ext2 --fs ext4 --sched none,mq-deadline --output s1.json
	printf '%s\n' "$output" >s1.txt
	cat s1.txt
	[[ "$output" == *"A = ext2, scheduler none"* ]]
	[[ "$output" == *"D = ext4, scheduler mq-deadline"* ]]
	# The table (the environment's lines above it may be longer).
	[ "$(sed -n '/^job  read/,$p' s1.txt | max_columns)" -le 80 ]
	json_is s1.json jobs.0.targets.0.block_device.scheduler=none jobs.1.targets.0.block_device.scheduler=mq-deadline
	bw=$(cell s1.txt "job  read" D bw)
	[[ "$bw" == *" ± "* ]]
	html_page s1.json s1.html
	[[ "$page" == *"D|ext4, scheduler mq-deadline|"* ]]
	[[ "$page" == *"read|bandwidth (MiB/s)|"*"${bw% MiB/s}|"* ]]

	# Kernel A against kernel B: two saved results of one job, compared later.
	for k in a b; do
		run "$DBIO" run --rw=read --bs=1m --size=16m --repeat=3 --directory="$target" --output "$k.json" --progress=none
		[ "$status" -eq 0 ]
	done
	run --separate-stderr "$DBIO" compare a.json b.json --metric bw
	[ "$status" -eq 0 ]
	[[ "$output" == *"A = a.json"* ]]
	# a row, a column per file: the change, its p and the verdict, or, when
	# that is wider than 100 columns (the figures' widths decide), the
	# change and its mark
	grep -Eq '^job  read  bw  .* MiB/s  (([-+][0-9.]+|0\.0) %, p[=<][0-9.]+, (within noise|significant, (improvement|regression))|([-+][0-9.]+|0\.0) %( [*!])?)$' <<<"$output" || {
		echo "$output"
		false
	}
	# stacked, the change and its mark
	run --separate-stderr "$DBIO" compare a.json b.json --metric bw --stacked
	grep -Eq '^  B vs A +([-+][0-9.]+|0\.0) %( \*| !)?$' <<<"$output" || {
		echo "$output"
		false
	}
	[[ "$output" == *"* significant, ! significant regression"* ]]
}

@test "S1: PostgreSQL's import compared between two results, per phase" {
	need_built workload=postgres
	compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || skip "no /usr/lib/postgresql/*/bin/initdb: install postgresql-15"
	[ "$(id -u)" -eq 0 ] || skip "needs root to run a server as the user postgres"
	DIR=$(mktemp -d /var/tmp/dbio-pg.XXXXXX)
	extra_dirs+=("$DIR")
	chmod 755 "$DIR"
	on_teardown pkill -QUIT -f "$DIR/dbio.postgres-"
	for k in a b; do
		succeeds run --workload=postgres --rows=5000 --indexes=1 --directory="$DIR" \
			--output "$k.json" --progress=none
	done
	run --separate-stderr "$DBIO" compare a.json b.json --op import --metric elapsed,user,sys
	[ "$status" -eq 0 ]
	echo "$output"
	# Single runs: the change in percent, and that it cannot be tested;
	# no percentage of a CPU time shown as 0.00 s (a short import's).
	[ "$(grep -Ec '^job  phase import  (elapsed|user|sys) .*(, n/a \(no repeats\)|  n/a \((A|B|both) shown as 0\.00 s\))$' <<<"$output")" -eq 3 ]
	grep -Eq '^job  phase import  elapsed .* [-+]?[0-9.]+ %, n/a \(no repeats\)$' <<<"$output"
	[ "$(grep -c 'phase schema\|phase index' <<<"$output")" -eq 0 ]
	html_page b.json pg.html
	[[ "$page" == *"import|"* ]]
}

@test "S2: per engine, records and sync: user, sys, elapsed, worst and second-worst batch, mean ± spread; a plot of the batch times" {
	need_kv_engine gdbm
	need_kv_engine sqlite
	succeeds sweep "$S2_JOB" --directory="$target" --vary kv_engine=gdbm,sqlite \
		--vary records=2000,4000 --vary sync_each_batch=1,0 --repeat=2 --op insert \
		--metric=iops,elapsed,user,sys,worst,worst2 --output s2.json --progress=none
	printf '%s\n' "$output" >s2.txt
	cat s2.txt
	[ "$(grep -Ec '^(gdbm|sqlite) +(2000|4000) +[01] +s2 +insert ' s2.txt)" -eq 8 ]
	# Inserts alone are one phase, the whole run: no row repeats it.
	[ "$(grep -c 'phase insert' s2.txt)" -eq 0 ]
	grep -qx "the whole run's on an op type's row: elapsed, user s, sys s, worst interval, 2nd-worst interval" s2.txt
	[[ "$output" == *"a figure with ± is the mean of the point's complete runs ± its 95 % CI"* ]]
	html_page s2.json s2.html
	for engine in gdbm sqlite; do
		for col in elapsed "worst interval" "2nd-worst interval"; do
			v=$(row_cell s2.txt "$col" kv_engine=$engine records=4000 sync_each_batch=1 op=insert)
			echo "$engine $col: $v"
			[[ "$v" == *" ± "* ]]
			[[ "$page" == *"$engine|4000|1|s2|insert|"*"$v|"* ]]
		done
	done
	# The report's "plots of time for each 1000 records": a series plot per run.
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: gnuplot-nox)"
	run --separate-stderr "$DBIO" plot s2.json --out plots
	[ "$status" -eq 0 ]
	[ "$(find plots -name 'series*' | wc -l)" -ge 8 ]
}

@test "S3: per-directory throughput adding up to the total, and the total for one to three directories" {
	local d sum
	mkdir d1 d2 d3
	succeeds run --directory="$scratch/d1:$scratch/d2:$scratch/d3" --numjobs=3 --rw=write --bs=8k --size=4m \
		--end_fsync=1 --progress=none --output s3run.json
	echo "$output"
	for d in d1 d2 d3; do
		grep -Eq "^      $scratch/$d +busy .* write +[0-9.]+ ops/s +[0-9.]+ MiB/s$" <<<"$output"
	done
	# The three directories' MiB/s add up to the job's (to the printed 0.01).
	sum=$(grep -E "^      $scratch/d[123] " <<<"$output" | awk '{ s += $(NF - 1) } END { printf "%.2f", s }')
	total=$(awk '$1 == "write" { print $4; exit }' <<<"$output")
	echo "sum $sum, total $total"
	awk -v a="$sum" -v b="$total" 'BEGIN { exit !(a - b < 0.02 && b - a < 0.02) }'
	# dbio report of the saved result: the same lines as the run printed.
	run_text=$output
	succeeds report s3run.json
	[ "$(grep -F "      $scratch/d" <<<"$output")" = "$(grep -F "      $scratch/d" <<<"$run_text")" ]
	# The page: a row per directory with the same figures.
	html_page s3run.json s3run.html
	for d in d1 d2 d3; do
		mib=$(grep -E "^      $scratch/$d " <<<"$run_text" | awk '{ print $(NF - 1) }')
		[[ "$page" =~ $'\n'"1|$scratch/$d|"[^$'\n']*"|$mib|"$'\n' ]]
	done

	succeeds sweep --rw=write --bs=8k --size=4m --numjobs=3 --end_fsync=1 \
		--vary directory="$scratch/d1,$scratch/d1:$scratch/d2,$scratch/d1:$scratch/d2:$scratch/d3" \
		--metric bw --op write --output s3.json --progress=none
	printf '%s\n' "$output" >s3.txt
	cat s3.txt
	[ "$(grep -c ' job  write ' s3.txt)" -eq 3 ]
	# The rows are labelled by the number of directories (S3's drives),
	# the paths in a legend below.
	grep -Eq '^directories +job +op +MiB/s$' s3.txt
	for n in 1 2 3; do grep -Eq "^$n +job +write +[0-9.]+$" s3.txt; done
	[ "$(sed -n '/^directories of each point:$/,/^$/p' s3.txt)" = "directories of each point:
  1  $scratch/d1
  2  $scratch/d1:$scratch/d2
  3  $scratch/d1:$scratch/d2:$scratch/d3" ]
	# Below the table, each directory of the points over several: the
	# one-directory point has no such row, the others one a directory,
	# and their write MiB/s add up to the point's (to the printed 0.1).
	sed -n '/^per directory, of the points over several (they add up to the point.s):$/,$p' s3.txt >dirs.txt
	[ "$(grep -c "^1 " dirs.txt)" -eq 0 ]
	[ "$(grep -c "^2 " dirs.txt)" -eq 2 ]
	[ "$(grep -c "^3 " dirs.txt)" -eq 3 ]
	for d in 2 3; do
		sum=$(awk -v d="$d" '$1 == d && $3 ~ "^/" && $4 == "-" { s += $5 } END { printf "%.2f", s }' dirs.txt)
		total=$(awk -v d="$d" '$1 == d && $3 == "write" { print $4; exit }' s3.txt)
		echo "$d: directories $sum, point $total"
		awk -v a="$sum" -v b="$total" 'BEGIN { exit !(a - b < 0.35 && b - a < 0.35) }'
	done
	# An fsync moves no bytes of its own: no MiB/s on its row, not 0.00.
	succeeds compare s3.json --metric bw
	[ "$(grep -Ec ' job  fsync +-$' <<<"$output")" -eq 3 ]
	# Two sweeps compared: the same labels and legend.
	succeeds compare s3.json s3.json --metric bw --op write
	for n in 1 2 3; do grep -Eq "^$n +job +write +bw +[0-9.]+ MiB/s +[0-9.]+ MiB/s +0.0 %" <<<"$output"; done
	grep -qx "  3  $scratch/d1:$scratch/d2:$scratch/d3" <<<"$output"
	json_is s3.json jobs.2.runs.0.targets.2.directory="$scratch/d3" jobs.2.runs.0.targets.2.write.count=512
	html_page s3.json s3.html
	n=0
	for d in "$scratch/d1" "$scratch/d1:$scratch/d2" "$scratch/d1:$scratch/d2:$scratch/d3"; do
		n=$((n + 1))
		v=$(row_cell s3.txt MiB/s directories=$n op=write)
		# The page and the table give MiB/s to 0.01, the same figure.
		[[ "$page" =~ $'\n'"$d|job|write|"[0-9.]+"|"([0-9.]+)"|" ]]
		echo "$d: text $v, page ${BASH_REMATCH[1]}"
		[ "$v" = "${BASH_REMATCH[1]}" ]
	done
}

@test "S4: a sweep with repeat=3: one row per value, mean ± spread, a graph" {
	succeeds sweep --rw=randrw --rwmixread=60 --bs=16k --size=4m --nrfiles=4 --numjobs=2 \
		--share_files=1 --fsync=100 --runtime=200ms --time_based --repeat=3 --directory="$target" \
		--vary nrfiles=1,4 --metric iops,p99 --op read --output s4.json --progress=none
	printf '%s\n' "$output" >s4.txt
	cat s4.txt
	[ "$(grep -Ec '^(1|4) +job +read ' s4.txt)" -eq 2 ]
	html_page s4.json s4.html
	for n in 1 4; do
		v=$(row_cell s4.txt ops/s nrfiles=$n op=read)
		[[ "$v" == *" ± "* ]]
		[[ "$page" == *"$n|job|read|$v|"* ]] || {
			echo "no '$n|job|read|$v|' on the page, whose rows are:"
			grep -F '|job|' <<<"$page"
			false
		}
	done
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: gnuplot-nox)"
	# The graph's title is the figure's own (its SVG), not a caption below.
	"$PYTHON" - s4.html <<'PY'
import re, sys
svgs = re.findall(r"<svg.*?</svg>", open(sys.argv[1]).read(), flags=re.S)
assert any("by nrfiles" in s for s in svgs), "no graph titled by nrfiles"
PY
}

@test "S4: the fixed-work form (number_ios): the time each cell took, mean ± CI; two sweeps compared a row per value, a column each" {
	local n
	for side in a b; do
		succeeds sweep --rw=randrw --rwmixread=60 --bs=16k --size=4m --numjobs=2 --share_files=1 \
			--fsync=100 --io_size=1t --number_ios=300 --repeat=3 --directory="$target" --vary nrfiles=1,4 \
			--output s4-$side.json --progress=none
		printf '%s\n' "$output" >s4-$side.txt
	done
	cat s4-a.txt
	# The seed's figure: elapsed per cell, a row per value, no op rows.
	grep -Eq '^nrfiles +job +op +elapsed$' s4-a.txt
	for n in 1 4; do
		grep -Eq "^$n +job +all +[0-9.]+ (us|ms|s) ± [0-9.]+ (ns|us|ms|s)$" s4-a.txt
		# Each run did the fixed work: 300 reads and writes a thread.
		[ "$(value s4-a.json "sorted({r['ops']['read']['count'] + r['ops']['write']['count'] for j in d['jobs'] if j['point']['nrfiles'] == '$n' for r in j['runs']})")" = "[600]" ]
	done
	[ "$(grep -cE '^[0-9]+ +job ' s4-a.txt)" -eq 2 ]
	# The two sweeps side by side: a row per value, a column per file, the
	# change and its mark, within 100 columns.
	succeeds compare s4-a.json s4-b.json
	cat <<<"$output"
	grep -Eq '^nrfiles +job +op +metric +A +B +B vs A$' <<<"$output"
	for n in 1 4; do
		grep -Eq "^$n +job +all +elapsed +[0-9.]+ (us|ms|s) ± [0-9.]+ (ns|us|ms|s) +[0-9.]+ (us|ms|s) ± [0-9.]+ (ns|us|ms|s) +([+-][0-9.]+|0\.0) %" <<<"$output"
	done
	[ "$(grep -cE '^[0-9]+ +job ' <<<"$output")" -eq 2 ]
	[ "$("$PYTHON" -c 'import sys; print(max(len(l) for l in sys.stdin.read().splitlines()))' <<<"$output")" -le 100 ]
}

@test "run: with repeats the closing table of several jobs keeps to 80 columns; --wide keeps it whole" {
	printf '[a]\nrw=randread\n[b]\nrw=randwrite\n' >two.fio
	run --separate-stderr "$DBIO" run two.fio --bs=4k --size=1m --runtime=100ms --time_based --repeat=2 \
		--directory="$target" --progress=none
	[ "$status" -eq 0 ]
	table=$(sed -n '/^job  op/,/^(a mean of runs/p' <<<"$output")
	echo "$table"
	[ "$(max_columns <<<"$table")" -le 80 ]
	[ "$(grep -c '^job  op' <<<"$table")" -eq 2 ]
	[ "$(grep -c 'mean of 2 runs' <<<"$table")" -eq 2 ]
	run --separate-stderr "$DBIO" run two.fio --bs=4k --size=1m --runtime=100ms --time_based --repeat=2 \
		--directory="$target" --progress=none --wide
	table=$(sed -n '/^job  op/,/^(a mean of runs/p' <<<"$output")
	[ "$(grep -c '^job  op' <<<"$table")" -eq 1 ]
	[ "$(max_columns <<<"$table")" -gt 80 ]
}
