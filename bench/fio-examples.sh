#!/usr/bin/env bash
# fio-examples.sh: runs every fio job file of a folder (fio's examples/, say)
# with fio and with dbio, scaled down the same way, and prints per file a
# markdown row: fio's exit status, whether dbio ran it or its refusal, and for
# jobs bound by size the operation counts of both tools (issue 13: "fio job
# files run unchanged").
#
#   bench/fio-examples.sh [-d DIR] [-o FILE] [-t SECONDS] JOBDIR
#
#   JOBDIR      the folder of *.fio files (e.g. ../shared/fio-examples); the
#               files are read, never copied into the project
#   -d DIR      where the scratch directory is made (default /var/tmp); it is
#               removed at the end, also after a failure or a signal
#   -o FILE     write the markdown (totals included) to FILE, not to stdout
#   -t SECONDS  time limit of each tool on each file (default 60)
#
# dbio runs each file unchanged; the scaling is on its command line
# (--set=size=4m --set=runtime=... --set=directory=SCRATCH ...: dbio's --set
# applies a key to every job, over the file's; a bare --size=4m would be a
# default the file overrides, as in fio). fio cannot override a job file from
# its command line, so fio runs a copy in the scratch directory with the same keys
# and values appended to every section, where the last value wins. Jobs with
# time_based run 1 s and only "ran or refused" counts; the others are bound by
# their size (at most 4 MiB) and, when both ran, their op counts are compared.
# Keys the file sets that dbio does not know are scaled for fio alone (dbio
# refuses the file for them anyway), and paths outside the scratch directory
# (/dev/sda, /tmp/testfile, directory=/data1) become files in it.
#
# Environment: DBIO (path of the dbio binary, default ../dbio next to bench/).
# Needs fio, python3, timeout(1) and unshare(1) (util-linux); root, or user
# namespaces, to run fio in a PID namespace of its own.
set -euo pipefail

PARENT=/var/tmp
OUTFILE=""
LIMIT=60

# Variables fio's examples expect from the environment (sprandom.fio says
# "FIO_BS should be set"), for both tools; a value already set is kept.
export FIO_BS=${FIO_BS:-4096}

# The scaling: both tools get these (fio-only where dbio lacks the key).
SIZE=4m           # size, filesize and io_size above it come down to it
SIZE_RUNTIME=10   # runtime of jobs bound by size: a bound that 4 MiB never meets
TIME_RUNTIME=1    # runtime of time_based jobs

die() {
        echo "fio-examples.sh: $*" >&2
        exit 1
}
usage() {
        sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
        exit "${1:-0}"
}

while getopts "d:o:t:h" opt; do
        case $opt in
        d) PARENT=$OPTARG ;;
        o) OUTFILE=$OPTARG ;;
        t) LIMIT=$OPTARG ;;
        h) usage 0 ;;
        *) usage 2 >&2 ;;
        esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage 2 >&2
[[ $LIMIT =~ ^[1-9][0-9]*$ ]] || die "-t: expected whole seconds >= 1, got '$LIMIT'"
[ -d "$1" ] || die "$1: not a directory"
JOBDIR=$(cd "$1" && pwd)
[ -d "$PARENT" ] || die "-d $PARENT: not a directory"

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
DBIO=${DBIO:-$ROOT/dbio}

command -v fio >/dev/null 2>&1 ||
        die "fio not found in PATH: install it (e.g. apt-get install fio) and run again"
command -v python3 >/dev/null 2>&1 || die "python3 not found in PATH: it reads the job files and results"
command -v timeout >/dev/null 2>&1 || die "timeout not found in PATH (GNU coreutils)"
[ -x "$DBIO" ] || die "no dbio binary at $DBIO: run 'make' in $ROOT first (or set DBIO=)"
FIO_VERSION=$(fio --version 2>/dev/null || true)

shopt -s nullglob
FILES=("$JOBDIR"/*.fio)
shopt -u nullglob
[ ${#FILES[@]} -gt 0 ] || die "$JOBDIR: no *.fio files"

SCRATCH=""
CHILD=""
cleanup() {
        # Only what this script started and made: the tool running now, the scratch dir.
        if [ -n "$CHILD" ]; then
                kill -TERM "$CHILD" 2>/dev/null || true
                wait "$CHILD" 2>/dev/null || true
        fi
        [ -n "$SCRATCH" ] && [ -d "$SCRATCH" ] && rm -rf -- "$SCRATCH"
        return 0
}
trap cleanup EXIT
trap 'echo "fio-examples.sh: interrupted" >&2; exit 130' INT
trap 'echo "fio-examples.sh: terminated" >&2; exit 143' TERM
trap 'echo "fio-examples.sh: hung up" >&2; exit 129' HUP

SCRATCH=$(mktemp -d "$PARENT/fio-examples.XXXXXX")
mkdir "$SCRATCH/bin" "$SCRATCH/jobs" "$SCRATCH/out"
# A private copy of the binary: a rebuild during the run must not mix versions.
BIN=$SCRATCH/bin/dbio
cp -- "$DBIO" "$BIN"
ROWS=$SCRATCH/rows.tsv
: >"$ROWS"

# The keys this dbio knows, from its own list (generated from its option tables).
KEYS=$SCRATCH/dbio-keys
"$BIN" help options | sed -n 's/^\([a-z0-9_]*\)=.*/\1/p' | sort -u >"$KEYS"
for key in size runtime directory; do
        grep -qx "$key" "$KEYS" ||
                die "'$DBIO help options' lists no $key key: not a dbio this script knows"
done

# fio runs its jobs as processes of their own session, which outlive a fio
# killed at the time limit (fio 3.33 hangs with io_submit_mode=offload): in a
# PID namespace of its own, the kill of the namespace's first process takes
# them all.
NS=()
if unshare --pid --fork --kill-child true 2>/dev/null; then
        NS=(unshare --pid --fork --kill-child)
elif unshare --user --map-root-user --pid --fork --kill-child true 2>/dev/null; then
        NS=(unshare --user --map-root-user --pid --fork --kill-child)
else
        echo "fio-examples.sh: warning: no PID namespace (unshare --pid): the jobs of a fio killed at the time limit may live on" >&2
fi

# plan JOBFILE COPY FIODIR: writes COPY, fio's scaled copy of JOBFILE (data in
# FIODIR), and prints "bound time|size", "unsafe KEY" if fio must not run it,
# and one "dbio --set=KEY=VALUE" line per key of dbio's command line.
plan() {
        SIZE=$SIZE SIZE_RUNTIME=$SIZE_RUNTIME TIME_RUNTIME=$TIME_RUNTIME \
                python3 - "$1" "$2" "$3" "$KEYS" <<'PY'
import os, re, sys

src, copy, fiodir, keysfile = sys.argv[1:5]
known = set(open(keysfile).read().split())
SIZE = os.environ["SIZE"]

# fio's aliases of the keys looked at here (fio 3.x options.c).
ALIAS = {"timeout": "runtime", "io_limit": "io_size", "nr_files": "nrfiles",
         "loop": "loops", "fill_fs": "fill_device"}
# Keys with which fio acts outside its files: commands, the device's
# scheduler, cgroups, replaying a log onto the devices it names.
UNSAFE = {"exec_prerun", "exec_postrun", "ioscheduler", "cgroup", "cgroup_weight",
          "cgroup_nodelete", "read_iolog", "replay_redirect"}


def size_bytes(v):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([kmgtp]?)i?b?", v.strip().lower())
    if not m:
        return None
    return float(m.group(1)) * 1024 ** " kmgtp".index(m.group(2) or " ")


def seconds(v):
    best = None
    for part in v.split("-"):  # startdelay takes a range
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(us|ms|s|m|h|d)?", part.strip().lower())
        if not m:
            return None
        s = float(m.group(1)) * {"us": 1e-6, "ms": 1e-3, "s": 1, "m": 60, "h": 3600,
                                 "d": 86400, None: 1}[m.group(2)]
        best = s if best is None else max(best, s)
    return best


def whole(v):
    return int(v) if re.fullmatch(r"\d+", v.strip()) else None


def truthy(v):
    return v is None or v.strip().lower() not in ("0", "false", "no", "off")


# A key the file sets above its cap (or in a form not understood) is set to
# the cap in every section: (key, how to read it, cap, cap as read).
CAPS = [("size", size_bytes, SIZE, size_bytes(SIZE)),
        ("filesize", size_bytes, SIZE, size_bytes(SIZE)),
        ("io_size", size_bytes, SIZE, size_bytes(SIZE)),
        ("nrfiles", whole, "64", 64),
        ("loops", whole, "2", 2),
        ("number_ios", whole, "1024", 1024),
        ("offset", size_bytes, SIZE, size_bytes(SIZE)),
        ("offset_increment", size_bytes, SIZE, size_bytes(SIZE)),
        ("startdelay", seconds, "0", 0),
        ("ramp_time", seconds, "0", 0)]


def outside(v):
    """Does a value name a path outside the scratch directory?"""
    return any(p.startswith("/") or ".." in p.split("/") for p in v.split(":"))


def inside(v):
    """The file in the scratch directory that stands for an outside path."""
    parts = []
    for p in v.split(":"):
        if p.startswith("/") or ".." in p.split("/"):
            p = re.sub(r"[^A-Za-z0-9_.-]+", "_", p.strip("/")).replace("..", "_") or "file"
        parts.append(p)
    return ":".join(parts)


lines = open(src).read().split("\n")
if lines and lines[-1] == "":
    lines.pop()
sets = {}     # key -> the values the file gives it, in order
where = []    # (line index, key, value) of every key line
ends = []     # index of the last line of each section
in_section = False
for i, raw in enumerate(lines):
    s = raw.strip()
    if not s or s[0] in ";#":
        continue
    if s.startswith("["):
        if in_section:
            ends.append(i - 1)
        in_section = True
        continue
    s = re.split(r"\s+[;#]", s, maxsplit=1)[0].strip()
    key, eq, val = s.partition("=")
    key, val = ALIAS.get(key.strip().lower(), key.strip().lower()), (val.strip() if eq else None)
    sets.setdefault(key, []).append(val)
    where.append((i, key, val))
if in_section:
    ends.append(len(lines) - 1)

bound = "time" if any(truthy(v) for v in sets.get("time_based", [])) else "size"
over = []  # (key, value): the scaling, appended to every section of fio's copy
for key, read, cap, cap_n in CAPS:
    vals = [v for v in sets.get(key, []) if v is not None]
    if any(read(v) is None or read(v) > cap_n for v in vals):
        over.append((key, cap))
if not any(k in sets for k in ("size", "filesize")):
    over.append(("size", SIZE))  # a device gave the size; a file needs one
if any(truthy(v) for v in sets.get("fill_device", [])):
    over.append(("fill_device", "0"))  # never write until the disk is full
over.append(("runtime", os.environ["TIME_RUNTIME" if bound == "time" else "SIZE_RUNTIME"]))
# A key naming a path outside (filename=/dev/sda) gets one file in the
# scratch directory, the same in every job. In fio's copy that goes in place
# of each such line rather than at the ends: fio adds a file for each
# filename= line, and checks directory= as it parses.
paths = {}
for key, vals in sets.items():
    outs = [v for v in vals if v is not None and outside(v)]
    if outs and key != "directory":
        paths[key] = inside(outs[0])

out = list(lines)
for i, key, val in where:
    if key == "directory":
        out[i] = f"directory={fiodir}"
    elif key in paths and val is not None and outside(val):
        out[i] = f"{key}={paths[key]}"
with open(copy, "w") as f:
    add = ["; added by bench/fio-examples.sh: dbio's command line (last value wins)"]
    add += [f"{k}={v}" for k, v in over] + [f"directory={fiodir}"]
    for i, line in enumerate(out):
        f.write(line + "\n")
        if i in ends:
            f.write("\n".join(add) + "\n")

print(f"bound {bound}")
for key in sorted(UNSAFE & sets.keys()):
    print(f"unsafe {key}")
for k, v in over + list(paths.items()):
    if k in known:
        print(f"dbio --set={k}={v}")
PY
}

# bounded OUT ERR CWD CMD...: runs CMD in CWD under the time limit, in the
# background so that a signal reaches the traps at once; sets RC.
RC=0
bounded() {
        local out=$1 err=$2 cwd=$3
        shift 3
        (cd "$cwd" && exec timeout -k 5 "$LIMIT" "$@") >"$out" 2>"$err" </dev/null &
        CHILD=$!
        RC=0
        wait "$CHILD" 2>/dev/null || RC=$? # no "Killed" note when the limit KILLs it
        CHILD=""
}

# first_line FILE: the first line of FILE that says what went wrong, for a
# table cell: no blank lines, warnings (libnuma's come before fio's error) or
# dbio's progress notes.
first_line() {
        local line
        line=$(grep -v -i -e '^[[:space:]]*$' -e '^dbio: running ' -e 'warning' "$1" | head -1) || true
        if [ ${#line} -gt 200 ]; then line="${line:0:200}…"; fi
        printf '%s\n' "$line"
}

n=0
for job in "${FILES[@]}"; do
        n=$((n + 1))
        name=$(basename "$job")
        base=${name%.fio}
        fdir=$SCRATCH/fio
        ddir=$SCRATCH/dbio
        rm -rf -- "$fdir" "$ddir"
        mkdir "$fdir" "$ddir"
        copy=$SCRATCH/jobs/$name
        started=$SECONDS
        fjson=$SCRATCH/out/$base.fio.json
        djson=$SCRATCH/out/$base.dbio.json

        if ! p=$(plan "$job" "$copy" "$fdir" 2>"$SCRATCH/plan.err"); then
                die "$name: cannot read the job file: $(first_line "$SCRATCH/plan.err")"
        fi
        bound=$(sed -n 's/^bound //p' <<<"$p")
        unsafe=$(sed -n 's/^unsafe //p' <<<"$p" | paste -sd, -)
        dargs=()
        while IFS= read -r a; do dargs+=("$a"); done < <(sed -n 's/^dbio //p' <<<"$p")

        if [ -n "$unsafe" ]; then
                frc=-; fmsg="not run: $unsafe acts outside the scratch directory"
                drc=-; dmsg="not run"
        else
                bounded "$SCRATCH/fio.out" "$SCRATCH/fio.err" "$fdir" \
                        "${NS[@]}" fio --output-format=json --output="$fjson" "$copy"
                frc=$RC
                fmsg=""
                if [ "$frc" -eq 124 ] || [ "$frc" -eq 137 ]; then
                        frc=timeout
                        fmsg="killed after $LIMIT s"
                elif [ "$frc" -ne 0 ]; then
                        fmsg=$(first_line "$SCRATCH/fio.err")
                        [ -n "$fmsg" ] || fmsg=$(first_line "$SCRATCH/fio.out")
                        fmsg=${fmsg//"$fdir/"/}
                fi

                bounded "$SCRATCH/dbio.out" "$SCRATCH/dbio.err" "$ddir" \
                        "$BIN" run "${dargs[@]}" --set=directory="$ddir" "$job" \
                        --output="$djson" --progress=none
                drc=$RC
                if [ "$drc" -eq 0 ]; then
                        dmsg=ran
                elif [ "$drc" -eq 124 ] || [ "$drc" -eq 137 ]; then
                        dmsg="timed out after $LIMIT s"
                else
                        dmsg=$(first_line "$SCRATCH/dbio.err")
                        dmsg=${dmsg#dbio: }
                        dmsg=${dmsg//"$JOBDIR/"/}
                        dmsg=${dmsg//"$ddir/"/}
                fi
        fi
        printf '  [%d/%d] %s: fio %s, dbio %s (%d s)\n' "$n" "${#FILES[@]}" "$name" "$frc" \
                "$([ "$drc" = 0 ] && echo ran || echo "$drc")" $((SECONDS - started)) >&2
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$bound" "$frc" "$fmsg" "$drc" \
                "$dmsg" "$fjson" "$djson" >>"$ROWS"
        rm -rf -- "$fdir" "$ddir"
done

# ---------------------------------------------------------------- report
DBIO_VERSION=$("$BIN" --version 2>/dev/null | head -1 || true)
if [ "$DBIO" = "$ROOT/dbio" ]; then
        GIT_REV="git $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
else
        GIT_REV="DBIO=$DBIO"
fi
export DBIO_VERSION GIT_REV FIO_VERSION SIZE SIZE_RUNTIME TIME_RUNTIME LIMIT JOBDIR
report() {
        python3 - "$ROWS" <<'PY'
import json, os, sys, time

def load(path):
    try:
        text = open(path).read()
        return json.loads(text[text.index("{"):])  # fio may print notes before the JSON
    except (OSError, ValueError):
        return None


TYPES = ["read", "write", "sync", "trim"]


def fio_counts(d):
    jobs = {}
    for j in d.get("jobs", []):
        c = jobs.setdefault(j["jobname"], dict.fromkeys(TYPES, 0))
        for t in TYPES:  # one entry per thread (numjobs) unless group_reporting
            o = j.get(t, {})
            # fio leaves fdatasyncs out of sync.total_ios, not out of lat_ns.N
            c[t] += max(o.get("total_ios", 0), o.get("lat_ns", {}).get("N", 0) if t == "sync" else 0)
    return jobs


def dbio_counts(d):
    jobs = {}
    for j in d.get("jobs", []):
        c = jobs.setdefault(j["name"], dict.fromkeys(TYPES, 0))
        for r in j.get("runs", []):
            ops = r.get("ops", {})
            c["read"] += ops.get("read", {}).get("count", 0)
            # fio counts the calls of its metadata engines (filecreate ...)
            # as reads; dbio runs them as workload=meta's create, stat, delete
            for t in ("create", "stat", "delete"):
                c["read"] += ops.get(t, {}).get("count", 0)
            c["write"] += ops.get("write", {}).get("count", 0)
            for t in ("fsync", "fdatasync", "sync_file_range"):  # fio's "sync"
                c["sync"] += ops.get(t, {}).get("count", 0)
    return jobs


def total(jobs):
    return {"all jobs": {t: sum(c[t] for c in jobs.values()) for t in TYPES}}


def cell(s):
    return s.replace("|", "\\|").replace("\n", " ")


rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
e = os.environ
print(f"fio's examples run by both: {time.strftime('%Y-%m-%d %H:%M')}, "
      f"{e['DBIO_VERSION']} ({e['GIT_REV']}), {e['FIO_VERSION']}, "
      f"`bench/fio-examples.sh {os.path.basename(e['JOBDIR'])}`. "
      f"Scaled in both tools: size, filesize and io_size at most {e['SIZE']}, "
      f"runtime={e['TIME_RUNTIME']} (time_based) or {e['SIZE_RUNTIME']} (bound by size), "
      f"each tool at most {e['LIMIT']} s per file. "
      "Bound by time: the file sets time_based (only ran or refused counts); by size "
      "otherwise: then the reads, writes, syncs and trims of each job (of all jobs "
      "together where fio's group_reporting merged them) are compared, `same total` "
      "where only the mix differs (each tool draws randrw's mix from its own generator). "
      "The last total counts the size-bound examples that fio ran.")
print()
print("| example | bound by | fio | dbio | ops per job, fio / dbio | same |")
print("|---|---|---|---|---|---|")
ran = size_fio = size_same = 0
for name, bound, frc, fmsg, drc, dmsg, fjson, djson in rows:
    ran += drc == "0"
    fcell = frc if not fmsg else f"{frc}: {fmsg}"
    counts, same = "", ""
    if bound == "size" and frc == "0":
        size_fio += 1
        f = load(fjson)
        d = load(djson) if drc == "0" else None
        if f is not None and d is not None:
            fc, dc = fio_counts(f), dbio_counts(d)
            if set(fc) != set(dc):  # group_reporting merged jobs, or names differ
                fc, dc = total(fc), total(dc)
            parts, ok = [], True
            for job in fc:
                ts = [t for t in TYPES if fc[job][t] or dc[job][t]]
                ok = ok and all(fc[job][t] == dc[job][t] for t in ts)
                parts.append(f"{job}: " + (", ".join(
                    f"{t} {fc[job][t]} / {dc[job][t]}" for t in ts) or "none"))
            # A mixed job (randrw) draws each op's type at random, from each
            # tool's own generator: the split may differ where the sum does not.
            alike = all(sum(fc[j].values()) == sum(dc[j].values()) for j in fc)
            counts = "; ".join(parts)
            same = "match" if ok else "same total" if alike else "differ"
            size_same += ok
    print(f"| {cell(name)} | {bound} | {cell(fcell)} | {cell(dmsg)} | {cell(counts)} | {same} |")
m = len(rows)
print()
print(f"{ran} of {m} examples run by dbio ({100 * ran / m:.0f} %); "
      f"{size_same} of {size_fio} size-bound ones give fio's op counts")
PY
}
if [ -n "$OUTFILE" ]; then
        report >"$OUTFILE"
        tail -1 "$OUTFILE" >&2
else
        report
fi
