/*
 * ndpad-bench-kernels: one benchmark per entry of src/kernels/kernels.inc, so that every
 * kernel the dispatch table can pick is measured, and each ISA beside the scalar path.
 *
 *   fill/<mode>/e<bytes>/<isa>/run:<n>   one filler call on a run of n elements (n = 1, 3,
 *                                        8, 64, 4096); "e3-any" is a generic-size entry
 *                                        measured on 3-byte elements
 *   copy/memcpy/<size>                   memcpy, the baseline of the copies
 *   copy/interior-<isa>/<size>           the interior copy kernel (NDPAD_COPY)
 *   copy/stream-<isa>/<size>             the non-temporal interior copy (NDPAD_COPY_STREAM)
 *                                        for sizes 4KiB, 256KiB, 4MiB and 256MiB
 *   copy/planned-<isa>/<size>            what a plan runs: the streaming copy when the output
 *                                        exceeds the last-level cache hwloc reports, else the
 *                                        ordinary one (the label says which)
 *
 * Counters: bytes_per_second (bytes written), items_per_second (elements, fillers only);
 * vs_scalar on an ISA's filler = the scalar filler's time per call for the same mode, size
 * and run / this one's (the speedup, when the scalar benchmark ran earlier in this process);
 * vs_memcpy on a copy = its time / memcpy's at the same size (below 1 = faster than memcpy).
 * ISAs this CPU cannot run (asked through the public API: a plan forced to that ISA) are
 * not registered. Sources and destinations are 64-byte aligned; filler destinations stay in
 * L1, so a filler benchmark measures the kernel, not memory.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gbench_shim.h"
#include "kernels/kernels.h"
#include "ndpad.h"
#include "topology.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

typedef struct filler {
    ndpad_isa isa;
    int mode;
    size_t elem_bytes; /* 0: any size */
    ndpad_fill_fn fn;
    const char *name;
} filler;

typedef struct copier {
    ndpad_isa isa;
    bool stream;
    ndpad_copy_fn fn;
    const char *name;
} copier;

static const filler fillers[] = {
#define NDPAD_FILLER(isa, mode, elem_bytes, function) {isa, mode, elem_bytes, function, #function},
#define NDPAD_COPY(isa, function)
#define NDPAD_COPY_STREAM(isa, function)
#include "kernels/kernels.inc"
#undef NDPAD_FILLER
#undef NDPAD_COPY
#undef NDPAD_COPY_STREAM
};

static const copier copiers[] = {
#define NDPAD_FILLER(isa, mode, elem_bytes, function)
#define NDPAD_COPY(isa, function)        {isa, false, function, #function},
#define NDPAD_COPY_STREAM(isa, function) {isa, true, function, #function},
#include "kernels/kernels.inc"
#undef NDPAD_FILLER
#undef NDPAD_COPY
#undef NDPAD_COPY_STREAM
};

static const char *const mode_names[] = {"constant", "edge", "reflect", "symmetric", "wrap"};
static const int64_t run_lengths[] = {1, 3, 8, 64, 4096};
#define GENERIC_ELEM_SIZE 3 /* what a generic-size (elem_bytes 0) entry is measured with */
#define MAX_ELEM_SIZE     16

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *xmalloc(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes) != 0) {
        fprintf(stderr, "ndpad-bench-kernels: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

/* Whether this CPU runs `isa`, asked the way a user would: a tiny plan forced to it. */
static bool isa_usable(ndpad_isa isa)
{
    const int64_t shape[1] = {4}, pads[1] = {1};
    const ndpad_problem p = {.rank = 1,
                             .mode = NDPAD_EDGE,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pads,
                             .pads_end = pads};
    ndpad_options o;
    ndpad_options_init(&o);
    o.isa = isa;
    ndpad_plan *plan = NULL;
    const bool ok = ndpad_plan_create(&p, &o, &plan) == NDPAD_OK && ndpad_plan_isa(plan) == isa;
    ndpad_plan_destroy(plan);
    return ok;
}

/* ---- fillers -------------------------------------------------------------------------- */

/* Scalar time per call, by mode, size class and run length, for vs_scalar. */
static double scalar_seconds[NDPAD_MODE_COUNT][NDPAD_SIZE_CLASS_COUNT][ARRAY_LEN(run_lengths)];

static int run_index(int64_t n)
{
    for (size_t i = 0; i < ARRAY_LEN(run_lengths); i++)
        if (run_lengths[i] == n) return (int)i;
    return -1;
}

static void bench_filler(gbench_state *state, void *arg)
{
    const filler *f = arg;
    const int64_t n = gbench_range(state, 0);
    const size_t es = f->elem_bytes != 0 ? f->elem_bytes : GENERIC_ELEM_SIZE;
    const size_t bytes = (size_t)n * es;
    /* Source: n distinct elements; reflect and symmetric read backwards from the last. */
    unsigned char *src = xmalloc(bytes + 64), *dst = xmalloc(bytes + 64);
    for (size_t i = 0; i < bytes; i++) src[i] = (unsigned char)(i * 7 + 1);
    memset(dst, 0, bytes);
    const void *from = f->mode == NDPAD_REFLECT || f->mode == NDPAD_SYMMETRIC
                           ? (const void *)(src + bytes - es)
                           : (const void *)src;
    /* Cheap calls are batched so that the loop's own cost stays out of the time. */
    int64_t batch = (int64_t)(16384 / bytes);
    batch = batch < 1 ? 1 : batch > 256 ? 256 : batch;

    const ndpad_fill_fn fn = f->fn;
    const double t0 = now();
    while (gbench_keep_running_batch(state, batch)) {
        for (int64_t b = 0; b < batch; b++) {
            fn(dst, from, n, es);
            gbench_clobber_memory();
        }
    }
    const double per_call = (now() - t0) / (double)gbench_iterations(state);

    const int64_t calls = gbench_iterations(state);
    gbench_set_bytes_processed(state, calls * (int64_t)bytes);
    gbench_set_items_processed(state, calls * n);
    const int cls = f->elem_bytes == 0 ? NDPAD_SIZE_CLASS_COUNT - 1 : ndpad_size_class(es);
    const int r = run_index(n);
    if (r >= 0) {
        if (f->isa == NDPAD_ISA_SCALAR)
            scalar_seconds[f->mode][cls][r] = per_call;
        else if (scalar_seconds[f->mode][cls][r] > 0)
            gbench_set_counter(state, "vs_scalar", scalar_seconds[f->mode][cls][r] / per_call,
                               GBENCH_COUNTER_DEFAULT);
    }
    gbench_set_label(state, f->name);
    free(src);
    free(dst);
}

/* ---- copies --------------------------------------------------------------------------- */

static const struct {
    const char *name;
    size_t bytes;
} copy_sizes[] = {
    {"4KiB", (size_t)4 << 10},
    {"256KiB", (size_t)256 << 10},
    {"4MiB", (size_t)4 << 20},
    {"256MiB", (size_t)256 << 20},
};

static unsigned char *copy_src, *copy_dst; /* 256 MiB each, allocated at first use */
static double memcpy_seconds[ARRAY_LEN(copy_sizes)];

typedef struct copy_run {
    const copier *c;      /* NULL: memcpy */
    const copier *stream; /* non-NULL: planned, c beside this streaming copy */
    int size;
} copy_run;

/* The planner's rule (src/planner.c): stream when the output exceeds the last-level cache. */
static bool plan_streams(size_t bytes)
{
    const size_t llc = ndpad_topology_get()->llc_bytes;
    return llc != 0 && bytes > llc;
}

static void bench_copy(gbench_state *state, void *arg)
{
    const copy_run *run = arg;
    const size_t bytes = copy_sizes[run->size].bytes;
    if (copy_src == NULL) {
        const size_t max = copy_sizes[ARRAY_LEN(copy_sizes) - 1].bytes;
        copy_src = xmalloc(max);
        copy_dst = xmalloc(max);
        memset(copy_src, 0x5a, max); /* fault every page in before timing */
        memset(copy_dst, 0, max);
    }
    int64_t batch = (int64_t)(((size_t)1 << 20) / bytes);
    batch = batch < 1 ? 1 : batch > 256 ? 256 : batch;
    const copier *chosen = run->stream != NULL && plan_streams(bytes) ? run->stream : run->c;
    const ndpad_copy_fn fn = chosen != NULL ? chosen->fn : NULL;

    const double t0 = now();
    while (gbench_keep_running_batch(state, batch)) {
        for (int64_t b = 0; b < batch; b++) {
            if (fn != NULL)
                fn(copy_dst, copy_src, bytes);
            else
                memcpy(copy_dst, copy_src, bytes);
            gbench_clobber_memory();
        }
    }
    const double per_call = (now() - t0) / (double)gbench_iterations(state);

    gbench_set_bytes_processed(state, gbench_iterations(state) * (int64_t)bytes);
    if (fn == NULL)
        memcpy_seconds[run->size] = per_call;
    else if (memcpy_seconds[run->size] > 0)
        gbench_set_counter(state, "vs_memcpy", per_call / memcpy_seconds[run->size],
                           GBENCH_COUNTER_DEFAULT);
    gbench_set_label(state, chosen != NULL ? chosen->name : "memcpy");
}

/* ---- registration --------------------------------------------------------------------- */

static copy_run copy_runs[ARRAY_LEN(copy_sizes) * (2 * ARRAY_LEN(copiers) + 1)];

static void register_copy(const copier *c, const copier *stream, int size, size_t *count)
{
    copy_run *r = &copy_runs[(*count)++];
    *r = (copy_run){c, stream, size};
    char name[160];
    if (c == NULL)
        snprintf(name, sizeof(name), "copy/memcpy/%s", copy_sizes[size].name);
    else
        snprintf(name, sizeof(name), "copy/%s-%s/%s",
                 stream != NULL ? "planned"
                 : c->stream    ? "stream"
                                : "interior",
                 ndpad_isa_name(c->isa), copy_sizes[size].name);
    gbench_benchmark *b = gbench_register(name, bench_copy, r);
    gbench_use_real_time(b);
    /* 256 MiB calls take tens of milliseconds: a few of them are enough. */
    if (copy_sizes[size].bytes >= ((size_t)64 << 20)) gbench_set_min_time(b, 0.3);
}

int main(int argc, char **argv)
{
    bool usable[NDPAD_ISA_NEON + 1] = {false};
    for (int isa = NDPAD_ISA_SCALAR; isa <= NDPAD_ISA_NEON; isa++)
        usable[isa] = isa_usable((ndpad_isa)isa);
    bool noted[NDPAD_ISA_NEON + 1] = {false};

    for (size_t i = 0; i < ARRAY_LEN(fillers); i++) {
        const filler *f = &fillers[i];
        if (!usable[f->isa]) {
            if (!noted[f->isa])
                fprintf(stderr,
                        "ndpad-bench-kernels: this CPU cannot run %s: its kernels "
                        "are not benchmarked\n",
                        ndpad_isa_name(f->isa));
            noted[f->isa] = true;
            continue;
        }
        char name[160], size[32];
        if (f->elem_bytes != 0)
            snprintf(size, sizeof(size), "e%zu", f->elem_bytes);
        else
            snprintf(size, sizeof(size), "e%d-any", GENERIC_ELEM_SIZE);
        snprintf(name, sizeof(name), "fill/%s/%s/%s", mode_names[f->mode], size,
                 ndpad_isa_name(f->isa));
        gbench_benchmark *b = gbench_register(name, bench_filler, (void *)f);
        gbench_use_real_time(b);
        static const char *const arg_names[] = {"run"};
        gbench_set_arg_names(b, arg_names, 1);
        for (size_t r = 0; r < ARRAY_LEN(run_lengths); r++) gbench_add_args(b, &run_lengths[r], 1);
    }

    size_t count = 0;
    for (int s = 0; s < (int)ARRAY_LEN(copy_sizes); s++) {
        register_copy(NULL, NULL, s, &count);
        for (size_t i = 0; i < ARRAY_LEN(copiers); i++) {
            const copier *c = &copiers[i];
            if (!usable[c->isa]) continue;
            /* An ISA whose streaming copy is its ordinary copy is measured once. */
            bool duplicate = false;
            for (size_t j = 0; j < i; j++)
                duplicate |= copiers[j].isa == c->isa && copiers[j].fn == c->fn;
            if (!duplicate) register_copy(c, NULL, s, &count);
        }
        for (size_t i = 0; i < ARRAY_LEN(copiers); i++) {
            if (!usable[copiers[i].isa] || copiers[i].stream) continue;
            for (size_t j = 0; j < ARRAY_LEN(copiers); j++)
                if (copiers[j].stream && copiers[j].isa == copiers[i].isa)
                    register_copy(&copiers[i], &copiers[j], s, &count);
        }
    }

    static const char *const defaults[] = {"--benchmark_min_time=0.05", NULL};
    const int rc = gbench_run(argc, argv, defaults);
    free(copy_src);
    free(copy_dst);
    return rc;
}
