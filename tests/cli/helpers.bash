# Shared by the dbio command-line tests: where the binary is, a fresh scratch
# directory per test (removed in teardown, with whatever the test asked to be
# undone, even when it failed), readers for the result JSON, waiting on
# events, and what the build under test holds (engines, workloads, kv
# engines), read from the binary.
#
# Every test runs in $scratch (the current directory) with an empty target
# directory $target for the job files and $result as the --output path.
#
# A file that needs more before each test defines its own setup calling
# dbio_setup first (bats knows only one setup):
#
#	setup() {
#		dbio_setup
#		DIR=$(mktemp -d /var/tmp/dbio-x.XXXXXX)
#		extra_dirs+=("$DIR")
#	}
#
# What a test or setup makes that teardown must undo (a mount, a loop
# device, chattr +i) it hands to on_teardown as soon as it has made it, so
# that no file needs a teardown of its own.

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
	cleanups=()   # on_teardown's commands, run last first
	extra_dirs=() # directories outside $scratch that teardown removes
	bg_pid=
	cd "$scratch" || return 1
}

# dbio_teardown: kill $bg_pid (a dbio still running would keep a mount
# busy), run the on_teardown commands last first, remove $extra_dirs and
# $scratch. Tries everything; always returns 0.
dbio_teardown() {
	local i d
	cd / || true
	if [ -n "${bg_pid:-}" ] && kill -0 "$bg_pid" 2>/dev/null; then
		kill -KILL "$bg_pid" 2>/dev/null
		wait "$bg_pid" 2>/dev/null
	fi
	for ((i = ${#cleanups[@]} - 1; i >= 0; i--)); do
		eval "${cleanups[i]}" >/dev/null 2>&1 || true
	done
	for d in "${extra_dirs[@]}"; do rm -rf "$d"; done
	if [ -n "${scratch:-}" ]; then
		rm -rf "$scratch"
	fi
	return 0
}

# on_teardown CMD [ARG...]: run CMD ARG... in teardown, before the scratch
# directory goes, whether or not the test passed; commands registered later
# run first (the mount goes before the loop device under it).
on_teardown() {
	cleanups+=("$(printf '%q ' "$@")")
}

# unmount DIR: unmount DIR if something is mounted there, lazily if it is busy.
unmount() {
	if mountpoint -q "$1"; then
		umount "$1" || umount -l "$1"
	fi
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
# result and run = its first job's first run (strings raw, else as JSON);
# ts(ISO) is a time in seconds, span(J) job J's first run as (start, end)
# in seconds: started_at, and elapsed_ns after it.
jpy() {
	"$PYTHON" - "$@" <<'EOF'
import json, sys
from datetime import datetime
r = json.load(open(sys.argv[1]))
run = r["jobs"][0]["runs"][0] if r.get("jobs") and r["jobs"][0]["runs"] else None
def ts(s):  # ISO time "....Z" -> seconds since the epoch
    return datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
def span(j):
    x = r["jobs"][j]["runs"][0]
    return ts(x["started_at"]), ts(x["started_at"]) + x["elapsed_ns"] / 1e9
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

# wait_until CMD [ARG...]: run CMD every 20 ms until it succeeds. Fails the
# test, saying what it waited for, when the background dbio ($bg_pid, if
# set) exits first or after ${DBIO_WAIT_S:-60} seconds: a deadline that
# catches a hang, never one a slow machine meets.
wait_until() {
	local deadline=$((SECONDS + ${DBIO_WAIT_S:-60}))
	until "$@"; do
		if [ -n "${bg_pid:-}" ] && ! kill -0 "$bg_pid" 2>/dev/null; then
			echo "waited for '$*': the background dbio (pid $bg_pid) exited first" >&2
			return 1
		fi
		if [ "$SECONDS" -ge "$deadline" ]; then
			echo "waited for '$*': not true after ${DBIO_WAIT_S:-60} s" >&2
			return 1
		fi
		sleep 0.02
	done
}

# wait_for FILE: wait_until FILE exists.
wait_for() {
	wait_until test -e "$1"
}

# wait_for_text FILE TEXT: wait_until FILE holds TEXT; shows FILE if not.
wait_for_text() {
	wait_until grep -qF -- "$2" "$1" || {
		echo "$1 holds:" >&2
		cat "$1" >&2
		return 1
	}
}

# start_running [--cmd COMMAND] ARG...: `dbio run ARG... --output $result`
# (or dbio COMMAND: sweep, matrix) in the background ($bg_pid) with the
# progress line on, returning once that line shows the threads doing I/O
# (a measured phase has begun). Its stdout and stderr go to $scratch/stdout
# and $scratch/stderr.
start_running() {
	local cmd=run
	if [ "$1" = --cmd ]; then
		cmd=$2
		shift 2
	fi
	"$DBIO" "$cmd" "$@" --progress=line --output "$result" >"$scratch/stdout" 2>"$scratch/stderr" 3>&- &
	bg_pid=$!
	wait_for_text "$scratch/stderr" " ops/s, "
}

# finish_running STATUS: wait for the background dbio, which must exit
# STATUS; its stderr, with the progress line's carriage returns and erase
# codes taken out, is then in $scratch/err (one message a line).
finish_running() {
	local rc=0
	wait "$bg_pid" || rc=$?
	bg_pid=
	tr '\r' '\n' <"$scratch/stderr" | sed -e 's/\x1b\[K//g' -e '/^$/d' >"$scratch/err"
	[ "$rc" -eq "$1" ] || {
		echo "exit status $rc, expected $1; stderr:" >&2
		cat "$scratch/err" >&2
		return 1
	}
}

# mount_tmpfs DIR SIZE: mount a tmpfs of SIZE on DIR (created), unmounted in
# teardown; skips the test, saying why, where that is not possible.
mount_tmpfs() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
	mkdir -p "$1"
	mount -t tmpfs -o "size=$2" dbio-test "$1" 2>/dev/null || skip "cannot mount a tmpfs on $1"
	on_teardown unmount "$1"
}

# mount_ext4 DIR SIZE [OPTIONS]: an ext4 image of SIZE in $scratch on a loop
# device ($loop_dev), mounted on DIR (created) with mount's -o OPTIONS;
# unmounted and detached in teardown; skips the test, saying why, where
# that is not possible.
mount_ext4() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for a loop device"
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 is not installed (e2fsprogs)"
	truncate -s "$2" "$scratch/ext4.img"
	mkfs.ext4 -q -F "$scratch/ext4.img" >/dev/null 2>&1 || skip "cannot make an ext4 image"
	loop_dev=$(losetup -f --show "$scratch/ext4.img" 2>/dev/null) || skip "losetup -f --show failed (no free loop device?)"
	on_teardown losetup -d "$loop_dev"
	mkdir -p "$1"
	mount ${3:+-o "$3"} "$loop_dev" "$1" 2>/dev/null || skip "cannot mount $loop_dev"
	on_teardown unmount "$1"
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
# 512 MiB: RocksDB preallocates about 1.1 write_buffer_size (70 MiB) for a
# database's WAL and each new file, and a tmpfs counts what is preallocated;
# at 128 MiB two threads' databases at once ran it out of space (fallocate
# and then the LOG's write: ENOSPC, which Debian's RocksDB, built with
# assertions, aborts on). A tmpfs holds only what is written to it.
fast_target() {
	if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=512m dbio-test "$target" 2>/dev/null; then
		on_teardown unmount "$target"
	fi
}

# value FILE EXPR: prints the Python expression EXPR evaluated with d = the
# JSON in FILE, as Python prints it (True, ['4k', '8k']).
value() {
	"$PYTHON" -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# ---- what the build under test holds ----
# Read from the binary, never written into a test: a build can leave out
# io_uring, libaio, gdbm, lmdb and sqlite (make WITHOUT=...), and a test of
# a part it left out skips, saying so.

# version_text: `dbio --version` (src/cmd/help.c, cmd_print_version), run once
# per test file and binary (it times a million clock reads).
version_text() {
	local cache=${BATS_FILE_TMPDIR:-${BATS_TEST_TMPDIR:-/tmp}}/dbio-version.${DBIO//\//_}
	[ -s "$cache" ] || "$DBIO" --version >"$cache" || {
		rm -f "$cache"
		echo "$DBIO --version failed" >&2
		return 1
	}
	cat "$cache"
}

# engines_of_build: the I/O engines of this build, one per line, in the
# order of the registry (the indented lines under "engines:").
engines_of_build() {
	version_text | awk '/^engines:$/ { on = 1; next } on && /^  [^ ]/ { print $1; next } { on = 0 }'
}

# workloads_of_build: the workloads of this build, one per line.
workloads_of_build() {
	version_text | sed -n 's/^workloads: //p' | sed 's/, /\n/g'
}

# left_out_of_build: KEY=VALUE of every part this build left out (such as
# ioengine=io_uring), one per line; nothing for a full build.
left_out_of_build() {
	version_text | sed -n 's/^left out of this build (install the package and build again): //p' |
		sed 's/ ([^)]*)//g; s/, /\n/g'
}

# kv_engines_of_build: the kv_engine values of this build, one per line,
# from --version's line "  kv_engine: gdbm, lmdb, sqlite" (or "(none built
# in)").
kv_engines_of_build() {
	local list
	list=$(version_text | sed -n 's/^  kv_engine: //p')
	[ "$list" = "(none built in)" ] || printf '%s\n' "${list//, /$'\n'}"
}

# in_build KEY=VALUE: true when this build has VALUE for KEY (ioengine,
# workload or kv_engine).
in_build() {
	local key=${1%%=*} value=${1#*=} list
	case $key in
	ioengine) list=$(engines_of_build) ;;
	workload) list=$(workloads_of_build) ;;
	kv_engine) list=$(kv_engines_of_build) ;;
	*)
		echo "in_build: no list of '$key' values" >&2
		return 2
		;;
	esac
	grep -qxF -- "$value" <<<"$list"
}

# left_out_text: what --version says this build left out, with the package
# of each ("ioengine=io_uring (liburing-dev), ..."), or "nothing".
left_out_text() {
	version_text | sed -n 's/^left out of this build[^:]*: //p'
}

# need_built KEY=VALUE...: skip the test, saying why, unless this build has
# each of them.
need_built() {
	local kv what
	for kv; do
		in_build "$kv" && continue
		what=$(left_out_text | grep -o "$kv ([^)]*)")
		[ -n "$what" ] || skip "this build has no $kv"
		skip "this build left out $what"
	done
}

# need_kv_engine: set kv to a kv_engine of this build, its default where it
# has that one (`dbio help options`), or skip, saying which it left out.
need_kv_engine() {
	local dflt
	dflt=$("$DBIO" help options | sed -n 's/^kv_engine=\([^ ]*\) .*/\1/p')
	kv=$(kv_engines_of_build | grep -xF -- "$dflt" || kv_engines_of_build | head -1)
	[ -n "$kv" ] ||
		skip "this build has no kv engine: it left out $(left_out_text | grep -o 'kv_engine=[^)]*)' | join_list ', ')"
}

# queued_engines_of_build: the engines of this build that do I/O with
# several in flight (io_uring, libaio, posixaio), one per line: those that
# take a key of the queued engines. null, which queues too (as fio's) but
# does no I/O, is left out.
queued_engines_of_build() {
	local e
	for e in $(engines_of_build); do
		[ "$e" != null ] || continue
		"$DBIO" run --ioengine="$e" --rw=write --iodepth=2 --iodepth_batch_complete_min=1 --size=1m \
			--directory=/nonexistent 2>&1 | grep -q "belongs to the engines that queue" || echo "$e"
	done
}

# need_queued_engine: set queued to the queued engines of this build (one
# per line), or skip, saying which it left out.
need_queued_engine() {
	queued=$(queued_engines_of_build)
	[ -n "$queued" ] ||
		skip "this build has no queued engine: it left out $(left_out_text | grep -o 'ioengine=[^)]*)' | join_list ', ')"
}

# build_is_full: this build left nothing out (docs generated from every
# option table, lists of every engine).
build_is_full() {
	version_text | grep -qxF "left out of this build: nothing"
}

# join_list SEP: the lines on standard input joined with SEP ("a, b").
join_list() {
	local sep=$1 out= line
	while IFS= read -r line; do
		out=${out:+$out$sep}$line
	done
	printf '%s\n' "$out"
}

# ---- whether an I/O engine can run here ----

# engine_keys ENGINE: the keys a job on ENGINE needs: a queue for the queued
# engines, and direct=1 for libaio (which refuses buffered I/O).
engine_keys() {
	case $1 in
	io_uring | posixaio) echo "--ioengine=$1 --iodepth=8" ;;
	libaio) echo "--ioengine=libaio --iodepth=8 --direct=1" ;;
	*) echo "--ioengine=$1" ;;
	esac
}

# why_not_here ENGINE: prints why ENGINE is to be skipped (left out of the
# build, refused by the kernel, no O_DIRECT on the target), nothing when it
# runs a 64 KiB read (a write for ftruncate, which only writes); fails when
# it cannot for another reason. (Not a skip in a subshell: bats' skip exits
# 0, and `(need_engine e)` would say it runs.)
why_not_here() {
	local keys rw=read
	[ "$1" != ftruncate ] || rw=write
	if ! in_build "ioengine=$1"; then
		echo "this build left out $(left_out_text | grep -o "ioengine=$1 ([^)]*)")"
		return 0
	fi
	keys=$(engine_keys "$1")
	mkdir -p "$scratch/probe"
	# shellcheck disable=SC2086
	run --separate-stderr "$DBIO" run --directory="$scratch/probe" --output "$scratch/probe.json" \
		--size=64k --bs=4k --rw=$rw $keys
	rm -rf "$scratch/probe" "$scratch/probe.json"
	if [ "$status" -eq 0 ]; then
		return 0
	fi
	case $stderr in
	*"setup failed"*) echo "$1: the kernel refuses it here: $stderr" ;;
	*"does not support O_DIRECT"*) echo "$1: the target filesystem has no O_DIRECT: $stderr" ;;
	*)
		echo "$1 cannot run a 64 KiB read: $stderr" >&2
		return 1
		;;
	esac
}

# need_engine ENGINE: skip, saying why, when ENGINE is not in this build or
# cannot run here.
need_engine() {
	local why
	why=$(why_not_here "$1")
	if [ -n "$why" ]; then
		skip "$why"
	fi
}

# ---- fio job files: refusals, and op counts beside fio's ----

# fio itself, bounded: a fio 3.33 run once sat in 2 s sleeps for minutes
# (fio-pacing, 2026-12-01), and a test waiting on it would hold the suite
# until CI's own limit. Defined only where fio is installed, so that the
# tests' `command -v fio || skip` still skips without it.
if type -P fio >/dev/null; then
	fio() {
		local rc=0
		timeout --kill-after=10 300 "$(type -P fio)" "$@" || rc=$?
		[ "$rc" -ne 124 ] || echo "fio $*: did not finish in 300 s; killed" >&2
		return "$rc"
	}
fi

# refused_file FILE MESSAGE [ARG...]: `dbio run FILE ARG...` exits 2 with
# exactly MESSAGE on stderr, and writes nothing: no result, nothing in
# $target. FILE can be a --key=value too.
refused_file() {
	rm -f "$result"
	run --separate-stderr "$DBIO" run "$1" --directory="$target" --output="$result" "${@:3}"
	[ "$status" -eq 2 ] || {
		echo "exit status $status, expected 2; stderr: $stderr" >&2
		return 1
	}
	[ "$stderr" = "$2" ] || {
		printf 'stderr:   %s\nexpected: %s\n' "$stderr" "$2" >&2
		return 1
	}
	[ ! -e "$result" ]
	is_empty_dir "$target"
}

# counts FILE: "job op count" per job and op type (read, write, trim,
# sync) of a dbio result (fio's names: fsync and fdatasync are sync),
# sorted.
counts() {
	"$PYTHON" - "$1" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
out = {}
for j in r["jobs"]:
    for t, o in j["runs"][0]["ops"].items():
        name = {"fsync": "sync", "fdatasync": "sync"}.get(t, t)
        if name in ("read", "write", "trim", "sync") and o["count"]:
            out[(j["name"], name)] = out.get((j["name"], name), 0) + o["count"]
for (job, op), n in sorted(out.items()):
    print(job, op, n)
EOF
}

# fio_counts FILE: the same from fio's --output-format=json.
fio_counts() {
	"$PYTHON" - "$1" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
out = {}
for j in r["jobs"]:
    for op in ("read", "write", "trim", "sync"):
        # fio leaves fdatasyncs out of sync.total_ios, not out of its latencies
        n = max(j[op]["total_ios"], j[op].get("lat_ns", {}).get("N", 0))
        if n:
            out[(j["jobname"], op)] = out.get((j["jobname"], op), 0) + n
for (job, op), n in sorted(out.items()):
    print(job, op, n)
EOF
}

# same_as_fio FILE: dbio and fio run FILE in $target; their op counts per
# job and op type must be the same (and not empty).
same_as_fio() {
	command -v fio >/dev/null || skip "fio is not installed (scripts/install-deps installs it)"
	dbio_ok "$1" --directory="$target"
	counts "$result" >dbio.counts
	rm -rf "$target" && mkdir "$target"
	fio --directory="$target" --output-format=json --output=fio.json "$1" >/dev/null
	fio_counts fio.json >fio.counts
	[ -s fio.counts ]
	diff fio.counts dbio.counts
}

# rate_bound: skips the test when dbio is built with a sanitizer. The test
# holds a rate or a time to a bound of a few per cent, and the sanitizers
# make dbio two to five times slower, so the figure says nothing there; the
# plain build's make test holds it. CI's sanitizer stages run the rest of
# the file (its refusals, counts and schemas).
rate_bound() {
	case $(basename "$DBIO") in
	*-san | *-tsan | *-fuzz) skip "holds a rate or a time to a bound, which $(basename "$DBIO") (a sanitizer's build) is too slow to say anything about" ;;
	esac
}

# has_memcg: a memory cgroup controller (v1 memory or cgroup2 with memory)
# is mounted.
has_memcg() {
	local mnt
	grep -qE ' - cgroup [^ ]+ [^ ]*\bmemory\b' /proc/self/mountinfo && return 0
	mnt=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
		/proc/self/mountinfo | head -n 1)
	[ -n "$mnt" ] && grep -qw memory "$mnt/cgroup.controllers" 2>/dev/null
}

# screenshot PAGE PNG: headless Chromium's screenshot of PAGE (in the
# scratch directory) into PNG, 1200x2000; skips, naming the package, when
# chromium is not installed; fails when it wrote none.
screenshot() {
	local profile
	command -v chromium >/dev/null || skip "chromium is not installed (Debian: apt-get install chromium)"
	profile=$(mktemp -d)
	run timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --screenshot="$scratch/$2" --window-size=1200,2000 \
		"file://$scratch/$1"
	rm -rf "$profile"
	[ -s "$2" ] || {
		echo "chromium wrote no screenshot: $output" >&2
		return 1
	}
}

# colours PNG: prints how many distinct colours a sample of the PNG's
# pixels has (8-bit RGB or RGBA, as Chromium writes); a blank page has 1.
colours() {
	"$PYTHON" - "$1" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, ihdr = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR": ihdr = struct.unpack(">IIBBBBB", body)
    if kind == b"IDAT": idat += body
    pos += 12 + n
w, h, depth, ctype = ihdr[:4]
assert depth == 8 and ctype in (2, 6), f"unexpected PNG type {depth}/{ctype}"
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, colours, i = bytearray(stride), set(), 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 4 == 0:
        colours.update(bytes(line[x:x + 3]) for x in range(0, stride, bpp * 2))
    prev = line
print(len(colours))
PY
}

# need_matrix: skips unless dbio matrix can run here (root, loop devices,
# e2fsprogs); sets $images, a directory for the loop images.
need_matrix() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (loop devices, mkfs, mount)"
	[ -c /dev/loop-control ] || skip "no /dev/loop-control: loop devices are not available"
	command -v mkfs.ext2 >/dev/null && command -v mkfs.ext4 >/dev/null ||
		skip "mkfs.ext2/mkfs.ext4 not installed (Debian package e2fsprogs)"
	images="$scratch/images"
	mkdir -p "$images"
}

# undo_matrix: what dbio matrix --cleanup does, then whatever it could not
# undo: the mounts of loop devices backed by a file under $scratch, and
# those devices. Run in teardown (after a background dbio is killed).
undo_matrix() {
	local dev mnt
	"$DBIO" matrix --cleanup >/dev/null 2>&1
	losetup -a 2>/dev/null | grep -F "$scratch/" | while IFS=: read -r dev _; do
		grep "^$dev " /proc/mounts | while read -r _ mnt _; do umount -l "$mnt"; done
		losetup -d "$dev" 2>/dev/null
	done
	return 0
}

# max_columns: the widest line of standard input, in characters ("±" is one).
max_columns() {
	python3 -c 'import sys; print(max(len(l) for l in sys.stdin.read().splitlines()))'
}

# attacker_dir MODE: $atk, a directory user 65534 can reach (the test's
# scratch is private), removed in teardown, and in it the target
# $atk/target of MODE. Skips without root or setpriv.
attacker_dir() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to act as another user"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null || skip "cannot run as user 65534"
	atk=$(mktemp -d /tmp/dbio-atk.XXXXXX)
	extra_dirs+=("$atk")
	chmod 755 "$atk"
	target=$atk/target
	mkdir -m "$1" "$target"
}

# swap_target: a world-writable target (no sticky bit) $atk/target that
# user 65534 can reach, holding root's precious/ (0700: important.txt
# "DATA", sub/f "D2"). Skips without root or setpriv.
swap_target() {
	attacker_dir 777
	mkdir -m 700 "$target/precious" "$target/precious/sub"
	echo DATA >"$target/precious/important.txt"
	echo D2 >"$target/precious/sub/f"
}

# swap_when_full NAME [WHAT]: in the background ($bg_pid), once the
# directory $target/NAME has something in it (polled, 60 s at most), user
# 65534 renames it to moved and WHAT (precious) to NAME, then
# $atk/swapped exists.
swap_when_full() {
	(
		for _ in $(seq 6000); do
			[ -n "$(ls -A "$target/$1" 2>/dev/null)" ] && break
			sleep 0.01
		done
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			sh -c 'cd "$1" && mv "$2" moved && mv "$3" "$2"' sh "$target" "$1" "${2:-precious}" &&
			: >"$atk/swapped"
	) &
	bg_pid=$!
}

# precious_intact NAME: root's precious/, swapped in as $target/NAME, still
# holds its files with their content.
precious_intact() {
	[ "$(cat "$target/$1/important.txt")" = DATA ]
	[ "$(cat "$target/$1/sub/f")" = D2 ]
}

# gnuplot_as FILE CMD...: run CMD in a mount namespace of its own where the
# gnuplot dbio runs (/usr/bin/gnuplot, followed to its file) is FILE
# (/dev/null: no gnuplot at all). dbio takes gnuplot from the system's
# directories only, never from PATH, so a test puts its own there this way.
gnuplot_as() {
	local file=$1 real
	shift
	real=$(readlink -f /usr/bin/gnuplot) || return 1
	[ -n "$real" ] || return 1
	unshare -m --propagation private sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
		gnuplot_as "$file" "$real" "$@"
}

# need_powercut (crash.bats, crash_kv.bats): skip, saying why, unless this build has the layer and
# this machine can mount it; in teardown, unmount any layer left in $target
# (none in this namespace unless the private one failed: belt and braces).
need_powercut() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for a mount namespace"
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	run "$DBIO" crash --cleanup "$target"
	[ "$output" != "dbio: crash: the power-cut layer is left out of this build: install libfuse3-dev and build again" ] || skip "${output#dbio: crash: }"
	[ "$status" -eq 0 ]
	on_teardown unmount_layers
}

unmount_layers() {
	local m
	for m in "$target"/.dbio-powercut.*/mnt; do
		[ -d "$m" ] && unmount "$m"
	done
	return 0
}

# loopfs_make PREFIX SIZE MKFS BLOCK: for a file's setup_file, a loop
# device holding a fresh MKFS filesystem (mkfs.ext2 …) of BLOCK-byte
# blocks in an image of SIZE, mounted: exports LOOP_ROOT (a new directory
# named PREFIX.XXXXXX), LOOP_IMG, LOOP_DEV and LOOP_MNT, or LOOP_SKIP
# saying why there is none (not root, no losetup or MKFS, no free loop
# device). loopfs_remove in teardown_file undoes whatever was made.
loopfs_make() {
	export LOOP_IMG= LOOP_DEV= LOOP_MNT= LOOP_SKIP= LOOP_ROOT=
	if [ "$(id -u)" -ne 0 ]; then
		LOOP_SKIP="needs root for a loop device"
		return 0
	fi
	if ! command -v losetup >/dev/null || ! command -v "$3" >/dev/null; then
		LOOP_SKIP="losetup or $3 is not installed"
		return 0
	fi
	LOOP_ROOT=$(mktemp -d "${BATS_FILE_TMPDIR:-/tmp}/$1.XXXXXX") || {
		LOOP_SKIP="cannot make a temporary directory"
		return 0
	}
	LOOP_ROOT=$(realpath "$LOOP_ROOT")
	LOOP_IMG="$LOOP_ROOT/disk.img"
	if ! truncate -s "$2" "$LOOP_IMG" || ! "$3" -q -F -b "$4" "$LOOP_IMG" >/dev/null 2>&1; then
		LOOP_SKIP="cannot make a $3 image in $LOOP_ROOT"
		return 0
	fi
	if ! LOOP_DEV=$(losetup -f --show "$LOOP_IMG" 2>/dev/null) || [ -z "$LOOP_DEV" ]; then
		LOOP_DEV=
		LOOP_SKIP="losetup -f --show failed (no free loop device?)"
		return 0
	fi
	mkdir -p "$LOOP_ROOT/mnt"
	if ! mount "$LOOP_DEV" "$LOOP_ROOT/mnt" 2>/dev/null; then
		LOOP_SKIP="cannot mount $LOOP_DEV"
		return 0
	fi
	LOOP_MNT="$LOOP_ROOT/mnt"
}

loopfs_remove() {
	if [ -n "${LOOP_MNT:-}" ] && mountpoint -q "$LOOP_MNT"; then
		umount "$LOOP_MNT" || umount -l "$LOOP_MNT"
	fi
	[ -n "${LOOP_DEV:-}" ] && losetup -d "$LOOP_DEV"
	[ -n "${LOOP_ROOT:-}" ] && rm -rf "$LOOP_ROOT"
	return 0
}

# disk_dir: sets dir to a new empty directory under /var/tmp (removed in
# teardown), on a filesystem with a block device under it; skips elsewhere.
disk_dir() {
	local base=${DBIO_DISK_TMPDIR:-/var/tmp} major
	dir=$(mktemp -d "$base/dbio-env.XXXXXX") || skip "cannot make a directory in $base"
	extra_dirs+=("$dir")
	major=$("$PYTHON" -c 'import os, sys; print(os.major(os.stat(sys.argv[1]).st_dev))' "$dir")
	[ "$major" -ne 0 ] || skip "$base is not on a block device (set DBIO_DISK_TMPDIR)"
}

# schema_valid RESULT: RESULT is valid against docs/result.schema.json
# (python3's jsonschema >= 4); prints each error.
schema_valid() {
	python3 - "$BATS_TEST_DIRNAME/../../docs/result.schema.json" "$1" <<'EOF'
import json, sys, jsonschema
V = jsonschema.Draft202012Validator
errors = list(V(json.load(open(sys.argv[1]))).iter_errors(json.load(open(sys.argv[2]))))
for e in errors:
    print("/%s: %s" % ("/".join(map(str, e.absolute_path)), e.message[:300]))
sys.exit(1 if errors else 0)
EOF
}
