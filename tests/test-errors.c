/*
 * test-errors.c — every rule of api.md and every status of ndpad.h, through every entry
 * point: ndpad_output_shape, ndpad_pad, ndpad_plan_create (default and explicit options),
 * ndpad_execute and the ONNX entry points. Each rejection is checked for
 *   - the exact status (and the reference rejects the problem with the same status, so the
 *     case itself is what it claims to be);
 *   - a fresh, non-empty ndpad_last_error() that names the argument ("shape[2]", ...);
 *   - an output buffer (sentinel-filled) left byte-for-byte untouched, out_shape untouched,
 *     *plan set to NULL.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>

#include "ndpad.h"
#include "test-checks.h"

#define BIG 64 /* one more than NDPAD_MAX_RANK, with room */

enum { IN_BYTES = 4096, OUT_BYTES = 4096 };

/* A problem with its own arrays, valid until a test breaks one rule. */
typedef struct case_problem {
    int64_t shape[BIG], pb[BIG], pe[BIG], interior[BIG], in_strides[BIG], out_strides[BIG];
    unsigned char pad_value[16];
    ndpad_problem p;
} case_problem;

/* rank-`rank` problem: every extent 2, pads 1/1, no interior, dense, value 7 */
static void make_problem(case_problem *c, int32_t rank, int32_t mode, size_t elem_size)
{
    memset(c, 0, sizeof(*c));
    for (int k = 0; k < BIG; k++) {
        c->shape[k] = 2;
        c->pb[k] = 1;
        c->pe[k] = 1;
    }
    memset(c->pad_value, 7, sizeof c->pad_value);
    c->p.rank = rank;
    c->p.mode = mode;
    c->p.elem_size = elem_size;
    c->p.shape = c->shape;
    c->p.pads_begin = c->pb;
    c->p.pads_end = c->pe;
    c->p.pad_value = mode == NDPAD_CONSTANT ? c->pad_value : NULL;
}

static bool contains_nocase(const char *haystack, const char *needle)
{
    if (haystack == NULL) return false;
    const size_t n = strlen(needle);
    for (const char *h = haystack; *h; h++) {
        size_t i = 0;
        while (i < n && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n) return true;
    }
    return n == 0;
}

/* Makes the thread's last error a known text that does not mention `needle`, so that the
 * next check sees the message of the call under test and not a stale one. */
static char stale[512];
static void reset_last_error(const char *needle)
{
    if (needle == NULL || !contains_nocase("problem", needle)) {
        assert_int_equal(ndpad_output_shape(NULL, NULL), NDPAD_ERR_NULL_ARGUMENT);
    } else {
        case_problem c;
        int64_t out_shape[BIG];
        make_problem(&c, -7, NDPAD_CONSTANT, 4);
        assert_int_equal(ndpad_output_shape(&c.p, out_shape), NDPAD_ERR_RANK);
    }
    snprintf(stale, sizeof stale, "%s", ndpad_last_error());
    assert_true(stale[0] != '\0');
}

static void check_failure(const char *entry, ndpad_status got, ndpad_status expected,
                          const char *needle)
{
    const char *message = ndpad_last_error();
    if (got != expected)
        fail_msg("%s returned %d (%s), expected %d (%s); last error: \"%s\"", entry, (int)got,
                 ndpad_status_string(got), (int)expected, ndpad_status_string(expected),
                 message ? message : "(null)");
    assert_non_null(message);
    if (message[0] == '\0') fail_msg("%s: ndpad_last_error() is empty after a failure", entry);
    if (strcmp(message, stale) == 0)
        fail_msg("%s: ndpad_last_error() still holds the previous failure: \"%s\"", entry, message);
    if (needle && !contains_nocase(message, needle))
        fail_msg("%s: ndpad_last_error() \"%s\" does not name \"%s\"", entry, message, needle);
}

static void fill_input(unsigned char *in)
{
    for (int i = 0; i < IN_BYTES; i++) in[i] = (unsigned char)(i * 37 + 11);
}

static void check_input_intact(const unsigned char *in)
{
    for (int i = 0; i < IN_BYTES; i++)
        if (in[i] != (unsigned char)(i * 37 + 11)) fail_msg("the input was written at byte %d", i);
}

/* The problem must be rejected with `expected` by every core entry point, naming `needle`
 * (NULL: only a non-empty message is required), with nothing written. */
static void expect_rejected(const ndpad_problem *p, ndpad_status expected, const char *needle)
{
    ndpad_ref_verdict verdict;
    ndpad_ref_validate(p, &verdict);
    if (verdict.status != expected) {
        ndpad_ref_print_problem(stderr, p);
        fail_msg("test case is wrong: the reference says %d (%s), the case expects %d",
                 (int)verdict.status, verdict.where, (int)expected);
    }

    static unsigned char in[IN_BYTES], out[OUT_BYTES];
    int64_t out_shape[BIG];
    fill_input(in);

    /* ndpad_output_shape */
    memset(out_shape, TEST_SENTINEL, sizeof out_shape);
    reset_last_error(needle);
    check_failure("ndpad_output_shape", ndpad_output_shape(p, out_shape), expected, needle);
    if (!test_all_bytes_are(out_shape, sizeof out_shape, TEST_SENTINEL))
        fail_msg("ndpad_output_shape wrote out_shape on error");

    /* ndpad_pad */
    memset(out, TEST_SENTINEL, sizeof out);
    reset_last_error(needle);
    check_failure("ndpad_pad", ndpad_pad(p, in, out), expected, needle);
    if (!test_all_bytes_are(out, sizeof out, TEST_SENTINEL)) {
        if (p) ndpad_ref_print_problem(stderr, p);
        fail_msg("ndpad_pad wrote to out on error");
    }
    check_input_intact(in);

    /* ndpad_plan_create, default options, then explicit ones */
    for (int variant = 0; variant < 2; variant++) {
        ndpad_options options;
        ndpad_options_init(&options);
        options.threads = 1;
        options.isa = NDPAD_ISA_SCALAR;
        ndpad_plan *plan = (ndpad_plan *)(void *)&options; /* must become NULL */
        reset_last_error(needle);
        check_failure("ndpad_plan_create", ndpad_plan_create(p, variant ? &options : NULL, &plan),
                      expected, needle);
        if (plan != NULL) fail_msg("ndpad_plan_create left *plan non-NULL on error");
    }
}

/* ===================================================================================== */
/* NULL arguments                                                                          */
/* ===================================================================================== */

static void null_problem_is_null_argument(void **state)
{
    (void)state;
    expect_rejected(NULL, NDPAD_ERR_NULL_ARGUMENT, "problem");
}

static void null_shape_with_rank_gt_0_is_null_argument(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 4);
    c.p.shape = NULL;
    expect_rejected(&c.p, NDPAD_ERR_NULL_ARGUMENT, "shape");
}

static void null_pads_begin_with_rank_gt_0_is_null_argument(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_EDGE, 4);
    c.p.pads_begin = NULL;
    expect_rejected(&c.p, NDPAD_ERR_NULL_ARGUMENT, "pads_begin");
}

static void null_pads_end_with_rank_gt_0_is_null_argument(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 3, NDPAD_WRAP, 2);
    c.p.pads_end = NULL;
    expect_rejected(&c.p, NDPAD_ERR_NULL_ARGUMENT, "pads_end");
}

static void null_arrays_with_rank_0_are_accepted(void **state)
{
    (void)state;
    const ndpad_problem p = {.rank = 0, .mode = NDPAD_REFLECT, .elem_size = 3};
    const unsigned char in[3] = {1, 2, 3};
    unsigned char out[3] = {0};
    assert_int_equal(ndpad_output_shape(&p, NULL), NDPAD_OK);
    assert_int_equal(ndpad_pad(&p, in, out), NDPAD_OK);
    assert_memory_equal(in, out, 3);
}

static void null_out_shape_with_rank_gt_0_is_null_argument(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 4);
    reset_last_error("out_shape");
    check_failure("ndpad_output_shape", ndpad_output_shape(&c.p, NULL), NDPAD_ERR_NULL_ARGUMENT,
                  "out_shape");
}

static void null_plan_result_pointer_is_null_argument(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 4);
    reset_last_error("plan");
    check_failure("ndpad_plan_create", ndpad_plan_create(&c.p, NULL, NULL), NDPAD_ERR_NULL_ARGUMENT,
                  "plan");
}

static void execute_null_plan_is_null_argument(void **state)
{
    (void)state;
    unsigned char in[64] = {0}, out[64];
    memset(out, TEST_SENTINEL, sizeof out);
    reset_last_error("plan");
    check_failure("ndpad_execute", ndpad_execute(NULL, in, out), NDPAD_ERR_NULL_ARGUMENT, "plan");
    assert_true(test_all_bytes_are(out, sizeof out, TEST_SENTINEL));
    ndpad_plan_destroy(NULL); /* ignored */
}

/* ===================================================================================== */
/* rank, mode, elem_size                                                                   */
/* ===================================================================================== */

static void rank_minus_1_is_rank_error(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, -1, NDPAD_CONSTANT, 4);
    expect_rejected(&c.p, NDPAD_ERR_RANK, "rank");
}

static void rank_33_above_max_is_rank_error(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, NDPAD_MAX_RANK + 1, NDPAD_CONSTANT, 4);
    for (int k = 0; k < BIG; k++) c.shape[k] = 1, c.pb[k] = c.pe[k] = 0;
    expect_rejected(&c.p, NDPAD_ERR_RANK, "rank");
}

static void rank_int32_min_is_rank_error(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, INT32_MIN, NDPAD_CONSTANT, 4);
    expect_rejected(&c.p, NDPAD_ERR_RANK, "rank");
}

static void rank_32_max_is_accepted(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, NDPAD_MAX_RANK, NDPAD_REFLECT, 1);
    for (int k = 0; k < BIG; k++) c.shape[k] = 1, c.pb[k] = c.pe[k] = 0;
    c.pb[0] = 1; /* a 1x...x1 input padded to 2x1x...x1x2 */
    c.pe[31] = 1;
    const unsigned char in[1] = {9};
    const int64_t expected_shape[NDPAD_MAX_RANK] = {2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2};
    const unsigned char expected[4] = {9, 9, 9, 9};
    test_check_core("rank 32", &c.p, in, expected_shape, expected);
}

static void mode_5_unknown_is_mode_error(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, 5, 4);
    expect_rejected(&c.p, NDPAD_ERR_MODE, "mode");
}

static void mode_minus_1_unknown_is_mode_error(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, -1, 4);
    expect_rejected(&c.p, NDPAD_ERR_MODE, "mode");
}

static void elem_size_0_is_elem_size_error(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 0);
    expect_rejected(&c.p, NDPAD_ERR_ELEM_SIZE, "elem_size");
}

/* ===================================================================================== */
/* shape, interior, empty axes                                                             */
/* ===================================================================================== */

static void negative_extent_on_axis_2_is_shape_error(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 3, NDPAD_CONSTANT, 4);
    c.shape[2] = -4;
    expect_rejected(&c.p, NDPAD_ERR_SHAPE, "shape[2]");
}

static void negative_extent_int64_min_is_shape_error(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_EDGE, 4);
    c.shape[0] = INT64_MIN;
    c.pb[0] = INT64_MAX;
    expect_rejected(&c.p, NDPAD_ERR_SHAPE, "shape[0]");
}

static void negative_interior_on_axis_1_is_interior_error(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 4);
    c.p.interior = c.interior;
    c.interior[1] = -1;
    expect_rejected(&c.p, NDPAD_ERR_INTERIOR, "interior[1]");
}

static void interior_with_each_non_constant_mode_is_interior_mode_error(void **state)
{
    (void)state;
    for (int32_t mode = NDPAD_EDGE; mode <= NDPAD_WRAP; mode++) {
        case_problem c;
        make_problem(&c, 2, mode, 4);
        c.p.interior = c.interior;
        c.interior[1] = 2;
        expect_rejected(&c.p, NDPAD_ERR_INTERIOR_MODE, "interior[1]");
    }
}

static void zero_interior_with_edge_is_accepted(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_EDGE, 4);
    c.p.interior = c.interior; /* all zero */
    int32_t in[4] = {1, 2, 3, 4};
    const int64_t out_shape[2] = {4, 4};
    const int32_t expected[16] = {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4};
    test_check_core("zero interior with EDGE", &c.p, in, out_shape, expected);
}

static void non_constant_mode_growing_empty_axis_is_empty_axis_error(void **state)
{
    (void)state;
    for (int32_t mode = NDPAD_EDGE; mode <= NDPAD_WRAP; mode++) {
        case_problem c;
        make_problem(&c, 2, mode, 4);
        c.shape[1] = 0;
        c.pb[1] = 1;
        c.pe[1] = 0;
        expect_rejected(&c.p, NDPAD_ERR_EMPTY_AXIS, "[1]");
    }
}

static void edge_growing_empty_axis_while_other_axis_output_is_0_is_empty_axis_error(void **state)
{
    (void)state;
    /* axis 0: d = 0 grows to 1; axis 1: 3 cropped to 0, so the whole output is empty */
    case_problem c;
    make_problem(&c, 2, NDPAD_EDGE, 4);
    c.shape[0] = 0;
    c.pb[0] = 1;
    c.pe[0] = 0;
    c.shape[1] = 3;
    c.pb[1] = -3;
    c.pe[1] = 0;
    expect_rejected(&c.p, NDPAD_ERR_EMPTY_AXIS, "[0]");
}

static void non_constant_mode_on_empty_axis_staying_empty_is_accepted(void **state)
{
    (void)state;
    for (int32_t mode = NDPAD_EDGE; mode <= NDPAD_WRAP; mode++) {
        case_problem c;
        make_problem(&c, 2, mode, 4);
        c.shape[0] = 0;
        c.pb[0] = 2; /* b + 0 + e == 0 */
        c.pe[0] = -2;
        int64_t out_shape[2];
        assert_int_equal(ndpad_output_shape(&c.p, out_shape), NDPAD_OK);
        assert_int_equal(out_shape[0], 0);
        assert_int_equal(out_shape[1], 4);
        assert_int_equal(ndpad_pad(&c.p, NULL, NULL), NDPAD_OK);
    }
}

static void constant_growing_empty_axis_is_accepted_and_reads_no_input(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 4);
    c.shape[0] = 0;
    c.pb[0] = 2;
    c.pe[0] = 1;
    const int64_t out_shape[2] = {3, 4};
    int32_t expected[12];
    memset(expected, 7, sizeof expected);
    test_check_core("constant on empty input", &c.p, NULL, out_shape, expected);
}

/* ===================================================================================== */
/* overflow                                                                                */
/* ===================================================================================== */

static void extent_plus_pad_overflowing_int64_is_overflow(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 1, NDPAD_CONSTANT, 1);
    c.shape[0] = INT64_MAX;
    c.pb[0] = 1;
    c.pe[0] = 0;
    expect_rejected(&c.p, NDPAD_ERR_OVERFLOW, "[0]");
}

static void pads_sum_overflowing_int64_is_overflow(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 1);
    c.shape[1] = 1;
    c.pb[1] = INT64_MAX;
    c.pe[1] = INT64_MAX;
    expect_rejected(&c.p, NDPAD_ERR_OVERFLOW, "[1]");
}

static void dilated_extent_overflowing_int64_is_overflow(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 1, NDPAD_CONSTANT, 1);
    c.p.interior = c.interior;
    c.shape[0] = (int64_t)1 << 40;
    c.interior[0] = (int64_t)1 << 40;
    c.pb[0] = c.pe[0] = 0;
    expect_rejected(&c.p, NDPAD_ERR_OVERFLOW, "[0]");
}

static void output_element_count_overflowing_int64_is_overflow(void **state)
{
    (void)state;
    /* a 1x1 input padded to (2^33+1) x (2^33+1) */
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 1);
    c.shape[0] = c.shape[1] = 1;
    c.pb[0] = c.pb[1] = (int64_t)1 << 33;
    c.pe[0] = c.pe[1] = 0;
    expect_rejected(&c.p, NDPAD_ERR_OVERFLOW, NULL);
}

static void output_byte_count_overflowing_size_t_is_overflow(void **state)
{
    (void)state;
    /* 2^31 x 2^31 = 2^62 elements fit int64, 2^64 bytes of float do not fit size_t */
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 4);
    c.shape[0] = c.shape[1] = 1;
    c.pb[0] = c.pb[1] = ((int64_t)1 << 31) - 1;
    c.pe[0] = c.pe[1] = 0;
    expect_rejected(&c.p, NDPAD_ERR_OVERFLOW, NULL);
}

static void huge_elem_size_byte_count_overflowing_size_t_is_overflow(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 1, NDPAD_EDGE, SIZE_MAX / 2 + 1);
    c.pb[0] = c.pe[0] = 0;
    expect_rejected(&c.p, NDPAD_ERR_OVERFLOW, NULL);
}

static void input_and_output_count_2_pow_64_is_overflow(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 1);
    c.shape[0] = c.shape[1] = (int64_t)1 << 32;
    c.pb[0] = c.pb[1] = c.pe[0] = c.pe[1] = 0;
    expect_rejected(&c.p, NDPAD_ERR_OVERFLOW, NULL);
}

static void out_stride_byte_offset_overflowing_ptrdiff_is_overflow(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 1, NDPAD_CONSTANT, 4);
    c.p.out_strides = c.out_strides;
    c.pb[0] = c.pe[0] = 0;
    c.out_strides[0] = INT64_MAX / 2;
    expect_rejected(&c.p, NDPAD_ERR_OVERFLOW, "strides");
}

static void out_strides_summed_over_axes_overflowing_is_overflow(void **state)
{
    (void)state;
    /* each axis alone reaches 2^62 bytes; element [1,1] sits at 2^63 */
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 1);
    c.p.out_strides = c.out_strides;
    c.pb[0] = c.pe[0] = c.pb[1] = c.pe[1] = 0;
    c.out_strides[0] = c.out_strides[1] = (int64_t)1 << 62;
    expect_rejected(&c.p, NDPAD_ERR_OVERFLOW, "strides");
}

static void in_stride_byte_offset_overflowing_ptrdiff_is_overflow(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 1, NDPAD_CONSTANT, 2);
    c.p.in_strides = c.in_strides;
    c.pb[0] = c.pe[0] = 0;
    c.in_strides[0] = INT64_MAX;
    expect_rejected(&c.p, NDPAD_ERR_OVERFLOW, "strides");
}

static void negative_in_stride_int64_min_overflowing_is_overflow(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 1, NDPAD_WRAP, 2);
    c.p.in_strides = c.in_strides;
    c.in_strides[0] = INT64_MIN;
    expect_rejected(&c.p, NDPAD_ERR_OVERFLOW, "strides");
}

/* ===================================================================================== */
/* strides                                                                                 */
/* ===================================================================================== */

static void zero_out_stride_on_axis_with_2_outputs_is_stride_error(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 4);
    c.p.out_strides = c.out_strides;
    c.pb[0] = c.pe[0] = 0; /* axis 0: 2 outputs */
    c.out_strides[0] = 0;
    c.out_strides[1] = 1;
    expect_rejected(&c.p, NDPAD_ERR_STRIDE, "out_strides[0]");
}

static void zero_out_stride_on_inner_axis_is_stride_error(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 3, NDPAD_SYMMETRIC, 8);
    c.p.out_strides = c.out_strides;
    c.out_strides[0] = 100;
    c.out_strides[1] = 10;
    c.out_strides[2] = 0;
    expect_rejected(&c.p, NDPAD_ERR_STRIDE, "out_strides[2]");
}

static void zero_out_stride_on_axis_with_1_output_is_accepted(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_EDGE, 4);
    c.p.out_strides = c.out_strides;
    c.shape[0] = 1;
    c.pb[0] = c.pe[0] = 0; /* one output row */
    c.out_strides[0] = 0;
    c.out_strides[1] = 1;
    const int32_t in[2] = {5, 6}, expected[4] = {5, 5, 6, 6};
    const int64_t out_shape[2] = {1, 4};
    test_check_core("zero stride on a 1-element axis", &c.p, in, out_shape, expected);
}

/* numpy gives an empty array of shape (4, 2, 0) the strides (0, 0, 0): an empty output
 * addresses nothing, so the stride rule does not apply (issue 12, item 11). */
static void zero_out_strides_of_an_empty_output_are_accepted(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 3, NDPAD_REFLECT, 4);
    c.p.out_strides = c.out_strides;
    c.shape[0] = 4, c.shape[1] = 2, c.shape[2] = 0;
    for (int k = 0; k < 3; k++) c.pb[k] = c.pe[k] = 0;
    c.out_strides[0] = c.out_strides[1] = c.out_strides[2] = 0;
    int64_t out_shape[3];
    assert_int_equal(ndpad_output_shape(&c.p, out_shape), NDPAD_OK);
    assert_int_equal(out_shape[0], 4);
    assert_int_equal(out_shape[1], 2);
    assert_int_equal(out_shape[2], 0);
    unsigned char out[16];
    memset(out, TEST_SENTINEL, sizeof out);
    assert_int_equal(ndpad_pad(&c.p, NULL, out), NDPAD_OK);
    assert_int_equal(ndpad_pad(&c.p, NULL, NULL), NDPAD_OK);
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&c.p, NULL, &plan), NDPAD_OK);
    assert_int_equal(ndpad_execute(plan, NULL, out), NDPAD_OK);
    ndpad_plan_destroy(plan);
    assert_true(test_all_bytes_are(out, sizeof out, TEST_SENTINEL));
    /* the same strides with one output element more on the last axis are still an error */
    c.pe[2] = 1;
    c.p.mode = NDPAD_CONSTANT;
    expect_rejected(&c.p, NDPAD_ERR_STRIDE, "out_strides[0]");
}

static void zero_and_negative_in_strides_are_accepted(void **state)
{
    (void)state;
    /* broadcast rows (stride 0) and a reversed column order (negative stride) */
    case_problem c;
    make_problem(&c, 2, NDPAD_WRAP, 4);
    c.p.in_strides = c.in_strides;
    c.shape[0] = 2;
    c.shape[1] = 3;
    c.in_strides[0] = 0;
    c.in_strides[1] = -1;
    c.pb[0] = c.pe[0] = 0;
    const int32_t data[3] = {1, 2, 3};
    const int64_t out_shape[2] = {2, 5};
    /* row = [3, 2, 1]; wrap by one on each side: [1, 3, 2, 1, 3] */
    const int32_t expected[10] = {1, 3, 2, 1, 3, 1, 3, 2, 1, 3};
    test_check_core("broadcast and reversed input", &c.p, data + 2, out_shape, expected);
}

/* ===================================================================================== */
/* buffers                                                                                 */
/* ===================================================================================== */

static void null_in_when_input_is_read_is_null_buffer(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_REFLECT, 4);
    unsigned char out[256];
    memset(out, TEST_SENTINEL, sizeof out);
    reset_last_error("in");
    check_failure("ndpad_pad", ndpad_pad(&c.p, NULL, out), NDPAD_ERR_NULL_BUFFER, "in");
    assert_true(test_all_bytes_are(out, sizeof out, TEST_SENTINEL));

    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&c.p, NULL, &plan), NDPAD_OK);
    reset_last_error("in");
    check_failure("ndpad_execute", ndpad_execute(plan, NULL, out), NDPAD_ERR_NULL_BUFFER, "in");
    assert_true(test_all_bytes_are(out, sizeof out, TEST_SENTINEL));
    ndpad_plan_destroy(plan);
}

static void null_out_when_output_not_empty_is_null_buffer(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 4);
    const int32_t in[4] = {1, 2, 3, 4};
    reset_last_error("out");
    check_failure("ndpad_pad", ndpad_pad(&c.p, in, NULL), NDPAD_ERR_NULL_BUFFER, "out");

    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&c.p, NULL, &plan), NDPAD_OK);
    reset_last_error("out");
    check_failure("ndpad_execute", ndpad_execute(plan, in, NULL), NDPAD_ERR_NULL_BUFFER, "out");
    ndpad_plan_destroy(plan);
}

static void null_in_for_rank_0_copy_is_null_buffer(void **state)
{
    (void)state;
    const ndpad_problem p = {.rank = 0, .mode = NDPAD_CONSTANT, .elem_size = 4};
    unsigned char out[4];
    memset(out, TEST_SENTINEL, sizeof out);
    reset_last_error("in");
    check_failure("ndpad_pad", ndpad_pad(&p, NULL, out), NDPAD_ERR_NULL_BUFFER, "in");
    assert_true(test_all_bytes_are(out, sizeof out, TEST_SENTINEL));
}

static void null_in_and_out_with_empty_output_are_accepted(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 3, NDPAD_REFLECT, 4);
    c.pb[1] = -2; /* axis 1: 2 - 2 + 1 ... */
    c.pe[1] = -1; /* ... -> max(-1, 0) = 0 */
    int64_t out_shape[3];
    assert_int_equal(ndpad_output_shape(&c.p, out_shape), NDPAD_OK);
    assert_int_equal(out_shape[1], 0);
    assert_int_equal(ndpad_pad(&c.p, NULL, NULL), NDPAD_OK);
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&c.p, NULL, &plan), NDPAD_OK);
    assert_int_equal(ndpad_execute(plan, NULL, NULL), NDPAD_OK);
    ndpad_plan_destroy(plan);
}

static void null_in_when_crop_leaves_only_pad_values_is_accepted(void **state)
{
    (void)state;
    /* d = 3, b = -5, e = 4: n = 2, j = 5, 6: both past the input, so nothing is read */
    case_problem c;
    make_problem(&c, 1, NDPAD_CONSTANT, 4);
    c.shape[0] = 3;
    c.pb[0] = -5;
    c.pe[0] = 4;
    assert_false(ndpad_ref_reads_input(&c.p));
    int32_t expected[2];
    memset(expected, 7, sizeof expected);
    const int64_t out_shape[1] = {2};
    test_check_core("crop into the pad region", &c.p, NULL, out_shape, expected);
}

/* ===================================================================================== */
/* options and ISA                                                                         */
/* ===================================================================================== */

static void expect_options_rejected(const ndpad_options *options, ndpad_status expected,
                                    const char *needle)
{
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 4);
    ndpad_plan *plan = (ndpad_plan *)(void *)&c; /* must become NULL */
    reset_last_error(needle);
    check_failure("ndpad_plan_create", ndpad_plan_create(&c.p, options, &plan), expected, needle);
    if (plan != NULL) fail_msg("ndpad_plan_create left *plan non-NULL on error");
}

static void options_negative_threads_is_options_error(void **state)
{
    (void)state;
    ndpad_options o;
    ndpad_options_init(&o);
    o.threads = -1;
    expect_options_rejected(&o, NDPAD_ERR_OPTIONS, "threads");
}

static void options_non_zero_reserved_is_options_error(void **state)
{
    (void)state;
    for (int i = 0; i < 8; i += 7) {
        ndpad_options o;
        ndpad_options_init(&o);
        o.reserved[i] = 1;
        char needle[32];
        snprintf(needle, sizeof needle, "reserved[%d]", i);
        expect_options_rejected(&o, NDPAD_ERR_OPTIONS, needle);
    }
}

static void options_negative_tile_rows_is_options_error(void **state)
{
    (void)state;
    ndpad_options o;
    ndpad_options_init(&o);
    o.tile_rows = -1;
    expect_options_rejected(&o, NDPAD_ERR_OPTIONS, "tile_rows");
}

static void options_negative_tile_cols_is_options_error(void **state)
{
    (void)state;
    ndpad_options o;
    ndpad_options_init(&o);
    o.tile_cols = -3;
    expect_options_rejected(&o, NDPAD_ERR_OPTIONS, "tile_cols");
}

static void options_isa_not_an_ndpad_isa_is_options_error(void **state)
{
    (void)state;
    const int32_t bad[] = {-1, 7, 99};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ndpad_options o;
        ndpad_options_init(&o);
        o.isa = bad[i];
        expect_options_rejected(&o, NDPAD_ERR_OPTIONS, "isa");
    }
}

static void options_isa_of_other_architecture_is_isa_unavailable(void **state)
{
    (void)state;
    ndpad_options o;
    ndpad_options_init(&o);
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64)
    o.isa = NDPAD_ISA_NEON;
    expect_options_rejected(&o, NDPAD_ERR_ISA_UNAVAILABLE, "isa");
    /* an x86 level the CPU lacks is unavailable too */
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512f")) {
        o.isa = NDPAD_ISA_AVX512;
        expect_options_rejected(&o, NDPAD_ERR_ISA_UNAVAILABLE, "isa");
    }
    if (!__builtin_cpu_supports("avx2")) {
        o.isa = NDPAD_ISA_AVX2;
        expect_options_rejected(&o, NDPAD_ERR_ISA_UNAVAILABLE, "isa");
    }
#elif defined(__aarch64__) || defined(__arm__)
    o.isa = NDPAD_ISA_AVX512;
    expect_options_rejected(&o, NDPAD_ERR_ISA_UNAVAILABLE, "isa");
    o.isa = NDPAD_ISA_AVX2;
    expect_options_rejected(&o, NDPAD_ERR_ISA_UNAVAILABLE, "isa");
#else
    skip();
#endif
}

static void options_isa_scalar_is_always_available(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_SYMMETRIC, 4);
    ndpad_options o;
    ndpad_options_init(&o);
    o.isa = NDPAD_ISA_SCALAR;
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&c.p, &o, &plan), NDPAD_OK);
    assert_int_equal(ndpad_plan_isa(plan), NDPAD_ISA_SCALAR);
    ndpad_plan_destroy(plan);
}

/* ===================================================================================== */
/* ONNX                                                                                    */
/* ===================================================================================== */

static void expect_onnx_rejected(int32_t rank, const int64_t *shape, size_t elem_size,
                                 const int64_t *pads, int64_t pads_count, const int64_t *axes,
                                 int64_t axes_count, const char *mode, ndpad_status expected,
                                 const char *needle)
{
    char line[1024];
    ndpad_ref_format_onnx(line, sizeof line, rank, shape, elem_size, pads, pads_count, axes,
                          axes_count, mode);
    ndpad_ref_verdict verdict;
    ndpad_ref_onnx_validate(rank, shape, elem_size, pads, pads_count, axes, axes_count, mode,
                            &verdict, NULL);
    if (verdict.status != expected)
        fail_msg("test case is wrong: the reference says %d (%s) for %s", (int)verdict.status,
                 verdict.where, line);

    ndpad_onnx_problem *onnx = test_xmalloc(sizeof(*onnx));
    reset_last_error(needle);
    ndpad_status st = ndpad_onnx_problem_init(onnx, rank, shape, elem_size, pads, pads_count, axes,
                                              axes_count, mode, NULL);
    if (st != expected) fprintf(stderr, "%s\n", line);
    check_failure("ndpad_onnx_problem_init", st, expected, needle);
    free(onnx);

    static unsigned char in[IN_BYTES], out[OUT_BYTES];
    fill_input(in);
    memset(out, TEST_SENTINEL, sizeof out);
    reset_last_error(needle);
    st = ndpad_onnx_pad(rank, shape, elem_size, pads, pads_count, axes, axes_count, mode, NULL, in,
                        out);
    if (st != expected) fprintf(stderr, "%s\n", line);
    check_failure("ndpad_onnx_pad", st, expected, needle);
    if (!test_all_bytes_are(out, sizeof out, TEST_SENTINEL))
        fail_msg("ndpad_onnx_pad wrote to out on error: %s", line);
    check_input_intact(in);
}

static const int64_t shape_2x3[2] = {2, 3};

static void onnx_null_result_pointer_is_null_argument(void **state)
{
    (void)state;
    const int64_t pads[4] = {0, 1, 0, 1};
    reset_last_error("onnx");
    check_failure("ndpad_onnx_problem_init",
                  ndpad_onnx_problem_init(NULL, 2, shape_2x3, 4, pads, 4, NULL, 0, NULL, NULL),
                  NDPAD_ERR_NULL_ARGUMENT, "onnx");
}

static void onnx_null_pads_with_count_4_is_null_argument(void **state)
{
    (void)state;
    expect_onnx_rejected(2, shape_2x3, 4, NULL, 4, NULL, 0, "constant", NDPAD_ERR_NULL_ARGUMENT,
                         "pads");
}

static void onnx_null_shape_is_null_argument(void **state)
{
    (void)state;
    const int64_t pads[4] = {0, 1, 0, 1};
    expect_onnx_rejected(2, NULL, 4, pads, 4, NULL, 0, "edge", NDPAD_ERR_NULL_ARGUMENT, "shape");
}

static void onnx_unknown_mode_strings_are_mode_error(void **state)
{
    (void)state;
    const int64_t pads[4] = {0, 1, 0, 1};
    const char *const modes[] = {"bogus", "", "Reflect", "EDGE", "reflect ", "symmetric"};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        expect_onnx_rejected(2, shape_2x3, 4, pads, 4, NULL, 0, modes[i], NDPAD_ERR_MODE, "mode");
}

static void onnx_pads_length_not_twice_rank_is_pads_length_error(void **state)
{
    (void)state;
    const int64_t pads[6] = {0, 1, 0, 1, 0, 0};
    expect_onnx_rejected(2, shape_2x3, 4, pads, 3, NULL, 0, "constant", NDPAD_ERR_PADS_LENGTH,
                         "pads");
    expect_onnx_rejected(2, shape_2x3, 4, pads, 6, NULL, 0, "constant", NDPAD_ERR_PADS_LENGTH,
                         "pads");
    expect_onnx_rejected(2, shape_2x3, 4, pads, 0, NULL, 0, "constant", NDPAD_ERR_PADS_LENGTH,
                         "pads");
}

static void onnx_pads_length_not_twice_axes_count_is_pads_length_error(void **state)
{
    (void)state;
    const int64_t pads[4] = {0, 1, 0, 1}, axes[1] = {1};
    expect_onnx_rejected(2, shape_2x3, 4, pads, 4, axes, 1, "constant", NDPAD_ERR_PADS_LENGTH,
                         "pads");
}

static void onnx_repeated_axis_is_axes_error(void **state)
{
    (void)state;
    const int64_t pads[4] = {0, 1, 0, 1};
    const int64_t same[2] = {1, 1}, same_negative[2] = {1, -1};
    expect_onnx_rejected(2, shape_2x3, 4, pads, 4, same, 2, "constant", NDPAD_ERR_AXES, "axes[1]");
    expect_onnx_rejected(2, shape_2x3, 4, pads, 4, same_negative, 2, "constant", NDPAD_ERR_AXES,
                         "axes[1]");
}

static void onnx_axis_equal_to_rank_is_axes_error(void **state)
{
    (void)state;
    const int64_t pads[2] = {0, 1}, axes[1] = {2};
    expect_onnx_rejected(2, shape_2x3, 4, pads, 2, axes, 1, "constant", NDPAD_ERR_AXES, "axes[0]");
}

static void onnx_axis_minus_rank_minus_1_is_axes_error(void **state)
{
    (void)state;
    const int64_t pads[4] = {0, 1, 0, 1}, axes[2] = {0, -3};
    expect_onnx_rejected(2, shape_2x3, 4, pads, 4, axes, 2, "constant", NDPAD_ERR_AXES, "axes[1]");
}

static void onnx_rank_out_of_range_is_rank_error(void **state)
{
    (void)state;
    int64_t shape[BIG], pads[2 * BIG];
    for (int k = 0; k < BIG; k++) shape[k] = 1;
    memset(pads, 0, sizeof pads);
    expect_onnx_rejected(NDPAD_MAX_RANK + 1, shape, 4, pads, 2 * (NDPAD_MAX_RANK + 1), NULL, 0,
                         "constant", NDPAD_ERR_RANK, "rank");
    expect_onnx_rejected(-1, shape, 4, pads, 0, NULL, 0, "constant", NDPAD_ERR_RANK, "rank");
}

static void onnx_elem_size_0_is_elem_size_error(void **state)
{
    (void)state;
    const int64_t pads[4] = {0, 1, 0, 1};
    expect_onnx_rejected(2, shape_2x3, 0, pads, 4, NULL, 0, "constant", NDPAD_ERR_ELEM_SIZE,
                         "elem_size");
}

static void onnx_negative_extent_is_shape_error(void **state)
{
    (void)state;
    const int64_t shape[2] = {2, -3}, pads[4] = {0, 1, 0, 1};
    expect_onnx_rejected(2, shape, 4, pads, 4, NULL, 0, "constant", NDPAD_ERR_SHAPE, "shape[1]");
}

static void onnx_edge_growing_empty_axis_is_empty_axis_error(void **state)
{
    (void)state;
    const int64_t shape[2] = {2, 0}, pads[4] = {0, 1, 0, 0};
    expect_onnx_rejected(2, shape, 4, pads, 4, NULL, 0, "edge", NDPAD_ERR_EMPTY_AXIS, "[1]");
    expect_onnx_rejected(2, shape, 4, pads, 4, NULL, 0, "wrap", NDPAD_ERR_EMPTY_AXIS, "[1]");
}

static void onnx_null_buffers_when_needed_are_null_buffer(void **state)
{
    (void)state;
    const int64_t pads[4] = {1, 0, 0, 1};
    unsigned char out[256];
    const int32_t in[6] = {1, 2, 3, 4, 5, 6};
    memset(out, TEST_SENTINEL, sizeof out);
    reset_last_error("in");
    check_failure("ndpad_onnx_pad",
                  ndpad_onnx_pad(2, shape_2x3, 4, pads, 4, NULL, 0, "reflect", NULL, NULL, out),
                  NDPAD_ERR_NULL_BUFFER, "in");
    assert_true(test_all_bytes_are(out, sizeof out, TEST_SENTINEL));
    reset_last_error("out");
    check_failure("ndpad_onnx_pad",
                  ndpad_onnx_pad(2, shape_2x3, 4, pads, 4, NULL, 0, "reflect", NULL, in, NULL),
                  NDPAD_ERR_NULL_BUFFER, "out");
    /* empty output: both may be NULL */
    const int64_t crop[4] = {-2, 0, 0, 1};
    assert_int_equal(ndpad_onnx_pad(2, shape_2x3, 4, crop, 4, NULL, 0, "reflect", NULL, NULL, NULL),
                     NDPAD_OK);
}

/* ===================================================================================== */
/* status strings                                                                          */
/* ===================================================================================== */

static void status_strings_are_distinct_named_and_never_null(void **state)
{
    (void)state;
    static const char *const names[] = {"NDPAD_OK",
                                        "NDPAD_ERR_NULL_ARGUMENT",
                                        "NDPAD_ERR_RANK",
                                        "NDPAD_ERR_MODE",
                                        "NDPAD_ERR_ELEM_SIZE",
                                        "NDPAD_ERR_SHAPE",
                                        "NDPAD_ERR_INTERIOR",
                                        "NDPAD_ERR_INTERIOR_MODE",
                                        "NDPAD_ERR_EMPTY_AXIS",
                                        "NDPAD_ERR_OVERFLOW",
                                        "NDPAD_ERR_STRIDE",
                                        "NDPAD_ERR_NULL_BUFFER",
                                        "NDPAD_ERR_AXES",
                                        "NDPAD_ERR_PADS_LENGTH",
                                        "NDPAD_ERR_OPTIONS",
                                        "NDPAD_ERR_ISA_UNAVAILABLE",
                                        "NDPAD_ERR_OUT_OF_MEMORY",
                                        "NDPAD_ERR_IO"};
    enum { KNOWN = sizeof names / sizeof names[0] };
    /* the pinned values */
    assert_int_equal(NDPAD_OK, 0);
    assert_int_equal(NDPAD_ERR_NULL_ARGUMENT, 1);
    assert_int_equal(NDPAD_ERR_OVERFLOW, 9);
    assert_int_equal(NDPAD_ERR_OUT_OF_MEMORY, 16);
    assert_int_equal(NDPAD_ERR_IO, 17);

    const char *strings[KNOWN + 4];
    for (int s = 0; s < KNOWN; s++) {
        strings[s] = ndpad_status_string((ndpad_status)s);
        assert_non_null(strings[s]);
        assert_true(strings[s][0] != '\0');
        if (!test_contains(strings[s], names[s]))
            fail_msg("ndpad_status_string(%d) = \"%s\" does not name %s", s, strings[s], names[s]);
    }
    const int unknown[] = {KNOWN, 100, -1, INT32_MAX};
    for (int u = 0; u < 4; u++) {
        strings[KNOWN + u] = ndpad_status_string((ndpad_status)unknown[u]);
        assert_non_null(strings[KNOWN + u]);
        assert_true(strings[KNOWN + u][0] != '\0');
    }
    for (int a = 0; a < KNOWN + 1; a++)
        for (int b = a + 1; b < KNOWN + 1; b++)
            if (strcmp(strings[a], strings[b]) == 0)
                fail_msg("statuses %d and %d share the string \"%s\"", a, b, strings[a]);
    for (int u = 1; u < 4; u++)
        for (int s = 0; s < KNOWN; s++) assert_true(strcmp(strings[KNOWN + u], strings[s]) != 0);
}

static void last_error_is_kept_by_successful_calls(void **state)
{
    (void)state;
    case_problem c;
    make_problem(&c, 2, NDPAD_CONSTANT, 4);
    c.shape[1] = -9;
    int64_t out_shape[2];
    assert_int_equal(ndpad_output_shape(&c.p, out_shape), NDPAD_ERR_SHAPE);
    char before[512];
    snprintf(before, sizeof before, "%s", ndpad_last_error());
    c.shape[1] = 2;
    assert_int_equal(ndpad_output_shape(&c.p, out_shape), NDPAD_OK);
    assert_string_equal(ndpad_last_error(), before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(null_problem_is_null_argument),
        cmocka_unit_test(null_shape_with_rank_gt_0_is_null_argument),
        cmocka_unit_test(null_pads_begin_with_rank_gt_0_is_null_argument),
        cmocka_unit_test(null_pads_end_with_rank_gt_0_is_null_argument),
        cmocka_unit_test(null_arrays_with_rank_0_are_accepted),
        cmocka_unit_test(null_out_shape_with_rank_gt_0_is_null_argument),
        cmocka_unit_test(null_plan_result_pointer_is_null_argument),
        cmocka_unit_test(execute_null_plan_is_null_argument),
        cmocka_unit_test(rank_minus_1_is_rank_error),
        cmocka_unit_test(rank_33_above_max_is_rank_error),
        cmocka_unit_test(rank_int32_min_is_rank_error),
        cmocka_unit_test(rank_32_max_is_accepted),
        cmocka_unit_test(mode_5_unknown_is_mode_error),
        cmocka_unit_test(mode_minus_1_unknown_is_mode_error),
        cmocka_unit_test(elem_size_0_is_elem_size_error),
        cmocka_unit_test(negative_extent_on_axis_2_is_shape_error),
        cmocka_unit_test(negative_extent_int64_min_is_shape_error),
        cmocka_unit_test(negative_interior_on_axis_1_is_interior_error),
        cmocka_unit_test(interior_with_each_non_constant_mode_is_interior_mode_error),
        cmocka_unit_test(zero_interior_with_edge_is_accepted),
        cmocka_unit_test(non_constant_mode_growing_empty_axis_is_empty_axis_error),
        cmocka_unit_test(edge_growing_empty_axis_while_other_axis_output_is_0_is_empty_axis_error),
        cmocka_unit_test(non_constant_mode_on_empty_axis_staying_empty_is_accepted),
        cmocka_unit_test(constant_growing_empty_axis_is_accepted_and_reads_no_input),
        cmocka_unit_test(extent_plus_pad_overflowing_int64_is_overflow),
        cmocka_unit_test(pads_sum_overflowing_int64_is_overflow),
        cmocka_unit_test(dilated_extent_overflowing_int64_is_overflow),
        cmocka_unit_test(output_element_count_overflowing_int64_is_overflow),
        cmocka_unit_test(output_byte_count_overflowing_size_t_is_overflow),
        cmocka_unit_test(huge_elem_size_byte_count_overflowing_size_t_is_overflow),
        cmocka_unit_test(input_and_output_count_2_pow_64_is_overflow),
        cmocka_unit_test(out_stride_byte_offset_overflowing_ptrdiff_is_overflow),
        cmocka_unit_test(out_strides_summed_over_axes_overflowing_is_overflow),
        cmocka_unit_test(in_stride_byte_offset_overflowing_ptrdiff_is_overflow),
        cmocka_unit_test(negative_in_stride_int64_min_overflowing_is_overflow),
        cmocka_unit_test(zero_out_stride_on_axis_with_2_outputs_is_stride_error),
        cmocka_unit_test(zero_out_stride_on_inner_axis_is_stride_error),
        cmocka_unit_test(zero_out_stride_on_axis_with_1_output_is_accepted),
        cmocka_unit_test(zero_out_strides_of_an_empty_output_are_accepted),
        cmocka_unit_test(zero_and_negative_in_strides_are_accepted),
        cmocka_unit_test(null_in_when_input_is_read_is_null_buffer),
        cmocka_unit_test(null_out_when_output_not_empty_is_null_buffer),
        cmocka_unit_test(null_in_for_rank_0_copy_is_null_buffer),
        cmocka_unit_test(null_in_and_out_with_empty_output_are_accepted),
        cmocka_unit_test(null_in_when_crop_leaves_only_pad_values_is_accepted),
        cmocka_unit_test(options_negative_threads_is_options_error),
        cmocka_unit_test(options_non_zero_reserved_is_options_error),
        cmocka_unit_test(options_negative_tile_rows_is_options_error),
        cmocka_unit_test(options_negative_tile_cols_is_options_error),
        cmocka_unit_test(options_isa_not_an_ndpad_isa_is_options_error),
        cmocka_unit_test(options_isa_of_other_architecture_is_isa_unavailable),
        cmocka_unit_test(options_isa_scalar_is_always_available),
        cmocka_unit_test(onnx_null_result_pointer_is_null_argument),
        cmocka_unit_test(onnx_null_pads_with_count_4_is_null_argument),
        cmocka_unit_test(onnx_null_shape_is_null_argument),
        cmocka_unit_test(onnx_unknown_mode_strings_are_mode_error),
        cmocka_unit_test(onnx_pads_length_not_twice_rank_is_pads_length_error),
        cmocka_unit_test(onnx_pads_length_not_twice_axes_count_is_pads_length_error),
        cmocka_unit_test(onnx_repeated_axis_is_axes_error),
        cmocka_unit_test(onnx_axis_equal_to_rank_is_axes_error),
        cmocka_unit_test(onnx_axis_minus_rank_minus_1_is_axes_error),
        cmocka_unit_test(onnx_rank_out_of_range_is_rank_error),
        cmocka_unit_test(onnx_elem_size_0_is_elem_size_error),
        cmocka_unit_test(onnx_negative_extent_is_shape_error),
        cmocka_unit_test(onnx_edge_growing_empty_axis_is_empty_axis_error),
        cmocka_unit_test(onnx_null_buffers_when_needed_are_null_buffer),
        cmocka_unit_test(status_strings_are_distinct_named_and_never_null),
        cmocka_unit_test(last_error_is_kept_by_successful_calls),
    };
    return cmocka_run_group_tests_name("errors", tests, NULL, NULL);
}
