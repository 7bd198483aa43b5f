/* The thread policy of a plan (what its options say about threads, resolved once) and the
 * one place that runs a job's tasks by it: a host's pool, ndpad's workers, a fixed OpenMP
 * team or the calling thread alone. Every plan kind embeds the policy and runs through here. */
#ifndef NDPAD_TASK_RUNNER_H
#define NDPAD_TASK_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "status.h"

/* The thread facts of a plan's options. */
typedef struct ndpad_thread_policy {
    int32_t threads;        /* at most: options.threads, capped by the host pool's threads,
                               or the default budget (default-threads.c)              */
    int32_t schedule;       /* an ndpad_schedule, NDPAD_THREADS_FIXED applied          */
    bool has_pool;          /* `pool` runs the tasks: ndpad starts no thread           */
    ndpad_thread_pool pool; /* the host's pool, copied                                 */
} ndpad_thread_policy;

/* The policy of `options` (checked by the caller; NULL: the defaults). The OpenMP runtime is
 * asked only when neither options.threads nor a pool says (a one-thread plan never calls
 * into it). */
NDPAD_INTERNAL void ndpad_thread_policy_resolve(const ndpad_options *options,
                                                ndpad_thread_policy *policy);

/* `threads` capped at the processors this process may run on (INT32_MAX threads would make
 * the OpenMP runtime fail or crash); a host's pool knows its own threads. */
NDPAD_INTERNAL int32_t ndpad_thread_policy_cap(const ndpad_thread_policy *policy, int32_t threads);

/* options.schedule is an ndpad_schedule. */
NDPAD_INTERNAL ndpad_status ndpad_schedule_check(int32_t schedule, const char *caller);

/* A host pool is usable: a parallel-for and at least one thread (`name` in the message). */
NDPAD_INTERNAL ndpad_status ndpad_thread_pool_check(const ndpad_thread_pool *pool, const char *name,
                                                    const char *caller);

/* The calling thread's default pool (ndpad_set_thread_pool()), or NULL. */
NDPAD_INTERNAL const ndpad_thread_pool *ndpad_thread_pool_current(void);

/* The schedule of plans whose options leave it at 0: NDPAD_THREADS_FIXED=1 (read at each
 * call) makes it NDPAD_SCHEDULE_FIXED_TEAM. */
NDPAD_INTERNAL int32_t ndpad_schedule_default(void);

/* Runs items [begin, end) of a job. `alone`: no thread but the caller has run an item of
 * this execution so far (one thread, a sequential host pool, workers not started yet); only
 * speed may depend on it. */
typedef void (*ndpad_items_fn)(void *context, int64_t begin, int64_t end, bool alone);

/* Runs run(context, ...) over every item of [0, n) on at most `threads` threads, the caller's
 * included, as `policy` says: the host's pool; in a forked child or inside an OpenMP region,
 * the caller alone; the fixed OpenMP team (items in contiguous blocks, the same block per
 * thread on every call; workers bound to cores, topology.c); ndpad's workers (the caller
 * claims tasks beside them); or the caller alone. Items are grouped into consecutive runs
 * where a job holds fewer tasks than items (workers.h). */
NDPAD_INTERNAL void ndpad_tasks_run(const ndpad_thread_policy *policy, int64_t threads,
                                    ndpad_items_fn run, void *context, int64_t n);

#endif
