/*
 * gnuplot for the plots of plot.c and plot_sweep.c: writing a plot's data
 * and script (views_int.h), and running gnuplot on them (plot.h). Each
 * plot is a data file of gnuplot "index" blocks (one per curve, separated
 * by two blank lines) and a script that reads it by name. Strings from a
 * result reach gnuplot only as single-quoted strings with no
 * enhanced-text markup, so a job name is printed as it is and cannot
 * change the script.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "views/plot.h"
#include "views/views_int.h"
#include "util/utf8.h"

const char plot_no_gnuplot[] = "gnuplot not found: install Debian's gnuplot-nox";

/* ---- units ---------------------------------------------------------------- */

struct plot_unit plot_time_unit(double ns)
{
	if (ns >= 1e9)
		return (struct plot_unit){ "s", 1e9 };
	if (ns >= 1e6)
		return (struct plot_unit){ "ms", 1e6 };
	if (ns >= 1e3)
		return (struct plot_unit){ "µs", 1e3 };
	return (struct plot_unit){ "ns", 1 };
}

struct plot_unit plot_size_unit(double bytes)
{
	static const char *const names[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double div = 1;
	int i = 0;

	while (i < 5 && bytes >= div * 1024) {
		div *= 1024;
		i++;
	}
	return (struct plot_unit){ names[i], div };
}

/* ---- writing gnuplot ---------------------------------------------------- */

void plot_gp_str(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);

	fputc('\'', fp);
	while (left) {
		uint32_t cp = 0;
		int n = utf8_decode(p, left, &cp);

		if (n <= 0 || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
			fputc('?', fp);
			p++, left--;
			continue;
		}
		if (*p == '\'')
			fputc('\'', fp);
		fwrite(p, 1, (size_t)n, fp);
		p += n, left -= (size_t)n;
	}
	fputc('\'', fp);
}

void plot_safe_name(char *buf, size_t len, const char *name)
{
	size_t i = 0;

	for (; *name && i + 1 < len && i < 40; name++)
		buf[i++] = (strchr("._-", *name) || (*name >= 'a' && *name <= 'z') ||
			    (*name >= 'A' && *name <= 'Z') || (*name >= '0' && *name <= '9'))
				   ? *name
				   : '_';
	buf[i] = 0;
}

int plot_begin_of_file(struct plot_ctx *c, enum plot_kind kind, const struct plot_input *in, size_t nin,
		       size_t f, const char *stem, const char *what)
{
	char title[1024], name[64];

	snprintf(title, sizeof(title), "%s%s%s", nin > 1 ? in[f].label : "", nin > 1 ? ": " : "", what);
	if (nin > 1)
		snprintf(name, sizeof(name), "%s-f%zu", stem, f + 1);
	else
		snprintf(name, sizeof(name), "%s", stem);
	return plot_begin(c, kind, f, 0, name, title, 900, 560);
}

static int ctx_fail(struct plot_ctx *c, const char *what, int e)
{
	return dbio_err_set(c->err, -e, "plot %s: cannot make its %s: %s", c->p ? c->p->stem : "?", what,
			    strerror(e));
}

int plot_begin(struct plot_ctx *c, enum plot_kind kind, size_t file, size_t job, const char *stem,
	       const char *title, int width, int height)
{
	struct plot *grown = realloc(c->set->plots, (c->set->count + 1) * sizeof(*grown));

	if (!grown)
		return dbio_err_set(c->err, -ENOMEM, "plot: out of memory");
	c->set->plots = grown;
	c->p = &grown[c->set->count];
	memset(c->p, 0, sizeof(*c->p));
	c->p->kind = kind;
	c->p->file = file;
	c->p->job = job;
	snprintf(c->p->stem, sizeof(c->p->stem), "%s", stem);
	snprintf(c->p->image, sizeof(c->p->image), "%s.%s", stem, c->fmt == PLOT_PNG ? "png" : "svg");
	snprintf(c->p->title, sizeof(c->p->title), "%s", title);
	c->blocks = 0;
	c->color = 1;
	c->dat = open_memstream(&c->p->data, &c->p->data_len);
	if (!c->dat)
		return ctx_fail(c, "data", errno);
	c->gp = open_memstream(&c->p->script, &c->p->script_len);
	if (!c->gp)
		return ctx_fail(c, "script", errno);
	for (int i = 0; i < 2; i++) {
		c->panel[i].curves = 0;
		c->panel[i].buf = NULL;
		c->panel[i].len = 0;
		c->panel[i].fp = open_memstream(&c->panel[i].buf, &c->panel[i].len);
		if (!c->panel[i].fp)
			return dbio_err_set(c->err, -ENOMEM, "plot: out of memory");
	}
	fprintf(c->gp, "# %s: drawn by `gnuplot %s.gp` in this directory\n", stem, stem);
	if (c->fmt == PLOT_PNG)
		fprintf(c->gp,
			"set terminal pngcairo size %d,%d noenhanced font 'sans,10' background '#ffffff'\n",
			width, height);
	else
		fprintf(c->gp,
			"set terminal svg size %d,%d dynamic noenhanced font 'sans,11' background '#ffffff'\n",
			width, height);
	/* By hand the script draws the image from the data file beside it;
	 * dbio passes out='' (standard output) and its own data (plot_render). */
	fprintf(c->gp,
		"set encoding utf8\nif (!exists(\"out\")) out = '%s'\nif (!exists(\"dat\")) dat = '%s.dat'\n"
		"if (out eq '') { set output } else { set output out }\n",
		c->p->image, stem);
	fprintf(c->gp,
		"set datafile missing '?'\nset grid\nset key below\nset border 3\nset tics nomirror\n");
	fprintf(c->gp, "set title ");
	plot_gp_str(c->gp, title);
	fputc('\n', c->gp);
	return 0;
}

int plot_block_end(struct plot_ctx *c)
{
	fputs("\n\n", c->dat);
	return c->blocks++;
}

FILE *plot_curve(struct plot_ctx *c, int i)
{
	fputs(c->panel[i].curves++ ? ", \\\n     " : "plot ", c->panel[i].fp);
	return c->panel[i].fp;
}

void plot_panel_flush(struct plot_ctx *c, int i)
{
	fclose(c->panel[i].fp);
	c->panel[i].fp = NULL;
	if (c->panel[i].curves) {
		fwrite(c->panel[i].buf, 1, c->panel[i].len, c->gp);
		fputc('\n', c->gp);
	}
	free(c->panel[i].buf);
	c->panel[i].buf = NULL;
}

int plot_end(struct plot_ctx *c, int rc)
{
	for (int i = 0; i < 2; i++) {
		if (c->panel[i].fp)
			fclose(c->panel[i].fp);
		free(c->panel[i].buf);
		c->panel[i].fp = NULL;
		c->panel[i].buf = NULL;
	}
	if (c->dat && (ferror(c->dat) | fclose(c->dat)) && !rc)
		rc = ctx_fail(c, "data", errno ? errno : ENOMEM);
	if (c->gp && (ferror(c->gp) | fclose(c->gp)) && !rc)
		rc = ctx_fail(c, "script", errno ? errno : ENOMEM);
	c->dat = c->gp = NULL;
	if (!rc) {
		c->set->count++;
	} else if (c->p) {
		free(c->p->data);
		free(c->p->script);
	}
	c->p = NULL;
	return rc;
}

/* ---- running gnuplot ------------------------------------------------------ */

/* gnuplot runs as root: it is taken from the system's own directories
 * only, never from PATH, and only as a file root owns that nobody else
 * may write, so that a PATH or a directory someone else controls cannot
 * put their program in its place (sudo -E keeps a user's PATH). */
static const char *const gnuplot_paths[] = { "/usr/bin/gnuplot", "/bin/gnuplot" };

/* Its environment, whatever dbio's is: no HOME, so no ~/.gnuplot of
 * someone else's is read (sudo -E, su -m keep a user's HOME) and no
 * GNUPLOT_DRIVER_DIR, GNUPLOT_LIB or font path names a directory of theirs;
 * the C locale, so that numbers keep their decimal point. */
static char *const gnuplot_env[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", NULL };

/* The gnuplot to run, or NULL. */
static const char *gnuplot_path(void)
{
	for (size_t i = 0; i < sizeof(gnuplot_paths) / sizeof(gnuplot_paths[0]); i++) {
		struct stat st;

		if (!stat(gnuplot_paths[i], &st) && S_ISREG(st.st_mode) && st.st_uid == 0 &&
		    !(st.st_mode & (S_IWGRP | S_IWOTH)) && !access(gnuplot_paths[i], X_OK))
			return gnuplot_paths[i];
	}
	return NULL;
}

bool plot_have_gnuplot(void)
{
	return gnuplot_path() != NULL;
}

/* An anonymous file (memfd) holding len bytes of data, at offset 0, or -1. */
static int mem_file(const char *name, const char *data, size_t len)
{
	int fd = memfd_create(name, 0);

	if (fd < 0)
		return -1;
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)n;
	}
	if (lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The whole of the anonymous file fd into a new buffer; NULL when out of memory. */
static char *mem_read(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	char *buf;

	*len = 0;
	if (end < 0 || lseek(fd, 0, SEEK_SET) < 0 || !(buf = malloc((size_t)end + 1)))
		return NULL;
	while (*len < (size_t)end) {
		ssize_t n = read(fd, buf + *len, (size_t)end - *len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	buf[*len] = '\0';
	return buf;
}

/* Start gnuplot with argv, standard input from /dev/null, standard output
 * and error into out and msgs, dat as fd 3 and gp as fd 4. 0 with its
 * pid, or an errno (ENOENT: no gnuplot of root's in /usr/bin or /bin). */
static int spawn_gnuplot(pid_t *pid, char *const argv[], int dat, int gp, int out, int msgs)
{
	const char *path = gnuplot_path();
	posix_spawn_file_actions_t fa;
	int rc;

	if (!path)
		return ENOENT;
	if ((rc = posix_spawn_file_actions_init(&fa)))
		return rc;
	if (!(rc = posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0)) &&
	    !(rc = posix_spawn_file_actions_adddup2(&fa, out, STDOUT_FILENO)) &&
	    !(rc = posix_spawn_file_actions_adddup2(&fa, msgs, STDERR_FILENO)) &&
	    !(rc = posix_spawn_file_actions_adddup2(&fa, dat, 3)) &&
	    !(rc = posix_spawn_file_actions_adddup2(&fa, gp, 4)))
		rc = posix_spawn(pid, path, &fa, NULL, argv, gnuplot_env);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

int plot_render(const struct plot *p, char **image, size_t *image_len, struct dbio_err *err)
{
	/* Everything gnuplot reads and writes is an anonymous file of dbio's:
	 * no name in a directory that someone could swap for a symlink or for
	 * a script of their own while gnuplot runs as root. */
	char *const argv[] = { "gnuplot", "-e", "out=''; dat='/proc/self/fd/3'", "/proc/self/fd/4", NULL };
	int dat = mem_file("dbio-plot.dat", p->data, p->data_len);
	int gp = mem_file("dbio-plot.gp", p->script, p->script_len);
	int out = memfd_create("dbio-plot.out", 0), msgs = memfd_create("dbio-plot.err", 0);
	int status, rc = 0;
	char *msg = NULL;
	size_t msg_len;
	pid_t pid = -1;

	*image = NULL;
	*image_len = 0;
	if (dat < 0 || gp < 0 || out < 0 || msgs < 0) {
		rc = dbio_err_set(err, -errno, "plot: cannot run gnuplot: %s", strerror(errno));
		goto out_close;
	}
	/* posix_spawn, not fork: forking a process that holds a big result
	 * tree copies its page tables, once per plot (a 150 MB result made
	 * that most of the time of `dbio plot`). */
	rc = spawn_gnuplot(&pid, argv, dat, gp, out, msgs);
	if (rc == ENOENT) {
		rc = dbio_err_set(err, -ENOENT, "%s", plot_no_gnuplot);
		goto out_close;
	} else if (rc) {
		rc = dbio_err_set(err, -rc, "plot: cannot run gnuplot: %s", strerror(rc));
		goto out_close;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			rc = dbio_err_set(err, -errno, "plot: cannot run gnuplot: %s", strerror(errno));
			goto out_close;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		rc = dbio_err_set(err, -ENOENT, "%s", plot_no_gnuplot);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char *line, *last = NULL, *save = NULL;

		msg = mem_read(msgs, &msg_len);
		for (line = msg ? strtok_r(msg, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save))
			if (strspn(line, " \t^") < strlen(line))
				last = line;
		rc = dbio_err_set(err, DBIO_EFORMAT, "plot %s: gnuplot failed: %s", p->image,
				  last ? last : "no message");
	} else if (!(*image = mem_read(out, image_len))) {
		rc = dbio_err_set(err, -ENOMEM, "plot %s: out of memory", p->image);
	}
out_close:
	free(msg);
	for (int i = 0, fds[] = { dat, gp, out, msgs }; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return rc;
}
