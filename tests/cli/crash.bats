#!/usr/bin/env bats
# dbio crash: the power-cut layer (src/powercut/) and its driver
# (src/cmd/crash.c), with the three toy writers of tests/cli/crash_writer.py.
# Each toy's figures are exact: the writer waits after each acknowledgement,
# so every cut is at a known point. The test hook DBIO_POWERCUT_KEEP
# (docs/errors.md) shows the checks can fail: with DBIO_POWERCUT_KEEP=all in
# the environment of bats (a cut keeps everything) the unsafe toys' tests
# fail, with =none (a cut keeps nothing) the safe toy's does.

load helpers

WRITER="$BATS_TEST_DIRNAME/crash_writer.py"

# toy MODE FIRST LAST SUMMARY: run the toy writer MODE for 10 records on the
# layer; its first and last state lines and its summary must be these, and
# the layer's directory gone afterwards.
toy() {
	need_powercut
	run -0 "$DBIO" crash --exec "$PYTHON $WRITER $1 10" "$target"
	[ "${lines[0]}" = "$2" ]
	[ "${lines[9]}" = "$3" ]
	[ "${lines[10]}" = "$4" ]
	is_empty_dir "$target"
}

@test "crash: a writer that acknowledges before it fsyncs loses its last record in every state" {
	toy ack-then-sync "state 1: acknowledged 1, lost 1" "state 10: acknowledged 10, lost 1" \
		"crash states checked: 10, with losses: 10, acknowledged lost: max 1, total 10"
}

@test "crash: a writer that fsyncs, then acknowledges, loses nothing in any state" {
	toy sync-then-ack "state 1: acknowledged 1, lost 0" "state 10: acknowledged 10, lost 0" \
		"crash states checked: 10, with losses: 0, acknowledged lost: max 0, total 0"
}

@test "crash: a writer that renames without fsyncing the directory loses every renamed file" {
	toy rename-no-dirsync "state 1: acknowledged 1, lost 1" "state 10: acknowledged 10, lost 10" \
		"crash states checked: 10, with losses: 10, acknowledged lost: max 10, total 55"
}

@test "crash: --cuts 3 checks the first three acknowledgements only" {
	need_powercut
	run -0 "$DBIO" crash --cuts 3 --exec "$PYTHON $WRITER ack-then-sync 10" "$target"
	[ "${#lines[@]}" -eq 4 ]
	[ "${lines[3]}" = "crash states checked: 3, with losses: 3, acknowledged lost: max 1, total 3" ]
}

@test "crash: --cuts 0 is refused" {
	run -2 "$DBIO" crash --cuts 0 --exec true "$target"
	[ "$output" = "dbio: crash: --cuts '0': expected a count from 1 to 1000000" ]
}

@test "crash: an acknowledgement that is not FILE RECORD fails the run and leaves nothing" {
	need_powercut
	run -1 --separate-stderr "$DBIO" crash --exec "echo oops; read x" "$target"
	[ "$stderr" = "dbio: crash: acknowledgement 1: 'oops': expected \"FILE RECORD\"" ]
	is_empty_dir "$target"
}

@test "crash: the mount is private to dbio, and a SIGKILLed run's layer goes with crash --cleanup" {
	need_powercut
	echo mine >"$target/mine"
	"$DBIO" crash --exec "touch started; exec sleep 1000" "$target" >"$scratch/stdout" 2>"$scratch/stderr" &
	bg_pid=$!
	layer="$target/.dbio-powercut.$bg_pid"
	wait_for "$layer/live/started"
	run -1 grep -F " $layer/mnt " /proc/self/mountinfo
	[ "$(stat -c %a "$layer")" = 700 ]
	kill -KILL "$bg_pid"
	wait "$bg_pid" || true
	bg_pid=
	[ -d "$layer" ]
	run -0 "$DBIO" crash --cleanup "$target"
	[ "$output" = "removed 1 power-cut layer of a killed dbio in $target" ]
	[ ! -e "$layer" ]
	[ "$(cat "$target/mine")" = mine ]
	[ "$(ls -A "$target")" = mine ]
}

@test "crash: a directory that only looks like a layer (no dbio marker) is left alone" {
	need_powercut
	mkdir "$target/.dbio-powercut.999999999"
	echo keep >"$target/.dbio-powercut.999999999/data"
	run -0 "$DBIO" crash --cleanup "$target"
	[ "$output" = "removed 0 power-cut layers of a killed dbio in $target" ]
	[ "$(cat "$target/.dbio-powercut.999999999/data")" = keep ]
}

@test "crash: SIGTERM stops a run with 143, the writer killed and the layer's directory gone" {
	need_powercut
	"$DBIO" crash --exec "echo f r; read x; exec sleep 4321" "$target" >"$scratch/stdout" 2>"$scratch/stderr" &
	bg_pid=$!
	wait_for_text "$scratch/stdout" "state 1: acknowledged 1, lost 1"
	kill -TERM "$bg_pid"
	finish_running 143
	is_empty_dir "$target"
	run -1 pgrep -f "^sleep 4321$"
}

@test "crash: --cleanup leaves a look-alike with dbio's marker text alone when another user made it, root's file in it too" {
	need_powercut
	local fake=$target/.dbio-powercut.999999998
	mkdir -p "$fake/live"
	printf 'dbio-powercut 999999998\n' >"$fake/marker"
	echo precious >"$fake/live/rootfile"
	chmod 600 "$fake/live/rootfile"
	chown 65534:65534 "$fake" "$fake/live" "$fake/marker"
	run -0 "$DBIO" crash --cleanup "$target"
	[ "$output" = "removed 0 power-cut layers of a killed dbio in $target" ]
	[ "$(cat "$fake/live/rootfile")" = precious ]
	# root's, but not made as dbio makes its layer (0755, not 0700): left too
	chown -R 0:0 "$fake"
	run -0 "$DBIO" crash --cleanup "$target"
	[ "$output" = "removed 0 power-cut layers of a killed dbio in $target" ]
	[ "$(cat "$fake/live/rootfile")" = precious ]
}

@test "crash: DIR through another user's symlink, last or in the middle, is refused before anything is made there" {
	need_powercut
	mkdir -m 700 "$scratch/victim" "$scratch/victim/sub"
	mkdir "$scratch/u"
	chown 65534:65534 "$scratch/u"
	ln -s "$scratch/victim" "$scratch/u/link"
	chown -h 65534:65534 "$scratch/u/link"
	run -2 --separate-stderr "$DBIO" crash --exec true "$scratch/u/link"
	[ "$stderr" = "dbio: crash: $scratch/u/link: a symlink that belongs to user 65534: refusing to follow it (give the path it points to)" ]
	run -2 --separate-stderr "$DBIO" crash --exec true "$scratch/u/link/sub"
	[ "$stderr" = "dbio: crash: $scratch/u/link/sub: component '$scratch/u/link' is a symlink that belongs to user 65534: refusing to follow it (give the path it points to)" ]
	run -2 --separate-stderr "$DBIO" crash --cleanup "$scratch/u/link"
	[ "$(ls -A "$scratch/victim")" = sub ]
	is_empty_dir "$scratch/victim/sub"
}

@test "crash: DIR renamed while the writer runs: the layer is still unmounted and removed (B3)" {
	need_powercut
	run -0 "$DBIO" crash --exec "echo f r; read x; mv '$target' '$scratch/moved'; echo f s; read x" "$target"
	[ "${lines[2]}" = "crash states checked: 2, with losses: 2, acknowledged lost: max 2, total 3" ]
	is_empty_dir "$scratch/moved"
}

@test "crash: what the writer started goes with it when dbio is SIGKILLed (the writer is pid 1 of its own pid namespace, B4)" {
	need_powercut
	"$DBIO" crash --exec "sleep 4322 & touch started; exec sleep 1001" "$target" >"$scratch/stdout" 2>"$scratch/stderr" &
	bg_pid=$!
	wait_for "$target/.dbio-powercut.$bg_pid/live/started"
	kill -KILL "$bg_pid"
	wait "$bg_pid" || true
	bg_pid=
	no_sleeper() { ! pgrep -f "^sleep 4322$" >/dev/null; }
	wait_until no_sleeper
	run -0 "$DBIO" crash --cleanup "$target"
	is_empty_dir "$target"
}
