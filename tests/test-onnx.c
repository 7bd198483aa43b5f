/*
 * test-onnx.c — the ONNX dialect beyond the seed examples: axes (negative, subsets, any
 * order), crop-then-pad semantics on random problems against the reference applied to the
 * cropped tensor, pads larger than the (cropped) extent, "wrap", rank 0, and the
 * translated problem used through plans.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ndpad.h"
#include "test-checks.h"

static const int32_t data_1_to_24[24] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                                         13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};

/* Runs an ONNX call and returns a malloc'ed dense output (and its element count). */
static int32_t *onnx_run(int32_t rank, const int64_t *shape, const int64_t *pads,
                         int64_t pads_count, const int64_t *axes, int64_t axes_count,
                         const char *mode, const int32_t *in, int64_t *count)
{
    int64_t out_shape[NDPAD_MAX_RANK];
    assert_int_equal(ndpad_ref_onnx_validate(rank, shape, 4, pads, pads_count, axes, axes_count,
                                             mode, NULL, out_shape),
                     NDPAD_OK);
    *count = test_count(rank, out_shape);
    int32_t *out = test_xmalloc((size_t)*count * 4);
    const ndpad_status st =
        ndpad_onnx_pad(rank, shape, 4, pads, pads_count, axes, axes_count, mode, NULL, in, out);
    if (st != NDPAD_OK)
        fail_msg("ndpad_onnx_pad: %s (%s)", ndpad_status_string(st), ndpad_last_error());
    return out;
}

static void onnx_negative_axis_counts_from_the_back(void **state)
{
    (void)state;
    const int64_t shape[3] = {2, 3, 4}, pads[2] = {1, 2};
    const int64_t last[1] = {-1}, two[1] = {2}, first[1] = {-3}, zero[1] = {0};
    const char *const modes[] = {"constant", "edge", "reflect", "wrap"};
    for (int m = 0; m < 4; m++) {
        int64_t c1, c2;
        test_check_onnx("axes {-1}", 3, shape, 4, pads, 2, last, 1, modes[m], NULL, data_1_to_24,
                        NULL, NULL);
        int32_t *a = onnx_run(3, shape, pads, 2, last, 1, modes[m], data_1_to_24, &c1);
        int32_t *b = onnx_run(3, shape, pads, 2, two, 1, modes[m], data_1_to_24, &c2);
        assert_int_equal(c1, c2);
        assert_memory_equal(a, b, (size_t)c1 * 4);
        free(a);
        free(b);
        a = onnx_run(3, shape, pads, 2, first, 1, modes[m], data_1_to_24, &c1);
        b = onnx_run(3, shape, pads, 2, zero, 1, modes[m], data_1_to_24, &c2);
        assert_int_equal(c1, c2);
        assert_memory_equal(a, b, (size_t)c1 * 4);
        free(a);
        free(b);
    }
}

static void onnx_axes_subset_leaves_other_axes_unpadded(void **state)
{
    (void)state;
    /* 2x3, edge, axes {0}, pads {1, 1}: rows 0,0,1,1; columns untouched */
    const int64_t shape[2] = {2, 3}, pads[2] = {1, 1}, axes[1] = {0}, out_shape[2] = {4, 3};
    const int32_t expected[12] = {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6};
    test_check_onnx("axes {0}", 2, shape, 4, pads, 2, axes, 1, "edge", NULL, data_1_to_24,
                    out_shape, expected);
}

static void onnx_axes_in_any_order_apply_pads_by_position(void **state)
{
    (void)state;
    const int64_t shape[3] = {2, 3, 4};
    /* axes {2, 0}: begin {2 -> 1, 0 -> 2}, end {2 -> 3, 0 -> 0} */
    const int64_t pads_a[4] = {1, 2, 3, 0}, axes_a[2] = {2, 0};
    const int64_t pads_b[4] = {2, 1, 0, 3}, axes_b[2] = {0, -1};
    const int64_t pads_all[6] = {2, 0, 1, 0, 0, 3};
    int64_t ca, cb, cc;
    int32_t *a = onnx_run(3, shape, pads_a, 4, axes_a, 2, "reflect", data_1_to_24, &ca);
    int32_t *b = onnx_run(3, shape, pads_b, 4, axes_b, 2, "reflect", data_1_to_24, &cb);
    int32_t *c = onnx_run(3, shape, pads_all, 6, NULL, 0, "reflect", data_1_to_24, &cc);
    assert_int_equal(ca, cb);
    assert_int_equal(ca, cc);
    assert_memory_equal(a, b, (size_t)ca * 4);
    assert_memory_equal(a, c, (size_t)ca * 4);
    test_check_onnx("axes {2, 0}", 3, shape, 4, pads_a, 4, axes_a, 2, "reflect", NULL, data_1_to_24,
                    NULL, c);
    free(a);
    free(b);
    free(c);
}

static void onnx_null_axes_means_all_axes_and_ignores_count(void **state)
{
    (void)state;
    const int64_t shape[2] = {2, 3}, pads[4] = {1, 0, 0, 2}, out_shape[2] = {3, 5};
    const int32_t expected[15] = {0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 4, 5, 6, 0, 0};
    test_check_onnx("axes NULL, count 7", 2, shape, 4, pads, 4, NULL, 7, "constant", NULL,
                    data_1_to_24, out_shape, expected);
}

static void onnx_wrap_pads_larger_than_extent_repeat(void **state)
{
    (void)state;
    const int64_t shape[1] = {3}, pads[2] = {7, 5}, out_shape[1] = {15};
    int32_t expected[15];
    for (int o = 0; o < 15; o++) expected[o] = data_1_to_24[((o - 7) % 3 + 3) % 3];
    test_check_onnx("wrap 7/5 on 3", 1, shape, 4, pads, 2, NULL, 0, "wrap", NULL, data_1_to_24,
                    out_shape, expected);
}

static void onnx_reflect_pads_larger_than_extent_repeat(void **state)
{
    (void)state;
    /* d = 3: the periodic pattern 1 2 3 2 | 1 2 3 2 ... (numpy >= 2.1) */
    static const int32_t period[4] = {1, 2, 3, 2};
    const int64_t shape[1] = {3}, pads[2] = {7, 9}, out_shape[1] = {19};
    int32_t expected[19];
    for (int o = 0; o < 19; o++) expected[o] = period[((o - 7) % 4 + 4) % 4];
    test_check_onnx("reflect 7/9 on 3", 1, shape, 4, pads, 2, NULL, 0, "reflect", NULL,
                    data_1_to_24, out_shape, expected);
}

static void onnx_edge_pads_larger_than_extent_clamp(void **state)
{
    (void)state;
    const int64_t shape[2] = {1, 2}, pads[4] = {3, 4, 2, 5}, out_shape[2] = {6, 11};
    int32_t expected[66];
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 11; c++) expected[r * 11 + c] = c < 5 ? 1 : 2;
    test_check_onnx("edge 3,4/2,5 on 1x2", 2, shape, 4, pads, 4, NULL, 0, "edge", NULL,
                    data_1_to_24, out_shape, expected);
}

static void onnx_reflect_on_one_element_axis_gives_the_element(void **state)
{
    (void)state;
    const int64_t shape[2] = {1, 3}, pads[4] = {2, 0, 1, 0}, out_shape[2] = {4, 3};
    const int32_t expected[12] = {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3};
    test_check_onnx("reflect d = 1", 2, shape, 4, pads, 4, NULL, 0, "reflect", NULL, data_1_to_24,
                    out_shape, expected);
}

static void onnx_rank_0_copies_one_element(void **state)
{
    (void)state;
    const char *const modes[] = {"constant", "edge", "reflect", "wrap", NULL};
    const int64_t no_axes[1] = {0};
    for (int m = 0; m < 5; m++) {
        const unsigned char in[5] = {1, 2, 3, 4, 5};
        test_check_onnx("rank 0", 0, NULL, 5, NULL, 0, NULL, 0, modes[m], NULL, in, NULL, in);
        /* an empty axes list */
        test_check_onnx("rank 0, axes {}", 0, NULL, 5, NULL, 0, no_axes, 0, modes[m], NULL, in,
                        NULL, in);
    }
}

static void onnx_empty_axes_list_copies_the_tensor(void **state)
{
    (void)state;
    const int64_t shape[2] = {2, 3}, axes[1] = {0}, out_shape[2] = {2, 3};
    test_check_onnx("axes {} on 2x3", 2, shape, 4, NULL, 0, axes, 0, "reflect", NULL, data_1_to_24,
                    out_shape, data_1_to_24);
}

static void onnx_crop_only_is_the_same_in_every_mode(void **state)
{
    (void)state;
    const int64_t shape[3] = {2, 3, 4}, pads[6] = {0, -1, -1, -1, 0, -2}, out_shape[3] = {1, 2, 1};
    const int32_t expected[2] = {6, 10};
    const char *const modes[] = {"constant", "edge", "reflect", "wrap"};
    for (int m = 0; m < 4; m++)
        test_check_onnx(modes[m], 3, shape, 4, pads, 6, NULL, 0, modes[m], NULL, data_1_to_24,
                        out_shape, expected);
}

static void onnx_crop_to_nothing_then_constant_pad_gives_only_the_value(void **state)
{
    (void)state;
    const int64_t shape[2] = {3, 2}, pads[4] = {-3, 0, 2, 1}, out_shape[2] = {2, 3};
    const int32_t value = -77;
    int32_t expected[6];
    for (int i = 0; i < 6; i++) expected[i] = value;
    test_check_onnx("crop 3 of 3, then pad", 2, shape, 4, pads, 4, NULL, 0, "constant", &value,
                    data_1_to_24, out_shape, expected);
    test_check_onnx("crop 3 of 3, then pad, in NULL", 2, shape, 4, pads, 4, NULL, 0, "constant",
                    &value, NULL, out_shape, expected);
}

static void onnx_crop_to_nothing_then_edge_pad_is_empty_axis(void **state)
{
    (void)state;
    const int64_t shape[2] = {3, 2}, pads[4] = {-3, 0, 2, 1};
    int32_t out[64];
    memset(out, TEST_SENTINEL, sizeof out);
    assert_int_equal(ndpad_onnx_pad(2, shape, 4, pads, 4, NULL, 0, "edge", NULL, data_1_to_24, out),
                     NDPAD_ERR_EMPTY_AXIS);
    assert_true(test_all_bytes_are(out, sizeof out, TEST_SENTINEL));
}

static void onnx_constant_value_is_ignored_by_other_modes(void **state)
{
    (void)state;
    const int64_t shape[2] = {2, 3}, pads[4] = {1, 1, 1, 1};
    const int32_t value = 1234;
    const char *const modes[] = {"edge", "reflect", "wrap"};
    for (int m = 0; m < 3; m++) {
        int32_t a[20], b[20];
        assert_int_equal(ndpad_onnx_pad(2, shape, 4, pads, 4, NULL, 0, modes[m], &value,
                                        data_1_to_24, a),
                         NDPAD_OK);
        assert_int_equal(ndpad_onnx_pad(2, shape, 4, pads, 4, NULL, 0, modes[m], NULL, data_1_to_24,
                                        b),
                         NDPAD_OK);
        assert_memory_equal(a, b, sizeof a);
        for (int i = 0; i < 20; i++) assert_int_not_equal(a[i], value);
    }
}

static void onnx_translated_problem_runs_through_a_plan(void **state)
{
    (void)state;
    const int64_t shape[3] = {2, 3, 4}, pads[6] = {1, -1, 2, -1, 3, -2};
    ndpad_onnx_problem *onnx = test_xmalloc(sizeof(*onnx));
    assert_int_equal(ndpad_onnx_problem_init(onnx, 3, shape, 4, pads, 6, NULL, 0, "wrap", NULL),
                     NDPAD_OK);
    int64_t out_shape[3];
    assert_int_equal(ndpad_output_shape(&onnx->problem, out_shape), NDPAD_OK);
    const int64_t count = test_count(3, out_shape);
    int32_t *expected = test_xmalloc((size_t)count * 4), *got = test_xmalloc((size_t)count * 4);
    assert_int_equal(ndpad_ref_onnx_pad(3, shape, 4, pads, 6, NULL, 0, "wrap", NULL, data_1_to_24,
                                        expected),
                     NDPAD_OK);
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&onnx->problem, NULL, &plan), NDPAD_OK);
    free(onnx); /* the plan keeps what it needs */
    const int32_t *in = data_1_to_24;
    ndpad_onnx_problem *again = test_xmalloc(sizeof(*again));
    assert_int_equal(ndpad_onnx_problem_init(again, 3, shape, 4, pads, 6, NULL, 0, "wrap", NULL),
                     NDPAD_OK);
    for (int rep = 0; rep < 3; rep++) {
        memset(got, TEST_SENTINEL, (size_t)count * 4);
        assert_int_equal(ndpad_execute(plan, (const char *)in + again->in_offset, got), NDPAD_OK);
        assert_memory_equal(expected, got, (size_t)count * 4);
    }
    ndpad_plan_destroy(plan);
    free(again);
    free(expected);
    free(got);
}

/* The frame both random tests draw: a rank, an element size, extents (now and then 0) and,
 * half the time, a random subset of the axes in random order, sometimes as negative numbers.
 * `order[i]` is the axis of pads pair i (axes[i] is it or it - rank). */
typedef struct random_frame {
    int32_t rank;
    size_t es;
    int64_t shape[5], axes[5];
    int32_t order[5];
    int64_t in_count, num_axes;
    bool use_axes;
} random_frame;

static random_frame random_frame_draw(test_rng *r, int64_t max_extent_low_rank,
                                      int64_t max_extent_high_rank)
{
    static const size_t sizes[] = {1, 2, 3, 4, 8, 16};
    random_frame f;
    f.rank = (int32_t)test_rng_range(r, 1, 5);
    f.es = sizes[test_rng_range(r, 0, 5)];
    f.in_count = 1;
    for (int32_t k = 0; k < f.rank; k++) {
        f.shape[k] =
            test_rng_chance(r, 1, 25)
                ? 0
                : test_rng_range(r, 1, f.rank > 3 ? max_extent_high_rank : max_extent_low_rank);
        f.in_count *= f.shape[k];
        f.order[k] = k;
    }
    f.num_axes = f.rank;
    f.use_axes = test_rng_chance(r, 1, 2);
    if (f.use_axes) {
        for (int32_t k = f.rank - 1; k > 0; k--) {
            const int32_t j = (int32_t)test_rng_range(r, 0, k);
            const int32_t t = f.order[k];
            f.order[k] = f.order[j];
            f.order[j] = t;
        }
        f.num_axes = test_rng_range(r, 0, f.rank);
        for (int64_t i = 0; i < f.num_axes; i++)
            f.axes[i] = test_rng_chance(r, 1, 2) ? f.order[i] : f.order[i] - f.rank;
    }
    return f;
}

/* Random ONNX problems: crop then pad, against the reference on the cropped tensor. */
static void onnx_random_crop_then_pad_vs_reference(void **state)
{
    (void)state;
    static const char *const modes[] = {"constant", "edge", "reflect", "wrap", NULL};
    int64_t rejected = 0;
    for (int64_t index = 0; index < 3000; index++) {
        test_rng r = test_rng_make(0x4f4e4e58ull, (uint64_t)index);
        const random_frame f = random_frame_draw(&r, 7, 4);
        const int32_t rank = f.rank;
        const size_t es = f.es;
        const int64_t *shape = f.shape, *axes = f.axes, num_axes = f.num_axes;
        const int32_t *order = f.order;
        const bool use_axes = f.use_axes;
        int64_t pads[10];
        for (int64_t i = 0; i < num_axes; i++) {
            const int64_t d = shape[use_axes ? order[i] : i];
            /* crops up to the extent, now and then past it (issue 41: refused, or with
             * "constant" the header's d + b + e elements of the value) */
            const int64_t over = test_rng_chance(&r, 1, 6) ? 4 : 0;
            int64_t b = test_rng_chance(&r, 1, 3) ? -test_rng_range(&r, 0, d + over)
                                                  : test_rng_range(&r, 0, 12);
            const int64_t left = d + (b < 0 ? b : 0);
            int64_t e = test_rng_chance(&r, 1, 3)
                            ? -test_rng_range(&r, 0, (left > 0 ? left : 0) + over)
                            : test_rng_range(&r, 0, 12);
            pads[i] = b;
            pads[num_axes + i] = e;
        }
        const char *mode = modes[test_rng_range(&r, 0, 4)];
        unsigned char value[16];
        test_rng_bytes(&r, value, sizeof value);
        const void *constant_value = test_rng_chance(&r, 1, 2) ? value : NULL;
        unsigned char *in = test_xmalloc((size_t)f.in_count * es);
        test_rng_bytes(&r, in, (size_t)f.in_count * es);

        ndpad_ref_verdict verdict;
        int64_t out_shape[5];
        ndpad_ref_onnx_validate(rank, shape, es, pads, 2 * num_axes, use_axes ? axes : NULL,
                                num_axes, mode, &verdict, out_shape);
        if (verdict.status == NDPAD_OK && test_count(rank, out_shape) <= 20000) {
            char what[64];
            snprintf(what, sizeof what, "random ONNX problem %lld", (long long)index);
            test_check_onnx(what, rank, shape, es, pads, 2 * num_axes, use_axes ? axes : NULL,
                            num_axes, mode, constant_value, in, NULL, NULL);
        } else if (verdict.status != NDPAD_OK) {
            rejected++;
            unsigned char out[256];
            memset(out, TEST_SENTINEL, sizeof out);
            char what[1024];
            const int used =
                snprintf(what, sizeof what, "random ONNX problem %lld: ", (long long)index);
            ndpad_ref_format_onnx(what + used, sizeof what - (size_t)used, rank, shape, es, pads,
                                  2 * num_axes, use_axes ? axes : NULL, num_axes, mode);
            test_expect_refused(what,
                                ndpad_onnx_pad(rank, shape, es, pads, 2 * num_axes,
                                               use_axes ? axes : NULL, num_axes, mode,
                                               constant_value, in, out),
                                verdict.status, "ndpad_onnx_pad", "", out, sizeof out);
        }
        free(in);
    }
    printf("onnx random: 3000 problems, %lld rejected as the reference rejects them\n",
           (long long)rejected);
}

/* ---- CenterCropPad (ONNX 18) ---------------------------------------------------------- */

/* CenterCropPad's output shape and, per axis, input index = output index + shift, straight
 * from ONNX's reference implementation: a crop of diff = d - t reads from diff // 2, a pad
 * of diff = t - d writes the input at diff // 2. */
static void ref_center_geometry(int32_t rank, const int64_t *shape, const int64_t *target,
                                const int64_t *axes, int64_t num_axes, int64_t *out_shape,
                                int64_t *shift)
{
    for (int32_t k = 0; k < rank; k++) {
        out_shape[k] = shape[k];
        shift[k] = 0;
    }
    for (int64_t i = 0; i < num_axes; i++) {
        const int32_t a = (int32_t)(axes == NULL ? i : (axes[i] < 0 ? axes[i] + rank : axes[i]));
        const int64_t d = shape[a], t = target[i];
        out_shape[a] = t;
        shift[a] = t <= d ? (d - t) / 2 : -((t - d) / 2);
    }
}

/* Naive CenterCropPad of dense row-major buffers: every element on its own, zeros outside. */
static void ref_center_crop_pad(int32_t rank, const int64_t *shape, size_t es,
                                const int64_t *out_shape, const int64_t *shift,
                                const unsigned char *in, unsigned char *out)
{
    const int64_t count = test_count(rank, out_shape);
    for (int64_t flat = 0; flat < count; flat++) {
        int64_t rest = flat, src = 0, in_stride = 1;
        bool inside = true;
        for (int32_t k = rank - 1; k >= 0; k--) {
            const int64_t o = rest % out_shape[k];
            rest /= out_shape[k];
            const int64_t j = o + shift[k];
            if (j < 0 || j >= shape[k]) inside = false;
            src += j * in_stride;
            in_stride *= shape[k];
        }
        if (inside)
            memcpy(out + (size_t)flat * es, in + (size_t)src * es, es);
        else
            memset(out + (size_t)flat * es, 0, es);
    }
}

/* Runs ndpad_onnx_center_crop_pad into a guarded buffer, compares with the reference and
 * returns the output (malloc'ed) for tests that also know the values. */
static unsigned char *check_center_crop_pad(const char *what, int32_t rank, const int64_t *shape,
                                            size_t es, const int64_t *target, const int64_t *axes,
                                            int64_t num_axes, const void *in)
{
    int64_t out_shape[NDPAD_MAX_RANK], shift[NDPAD_MAX_RANK];
    ref_center_geometry(rank, shape, target, axes, num_axes, out_shape, shift);
    const size_t bytes = (size_t)test_count(rank, out_shape) * es;
    unsigned char *expected = test_xmalloc(bytes + 1);
    ref_center_crop_pad(rank, shape, es, out_shape, shift, in, expected);
    test_out out = test_out_make(bytes);
    const ndpad_status st =
        ndpad_onnx_center_crop_pad(rank, shape, es, target, num_axes, axes, num_axes, in, out.body);
    if (st != NDPAD_OK)
        fail_msg("%s: ndpad_onnx_center_crop_pad: %s (%s)", what, ndpad_status_string(st),
                 ndpad_last_error());
    if (memcmp(out.body, expected, bytes) != 0) fail_msg("%s: output differs from reference", what);
    if (!test_all_bytes_are(out.alloc, TEST_GUARD, TEST_SENTINEL) ||
        !test_all_bytes_are(out.body + bytes, TEST_GUARD, TEST_SENTINEL))
        fail_msg("%s: a guard byte changed", what);
    /* the translated problem has the same output shape, and gives the same through a plan */
    ndpad_onnx_problem onnx;
    assert_int_equal(ndpad_onnx_center_crop_pad_init(&onnx, rank, shape, es, target, num_axes, axes,
                                                     num_axes),
                     NDPAD_OK);
    int64_t plan_shape[NDPAD_MAX_RANK];
    assert_int_equal(ndpad_output_shape(&onnx.problem, plan_shape), NDPAD_OK);
    for (int32_t k = 0; k < rank; k++) assert_int_equal(plan_shape[k], out_shape[k]);
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&onnx.problem, NULL, &plan), NDPAD_OK);
    memset(out.body, 0x5a, bytes);
    assert_int_equal(ndpad_execute(plan, in == NULL ? NULL : (const char *)in + onnx.in_offset,
                                   out.body),
                     NDPAD_OK);
    ndpad_plan_destroy(plan);
    if (memcmp(out.body, expected, bytes) != 0) fail_msg("%s: plan output differs", what);
    test_out_free(&out);
    return expected;
}

/* ONNX's documented examples (onnx/backend/test/case/node/centercroppad.py): their shapes,
 * and the values of a small case worked by hand. */
static void center_crop_pad_onnx_examples(void **state)
{
    (void)state;
    enum { N = 20 * 10 * 3 };
    float data[N];
    for (int i = 0; i < N; i++) data[i] = (float)(i + 1);
    const struct {
        const char *name;
        int64_t shape[3], target[3];
        int64_t axes[3];
        int64_t num_axes;
        bool use_axes;
        int64_t out[3];
    } cases[] = {
        {"center_crop_pad_crop", {20, 10, 3}, {10, 7, 3}, {0}, 3, false, {10, 7, 3}},
        {"center_crop_pad_pad", {10, 7, 3}, {20, 10, 3}, {0}, 3, false, {20, 10, 3}},
        {"center_crop_pad_crop_and_pad", {20, 8, 3}, {10, 10, 3}, {0}, 3, false, {10, 10, 3}},
        {"center_crop_pad_crop_axes_hwc", {20, 8, 3}, {10, 9}, {0, 1}, 2, true, {10, 9, 3}},
        {"center_crop_pad_crop_negative_axes_hwc",
         {20, 8, 3},
         {10, 9},
         {-3, -2},
         2,
         true,
         {10, 9, 3}},
        {"center_crop_pad_crop_axes_chw", {3, 20, 8}, {10, 9}, {1, 2}, 2, true, {3, 10, 9}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        unsigned char *out =
            check_center_crop_pad(cases[c].name, 3, cases[c].shape, 4, cases[c].target,
                                  cases[c].use_axes ? cases[c].axes : NULL, cases[c].num_axes,
                                  data);
        ndpad_onnx_problem onnx;
        assert_int_equal(ndpad_onnx_center_crop_pad_init(&onnx, 3, cases[c].shape, 4,
                                                         cases[c].target, cases[c].num_axes,
                                                         cases[c].use_axes ? cases[c].axes : NULL,
                                                         cases[c].num_axes),
                         NDPAD_OK);
        int64_t out_shape[3];
        assert_int_equal(ndpad_output_shape(&onnx.problem, out_shape), NDPAD_OK);
        for (int k = 0; k < 3; k++) assert_int_equal(out_shape[k], cases[c].out[k]);
        free(out);
    }
    /* worked by hand: 1-D {1..5} to 2 keeps 2 3 (diff 3: start 1, the odd one cropped at the
     * end); to 8 gives 0 1 2 3 4 5 0 0 (diff 3: input at 1, the odd one padded at the end) */
    const int64_t five[1] = {5}, two[1] = {2}, eight[1] = {8};
    const float want_crop[2] = {2, 3}, want_pad[8] = {0, 1, 2, 3, 4, 5, 0, 0};
    unsigned char *out = check_center_crop_pad("1-D crop", 1, five, 4, two, NULL, 1, data);
    assert_memory_equal(out, want_crop, sizeof want_crop);
    free(out);
    out = check_center_crop_pad("1-D pad", 1, five, 4, eight, NULL, 1, data);
    assert_memory_equal(out, want_pad, sizeof want_pad);
    free(out);
}

static void center_crop_pad_random_vs_reference(void **state)
{
    (void)state;
    for (int64_t index = 0; index < 2000; index++) {
        test_rng r = test_rng_make(0x43435041ull, (uint64_t)index);
        const random_frame f = random_frame_draw(&r, 9, 5);
        const int32_t rank = f.rank;
        const size_t es = f.es;
        const int64_t *shape = f.shape, *axes = f.axes, num_axes = f.num_axes;
        const bool use_axes = f.use_axes;
        int64_t target[5];
        for (int64_t i = 0; i < num_axes; i++)
            target[i] = test_rng_chance(&r, 1, 20) ? 0 : test_rng_range(&r, 1, rank > 3 ? 6 : 12);
        unsigned char *in = test_xmalloc((size_t)f.in_count * es + 1);
        test_rng_bytes(&r, in, (size_t)f.in_count * es);
        char what[64];
        snprintf(what, sizeof what, "random CenterCropPad %lld", (long long)index);
        free(check_center_crop_pad(what, rank, shape, es, target, use_axes ? axes : NULL, num_axes,
                                   in));
        free(in);
    }
}

/* Every hostile argument: a status, nothing written, a message naming argument and axis. */
static void center_crop_pad_rejects_hostile_arguments(void **state)
{
    (void)state;
    const int64_t shape[3] = {4, 5, 6}, target[3] = {2, 3, 4};
    unsigned char out[64];
    const unsigned char in[4 * 5 * 6] = {0};
    const struct {
        int32_t rank;
        const int64_t *shape;
        size_t es;
        const int64_t *target;
        int64_t target_count;
        const int64_t *axes;
        int64_t axes_count;
        ndpad_status status;
        const char *says;
    } cases[] = {
        {40, shape, 1, target, 3, NULL, 0, NDPAD_ERR_RANK, "rank = 40"},
        {3, NULL, 1, target, 3, NULL, 0, NDPAD_ERR_NULL_ARGUMENT, "shape is NULL"},
        {3, shape, 0, target, 3, NULL, 0, NDPAD_ERR_ELEM_SIZE, "elem_size = 0"},
        {3, shape, 1, NULL, 3, NULL, 0, NDPAD_ERR_NULL_ARGUMENT, "target_shape is NULL"},
        {3, shape, 1, target, 2, NULL, 0, NDPAD_ERR_PADS_LENGTH, "target_shape has 2 entries"},
        {3, shape, 1, target, 2, (const int64_t[]){0, 0}, 2, NDPAD_ERR_AXES,
         "axes[1] = 0 repeats axis 0"},
        {3, shape, 1, target, 2, (const int64_t[]){1, -2}, 2, NDPAD_ERR_AXES,
         "axes[1] = -2 repeats axis 1"},
        {3, shape, 1, target, 1, (const int64_t[]){3}, 1, NDPAD_ERR_AXES, "axes[0] = 3"},
        {3, shape, 1, target, 1, (const int64_t[]){-4}, 1, NDPAD_ERR_AXES, "axes[0] = -4"},
        {3, shape, 1, target, 3, (const int64_t[]){0, 1}, 2, NDPAD_ERR_PADS_LENGTH,
         "target_shape has 3 entries but there are 2 axes"},
        {3, shape, 1, (const int64_t[]){2, -1, 4}, 3, NULL, 0, NDPAD_ERR_SHAPE,
         "target_shape[1] = -1 (axis 1) is negative"},
        {3, shape, 1, (const int64_t[]){-7}, 1, (const int64_t[]){-1}, 1, NDPAD_ERR_SHAPE,
         "target_shape[0] = -7 (axis 2) is negative"},
        {3, (const int64_t[]){4, -5, 6}, 1, target, 3, NULL, 0, NDPAD_ERR_SHAPE, "shape[1] = -5"},
        {3, shape, 1, (const int64_t[]){INT64_MAX, INT64_MAX, 4}, 3, NULL, 0, NDPAD_ERR_OVERFLOW,
         ""},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memset(out, TEST_SENTINEL, sizeof out);
        char what[32];
        snprintf(what, sizeof what, "case %zu", c);
        test_expect_refused(what,
                            ndpad_onnx_center_crop_pad(cases[c].rank, cases[c].shape, cases[c].es,
                                                       cases[c].target, cases[c].target_count,
                                                       cases[c].axes, cases[c].axes_count, in, out),
                            cases[c].status, "ndpad_onnx_center_crop_pad", cases[c].says, out,
                            sizeof out);
        ndpad_onnx_problem onnx;
        assert_int_equal(ndpad_onnx_center_crop_pad_init(&onnx, cases[c].rank, cases[c].shape,
                                                         cases[c].es, cases[c].target,
                                                         cases[c].target_count, cases[c].axes,
                                                         cases[c].axes_count),
                         cases[c].status);
    }
    assert_int_equal(ndpad_onnx_center_crop_pad_init(NULL, 3, shape, 1, target, 3, NULL, 0),
                     NDPAD_ERR_NULL_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(onnx_negative_axis_counts_from_the_back),
        cmocka_unit_test(onnx_axes_subset_leaves_other_axes_unpadded),
        cmocka_unit_test(onnx_axes_in_any_order_apply_pads_by_position),
        cmocka_unit_test(onnx_null_axes_means_all_axes_and_ignores_count),
        cmocka_unit_test(onnx_wrap_pads_larger_than_extent_repeat),
        cmocka_unit_test(onnx_reflect_pads_larger_than_extent_repeat),
        cmocka_unit_test(onnx_edge_pads_larger_than_extent_clamp),
        cmocka_unit_test(onnx_reflect_on_one_element_axis_gives_the_element),
        cmocka_unit_test(onnx_rank_0_copies_one_element),
        cmocka_unit_test(onnx_empty_axes_list_copies_the_tensor),
        cmocka_unit_test(onnx_crop_only_is_the_same_in_every_mode),
        cmocka_unit_test(onnx_crop_to_nothing_then_constant_pad_gives_only_the_value),
        cmocka_unit_test(onnx_crop_to_nothing_then_edge_pad_is_empty_axis),
        cmocka_unit_test(onnx_constant_value_is_ignored_by_other_modes),
        cmocka_unit_test(onnx_translated_problem_runs_through_a_plan),
        cmocka_unit_test(onnx_random_crop_then_pad_vs_reference),
        cmocka_unit_test(center_crop_pad_onnx_examples),
        cmocka_unit_test(center_crop_pad_random_vs_reference),
        cmocka_unit_test(center_crop_pad_rejects_hostile_arguments),
    };
    return cmocka_run_group_tests_name("onnx", tests, NULL, NULL);
}
