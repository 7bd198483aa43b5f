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

/* When an idle worker spins. Spinning keeps back-to-back calls fast on an idle machine; on a
 * busy one it takes a core from the host's other threads (and, with the kernel's autogroups,
 * from the caller's own share). A worker that finds, while spinning, that it lost the CPU
 * for NDPAD_SPIN_GAP_NS or more (the gap between two looks at the clock) stops spinning for
 * a back-off period, doubled at each such find up to NDPAD_BACKOFF_MAX_NS; after the period
 * it spins again (a probe), and every spin without a gap halves the back-off down to
 * NDPAD_BACKOFF_MIN_NS. A pure function of the times it is given: tests drive it with a
 * fake clock. */
#define NDPAD_SPIN_GAP_NS    ((int64_t)200 * 1000)
#define NDPAD_BACKOFF_MIN_NS ((int64_t)10 * 1000 * 1000)
#define NDPAD_BACKOFF_MAX_NS ((int64_t)1000 * 1000 * 1000)

typedef struct ndpad_spin_policy {
    int64_t quiet_until; /* no spinning before this time (ns)     */
    int64_t backoff;     /* the next back-off (ns); 0: the minimum */
} ndpad_spin_policy;

/* How long to spin at `now` (ns): `spin_ns`, or 0 while backing off. */
NDPAD_INTERNAL int64_t ndpad_spin_budget(const ndpad_spin_policy *policy, int64_t now,
                                         int64_t spin_ns);

/* A spin of a non-zero budget ended at `now`; `descheduled` when it saw a gap. */
NDPAD_INTERNAL void ndpad_spin_observe(ndpad_spin_policy *policy, int64_t now, bool descheduled);

/* When a caller stops inviting workers. A caller that has run every task it could claim
 * waits only for tasks a worker claimed; when that wait is long (NDPAD_STALL_NS or more)
 * and many times one of its own tasks (NDPAD_STALL_FACTOR), the worker lost its core in the
 * middle of a task, to another process: on a busy machine that costs a scheduler time slice
 * (milliseconds) whatever the job's size. Such a stall makes the callers of the next jobs
 * run alone for a back-off period, with the spin policy's rule (ndpad_spin_budget and
 * ndpad_spin_observe with `descheduled` = stalled: doubled at each stall up to
 * NDPAD_BACKOFF_MAX_NS, halved by each job whose workers kept up, a probe after each
 * period). A pure function of the times it is given: tests drive it with a fake clock.
 * `own_ns` is the time the caller spent running its `own_tasks` tasks, `wait_ns` the time it
 * then waited for the workers' tasks. */
#define NDPAD_STALL_NS     ((int64_t)1000 * 1000)
#define NDPAD_STALL_FACTOR 8
NDPAD_INTERNAL bool ndpad_wait_stalled(int64_t own_ns, size_t own_tasks, int64_t wait_ns);

/* Before an OpenMP team: the OpenMP runtime stays loaded for the rest of the process. Its
 * pool threads outlive a team, idle in its code; where the runtime came in with a plugin
 * linked with the static library, that plugin's dlclose() would unload it under them (a
 * crash). Kept (RTLD_NODELETE), its idle pool is reused by the next load. Once per load of
 * ndpad; nothing without OpenMP. */
NDPAD_INTERNAL void ndpad_openmp_keep_loaded(void);

/* For tests: forget the callers' back-off (the next job invites workers again). */
NDPAD_INTERNAL void ndpad_workers_test_reset_backoff(void);

/* For tests: when the callers' back-off after a stall ends (CLOCK_MONOTONIC ns, as
 * ndpad_workers_test_now()); jobs that start before it run on their caller alone. */
NDPAD_INTERNAL int64_t ndpad_workers_test_quiet_until(void);
NDPAD_INTERNAL int64_t ndpad_workers_test_now(void);

/* For tests: while `hold` is true no worker claims a task (they behave as threads the
 * scheduler never ran), so every job is finished by its caller alone. Returns how many
 * tasks the workers have run since the process started. */
NDPAD_INTERNAL size_t ndpad_workers_test_hold(bool hold);

/* Workers started so far (for tests). */
NDPAD_INTERNAL int ndpad_workers_started(void);

#endif
