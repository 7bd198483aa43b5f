/* The thread budget of plans whose options leave threads at 0 (default-threads.c), and the
 * process's cap on it (ndpad.h: ndpad_set_default_threads). */
#ifndef NDPAD_DEFAULT_THREADS_H
#define NDPAD_DEFAULT_THREADS_H

#include <stdint.h>

#include "status.h"

/* The thread budget of options.threads = 0: the cores hwloc finds, at most the cgroup's CPU
 * quota, OpenMP's omp_get_max_threads() and ndpad_set_default_threads()'s cap, at least 1
 * (the tools report and tune against it). */
NDPAD_INTERNAL int32_t ndpad_default_threads(void);

/* ndpad_set_default_threads()'s cap, 0 for none (the one-shot plan cache keys on it). */
NDPAD_INTERNAL int32_t ndpad_default_threads_cap(void);

#endif
