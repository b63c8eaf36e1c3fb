#!/usr/bin/env bash
# crash-engines.sh: the safe-against-unsafe table of issue 28. For each kv
# engine in a safe and an unsafe setting, `dbio crash` of RECORDS inserts in
# batches of 10 (one acknowledgement per commit), cut after every
# acknowledgement and at the first 100 fsync returns, and beside it the
# inserts/s (the insert phase's records over its time, commits included: an
# LSM tree's put only fills a WriteBatch, its commit writes it) of the same
# job with `dbio run` on the backing directory and on
# the layer without a cut (the layer's cost: the ratio), and the crash states
# checked per second. One markdown row per setting, the load average beside.
#
#   bench/crash-engines.sh [-d DIR] [-e ENGINES] [-n RECORDS] [-r RUNS] [-m MODEL]
#
#   -d DIR      where the scratch directory is made (default /var/tmp)
#   -e ENGINES  only these engines' rows, comma-separated (default: every
#               engine of the build)
#   -n RECORDS  records per job (default 2000: 200 acknowledgements)
#   -r RUNS     runs of each ops/s figure, the median shown (default 3)
#   -m MODEL    dbio crash's crash model (--model: lose, reorder, torn512,
#               torn4k; default lose), for the crash run and the layer's rate
#
# Needs root (a mount namespace), /dev/fuse and a build with libfuse3;
# serialize with other users of mounts: flock /tmp/dbio-shared.lock.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PARENT=/var/tmp
RECORDS=2000
RUNS=3
ONLY=
MODEL=lose
opt() {
	case $1 in
	d) PARENT=$2 ;;
	e) [[ $2 =~ ^[a-z]+(,[a-z]+)*$ ]] || die "-e: expected engine names, comma-separated, got '$2'"
	   ONLY=$2 ;;
	n) whole -n "$2" && RECORDS=$2 ;;
	r) whole -r "$2" && RUNS=$2 ;;
	m) case $2 in lose | reorder | torn512 | torn4k) MODEL=$2 ;; *) die "-m: expected lose, reorder, torn512 or torn4k, got '$2'" ;; esac ;;
	esac
}
bench_opts d:e:n:r:m: "$@"
need_dbio
need python3 "apt-get install python3"
bench_tmp crash-engines
bench_work crash-engines "$PARENT"
private_dbio

# figure FILE EXPR: a figure of the result FILE (python, d = durability, run)
figure() {
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
run = r["jobs"][0]["runs"][0]
d = run.get("durability", {})
print(eval(sys.argv[2]))' "$1" "$2"
}

# median of the arguments
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# rate MODE KEYS...: the median inserts/s of RUNS runs, MODE run (backing
# directory) or layer (dbio crash, no cut)
rate() {
	local mode=$1 i out=() f=$TMP/rate.json
	shift
	for ((i = 0; i < RUNS; i++)); do
		if [ "$mode" = run ]; then
			"$DBIO" run --format json --output "$f" "$@" >/dev/null 2>&1
		else
			"$DBIO" crash --model="$MODEL" --cuts 0 --acks 0 --output "$f" "$@" >/dev/null 2>&1
		fi
		out+=("$(figure "$f" 'round(run["phases"][0]["ops_per_s"])')")
	done
	median "${out[@]}"
}

echo "| engine | setting | model | states | with losses | lost: max / total of acknowledged | did not open | integrity_check failed | torn | inserts/s direct | on the layer | ratio | states/s | load |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
while read -r engine keys; do
	kv_engines=$("$DBIO" --version | sed -n 's/^ *kv_engine: //p' | tr -d ',')
	case " $kv_engines " in *" $engine "*) ;; *) continue ;; esac
	[ -z "$ONLY" ] || case ",$ONLY," in *",$engine,"*) ;; *) continue ;; esac
	# shellcheck disable=SC2086 # keys are words
	set -- --workload=kv --kv_engine="$engine" --records="$RECORDS" --batch=10 --value_size=64-256 \
		--directory="$WORK" $keys
	direct=$(rate run "$@")
	layer=$(rate layer "$@")
	"$DBIO" crash --model="$MODEL" --cuts 100 --acks "$RECORDS" --output "$TMP/crash.json" "$@" >/dev/null 2>&1
	row=$(figure "$TMP/crash.json" '" | ".join(str(x) for x in [d["setting"].split(" ", 1)[1], d["model"], d["states"], d["states_with_losses"], "%d / %d of %d" % (d["acknowledged_lost"]["max"], d["acknowledged_lost"]["total"], d["acknowledged"]), d["not_opened"], d["integrity_failed"], d["torn_records"]])')
	sps=$(figure "$TMP/crash.json" 'round(d["states"] / (run["elapsed_ns"] / 1e9))')
	ratio=$(python3 -c "print('%.2f' % ($layer / $direct))")
	# a key beyond the durability setting is said beside it
	case $keys in *--write_buffer_size=*) row="${row/ | /, write_buffer_size=${keys##*--write_buffer_size=} | }" ;; esac
	echo "| $engine | $row | $direct | $layer | $ratio | $sps | $(load_avg) |"
done <<'ROWS'
gdbm --sync_each_batch=1
gdbm --sync_each_batch=0
lmdb --sync_each_batch=1
lmdb --sync_each_batch=0
sqlite --sqlite_synchronous=extra
sqlite --sqlite_synchronous=full
sqlite --sqlite_synchronous=off
rocksdb --sync_each_batch=1
rocksdb --sync_each_batch=1 --write_buffer_size=64k
rocksdb --sync_each_batch=0
rocksdb --sync_each_batch=0 --disable_wal=1
leveldb --sync_each_batch=1
leveldb --sync_each_batch=1 --write_buffer_size=64k
leveldb --sync_each_batch=0
ROWS
