/*
 * ndpad-bench: the standard cases, planned once and executed in the timed loop, each beside
 * memcpy of its output bytes measured in the same run.
 *
 *   ndpad/<case>-<mode>/threads:N    ndpad_execute() of a plan made with options.threads = N
 *   memcpy/<case>/threads:N          memcpy of the case's output bytes (dst = its output)
 *   xnnpack/<case>-constant/threads:N  XNNPACK's constant pad (when built with it; fp32 cases)
 *   plan/conv                        ndpad_plan_create() + ndpad_plan_destroy() of conv
 *
 * Cases: the table of standard-cases.c, shared with ndpad-tune (conv 1x64x256x256 in all
 * five modes, image, nhwc, ov-small, feature, fmap-u8, fmap-fp16, channel, and inplace: conv
 * constant with the input already in the output's interior, in_strides = out_strides,
 * in = out + offset, so only the borders are written). Each case's target travels in the JSON as a counter.
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
 *   target_vs_memcpy  the case's vs_memcpy target (ndpad runs at 1 and 2 threads that
 *                  have one; plan/conv: target_us);
 *   label          "isa=<plan's ISA> tile=<rows>x<cols> tiles=<T> plan_threads=<P>
 *                  [stream] source=heuristic|wisdom|..." from ndpad_plan_info().
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
#include "stopwatch.h"
#include "ndpad.h"
#include "standard-cases.h"

#define MAX_RANK          STANDARD_MAX_RANK
#define ARRAY_LEN_MAX     64 /* cases and groups of the table */
#define MAX_THREAD_COUNTS 64

/* ------------------------------------------------------------------------------------- */
/* Cases                                                                                  */
/* ------------------------------------------------------------------------------------- */

/* Tensors shared by the cases of one group (conv's six cases use one input and output). */
typedef struct tensors {
    const char *group;
    int32_t rank;
    size_t elem_size;
    int64_t shape[MAX_RANK], pads_begin[MAX_RANK], pads_end[MAX_RANK];
    int64_t out_shape[MAX_RANK];
    size_t in_bytes, out_bytes;
    unsigned char *in, *out; /* allocated at first use, kept for the process */
} tensors;

/* A case of the table (standard-cases.c) and the tensors of its group. */
typedef struct bench_case {
    const standard_case *c;
    tensors *t;
} bench_case;

static tensors all_tensors[ARRAY_LEN_MAX];
static size_t tensor_n;
static bench_case cases[ARRAY_LEN_MAX];
static size_t case_n;

/* --ndpad_large (NDPAD_BENCH_LARGE=1): also the cases of 256 MiB and more of output. */
static bool include_large;

/* The table's cases, each with its group's tensors (made by the group's first case). */
static void cases_from_table(void)
{
    for (size_t i = 0; i < standard_case_count && i < ARRAY_LEN_MAX; i++) {
        const standard_case *c = &standard_cases[i];
        if (c->large && !include_large) continue; /* GiBs and minutes: --ndpad_large */
        tensors *t = NULL;
        for (size_t g = 0; g < tensor_n; g++)
            if (strcmp(all_tensors[g].group, c->group) == 0) t = &all_tensors[g];
        if (t == NULL) {
            t = &all_tensors[tensor_n++];
            *t = (tensors){.group = c->group, .rank = c->rank, .elem_size = c->elem_size};
            memcpy(t->shape, c->shape, sizeof(t->shape));
            memcpy(t->pads_begin, c->pads_begin, sizeof(t->pads_begin));
            memcpy(t->pads_end, c->pads_end, sizeof(t->pads_end));
        }
        cases[case_n++] = (bench_case){c, t};
    }
}

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
    t->in_bytes = in_elems * t->elem_size;
    t->out_bytes = out_elems * t->elem_size;
    t->in = xmalloc(t->in_bytes);
    t->out = xmalloc(t->out_bytes);
    uint32_t x = 12345u; /* any bytes: every mode copies elements, never computes */
    for (size_t i = 0; i < t->in_bytes; i++) {
        x = x * 1664525u + 1013904223u;
        t->in[i] = (unsigned char)(x >> 24);
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

static double samples_median(samples *s)
{
    return s->n == 0 ? NAN : ndpad_median(s->v, (int)s->n);
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
          "                                  1 .. all, powers of two beyond 8)\n"
          "  --ndpad_large                   also the cases of 256 MiB or more of output (env\n"
          "                                  NDPAD_BENCH_LARGE=1)\n",
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
    env = getenv("NDPAD_BENCH_LARGE");
    include_large = env != NULL && strcmp(env, "1") == 0;

    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--ndpad_threads=", 16) == 0) {
            set_thread_counts(a + 16, "--ndpad_threads");
        } else if (strncmp(a, "--ndpad_tuning=", 15) == 0) {
            set_tuning(a + 15, "--ndpad_tuning");
        } else if (strcmp(a, "--ndpad_large") == 0) {
            include_large = true;
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

static void make_problem(const bench_case *bc, bool inplace, ndpad_problem *p, int64_t *out_strides)
{
    const tensors *t = bc->t;
    memset(p, 0, sizeof(*p));
    p->rank = t->rank;
    p->mode = bc->c->mode;
    p->elem_size = t->elem_size;
    p->shape = t->shape;
    p->pads_begin = t->pads_begin;
    p->pads_end = t->pads_end;
    p->pad_value = bc->c->pad_value;
    if (inplace) {
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
    return (size_t)offset * t->elem_size;
}

/* "isa=avx512 tile=129x258 tiles=32 plan_threads=2[ stream][ copy=memcpy][ path=stream]
 * source=heuristic" from ndpad_plan_info(): the plan's choices and where they came from
 * (heuristic, wisdom, measured, forced). */
static void plan_label(const ndpad_plan *plan, char *label, size_t size)
{
    static const char *const sources[] = {"heuristic", "wisdom", "measured", "forced"};
    struct ndpad_plan_info info = {.size = sizeof(info)};
    if (ndpad_plan_info(plan, &info) != NDPAD_OK) {
        snprintf(label, size, "isa=%s", ndpad_isa_name(ndpad_plan_isa(plan)));
        return;
    }
    const bool known = info.tile_source >= 0 && info.tile_source < 4;
    static const char *const copies[] = {"", " copy=memcpy", " copy=movsb"};
    snprintf(label, size, "isa=%s tile=%lldx%lld tiles=%lld plan_threads=%d%s%s%s source=%s",
             ndpad_isa_name((ndpad_isa)info.isa), (long long)info.tile_rows,
             (long long)info.tile_cols, (long long)info.tiles, (int)info.threads,
             info.streaming ? " stream" : "",
             info.interior_copy > 0 && info.interior_copy < 3 ? copies[info.interior_copy] : "",
             info.stream_path ? " path=stream" : "", known ? sources[info.tile_source] : "?");
}

/* Pads conv out of place into the shared output, so that its interior holds the input: the
 * reference for the in-place check (the timing does not depend on the values, and the memcpy
 * neighbours overwrite them). */
static bool inplace_restore(const bench_case *c, char *why, size_t why_size)
{
    ndpad_problem p;
    make_problem(c, false, &p, NULL);
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
    /* scribble the first and last element of every row */
    const size_t row = (size_t)t->out_shape[t->rank - 1] * t->elem_size, rows = t->out_bytes / row;
    for (size_t r = 0; r < rows; r++) {
        memset(t->out + r * row, 0x63, t->elem_size);
        memset(t->out + (r + 1) * row - t->elem_size, 0x63, t->elem_size);
    }
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
        make_problem(c, c->c->inplace, &p, strides);
        ndpad_options o;
        ndpad_options_init(&o);
        o.threads = run->threads;
        o.tuning = plan_tuning;
        if (ndpad_plan_create(&p, &o, &plan) != NDPAD_OK) {
            snprintf(why, sizeof(why), "%s", ndpad_last_error());
            goto fail;
        }
        if (c->c->inplace) {
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
        static const float zero = 0.0f;
        const void *value = c->c->pad_value != NULL ? c->c->pad_value : &zero;
        if (xnn_create_constant_pad_nd_x32(value, 0, &op) != xnn_status_success ||
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
        const double t0 = ndpad_now();
        if (paired) {
            baseline_once(run, src);
            gbench_clobber_memory();
        }
        const double t1 = ndpad_now();
        run_once(run, plan, op, in, src);
        gbench_clobber_memory();
        const double t2 = ndpad_now();
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
    /* the case's target travels with its result (ci/bench-report.py reads it) */
    if (run->what == IMPL_NDPAD && c->c->target_vs_memcpy > 0 &&
        run->threads <= STANDARD_TARGET_MAX_THREADS)
        gbench_set_counter(state, "target_vs_memcpy", c->c->target_vs_memcpy,
                           GBENCH_COUNTER_DEFAULT);
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
    make_problem(c, false, &p, NULL);
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
    gbench_set_counter(state, "target_us", STANDARD_PLAN_TARGET_US, GBENCH_COUNTER_DEFAULT);
    gbench_set_label(state, label);
}

/* ------------------------------------------------------------------------------------- */

/* What XNNPACK's constant_pad_nd_x32 can run: constant fp32 pads out of place, with no
 * crops (its pads are size_t: a negative one would read and write far out of bounds). */
static bool xnnpack_pads(const standard_case *c)
{
    if (c->mode != NDPAD_CONSTANT || c->elem_size != 4 || c->inplace) return false;
    for (int k = 0; k < c->rank; k++)
        if (c->pads_begin[k] < 0 || c->pads_end[k] < 0) return false;
    return true;
}

static bench_run runs[ARRAY_LEN_MAX * 2 * MAX_THREAD_COUNTS + ARRAY_LEN_MAX * MAX_THREAD_COUNTS];
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
                 what == IMPL_NDPAD ? "ndpad" : "xnnpack", c->c->name, ndpad_mode_name(c->c->mode),
                 threads);
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

    cases_from_table();
    gbench_use_real_time(gbench_register("plan/conv", bench_plan_fn, &cases[0]));
    for (size_t g = 0; g < tensor_n; g++) {
        tensors *t = &all_tensors[g];
        for (int i = 0; i < thread_count_n; i++) {
            add(IMPL_MEMCPY, NULL, t, thread_counts[i]);
            for (size_t k = 0; k < case_n; k++)
                if (cases[k].t == t) add(IMPL_NDPAD, &cases[k], t, thread_counts[i]);
            for (size_t k = 0; k < case_n; k++)
                if (have_xnnpack && cases[k].t == t && xnnpack_pads(cases[k].c))
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
    for (size_t g = 0; g < tensor_n; g++) {
        free(all_tensors[g].in);
        free(all_tensors[g].out);
    }
    free(copy_src);
    if (rc == 0 && failures > 0) {
        fprintf(stderr, "ndpad-bench: %d benchmark run%s failed (see the errors above)\n", failures,
                failures == 1 ? "" : "s");
        return 1;
    }
    return rc;
}
