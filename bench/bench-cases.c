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
 * Each case benchmark reports, per iteration of the timed loop (manual timing, one
 * clock_gettime pair around each execution):
 *   bytes_per_second, GB/s  input bytes read + output bytes written (inplace: border bytes
 *                           written only), per second: Google Benchmark's mean;
 *   vs_memcpy               median execution time / median time of memcpy of the same
 *                           output bytes at the same thread count, measured in the same call
 *                           just before and just after the timed loop (1.00 = as fast as
 *                           copying the output; inplace against the whole output too);
 *   memcpy_GB/s             that memcpy's rate (2 x output bytes: read + write);
 *   n_threads               the thread count asked for (options.threads);
 *   label                   "isa=<plan's ISA> tile=<rows>x<cols> tiles=<T> plan_threads=<P>
 *                           [stream] [source=heuristic|wisdom|...]" from ndpad_plan_isa()
 *                           and ndpad_plan_describe().
 * With more than one thread memcpy is split over the threads with OpenMP, each thread taking
 * at least 128 KiB and none under 256 KiB in all, the rule ndpad's planner follows, so a
 * small output is compared with the one-thread copy it runs as.
 * Every Google Benchmark flag works: ndpad-bench --benchmark_filter=conv
 * --benchmark_repetitions=3 --benchmark_format=json ...
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

#define MAX_RANK 4
#define MAX_THREAD_COUNTS 64
#define BASELINE_SECONDS 0.02 /* memcpy measured this long before and after the loop */

/* ------------------------------------------------------------------------------------- */
/* Cases                                                                                  */
/* ------------------------------------------------------------------------------------- */

/* Tensors shared by the cases of one group (conv's six cases use one input and output). */
typedef struct tensors {
    const char *group;
    int32_t     rank;
    int64_t     shape[MAX_RANK], pads_begin[MAX_RANK], pads_end[MAX_RANK];
    int64_t     out_shape[MAX_RANK];
    size_t      in_bytes, out_bytes;
    float      *in, *out; /* allocated at first use, kept for the process */
} tensors;

typedef struct bench_case {
    const char *name;   /* "conv", "inplace", ...  */
    tensors    *t;
    int32_t     mode;
    float       pad_value;
    bool        inplace;
} bench_case;

#define TENSORS(name, ...) {.group = name, .rank = 4, __VA_ARGS__}
static tensors conv_t = TENSORS("conv", .shape = {1, 64, 256, 256}, .pads_begin = {0, 0, 1, 1},
                                .pads_end = {0, 0, 1, 1});
static tensors image_t = TENSORS("image", .shape = {1, 3, 1080, 1920},
                                 .pads_begin = {0, 0, 8, 8}, .pads_end = {0, 0, 8, 8});
static tensors nhwc_t = TENSORS("nhwc", .shape = {1, 224, 224, 3}, .pads_begin = {0, 3, 3, 0},
                                .pads_end = {0, 3, 3, 0});
static tensors ovsmall_t = TENSORS("ov-small", .shape = {1, 3, 32, 40},
                                   .pads_begin = {0, 5, 2, 1}, .pads_end = {1, 0, 3, 7});
static tensors channel_t = TENSORS("channel", .shape = {8, 64, 56, 56},
                                   .pads_begin = {0, 0, 0, 0}, .pads_end = {0, 64, 0, 0});

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
    impl              what;
    const bench_case *c;
    tensors          *t;
    int               threads;
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
static char  *copy_src;
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
    size_t  n, cap;
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

/* memcpy over up to `threads` OpenMP threads, at least 128 KiB each and one thread below
 * 256 KiB (the planner's rule), cut at 64-byte boundaries. */
static void parallel_memcpy(void *dst, const void *src, size_t bytes, int threads)
{
    const size_t per_thread = (size_t)128 * 1024;
    int t = threads;
    if (bytes < 2 * per_thread) t = 1;
    else if ((size_t)t > bytes / per_thread) t = (int)(bytes / per_thread);
    if (t <= 1) {
        memcpy(dst, src, bytes);
        return;
    }
#ifdef _OPENMP
#pragma omp parallel num_threads(t)
    {
        const size_t n = (size_t)omp_get_num_threads(), i = (size_t)omp_get_thread_num();
        const size_t chunk = (bytes / n + 63) & ~(size_t)63;
        const size_t begin = i * chunk < bytes ? i * chunk : bytes;
        const size_t end = i + 1 == n || begin + chunk > bytes ? bytes : begin + chunk;
        memcpy((char *)dst + begin, (const char *)src + begin, end - begin);
    }
#else
    memcpy(dst, src, bytes);
#endif
}

/* Adds timings of memcpy of `t`'s output bytes to `s` for about BASELINE_SECONDS. */
static void measure_memcpy(samples *s, tensors *t, int threads)
{
    const char *src = memcpy_source(t->out_bytes);
    const double start = now();
    for (int k = 0; k < 5 || (k < 20000 && now() - start < BASELINE_SECONDS); k++) {
        const double t0 = now();
        parallel_memcpy(t->out, src, t->out_bytes, threads);
        gbench_clobber_memory();
        samples_push(s, now() - t0);
    }
}

/* ------------------------------------------------------------------------------------- */
/* The benchmarks                                                                         */
/* ------------------------------------------------------------------------------------- */

static int thread_counts[MAX_THREAD_COUNTS];
static int thread_count_n;

static void choose_thread_counts(void)
{
    const char *env = getenv("NDPAD_BENCH_THREADS");
    if (env != NULL && *env != '\0') {
        const char *p = env;
        while (*p != '\0' && thread_count_n < MAX_THREAD_COUNTS) {
            char *end;
            const long v = strtol(p, &end, 10);
            if (end == p || v < 1 || v > 4096) {
                fprintf(stderr, "ndpad-bench: NDPAD_BENCH_THREADS='%s': expected a list such "
                                "as 1,2,4\n", env);
                exit(2);
            }
            thread_counts[thread_count_n++] = (int)v;
            p = *end == ',' ? end + 1 : end;
        }
        return;
    }
    int max = 1;
#ifdef _OPENMP
    max = omp_get_max_threads();
#endif
    for (int n = 1; n <= max && thread_count_n < MAX_THREAD_COUNTS; n++)
        if (max <= 8 || (n & (n - 1)) == 0 || n == max) thread_counts[thread_count_n++] = n;
}

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
    const bool stream = strstr(line, "streaming") != NULL &&
                        (eol == NULL || strstr(line, "streaming") < eol);
    /* "tile source: wisdom (class ...)": where the tile came from, when the library says. */
    char source[32] = "";
    const char *src_line = strstr(text, "tile source: ");
    if (src_line != NULL) sscanf(src_line, "tile source: %31[a-z]", source);
    snprintf(label, size, "isa=%s tile=%lldx%lld tiles=%lld plan_threads=%d%s%s%s",
             ndpad_isa_name(ndpad_plan_isa(plan)), rows, cols, tiles, threads,
             stream ? " stream" : "", source[0] ? " source=" : "", source);
}

/* The inplace case's output must hold the padded input (its interior is the input): the
 * memcpy baselines and the other conv cases overwrite it, so it is rebuilt before timing. */
static bool inplace_restore(const bench_case *c, char *why, size_t why_size)
{
    bench_case plain = *c;
    plain.inplace = false;
    ndpad_problem p;
    make_problem(&plain, &p, NULL);
    if (ndpad_pad(&p, c->t->in, c->t->out) != NDPAD_OK) {
        snprintf(why, why_size, "ndpad_pad: %s", ndpad_last_error());
        return false;
    }
    return true;
}

/* Once per process: an in-place execution over scribbled borders gives the padded input. */
static bool inplace_checked(const ndpad_plan *plan, const bench_case *c, char *why,
                            size_t why_size)
{
    static bool done;
    if (done) return true;
    const tensors *t = c->t;
    if (!inplace_restore(c, why, why_size)) return false;
    char *want = xmalloc(t->out_bytes);
    memcpy(want, t->out, t->out_bytes);
    const size_t w = (size_t)t->out_shape[t->rank - 1], rows = t->out_bytes / sizeof(float) / w;
    for (size_t r = 0; r < rows; r++) t->out[r * w] = t->out[r * w + w - 1] = 99.0f;
    const ndpad_status st =
        ndpad_execute(plan, (const char *)t->out + interior_offset(t), t->out);
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
#endif

static bool run_once(const bench_run *run, const ndpad_plan *plan, void *xnn_op,
                     const void *in, const char *src)
{
    (void)xnn_op;
    switch (run->what) {
    case IMPL_NDPAD: return ndpad_execute(plan, in, run->t->out) == NDPAD_OK;
    case IMPL_MEMCPY:
        parallel_memcpy(run->t->out, src, run->t->out_bytes, run->threads);
        return true;
    case IMPL_XNNPACK:
#ifdef NDPAD_BENCH_HAVE_XNNPACK
        return xnn_run_operator((xnn_operator_t)xnn_op, xnn_pool(run->threads)) == xnn_status_success;
#endif
        break;
    }
    return false;
}

/* One function for ndpad, memcpy and XNNPACK: set up outside the loop, time each call. */
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
    samples base = {0}, loop = {0};
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
        if (ndpad_plan_create(&p, &o, &plan) != NDPAD_OK) {
            snprintf(why, sizeof(why), "ndpad_plan_create: %s", ndpad_last_error());
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
        snprintf(label, sizeof(label), "memcpy");
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
            xnn_setup_constant_pad_nd_x32(op, (size_t)t->rank, shape, pre, post, t->in,
                                          t->out, pool) != xnn_status_success) {
            snprintf(why, sizeof(why), "XNNPACK constant pad: create or setup failed");
            goto fail;
        }
        snprintf(label, sizeof(label), "xnnpack threads=%zu",
                 pool != NULL ? pthreadpool_get_threads_count(pool) : (size_t)1);
#else
        snprintf(why, sizeof(why), "built without XNNPACK");
        goto fail;
#endif
    }

    /* memcpy baseline before the loop (it overwrites the output), then one warm-up call. */
    if (run->what != IMPL_MEMCPY) measure_memcpy(&base, t, run->threads);
    if (c != NULL && c->inplace && !inplace_restore(c, why, sizeof(why))) goto fail;
    const char *src = memcpy_source(t->out_bytes);
    if (!run_once(run, plan, op, in, src)) {
        snprintf(why, sizeof(why), "%s failed: %s", run->what == IMPL_NDPAD ? "ndpad_execute"
                 : "xnn_run_operator", run->what == IMPL_NDPAD ? ndpad_last_error() : "");
        goto fail;
    }
    while (gbench_keep_running(state)) {
        const double t0 = now();
        run_once(run, plan, op, in, src);
        gbench_clobber_memory();
        const double dt = now() - t0;
        gbench_set_iteration_time(state, dt);
        samples_push(&loop, dt);
    }
    if (run->what != IMPL_MEMCPY) measure_memcpy(&base, t, run->threads);
    else base = loop, loop = (samples){0};

    const int64_t iterations = gbench_iterations(state);
    const double memcpy_median = samples_median(&base);
    gbench_set_bytes_processed(state, iterations * (int64_t)bytes);
    gbench_set_counter(state, "GB/s", (double)iterations * (double)bytes * 1e-9,
                       GBENCH_COUNTER_RATE);
    gbench_set_counter(state, "n_threads", run->threads, GBENCH_COUNTER_DEFAULT);
    gbench_set_counter(state, "memcpy_GB/s", 2.0 * (double)t->out_bytes / memcpy_median * 1e-9,
                       GBENCH_COUNTER_DEFAULT);
    if (run->what != IMPL_MEMCPY)
        gbench_set_counter(state, "vs_memcpy", samples_median(&loop) / memcpy_median,
                           GBENCH_COUNTER_DEFAULT);
    gbench_set_label(state, label);
    goto done;
fail:
    gbench_skip_with_error(state, why);
done:
    free(base.v);
    free(loop.v);
    ndpad_plan_destroy(plan);
#ifdef NDPAD_BENCH_HAVE_XNNPACK
    if (op != NULL) xnn_delete_operator(op);
#endif
}

/* plan/conv: validation, normalisation and planning of conv, with default options. */
static void bench_plan_fn(gbench_state *state, void *arg)
{
    const bench_case *c = arg;
    ndpad_problem p;
    make_problem(c, &p, NULL);
    ndpad_plan *plan = NULL;
    if (ndpad_plan_create(&p, NULL, &plan) != NDPAD_OK) { /* warm-up: topology, ISA */
        gbench_skip_with_error(state, ndpad_last_error());
        return;
    }
    char label[256];
    plan_label(plan, label, sizeof(label));
    ndpad_plan_destroy(plan);
    while (gbench_keep_running(state)) {
        ndpad_plan_create(&p, NULL, &plan);
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
                 what == IMPL_NDPAD ? "ndpad" : "xnnpack", c->name, mode_names[c->mode],
                 threads);
    gbench_use_manual_time(gbench_register(name, bench_case_fn, r));
}

int main(int argc, char **argv)
{
#ifdef NDPAD_BENCH_HAVE_XNNPACK
    const bool have_xnnpack = xnn_initialize(NULL) == xnn_status_success;
    if (!have_xnnpack) fprintf(stderr, "ndpad-bench: xnn_initialize failed; no XNNPACK\n");
#else
    const bool have_xnnpack = false;
#endif
    choose_thread_counts();

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
    return rc;
}
