/*
 * test-unload.c — a host that loads, uses and unloads plugins that use ndpad (issue 41):
 * one linked with the static library (libndpad.a: its worker threads and fork handlers are
 * the plugin's own code), one with the shared library (linked -z nodelete: it stays). Each
 * takes 20 cycles of dlopen, a two-thread pad, dlclose, half of them unloading while the
 * workers still spin, half after they went to sleep; the process's threads are counted in
 * /proc/self/task after every cycle. Then a fork: handlers registered by an unloaded copy
 * must not run. Before the fix the static plugin crashed the host (SIGSEGV in
 * ndpad-worker-N) or leaked two threads a cycle.
 * With NDPAD_THREADS_FIXED=1 (the test's second registration) the pads run on OpenMP teams:
 * the runtime's pool threads are not ndpad's and stay, idle, with the runtime kept loaded
 * (before, the plugin's dlclose() unloaded the runtime under them: SIGSEGV), so the count
 * must stay where the first cycle left it.
 *
 *   test-unload <static plugin> <shared plugin>
 */
#define _GNU_SOURCE /* usleep */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CYCLES 20

static const char *plugin_path[2]; /* static, shared */

/* Threads of this process. */
static int thread_count(void)
{
    DIR *d = opendir("/proc/self/task");
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* The thread count once it is `want` (a joined thread may be listed a moment longer), or
 * what it is after a second. */
static int settled_thread_count(int want)
{
    int n = thread_count();
    for (int k = 0; k < 1000 && n != want; k++) {
        usleep(1000);
        n = thread_count();
    }
    return n;
}

/* One cycle: load, pad, unload (at once, or after the workers' spin of 100 us). */
static void cycle(const char *path, int index)
{
    void *plugin = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (plugin == NULL) fail_msg("dlopen %s: %s", path, dlerror());
    int (*run)(void) = (int (*)(void))dlsym(plugin, "unload_plugin_run");
    assert_non_null(run);
    const int result = run();
    if (result != 0) fail_msg("cycle %d: the plugin's pad returned %d", index, result);
    if (index % 2 == 1) usleep(5000); /* the workers went to sleep */
    assert_int_equal(dlclose(plugin), 0);
}

/* A fork after the unloads: the child exits normally, the parent goes on. */
static void fork_survives(void)
{
    const pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) _exit(0);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the child of a fork after the unloads ended with status %#x", status);
}

/* The static library: every unload stops and joins the plugin's workers, so the count
 * returns to where it was before the first load (on OpenMP teams: where the first cycle
 * left it, the runtime's idle pool). */
static void static_plugin_cycles(void **state)
{
    (void)state;
    const char *fixed = getenv("NDPAD_THREADS_FIXED");
    const bool team = fixed != NULL && strcmp(fixed, "1") == 0;
    int before = thread_count();
    for (int i = 0; i < CYCLES; i++) {
        cycle(plugin_path[0], i);
        if (team && i == 0) before = settled_thread_count(-1);
        const int now = settled_thread_count(before);
        if (now != before)
            fail_msg("static plugin, cycle %d: %d threads after the unload, %d %s", i, now, before,
                     team ? "after the first" : "before the first load");
    }
    fork_survives();
}

/* The shared library stays loaded (-z nodelete): its workers start once and are reused. */
static void shared_plugin_cycles(void **state)
{
    (void)state;
    int first = -1;
    for (int i = 0; i < CYCLES; i++) {
        cycle(plugin_path[1], i);
        const int now = settled_thread_count(first);
        if (first < 0)
            first = now;
        else if (now != first)
            fail_msg("shared plugin, cycle %d: %d threads, %d after the first", i, now, first);
    }
    fork_survives();
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s <static plugin> <shared plugin>\n", argv[0]);
        return 2;
    }
    plugin_path[0] = argv[1], plugin_path[1] = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(static_plugin_cycles),
        cmocka_unit_test(shared_plugin_cycles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
