/*
 * test-cpu-quota.c: the default thread count respects the container's CPU quota (cgroup v2
 * cpu.max, v1 cfs quota and period) along the cgroup and its ancestors, and the affinity
 * mask. A fake cgroup tree under a temporary directory stands in for /sys/fs/cgroup
 * (NDPAD_CGROUP_ROOT); each case runs in a child process, since the topology is read once
 * per process.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu-quota.h"
#include "plan.h" /* ndpad_default_threads */
#include "topology.h"
#include "ndpad.h"

static void parses_quota_lines(void **state)
{
    (void)state;
    assert_int_equal(ndpad_cpu_quota_parse("max 100000"), 0);
    assert_int_equal(ndpad_cpu_quota_parse("150000 100000"), 2);
    assert_int_equal(ndpad_cpu_quota_parse("100000 100000\n"), 1);
    assert_int_equal(ndpad_cpu_quota_parse("50000 100000"), 1);
    assert_int_equal(ndpad_cpu_quota_parse("400000 100000"), 4);
    assert_int_equal(ndpad_cpu_quota_parse("-1 100000"), 0); /* v1: no quota */
    assert_int_equal(ndpad_cpu_quota_parse("1000 0"), 0);
    assert_int_equal(ndpad_cpu_quota_parse(""), 0);
    assert_int_equal(ndpad_cpu_quota_parse("garbage"), 0);
    assert_int_equal(ndpad_cpu_quota_parse(NULL), 0);
}

/* mkdir -p */
static void make_dirs(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *p = buf + 1; *p != '\0'; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0700);
            *p = '/';
        }
    mkdir(buf, 0700);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[8192];
    assert_true(snprintf(path, sizeof(path), "%s/%s", dir, name) < (int)sizeof(path));
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* This process's cgroup path for `controllers` ("" for v2's "0::" line; "" for "/"); false
 * when /proc/self/cgroup has no such line. */
static bool own_cgroup(const char *controllers, char *out, size_t size)
{
    out[0] = '\0';
    bool found = false;
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (f == NULL) return false;
    char line[4096];
    while (fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        char *a = strchr(line, ':'), *b = a != NULL ? strchr(a + 1, ':') : NULL;
        if (b == NULL) continue;
        *b = '\0';
        if (strcmp(a + 1, controllers) == 0 &&
            (controllers[0] != '\0' || strncmp(line, "0", 2) == 0)) {
            snprintf(out, size, "%s", strcmp(b + 1, "/") == 0 ? "" : b + 1);
            found = true;
            break;
        }
    }
    fclose(f);
    return found;
}

/* The cores ndpad may use, read in each child: this process never reads its topology, which
 * its children would inherit (it is read once per process). */
static int child_cores;

/* rm -rf of a fake tree under /tmp. */
static void remove_tree(const char *root)
{
    char command[4200];
    snprintf(command, sizeof(command), "rm -rf '%s'", root);
    assert_int_equal(system(command), 0);
}

/* In a child with NDPAD_CGROUP_ROOT = root: ndpad's quota and default thread count (and its
 * cores, into child_cores). */
static void child_reads(const char *root, int *quota, int *threads)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv("NDPAD_CGROUP_ROOT", root, 1);
        int out[3] = {ndpad_topology_get()->cpu_quota, (int)ndpad_default_threads(),
                      ndpad_topology_get()->cores};
        _exit(write(fds[1], out, sizeof(out)) == (ssize_t)sizeof(out) ? 0 : 1);
    }
    close(fds[1]);
    int in[3] = {-1, -1, -1};
    assert_int_equal(read(fds[0], in, sizeof(in)), (ssize_t)sizeof(in));
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    *quota = in[0], *threads = in[1], child_cores = in[2];
}

static int cores(void)
{
    return child_cores;
}

static void v2_quota_caps_the_default_threads(void **state)
{
    (void)state;
    char root[] = "/tmp/ndpad-cgroup.XXXXXX";
    assert_non_null(mkdtemp(root));
    char cgroup[2048], leaf[4096], parent[4096];
    own_cgroup("", cgroup, sizeof(cgroup));
    snprintf(leaf, sizeof(leaf), "%s%s", root, cgroup);
    make_dirs(leaf);
    int quota, threads;

    /* No cpu.max anywhere: no quota; the cores (within the affinity mask). */
    child_reads(root, &quota, &threads);
    assert_int_equal(quota, 0);
    assert_int_equal(threads, cores());

    /* "max": no quota. */
    write_file(leaf, "cpu.max", "max 100000\n");
    child_reads(root, &quota, &threads);
    assert_int_equal(quota, 0);

    /* Half a CPU: one thread. */
    write_file(leaf, "cpu.max", "50000 100000\n");
    child_reads(root, &quota, &threads);
    assert_int_equal(quota, 1);
    assert_int_equal(threads, 1);

    /* 1.5 CPUs: two, or the cores when fewer. */
    write_file(leaf, "cpu.max", "150000 100000\n");
    child_reads(root, &quota, &threads);
    assert_int_equal(quota, 2);
    assert_int_equal(threads, cores() < 2 ? cores() : 2);

    /* An ancestor's smaller quota wins over the leaf's (the root of the tree counts too). */
    write_file(leaf, "cpu.max", "max 100000\n");
    snprintf(parent, sizeof(parent), "%s", root);
    write_file(parent, "cpu.max", "100000 100000\n");
    child_reads(root, &quota, &threads);
    assert_int_equal(quota, 1);
    assert_int_equal(threads, 1);

    remove_tree(root);
}

static void v1_quota_caps_the_default_threads(void **state)
{
    (void)state;
    /* Only where /proc/self/cgroup lists a v1 cpu controller (hybrid or v1 machines). */
    char cgroup[2048];
    const char *controllers = "cpu";
    if (!own_cgroup(controllers, cgroup, sizeof(cgroup))) {
        controllers = "cpu,cpuacct";
        if (!own_cgroup(controllers, cgroup, sizeof(cgroup))) skip();
    }
    char root[] = "/tmp/ndpad-cgroup.XXXXXX";
    assert_non_null(mkdtemp(root));
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/%s%s", root, controllers, cgroup);
    make_dirs(dir);
    write_file(dir, "cpu.cfs_quota_us", "100000\n");
    write_file(dir, "cpu.cfs_period_us", "100000\n");
    int quota, threads;
    child_reads(root, &quota, &threads);
    assert_int_equal(quota, 1);
    assert_int_equal(threads, 1);
    write_file(dir, "cpu.cfs_quota_us", "-1\n");
    child_reads(root, &quota, &threads);
    assert_int_equal(quota, 0);
    remove_tree(root);
}

/* The affinity mask narrows the default too (taskset 1 CPU: one thread). */
static void affinity_caps_the_default_threads(void **state)
{
    (void)state;
    cpu_set_t one;
    CPU_ZERO(&one);
    cpu_set_t now;
    assert_int_equal(sched_getaffinity(0, sizeof(now), &now), 0);
    int first = -1;
    for (int k = 0; k < CPU_SETSIZE && first < 0; k++)
        if (CPU_ISSET(k, &now)) first = k;
    CPU_SET(first, &one);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    const pid_t pid = fork();
    if (pid == 0) {
        unsetenv("OMP_PLACES"), unsetenv("OMP_PROC_BIND");
        /* every thread of the process (under qemu-user the emulator has threads of its own,
         * which hwloc's process binding counts too) */
        DIR *tasks = opendir("/proc/self/task");
        if (tasks == NULL) _exit(2);
        for (struct dirent *t; (t = readdir(tasks)) != NULL;) {
            if (t->d_name[0] == '.') continue;
            if (sched_setaffinity((pid_t)atoi(t->d_name), sizeof(one), &one) != 0) _exit(2);
        }
        closedir(tasks);
        const int threads = (int)ndpad_default_threads();
        _exit(write(fds[1], &threads, sizeof(threads)) == (ssize_t)sizeof(threads) ? 0 : 1);
    }
    close(fds[1]);
    int threads = -1;
    assert_int_equal(read(fds[0], &threads, sizeof(threads)), (ssize_t)sizeof(threads));
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(threads, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_quota_lines),
        cmocka_unit_test(v2_quota_caps_the_default_threads),
        cmocka_unit_test(v1_quota_caps_the_default_threads),
        cmocka_unit_test(affinity_caps_the_default_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
