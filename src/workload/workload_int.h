/*
 * Private to workload/: helpers the workloads share, and the key-value
 * backends behind workload=kv. One file
 * per database, one const struct kv_backend, one line in kv.c's table.
 *
 * Contracts (every hook returns 0 or a negative code; the detail of a
 * failure is in errmsg's text):
 *   open(&db, path, conf, own, err)  create and open a new database at
 *                     path (an empty file dbio just made with O_EXCL, or an
 *                     empty directory for a backend with makes_dir, in the
 *                     thread's private directory, named through
 *                     /proc/self/fd); own is the backend's own keys (its
 *                     options table's struct), NULL without a table; may
 *                     allocate. err's message leaves the path out: the
 *                     caller names the file.
 *   begin(db, write)  start a batch: a write or a read-only transaction
 *                     where the engine has them.
 *   put(db, k, kl, v, vl, update)  store; update=false for a new key
 *                     (the engine may refuse a duplicate), true to overwrite.
 *   get(db, k, kl, buf, cap, &vl)  fetch; -ENOENT when absent; *vl is the
 *                     value's size; its first cap bytes (at most) are copied
 *                     into buf unless buf is NULL (kv's verify=).
 *   commit(db, sync)  end the batch; durable before returning when sync.
 *   close(db)         flush and free; db may be NULL.
 *   errmsg(db)        the engine's text for the last failure.
 * Appended, optional (NULL):
 *   check(job, conf, own, err)  at validation, before anything is written:
 *                     refuse (job_fail, naming the key) what the engine
 *                     cannot do with these keys; 0 when it can.
 *   del(db, k, kl)    remove the key within a write batch (absent: not an
 *                     error, as db_bench's deleterandom).
 *   seek(db, k, kl, &kvl)  position the engine's ordered iterator at the
 *                     first key >= k (k NULL: the first key); 0 with *kvl
 *                     the entry's key and value bytes, 1 the same when
 *                     that key is k itself (db_bench's "found"), -ENOENT
 *                     past the last. The iterator lives until the next write batch
 *                     begins or the database closes.
 *   next(db, &kvl)    move it on by one: as seek.
 * A backend without del, seek and next runs no db_bench benchmarks
 * (kv_bench.c says which it has).
 *   reopen(&db, path, &intact, err)  open the database a crash left at
 *                     path as the engine's own recovery would after a power
 *                     cut (dbio crash, kv_durable.c); *intact false when its
 *                     integrity check (sqlite's PRAGMA integrity_check)
 *                     failed, the database still open for gets. -EIO when
 *                     it would not open. NULL: no crash check for it.
 */
#ifndef DBIO_WORKLOAD_WORKLOAD_INT_H
#define DBIO_WORKLOAD_WORKLOAD_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "job/job.h"
#include "workload/fileio/logs.h"
#include "workload/workload.h"
#include "util/err.h"
#include "util/taus.h"
#include "workload/fileio/files.h"

struct kv_db;

/* What an engine says it wrote since it opened (kv_backend.io); a figure
 * it does not keep stays 0. */
struct kv_engine_io {
	uint64_t wal_bytes;	   /* its log: RocksDB's WAL */
	uint64_t flush_bytes;	   /* memtables written out as tables */
	uint64_t compaction_bytes; /* tables written by compactions */
	uint64_t compaction_us;	   /* time its compactions took */
	uint64_t stall_us;	   /* time writers waited on it (RocksDB's write stalls) */
};

/* workload=kv's own keys (kv.c's table), for its backends. */
struct kv_conf {
	char kv_engine[16]; /* gdbm, lmdb, sqlite, rocksdb or leveldb */
	uint64_t records;   /* to insert, per thread */
	uint64_t batch;	    /* records per batch (transaction, sync) */
	struct opt_range value_size;
	int key_order;	      /* enum kv_key_order */
	bool sync_each_batch; /* make each batch durable */
	uint64_t lookups;     /* random gets after the inserts */
	uint64_t updates;     /* random overwrites after the lookups */
	int verify;	      /* fio's verify=: any value but 0 reads every record back and checks it */
	char benchmarks[256]; /* db_bench's workloads to run instead, "fillseq,readrandom"; "": none */
	uint64_t readers;     /* readwhilewriting's reader threads beside its writer */
	int sqlite_sync;      /* enum kv_sqlite_sync: sqlite's PRAGMA synchronous */
};

enum kv_key_order { KV_KEY_SEQ, KV_KEY_RANDOM };
enum kv_sqlite_sync {
	KV_SQLITE_SYNC_AUTO,
	KV_SQLITE_SYNC_OFF,
	KV_SQLITE_SYNC_NORMAL,
	KV_SQLITE_SYNC_FULL,
	KV_SQLITE_SYNC_EXTRA
};

struct kv_backend {
	const char *name;
	const char *package; /* the Debian package that provides it, for messages */
	int (*open)(struct kv_db **db, const char *path, const struct kv_conf *conf, const void *own,
		    struct dbio_err *err);
	int (*begin)(struct kv_db *db, bool write);
	int (*put)(struct kv_db *db, const void *k, size_t kl, const void *v, size_t vl, bool update);
	int (*get)(struct kv_db *db, const void *k, size_t kl, void *buf, size_t cap, size_t *vl);
	int (*commit)(struct kv_db *db, bool sync);
	void (*close)(struct kv_db *db);
	const char *(*errmsg)(struct kv_db *db);
	/* Appended: the engine's own keys (refused on every other engine), or
	 * NULL; whether its database is a directory (an LSM tree's files)
	 * rather than one file; check, above. */
	const struct option_table *options;
	bool makes_dir;
	int (*check)(const struct job *job, const struct kv_conf *conf, const void *own,
		     struct dbio_err *err);
	/* Appended: db_bench's deletes and ordered reads; above. */
	int (*del)(struct kv_db *db, const void *k, size_t kl);
	int (*seek)(struct kv_db *db, const void *k, size_t kl, size_t *kvl);
	int (*next)(struct kv_db *db, size_t *kvl);
	/* Appended, optional: the engine's own account of what it wrote since
	 * it opened (kv_amp.c); 0, or -ENOSYS when it keeps none. */
	int (*io)(struct kv_db *db, struct kv_engine_io *io);
	/* Appended, optional: the library's version into buf ("7.8.3"), and a
	 * function of the library, for kv_lib_assertions. */
	void (*version)(char *buf, size_t len);
	const void *lib_symbol;
	/* Appended, optional: reopen, above. */
	int (*reopen)(struct kv_db **db, const char *path, bool *intact, struct dbio_err *err);
	/* Appended, optional: the durability setting conf and own (the
	 * engine's keys, as for open) put in force, in the engine's words
	 * ("synchronous=FULL", "MDB_NOSYNC", "WAL synced per batch"), for dbio
	 * crash's result; NULL: sync_each_batch's value is said. */
	void (*setting)(const struct kv_conf *conf, const void *own, char *buf, size_t len);
};

/* Whether the shared library that holds sym was built with assertions on
 * (it calls glibc's __assert_fail, which assert() does only without
 * NDEBUG): 1, 0, or -1 when it cannot be told (kv_lsm.c). */
int kv_lib_assertions(const void *sym);

/* The version in the file name of the shared library that holds sym
 * (librocksdb.so.7.8.3: "7.8.3"), into buf; "" when there is none. */
void kv_lib_version(const void *sym, char *buf, size_t len);

/* kv_lib_note: find be's library's version and assertions, once (at
 * validation, before the workers); kv_lib_get: what it found (a static
 * string or NULL; 1, 0 or -1), for a worker's w->db_version and
 * w->db_assertions. */
void kv_lib_note(const struct kv_backend *be);
void kv_lib_get(const struct kv_backend *be, const char **version, int *assertions);

/* kv_durable.c: dbio crash's check of workload=kv (workload/durable.h).
 * start: after prepare, when a probe is armed (0 and nothing otherwise):
 * the table of what is acknowledged, the engine's files made durable
 * (own: the engine's keys; value: the fill every write starts from; path:
 * the database's, under the layer's mount). seal: the crc32c of the key, kv's stamp and the rest
 * of v, into v's bytes 16..20. issue: a write of the batch (its record,
 * sequence, length); ack: the batch's commit returned (a cut may follow);
 * finish: the findings into w->durable, the table freed (cleanup calls it
 * too). */
int kv_durable_start(struct worker *w, const struct kv_backend *be, const struct kv_conf *conf,
		     const void *own, const char *value, const char *path);
void kv_durable_seal(char *v, size_t vl, const char *key, size_t kl);
void kv_durable_issue(uint64_t rec, uint64_t seq, size_t vl);
void kv_durable_ack(void);
/* A put or commit of the run failed (why: the engine's words): noted,
 * as the workload's sight of an injected fault when it has hit, and the
 * state it leaves checked. */
void kv_durable_failed(const char *why);
void kv_durable_finish(struct worker *w);

/* The name of the SQLite VFS that keeps the /proc/self/fd/ paths dbio gives
 * it (sqlite_vfs.c); pass it to sqlite3_open_v2 after workload_sqlite_vfs()
 * returned 0 (it registers the VFS once; -ENOSYS when it cannot). */
#define WORKLOAD_SQLITE_VFS "dbio-proc"
int workload_sqlite_vfs(void);

/* Refuse (DBIO_EINPUT via job_fail, naming key) a job whose buffers of
 * need bytes, "<what> = need" of <purpose>, would take more than half of
 * the machine's RAM, or of mem_limit when the job sets a smaller one:
 * within every key's own bounds, a product of keys can still ask for more
 * memory than there is, which would otherwise fail only when the threads
 * start, after the files are laid out (or push the machine into swap).
 * fix says what to lower. 0 when it fits. */
int workload_check_memory(const struct job *job, const char *key, const char *what, const char *purpose,
			  uint64_t need, const char *fix, struct dbio_err *err);

/* Bytes the thread's files (its dbio.<job>.<thread>. prefix) occupy. */
uint64_t workload_disk_bytes(const struct worker *w);

/* Bytes the files of directory name in the thread's private directory
 * occupy (an LSM tree's database directory); 0 when there is none. */
uint64_t workload_db_subdir_bytes(const struct worker *w, const char *name);

/* The seed of the thread's draws: the job's randseed moved on by fio's
 * thread number (thread_base + index) — every workload, so that two jobs of one file draw
 * apart, as fio seeds each thread by its number, and a lone job draws as
 * before. */
static inline uint64_t worker_seed(const struct worker *w)
{
	return w->job->randseed + fileio_files(w->job)->pacing.thread_base + w->index;
}

/* fio 3.33's seed of purpose p (enum taus_purpose) for the thread: from
 * the randseed fio would use, the job's when given (or drawn from the
 * clock by randrepeat=0), else fio's default 0x89 (137; dbio's own
 * default, 24301, seeds the rest), and fio's thread number, thread_base +
 * index counted from 1. The draws that make fio's op counts use it. */
static inline uint64_t worker_fio_seed(const struct worker *w, unsigned p)
{
	const bool given = job_is_set(w->job, "randseed") || !w->job->randrepeat;

	return taus_fio_seed(given ? w->job->randseed : 0x89,
			     fileio_files(w->job)->pacing.thread_base + w->index + 1, p);
}

/* Should the thread stop (signal, or another thread of the job failed)? */
static inline bool workload_stopped(const struct worker *w)
{
	return atomic_load_explicit(w->stop, memory_order_relaxed) ||
	       atomic_load_explicit(w->job_stop, memory_order_relaxed);
}

static inline void workload_record(struct worker *w, enum op_type t, uint64_t bytes, uint64_t lat,
				   uint64_t now)
{
	op_stats_add(&w->stats[t], bytes, lat);
	if (series_on(&w->series))
		series_add(&w->series, t, bytes, lat, now);
}

/* fileio's hooks, for workloads that build on its page I/O (oltp). */
extern const struct workload_ops workload_fileio;

/* Count a read or write of the worker's file toward its directory, in a job
 * with several (w->tio). */
static inline void target_add(struct worker *w, unsigned file, enum op_type op, uint64_t len, uint64_t end_ns)
{
	struct target_io *t = &w->tio[w->files[file].dir];

	t->ops[op == OP_WRITE] += op != OP_TRIM; /* a directory's reads and writes */
	t->bytes[op == OP_WRITE] += op != OP_TRIM ? len : 0;
	t->last_ns = end_ns;
}

/* fileio's page I/O for a workload that builds on it (oltp): open the
 * thread's files, make the buffers, set the job's engine up on them. The
 * state goes into *st (also on failure; fileio_pages_teardown frees it).
 * 0 or the error, with detail in w->err. */
struct fileio_state;
int fileio_pages_setup(struct worker *w, struct fileio_state **st);
void fileio_pages_teardown(struct worker *w, struct fileio_state *st);

/* The first of the thread's buffers (bs bytes of seeded data). */
void *fileio_pages_buffer(const struct fileio_state *st);

extern const struct kv_backend kv_gdbm;
extern const struct kv_backend kv_lmdb;
extern const struct kv_backend kv_sqlite;
extern const struct kv_backend kv_rocksdb;
extern const struct kv_backend kv_leveldb;

/* db_bench's workloads as kv's phases (kv_bench.c). kv_bench_check
 * refuses (job_fail) a benchmarks= that backend be cannot run or that
 * clashes with kv's own phases; kv_bench_batches is the batches the list
 * makes, for the series; kv_bench_run runs the list on the thread's
 * database, one phase each: 0 or the error, with detail in w->err. */
struct kv_bench_ctx {
	const struct kv_backend *be;
	struct kv_db *db;
	const char *path; /* the database, for messages */
	char *value;	  /* value_size.hi bytes of the thread's fill */
	uint64_t *writes; /* puts so far, for the stamp each value leads with */
};
int kv_bench_check(const struct job *job, const struct kv_conf *conf, const struct kv_backend *be,
		   struct dbio_err *err);
uint64_t kv_bench_batches(const struct kv_conf *conf);
int kv_bench_run(struct worker *w, struct kv_bench_ctx *c, uint64_t *now);

/* kv_rww.c: db_bench's readwhilewriting as phase ph (named, its lat made,
 * by kv_bench.c): conf->readers threads (this one among them) of reads
 * gets each on c's database while one more thread writes batches of
 * random puts until they are done. The readers' gets are the phase's ops
 * and lat, and the worker's lookups; the writer's puts its updates and
 * batches, and the phase figure writes. 0, or the error in w->err. */
int kv_rww_phase(struct worker *w, struct kv_bench_ctx *c, struct phase *ph, uint64_t reads, uint64_t *now);

/* Write amplification three ways, per kv phase (kv_amp.c): kv_amp_begin
 * before a phase takes the engine's account, /proc/self/io's wchar and the
 * sectors written of the target's device; kv_amp_end adds the phase's
 * figures: user_bytes (keys and values put), the engine's wal, flush and
 * compaction bytes with their sum engine_write_bytes (each thread its own
 * database's), fs_write_bytes and device_write_bytes (the process's and the
 * device's, by thread 0 alone, 0 on the others), compaction_s, stall_s. */
struct kv_amp {
	struct kv_engine_io eng;
	bool eng_known, dev_known;
	unsigned major, minor;
	uint64_t wchar, sectors, user_bytes;
};
void kv_amp_begin(struct kv_amp *a, const struct worker *w, const struct kv_backend *be, struct kv_db *db);
void kv_amp_end(struct kv_amp *a, struct worker *w, const struct kv_backend *be, struct kv_db *db);

/* The compressions of an LSM tree's blocks: db_bench's names of them
 * (kv_lsm.c); each engine refuses those it has not. */
enum kv_compression {
	KV_COMPRESS_NONE,
	KV_COMPRESS_SNAPPY,
	KV_COMPRESS_ZLIB,
	KV_COMPRESS_BZIP2,
	KV_COMPRESS_LZ4,
	KV_COMPRESS_LZ4HC,
	KV_COMPRESS_ZSTD,
};
extern const struct opt_enum kv_compression_values[];

/* The own keys of the part of job's workload that applies to it (a kv
 * engine's: OPTION_SCOPE_PART), or NULL when it has none. */
const void *workload_part_conf(const struct job *job);

#endif
