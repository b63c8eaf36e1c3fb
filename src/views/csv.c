/* CSV views; see csv.h. Job names are quoted when they need it (RFC 4180). */
#include "views/csv.h"

#include <string.h>

#include "util/termesc.h"

void csv_field(FILE *fp, const char *s)
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

static size_t series_rows(FILE *fp, const json_t *result)
{
	const json_t *jobs = json_object_get(result, "jobs");
	size_t rows = 0, j;
	json_t *job;

	fprintf(fp, "job,run,thread,interval,end_s,duration_s,op,count,bytes,lat_mean_ns,lat_max_ns\n");
	json_array_foreach (jobs, j, job) {
		const json_t *runs = json_object_get(job, "runs");
		const char *name = json_string_value(json_object_get(job, "name"));
		size_t r;
		json_t *run;

		json_array_foreach (runs, r, run) {
			const json_t *points = json_object_get(json_object_get(run, "series"), "points");
			json_int_t last_thread = -1, index = 0;
			size_t p;
			json_t *pt;

			json_array_foreach (points, p, pt) {
				const json_t *thread = json_object_get(pt, "thread");
				const char *op_name;
				json_t *op;

				if (json_integer_value(thread) != last_thread)
					index = 0;
				last_thread = json_integer_value(thread);
				json_object_foreach (json_object_get(pt, "ops"), op_name, op) {
					csv_field(fp, name ? name : "");
					fprintf(fp, ",%zu,", r + 1);
					if (thread)
						fprintf(fp, "%lld", (long long)json_integer_value(thread));
					fprintf(fp, ",%lld,%.9f,%.9f,%s,%lld,%lld,%.1f,%lld\n",
						(long long)index + 1,
						(double)json_integer_value(json_object_get(pt, "end_ns")) /
							1e9,
						(double)json_integer_value(
							json_object_get(pt, "duration_ns")) /
							1e9,
						op_name,
						(long long)json_integer_value(json_object_get(op, "count")),
						(long long)json_integer_value(json_object_get(op, "bytes")),
						json_number_value(json_object_get(op, "lat_mean_ns")),
						(long long)json_integer_value(
							json_object_get(op, "lat_max_ns")));
					rows++;
				}
				index++;
			}
		}
	}
	return rows;
}

size_t csv_series(FILE *fp, const json_t *result)
{
	FILE *out = termesc_open(fp);
	size_t n;

	if (!out)
		return 0; /* out of memory: nothing rather than raw control characters */
	n = series_rows(out, result);
	fclose(out);
	return n;
}
