#!/usr/bin/env bats
# workload=postgres against a real PostgreSQL server (Debian's
# postgresql-15): the phases' counts read back from the server, the
# transactions counted against pgbench_history's rows, the private cluster
# gone afterwards (no server process, an empty target) also after SIGINT
# and SIGKILL, a second dbio refused, PostgreSQL's own message for a bad
# setting, a planted symlink at the cluster's path left alone, and a
# leftover's pid file believed only as far as /proc proves it.

load helpers

setup() {
	dbio_setup
	need_built workload=postgres
	compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || skip "no /usr/lib/postgresql/*/bin/initdb: install postgresql-15"
	# The server runs as the user postgres, which must reach the target:
	# mktemp's 0700 directories would stop it, so a 0755 one in /var/tmp.
	DIR=$(mktemp -d /var/tmp/dbio-pg.XXXXXX)
	extra_dirs+=("$DIR")
	chmod 755 "$DIR"
	on_teardown pkill -QUIT -f "$DIR/dbio.postgres-"
}

teardown() { dbio_teardown; }

# start_importing ARG...: dbio run ARG... in the background ($bg_pid), back
# once the progress line shows rows going in (start_running waits for a
# line of the file workloads).
start_importing() {
	"$DBIO" run "$@" --progress=line --output "$result" >"$scratch/stdout" 2>"$scratch/stderr" 3>&- &
	bg_pid=$!
	wait_for_text "$scratch/stderr" " ops/s"
}

# losetup_detach_under PREFIX: detach every loop device of a file under
# PREFIX, unmounting what is mounted from it first (teardown).
losetup_detach_under() {
	local dev mnt
	losetup -a 2>/dev/null | grep -F "($1" | while IFS=: read -r dev _; do
		grep "^$dev " /proc/mounts | while read -r _ mnt _; do umount -l "$mnt"; done
		losetup -d "$dev"
	done
	return 0
}

# committed_some CLUSTER: the transaction phase has committed some: rows in
# pgbench_history, asked of the server through its socket in CLUSTER.
committed_some() {
	local n bin
	bin=$(dirname "$(compgen -G "/usr/lib/postgresql/*/bin/psql" | sort -V | tail -1)")
	n=$("$bin/psql" -X -At -h "$1" -U postgres -d postgres -c "SELECT count(*) FROM pgbench_history" 2>/dev/null) || return 1
	[ "${n:-0}" -gt 0 ]
}

# no_server: no process runs a server whose socket is under $DIR.
no_server() {
	run pgrep -af "$DIR/dbio.postgres-"
	[ "$status" -eq 1 ] || {
		echo "still running: $output" >&2
		return 1
	}
}

@test "postgres: import, index, analyze, checkpoint: rows and indexes as the server counts them, then nothing left" {
	dbio_ok --workload=postgres --directory="$DIR" --rows=5000 --batch=1000 --indexes=3
	# The text view shows the phases and the server's figures.
	[[ "$output" == *"phase import  5000 ops in "* ]]
	[[ "$output" == *"wal_bytes "* ]]
	json_is "$result" "$R0.phases.0.name=schema" "$R0.phases.1.name=import" "$R0.phases.2.name=index" \
		"$R0.phases.3.name=analyze" "$R0.phases.4.name=checkpoint" "$R0.phases.0.ops=1" \
		"$R0.phases.1.ops=5000" "$R0.phases.1.figures.rows=5000.0" "$R0.phases.2.ops=4" \
		"$R0.phases.2.figures.indexes=4.0" "$R0.ops.batch.count=5" "$R0.ops.index.count=4" \
		"$R0.database.engine=postgres"
	# The import wrote WAL and grew the database.
	[ "$(jpy "$result" 'run["phases"][1]["figures"]["wal_bytes"] > 5000 * 100')" = true ]
	[ "$(jpy "$result" 'run["phases"][1]["figures"]["db_bytes_after"] > run["phases"][1]["figures"]["db_bytes_before"]')" = true ]
	is_empty_dir "$DIR"
	no_server
}

@test "postgres: the server's CPU per phase and for the run (pg_user, pg_sys) beside dbio's own, in compare by default" {
	dbio_ok --workload=postgres --directory="$DIR" --rows=20000 --batch=5000 --indexes=2 --repeat=2
	# The run's pg_user is the sum of its phases' server_user_s.
	cd "$scratch"
	run --separate-stderr "$DBIO" compare "$result" "$result" --format csv
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	printf '%s\n' "$output" >cmp.csv
	"$PYTHON" - "$result" cmp.csv <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[1]))
runs = r["jobs"][0]["runs"]
rows = {(row["op"], row["metric"]): row for row in csv.DictReader(open(sys.argv[2]))}
for metric, key in (("pg_user", "server_user_s"), ("pg_sys", "server_sys_s")):
    want = sum(sum(p["figures"][key] for p in run["phases"]) for run in runs) / len(runs)
    got = float(rows[("all", metric)]["a_value"])
    assert abs(got - want) < 1e-6, (metric, got, want)
    imp = sum(run["phases"][1]["figures"][key] for run in runs) / len(runs)
    assert abs(float(rows[("phase import", metric)]["a_value"]) - imp) < 1e-6
# the server worked during the import: more than nothing
assert float(rows[("phase import", "pg_user")]["a_value"]) > 0
PY
	# The text: rows of both, and a line saying whose CPU is whose.
	run --separate-stderr "$DBIO" compare "$result" "$result"
	grep -Eq '^ *pg_user' <<<"$output" || grep -Eq ' pg_user ' <<<"$output"
	grep -qx "user, sys: dbio's own CPU, the client's; pg_user, pg_sys: the PostgreSQL server's processes'" <<<"$output"
}

@test "postgres: transactions from 3 clients: counted == pgbench_history's rows == commits" {
	dbio_ok --workload=postgres --directory="$DIR" --rows=1000 --indexes=0 --transactions=50 --clients=3 \
		--synchronous_commit=off
	json_is "$result" "$R0.phases.5.name=transactions" "$R0.phases.5.ops=150" "$R0.ops.transaction.count=150" \
		"$R0.ops.commit.count=150" "$R0.phases.5.figures.history_rows=150.0" "$R0.phases.1.ops=101011"
	[ "$(jpy "$result" 'run["ops"]["commit"]["lat_ns"]["p99"] > 0')" = true ]
	is_empty_dir "$DIR"
	no_server
}

@test "postgres: a setting PostgreSQL refuses: its own message, exit 2, nothing left" {
	run -2 --separate-stderr "$DBIO" run --workload=postgres --directory="$DIR" --rows=10 --wal_level=loud
	[ "${stderr_lines[-1]}" = "dbio: command line: key 'wal_level': PostgreSQL refused 'loud': invalid value for parameter \"wal_level\": \"loud\" (job 'job')" ]
	run -2 --separate-stderr "$DBIO" run --workload=postgres --directory="$DIR" --rows=10 --shared_buffers=1kB
	[ "${stderr_lines[-1]}" = "dbio: command line: key 'shared_buffers': PostgreSQL refused '1kB': 0 8kB is outside the valid range for parameter \"shared_buffers\" (16 .. 1073741823) (job 'job')" ]
	is_empty_dir "$DIR"
	no_server
}

@test "postgres: a bad value of every setting key: exit 2 and PostgreSQL's one line naming it, not the server's log" {
	# key value PostgreSQL's line (after "PostgreSQL refused 'value': ")
	while IFS='|' read -r key value why; do
		run -2 --separate-stderr "$DBIO" run --workload=postgres --directory="$DIR" --rows=10 "--$key=$value"
		[ "${stderr_lines[-1]}" = "dbio: command line: key '$key': PostgreSQL refused '$value': $why (job 'job')" ] || {
			echo "$key=$value: $stderr" >&2
			false
		}
	done <<'EOF_'
max_wal_size|2|"max_wal_size" must be at least twice "wal_segment_size"
max_wal_size|1|1 MB is outside the valid range for parameter "max_wal_size" (2 .. 2147483647)
shared_buffers|12XB|invalid value for parameter "shared_buffers": "12XB"
wal_level|loud|invalid value for parameter "wal_level": "loud"
pg_fsync|maybe|parameter "fsync" requires a Boolean value
synchronous_commit|x|invalid value for parameter "synchronous_commit": "x"
full_page_writes|x|parameter "full_page_writes" requires a Boolean value
checkpoint_timeout|1s|1 s is outside the valid range for parameter "checkpoint_timeout" (30 .. 86400)
wal_sync_method|fsync_writethrough|invalid value for parameter "wal_sync_method": "fsync_writethrough"
maintenance_work_mem|1kB|1 kB is outside the valid range for parameter "maintenance_work_mem" (1024 .. 2147483647)
EOF_
	is_empty_dir "$DIR"
	no_server
}

@test "postgres: wal_level=minimal, one of the values docs/postgres.md lists, starts the server (no WAL senders)" {
	dbio_ok --workload=postgres --directory="$DIR" --rows=100 --indexes=0 --wal_level=minimal
	json_is "$result" "$R0.phases.1.figures.rows=100.0"
	is_empty_dir "$DIR"
	no_server
}

@test "postgres: a target the user postgres cannot reach: initdb's reason and the fix, nothing left" {
	[ "$(id -u)" -eq 0 ] || skip "needs root: as another user the server runs as that user"
	chmod 700 "$DIR"
	run --separate-stderr "$DBIO" run --workload=postgres --directory="$DIR" --rows=10
	[ "$status" -eq 1 ]
	[[ "${stderr_lines[-1]}" == "dbio: $DIR/dbio.postgres-"*": initdb failed (the user postgres must be able to reach the target: every directory above it needs x for others): "*"Permission denied"* ]]
	is_empty_dir "$DIR"
	no_server
}

@test "postgres: a value that is not a PostgreSQL value is refused before anything runs" {
	run -2 --separate-stderr "$DBIO" run --workload=postgres --directory="$DIR" "--shared_buffers=1GB -c x=y"
	[ "$stderr" = "dbio: command line: key 'shared_buffers': '1GB -c x=y': expected a PostgreSQL value of letters, digits, '_' and '.' (such as 128MB, on, 5min) (job 'job')" ]
	run -2 --separate-stderr "$DBIO" run --workload=postgres --directory="$DIR" --numjobs=2
	[ "$stderr" = "dbio: command line: key 'numjobs': 2: workload=postgres runs one server per job: give clients= for concurrent connections (job 'job')" ]
	is_empty_dir "$DIR"
}

@test "postgres: SIGINT during the import: exit 130, a partial result, no server, no data directory; a second dbio meanwhile is refused" {
	start_importing --workload=postgres --directory="$DIR" --rows=5000000 --batch=100000 --indexes=0
	run -2 --separate-stderr "$DBIO" run --workload=postgres --directory="$DIR" --rows=10
	[[ "${stderr_lines[-1]}" == "dbio: $DIR/dbio.postgres-$bg_pid: the cluster of a dbio still running (pid $bg_pid): refusing to run a second server in the same directory" ]]
	kill -INT "$bg_pid"
	finish_running 130
	json_is "$result" partial=true "$R0.phases.1.name=import"
	is_empty_dir "$DIR"
	no_server
}

@test "postgres: SIGTERM during the transactions: exit 143, the transactions so far counted, nothing left" {
	start_importing --workload=postgres --directory="$DIR" --rows=10 --indexes=0 --runtime=600s --clients=2
	wait_until committed_some "$DIR/dbio.postgres-$bg_pid"
	kill -TERM "$bg_pid"
	finish_running 143
	json_is "$result" partial=true "$R0.phases.5.name=transactions"
	[ "$(jpy "$result" 'run["phases"][5]["ops"] == run["ops"]["transaction"]["count"] > 0')" = true ]
	is_empty_dir "$DIR"
	no_server
}

@test "postgres: after a SIGKILL of dbio the server goes with it, and the next run removes the leftover cluster" {
	start_importing --workload=postgres --directory="$DIR" --rows=5000000 --batch=100000 --indexes=0
	pid=$bg_pid
	kill -KILL "$bg_pid"
	wait "$bg_pid" || true
	bg_pid=
	wait_until no_server
	[ -d "$DIR/dbio.postgres-$pid" ]
	dbio_ok --workload=postgres --directory="$DIR" --rows=100 --indexes=0
	json_is "$result" "$R0.phases.1.figures.rows=100.0"
	is_empty_dir "$DIR"
	no_server
}

@test "postgres: a symlink planted at the cluster's path is not followed, nor one named like a leftover" {
	mkdir "$scratch/elsewhere"
	chmod 755 "$scratch/elsewhere"
	echo keep >"$scratch/elsewhere/file"
	# exec keeps the shell's pid, so the link has dbio's own cluster name.
	run -2 --separate-stderr bash -c 'ln -s "$1" "$2/dbio.postgres-$$" && exec "$3" run --workload=postgres --directory="$2" --rows=10' \
		_ "$scratch/elsewhere" "$DIR" "$DBIO"
	[[ "${stderr_lines[-1]}" == "dbio: $DIR/dbio.postgres-"*": named like dbio's cluster but not one dbio made (no mark, or not a directory): refusing to touch it; remove it by hand" ]]
	[ "$(cat "$scratch/elsewhere/file")" = keep ]
	[ "$(ls -A "$scratch/elsewhere")" = file ]
	rm "$DIR"/dbio.postgres-*
	# A directory named like a leftover without dbio's mark is not removed either.
	mkdir "$DIR/dbio.postgres-999999999"
	run -2 --separate-stderr "$DBIO" run --workload=postgres --directory="$DIR" --rows=10
	[ "${stderr_lines[-1]}" = "dbio: $DIR/dbio.postgres-999999999: named like dbio's cluster but not one dbio made (no mark, or not a directory): refusing to touch it; remove it by hand" ]
	[ -d "$DIR/dbio.postgres-999999999" ]
	no_server
}

# plant_leftover NAME: a directory NAME in $DIR carrying dbio's mark, as a
# killed dbio's cluster, given to the user postgres; its data directory
# $DIR/NAME/data.
plant_leftover() {
	mkdir -p "$DIR/$1/data"
	chmod 700 "$DIR/$1" "$DIR/$1/data"
	"$PYTHON" -c 'import os, sys; os.setxattr(sys.argv[1], "trusted.dbio.kept", b"postgres")' "$DIR/$1"
	chown -R postgres: "$DIR/$1"
}

# answers SOCKETDIR: the server with its socket in SOCKETDIR answers a query.
answers() {
	[ "$("${PSQL[0]}" -X -q -At -h "$1" -U postgres -d postgres -c "SELECT 6 * 7")" = 42 ]
}

# ended PID: PID runs no more (no such process, or a zombie).
ended() {
	local state
	state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -z "$state" ] || [ "$state" = Z ]
}

@test "postgres: a leftover whose postmaster.pid names another cluster's server: that server is not signalled and still answers, the leftover goes, the warning says so" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run a server as the user postgres"
	user_server
	other=$(head -1 "$SRV/data/postmaster.pid")
	plant_leftover dbio.postgres-999999999
	# A crash's pid file whose pid is now another cluster's postmaster.
	cp "$SRV/data/postmaster.pid" "$DIR/dbio.postgres-999999999/data/postmaster.pid"
	dbio_ok --workload=postgres --directory="$DIR" --rows=10 --indexes=0
	kill -0 "$other"
	[ "$("${PSQL[@]}" -d keepme -c "SELECT x FROM t")" = 42 ]
	[[ "$stderr" == *"dbio: warning: $DIR/dbio.postgres-999999999: pid $other of its data/postmaster.pid is not its server (its working directory is not the cluster's data directory: another cluster's server): not signalled"* ]]
	is_empty_dir "$DIR"
	no_server
}

@test "postgres: a leftover with a live server whose pid file lies is kept and nothing signalled; with its true pid file that server is stopped and the leftover removed" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run a server as the user postgres"
	local bin left
	bin=$(dirname "$(compgen -G "/usr/lib/postgresql/*/bin/initdb" | sort -V | tail -1)")
	user_server
	other=$(head -1 "$SRV/data/postmaster.pid")
	left="$DIR/dbio.postgres-999999998"
	plant_leftover dbio.postgres-999999998
	rmdir "$left/data"
	runuser -u postgres -- "$bin/initdb" -D "$left/data" -U postgres --auth=trust >/dev/null
	runuser -u postgres -- "$bin/pg_ctl" -D "$left/data" -w -l "$left/log" \
		-o "-c listen_addresses= -c unix_socket_directories=$left" start >/dev/null
	mine=$(head -1 "$left/data/postmaster.pid")
	on_teardown kill -QUIT "$mine"
	cp "$left/data/postmaster.pid" "$scratch/true.pid"
	cp "$SRV/data/postmaster.pid" "$left/data/postmaster.pid"
	dbio_ok --workload=postgres --directory="$DIR" --rows=10 --indexes=0
	[[ "$stderr" == *"dbio: warning: $left: pid $other of its data/postmaster.pid is not its server (its working directory is not the cluster's data directory: another cluster's server): not signalled"* ]]
	[[ "$stderr" == *"dbio: warning: $left: a server still works in its data directory (pid "*"): not removed; stop it and remove the directory by hand"* ]]
	answers "$SRV"
	answers "$left"
	[ -d "$left/data" ]
	# Its own pid file back: proven its postmaster, stopped, removed.
	cp "$scratch/true.pid" "$left/data/postmaster.pid"
	dbio_ok --workload=postgres --directory="$DIR" --rows=10 --indexes=0
	[[ "$stderr" != *warning* ]]
	# Ended (dbio waited for that): gone, or a zombie its parent has yet to reap.
	ended "$mine"
	answers "$SRV"
	is_empty_dir "$DIR"
	no_server
}

# user_server: a server of the test's own, as a user would have one: a
# cluster in $SRV, its socket there; stopped in teardown.
user_server() {
	local bin
	bin=$(dirname "$(compgen -G "/usr/lib/postgresql/*/bin/initdb" | sort -V | tail -1)")
	SRV=$(mktemp -d /var/tmp/dbio-pgsrv.XXXXXX)
	extra_dirs+=("$SRV")
	chmod 755 "$SRV"
	chown postgres: "$SRV"
	runuser -u postgres -- "$bin/initdb" -D "$SRV/data" -U postgres --auth=trust >/dev/null
	runuser -u postgres -- "$bin/pg_ctl" -D "$SRV/data" -w -l "$SRV/log" \
		-o "-c listen_addresses= -c unix_socket_directories=$SRV" start >/dev/null
	on_teardown runuser -u postgres -- "$bin/pg_ctl" -D "$SRV/data" -m immediate stop
	PSQL=("$bin/psql" -X -q -At -h "$SRV" -U postgres)
	"${PSQL[@]}" -d postgres -c "CREATE DATABASE keepme"
	"${PSQL[@]}" -d keepme -c "CREATE TABLE t(x int); INSERT INTO t VALUES (42)"
}

@test "postgres: pg_conninfo= runs in a database of dbio's own on the user's server and drops only it" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run a server as the user postgres"
	user_server
	before=$("${PSQL[@]}" -d postgres -c "SELECT datname FROM pg_database ORDER BY 1")
	dbio_ok --workload=postgres --pg_conninfo="host=$SRV user=postgres dbname=postgres" --directory="$target" \
		--rows=2000 --indexes=1 --transactions=20 --clients=2
	json_is "$result" "$R0.phases.1.figures.rows=2000.0" "$R0.phases.2.figures.indexes=2.0" \
		"$R0.phases.5.figures.history_rows=40.0" "$R0.ops.transaction.count=40"
	# No CPU of a server that may be elsewhere.
	[ "$(jpy "$result" '"server_user_s" in run["phases"][1]["figures"]')" = false ]
	[ "$("${PSQL[@]}" -d postgres -c "SELECT datname FROM pg_database ORDER BY 1")" = "$before" ]
	[ "$("${PSQL[@]}" -d keepme -c "SELECT x FROM t")" = 42 ]
	is_empty_dir "$target"
}

@test "postgres: pg_conninfo=: the run after a SIGKILL drops the database the killed dbio left, and only names one that is not provably dbio's" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run a server as the user postgres"
	user_server
	# Named like dbio's (its pid above any pid_max), made by hand: not
	# dbio's to drop.
	"${PSQL[@]}" -d postgres -c "CREATE DATABASE dbio_9999999_abc"
	before=$("${PSQL[@]}" -d postgres -c "SELECT datname FROM pg_database ORDER BY 1")
	conninfo="host=$SRV user=postgres dbname=postgres"
	start_importing --workload=postgres --pg_conninfo="$conninfo" --directory="$target" --rows=5000000 \
		--batch=100000 --indexes=0
	pid=$bg_pid
	kill -KILL "$bg_pid"
	wait "$bg_pid" || true
	bg_pid=
	left=$("${PSQL[@]}" -d postgres -c "SELECT datname FROM pg_database WHERE datname LIKE 'dbio\\_${pid}\\_%'")
	[[ "$left" == "dbio_${pid}_"* ]]
	# Its comment not the token of the record: not provably dbio's, kept.
	read -r _ token <"$target/dbio.pgdb-$pid"
	"${PSQL[@]}" -d postgres -c "COMMENT ON DATABASE $left IS 'dbio forged'"
	dbio_ok --workload=postgres --pg_conninfo="$conninfo" --directory="$target" --rows=100 --indexes=0
	[ "$("${PSQL[@]}" -d postgres -c "SELECT count(*) FROM pg_database WHERE datname = '$left'")" = 1 ]
	[[ "$stderr" == *"dbio: warning: pg_conninfo: database $left: named like dbio's but not provably a killed dbio's (no record in $target with the token of its comment): left alone; if its dbio is gone, drop it with: DROP DATABASE $left WITH (FORCE)"* ]]
	# The comment dbio gave it back: dropped.
	"${PSQL[@]}" -d postgres -c "COMMENT ON DATABASE $left IS 'dbio $token'"
	dbio_ok --workload=postgres --pg_conninfo="$conninfo" --directory="$target" --rows=100 --indexes=0
	[ "$("${PSQL[@]}" -d postgres -c "SELECT datname FROM pg_database ORDER BY 1")" = "$before" ]
	[[ "$stderr" == *"dbio: warning: pg_conninfo: database $left: dropped, the database of a killed dbio (pid $pid) recorded in $target/dbio.pgdb-$pid"* ]]
	[[ "$stderr" == *"dbio: warning: pg_conninfo: database dbio_9999999_abc: named like dbio's but not provably a killed dbio's (no record in $target with the token of its comment): left alone; if its dbio is gone, drop it with: DROP DATABASE dbio_9999999_abc WITH (FORCE)"* ]]
	[ "$("${PSQL[@]}" -d keepme -c "SELECT x FROM t")" = 42 ]
	is_empty_dir "$target"
}

@test "postgres: pg_conninfo=: libpq's message for a bad string, and the server's settings are not dbio's to give" {
	run -2 --separate-stderr "$DBIO" run --workload=postgres --pg_conninfo="host" --directory="$target"
	[ "$stderr" = "dbio: command line: key 'pg_conninfo': missing \"=\" after \"host\" in connection info string (job 'job')" ]
	run -2 --separate-stderr "$DBIO" run --workload=postgres --pg_conninfo="host=/nonexistent" --wal_level=minimal --directory="$target"
	[ "$stderr" = "dbio: command line: key 'wal_level': not with pg_conninfo=: the server dbio connects to keeps its own settings (job 'job')" ]
	is_empty_dir "$target"
}

@test "postgres: dbio matrix runs S1's import on ext2, ext3 and xfs in one command, leaving no server, mount or loop device" {
	[ "$(id -u)" -eq 0 ] || skip "needs root (loop devices, mkfs, mount)"
	[ -c /dev/loop-control ] || skip "no /dev/loop-control: loop devices are not available"
	command -v mkfs.ext3 >/dev/null || skip "mkfs.ext2/mkfs.ext3 not installed (Debian package e2fsprogs)"
	command -v mkfs.xfs >/dev/null || skip "mkfs.xfs not installed (Debian package xfsprogs)"
	on_teardown losetup_detach_under "$DIR/"
	run --separate-stderr "$DBIO" matrix --workload=postgres --rows=20000 --indexes=2 --image "$DIR/img" \
		--image-size 512m --fs ext2 --fs ext3 --fs xfs --output "$result"
	[ "$status" -eq 0 ] || {
		echo "$stderr" >&2
		false
	}
	json_is "$result" matrix.completed=3 jobs.0.targets.0.fs_type=ext2 jobs.1.targets.0.fs_type=ext3 \
		jobs.2.targets.0.fs_type=xfs
	for j in 0 1 2; do
		json_is "$result" "jobs.$j.runs.0.phases.1.name=import" "jobs.$j.runs.0.phases.1.figures.rows=20000.0" \
			"jobs.$j.runs.0.phases.2.figures.indexes=3.0"
	done
	# The side-by-side table: each filesystem named A, B, C in its legend.
	[[ "$output" == *"A = ext2"*"B = ext3"*"C = xfs"* ]]
	no_server
	run losetup -j "$DIR/img"
	[ -z "$output" ]
}

@test "postgres: another user swapping a directory in for the cluster mid-run: it is left whole, named in a warning" {
	swap_target
	chown -R postgres:postgres "$target/precious"
	start_importing --workload=postgres --rows=400000 --name=pg --force --directory="$target"
	cluster=$(cd "$target" && ls -d dbio.postgres-*)
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		sh -c 'cd "$1" && mv "$2" moved && mv precious "$2"' sh "$target" "$cluster"
	wait "$bg_pid" || true
	bg_pid=
	precious_intact "$cluster"
	grep -qF "dbio: warning: $target/$cluster: not removed: the name is now a directory of uid $(id -u postgres) mode 0700, not the one dbio made (dbio emptied its own cluster, wherever it was moved): look at it and remove it by hand" "$scratch/stderr"
	[ -z "$(ls -A "$target/moved")" ]
}
