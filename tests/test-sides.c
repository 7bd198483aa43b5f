/*
 * test-sides.c — constants per axis and side (ndpad_pad_sides, ndpad_plan_create_sides) and
 * per output index along one axis (ndpad_pad_per_index, ndpad_plan_create_per_index)
 * against the naive reference (tests/ref: ndpad_ref_pad_constants, numpy.pad's rule for the
 * sides: the last axis whose padding holds an element gives its value): the header
 * examples, random problems (ranks 1-5, element sizes 1-16, crops, interior padding per
 * index, random values with repeats, dense, strided and transposed outputs, in place, 1 and
 * 2 threads)
 * with guard bytes, one-shot and plan forms, and the hostile arguments. Registered per ISA,
 * so every level's fillers run it (NDPAD_ISA).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ndpad.h"
#include "test-checks.h"

static void header_example(void **state)
{
    (void)state;
    const int64_t shape[2] = {2, 2}, pb[2] = {1, 1}, pe[2] = {1, 1};
    const int32_t in[4] = {1, 2, 3, 4}, sides[4] = {7, 8, 5, 6};
    const int32_t want[16] = {5, 7, 7, 6, 5, 1, 2, 6, 5, 3, 4, 6, 5, 8, 8, 6};
    int32_t out[16];
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe};
    assert_int_equal(ndpad_pad_sides(&p, sides, NULL, in, out), NDPAD_OK);
    assert_memory_equal(out, want, sizeof want);
    /* again with other values: nothing of the first call may be reused */
    const int32_t other[4] = {70, 80, 50, 60};
    assert_int_equal(ndpad_pad_sides(&p, other, NULL, in, out), NDPAD_OK);
    for (int i = 0; i < 16; i++) assert_int_equal(out[i], want[i] < 5 ? want[i] : 10 * want[i]);
    assert_int_equal(ndpad_pad_sides(&p, sides, NULL, in, out), NDPAD_OK);
    assert_memory_equal(out, want, sizeof want);
    /* the plan form, which copies the values */
    int32_t mutable_sides[4] = {7, 8, 5, 6};
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create_sides(&p, mutable_sides, NULL, &plan), NDPAD_OK);
    mutable_sides[0] = -1;
    memset(out, 0, sizeof out);
    assert_int_equal(ndpad_execute(plan, in, out), NDPAD_OK);
    assert_memory_equal(out, want, sizeof want);
    ndpad_plan_destroy(plan);
    /* NULL side values: the problem's pad value everywhere */
    const int32_t nine = 9;
    ndpad_problem q = p;
    q.pad_value = &nine;
    assert_int_equal(ndpad_pad_sides(&q, NULL, NULL, in, out), NDPAD_OK);
    assert_int_equal(out[0], 9);
    assert_int_equal(out[5], 1);
    assert_int_equal(out[15], 9);
}

/* The header's per-index example (NCHW, per channel) and its NHWC twin. */
static void per_index_example(void **state)
{
    (void)state;
    const int64_t nchw[4] = {1, 3, 2, 2}, nchw_p[4] = {0, 0, 1, 1};
    const int64_t nhwc[4] = {1, 2, 2, 3}, nhwc_p[4] = {0, 1, 1, 0};
    const float mean[3] = {0.5f, 0.25f, 0.125f};
    float in[12], out[48];
    for (int i = 0; i < 12; i++) in[i] = (float)(i + 1);
    ndpad_problem p = {.rank = 4,
                       .mode = NDPAD_CONSTANT,
                       .elem_size = 4,
                       .shape = nchw,
                       .pads_begin = nchw_p,
                       .pads_end = nchw_p};
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create_per_index(&p, 1, mean, NULL, &plan), NDPAD_OK);
    assert_int_equal(ndpad_execute(plan, in, out), NDPAD_OK);
    ndpad_plan_destroy(plan);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 4; x++) {
                const bool border = y == 0 || y == 3 || x == 0 || x == 3;
                const float want = border ? mean[c] : in[c * 4 + (y - 1) * 2 + (x - 1)];
                assert_true(out[c * 16 + y * 4 + x] == want);
            }
    p.shape = nhwc, p.pads_begin = nhwc_p, p.pads_end = nhwc_p;
    assert_int_equal(ndpad_pad_per_index(&p, 3, mean, NULL, in, out), NDPAD_OK);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            for (int c = 0; c < 3; c++) {
                const bool border = y == 0 || y == 3 || x == 0 || x == 3;
                const float want = border ? mean[c] : in[((y - 1) * 2 + (x - 1)) * 3 + c];
                assert_true(out[(y * 4 + x) * 3 + c] == want);
            }
}

/* One run of a problem with constants of `kind` through ndpad (one-shot or plan) into `out`
 * (filled with `before`), checked byte for byte against the reference's `expected` over
 * the whole buffer (a strided output's gaps must stay as they were) and its guard bytes. */
static void run_and_check(const char *what, uint64_t index, const ndpad_problem *p, int32_t kind,
                          int32_t axis, const void *values, const ndpad_options *options,
                          bool planned, const void *in, test_out *out, const void *expected,
                          size_t bytes)
{
    ndpad_status st;
    if (planned) {
        ndpad_plan *plan = NULL;
        st = kind == NDPAD_REF_PER_SIDE
                 ? ndpad_plan_create_sides(p, values, options, &plan)
                 : ndpad_plan_create_per_index(p, axis, values, options, &plan);
        if (st == NDPAD_OK) st = ndpad_execute(plan, in, out->body);
        ndpad_plan_destroy(plan);
    } else {
        st = kind == NDPAD_REF_PER_SIDE
                 ? ndpad_pad_sides(p, values, options, in, out->body)
                 : ndpad_pad_per_index(p, axis, values, options, in, out->body);
    }
    if (st != NDPAD_OK) {
        ndpad_ref_print_problem(stderr, p);
        fail_msg("%s %llu: %s (%s)", what, (unsigned long long)index, ndpad_status_string(st),
                 ndpad_last_error());
    }
    const ptrdiff_t at = test_first_difference(expected, out->body, bytes);
    if (at >= 0) {
        ndpad_ref_print_problem(stderr, p);
        fprintf(stderr, "kind %d axis %d %s\n", (int)kind, (int)axis,
                planned ? "plan" : "one-shot");
        test_print_difference(stderr, expected, out->body, bytes, 0);
        fail_msg("%s %llu: first difference at byte %td", what, (unsigned long long)index, at);
    }
    if (!test_all_bytes_are(out->alloc, TEST_GUARD, TEST_SENTINEL) ||
        !test_all_bytes_are(out->body + bytes, TEST_GUARD, TEST_SENTINEL))
        fail_msg("%s %llu: a guard byte changed", what, (unsigned long long)index);
}

/* One random problem with constants of `kind`: the output strided (a gap of 3 elements after
 * every row) or in place sometimes; per index also with interior padding. */
static void check_random(uint64_t index, int32_t kind)
{
    static const size_t sizes[] = {1, 2, 3, 4, 8, 16};
    test_rng r = test_rng_make(kind == NDPAD_REF_PER_SIDE ? 0x53494445ull : 0x494e4458ull, index);
    const int32_t rank = (int32_t)test_rng_range(&r, 1, 5);
    const size_t es = sizes[test_rng_range(&r, 0, 5)];
    int64_t shape[5], pb[5], pe[5], interior[5], out_shape[5], in_strides[5], out_strides[5];
    const bool in_place = test_rng_chance(&r, 1, 6);
    const bool strided = !in_place && test_rng_chance(&r, 1, 3);
    const bool dilated = kind == NDPAD_REF_PER_INDEX && !in_place && test_rng_chance(&r, 1, 4);
    for (int32_t k = 0; k < rank; k++) {
        shape[k] = test_rng_chance(&r, 1, 30) ? 0 : test_rng_range(&r, 1, rank > 3 ? 6 : 40);
        interior[k] = dilated ? test_rng_range(&r, 0, 2) : 0;
        const int64_t span = shape[k] == 0 ? 0 : (shape[k] - 1) * (interior[k] + 1) + 1;
        const bool crop = !in_place && test_rng_chance(&r, 1, 5);
        pb[k] = crop ? -test_rng_range(&r, 0, span + 2) : test_rng_range(&r, 0, 5);
        pe[k] = !in_place && test_rng_chance(&r, 1, 5) ? -test_rng_range(&r, 0, span + 2)
                                                       : test_rng_range(&r, 0, 5);
        /* sometimes an axis of one element, or an unpadded one (they merge) */
        if (!crop && test_rng_chance(&r, 1, 6)) pb[k] = pe[k] = 0;
        out_shape[k] = pb[k] + span + pe[k];
        if (out_shape[k] < 0) out_shape[k] = 0;
    }
    const int32_t axis = (int32_t)test_rng_range(&r, 0, rank - 1);
    /* output strides: row-major, or in a random axis order (a transposed output) */
    int32_t order[5];
    for (int32_t k = 0; k < rank; k++) order[k] = k;
    if (!in_place && test_rng_chance(&r, 1, 3))
        for (int32_t k = rank - 1; k > 0; k--) {
            const int32_t m = (int32_t)test_rng_range(&r, 0, k), t = order[k];
            order[k] = order[m], order[m] = t;
        }
    int64_t span = 1;
    for (int32_t i = rank - 1; i >= 0; i--) {
        const int32_t k = order[i];
        out_strides[k] = span;
        span *= out_shape[k] + (strided && i == rank - 1 ? 3 : 0);
    }
    const int64_t out_count = test_count(rank, out_shape);
    const size_t out_bytes = (size_t)(out_count == 0 ? 0 : span) * es;
    const int64_t in_count = test_count(rank, shape);
    unsigned char *in = NULL, *in_buf = NULL;
    test_out out = test_out_make(out_bytes);
    test_rng_bytes(&r, out.body, out_bytes);
    if (in_place) {
        int64_t offset = 0;
        for (int32_t k = 0; k < rank; k++) {
            in_strides[k] = out_strides[k];
            offset += pb[k] * out_strides[k];
        }
        in = out.body + offset * (int64_t)es;
    } else {
        int64_t s = 1;
        for (int32_t k = rank - 1; k >= 0; k--) in_strides[k] = s, s *= shape[k];
        in = in_buf = test_xmalloc((size_t)in_count * es + 1);
        test_rng_bytes(&r, in, (size_t)in_count * es);
    }
    /* values: few distinct ones, repeated */
    const int64_t count = kind == NDPAD_REF_PER_SIDE ? 2 * rank : out_shape[axis];
    unsigned char palette[5][16];
    test_rng_bytes(&r, palette, sizeof palette);
    unsigned char *values = test_xmalloc((size_t)(count > 0 ? count : 1) * es);
    for (int64_t i = 0; i < count; i++)
        memcpy(values + (size_t)i * es, palette[test_rng_range(&r, 0, 4)], es);

    unsigned char *before = test_xmalloc(out_bytes + 1), *expected = test_xmalloc(out_bytes + 1);
    memcpy(before, out.body, out_bytes);
    memcpy(expected, out.body, out_bytes);
    ndpad_problem p = {.rank = rank,
                       .mode = NDPAD_CONSTANT,
                       .elem_size = es,
                       .shape = shape,
                       .pads_begin = pb,
                       .pads_end = pe,
                       .interior = dilated ? interior : NULL,
                       .in_strides = in_strides,
                       .out_strides = out_strides};
    assert_int_equal(ndpad_ref_pad_constants(&p, kind, axis, values, in, expected), NDPAD_OK);
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = (int32_t)test_rng_range(&r, 1, 2);
    const ndpad_options *use = test_rng_chance(&r, 1, 2) ? &options : NULL;
    /* one-shot, then the plan form over the same (now padded) buffer: in place, the input
     * is still where it was */
    const char *what = kind == NDPAD_REF_PER_SIDE ? "per side" : "per index";
    run_and_check(what, index, &p, kind, axis, values, use, false, in, &out, expected, out_bytes);
    /* again: with default options a small output's plan now comes from the plan cache */
    if (!in_place) memcpy(out.body, before, out_bytes);
    run_and_check(what, index, &p, kind, axis, values, use, false, in, &out, expected, out_bytes);
    if (!in_place) memcpy(out.body, before, out_bytes);
    run_and_check(what, index, &p, kind, axis, values, use, true, in, &out, expected, out_bytes);
    free(values);
    free(before);
    free(expected);
    free(in_buf);
    test_out_free(&out);
}

static void random_sides_vs_reference(void **state)
{
    (void)state;
    for (uint64_t index = 0; index < 3000; index++) check_random(index, NDPAD_REF_PER_SIDE);
}

static void random_per_index_vs_reference(void **state)
{
    (void)state;
    for (uint64_t index = 0; index < 3000; index++) check_random(index, NDPAD_REF_PER_INDEX);
}

/* A dense rank-4 CONSTANT problem (the constants come with the call). */
static ndpad_problem constant_4d(size_t es, const int64_t *shape, const int64_t *pb,
                                 const int64_t *pe)
{
    return (ndpad_problem){.rank = 4,
                           .mode = NDPAD_CONSTANT,
                           .elem_size = es,
                           .shape = shape,
                           .pads_begin = pb,
                           .pads_end = pe};
}

/* Bigger outputs, so that threads and column tiles run: 1x8x70x90 (NCHW-like) and
 * 1x70x90x3 (NHWC-like), pad 0..3 on the last three axes, both kinds, every axis. */
static void larger_problems_vs_reference(void **state)
{
    (void)state;
    for (uint64_t index = 0; index < 16; index++) {
        test_rng r = test_rng_make(0x4c415247ull, index);
        const size_t es = index % 2 ? 4 : 1;
        const int32_t kind = index % 4 < 2 ? NDPAD_REF_PER_SIDE : NDPAD_REF_PER_INDEX;
        const int64_t nchw[4] = {1, 8, 70 + (int64_t)index, 90};
        const int64_t nhwc[4] = {1, 70 + (int64_t)index, 90, 3};
        const int64_t *shape = index % 8 < 4 ? nchw : nhwc;
        int64_t pb[4] = {0}, pe[4] = {0}, out_shape[4];
        for (int k = 1; k < 4; k++) {
            pb[k] = test_rng_range(&r, 0, 3);
            pe[k] = test_rng_range(&r, 0, 3);
        }
        if (shape == nhwc && test_rng_chance(&r, 1, 2)) pb[3] = pe[3] = 0;
        int64_t si = 1, so = 1;
        for (int k = 3; k >= 0; k--) {
            out_shape[k] = pb[k] + shape[k] + pe[k];
            si *= shape[k], so *= out_shape[k];
        }
        const int32_t axis = (int32_t)(index / 2 % 4);
        const int64_t count = kind == NDPAD_REF_PER_SIDE ? 8 : out_shape[axis];
        unsigned char *values = test_xmalloc((size_t)count * es);
        test_rng_bytes(&r, values, (size_t)count * es);
        unsigned char *in = test_xmalloc((size_t)si * es);
        test_rng_bytes(&r, in, (size_t)si * es);
        test_out out = test_out_make((size_t)so * es);
        unsigned char *expected = test_xmalloc((size_t)so * es);
        const ndpad_problem p = constant_4d(es, shape, pb, pe);
        assert_int_equal(ndpad_ref_pad_constants(&p, kind, axis, values, in, expected), NDPAD_OK);
        ndpad_options two;
        ndpad_options_init(&two);
        two.threads = 2;
        two.tile_cols = index % 3 == 0 ? 50 : 0; /* column tiles sometimes */
        for (int planned = 0; planned < 2; planned++)
            run_and_check("larger", index, &p, kind, axis, values, planned ? &two : NULL,
                          planned != 0, in, &out, expected, (size_t)so * es);
        free(values);
        free(expected);
        free(in);
        test_out_free(&out);
    }
}

/* One problem of long rows (512 bytes or more: the BLOCKS_CONSTANT kernel on AVX-512, which
 * writes constants per index along the row, and per side those of input rows, from its row
 * pattern) into an output `shift` bytes past a 64-byte boundary, guarded, one-shot and
 * planned. */
static void check_long_rows(uint64_t index, const ndpad_problem *p, int32_t kind, int32_t axis,
                            const void *values, int32_t threads, size_t shift)
{
    int64_t si = 1, so = 1;
    for (int32_t k = 0; k < p->rank; k++) {
        si *= p->shape[k];
        so *= p->pads_begin[k] + p->shape[k] + p->pads_end[k];
    }
    const size_t es = p->elem_size, bytes = (size_t)so * es;
    test_rng r = test_rng_make(0x524f5750ull, index);
    unsigned char *in = test_xmalloc((size_t)si * es + 1);
    test_rng_bytes(&r, in, (size_t)si * es);
    unsigned char *expected = test_xmalloc(bytes);
    memset(expected, TEST_SENTINEL, bytes);
    assert_int_equal(ndpad_ref_pad_constants(p, kind, axis, values, in, expected), NDPAD_OK);
    unsigned char *alloc = test_xmalloc(bytes + 2 * TEST_GUARD + 128);
    unsigned char *body =
        (unsigned char *)(((uintptr_t)alloc + TEST_GUARD + 63) & ~(uintptr_t)63) + shift;
    test_out view = {.alloc = body - TEST_GUARD, .body = body, .size = bytes};
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = threads;
    for (int planned = 0; planned < 2; planned++) {
        memset(alloc, TEST_SENTINEL, bytes + 2 * TEST_GUARD + 128);
        run_and_check(kind == NDPAD_REF_PER_SIDE ? "long rows per side" : "long rows", index, p,
                      kind, axis, values, planned ? &options : NULL, planned != 0, in, &view,
                      expected, bytes);
    }
    free(alloc);
    free(expected);
    free(in);
}

/* Constants per index along the row on rows of 512 bytes to a few KiB: NHWC-like shapes per
 * channel (a period of a few elements) and per column (a period of the whole row), every
 * element size the kernel takes and 12 (which it does not), crops, pad rows, outputs at
 * every offset from a 64-byte boundary, one and two threads; and two outputs large enough
 * for streaming stores. Then NCHW-like shapes per index along C or N (a value for each run
 * of rows: the stream kernel a call per run). Each problem also with constants per side. */
static void long_rows_per_index_along_the_row(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 4, 8, 16, 12};
    for (uint64_t index = 0; index < 360; index++) {
        test_rng r = test_rng_make(0x4c4f4e47ull, index);
        const size_t es = sizes[test_rng_range(&r, 0, 5)];
        const bool big = index < 2, nchw = index >= 240;
        const int64_t c = big || nchw ? 3 : test_rng_range(&r, 1, 8);
        const int64_t min_w = (int64_t)(512 / ((size_t)(nchw ? 1 : c) * es)) + 1;
        int64_t shape[4] = {big ? 1 : test_rng_range(&r, 1, 3),
                            big ? 900 + 300 * (int64_t)index : test_rng_range(&r, 1, 9),
                            big ? 900 + 300 * (int64_t)index
                                : min_w + test_rng_range(&r, 0, 3 * min_w),
                            c};
        if (nchw) { /* N, C, H, W: per index along C or N, a value per plane or per image */
            shape[1] = test_rng_range(&r, 1, 5);
            shape[2] = test_rng_range(&r, 8, 60);
            shape[3] = min_w + test_rng_range(&r, 0, 3 * min_w);
        }
        int64_t pb[4] = {0}, pe[4] = {0};
        for (int k = nchw ? 0 : 1; k < (nchw ? 4 : 3); k++) {
            const int64_t most = nchw && k < 2 ? 2 : nchw ? 8 : 40; /* outputs of at most 4 MB */
            const bool crop = !big && test_rng_chance(&r, 1, 5);
            pb[k] = crop ? -test_rng_range(&r, 0, shape[k] / 2) : test_rng_range(&r, 0, most);
            pe[k] = !big && test_rng_chance(&r, 1, 5) ? -test_rng_range(&r, 0, shape[k] / 2)
                                                      : test_rng_range(&r, 0, most);
        }
        const int32_t axis = nchw                        ? (int32_t)test_rng_range(&r, 0, 1)
                             : test_rng_chance(&r, 1, 4) ? 2
                                                         : 3;
        const int64_t count = pb[axis] + shape[axis] + pe[axis];
        unsigned char *values = test_xmalloc((size_t)count * es);
        test_rng_bytes(&r, values, (size_t)count * es);
        const ndpad_problem p = constant_4d(es, shape, pb, pe);
        const int32_t threads = (int32_t)test_rng_range(&r, 1, 2);
        const size_t shift = (size_t)test_rng_range(&r, 0, 63);
        check_long_rows(index, &p, NDPAD_REF_PER_INDEX, axis, values, threads, shift);
        unsigned char sides[8 * 16];
        test_rng_bytes(&r, sides, sizeof sides);
        check_long_rows(index, &p, NDPAD_REF_PER_SIDE, 0, sides, threads, shift);
        free(values);
    }
}

/* A 2x3 CONSTANT problem padded by 1, for the hostile cases to change one thing of. */
static ndpad_problem small_problem(const int64_t *shape, const int64_t *pads)
{
    return (ndpad_problem){.rank = 2,
                           .mode = NDPAD_CONSTANT,
                           .elem_size = 4,
                           .shape = shape,
                           .pads_begin = pads,
                           .pads_end = pads};
}

/* A call that must fail with `status`, a message naming `caller` and saying `says`, and
 * nothing written. */
static void expect_failure(ndpad_status st, ndpad_status status, const char *caller,
                           const char *says, const int32_t *out, size_t size, int line)
{
    if (st != status || strstr(ndpad_last_error(), says) == NULL ||
        strstr(ndpad_last_error(), caller) == NULL)
        fail_msg("line %d: %s (%s), wanted %s saying \"%s\"", line, ndpad_status_string(st),
                 ndpad_last_error(), ndpad_status_string(status), says);
    if (!test_all_bytes_are(out, size, TEST_SENTINEL)) fail_msg("line %d: out written", line);
}

static void hostile_arguments(void **state)
{
    (void)state;
    const int64_t shape[2] = {2, 3}, pads[2] = {1, 1}, interior[2] = {0, 2};
    const int64_t bad_shape[2] = {2, -3};
    const int32_t in[6] = {0}, sides[4] = {1, 2, 3, 4}, values[8] = {0};
    int32_t out[64];
    const ndpad_problem good = small_problem(shape, pads);
    ndpad_problem edge = good, dilated = good, negative = good, too_big = good;
    edge.mode = NDPAD_EDGE;
    dilated.interior = interior;
    negative.shape = bad_shape;
    too_big.rank = 40;
#define EXPECT(call, status, caller, says)                                                         \
    do {                                                                                           \
        memset(out, TEST_SENTINEL, sizeof out);                                                    \
        expect_failure(call, status, caller, says, out, sizeof out, __LINE__);                     \
    } while (0)
    EXPECT(ndpad_pad_sides(&edge, sides, NULL, in, out), NDPAD_ERR_MODE, "ndpad_pad_sides",
           "constants per side need NDPAD_CONSTANT");
    EXPECT(ndpad_pad_sides(&dilated, sides, NULL, in, out), NDPAD_ERR_INTERIOR_MODE,
           "ndpad_pad_sides", "interior[1] = 2 with side_values");
    EXPECT(ndpad_pad_sides(&negative, sides, NULL, in, out), NDPAD_ERR_SHAPE, "ndpad_pad_sides",
           "shape[1] = -3");
    EXPECT(ndpad_pad_sides(&too_big, sides, NULL, in, out), NDPAD_ERR_RANK, "ndpad_pad_sides",
           "rank");
    EXPECT(ndpad_pad_sides(&good, sides, NULL, NULL, out), NDPAD_ERR_NULL_BUFFER, "ndpad_pad_sides",
           "in is NULL");
    ndpad_plan *plan = (ndpad_plan *)(uintptr_t)1;
    EXPECT(ndpad_plan_create_sides(&good, NULL, NULL, &plan), NDPAD_ERR_NULL_ARGUMENT,
           "ndpad_plan_create_sides", "side_values is NULL");
    assert_null(plan);
    EXPECT(ndpad_plan_create_sides(&edge, sides, NULL, &plan), NDPAD_ERR_MODE,
           "ndpad_plan_create_sides", "constants per side need NDPAD_CONSTANT");
    /* per index: axis, values, mode, and the problem's own rules first */
    EXPECT(ndpad_pad_per_index(&good, 2, values, NULL, in, out), NDPAD_ERR_AXES,
           "ndpad_pad_per_index", "axis = 2 is outside [0, rank = 2)");
    EXPECT(ndpad_pad_per_index(&good, -1, values, NULL, in, out), NDPAD_ERR_AXES,
           "ndpad_pad_per_index", "axis = -1");
    EXPECT(ndpad_pad_per_index(&good, 1, NULL, NULL, in, out), NDPAD_ERR_NULL_ARGUMENT,
           "ndpad_pad_per_index", "values is NULL (one value per output index of axis 1, 5");
    EXPECT(ndpad_pad_per_index(&edge, 0, values, NULL, in, out), NDPAD_ERR_MODE,
           "ndpad_pad_per_index", "values along axis 0 given with mode = 1 (edge)");
    EXPECT(ndpad_pad_per_index(&negative, 0, values, NULL, in, out), NDPAD_ERR_SHAPE,
           "ndpad_pad_per_index", "shape[1] = -3");
    EXPECT(ndpad_pad_per_index(NULL, 0, values, NULL, in, out), NDPAD_ERR_NULL_ARGUMENT,
           "ndpad_pad_per_index", "problem");
    EXPECT(ndpad_pad_per_index(&good, 0, values, NULL, NULL, out), NDPAD_ERR_NULL_BUFFER,
           "ndpad_pad_per_index", "in is NULL");
    EXPECT(ndpad_plan_create_per_index(&good, 0, values, NULL, NULL), NDPAD_ERR_NULL_ARGUMENT,
           "ndpad_plan_create_per_index", "plan (the result pointer) is NULL");
    plan = (ndpad_plan *)(uintptr_t)1;
    EXPECT(ndpad_plan_create_per_index(&good, 5, values, NULL, &plan), NDPAD_ERR_AXES,
           "ndpad_plan_create_per_index", "axis = 5");
    assert_null(plan);
    ndpad_options bad;
    ndpad_options_init(&bad);
    bad.isa = 99;
    EXPECT(ndpad_pad_sides(&good, sides, &bad, in, out), NDPAD_ERR_OPTIONS, "ndpad_pad_sides",
           "isa");
    EXPECT(ndpad_pad_per_index(&good, 0, values, &bad, in, out), NDPAD_ERR_OPTIONS,
           "ndpad_pad_per_index", "isa");
#undef EXPECT
    assert_int_equal(ndpad_pad_sides(NULL, sides, NULL, in, out), NDPAD_ERR_NULL_ARGUMENT);
    assert_int_equal(ndpad_pad_sides(&good, sides, NULL, in, NULL), NDPAD_ERR_NULL_BUFFER);
    assert_int_equal(ndpad_pad_per_index(&good, 0, values, NULL, in, NULL), NDPAD_ERR_NULL_BUFFER);
    /* an empty output: nothing is read or written, NULL buffers allowed */
    const int64_t empty_shape[2] = {0, 3}, no_pads[2] = {0, 0};
    const ndpad_problem empty = small_problem(empty_shape, no_pads);
    assert_int_equal(ndpad_pad_per_index(&empty, 0, values, NULL, NULL, NULL), NDPAD_OK);
    assert_int_equal(ndpad_pad_sides(&empty, sides, NULL, NULL, NULL), NDPAD_OK);
}

/* With constants the problem's pad_value is unused (the header): a pointer that faults on
 * any read must not be read, by the plan or the one-shot forms, small or stream-sized. */
static void pad_value_is_unread(void **state)
{
    (void)state;
    const int64_t shapes[2][4] = {{1, 3, 4, 5}, {1, 40, 60, 3}};
    const int64_t pads[2][4] = {{0, 1, 1, 2}, {0, 1, 1, 0}};
    for (int s = 0; s < 2; s++) {
        int64_t so = 1, si = 1;
        for (int k = 0; k < 4; k++) si *= shapes[s][k], so *= shapes[s][k] + 2 * pads[s][k];
        float *in = test_xmalloc((size_t)si * 4), *out = test_xmalloc((size_t)so * 4);
        float *want = test_xmalloc((size_t)so * 4), values[64];
        for (int64_t i = 0; i < si; i++) in[i] = (float)i;
        for (int i = 0; i < 64; i++) values[i] = (float)(100 + i);
        ndpad_problem p = {.rank = 4,
                           .mode = NDPAD_CONSTANT,
                           .elem_size = 4,
                           .shape = shapes[s],
                           .pads_begin = pads[s],
                           .pads_end = pads[s]};
        for (int kind = NDPAD_REF_PER_SIDE; kind <= NDPAD_REF_PER_INDEX; kind++) {
            const int32_t axis = s == 0 ? 1 : 3;
            p.pad_value = NULL;
            assert_int_equal(ndpad_ref_pad_constants(&p, kind, axis, values, in, want), NDPAD_OK);
            p.pad_value = (const void *)16;
            ndpad_plan *plan = NULL;
            assert_int_equal(kind == NDPAD_REF_PER_SIDE
                                 ? ndpad_plan_create_sides(&p, values, NULL, &plan)
                                 : ndpad_plan_create_per_index(&p, axis, values, NULL, &plan),
                             NDPAD_OK);
            assert_int_equal(ndpad_execute(plan, in, out), NDPAD_OK);
            ndpad_plan_destroy(plan);
            assert_memory_equal(out, want, (size_t)so * 4);
            memset(out, 0, (size_t)so * 4);
            assert_int_equal(kind == NDPAD_REF_PER_SIDE
                                 ? ndpad_pad_sides(&p, values, NULL, in, out)
                                 : ndpad_pad_per_index(&p, axis, values, NULL, in, out),
                             NDPAD_OK);
            assert_memory_equal(out, want, (size_t)so * 4);
        }
        free(in);
        free(out);
        free(want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(header_example),
        cmocka_unit_test(per_index_example),
        cmocka_unit_test(random_sides_vs_reference),
        cmocka_unit_test(random_per_index_vs_reference),
        cmocka_unit_test(larger_problems_vs_reference),
        cmocka_unit_test(long_rows_per_index_along_the_row),
        cmocka_unit_test(hostile_arguments),
        cmocka_unit_test(pad_value_is_unread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
