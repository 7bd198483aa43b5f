/*
 * ndpad-bench-kernels: one benchmark per entry of src/kernels/kernels.inc (walking the lists
 * the library expands once: ndpad_filler_list, ndpad_copy_list, ndpad_bits_list and
 * ndpad_stream_list), so that every kernel the dispatch table can pick is measured, and each
 * ISA beside the scalar path and its parent.
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
 *   bits/shift-<isa>/64KiB               a sub-byte funnel shift (NDPAD_BITS_SHIFT) of 64 KiB,
 *                                        shift 3 (every shift runs the same loop)
 *   bits/reverse-<isa>/64KiB             a sub-byte element reversal (NDPAD_BITS_REVERSE) of
 *                                        64 KiB of 4-bit elements
 *   bits/memcpy/64KiB                    memcpy of the same bytes, the baseline of the two
 *   stream/<kind>-<isa>/<problem>        an output-stream kernel (NDPAD_STREAM), timed by
 *                                        executing a one-thread plan forced to that ISA whose
 *                                        planner picked that very kernel (the first problem
 *                                        of a small fixed family that does, found at start)
 *   stream/memcpy/<problem>              memcpy of that plan's output bytes
 *
 * --list prints one line per entry of the kernel lists (fillers, copies, copies_nt, streams,
 * bits) with the benchmark that measures it, and --check-coverage fails naming every entry
 * no benchmark measures (ctest bench-kernels-coverage); neither runs a benchmark.
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
#include "kernels/stream-descriptor.h"
#include "plan.h"
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

/* ---- coverage: which benchmark measures each kernel-list entry -------------------------- */

enum { LIST_FILLERS, LIST_COPIES, LIST_COPIES_NT, LIST_STREAMS, LIST_BITS, LIST_COUNT };
static const char *const list_names[LIST_COUNT] = {"fillers", "copies", "copies_nt", "streams",
                                                   "bits"};
#define MAX_ENTRIES 1024
/* The first benchmark name given to each entry (by its index in its list), or NULL. */
static char *measured_by[LIST_COUNT][MAX_ENTRIES];

static void note(int list, size_t index, const char *benchmark)
{
    if (index < MAX_ENTRIES && measured_by[list][index] == NULL)
        measured_by[list][index] = strdup(benchmark);
}

/* One line per entry of the library's lists; with `check`, only the entries no benchmark
 * measures, and the status says whether there were any. */
static int list_entries(bool check)
{
    int missing = 0;
    for (int l = 0; l < LIST_COUNT; l++) {
        size_t count = 0;
        switch (l) {
        case LIST_FILLERS: count = ndpad_filler_list_count; break;
        case LIST_COPIES:
        case LIST_COPIES_NT: count = ndpad_copy_list_count; break;
        case LIST_STREAMS: count = ndpad_stream_list_count; break;
        default: count = ndpad_bits_list_count; break;
        }
        for (size_t i = 0; i < count; i++) {
            ndpad_isa isa;
            const char *name;
            if (l == LIST_FILLERS) {
                isa = ndpad_filler_list[i].isa, name = ndpad_filler_list[i].name;
            } else if (l == LIST_COPIES || l == LIST_COPIES_NT) {
                if (ndpad_copy_list[i].nt != (l == LIST_COPIES_NT)) continue;
                isa = ndpad_copy_list[i].isa, name = ndpad_copy_list[i].name;
            } else if (l == LIST_STREAMS) {
                isa = ndpad_stream_list[i].isa, name = ndpad_stream_list[i].name;
            } else {
                isa = ndpad_bits_list[i].isa, name = ndpad_bits_list[i].name;
            }
            const char *by = i < MAX_ENTRIES ? measured_by[l][i] : NULL;
            missing += by == NULL;
            if (!check || by == NULL)
                printf("%s %s %s %s\n", list_names[l], ndpad_isa_name(isa), name,
                       by != NULL ? by : "MISSING: no benchmark measures it");
        }
    }
    if (check)
        printf("ndpad-bench-kernels: %d kernel-list entr%s without a benchmark\n", missing,
               missing == 1 ? "y" : "ies");
    return missing != 0;
}

/* ---- sub-byte kernels ----------------------------------------------------------------- */

#define BITS_BYTES ((size_t)64 << 10)
#define BITS_SHIFT 3u
#define BITS_ELEM  4u
static double bits_memcpy_seconds;

static void bench_bits(gbench_state *state, void *arg)
{
    const ndpad_bits_entry *e = arg; /* NULL: memcpy */
    uint8_t *src = xmalloc(BITS_BYTES + 64), *dst = xmalloc(BITS_BYTES + 64);
    for (size_t i = 0; i < BITS_BYTES + 1; i++) src[i] = (uint8_t)(i * 7 + 1);
    memset(dst, 0, BITS_BYTES);
    const double t0 = ndpad_now();
    while (gbench_keep_running_batch(state, 4)) {
        for (int b = 0; b < 4; b++) {
            if (e == NULL)
                memcpy(dst, src, BITS_BYTES);
            else if (e->reverse)
                e->reverse_fn(dst, src, BITS_BYTES, BITS_ELEM);
            else
                e->shift(dst, src, BITS_BYTES, BITS_SHIFT);
            gbench_clobber_memory();
        }
    }
    const double per_call = (ndpad_now() - t0) / (double)gbench_iterations(state);
    gbench_set_bytes_processed(state, gbench_iterations(state) * (int64_t)BITS_BYTES);
    if (e == NULL)
        bits_memcpy_seconds = per_call;
    else if (bits_memcpy_seconds > 0)
        gbench_set_counter(state, "vs_memcpy", per_call / bits_memcpy_seconds,
                           GBENCH_COUNTER_DEFAULT);
    gbench_set_label(state, e != NULL ? e->name : "memcpy");
    free(src);
    free(dst);
}

/* ---- output-stream kernels ------------------------------------------------------------ */

static const char *const stream_kind_names[NDPAD_STREAM_KIND_COUNT] = {
    [NDPAD_STREAM_ROWS] = "rows",
    [NDPAD_STREAM_BLOCKS_CONSTANT] = "blocks-constant",
    [NDPAD_STREAM_BLOCKS] = "blocks",
    [NDPAD_STREAM_SHORT_ROWS] = "short-rows",
    [NDPAD_STREAM_SHORT_ROWS_16] = "short-rows-16",
    [NDPAD_STREAM_PLANES] = "planes",
    [NDPAD_STREAM_PLANES_16] = "planes-16",
    [NDPAD_STREAM_SHORT_ROWS_128] = "short-rows-128",
    [NDPAD_STREAM_PLANES_PERMUTE] = "planes-permute",
};

/* A problem the planner sends down the stream path: 3-d, [outer, h, w] padded by ph on the
 * middle axis and pw on the last, in one of the five modes; NDPAD_STREAM=always or not. */
typedef struct stream_case {
    int mode;
    size_t elem_size;
    int64_t h, w, ph, pw;
    bool always;
    int64_t shape[3], pads[3];
    ndpad_problem problem;
    ndpad_plan *plan;
    size_t in_bytes, out_bytes;
    char name[96];
    size_t baseline; /* the first case of the same name: its memcpy time is this one's */
} stream_case;

static stream_case stream_cases[64];
static size_t stream_case_count;
static double stream_memcpy_seconds[64];

static ndpad_plan *stream_plan(stream_case *c, ndpad_isa isa)
{
    const int64_t target = (int64_t)1 << 20; /* output bytes: about 1 MiB, past L2 */
    const int64_t row_out = (c->w + 2 * c->pw) * (int64_t)c->elem_size;
    const int64_t plane_out = row_out * (c->h + 2 * c->ph);
    c->shape[0] = target / plane_out < 1 ? 1 : target / plane_out;
    c->shape[1] = c->h, c->shape[2] = c->w;
    c->pads[0] = 0, c->pads[1] = c->ph, c->pads[2] = c->pw;
    c->problem = (ndpad_problem){.rank = 3,
                                 .mode = c->mode,
                                 .elem_size = c->elem_size,
                                 .shape = c->shape,
                                 .pads_begin = c->pads,
                                 .pads_end = c->pads};
    c->in_bytes = (size_t)(c->shape[0] * c->h * c->w) * c->elem_size;
    c->out_bytes = (size_t)(c->shape[0] * plane_out);
    ndpad_options o;
    ndpad_options_init(&o);
    o.isa = isa;
    o.threads = 1;
    o.tuning = NDPAD_TUNING_HEURISTIC; /* the same plan whatever wisdom this machine holds */
    const char *old = getenv("NDPAD_STREAM");
    char *saved = old != NULL ? strdup(old) : NULL;
    if (c->always)
        setenv("NDPAD_STREAM", "always", 1);
    else
        unsetenv("NDPAD_STREAM");
    ndpad_plan *plan = NULL;
    if (ndpad_plan_create(&c->problem, &o, &plan) != NDPAD_OK) plan = NULL;
    if (saved != NULL)
        setenv("NDPAD_STREAM", saved, 1);
    else
        unsetenv("NDPAD_STREAM");
    free(saved);
    return plan;
}

/* The first problem of the family whose plan on `e`'s level runs `e`, or NULL. */
static stream_case *find_stream_case(const ndpad_stream_entry *e)
{
    static const size_t sizes[] = {1, 2, 4, 8};
    static const int64_t dims[][4] = {
        /* h, w, ph, pw */
        {64, 512, 1, 1}, {64, 100, 2, 3}, {16, 20, 1, 2}, {4, 6, 1, 1},
        {8, 12, 2, 2},   {2, 3, 1, 1},    {64, 40, 1, 1}, {32, 24, 3, 5},
    };
    for (int always = 0; always < 2; always++)
        for (size_t d = 0; d < ARRAY_LEN(dims); d++)
            for (size_t s = 0; s < ARRAY_LEN(sizes); s++)
                for (int mode = 0; mode < NDPAD_MODE_COUNT; mode++) {
                    if (stream_case_count == ARRAY_LEN(stream_cases)) return NULL;
                    stream_case *c = &stream_cases[stream_case_count];
                    *c = (stream_case){.mode = mode,
                                       .elem_size = sizes[s],
                                       .h = dims[d][0],
                                       .w = dims[d][1],
                                       .ph = dims[d][2],
                                       .pw = dims[d][3],
                                       .always = always != 0};
                    ndpad_plan *plan = stream_plan(c, e->isa);
                    if (plan != NULL && plan->stream != NULL && plan->stream->kernel == e->fn) {
                        c->plan = plan;
                        snprintf(c->name, sizeof(c->name), "%s-e%zu-%lldx%lld-pad%lld,%lld%s",
                                 ndpad_mode_name(mode), c->elem_size, (long long)c->h,
                                 (long long)c->w, (long long)c->ph, (long long)c->pw,
                                 c->always ? "-always" : "");
                        stream_case_count++;
                        return c;
                    }
                    ndpad_plan_destroy(plan);
                }
    return NULL;
}

typedef struct stream_run {
    const ndpad_stream_entry *e; /* NULL: memcpy of the output bytes */
    stream_case *c;
} stream_run;
static stream_run stream_runs[128];

static void bench_stream(gbench_state *state, void *arg)
{
    const stream_run *run = arg;
    stream_case *c = run->c;
    /* the input, or for memcpy a source of the output's size */
    const size_t in_bytes = run->e != NULL ? c->in_bytes : c->out_bytes;
    char *in = xmalloc(in_bytes + 64), *out = xmalloc(c->out_bytes + 64);
    for (size_t i = 0; i < in_bytes; i++) in[i] = (char)(i * 7 + 1);
    memset(out, 0, c->out_bytes);
    const size_t index = c->baseline;
    bool failed = false;
    const double t0 = ndpad_now();
    while (gbench_keep_running(state)) {
        if (run->e == NULL)
            memcpy(out, in, c->out_bytes);
        else
            failed |= ndpad_execute(c->plan, in, out) != NDPAD_OK;
        gbench_clobber_memory();
    }
    const double per_call = (ndpad_now() - t0) / (double)gbench_iterations(state);
    if (failed) gbench_skip_with_error(state, ndpad_last_error());
    gbench_set_bytes_processed(state, gbench_iterations(state) * (int64_t)c->out_bytes);
    if (run->e == NULL)
        stream_memcpy_seconds[index] = per_call;
    else if (stream_memcpy_seconds[index] > 0)
        gbench_set_counter(state, "vs_memcpy", per_call / stream_memcpy_seconds[index],
                           GBENCH_COUNTER_DEFAULT);
    gbench_set_label(state, run->e != NULL ? run->e->name : "memcpy");
    free(in);
    free(out);
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
    if (c != NULL && stream == NULL) note(c->nt ? LIST_COPIES_NT : LIST_COPIES, c - copiers, name);
    gbench_benchmark *b = gbench_register(name, bench_copy, r);
    gbench_use_real_time(b);
    /* 256 MiB calls take tens of milliseconds: a few of them are enough. */
    if (copy_sizes[size].bytes >= ((size_t)64 << 20)) gbench_set_min_time(b, 0.3);
}

/* Copies, the sub-byte and the stream kernels of a level this CPU cannot run are noted, not
 * registered: --list names them as skipped. */
static void note_skipped(int list, size_t index, ndpad_isa isa)
{
    char why[96];
    snprintf(why, sizeof(why), "(skipped: this CPU cannot run %s)", ndpad_isa_name(isa));
    note(list, index, why);
}

/* The sub-byte and stream benchmarks are short: 25 of them, a few seconds in all. */
#define STREAM_MIN_TIME 0.02
#define BITS_MIN_TIME   0.02

static void register_bits(const bool *usable)
{
    gbench_benchmark *b = gbench_register("bits/memcpy/64KiB", bench_bits, NULL);
    gbench_use_real_time(b);
    gbench_set_min_time(b, BITS_MIN_TIME);
    for (size_t i = 0; i < ndpad_bits_list_count; i++) {
        const ndpad_bits_entry *e = &ndpad_bits_list[i];
        if (!usable[e->isa]) {
            note_skipped(LIST_BITS, i, e->isa);
            continue;
        }
        char name[160];
        snprintf(name, sizeof(name), "bits/%s-%s/64KiB", e->reverse ? "reverse" : "shift",
                 ndpad_isa_name(e->isa));
        note(LIST_BITS, i, name);
        b = gbench_register(name, bench_bits, (void *)e);
        gbench_use_real_time(b);
        gbench_set_min_time(b, BITS_MIN_TIME);
    }
}

static void register_streams(const bool *usable)
{
    size_t runs = 0;
    for (size_t i = 0; i < ndpad_stream_list_count && runs + 2 <= ARRAY_LEN(stream_runs); i++) {
        const ndpad_stream_entry *e = &ndpad_stream_list[i];
        if (!usable[e->isa]) {
            note_skipped(LIST_STREAMS, i, e->isa);
            continue;
        }
        stream_case *c = find_stream_case(e);
        if (c == NULL) {
            fprintf(stderr,
                    "ndpad-bench-kernels: no problem of the family selects %s: not "
                    "benchmarked\n",
                    e->name);
            continue;
        }
        c->baseline = (size_t)(c - stream_cases);
        for (size_t k = 0; k < c->baseline; k++)
            if (strcmp(stream_cases[k].name, c->name) == 0) {
                c->baseline = k;
                break;
            }
        char name[200];
        gbench_benchmark *b;
        if (c->baseline == (size_t)(c - stream_cases)) { /* memcpy of that output, once */
            snprintf(name, sizeof(name), "stream/memcpy/%s", c->name);
            stream_runs[runs] = (stream_run){NULL, c};
            b = gbench_register(name, bench_stream, &stream_runs[runs++]);
            gbench_use_real_time(b);
            gbench_set_min_time(b, STREAM_MIN_TIME);
        }
        snprintf(name, sizeof(name), "stream/%s-%s/%s", stream_kind_names[e->kind],
                 ndpad_isa_name(e->isa), c->name);
        note(LIST_STREAMS, i, name);
        stream_runs[runs] = (stream_run){e, c};
        b = gbench_register(name, bench_stream, &stream_runs[runs++]);
        gbench_use_real_time(b);
        gbench_set_min_time(b, STREAM_MIN_TIME);
    }
}

int main(int argc, char **argv)
{
    bool list = false, check = false;
    for (int k = 1; k < argc; k++) {
        list |= strcmp(argv[k], "--list") == 0;
        check |= strcmp(argv[k], "--check-coverage") == 0;
    }
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
            note_skipped(LIST_FILLERS, i, f->isa);
            continue;
        }
        char name[160], size[32];
        if (f->elem_bytes != 0)
            snprintf(size, sizeof(size), "e%zu", f->elem_bytes);
        else
            snprintf(size, sizeof(size), "e%d-any", GENERIC_ELEM_SIZE);
        snprintf(name, sizeof(name), "fill/%s/%s/%s", ndpad_fill_op_names[f->op], size,
                 ndpad_isa_name(f->isa));
        note(LIST_FILLERS, i, name);
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
            if (!usable[c->isa]) {
                note_skipped(c->nt ? LIST_COPIES_NT : LIST_COPIES, i, c->isa);
                continue;
            }
            /* An ISA whose streaming copy is its ordinary copy is measured once. */
            size_t same = i;
            for (size_t j = 0; j < i && same == i; j++)
                if (copiers[j].isa == c->isa && copiers[j].fn == c->fn) same = j;
            if (same == i)
                register_copy(c, NULL, s, &count);
            else if (same < MAX_ENTRIES) {
                const char *by = measured_by[copiers[same].nt ? LIST_COPIES_NT : LIST_COPIES][same];
                if (by != NULL) note(c->nt ? LIST_COPIES_NT : LIST_COPIES, i, by);
            }
        }
        for (size_t i = 0; i < COPIER_COUNT; i++) {
            if (!usable[copiers[i].isa] || copiers[i].nt) continue;
            for (size_t j = 0; j < COPIER_COUNT; j++)
                if (copiers[j].nt && copiers[j].isa == copiers[i].isa)
                    register_copy(&copiers[i], &copiers[j], s, &count);
        }
    }

    register_bits(usable);
    register_streams(usable);
    if (list || check) {
        const int rc = list_entries(check);
        for (size_t k = 0; k < stream_case_count; k++) ndpad_plan_destroy(stream_cases[k].plan);
        return rc;
    }

    static const char *const defaults[] = {"--benchmark_min_time=0.05", NULL};
    const int rc = gbench_run(argc, argv, defaults);
    free(copy_src);
    free(copy_dst);
    for (size_t k = 0; k < stream_case_count; k++) ndpad_plan_destroy(stream_cases[k].plan);
    return rc;
}
