#!/usr/bin/env bats
# The docs cannot drift from the code: real results validate against
# docs/result.schema.json, docs/options.md and docs/dbio.1 are exactly what
# the option table generates, the man page renders cleanly, and the Python
# recipe in docs/results.md for recomputing percentiles from lat_hist gives the
# figures dbio wrote, and docs/compare.md lists the metric registry's metrics.

load helpers

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
SCHEMA=$ROOT/docs/result.schema.json

setup() {
	dbio_setup
	DIR=$target
}

need_jsonschema() {
	python3 -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null ||
		skip "python3 with jsonschema >= 4 (Draft 2020-12) is not installed"
}

# validate FILE...: every file is valid against the schema; prints the errors.
validate() {
	python3 - "$SCHEMA" "$@" <<'EOF'
import json, sys, jsonschema
V = jsonschema.Draft202012Validator
schema = json.load(open(sys.argv[1]))
v = V(schema, format_checker=V.FORMAT_CHECKER)
bad = 0
for path in sys.argv[2:]:
    for e in v.iter_errors(json.load(open(path))):
        bad += 1
        print("%s: /%s: %s" % (path, "/".join(map(str, e.absolute_path)), e.message[:300]))
sys.exit(1 if bad else 0)
EOF
}

# jq-less reads: value FILE PYTHON-EXPRESSION-ON-d
value() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# The keys of every option table in the source (job/option.c's and each
# engine's and workload's own), one per line, sorted and unique; with an
# argument, those of the one table named ARG_defs (job, files, kv …).
table_keys() {
	local files
	files=$(grep -rl 'static const struct option_def [a-z_]*_defs\[\] = {' "$ROOT/src")
	for f in $files; do
		sed -n "/^static const struct option_def ${1:-[a-z_]*}_defs\[\] = {/,/^};/p" "$f"
	done | grep -o '\.name = "[^"]*"' | sed 's/.*"\(.*\)"/\1/' | sort -u
}

@test "docs: the schema is a valid draft 2020-12 schema and every property says what it is" {
	need_jsonschema
	run python3 - "$SCHEMA" <<'EOF'
import json, sys, jsonschema
s = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(s)
assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
missing = []
def walk(node, path):
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            target = sub
            if "$ref" in sub and "description" not in sub:
                target = s["$defs"][sub["$ref"].split("/")[-1]]
            if not target.get("description"):
                missing.append(path + "/" + name)
        for k, v in node.items():
            if k not in ("if", "then", "else", "oneOf", "anyOf", "allOf"):
                walk(v, path + "/" + k)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            walk(v, path + "/" + str(i))
walk(s, "")
if missing:
    sys.exit("no description: " + ", ".join(missing))
EOF
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "docs: the schema's options are exactly the option tables' keys; those of every job are required" {
	keys=$(table_keys | tr '\n' ' ')
	[ "$(table_keys | wc -l)" -ge 40 ]
	run python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
o = s["$defs"]["job"]["properties"]["options"]
print(" ".join(sorted(o["properties"])) + " ")
print(" ".join(sorted(o["required"])) + " ")' "$SCHEMA"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "${lines[0]}" = "$keys" ] || { echo "schema:  ${lines[0]}"; echo "tables:  $keys"; false; }
	[ "${lines[1]}" = "$(table_keys job | tr '\n' ' ')" ]
}

@test "docs: docs/result.schema.json's options are exactly what 'make docs' generates from the tables" {
	"$DBIO" help options --schema >"$BATS_TEST_TMPDIR/options.json"
	"$ROOT/scripts/schema-options" "$BATS_TEST_TMPDIR/options.json" "$SCHEMA" >"$BATS_TEST_TMPDIR/schema.json"
	cmp "$BATS_TEST_TMPDIR/schema.json" "$SCHEMA" ||
		{ echo "docs/result.schema.json is stale: run 'make docs'"; false; }
}

@test "docs: a sequential read job's result validates" {
	need_jsonschema
	run "$DBIO" run --rw=read --size=4m --directory="$DIR" --output="$BATS_TEST_TMPDIR/r.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	validate "$BATS_TEST_TMPDIR/r.json"
	[ "$(value "$BATS_TEST_TMPDIR/r.json" 'd["jobs"][0]["runs"][0]["ops"]["read"]["count"]')" -eq 1024 ]
}

@test "docs: a randrw job with percentile_list validates, --format=json too" {
	need_jsonschema
	run "$DBIO" run --rw=randrw --size=4m --bs=4k --percentile_list=99.5:99.99 --directory="$DIR" \
		--output="$BATS_TEST_TMPDIR/r.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	"$DBIO" run --rw=randrw --size=4m --percentile_list=99.5 --directory="$DIR" --format=json \
		>"$BATS_TEST_TMPDIR/stdout.json"
	validate "$BATS_TEST_TMPDIR/r.json" "$BATS_TEST_TMPDIR/stdout.json"
	[ "$(value "$BATS_TEST_TMPDIR/r.json" 'sorted(d["jobs"][0]["runs"][0]["ops"]["write"]["lat_ns"]["percentiles"])')" = "['99.5', '99.99']" ]
}

@test "docs: a job with fsync, fdatasync, end_fsync and a count-grid series validates" {
	need_jsonschema
	run "$DBIO" run --rw=randwrite --size=4m --nrfiles=2 --fsync=16 --fdatasync=32 --end_fsync \
		--numjobs=2 --log_interval=100ops --directory="$DIR" --output="$BATS_TEST_TMPDIR/r.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	validate "$BATS_TEST_TMPDIR/r.json"
	# Per thread, 1024 writes: 64 fsyncs, then one per file at the end; 32 fdatasyncs.
	[ "$(value "$BATS_TEST_TMPDIR/r.json" 'd["jobs"][0]["runs"][0]["ops"]["fsync"]["count"]')" -eq 132 ]
	[ "$(value "$BATS_TEST_TMPDIR/r.json" 'd["jobs"][0]["runs"][0]["ops"]["fdatasync"]["count"]')" -eq 64 ]
	[ "$(value "$BATS_TEST_TMPDIR/r.json" 'd["jobs"][0]["runs"][0]["series"]["grid"]')" = ops ]
}

@test "docs: a job file with two jobs in a group and a repeated one after them validates" {
	need_jsonschema
	cat >"$BATS_TEST_TMPDIR/two.fio" <<-EOF
		[global]
		size=4m
		directory=$DIR

		[loader]
		rw=write
		group=g

		[reader]
		rw=randread
		numjobs=2
		group=g

		[after]
		rw=readwrite
		repeat=2
		log_interval=2ms
	EOF
	run "$DBIO" run "$BATS_TEST_TMPDIR/two.fio" --output="$BATS_TEST_TMPDIR/r.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	validate "$BATS_TEST_TMPDIR/r.json"
	[ "$(value "$BATS_TEST_TMPDIR/r.json" '[j["name"] for j in d["jobs"]]')" = "['loader', 'reader', 'after']" ]
	[ "$(value "$BATS_TEST_TMPDIR/r.json" 'd["jobs"][1]["runs"][0]["threads"]')" -eq 2 ]
	[ "$(value "$BATS_TEST_TMPDIR/r.json" 'len(d["jobs"][2]["runs"]), d["jobs"][2]["summary"]["runs"], d["jobs"][2]["runs"][0]["series"]["grid"]')" = "(2, 2, 'time')" ]
}

@test "docs: kv, import, meta and sweep results validate" {
	need_jsonschema
	for engine in gdbm lmdb sqlite; do
		run "$DBIO" run --workload=kv --kv_engine=$engine --records=3000 --batch=500 --lookups=500 \
			--updates=500 --directory="$DIR" --output="$BATS_TEST_TMPDIR/kv-$engine.json"
		[ "$status" -eq 0 ]
	done
	run "$DBIO" run --workload=import --rows=3000 --indexes=6 --page_size=1024 --journal_mode=wal \
		--directory="$DIR" --output="$BATS_TEST_TMPDIR/import.json"
	[ "$status" -eq 0 ]
	run "$DBIO" sweep --rw=read --size=1m --vary bs=4k,8k --repeat=2 --directory="$DIR" \
		--output="$BATS_TEST_TMPDIR/sweep.json"
	[ "$status" -eq 0 ]
	run "$DBIO" run --workload=meta --meta_files=300 --meta_dirs=3 --meta_size=100 --numjobs=2 \
		--directory="$DIR" --output="$BATS_TEST_TMPDIR/meta.json"
	[ "$status" -eq 0 ]
	run validate "$BATS_TEST_TMPDIR"/kv-*.json "$BATS_TEST_TMPDIR/import.json" "$BATS_TEST_TMPDIR/meta.json" \
		"$BATS_TEST_TMPDIR/sweep.json"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "docs: a matrix result validates" {
	need_jsonschema
	[ "$(id -u)" -eq 0 ] || skip "dbio matrix needs root"
	command -v mkfs.ext2 >/dev/null || skip "mkfs.ext2 is not installed"
	run "$DBIO" matrix --rw=write --size=1m --image "$BATS_TEST_TMPDIR/img" --image-size 64m \
		--fs 'ext2:-b 1024' --fs 'ext2:-b 4096' --output="$BATS_TEST_TMPDIR/m.json"
	echo "$output"
	[ "$status" -eq 0 ]
	run validate "$BATS_TEST_TMPDIR/m.json"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "docs: a partial result after SIGINT validates and says so" {
	need_jsonschema
	"$DBIO" run --rw=randread --size=4m --runtime=60s --time_based --directory="$DIR" \
		--output="$BATS_TEST_TMPDIR/r.json" >/dev/null 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	# The "running" line comes after the signal handlers are installed.
	for _ in $(seq 100); do
		grep -q 'running' "$BATS_TEST_TMPDIR/err" && break
		sleep 0.1
	done
	sleep 0.5
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 130 ] || { cat "$BATS_TEST_TMPDIR/err"; false; }
	validate "$BATS_TEST_TMPDIR/r.json"
	[ "$(value "$BATS_TEST_TMPDIR/r.json" 'd["partial"], d["error"], d["jobs"][0]["runs"][0]["partial"]')" = "(True, 'interrupted by SIGINT', True)" ]
}

@test "docs: the schema rejects a result with a key missing, a key added or a negative count" {
	need_jsonschema
	"$DBIO" run --size=4m --directory="$DIR" --output="$BATS_TEST_TMPDIR/r.json" 2>/dev/null
	validate "$BATS_TEST_TMPDIR/r.json"
	python3 - "$BATS_TEST_TMPDIR" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1] + "/r.json"))
def save(name, mutate):
    x = json.loads(json.dumps(d))
    mutate(x)
    json.dump(x, open(sys.argv[1] + "/" + name, "w"))
save("missing.json", lambda x: x["jobs"][0]["runs"][0]["ops"]["read"]["lat_ns"].pop("p99"))
save("added.json", lambda x: x["jobs"][0]["runs"][0]["rusage"].__setitem__("wall_s", 1.0))
save("negative.json", lambda x: x["jobs"][0]["runs"][0]["ops"]["write"].__setitem__("count", -1))
save("version.json", lambda x: x.__setitem__("schema_version", 2))
save("error.json", lambda x: x.__setitem__("error", "interrupted by SIGINT"))
EOF
	for f in missing added negative version error; do
		run validate "$BATS_TEST_TMPDIR/$f.json"
		[ "$status" -ne 0 ] || { echo "$f.json was accepted"; false; }
	done
}

@test "docs: the recipe in docs/results.md recomputes dbio's percentiles and merges histograms" {
	run "$DBIO" run --rw=randrw --size=4m --percentile_list=12.5:99.5:100 --directory="$DIR" \
		--output="$BATS_TEST_TMPDIR/r.json"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run python3 - "$ROOT/docs/results.md" "$BATS_TEST_TMPDIR/r.json" <<'EOF'
import json, re, sys
recipe = re.search(r"```python\n(.*?)```", open(sys.argv[1]).read(), re.S).group(1)
ns = {}
exec(recipe, ns)
percentile, merge = ns["percentile"], ns["merge"]
d = json.load(open(sys.argv[2]))
ops = d["jobs"][0]["runs"][0]["ops"]
for name, op in ops.items():
    lat, hist = op["lat_ns"], op["lat_hist"]
    assert sum(c for _, c in hist["buckets"]) == op["count"], name
    for key, p in [("p50", 50), ("p90", 90), ("p95", 95), ("p99", 99), ("p99_9", 99.9)]:
        assert percentile(op, p) == lat[key], (name, key, percentile(op, p), lat[key])
    for key, value in lat["percentiles"].items():
        assert percentile(op, float(key)) == value, (name, key)
    # A histogram merged with itself has the same percentiles, twice the count.
    twice = merge([op, op])
    assert twice["count"] == 2 * op["count"]
    for p in (50, 99, 99.9):
        assert percentile(twice, p) == percentile(op, p), (name, p)
both = merge([ops["read"], ops["write"]])
assert both["count"] == ops["read"]["count"] + ops["write"]["count"]
assert both["lat_ns"]["max"] == max(ops["read"]["lat_ns"]["max"], ops["write"]["lat_ns"]["max"])
assert ns["bucket_high"](7423) == 2**64 - 1
print("ok")
EOF
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "docs: docs/options.md is exactly 'dbio help options --markdown'" {
	run "$DBIO" help options --markdown
	[ "$status" -eq 0 ]
	"$DBIO" help options --markdown | cmp - "$ROOT/docs/options.md" ||
		{ echo "docs/options.md is stale: run 'make docs'"; false; }
}

@test "docs: docs/dbio.1 is exactly what 'make docs' generates from docs/dbio.1.in" {
	[ "$(grep -c '@OPTIONS@' "$ROOT/docs/dbio.1.in")" -eq 1 ]
	"$DBIO" help options --man >"$BATS_TEST_TMPDIR/options.man"
	sed -e "/@OPTIONS@/r $BATS_TEST_TMPDIR/options.man" -e '/@OPTIONS@/d' "$ROOT/docs/dbio.1.in" \
		>"$BATS_TEST_TMPDIR/dbio.1"
	cmp "$BATS_TEST_TMPDIR/dbio.1" "$ROOT/docs/dbio.1" ||
		{ echo "docs/dbio.1 is stale: run 'make docs'"; false; }
}

@test "docs: the man page renders without warnings" {
	command -v groff >/dev/null || skip "groff is not installed"
	run groff -man -ww -z "$ROOT/docs/dbio.1"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	if command -v man >/dev/null; then
		out=$(MANROFFSEQ='' MANWIDTH=80 man --warnings -l "$ROOT/docs/dbio.1" 2>&1 >/dev/null)
		[ -z "$out" ] || { echo "$out"; false; }
	fi
}

@test "docs: every key of the option tables is in docs/options.md and docs/dbio.1" {
	keys=$(table_keys)
	[ "$(echo "$keys" | wc -l)" -ge 40 ]
	for key in $keys; do
		grep -q "^### \`$key\`" "$ROOT/docs/options.md" || { echo "options.md lacks $key"; false; }
		grep -qx ".B $key" "$ROOT/docs/dbio.1" || { echo "dbio.1 lacks $key"; false; }
	done
}

@test "docs: compare.md's table of metrics is the metric registry, in its order" {
	run "$DBIO" compare "$ROOT/tests/cli/results/base.json" "$ROOT/tests/cli/results/faster.json" --metric none
	[ "$status" -eq 2 ]
	registry=${output##*expected a list of }
	doc=$(sed -n '/^## Metrics/,/^## Op types/p' "$ROOT/docs/compare.md" | sed -n 's/^| `\([a-z0-9_]*\)` .*/\1/p' | paste -sd, | sed 's/,/, /g')
	[ "$doc" = "$registry" ] || { echo "docs:     $doc"; echo "registry: $registry"; false; }
}

@test "docs: every test docs/safety.md names exists (a name cut with … matches by its start)" {
	python3 - "$ROOT/docs/safety.md" "$BATS_TEST_DIRNAME" <<'EOF2'
import glob, re, sys
text = re.sub(r"\s+", " ", open(sys.argv[1]).read())
tests = set()
for f in glob.glob(sys.argv[2] + "/*.bats"):
    tests.update(m.group(1).replace("\\\\", "\\") for m in re.finditer(r'@test "(.*)" \{', open(f).read()))
cited = [n for n in re.findall(r'"([^"]+)"', text) if len(n) > 20]
missing = [n for n in cited
           if not (any(t.startswith(n.split("…")[0].strip()) for t in tests) if "…" in n else n in tests)]
for n in missing:
    print("not a test:", n)
print(len(cited), "cited")
sys.exit(1 if missing or len(cited) < 35 else 0)
EOF2
}

@test "house: every include points down the layers of docs/architecture.md" {
	run "$ROOT/scripts/check-layers"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "house: check-layers fails on an upward include, an unknown module and a private header" {
	src="$BATS_TEST_TMPDIR/src"
	cp -r "$ROOT/src" "$src"
	# an engine that includes the runner
	echo '#include "run/run.h"' >>"$src/engine/null.c"
	run "$ROOT/scripts/check-layers" "$src" "$ROOT/docs/architecture.md"
	[ "$status" -eq 1 ]
	[ "$output" = "src/engine/null.c:$(wc -l <"$src/engine/null.c"): engine includes run/, which is not below it" ]
	# a module the Layers block does not name
	rm -r "$src"
	cp -r "$ROOT/src" "$src"
	mkdir "$src/extra"
	run "$ROOT/scripts/check-layers" "$src" "$ROOT/docs/architecture.md"
	[ "$status" -eq 1 ]
	[[ "$output" == "src/extra/: a module the layers do not know"* ]]
	rmdir "$src/extra"
	# another module's private header, though the module is below
	echo '#include "workload/workload_int.h"' >>"$src/run/layout.c"
	run "$ROOT/scripts/check-layers" "$src" "$ROOT/docs/architecture.md"
	[ "$status" -eq 1 ]
	[[ "$output" == *"src/run/layout.c:"*": includes workload's private header" ]]
	# the page says engine may include run: the check follows the page
	sed 's/^    engine       ─► job, stats, util/    engine       ─► run, job, stats, util/' \
		"$ROOT/docs/architecture.md" >"$BATS_TEST_TMPDIR/arch.md"
	run "$ROOT/scripts/check-layers" "$ROOT/src" "$BATS_TEST_TMPDIR/arch.md"
	[ "$status" -eq 1 ]
	[ "$output" = "$BATS_TEST_TMPDIR/arch.md: engine may include run, which is not a layer below it" ]
}

@test "house: no source file over 800 lines, no function over 120" {
	run "$ROOT/scripts/check-size"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "house: check-size fails on a function of 121 lines and a file of 801" {
	src="$BATS_TEST_TMPDIR/src"
	mkdir -p "$src/x"
	{
		printf 'static int f(void)\n{\n'
		for i in $(seq 117); do echo "	(void)0;"; done
		printf '}\n'
	} >"$src/x/ok.c"
	run "$ROOT/scripts/check-size" "$src"
	[ "$status" -eq 0 ]
	sed -i 's/^{$/{\n	(void)0;/' "$src/x/ok.c"
	run "$ROOT/scripts/check-size" "$src"
	[ "$status" -eq 1 ]
	[ "$output" = "src/x/ok.c:1: f: 121 lines (at most 120)" ]
	rm "$src/x/ok.c"
	seq 801 | sed 's,^,// ,' >"$src/x/long.h"
	run "$ROOT/scripts/check-size" "$src"
	[ "$status" -eq 1 ]
	[ "$output" = "src/x/long.h: 801 lines (at most 800)" ]
}
