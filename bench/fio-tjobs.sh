#!/usr/bin/env bash
# fio-tjobs.sh: runs fio's own test jobs (t/jobs/*.fio of fio's source tree)
# through fio and through dbio by fio's own pass criteria (t/run-fio-tests.py
# and its checks of each test), and for the jobs bound by size compares the
# op counts of each job; prints a markdown table (issue 27: "fio's own
# tests").
#
#   bench/fio-tjobs.sh [-d DIR] [-o FILE] [-r IDS] [-t SECONDS] FIO_SRC
#
#   FIO_SRC     a checkout of fio's source (t/jobs, t/run-fio-tests.py,
#               t/fiotestlib.py, t/fiotestcommon.py are read from it, never
#               copied into the project)
#   -d DIR      where the scratch directory is made (default /var/tmp); it is
#               removed at the end, also after a failure or a signal
#   -o FILE     write the markdown (totals included) to FILE, not to stdout
#   -r IDS      only these test ids (comma-separated), e.g. -r 1,19,20
#   -t SECONDS  each tool's time limit on each job file (default 180; the
#               test's own limit, 600 s, is longer): then it is killed, and
#               the test fails with run-fio-tests.py's "non-zero return code"
#
# Each tool runs the tests of run-fio-tests.py's TEST_LIST that are job files
# (FioJobFileTest and its subclasses: ids 1 to 38; t0032 has no entry there
# and is left out), each with its pre_job, each test's own checks deciding
# PASSED or FAILED. dbio stands in for fio through a wrapper that turns fio's
# command line as run-fio-tests.py gives it into dbio's (`dbio run` takes
# fio's `--max-jobs=16`, which changes nothing in fio 3.33 either): the output file of
# `--output-format=F --output=FILE` gets fio's JSON from `dbio run
# --output-format=json` (json+ likewise) also where F is normal, as fio's does
# through the same kind of wrapper: no test reads a normal output file, and
# the JSON gives the op counts. A job file that says verify_state_save=1
# (t0036's and t0037's pre_job) gets --keep: fio keeps every job's files
# (unlink=0), dbio only with --keep, and the test's job reads back those
# files and the verify state. Everything else is passed on unchanged.
#
# "accepted": dbio did not refuse the job file (exit 2) nor its pre_job.
# "ops": for jobs bound by size (neither time_based nor runtime in the file)
# that fio ran to the end (exit 0), the reads,
# writes and trims of every job (fio's JSON `jobs[].{read,write,trim}
# .total_ios`) of the test's job, fio's / dbio's; "match" when all are equal.
# A job whose counts fio itself changes from run to run is shown but not
# compared: randrepeat=0 (fio seeds its draws from the clock: t0023's
# bsrange job wrote 599 blocks in one fio run, 585 in the next) or the
# replay of a log that a time-bound pre_job wrote (t0031).
#
# Environment: DBIO (path of the dbio binary, default ../dbio next to bench/),
# PYTHON (a python3 with statsmodels, which run-fio-tests.py imports; default
# /usr/bin/python3: Debian's python3-statsmodels).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PARENT=/var/tmp
OUTFILE=""
ONLY=""
LIMIT=180
PYTHON=${PYTHON:-/usr/bin/python3}

while getopts "d:o:r:t:h" opt; do
        case $opt in
        d) PARENT=$OPTARG ;;
        t) LIMIT=$OPTARG ;;
        o) OUTFILE=$OPTARG ;;
        r) ONLY=$OPTARG ;;
        h) usage 0 ;;
        *) usage 2 >&2 ;;
        esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage 2 >&2
whole -t "$LIMIT"
[[ -z $ONLY || $ONLY =~ ^[0-9]+(,[0-9]+)*$ ]] || die "-r: expected test ids separated by commas, got '$ONLY'"
[ -d "$1" ] || die "$1: not a directory"
FIO_SRC=$(cd "$1" && pwd)
[ -f "$FIO_SRC/t/run-fio-tests.py" ] || die "$FIO_SRC: no t/run-fio-tests.py: not fio's source tree"

need fio "install it (e.g. apt-get install fio) and run again"
need_dbio
"$PYTHON" -c 'import statsmodels.sandbox.stats.runs' 2>/dev/null ||
        die "$PYTHON cannot import statsmodels, which run-fio-tests.py needs: apt-get install python3-statsmodels (or set PYTHON=)"
FIO=$(command -v fio)
# The artifacts (files of up to 4 GiB: t0006) in WORK under PARENT; the
# wrappers and the private copy of dbio (a rebuild during the run must not
# mix versions) in TMP. Both removed at exit.
bench_work fio-tjobs "$PARENT"
bench_tmp fio-tjobs
private_dbio
SCRATCH=$WORK

# fio runs its jobs as processes of their own, which outlive a fio killed
# at the time limit (fio 3.33 hangs on t0010's io_submit_mode=offload): in
# a PID namespace of its own, the kill of its first process takes them all.
NS=()
if unshare --pid --fork --kill-child true 2>/dev/null; then
        NS=(unshare --pid --fork --kill-child)
else
        echo "fio-tjobs.sh: warning: no PID namespace (unshare --pid): the jobs of a fio killed at the time limit may live on" >&2
fi

# wrapper NAME KEEP COMMAND...: an executable that runs COMMAND with fio's
# command line as run-fio-tests.py gives it, translated as the header says;
# KEEP (or "") is added for a job file that says verify_state_save=1 (a
# pre_job whose files and verify state its test's job reads back: fio
# keeps every job's files, dbio only with --keep; t0036, t0037).
wrapper() {
        local name=$1 keep=$2
        shift 2
        {
                echo '#!/usr/bin/env bash'
                printf 'tool=(%s)\n' "$(printf '%q ' "$@")"
                printf 'keep=%q\n' "$keep"
                printf 'limit=(%s)\n' "$(printf '%q ' timeout -k 5 "$LIMIT" "${NS[@]}")"
                cat <<'SH'
fmt=normal out="" args=()
for a in "$@"; do
        case $a in
        --output-format=*) fmt=${a#*=} ;;
        --output=*) out=${a#*=} ;;
        *) args+=("$a") ;;
        esac
        if [ -n "$keep" ] && [[ $a == *.fio ]] && [ -f "$a" ] &&
                grep -Eq '^[[:space:]]*verify_state_save[[:space:]]*=[[:space:]]*1' "$a"; then
                args+=("$keep")
        fi
done
case $fmt in json+) f=json+ ;; *) f=json ;; esac
if [ -n "$out" ]; then
        exec "${limit[@]}" "${tool[@]}" --output-format=$f "${args[@]}" >"$out"
fi
exec "${limit[@]}" "${tool[@]}" --output-format=$f "${args[@]}"
SH
        } >"$TMP/bin/$name"
        chmod +x "$TMP/bin/$name"
}
wrapper fio "" "$FIO"
wrapper dbio-as-fio --keep "$DBIO" run

# run TOOL: runs the selected tests with TOOL's wrapper; artifacts in
# $SCRATCH/TOOL, run-fio-tests.py's lines in $SCRATCH/TOOL.log.
run() {
        local ids=()
        if [ -n "$ONLY" ]; then
                IFS=, read -r -a ids <<<"$ONLY"
        else
                ids=($(seq 1 38))
        fi

        (cd "$FIO_SRC" && "$PYTHON" t/run-fio-tests.py -k -r "$FIO_SRC" -f "$TMP/bin/$2" \
                -a "$SCRATCH/$1" -o "${ids[@]}") >"$SCRATCH/$1.log" 2>&1 || true
}
COMMIT=$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?')
echo "fio-tjobs.sh: fio ($("$FIO" --version)) ..." >&2
run fio fio
echo "fio-tjobs.sh: dbio ($("$DBIO" --version | head -1)) ..." >&2
run dbio dbio-as-fio

TABLE=$("$PYTHON" - "$FIO_SRC" "$SCRATCH" "$("$FIO" --version)" \
        "$("$DBIO" --version | head -1)" "$COMMIT" <<'PY'
import ast, datetime, glob, json, os, re, sys

src, scratch, fio_version, dbio_version, commit = sys.argv[1:6]
text = open(os.path.join(src, "t", "run-fio-tests.py")).read()
# TEST_LIST holds names of classes and constants: read its literals only.
tree = ast.parse(text)
tests = []
for node in tree.body:
    if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "TEST_LIST":
        for d in node.value.elts:
            entry = {}
            for k, v in zip(d.keys, d.values):
                key = ast.literal_eval(k)
                if isinstance(v, ast.Name):
                    entry[key] = v.id
                else:
                    try:
                        entry[key] = ast.literal_eval(v)
                    except ValueError:
                        entry[key] = ast.unparse(v)
            tests.append(entry)
tests = [t for t in tests if "job" in t and str(t["test_class"]).startswith("FioJobFileTest")]


def results(tool):
    out = {}
    for line in open(os.path.join(scratch, tool + ".log"), errors="replace"):
        m = re.match(r"Test (\d+) (PASSED|FAILED|SKIPPED)(.*)", line)
        if m:
            out[int(m.group(1))] = (m.group(2), m.group(3).strip())
    return out


def test_dir(tool, t):
    hits = glob.glob(os.path.join(scratch, tool, "%04d*" % t["test_id"]))
    return hits[0] if hits else None


def exitcode(tool, t, job):
    d = test_dir(tool, t)
    try:
        return int(open(os.path.join(d, os.path.basename(job) + ".exitcode")).read())
    except (OSError, TypeError, ValueError):
        return None


def stderr(tool, t, job):
    d = test_dir(tool, t)
    try:
        lines = open(os.path.join(d, os.path.basename(job) + ".stderr"), errors="replace").read().split("\n")
    except (OSError, TypeError):
        return ""
    lines = [l for l in lines if l.strip()]
    return lines[0][:160] if lines else ""


def ops(tool, t):
    d = test_dir(tool, t)
    try:
        data = open(os.path.join(d, t["job"] + ".output"), errors="replace").read()
        data = data[data.index("{"):data.rindex("}") + 1]
        jobs = json.loads(data)["jobs"]
    except (OSError, TypeError, ValueError, KeyError):
        return None
    counts = {}
    for j in jobs:
        c = counts.setdefault(j["jobname"], {})
        for op in ("read", "write", "trim"):
            c[op] = c.get(op, 0) + j.get(op, {}).get("total_ios", 0)
    return counts


def size_bound(job):
    body = open(os.path.join(src, "t", "jobs", job)).read()
    for line in body.split("\n"):
        line = re.split(r"[;#]", line)[0].strip()
        if re.fullmatch(r"time_based(\s*=\s*(1|true|on|yes))?", line) or re.match(r"(runtime|timeout)\s*=", line):
            return False
    return True


def varies(t):
    """Why fio's own counts of the test's job change from run to run, or
    None: random draws seeded from the clock (randrepeat=0), or a replay of
    the log a time-bound pre_job wrote."""
    body = open(os.path.join(src, "t", "jobs", t["job"])).read()
    for line in body.split("\n"):
        line = re.split(r"[;#]", line)[0].strip()
        if re.fullmatch(r"randrepeat\s*=\s*(0|false|off|no)", line):
            return "randrepeat=0: fio draws from the clock"
    if t.get("pre_job") and not size_bound(t["pre_job"]):
        return "its pre_job is time-bound"
    return None


fio_res, dbio_res = results("fio"), results("dbio")
rows, accepted, passed, fio_passed, bound, same, unbound = [], 0, 0, 0, 0, 0, 0
ran = [t for t in tests
       if fio_res.get(t["test_id"], ("SKIPPED",))[0] != "SKIPPED"
       or dbio_res.get(t["test_id"], ("SKIPPED",))[0] != "SKIPPED"]
for t in ran:
    tid, job = t["test_id"], t["job"]
    f = fio_res.get(tid, ("-", ""))
    d = dbio_res.get(tid, ("-", ""))
    jobs = [job] + ([t["pre_job"]] if t.get("pre_job") else [])
    refused = [j for j in jobs if exitcode("dbio", t, j) == 2]
    acc = not refused
    accepted += acc
    passed += d[0] == "PASSED"
    fio_passed += f[0] == "PASSED"
    why = "" if d[0] == "PASSED" else d[1].strip(" ,:").replace(job, "").strip(" ,").replace("|", "\\|")
    if refused:
        why = stderr("dbio", t, refused[0]).replace("|", "\\|")
    opcol, mark = "", ""
    if size_bound(job) and exitcode("fio", t, job) == 0:
        fo, do = ops("fio", t), ops("dbio", t)
        if fo is not None:
            parts = []
            for name in fo:
                dd = (do or {}).get(name, {})
                p = ", ".join("%s %d / %s" % (op, fo[name][op], dd.get(op, "-"))
                              for op in ("read", "write", "trim") if fo[name][op] or dd.get(op))
                parts.append("%s: %s" % (name, p or "none"))
            opcol = "; ".join(parts)
            ok = do is not None and all(
                fo[n][op] == (do.get(n) or {}).get(op) for n in fo for op in ("read", "write", "trim"))
            mark = "match" if ok else "differ"
            if varies(t):  # not comparable: fio's own counts move
                unbound += 1
                mark += " (fio's own counts vary: %s)" % varies(t)
            else:
                bound += 1
                same += ok
    rows.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        tid, job, t["test_class"], f[0], d[0], "yes" if acc else "no", opcol, mark, why))

now = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M")
print("fio's t/jobs by run-fio-tests.py's criteria: %s UTC, %s (git %s), %s. "
      "fio / dbio: PASSED or FAILED by the test's own checks; ops per job (fio / dbio) for the "
      "jobs bound by size." % (now, dbio_version, commit, fio_version))
print()
print("| id | job | checks | fio | dbio | accepted | ops per job, fio / dbio | same | dbio's failure |")
print("|---|---|---|---|---|---|---|---|---|")
for r in rows:
    print(r)
n = len(ran)
print()
print("dbio: %d of %d accepted (%d %%), %d of %d passed (fio: %d); %d of %d size-bound jobs with fio's op counts"
      " (%d %%; %d more whose counts fio itself varies from run to run, not compared)"
      % (accepted, n, 100 * accepted // max(n, 1), passed, n, fio_passed, same, bound,
         100 * same // max(bound, 1), unbound))
PY
)
if [ -n "$OUTFILE" ]; then
        printf '%s\n' "$TABLE" >"$OUTFILE"
else
        printf '%s\n' "$TABLE"
fi
