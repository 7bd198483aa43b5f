/* The thread policy and the task runner (task-runner.h): the one chain from a host's pool to
 * the calling thread, with the one fork watcher. */
#include "task-runner.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "default-threads.h"
#include "topology.h"
#include "workers.h"

static _Thread_local ndpad_thread_pool thread_pool;
static _Thread_local bool thread_pool_set;

const ndpad_thread_pool *ndpad_thread_pool_current(void)
{
    return thread_pool_set ? &thread_pool : NULL;
}

int32_t ndpad_schedule_default(void)
{
    const char *fixed = getenv("NDPAD_THREADS_FIXED");
    return fixed != NULL && strcmp(fixed, "1") == 0 ? NDPAD_SCHEDULE_FIXED_TEAM
                                                    : NDPAD_SCHEDULE_DEFAULT;
}

ndpad_status ndpad_schedule_check(int32_t schedule, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (schedule != NDPAD_SCHEDULE_DEFAULT && schedule != NDPAD_SCHEDULE_FIXED_TEAM)
        NDPAD_FAIL(NDPAD_ERR_OPTIONS,
                   "options.schedule = %d is not an ndpad_schedule (0 default, 1 fixed team)",
                   (int)schedule);
fail:
    return status;
}

ndpad_status ndpad_thread_pool_check(const ndpad_thread_pool *pool, const char *name,
                                     const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (pool->parallel_for == NULL)
        NDPAD_FAIL(NDPAD_ERR_OPTIONS, "%s->parallel_for is NULL (the host's parallel-for)", name);
    if (pool->threads < 1)
        NDPAD_FAIL(NDPAD_ERR_OPTIONS, "%s->threads = %d must be at least 1", name,
                   (int)pool->threads);
fail:
    return status;
}

ndpad_status ndpad_set_thread_pool(const ndpad_thread_pool *pool)
{
    const char *const caller = __func__;
    ndpad_status status = NDPAD_OK;
    if (pool != NULL) NDPAD_FORWARD(ndpad_thread_pool_check(pool, "pool", caller));
    thread_pool_set = pool != NULL;
    if (pool != NULL) thread_pool = *pool;
fail:
    return status;
}

void ndpad_thread_policy_resolve(const ndpad_options *options, ndpad_thread_policy *policy)
{
    const ndpad_thread_pool *pool = options != NULL && options->thread_pool != NULL
                                        ? options->thread_pool
                                        : ndpad_thread_pool_current();
    *policy = (ndpad_thread_policy){.has_pool = pool != NULL};
    if (pool != NULL) policy->pool = *pool;
    /* options.threads > 0 caps the pool's threads */
    const int32_t asked = options != NULL ? options->threads : 0;
    if (pool != NULL)
        policy->threads = asked > 0 && asked < pool->threads ? asked : pool->threads;
    else
        policy->threads = asked > 0 ? asked : ndpad_default_threads();
    policy->schedule = options != NULL && options->schedule != NDPAD_SCHEDULE_DEFAULT
                           ? options->schedule
                           : ndpad_schedule_default();
}

/* The fixed OpenMP team asks the runtime (omp_get_num_procs(), a system call); ndpad's
 * workers count the processors hwloc found once per process, so a plan made on a fresh
 * thread does not start the OpenMP runtime there. */
int32_t ndpad_thread_policy_cap(const ndpad_thread_policy *policy, int32_t threads)
{
    if (threads <= 1 || policy->has_pool) return threads;
    int procs = ndpad_topology_get()->pus;
#ifdef _OPENMP
    if (policy->schedule == NDPAD_SCHEDULE_FIXED_TEAM) procs = omp_get_num_procs();
#endif
    return threads > procs ? (procs > 1 ? procs : 1) : threads;
}

/* Set in the child of a fork(): the OpenMP runtime's thread pool did not survive it (a team
 * started there waits forever for the parent's workers), nor did ndpad's workers, so a forked
 * child runs every execution on the calling thread. Registered when the library is loaded,
 * so that it holds whoever forks and whether or not a team ever ran before the fork. */
static atomic_bool in_forked_child;

static void mark_forked_child(void)
{
    atomic_store_explicit(&in_forked_child, true, memory_order_relaxed);
}

__attribute__((constructor)) static void watch_forks(void)
{
    (void)pthread_atfork(NULL, NULL, mark_forked_child);
}

/* One job as tasks for a parallel-for (a host's or ndpad's workers): task i runs the items
 * [i * per_task, (i + 1) * per_task). Everything a task needs is here: it takes no lock and
 * reads no thread-local state, so any thread may run it, in any order. */
typedef struct items_job {
    ndpad_items_fn run;
    void *context;
    int64_t n, per_task;
    pthread_t caller;   /* the thread that called the runner                     */
    atomic_bool helped; /* a task ran on another thread                          */
} items_job;

/* Whether the job has run on its caller alone so far (this task included). */
static bool job_alone(items_job *job)
{
    if (!pthread_equal(pthread_self(), job->caller)) {
        if (!atomic_load_explicit(&job->helped, memory_order_relaxed))
            atomic_store_explicit(&job->helped, true, memory_order_relaxed);
        return false;
    }
    return !atomic_load_explicit(&job->helped, memory_order_relaxed);
}

static void run_task(void *context, size_t index)
{
    items_job *job = (items_job *)context;
    const int64_t i0 = (int64_t)index * job->per_task;
    const int64_t i1 = i0 + job->per_task < job->n ? i0 + job->per_task : job->n;
    job->run(job->context, i0, i1, job_alone(job));
}

/* The tasks of the job: one an item, or groups of consecutive items when there are more
 * than a job may hold. */
static size_t make_tasks(items_job *job)
{
    const int64_t max = NDPAD_WORKERS_MAX_TASKS;
    job->per_task = (job->n + max - 1) / max;
    return (size_t)((job->n + job->per_task - 1) / job->per_task);
}

#ifdef _OPENMP
/* `n` items over a team of `threads`. A function of its own, never inlined: a compiler
 * asks the OpenMP runtime for the caller's thread id on entry to any function holding a
 * parallel region, and one-thread jobs must not call into the runtime at all.
 * schedule(static): each thread runs one contiguous block of items, the same block on every
 * call, so on several NUMA nodes the pages a thread writes are the pages it first touched
 * (when the caller's first write was this plan too). Workers are bound to cores unless the
 * user chose OpenMP affinity (topology.c). */
static __attribute__((noinline)) void run_team(ndpad_items_fn run, void *context, int64_t n,
                                               int threads)
{
#pragma omp parallel num_threads(threads)
    {
        ndpad_topology_bind_worker(omp_get_thread_num());
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; i++) run(context, i, i + 1, false);
    }
}
#endif

void ndpad_tasks_run(const ndpad_thread_policy *policy, int64_t threads, ndpad_items_fn run,
                     void *context, int64_t n)
{
    if (threads > n) threads = n;
    if (threads > 1 && policy->has_pool) {
        /* The host's threads: ndpad starts none (a forked host knows its own pool). */
        items_job job = {run, context, n, 1, pthread_self(), false};
        const size_t tasks = make_tasks(&job);
        policy->pool.parallel_for(policy->pool.context, run_task, &job, tasks);
        return;
    }
    /* Never a nested team: the caller owns the cores. Asked only when a team would start,
     * so one-thread jobs never call into the OpenMP runtime. */
    if (threads > 1 && atomic_load_explicit(&in_forked_child, memory_order_relaxed)) threads = 1;
#ifdef _OPENMP
    if (threads > 1 && omp_in_parallel()) threads = 1;
    if (threads > 1 && policy->schedule == NDPAD_SCHEDULE_FIXED_TEAM) {
        ndpad_openmp_keep_loaded(); /* a plugin's unload must not unload it under its team */
        run_team(run, context, n, (int)threads);
        return;
    }
#endif
    if (threads > 1) {
        items_job job = {run, context, n, 1, pthread_self(), false};
        const size_t tasks = make_tasks(&job);
        ndpad_workers_run((int)threads - 1, run_task, &job, tasks);
        return;
    }
    if (n > 0) run(context, 0, n, true);
}
