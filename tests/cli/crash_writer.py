# The toy writers of tests/cli/crash.bats, run by dbio crash --exec on the
# power-cut layer: each acknowledges record i as the line "FILE rec<i>" on
# stdout and then waits for dbio's line on stdin (dbio cuts meanwhile).
#   ack-then-sync N: appends rec<i> to log, acknowledges, then fsyncs (unsafe)
#   sync-then-ack N: appends rec<i> to log, fsyncs, then acknowledges (safe)
#   rename-no-dirsync N: writes rec<i> to tmp, fsyncs it, renames it to
#     rec<i> and acknowledges, never fsyncing the directory (unsafe)
# log's name is made durable first (an fsync of the directory), so the first
# two differ only in when the data is synced.
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


if mode in ("ack-then-sync", "sync-then-ack"):
    fd = os.open("log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    sync_dir()
    for i in range(1, count + 1):
        os.write(fd, b"rec%d\n" % i)
        if mode == "sync-then-ack":
            os.fsync(fd)
        ack("log", i)
        if mode == "ack-then-sync":
            os.fsync(fd)
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
