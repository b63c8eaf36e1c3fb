#!/usr/bin/env bats
# Signals at any moment of a run: SIGINT and SIGTERM at random moments (the
# layout, the threads' preparation, the measured phase, the end) always
# leave a valid JSON result marked partial and no scratch file; SIGKILL
# leaves the files, which the next run in that directory recognises as
# dbio's (the mark RUN_MARK_LIVE) and removes, leaving a foreign file alone.

load helpers

# A job long enough never to end by itself, with a layout to interrupt
# too (randrw fills its file before measuring).
LONG=(--rw=randrw --size=16m --time_based --runtime=60s)

# trials SIGNAL STATUS: 20 runs, each sent SIGNAL at a random moment after
# its handlers are installed; each must exit STATUS with a valid JSON
# marked partial and leave nothing.
trials() {
	local i sig=$1 want=$2 rc valid=0 left=0 statuses=0
	for ((i = 0; i < 20; i++)); do
		# err too: a line left from the trial before would let the
		# signal go before this dbio has even started
		rm -f "$result" "$scratch/err"
		"$DBIO" run --directory="$target" "${LONG[@]}" --output "$result" >"$scratch/out" 2>"$scratch/err" &
		bg_pid=$!
		# The handlers are installed before this line is printed.
		wait_for_text "$scratch/err" "dbio: running job"
		# Not to order events: to land the signal at a random moment
		# (0 to 400 ms covers the layout and the measured phase here).
		sleep "0.$(printf '%03d' $((RANDOM % 400)))"
		kill "-$sig" "$bg_pid"
		rc=0
		wait "$bg_pid" || rc=$?
		bg_pid=
		[ "$rc" -eq "$want" ] && statuses=$((statuses + 1))
		if "$PYTHON" -m json.tool "$result" >/dev/null 2>&1 &&
			json_is "$result" partial=true "error=interrupted by SIG$sig" >/dev/null; then
			valid=$((valid + 1))
		else
			echo "trial $i (SIG$sig): no valid partial result; stderr:" >&2
			cat "$scratch/err" >&2
		fi
		if [ -n "$(ls -A "$target")" ] || [ "$(ls -A "$scratch" | tr '\n' ' ')" != "err out result.json target " ]; then
			left=$((left + 1))
			echo "trial $i (SIG$sig): left behind: $(ls -A "$target" "$scratch")" >&2
		fi
	done
	echo "20 trials: $statuses exit statuses right, $valid partial JSONs valid, $left with files left" >&3
	[ "$statuses" -eq 20 ]
	[ "$valid" -eq 20 ]
	[ "$left" -eq 0 ]
}

@test "SIGTERM at random moments, 20 trials: each a valid JSON marked partial, exit 143, nothing left" {
	trials TERM 143
}

# SIGINT as a shell's background job has it ignored until dbio's handler
# is installed: the trials wait for "running job", printed after that.
@test "SIGINT at random moments, 20 trials: each a valid JSON marked partial, exit 130, nothing left" {
	trials INT 130
}

# killed_run ARG...: a long run in $target with ARG..., killed with SIGKILL
# once it measures.
killed_run() {
	"$DBIO" run --directory="$target" "${LONG[@]}" "$@" --output "$result" --progress=line \
		>"$scratch/out" 2>"$scratch/err" 3>&- &
	bg_pid=$!
	wait_for_text "$scratch/err" " ops/s, "
	kill -KILL "$bg_pid"
	wait "$bg_pid" || true
	bg_pid=
}

@test "SIGKILL mid-run: the next run removes the marked leftovers, says so, and leaves a foreign file alone" {
	killed_run --numjobs=2
	run ls -A "$target"
	[ "$output" = "dbio.job.0.0"$'\n'"dbio.job.1.0" ]
	echo "precious" >"$target/precious"
	dbio_ok --directory="$target" --rw=write --size=1m --force
	grep -qxF "dbio: warning: $target/dbio.job.0.0: removed: left by a run of dbio that did not finish" <<<"$stderr"
	grep -qxF "dbio: warning: $target/dbio.job.1.0: removed: left by a run of dbio that did not finish" <<<"$stderr"
	json_is "$result" partial=false "$R0.ops.write.count=256"
	run ls -A "$target"
	[ "$output" = precious ]
	[ "$(cat "$target/precious")" = precious ]
}

@test "a file kept with --keep is the user's: the next run refuses it instead of removing it" {
	dbio_ok --directory="$target" --rw=write --size=1m --keep
	run -2 --separate-stderr "$DBIO" run --directory="$target" --rw=write --size=1m
	[ "$stderr" = "dbio: $target/dbio.job.0.0: already exists: left by an earlier run? remove it and run again" ]
	[ "$(stat -c %s "$target/dbio.job.0.0")" -eq 1048576 ]
	rm "$target/dbio.job.0.0"
}

@test "a leftover name that is a symlink, or a hard link, is not taken for dbio's: refused, its target untouched" {
	killed_run
	# The marked file gets a second name: a hard link elsewhere.
	ln "$target/dbio.job.0.0" "$scratch/elsewhere"
	run -2 --separate-stderr "$DBIO" run --directory="$target" --rw=write --size=1m
	[ "$stderr" = "dbio: $target/dbio.job.0.0: already exists: left by an earlier run? remove it and run again" ]
	[ -e "$target/dbio.job.0.0" ]
	rm "$target/dbio.job.0.0"
	ln -s "$scratch/elsewhere" "$target/dbio.job.0.0"
	run -2 --separate-stderr "$DBIO" run --directory="$target" --rw=write --size=1m
	[ "$stderr" = "dbio: $target/dbio.job.0.0: already exists: left by an earlier run? remove it and run again" ]
	[ -L "$target/dbio.job.0.0" ]
	[ "$(stat -c %s "$scratch/elsewhere")" -eq 16777216 ]
}
