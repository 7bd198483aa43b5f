/* ndpad's own worker threads and the caller-driven scheduler that runs on them. */
#ifndef NDPAD_WORKERS_H
#define NDPAD_WORKERS_H

#include <stdbool.h>
#include <stddef.h>

#include "status.h"

/* The most tasks one job may have (the claim word holds the count in 16 bits). */
#define NDPAD_WORKERS_MAX_TASKS 4096

/* Runs task(context, i) for every i in [0, n) (n <= NDPAD_WORKERS_MAX_TASKS) on the calling
 * thread and at most `helpers` of ndpad's workers (started on first use), and returns as
 * soon as every task is done. The caller claims tasks itself; it never waits for a worker
 * that has not claimed one, and a worker woken after the job is over finds a newer
 * generation and goes back to sleep. While another thread's job holds the workers, the
 * call runs on the calling thread alone. A task must not call this again. */
NDPAD_INTERNAL void ndpad_workers_run(int helpers, ndpad_task_fn task, void *context, size_t n);

/* For tests: while `hold` is true no worker claims a task (they behave as threads the
 * scheduler never ran), so every job is finished by its caller alone. Returns how many
 * tasks the workers have run since the process started. */
NDPAD_INTERNAL size_t ndpad_workers_test_hold(bool hold);

/* Workers started so far (for tests). */
NDPAD_INTERNAL int ndpad_workers_started(void);

#endif
