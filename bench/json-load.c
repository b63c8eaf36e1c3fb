/*
 * The floor of every view of a result: jansson's own json_load_file of
 * FILE, nothing else. Prints the load time in seconds; /usr/bin/time -v
 * gives its memory. The tree is not freed, as dbio's views leave it to
 * exit (result_release_at_exit): freeing it is seconds of a big result.
 * Built by bench/views-scale.sh with cc -O2 -ljansson.
 */
#include <jansson.h>
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv)
{
	struct timespec a, b;
	json_error_t err;
	json_t *r;

	if (argc != 2) {
		fprintf(stderr, "usage: json-load FILE\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	r = json_load_file(argv[1], 0, &err);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (!r) {
		fprintf(stderr, "json-load: %s:%d: %s\n", argv[1], err.line, err.text);
		return 1;
	}
	printf("%.3f s\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
