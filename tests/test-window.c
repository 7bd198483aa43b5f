/*
 * test-window.c — window plans: any block of the output from only the input box it reads.
 * Random problems of every mode (interior padding, crops, pads larger than the axis, element
 * sizes 1-16, long rows for the vector kernels), random windows and layouts, each compared
 * with the block of the reference's whole output (test-window-check.h); the documented
 * boxes of ndpad_window_input_box; in place; and the errors, which write nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ndpad.h"
#include "test-window-check.h"

/* ---- random problems ------------------------------------------------------------------ */

static void random_problem(test_rng *r, ndpad_problem *p, int64_t *shape, int64_t *pb, int64_t *pe,
                           int64_t *interior, unsigned char *pad_value)
{
    static const size_t sizes[] = {1, 2, 3, 4, 8, 12, 16};
    const int32_t rank = (int32_t)test_rng_range(r, 1, 4);
    const int32_t mode = (int32_t)test_rng_range(r, NDPAD_CONSTANT, NDPAD_WRAP);
    const bool long_row = test_rng_chance(r, 1, 4);
    memset(p, 0, sizeof(*p));
    p->rank = rank;
    p->mode = mode;
    p->elem_size = sizes[test_rng_range(r, 0, 6)];
    p->shape = shape;
    p->pads_begin = pb;
    p->pads_end = pe;
    for (int32_t k = 0; k < rank; k++) {
        const bool row = long_row && k == rank - 1;
        shape[k] = test_rng_range(r, mode == NDPAD_CONSTANT ? 0 : 1, row ? 300 : 6);
        const int64_t big = row ? 200 : 14; /* larger than the axis: the pattern repeats */
        pb[k] = test_rng_range(r, -3, big);
        pe[k] = test_rng_range(r, -3, big);
        interior[k] =
            mode == NDPAD_CONSTANT && test_rng_chance(r, 1, 3) ? test_rng_range(r, 0, 3) : 0;
        if (mode != NDPAD_CONSTANT && pb[k] + pe[k] + shape[k] < 0) pe[k] = 0;
    }
    if (mode == NDPAD_CONSTANT && test_rng_chance(r, 1, 2)) p->interior = interior;
    test_rng_bytes(r, pad_value, 16);
    p->pad_value = test_rng_chance(r, 3, 4) ? pad_value : NULL;
}

static void random_windows_match_the_whole_output(void **state)
{
    (void)state;
    int failures = 0, windows = 0;
    for (int64_t index = 0; index < 3000; index++) {
        test_rng r = test_rng_make(0x57494E44, (uint64_t)index);
        ndpad_problem p;
        int64_t shape[NDPAD_MAX_RANK], pb[NDPAD_MAX_RANK], pe[NDPAD_MAX_RANK];
        int64_t interior[NDPAD_MAX_RANK], n[NDPAD_MAX_RANK];
        unsigned char pad_value[16];
        random_problem(&r, &p, shape, pb, pe, interior, pad_value);
        if (ndpad_ref_validate(&p, NULL) != NDPAD_OK) continue;
        ndpad_ref_output_shape(&p, n);
        const int64_t in_count = test_count(p.rank, shape), out_count = test_count(p.rank, n);
        if (out_count > 20000) continue;
        unsigned char *in = test_xmalloc((size_t)in_count * p.elem_size);
        unsigned char *out = test_xmalloc((size_t)out_count * p.elem_size);
        test_rng_bytes(&r, in, (size_t)in_count * p.elem_size);
        assert_int_equal(ndpad_ref_pad(&p, in, out), NDPAD_OK);
        ndpad_options options;
        ndpad_options_init(&options);
        options.isa = test_rng_chance(&r, 1, 3) ? NDPAD_ISA_SCALAR : NDPAD_ISA_AUTO;
        options.threads = (int32_t)test_rng_range(&r, 0, 2);
        if (test_rng_chance(&r, 1, 4)) options.tile_rows = test_rng_range(&r, 1, 4);
        for (int t = 0; t < 4; t++) {
            int64_t ob[NDPAD_MAX_RANK], oe[NDPAD_MAX_RANK];
            char why[512];
            test_window_random(&r, p.rank, n, ob, oe);
            windows++;
            if (!test_window_check(&r, &p, in, out, ob, oe, &options, why, sizeof why)) {
                if (failures++ < 10) {
                    fprintf(stderr, "FAIL problem %lld window", (long long)index);
                    for (int32_t k = 0; k < p.rank; k++)
                        fprintf(stderr, " [%lld,%lld)", (long long)ob[k], (long long)oe[k]);
                    fprintf(stderr, ": %s\n  ", why);
                    ndpad_ref_print_problem(stderr, &p);
                }
            }
        }
        free(in);
        free(out);
    }
    printf("test-window: %d random windows, %d failures\n", windows, failures);
    assert_int_equal(failures, 0);
}

/* ---- the documented boxes ------------------------------------------------------------- */

static void box_of(int32_t mode, int64_t d, int64_t b, int64_t e, const int64_t *interior,
                   int64_t o0, int64_t o1, int64_t want0, int64_t want1)
{
    const ndpad_problem p = {.rank = 1,
                             .mode = mode,
                             .elem_size = 1,
                             .shape = &d,
                             .pads_begin = &b,
                             .pads_end = &e,
                             .interior = interior};
    int64_t i0 = -7, i1 = -7;
    assert_int_equal(ndpad_window_input_box(&p, &o0, &o1, &i0, &i1), NDPAD_OK);
    assert_int_equal(i0, want0);
    assert_int_equal(i1, want1);
}

static void input_box_per_mode(void **state)
{
    (void)state;
    const int64_t r2 = 2;
    /* CONSTANT: the border reads nothing; interior holes read nothing; the lattice points */
    box_of(NDPAD_CONSTANT, 5, 3, 3, NULL, 0, 3, 0, 0);
    box_of(NDPAD_CONSTANT, 5, 3, 3, NULL, 2, 6, 0, 3);
    box_of(NDPAD_CONSTANT, 5, 0, 0, &r2, 1, 3, 0, 0); /* holes between 0 and 1 */
    box_of(NDPAD_CONSTANT, 5, 0, 0, &r2, 1, 7, 1, 3); /* lattice 3 and 6: inputs 1, 2 */
    /* EDGE: a window in a border reads its edge element */
    box_of(NDPAD_EDGE, 5, 4, 4, NULL, 0, 3, 0, 1);
    box_of(NDPAD_EDGE, 5, 4, 4, NULL, 10, 13, 4, 5);
    box_of(NDPAD_EDGE, 5, 4, 4, NULL, 3, 6, 0, 2);
    /* WRAP: one run, or the whole axis across a seam */
    box_of(NDPAD_WRAP, 5, 2, 2, NULL, 0, 2, 3, 5);
    box_of(NDPAD_WRAP, 5, 2, 2, NULL, 1, 3, 0, 5);
    box_of(NDPAD_WRAP, 5, 12, 0, NULL, 3, 5, 1, 3);
    /* REFLECT 0 1 2 3 4 3 2 1 0 1 ...: one turning point inside, or a whole period */
    box_of(NDPAD_REFLECT, 5, 0, 9, NULL, 6, 9, 0, 3);
    box_of(NDPAD_REFLECT, 5, 0, 9, NULL, 3, 7, 2, 5);
    box_of(NDPAD_REFLECT, 5, 0, 9, NULL, 1, 9, 0, 5);
    box_of(NDPAD_REFLECT, 1, 3, 3, NULL, 0, 7, 0, 1);
    /* SYMMETRIC 0 1 2 2 1 0 0 1 ... (d = 3) */
    box_of(NDPAD_SYMMETRIC, 3, 0, 9, NULL, 2, 4, 2, 3);
    box_of(NDPAD_SYMMETRIC, 3, 0, 9, NULL, 4, 6, 0, 2);
    /* an empty window reads nothing */
    box_of(NDPAD_REFLECT, 5, 2, 2, NULL, 4, 4, 0, 0);
}

/* Axes near 2^62, whose periods are near INT64_MAX: the boxes of small windows are small,
 * and the window plan runs on them (nothing overflows, UBSan would say). */
static void huge_axes_small_windows(void **state)
{
    (void)state;
    const int64_t big = ((int64_t)1 << 62) - 1, b = 5, e = 5;
    box_of(NDPAD_REFLECT, big, b, e, NULL, 0, 10, 0, 6);
    box_of(NDPAD_REFLECT, big, b, e, NULL, big + 2, big + 10, big - 6, big);
    box_of(NDPAD_SYMMETRIC, big, b, e, NULL, big, big + 10, big - 5, big);
    box_of(NDPAD_WRAP, big, b, e, NULL, 2, 8, 0, big); /* across the seam */
    box_of(NDPAD_WRAP, big, b, e, NULL, 0, 5, big - 5, big);
    box_of(NDPAD_EDGE, big, INT64_MAX - big, 0, NULL, 0, 3, 0, 1);
    /* the reflected end of the axis from a 6-element box */
    const int64_t d = big, o0 = big + 2, o1 = big + 10;
    const ndpad_problem p = {.rank = 1,
                             .mode = NDPAD_REFLECT,
                             .elem_size = 1,
                             .shape = &d,
                             .pads_begin = &b,
                             .pads_end = &e};
    int64_t i0, i1, one = 1;
    assert_int_equal(ndpad_window_input_box(&p, &o0, &o1, &i0, &i1), NDPAD_OK);
    int8_t box[6] = {0, 1, 2, 3, 4, 5}, out[8 + 2] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_window_plan_create(&p, &o0, &o1, &i0, &i1, &one, &one, NULL, &plan),
                     NDPAD_OK);
    assert_int_equal(ndpad_execute(plan, box, out + 1), NDPAD_OK);
    ndpad_plan_destroy(plan);
    /* output o reads j = o - 5: big - 3 .. big + 4, i.e. box elements 3 4 5 4 3 2 1 0 */
    const int8_t want[10] = {-1, 3, 4, 5, 4, 3, 2, 1, 0, -1};
    assert_memory_equal(out, want, sizeof want);
}

/* ---- in place ------------------------------------------------------------------------- */

static void in_place_window_writes_only_borders(void **state)
{
    (void)state;
    /* 1-D REFLECT d = 6, pads 4 / 4; the window [2, 12) reads [0, 6), which it shows at
     * window positions [2, 8): the box sits inside the window's buffer. */
    const int64_t d = 6, b = 4, e = 4, o0 = 2, o1 = 12;
    const ndpad_problem p = {.rank = 1,
                             .mode = NDPAD_REFLECT,
                             .elem_size = 4,
                             .shape = &d,
                             .pads_begin = &b,
                             .pads_end = &e};
    int32_t in[6] = {10, 11, 12, 13, 14, 15}, full[14], buf[10 + 2];
    assert_int_equal(ndpad_pad(&p, in, full), NDPAD_OK);
    int64_t i0, i1, stride = 1;
    assert_int_equal(ndpad_window_input_box(&p, &o0, &o1, &i0, &i1), NDPAD_OK);
    assert_int_equal(i0, 0);
    assert_int_equal(i1, 6);
    for (int i = 0; i < 12; i++) buf[i] = -1;
    memcpy(buf + 1 + 2, in, sizeof in);
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_window_plan_create(&p, &o0, &o1, &i0, &i1, &stride, &stride, NULL,
                                              &plan),
                     NDPAD_OK);
    assert_int_equal(ndpad_execute(plan, buf + 1 + 2, buf + 1), NDPAD_OK);
    ndpad_plan_destroy(plan);
    assert_int_equal(buf[0], -1);
    assert_int_equal(buf[11], -1);
    assert_memory_equal(buf + 1, full + 2, 10 * sizeof(int32_t));
}

/* ---- errors --------------------------------------------------------------------------- */

static void expect_error(ndpad_status got, ndpad_status want, const char *text1, const char *text2)
{
    assert_int_equal(got, want);
    if (!test_contains(ndpad_last_error(), text1) || !test_contains(ndpad_last_error(), text2))
        fail_msg("message \"%s\" lacks \"%s\" or \"%s\"", ndpad_last_error(), text1, text2);
}

static void errors_name_argument_and_axis(void **state)
{
    (void)state;
    const int64_t shape[2] = {4, 5}, pb[2] = {2, 3}, pe[2] = {2, 3};
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_WRAP,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe};
    int64_t ob[2] = {0, 0}, oe[2] = {8, 12}, ib[2] = {0, 0}, ie[2] = {4, 5};
    int64_t i0[2] = {-9, -9}, i1[2] = {-9, -9};
    ndpad_plan *plan = (ndpad_plan *)&plan;

    oe[1] = 12;
    expect_error(ndpad_window_input_box(&p, ob, oe, i0, i1), NDPAD_ERR_SHAPE, "out_end[1]",
                 "axis 1");
    assert_int_equal(i0[0], -9); /* nothing written on error */
    expect_error(ndpad_window_plan_create(&p, ob, oe, ib, ie, NULL, NULL, NULL, &plan),
                 NDPAD_ERR_SHAPE, "out_end[1]", "axis 1");
    assert_null(plan);
    oe[1] = 11;
    ob[0] = -1;
    expect_error(ndpad_window_input_box(&p, ob, oe, i0, i1), NDPAD_ERR_SHAPE, "out_begin[0]",
                 "axis 0");
    ob[0] = 5;
    oe[0] = 4;
    expect_error(ndpad_window_input_box(&p, ob, oe, i0, i1), NDPAD_ERR_SHAPE, "out_end[0]",
                 "axis 0");
    /* a box that misses what the window reads: [3, 5) on axis 1 reads input 0 and 1 */
    ob[0] = 0;
    oe[0] = 8;
    ob[1] = 3;
    oe[1] = 5;
    ib[1] = 1;
    expect_error(ndpad_window_plan_create(&p, ob, oe, ib, ie, NULL, NULL, NULL, &plan),
                 NDPAD_ERR_SHAPE, "in_begin[1]", "axis 1");
    ib[1] = 0;
    ie[0] = 5;
    expect_error(ndpad_window_plan_create(&p, ob, oe, ib, ie, NULL, NULL, NULL, &plan),
                 NDPAD_ERR_SHAPE, "in_end[0]", "axis 0");
    ie[0] = 4;
    const int64_t zero_strides[2] = {0, 1};
    expect_error(ndpad_window_plan_create(&p, ob, oe, ib, ie, NULL, zero_strides, NULL, &plan),
                 NDPAD_ERR_STRIDE, "window_strides[0]", "window elements");
    expect_error(ndpad_window_plan_create(&p, NULL, oe, ib, ie, NULL, NULL, NULL, &plan),
                 NDPAD_ERR_NULL_ARGUMENT, "out_begin", "rank");
    expect_error(ndpad_window_plan_create(&p, ob, oe, NULL, ie, NULL, NULL, NULL, &plan),
                 NDPAD_ERR_NULL_ARGUMENT, "in_begin", "rank");
    expect_error(ndpad_window_input_box(&p, ob, oe, i0, NULL), NDPAD_ERR_NULL_ARGUMENT, "in_end",
                 "rank");
    expect_error(ndpad_window_plan_create(&p, ob, oe, ib, ie, NULL, NULL, NULL, NULL),
                 NDPAD_ERR_NULL_ARGUMENT, "plan", "NULL");
    /* the problem's own rules come first */
    const int64_t bad_shape[2] = {4, -1};
    ndpad_problem q = p;
    q.shape = bad_shape;
    expect_error(ndpad_window_input_box(&q, ob, oe, i0, i1), NDPAD_ERR_SHAPE, "shape[1]",
                 "negative");
    /* the window is valid now: the plan runs */
    assert_int_equal(ndpad_window_plan_create(&p, ob, oe, ib, ie, NULL, NULL, NULL, &plan),
                     NDPAD_OK);
    ndpad_plan_destroy(plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(input_box_per_mode),
        cmocka_unit_test(huge_axes_small_windows),
        cmocka_unit_test(in_place_window_writes_only_borders),
        cmocka_unit_test(errors_name_argument_and_axis),
        cmocka_unit_test(random_windows_match_the_whole_output),
    };
    return cmocka_run_group_tests_name("window", tests, NULL, NULL);
}
