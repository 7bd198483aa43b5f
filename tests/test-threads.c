/*
 * test-threads.c — thread safety and reentrancy (issue 6), also run under ThreadSanitizer
 * (ci/sanitize.sh):
 *   1. the very first ndpad calls of the process come from 8 threads at once (lazy
 *      initialisation: topology, ISA detection, kernel table, wisdom file);
 *   2. one plan executed by 8 threads at once on different buffers, every output checked,
 *      while 2 other threads create, execute and destroy plans (with the wisdom cache) and
 *      a third imports, exports and forgets wisdom;
 *   3. ndpad_last_error() is per thread: 8 threads fail differently, then each reads its own;
 *   4. calls from inside an outer OpenMP parallel region, with nesting allowed by the
 *      runtime, run on the calling thread only: the process starts no new thread, and
 *      results are right;
 *   5. a plan with 2 OpenMP threads executed from 4 pthreads at once (4 teams).
 * The plans of 2 and 3 run with options.threads = 1, so that the concurrency is the test's own
 * pthreads; 4 and 5 use OpenMP teams. NDPAD_TEST_NO_OPENMP=1 skips 4 and 5 (ci/sanitize.sh
 * sets it when the OpenMP runtime is not one ThreadSanitizer understands).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "ndpad.h"
#include "test-checks.h"

enum { EXECUTORS = 8, ITERATIONS = 60 };

static bool openmp_allowed(void)
{
    const char *v = getenv("NDPAD_TEST_NO_OPENMP");
    return v == NULL || strcmp(v, "1") != 0;
}

/* ---- a problem with its expected output ------------------------------------------------ */

typedef struct job {
    ndpad_problem p;
    int64_t shape[3], pb[3], pe[3];
    unsigned char *in, *expected;
    size_t in_bytes, out_bytes;
} job;

static void job_make(job *j, int32_t mode, size_t es, const int64_t *shape, const int64_t *pb,
                     const int64_t *pe, uint64_t seed)
{
    memset(j, 0, sizeof(*j));
    memcpy(j->shape, shape, sizeof j->shape);
    memcpy(j->pb, pb, sizeof j->pb);
    memcpy(j->pe, pe, sizeof j->pe);
    j->p = (ndpad_problem){.rank = 3,
                           .mode = mode,
                           .elem_size = es,
                           .shape = j->shape,
                           .pads_begin = j->pb,
                           .pads_end = j->pe};
    int64_t n[3];
    if (ndpad_ref_output_shape(&j->p, n) != NDPAD_OK) abort();
    j->in_bytes = (size_t)test_count(3, shape) * es;
    j->out_bytes = (size_t)test_count(3, n) * es;
    j->in = test_xmalloc(j->in_bytes);
    test_rng rng = test_rng_make(seed, 7);
    test_rng_bytes(&rng, j->in, j->in_bytes);
    j->expected = test_xmalloc(j->out_bytes);
    if (ndpad_ref_pad(&j->p, j->in, j->expected) != NDPAD_OK) abort();
}

static void job_free(job *j)
{
    free(j->in);
    free(j->expected);
}

/* executes `plan` (or ndpad_pad when NULL) into a guarded buffer; true when right */
static bool run_and_check(const job *j, const ndpad_plan *plan)
{
    test_out out = test_out_make(j->out_bytes);
    const ndpad_status st =
        plan ? ndpad_execute(plan, j->in, out.body) : ndpad_pad(&j->p, j->in, out.body);
    bool ok = st == NDPAD_OK && memcmp(out.body, j->expected, j->out_bytes) == 0 &&
              test_all_bytes_are(out.alloc, TEST_GUARD, TEST_SENTINEL) &&
              test_all_bytes_are(out.body + j->out_bytes, TEST_GUARD, TEST_SENTINEL);
    test_out_free(&out);
    return ok;
}

/* ---- 1. first calls from 8 threads ----------------------------------------------------- */

static pthread_barrier_t start_line;

static void *first_call(void *arg)
{
    const int id = (int)(intptr_t)arg;
    static const int64_t shape[3] = {3, 5, 7}, pb[3] = {1, 0, 2}, pe[3] = {0, 3, 1};
    job j;
    job_make(&j, id % 5, (size_t)1 << (id % 4), shape, pb, pe, (uint64_t)id);
    pthread_barrier_wait(&start_line);
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = 1;
    ndpad_plan *plan = NULL;
    bool ok = ndpad_plan_create(&j.p, &options, &plan) == NDPAD_OK && run_and_check(&j, plan);
    ndpad_plan_destroy(plan);
    job_free(&j);
    return (void *)(intptr_t)ok;
}

static void first_calls_of_the_process_from_8_threads(void **state)
{
    (void)state;
    pthread_t threads[8];
    pthread_barrier_init(&start_line, NULL, 8);
    for (int t = 0; t < 8; t++)
        assert_int_equal(pthread_create(&threads[t], NULL, first_call, (void *)(intptr_t)t), 0);
    int good = 0;
    for (int t = 0; t < 8; t++) {
        void *ok = NULL;
        pthread_join(threads[t], &ok);
        good += ok != NULL;
    }
    pthread_barrier_destroy(&start_line);
    assert_int_equal(good, 8);
}

/* ---- 2. one plan on 8 threads while others create and destroy --------------------------- */

typedef struct shared_run {
    const ndpad_plan *plan;
    job jobs[EXECUTORS]; /* same problem, different input per executor */
    atomic_bool stop;
    atomic_int failures;
    atomic_long churned;
} shared_run;

typedef struct executor_arg {
    shared_run *run;
    int id;
} executor_arg;

static void *execute_shared(void *arg)
{
    executor_arg *a = (executor_arg *)arg;
    for (int i = 0; i < ITERATIONS; i++)
        if (!run_and_check(&a->run->jobs[a->id], a->run->plan))
            atomic_fetch_add(&a->run->failures, 1);
    return NULL;
}

static void *churn_plans(void *arg)
{
    shared_run *run = (shared_run *)arg;
    test_rng rng = test_rng_make(99, (uint64_t)(uintptr_t)&rng);
    while (!atomic_load(&run->stop)) {
        const int64_t shape[3] = {test_rng_range(&rng, 1, 6), test_rng_range(&rng, 1, 9),
                                  test_rng_range(&rng, 1, 40)};
        const int64_t pb[3] = {test_rng_range(&rng, -1, 3), test_rng_range(&rng, 0, 4),
                               test_rng_range(&rng, -2, 9)};
        const int64_t pe[3] = {test_rng_range(&rng, 0, 2), test_rng_range(&rng, -1, 5),
                               test_rng_range(&rng, 0, 70)};
        job j;
        job_make(&j, (int32_t)test_rng_range(&rng, 0, 4), (size_t)1 << test_rng_range(&rng, 0, 4),
                 shape, pb, pe, test_rng_next(&rng));
        ndpad_options options;
        ndpad_options_init(&options);
        options.threads = 1;
        options.tuning = test_rng_chance(&rng, 1, 2) ? NDPAD_TUNING_CACHE : NDPAD_TUNING_HEURISTIC;
        ndpad_plan *plan = NULL;
        if (ndpad_plan_create(&j.p, &options, &plan) != NDPAD_OK || !run_and_check(&j, plan))
            atomic_fetch_add(&run->failures, 1);
        ndpad_plan_destroy(plan);
        const ndpad_status st = ndpad_pad(&j.p, NULL, NULL); /* an error, concurrently */
        if (!(st == NDPAD_ERR_NULL_BUFFER || (st == NDPAD_OK && j.out_bytes == 0)))
            atomic_fetch_add(&run->failures, 1);
        job_free(&j);
        atomic_fetch_add(&run->churned, 1);
    }
    return NULL;
}

static void *churn_wisdom(void *arg)
{
    shared_run *run = (shared_run *)arg;
    char text[8192];
    while (!atomic_load(&run->stop)) {
        const size_t n = ndpad_wisdom_export_string(text, sizeof text);
        if (n < sizeof text && ndpad_wisdom_import_string(text) != 1)
            atomic_fetch_add(&run->failures, 1);
        ndpad_wisdom_forget();
        char warning[600];
        ndpad_wisdom_warning(warning, sizeof warning);
        atomic_fetch_add(&run->churned, 1);
    }
    return NULL;
}

static void one_plan_on_8_threads_while_others_create_and_destroy(void **state)
{
    (void)state;
    shared_run *run = test_xmalloc(sizeof(*run));
    memset(run, 0, sizeof(*run));
    static const int64_t shape[3] = {4, 33, 61}, pb[3] = {1, 2, 5}, pe[3] = {2, 1, 9};
    for (int t = 0; t < EXECUTORS; t++)
        job_make(&run->jobs[t], NDPAD_REFLECT, 4, shape, pb, pe, 1000 + (uint64_t)t);
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = 1;
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&run->jobs[0].p, &options, &plan), NDPAD_OK);
    run->plan = plan;

    pthread_t executors[EXECUTORS], churners[3];
    executor_arg args[EXECUTORS];
    assert_int_equal(pthread_create(&churners[0], NULL, churn_plans, run), 0);
    assert_int_equal(pthread_create(&churners[1], NULL, churn_plans, run), 0);
    assert_int_equal(pthread_create(&churners[2], NULL, churn_wisdom, run), 0);
    for (int t = 0; t < EXECUTORS; t++) {
        args[t] = (executor_arg){run, t};
        assert_int_equal(pthread_create(&executors[t], NULL, execute_shared, &args[t]), 0);
    }
    for (int t = 0; t < EXECUTORS; t++) pthread_join(executors[t], NULL);
    atomic_store(&run->stop, true);
    for (int t = 0; t < 3; t++) pthread_join(churners[t], NULL);

    ndpad_plan_destroy(plan);
    assert_int_equal(atomic_load(&run->failures), 0);
    assert_true(atomic_load(&run->churned) > 0);
    for (int t = 0; t < EXECUTORS; t++) job_free(&run->jobs[t]);
    free(run);
}

/* ---- 3. ndpad_last_error per thread ------------------------------------------------------ */

static void *fail_then_read(void *arg)
{
    const int id = (int)(intptr_t)arg;
    const ndpad_problem p = {.rank = -100 - id, .elem_size = 1};
    int64_t out_shape[1];
    bool ok = ndpad_output_shape(&p, out_shape) == NDPAD_ERR_RANK;
    pthread_barrier_wait(&start_line); /* every thread has failed before any reads */
    char want[64];
    snprintf(want, sizeof want, "rank = %d ", -100 - id);
    ok = ok && strstr(ndpad_last_error(), want) != NULL;
    pthread_barrier_wait(&start_line);
    return (void *)(intptr_t)ok;
}

static void last_error_is_per_thread(void **state)
{
    (void)state;
    pthread_t threads[8];
    pthread_barrier_init(&start_line, NULL, 8);
    for (int t = 0; t < 8; t++)
        assert_int_equal(pthread_create(&threads[t], NULL, fail_then_read, (void *)(intptr_t)t), 0);
    int good = 0;
    for (int t = 0; t < 8; t++) {
        void *ok = NULL;
        pthread_join(threads[t], &ok);
        good += ok != NULL;
    }
    pthread_barrier_destroy(&start_line);
    assert_int_equal(good, 8);
}

/* ---- 4. inside an outer OpenMP parallel region ------------------------------------------- */

static int os_threads(void)
{
    DIR *dir = opendir("/proc/self/task");
    if (dir == NULL) return -1;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) count += e->d_name[0] != '.';
    closedir(dir);
    return count;
}

/* samples the process's thread count until told to stop; keeps the highest */
typedef struct watcher {
    atomic_bool stop;
    atomic_int peak;
} watcher;

static void *watch_threads(void *arg)
{
    watcher *w = (watcher *)arg;
    while (!atomic_load(&w->stop)) {
        const int count = os_threads();
        if (count > atomic_load(&w->peak)) atomic_store(&w->peak, count);
    }
    return NULL;
}

static void calls_inside_an_omp_region_start_no_nested_team(void **state)
{
    (void)state;
    if (!openmp_allowed()) skip();
    /* 1 MiB of output: a plan with threads = 2 runs a team of 2 outside any region */
    static const int64_t shape[3] = {2, 256, 500}, pb[3] = {0, 3, 6}, pe[3] = {0, 1, 6};
    job j;
    job_make(&j, NDPAD_WRAP, 4, shape, pb, pe, 4);
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = 2;
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&j.p, &options, &plan), NDPAD_OK);
    char text[4096];
    ndpad_plan_describe(plan, text, sizeof text);

    const int saved_levels = omp_get_max_active_levels();
    omp_set_max_active_levels(8); /* the runtime would allow nesting: ndpad must not use it */
    int failures = 0;
    /* warm the outer team's threads, then count the process's threads */
    int team = 0;
#pragma omp parallel num_threads(2) reduction(+ : team)
    team += omp_get_num_threads() == 2 && run_and_check(&j, NULL);
    assert_int_equal(team, 2);
    /* a nested team's threads live only as long as its region: a watcher samples the
     * process's thread count all along */
    watcher w = {false, 0};
    pthread_t watching;
    assert_int_equal(pthread_create(&watching, NULL, watch_threads, &w), 0);
    const int before = os_threads(); /* main, the outer team's worker, the watcher */
    for (int round = 0; round < 40; round++) {
#pragma omp parallel num_threads(2) reduction(+ : failures)
        {
            failures += !omp_in_parallel();
            failures += !run_and_check(&j, plan);
            failures += !run_and_check(&j, NULL); /* ndpad_pad: a plan with default options */
        }
    }
    atomic_store(&w.stop, true);
    pthread_join(watching, NULL);
    omp_set_max_active_levels(saved_levels);
    assert_int_equal(failures, 0);
    if (atomic_load(&w.peak) > before)
        fail_msg("the process went from %d to %d threads: a nested team was started\n%s", before,
                 atomic_load(&w.peak), text);
    /* and outside a region the plan does use its team (the test would otherwise prove
     * nothing): the same plan, from the main thread */
    assert_true(run_and_check(&j, plan));
    ndpad_plan_destroy(plan);
    job_free(&j);
}

/* ---- 5. OpenMP plans from several pthreads ------------------------------------------------- */

static void *execute_team_plan(void *arg)
{
    const job *j = (const job *)arg;
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = 2;
    ndpad_plan *plan = NULL;
    bool ok = ndpad_plan_create(&j->p, &options, &plan) == NDPAD_OK;
    for (int i = 0; ok && i < 10; i++) ok = run_and_check(j, plan);
    ndpad_plan_destroy(plan);
    return (void *)(intptr_t)ok;
}

static void team_plans_from_4_pthreads_at_once(void **state)
{
    (void)state;
    if (!openmp_allowed()) skip();
    static const int64_t shape[3] = {3, 200, 300}, pb[3] = {1, 4, 4}, pe[3] = {0, 4, 4};
    job jobs[4];
    pthread_t threads[4];
    for (int t = 0; t < 4; t++) job_make(&jobs[t], t % 5, 4, shape, pb, pe, 50 + (uint64_t)t);
    for (int t = 0; t < 4; t++)
        assert_int_equal(pthread_create(&threads[t], NULL, execute_team_plan, &jobs[t]), 0);
    int good = 0;
    for (int t = 0; t < 4; t++) {
        void *ok = NULL;
        pthread_join(threads[t], &ok);
        good += ok != NULL;
    }
    for (int t = 0; t < 4; t++) job_free(&jobs[t]);
    assert_int_equal(good, 4);
}

int main(void)
{
    /* no ndpad call before the first test: it must be the first of the process */
    static char dir[] = "/tmp/ndpad-test-threads-XXXXXX";
    if (mkdtemp(dir) == NULL) return 1;
    char path[64];
    snprintf(path, sizeof path, "%s/wisdom", dir);
    setenv("NDPAD_WISDOM", path, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_calls_of_the_process_from_8_threads),
        cmocka_unit_test(one_plan_on_8_threads_while_others_create_and_destroy),
        cmocka_unit_test(last_error_is_per_thread),
        cmocka_unit_test(calls_inside_an_omp_region_start_no_nested_team),
        cmocka_unit_test(team_plans_from_4_pthreads_at_once),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(dir);
    return failed;
}
