#!/usr/bin/env bats
# docs/errors.md's table of bad input and faults, checked: every row's
# command runs in an empty scratch directory ($T an empty target directory
# in it, `dbio` the binary under test) and must exit with the row's status
# and end stderr with a line that begins as the row says. A row that no
# longer holds fails here, naming the row, so the table cannot go stale.

load helpers

TABLE="$BATS_TEST_DIRNAME/../../docs/errors.md"

# rows: the table's rows as TAB-separated class, command, exit, message.
rows() {
	"$PYTHON" - "$TABLE" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
body = text.split("<!-- errors-table: begin -->")[1].split("<!-- errors-table: end -->")[0]
def cell(n):  # a code span, in one or two backticks (group n)
    return r"(`{1,2})(.*?)\%d" % n
for line in body.strip().splitlines()[2:]:
    m = re.fullmatch(r"\| (.+?) \| " + cell(2) + r" \| (\d+) \| " + cell(5) + r" \|", line)
    if not m:
        sys.exit(f"docs/errors.md: a row of the table is not | class | `command` | exit | `message` |: {line}")
    print("\t".join((m.group(1), m.group(3), m.group(4), m.group(6))))
EOF
}

@test "docs/errors.md: every row's command exits with its status and says its message" {
	local class cmd want msg rc last bad=0 n=0
	mkdir "$scratch/bin"
	ln -s "$DBIO" "$scratch/bin/dbio"
	run rows
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -ge 25 ]
	while IFS=$'\t' read -r class cmd want msg; do
		n=$((n + 1))
		rm -rf "$scratch/run"
		mkdir -p "$scratch/run/T"
		rc=0
		(cd "$scratch/run" && T="$scratch/run/T" PATH="$scratch/bin:$PATH" bash -c "$cmd") \
			>/dev/null 2>"$scratch/stderr" || rc=$?
		last=$(tail -n 1 "$scratch/stderr")
		msg=${msg//\$T/$scratch/run/T}
		if [ "$rc" != "$want" ] || [[ "$last" != "$msg"* ]]; then
			printf 'row "%s": exit %s (table: %s)\n  got:   %s\n  table: %s\n' "$class" "$rc" "$want" "$last" "$msg" >&2
			bad=$((bad + 1))
		fi
	done < <(printf '%s\n' "${lines[@]}")
	echo "$n rows checked, $bad differ" >&3
	[ "$bad" -eq 0 ]
}

@test "docs/errors.md: a bad-input row exits 2 before any I/O: its target directory stays empty" {
	local class cmd want msg n=0
	mkdir "$scratch/bin"
	ln -s "$DBIO" "$scratch/bin/dbio"
	while IFS=$'\t' read -r class cmd want msg; do
		[ "$want" = 2 ] || continue
		# rows that plant a file in $T to be refused leave that file only
		rm -rf "$scratch/run"
		mkdir -p "$scratch/run/T"
		(cd "$scratch/run" && T="$scratch/run/T" PATH="$scratch/bin:$PATH" bash -c "$cmd") >/dev/null 2>&1 || true
		run ls -A "$scratch/run/T"
		case $cmd in
		*'>$T/precious'*) [ "$output" = precious ] ;;
		*'>$T/dbio.job.0.0'*) [ "$output" = dbio.job.0.0 ] ;;
		*) [ -z "$output" ] || {
			echo "row \"$class\" left $output in \$T" >&2
			return 1
		} ;;
		esac
		n=$((n + 1))
	done < <(rows)
	[ "$n" -ge 15 ]
}
