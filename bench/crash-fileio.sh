#!/usr/bin/env bash
# dbio crash of fileio write jobs, one row per sync setting (docs/crash.md):
# the crash states and what they lost (acknowledged, and written), and the
# write ops/s of the same job by dbio run on the backing directory against
# dbio crash --cuts 0 --acks 0 on the layer, with the load average. Run it
# under flock /tmp/dbio-shared.lock. Usage: bench/crash-fileio.sh [DIR]
set -eu
cd "$(dirname "$0")/.."
D=${1:-/var/tmp/dbio-crash-fileio}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$D"
echo "setting|states|with losses|acknowledged lost|written lost|torn|ops/s direct|on the layer|load"
for s in --fsync=1 --fsync=16 --fdatasync=1 --sync=1 --sync=dsync --end_fsync=1 ""; do
	a=(--directory="$D" --workload=fileio --rw=write --bs=4k --size=1m)
	[ -n "$s" ] && a+=("$s")
	./dbio crash --output "$T/c.json" "${a[@]}" >/dev/null 2>&1
	./dbio crash --cuts 0 --acks 0 --output "$T/l.json" "${a[@]}" >/dev/null 2>&1
	./dbio run --output "$T/d.json" "${a[@]}" >/dev/null 2>&1
	echo "$(jq -r '.jobs[0].runs[0].durability|"\(.setting)|\(.states)|\(.states_with_losses)|\(.acknowledged_lost.max) / \(.acknowledged_lost.total) of \(.acknowledged)|\(.written_lost.max) / \(.written_lost.total) of \(.written)|\(.torn_records)"' "$T/c.json")|$(jq -r '.jobs[0].runs[0].ops.write.iops' "$T/d.json")|$(jq -r '.jobs[0].runs[0].ops.write.iops' "$T/l.json")|$(cut -d' ' -f1 /proc/loadavg)"
done
