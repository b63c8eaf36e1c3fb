#!/usr/bin/env bats
# dbio crash and PostgreSQL (issue 28): the power-cut layer serves a
# server run as the user postgres (allow_other, the kernel checking access
# by the owners the layer keeps, chown), reachable only where dbio gives a
# path to it; a symbolic link planted in the layer's backing directory is
# never followed. dbio crash --workload=postgres: each crash state replayed
# by a server started on it, PostgreSQL's defaults losing nothing,
# fsync=off losing (and nothing with DBIO_POWERCUT_KEEP=all), a state the
# server cannot start on (DBIO_POWERCUT_KEEP=none) counted as not opened,
# nothing left after the run or after a SIGKILL and the next run.

load helpers

setup() {
	dbio_setup
	# A directory the user postgres can reach, for the bind mount a
	# writer makes (as dbio's postgres workload gives the server its
	# data directory).
	DIR=$(mktemp -d /var/tmp/dbio-pgcut.XXXXXX)
	extra_dirs+=("$DIR")
	chmod 755 "$DIR"
}

teardown() { dbio_teardown; }

need_initdb() {
	id postgres >/dev/null 2>&1 || skip "no user postgres: install postgresql-15"
	INITDB=$(compgen -G "/usr/lib/postgresql/*/bin/initdb" | tail -1)
	[ -n "$INITDB" ] || skip "no /usr/lib/postgresql/*/bin/initdb: install postgresql-15"
}

# layer_sh SCRIPT: run SCRIPT (sh) as dbio crash's writer, in the layer's
# mount; its output into $scratch/out.
layer_sh() {
	printf '%s\n' "$1" >"$scratch/writer.sh"
	run -0 "$DBIO" crash --exec "sh $scratch/writer.sh >$scratch/out 2>&1" "$target"
	[ "$output" = "crash states checked: 0, with losses: 0, acknowledged lost: max 0, total 0" ]
	is_empty_dir "$target"
}

@test "crash_postgres: initdb as the user postgres on the layer through a bind mount, its files its own; the mount's path is closed to it" {
	need_powercut
	need_initdb
	layer_sh "
runuser -u postgres -- ls . >/dev/null 2>&1 && echo reached || echo closed
mkdir data && chown postgres:postgres data && mkdir $DIR/data && mount --bind data $DIR/data || exit 1
runuser -u postgres -- $INITDB -D $DIR/data --auth=trust --locale=C -U postgres >$scratch/initdb.log 2>&1; echo initdb \$?
umount $DIR/data
stat -c '%U %G %a' data data/PG_VERSION data/base ../live/data/global/pg_control"
	[ "$(cat "$scratch/out")" = "closed
initdb 0
postgres postgres 700
postgres postgres 600
postgres postgres 700
postgres postgres 600" ]
}

@test "crash_postgres: a symbolic link planted in the layer's backing directory is never followed, none can be made through the mount" {
	need_powercut
	victim="$scratch/victim"
	echo secret >"$victim"
	chmod 600 "$victim"
	layer_sh "
ln -s $victim ../live/link
$PYTHON -c 'import os; os.chmod(\"link\", 0o666, follow_symlinks=False)' 2>/dev/null && echo chmod-link || echo no-chmod-link
chmod 666 link 2>/dev/null && echo chmod || echo no-chmod
chown -h nobody link && echo chown-h
chown nobody link 2>/dev/null && echo chown || echo no-chown
cat link 2>/dev/null && echo read || echo no-read
(echo x >link) 2>/dev/null && echo wrote || echo no-write
ln -s $victim mine 2>/dev/null && echo symlink || echo no-symlink
mknod fifo p 2>/dev/null && echo mknod || echo no-mknod
ln ../live/link hard 2>/dev/null && echo link || echo no-link
stat -c '%U' ../live/link"
	[ "$(cat "$scratch/out")" = "no-chmod-link
no-chmod
chown-h
no-chown
no-read
no-write
no-symlink
no-mknod
no-link
nobody" ]
	[ "$(stat -c '%U %a' "$victim")" = "root 600" ]
	[ "$(cat "$victim")" = secret ]
}

need_pg_crash() {
	need_powercut
	need_initdb
	need_built workload=postgres
}

# pg_crash ARG...: dbio crash --workload=postgres in $DIR with ARG..., its
# result in $result; nothing of it left in $DIR, no server of it running.
pg_crash() {
	run -0 "$DBIO" crash --workload=postgres --directory="$DIR" --output "$result" "$@"
	is_empty_dir "$DIR"
	no_server
}

@test "crash_postgres: PostgreSQL's defaults lose no acknowledged commit, each crash state replayed by a server started on it" {
	need_pg_crash
	pg_crash --rows=20 --cuts 5 --acks 2
	json_is "$result" "$R0.durability.setting=postgres fsync=on synchronous_commit=on full_page_writes=on wal_sync_method=fdatasync"
	json_is "$result" "$R0.durability.states=7"
	json_is "$result" "$R0.durability.at_durability_points=5"
	json_is "$result" "$R0.durability.after_acknowledgements=2"
	json_is "$result" "$R0.durability.states_with_losses=0"
	json_is "$result" "$R0.durability.not_opened=0"
	json_is "$result" "$R0.durability.acknowledged=20"
}

@test "crash_postgres: fsync=off loses acknowledged commits in every crash state; with the layer keeping everything, none" {
	need_pg_crash
	pg_crash --rows=20 --cuts 5 --acks 3 --pg_fsync=off
	json_is "$result" "$R0.durability.at_durability_points=0"
	json_is "$result" "$R0.durability.states=3"
	json_is "$result" "$R0.durability.states_with_losses=3"
	json_is "$result" "$R0.durability.not_opened=0"
	json_is "$result" "$R0.durability.first_lost.why=missing"
	DBIO_POWERCUT_KEEP=all pg_crash --rows=20 --cuts 5 --acks 3 --pg_fsync=off
	json_is "$result" "$R0.durability.states=3"
	json_is "$result" "$R0.durability.states_with_losses=0"
}

@test "crash_postgres: a crash state the server cannot start on counts as one that did not open, everything in it lost" {
	need_pg_crash
	DBIO_POWERCUT_KEEP=none pg_crash --rows=5 --cuts 0 --acks 2
	json_is "$result" "$R0.durability.states=2"
	json_is "$result" "$R0.durability.not_opened=2"
	json_is "$result" "$R0.durability.states_with_losses=2"
}

@test "crash_postgres: a server of the user's (pg_conninfo) is refused on the layer, naming the key" {
	need_pg_crash
	run -2 "$DBIO" crash --workload=postgres --directory="$DIR" --rows=5 --pg_conninfo=host=/tmp
	[[ "$output" == *"key 'pg_conninfo': dbio crash runs dbio's own cluster on the power-cut layer, not a server of yours: drop pg_conninfo"* ]]
	is_empty_dir "$DIR"
}

@test "crash_postgres: a symlink planted at the cluster's path beside the layer is not followed; the layer is undone" {
	need_pg_crash
	mkdir "$scratch/elsewhere"
	chmod 755 "$scratch/elsewhere"
	echo keep >"$scratch/elsewhere/file"
	# exec keeps the shell's pid, so the link has dbio's own cluster name.
	run -2 --separate-stderr bash -c 'ln -s "$1" "$2/dbio.postgres-$$" && exec "$3" crash --workload=postgres --directory="$2" --rows=5' \
		_ "$scratch/elsewhere" "$DIR" "$DBIO"
	[[ "${stderr_lines[-1]}" == "dbio: $DIR/dbio.postgres-"*": named like dbio's cluster but not one dbio made (no mark, or not a directory): refusing to touch it; remove it by hand" ]]
	[ "$(ls -A "$scratch/elsewhere")" = file ]
	[ "$(cat "$scratch/elsewhere/file")" = keep ]
	[ "$(stat -c %U "$scratch/elsewhere")" = root ]
	rm "$DIR"/dbio.postgres-*
	is_empty_dir "$DIR"
}

# no_server: no process of the user postgres works in $DIR.
no_server() {
	! pgrep -u postgres -f "$DIR/" >/dev/null
}

# checked_once: a server on a crash state has accepted connections.
checked_once() {
	grep -qs "database system is ready" "$DIR"/dbio.postgres-*/check/server.log
}

@test "crash_postgres: dbio SIGKILLed mid-run leaves no server; the next run removes its cluster and its layer" {
	need_pg_crash
	"$DBIO" crash --workload=postgres --directory="$DIR" --rows=1000 --cuts 100 --acks 0 >/dev/null 2>&1 &
	bg_pid=$!
	wait_until checked_once
	kill -KILL "$bg_pid"
	wait "$bg_pid" || true
	bg_pid=
	# Its servers die with it (PR_SET_PDEATHSIG: SIGQUIT), its binds
	# with its mount namespace.
	wait_until no_server
	[ -n "$(ls -A "$DIR")" ]
	pg_crash --rows=5 --cuts 1 --acks 0
	json_is "$result" "$R0.durability.states=1"
}

@test "crash_postgres: a fault is refused for a postgres job before anything runs, saying why" {
	need_pg_crash
	run -2 --separate-stderr "$DBIO" crash --workload=postgres --directory="$DIR" --rows=5 --fault=eio-fsync@8
	[ "$stderr" = "dbio: crash: command line: key 'crash_fault': a fault (--fault, crash_fault=) is checked on workload=kv only for now: a postgres job's fsyncs are counted from initdb's, so the N-th would hit initdb; drop the fault, or give a kv job (job 'job')" ]
	is_empty_dir "$DIR"
}
