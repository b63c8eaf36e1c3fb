#!/usr/bin/env bats
# dbio run --output-format=json|json+ (and --format=fio-json|fio-json+):
# fio's JSON on standard output, read back with fio's own tool for json+
# (fio_jsonplus_clat2csv), and bad values refused. docs/fio-output.md.

load helpers

# fio_run FILE ARG...: `dbio run --output $result ARG...` must exit 0; its
# standard output (fio's JSON) goes to FILE.
fio_run() {
	local out=$1
	shift
	"$DBIO" run --output "$result" "$@" >"$out" 2>"$scratch/stderr" || {
		echo "dbio run $* exited $?; stderr:" >&2
		cat "$scratch/stderr" >&2
		return 1
	}
}

@test "--output-format=json: a size-bound randread is 256 reads of fio's read, named as the job" {
	fio_run fio.json --directory="$target" --name=fiojob --rw=randread --bs=4k --size=1m \
		--output-format=json
	json_is fio.json jobs.0.jobname=fiojob jobs.0.read.total_ios=256 jobs.0.read.io_bytes=1048576 \
		jobs.0.read.io_kbytes=1024 jobs.0.read.clat_ns.N=256 jobs.0.read.lat_ns.N=256 \
		jobs.0.read.slat_ns.N=0 jobs.0.write.total_ios=0 jobs.0.trim.total_ios=0 \
		jobs.0.sync.total_ios=0 jobs.0.error=0 "jobs.0.job options.rw=randread" disk_util=[]
	run value fio.json '(d["fio version"].startswith("dbio-"), d["jobs"][0]["read"]["bw"] == d["jobs"][0]["read"]["bw_bytes"] // 1024, len(d["jobs"][0]["read"]["clat_ns"]["percentile"]), "bins" in d["jobs"][0]["read"]["clat_ns"])'
	[ "$output" = "(True, True, 17, False)" ]
	# latency_ns, _us and _ms share out every read.
	run value fio.json 'round(sum(sum(d["jobs"][0]["latency_" + u].values()) for u in ("ns", "us", "ms")))'
	[ "$output" = 100 ]
	# --output still writes dbio's own result.
	json_is "$result" tool.name=dbio "$R0.ops.read.count=256"
}

@test "--format=fio-json is --output-format=json; fio-json+ adds bins that count every read" {
	fio_run a.json --directory="$target" --rw=read --bs=4k --size=1m --format=fio-json
	json_is a.json jobs.0.read.total_ios=256
	run value a.json '"bins" in d["jobs"][0]["read"]["clat_ns"]'
	[ "$output" = False ]
	fio_run b.json --directory="$target" --rw=read --bs=4k --size=1m --format=fio-json+
	run value b.json 'sum(d["jobs"][0]["read"]["clat_ns"]["bins"].values())'
	[ "$output" = 256 ]
}

@test "--output-format=json+: fio_jsonplus_clat2csv reads it, a row per bin, 256 reads in all" {
	command -v fio_jsonplus_clat2csv >/dev/null || skip "fio_jsonplus_clat2csv is not installed (Debian: fio)"
	"$PYTHON" -c 'import six' 2>/dev/null || skip "fio_jsonplus_clat2csv needs python3-six"
	fio_run plus.json --directory="$target" --rw=randread --bs=4k --size=1m --output-format=json+
	run fio_jsonplus_clat2csv plus.json lat.csv
	[ "$status" -eq 0 ]
	[ "$output" = "lat_job0.csv generated" ]
	run fio_jsonplus_clat2csv plus.json lat.csv --validate
	[ "$status" -eq 0 ]
	[ "$output" = "lat_job0.csv validated" ]
	# Columns 0 nsec, 4 to 6 read_clat_ns count, cumulative, percentile.
	run "$PYTHON" - plus.json lat_job0.csv <<'EOF'
import json, sys
bins = json.load(open(sys.argv[1]))["jobs"][0]["read"]["clat_ns"]["bins"]
rows = [[c.strip() for c in line.split(",")] for line in open(sys.argv[2]).read().splitlines()[1:]]
ns = [int(r[0]) for r in rows]
print(len(rows) == len(bins), ns == sorted(set(ns)), ns == sorted(int(k) for k in bins))
print(sum(int(r[4]) for r in rows), rows[-1][5], rows[-1][6])
print(all(r[1] == "" and r[10] == "" for r in rows))
EOF
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "True True True" ]
	[ "${lines[1]}" = "256 256 1.0" ]
	[ "${lines[2]}" = "True" ]
}

@test "fio JSON: fsync=16 over 256 writes is 15 of fio's sync (none after the last); repeat=2 merges the runs into one job" {
	fast_target
	fio_run w.json --directory="$target" --rw=write --bs=4k --size=1m --fsync=16 --repeat=2 \
		--output-format=json
	json_is w.json jobs.0.write.total_ios=512 jobs.0.write.io_bytes=2097152 jobs.0.sync.total_ios=30 \
		jobs.0.sync.lat_ns.N=30 jobs.0.read.total_ios=0
	run value w.json '(len(d["jobs"]), "io_bytes" in d["jobs"][0]["sync"], len(d["jobs"][0]["sync"]["lat_ns"]["percentile"]))'
	[ "$output" = "(1, False, 17)" ]
}

@test "--output-format: a bad value or none is refused with what it takes, exit 2" {
	run -2 --separate-stderr "$DBIO" run --directory="$target" --size=1m --output-format=terse
	[ "$stderr" = "dbio: command line: --output-format: 'terse': fio's terse output is not in dbio; expected json, json+ or normal" ]
	run -2 --separate-stderr "$DBIO" run --directory="$target" --size=1m --output-format=xml
	[ "$stderr" = "dbio: command line: --output-format: bad value 'xml': expected json, json+ or normal" ]
	[ -z "$output" ]
	run -2 --separate-stderr "$DBIO" run --directory="$target" --size=1m --format=fio-csv
	[ "$stderr" = "dbio: command line: --format: bad value 'fio-csv': expected text, json, csv, fio-json or fio-json+" ]
	run -2 --separate-stderr "$DBIO" run --directory="$target" --size=1m --output-format
	[ "$stderr" = "dbio: command line: --output-format: needs a value" ]
	is_empty_dir "$target"
}

@test "fio JSON: groupid is fio's reporting group: stonewall and new_group count up" {
	printf '[global]\nrw=read\nsize=64k\n[a]\n[b]\n[c]\nnew_group\n[d]\nstonewall\n' >g.fio
	fio_run g.json g.fio --directory="$target" --output-format=json
	run value g.json '[j["groupid"] for j in d["jobs"]]'
	[ "$output" = "[0, 0, 1, 2]" ]
}

@test "unified_rw_reporting: mixed gives fio's one mixed object and text row of all 256 ops; both adds it after read and write" {
	fio_run fio.json --directory="$target" --name=u --rw=randrw --bs=4k --size=1m \
		--unified_rw_reporting=mixed --output-format=json
	json_is fio.json jobs.0.mixed.total_ios=256 jobs.0.mixed.io_bytes=1048576 jobs.0.mixed.clat_ns.N=256
	run value fio.json '[k for k in ("read", "write", "trim", "sync") if k in d["jobs"][0]]'
	[ "$output" = "[]" ]
	fio_run fio.json --directory="$target" --name=u --rw=randrw --bs=4k --size=1m \
		--unified_rw_reporting=2 --output-format=json
	run value fio.json '(d["jobs"][0]["read"]["total_ios"] + d["jobs"][0]["write"]["total_ios"], d["jobs"][0]["mixed"]["total_ios"], "sync" in d["jobs"][0])'
	[ "$output" = "(256, 256, True)" ]
	fio_run text.out --directory="$target" --name=u --rw=randrw --bs=4k --size=1m --unified_rw_reporting=1
	run awk '$1 == "mixed" { print $2 } $1 == "read" || $1 == "write" { print "apart" }' text.out
	[ "$output" = "256" ]
	run "$DBIO" run --directory="$target" --name=u --rw=randrw --size=1m --unified_rw_reporting=3
	[ "$status" -ne 0 ]
	[[ "$output" == *unified_rw_reporting* ]]
}

@test "--output-format=json: a queued engine has fio's slat_ns and lat_ns, and slat + clat = lat (fio's t0015 to t0017)" {
	# fio 3.33 on t0015 (libaio, size=1M, iodepth=16): read.total_ios 256,
	# slat_ns.N 256, clat_ns.N 256, lat_ns.N 256, and t/run-fio-tests.py
	# asks |mean(slat) + mean(clat) - mean(lat)| <= 1 (ns).
	need_queued_engine
	local e
	for e in null $queued; do
		fio_run "$e.json" --directory="$target" --name=test --rw=read --size=1m \
			$(engine_keys "$e") --iodepth=16 --output-format=json
		json_is "$e.json" jobs.0.read.total_ios=256 jobs.0.read.slat_ns.N=256 \
			jobs.0.read.clat_ns.N=256 jobs.0.read.lat_ns.N=256 jobs.0.write.slat_ns.N=0
		run value "$e.json" 'abs(d["jobs"][0]["read"]["slat_ns"]["mean"] + d["jobs"][0]["read"]["clat_ns"]["mean"] - d["jobs"][0]["read"]["lat_ns"]["mean"]) <= 1'
		[ "$output" = True ]
		run value "$e.json" 'd["jobs"][0]["read"]["lat_ns"]["min"] >= d["jobs"][0]["read"]["clat_ns"]["min"] and d["jobs"][0]["read"]["lat_ns"]["max"] >= d["jobs"][0]["read"]["slat_ns"]["max"]'
		[ "$output" = True ]
	done
	# dbio's own result keeps them per op type under the run's submission.
	json_is "$result" "$R0.submission.ops.read.slat_ns.count=256" "$R0.submission.ops.read.total_lat_ns.count=256"
	# A synchronous engine has no slat (fio's sync engines show N 0) and its lat is its clat.
	fio_run sync.json --directory="$target" --rw=read --size=64k --ioengine=psync --output-format=json
	json_is sync.json jobs.0.read.slat_ns.N=0 jobs.0.read.lat_ns.N=16
}
