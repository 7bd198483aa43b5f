/*
 * ndpad-bench-sweep: how the cost of a pad grows as rows shrink, and the shape classes the
 * single-thread roofline work (issue 13) targets, each beside memcpy of its output bytes,
 * measured two ways in the same run:
 *
 *   back-to-back   blocks of BLOCK calls of the case, then BLOCK memcpy calls of the output's
 *                  byte count from a separate source into the same output, alternating; the
 *                  first call of each block is a warm-up. vs_memcpy_b2b = median case time /
 *                  median memcpy time (what a program calling ndpad in a loop sees);
 *   interleaved    after those, pairs of one memcpy into the output and one case call
 *                  (what ndpad-bench does), the first a warm-up; vs_memcpy_interleaved =
 *                  median of the per-pair ratios.
 *
 *   sweep/<mode>/row:<bytes>/threads:N   16 MiB of fp32 output in rows of <bytes> (16 B ..
 *                                        64 KiB), one pad element on each side of every row
 *                                        and one pad row above and below, constant / reflect
 *   class/<name>-<mode>/threads:N        the standard cases of bench/standard-cases.c (conv
 *                                        in every mode, image, nhwc, ov-small, feature,
 *                                        fmap-u8, fmap-fp16, channel, and issue 13's volume,
 *                                        long, crop-pad, u8, fp16, 5d),
 *                                        but the in-place and the large ones
 *   oneshot/<name>                       ndpad_pad() of small outputs (planning included)
 *                                        against plan-once ndpad_execute()
 *
 * Plans are made once with options.threads = N (1 and 2, or NDPAD_BENCH_THREADS): the
 * classes with the wisdom where there is one (the default tuning, as ndpad-bench's table),
 * the rest with the heuristic tile; memcpy splits the bytes over an OpenMP team of the
 * threads the plan runs on (N, or 1 for the outputs the planner keeps on the calling
 * thread). Counters: us (median case time per call, back-to-back), memcpy_us,
 * vs_memcpy_b2b, vs_memcpy_interleaved, row_bytes, out_MB, and for the classes
 * target_vs_memcpy (the standard case's target, which ci/bench-sweep.py checks both ways).
 * ci/bench-sweep.py draws sweep.png from --benchmark_format=json output. Exit status 1 when
 * a flag is unknown or an ndpad call failed (ctest's bench-sweep-smoke relies on it).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "gbench_shim.h"
#include "standard-cases.h"
#include "stopwatch.h"
#include "ndpad.h"

#define BLOCK           4
#define INTERLEAVED_MIN 10
#define MAX_SAMPLES     65536
#define SWEEP_BYTES     ((int64_t)16 << 20)

typedef struct bench_case {
    char name[96];
    int32_t rank, mode;
    size_t elem_size;
    int64_t shape[5], begin[5], end[5];
    int32_t threads;
    bool oneshot;
    int64_t row_bytes;
    double target; /* time / memcpy's the case should stay within (0: none) */
    bool tuned;    /* planned with the wisdom (the standard cases ndpad-tune tunes) */
} bench_case;

static int failures; /* runs with a failed ndpad call: the exit status */

/* memcpy of `bytes` over `threads` threads (one contiguous piece each). */
static void copy(char *dst, const char *src, size_t bytes, int threads)
{
#ifdef _OPENMP
    if (threads > 1) {
#pragma omp parallel num_threads(threads)
        {
            const int t = omp_get_thread_num(), n = omp_get_num_threads();
            const size_t lo = bytes * (size_t)t / (size_t)n,
                         hi = bytes * (size_t)(t + 1) / (size_t)n;
            memcpy(dst + lo, src + lo, hi - lo);
        }
        return;
    }
#endif
    (void)threads;
    memcpy(dst, src, bytes);
}

static void *touched(size_t bytes)
{
    char *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (p == NULL) {
        fprintf(stderr, "ndpad-bench-sweep: out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    for (size_t k = 0; k < bytes; k++) p[k] = (char)(k * 131 + 7);
    return p;
}

/* One call of the case: ndpad_pad() for the one-shot cases, else the plan made once. */
static inline bool pad_once(const bench_case *c, const ndpad_problem *p, const ndpad_plan *plan,
                            const char *in, char *out)
{
    return (c->oneshot ? ndpad_pad(p, in, out) : ndpad_execute(plan, in, out)) == NDPAD_OK;
}

static void run_case(gbench_state *state, void *arg)
{
    const bench_case *c = arg;
    const ndpad_problem p = {.rank = c->rank,
                             .mode = c->mode,
                             .elem_size = c->elem_size,
                             .shape = c->shape,
                             .pads_begin = c->begin,
                             .pads_end = c->end};
    int64_t out_shape[5], in_count = 1, out_count = 1;
    if (ndpad_output_shape(&p, out_shape) != NDPAD_OK) {
        gbench_skip_with_error(state, ndpad_last_error());
        return;
    }
    for (int32_t k = 0; k < c->rank; k++) in_count *= c->shape[k], out_count *= out_shape[k];
    const size_t in_bytes = (size_t)in_count * c->elem_size;
    const size_t out_bytes = (size_t)out_count * c->elem_size;
    char *in = touched(in_bytes), *out = touched(out_bytes), *source = touched(out_bytes);

    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = c->threads;
    /* the classes as users plan them (the wisdom, where ndpad-tune left one, as in
     * ndpad-bench's table); the sweep's rows with the planner's own tiles */
    options.tuning = c->tuned ? NDPAD_TUNING_CACHE : NDPAD_TUNING_HEURISTIC;
    ndpad_plan *plan = NULL;
    if (ndpad_plan_create(&p, &options, &plan) != NDPAD_OK) {
        failures++;
        gbench_skip_with_error(state, ndpad_last_error());
        free(in), free(out), free(source);
        return;
    }
    /* memcpy over the threads the plan runs on (one for an output the planner keeps on the
     * calling thread): split over two, half the output was last written by the other core,
     * and a one-thread call after it read 1.14-1.21x instead of 1.02x (fmap-u8, ov-small) */
    struct ndpad_plan_info info = {.size = sizeof(info)};
    const int copy_threads =
        ndpad_plan_info(plan, &info) == NDPAD_OK && info.threads >= 1 ? info.threads : c->threads;
    static double pad_b2b[MAX_SAMPLES], copy_b2b[MAX_SAMPLES], pair[MAX_SAMPLES];
    int n_pad = 0, n_copy = 0, n_pair = 0;
    bool failed = false;
    while (gbench_keep_running(state)) {
        /* back-to-back: a block of case calls, then a block of memcpy calls */
        double case_time = 0.0;
        for (int k = 0; k < BLOCK; k++) {
            const double t0 = ndpad_now();
            const bool ok = pad_once(c, &p, plan, in, out);
            const double t = ndpad_now() - t0;
            failed |= !ok;
            if (k == 0) continue; /* the block's warm-up */
            case_time += t;
            if (n_pad < MAX_SAMPLES) pad_b2b[n_pad++] = t;
        }
        for (int k = 0; k < BLOCK; k++) {
            const double t0 = ndpad_now();
            copy(out, source, out_bytes, copy_threads);
            const double t = ndpad_now() - t0;
            if (k > 0 && n_copy < MAX_SAMPLES) copy_b2b[n_copy++] = t;
        }
        gbench_set_iteration_time(state, case_time / (BLOCK - 1));
        gbench_clobber_memory();
    }
    /* Interleaved, after the timed loop: as many pairs of one memcpy into the output and one
     * case call as the loop had iterations (at least INTERLEAVED_MIN), the first a warm-up.
     * Pairs inside the loop changed the back-to-back times after them (conv constant, 1
     * thread: 670 -> 810 us, against 680 us for calls in a row with nothing between), and
     * one pair right after the block of memcpy calls found the case's input pushed out of
     * the cache by them (crop-pad, 2 threads: 1.63 against 1.11 alternating). */
    const int pairs = n_pad / (BLOCK - 1) > INTERLEAVED_MIN ? n_pad / (BLOCK - 1) : INTERLEAVED_MIN;
    for (int k = 0; k <= pairs; k++) {
        const double t0 = ndpad_now();
        copy(out, source, out_bytes, copy_threads);
        const double t1 = ndpad_now();
        failed |= !pad_once(c, &p, plan, in, out);
        const double t2 = ndpad_now();
        if (k > 0 && n_pair < MAX_SAMPLES) pair[n_pair++] = (t2 - t1) / (t1 - t0);
    }
    if (failed) {
        failures++;
        gbench_skip_with_error(state, "an ndpad call failed");
    }
    const double case_median = ndpad_median(pad_b2b, n_pad),
                 copy_median = ndpad_median(copy_b2b, n_copy);
    gbench_set_counter(state, "us", 1e6 * case_median, GBENCH_COUNTER_DEFAULT);
    gbench_set_counter(state, "memcpy_us", 1e6 * copy_median, GBENCH_COUNTER_DEFAULT);
    gbench_set_counter(state, "vs_memcpy_b2b", case_median / copy_median, GBENCH_COUNTER_DEFAULT);
    gbench_set_counter(state, "vs_memcpy_interleaved", ndpad_median(pair, n_pair),
                       GBENCH_COUNTER_DEFAULT);
    gbench_set_counter(state, "row_bytes", (double)c->row_bytes, GBENCH_COUNTER_DEFAULT);
    gbench_set_counter(state, "out_MB", (double)out_bytes / 1e6, GBENCH_COUNTER_DEFAULT);
    gbench_set_counter(state, "threads", c->threads, GBENCH_COUNTER_DEFAULT);
    if (c->target > 0)
        gbench_set_counter(state, "target_vs_memcpy", c->target, GBENCH_COUNTER_DEFAULT);
    char label[64];
    snprintf(label, sizeof(label), "isa=%d", (int)ndpad_plan_isa(plan));
    gbench_set_label(state, label);
    ndpad_plan_destroy(plan);
    free(in), free(out), free(source);
}

#define MAX_CASES 256
static bench_case cases[MAX_CASES];
static int case_count;

static bench_case *add(const char *name, int32_t threads, int32_t mode, size_t elem_size,
                       int32_t rank, const int64_t *shape, const int64_t *begin, const int64_t *end)
{
    bench_case *c = &cases[case_count++];
    memset(c, 0, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "%s/threads:%d", name, (int)threads);
    c->rank = rank, c->mode = mode, c->elem_size = elem_size, c->threads = threads;
    memcpy(c->shape, shape, sizeof(int64_t) * (size_t)rank);
    memcpy(c->begin, begin, sizeof(int64_t) * (size_t)rank);
    memcpy(c->end, end, sizeof(int64_t) * (size_t)rank);
    int64_t n = shape[rank - 1] + begin[rank - 1] + end[rank - 1];
    c->row_bytes = n * (int64_t)elem_size;
    gbench_use_manual_time(gbench_register(c->name, run_case, c));
    return c;
}

/* Thread counts from NDPAD_BENCH_THREADS ("1,2"), 1 and 2 by default. */
static int thread_counts(int32_t *counts, int max)
{
    const char *env = getenv("NDPAD_BENCH_THREADS");
    if (env == NULL || env[0] == '\0') env = "1,2";
    int n = 0;
    for (const char *s = env; *s != '\0' && n < max;) {
        char *next;
        const long v = strtol(s, &next, 10);
        if (next == s) break;
        if (v > 0) counts[n++] = (int32_t)v;
        s = *next == ',' ? next + 1 : next;
    }
    return n;
}

int main(int argc, char **argv)
{
    int32_t threads[8];
    const int thread_n = thread_counts(threads, 8);
    static const char *const modes[2] = {"constant", "reflect"};
    for (int m = 0; m < 2; m++) {
        for (int64_t row = 16; row <= 65536; row *= 2) {
            for (int t = 0; t < thread_n; t++) {
                /* rows of `row` bytes: row / 4 - 2 input elements and one pad on each side */
                const int64_t shape[2] = {SWEEP_BYTES / row - 2, row / 4 - 2};
                const int64_t one[2] = {1, 1};
                char name[64];
                snprintf(name, sizeof(name), "sweep/%s/row:%lld", modes[m], (long long)row);
                add(name, threads[t], m == 0 ? NDPAD_CONSTANT : NDPAD_REFLECT, 4, 2, shape, one,
                    one);
            }
        }
    }
    /* The shape classes: the standard cases of bench/standard-cases.c (the one table), all
     * but the in-place one and the large ones, measured here both ways against memcpy. */
    for (int t = 0; t < thread_n; t++) {
        for (size_t i = 0; i < standard_case_count; i++) {
            const standard_case *c = &standard_cases[i];
            if (c->inplace || c->large) continue;
            char name[64];
            snprintf(name, sizeof(name), "class/%s-%s", c->name, ndpad_mode_name(c->mode));
            bench_case *b = add(name, threads[t], c->mode, c->elem_size, c->rank, c->shape,
                                c->pads_begin, c->pads_end);
            b->target = c->target_vs_memcpy;
            b->tuned = c->tuned;
        }
    }
    /* Small outputs, one thread: planning on every call against a plan made once. */
    static const struct {
        const char *name;
        int64_t shape[4], begin[4], end[4];
    } small[] = {
        {"ov-small", {1, 3, 32, 40}, {0, 5, 2, 1}, {1, 0, 3, 7}},
        {"tiny-2d", {8, 8, 1, 1}, {1, 1, 0, 0}, {1, 1, 0, 0}},
    };
    for (size_t k = 0; k < sizeof(small) / sizeof(small[0]); k++) {
        for (int oneshot = 0; oneshot < 2; oneshot++) {
            char name[64];
            snprintf(name, sizeof(name), "%s/%s", oneshot ? "oneshot" : "planned", small[k].name);
            bench_case *c =
                add(name, 1, NDPAD_CONSTANT, 4, 4, small[k].shape, small[k].begin, small[k].end);
            c->oneshot = oneshot;
        }
    }
    static const char *const defaults[] = {"--benchmark_min_time=0.1", NULL};
    const int rc = gbench_run(argc, argv, defaults);
    return rc != 0 ? rc : failures != 0;
}
