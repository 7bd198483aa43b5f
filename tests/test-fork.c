/*
 * test-fork.c — a forked child never hangs and gets correct results (issue 12, defect 1).
 *
 * The parent runs a plan on a team of threads (the OpenMP runtime then keeps a thread pool),
 * forks, and the child pads again: before the fix its first team start waited forever for
 * workers that do not exist in the child. Every child here is watched with a time limit
 * (alarm in the child, a bounded wait and SIGKILL in the parent), so a hang is a failure,
 * not a stuck CI job.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
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

int main(void)
{
    input = malloc((size_t)SIDE * SIDE * 4);
    expected = malloc(OUT_BYTES);
    if (input == NULL || expected == NULL) return 1;
    for (int i = 0; i < SIDE * SIDE; i++) input[i] = (float)(i % 9973) * 0.5f;
    if (ndpad_ref_pad(&problem, input, expected) != NDPAD_OK) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(child_after_a_team_pads_correctly),
        cmocka_unit_test(children_and_grandchildren_pad_correctly),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    free(input);
    free(expected);
    return failed;
}
