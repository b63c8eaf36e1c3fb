#!/usr/bin/env bash
# vs-fio.sh: dbio against fio 3.x (and a bare pread loop, and dd) on the same
# jobs, alternating tools run by run (dbio, fio, [peer], dbio, fio, ...; in
# the disk-bound jobs c and d the tool that starts a round rotates), so that a
# noisy, shared machine hurts all alike. Reports per job and tool the
# median/min/max of ops/s and MiB/s, and the per-round ratios dbio/peer.
#
#   bench/vs-fio.sh [-n RUNS] [-d DIR] [-t SECONDS] [-j JOBS]
#
#   -n RUNS     runs of each tool per job (default 5)
#   -j JOBS     the jobs to run, as letters (default abcdefg: all)
#   -d DIR      where the data files go: a fresh directory is made inside DIR
#               and removed at the end (default: a fresh directory under /tmp)
#   -t SECONDS  runtime of each time-based run (default 5)
#
# Environment: DBIO (path of the dbio binary, default ../dbio next to bench/),
# CC (default cc). Job c drops the page cache and needs root; without it the
# job is skipped with a message. Needs fio, python3 and a C compiler.
#
# A run during which another process dropped the page cache (counted in
# /proc/vmstat drop_pagecache) is discarded and repeated, at most 4 times.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RUNS=5
PARENT=""
SECS=5
ONLY=abcdefg

opt() {
        case $1 in
        n) RUNS=$2 ;;
        j) ONLY=$2 ;;
        d) PARENT=$2 ;;
        t) SECS=$2 ;;
        esac
}
bench_opts n:d:t:j: "$@"
whole -n "$RUNS"
whole -t "$SECS"
[[ $ONLY =~ ^[a-g]+$ ]] || die "-j: expected job letters among abcdefg, got '$ONLY'"
want() { [[ $ONLY == *"$1"* ]]; }

CC=${CC:-cc}

need fio "install it (e.g. apt-get install fio) and run again"
FIO_VERSION=$(fio --version 2>/dev/null || true)
[[ $FIO_VERSION == fio-3.* ]] ||
        echo "vs-fio.sh: warning: written for fio 3.x, found '$FIO_VERSION'" >&2
need_dbio
need python3 "it reads the JSON results"
need "$CC" "set CC="
need dd "coreutils"

bench_tmp vs-fio-tmp
bench_work vs-fio "${PARENT:-/tmp}"
mkdir "$WORK/dbio" # dbio's own, empty directory: dbio lays out every file
private_dbio
BIN=$TMP/bin
LOG=$TMP/log
RES=$TMP/results.tsv       # job tool run ops/s bytes/s flag
DISCARDED=$TMP/discarded.tsv
PENDING=$TMP/pending.tsv   # the row of the measurement in progress
: >"$RES"
: >"$DISCARDED"

"$CC" -O2 -pthread -o "$TMP/pread-loop" "$HERE/pread-loop.c" ||
        die "cannot build $HERE/pread-loop.c with $CC"

CAN_DROP=1
{ [ -w /proc/sys/vm/drop_caches ] && [ "$(id -u)" -eq 0 ]; } || CAN_DROP=0

progress() { printf '  %s\n' "$*" >&2; }

OWN_DROPS=0
drop_caches() {
        sync
        echo 3 >/proc/sys/vm/drop_caches
        OWN_DROPS=$((OWN_DROPS + 1))
}

# How often anyone dropped the page cache (0 where the kernel does not count).
drops() { awk '$1 == "drop_pagecache" { n = $2 } END { print n + 0 }' /proc/vmstat 2>/dev/null || echo 0; }

# warm FILE: read it once so it is in the page cache.
warm() { dd if="$1" of=/dev/null bs=1M status=none; }

# record JOB TOOL RUN OPS_PER_S BYTES_PER_S
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$PENDING"; }

# guard CMD...: run one measurement (CMD records one row) and keep its row
# unless another process dropped the page cache meanwhile: on a shared machine
# that empties the cache under a cached-read job and starts a flood of
# writeback. Then the row is discarded and CMD run again, at most MAX_RETRY
# times; a row still disturbed after that is kept and counted as such.
MAX_RETRY=4
guard() {
        local try=0 b a ob
        while :; do
                : >"$PENDING"
                b=$(drops)
                ob=$OWN_DROPS
                "$@"
                a=$(drops)
                if [ $((a - b)) -le $((OWN_DROPS - ob)) ]; then
                        sed 's/$/\tok/' "$PENDING" >>"$RES"
                        return 0
                fi
                if [ "$try" -ge "$MAX_RETRY" ]; then
                        sed 's/$/\tdisturbed/' "$PENDING" >>"$RES"
                        progress "kept a disturbed run of $1 $2"
                        return 0
                fi
                try=$((try + 1))
                sed 's/$/\trepeated/' "$PENDING" >>"$DISCARDED"
                echo "== discarded: page cache dropped by another process during: $*" >>"$LOG"
                progress "repeating $1 $2: another process dropped the page cache meanwhile"
        done
}

# json_get FILE PYTHON-EXPR-ON-d : prints "ops bytes_per_s"
json_get() {
        python3 - "$1" "$2" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text[text.index('{'):])   # fio may print notes before the JSON
ops, bw = eval(sys.argv[2], {"d": d})
print(f"{float(ops):.3f} {float(bw):.3f}")
PY
}

# dbio_run JOB RUN OPTYPE KEY=VALUE... (job keys, given as --KEY=VALUE)
# dbio lays out its own file (written and fsynced) and keeps it (--keep, job
# name JOB+RUN so that later runs do not trip over it); DFILE names it, and the
# peers of the same round may use that very file. free_dfile removes it.
DFILE=""
dbio_run() {
        local job=$1 run=$2 op=$3 out=$TMP/dbio.$1.$2.json
        shift 3
        free_dfile
        echo "== dbio $job run $run: $*" >>"$LOG"
        "$BIN/dbio" run --directory="$WORK/dbio" --name="$job$run" --keep --output "$out" \
                --format text "$@" >>"$LOG" 2>&1 || die "dbio failed on job $job (run $run):
$(tail -5 "$LOG")"
        local files=("$WORK/dbio/dbio.$job$run".*)
        [ ${#files[@]} -eq 1 ] && [ -f "${files[0]}" ] ||
                die "job $job run $run: expected one file dbio.$job$run.* in $WORK/dbio, found: ${files[*]}"
        DFILE=${files[0]}
        local v
        v=$(json_get "$out" "(d['jobs'][0]['runs'][0]['ops']['$op']['iops'], d['jobs'][0]['runs'][0]['ops']['$op']['bw_bytes'])")
        # shellcheck disable=SC2086
        record "$job" dbio "$run" $v
}
free_dfile() {
        if [ -n "$DFILE" ]; then rm -f -- "$DFILE"; fi
        DFILE=""
}

# fresh_file JOB RUN KEY=VALUE...: a fresh file laid out by dbio exactly as for
# its own run (written, fsynced, invalidated if asked; then a 1 ms run that is
# not counted), for a peer to start on right after its layout, as dbio does.
# Sets PFILE.
PFILE=""
fresh_file() {
        local name=p$1$2
        shift 2
        free_pfile
        "$BIN/dbio" run --directory="$WORK/dbio" --name="$name" --keep --format json "$@" \
                --time_based=0 --ramp_time=0 --runtime=1ms >/dev/null 2>>"$LOG" ||
                die "dbio could not lay out a file for the peer ($name): $(tail -3 "$LOG")"
        local files=("$WORK/dbio/dbio.$name".*)
        [ ${#files[@]} -eq 1 ] && [ -f "${files[0]}" ] || die "no file dbio.$name.* in $WORK/dbio"
        PFILE=${files[0]}
}
free_pfile() {
        if [ -n "$PFILE" ]; then rm -f -- "$PFILE"; fi
        PFILE=""
}

# fio_run JOB RUN OPTYPE --fio-option... (--ioengine= among them); recorded
# as tool FIO_TOOL (default fio)
fio_run() {
        local job=$1 run=$2 op=$3 out=$TMP/fio.$1.$2.json
        shift 3
        echo "== fio $job run $run: $*" >>"$LOG"
        fio --output-format=json --output="$out" --name="$job" --group_reporting=1 "$@" \
                >>"$LOG" 2>&1 ||
                die "fio failed on job $job (run $run):
$(tail -5 "$LOG")"
        local v
        v=$(json_get "$out" "(d['jobs'][0]['$op']['iops'], d['jobs'][0]['$op']['bw_bytes'])")
        # shellcheck disable=SC2086
        record "$job" "${FIO_TOOL:-fio}" "$run" $v
}

# preadloop_run JOB RUN FILE THREADS
preadloop_run() {
        local job=$1 run=$2 out
        out=$("$TMP/pread-loop" "$3" "$SECS" "$4" 4096 24301) || die "pread-loop failed on job $job"
        echo "== pread-loop $job run $run: $out" >>"$LOG"
        local ops bw
        ops=$(sed -n 's/.*ops_per_s=\([0-9.]*\).*/\1/p' <<<"$out")
        bw=$(sed -n 's/.*bytes_per_s=\([0-9.]*\).*/\1/p' <<<"$out")
        record "$job" pread-loop "$run" "$ops" "$bw"
}

# dd_run JOB RUN FILE: dd bs=1M to /dev/null (ops/s = 1 MiB blocks per second)
dd_run() {
        local job=$1 run=$2 out
        out=$(LC_ALL=C dd if="$3" of=/dev/null bs=1M 2>&1) || die "dd failed on job $job"
        echo "== dd $job run $run: $(tail -1 <<<"$out")" >>"$LOG"
        python3 - "$out" "$job" "$run" >>"$PENDING" <<'PY'
import re, sys
m = re.search(r'^(\d+) bytes .* copied, ([0-9.]+) s', sys.argv[1], re.M)
b, s = int(m.group(1)), float(m.group(2))
print(f"{sys.argv[2]}\tdd\t{sys.argv[3]}\t{b / 1048576 / s:.3f}\t{b / s:.3f}")
PY
}

# ---------------------------------------------------------------- jobs
COMMON_RAND=(--bs=4k --size=1g --time_based=1 --runtime="$SECS" --invalidate=0 --norandommap=1)
PSYNC=(--ioengine=psync)

# warm_run CMD...: read DFILE once (into the page cache), then run CMD.
warm_run() {
        warm "$DFILE"
        "$@"
}

# a, b: every round dbio lays out a fresh 1 GiB file (not timed; it stays in
# the page cache) and runs on it; then fio and pread-loop run on that same file.
want a && echo "job a: 4 KiB randread, 1 GiB cached, 1 thread ($RUNS x $SECS s per tool)" >&2
want a && for i in $(seq 1 "$RUNS"); do
        progress "run $i/$RUNS"
        guard dbio_run a "$i" read --rw=randread "${COMMON_RAND[@]}"
        guard warm_run fio_run a "$i" read "${PSYNC[@]}" --rw=randread "${COMMON_RAND[@]}" \
                --filename="$DFILE"
        guard warm_run preadloop_run a "$i" "$DFILE" 1
        free_dfile
done

want b && echo "job b: 4 KiB randread, one shared 1 GiB cached file, 2 threads" >&2
want b && for i in $(seq 1 "$RUNS"); do
        progress "run $i/$RUNS"
        guard dbio_run b "$i" read --rw=randread "${COMMON_RAND[@]}" --numjobs=2 --share_files=1
        guard warm_run fio_run b "$i" read "${PSYNC[@]}" --rw=randread "${COMMON_RAND[@]}" \
                --numjobs=2 --filename="$DFILE"
        guard warm_run preadloop_run b "$i" "$DFILE" 2
        free_dfile
done

# rotate I CMD...: run the guarded measurements CMD1 I, CMD2 I, ... starting
# with a different one each round (round I starts with CMD number I mod n), so
# that no tool always runs first or last in a round: c and d showed a strong
# position effect on this machine (the disk is shared; the previous round's
# file deletions and layouts settle in the background).
rotate() {
        local i=$1 n k
        shift
        n=$#
        local cmds=("$@")
        for ((k = 0; k < n; k++)); do
                guard "${cmds[$(((i - 1 + k) % n))]}" "$i"
        done
}

# c: each tool reads a 1 GiB file laid out just before its run, after a drop
# of the page cache: dbio its own (layout, fsync, POSIX_FADV_DONTNEED, read);
# fio and dd one that dbio laid out the same way.
C_KEYS=(--rw=read --bs=1m --size=1g --invalidate=1)
c_dbio() {
        drop_caches
        dbio_run c "$1" read "${C_KEYS[@]}"
        free_dfile
}
c_fio() {
        drop_caches
        fresh_file c "$1" "${C_KEYS[@]}"
        fio_run c "$1" read "${PSYNC[@]}" "${C_KEYS[@]}" --fadvise_hint=0 --filename="$PFILE"
        free_pfile
}
c_dd() {
        drop_caches
        fresh_file c "$1" "${C_KEYS[@]}"
        dd_run c "$1" "$PFILE"
        free_pfile
}
if ! want c; then
        :
elif [ "$CAN_DROP" -eq 1 ]; then
        echo "job c: 1 MiB sequential read, 1 GiB, cold cache (drop_caches before each run)" >&2
        for i in $(seq 1 "$RUNS"); do
                progress "run $i/$RUNS"
                rotate "$i" c_dbio c_fio c_dd
        done
else
        echo "job c: SKIPPED: dropping the page cache needs root (/proc/sys/vm/drop_caches)" >&2
fi

# d: both tools start right after a fresh layout of their file (dbio: its
# own; fio: one laid out by dbio the same way) and skip the first RAMP seconds:
# just after a layout's fsync, fdatasync can be slow for a while.
RAMP=2
D_KEYS=(--rw=randwrite --bs=8k --size=256m --fdatasync=1 --time_based=1 --runtime="$SECS"
        --ramp_time="$RAMP" --invalidate=0 --norandommap=1)
d_dbio() {
        dbio_run d "$1" write "${D_KEYS[@]}" --prefill=1
        free_dfile
}
d_fio() {
        fresh_file d "$1" "${D_KEYS[@]}" --prefill=1
        fio_run d "$1" write "${PSYNC[@]}" "${D_KEYS[@]}" --filename="$PFILE"
        free_pfile
}
want d && echo "job d: 8 KiB randwrite + fdatasync after each write, 256 MiB file, 1 thread" >&2
want d && for i in $(seq 1 "$RUNS"); do
        progress "run $i/$RUNS"
        rotate "$i" d_dbio d_fio
done

# e: the null engine: no I/O, so each tool's own cost per operation. dbio
# lays out a 1 GiB file without writing it (prefill=0; null never touches
# it); fio's null engine needs no file.
E_KEYS=(--ioengine=null --rw=randread "${COMMON_RAND[@]}")
want e && echo "job e: null engine, 4 KiB randread, 1 thread" >&2
want e && for i in $(seq 1 "$RUNS"); do
        progress "run $i/$RUNS"
        guard dbio_run e "$i" read "${E_KEYS[@]}" --prefill=0
        free_dfile
        guard fio_run e "$i" read "${E_KEYS[@]}" --directory="$WORK"
done

# f, g: as a, through io_uring at iodepth 1 and 32 (fio's defaults for its
# io_uring engine otherwise: no registered files or buffers, no polling).
# fio's defaults submit one I/O per io_uring_enter (iodepth_batch_submit=1);
# in g fio also runs batched as dbio does ("fio-batch":
# iodepth_batch_submit=32 iodepth_batch_complete_max=32).
for job in f g; do
        want "$job" || continue
        qd=1
        [ "$job" = g ] && qd=32
        echo "job $job: io_uring iodepth=$qd, 4 KiB randread, 1 GiB cached, 1 thread" >&2
        for i in $(seq 1 "$RUNS"); do
                progress "run $i/$RUNS"
                guard dbio_run "$job" "$i" read --ioengine=io_uring --iodepth="$qd" --rw=randread \
                        "${COMMON_RAND[@]}"
                guard warm_run fio_run "$job" "$i" read --ioengine=io_uring --iodepth="$qd" \
                        --rw=randread "${COMMON_RAND[@]}" --filename="$DFILE"
                [ "$job" = g ] && FIO_TOOL=fio-batch guard warm_run fio_run "$job" "$i" read \
                        --ioengine=io_uring --iodepth="$qd" --iodepth_batch_submit="$qd" \
                        --iodepth_batch_complete_max="$qd" --rw=randread "${COMMON_RAND[@]}" \
                        --filename="$DFILE"
                free_dfile
        done
done

# ---------------------------------------------------------------- report
DBIO_VERSION=$("$BIN/dbio" --version 2>/dev/null | head -1 || true)
GIT_REV=$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)
export RUNS SECS RAMP MAX_RETRY FIO_VERSION DBIO_VERSION GIT_REV
python3 - "$RES" "$DISCARDED" <<'PY'
import os, statistics, sys, time
from collections import defaultdict

rows = defaultdict(dict)          # (job, tool) -> {run: (ops, bw)}
flags = defaultdict(int)          # (job, "repeated" | "disturbed") -> count
for path in sys.argv[1:]:
    for line in open(path):
        job, tool, run, ops, bw, flag = line.rstrip("\n").split("\t")
        flags[(job, flag)] += 1
        if flag != "repeated":
            rows[(job, tool)][int(run)] = (float(ops), float(bw))

runs, secs = os.environ["RUNS"], os.environ["SECS"]
print(f"dbio vs fio: {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, "
      f"kernel {os.uname().release}")
print(f"{os.environ['DBIO_VERSION']} (git {os.environ['GIT_REV']}); "
      f"{os.environ['FIO_VERSION']}; ioengine psync unless the job says; {runs} runs per tool, alternating; "
      f"time-based runs {secs} s")
print("files: dbio lays out its own (written, fsynced) before each of its runs; in a and b "
      "fio and pread-loop then use that same file (read once to warm it), order dbio, fio, "
      "pread-loop; in c and d each peer gets a file dbio laid out the same way just before "
      "the peer's run, and the tool that goes first rotates from round to round")
print("ratio = dbio / peer of the same round (run i of dbio against run i of the peer), "
      "from bytes/s; > 1 means dbio is faster")

JOBS = [
    ("a", "4 KiB random read, 1 GiB file in the page cache, 1 thread, uniform offsets "
          "(norandommap=1), invalidate=0", ["fio", "pread-loop"]),
    ("b", "4 KiB random read, ONE SHARED 1 GiB cached file, 2 threads (dbio share_files=1: "
          "each thread on its half of the blocks; fio numjobs=2 filename=<file> and "
          "pread-loop: each thread over the whole file)", ["fio", "pread-loop"]),
    ("c", "1 MiB sequential read of a 1 GiB file, cold: sync + drop_caches before each run, "
          "invalidate=1 (fio: fadvise_hint=0, as dbio and dd give no hint); the host may cache "
          "the virtual disk", ["fio", "dd"]),
    ("d", "8 KiB random overwrite of a fully written 256 MiB file, fdatasync after each "
          f"write, 1 thread, ramp_time={os.environ['RAMP']} s in both; figures are writes/s",
     ["fio"]),
    ("e", "null engine (no I/O: the tools' own cost per operation), 4 KiB random, 1 thread, "
          "uniform offsets", ["fio"]),
    ("f", "io_uring iodepth=1, 4 KiB random read, 1 GiB file in the page cache, 1 thread, "
          "uniform offsets", ["fio"]),
    ("g", "io_uring iodepth=32, 4 KiB random read, 1 GiB file in the page cache, 1 thread, "
          "uniform offsets (fio: its defaults, one I/O per submit; fio-batch: "
          "iodepth_batch_submit=32 iodepth_batch_complete_max=32, as dbio batches)",
     ["fio", "fio-batch"]),
]

for job, what, peers in JOBS:
    if (job, "dbio") not in rows:
        print(f"\njob {job}: not run ({what})")
        continue
    print(f"\njob {job}: {what}")
    if flags[(job, "repeated")] or flags[(job, "disturbed")]:
        print(f"  runs repeated because another process dropped the page cache during them: "
              f"{flags[(job, 'repeated')]}; disturbed runs kept after {os.environ['MAX_RETRY']} "
              f"repeats: {flags[(job, 'disturbed')]}")
    print(f"  {'tool':<11}{'ops/s median':>14}{'min':>12}{'max':>12}"
          f"{'MiB/s median':>15}{'min':>10}{'max':>10}")
    for tool in ["dbio"] + peers:
        r = rows.get((job, tool))
        if not r:
            continue
        ops = [v[0] for v in r.values()]
        mib = [v[1] / 1048576 for v in r.values()]
        print(f"  {tool:<11}{statistics.median(ops):>14,.0f}{min(ops):>12,.0f}{max(ops):>12,.0f}"
              f"{statistics.median(mib):>15,.1f}{min(mib):>10,.1f}{max(mib):>10,.1f}")
    for peer in peers:
        d, p = rows[(job, "dbio")], rows.get((job, peer), {})
        rat = [d[i][1] / p[i][1] for i in sorted(d) if i in p and p[i][1] > 0]
        if rat:
            print(f"  ratio dbio/{peer:<11} median {statistics.median(rat):.3f}  "
                  f"min {min(rat):.3f}  max {max(rat):.3f}  "
                  f"(per run: {' '.join(f'{x:.3f}' for x in rat)})")
PY
