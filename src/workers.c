/* ndpad's own worker threads and the caller-driven scheduler on them.
 *
 * An OpenMP region ends in a barrier: the caller returns only when every team thread has
 * been scheduled, done its share and arrived, and when another process holds a core that
 * wait is a scheduler time slice (milliseconds), whatever the size of the work. Here the
 * caller claims tasks itself from a shared counter beside the workers it woke, and returns
 * when every task is DONE: a worker that has not started by then claims nothing, so nobody
 * waits for it. It waits only for tasks a running worker has claimed and not finished.
 *
 * One job at a time holds the workers (a flag taken with test-and-set; a second caller runs
 * its job alone rather than wait). Each job has a generation. The claim word holds the
 * generation, the task count and the next index, so a claim is one compare-and-swap that
 * fails for a worker of an older generation; the job's fields are read only after a
 * successful claim, while the job cannot finish (its claimed task is not done). The caller
 * invites at most `helpers` workers by writing the generation into each one's own word,
 * and never one that last ran on the caller's own CPU: woken there, it could only preempt
 * the caller (measured: 4 to 16 ms stalls with a CPU-bound process on that core).
 *
 * Workers spin a little on their word (back-to-back calls find them awake), then sleep
 * on a futex. They are started on first use, bound to cores as OpenMP workers were
 * (topology.c), and live until the library is unloaded or the process exits: the
 * library's destructor stops and joins them (a plugin linked with the static library and
 * dlclose()d must not leave threads running its unmapped code); a forked child never uses
 * them. */
#define _GNU_SOURCE /* syscall, sched_yield, pthread_setname_np */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

#include "topology.h"
#include "workers.h"

/* How long an idle worker spins on its word before it sleeps: back-to-back calls find it
 * awake (an OpenMP runtime's threads spin longer). */
#define SPIN_NS 100000
/* Workers at most (more cores than this serve the callers of several jobs at once). */
#define MAX_WORKERS 256

/* One worker: the word it sleeps on (the generation of the job it is invited to) and the
 * CPU it last ran on, on a cache line of its own. */
typedef struct worker {
    _Alignas(64) _Atomic uint32_t wake;
    atomic_int sleeping; /* in (or about to enter) futex_wait */
    atomic_int cpu;      /* where it last ran (sched_getcpu), -1 before it started */
    pthread_t thread;    /* joined by the destructor; written under `grow`         */
} worker;

static struct {
    _Atomic uint64_t claim; /* generation << 32 | task count << 16 | next task            */
    _Atomic size_t done;    /* tasks finished in the current job                          */
    atomic_flag busy;       /* a job holds the workers                                    */
    atomic_bool hold;       /* tests: no worker claims                                    */
    _Atomic size_t worker_tasks;
    atomic_int started;
    atomic_bool closed;     /* the library is being unloaded: no worker starts again      */
    pid_t owner;            /* the process that started the workers (a fork has none)     */
    uint32_t generation;    /* the last job's; written by the job's caller under `busy` */
    ndpad_spin_policy team; /* when callers run alone after a stall; under `busy`       */
    ndpad_task_fn task;     /* the current job's; read by a worker only after a claim   */
    void *context;
    pthread_mutex_t grow;
    worker workers[MAX_WORKERS];
} crew = {.busy = ATOMIC_FLAG_INIT, .grow = PTHREAD_MUTEX_INITIALIZER};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void futex_wait(_Atomic uint32_t *word, uint32_t value)
{
#ifdef __linux__
    (void)syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
#else
    (void)word, (void)value;
    sched_yield();
#endif
}

static void futex_wake(_Atomic uint32_t *word, int count)
{
#ifdef __linux__
    (void)syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
#else
    (void)word, (void)count;
#endif
}

/* Claims and runs tasks of generation `gen` until none is left or a newer job started.
 * Returns how many it ran. A worker's tasks are counted before they are DONE, so the count
 * is complete when the job's caller returns (tests read it right after a job). */
static size_t claim_and_run(uint32_t gen, bool worker)
{
    size_t ran = 0;
    uint64_t c = atomic_load_explicit(&crew.claim, memory_order_acquire);
    for (;;) {
        if ((uint32_t)(c >> 32) != gen) break;
        const uint32_t count = (uint32_t)(c >> 16) & 0xffff, next = (uint32_t)c & 0xffff;
        if (next >= count) break;
        if (!atomic_compare_exchange_weak_explicit(&crew.claim, &c, c + 1, memory_order_acq_rel,
                                                   memory_order_acquire))
            continue;
        /* Task `next` of this generation is ours: the job cannot end before we are done,
         * so its fields are those its caller published. */
        crew.task(crew.context, next);
        ran++;
        if (worker) atomic_fetch_add_explicit(&crew.worker_tasks, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&crew.done, 1, memory_order_release);
        c = atomic_load_explicit(&crew.claim, memory_order_acquire);
    }
    return ran;
}

int64_t ndpad_spin_budget(const ndpad_spin_policy *policy, int64_t now, int64_t spin_ns)
{
    return now < policy->quiet_until ? 0 : spin_ns;
}

void ndpad_spin_observe(ndpad_spin_policy *policy, int64_t now, bool descheduled)
{
    int64_t backoff =
        policy->backoff < NDPAD_BACKOFF_MIN_NS ? NDPAD_BACKOFF_MIN_NS : policy->backoff;
    if (descheduled) {
        policy->quiet_until = now + backoff;
        backoff = backoff > NDPAD_BACKOFF_MAX_NS / 2 ? NDPAD_BACKOFF_MAX_NS : 2 * backoff;
    } else {
        backoff = backoff / 2 < NDPAD_BACKOFF_MIN_NS ? NDPAD_BACKOFF_MIN_NS : backoff / 2;
    }
    policy->backoff = backoff;
}

bool ndpad_wait_stalled(int64_t own_ns, size_t own_tasks, int64_t wait_ns)
{
    if (wait_ns < NDPAD_STALL_NS) return false;
    const int64_t per_task = own_tasks == 0 ? 0 : own_ns / (int64_t)own_tasks;
    return wait_ns / NDPAD_STALL_FACTOR > per_task;
}

/* How long idle workers spin: OMP_WAIT_POLICY=passive (as for OpenMP's threads) makes them
 * sleep at once. */
static int64_t spin_ns;

static void *worker_main(void *arg)
{
    const int id = (int)(intptr_t)arg;
    worker *self = &crew.workers[id];
    /* A name a host can see (top -H, /proc/<pid>/task/<tid>/comm, a test): "ndpad-worker-N" */
    char name[16];
    snprintf(name, sizeof name, "ndpad-worker-%u", (unsigned)(id + 1) % 100u);
    (void)pthread_setname_np(pthread_self(), name);
    ndpad_topology_bind_worker(id + 1);
    atomic_store_explicit(&self->cpu, sched_getcpu(), memory_order_relaxed);
    uint32_t seen = atomic_load_explicit(&self->wake, memory_order_acquire);
    ndpad_spin_policy policy = {0, 0};
    for (;;) {
        uint32_t gen = atomic_load_explicit(&self->wake, memory_order_acquire);
        if (gen == seen) {
            int64_t last = now_ns();
            const int64_t budget = ndpad_spin_budget(&policy, last, spin_ns);
            const int64_t until = last + budget;
            bool spinning = budget > 0, gap = false;
            for (int k = 1; gen == seen; k++) {
                if (spinning) cpu_relax();
                gen = atomic_load_explicit(&self->wake, memory_order_acquire);
                if (gen != seen || (spinning && k % 64 != 0)) continue;
                if (spinning) {
                    const int64_t now = now_ns();
                    gap |= now - last >= NDPAD_SPIN_GAP_NS;
                    last = now;
                    if (now <= until) continue;
                    ndpad_spin_observe(&policy, now, gap);
                    spinning = false;
                }
                atomic_store(&self->sleeping, 1); /* seq_cst: against the waker */
                /* the destructor's wake may have come before this worker read `seen` */
                if (atomic_load(&crew.closed)) return NULL;
                if (atomic_load(&self->wake) == seen) futex_wait(&self->wake, seen);
                atomic_store(&self->sleeping, 0);
                gen = atomic_load_explicit(&self->wake, memory_order_acquire);
            }
            if (spinning) { /* a job came while spinning */
                const int64_t now = now_ns();
                ndpad_spin_observe(&policy, now, gap || now - last >= NDPAD_SPIN_GAP_NS);
            }
        }
        if (atomic_load(&crew.closed)) break; /* woken by the destructor */
        seen = gen;
        atomic_store_explicit(&self->cpu, sched_getcpu(), memory_order_relaxed);
        if (atomic_load_explicit(&crew.hold, memory_order_relaxed)) continue;
        (void)claim_and_run(gen, true);
    }
    return NULL;
}

/* At least `helpers` workers (fewer when threads cannot be made: the caller covers). */
static int ensure_workers(int helpers)
{
    int have = atomic_load_explicit(&crew.started, memory_order_acquire);
    if (have >= helpers) return have;
    pthread_mutex_lock(&crew.grow);
    have = atomic_load_explicit(&crew.started, memory_order_relaxed);
    if (atomic_load(&crew.closed)) { /* unloading: the callers run their jobs alone */
        pthread_mutex_unlock(&crew.grow);
        return 0;
    }
    if (have == 0) { /* before any worker reads it */
        const char *policy = getenv("OMP_WAIT_POLICY");
        spin_ns = policy != NULL && strcasecmp(policy, "passive") == 0 ? 0 : SPIN_NS;
        crew.owner = getpid();
    }
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* workers take no signal of the host's */
    /* joinable: the library's destructor joins them */
    for (; have < helpers; have++) {
        worker *w = &crew.workers[have];
        atomic_store_explicit(&w->cpu, -1, memory_order_relaxed);
        if (pthread_create(&w->thread, NULL, worker_main, (void *)(intptr_t)have) != 0) break;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    atomic_store_explicit(&crew.started, have, memory_order_release);
    pthread_mutex_unlock(&crew.grow);
    return have;
}

void ndpad_workers_run(int helpers, ndpad_task_fn task, void *context, size_t n)
{
    if (helpers > MAX_WORKERS) helpers = MAX_WORKERS;
    if (helpers > (int)n - 1) helpers = (int)n - 1;
    if (helpers > 0 && atomic_flag_test_and_set_explicit(&crew.busy, memory_order_acquire))
        helpers = 0; /* another job holds the workers: do not wait for them */
    const bool holds = helpers > 0;
    /* After a stall, run alone while the callers back off (the first job after the period
     * is the probe). */
    if (holds && ndpad_spin_budget(&crew.team, now_ns(), 1) == 0) helpers = 0;
    if (helpers <= 0 || n > NDPAD_WORKERS_MAX_TASKS) {
        for (size_t i = 0; i < n; i++) task(context, i);
        if (holds) atomic_flag_clear_explicit(&crew.busy, memory_order_release);
        return;
    }
    /* One worker more than it invites: a worker that last ran on the caller's own CPU is
     * not invited (below), and on a machine of helpers + 1 cores the caller may well sit on
     * a worker's core while that worker sleeps (measured: 2 threads on 2 cores then ran at
     * 1 thread's speed on an idle machine). */
    const int have = ensure_workers(helpers < MAX_WORKERS ? helpers + 1 : MAX_WORKERS);
    if (have < helpers) helpers = have; /* 0 while unloading: the caller claims every task */

    /* Publish the job: its fields, then the generation in the claim word (release: a claim
     * that sees the generation sees the fields), then invite the workers. */
    const uint32_t gen = ++crew.generation == 0 ? ++crew.generation : crew.generation;
    crew.task = task;
    crew.context = context;
    atomic_store_explicit(&crew.done, 0, memory_order_relaxed);
    atomic_store_explicit(&crew.claim, (uint64_t)gen << 32 | (uint64_t)n << 16,
                          memory_order_release);
    /* Not a worker on the caller's own CPU: woken, it could only preempt the caller. */
    const int here = sched_getcpu();
    const int started = atomic_load_explicit(&crew.started, memory_order_acquire);
    for (int k = 0, invited = 0; k < started && invited < helpers; k++) {
        worker *w = &crew.workers[k];
        if (here >= 0 && atomic_load_explicit(&w->cpu, memory_order_relaxed) == here) continue;
        atomic_store(&w->wake, gen); /* seq_cst: against the worker going to sleep */
        if (atomic_load(&w->sleeping)) futex_wake(&w->wake, 1);
        invited++;
    }

    const int64_t t0 = now_ns();
    const size_t own = claim_and_run(gen, false);
    const int64_t t1 = now_ns();
    /* Every task is claimed: wait only for those running on workers. */
    for (int k = 0; atomic_load_explicit(&crew.done, memory_order_acquire) < n; k++) {
        const size_t done = atomic_load_explicit(&crew.done, memory_order_acquire);
        if (done >= n) break;
        if (k < 4096)
            cpu_relax();
        else
            sched_yield(); /* a claimed task's worker was descheduled: give it the core */
    }
    const int64_t t2 = own == n ? t1 : now_ns();
    ndpad_spin_observe(&crew.team, t2, ndpad_wait_stalled(t1 - t0, own, t2 - t1));
    atomic_flag_clear_explicit(&crew.busy, memory_order_release);
}

/* Unloading the library (dlclose of a plugin linked with the static library) or process
 * exit: every worker is woken, leaves its loop after the task it may be running, and is
 * joined, so that no thread runs the library's code once it is unmapped. Jobs still running
 * on other threads finish: their callers claim the tasks no worker took, and no worker
 * starts again (closed). In a forked child the workers do not exist: nothing to join. The
 * locks stay usable (`grow` is released; `busy` is only ever held by a caller). */
__attribute__((destructor)) static void workers_stop(void)
{
    pthread_mutex_lock(&crew.grow);
    atomic_store(&crew.closed, true);
    const int started = atomic_load(&crew.started);
    if (started > 0 && crew.owner == getpid()) {
        for (int k = 0; k < started; k++) {
            worker *w = &crew.workers[k];
            atomic_fetch_add(&w->wake, 1); /* seq_cst: against the worker going to sleep */
            if (atomic_load(&w->sleeping)) futex_wake(&w->wake, 1);
        }
        for (int k = 0; k < started; k++) (void)pthread_join(crew.workers[k].thread, NULL);
    }
    atomic_store(&crew.started, 0);
    pthread_mutex_unlock(&crew.grow);
}

void ndpad_openmp_keep_loaded(void)
{
#ifdef _OPENMP
    static atomic_bool kept;
    if (atomic_load_explicit(&kept, memory_order_relaxed) || atomic_exchange(&kept, true)) return;
    Dl_info info;
    if (dladdr((void *)omp_get_thread_num, &info) != 0 && info.dli_fname != NULL)
        (void)dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE); /* never closed */
#endif
}

void ndpad_workers_test_reset_backoff(void)
{
    while (atomic_flag_test_and_set_explicit(&crew.busy, memory_order_acquire)) sched_yield();
    crew.team = (ndpad_spin_policy){0, 0};
    atomic_flag_clear_explicit(&crew.busy, memory_order_release);
}

int64_t ndpad_workers_test_quiet_until(void)
{
    while (atomic_flag_test_and_set_explicit(&crew.busy, memory_order_acquire)) sched_yield();
    const int64_t until = crew.team.quiet_until;
    atomic_flag_clear_explicit(&crew.busy, memory_order_release);
    return until;
}

int64_t ndpad_workers_test_now(void)
{
    return now_ns();
}

size_t ndpad_workers_test_hold(bool hold)
{
    atomic_store(&crew.hold, hold);
    return atomic_load(&crew.worker_tasks);
}

int ndpad_workers_started(void)
{
    return atomic_load(&crew.started);
}
