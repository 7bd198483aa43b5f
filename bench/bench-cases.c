/*
 * ndpad-bench: the standard cases, planned once and executed in the timed loop, each beside
 * memcpy of its output bytes measured in the same run.
 *
 *   ndpad/<case>-<mode>/threads:N    ndpad_execute() of a plan made with options.threads = N
 *   memcpy/<case>/threads:N          memcpy of the case's output bytes (dst = its output)
 *   xnnpack/<case>-constant/threads:N  XNNPACK's constant pad operator (when built with it)
 *   plan/conv                        ndpad_plan_create() + ndpad_plan_destroy() of conv
 *
 * Cases (fp32): conv 1x64x256x256 pad 1 on H and W in all five modes; image 1x3x1080x1920
 * pad 8 on H and W, reflect; nhwc 1x224x224x3 pad 3 on H and W, constant; ov-small 1x3x32x40
 * pads_begin [0,5,2,1] pads_end [1,0,3,7], constant 15; channel 8x64x56x56 pads_end 64 on
 * axis 1, constant; inplace: conv constant with the input already in the output's interior
 * (in_strides = out_strides, in = out + offset), so only the borders are written.
 * N runs over 1 .. omp_get_max_threads() (powers of two and the maximum beyond 8), or the
 * comma-separated list in NDPAD_BENCH_THREADS.
 *
 * Timing (manual, one clock_gettime pair around each call). Every iteration of the timed loop
 * first copies the case's output bytes with memcpy (same threads, same destination), untimed
 * for Google Benchmark but timed by us, then runs the case: each case call has a memcpy
 * neighbour measured moments before it, so a load that comes and goes (a shared machine)
 * hits both. Each case benchmark reports:
 *   GB/s           (input bytes read + output bytes written) / median time per call
 *                  (inplace: the border bytes written only; memcpy: 2 x output bytes);
 *   vs_memcpy      median over the iterations of (case time / its neighbour memcpy's time):
 *                  1.00 = as fast as copying the output (inplace: against the whole output);
 *   memcpy_GB/s    2 x output bytes / median memcpy time of those neighbours;
 *   us             median time per call, microseconds;
 *   n_threads      the thread count asked for (options.threads);
 *   bytes_per_second  Google Benchmark's own rate (mean over the iterations);
 *   label          "isa=<plan's ISA> tile=<rows>x<cols> tiles=<T> plan_threads=<P>
 *                  [stream] source=heuristic|wisdom|..." from ndpad_plan_isa() and
 *                  ndpad_plan_describe().
 * With more than one thread memcpy is split over the threads, each thread taking at least
 * 128 KiB and none under 256 KiB in all, the rule ndpad's planner follows, so a small output
 * is compared with the one-thread copy it runs as. For XNNPACK the split runs on XNNPACK's
 * own thread pool (pthreadpool), so that two thread pools never compete.
 *
 * Flags of ours (removed before Google Benchmark sees argv; each has an environment twin):
 *   --ndpad_tuning=cache|heuristic   options.tuning of every plan: the wisdom written by
 *                                    ndpad-tune (default), or the planner's heuristic only
 *                                    (NDPAD_BENCH_TUNING)
 *   --ndpad_threads=1,2,...          the thread counts (NDPAD_BENCH_THREADS)
 * Every Google Benchmark flag works: ndpad-bench --benchmark_filter=conv
 * --benchmark_repetitions=3 --benchmark_format=json ...
 * Exit status: 0; 1 when a flag is unknown to Google Benchmark or when an ndpad run failed
 * (a failed call, or an in-place result that differs: reported as a skipped benchmark);
 * 2 when an --ndpad_* flag is wrong. A failing XNNPACK run is reported, not counted.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#ifdef NDPAD_BENCH_HAVE_XNNPACK
#include <pthreadpool.h>
#include <xnnpack.h>
#endif

#include "gbench_shim.h"
#include "ndpad.h"

#define MAX_RANK          4
#define MAX_THREAD_COUNTS 64

/* ------------------------------------------------------------------------------------- */
/* Cases                                                                                  */
/* ------------------------------------------------------------------------------------- */

/* Tensors shared by the cases of one group (conv's six cases use one input and output). */
typedef struct tensors {
    const char *group;
    int32_t rank;
    int64_t shape[MAX_RANK], pads_begin[MAX_RANK], pads_end[MAX_RANK];
    int64_t out_shape[MAX_RANK];
    size_t in_bytes, out_bytes;
    float *in, *out; /* allocated at first use, kept for the process */
} tensors;

typedef struct bench_case {
    const char *name; /* "conv", "inplace", ...  */
    tensors *t;
    int32_t mode;
    float pad_value;
    bool inplace;
} bench_case;

#define TENSORS(name, ...)                                                                         \
    {                                                                                              \
        .group = name, .rank = 4, __VA_ARGS__                                                      \
    }
static tensors conv_t = TENSORS("conv", .shape = {1, 64, 256, 256}, .pads_begin = {0, 0, 1, 1},
                                .pads_end = {0, 0, 1, 1});
static tensors image_t = TENSORS("image", .shape = {1, 3, 1080, 1920}, .pads_begin = {0, 0, 8, 8},
                                 .pads_end = {0, 0, 8, 8});
static tensors nhwc_t = TENSORS("nhwc", .shape = {1, 224, 224, 3}, .pads_begin = {0, 3, 3, 0},
                                .pads_end = {0, 3, 3, 0});
static tensors ovsmall_t = TENSORS("ov-small", .shape = {1, 3, 32, 40}, .pads_begin = {0, 5, 2, 1},
                                   .pads_end = {1, 0, 3, 7});
static tensors channel_t = TENSORS("channel", .shape = {8, 64, 56, 56}, .pads_begin = {0, 0, 0, 0},
                                   .pads_end = {0, 64, 0, 0});

static tensors *const all_tensors[] = {&conv_t, &image_t, &nhwc_t, &ovsmall_t, &channel_t};

static bench_case cases[] = {
    {"conv", &conv_t, NDPAD_CONSTANT, 0.0f, false},
    {"conv", &conv_t, NDPAD_EDGE, 0.0f, false},
    {"conv", &conv_t, NDPAD_REFLECT, 0.0f, false},
    {"conv", &conv_t, NDPAD_SYMMETRIC, 0.0f, false},
    {"conv", &conv_t, NDPAD_WRAP, 0.0f, false},
    {"inplace", &conv_t, NDPAD_CONSTANT, 0.0f, true},
    {"image", &image_t, NDPAD_REFLECT, 0.0f, false},
    {"nhwc", &nhwc_t, NDPAD_CONSTANT, 0.0f, false},
    {"ov-small", &ovsmall_t, NDPAD_CONSTANT, 15.0f, false},
    {"channel", &channel_t, NDPAD_CONSTANT, 0.0f, false},
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const char *const mode_names[] = {"constant", "edge", "reflect", "symmetric", "wrap"};

/* What one registered benchmark runs. */
typedef enum impl { IMPL_NDPAD, IMPL_MEMCPY, IMPL_XNNPACK } impl;
typedef struct bench_run {
    impl what;
    const bench_case *c;
    tensors *t;
    int threads;
} bench_run;

static void *xmalloc(size_t bytes)
{
    /* 64-byte aligned, with room for XNNPACK's over-read (XNN_EXTRA_BYTES). */
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes + 64) != 0) {
        fprintf(stderr, "ndpad-bench: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

static void tensors_init(tensors *t)
{
    if (t->in != NULL) return;
    size_t in_elems = 1, out_elems = 1;
    for (int k = 0; k < t->rank; k++) {
        t->out_shape[k] = t->pads_begin[k] + t->shape[k] + t->pads_end[k];
        in_elems *= (size_t)t->shape[k];
        out_elems *= (size_t)t->out_shape[k];
    }
    t->in_bytes = in_elems * sizeof(float);
    t->out_bytes = out_elems * sizeof(float);
    t->in = xmalloc(t->in_bytes);
    t->out = xmalloc(t->out_bytes);
    uint32_t x = 12345u;
    for (size_t i = 0; i < in_elems; i++) {
        x = x * 1664525u + 1013904223u;
        t->in[i] = (float)(x >> 8) * (1.0f / 16777216.0f) - 0.5f;
    }
    memset(t->out, 0, t->out_bytes); /* fault the pages in before any timing */
}

/* The source of every memcpy baseline: as large as the largest output. */
static char *copy_src;
static size_t copy_src_bytes;

static const char *memcpy_source(size_t bytes)
{
    if (bytes > copy_src_bytes) {
        free(copy_src);
        copy_src = xmalloc(bytes);
        memset(copy_src, 0x5a, bytes);
        copy_src_bytes = bytes;
    }
    return copy_src;
}

/* ------------------------------------------------------------------------------------- */
/* Timing                                                                                 */
/* ------------------------------------------------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct samples {
    double *v;
    size_t n, cap;
} samples;

static void samples_push(samples *s, double x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        double *v = realloc(s->v, s->cap * sizeof(double));
        if (v == NULL) {
            fprintf(stderr, "ndpad-bench: out of memory\n");
            exit(1);
        }
        s->v = v;
    }
    s->v[s->n++] = x;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double samples_median(samples *s)
{
    if (s->n == 0) return NAN;
    qsort(s->v, s->n, sizeof(double), cmp_double);
    return s->n % 2 ? s->v[s->n / 2] : 0.5 * (s->v[s->n / 2 - 1] + s->v[s->n / 2]);
}

/* The threads that copy `bytes` when `threads` are allowed: each at least 128 KiB, one below
 * 256 KiB (the planner's rule). */
static int copy_threads(size_t bytes, int threads)
{
    const size_t per_thread = (size_t)128 * 1024;
    if (bytes < 2 * per_thread || threads <= 1) return 1;
    return (size_t)threads > bytes / per_thread ? (int)(bytes / per_thread) : threads;
}

/* Part `i` of `n` of a copy of `bytes`, cut at 64-byte boundaries. */
static void copy_part(void *dst, const void *src, size_t bytes, size_t n, size_t i)
{
    const size_t chunk = (bytes / n + 63) & ~(size_t)63;
    const size_t begin = i * chunk < bytes ? i * chunk : bytes;
    const size_t end = i + 1 == n || begin + chunk > bytes ? bytes : begin + chunk;
    memcpy((char *)dst + begin, (const char *)src + begin, end - begin);
}

/* memcpy over up to `threads` OpenMP threads (copy_threads()). */
static void parallel_memcpy(void *dst, const void *src, size_t bytes, int threads)
{
    const int t = copy_threads(bytes, threads);
    if (t <= 1) {
        memcpy(dst, src, bytes);
        return;
    }
#ifdef _OPENMP
#pragma omp parallel num_threads(t)
    copy_part(dst, src, bytes, (size_t)omp_get_num_threads(), (size_t)omp_get_thread_num());
#else
    memcpy(dst, src, bytes);
#endif
}

/* ------------------------------------------------------------------------------------- */
/* Flags                                                                                  */
/* ------------------------------------------------------------------------------------- */

static int thread_counts[MAX_THREAD_COUNTS];
static int thread_count_n;
static int32_t plan_tuning = NDPAD_TUNING_CACHE;
static int failures; /* ndpad or memcpy runs skipped with an error: the exit status says so */

static void usage_ndpad_flags(FILE *f)
{
    fputs("ndpad-bench flags (besides Google Benchmark's --benchmark_*):\n"
          "  --ndpad_tuning=cache|heuristic  tiles from the wisdom of ndpad-tune (default) or\n"
          "                                  the planner's heuristic only "
          "(env NDPAD_BENCH_TUNING)\n"
          "  --ndpad_threads=1,2,...         thread counts (env NDPAD_BENCH_THREADS; default\n"
          "                                  1 .. all, powers of two beyond 8)\n",
          f);
}

static void set_thread_counts(const char *list, const char *what)
{
    thread_count_n = 0;
    const char *p = list;
    while (*p != '\0') {
        char *end;
        const long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > 4096 || (*end != ',' && *end != '\0') ||
            thread_count_n == MAX_THREAD_COUNTS) {
            fprintf(stderr, "ndpad-bench: %s='%s': expected a list such as 1,2,4\n", what, list);
            exit(2);
        }
        thread_counts[thread_count_n++] = (int)v;
        p = *end == ',' ? end + 1 : end;
    }
}

static void set_tuning(const char *value, const char *what)
{
    if (strcmp(value, "cache") == 0 || strcmp(value, "wisdom") == 0) {
        plan_tuning = NDPAD_TUNING_CACHE;
    } else if (strcmp(value, "heuristic") == 0) {
        plan_tuning = NDPAD_TUNING_HEURISTIC;
    } else {
        fprintf(stderr, "ndpad-bench: %s='%s': expected cache or heuristic\n", what, value);
        exit(2);
    }
}

/* The environment, then our --ndpad_* flags, which are taken out of argv. */
static void parse_ndpad_flags(int *argc, char **argv)
{
    const char *env = getenv("NDPAD_BENCH_THREADS");
    if (env != NULL && *env != '\0') set_thread_counts(env, "NDPAD_BENCH_THREADS");
    env = getenv("NDPAD_BENCH_TUNING");
    if (env != NULL && *env != '\0') set_tuning(env, "NDPAD_BENCH_TUNING");

    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--ndpad_threads=", 16) == 0) {
            set_thread_counts(a + 16, "--ndpad_threads");
        } else if (strncmp(a, "--ndpad_tuning=", 15) == 0) {
            set_tuning(a + 15, "--ndpad_tuning");
        } else if (strncmp(a, "--ndpad_", 8) == 0) {
            fprintf(stderr, "ndpad-bench: unknown flag %s\n", a);
            usage_ndpad_flags(stderr);
            exit(2);
        } else {
            if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) usage_ndpad_flags(stdout);
            argv[kept++] = argv[i];
        }
    }
    argv[kept] = NULL;
    *argc = kept;

    if (thread_count_n > 0) return;
    int max = 1;
#ifdef _OPENMP
    max = omp_get_max_threads();
#endif
    for (int n = 1; n <= max && thread_count_n < MAX_THREAD_COUNTS; n++)
        if (max <= 8 || (n & (n - 1)) == 0 || n == max) thread_counts[thread_count_n++] = n;
}

/* ------------------------------------------------------------------------------------- */
/* The benchmarks                                                                         */
/* ------------------------------------------------------------------------------------- */

static void make_problem(const bench_case *c, ndpad_problem *p, int64_t *out_strides)
{
    const tensors *t = c->t;
    memset(p, 0, sizeof(*p));
    p->rank = t->rank;
    p->mode = c->mode;
    p->elem_size = sizeof(float);
    p->shape = t->shape;
    p->pads_begin = t->pads_begin;
    p->pads_end = t->pads_end;
    p->pad_value = &c->pad_value;
    if (c->inplace) {
        int64_t stride = 1;
        for (int k = t->rank - 1; k >= 0; k--) {
            out_strides[k] = stride;
            stride *= t->out_shape[k];
        }
        p->in_strides = out_strides; /* the input lives in the output's layout */
        p->out_strides = out_strides;
    }
}

/* Byte offset of the output's interior, where an in-place input sits. */
static size_t interior_offset(const tensors *t)
{
    int64_t stride = 1, offset = 0;
    for (int k = t->rank - 1; k >= 0; k--) {
        offset += t->pads_begin[k] * stride;
        stride *= t->out_shape[k];
    }
    return (size_t)offset * sizeof(float);
}

/* "isa=avx512 tile=129x258 tiles=32 plan_threads=2[ stream][ source=...]" from the plan. */
static void plan_label(const ndpad_plan *plan, char *label, size_t size)
{
    char text[4096];
    ndpad_plan_describe(plan, text, sizeof(text));
    const char *line = strstr(text, "tiles: ");
    long long rows = 0, cols = 0, tiles = 0;
    int threads = 0;
    if (line == NULL || sscanf(line, "tiles: %lld rows x %lld columns, %lld tiles, %d threads",
                               &rows, &cols, &tiles, &threads) != 4) {
        snprintf(label, size, "isa=%s", ndpad_isa_name(ndpad_plan_isa(plan)));
        return;
    }
    const char *eol = strchr(line, '\n');
    const bool stream =
        strstr(line, "streaming") != NULL && (eol == NULL || strstr(line, "streaming") < eol);
    /* "tile source: wisdom (class ...)": where the tile came from, when the library says. */
    char source[32] = "";
    const char *src_line = strstr(text, "tile source: ");
    if (src_line != NULL) sscanf(src_line, "tile source: %31[a-z]", source);
    snprintf(label, size, "isa=%s tile=%lldx%lld tiles=%lld plan_threads=%d%s%s%s",
             ndpad_isa_name(ndpad_plan_isa(plan)), rows, cols, tiles, threads,
             stream ? " stream" : "", source[0] ? " source=" : "", source);
}

/* Pads conv out of place into the shared output, so that its interior holds the input: the
 * reference for the in-place check (the timing does not depend on the values, and the memcpy
 * neighbours overwrite them). */
static bool inplace_restore(const bench_case *c, char *why, size_t why_size)
{
    bench_case plain = *c;
    plain.inplace = false;
    ndpad_problem p;
    make_problem(&plain, &p, NULL);
    if (ndpad_pad(&p, c->t->in, c->t->out) != NDPAD_OK) {
        snprintf(why, why_size, "%s", ndpad_last_error());
        return false;
    }
    return true;
}

/* Once per process: an in-place execution over scribbled borders gives the padded input. */
static bool inplace_checked(const ndpad_plan *plan, const bench_case *c, char *why, size_t why_size)
{
    static bool done;
    if (done) return true;
    const tensors *t = c->t;
    if (!inplace_restore(c, why, why_size)) return false;
    char *want = xmalloc(t->out_bytes);
    memcpy(want, t->out, t->out_bytes);
    const size_t w = (size_t)t->out_shape[t->rank - 1], rows = t->out_bytes / sizeof(float) / w;
    for (size_t r = 0; r < rows; r++) t->out[r * w] = t->out[r * w + w - 1] = 99.0f;
    const ndpad_status st = ndpad_execute(plan, (const char *)t->out + interior_offset(t), t->out);
    const bool same = st == NDPAD_OK && memcmp(want, t->out, t->out_bytes) == 0;
    free(want);
    if (!same) {
        snprintf(why, why_size, "in-place execution differs from out-of-place (%s)",
                 ndpad_status_string(st));
        return false;
    }
    done = true;
    return true;
}

#ifdef NDPAD_BENCH_HAVE_XNNPACK
static pthreadpool_t xnn_pools[MAX_THREAD_COUNTS];

static pthreadpool_t xnn_pool(int threads)
{
    if (threads <= 1) return NULL; /* NULL: run on the calling thread */
    for (int i = 0; i < thread_count_n; i++)
        if (thread_counts[i] == threads) {
            if (xnn_pools[i] == NULL) xnn_pools[i] = pthreadpool_create((size_t)threads);
            return xnn_pools[i];
        }
    return NULL;
}

typedef struct pool_copy {
    void *dst;
    const void *src;
    size_t bytes, parts;
} pool_copy;

static void pool_copy_part(void *arg, size_t i)
{
    const pool_copy *c = arg;
    copy_part(c->dst, c->src, c->bytes, c->parts, i);
}

/* memcpy split as parallel_memcpy() does, on XNNPACK's pool instead of OpenMP's team. */
static void pool_memcpy(pthreadpool_t pool, void *dst, const void *src, size_t bytes, int threads)
{
    const int t = copy_threads(bytes, threads);
    if (t <= 1 || pool == NULL) {
        memcpy(dst, src, bytes);
        return;
    }
    pool_copy c = {dst, src, bytes, (size_t)t};
    pthreadpool_parallelize_1d(pool, pool_copy_part, &c, (size_t)t, 0);
}
#endif

/* The memcpy neighbour of every call: the output bytes, over the threads the case runs on. */
static void baseline_once(const bench_run *run, const char *src)
{
#ifdef NDPAD_BENCH_HAVE_XNNPACK
    if (run->what == IMPL_XNNPACK) {
        pool_memcpy(xnn_pool(run->threads), run->t->out, src, run->t->out_bytes, run->threads);
        return;
    }
#endif
    parallel_memcpy(run->t->out, src, run->t->out_bytes, run->threads);
}

static bool run_once(const bench_run *run, const ndpad_plan *plan, void *xnn_op, const void *in,
                     const char *src)
{
    (void)xnn_op;
    switch (run->what) {
    case IMPL_NDPAD: return ndpad_execute(plan, in, run->t->out) == NDPAD_OK;
    case IMPL_MEMCPY:
        parallel_memcpy(run->t->out, src, run->t->out_bytes, run->threads);
        return true;
    case IMPL_XNNPACK:
#ifdef NDPAD_BENCH_HAVE_XNNPACK
        return xnn_run_operator((xnn_operator_t)xnn_op, xnn_pool(run->threads)) ==
               xnn_status_success;
#endif
        break;
    }
    return false;
}

/* One function for ndpad, memcpy and XNNPACK: set up outside the loop, then each iteration
 * times a memcpy of the output (ndpad, XNNPACK) and the call itself. */
static void bench_case_fn(gbench_state *state, void *arg)
{
    const bench_run *run = arg;
    tensors *t = run->t;
    const bench_case *c = run->c;
    char why[512] = "", label[256] = "";
    tensors_init(t);

    ndpad_plan *plan = NULL;
    const void *in = t->in;
    size_t bytes = t->in_bytes + t->out_bytes;
    samples base = {0}, loop = {0}, ratio = {0};
#ifdef NDPAD_BENCH_HAVE_XNNPACK
    xnn_operator_t op = NULL;
#else
    void *op = NULL;
#endif

    if (run->what == IMPL_NDPAD) {
        int64_t strides[MAX_RANK];
        ndpad_problem p;
        make_problem(c, &p, strides);
        ndpad_options o;
        ndpad_options_init(&o);
        o.threads = run->threads;
        o.tuning = plan_tuning;
        if (ndpad_plan_create(&p, &o, &plan) != NDPAD_OK) {
            snprintf(why, sizeof(why), "%s", ndpad_last_error());
            goto fail;
        }
        if (c->inplace) {
            in = (const char *)t->out + interior_offset(t);
            bytes = t->out_bytes - t->in_bytes; /* the borders: all that is written */
            if (!inplace_checked(plan, c, why, sizeof(why))) goto fail;
        }
        plan_label(plan, label, sizeof(label));
    } else if (run->what == IMPL_MEMCPY) {
        bytes = 2 * t->out_bytes;
        snprintf(label, sizeof(label), "memcpy threads=%d",
                 copy_threads(t->out_bytes, run->threads));
    } else {
#ifdef NDPAD_BENCH_HAVE_XNNPACK
        size_t shape[MAX_RANK], pre[MAX_RANK], post[MAX_RANK];
        for (int k = 0; k < t->rank; k++) {
            shape[k] = (size_t)t->shape[k];
            pre[k] = (size_t)t->pads_begin[k];
            post[k] = (size_t)t->pads_end[k];
        }
        const pthreadpool_t pool = xnn_pool(run->threads);
        if (xnn_create_constant_pad_nd_x32(&c->pad_value, 0, &op) != xnn_status_success ||
            xnn_setup_constant_pad_nd_x32(op, (size_t)t->rank, shape, pre, post, t->in, t->out,
                                          pool) != xnn_status_success) {
            snprintf(why, sizeof(why), "XNNPACK constant pad: create or setup failed");
            goto fail;
        }
        snprintf(label, sizeof(label), "isa=xnnpack threads=%zu",
                 pool != NULL ? pthreadpool_get_threads_count(pool) : (size_t)1);
#else
        snprintf(why, sizeof(why), "built without XNNPACK");
        goto fail;
#endif
    }

    /* Warm-up: one call of each (pages, code, the thread team). */
    const char *src = memcpy_source(t->out_bytes);
    const bool paired = run->what != IMPL_MEMCPY;
    if (paired) baseline_once(run, src);
    if (!run_once(run, plan, op, in, src)) {
        snprintf(why, sizeof(why), "%s",
                 run->what == IMPL_NDPAD ? ndpad_last_error() : "xnn_run_operator failed");
        goto fail;
    }
    while (gbench_keep_running(state)) {
        const double t0 = now();
        if (paired) {
            baseline_once(run, src);
            gbench_clobber_memory();
        }
        const double t1 = now();
        run_once(run, plan, op, in, src);
        gbench_clobber_memory();
        const double t2 = now();
        gbench_set_iteration_time(state, t2 - t1);
        samples_push(&loop, t2 - t1);
        if (paired) {
            samples_push(&base, t1 - t0);
            samples_push(&ratio, (t2 - t1) / (t1 - t0));
        }
    }

    const double median = samples_median(&loop);
    const double memcpy_median = paired ? samples_median(&base) : median;
    gbench_set_bytes_processed(state, gbench_iterations(state) * (int64_t)bytes);
    gbench_set_counter(state, "GB/s", (double)bytes / median * 1e-9, GBENCH_COUNTER_DEFAULT);
    gbench_set_counter(state, "us", median * 1e6, GBENCH_COUNTER_DEFAULT);
    gbench_set_counter(state, "n_threads", run->threads, GBENCH_COUNTER_DEFAULT);
    gbench_set_counter(state, "memcpy_GB/s", 2.0 * (double)t->out_bytes / memcpy_median * 1e-9,
                       GBENCH_COUNTER_DEFAULT);
    if (paired)
        gbench_set_counter(state, "vs_memcpy", samples_median(&ratio), GBENCH_COUNTER_DEFAULT);
    gbench_set_label(state, label);
    goto done;
fail:
    if (run->what != IMPL_XNNPACK) failures++; /* a peer that fails is not ndpad's failure */
    gbench_skip_with_error(state, why);
done:
    free(base.v);
    free(loop.v);
    free(ratio.v);
    ndpad_plan_destroy(plan);
#ifdef NDPAD_BENCH_HAVE_XNNPACK
    if (op != NULL) xnn_delete_operator(op);
#endif
}

/* plan/conv: validation, normalisation and planning of conv (ndpad_plan_create() +
 * ndpad_plan_destroy()) with the default options and the --ndpad_tuning choice; the first
 * call, outside the loop, loads the topology and the wisdom (the cache is then warm). */
static void bench_plan_fn(gbench_state *state, void *arg)
{
    const bench_case *c = arg;
    ndpad_problem p;
    make_problem(c, &p, NULL);
    ndpad_options o;
    ndpad_options_init(&o);
    o.tuning = plan_tuning;
    ndpad_plan *plan = NULL;
    if (ndpad_plan_create(&p, &o, &plan) != NDPAD_OK) {
        failures++;
        gbench_skip_with_error(state, ndpad_last_error());
        return;
    }
    char label[256];
    plan_label(plan, label, sizeof(label));
    ndpad_plan_destroy(plan);
    while (gbench_keep_running(state)) {
        ndpad_plan_create(&p, &o, &plan);
        ndpad_plan_destroy(plan);
    }
    gbench_set_items_processed(state, gbench_iterations(state));
    gbench_set_label(state, label);
}

/* ------------------------------------------------------------------------------------- */

static bench_run runs[ARRAY_LEN(cases) * 2 * MAX_THREAD_COUNTS + 16 * MAX_THREAD_COUNTS];
static size_t run_n;

static void add(impl what, const bench_case *c, tensors *t, int threads)
{
    bench_run *r = &runs[run_n++];
    *r = (bench_run){what, c, t, threads};
    char name[128];
    if (what == IMPL_MEMCPY)
        snprintf(name, sizeof(name), "memcpy/%s/threads:%d", t->group, threads);
    else
        snprintf(name, sizeof(name), "%s/%s-%s/threads:%d",
                 what == IMPL_NDPAD ? "ndpad" : "xnnpack", c->name, mode_names[c->mode], threads);
    gbench_use_manual_time(gbench_register(name, bench_case_fn, r));
}

int main(int argc, char **argv)
{
    parse_ndpad_flags(&argc, argv);
#ifdef NDPAD_BENCH_HAVE_XNNPACK
    const bool have_xnnpack = xnn_initialize(NULL) == xnn_status_success;
    if (!have_xnnpack) fprintf(stderr, "ndpad-bench: xnn_initialize failed; no XNNPACK\n");
#else
    const bool have_xnnpack = false;
#endif

    gbench_use_real_time(gbench_register("plan/conv", bench_plan_fn, &cases[0]));
    for (size_t g = 0; g < ARRAY_LEN(all_tensors); g++) {
        tensors *t = all_tensors[g];
        for (int i = 0; i < thread_count_n; i++) {
            add(IMPL_MEMCPY, NULL, t, thread_counts[i]);
            for (size_t k = 0; k < ARRAY_LEN(cases); k++)
                if (cases[k].t == t) add(IMPL_NDPAD, &cases[k], t, thread_counts[i]);
            for (size_t k = 0; k < ARRAY_LEN(cases); k++)
                if (have_xnnpack && cases[k].t == t && cases[k].mode == NDPAD_CONSTANT &&
                    !cases[k].inplace)
                    add(IMPL_XNNPACK, &cases[k], t, thread_counts[i]);
        }
    }

    static const char *const defaults[] = {"--benchmark_min_time=0.25", NULL};
    const int rc = gbench_run(argc, argv, defaults);

#ifdef NDPAD_BENCH_HAVE_XNNPACK
    for (int i = 0; i < thread_count_n; i++)
        if (xnn_pools[i] != NULL) pthreadpool_destroy(xnn_pools[i]);
    if (have_xnnpack) xnn_deinitialize();
#endif
    for (size_t g = 0; g < ARRAY_LEN(all_tensors); g++) {
        free(all_tensors[g]->in);
        free(all_tensors[g]->out);
    }
    free(copy_src);
    if (rc == 0 && failures > 0) {
        fprintf(stderr, "ndpad-bench: %d benchmark run%s failed (see the errors above)\n", failures,
                failures == 1 ? "" : "s");
        return 1;
    }
    return rc;
}
