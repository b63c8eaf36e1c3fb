/*
 * dbio matrix: run the same job on freshly made filesystems — every
 * combination of --fs (type and mkfs options), --mount-opts and --sched —
 * on a loop image dbio creates (or, with --device X --destroy-data, a real
 * block device), into one result rewritten after each configuration. The
 * storage is provision/'s; the jobs run as in `dbio run` (cmd/jobrun.c).
 *
 * The result holds every configuration's job entries, each with `config`
 * (what was asked and what statfs and sysfs say is in force) and `point`
 * (the configuration as strings, so `dbio compare` of two matrix results
 * aligns them configuration by configuration). The text output is the
 * comparison table of analysis/compare.c (views/comparison.c prints it), a column per configuration: one
 * view of the result per configuration (its job entries only) is compared
 * like result files, so the marks are those of `dbio compare`.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd_int.h"
#include "cmd/opts.h"
#include "analysis/compare.h"
#include "analysis/metric.h"
#include "views/comparison.h"
#include "views/text.h"
#include "result/result.h"
#include "provision/provision.h"
#include "util/atomic.h"
#include "util/units.h"

#define MATRIX_MAX_CONFIGS COMPARE_MAX_FILES
#define MATRIX_MAX_AXIS	   32

struct matrix_args {
	const char *image;
	const char *image_size;
	const char *device;
	const char *fs[MATRIX_MAX_AXIS];
	size_t nfs;
	const char *mount_opts[MATRIX_MAX_AXIS];
	size_t nmount;
	char *sched[MATRIX_MAX_AXIS]; /* split from the --sched lists (owned) */
	size_t nsched;
	const char *metrics;
	const char *alpha;
	bool destroy_data, cleanup, loop_direct_io;
};

/* One combination; pointers into matrix_args and the parsed fs list. */
struct config {
	const struct provision_fs *fs;
	const char *mount_opts; /* "" for the defaults */
	const char *sched;	/* "" to keep the device's */
	char label[700];
};

static void matrix_args_release(struct matrix_args *m)
{
	for (size_t i = 0; i < m->nsched; i++)
		free(m->sched[i]);
}

/* Undo what killed runs left. Before a run (!explicit) what cannot be
 * undone is a warning: it stays recorded for `dbio matrix --cleanup`, and
 * the new run, with an image and mount point of its own, goes on. */
static int do_cleanup(bool quiet, bool explicit)
{
	struct dbio_err err = { 0 };
	char *log = NULL;
	size_t n = 0;
	int rc = provision_cleanup_stale(&n, &log, &err);

	if (log && !quiet)
		for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n"))
			fprintf(stderr, "dbio: cleanup: %s\n", line);
	if (!rc && !quiet && explicit)
		fprintf(stderr, "dbio: cleanup: %zu stopped run%s undone\n", n, n == 1 ? "" : "s");
	free(log);
	if (rc && explicit)
		cmd_error("%s", err.msg);
	else if (rc)
		fprintf(stderr, "dbio: warning: %s; `dbio matrix --cleanup` tries again\n", err.msg);
	return explicit ? rc : 0;
}

static void config_label(struct config *c)
{
	snprintf(c->label, sizeof(c->label), "%s%s%s%s%s%s%s", c->fs->type, c->fs->options[0] ? " " : "",
		 c->fs->options, c->mount_opts[0] ? ", -o " : "", c->mount_opts,
		 c->sched[0] ? ", scheduler " : "", c->sched);
}

static json_t *matrix_json(const struct matrix_args *m, const struct config *cs, size_t n,
			   const struct provision_env *env, size_t jobs_per_config)
{
	json_t *configs = json_array();

	for (size_t c = 0; c < n; c++)
		json_array_append_new(configs,
				      json_pack("{s:s, s:s, s:s, s:s, s:s}", "label", cs[c].label, "fs",
						cs[c].fs->type, "mkfs_options", cs[c].fs->options,
						"mount_options", cs[c].mount_opts, "scheduler", cs[c].sched));
	json_t *o = json_pack("{s:o, s:I, s:I, s:b}", "configs", configs, "jobs_per_config",
			      (json_int_t)jobs_per_config, "completed", (json_int_t)0, "loop_direct_io",
			      m->loop_direct_io);

	if (o && env->image[0]) {
		json_object_set_new(o, "image", json_string(env->image));
		json_object_set_new(o, "image_size_bytes", json_integer((json_int_t)env->image_size_bytes));
	} else if (o) {
		json_object_set_new(o, "device", json_string(m->device));
	}
	return o;
}

/* Mark jobs[base..] with the configuration they ran on. */
static void annotate(json_t *result, size_t base, size_t index, const struct config *c,
		     const struct provision_info *info)
{
	json_t *jobs = json_object_get(result, "jobs");

	for (size_t j = base; j < json_array_size(jobs); j++) {
		json_t *entry = json_array_get(jobs, j);
		const char *sched = info->scheduler[0] ? info->scheduler : c->sched;

		json_object_set_new(entry, "config",
				    json_pack("{s:I, s:s, s:s, s:s, s:s, s:s, s:s, s:I}", "index",
					      (json_int_t)index, "label", c->label, "fs", c->fs->type,
					      "mkfs_options", c->fs->options, "mount_options", c->mount_opts,
					      "scheduler", sched, "device", info->device,
					      "fs_block_size_bytes", (json_int_t)info->fs_block_size_bytes));
		json_object_set_new(entry, "point",
				    json_pack("{s:s, s:s, s:s, s:s}", "fs", c->fs->type, "mkfs_options",
					      c->fs->options, "mount_options", c->mount_opts, "scheduler",
					      sched));
	}
}

/* The comparison table: one view of result per configuration (its job
 * entries), compared as files. */
static void print_table(const json_t *result, size_t ndone, const struct metric *const *metrics,
			size_t nmetrics, double alpha)
{
	json_t *views[MATRIX_MAX_CONFIGS] = { 0 };
	const char *names[MATRIX_MAX_CONFIGS];
	const struct metric *defaults[COMPARE_MAX_METRICS];
	struct comparison cmp;
	struct dbio_err err = { 0 };
	int n;

	if (ndone < 2) {
		text_summary(stdout, result, false);
		return;
	}
	n = compare_split_matrix(result, views, names, MATRIX_MAX_CONFIGS);
	if (n < 0) {
		cmd_error("matrix: out of memory");
		return;
	}
	if (!nmetrics) { /* no --metric: what the jobs' kind asks */
		nmetrics = metric_defaults(&result, 1, defaults, COMPARE_MAX_METRICS);
		metrics = defaults;
	}
	if (compare_build(&cmp, (const json_t *const *)views, names, (size_t)n, metrics, nmetrics, alpha,
			  NULL, &err)) {
		cmd_error("%s", err.msg);
	} else {
		for (size_t w = 0; w < cmp.nwarnings; w++)
			cmd_error("%s", cmp.warnings[w]);
		compare_print_text(stdout, &cmp, COMPARE_LAYOUT_FIT_FULL, 0);
	}
	compare_release(&cmp);
	for (int c = 0; c < n; c++)
		json_decref(views[c]);
}

/* One `dbio matrix`: what its steps share. About 200 KiB with the mkfs
 * paths, filesystems and configurations, so it lives on the heap. */
struct matrix {
	struct run_args args; /* first: the rows of jobrun and matrix have offsets from it */
	struct matrix_args m;
	struct dbio_err err;
	struct provision_fs fss[MATRIX_MAX_AXIS];
	char mkfs[MATRIX_MAX_AXIS][PROVISION_PATH_MAX]; /* the mkfs of each --fs */
	size_t nfs;					/* fss parsed, to release */
	struct config cs[MATRIX_MAX_CONFIGS];
	size_t nconfigs, ndone;
	const struct metric *metrics[COMPARE_MAX_METRICS];
	int nmetrics;
	double alpha;
	uint64_t image_size;
	char image[PROVISION_PATH_MAX];
	struct provision_env env;
	struct jobset set;
	json_t *result;
	char *extra; /* "directory=<mount point>/dbio" */
	bool begun;  /* provision_begin was called: provision_end is due */
	bool saved;  /* --output holds the latest state */
};

/* A row of matrix's own: its offset in struct matrix, whose first
 * member is the run_args that jobrun's rows fill. */
#define MATRIX_AT(field) offsetof(struct matrix, m.field)

/* val appended to values[*n]: 0, or 2 when there are MATRIX_MAX_AXIS. */
static int axis_add(const struct cmd_opts *spec, const struct cmd_opt *o, const char **values, size_t *n,
		    const char *val)
{
	if (*n == MATRIX_MAX_AXIS) {
		cmd_error("%s: %s: more than %d values", spec->subject, o->name, MATRIX_MAX_AXIS);
		return 2;
	}
	values[(*n)++] = val;
	return 0;
}

static int parse_fs(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	struct matrix_args *m = &((struct matrix *)args)->m;

	return axis_add(spec, o, m->fs, &m->nfs, val);
}

static int parse_mount(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	struct matrix_args *m = &((struct matrix *)args)->m;

	return axis_add(spec, o, m->mount_opts, &m->nmount, val);
}

/* --sched LIST: its schedulers, one by one. */
static int parse_sched(const struct cmd_opts *spec, const struct cmd_opt *o, const char *val, void *args)
{
	struct matrix_args *m = &((struct matrix *)args)->m;
	char *copy = strdup(val), *save = NULL;

	if (m->nsched == MATRIX_MAX_AXIS) {
		free(copy);
		cmd_error("%s: %s: more than %d values", spec->subject, o->name, MATRIX_MAX_AXIS);
		return 2;
	}
	for (char *t = strtok_r(copy, ",", &save); t && m->nsched < MATRIX_MAX_AXIS;
	     t = strtok_r(NULL, ",", &save))
		m->sched[m->nsched++] = strdup(t);
	free(copy);
	return 0;
}

/* Before jobrun's rows: matrix's --metric is its own, not sweep's. */
static const struct cmd_opt matrix_rows[] = {
	{ .name = "--image",
	  .value = "PATH",
	  .offset = MATRIX_AT(image),
	  .help = "the image file to create (never an existing file dbio did not make), or a directory to "
		  "create it in, on the disk under test",
	  .flags = CMD_OPT_NONEMPTY | CMD_OPT_REQUIRED },
	{ .name = "--image-size",
	  .value = "SIZE",
	  .offset = MATRIX_AT(image_size),
	  .help = "its size, sparse (default 4g)",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--fs",
	  .value = "TYPE[:OPTIONS]",
	  .parse = parse_fs,
	  .help = "a filesystem and its mkfs options, e.g. ext4, 'ext2:-b 1024', 'xfs:-b size=4096'; "
		  "options: letters, digits, spaces, - _ = , . : ^; repeat for more",
	  .flags = CMD_OPT_REPEAT | CMD_OPT_NONEMPTY | CMD_OPT_REQUIRED },
	{ .name = "--mount-opts",
	  .value = "OPTS",
	  .parse = parse_mount,
	  .help = "mount options, e.g. noatime or noatime,data=writeback; repeat for more (default: none)",
	  .flags = CMD_OPT_REPEAT },
	{ .name = "--sched",
	  .value = "LIST",
	  .parse = parse_sched,
	  .help = "I/O schedulers, e.g. none,mq-deadline (default: as it is)",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--loop-direct-io",
	  .kind = CMD_OPT_FLAG,
	  .offset = MATRIX_AT(loop_direct_io),
	  .help = "attach the image with direct I/O (no double caching)" },
	{ .name = "--device",
	  .value = "/dev/X",
	  .offset = MATRIX_AT(device),
	  .help = "format this block device instead of an image; needs --destroy-data as well, and --force "
		  "when it carries a filesystem or partition table; never when mounted or in use",
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--destroy-data",
	  .kind = CMD_OPT_FLAG,
	  .offset = MATRIX_AT(destroy_data),
	  .help = "with --device: agree that its data is lost" },
	{ .name = "--cleanup",
	  .kind = CMD_OPT_FLAG,
	  .offset = MATRIX_AT(cleanup),
	  .help = "unmount, detach and remove what killed runs left behind (every matrix run does this "
		  "first)" },
	{ .name = "--metric",
	  .value = "LIST",
	  .offset = MATRIX_AT(metrics),
	  .help = "rows of the table, from",
	  .help_more = cmd_opts_metric_lists,
	  .flags = CMD_OPT_NONEMPTY },
	{ .name = "--alpha",
	  .value = "P",
	  .offset = MATRIX_AT(alpha),
	  .help = "significance level of the table (default 0.05)",
	  .flags = CMD_OPT_NONEMPTY },
	{ 0 },
};

static const struct cmd_opt *const matrix_tables[] = { matrix_rows,	      jobrun_format_rows, jobrun_rows,
						       jobrun_not_sweep_rows, cmd_opts_help,	  NULL };

static const struct cmd_opts cmd_matrix_opts = {
	.name = "matrix",
	.subject = "command line",
	.operands = "[JOBFILE...] [--KEY=VALUE...]",
	.synopsis = "       dbio matrix ... --device /dev/X --destroy-data [--force]\n"
		    "       dbio matrix --cleanup\n",
	.about = "Runs the job (or the jobs of the job files) with its repeats on a freshly made\n"
		 "filesystem for every combination of --fs, --mount-opts and --sched, in that\n"
		 "order (the first --fs changing slowest): create a sparse image, attach a loop\n"
		 "device, mkfs, mount at a private mount point, set the I/O scheduler, run,\n"
		 "unmount, detach, remove the image. The job's directory is that filesystem.\n"
		 "One result holds every configuration, with the block size (statfs), mount\n"
		 "options and scheduler in force; the text output compares the configurations\n"
		 "side by side, as `dbio compare` does (give repeat=3 or more for the test).\n"
		 "Needs root.\n",
	.tail = "Exit status: 0 done, 1 failed, 2 bad input or refused, 128+N stopped by signal N\n"
		"(everything made is undone first).\n",
	.tables = matrix_tables,
};

static struct matrix *matrix_new(int argc)
{
	struct matrix *x = calloc(1, sizeof(*x));

	(void)argc;
	if (x) {
		x->env.state_fd = -1;
		x->env.loop_fd = -1;
		x->image_size = 4ull << 30;
		x->alpha = 0.05;
	}
	return x;
}

/* Release x (NULL: nothing), first undoing what a run that stopped
 * half-way left. */
static void matrix_free(struct matrix *x)
{
	if (!x)
		return;
	if (x->begun) {
		struct dbio_err end_err = { 0 };

		if (provision_end(&x->env, &end_err)) {
			cmd_error("%s", end_err.msg);
			cmd_error("matrix: `dbio matrix --cleanup` undoes what is left");
		}
	}
	jobset_release(&x->set);
	for (size_t i = 0; i < x->nfs; i++)
		provision_fs_release(&x->fss[i]);
	matrix_args_release(&x->m);
	jobrun_args_release(&x->args);
	json_decref(x->result);
	free(x->extra);
	free(x);
}

/* The command line, and `--cleanup` done at once. -1 to go on, else the
 * exit status (after printing what went wrong). */
static int matrix_parse(struct matrix *x, int argc, char **argv)
{
	struct matrix_args *m = &x->m;
	const struct run_args *a = &x->args;
	int status;

	status = jobrun_parse(&cmd_matrix_opts, argc, argv, &x->args);
	if (status)
		return status < 0 ? 0 : status;
	if (!m->cleanup)
		return -1;
	if (a->nfiles || a->nkeys || a->output || a->series_csv || a->format_set || a->progress >= 0 ||
	    a->wide || a->opts.keep || a->opts.force || m->nfs || m->image || m->device || m->nmount ||
	    m->nsched) {
		cmd_error("matrix --cleanup: takes no other options");
		return 2;
	}
	if (geteuid() != 0) {
		cmd_error("matrix --cleanup: needs root");
		return 2;
	}
	return do_cleanup(false, true) ? 1 : 0;
}

/* The options of matrix itself, and how they go together. */
static int check_options(struct matrix *x)
{
	const struct matrix_args *m = &x->m;
	char *end = NULL;

	if (!m->nfs)
		return dbio_err_set(&x->err, DBIO_EINPUT,
				    "matrix: no --fs: give at least one, e.g. --fs ext4");
	if (!m->image == !m->device)
		return dbio_err_set(
			&x->err, DBIO_EINPUT,
			"matrix: give --image PATH (a file to create, or a directory) or --device /dev/X --destroy-data");
	if (m->device && !m->destroy_data)
		return dbio_err_set(
			&x->err, DBIO_EINPUT,
			"matrix: --device %s: formatting a block device destroys its data: add --destroy-data to consent",
			m->device);
	if (m->destroy_data && !m->device)
		return dbio_err_set(&x->err, DBIO_EINPUT, "matrix: --destroy-data: only with --device");
	if (m->device && (m->image_size || m->loop_direct_io))
		return dbio_err_set(&x->err, DBIO_EINPUT,
				    "matrix: --image-size and --loop-direct-io: only with --image");
	if (m->image_size && (units_parse_size(m->image_size, &x->image_size) || x->image_size < (1u << 20)))
		return dbio_err_set(&x->err, DBIO_EINPUT,
				    "--image-size %s: expected a size of at least 1m, e.g. 4g",
				    m->image_size);
	if (m->alpha &&
	    (x->alpha = strtod(m->alpha, &end), *end || end == m->alpha || x->alpha <= 0 || x->alpha >= 1))
		return dbio_err_set(&x->err, DBIO_EINPUT,
				    "--alpha %s: expected a significance level between 0 and 1, e.g. 0.05",
				    m->alpha);
	return 0;
}

/* The axes: every --fs with its mkfs, --mount-opts and --sched, and how
 * many configurations they make. */
static int check_axes(struct matrix *x)
{
	const struct matrix_args *m = &x->m;
	size_t nm = m->nmount ? m->nmount : 1, ns = m->nsched ? m->nsched : 1;
	int rc = 0;

	for (; !rc && x->nfs < m->nfs; x->nfs++)
		if ((rc = provision_fs_parse(m->fs[x->nfs], &x->fss[x->nfs], &x->err)) ||
		    (rc = provision_find_mkfs(x->fss[x->nfs].type, x->mkfs[x->nfs], sizeof(x->mkfs[x->nfs]),
					      &x->err))) {
			x->nfs++;
			break;
		}
	for (size_t i = 0; !rc && i < m->nmount; i++)
		rc = provision_check_mount_opts(m->mount_opts[i], &x->err);
	for (size_t i = 0; !rc && i < m->nsched; i++)
		rc = provision_check_sched(m->sched[i], &x->err);
	if (!rc && m->nfs * nm * ns > MATRIX_MAX_CONFIGS)
		rc = dbio_err_set(
			&x->err, DBIO_EINPUT,
			"matrix: %zu configurations (%zu --fs x %zu --mount-opts x %zu --sched): at most %d, split the matrix",
			m->nfs * nm * ns, m->nfs, nm, ns, MATRIX_MAX_CONFIGS);
	return rc;
}

/* Everything is checked before anything is made: root, the options, the
 * axes, the metrics, the jobs (validated with a stand-in directory) and
 * --device. */
static int matrix_check(struct matrix *x)
{
	bool suite;
	int rc;

	if (geteuid() != 0)
		return dbio_err_set(
			&x->err, DBIO_EINPUT,
			"matrix: needs root: it attaches loop devices, makes filesystems and mounts them");
	if ((rc = check_options(x)) || (rc = check_axes(x)))
		return rc;
	/* Without --metric, print_table picks the defaults by the jobs' kind. */
	x->nmetrics = x->m.metrics ? metric_parse_list("compare", x->m.metrics, x->metrics,
						       COMPARE_MAX_METRICS, &x->err)
				   : 0;
	if (x->nmetrics < 0)
		return x->nmetrics;
	rc = jobrun_build(&x->args, (char *[]){ "directory=" PROVISION_STATE_DIR "/mnt" }, 1, &x->set, &suite,
			  &x->err);
	jobset_release(&x->set);
	memset(&x->set, 0, sizeof(x->set));
	if (!rc && x->m.device)
		rc = provision_check_device(x->m.device, x->args.opts.force, &x->err);
	return rc;
}

/* The configurations, the first --fs changing slowest, then --mount-opts,
 * then --sched. */
static void matrix_plan(struct matrix *x)
{
	const struct matrix_args *m = &x->m;
	size_t nm = m->nmount ? m->nmount : 1, ns = m->nsched ? m->nsched : 1;

	for (size_t f = 0; f < m->nfs; f++)
		for (size_t i = 0; i < nm; i++)
			for (size_t s = 0; s < ns; s++) {
				struct config *c = &x->cs[x->nconfigs++];

				c->fs = &x->fss[f];
				c->mount_opts = m->nmount ? m->mount_opts[i] : "";
				c->sched = m->nsched ? m->sched[s] : "";
				config_label(c);
			}
}

/* Before the first configuration: what killed runs left undone, the image
 * path, the state file and mount point, the jobs with their directory on
 * the mount point (checked there, still empty), and the result. */
static int matrix_prepare(struct matrix *x, int argc, char **argv)
{
	struct run_args *args = &x->args;
	bool suite;
	int rc;

	jobrun_progress(args);
	do_cleanup(args->format != FORMAT_TEXT, false);
	if (x->m.image && (rc = provision_image_path(x->m.image, x->image, sizeof(x->image), &x->err)))
		return rc;
	run_signals_install();
	x->begun = true; /* provision_end undoes a provision_begin that failed half-way too */
	if ((rc = provision_begin(&x->env, x->m.image ? x->image : NULL, x->image_size, x->m.device,
				  x->m.loop_direct_io,
				  (struct provision_stop){ &run_stop_signal, run_signal_name }, &x->err)))
		return rc;
	if (asprintf(&x->extra, "directory=%s/dbio", x->env.mnt) < 0) {
		x->extra = NULL;
		return dbio_err_set(&x->err, -ENOMEM, "out of memory");
	}
	if ((rc = jobrun_build(args, &x->extra, 1, &x->set, &suite, &x->err)))
		return rc;
	/* Outputs writable, cache= and mem_limit= possible: checked on the
	 * empty mount point before the first filesystem is made. */
	mkdir(x->extra + 10, 0755);
	rc = jobrun_check(args, &x->set, &x->err);
	rmdir(x->extra + 10);
	if (rc)
		return rc;
	x->result = result_new(argc + 1, argv - 1);
	if (!x->result || json_object_set_new(x->result, "matrix",
					      matrix_json(&x->m, x->cs, x->nconfigs, &x->env, x->set.njobs)))
		return dbio_err_set(&x->err, -ENOMEM, "out of memory");
	return 0;
}

/* Make configuration c, run the jobs there, undo it, and save the result
 * (partial until the last configuration is done). 0 or the first error. */
static int matrix_run_config(struct matrix *x, size_t c)
{
	const struct config *cfg = &x->cs[c];
	size_t base = json_array_size(json_object_get(x->result, "jobs"));
	uint64_t asked = provision_fs_block_size(cfg->fs);
	bool text = x->args.format == FORMAT_TEXT;
	struct provision_info info;
	int rc = 0, r;

	if (text)
		fprintf(stderr, "dbio: configuration %zu of %zu: %s\n", c + 1, x->nconfigs, cfg->label);
	if (atomic_load(&run_stop_signal))
		rc = dbio_err_set(&x->err, DBIO_ESTOPPED, "matrix: stopped by %s",
				  run_signal_name(atomic_load(&run_stop_signal)));
	if (!rc)
		rc = provision_setup(&x->env, cfg->fs, x->mkfs[cfg->fs - x->fss], cfg->mount_opts, cfg->sched,
				     &info, &x->err);
	if (!rc && text)
		fprintf(stderr, "dbio:   %s on %s, block size %llu bytes (statfs)%s%s\n", cfg->fs->type,
			info.device, (unsigned long long)info.fs_block_size_bytes,
			info.scheduler[0] ? ", scheduler " : "", info.scheduler);
	if (!rc && asked && asked != info.fs_block_size_bytes)
		fprintf(stderr, "dbio: warning: %s: asked for %llu-byte blocks, statfs says %llu\n",
			cfg->label, (unsigned long long)asked, (unsigned long long)info.fs_block_size_bytes);
	if (!rc)
		rc = run_check_targets(&x->set, &x->args.opts, &x->err);
	if (!rc) {
		rc = jobrun_jobs(&x->set, &x->args, x->result, base, &x->err);
		annotate(x->result, base, c, cfg, &info);
	}
	r = provision_teardown(&x->env, &x->err);
	rc = rc ? rc : r;
	if (!rc) {
		x->ndone++;
		json_object_set_new(json_object_get(x->result, "matrix"), "completed",
				    json_integer((json_int_t)x->ndone));
	}
	result_finish(x->result, rc != 0 || x->ndone < x->nconfigs, rc ? x->err.msg : NULL);
	/* A FIFO or a device gets the result once, at the end. */
	if (x->args.output && (rc || c + 1 == x->nconfigs || atomic_write_replaces(x->args.output))) {
		x->saved = !jobrun_write_outputs(&x->args, x->result, false);
		if (!x->saved && !rc)
			rc = -EIO;
	}
	return rc;
}

/* After the configurations (rc: the first error): undo the run, print the
 * result or the table, say what went wrong. The exit status. */
static int matrix_finish(struct matrix *x, int rc)
{
	x->begun = false;
	if (provision_end(&x->env, &x->err)) {
		rc = rc ? rc : x->err.code;
		cmd_error("matrix: `dbio matrix --cleanup` undoes what is left");
	}
	if (!rc)
		result_finish(x->result, false, NULL);
	if (x->args.format == FORMAT_JSON) {
		char *text = result_dump(x->result);

		if (text)
			puts(text);
		free(text);
	} else if (x->ndone) {
		print_table(x->result, x->ndone, x->metrics, (size_t)x->nmetrics, x->alpha);
	}
	fflush(stdout);
	if (rc && x->err.code)
		cmd_error("%s", x->err.msg);
	if (rc && x->args.output && x->saved)
		fprintf(stderr, "dbio: the finished configurations are in %s\n", x->args.output);
	return rc ? jobrun_status(rc) : jobrun_complete_status(); /* complete, as its file says */
}

/* A failure before the first configuration: its message and exit status. */
static int matrix_fail(const struct matrix *x, int rc)
{
	cmd_error("%s", x->err.msg);
	if (atomic_load(&run_stop_signal))
		return 128 + atomic_load(&run_stop_signal);
	return rc == DBIO_EUNSAFE ? 2 : dbio_exit_status(rc);
}

static int matrix_main(int argc, char **argv)
{
	struct matrix *x = matrix_new(argc);
	int status, rc;

	if (!x) {
		cmd_error("matrix: out of memory");
		return 1;
	}
	status = matrix_parse(x, argc, argv);
	if (status < 0) {
		if (!(rc = matrix_check(x))) {
			matrix_plan(x);
			rc = matrix_prepare(x, argc, argv);
		}
		if (rc) {
			status = matrix_fail(x, rc);
		} else {
			for (size_t c = 0; c < x->nconfigs && !rc; c++)
				rc = matrix_run_config(x, c);
			status = matrix_finish(x, rc);
		}
	}
	matrix_free(x);
	return status;
}

const struct cmd cmd_matrix = {
	.name = "matrix",
	.summary = "run a job on freshly made filesystems, mount options and I/O schedulers, compared",
	.main = matrix_main,
	.opts = &cmd_matrix_opts,
};
