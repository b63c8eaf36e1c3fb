/*
 * Unit tests for fio's NUMA keys: the node and CPU lists of sysfs
 * (src/util/numa.c: parse, read, print) and job_validate_numa
 * (src/workload/fileio/check_numa.c) against a made-up machine of two nodes in a
 * temporary directory laid out as /sys/devices/system/node is (node0 has
 * CPUs 0-1, node1 CPUs 2 and 5, node2 none): the CPUs of numa_cpu_nodes,
 * the mode and nodes of each numa_mem_policy, and the exact refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <linux/mempolicy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "job/job.h"
#include "plan/plan.h"
#include "util/numa.h"
#include "workload/fileio/files.h"

static char dir[64];

static void put(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

/* The made-up sysfs: online nodes 0-2, their CPU lists. */
static int make_tree(void **state)
{
	char sub[96];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/dbio-numa.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	for (int n = 0; n < 3; n++) {
		snprintf(sub, sizeof(sub), "%s/node%d", dir, n);
		if (mkdir(sub, 0700))
			return -1;
	}
	put("online", "0-2\n");
	put("node0/cpulist", "0-1\n");
	put("node1/cpulist", "2,5\n");
	put("node2/cpulist", "\n");
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[96];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_numa_parse_list(void **state)
{
	uint64_t b[2];
	char text[64];

	(void)state;
	assert_int_equal(numa_parse_list("0-1,3,64-65", b, 128), 0);
	assert_true(b[0] == 0xb && b[1] == 0x3);
	assert_string_equal(numa_list_text(b, 128, text, sizeof(text)), "0-1,3,64-65");
	assert_int_equal(numa_parse_list("7", b, 64), 0);
	assert_true(b[0] == 0x80);
	assert_int_equal(numa_parse_list("64", b, 64), -ERANGE);
	assert_int_equal(numa_parse_list("", b, 64), -EINVAL);
	assert_int_equal(numa_parse_list("3-1", b, 64), -EINVAL);
	assert_int_equal(numa_parse_list("1,", b, 64), -EINVAL);
	assert_int_equal(numa_parse_list("a", b, 64), -EINVAL);
	assert_int_equal(numa_parse_list("1 2", b, 64), -EINVAL);
	assert_int_equal(numa_parse_list("!1", b, 64), -EINVAL); /* libnuma's inverse: not taken */
}

/* A validated job with numa_cpu_nodes=cpu and numa_mem_policy=mem ("" for
 * none) on the made-up machine: 0, or the refusal's message in msg. */
static int numa_job(struct job *job, const char *cpu, const char *mem, char *msg, size_t len)
{
	struct dbio_err err = { 0 };
	int rc;

	assert_int_equal(plan_job_init(job, "j"), 0);
	assert_int_equal(job_set(job, "numa_cpu_nodes", cpu, NULL, &err), 0);
	assert_int_equal(job_set(job, "numa_mem_policy", mem, NULL, &err), 0);
	rc = job_validate_numa(job, dir, &err);
	snprintf(msg, len, "%s", rc ? err.msg : "");
	return rc;
}

static void test_numa_cpu_nodes(void **state)
{
	struct job job;
	char msg[512];

	(void)state;
	assert_int_equal(numa_job(&job, "1", "", msg, sizeof(msg)), 0);
	assert_true(fileio_files(&job)->numa.numa_cpus[0] == 0x24); /* CPUs 2 and 5 */
	assert_false(fileio_files(&job)->numa.numa_mem_set);
	job_release(&job);
	assert_int_equal(numa_job(&job, "0-1", "", msg, sizeof(msg)), 0);
	assert_true(fileio_files(&job)->numa.numa_cpus[0] == 0x27);
	job_release(&job);
	assert_int_equal(numa_job(&job, "2", "", msg, sizeof(msg)), DBIO_EINPUT);
	char want[512];

	snprintf(
		want, sizeof(want),
		"command line: key 'numa_cpu_nodes': '2': node 2 has no CPUs (%s/node2/cpulist): name nodes with CPUs (job 'j')",
		dir);
	assert_string_equal(msg, want);
	job_release(&job);
	assert_int_equal(numa_job(&job, "0,3-4", "", msg, sizeof(msg)), DBIO_EINPUT);
	snprintf(
		want, sizeof(want),
		"command line: key 'numa_cpu_nodes': '0,3-4': node 3-4 is not on this machine, which has node 0-2 (%s/online); fio fails on it too: name only nodes it has (job 'j')",
		dir);
	assert_string_equal(msg, want);
	job_release(&job);
}

static void test_numa_mem_policy(void **state)
{
	static const struct {
		const char *value;
		int mode;
		uint64_t nodes;
		bool call;
	} ok[] = {
		{ "default", MPOL_DEFAULT, 0, false },
		{ "local", MPOL_LOCAL, 0, true },
		{ "prefer:1", MPOL_PREFERRED, 0x2, true },
		{ "bind:0-1", MPOL_BIND, 0x3, true },
		{ "interleave", MPOL_INTERLEAVE, 0x7, true },
		{ "interleave:0,2", MPOL_INTERLEAVE, 0x5, true },
		{ "bind:all", MPOL_BIND, 0x7, true },
	};
	static const struct {
		const char *value, *msg;
	} bad[] = {
		{ "prefer", "'prefer': prefer takes one node: prefer:NODE, e.g. prefer:0" },
		{ "prefer:0-1", "'prefer:0-1': prefer takes one node: prefer:NODE, e.g. prefer:0" },
		{ "bind", "'bind': bind needs its nodes: bind:NODES, e.g. bind:0" },
		{ "local:0", "'local:0': local takes no nodes (fio's rule)" },
		{ "default:1", "'default:1': default takes no nodes (fio's rule)" },
		{ "nearest",
		  "bad value 'nearest': expected default, prefer:NODE, bind:NODES, interleave[:NODES] or local" },
		{ "bind:0-",
		  "bad value 'bind:0-': expected NUMA nodes: numbers from 0 and ranges, e.g. 0 or 0-1,3, or all" },
		{ "bind:64", "bad value 'bind:64': dbio takes nodes 0 to 63" },
	};
	struct job job;
	char msg[512], want[512];

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (numa_job(&job, "", ok[i].value, msg, sizeof(msg)))
			fail_msg("%s: %s", ok[i].value, msg);
		assert_int_equal(fileio_files(&job)->numa.numa_mode, ok[i].mode);
		assert_true(fileio_files(&job)->numa.numa_nodes == ok[i].nodes);
		assert_int_equal(fileio_files(&job)->numa.numa_mem_set, ok[i].call);
		job_release(&job);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(numa_job(&job, "", bad[i].value, msg, sizeof(msg)), DBIO_EINPUT);
		snprintf(want, sizeof(want), "command line: key 'numa_mem_policy': %s (job 'j')", bad[i].msg);
		assert_string_equal(msg, want);
		job_release(&job);
	}
}

static void test_numa_no_nodes_listed(void **state)
{
	struct dbio_err err = { 0 };
	struct job job;

	(void)state;
	assert_int_equal(plan_job_init(&job, "j"), 0);
	assert_int_equal(job_set(&job, "numa_mem_policy", "local", NULL, &err), 0);
	assert_int_equal(job_validate_numa(&job, "/nonexistent", &err), DBIO_EINPUT);
	assert_string_equal(
		err.msg,
		"command line: key 'numa_mem_policy': this machine shows no NUMA nodes (/nonexistent/online: No such file or directory): run without NUMA keys, as fio must (job 'j')");
	job_release(&job);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numa_parse_list),
		cmocka_unit_test(test_numa_cpu_nodes),
		cmocka_unit_test(test_numa_mem_policy),
		cmocka_unit_test(test_numa_no_nodes_listed),
	};
	return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
