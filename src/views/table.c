/* Tables of result points; see table.h. */
#include "views/table.h"

#include <stdlib.h>

#include <string.h>

#include "util/list.h"
#include "util/termesc.h"
#include "util/units.h"

struct metric {
	const char *name;
	const char *header;   /* text column title, with the unit */
	const char *run_path; /* in a run: under ops.<op>. or from the run when per_run */
	const char *sum_key;  /* in summary.ops.<op> or summary */
	bool per_run;	      /* a run figure (cpu), not an op figure */
	bool ns;	      /* a latency: printed with its unit */
	double scale;
};

static const struct metric metrics[] = {
	{ "iops", "ops/s", "iops", "iops", false, false, 1 },
	{ "bw", "MiB/s", "bw_bytes", "bw_bytes", false, false, 1.0 / 1048576 },
	{ "lat_mean", "lat mean", "lat_ns.mean", "lat_mean_ns", false, true, 1 },
	{ "p50", "lat p50", "lat_ns.p50", "lat_p50_ns", false, true, 1 },
	{ "p95", "lat p95", "lat_ns.p95", "lat_p95_ns", false, true, 1 },
	{ "p99", "lat p99", "lat_ns.p99", "lat_p99_ns", false, true, 1 },
	{ "p99_9", "lat p99.9", "lat_ns.p99_9", "lat_p99_9_ns", false, true, 1 },
	{ "max", "lat max", "lat_ns.max", "lat_max_ns", false, true, 1 },
	{ "cpu", "cpu %", "rusage.cpu_pct", "cpu_pct", true, false, 1 },
	{ "elapsed", "elapsed", "elapsed_ns", "elapsed_ns", true, true, 1 },
	{ "user", "user s", "rusage.user_s", "user_s", true, false, 1 },
	{ "sys", "sys s", "rusage.sys_s", "sys_s", true, false, 1 },
	{ "worst", "worst interval", "series.worst.0.duration_ns", NULL, true, true, 1 },
	{ "worst2", "2nd-worst interval", "series.worst.1.duration_ns", NULL, true, true, 1 },
};

const char table_metric_names[] =
	"iops, bw, lat_mean, p50, p95, p99, p99_9, max, cpu, elapsed, user, sys, worst, worst2";

static const struct metric *find_metric(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++)
		if (strlen(metrics[i].name) == len && !strncmp(metrics[i].name, name, len))
			return &metrics[i];
	return NULL;
}

static bool is_metric(const char *name, size_t len)
{
	return find_metric(name, len) != NULL;
}

int table_check_metrics(const char *list)
{
	return list_check(list, is_metric);
}

static const json_t *path_get(const json_t *v, const char *path)
{
	char key[64];

	while (v && *path) {
		size_t len = strcspn(path, ".");

		snprintf(key, sizeof(key), "%.*s", (int)len, path);
		v = json_is_array(v) ? json_array_get(v, strtoul(key, NULL, 10)) : json_object_get(v, key);
		path += len + (path[len] == '.');
	}
	return v;
}

static double num(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : 0;
}

/* The figure of metric m for op of job entry: mean and CI over its runs when
 * it has a summary of more than one run, else its last run's value. */
static void figure(const json_t *job, const char *op, const struct metric *m, double *value, double *ci)
{
	const json_t *runs = json_object_get(job, "runs");
	const json_t *sum = json_object_get(job, "summary");

	*ci = 0;
	if (json_array_size(runs) > 1 && !m->sum_key) {
		/* Not summarised (the worst intervals): the mean over the runs. */
		size_t i, n = 0;
		json_t *r;

		*value = 0;
		json_array_foreach (runs, i, r) {
			const json_t *v = path_get(r, m->run_path);

			if (json_is_number(v) && !json_is_true(json_object_get(r, "partial"))) {
				*value += json_number_value(v) * m->scale;
				n++;
			}
		}
		*value = n ? *value / (double)n : 0;
		return;
	}
	if (json_array_size(runs) > 1 && sum) {
		const json_t *s = m->per_run
					  ? json_object_get(sum, m->sum_key)
					  : json_object_get(json_object_get(json_object_get(sum, "ops"), op),
							    m->sum_key);

		*value = num(json_object_get(s, "mean")) * m->scale;
		*ci = num(json_object_get(s, "ci95")) * m->scale;
		return;
	}
	const json_t *run = json_array_get(runs, json_array_size(runs) - 1);
	const json_t *base = m->per_run ? run : json_object_get(json_object_get(run, "ops"), op);

	*value = num(path_get(base, m->run_path)) * m->scale;
}

static void csv_field(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

static void points_table(FILE *fp, const json_t *result, const char *list, const char *ops_shown, bool csv)
{
	const json_t *vary = json_object_get(json_object_get(result, "sweep"), "vary");
	const json_t *jobs = json_object_get(result, "jobs");
	const struct metric *cols[16];
	size_t ncols = 0, i, j;
	json_t *v, *job;

	for (const char *p = list; *p && ncols < 16;) {
		size_t len = strcspn(p, ",");
		const struct metric *m = find_metric(p, len);

		if (m)
			cols[ncols++] = m;
		p += len + (p[len] == ',');
	}
	/* A varied key's column is as wide as its widest value (at least 12). */
	int *width = calloc(json_array_size(vary) + 1, sizeof(*width));

	json_array_foreach (vary, i, v) {
		const char *key = json_string_value(json_object_get(v, "key"));

		if (!width)
			break;
		width[i] = (int)strlen(key) > 12 ? (int)strlen(key) : 12;
		json_array_foreach (jobs, j, job) {
			const char *val =
				json_string_value(json_object_get(json_object_get(job, "point"), key));

			if (val && (int)strlen(val) > width[i])
				width[i] = (int)strlen(val);
		}
	}
	/* Header. */
	json_array_foreach (vary, i, v) {
		if (csv)
			fprintf(fp, "%s,", json_string_value(json_object_get(v, "key")));
		else
			fprintf(fp, "%-*s ", width ? width[i] : 12,
				json_string_value(json_object_get(v, "key")));
	}
	if (csv) {
		fprintf(fp, "job,op");
		for (size_t c = 0; c < ncols; c++)
			fprintf(fp, ",%s,%s_ci95", cols[c]->name, cols[c]->name);
		fputc('\n', fp);
	} else {
		fprintf(fp, "%-20s %-9s", "job", "op");
		for (size_t c = 0; c < ncols; c++)
			fprintf(fp, " %22s", cols[c]->header);
		fputc('\n', fp);
	}
	/* A row per job entry and op type that did something. */
	json_array_foreach (jobs, j, job) {
		const json_t *runs = json_object_get(job, "runs");
		const json_t *ops = json_object_get(json_array_get(runs, json_array_size(runs) - 1), "ops");
		const char *op;
		json_t *o;

		json_object_foreach ((json_t *)ops, op, o) {
			if (num(json_object_get(o, "count")) == 0 || (ops_shown && !list_has(ops_shown, op)))
				continue;
			json_array_foreach (vary, i, v) {
				const char *key = json_string_value(json_object_get(v, "key"));
				const char *val = json_string_value(
					json_object_get(json_object_get(job, "point"), key));

				if (csv) {
					csv_field(fp, val ? val : "");
					fputc(',', fp);
				} else {
					fprintf(fp, "%-*s ", width ? width[i] : 12, val ? val : "");
				}
			}
			if (csv) {
				csv_field(fp, json_string_value(json_object_get(job, "name")));
				fprintf(fp, ",%s", op);
			} else {
				fprintf(fp, "%-20s %-9s", json_string_value(json_object_get(job, "name")),
					op);
			}
			for (size_t c = 0; c < ncols; c++) {
				double value, ci;
				char a[32], b[32], cell[80];

				figure(job, op, cols[c], &value, &ci);
				if (csv) {
					fprintf(fp, ",%.10g,%.10g", value, ci);
					continue;
				}
				if (cols[c]->ns)
					units_fmt_ns(a, sizeof(a), value);
				else
					snprintf(a, sizeof(a), value < 100 ? "%.2f" : "%.1f", value);
				if (ci > 0) {
					if (cols[c]->ns)
						units_fmt_ns(b, sizeof(b), ci);
					else
						snprintf(b, sizeof(b), "%.1f", ci);
					snprintf(cell, sizeof(cell), "%s ± %s", a, b);
				} else {
					snprintf(cell, sizeof(cell), "%s", a);
				}
				/* "±" is two bytes but one column. */
				fprintf(fp, " %*s", ci > 0 ? 23 : 22, cell);
			}
			fputc('\n', fp);
		}
	}
	free(width);
}

void table_points(FILE *fp, const json_t *result, const char *list, const char *ops_shown, bool csv)
{
	FILE *out = termesc_open(fp);

	if (!out)
		return; /* out of memory: nothing rather than raw control characters */
	points_table(out, result, list, ops_shown, csv);
	fclose(out);
}
