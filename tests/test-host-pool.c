/*
 * test-host-pool.c — a host's thread pool (options.thread_pool, ndpad_set_thread_pool) and
 * the default caller-driven scheduler, without timing (issue 31).
 *
 * Hostile pools run the tasks in order, in reverse, shuffled, each on a fresh thread, all at
 * once on one thread per task, and on fewer threads than they announce; every result is
 * compared byte for byte with the naive reference (the ctest suite runs once per ISA with
 * NDPAD_ISA set) and with ndpad's own threads. The one-shot calls and the ONNX entry point
 * take the calling thread's pool; the plan cache never hands a plan made for one pool to a
 * call with another. With the workers held (as threads the scheduler never runs), every
 * default execution still finishes on its caller alone. A child forked after each kind of
 * call pads correctly with each kind.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "ndpad-ref.h"
#include "ndpad.h"
#include "workers.h"

/* The fixed OpenMP team, unless NDPAD_TEST_NO_OPENMP=1 (ThreadSanitizer without Archer sees
 * libomp's barriers as races): then ndpad's default scheduler in its place. */
static int32_t fixed_team(void)
{
    const char *no = getenv("NDPAD_TEST_NO_OPENMP");
    return no != NULL && strcmp(no, "1") == 0 ? NDPAD_SCHEDULE_DEFAULT : NDPAD_SCHEDULE_FIXED_TEAM;
}

/* ---- hostile pools ------------------------------------------------------------------- */

typedef enum order { IN_ORDER, REVERSE, SHUFFLED, FRESH_THREADS, ALL_AT_ONCE, FEWER, ORDERS } order;
static const char *const order_names[ORDERS] = {"in order",    "reverse",
                                                "shuffled",    "a fresh thread each",
                                                "all at once", "fewer threads"};

typedef struct hostile {
    order kind;
    atomic_int calls;    /* parallel_for calls */
    atomic_long tasks;   /* tasks run          */
    atomic_int bad_args; /* n < 2, NULL task   */
    unsigned seed;
} hostile;

typedef struct one_task {
    ndpad_task_fn task;
    void *context;
    size_t index;
    hostile *pool;
} one_task;

static void *run_one(void *arg)
{
    one_task *t = arg;
    t->task(t->context, t->index);
    atomic_fetch_add(&t->pool->tasks, 1);
    return NULL;
}

typedef struct claimer {
    ndpad_task_fn task;
    void *context;
    size_t n;
    atomic_size_t next;
    hostile *pool;
} claimer;

static void *claim_all(void *arg)
{
    claimer *c = arg;
    for (size_t i; (i = atomic_fetch_add(&c->next, 1)) < c->n;) {
        c->task(c->context, i);
        atomic_fetch_add(&c->pool->tasks, 1);
    }
    return NULL;
}

static void hostile_for(void *pool_context, ndpad_task_fn task, void *task_context, size_t n)
{
    hostile *p = pool_context;
    atomic_fetch_add(&p->calls, 1);
    if (n < 2 || task == NULL) atomic_fetch_add(&p->bad_args, 1);
    if (task == NULL) return;
    switch (p->kind) {
    case IN_ORDER:
        for (size_t i = 0; i < n; i++) task(task_context, i), atomic_fetch_add(&p->tasks, 1);
        break;
    case REVERSE:
        for (size_t i = n; i-- > 0;) task(task_context, i), atomic_fetch_add(&p->tasks, 1);
        break;
    case SHUFFLED: {
        size_t *idx = malloc(n * sizeof(size_t));
        for (size_t i = 0; i < n; i++) idx[i] = i;
        unsigned seed = __atomic_add_fetch(&p->seed, 1, __ATOMIC_RELAXED);
        for (size_t i = n; i > 1; i--) {
            const size_t j = (size_t)rand_r(&seed) % i, t = idx[i - 1];
            idx[i - 1] = idx[j], idx[j] = t;
        }
        for (size_t i = 0; i < n; i++) task(task_context, idx[i]), atomic_fetch_add(&p->tasks, 1);
        free(idx);
        break;
    }
    case FRESH_THREADS: /* one after another, each on a thread of its own */
        for (size_t i = 0; i < n; i++) {
            one_task t = {task, task_context, i, p};
            pthread_t thread;
            if (pthread_create(&thread, NULL, run_one, &t) != 0) {
                run_one(&t);
                continue;
            }
            pthread_join(thread, NULL);
        }
        break;
    case ALL_AT_ONCE: { /* one thread per task, all started before any is joined */
        one_task *t = calloc(n, sizeof(one_task));
        pthread_t *threads = calloc(n, sizeof(pthread_t));
        bool *started = calloc(n, sizeof(bool));
        for (size_t i = 0; i < n; i++) {
            t[i] = (one_task){task, task_context, i, p};
            started[i] = pthread_create(&threads[i], NULL, run_one, &t[i]) == 0;
        }
        for (size_t i = n; i-- > 0;) {
            if (started[i])
                pthread_join(threads[i], NULL);
            else
                run_one(&t[i]);
        }
        free(t), free(threads), free(started);
        break;
    }
    case FEWER: { /* announces 8 threads, runs on the caller and one more */
        claimer c = {task, task_context, n, 0, p};
        pthread_t thread;
        const bool helper = pthread_create(&thread, NULL, claim_all, &c) == 0;
        claim_all(&c);
        if (helper) pthread_join(thread, NULL);
        break;
    }
    default: break;
    }
}

static ndpad_thread_pool pool_of(hostile *h)
{
    return (ndpad_thread_pool){hostile_for, h, h->kind == FEWER ? 8 : 3};
}

/* ---- problems ------------------------------------------------------------------------ */

typedef struct job {
    ndpad_problem p;
    int64_t shape[4], pb[4], pe[4], in_strides[4];
    void *in;
    unsigned char *want, *out;
    size_t out_bytes;
    bool inplace;
} job;

/* 4 bytes per element; over 256 KiB of output unless `small`. */
static void job_make(job *j, int32_t mode, bool small, bool strided, bool inplace)
{
    memset(j, 0, sizeof(*j));
    const int64_t shape[3] = {3, small ? 20 : 180, small ? 30 : 200};
    const int64_t pb[3] = {mode == NDPAD_CONSTANT ? 1 : 0, 3, 5}, pe[3] = {0, 2, 4};
    memcpy(j->shape, shape, sizeof shape), memcpy(j->pb, pb, sizeof pb),
        memcpy(j->pe, pe, sizeof pe);
    j->p = (ndpad_problem){.rank = 3,
                           .mode = mode,
                           .elem_size = 4,
                           .shape = j->shape,
                           .pads_begin = j->pb,
                           .pads_end = j->pe};
    int64_t out_shape[3];
    assert_int_equal(ndpad_ref_output_shape(&j->p, out_shape), NDPAD_OK);
    const size_t out_elems = (size_t)(out_shape[0] * out_shape[1] * out_shape[2]);
    j->out_bytes = out_elems * 4;
    size_t in_elems = (size_t)(shape[0] * shape[1] * shape[2]);
    if (strided) { /* every other element of a twice wider input */
        j->in_strides[2] = 2, j->in_strides[1] = 2 * shape[2],
        j->in_strides[0] = 2 * shape[2] * shape[1];
        j->p.in_strides = j->in_strides;
        in_elems *= 2;
    }
    uint32_t *in = malloc(in_elems * 4);
    for (size_t i = 0; i < in_elems; i++) in[i] = (uint32_t)(i * 2654435761u);
    j->want = malloc(j->out_bytes);
    j->out = malloc(j->out_bytes);
    assert_int_equal(ndpad_ref_pad(&j->p, in, j->want), NDPAD_OK);
    j->in = in;
    j->inplace = inplace;
}

static void job_free(job *j)
{
    free(j->in), free(j->want), free(j->out);
}

/* Executes `plan` (or ndpad_pad when NULL) and compares with the reference. */
static bool run_and_check(job *j, const ndpad_plan *plan)
{
    memset(j->out, 0xA5, j->out_bytes);
    const ndpad_status s =
        plan != NULL ? ndpad_execute(plan, j->in, j->out) : ndpad_pad(&j->p, j->in, j->out);
    return s == NDPAD_OK && memcmp(j->out, j->want, j->out_bytes) == 0;
}

static ndpad_plan *plan_with(const job *j, const ndpad_thread_pool *pool, int32_t threads,
                             int32_t schedule, int64_t tile_rows)
{
    ndpad_options o;
    ndpad_options_init(&o);
    o.thread_pool = pool;
    o.threads = threads;
    o.schedule = schedule;
    o.tile_rows = tile_rows;
    o.tuning = NDPAD_TUNING_HEURISTIC;
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&j->p, &o, &plan), NDPAD_OK);
    return plan;
}

/* ---- 1. hostile pools against the reference ------------------------------------------ */

static void hostile_pools_give_the_reference(void **state)
{
    (void)state;
    for (int kind = 0; kind < ORDERS; kind++)
        for (int32_t mode = 0; mode <= NDPAD_WRAP; mode++)
            for (int variant = 0; variant < 3; variant++) {
                hostile h = {.kind = (order)kind};
                const ndpad_thread_pool pool = pool_of(&h);
                job j;
                job_make(&j, mode, false, variant == 1, false);
                /* tiles of 7 rows: many tasks; and the planner's own tiles */
                for (int t = 0; t < 2; t++) {
                    ndpad_plan *plan = plan_with(&j, &pool, 0, 0, t == 0 ? 7 : 0);
                    const int before = atomic_load(&h.calls);
                    if (!run_and_check(&j, plan))
                        fail_msg("pool %s, mode %d, variant %d, tiles %d: wrong output",
                                 order_names[kind], mode, variant, t);
                    assert_int_equal(atomic_load(&h.calls), before + 1);
                    struct ndpad_plan_info info = {.size = sizeof(info)};
                    assert_int_equal(ndpad_plan_info(plan, &info), NDPAD_OK);
                    assert_true(info.threads > 1);
                    ndpad_plan_destroy(plan);
                }
                assert_int_equal(atomic_load(&h.bad_args), 0);
                assert_true(atomic_load(&h.tasks) >= 4);
                job_free(&j);
            }
}

/* In-place padding on a pool: the borders only. */
static void hostile_pools_pad_in_place(void **state)
{
    (void)state;
    for (int kind = 0; kind < ORDERS; kind++)
        for (int32_t mode = 0; mode <= NDPAD_WRAP; mode++) {
            hostile h = {.kind = (order)kind};
            const ndpad_thread_pool pool = pool_of(&h);
            const int64_t shape[2] = {300, 250}, pb[2] = {2, 3}, pe[2] = {4, 5};
            const int64_t out_shape[2] = {306, 258}, os[2] = {258, 1};
            ndpad_problem p = {.rank = 2,
                               .mode = mode,
                               .elem_size = 4,
                               .shape = shape,
                               .pads_begin = pb,
                               .pads_end = pe,
                               .in_strides = os};
            const size_t out_elems = (size_t)(out_shape[0] * out_shape[1]);
            uint32_t *buf = malloc(out_elems * 4), *want = malloc(out_elems * 4);
            uint32_t *in_copy = malloc(out_elems * 4);
            for (size_t i = 0; i < out_elems; i++) buf[i] = (uint32_t)(i * 40503u);
            memcpy(in_copy, buf, out_elems * 4);
            const uint32_t *in = buf + 2 * 258 + 3;
            assert_int_equal(ndpad_ref_pad(&p, in_copy + 2 * 258 + 3, want), NDPAD_OK);
            ndpad_options o;
            ndpad_options_init(&o);
            o.thread_pool = &pool;
            o.tile_rows = 5;
            ndpad_plan *plan = NULL;
            assert_int_equal(ndpad_plan_create(&p, &o, &plan), NDPAD_OK);
            assert_int_equal(ndpad_execute(plan, in, buf), NDPAD_OK);
            if (memcmp(buf, want, out_elems * 4) != 0)
                fail_msg("in place, pool %s, mode %d: wrong output", order_names[kind], mode);
            assert_true(atomic_load(&h.calls) == 1);
            ndpad_plan_destroy(plan);
            free(buf), free(want), free(in_copy);
        }
}

/* The pool's results are byte-identical to ndpad's own threads, its fixed team and one
 * thread; a plan on one thread, or a small output, never calls the pool. */
static void pool_own_threads_fixed_team_and_one_thread_agree(void **state)
{
    (void)state;
    hostile h = {.kind = SHUFFLED};
    const ndpad_thread_pool pool = pool_of(&h);
    for (int32_t mode = 0; mode <= NDPAD_WRAP; mode++) {
        job j;
        job_make(&j, mode, false, false, false);
        ndpad_plan *plans[4] = {plan_with(&j, &pool, 0, 0, 9), plan_with(&j, NULL, 2, 0, 9),
                                plan_with(&j, NULL, 2, fixed_team(), 9),
                                plan_with(&j, NULL, 1, 0, 9)};
        char text[4096];
        const char *runs[3] = {"on the host's pool", "the caller and ndpad's workers",
                               "a fixed OpenMP team"};
        for (int k = 0; k < (fixed_team() == NDPAD_SCHEDULE_FIXED_TEAM ? 3 : 2); k++) {
            ndpad_plan_describe(plans[k], text, sizeof text);
            if (strstr(text, runs[k]) == NULL)
                fail_msg("plan %d: no \"%s\" in\n%s", k, runs[k], text);
        }
        for (int k = 0; k < 4; k++)
            for (int rep = 0; rep < 3; rep++)
                if (!run_and_check(&j, plans[k]))
                    fail_msg("mode %d, plan %d: wrong output", mode, k);
        for (int k = 0; k < 4; k++) ndpad_plan_destroy(plans[k]);
        const int calls = atomic_load(&h.calls);
        ndpad_plan *one = plan_with(&j, &pool, 1, 0, 9); /* threads = 1 caps the pool's 3 */
        struct ndpad_plan_info info = {.size = sizeof(info)};
        ndpad_plan_info(one, &info);
        assert_int_equal(info.threads, 1);
        assert_true(run_and_check(&j, one));
        assert_int_equal(atomic_load(&h.calls), calls);
        ndpad_plan_destroy(one);
        job_free(&j);

        job small;
        job_make(&small, mode, true, false, false);
        ndpad_plan *tiny = plan_with(&small, &pool, 0, 0, 0);
        assert_true(run_and_check(&small, tiny));
        assert_int_equal(atomic_load(&h.calls), calls); /* under 256 KiB: the caller alone */
        ndpad_plan_destroy(tiny);
        job_free(&small);
    }
}

/* ---- 2. the calling thread's pool: one-shot calls, ONNX, the plan cache ---------------- */

static void *pad_on_another_thread(void *arg)
{
    return (void *)(intptr_t)run_and_check((job *)arg, NULL);
}

static void one_shot_and_onnx_calls_take_the_threads_pool(void **state)
{
    (void)state;
    hostile a = {.kind = REVERSE}, b = {.kind = IN_ORDER};
    const ndpad_thread_pool pa = pool_of(&a), pb = pool_of(&b);
    job j; /* 3 x 186 x 209 x 4 bytes: above 256 KiB and under the cache's 1 MiB */
    job_make(&j, NDPAD_REFLECT, false, false, false);
    assert_true(j.out_bytes > 256 * 1024 && j.out_bytes < 1024 * 1024);

    assert_int_equal(ndpad_set_thread_pool(&pa), NDPAD_OK);
    for (int k = 0; k < 3; k++) assert_true(run_and_check(&j, NULL)); /* cached after the first */
    assert_int_equal(atomic_load(&a.calls), 3);
    /* another pool: never the plan cached for the first */
    assert_int_equal(ndpad_set_thread_pool(&pb), NDPAD_OK);
    for (int k = 0; k < 2; k++) assert_true(run_and_check(&j, NULL));
    assert_int_equal(atomic_load(&a.calls), 3);
    assert_int_equal(atomic_load(&b.calls), 2);
    /* the same pool function with another context is another pool */
    hostile c = {.kind = IN_ORDER};
    const ndpad_thread_pool pc = {hostile_for, &c, 3};
    assert_int_equal(ndpad_set_thread_pool(&pc), NDPAD_OK);
    assert_true(run_and_check(&j, NULL));
    assert_int_equal(atomic_load(&b.calls), 2);
    assert_int_equal(atomic_load(&c.calls), 1);

    /* the ONNX entry point */
    const int64_t pads[6] = {0, 3, 5, 0, 2, 4};
    unsigned char *out = malloc(j.out_bytes);
    assert_int_equal(ndpad_onnx_pad(3, j.shape, 4, pads, 6, NULL, 0, "reflect", NULL, j.in, out),
                     NDPAD_OK);
    assert_memory_equal(out, j.want, j.out_bytes);
    assert_int_equal(atomic_load(&c.calls), 2);
    /* another thread has no pool of this thread's */
    pthread_t other;
    void *ok = NULL;
    assert_int_equal(pthread_create(&other, NULL, pad_on_another_thread, &j), 0);
    pthread_join(other, &ok);
    assert_non_null(ok);
    assert_int_equal(atomic_load(&c.calls), 2);
    /* a plan made on this thread without options takes the pool too */
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&j.p, NULL, &plan), NDPAD_OK);
    assert_true(run_and_check(&j, plan));
    assert_int_equal(atomic_load(&c.calls), 3);
    /* NULL restores ndpad's own threads, for new plans and one-shot calls */
    assert_int_equal(ndpad_set_thread_pool(NULL), NDPAD_OK);
    assert_true(run_and_check(&j, NULL));
    assert_true(run_and_check(&j, plan)); /* a plan keeps its pool */
    assert_int_equal(atomic_load(&c.calls), 4);
    assert_int_equal(atomic_load(&a.calls), 3);
    ndpad_plan_destroy(plan);
    free(out);
    job_free(&j);
}

/* ---- 3. options and ndpad_set_thread_pool are checked --------------------------------- */

static void bad_pools_and_schedules_are_options_errors(void **state)
{
    (void)state;
    job j;
    job_make(&j, NDPAD_EDGE, true, false, false);
    hostile h = {.kind = IN_ORDER};
    const ndpad_thread_pool no_function = {NULL, &h, 2}, no_threads = {hostile_for, &h, 0};
    const ndpad_thread_pool *bad[2] = {&no_function, &no_threads};
    const char *needles[2] = {"options.thread_pool->parallel_for", "options.thread_pool->threads"};
    for (int k = 0; k < 2; k++) {
        ndpad_options o;
        ndpad_options_init(&o);
        o.thread_pool = bad[k];
        ndpad_plan *plan = (ndpad_plan *)&o;
        assert_int_equal(ndpad_plan_create(&j.p, &o, &plan), NDPAD_ERR_OPTIONS);
        assert_null(plan);
        assert_non_null(strstr(ndpad_last_error(), needles[k]));
        assert_int_equal(ndpad_set_thread_pool(bad[k]), NDPAD_ERR_OPTIONS);
        assert_non_null(strstr(ndpad_last_error(), needles[k] + strlen("options.thread_")));
    }
    ndpad_options o;
    ndpad_options_init(&o);
    o.schedule = 2;
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&j.p, &o, &plan), NDPAD_ERR_OPTIONS);
    assert_non_null(strstr(ndpad_last_error(), "options.schedule"));
    ndpad_options_init(&o);
    o.reserved32b = 1;
    assert_int_equal(ndpad_plan_create(&j.p, &o, &plan), NDPAD_ERR_OPTIONS);
    assert_non_null(strstr(ndpad_last_error(), "reserved32b"));
    /* a rejected pool leaves the thread's pool as it was: none */
    assert_true(run_and_check(&j, NULL));
    assert_int_equal(atomic_load(&h.calls), 0);
    /* the ABI: the fields sit in the old reserved area */
    assert_int_equal(sizeof(ndpad_options), 88);
    assert_int_equal(offsetof(ndpad_options, schedule), 32);
    assert_int_equal(offsetof(ndpad_options, thread_pool), 40);
    job_free(&j);
}

/* ---- 4. the default scheduler never needs a worker ------------------------------------ */

static void default_path_finishes_without_any_worker(void **state)
{
    (void)state;
    for (int32_t mode = 0; mode <= NDPAD_WRAP; mode++) {
        job j;
        job_make(&j, mode, false, mode == NDPAD_EDGE, false);
        ndpad_plan *plan = plan_with(&j, NULL, 2, 0, 3);
        assert_true(run_and_check(&j, plan)); /* the workers start */
        /* held workers are threads the scheduler never runs: the caller must finish alone,
         * not wait for them (before issue 31 an OpenMP team waited at its barrier) */
        const size_t before = ndpad_workers_test_hold(true);
        for (int k = 0; k < 20; k++) assert_true(run_and_check(&j, plan));
        assert_int_equal(ndpad_workers_test_hold(false), before);
        for (int k = 0; k < 5; k++) assert_true(run_and_check(&j, plan));
        ndpad_plan_destroy(plan);
        job_free(&j);
    }
    assert_true(ndpad_workers_started() >= 1);
}

/* Eight threads execute 2-thread plans at once: one holds the workers, the others run
 * alone, all right. */
static void *execute_many(void *arg)
{
    job *j = arg;
    ndpad_plan *plan = plan_with(j, NULL, 2, 0, 4);
    bool ok = true;
    for (int k = 0; k < 30 && ok; k++) ok = run_and_check(j, plan);
    ndpad_plan_destroy(plan);
    return (void *)(intptr_t)ok;
}

static void default_path_from_eight_threads_at_once(void **state)
{
    (void)state;
    job jobs[8];
    pthread_t threads[8];
    for (int t = 0; t < 8; t++) job_make(&jobs[t], t % 5, false, t % 3 == 0, false);
    for (int t = 0; t < 8; t++)
        assert_int_equal(pthread_create(&threads[t], NULL, execute_many, &jobs[t]), 0);
    int good = 0;
    for (int t = 0; t < 8; t++) {
        void *ok = NULL;
        pthread_join(threads[t], &ok);
        good += ok != NULL;
    }
    for (int t = 0; t < 8; t++) job_free(&jobs[t]);
    assert_int_equal(good, 8);
}

/* ---- 4b. the workers' spin policy, on a fake clock --------------------------------------- */

static void spin_backs_off_when_descheduled_and_probes_again(void **state)
{
    (void)state;
    const int64_t ms = 1000 * 1000, spin = 100 * 1000;
    ndpad_spin_policy p = {0, 0};
    int64_t now = 5 * ms;
    /* idle: every spin is clean, the budget stays */
    for (int k = 0; k < 10; k++, now += ms) {
        assert_int_equal(ndpad_spin_budget(&p, now, spin), spin);
        ndpad_spin_observe(&p, now + spin, false);
    }
    /* a spin that lost the CPU (an injected gap): no spinning for the minimum back-off */
    assert_int_equal(ndpad_spin_budget(&p, now, spin), spin);
    ndpad_spin_observe(&p, now, true);
    assert_int_equal(ndpad_spin_budget(&p, now + 1, spin), 0);
    assert_int_equal(ndpad_spin_budget(&p, now + NDPAD_BACKOFF_MIN_NS - 1, spin), 0);
    /* then a probe: spinning again */
    now += NDPAD_BACKOFF_MIN_NS;
    assert_int_equal(ndpad_spin_budget(&p, now, spin), spin);
    /* a busy machine: every probe loses the CPU; the back-off doubles up to the maximum */
    int64_t expected = 2 * NDPAD_BACKOFF_MIN_NS;
    for (int k = 0; k < 12; k++) {
        assert_int_equal(ndpad_spin_budget(&p, now, spin), spin); /* the probe */
        ndpad_spin_observe(&p, now, true);
        assert_int_equal(ndpad_spin_budget(&p, now + expected - 1, spin), 0);
        now += expected;
        expected = expected * 2 > NDPAD_BACKOFF_MAX_NS ? NDPAD_BACKOFF_MAX_NS : expected * 2;
    }
    assert_int_equal(p.backoff, NDPAD_BACKOFF_MAX_NS);
    /* the load goes away: clean probes halve the back-off down to the minimum */
    for (int k = 0; k < 20; k++, now += ms) {
        assert_int_equal(ndpad_spin_budget(&p, now, spin), spin);
        ndpad_spin_observe(&p, now + spin, false);
    }
    assert_int_equal(p.backoff, NDPAD_BACKOFF_MIN_NS);
    ndpad_spin_observe(&p, now, true);
    assert_int_equal(ndpad_spin_budget(&p, now + NDPAD_BACKOFF_MIN_NS - 1, spin), 0);
    assert_int_equal(ndpad_spin_budget(&p, now + NDPAD_BACKOFF_MIN_NS, spin), spin);
}

/* ---- 4c. callers back off the workers after a stall ------------------------------------ */

static void a_long_wait_for_a_worker_task_is_a_stall(void **state)
{
    (void)state;
    const int64_t us = 1000, ms = 1000 * us;
    /* a wait shorter than NDPAD_STALL_NS is never a stall, however short the tasks */
    assert_false(ndpad_wait_stalled(1 * us, 4, NDPAD_STALL_NS - 1));
    /* a long wait against short tasks of the caller's: the worker lost its core */
    assert_true(ndpad_wait_stalled(8 * us, 4, NDPAD_STALL_NS));
    assert_true(ndpad_wait_stalled(20 * us, 2, 25 * ms));
    /* a wait of about one long task is the work itself, not a stall */
    assert_false(ndpad_wait_stalled(4 * ms, 2, 2 * ms));
    assert_false(ndpad_wait_stalled(NDPAD_STALL_FACTOR * 2 * ms, 1, 2 * ms));
    assert_true(ndpad_wait_stalled(2 * ms, 1, NDPAD_STALL_FACTOR * 2 * ms + 8));
    /* the workers ran every task: any long wait is theirs */
    assert_true(ndpad_wait_stalled(0, 0, NDPAD_STALL_NS));
}

/* A task that sleeps when a worker runs it: a worker descheduled in the middle of a task. */
static _Thread_local int on_caller;
static void sleep_on_workers(void *context, size_t i)
{
    (void)i;
    if (!on_caller) {
        const struct timespec pause = {0, 3 * 1000 * 1000};
        nanosleep(&pause, NULL);
    } else { /* 20 us of the caller's own: time for a worker to wake and claim a task */
        struct timespec t0, t;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        do clock_gettime(CLOCK_MONOTONIC, &t);
        while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 20000);
    }
    atomic_fetch_add((atomic_size_t *)context, 1);
}

static void callers_run_alone_after_a_stall_then_probe(void **state)
{
    (void)state;
    on_caller = 1;
    atomic_size_t ran = 0;
    ndpad_workers_test_reset_backoff();
    /* A job that ends in a stall (a worker ran a sleeping task, the caller waited 3 ms)
     * starts the callers' back-off; a job that starts inside it runs on its caller alone.
     * A loaded machine may hold this process off its CPU past the whole period, so that job
     * is the probe instead: that is allowed only when it ended after the period did. */
    bool alone = false;
    for (int attempt = 0; attempt < 20 && !alone; attempt++) {
        int tries = 0;
        for (; tries < 200 && ndpad_workers_test_quiet_until() <= ndpad_workers_test_now(); tries++)
            ndpad_workers_run(1, sleep_on_workers, &ran, 64);
        if (tries == 200) skip(); /* no worker ever ran (one CPU): nothing to back off */
        const int64_t until = ndpad_workers_test_quiet_until();
        const size_t before = ndpad_workers_test_hold(false);
        atomic_store(&ran, 0);
        ndpad_workers_run(1, sleep_on_workers, &ran, 64);
        const int64_t ended = ndpad_workers_test_now();
        assert_int_equal(atomic_load(&ran), 64);
        alone = ndpad_workers_test_hold(false) == before;
        if (!alone) assert_true(ended >= until);
    }
    assert_true(alone);
    /* (when the period ends, the next job is the probe: the fake-clock test of the rule) */
    ndpad_workers_test_reset_backoff();
    on_caller = 0;
}

/* ---- 5. fork after each kind of call --------------------------------------------------- */

/* Every kind of call in this process: 0 when all are right. */
static int every_kind_pads(void)
{
    int bad = 0;
    job j;
    job_make(&j, NDPAD_WRAP, false, false, false);
    /* in order on the caller: qemu-user (the NEON run) cannot start a thread in the forked
     * child of a threaded process; hosts' threads after a fork are the host's matter */
    hostile h = {.kind = IN_ORDER};
    const ndpad_thread_pool pool = pool_of(&h);
    ndpad_plan *plans[3] = {plan_with(&j, &pool, 0, 0, 0), plan_with(&j, NULL, 2, 0, 0),
                            plan_with(&j, NULL, 2, fixed_team(), 0)};
    for (int k = 0; k < 3; k++) bad |= !run_and_check(&j, plans[k]) << k;
    bad |= !run_and_check(&j, NULL) << 3;
    ndpad_set_thread_pool(&pool);
    bad |= !run_and_check(&j, NULL) << 4;
    ndpad_set_thread_pool(NULL);
    bad |= (atomic_load(&h.calls) != 2) << 5;
    for (int k = 0; k < 3; k++) ndpad_plan_destroy(plans[k]);
    job_free(&j);
    return bad;
}

static int wait_bounded(pid_t pid, int seconds)
{
    const struct timespec tick = {0, 20 * 1000 * 1000};
    for (int k = 0; k < seconds * 50; k++) {
        int status = 0;
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        nanosleep(&tick, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

static void child_after_each_kind_of_call_pads(void **state)
{
    (void)state;
    /* ThreadSanitizer cannot follow threads started in a child of a threaded process */
    if (getenv("NDPAD_TEST_NO_FORK") != NULL) skip();
    for (int kind = 0; kind < 5; kind++) {
        /* the parent's last call before the fork: a pool plan, the workers, the fixed
         * team, a one-shot call, a one-shot call on the thread's pool */
        job j;
        job_make(&j, NDPAD_REFLECT, false, false, false);
        hostile h = {.kind = ALL_AT_ONCE};
        const ndpad_thread_pool pool = pool_of(&h);
        ndpad_plan *plan =
            kind < 3 ? plan_with(&j, kind == 0 ? &pool : NULL, 2, kind == 2 ? fixed_team() : 0, 0)
                     : NULL;
        if (kind == 4) ndpad_set_thread_pool(&pool);
        assert_true(run_and_check(&j, plan));
        ndpad_set_thread_pool(NULL);
        const pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            alarm(20);
            _exit(every_kind_pads());
        }
        const int code = wait_bounded(pid, 25);
        if (code != 0) fail_msg("child after call kind %d: code %d", kind, code);
        assert_int_equal(every_kind_pads(), 0); /* the parent is unaffected */
        ndpad_plan_destroy(plan);
        job_free(&j);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hostile_pools_give_the_reference),
        cmocka_unit_test(hostile_pools_pad_in_place),
        cmocka_unit_test(pool_own_threads_fixed_team_and_one_thread_agree),
        cmocka_unit_test(one_shot_and_onnx_calls_take_the_threads_pool),
        cmocka_unit_test(bad_pools_and_schedules_are_options_errors),
        cmocka_unit_test(default_path_finishes_without_any_worker),
        cmocka_unit_test(default_path_from_eight_threads_at_once),
        cmocka_unit_test(spin_backs_off_when_descheduled_and_probes_again),
        cmocka_unit_test(a_long_wait_for_a_worker_task_is_a_stall),
        cmocka_unit_test(callers_run_alone_after_a_stall_then_probe),
        cmocka_unit_test(child_after_each_kind_of_call_pads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
