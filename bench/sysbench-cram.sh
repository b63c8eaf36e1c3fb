#!/usr/bin/env bash
# sysbench-cram.sh: sysbench 1.0.20's own cram tests of its fileio test, run
# with `sysbench` resolving to `dbio sysbench` (a wrapper first in PATH that
# execs DBIO sysbench "$@"), or to the real sysbench with -r to see that the
# tests pass as given. The tests are read from SRC_DIR, a sysbench source
# tree (git clone https://github.com/akopytov/sysbench; git checkout
# 1.0.20): nothing of sysbench is copied into this tree.
#
#   bench/sysbench-cram.sh [-r] [-k] SRC_DIR
#
#   -r   run the real sysbench (from PATH) instead of dbio's
#   -k   keep going: run every test file even when one fails
#
# Test files: SRC_DIR/tests/t/test_fileio.t (fileio's tests). The other
# files that name fileio (cmdline.t, opt_help.t) test sysbench's Lua and
# help of every test, not fileio's behaviour, and are not run.
# Prints cram's diff of each failing file and one line per file:
# "PASS file" or "FAIL file (N diff lines)"; exits 1 when any failed.
#
# Environment: DBIO (the dbio binary, default ../dbio next to bench/).
# Needs cram (python3-cram installs cram3).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

REAL=0
KEEP=0
[ "${1:-}" = -h ] && usage 0
while [ $# -gt 0 ]; do
	case $1 in
	-r) REAL=1 ;;
	-k) KEEP=1 ;;
	-h) usage 0 ;;
	-*) die "unknown option '$1' (see -h)" ;;
	*) break ;;
	esac
	shift
done
[ $# -eq 1 ] || die "expected one SRC_DIR, a sysbench source tree (see -h)"
SRC=$(cd "$1" && pwd) || die "$1: not a directory"
TESTS=("$SRC/tests/t/test_fileio.t")
for t in "${TESTS[@]}"; do
	[ -f "$t" ] || die "$t: no such test file: is $SRC a sysbench source tree?"
done
CRAM=$(command -v cram3 || command -v cram || true)
[ -n "$CRAM" ] || die "cram not found in PATH: apt-get install python3-cram"

bench_tmp sysbench-cram
mkdir "$TMP/bin"
if [ "$REAL" = 1 ]; then
	need sysbench "scripts/install-deps installs it"
	echo "sysbench: $(command -v sysbench)"
else
	need_dbio
	private_dbio
	printf '#!/bin/sh\nexec "%s" sysbench "$@"\n' "$DBIO" >"$TMP/bin/sysbench"
	chmod +x "$TMP/bin/sysbench"
	echo "sysbench: $DBIO sysbench"
fi
export PATH="$TMP/bin:$PATH"

failed=0
for t in "${TESTS[@]}"; do
	# cram writes FILE.err beside the test: run a link in TMP, not the tree
	ln -s "$t" "$TMP/$(basename "$t")"
	if (cd "$TMP" && "$CRAM" --shell=/bin/bash "$TMP/$(basename "$t")" >"$TMP/out" 2>&1); then
		echo "PASS $(basename "$t")"
	else
		sed -e '/^# Ran /d' "$TMP/out"
		echo "FAIL $(basename "$t") ($(grep -c '^[-+][^-+]' "$TMP/out" || true) diff lines)"
		failed=1
		[ "$KEEP" = 1 ] || break
	fi
done
exit "$failed"
