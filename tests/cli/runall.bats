#!/usr/bin/env bats
# tests/run-all's lists (make's BATS_SKIPPED_OUT= and BATS_LIST=): the
# tests a run skipped, written a line each, and a run of only the tests a
# list names, which CI's sanitizer stages use to run each test once. Each
# runs run-all on help.bats (no unit tests), a file of quick tests.

load helpers

RUN_ALL="$BATS_TEST_DIRNAME/../run-all"

# run_all VAR=VALUE...: run-all with only the given lists and selections,
# none of those of the run-all this test runs under (make test's), whose
# skipped list a nested run would otherwise overwrite.
run_all() {
	run env -u BUILD -u BATS_FILES -u BATS_SKIP -u BATS_LIST -u BATS_SKIPPED_OUT "$@" "$RUN_ALL"
}

# help_test N: the name of help.bats's N-th test, as bats prints it.
help_test() {
	grep '^@test ' "$BATS_TEST_DIRNAME/help.bats" | sed -n "${1}p" | sed 's/^@test "\(.*\)" {$/\1/'
}

@test "run-all BATS_LIST: only the named tests of the named files run, names with \$ and quotes too" {
	# Tests 3 and 4 skip on no build (test 2 does without liburing).
	printf 'help.bats\t%s\n' "$(help_test 3)" "$(help_test 4)" >list
	run_all BATS_LIST="$PWD/list"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(grep -c '^ok ' <<<"$output")" -eq 2 ]
	grep -qxF "ok 1 $(help_test 3)" <<<"$output"
	grep -qxF "ok 2 $(help_test 4)" <<<"$output"
	[ "$(tail -n 1 <<<"$output")" = "2 passed, 0 failed, 0 skipped" ]
	# A name whose source has backslashes (\$, \\r): matched as printed.
	f=$(grep -l 'progress line keeps its own terminal escapes' "$BATS_TEST_DIRNAME"/*.bats)
	printf '%s\t%s\n' "$(basename "$f")" 'sweep: the progress line keeps its own terminal escapes (\r ESC [K) while the notes are escaped' >list
	run_all BATS_LIST="$PWD/list"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(tail -n 1 <<<"$output")" = "1 passed, 0 failed, 0 skipped" ]
}

@test "run-all BATS_LIST: a missing list, a file that is not a test file, or a line without a name is refused with exit 2" {
	run_all BATS_LIST="$PWD/nosuch"
	[ "$status" -eq 2 ]
	[ "$output" = "run-all: BATS_LIST: no file $PWD/nosuch" ]
	printf 'nosuch.bats\tx\n' >list
	run_all BATS_LIST="$PWD/list"
	[ "$status" -eq 2 ]
	[ "$output" = "run-all: BATS_LIST: $PWD/list: 'nosuch.bats<TAB>x': expected NAME.bats of tests/cli, a tab and a test's name" ]
	printf 'help.bats\n' >list
	run_all BATS_LIST="$PWD/list"
	[ "$status" -eq 2 ]
	[[ "$output" == *"'help.bats<TAB>': expected NAME.bats of tests/cli, a tab and a test's name" ]]
}

@test "run-all BATS_SKIPPED_OUT: each skipped test a line, the file and its name, which BATS_LIST reads back" {
	# help.bats's tests 3 and 4 skip on no build: an empty list, and the
	# line says so.
	printf 'help.bats\t%s\n' "$(help_test 3)" "$(help_test 4)" >list
	run_all BATS_LIST="$PWD/list" BATS_SKIPPED_OUT="$PWD/skipped"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ -f skipped ]
	[ ! -s skipped ]
	grep -qxF "# cli: 0 skipped tests listed in $PWD/skipped" <<<"$output"
	# On the build without libraries lsm.bats skips every test: each is a
	# line, as bats printed its name, and BATS_LIST takes the list back.
	[ -x "${DBIO_MIN:-}" ] || skip "no DBIO_MIN (make test sets it)"
	run_all DBIO="$DBIO_MIN" BATS_FILES=lsm BATS_SKIPPED_OUT="$PWD/skipped"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	want=$(grep -c '^@test ' "$BATS_TEST_DIRNAME/lsm.bats")
	[ "$(wc -l <skipped)" -eq "$want" ]
	[ "$(cut -f1 skipped | sort -u)" = "lsm.bats" ]
	[ "$(cut -f2 skipped)" = "$(sed -n 's/^ok [0-9]* \(.*\) # skip .*/\1/p' <<<"$output")" ]
	run_all DBIO="$DBIO_MIN" BATS_LIST="$PWD/skipped"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(tail -n 1 <<<"$output")" = "0 passed, 0 failed, $want skipped" ]
}
