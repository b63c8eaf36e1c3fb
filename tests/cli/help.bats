#!/usr/bin/env bats
# dbio help fio-keys (src/cmd/help.c): fio's job keys and I/O engines as
# dbio takes them — every fio key of the option tables honoured, with its
# owner; every row of src/plan/fio_keys.c refused with its reason; the
# engines of the build (read from dbio --version) honoured — and the
# refusals of a bad format or topic. docs.bats checks docs/fio-keys.md.

load helpers

# fio_keys_line NAME: the line of `dbio help fio-keys` for NAME.
fio_keys_line() {
	"$DBIO" help fio-keys | awk -v k="$1" '$1 == k'
}

@test "help fio-keys: every key of the option tables that is fio's is honoured, none of dbio's own" {
	run "$DBIO" help fio-keys
	[ "$status" -eq 0 ]
	fio=$("$DBIO" help options | grep -E '^[a-z_0-9]+=' | grep -v "\[dbio's own key\]" | sed 's/=.*//' | sort -u)
	[ "$(echo "$fio" | wc -l)" -ge 25 ]
	for key in $fio; do
		echo "$output" | grep -qE "^$key +(honoured|accepted, changes nothing dbio measures)" ||
			{ echo "$key is not honoured"; false; }
	done
	own=$("$DBIO" help options | grep -E '^[a-z_0-9]+=' | grep "\[dbio's own key\]" | sed 's/=.*//' | sort -u)
	for key in $own; do
		! echo "$output" | grep -qE "^$key " || { echo "$key, dbio's own, is listed"; false; }
	done
}

@test "help fio-keys: a key of an engine says which, a key of every job says nothing more" {
	[ "$(fio_keys_line rw)" = "rw                        honoured by the workloads that do file I/O (fileio, oltp)" ]
	[ "$(fio_keys_line runtime)" = "runtime                   honoured" ]
	need_built ioengine=io_uring
	[ "$(fio_keys_line registerfiles)" = "registerfiles             honoured by ioengine=io_uring" ]
}

@test "help fio-keys: a key of fio's that dbio lacks is refused with its reason" {
	[ "$(fio_keys_line merge_blktrace_file)" = "merge_blktrace_file       refused: blktrace's traces are not replayed, nor merged: dbio replays fio's own iologs (read_iolog=)" ]
	[ "$(fio_keys_line block)" = "block                     refused: option of fio's tiobench profile (fio --profile=tiobench), which dbio does not have" ]
}

@test "help fio-keys: fio's other names are honoured as the key, fio's keys that change nothing are accepted" {
	[ "$(fio_keys_line readwrite)" = "readwrite                 honoured by the workloads that do file I/O (fileio, oltp) (fio's other name for rw)" ]
	[ "$(fio_keys_line threads)" = "threads                   accepted, changes nothing dbio measures" ]
}

@test "help fio-keys: the engines of the build are honoured, fio's others refused with their reason" {
	run "$DBIO" help fio-keys
	[ "$status" -eq 0 ]
	for engine in $(engines_of_build); do
		echo "$output" | grep -qE "^$engine +honoured$" || { echo "$engine is not honoured"; false; }
	done
	echo "$output" | grep -qxF "The engines of this build: $(engines_of_build | join_list ', ')."
	[ "$(fio_keys_line rdma)" = "rdma                  refused: fio's RDMA network engine" ]
}

@test "help fio-keys: --markdown is a table per list" {
	run "$DBIO" help fio-keys --markdown
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "# fio's keys and engines in dbio" ]
	echo "$output" | grep -qxF "| \`merge_blktrace_file\` | refused: blktrace's traces are not replayed, nor merged: dbio replays fio's own iologs (read_iolog=) |"
	echo "$output" | grep -qxF '| `psync` | honoured |'
	echo "$output" | grep -qxF '| `unique_filename` | refused: dbio names its files dbio.&lt;job&gt;.&lt;thread&gt;.&lt;n&gt; in directory=; drop the key |'
}

@test "help fio-keys: an unknown format is refused, exit 2" {
	run --separate-stderr "$DBIO" help fio-keys --man
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: help fio-keys: '--man': unknown format: expected --text or --markdown" ]
	[ -z "$output" ]
}

@test "help: an unknown topic names the topics, exit 2" {
	run --separate-stderr "$DBIO" help nosuch
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: help: 'nosuch': unknown topic: expected a command name, 'options', 'fio-keys', 'metrics' or 'counters'" ]
}

@test "help metrics: every metric of the registry, one line each, 80 columns; --markdown for docs/compare.md" {
	run --separate-stderr "$DBIO" help metrics
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "iops         throughput                      ops/s    default: file I/O" ]
	grep -qx 'blocks_out   blocks written (512 bytes each) blocks' <<<"$output"
	grep -qx 'majflt       major faults                    faults   default: jobs with phases' <<<"$output"
	grep -qx 'crash_states crash states checked            states   default: dbio crash' <<<"$output"
	[ -z "$(awk 'length > 80' <<<"$output")" ]
	run --separate-stderr "$DBIO" help metrics --markdown
	[ "$status" -eq 0 ]
	grep -qxF '| `elapsed` | elapsed time | the run, each phase | `elapsed_ns`, `phases[].elapsed_ns` | ns (printed as µs, ms, s) | higher | jobs with phases |' <<<"$output"
	run --separate-stderr "$DBIO" help metrics --man
	[ "$status" -eq 2 ]
	[ "$stderr" = "dbio: help metrics: '--man': unknown format: expected --text or --markdown" ]
}

@test "help COMMAND: the command's usage, made from its table, as COMMAND --help prints it" {
	for cmd in run sweep matrix compare sync plot report sysinfo; do
		[ "$("$DBIO" help "$cmd")" = "$("$DBIO" "$cmd" --help)" ] || { echo "help $cmd differs"; false; }
		[ "$("$DBIO" help "$cmd" --help)" = "$("$DBIO" "$cmd" --help)" ] || { echo "help $cmd --help differs"; false; }
	done
	run --separate-stderr "$DBIO" help sweep
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "usage: dbio sweep [JOBFILE...] [--KEY=VALUE...] --vary KEY=VALUES ..." ]
	run --separate-stderr "$DBIO" help --help
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "usage: dbio help [COMMAND|options|fio-keys|metrics|counters] [--text]" ]
	[ "${lines[1]}" = "                 [--markdown] [--man] [--schema] [--help]" ]
}
