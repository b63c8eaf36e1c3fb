#!/usr/bin/env bats
# A real full filesystem: an ext4 of 8 MiB on a loop device, which a job
# of 16 MiB fills mid-run. The write that fails is named with its offset,
# the exit status is 1, the partial result counts only the writes that
# were done (their bytes end where the failed one begins), and the files
# are removed. The preallocation failing up front says so too. Needs root,
# losetup and mkfs.ext4; the loop device and the mount go in teardown even
# when a test fails.

load helpers

# small_ext4: an 8 MiB ext4 mounted at $small, empty, or skip saying why.
small_ext4() {
	small="$scratch/mnt"
	mount_ext4 "$small" 8m
	rmdir "$small/lost+found"
}

@test "ENOSPC mid-run on a full ext4: the failed write named, exit 1, only done writes counted, files removed" {
	small_ext4
	run -1 --separate-stderr "$DBIO" run --directory="$small" --rw=write --size=16m --fallocate=none \
		--output "$result"
	[[ "${stderr_lines[-1]}" =~ ^"dbio: $small/dbio.job.0.0: write of 4096 bytes at offset "([0-9]+)": No space left on device"$ ]]
	local failed_at=${BASH_REMATCH[1]}
	json_is "$result" partial=true "$R0.partial=true" \
		"error=$small/dbio.job.0.0: write of 4096 bytes at offset $failed_at: No space left on device"
	# Sequential writes from 0: the bytes counted end where the failed
	# write began, and the filesystem held some of them.
	json_is "$result" "$R0.ops.write.bytes=$failed_at"
	[ "$failed_at" -gt 0 ]
	[ "$failed_at" -lt 8388608 ]
	is_empty_dir "$small"
}

@test "ENOSPC up front: a preallocation larger than the filesystem is refused with its size, nothing left" {
	small_ext4
	run -1 --separate-stderr "$DBIO" run --directory="$small" --rw=write --size=16m --output "$result"
	[ "${stderr_lines[-1]}" = "dbio: $small/dbio.job.0.0: cannot preallocate 16 MiB: No space left on device" ]
	is_empty_dir "$small"
}
