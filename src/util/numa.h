/*
 * The machine's NUMA nodes as the kernel lists them in sysfs, and the list
 * form the kernel and fio (libnuma's numa_parse_nodestring) write them in:
 * "0-1,3". For fio's numa_cpu_nodes and numa_mem_policy (workload/fileio/check_numa.c),
 * checked before anything runs. Errors follow util/err.h: 0 or -errno.
 */
#ifndef DBIO_UTIL_NUMA_H
#define DBIO_UTIL_NUMA_H

#include <stddef.h>
#include <stdint.h>

/* Where the live system lists its nodes: "online", "node0/cpulist" … */
#define NUMA_SYSFS_DIR "/sys/devices/system/node"

/* Parse a list of numbers and ranges ("0", "0-1,3") into bits (nbits bits,
 * a multiple of 64, cleared first). 0; -EINVAL for another form or an
 * inverted range; -ERANGE for a number of nbits or more. */
int numa_parse_list(const char *s, uint64_t *bits, unsigned nbits);

/* numa_parse_list of the first line of the file at path (a sysfs list:
 * "online", "nodeN/cpulist"; an empty line is no bits). 0 or -errno. */
int numa_read_list(const char *path, uint64_t *bits, unsigned nbits);

/* The bits of bits as a list ("0-1,3") into buf; buf. */
const char *numa_list_text(const uint64_t *bits, unsigned nbits, char *buf, size_t len);

#endif
