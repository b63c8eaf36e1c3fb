#!/bin/sh
# Make a big dbio result for the view benchmarks (bench/views-scale.sh):
# a real `dbio sweep` of a small kv job (SQLite, 1,000 records in batches of
# 100, so each run has a 10-point batch series) over randseed=1,2 and
# sync_each_batch=0,1, then its four jobs multiplied into JOBS points
# (default 12,000: sync_each_batch=0 then 1, each over randseed=1..JOBS/2,
# the last --vary so that it is the sweep plots' x axis), each copy's
# throughput and times scaled by a seeded factor in [0.8, 1.2] so curves
# are not flat, written indented by two spaces as dbio writes every
# result (12,000 jobs make 540 MiB; 2,200 about 100 MB). The sweep block (vary values, points, completed) matches
# the jobs, so compare, report and plot read it as the sweep it would be.
#
#   bench/make-big-result.sh OUT.json [JOBS]
#
# Needs python3 and ./dbio (built); writes a scratch directory under
# ${TMPDIR:-/tmp} and removes it.
set -eu
die() { echo "make-big-result: $*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: bench/make-big-result.sh OUT.json [JOBS]"
OUT=$1
JOBS=${2:-12000}
case $JOBS in '' | *[!0-9]*) die "JOBS '$JOBS': expected a positive even number" ;; esac
[ $((JOBS % 2)) -eq 0 ] && [ "$JOBS" -gt 0 ] || die "JOBS '$JOBS': expected a positive even number"
[ -x ./dbio ] || die "./dbio not found: run from the top of the tree after make"
command -v python3 >/dev/null || die "python3 not found"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/dbio-big.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
mkdir "$WORK/db"
./dbio sweep --name=big --workload=kv --kv_engine=sqlite --records=1000 --batch=100 \
	--directory="$WORK/db" --vary randseed=1,2 --vary sync_each_batch=0,1 \
	--output="$WORK/seed.json" >/dev/null 2>"$WORK/err" || { cat "$WORK/err" >&2; die "the seed sweep failed"; }
python3 - "$WORK/seed.json" "$OUT" "$JOBS" <<'PY'
import copy, json, random, sys

seed_path, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(seed_path) as f:
    r = json.load(f)
seeds = r["jobs"]
rng = random.Random(1)

def scale(o, k):
    """Scale rates by k and times by 1/k, in place (counts stay)."""
    if isinstance(o, dict):
        for key, v in o.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                if key in ("iops", "bw_bytes", "ops_per_s", "mean") or key.endswith("_s"):
                    o[key] = v * k if key in ("iops", "bw_bytes", "ops_per_s") else v / k
                elif key.endswith("_ns") and key != "interval_ns":
                    o[key] = int(v / k) if isinstance(v, int) else v / k
            else:
                scale(v, k)
    elif isinstance(o, list):
        for v in o:
            scale(v, k)

jobs = []
half = n // 2
for i in range(n):
    sync, seed = i // half, i % half + 1
    src = seeds[sync]  # the seed sweep's order: randseed slowest, so [0], [1] are sync 0, 1
    j = copy.deepcopy(src)
    scale(j["runs"], rng.uniform(0.8, 1.2))
    j["point"] = {"sync_each_batch": str(sync), "randseed": str(seed)}
    j["point_index"] = i
    j["options"]["randseed"] = seed
    jobs.append(j)
r["jobs"] = jobs
r["sweep"]["vary"] = [
    {"key": "sync_each_batch", "values": ["0", "1"], "unit": "text"},
    {"key": "randseed", "values": [str(s + 1) for s in range(half)], "unit": "count"},
]
r["sweep"]["points"] = r["sweep"]["completed"] = n
with open(out, "w") as f:
    json.dump(r, f, indent=2)  # as dbio writes results (jansson's JSON_INDENT(2))
PY
echo "$OUT: $JOBS jobs, $(wc -c <"$OUT") bytes"
