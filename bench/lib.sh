# bench/lib.sh: the harness the side-by-side scripts share (vs-fio.sh,
# vs-kv.sh, vs-bonnie.sh, vs-pgbench.sh, vs-sysbench.sh, vs-db_bench.sh,
# jobs-scale.sh).
# A script sources it right after `set -euo pipefail`, before its getopts:
#
#	. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#
# and gets:
#   HERE, ROOT        bench/ and the top of the tree
#   DBIO              the dbio binary (environment DBIO=, default ROOT/dbio)
#   die MESSAGE       "SCRIPT: MESSAGE" on standard error, exit 1
#   usage [STATUS]    the script's header comment (from line 2 to `set -euo`)
#   bench_opts SPEC "$@"
#                     getopts over SPEC and -h (the usage): each option is
#                     handed to the script's own function `opt LETTER VALUE`;
#                     an operand is refused
#   whole NAME VALUE  dies unless VALUE is a whole number >= 1
#   need CMD HINT     dies unless CMD is in PATH (HINT: how to get it)
#   need_dbio         dies unless DBIO is an executable
#   bench_tmp PREFIX  makes TMP, a fresh directory under TMPDIR (or /tmp)
#   bench_work PREFIX PARENT
#                     makes WORK, a fresh directory under PARENT (it must be
#                     one), for the data files
#   private_dbio      copies DBIO into TMP/bin and points DBIO at the copy:
#                     a rebuild during a run must not mix versions
#   load_avg          the 1-minute load average, to print beside a figure
# At exit, interrupt (130) or termination (143) the script's own
# bench_cleanup runs when it defines one (stop a server, unmount), then TMP
# and WORK are removed: only what the script made.

BENCH=$(basename "$0")
HERE=$(cd "$(dirname "${BASH_SOURCE[1]:-$0}")" && pwd)
ROOT=$(dirname "$HERE")
DBIO=${DBIO:-$ROOT/dbio}
TMP=""
WORK=""

die() {
	echo "$BENCH: $*" >&2
	exit 1
}

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit "${1:-0}"
}

bench_opts() {
	local spec=$1 o
	shift
	OPTIND=1
	while getopts "${spec}h" o; do
		case $o in
		h) usage 0 ;;
		'?') usage 2 >&2 ;;
		*) opt "$o" "${OPTARG:-}" ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 0 ] || die "unexpected argument '$1' (see -h)"
}

whole() {
	[[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1: expected a whole number >= 1, got '$2'"
}

need() {
	command -v "$1" >/dev/null 2>&1 || die "$1 not found in PATH: $2"
}

need_dbio() {
	[ -x "$DBIO" ] || die "no dbio binary at $DBIO: run 'make' in $ROOT first (or set DBIO=)"
}

bench_tmp() {
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
}

bench_work() {
	[ -d "$2" ] || die "-d $2: not a directory"
	WORK=$(mktemp -d "$2/$1.XXXXXX")
}

private_dbio() {
	mkdir -p "$TMP/bin"
	cp -- "$DBIO" "$TMP/bin/dbio"
	DBIO=$TMP/bin/dbio
}

load_avg() {
	cut -d' ' -f1 /proc/loadavg
}

bench_exit() {
	if declare -F bench_cleanup >/dev/null; then
		bench_cleanup || true
	fi
	cd /
	if [ -n "$WORK" ] && [ -d "$WORK" ]; then rm -rf -- "$WORK"; fi
	if [ -n "$TMP" ] && [ -d "$TMP" ]; then rm -rf -- "$TMP"; fi
	return 0
}
trap bench_exit EXIT
trap 'echo "$BENCH: interrupted" >&2; exit 130' INT
trap 'echo "$BENCH: terminated" >&2; exit 143' TERM
