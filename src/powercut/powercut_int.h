/*
 * The power-cut layer's private parts: the state shared by the FUSE
 * handlers (fs.c) and the setup, cut and cleanup (powercut.c), and the
 * durable store's helpers (store.c). No other folder includes this.
 */
#ifndef DBIO_POWERCUT_POWERCUT_INT_H
#define DBIO_POWERCUT_POWERCUT_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

#include "powercut/powercut.h"

#define POWERCUT_PREFIX ".dbio-powercut."
#define POWERCUT_MARKER "dbio-powercut"

struct fuse;

struct powercut {
	char name[64];	      /* .dbio-powercut.<pid> in the target */
	char mnt[4096];	      /* its mnt/, absolute */
	int dirfd;	      /* the target */
	int ownfd;	      /* the layer's directory */
	int livefd;	      /* live/: what the workload sees */
	int storefd;	      /* store/: f<ino> durable data, d<ino> durable names */
	ino_t root_ino;	      /* live/'s inode */
	bool keep_all;	      /* DBIO_POWERCUT_KEEP=all: the test hook */
	bool keep_none;	      /* DBIO_POWERCUT_KEEP=none: a cut keeps nothing */
	pthread_mutex_t lock; /* the driver's cuts, between its threads */
	struct fuse *fuse;    /* the server's (in the child) */
	pid_t child;	      /* the server, in the driver; 0 when none */
	int chan;	      /* the socket between the two; -1 when none */
	pthread_t thread;     /* the driver's listener of durability points */
	bool mounted, serving;
	void (*on_durable)(void *arg, unsigned long n); /* powercut_on_durable */
	void *on_arg;
	unsigned long points; /* durability points so far */
	struct powercut_conf conf;
	unsigned long cuts;	      /* the driver's cuts so far: the models' seed */
	unsigned long fsyncs, writes; /* the server's, for the fault */
	bool fault_fired;	      /* the driver's: told by the server */
	unsigned long fault_points;   /* durability points before it */
	char fault_what[128];	      /* "fsync 3 of log: EIO" */
};

/* The server, after the fault hit (what it hit): told to the driver,
 * which records it, and waits for its answer. */
void powercut_fs_fault(struct powercut *pc, const char *what);

/* fs.c's handlers after a durability point returns (in the server:
 * counted, told to the driver). */
void powercut_point(struct powercut *pc);

/* fs.c: start the server (a child process) that mounts pc->mnt, and the
 * driver's listener of its durability points; kill it and unmount; in the
 * server, tell the driver of point n and wait for its answer. */
int powercut_fs_start(struct powercut *pc, char *err, size_t len);
void powercut_fs_stop(struct powercut *pc);
void powercut_fs_point(struct powercut *pc, unsigned long n);

/* log.c: the unsynced writes of a live file fd, in store/w<ino> (ops in
 * order: a write's offset and bytes, a new size, or "unknown": the next
 * fsync copies the whole file): a write, a truncate or extension, an
 * unknown change; drop them all (a failed fsync). 0 or -errno. */
int powercut_log_write(struct powercut *pc, int fd, off_t off, const void *buf, size_t n);
int powercut_log_size(struct powercut *pc, int fd, off_t size);
int powercut_log_unknown(struct powercut *pc, int fd);
int powercut_log_drop(struct powercut *pc, int fd);
/* Apply the log of file ino to the open file to: all of it (*whole true
 * when it has a change it cannot replay: the caller copies the live file
 * instead), or what the crash model keeps of it at this cut (the file
 * named name in the cut). 0 or -errno. */
int powercut_log_apply(struct powercut *pc, unsigned long long ino, int to, bool *whole);
int powercut_log_model(struct powercut *pc, unsigned long long ino, const char *name, int to);
void powercut_log_remove(struct powercut *pc, unsigned long long ino);

/* store.c: make the data of the open live file fd durable (fsync); the
 * names of the live directory fd durable (fsync of a directory); copy
 * file from to a new file name in dirfd; remove the tree name in dirfd,
 * not crossing into another filesystem. 0 or -errno. */
/* A file's or directory's owner and mode (as of its directory's last
 * fsync), set on the open fd of its copy in a cut. 0 or -errno. */
struct powercut_owner {
	unsigned mode, uid, gid;
};
int powercut_own(int fd, const struct powercut_owner *o);

int powercut_store_file(struct powercut *pc, int fd, bool whole);
int powercut_store_dir(struct powercut *pc, int fd);
int powercut_copy_file(int from, int dirfd, const char *name);
int powercut_remove_tree(int dirfd, const char *name);
/* Write the durable tree of directory ino into dest; the live tree of src
 * into dest (keep_all). 0 or -errno. */
int powercut_build_durable(struct powercut *pc, ino_t ino, int dest, int depth);
int powercut_copy_tree(int src, int dest, int depth);
/* Every file and directory of the live tree dir made durable (settle). */
int powercut_store_tree(struct powercut *pc, int dir, int depth);

#endif
