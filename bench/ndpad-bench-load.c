/* ndpad-bench-load: 1-thread and 2-thread plans of the same problem alternated in one
 * process, under load the benchmark makes itself:
 *   idle    nothing of ours (the machine may still be shared: say so when it is)
 *   pinned  one CPU-bound process pinned to the last core (where ndpad's first worker goes)
 *   two     two CPU-bound processes, one per core (the first two cores)
 *   ndpad   a second process of ours running 2-thread pads (volume-reflect) in a loop
 * Variants: `fixed` (the OpenMP team joined at its barrier: ndpad's default before issue 31,
 * NDPAD_SCHEDULE_FIXED_TEAM), `default` (the caller-driven scheduler), `pool` (ndpad on a
 * small pthreads pool handed over through options.thread_pool), `loop` (a host that runs the
 * tasks in a plain loop on the caller: its 2T must match 1T), `memcpy` (a memcpy of the
 * output bytes, on one thread and on an OpenMP team of two: the naive limit), and two ways
 * to keep OpenMP that issue 31 proposed, measured against the default: `omp-claims` (an OpenMP
 * team as the host pool, tasks claimed one at a time: a late thread finds nothing left, but
 * the region's join still waits for it) and `omp-dynamic` (the fixed team under libgomp's
 * dynamic mode, omp_set_dynamic(1): the team shrinks by the load average).
 * Per cell: median, mean and p90 of the calls of each plan, and the 2T/1T mean ratio (the
 * issue-31 target: at most 1.2 under pinned, two and ndpad). Not a timed test: it prints. */
#define _GNU_SOURCE
#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ndpad.h>

#include "standard-cases.h"

/* ---- the README's pthreads pool, compiled as it is (examples/host-pool.c, whose main() is
 * renamed away): the benchmark measures the pool users copy ------------------------------ */
#define main host_pool_example_main
#include "../examples/host-pool.c"
#undef main

static pool the_pool;

/* ---- OpenMP as the host pool: an OpenMP team that claims ndpad's tasks dynamically ------ */
/* What issue 31 proposed first: tiles claimed one at a time, so a late thread finds nothing
 * left. The region still ends in OpenMP's join barrier, which waits for that thread. */
static void omp_claims_parallel_for(void *pool_context, ndpad_task_fn task, void *task_context,
                                    size_t n)
{
    (void)pool_context;
#pragma omp parallel for schedule(dynamic, 1) num_threads(2)
    for (size_t i = 0; i < n; i++) task(task_context, i);
}

/* ---- cases and variants ---------------------------------------------------------------- */
static const struct {
    const char *label, *name;
    int32_t mode;
} cases[] = {
    {"feature-constant", "feature", NDPAD_CONSTANT},
    {"conv-constant", "conv", NDPAD_CONSTANT},
    {"conv-reflect", "conv", NDPAD_REFLECT},
    {"volume-reflect", "volume", NDPAD_REFLECT},
    {"long-wrap", "long", NDPAD_WRAP},
};
enum { CASES = sizeof(cases) / sizeof(cases[0]) };

enum variant { FIXED, DEFAULT, POOL, LOOP, MEMCPY, OMP_CLAIMS, OMP_DYNAMIC, VARIANTS };
static const char *const variant_names[VARIANTS] = {"fixed",  "default",    "pool",       "loop",
                                                    "memcpy", "omp-claims", "omp-dynamic"};

/* The sequential host: a plain loop on the caller, announcing 2 threads (it must be as fast
 * as a plan of one thread). */
static void loop_parallel_for(void *pool_context, ndpad_task_fn task, void *task_context, size_t n)
{
    (void)pool_context;
    for (size_t i = 0; i < n; i++) task(task_context, i);
}
static int variant_named(const char *name)
{
    for (int k = 0; k < VARIANTS; k++)
        if (strcmp(name, variant_names[k]) == 0) return k;
    return -1;
}

static const char *const load_names[] = {"idle", "pinned", "two", "ndpad"};
enum { LOADS = 4 };

static const standard_case *find_case(const char *name, int32_t mode)
{
    for (size_t k = 0; k < standard_case_count; k++)
        if (strcmp(standard_cases[k].name, name) == 0 && standard_cases[k].mode == mode &&
            !standard_cases[k].inplace)
            return &standard_cases[k];
    return NULL;
}

static ndpad_problem problem_of(const standard_case *c)
{
    return (ndpad_problem){.rank = c->rank,
                           .mode = c->mode,
                           .elem_size = c->elem_size,
                           .shape = c->shape,
                           .pads_begin = c->pads_begin,
                           .pads_end = c->pads_end,
                           .pad_value = c->pad_value};
}

static size_t elements(const int64_t *shape, int rank)
{
    size_t n = 1;
    for (int k = 0; k < rank; k++) n *= (size_t)shape[k];
    return n;
}

static ndpad_plan *make_plan(const ndpad_problem *p, enum variant v, int threads)
{
    static const ndpad_thread_pool host = {parallel_for, &the_pool, 2};
    static const ndpad_thread_pool loop = {loop_parallel_for, NULL, 2};
    static const ndpad_thread_pool omp_claims = {omp_claims_parallel_for, NULL, 2};
    ndpad_options o;
    ndpad_options_init(&o);
    o.threads = threads;
    if (v == FIXED || v == OMP_DYNAMIC) o.schedule = NDPAD_SCHEDULE_FIXED_TEAM;
    if (v == OMP_CLAIMS) o.thread_pool = &omp_claims;
    if (v == POOL) o.thread_pool = &host;
    if (v == LOOP) o.thread_pool = &loop;
    ndpad_plan *plan = NULL;
    if (ndpad_plan_create(p, &o, &plan) != NDPAD_OK) {
        fprintf(stderr, "ndpad-bench-load: %s\n", ndpad_last_error());
        exit(1);
    }
    return plan;
}

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static __attribute__((noinline)) void memcpy_team(char *dst, const char *src, size_t bytes,
                                                  int threads)
{
    if (threads == 1) {
        memcpy(dst, src, bytes);
        return;
    }
#pragma omp parallel num_threads(threads)
    {
        const int t = omp_get_thread_num(), n = omp_get_num_threads();
        const size_t lo = bytes / (size_t)n * (size_t)t;
        const size_t hi = t == n - 1 ? bytes : bytes / (size_t)n * (size_t)(t + 1);
        memcpy(dst + lo, src + lo, hi - lo);
    }
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct stats {
    double median, mean, p90;
    int stalls; /* calls over 4 x the median and 0.5 ms more: a time slice lost */
} stats;

static stats stats_of(double *v, int n)
{
    stats s = {0, 0, 0, 0};
    for (int i = 0; i < n; i++) s.mean += v[i];
    s.mean /= n;
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    s.p90 = v[(int)(0.9 * (n - 1) + 0.5)];
    for (int i = 0; i < n; i++) s.stalls += v[i] > 4 * s.median && v[i] > s.median + 500;
    return s;
}

/* ---- load processes -------------------------------------------------------------------- */
static pid_t spawn_spinner(int cpu)
{
    const pid_t pid = fork();
    if (pid != 0) return pid;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof(set), &set);
    volatile uint64_t x = 0;
    for (;;) x++;
}

static pid_t spawn_ndpad_loop(enum variant v)
{
    const pid_t pid = fork();
    if (pid != 0) return pid;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    char arg[32];
    snprintf(arg, sizeof arg, "--loop=%s", variant_names[v == MEMCPY || v == LOOP ? DEFAULT : v]);
    execl("/proc/self/exe", "ndpad-bench-load", arg, (char *)NULL);
    _exit(127);
}

static void stop(pid_t *pids, int n)
{
    for (int k = 0; k < n; k++)
        if (pids[k] > 0) kill(pids[k], SIGKILL);
    for (int k = 0; k < n; k++)
        if (pids[k] > 0) waitpid(pids[k], NULL, 0);
}

/* The (d) load: 2-thread volume-reflect pads in a loop until killed. */
static int loop_main(const char *variant)
{
    enum variant v = DEFAULT;
    for (int k = 0; k < VARIANTS; k++)
        if (strcmp(variant, variant_names[k]) == 0) v = (enum variant)k;
    if (v == POOL && pool_start(&the_pool, 1) != 0) return 1;
    omp_set_dynamic(v == OMP_DYNAMIC);
    const standard_case *c = find_case("volume", NDPAD_REFLECT);
    const ndpad_problem p = problem_of(c);
    int64_t out_shape[STANDARD_MAX_RANK];
    ndpad_output_shape(&p, out_shape);
    char *in = calloc(elements(c->shape, c->rank), c->elem_size);
    char *out = calloc(elements(out_shape, c->rank), c->elem_size);
    ndpad_plan *plan = make_plan(&p, v, 2);
    while (ndpad_execute(plan, in, out) == NDPAD_OK) continue; /* until killed */
    return 1;
}

int main(int argc, char **argv)
{
    int calls = 401;
    const char *loads = "idle,pinned,two,ndpad";
    const char *variants = "fixed,default,pool,loop,memcpy,omp-claims,omp-dynamic";
    const char *filter = NULL;
    int versus = -1; /* --versus=V: the first column is V's 2-thread plan, not a 1-thread one */
    for (int k = 1; k < argc; k++) {
        if (strncmp(argv[k], "--loop=", 7) == 0) return loop_main(argv[k] + 7);
        if (strncmp(argv[k], "--calls=", 8) == 0)
            calls = atoi(argv[k] + 8);
        else if (strncmp(argv[k], "--loads=", 8) == 0)
            loads = argv[k] + 8;
        else if (strncmp(argv[k], "--variants=", 11) == 0)
            variants = argv[k] + 11;
        else if (strncmp(argv[k], "--cases=", 8) == 0)
            filter = argv[k] + 8;
        else if (strncmp(argv[k], "--versus=", 9) == 0 &&
                 (versus = variant_named(argv[k] + 9)) >= 0 && versus != MEMCPY)
            continue;
        else {
            fprintf(stderr, "usage: ndpad-bench-load [--calls=N] [--loads=idle,pinned,two,ndpad] "
                            "[--variants=fixed,default,pool,loop,memcpy,omp-claims,omp-dynamic] "
                            "[--cases=SUBSTRING] [--versus=VARIANT]\n"
                            "--versus=V: 2-thread plans of V against 2-thread plans of each "
                            "variant, alternated (V's in the 1T columns)\n");
            return 2;
        }
    }
    if (calls < 2) calls = 2;
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (pool_start(&the_pool, 1) != 0) return 1;
    printf("# ndpad-bench-load: %d alternated calls per plan, times in us; %ld CPUs\n", calls,
           cpus);
    if (versus >= 0)
        printf("# --versus=%s: the 1T columns are %s's 2-thread plan; 2T/1T compares two "
               "2-thread plans\n",
               variant_names[versus], variant_names[versus]);
    else
        printf("# 2T/1T = 2-thread mean / 1-thread mean (issue 31's target: <= 1.2 under "
               "load)\n");
    printf("# stl: stalls, calls over 4 x the plan's median and 0.5 ms more (a lost time "
           "slice); med: 2T/1T medians\n");
    printf("%-7s %-17s %-11s %3s | %9s %9s %9s %4s | %9s %9s %9s %4s | %6s %6s\n", "load", "case",
           "variant", "2T", "1T med", "1T mean", "1T p90", "stl", "2T med", "2T mean", "2T p90",
           "stl", "2T/1T", "med");
    double *t1 = malloc(sizeof(double) * (size_t)calls);
    double *t2 = malloc(sizeof(double) * (size_t)calls);
    int failures = 0;
    for (int l = 0; l < LOADS; l++) {
        if (strstr(loads, load_names[l]) == NULL) continue;
        for (int v = 0; v < VARIANTS; v++) {
            if (strstr(variants, variant_names[v]) == NULL) continue;
            if (versus >= 0 && (v == versus || v == MEMCPY)) continue;
            /* the variants of the two columns; omp-dynamic's is set before each of its calls */
            const enum variant column[2] = {versus >= 0 ? (enum variant)versus : (enum variant)v,
                                            (enum variant)v};
            pid_t pids[2] = {0, 0};
            if (l == 1) pids[0] = spawn_spinner((int)cpus - 1);
            if (l == 2) pids[0] = spawn_spinner(0), pids[1] = spawn_spinner(cpus > 1 ? 1 : 0);
            if (l == 3) pids[0] = spawn_ndpad_loop((enum variant)v);
            if (l != 0) usleep(20000); /* let them start */
            for (int c = 0; c < CASES; c++) {
                if (filter != NULL && strstr(cases[c].label, filter) == NULL) continue;
                const standard_case *sc = find_case(cases[c].name, cases[c].mode);
                if (sc == NULL) continue;
                const ndpad_problem p = problem_of(sc);
                int64_t out_shape[STANDARD_MAX_RANK];
                ndpad_output_shape(&p, out_shape);
                const size_t out_bytes = elements(out_shape, sc->rank) * sc->elem_size;
                char *in = malloc(elements(sc->shape, sc->rank) * sc->elem_size);
                char *out = malloc(out_bytes), *src = malloc(out_bytes);
                memset(in, 1, elements(sc->shape, sc->rank) * sc->elem_size);
                memset(src, 2, out_bytes);
                ndpad_plan *plans[2] = {NULL, NULL};
                int team = 2;
                if (v != MEMCPY) {
                    plans[0] = make_plan(&p, column[0], versus >= 0 ? 2 : 1);
                    plans[1] = make_plan(&p, column[1], 2);
                    struct ndpad_plan_info info = {.size = sizeof(info)};
                    ndpad_plan_info(plans[1], &info);
                    team = info.threads;
                }
                for (int i = -10; i < calls; i++) { /* 10 warm-up pairs */
                    for (int half = 0; half < 2; half++) {
                        const int which = (i + half) % 2 == 0 ? 0 : 1; /* alternate the order */
                        omp_set_dynamic(column[which] == OMP_DYNAMIC);
                        const double start = now_us();
                        if (v == MEMCPY)
                            memcpy_team(out, src, out_bytes, which + 1);
                        else
                            failures += ndpad_execute(plans[which], in, out) != NDPAD_OK;
                        const double took = now_us() - start;
                        if (i >= 0) (which == 0 ? t1 : t2)[i] = took;
                    }
                }
                const stats s1 = stats_of(t1, calls), s2 = stats_of(t2, calls);
                printf("%-7s %-17s %-11s %3d | %9.1f %9.1f %9.1f %4d | %9.1f %9.1f %9.1f %4d | "
                       "%6.2f %6.2f\n",
                       load_names[l], cases[c].label, variant_names[v], team, s1.median, s1.mean,
                       s1.p90, s1.stalls, s2.median, s2.mean, s2.p90, s2.stalls, s2.mean / s1.mean,
                       s2.median / s1.median);
                fflush(stdout);
                ndpad_plan_destroy(plans[0]);
                ndpad_plan_destroy(plans[1]);
                free(in), free(out), free(src);
            }
            stop(pids, 2);
        }
    }
    free(t1), free(t2);
    return failures != 0;
}
