/*
 * test-stream.c — the output-stream path (src/stream-*.c) at its seams: short and odd rows
 * whose 64-byte blocks hold the end of one row, both borders and the start of the next,
 * every mode, element sizes 1..16 (and folded ones), crops, pad rows, outputs starting at
 * every offset of a cache line, and batches split across tiles. Every ISA this machine runs
 * is forced through options.isa, and each result is compared byte for byte with the
 * reference, with guard bytes around the output. The input sits against an inaccessible
 * page (after its end, then before its start), so a read outside it faults.
 * The test fails if the stream path was never taken, or if a stream kernel of the kernel
 * list (every kind, every level this CPU runs) never ran, so it cannot pass vacuously.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ndpad.h"
#include "plan.h"
#include "ref/ndpad-ref.h"
#include "stream-plan.h"
#include "stream/strategy.h"

#define GUARD    64
#define SENTINEL 0xA5

typedef struct rng {
    uint64_t s;
} rng;
static uint64_t next(rng *r)
{
    r->s ^= r->s << 13, r->s ^= r->s >> 7, r->s ^= r->s << 17;
    return r->s;
}
static int64_t pick(rng *r, int64_t lo, int64_t hi) /* [lo, hi] */
{
    return lo + (int64_t)(next(r) % (uint64_t)(hi - lo + 1));
}

/* `bytes` readable bytes that end (or, with at_start, begin) at an inaccessible page. */
typedef struct fenced {
    char *map;
    size_t map_bytes;
    char *data;
} fenced;
static fenced fenced_make(size_t bytes, bool at_start)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t body = (bytes + page - 1) / page * page;
    fenced f;
    f.map_bytes = body + 2 * page;
    f.map = mmap(NULL, f.map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(f.map != MAP_FAILED);
    assert_int_equal(mprotect(f.map, page, PROT_NONE), 0);
    assert_int_equal(mprotect(f.map + page + body, page, PROT_NONE), 0);
    f.data = at_start ? f.map + page : f.map + page + body - bytes;
    return f;
}

static int64_t stream_plans, problems;
/* Plans per entry of the kernel list's stream kernels (ndpad_stream_list). */
static int64_t kernel_plans[64];

/* BLOCKS plans of the modes that read the input, with and without a seam table, and with
 * its second permute (wrap). */
static int64_t seam_plans, blocks_without_seam, far_seam_plans;

/* Plans that hold their rows' list (each also run without it). */
static int64_t listed_plans;

static void count_kernel(const ndpad_stream *stream)
{
    for (size_t k = 0; k < ndpad_stream_list_count && k < 64; k++)
        if (ndpad_stream_list[k].fn == stream->kernel) kernel_plans[k]++;
    if (stream->kind == NDPAD_STREAM_BLOCKS) {
        seam_plans += stream->seam_index != 0;
        blocks_without_seam += stream->seam_index == 0;
        far_seam_plans += stream->seam_far_index != 0;
    }
}

/* The output at `out` inside `alloc` (`span` bytes) is `expected`, and nothing around it
 * was written. */
static void verify(const unsigned char *alloc, size_t span, const unsigned char *out,
                   size_t out_bytes, const unsigned char *expected, const ndpad_problem *p,
                   int32_t isa, size_t shift, int64_t threads, int64_t tile_rows, const char *how)
{
    for (size_t k = 0; k < GUARD + shift; k++)
        if (alloc[k] != SENTINEL)
            fail_msg("isa %d%s: byte %zu before the output written", isa, how, GUARD + shift - k);
    for (size_t k = GUARD + shift + out_bytes; k < span; k++)
        if (alloc[k] != SENTINEL)
            fail_msg("isa %d%s: byte %zu after the output written", isa, how,
                     k - GUARD - shift - out_bytes);
    if (memcmp(out, expected, out_bytes) != 0) {
        char text[512];
        ndpad_ref_format_problem(text, sizeof(text), p);
        size_t k = 0;
        while (out[k] == expected[k]) k++;
        fail_msg("isa %d%s shift %zu threads %lld tile_rows %lld: byte %zu of %zu differs "
                 "(%02x, expected %02x) in %s",
                 isa, how, shift, (long long)threads, (long long)tile_rows, k, out_bytes, out[k],
                 expected[k], text);
    }
}

/* One problem on one ISA, the output at `shift` bytes past a 64-byte boundary. */
static void check(const ndpad_problem *p, int32_t isa, int64_t threads, int64_t tile_rows,
                  size_t shift, bool fence_start, rng *r)
{
    int64_t in_count = 1, out_shape[NDPAD_MAX_RANK], out_count = 1;
    for (int32_t k = 0; k < p->rank; k++) in_count *= p->shape[k];
    assert_int_equal(ndpad_ref_output_shape(p, out_shape), NDPAD_OK);
    for (int32_t k = 0; k < p->rank; k++) out_count *= out_shape[k];
    const size_t in_bytes = (size_t)in_count * p->elem_size;
    const size_t out_bytes = (size_t)out_count * p->elem_size;

    fenced in = fenced_make(in_bytes > 0 ? in_bytes : 1, fence_start);
    for (size_t k = 0; k < in_bytes; k++) in.data[k] = (char)next(r);
    unsigned char *expected = malloc(out_bytes + 1);
    unsigned char *alloc = aligned_alloc(64, (out_bytes + 2 * GUARD + 64 + 63) / 64 * 64);
    assert_non_null(expected);
    assert_non_null(alloc);
    const size_t span = (out_bytes + 2 * GUARD + 64 + 63) / 64 * 64;
    memset(alloc, SENTINEL, span);
    unsigned char *out = alloc + GUARD + shift;
    assert_int_equal(ndpad_ref_pad(p, in.data, expected), NDPAD_OK);

    ndpad_options options;
    ndpad_options_init(&options);
    options.isa = isa;
    options.threads = (int32_t)threads;
    options.tile_rows = tile_rows;
    options.tuning = NDPAD_TUNING_HEURISTIC;
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(p, &options, &plan), NDPAD_OK);
    stream_plans += plan->stream != NULL;
    if (plan->stream != NULL) count_kernel(plan->stream);
    problems++;
    const unsigned long long tiles_before = ndpad_stream_tiles_run;
    assert_int_equal(ndpad_execute(plan, in.data, out), NDPAD_OK);
    /* A plan with a stream must really run through it (not only plan it), and say so. */
    if (plan->stream != NULL && plan->tile.cols >= plan->dim[plan->ndim - 1].n) {
        assert_true(ndpad_stream_tiles_run > tiles_before);
        char text[4096], line[256];
        ndpad_plan_describe(plan, text, sizeof(text));
        snprintf(line, sizeof(line), "output stream: %s", plan->stream->kernel_name);
        if (strstr(text, line) == NULL) fail_msg("describe does not name %s:\n%s", line, text);
    }
    verify(alloc, span, out, out_bytes, expected, p, isa, shift, threads, tile_rows, "");
    /* The same plan with its rows listed per tile by the odometer instead of its list (a
     * one-shot plan from the cache runs so). */
    if (plan->stream != NULL && plan->stream->row_list != 0) {
        listed_plans++;
        ndpad_stream *stream = (ndpad_stream *)plan->stream;
        const int64_t list = stream->row_list;
        stream->row_list = 0;
        memset(alloc, SENTINEL, span);
        assert_int_equal(ndpad_execute(plan, in.data, out), NDPAD_OK);
        stream->row_list = list;
        verify(alloc, span, out, out_bytes, expected, p, isa, shift, threads, tile_rows,
               " (rows listed per tile)");
    }
    /* The same plan with streaming stores asked for (outputs beyond the LLC), where the
     * stream kernel takes the hint itself rather than the executor's rows. */
    if (plan->stream != NULL && !plan->tile.nt && !plan->tile.rows_path) {
        ndpad_plan *streaming = plan;
        streaming->tile.nt = 1;
        memset(alloc, SENTINEL, span);
        assert_int_equal(ndpad_execute(streaming, in.data, out), NDPAD_OK);
        streaming->tile.nt = 0;
        verify(alloc, span, out, out_bytes, expected, p, isa, shift, threads, tile_rows,
               " (streaming stores)");
    }
    ndpad_plan_destroy(plan);
    free(alloc);
    free(expected);
    munmap(in.map, in.map_bytes);
}

/* Every level of the one list. */
static const int32_t isas[] = {
#define NDPAD_ISA_LEVEL(ID, ...) NDPAD_ISA_##ID,
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
};

static bool isa_available(int32_t isa)
{
    ndpad_options options;
    ndpad_options_init(&options);
    options.isa = isa;
    const int64_t shape[1] = {1}, zero[1] = {0};
    const ndpad_problem p = {.rank = 1,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 1,
                             .shape = shape,
                             .pads_begin = zero,
                             .pads_end = zero};
    ndpad_plan *plan = NULL;
    const bool ok = ndpad_plan_create(&p, &options, &plan) == NDPAD_OK;
    ndpad_plan_destroy(plan);
    return ok;
}

/* Random small problems around row seams: rows of 1..40 elements, pads and crops of a few
 * elements on every axis, every mode, element sizes 1, 2, 4, 8, 16 and 3 (folded to 6, 12,
 * ... by a trailing unpadded axis in the non-constant modes). */
static void test_random_seams(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 4, 8, 16, 3};
    rng r = {0x9E3779B97F4A7C15u};
    for (size_t i = 0; i < sizeof(isas) / sizeof(isas[0]); i++) {
        if (!isa_available(isas[i])) continue;
        for (int n = 0; n < 400; n++) {
            int64_t shape[3], begin[3], end[3], interior[3] = {0, 0, 0};
            const int32_t rank = (int32_t)pick(&r, 1, 3);
            const int32_t mode = (int32_t)pick(&r, NDPAD_CONSTANT, NDPAD_WRAP);
            for (int32_t k = 0; k < rank; k++) {
                const bool last = k == rank - 1;
                shape[k] = last ? pick(&r, 1, 40) : pick(&r, 1, 7);
                begin[k] = pick(&r, -2, last ? 9 : 3);
                end[k] = pick(&r, -2, last ? 9 : 3);
                if (rank == 3 && k == 2 && mode != NDPAD_CONSTANT && pick(&r, 0, 1))
                    begin[k] = end[k] = 0, shape[k] = pick(&r, 1, 3); /* folded element */
                if (mode == NDPAD_CONSTANT && !last && pick(&r, 0, 5) == 0) interior[k] = 1;
                /* an empty output or a crop past the input is covered elsewhere */
                if (shape[k] + begin[k] + end[k] < 1) end[k] = 1 - shape[k] - begin[k];
                if (mode != NDPAD_CONSTANT && (begin[k] < -shape[k] + 1 || end[k] < -shape[k] + 1))
                    begin[k] = begin[k] < 0 ? 0 : begin[k], end[k] = end[k] < 0 ? 0 : end[k];
            }
            unsigned char value[16];
            for (int k = 0; k < 16; k++) value[k] = (unsigned char)(0x10 + k);
            const ndpad_problem p = {.rank = rank,
                                     .mode = mode,
                                     .elem_size = sizes[pick(&r, 0, 5)],
                                     .shape = shape,
                                     .pads_begin = begin,
                                     .pads_end = end,
                                     .interior = interior,
                                     .pad_value = value};
            ndpad_ref_verdict verdict;
            if (ndpad_ref_validate(&p, &verdict) != NDPAD_OK) continue;
            const int64_t threads = pick(&r, 1, 2);
            const int64_t tile_rows = pick(&r, 0, 3) == 0 ? pick(&r, 1, 5) : 0;
            check(&p, isas[i], threads, tile_rows, (size_t)pick(&r, 0, 63), pick(&r, 0, 1), &r);
        }
    }
    print_message("%lld of %lld plans took the stream path\n", (long long)stream_plans,
                  (long long)problems);
    /* Vector kernels exist for AVX-512 (constant) and AVX-512 VBMI (the other modes) only and
     * take rows of 512 bytes or more by default; NDPAD_STREAM=always takes any row,
     * =reference covers every level. */
    const char *env = getenv("NDPAD_STREAM");
    if ((env != NULL && strcmp(env, "reference") == 0) ||
        (env != NULL && strcmp(env, "always") == 0 && isa_available(NDPAD_ISA_AVX512)))
        assert_true(stream_plans > problems / 4);
}

/* Fixed shapes the benchmarks time, at every output offset of a cache line: conv-like
 * fp32 rows with one pad element each side, uint8 rows with 16, fp16 NHWC-like rows,
 * a crop on one side with a pad on the other, rows longer than many blocks, and rows short
 * enough for one permutation each. */
static void test_fixed_shapes(void **state)
{
    (void)state;
    rng r = {12345};
    typedef struct {
        size_t es;
        int64_t rows, n, b, e;
    } shape_case;
    static const shape_case cases[] = {
        {4, 9, 30, 1, 1},
        {1, 11, 40, 16, 16},
        {2, 7, 33, 3, 3},
        {4, 6, 20, -3, 5},
        {4, 3, 700, 2, 1},
        {1, 5, 3, 0, 1},
        {8, 4, 9, 4, 4},
        {2, 9, 1, 7, 7},
        {4, 5, 130, 1, 1},
        {1, 4, 600, 16, 16},
        {2, 3, 300, -5, 9},
        /* rows of at most 16 bytes: source rows of 4-byte words, a crop of a longer one
         * (a whole 16-byte load placed inside it), a source of 10 bytes (neither) */
        {4, 9, 2, 1, 1},
        {1, 6, 12, 2, 2},
        {1, 7, 20, -3, -5},
        {2, 5, 5, 1, 1},
        /* fp32 rows of 120 bytes back to back in the input (a 28 x 28 feature map's): the
         * row masks' vpexpandd blocks, every phase of a row against the block grid */
        {4, 17, 28, 1, 1},
        /* borders of 100 bytes over 600-byte rows: beyond one 64-byte window of their source
         * row in the modes that mirror or wrap it (the BLOCKS row declines them) */
        {1, 3, 600, 100, 100},
    };
    for (size_t i = 0; i < sizeof(isas) / sizeof(isas[0]); i++) {
        if (!isa_available(isas[i])) continue;
        for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
            for (int32_t mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++) {
                const shape_case *sc = &cases[c];
                const int64_t shape[2] = {sc->rows, sc->n}, begin[2] = {1, sc->b},
                              end[2] = {1, sc->e};
                const ndpad_problem p = {.rank = 2,
                                         .mode = mode,
                                         .elem_size = sc->es,
                                         .shape = shape,
                                         .pads_begin = begin,
                                         .pads_end = end};
                for (size_t shift = 0; shift < 64; shift += (sc->es == 1 ? 1 : 3))
                    check(&p, isas[i], 1, 0, shift, shift % 2 == 0, &r);
            }
        }
    }
}

/* A plane case: c planes of h x w elements of es bytes, padded on the three axes. */
typedef struct {
    size_t es;
    int64_t c, h, w, begin[3], end[3];
} plane_case;

/* One plane case in `mode` on `isa`, the output at every `step`-th offset of a cache line,
 * on one thread and on two in tiles of a few rows, the input's end or start fenced. */
static void check_plane_case(const plane_case *pc, int32_t mode, int32_t isa, size_t step, rng *r)
{
    const int64_t shape[3] = {pc->c, pc->h, pc->w};
    unsigned char value[8] = {0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6, 0x17, 0x28};
    const ndpad_problem p = {.rank = 3,
                             .mode = mode,
                             .elem_size = pc->es,
                             .shape = shape,
                             .pads_begin = pc->begin,
                             .pads_end = pc->end,
                             .pad_value = mode == NDPAD_CONSTANT ? value : NULL};
    for (size_t shift = 0; shift < 64; shift += step) {
        check(&p, isa, 1, 0, shift, shift % 2 == 0, r);
        check(&p, isa, 2, pick(r, 1, 5), shift, shift % 2 != 0, r);
    }
}

/* CONSTANT planes of a dense input (CNN feature maps of 7 x 7 to 14 x 14 and smaller, in
 * every element size): the PLANES and PLANES_16 kernels' blocks meet rows, pad rows and planes at every
 * phase; batches start inside a plane (tiles of a few rows, two threads) and at every
 * output offset of a cache line, with the input's end or start against a PROT_NONE page. */
static void test_planes(void **state)
{
    (void)state;
    rng r = {777};
    static const plane_case cases[] = {
        {4, 9, 7, 7, {0, 1, 1}, {0, 1, 1}},
        {2, 9, 7, 7, {0, 1, 1}, {0, 1, 1}},
        {1, 21, 7, 7, {0, 1, 1}, {0, 1, 1}},
        {8, 5, 3, 2, {0, 1, 1}, {0, 1, 1}},
        {1, 7, 14, 14, {0, 2, 0}, {0, 0, 3}},
        {2, 6, 5, 9, {1, 0, 2}, {2, 1, 0}},
        {1, 40, 1, 9, {0, 0, 3}, {0, 0, 4}},
        {4, 3, 4, 5, {2, 2, 2}, {2, 2, 2}},
        /* planes of 64 and 256 bytes: every block of a class at one place in its plane */
        {1, 9, 6, 6, {0, 1, 1}, {0, 1, 1}},
        {4, 5, 6, 6, {0, 1, 1}, {0, 1, 1}},
        /* larger planes: 120-byte rows (3.5 KiB), 256-byte rows (8 KiB), 2025 block places */
        {4, 3, 28, 28, {0, 1, 1}, {0, 1, 1}},
        {2, 2, 30, 126, {0, 1, 1}, {0, 1, 1}},
        {1, 3, 43, 43, {0, 1, 1}, {0, 1, 1}},
    };
    for (size_t i = 0; i < sizeof(isas) / sizeof(isas[0]); i++) {
        if (!isa_available(isas[i])) continue;
        for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
            check_plane_case(&cases[c], NDPAD_CONSTANT, isas[i], cases[c].es < 4 ? cases[c].es : 3,
                             &r);
    }
}

/* Edge, reflect, symmetric and wrap planes of a dense input in short rows (the
 * PLANES_PERMUTE kernel where the level has it): blocks meet rows, borders, pad rows and
 * planes at every phase, batches start inside a plane, outputs start at every offset of a
 * cache line, and the input's end or start lies against a PROT_NONE page (the last
 * blocks' windows reach past the input's end). */
static void test_planes_permute(void **state)
{
    (void)state;
    rng r = {4242};
    static const plane_case cases[] = {
        {1, 21, 7, 7, {0, 1, 1}, {0, 1, 1}},
        {2, 9, 7, 7, {0, 1, 1}, {0, 1, 1}},
        {1, 7, 14, 14, {0, 1, 1}, {0, 1, 1}},
        {1, 3, 28, 28, {0, 1, 1}, {0, 1, 1}},
        {2, 6, 5, 9, {0, 2, 3}, {0, 1, 0}},
        {1, 5, 6, 11, {0, 0, 2}, {0, 0, 3}},
        {1, 4, 3, 5, {1, 2, 2}, {2, 1, 3}},
        {2, 40, 1, 9, {0, 0, 3}, {0, 0, 4}},
        /* periods of 64 and 32 planes, three of them and more */
        {1, 200, 3, 5, {0, 1, 1}, {0, 1, 1}},
        {2, 100, 4, 4, {0, 1, 2}, {0, 2, 1}},
        /* 4- and 8-byte elements */
        {4, 9, 7, 7, {0, 1, 1}, {0, 1, 1}},
        {8, 20, 2, 2, {0, 1, 1}, {0, 1, 1}},
        /* blocks whose bytes lie too far apart for one window: not this kernel's */
        {1, 4, 10, 50, {0, 1, 1}, {0, 1, 1}},
    };
    static const int32_t modes[] = {NDPAD_EDGE, NDPAD_REFLECT, NDPAD_SYMMETRIC, NDPAD_WRAP};
    for (size_t i = 0; i < sizeof(isas) / sizeof(isas[0]); i++) {
        if (!isa_available(isas[i])) continue;
        for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
            for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++)
                check_plane_case(&cases[c], modes[m], isas[i], cases[c].es + 4, &r);
        }
    }
}

/* Every row of the strategy table (stream/table.h) that a level this CPU runs has the
 * kernels for was chosen by one of the fixed shapes above (after them: it reads what they
 * planned), so that no row of the table is dead. */
static void test_every_strategy_chosen(void **state)
{
    (void)state;
    for (size_t k = 0; k < ndpad_stream_strategy_count; k++) {
        const ndpad_stream_strategy *s = ndpad_stream_strategies[k];
        bool reachable = false;
        for (size_t i = 0; i < sizeof(isas) / sizeof(isas[0]); i++) {
            if (!isa_available(isas[i])) continue;
            const ndpad_kernels *kernels = ndpad_kernels_select((ndpad_isa)isas[i], 4);
            reachable = reachable ||
                        (kernels->stream[s->kind] != NULL && kernels->stream[s->requires] != NULL);
        }
        const unsigned long long chosen = ndpad_stream_strategy_chosen[k];
        print_message("strategy %s: %llu plans%s\n", s->name, chosen,
                      reachable ? "" : " (no level of this CPU has its kernels)");
        if (reachable && chosen == 0) fail_msg("strategy %s was never chosen", s->name);
    }
}

/* The same with the vector kernel on rows of any length (NDPAD_STREAM=always). */
static void test_vector_kernel_any_row(void **state)
{
    setenv("NDPAD_STREAM", "always", 1);
    stream_plans = listed_plans = problems = 0;
    test_fixed_shapes(state);
    test_random_seams(state);
    unsetenv("NDPAD_STREAM");
}

/* The same with the portable reference kernel on every level without a vector one. */
static void test_reference_kernel(void **state)
{
    setenv("NDPAD_STREAM", "reference", 1);
    stream_plans = listed_plans = problems = 0;
    test_fixed_shapes(state);
    test_random_seams(state);
    unsetenv("NDPAD_STREAM");
}

/* Every stream kernel of the kernel list that this CPU runs was planned and checked above
 * (last: it reads what the others counted). */
static void test_every_stream_kernel_ran(void **state)
{
    (void)state;
    assert_true(ndpad_stream_list_count <= 64);
    for (size_t k = 0; k < ndpad_stream_list_count; k++) {
        const ndpad_stream_entry *e = &ndpad_stream_list[k];
        if (!isa_available(e->isa)) continue;
        print_message("%s: %lld plans\n", e->name, (long long)kernel_plans[k]);
        if (kernel_plans[k] == 0) fail_msg("%s never ran", e->name);
    }
    /* both ways of listing the rows ran */
    print_message("plans holding their row list: %lld of %lld with a stream\n",
                  (long long)listed_plans, (long long)stream_plans);
    assert_true(listed_plans > 0);
    assert_true(listed_plans < stream_plans);
    /* both ways of assembling the seams of rows that read the input ran */
    if (isa_available(NDPAD_ISA_AVX512_VBMI)) {
        print_message("BLOCKS plans: %lld with a seam table (%lld with far borders), %lld "
                      "without\n",
                      (long long)seam_plans, (long long)far_seam_plans,
                      (long long)blocks_without_seam);
        assert_true(seam_plans > 0);
        assert_true(far_seam_plans > 0);
        assert_true(blocks_without_seam > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_shapes),     cmocka_unit_test(test_planes),
        cmocka_unit_test(test_planes_permute),   cmocka_unit_test(test_every_strategy_chosen),
        cmocka_unit_test(test_random_seams),     cmocka_unit_test(test_vector_kernel_any_row),
        cmocka_unit_test(test_reference_kernel), cmocka_unit_test(test_every_stream_kernel_ran),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
