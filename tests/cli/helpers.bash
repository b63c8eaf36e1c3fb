# Shared by the dbio command-line tests: where the binary is, a fresh scratch
# directory per test (removed in teardown, with any tmpfs unmounted and any
# background dbio killed) and readers for the result JSON.
#
# Every test runs in $scratch (the current directory) with an empty target
# directory $target for the job files and $result as the --output path.
#
# A file that needs more before or after each test defines its own setup or
# teardown around these (bats knows only one of each):
#
#	setup() {
#		dbio_setup
#		DIR=$(mktemp -d /var/tmp/dbio-x.XXXXXX)
#		extra_dirs+=("$DIR")
#	}
#	teardown() {
#		...undo what the file made...
#		dbio_teardown
#	}

bats_require_minimum_version 1.5.0 # run --separate-stderr, run -N

DBIO=${DBIO:-"$BATS_TEST_DIRNAME/../../dbio"}
case "$DBIO" in
/*) ;;
*) DBIO="$PWD/$DBIO" ;; # the tests cd into their scratch directory
esac
JOBS="$BATS_TEST_DIRNAME/jobs"
# The system python starts in a tenth of the time of a pyenv shim.
PYTHON=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}
R0=jobs.0.runs.0 # the first run of the first job, for json_is paths

# dbio_setup: the scratch directory, $target and $result; cd into $scratch.
dbio_setup() {
	[ -x "$DBIO" ] || {
		echo "dbio binary not found at $DBIO: run make, or set DBIO" >&2
		return 1
	}
	scratch=$(mktemp -d "${BATS_TEST_TMPDIR:-/tmp}/dbio-cli.XXXXXX")
	target="$scratch/target"
	result="$scratch/result.json"
	mkdir "$target"
	mounts=()
	extra_dirs=() # directories outside $scratch that teardown removes
	bg_pid=
	cd "$scratch" || return 1
}

# dbio_teardown: kill $bg_pid, unmount $mounts, remove $extra_dirs and
# $scratch. Always returns 0.
dbio_teardown() {
	cd / || true
	if [ -n "${bg_pid:-}" ] && kill -0 "$bg_pid" 2>/dev/null; then
		kill -KILL "$bg_pid" 2>/dev/null
		wait "$bg_pid" 2>/dev/null
	fi
	for m in "${mounts[@]}"; do
		mountpoint -q "$m" && umount "$m"
	done
	for d in "${extra_dirs[@]}"; do rm -rf "$d"; done
	[ -n "${scratch:-}" ] && rm -rf "$scratch"
	return 0
}

setup() { dbio_setup; }
teardown() { dbio_teardown; }

# dbio_ok ARG...: `dbio run --output $result ARG...` must exit 0 and write
# $result; its stdout and stderr are left in $output and $stderr.
dbio_ok() {
	run --separate-stderr "$DBIO" run --output "$result" "$@"
	if [ "$status" -ne 0 ] || [ ! -f "$result" ]; then
		echo "dbio run $* exited $status; stderr:" >&2
		printf '%s\n' "$stderr" >&2
		return 1
	fi
}

# json_is FILE PATH=VALUE...: the value at each dotted PATH (list indices are
# numbers) is VALUE; strings compare raw, other values as JSON (true, 4096).
# Prints every mismatch and fails when there is one.
json_is() {
	"$PYTHON" - "$@" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
bad = 0
for arg in sys.argv[2:]:
    path, want = arg.split("=", 1)
    v = r
    try:
        for k in path.split("."):
            v = v[int(k)] if isinstance(v, list) else v[k]
    except (KeyError, IndexError, ValueError, TypeError):
        print(f"{path}: missing, expected {want}")
        bad = 1
        continue
    got = v if isinstance(v, str) else json.dumps(v)
    if got != want:
        print(f"{path}: expected {want}, got {got}")
        bad = 1
sys.exit(bad)
EOF
}

# jpy FILE EXPR...: prints each Python expression evaluated with r = the
# result and run = its first job's first run (strings raw, else as JSON).
jpy() {
	"$PYTHON" - "$@" <<'EOF'
import json, sys
from datetime import datetime
r = json.load(open(sys.argv[1]))
run = r["jobs"][0]["runs"][0] if r.get("jobs") and r["jobs"][0]["runs"] else None
def ts(s):  # ISO time "....Z" -> seconds since the epoch
    return datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
for e in sys.argv[2:]:
    v = eval(e)
    print(v if isinstance(v, str) else json.dumps(v))
EOF
}

# is_empty_dir DIR: DIR exists and holds nothing; lists what it holds if not.
is_empty_dir() {
	[ -d "$1" ] || {
		echo "$1: not a directory" >&2
		return 1
	}
	local left
	left=$(ls -A "$1")
	[ -z "$left" ] || {
		echo "$1 is not empty: $left" >&2
		return 1
	}
}

# wait_for FILE: poll until FILE exists, for at most 10 s.
wait_for() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	echo "$1 did not appear within 10 s" >&2
	return 1
}

# mount_tmpfs DIR SIZE: mount a tmpfs of SIZE on DIR (created), unmounted in
# teardown; skips the test, saying why, where that is not possible.
mount_tmpfs() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
	mkdir -p "$1"
	mount -t tmpfs -o "size=$2" dbio-test "$1" 2>/dev/null || skip "cannot mount a tmpfs on $1"
	mounts+=("$1")
}

# json_has FILE PATH...: every dotted PATH is in the JSON and not null;
# prints the missing ones and fails when there is one.
json_has() {
	"$PYTHON" - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
bad = 0
for path in sys.argv[2:]:
    v = r
    try:
        for k in path.split("."):
            v = v[int(k)] if isinstance(v, list) else v[k]
    except (KeyError, IndexError, ValueError, TypeError):
        v = None
    if v is None:
        print(f"{path}: missing")
        bad = 1
sys.exit(bad)
PY
}

# fast_target: put $target on a tmpfs where one can be mounted, so that tests
# counting fsyncs do not wait for a disk; elsewhere $target stays as it is.
fast_target() {
	[ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=128m dbio-test "$target" 2>/dev/null &&
		mounts+=("$target")
	return 0
}

