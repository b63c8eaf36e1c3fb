/*
 * mmap: each file is mapped whole (MAP_SHARED) when the worker attaches its
 * files; a read copies from the mapping into the buffer, a write copies the
 * buffer into the mapping (fio's mmap engine). Page faults are the I/O.
 * fsync and fdatasync become msync(MS_SYNC) of the file's whole mapping,
 * which writes its dirty pages back and waits for them. The mapping goes
 * through the page cache, so direct=1 does not apply.
 *
 * A fault the kernel cannot satisfy is not an error return but SIGBUS: a
 * write into a hole of a sparse file (fallocate=none) on a full filesystem,
 * a page past the end of a file truncated while the job runs, an I/O error
 * reading a page in. Left alone it kills dbio at once, with no result and
 * its files left behind (so that the next run refuses the directory). So
 * every copy runs guarded: the thread arms its own sigjmp_buf around the
 * memcpy (sigsetjmp without the signal mask: no system call, a few
 * nanoseconds per operation), and one SIGBUS handler, installed with the
 * first mmap engine, jumps back into the copy when the faulting address is
 * inside the range the faulting thread is copying. The copy then returns
 * -errno: -ENODATA when the page is past the file's end now, -ENOSPC for a
 * write when the filesystem has less than the copy left free, else -EIO;
 * req->res is what was copied before the faulting page (si_addr). Any other
 * SIGBUS is handed to the action there was before (the default: the
 * process dies, as it would without this handler). Preallocating the
 * writable mappings would avoid only the first case and take fallocate=none
 * its meaning, so the handler is the one mechanism for all three.
 *
 * mmap and msync are called directly: dbio_sys has no entries for them.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "engine/engine.h"

struct mmap_state {
	bool writable;
	size_t nfiles;
	uint64_t file_bytes;
	const int *fds; /* the worker's, valid while attached */
	char **maps;	/* one per file; NULL until mapped */
};

/* The thread's guard around one copy: [lo, hi) of a mapping, armed only
 * while the memcpy runs. Thread-local, so the handler, which runs in the
 * faulting thread, sees that thread's copy. */
static _Thread_local struct mmap_guard {
	sigjmp_buf jump;
	char *lo, *hi;
	char *fault; /* si_addr of the fault that jumped */
	volatile sig_atomic_t armed;
} mmap_guard;

static struct sigaction mmap_prev_sigbus;
static pthread_once_t mmap_sigbus_once = PTHREAD_ONCE_INIT;

static void mmap_on_sigbus(int sig, siginfo_t *si, void *uc)
{
	struct mmap_guard *g = &mmap_guard;
	char *addr = si->si_addr;

	(void)uc;
	/* si_code > 0: raised by the kernel for a fault, not sent by kill. */
	if (g->armed && si->si_code > 0 && addr >= g->lo && addr < g->hi) {
		g->armed = 0;
		g->fault = addr;
		siglongjmp(g->jump, 1);
	}
	/* Not a fault of a guarded copy: as if this handler were not there.
	 * A fault returns into the faulting instruction, which faults again
	 * under the previous action; a sent signal is sent again. */
	sigaction(SIGBUS, &mmap_prev_sigbus, NULL);
	if (si->si_code <= 0)
		raise(sig);
}

static void mmap_sigbus_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = mmap_on_sigbus;
	/* SA_NODEFER: siglongjmp without the saved mask leaves SIGBUS
	 * unblocked, so a later fault of the thread is caught too. */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &mmap_prev_sigbus);
}

static int mmap_setup(struct engine *e, const struct engine_conf *conf)
{
	struct mmap_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->writable = conf->writable;
	e->priv = st;
	pthread_once(&mmap_sigbus_once, mmap_sigbus_install);
	return 0;
}

static void mmap_teardown(struct engine *e)
{
	struct mmap_state *st = e->priv;

	if (!st)
		return;
	for (size_t i = 0; st->maps && i < st->nfiles; i++)
		if (st->maps[i])
			munmap(st->maps[i], st->file_bytes);
	free(st->maps);
	free(st);
	e->priv = NULL;
}

static int mmap_attach(struct engine *e, const struct engine_files *files)
{
	struct mmap_state *st = e->priv;
	int prot = PROT_READ | (st->writable ? PROT_WRITE : 0);

	st->maps = calloc(files->nfiles, sizeof(*st->maps));
	if (!st->maps)
		return -ENOMEM;
	st->nfiles = files->nfiles;
	st->file_bytes = files->file_bytes;
	st->fds = files->fds;
	for (size_t i = 0; i < files->nfiles; i++) {
		void *p = mmap(NULL, files->file_bytes, prot, MAP_SHARED, files->fds[i], 0);

		if (p == MAP_FAILED)
			return -errno;
		st->maps[i] = p;
	}
	return 0;
}

/* After a fault at mmap_guard.fault in the copy of len bytes at at: what
 * was copied before the faulting page, and why the kernel refused the
 * page, as far as the file and its filesystem tell (SIGBUS says no more). */
static int mmap_fault(const struct mmap_state *st, struct io_req *req, const char *at, uint64_t len)
{
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	const char *fault = mmap_guard.fault; /* in [at, at + len): the handler checked */
	const uintptr_t fault_page = (uintptr_t)fault & ~(page - 1);
	const uint64_t fault_off = req->off + (uint64_t)(fault - at);
	const int fd = st->fds[req->file];
	struct statvfs vfs;
	struct stat sb;

	req->res = fault_page > (uintptr_t)at ? (int64_t)(fault_page - (uintptr_t)at) : 0;
	if (fstat(fd, &sb) == 0 && fault_off >= (uint64_t)sb.st_size)
		return -ENODATA; /* the file was cut short under the mapping */
	if (req->op == OP_WRITE && fstatvfs(fd, &vfs) == 0 &&
	    (uint64_t)(geteuid() ? vfs.f_bavail : vfs.f_bfree) * vfs.f_frsize < len)
		return -ENOSPC; /* no block for the page of a sparse file */
	return -EIO;
}

static int mmap_io(struct engine *e, struct io_req *req)
{
	const struct mmap_state *st = e->priv;
	char *const at = st->maps[req->file] + req->off;
	/* Past the mapping would be SIGBUS, not a short read: copy what is
	 * inside it, then say -ENODATA. */
	const bool past = req->off >= st->file_bytes || req->len > st->file_bytes - req->off;
	const uint64_t len = !past ? req->len : req->off < st->file_bytes ? st->file_bytes - req->off : 0;

	req->res = 0;
	if (!len)
		return -ENODATA;
	/* Nothing set between here and the jump is read after it. */
	if (sigsetjmp(mmap_guard.jump, 0))
		return mmap_fault(st, req, at, len);
	mmap_guard.lo = at;
	mmap_guard.hi = at + len;
	atomic_signal_fence(memory_order_seq_cst);
	mmap_guard.armed = 1;
	atomic_signal_fence(memory_order_seq_cst);
	if (req->op == OP_READ)
		memcpy(req->buf, at, len);
	else
		memcpy(at, req->buf, len);
	atomic_signal_fence(memory_order_seq_cst);
	mmap_guard.armed = 0;
	req->res = (int64_t)len;
	return past ? -ENODATA : 0;
}

static int mmap_sync(struct engine *e, int fd, enum op_type op)
{
	struct mmap_state *st = e->priv;

	(void)op; /* msync has no data-only variant; sync_file_range is refused (mmap_check) */
	for (size_t i = 0; i < st->nfiles; i++)
		if (st->fds[i] == fd) {
			if (msync(st->maps[i], st->file_bytes, MS_SYNC) < 0)
				return -errno;
			return 0;
		}
	return -EBADF;
}

static const char *mmap_check(const struct engine_conf *conf)
{
	if (conf->direct)
		return "mmap copies through the page cache, so direct=1 cannot apply; use direct=0, or another engine (ioengine=psync) with direct=1";
	if (conf->sync_file_range)
		return "mmap writes through the mapping, which sync_file_range does not write back; use fsync or fdatasync (msync), or another engine";
	return NULL;
}

const struct engine_ops engine_mmap = {
	.name = "mmap",
	.summary = "memcpy to/from a MAP_SHARED mapping of each file; fsync and fdatasync are msync(MS_SYNC)",
	.setup = mmap_setup,
	.teardown = mmap_teardown,
	.io = mmap_io,
	.sync = mmap_sync,
	.attach = mmap_attach,
	.check = mmap_check,
	.caps = ENGINE_CAP_OWN_IO | ENGINE_CAP_OWN_SYNC,
};
