/*
 * soak.c — the soak test driver (issue 12; run by ci/soak.sh): THREADS threads make a
 * random mix of plan/execute/destroy, one-shot pads, ONNX calls, wisdom export/import
 * through a temporary file and deliberate errors, for a fixed number of calls or for a
 * number of minutes. Every result is checked byte for byte against the naive reference
 * (tests/ref/). The process's RSS and open file descriptors are sampled after a warm-up
 * (the one-time allocations: topology, OpenMP pool, wisdom table) and at the end, and must
 * stay flat.
 *
 *   soak [--calls N] [--minutes M] [--threads T] [--seed S] [--rss-slack-kib K]
 *
 * Exit status 0 when every call gave the reference's bytes or the expected error and RSS
 * and descriptors stayed flat; 1 otherwise (the first difference is printed).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ndpad-ref.h"
#include "ndpad.h"
#include "test-util.h"

#define MAX_RANK 4

/* AddressSanitizer keeps freed memory in quarantine (256 MiB by default): RSS then grows
 * by design, so under it RSS is reported, not judged (its leak checker judges instead). */
#if defined(__SANITIZE_ADDRESS__)
#define RSS_JUDGED false
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RSS_JUDGED false
#endif
#endif
#ifndef RSS_JUDGED
#define RSS_JUDGED true
#endif

typedef struct settings {
    long calls; /* total over all threads; 0 = until `minutes` have passed */
    double minutes;
    int threads;
    uint64_t seed;
    long rss_slack_kib;
} settings;

static settings config = {.calls = 0,
                          .minutes = 0,
                          .threads = 8,
                          .seed = 1,
                          .rss_slack_kib = 16 * 1024};
static atomic_long calls_done, failures;
static atomic_long counts[5];
static atomic_long op_micros[5]; /* time spent per kind of call */
static char wisdom_dir[64];
static double deadline;

static const char *const op_names[5] = {"plan/execute", "one-shot pad", "onnx", "wisdom save/load",
                                        "deliberate error"};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f == NULL) return -1;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n - 1; /* the directory's own descriptor */
}

/* A thread that leaves through pthread_exit(), as libgomp's pool threads do when the
 * thread owning their team ends: glibc loads its unwinder (libgcc_s) on the first such
 * exit, and a pool thread doing so while open_fds() counted had /etc/ld.so.cache open (the
 * count read 7 -> 6 under ctest -j2). Run once before counting, so the load is done. */
static void *exit_through_pthread_exit(void *arg)
{
    pthread_exit(arg);
}

static void report_failure(const char *what, const ndpad_problem *p, const char *detail)
{
    if (atomic_fetch_add(&failures, 1) >= 5) return; /* the first few are enough */
    char line[1024] = "";
    if (p != NULL) ndpad_ref_format_problem(line, sizeof(line), p);
    fprintf(stderr, "soak: FAIL %s: %s\n  %s\n", what, detail, line);
}

/* A random valid problem (dense input, dense or strided output) and its buffers. */
typedef struct job {
    ndpad_problem p;
    int64_t shape[MAX_RANK], pb[MAX_RANK], pe[MAX_RANK], out_shape[MAX_RANK];
    size_t in_bytes, out_bytes;
    unsigned char *in, *out, *ref;
    unsigned char value[16];
} job;

static bool make_job(test_rng *r, job *j, bool big)
{
    static const size_t sizes[] = {1, 2, 4, 8, 3, 16};
    memset(j, 0, sizeof(*j));
    const int32_t rank = (int32_t)test_rng_range(r, 1, MAX_RANK);
    const int32_t mode = (int32_t)test_rng_range(r, NDPAD_CONSTANT, NDPAD_WRAP);
    const size_t es = sizes[test_rng_range(r, 0, 5)];
    for (int k = 0; k < rank; k++) {
        const int64_t hi = big && k == rank - 1 ? 300 : big && k == rank - 2 ? 200 : 9;
        j->shape[k] = test_rng_range(r, 1, hi);
        const int64_t d = j->shape[k];
        const int64_t lo_pad = mode == NDPAD_CONSTANT ? -d + 1 : 0;
        const int64_t max_pad = big                                                ? 8
                                : mode == NDPAD_REFLECT || mode == NDPAD_SYMMETRIC ? 3 * d
                                                                                   : 6;
        j->pb[k] = test_rng_range(r, lo_pad > -3 ? lo_pad : -3, max_pad);
        j->pe[k] = test_rng_range(r, lo_pad > -3 ? lo_pad : -3, max_pad);
        if (j->pb[k] + j->pe[k] + d < 1) j->pe[k] = 1 - d - j->pb[k];
    }
    test_rng_bytes(r, j->value, sizeof(j->value));
    j->p = (ndpad_problem){.rank = rank,
                           .mode = mode,
                           .elem_size = es,
                           .shape = j->shape,
                           .pads_begin = j->pb,
                           .pads_end = j->pe,
                           .pad_value = mode == NDPAD_CONSTANT ? j->value : NULL};
    if (ndpad_ref_output_shape(&j->p, j->out_shape) != NDPAD_OK) return false;
    j->in_bytes = (size_t)test_count(rank, j->shape) * es;
    j->out_bytes = (size_t)test_count(rank, j->out_shape) * es;
    j->in = test_xmalloc(j->in_bytes + 1);
    j->out = test_xmalloc(j->out_bytes + 1);
    j->ref = test_xmalloc(j->out_bytes + 1);
    test_rng_bytes(r, j->in, j->in_bytes);
    memset(j->out, 0x5A, j->out_bytes);
    if (ndpad_ref_pad(&j->p, j->in, j->ref) != NDPAD_OK) return false;
    return true;
}

static void free_job(job *j)
{
    free(j->in), free(j->out), free(j->ref);
}

static void check_output(const char *what, const job *j, ndpad_status st)
{
    if (st != NDPAD_OK) {
        char detail[700];
        snprintf(detail, sizeof(detail), "%s (%s)", ndpad_status_string(st), ndpad_last_error());
        report_failure(what, &j->p, detail);
    } else if (memcmp(j->out, j->ref, j->out_bytes) != 0) {
        report_failure(what, &j->p, "output differs from the reference");
    }
}

static void op_plan(test_rng *r)
{
    job j;
    if (!make_job(r, &j, test_rng_chance(r, 1, 8))) {
        free_job(&j);
        return;
    }
    ndpad_options o;
    ndpad_options_init(&o);
    o.threads = (int32_t)test_rng_range(r, 0, 3);
    o.tuning = test_rng_chance(r, 1, 2) ? NDPAD_TUNING_CACHE : NDPAD_TUNING_HEURISTIC;
    ndpad_plan *plan = NULL;
    ndpad_status st = ndpad_plan_create(&j.p, &o, &plan);
    for (int run = 0; st == NDPAD_OK && run < 2; run++) {
        memset(j.out, 0x5A, j.out_bytes);
        st = ndpad_execute(plan, j.in, j.out);
        check_output("plan/execute", &j, st);
    }
    if (plan == NULL) check_output("plan_create", &j, st);
    ndpad_plan_destroy(plan);
    free_job(&j);
}

static void op_pad(test_rng *r)
{
    job j;
    if (!make_job(r, &j, test_rng_chance(r, 1, 8))) {
        free_job(&j);
        return;
    }
    check_output("ndpad_pad", &j, ndpad_pad(&j.p, j.in, j.out));
    free_job(&j);
}

static void op_onnx(test_rng *r)
{
    static const char *const modes[] = {"constant", "edge", "reflect", "wrap"};
    const int32_t rank = (int32_t)test_rng_range(r, 1, 3);
    const size_t es = (size_t)1 << test_rng_range(r, 0, 3);
    int64_t shape[3], pads[6];
    for (int k = 0; k < rank; k++) shape[k] = test_rng_range(r, 2, 40);
    const char *mode = modes[test_rng_range(r, 0, 3)];
    for (int k = 0; k < 2 * rank; k++)
        pads[k] = test_rng_range(r, strcmp(mode, "constant") == 0 ? -1 : 0,
                                 strcmp(mode, "reflect") == 0 ? 1 : 5);
    size_t in_bytes = es, out_bytes = es;
    for (int k = 0; k < rank; k++) {
        in_bytes *= (size_t)shape[k];
        out_bytes *= (size_t)(shape[k] + pads[k] + pads[rank + k]);
    }
    unsigned char *in = test_xmalloc(in_bytes), *out = test_xmalloc(out_bytes + 1),
                  *ref = test_xmalloc(out_bytes + 1), value[8];
    test_rng_bytes(r, in, in_bytes);
    test_rng_bytes(r, value, sizeof(value));
    const ndpad_status want =
        ndpad_ref_onnx_pad(rank, shape, es, pads, 2 * rank, NULL, 0, mode, value, in, ref);
    const ndpad_status got =
        ndpad_onnx_pad(rank, shape, es, pads, 2 * rank, NULL, 0, mode, value, in, out);
    if (got != want || (got == NDPAD_OK && memcmp(out, ref, out_bytes) != 0)) {
        char line[1024];
        ndpad_ref_format_onnx(line, sizeof(line), rank, shape, es, pads, 2 * rank, NULL, 0, mode);
        report_failure("onnx", NULL, line);
    }
    free(in), free(out), free(ref);
}

static void op_wisdom(test_rng *r, int thread)
{
    char file[128];
    /* A file per thread, and one all threads share (saves merge under the lock). */
    if (test_rng_chance(r, 1, 2))
        snprintf(file, sizeof(file), "%s/shared", wisdom_dir);
    else
        snprintf(file, sizeof(file), "%s/thread-%d", wisdom_dir, thread);
    const ndpad_status saved = ndpad_wisdom_save_file(file);
    if (saved != NDPAD_OK) report_failure("wisdom save", NULL, ndpad_last_error());
    const ndpad_status loaded = ndpad_wisdom_load_file(file);
    if (loaded != NDPAD_OK) report_failure("wisdom load", NULL, ndpad_last_error());
    const size_t n = ndpad_wisdom_export_string(NULL, 0);
    char *text = malloc(n + 1);
    if (text != NULL) {
        ndpad_wisdom_export_string(text, n + 1);
        if (ndpad_wisdom_load_string(text) != NDPAD_OK)
            report_failure("wisdom string round trip", NULL, ndpad_last_error());
        free(text);
    }
}

static void op_error(test_rng *r)
{
    const int64_t shape[2] = {3, 4}, neg[2] = {3, -4}, pb[2] = {1, 1}, pe[2] = {1, 1};
    ndpad_problem p = {.rank = 2,
                       .mode = NDPAD_EDGE,
                       .elem_size = 4,
                       .shape = shape,
                       .pads_begin = pb,
                       .pads_end = pe};
    float in[12] = {0}, out[30];
    ndpad_status want = NDPAD_OK, got = NDPAD_OK;
    switch (test_rng_range(r, 0, 5)) {
    case 0:
        p.rank = NDPAD_MAX_RANK + 1 + (int32_t)test_rng_range(r, 0, 5);
        want = NDPAD_ERR_RANK;
        break;
    case 1:
        p.shape = neg;
        want = NDPAD_ERR_SHAPE;
        break;
    case 2:
        p.mode = 77;
        want = NDPAD_ERR_MODE;
        break;
    case 3:
        p.elem_size = 0;
        want = NDPAD_ERR_ELEM_SIZE;
        break;
    case 4: {
        got = ndpad_wisdom_load_file("");
        if (got != NDPAD_ERR_IO)
            report_failure("error: empty wisdom path", NULL, ndpad_last_error());
        return;
    }
    default:
        got = ndpad_pad(&p, NULL, out);
        if (got != NDPAD_ERR_NULL_BUFFER) report_failure("error: NULL in", &p, ndpad_last_error());
        return;
    }
    got = ndpad_pad(&p, in, out);
    if (got != want || ndpad_last_error()[0] == '\0') {
        char detail[700];
        snprintf(detail, sizeof(detail), "got %s, want %s (%s)", ndpad_status_string(got),
                 ndpad_status_string(want), ndpad_last_error());
        report_failure("deliberate error", NULL, detail);
    }
}

static bool more(long done)
{
    if (config.calls > 0) return done < config.calls;
    return now() < deadline;
}

typedef struct worker {
    int index;
    long calls;
} worker;

static void *run_worker(void *arg)
{
    worker *w = (worker *)arg;
    test_rng r = test_rng_make(config.seed, (uint64_t)w->index + 1);
    for (;;) {
        const long done = atomic_fetch_add(&calls_done, 1);
        if (!more(done)) break;
        const int64_t pick = test_rng_range(&r, 0, 99);
        const int op = pick < 35 ? 0 : pick < 60 ? 1 : pick < 80 ? 2 : pick < 88 ? 3 : 4;
        const double t0 = now();
        switch (op) {
        case 0: op_plan(&r); break;
        case 1: op_pad(&r); break;
        case 2: op_onnx(&r); break;
        case 3: op_wisdom(&r, w->index); break;
        default: op_error(&r); break;
        }
        atomic_fetch_add(&counts[op], 1);
        atomic_fetch_add(&op_micros[op], (long)((now() - t0) * 1e6));
        w->calls++;
    }
    return NULL;
}

static void run_phase(void)
{
    pthread_t threads[64];
    worker workers[64];
    for (int t = 0; t < config.threads; t++) {
        workers[t] = (worker){.index = t};
        if (pthread_create(&threads[t], NULL, run_worker, &workers[t]) != 0) {
            fprintf(stderr, "soak: cannot start thread %d\n", t);
            exit(1);
        }
    }
    for (int t = 0; t < config.threads; t++) pthread_join(threads[t], NULL);
}

int main(int argc, char **argv)
{
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (v != NULL && strcmp(a, "--calls") == 0)
            config.calls = atol(v), k++;
        else if (v != NULL && strcmp(a, "--minutes") == 0)
            config.minutes = atof(v), k++;
        else if (v != NULL && strcmp(a, "--threads") == 0)
            config.threads = atoi(v), k++;
        else if (v != NULL && strcmp(a, "--seed") == 0)
            config.seed = strtoull(v, NULL, 10), k++;
        else if (v != NULL && strcmp(a, "--rss-slack-kib") == 0)
            config.rss_slack_kib = atol(v), k++;
        else {
            fprintf(stderr, "usage: soak [--calls N | --minutes M] [--threads T] [--seed S] "
                            "[--rss-slack-kib K]\n");
            return 2;
        }
    }
    if (config.threads < 1 || config.threads > 64 || (config.calls <= 0 && config.minutes <= 0)) {
        fprintf(stderr, "soak: need --calls N > 0 or --minutes M > 0, and 1..64 threads\n");
        return 2;
    }
    /* Fixed malloc thresholds: glibc's dynamic mmap threshold would keep the large test
     * buffers in the heap after the first is freed, and RSS would measure glibc, not ndpad. */
    mallopt(M_MMAP_THRESHOLD, 64 * 1024);
    mallopt(M_TRIM_THRESHOLD, 256 * 1024);
    snprintf(wisdom_dir, sizeof(wisdom_dir), "/tmp/ndpad-soak-XXXXXX");
    if (mkdtemp(wisdom_dir) == NULL) return 1;
    pthread_t early;
    if (pthread_create(&early, NULL, exit_through_pthread_exit, NULL) == 0)
        pthread_join(early, NULL);
    char wisdom_path[128];
    snprintf(wisdom_path, sizeof(wisdom_path), "%s/default", wisdom_dir);
    setenv("NDPAD_WISDOM", wisdom_path, 1); /* never the user's own wisdom */

    /* Warm-up: a tenth of the calls (or 20 s), then the baseline. */
    const double start = now();
    const long total = config.calls;
    deadline = start + (config.minutes > 0 ? (config.minutes * 60) / 10 : 0);
    if (total > 0) config.calls = total / 10 > 0 ? total / 10 : 1;
    run_phase();
    const long rss_start = rss_kib();
    const int fds_start = open_fds();
    atomic_store(&calls_done, 0);
    config.calls = total > 0 ? total - total / 10 : 0;
    deadline = start + config.minutes * 60;
    run_phase();
    const long rss_end = rss_kib();
    const int fds_end = open_fds();
    const double seconds = now() - start;

    const long all = total > 0 ? total
                               : (long)atomic_load(&counts[0]) + atomic_load(&counts[1]) +
                                     atomic_load(&counts[2]) + atomic_load(&counts[3]) +
                                     atomic_load(&counts[4]);
    printf("soak: %ld calls on %d threads in %.1f s (%.2f min), seed %llu\n", all, config.threads,
           seconds, seconds / 60, (unsigned long long)config.seed);
    for (int op = 0; op < 5; op++)
        printf("soak:   %-22s %8ld calls, %10.1f ms in all\n", op_names[op],
               (long)atomic_load(&counts[op]), atomic_load(&op_micros[op]) / 1e3);
    printf("soak: RSS start %ld KiB, end %ld KiB (%+ld KiB; slack %ld KiB)\n", rss_start, rss_end,
           rss_end - rss_start, config.rss_slack_kib);
    printf("soak: open fds start %d, end %d\n", fds_start, fds_end);
    char command[128];
    snprintf(command, sizeof(command), "rm -rf '%s'", wisdom_dir);
    if (system(command) != 0) fprintf(stderr, "soak: could not remove %s\n", wisdom_dir);

    int bad = 0;
    if (atomic_load(&failures) > 0) {
        fprintf(stderr,
                "soak: FAIL: %ld call(s) differed from the reference or the expected "
                "error\n",
                (long)atomic_load(&failures));
        bad = 1;
    }
    if (!RSS_JUDGED)
        printf("soak: RSS not judged under AddressSanitizer (quarantine)\n");
    else if (rss_start < 0 || rss_end - rss_start > config.rss_slack_kib) {
        fprintf(stderr, "soak: FAIL: RSS grew by %ld KiB\n", rss_end - rss_start);
        bad = 1;
    }
    if (fds_start < 0 || fds_end != fds_start) {
        fprintf(stderr, "soak: FAIL: open descriptors %d -> %d\n", fds_start, fds_end);
        bad = 1;
    }
    if (!bad) printf("soak: ok\n");
    return bad;
}
