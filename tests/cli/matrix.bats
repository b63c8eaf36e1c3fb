#!/usr/bin/env bats
# dbio matrix: the same job on freshly made filesystems (64 MiB loop images
# in the test's scratch directory), the block size read back with statfs, a
# scheduler switch, cleanup after SIGKILL, and the refusals (no consent for a
# device, a device carrying a filesystem, bad --fs strings, a file dbio did
# not make, not root). Every test leaves no loop device or mount behind:
# teardown undoes whatever dbio could not.

# serial: every dbio matrix run first undoes the state killed runs left in
# /run/dbio-matrix, so a matrix run in another file would take the state a
# test here kills a run to leave for --cleanup (tests/run-all).

load helpers

# A small fileio job: 2 MiB of 4 KiB writes, twice (Welch's test needs 2).
JOB=(--rw=write --bs=4k --size=2m --repeat=2 --progress=none)

# What of this test is still attached or mounted: loop devices backed by a
# file under $scratch, and their mounts. Prints them; empty when clean.
leftovers() {
	local dev
	losetup -a 2>/dev/null | grep -F "$scratch/" | while IFS=: read -r dev _; do
		echo "loop: $dev"
		grep "^$dev " /proc/mounts | sed 's/^/mount: /'
	done
	[ -z "${run_pid:-}" ] || grep -F "/dbio-matrix/mnt.$run_pid." /proc/mounts | sed 's/^/mount: /'
	return 0
}

setup() {
	dbio_setup
	if [ "$(id -u)" -eq 0 ]; then
		on_teardown undo_matrix
	fi
}

# attach_loop FILE: sets test_loop to a loop device attached to FILE,
# detached in teardown; skips the test when none can be attached.
attach_loop() {
	test_loop=$(losetup -f --show "$1") || skip "cannot attach a loop device"
	on_teardown losetup -d "$test_loop"
}

@test "matrix: ext2 -b 1024, ext2 -b 4096 and ext4 in one result, block sizes read back with statfs" {
	need_matrix
	# What mke2fs makes of a 64 MiB ext4 here (mke2fs.conf: "small" gets
	# 1 KiB blocks), for the bare --fs ext4.
	truncate -s 64m "$scratch/probe.img"
	mkfs.ext4 -q -F "$scratch/probe.img"
	ext4_bs=$(dumpe2fs -h "$scratch/probe.img" 2>/dev/null | sed -n 's/^Block size: *//p')
	rm "$scratch/probe.img"

	run --separate-stderr "$DBIO" matrix "${JOB[@]}" --image "$images" --image-size 64m \
		--fs 'ext2:-b 1024' --fs 'ext2:-b 4096' --fs ext4 --output "$result"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	json_is "$result" matrix.completed=3 matrix.jobs_per_config=1 matrix.image_size_bytes=67108864 \
		jobs.0.config.fs=ext2 "jobs.0.config.mkfs_options=-b 1024" jobs.0.config.fs_block_size_bytes=1024 \
		jobs.0.targets.0.fs_type=ext2 jobs.0.targets.0.fs_block_size_bytes=1024 \
		jobs.1.config.fs=ext2 "jobs.1.config.mkfs_options=-b 4096" jobs.1.config.fs_block_size_bytes=4096 \
		jobs.1.targets.0.fs_type=ext2 jobs.1.targets.0.fs_block_size_bytes=4096 \
		jobs.2.config.fs=ext4 jobs.2.config.mkfs_options= jobs.2.config.fs_block_size_bytes="$ext4_bs" \
		jobs.2.targets.0.fs_type=ext4 jobs.2.targets.0.fs_block_size_bytes="$ext4_bs" \
		jobs.0.point.fs=ext2 jobs.2.config.index=2 partial=false
	# Each configuration ran its repeats on a loop device backed by the image.
	[ "$(jpy "$result" 'len(r["jobs"])' 'sorted({len(j["runs"]) for j in r["jobs"]})' \
		'all(j["targets"][0]["block_device"]["loop"]["backing_file"].startswith(r["matrix"]["image"]) for j in r["jobs"])')" = \
		"$(printf '3\n[2]\ntrue')" ]
	# The text output is the comparison table, each configuration named by
	# a letter and a legend; three of them would pass 80 columns, so they
	# are rows.
	[[ "$output" == *"A = ext2 -b 1024"* ]]
	[[ "$output" == *"B = ext2 -b 4096"* ]]
	[[ "$output" == *"C = ext4"* ]]
	[[ "$output" == *"targets[0].fs_block_size_bytes (job 'job'): A 1024, B 4096, C $ext4_bs"* ]]
	grep -qx 'job  write' <<<"$output"
	grep -qE '^ +iops +bw +p99$' <<<"$output"
	[ "$(grep -cE '^  C +[0-9.]+ ± [0-9.]+ ops/s ' <<<"$output")" -eq 1 ]
	[ "$(grep -cE '^  C vs A +[-+0-9.]+ %' <<<"$output")" -ge 1 ]
	[ "$(max_columns <<<"$output")" -le 80 ]
	[[ "$output" == *"changes tested (both sides with repeats)"* ]]
	[[ "$stderr" == *"ext2 on /dev/loop"*", block size 1024 bytes (statfs)"* ]]
	# The result alone shows the table again, with other metrics.
	run --separate-stderr "$DBIO" compare "$result" --metric elapsed,blocks_out
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[[ "$output" == *"C = ext4"* ]]
	grep -qx 'job  all' <<<"$output"
	grep -qE '^ +elapsed +blocks_out$' <<<"$output"
	[ "$(grep -cE '^  [ABC] +[0-9.]+ [mun]?s( ± [0-9.]+ [mun]?s)? +[0-9]+( ± [0-9]+)? blocks$' <<<"$output")" -eq 3 ]
	# Nothing left: no image, no loop device, no mount, no state.
	is_empty_dir "$images"
	[ -z "$(leftovers)" ] || { leftovers; false; }
}

@test "matrix: a scheduler switch and mount options are recorded as in force" {
	need_matrix
	sched=$(cat /sys/block/loop*/queue/scheduler 2>/dev/null | head -1)
	[[ "$sched" == *mq-deadline* ]] || skip "loop devices offer no mq-deadline here: $sched"
	run --separate-stderr "$DBIO" matrix "${JOB[@]}" --repeat=1 --image "$images" --image-size 64m \
		--fs ext2 --mount-opts noatime --sched none,mq-deadline --output "$result"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	json_is "$result" matrix.completed=2 \
		jobs.0.config.scheduler=none jobs.0.targets.0.block_device.scheduler=none \
		jobs.1.config.scheduler=mq-deadline jobs.1.targets.0.block_device.scheduler=mq-deadline \
		jobs.0.config.mount_options=noatime jobs.1.point.scheduler=mq-deadline
	[ "$(jpy "$result" '"noatime" in r["jobs"][1]["targets"][0]["mount_options"].split(",")')" = true ]
	[[ "$output" == *"targets[0].block_device.scheduler (job 'job'): A none, B mq-deadline"* ]]
	is_empty_dir "$images"
	[ -z "$(leftovers)" ] || { leftovers; false; }
}

@test "matrix: a run killed with SIGKILL leaves state that --cleanup removes" {
	need_matrix
	"$DBIO" matrix --rw=write --bs=4k --size=2m --time_based --runtime=30s --progress=none \
		--image "$images/img" --image-size 64m --fs ext2 --fs ext4 --sched none \
		>"$scratch/out" 2>"$scratch/err" &
	bg_pid=$! run_pid=$!
	wait_until grep -qF "/dbio-matrix/mnt.$run_pid." /proc/mounts || { cat "$scratch/err"; false; }
	kill -KILL "$bg_pid"
	wait "$bg_pid" || true
	bg_pid=
	# Killed mid-run: the mount, the loop device and the image are left, and
	# the state file says so.
	[ -n "$(leftovers)" ]
	[ -f "$images/img" ]
	grep -q "^mount /run/dbio-matrix/mnt.$run_pid." "/run/dbio-matrix/$run_pid.state"
	run "$DBIO" matrix --cleanup
	[ "$status" -eq 0 ]
	[[ "$output" == *"dbio: cleanup: unmounted /run/dbio-matrix/mnt.$run_pid."* ]]
	[[ "$output" == *"dbio: cleanup: removed $images/img"* ]]
	[ -z "$(leftovers)" ] || { leftovers; false; }
	[ ! -e "/run/dbio-matrix/$run_pid.state" ]
	[ -z "$(ls -d /run/dbio-matrix/mnt."$run_pid".* 2>/dev/null)" ]
	is_empty_dir "$images"
}

@test "matrix: a block device needs --destroy-data, and --force when it carries a filesystem" {
	need_matrix
	run "$DBIO" matrix "${JOB[@]}" --device /dev/loop0 --fs ext4
	[ "$status" -eq 2 ]
	[ "$output" = "dbio: matrix: --device /dev/loop0: formatting a block device destroys its data: add --destroy-data to consent" ]
	truncate -s 64m "$scratch/disk.img"
	mkfs.ext4 -q -F -L precious "$scratch/disk.img"
	attach_loop "$scratch/disk.img"
	run "$DBIO" matrix "${JOB[@]}" --device "$test_loop" --destroy-data --fs ext2
	[ "$status" -eq 2 ]
	[ "$output" = "dbio: --device $test_loop: carries a filesystem signature (ext4) (label 'precious'): refusing to destroy it without --force as well" ]
	# Untouched.
	[ "$(blkid -o value -s LABEL "$scratch/disk.img")" = precious ]
	run "$DBIO" matrix "${JOB[@]}" --device "$scratch/disk.img" --destroy-data --fs ext2
	[ "$status" -eq 2 ]
	[ "$output" = "dbio: --device $scratch/disk.img: not a block device" ]
	mkdir "$scratch/m"
	mount "$test_loop" "$scratch/m"
	on_teardown unmount "$scratch/m"
	run "$DBIO" matrix "${JOB[@]}" --device "$test_loop" --destroy-data --force --fs ext2
	umount "$scratch/m"
	[ "$status" -eq 2 ]
	[ "$output" = "dbio: --device $test_loop: mounted: refusing to format it" ]
	# With --force as well it is formatted, once per configuration.
	run --separate-stderr "$DBIO" matrix "${JOB[@]}" --repeat=1 --device "$test_loop" --destroy-data --force \
		--fs 'ext2:-b 1024' --fs 'ext2:-b 2048' --output "$result"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	json_is "$result" jobs.0.config.device="$test_loop" jobs.0.config.fs_block_size_bytes=1024 \
		jobs.1.config.fs_block_size_bytes=2048 matrix.device="$test_loop" matrix.completed=2
	[ "$(blkid -o value -s TYPE "$scratch/disk.img")" = ext2 ]
	[ -z "$(grep "^$test_loop " /proc/mounts)" ]
}

@test "matrix: SIGTERM mid-run undoes everything and keeps the finished part" {
	need_matrix
	# Signalled in the first configuration's measured phase.
	start_running --cmd matrix --rw=write --bs=4k --size=2m --time_based --runtime=30s \
		--image "$images" --image-size 64m --fs ext2 --fs ext4
	run_pid=$bg_pid
	kill -TERM "$bg_pid"
	finish_running 143
	grep -qx "dbio: interrupted by SIGTERM" "$scratch/err"
	json_is "$result" partial=true matrix.completed=0 jobs.0.runs.0.partial=true
	[ -z "$(leftovers)" ] || { leftovers; false; }
	[ ! -e "/run/dbio-matrix/$run_pid.state" ]
	is_empty_dir "$images"
}

@test "matrix: bad --fs, --mount-opts and --sched strings are refused with a message" {
	need_matrix
	bad() { # SPEC MESSAGE
		run "$DBIO" matrix "${JOB[@]}" --image "$images" --image-size 64m --fs "$1"
		[ "$status" -eq 2 ] || { echo "--fs '$1': exit $status"; return 1; }
		[ "$output" = "dbio: $2" ] || { echo "--fs '$1': $output"; return 1; }
	}
	bad 'ext2:-b 1024; rm -rf /' "--fs 'ext2:-b 1024; rm -rf /': mkfs options: character ';' not allowed: use letters, digits, spaces and - _ = , . : ^ (mkfs runs without a shell, and options may not name paths)"
	bad 'ext2:-b $(id)' "--fs 'ext2:-b \$(id)': mkfs options: character '\$' not allowed: use letters, digits, spaces and - _ = , . : ^ (mkfs runs without a shell, and options may not name paths)"
	bad 'ext4:-d /etc' "--fs 'ext4:-d /etc': mkfs options: character '/' not allowed: use letters, digits, spaces and - _ = , . : ^ (mkfs runs without a shell, and options may not name paths)"
	bad 'ext2:-b 1024 other' "--fs 'ext2:-b 1024 other': mkfs options: 'other' is neither an option nor an option's value: expected options only (the device is dbio's)"
	bad 'ext2:sda' "--fs 'ext2:sda': mkfs options: 'sda' is neither an option nor an option's value: expected options only (the device is dbio's)"
	bad 'Ext4' "--fs 'Ext4': filesystem type 'Ext4': expected lower-case letters and digits (ext4, xfs, btrfs)"
	bad ':-b 1024' "--fs ':-b 1024': expected TYPE or TYPE:MKFS-OPTIONS, e.g. ext4 or 'ext2:-b 1024'"
	bad 'nosuchfs' "--fs 'nosuchfs': filesystem type 'nosuchfs': not one dbio makes: expected one of ext2, ext3, ext4, xfs, btrfs"
	if [ ! -x /usr/sbin/mkfs.btrfs ] && [ ! -x /sbin/mkfs.btrfs ]; then
		bad btrfs "--fs btrfs: mkfs.btrfs: not found: install the Debian package btrfs-progs (apt-get install btrfs-progs)"
	fi
	run "$DBIO" matrix "${JOB[@]}" --image "$images" --fs ext4 --mount-opts 'noatime;reboot'
	[ "$status" -eq 2 ]
	[ "$output" = "dbio: --mount-opts 'noatime;reboot': expected a comma-separated list of options (letters, digits and - _ = , . :), e.g. noatime,data=writeback" ]
	run "$DBIO" matrix "${JOB[@]}" --image "$images" --fs ext4 --mount-opts 'noatime,journal_path=victim'
	[ "$status" -eq 2 ]
	[ "$output" = "dbio: --mount-opts 'noatime,journal_path=victim': option 'journal_path' names another device: not accepted (the device is dbio's)" ]
	run "$DBIO" matrix "${JOB[@]}" --image "$images" --fs ext4 --sched 'none,../x'
	[ "$status" -eq 2 ]
	[ "$output" = "dbio: --sched '../x': expected a list of I/O scheduler names, e.g. none,mq-deadline" ]
	is_empty_dir "$images"
}

@test "matrix: a file dbio did not make is never formatted" {
	need_matrix
	echo precious >"$images/data"
	run "$DBIO" matrix "${JOB[@]}" --image "$images/data" --image-size 64m --fs ext4
	[ "$status" -eq 2 ]
	[ "$output" = "dbio: --image $images/data: exists and was not made by dbio: refusing to format it (give a new file name or a directory)" ]
	[ "$(cat "$images/data")" = precious ]
	# One that carries dbio's marker (only root can set trusted.*) is dbio's
	# leftover: replaced.
	: >"$images/old.img"
	"$PYTHON" -c 'import os, sys; os.setxattr(sys.argv[1], "trusted.dbio", b"dbio matrix image")' \
		"$images/old.img" 2>/dev/null || skip "no trusted.* xattrs on $images"
	run --separate-stderr "$DBIO" matrix "${JOB[@]}" --repeat=1 --image "$images/old.img" --image-size 64m --fs ext2
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ ! -e "$images/old.img" ]
}

@test "matrix: refused when not root" {
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	[ "$(id -u)" -eq 0 ] || skip "needs root to switch to another user"
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$DBIO" matrix "${JOB[@]}" --image /tmp --fs ext4
	[ "$status" -ne 127 ] && [ "$status" -ne 126 ] || skip "the dbio binary cannot be run as user 65534"
	[ "$status" -eq 2 ]
	[ "$output" = "dbio: matrix: needs root: it attaches loop devices, makes filesystems and mounts them" ]
}

# The words of a file's first MiB as a checksum, to show it was not written.
sum1m() { head -c 1048576 "$1" | sha256sum; }

@test "matrix: mkfs options cannot name or displace the device" {
	need_matrix
	cd "$scratch"
	# The attack: -q takes no value, victim.img became mke2fs's device and
	# -L swallowed dbio's loop device as a label.
	truncate -s 64m victim.img
	before=$(sum1m victim.img)
	run "$DBIO" matrix "${JOB[@]}" --image "$images" --image-size 64m --fs 'ext4:-q victim.img -L'
	[ "$status" -eq 2 ]
	[ "$output" = "dbio: --fs 'ext4:-q victim.img -L': mkfs options: 'victim.img' is neither an option nor an option's value: expected options only (the device is dbio's)" ]
	[ "$(sum1m victim.img)" = "$before" ]
	[ -z "$(blkid -p -o value -s TYPE victim.img)" ]
	# The same with a block device node in the current directory: a loop
	# device that dbio did not make, with a filesystem on it.
	truncate -s 64m "$scratch/disk.img"
	mkfs.ext2 -q -F -L precious "$scratch/disk.img"
	attach_loop "$scratch/disk.img"
	read -r ma mi < <(stat -c '%t %T' "$test_loop")
	mknod myloop b "$((16#$ma))" "$((16#$mi))"
	for spec in 'ext4:-F -q myloop -L' 'ext4:-Fq myloop' 'ext2:-L x myloop' 'ext4:-E stride=1 myloop' 'ext4:-J device=myloop'; do
		run "$DBIO" matrix "${JOB[@]}" --image "$images" --image-size 64m --fs "$spec"
		[ "$status" -eq 2 ] || { echo "--fs '$spec': exit $status: $output"; false; }
	done
	[ "$(blkid -o value -s LABEL "$test_loop")" = precious ]
	for spec in 'xfs:-q -d name=myloop' 'xfs:-l logdev=myloop' 'xfs:-r rtdev=myloop' 'xfs:-f myloop' \
		'btrfs:-f myloop' 'btrfs:--rootdir=x' 'btrfs:-L'; do
		run "$DBIO" matrix "${JOB[@]}" --image "$images" --image-size 512m --fs "$spec"
		[ "$status" -eq 2 ] || { echo "--fs '$spec': exit $status: $output"; false; }
		[[ "$output" == "dbio: --fs '$spec': mkfs option"* ]] || { echo "$output"; false; }
	done
	[ "$(blkid -o value -s LABEL "$test_loop")" = precious ]
	is_empty_dir "$images"
}

@test "matrix: every mkfs gets its options, then --, then dbio's loop device (strace)" {
	need_matrix
	command -v strace >/dev/null || skip "strace is not installed (scripts/install-deps)"
	specs=('ext2:-qb2048' 'ext3:-L x -J size=4' 'ext4:-O ^has_journal -F')
	[ -x /usr/sbin/mkfs.xfs ] && specs+=('xfs:-b size=4096 -L x')
	[ -x /usr/sbin/mkfs.btrfs ] || [ -x /bin/mkfs.btrfs ] && specs+=('btrfs:--label=x -m single')
	args=()
	for s in "${specs[@]}"; do args+=(--fs "$s"); done
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 run --separate-stderr strace -f -qq -v -s 256 \
		-e trace=execve -o "$scratch/trace" "$DBIO" matrix "${JOB[@]}" --repeat=1 --image "$images" \
		--image-size 512m "${args[@]}" --output "$result"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	# One mkfs per --fs, each ending in "--", "/dev/loopN".
	execs=$(grep -E 'execve\("/(usr/)?s?bin/mkfs\.' "$scratch/trace")
	echo "$execs"
	[ "$(grep -c . <<<"$execs")" -eq "${#specs[@]}" ]
	[ "$(grep -cE ', "--", "/dev/loop[0-9]+"\], ' <<<"$execs")" -eq "${#specs[@]}" ]
	grep -qF '["/usr/sbin/mkfs.ext2", "-q", "-b", "2048", "--", "/dev/loop' <<<"$execs"
	grep -qF '["/usr/sbin/mkfs.ext3", "-L", "x", "-J", "size=4", "--", "/dev/loop' <<<"$execs"
	# A fixed environment: nothing of the caller's reaches mkfs.
	grep -qF '["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C"]' <<<"$execs"
	# Each was made and mounted as that type.
	json_is "$result" matrix.completed="${#specs[@]}" jobs.0.targets.0.fs_type=ext2 \
		jobs.0.config.fs_block_size_bytes=2048 jobs.1.targets.0.fs_type=ext3 jobs.2.targets.0.fs_type=ext4
	[ "${#specs[@]}" -lt 4 ] || json_is "$result" jobs.3.targets.0.fs_type=xfs
	[ "${#specs[@]}" -lt 5 ] || json_is "$result" jobs.4.targets.0.fs_type=btrfs
	is_empty_dir "$images"
	[ -z "$(leftovers)" ] || { leftovers; false; }
}

# A state file as a killed run leaves it, written by hand: STATE RECORD...
fake_state() {
	local f=$1
	shift
	mkdir -p /run/dbio-matrix
	on_teardown rm -f "$f"
	printf 'dbio-matrix-state 2\n' >"$f"
	printf '%s\n' "$@" >>"$f"
}

@test "matrix --cleanup: a mount kept busy by a process is not undone: named with its holder, the loop device reported still attached, exit 1; released, the next --cleanup removes it all" {
	need_matrix
	"$DBIO" matrix --rw=write --bs=4k --size=2m --time_based --runtime=60s --progress=none \
		--image "$images/img" --image-size 64m --fs ext2 --sched none \
		>"$scratch/out" 2>"$scratch/err" &
	bg_pid=$! run_pid=$!
	wait_until grep -qF "/dbio-matrix/mnt.$run_pid." /proc/mounts || { cat "$scratch/err"; false; }
	mnt=$(awk -v p="/run/dbio-matrix/mnt.$run_pid." 'index($2, p) == 1 { print $2; exit }' /proc/mounts)
	# a process whose working directory is in the mount
	(cd "$mnt" && exec sleep 600) &
	holder=$!
	on_teardown kill "$holder"
	wait_until [ "$(readlink "/proc/$holder/cwd")" = "$mnt" ]
	kill -KILL "$bg_pid"
	wait "$bg_pid" || true
	bg_pid=
	state=/run/dbio-matrix/$run_pid.state
	loop=$(awk '$1 == "loop" { print $2 }' "$state")
	[ -n "$loop" ]
	run "$DBIO" matrix --cleanup
	[ "$status" -eq 1 ]
	[[ "$output" == *"dbio: cleanup: not unmounted: $mnt: busy: held by pid $holder (sleep), its working directory"* ]]
	[[ "$output" == *"dbio: cleanup: not detached: $loop: still attached, in use (the kernel detaches it when its last user lets go)"* ]]
	[[ "$output" == *"dbio: cleanup: not removed: $images/img: $loop still holds it"* ]]
	[[ "$output" == *"dbio: cleanup: $state: cannot undo 'mount $mnt': Device or resource busy: undo it by hand, then remove $state"* ]]
	[[ "$output" != *"dbio: cleanup: detached"* ]]
	# what it said is so
	losetup "$loop" | grep -qF "$images/img"
	grep -qF " $mnt " /proc/mounts
	[ -e "$state" ]
	[ -f "$images/img" ]
	kill "$holder"
	wait "$holder" || true
	run "$DBIO" matrix --cleanup
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"dbio: cleanup: unmounted $mnt"* ]]
	[[ "$output" == *"dbio: cleanup: removed $images/img"* ]]
	[ -z "$(leftovers)" ] || { leftovers; false; }
	[ ! -e "$state" ]
	is_empty_dir "$images"
}

@test "matrix --cleanup: a new file at the image's path is left alone, and nothing stays stuck" {
	need_matrix
	"$DBIO" matrix --rw=write --bs=4k --size=2m --time_based --runtime=30s --progress=none \
		--image "$images/img" --image-size 64m --fs ext2 >"$scratch/out" 2>"$scratch/err" &
	bg_pid=$! run_pid=$!
	wait_until grep -qF "/dbio-matrix/mnt.$run_pid." /proc/mounts || { cat "$scratch/err"; false; }
	kill -KILL "$bg_pid"
	wait "$bg_pid" || true
	bg_pid=
	# Someone moves the image away and puts a file of theirs at its path.
	mv "$images/img" "$images/img.moved"
	echo precious >"$images/img"
	run "$DBIO" matrix --cleanup
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"dbio: cleanup: unmounted /run/dbio-matrix/mnt.$run_pid."* ]]
	[[ "$output" == *"dbio: cleanup: left alone: $images/img: not the image dbio made (no marker with this run's token)"* ]]
	[ "$(cat "$images/img")" = precious ]
	[ ! -e "/run/dbio-matrix/$run_pid.state" ]
	[ -z "$(leftovers)" ] || { leftovers; false; }
}

@test "matrix --cleanup: the same path and inode number, and a loop device that holds another file now, are left alone" {
	need_matrix
	token=0123456789abcdef0123456789abcdef
	echo precious >"$images/img"
	truncate -s 64m "$scratch/disk.img"
	attach_loop "$scratch/disk.img"
	disk=${test_loop#/dev/}
	grep -q mq-deadline "/sys/block/$disk/queue/scheduler" || skip "$disk offers no mq-deadline"
	echo mq-deadline >"/sys/block/$disk/queue/scheduler"
	# A killed run's records whose image's inode number the precious file
	# now has, and whose loop device another file's image now holds.
	dev=$(stat -c %d "$images/img") ino=$(stat -c %i "$images/img")
	state=/run/dbio-matrix/t$$.state
	fake_state "$state" "image $token $images/img" "imageid $dev $ino $token $images/img" \
		"loop $test_loop $dev $ino $token" "sched $disk none loop $dev $ino $token"
	run "$DBIO" matrix --cleanup
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"dbio: cleanup: left alone: the scheduler of $disk (it holds another file now)"* ]]
	[[ "$output" == *"dbio: cleanup: left alone: $test_loop (it holds another file now)"* ]]
	[[ "$output" == *"dbio: cleanup: left alone: $images/img: not the image dbio made"* ]]
	[ "$(cat "$images/img")" = precious ]
	[[ "$(cat "/sys/block/$disk/queue/scheduler")" == *"[mq-deadline]"* ]]
	losetup "$test_loop" | grep -qF "$scratch/disk.img"
	[ ! -e "$state" ]
}

@test "matrix: a record that cannot be undone is a warning before a run, an error with a hint for --cleanup" {
	need_matrix
	command -v chattr >/dev/null || skip "chattr (e2fsprogs) is not installed"
	token=fedcba9876543210fedcba9876543210
	# dbio's image (its marker carries the token), made immutable.
	truncate -s 4096 "$images/stuck.img"
	printf 'dbio-matrix-image %s\n' "$token" | dd of="$images/stuck.img" conv=notrunc status=none
	chattr +i "$images/stuck.img" 2>/dev/null || skip "no immutable files on $images"
	on_teardown chattr -i "$images/stuck.img"
	state=/run/dbio-matrix/t$$.state
	fake_state "$state" "image $token $images/stuck.img"
	run --separate-stderr "$DBIO" matrix "${JOB[@]}" --repeat=1 --image "$images/new.img" --image-size 64m --fs ext2
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[[ "$stderr" == *"dbio: warning: cleanup: $state: cannot undo 'image $token $images/stuck.img': Operation not permitted: undo it by hand, then remove $state; \`dbio matrix --cleanup\` tries again"* ]]
	run "$DBIO" matrix --cleanup
	[ "$status" -eq 1 ]
	[[ "$output" == *"dbio: cleanup: $state: cannot undo 'image $token $images/stuck.img': Operation not permitted: undo it by hand, then remove $state"* ]]
	[ -e "$state" ]
	chattr -i "$images/stuck.img"
	run "$DBIO" matrix --cleanup
	[ "$status" -eq 0 ]
	[[ "$output" == *"dbio: cleanup: removed $images/stuck.img"* ]]
	[ ! -e "$state" ]
	is_empty_dir "$images"
}

@test "matrix --output onto a full filesystem: says it could not be written, not that the configurations are there" {
	need_matrix
	mount_tmpfs "$scratch/full" 64k
	dd if=/dev/zero of="$scratch/full/fill" bs=4k count=64 status=none 2>/dev/null || true
	run --separate-stderr "$DBIO" matrix "${JOB[@]}" --repeat=1 --image "$images" --image-size 64m --fs ext2 \
		--output "$scratch/full/m.json"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"dbio: $scratch/full/m.json: cannot write: No space left on device"* ]]
	[[ "$stderr" != *"finished configurations are in"* ]]
	[ ! -e "$scratch/full/m.json" ]
	is_empty_dir "$images"
	[ -z "$(leftovers)" ] || { leftovers; false; }
}

@test "matrix: S0 (import on ext2 -b 1024 and -b 4096): elapsed, user, sys, cpu and faults by default, a row per phase, in 80 columns" {
	need_matrix
	need_built workload=import
	run --separate-stderr "$DBIO" matrix "$BATS_TEST_DIRNAME/../../jobs/s0-index-rebuild.fio" --set rows=2000 \
		--set batch=500 --repeat=2 --progress=none --image "$images" --image-size 64m \
		--fs 'ext2:-b 1024' --fs 'ext2:-b 4096' --output "$result"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	echo "$output"
	[[ "$output" == *"A = ext2 -b 1024"* ]]
	[[ "$output" == *"B = ext2 -b 4096"* ]]
	# The defaults for jobs with phases: whole run, then schema, load and
	# index each, six metrics as columns (in blocks of what fits); nothing
	# per op type.
	[ "$(grep -cxE 's0  (all|phase schema|phase load|phase index)' <<<"$output")" -eq 4 ]
	[ "$(grep -cE '^ +elapsed +user +sys +cpu( +majflt +minflt)?$' <<<"$output")" -eq 4 ]
	[ "$(grep -cE '^ +(.* )?majflt +minflt$' <<<"$output")" -eq 4 ]
	[ "$(grep -cE '^  B +[0-9.]+ [mun]?s ' <<<"$output")" -eq 4 ]
	[ -z "$(grep -E '^s0 +(insert|commit|batch|index)' <<<"$output")" ]
	[ "$(max_columns <<<"$output")" -le 80 ]
	# The index phase's elapsed is the result's, per configuration.
	for c in 0 1; do
		want=$(jpy "$result" "sum([p['elapsed_ns'] for p in x['phases'] if p['name'] == 'index'][0] for x in r['jobs'][$c]['runs']) / 2")
		run --separate-stderr "$DBIO" compare "$result" --op index --metric elapsed --format csv
		[ "$status" -eq 0 ]
		got=$(grep '^s0,phase index,elapsed,' <<<"$output" | cut -d, -f$((5 + c * 3)))
		awk -v a="$got" -v b="$want" 'BEGIN { exit !(a == b) }' || { echo "config $c: $got, want $want"; false; }
	done
	is_empty_dir "$images"
	[ -z "$(leftovers)" ] || { leftovers; false; }
}

@test "matrix: --output through another user's symlink in the middle is refused before any filesystem is made, its target untouched" {
	need_matrix
	mkdir "$scratch/victim" "$scratch/u"
	echo precious >"$scratch/victim/out.json"
	chown 65534:65534 "$scratch/u"
	ln -s "$scratch/victim" "$scratch/u/sub"
	chown -h 65534:65534 "$scratch/u/sub"
	run -2 --separate-stderr "$DBIO" matrix "${JOB[@]}" --image "$images" --image-size 64m --fs ext2 \
		--output "$scratch/u/sub/out.json"
	[ "$stderr" = "dbio: --output $scratch/u/sub/out.json: component '$scratch/u/sub' is a symlink that belongs to user 65534: refusing to follow it (give the path it points to)" ]
	[ "$(cat "$scratch/victim/out.json")" = precious ]
	is_empty_dir "$images"
	[ -z "$(leftovers)" ]
}

@test "matrix: --image through another user's symlink, last or in the middle, is refused before anything is made there" {
	need_matrix
	mkdir -m 700 "$scratch/victim"
	mkdir "$scratch/u"
	chown 65534:65534 "$scratch/u"
	ln -s "$scratch/victim" "$scratch/u/sub"
	chown -h 65534:65534 "$scratch/u/sub"
	run -2 --separate-stderr "$DBIO" matrix "${JOB[@]}" --image "$scratch/u/sub" --image-size 64m --fs ext2
	[ "$stderr" = "dbio: --image $scratch/u/sub: a symlink that belongs to user 65534: refusing to follow it (give the path it points to)" ]
	run -2 --separate-stderr "$DBIO" matrix "${JOB[@]}" --image "$scratch/u/sub/x.img" --image-size 64m --fs ext2
	[ "$stderr" = "dbio: --image $scratch/u/sub/x.img: component '$scratch/u/sub' is a symlink that belongs to user 65534: refusing to follow it (give the path it points to)" ]
	is_empty_dir "$scratch/victim"
	[ -z "$(leftovers)" ]
}
