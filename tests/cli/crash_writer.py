# The toy writers of tests/cli/crash.bats, run by dbio crash --exec on the
# power-cut layer: each acknowledges record i as the line "FILE rec<i>" on
# stdout and then waits for dbio's line on stdin (dbio cuts meanwhile).
#   ack-then-sync N: appends rec<i> to log, acknowledges, then fsyncs (unsafe)
#   sync-then-ack N: appends rec<i> to log, fsyncs, then acknowledges (safe)
#   rename-no-dirsync N: writes rec<i> to tmp, fsyncs it, renames it to
#     rec<i> and acknowledges, never fsyncing the directory (unsafe)
#   ack-no-sync N: appends rec<i> to log and acknowledges, never fsyncing
#     (under --model=reorder a later record may survive an earlier)
#   big-ack-then-sync N: as ack-then-sync with records of 8 KiB (rec<i>,
#     padding, a newline), each one write (torn under torn4k, torn512)
#   sync-then-ack-ignore N: as sync-then-ack, but a failed write or fsync is
#     ignored and the record acknowledged all the same (unsafe under --fault)
#   sync-then-ack-check N: as sync-then-ack, but a failed write or fsync is
#     reported as a line "error: ..." and its record not acknowledged
# log's name is made durable first (an fsync of the directory), so the
# appending writers differ only in when the data is synced.
import os
import sys

mode, count = sys.argv[1], int(sys.argv[2])


def ack(name, i):
    print("%s rec%d" % (name, i), flush=True)
    sys.stdin.readline()


def sync_dir():
    d = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
    os.fsync(d)
    os.close(d)


def record(i):
    if mode != "big-ack-then-sync":
        return "rec%d" % i
    head = "rec%d-" % i
    return head + "x" * (8191 - len(head))


def write_sync(fd, i):
    """Append record i and fsync it: None, or the error's text."""
    try:
        os.write(fd, record(i).encode() + b"\n")
        os.fsync(fd)
    except OSError as e:
        return "%s of rec%d: %s" % ("write" if e.errno == 28 else "fsync", i, os.strerror(e.errno))
    return None


if mode in ("ack-then-sync", "sync-then-ack", "ack-no-sync", "big-ack-then-sync"):
    fd = os.open("log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    sync_dir()
    for i in range(1, count + 1):
        os.write(fd, record(i).encode() + b"\n")
        if mode == "sync-then-ack":
            os.fsync(fd)
        print("log %s" % record(i), flush=True)
        sys.stdin.readline()
        if mode in ("ack-then-sync", "big-ack-then-sync"):
            os.fsync(fd)
elif mode in ("sync-then-ack-ignore", "sync-then-ack-check"):
    fd = os.open("log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    sync_dir()
    for i in range(1, count + 1):
        err = write_sync(fd, i)
        if err and mode == "sync-then-ack-check":
            print("error: " + err, flush=True)
        else:
            ack("log", i)
elif mode == "rename-no-dirsync":
    for i in range(1, count + 1):
        fd = os.open("tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.write(fd, b"rec%d\n" % i)
        os.fsync(fd)
        os.close(fd)
        os.rename("tmp", "rec%d" % i)
        ack("rec%d" % i, i)
else:
    sys.exit("crash_writer.py: unknown mode " + mode)
