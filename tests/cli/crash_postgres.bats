#!/usr/bin/env bats
# dbio crash and PostgreSQL (issue 28): the power-cut layer serves a
# server run as the user postgres (allow_other, the kernel checking access
# by the owners the layer keeps, chown), reachable only where dbio gives a
# path to it; a symbolic link planted in the layer's backing directory is
# never followed.

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
	! pgrep -f "$DIR/" >/dev/null
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
