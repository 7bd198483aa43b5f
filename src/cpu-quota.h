/* The CPU time a container may use: the cgroup's CPU quota. A process limited to 1.5 CPUs
 * of a 64-core machine runs 64 spinning threads in 1.5 CPUs' time slices, the well-known
 * collapse; the default thread count takes the quota into account (as Go's runtime does). */
#ifndef NDPAD_CPU_QUOTA_H
#define NDPAD_CPU_QUOTA_H

#include "status.h"

/* CPUs of one cgroup quota line: cgroup v2's cpu.max text ("QUOTA PERIOD" or "max PERIOD")
 * or v1's quota and period in microseconds joined the same way. The quota over the period,
 * rounded up (1.5 CPUs -> 2), at least 1; 0 for "max", a negative quota (v1's -1) or text
 * that is not a quota. */
NDPAD_INTERNAL int ndpad_cpu_quota_parse(const char *text);

/* The smallest quota along this process's cgroup and its ancestors, in CPUs (rounded up), or
 * 0 when none is set or the files cannot be read. Reads /proc/self/cgroup and the cgroup
 * file system under $NDPAD_CGROUP_ROOT when set (tests give a fake tree), else
 * /sys/fs/cgroup; cgroup v2 (cpu.max) and v1 (cpu.cfs_quota_us, cpu.cfs_period_us). */
NDPAD_INTERNAL int ndpad_cpu_quota(void);

#endif
