#!/usr/bin/env bats
# The default suite (`dbio run` without jobs, what `make run` runs): it
# measures the storage with O_DIRECT, says nothing about the page cache
# before each job, and closes with one note of what each job measured.
# About a minute: the suite is what it is.

load helpers

# On a disk: /tmp may be a tmpfs, whose files are in RAM.
setup() {
	dbio_setup
	DIR=$(mktemp -d /var/tmp/dbio-suite.XXXXXX)
	extra_dirs+=("$DIR")
}

@test "default suite: O_DIRECT on a disk, no page-cache warning, one closing note, nothing left" {
	fs=$(df --output=fstype "$DIR" | tail -1)
	case "$fs" in
	tmpfs | ramfs) skip "/var/tmp is on $fs: the suite would measure memory" ;;
	esac
	run --separate-stderr "$DBIO" run --directory="$DIR" --output="$result" --progress=none
	echo "$output"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ "$output$stderr" != *"page cache:"* ]]
	[[ "$stderr" != *"warning"* ]]
	src=$(df --output=source "$DIR" | tail -1)
	note=$(printf '%s\n' "$output" | sed -n '/^What each job measured/,$p')
	want="What each job measured, in $DIR ($fs on $src):"
	for j in seq-write seq-read rand-read-8k rand-write-8k-fdatasync mixed-16x128; do
		want+=$'\n'"$(printf '  %-24s %s' "$j" 'the storage: O_DIRECT (direct=1), the page cache bypassed')"
	done
	[ "$note" = "$want" ]
	run jpy "$result" '[j["name"] for j in r["jobs"] if j["options"]["direct"] and not j["warnings"]]'
	[ "$output" = '["seq-write", "seq-read", "rand-read-8k", "rand-write-8k-fdatasync", "mixed-16x128"]' ]
	[ -z "$(ls -A "$DIR")" ]
}
