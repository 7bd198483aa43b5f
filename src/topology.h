/* The machine as hwloc sees it, read once per process. */
#ifndef NDPAD_TOPOLOGY_H
#define NDPAD_TOPOLOGY_H

#include <stddef.h>

#include "status.h"

typedef struct ndpad_topology {
    int cores;           /* physical cores the process may use (>= 1): of the cgroup's
                              CPUs, those in the affinity mask unless OMP_PLACES & co. */
    int pus;             /* hardware threads the process may use (>= 1) */
    int numa_nodes;      /* >= 1 */
    int cpu_quota;       /* CPUs the cgroup's CPU quota allows, rounded up; 0: no quota */
    size_t l1d_bytes;    /* per core, 0 if unknown */
    size_t l2_bytes;     /* per core, 0 if unknown */
    size_t llc_bytes;    /* last-level cache (largest), 0 if unknown */
    char cpu_model[128]; /* hwloc's CPUModel or /proc/cpuinfo "model name", "" if unknown */
} ndpad_topology;

/* The topology, discovered on first use (thread-safe); never NULL. If hwloc fails, the
 * values fall back to sysconf's processor count and unknown caches. */
NDPAD_INTERNAL const ndpad_topology *ndpad_topology_get(void);

/* Binds the calling OpenMP worker (thread_num >= 1 of its team) to one core of the process's
 * allowed CPU set (the cgroup's CPUs within the affinity mask of the process's threads, as
 * taskset sets it), once per OS thread; workers take the cores from the last one down. Does nothing for thread 0 (the caller's own thread),
 * when the user set OMP_PLACES / OMP_PROC_BIND / GOMP_CPU_AFFINITY / KMP_AFFINITY (the
 * OpenMP runtime then binds as they say), when NDPAD_BIND=0, or on one core. */
NDPAD_INTERNAL void ndpad_topology_bind_worker(int thread_num);

#endif
