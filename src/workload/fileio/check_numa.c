/*
 * fio's NUMA keys, checked and parsed before anything runs:
 * numa_cpu_nodes (the job's threads run on the CPUs of these nodes) and
 * numa_mem_policy (their memory policy: default, prefer:NODE, bind:NODES,
 * interleave[:NODES], local), with fio's rules for each mode (its
 * str_numa_mpol_cb). A node list takes libnuma's plain forms (numbers,
 * ranges, commas, "all"); a node this machine does not have is refused
 * with the nodes it has, as fio fails on it (numa_parse_nodestring
 * failed). run/numa.c applies the result on each thread.
 */
#include <errno.h>
#include <linux/mempolicy.h>
#include <stdio.h>
#include <string.h>

#include "workload/fileio/files.h"
#include "util/numa.h"

#define NODE_FORMS "NUMA nodes: numbers from 0 and ranges, e.g. 0 or 0-1,3, or all"

/* The nodes of list (in the key's value, shown) into *nodes, each one of
 * online; 0 or DBIO_EINPUT. */
static int parse_nodes(struct job *job, const char *key, const char *shown, const char *list, uint64_t online,
		       const char *dir, uint64_t *nodes, struct dbio_err *err)
{
	char have[256], miss[256];
	uint64_t extra;
	int rc;

	if (!strcmp(list, "all")) {
		*nodes = online;
		return 0;
	}
	if ((rc = numa_parse_list(list, nodes, 64)))
		return job_fail(job, key, err, "bad value '%s': %s", shown,
				rc == -ERANGE ? "dbio takes nodes 0 to 63" : "expected " NODE_FORMS);
	if (!(extra = *nodes & ~online))
		return 0;
	return job_fail(
		job, key, err,
		"'%s': node %s is not on this machine, which has node %s (%s/online); fio fails on it too: name only nodes it has",
		shown, numa_list_text(&extra, 64, miss, sizeof(miss)),
		numa_list_text(&online, 64, have, sizeof(have)), dir);
}

/* numa_cpu_nodes: the CPUs of its nodes. */
static int cpu_nodes(struct job *job, uint64_t online, const char *dir, struct dbio_err *err)
{
	uint64_t nodes, cpus[16];
	char path[4200];
	int rc;

	if ((rc = parse_nodes(job, "numa_cpu_nodes", fileio_files(job)->numa.numa_cpu_nodes,
			      fileio_files(job)->numa.numa_cpu_nodes, online, dir, &nodes, err)))
		return rc;
	memset(fileio_files(job)->numa.numa_cpus, 0, sizeof(fileio_files(job)->numa.numa_cpus));
	for (unsigned n = 0; n < 64; n++) {
		if (!(nodes >> n & 1))
			continue;
		snprintf(path, sizeof(path), "%s/node%u/cpulist", dir, n);
		if ((rc = numa_read_list(path, cpus, 1024)))
			return job_fail(job, "numa_cpu_nodes", err, "cannot read the CPUs of node %u: %s: %s",
					n, path, strerror(-rc));
		bool any = false;

		for (size_t i = 0; i < 16; i++) {
			fileio_files(job)->numa.numa_cpus[i] |= cpus[i];
			any |= cpus[i] != 0;
		}
		if (!any)
			return job_fail(job, "numa_cpu_nodes", err,
					"'%s': node %u has no CPUs (%s): name nodes with CPUs",
					fileio_files(job)->numa.numa_cpu_nodes, n, path);
	}
	return 0;
}

/* numa_mem_policy: MODE[:NODES], with fio's rules for NODES per mode. */
static int mem_policy(struct job *job, uint64_t online, const char *dir, struct dbio_err *err)
{
	static const struct {
		const char *name;
		int mode;
	} modes[] = { { "default", MPOL_DEFAULT },
		      { "prefer", MPOL_PREFERRED },
		      { "bind", MPOL_BIND },
		      { "interleave", MPOL_INTERLEAVE },
		      { "local", MPOL_LOCAL } };
	const char *v = fileio_files(job)->numa.numa_mem_policy, *colon = strchr(v, ':');
	const size_t len = colon ? (size_t)(colon - v) : strlen(v);
	const char *list = colon ? colon + 1 : NULL;
	size_t i = 0;

	while (i < sizeof(modes) / sizeof(modes[0]) &&
	       (strlen(modes[i].name) != len || strncmp(v, modes[i].name, len)))
		i++;
	if (i == sizeof(modes) / sizeof(modes[0]))
		return job_fail(
			job, "numa_mem_policy", err,
			"bad value '%s': expected default, prefer:NODE, bind:NODES, interleave[:NODES] or local",
			v);
	fileio_files(job)->numa.numa_mode = modes[i].mode;
	fileio_files(job)->numa.numa_mem_set =
		modes[i].mode != MPOL_DEFAULT; /* fio makes no call for default */
	if ((fileio_files(job)->numa.numa_mode == MPOL_DEFAULT ||
	     fileio_files(job)->numa.numa_mode == MPOL_LOCAL) &&
	    list)
		return job_fail(job, "numa_mem_policy", err, "'%s': %s takes no nodes (fio's rule)", v,
				modes[i].name);
	if (fileio_files(job)->numa.numa_mode == MPOL_PREFERRED &&
	    (!list || !*list || strspn(list, "0123456789") != strlen(list)))
		return job_fail(job, "numa_mem_policy", err,
				"'%s': prefer takes one node: prefer:NODE, e.g. prefer:0", v);
	if (fileio_files(job)->numa.numa_mode == MPOL_BIND && (!list || !*list))
		return job_fail(job, "numa_mem_policy", err,
				"'%s': bind needs its nodes: bind:NODES, e.g. bind:0", v);
	fileio_files(job)->numa.numa_nodes = 0;
	if (fileio_files(job)->numa.numa_mode == MPOL_INTERLEAVE && !list)
		list = "all"; /* fio: the nodes there are */
	return list ? parse_nodes(job, "numa_mem_policy", v, list, online, dir,
				  &fileio_files(job)->numa.numa_nodes, err)
		    : 0;
}

int job_validate_numa(struct job *job, const char *sysfs_dir, struct dbio_err *err)
{
	const char *key = fileio_files(job)->numa.numa_cpu_nodes[0] ? "numa_cpu_nodes" : "numa_mem_policy";
	char path[4200];
	uint64_t online;
	int rc;

	fileio_files(job)->numa.numa_mem_set = false;
	if (!fileio_files(job)->numa.numa_cpu_nodes[0] && !fileio_files(job)->numa.numa_mem_policy[0])
		return 0;
	snprintf(path, sizeof(path), "%s/online", sysfs_dir);
	if ((rc = numa_read_list(path, &online, 64)))
		return job_fail(
			job, key, err,
			"this machine shows no NUMA nodes (%s: %s): run without NUMA keys, as fio must", path,
			strerror(-rc));
	if (fileio_files(job)->numa.numa_cpu_nodes[0] && (rc = cpu_nodes(job, online, sysfs_dir, err)))
		return rc;
	return fileio_files(job)->numa.numa_mem_policy[0] ? mem_policy(job, online, sysfs_dir, err) : 0;
}
