/*
 * ndpad-bench-kernels: one benchmark per entry of src/kernels/kernels.inc (walking the list
 * the library expands once, ndpad_filler_list and ndpad_copy_list), so that every kernel the
 * dispatch table can pick is measured, and each ISA beside the scalar path and its parent.
 *
 *   fill/<op>/e<bytes>/<isa>/run:<n>     one filler call on a run of n elements (n = 1, 3,
 *                                        8, 33, 64, 4096); <op> is broadcast (CONSTANT, EDGE),
 *                                        reverse (REFLECT, SYMMETRIC) or forward (WRAP);
 *                                        "e3-any" is a generic-size entry measured on 3-byte
 *                                        elements
 *   copy/memcpy/<size>                   memcpy, the baseline of the copies
 *   copy/interior-<isa>/<size>           the interior copy kernel (NDPAD_COPY)
 *   copy/stream-<isa>/<size>             the non-temporal interior copy (NDPAD_COPY_NT)
 *                                        for sizes 4KiB, 256KiB, 4MiB and 256MiB
 *   copy/planned-<isa>/<size>            what a plan runs: the streaming copy when the output
 *                                        exceeds the last-level cache hwloc reports, else the
 *                                        ordinary one (the label says which)
 *
 * Counters: bytes_per_second (bytes written), items_per_second (elements, fillers only);
 * vs_scalar on an ISA's filler = the scalar filler's time per call for the same operation,
 * size and run / this one's (the speedup, when the scalar benchmark ran earlier in this
 * process); vs_parent on a level that refines another (isa-levels.inc: avx512vbmi over
 * avx512) = the time of the kernel the parent level runs in that slot / this one's;
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
#include "stopwatch.h"
#include "kernels/kernels.h"
#include "ndpad.h"
#include "topology.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

typedef ndpad_filler_entry filler;
typedef ndpad_copy_entry copier;
#define fillers      ndpad_filler_list
#define copiers      ndpad_copy_list
#define FILLER_COUNT ndpad_filler_list_count
#define COPIER_COUNT ndpad_copy_list_count

/* Each level's parent, from the one list of levels. */
static const ndpad_isa parent_of[] = {
#define NDPAD_ISA_LEVEL(ID, name, PARENT, ...) [NDPAD_ISA_##ID] = NDPAD_ISA_##PARENT,
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
};
enum { ISA_SLOTS = ARRAY_LEN(parent_of) };

static const int64_t run_lengths[] = {1, 3, 8, 33, 64, 4096};
#define GENERIC_ELEM_SIZE 3 /* what a generic-size (elem_bytes 0) entry is measured with */
#define MAX_ELEM_SIZE     16

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

/* Time per call by kernel (its index in the list) and run length, for vs_scalar and
 * vs_parent. */
static double seconds[1024][ARRAY_LEN(run_lengths)];

/* The list index of the kernel `isa` runs for `op` at `elem_size` (its own or inherited),
 * found through the dispatch table: the slot of the first mode of that operation. */
static int dispatched(ndpad_isa isa, ndpad_fill_op op, size_t elem_size)
{
    const ndpad_kernels *k = ndpad_kernels_select(isa, elem_size);
    for (int m = 0; m < NDPAD_MODE_COUNT; m++) {
        if (ndpad_mode_op[m] != op) continue;
        for (size_t i = 0; i < FILLER_COUNT; i++)
            if (fillers[i].fn == k->fill[m]) return (int)i;
    }
    return -1;
}

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
    const void *from =
        f->op == NDPAD_OP_REVERSE ? (const void *)(src + bytes - es) : (const void *)src;
    /* Cheap calls are batched so that the loop's own cost stays out of the time. */
    int64_t batch = (int64_t)(16384 / bytes);
    batch = batch < 1 ? 1 : batch > 256 ? 256 : batch;

    const ndpad_fill_fn fn = f->fn;
    const double t0 = ndpad_now();
    while (gbench_keep_running_batch(state, batch)) {
        for (int64_t b = 0; b < batch; b++) {
            fn(dst, from, n, es);
            gbench_clobber_memory();
        }
    }
    const double per_call = (ndpad_now() - t0) / (double)gbench_iterations(state);

    const int64_t calls = gbench_iterations(state);
    gbench_set_bytes_processed(state, calls * (int64_t)bytes);
    gbench_set_items_processed(state, calls * n);
    const int r = run_index(n), self = (int)(f - fillers);
    if (r >= 0 && self < (int)ARRAY_LEN(seconds)) {
        seconds[self][r] = per_call;
        const int scalar = dispatched(NDPAD_ISA_SCALAR, f->op, es);
        if (f->isa != NDPAD_ISA_SCALAR && scalar >= 0 && seconds[scalar][r] > 0)
            gbench_set_counter(state, "vs_scalar", seconds[scalar][r] / per_call,
                               GBENCH_COUNTER_DEFAULT);
        const ndpad_isa parent = parent_of[f->isa];
        const int inherited = parent != NDPAD_ISA_SCALAR ? dispatched(parent, f->op, es) : -1;
        if (inherited >= 0 && seconds[inherited][r] > 0)
            gbench_set_counter(state, "vs_parent", seconds[inherited][r] / per_call,
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

    const double t0 = ndpad_now();
    while (gbench_keep_running_batch(state, batch)) {
        for (int64_t b = 0; b < batch; b++) {
            if (fn != NULL)
                fn(copy_dst, copy_src, bytes);
            else
                memcpy(copy_dst, copy_src, bytes);
            gbench_clobber_memory();
        }
    }
    const double per_call = (ndpad_now() - t0) / (double)gbench_iterations(state);

    gbench_set_bytes_processed(state, gbench_iterations(state) * (int64_t)bytes);
    if (fn == NULL)
        memcpy_seconds[run->size] = per_call;
    else if (memcpy_seconds[run->size] > 0)
        gbench_set_counter(state, "vs_memcpy", per_call / memcpy_seconds[run->size],
                           GBENCH_COUNTER_DEFAULT);
    gbench_set_label(state, chosen != NULL ? chosen->name : "memcpy");
}

/* ---- registration --------------------------------------------------------------------- */

static copy_run copy_runs[ARRAY_LEN(copy_sizes) * (2 * 64 + 1)];

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
                 : c->nt        ? "stream"
                                : "interior",
                 ndpad_isa_name(c->isa), copy_sizes[size].name);
    gbench_benchmark *b = gbench_register(name, bench_copy, r);
    gbench_use_real_time(b);
    /* 256 MiB calls take tens of milliseconds: a few of them are enough. */
    if (copy_sizes[size].bytes >= ((size_t)64 << 20)) gbench_set_min_time(b, 0.3);
}

int main(int argc, char **argv)
{
    if (FILLER_COUNT > ARRAY_LEN(seconds) || COPIER_COUNT > 64) {
        fprintf(stderr, "ndpad-bench-kernels: the kernel list outgrew this program's tables\n");
        return 1;
    }
    bool usable[ISA_SLOTS] = {false};
    for (int isa = NDPAD_ISA_SCALAR; isa < (int)ISA_SLOTS; isa++)
        usable[isa] = isa_usable((ndpad_isa)isa);
    bool noted[ISA_SLOTS] = {false};

    for (size_t i = 0; i < FILLER_COUNT; i++) {
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
        snprintf(name, sizeof(name), "fill/%s/%s/%s", ndpad_fill_op_names[f->op], size,
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
        for (size_t i = 0; i < COPIER_COUNT; i++) {
            const copier *c = &copiers[i];
            if (!usable[c->isa]) continue;
            /* An ISA whose streaming copy is its ordinary copy is measured once. */
            bool duplicate = false;
            for (size_t j = 0; j < i; j++)
                duplicate |= copiers[j].isa == c->isa && copiers[j].fn == c->fn;
            if (!duplicate) register_copy(c, NULL, s, &count);
        }
        for (size_t i = 0; i < COPIER_COUNT; i++) {
            if (!usable[copiers[i].isa] || copiers[i].nt) continue;
            for (size_t j = 0; j < COPIER_COUNT; j++)
                if (copiers[j].nt && copiers[j].isa == copiers[i].isa)
                    register_copy(&copiers[i], &copiers[j], s, &count);
        }
    }

    static const char *const defaults[] = {"--benchmark_min_time=0.05", NULL};
    const int rc = gbench_run(argc, argv, defaults);
    free(copy_src);
    free(copy_dst);
    return rc;
}
