/*
 * test-fork.c — a forked child never hangs and gets correct results (issue 12, defect 1).
 *
 * The parent runs a plan on a team of threads (the OpenMP runtime then keeps a thread pool),
 * forks, and the child pads again: before the fix its first team start waited forever for
 * workers that do not exist in the child. Every child here is watched with a time limit
 * (alarm in the child, a bounded wait and SIGKILL in the parent), so a hang is a failure,
 * not a stuck CI job.
 *
 * Then (issue 35) fork while other threads are inside each lock, once-routine and cache of
 * the library: the one-shot plan cache (ndpad_pad), topology discovery (a fresh process's
 * first plan), wisdom load and save, and an OpenMP team. Each child, under an alarm, uses
 * the same calls; before the fixes some children hung (the cache's mutex, hwloc's lock, the
 * inherited flock of a save). Over a thousand forks in all, a few seconds.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "ndpad-ref.h"
#include "ndpad.h"

#define SIDE          512
#define PAD           7
#define CHILD_SECONDS 20

static const int64_t shape[2] = {SIDE, SIDE}, pb[2] = {PAD, PAD}, pe[2] = {PAD, PAD};
static const ndpad_problem problem = {.rank = 2,
                                      .mode = NDPAD_REFLECT,
                                      .elem_size = 4,
                                      .shape = shape,
                                      .pads_begin = pb,
                                      .pads_end = pe};
enum { OUT_BYTES = (SIDE + 2 * PAD) * (SIDE + 2 * PAD) * 4 };

static float *input;
static unsigned char *expected;

/* A plan of `threads` threads, executed and compared with the reference: 0 when right. */
static int pad_and_check(int32_t threads)
{
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = threads;
    options.tuning = NDPAD_TUNING_HEURISTIC;
    ndpad_plan *plan = NULL;
    unsigned char *out = malloc(OUT_BYTES);
    int bad = out == NULL;
    if (!bad && ndpad_plan_create(&problem, &options, &plan) != NDPAD_OK) bad = 2;
    if (!bad && ndpad_execute(plan, input, out) != NDPAD_OK) bad = 3;
    if (!bad && memcmp(out, expected, OUT_BYTES) != 0) bad = 4;
    if (!bad) {
        memset(out, 0, OUT_BYTES);
        if (ndpad_pad(&problem, input, out) != NDPAD_OK || memcmp(out, expected, OUT_BYTES) != 0)
            bad = 5;
    }
    ndpad_plan_destroy(plan);
    free(out);
    return bad;
}

/* Waits for `pid` at most `seconds`; kills it after. Returns its exit code, or -1 when it
 * hung or died of a signal. */
static int wait_bounded(pid_t pid, int seconds)
{
    const struct timespec tick = {0, 20 * 1000 * 1000};
    for (int k = 0; k < seconds * 50; k++) {
        int status = 0;
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        nanosleep(&tick, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

static pid_t fork_child_that_pads(int32_t threads)
{
    const pid_t pid = fork();
    if (pid == 0) {
        alarm(CHILD_SECONDS); /* a hang ends the child: SIGALRM, reported as a failure */
        _exit(pad_and_check(threads));
    }
    return pid;
}

static void child_after_a_team_pads_correctly(void **state)
{
    (void)state;
    assert_int_equal(pad_and_check(2), 0); /* the parent's team: the runtime's pool exists */
    const pid_t pid = fork_child_that_pads(2);
    assert_true(pid > 0);
    const int code = wait_bounded(pid, CHILD_SECONDS + 5);
    if (code != 0)
        fail_msg("forked child %s (code %d)", code < 0 ? "hung or crashed" : "failed", code);
    /* The parent itself is unaffected: its teams still run. */
    assert_int_equal(pad_and_check(2), 0);
}

/* A grandchild too, and several children at once, as pre-forking servers make. */
static void children_and_grandchildren_pad_correctly(void **state)
{
    (void)state;
    assert_int_equal(pad_and_check(0), 0);
    pid_t pids[3];
    for (int k = 0; k < 3; k++) {
        pids[k] = fork();
        assert_true(pids[k] >= 0);
        if (pids[k] == 0) {
            alarm(CHILD_SECONDS);
            int bad = pad_and_check(0);
            if (!bad) {
                const pid_t grandchild = fork_child_that_pads(0);
                bad = grandchild < 0 ? 10 : wait_bounded(grandchild, CHILD_SECONDS) != 0 ? 11 : 0;
            }
            _exit(bad);
        }
    }
    for (int k = 0; k < 3; k++) {
        const int code = wait_bounded(pids[k], 2 * CHILD_SECONDS + 5);
        if (code != 0) fail_msg("child %d: %s (code %d)", k, code < 0 ? "hung" : "failed", code);
    }
}

/* ---- issue 35: fork while other threads are inside the library ------------------------ */

/* A child's alarm: its calls take milliseconds. NDPAD_TEST_FORKS=N (ci/valgrind.sh) makes
 * N forks per stress test instead of hundreds, with a minute's alarm; 0 skips them. */
static unsigned stress_seconds = 10;
static int forks_wanted = -1; /* < 0: each test's own count */
/* NDPAD_TEST_WORKER_PAUSE_US (ci/valgrind.sh): the busy threads sleep this long between
 * calls. Valgrind runs one thread at a time, so a thread that unlocks a mutex and locks it
 * again in a loop keeps it from the forking thread (whose atfork handler waits for it):
 * the wisdom test waited there for over five minutes under --fair-sched=yes. */
static long worker_pause_ns;
#define STRESS_SECONDS stress_seconds
#define SMALL          12 /* small problems, more than the one-shot cache's slots */
#define WORKERS        3

static int64_t small_shape[SMALL][2];
static const int64_t small_pb[2] = {1, 2}, small_pe[2] = {2, 1};
static ndpad_problem small[SMALL];
static float small_in[SMALL][16 * 5];
static unsigned char *small_want[SMALL];
static char wisdom_path[256];
static atomic_bool stop_workers;
static atomic_long forks_made;

static void make_small_problems(void)
{
    for (int k = 0; k < SMALL; k++) {
        small_shape[k][0] = 4 + k;
        small_shape[k][1] = 5;
        small[k] = (ndpad_problem){.rank = 2,
                                   .mode = (int32_t)(k % 5),
                                   .elem_size = 4,
                                   .shape = small_shape[k],
                                   .pads_begin = small_pb,
                                   .pads_end = small_pe};
        for (int i = 0; i < 16 * 5; i++) small_in[k][i] = (float)(k * 100 + i);
        small_want[k] = malloc((size_t)(7 + k) * 8 * 4);
        assert_non_null(small_want[k]);
        assert_int_equal(ndpad_ref_pad(&small[k], small_in[k], small_want[k]), NDPAD_OK);
    }
}

/* Every small problem through ndpad_pad (the one-shot cache's get and put): 0 when right. */
static int pad_small_problems(void)
{
    unsigned char out[19 * 8 * 4];
    for (int k = 0; k < SMALL; k++) {
        if (ndpad_pad(&small[k], small_in[k], out) != NDPAD_OK) return 20 + k;
        if (memcmp(out, small_want[k], (size_t)(7 + k) * 8 * 4) != 0) return 40 + k;
    }
    return 0;
}

static int child_pads_small(void)
{
    return pad_small_problems();
}

static int child_saves_and_pads(void)
{
    if (ndpad_wisdom_save_file(wisdom_path) != NDPAD_OK) return 60;
    if (ndpad_wisdom_load_file(wisdom_path) != NDPAD_OK) return 61;
    char text[256];
    (void)ndpad_wisdom_export_string(text, sizeof(text));
    return pad_small_problems();
}

static int child_pads_with_a_team(void)
{
    const int bad = pad_and_check(2);
    return bad != 0 ? bad : pad_small_problems();
}

/* Forks `forks` children while the workers run; each child runs `work` under an alarm.
 * Stops at the first child that hangs or fails. Returns the failures (0 or 1). */
static int fork_children(int forks, int (*work)(void), const char *what)
{
    if (forks_wanted > 0) forks = forks_wanted;
    for (int k = 0; k < forks; k++) {
        const pid_t pid = fork();
        if (pid == 0) {
            alarm(STRESS_SECONDS);
            _exit(work());
        }
        if (pid < 0) fail_msg("%s: fork failed", what);
        atomic_fetch_add(&forks_made, 1);
        int status = 0;
        (void)waitpid(pid, &status, 0); /* the child's alarm bounds it */
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            print_error("%s: child %d of %d %s (%s %d)\n", what, k, forks,
                        WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM ? "hung" : "failed",
                        WIFEXITED(status) ? "exit code" : "signal",
                        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
            return 1;
        }
    }
    return 0;
}

/* Between two calls of a busy thread (NDPAD_TEST_WORKER_PAUSE_US). */
static void worker_pause(void)
{
    if (worker_pause_ns <= 0) return;
    const struct timespec pause = {worker_pause_ns / 1000000000, worker_pause_ns % 1000000000};
    nanosleep(&pause, NULL);
}

static void *worker_pads_small(void *arg)
{
    int k = (int)(intptr_t)arg;
    unsigned char out[19 * 8 * 4];
    while (!atomic_load(&stop_workers)) {
        (void)ndpad_pad(&small[k % SMALL], small_in[k % SMALL], out);
        k += 5;
        worker_pause();
    }
    return NULL;
}

static void *worker_saves_wisdom(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop_workers)) {
        (void)ndpad_wisdom_save_file(wisdom_path);
        worker_pause();
    }
    return NULL;
}

static void *worker_loads_wisdom(void *arg)
{
    char text[4096];
    (void)arg;
    while (!atomic_load(&stop_workers)) {
        (void)ndpad_wisdom_load_file(wisdom_path);
        (void)ndpad_wisdom_export_string(text, sizeof(text));
        worker_pause();
    }
    return NULL;
}

static void *worker_runs_teams(void *arg)
{
    (void)arg;
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = 2;
    ndpad_plan *plan = NULL;
    unsigned char *out = malloc(OUT_BYTES);
    if (out != NULL && ndpad_plan_create(&problem, &options, &plan) == NDPAD_OK)
        while (!atomic_load(&stop_workers)) {
            (void)ndpad_execute(plan, input, out);
            worker_pause();
        }
    ndpad_plan_destroy(plan);
    free(out);
    return NULL;
}

/* AddressSanitizer's allocator (GCC 12's libsanitizer) holds no lock across fork(): a
 * child forked while another thread allocates may wait forever on the allocator's own
 * mutex, whatever the library does. Under it, the tests that fork while other threads run
 * are skipped (ci/sanitize.sh); the ordinary build and valgrind run them. */
#if defined(__SANITIZE_ADDRESS__)
#define FORK_UNDER_ALLOCATING_THREADS_WORKS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FORK_UNDER_ALLOCATING_THREADS_WORKS 0
#endif
#endif
#ifndef FORK_UNDER_ALLOCATING_THREADS_WORKS
#define FORK_UNDER_ALLOCATING_THREADS_WORKS 1
#endif

/* Runs the workers, forks `forks` children doing `work`, stops the workers. */
static int with_workers(void *(*const bodies[WORKERS])(void *), int forks, int (*work)(void),
                        const char *what)
{
    if (!FORK_UNDER_ALLOCATING_THREADS_WORKS || forks_wanted == 0) skip();
    pthread_t threads[WORKERS];
    atomic_store(&stop_workers, false);
    for (int k = 0; k < WORKERS; k++)
        assert_int_equal(pthread_create(&threads[k], NULL, bodies[k], (void *)(intptr_t)k), 0);
    const struct timespec warm = {0, 2 * 1000 * 1000};
    nanosleep(&warm, NULL);
    const int failed = fork_children(forks, work, what);
    atomic_store(&stop_workers, true);
    for (int k = 0; k < WORKERS; k++) pthread_join(threads[k], NULL);
    return failed;
}

/* Defect 1: the one-shot cache's mutex, held by another thread at the fork. */
static void fork_while_threads_use_the_one_shot_cache(void **state)
{
    (void)state;
    void *(*const bodies[WORKERS])(void *) = {worker_pads_small, worker_pads_small,
                                              worker_pads_small};
    assert_int_equal(with_workers(bodies, 400, child_pads_small, "one-shot cache"), 0);
}

/* Wisdom: the table's and the log's mutexes, and a save's file lock. */
static void fork_while_threads_load_and_save_wisdom(void **state)
{
    (void)state;
    assert_int_equal(ndpad_wisdom_save_file(wisdom_path), NDPAD_OK);
    void *(*const bodies[WORKERS])(void *) = {worker_saves_wisdom, worker_loads_wisdom,
                                              worker_pads_small};
    assert_int_equal(with_workers(bodies, 200, child_saves_and_pads, "wisdom load/save"), 0);
}

/* An OpenMP team running in another thread at the fork. */
static void fork_while_a_team_runs(void **state)
{
    (void)state;
    void *(*const bodies[WORKERS])(void *) = {worker_runs_teams, worker_pads_small,
                                              worker_pads_small};
    assert_int_equal(with_workers(bodies, 200, child_pads_with_a_team, "OpenMP team"), 0);
}

static void *first_plan(void *arg)
{
    (void)arg;
    (void)pad_small_problems(); /* the process's first plan discovers the topology */
    return NULL;
}

/* Defect 2: a fresh process (forked from this one, which has not planned yet) starts its
 * first plan in a thread and forks 0-3 ms later, while hwloc may be discovering; the
 * grandchild plans too. Must run before any other test plans in this process. */
static int fresh_process_forks_during_discovery(int delay_us)
{
    pthread_t thread;
    if (pthread_create(&thread, NULL, first_plan, NULL) != 0) return 70;
    const struct timespec delay = {0, (long)delay_us * 1000};
    nanosleep(&delay, NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        alarm(STRESS_SECONDS);
        _exit(pad_small_problems());
    }
    int status = 0, bad = 0;
    if (pid < 0) bad = 71;
    if (pid > 0) (void)waitpid(pid, &status, 0);
    if (pid > 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
        bad = WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM ? 72 : 73;
    pthread_join(thread, NULL);
    return bad;
}

static void fork_during_topology_discovery(void **state)
{
    (void)state;
    if (!FORK_UNDER_ALLOCATING_THREADS_WORKS || forks_wanted == 0) skip();
    for (int k = 0; k < (forks_wanted > 0 ? forks_wanted : 100); k++) {
        const pid_t pid = fork();
        if (pid == 0) {
            alarm(2 * STRESS_SECONDS);
            _exit(fresh_process_forks_during_discovery(k * 37 % 3000));
        }
        assert_true(pid > 0);
        atomic_fetch_add(&forks_made, 2);
        int status = 0;
        (void)waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fail_msg("discovery %d: %s (%s %d)", k,
                     WIFEXITED(status) && WEXITSTATUS(status) == 72 ? "the grandchild hung"
                                                                    : "failed",
                     WIFEXITED(status) ? "exit code" : "signal",
                     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    }
}

int main(void)
{
    input = malloc((size_t)SIDE * SIDE * 4);
    expected = malloc(OUT_BYTES);
    if (input == NULL || expected == NULL) return 1;
    for (int i = 0; i < SIDE * SIDE; i++) input[i] = (float)(i % 9973) * 0.5f;
    if (ndpad_ref_pad(&problem, input, expected) != NDPAD_OK) return 1;
    make_small_problems();
    const char *forks_env = getenv("NDPAD_TEST_FORKS");
    if (forks_env != NULL && forks_env[0] != '\0') {
        forks_wanted = atoi(forks_env);
        stress_seconds = 60;
    }
    const char *pause_env = getenv("NDPAD_TEST_WORKER_PAUSE_US");
    if (pause_env != NULL) worker_pause_ns = atol(pause_env) * 1000;
    /* Wisdom in a private file (tmpfs when there is one: a save's fsync is then free). */
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(wisdom_path, sizeof(wisdom_path), "%s/ndpad-test-fork-%ld.wisdom", dir,
             (long)getpid());
    setenv("NDPAD_WISDOM", wisdom_path, 1);
    const struct CMUnitTest tests[] = {
        /* first: this process has not planned yet */
        cmocka_unit_test(fork_during_topology_discovery),
        cmocka_unit_test(child_after_a_team_pads_correctly),
        cmocka_unit_test(children_and_grandchildren_pad_correctly),
        cmocka_unit_test(fork_while_threads_use_the_one_shot_cache),
        cmocka_unit_test(fork_while_threads_load_and_save_wisdom),
        cmocka_unit_test(fork_while_a_team_runs),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    fflush(stdout);
    printf("test-fork: %ld forks while other threads were inside ndpad\n",
           atomic_load(&forks_made));
    char lock_path[300];
    snprintf(lock_path, sizeof(lock_path), "%s.lock", wisdom_path);
    unlink(wisdom_path);
    unlink(lock_path);
    free(input);
    free(expected);
    return failed;
}
