/*
 * test-hostile.c — hostile inputs (issue 6): every case is a problem, an ONNX call or an
 * option set that a careless or malicious caller could pass. Each table case is run through
 * every entry point it reaches (ndpad_output_shape, ndpad_pad, ndpad_plan_create with NULL
 * and with explicit options, or the two ONNX entry points) and must give
 *   - the expected non-zero status;
 *   - an ndpad_last_error() that names the entry point and the argument (and the axis:
 *     "shape[1]", "pads_end[0]", "axes[1]");
 *   - nothing written: the output (sentinel-filled, guard bytes included), out_shape and the
 *     input are byte-for-byte unchanged, and *plan is NULL;
 *   - no leak: a rejection made before any allocation allocates nothing
 *     (ndpad_alloc_fail_after counts them); the rest is checked by LeakSanitizer and
 *     valgrind (ci/sanitize.sh, ci/valgrind.sh).
 * Arrays are heap copies of exactly `rank` entries (one for an invalid rank), so that a read
 * past them is caught under AddressSanitizer and valgrind.
 * Then the cases that are valid but extreme: pads of +-2^62 with an empty or tiny output, a
 * rank-32 output of 2^32 elements, INT32_MAX threads with forced one-row tiles. Each must
 * give the right answer in time proportional to its output (bounded below in seconds, far
 * above what they need even under valgrind, far below a loop over 2^62 positions).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <time.h>

#include "alloc.h"
#include "wisdom.h"
#include "ndpad.h"
#include "test-checks.h"

#define P62  ((int64_t)1 << 62)
#define P32  ((int64_t)1 << 32)
#define P31  ((int64_t)1 << 31)
#define MAXA 4 /* table arrays; heap copies hold exactly `rank` */

enum { BUF = 1024 };

/* ---- core problem cases -------------------------------------------------------------- */

enum {
    NULL_PROBLEM = 1 << 0,
    NULL_SHAPE = 1 << 1,
    NULL_PADS_BEGIN = 1 << 2,
    NULL_PADS_END = 1 << 3,
    WITH_INTERIOR = 1 << 4,
    WITH_IN_STRIDES = 1 << 5,
    WITH_OUT_STRIDES = 1 << 6,
    NO_ALLOC_CHECK = 1 << 7, /* the case is rejected after the plan is allocated */
};

/* The case tables are aligned by hand, a case to a line or two. */
/* clang-format off */
typedef struct hostile_case {
    const char  *name;
    int32_t      rank, mode;
    size_t       elem_size;
    int64_t      shape[MAXA], pb[MAXA], pe[MAXA], interior[MAXA], in_strides[MAXA],
                 out_strides[MAXA];
    unsigned     flags;
    ndpad_status want;
    const char  *needles[3]; /* each must appear in the message */
} hostile_case;

#define CONSTANT NDPAD_CONSTANT
#define EDGE     NDPAD_EDGE
#define REFLECT  NDPAD_REFLECT
#define SYMM     NDPAD_SYMMETRIC
#define WRAP     NDPAD_WRAP
#define E(...)   {__VA_ARGS__}

static const hostile_case core_cases[] = {
    /* NULL problem and arrays */
    {"null_problem", 0, CONSTANT, 4, E(0), E(0), E(0), E(0), E(0), E(0), NULL_PROBLEM,
     NDPAD_ERR_NULL_ARGUMENT, {"problem"}},
    {"null_shape", 2, EDGE, 4, E(2, 2), E(1, 1), E(1, 1), E(0), E(0), E(0), NULL_SHAPE,
     NDPAD_ERR_NULL_ARGUMENT, {"shape", "rank = 2"}},
    {"null_pads_begin", 2, EDGE, 4, E(2, 2), E(1, 1), E(1, 1), E(0), E(0), E(0), NULL_PADS_BEGIN,
     NDPAD_ERR_NULL_ARGUMENT, {"pads_begin"}},
    {"null_pads_end", 3, REFLECT, 4, E(2, 2, 2), E(1, 1, 1), E(1, 1, 1), E(0), E(0), E(0),
     NULL_PADS_END, NDPAD_ERR_NULL_ARGUMENT, {"pads_end"}},
    {"null_everything_rank_1", 1, CONSTANT, 1, E(1), E(1), E(1), E(0), E(0), E(0),
     NULL_SHAPE | NULL_PADS_BEGIN | NULL_PADS_END, NDPAD_ERR_NULL_ARGUMENT, {"shape"}},
    /* rank */
    {"rank_minus_1", -1, CONSTANT, 4, E(0), E(0), E(0), E(0), E(0), E(0), 0, NDPAD_ERR_RANK,
     {"rank = -1", "[0, 32]"}},
    {"rank_33", 33, CONSTANT, 4, E(0), E(0), E(0), E(0), E(0), E(0), 0, NDPAD_ERR_RANK,
     {"rank = 33"}},
    {"rank_int32_min", INT32_MIN, EDGE, 4, E(0), E(0), E(0), E(0), E(0), E(0), 0, NDPAD_ERR_RANK,
     {"rank = -2147483648"}},
    {"rank_int32_max", INT32_MAX, EDGE, 4, E(0), E(0), E(0), E(0), E(0), E(0), 0, NDPAD_ERR_RANK,
     {"rank = 2147483647"}},
    /* extents */
    {"negative_extent_axis_1", 3, CONSTANT, 4, E(2, -3, 2), E(0, 0, 0), E(0, 0, 0), E(0), E(0),
     E(0), 0, NDPAD_ERR_SHAPE, {"shape[1]", "-3"}},
    {"extent_int64_min_axis_2", 3, WRAP, 4, E(2, 2, INT64_MIN), E(0, 0, 0), E(0, 0, 0), E(0),
     E(0), E(0), 0, NDPAD_ERR_SHAPE, {"shape[2]"}},
    /* element size */
    {"elem_size_0", 1, CONSTANT, 0, E(3), E(1), E(1), E(0), E(0), E(0), 0, NDPAD_ERR_ELEM_SIZE,
     {"elem_size"}},
    {"elem_size_size_max", 1, CONSTANT, SIZE_MAX, E(3), E(1), E(1), E(0), E(0), E(0), 0,
     NDPAD_ERR_OVERFLOW, {"elem_size"}},
    {"elem_size_2_pow_63", 1, EDGE, (size_t)1 << 63, E(3), E(1), E(1), E(0), E(0), E(0), 0,
     NDPAD_ERR_OVERFLOW, {"elem_size"}},
    {"elem_size_2_pow_62_times_3_elements", 1, EDGE, (size_t)1 << 62, E(3), E(1), E(1), E(0),
     E(0), E(0), 0, NDPAD_ERR_OVERFLOW, {"elements"}},
    /* mode */
    {"mode_5", 1, 5, 4, E(3), E(1), E(1), E(0), E(0), E(0), 0, NDPAD_ERR_MODE, {"mode = 5"}},
    {"mode_minus_1", 1, -1, 4, E(3), E(1), E(1), E(0), E(0), E(0), 0, NDPAD_ERR_MODE,
     {"mode = -1"}},
    {"mode_int32_max", 1, INT32_MAX, 4, E(3), E(1), E(1), E(0), E(0), E(0), 0, NDPAD_ERR_MODE,
     {"mode = 2147483647"}},
    /* interior */
    {"interior_with_edge", 2, EDGE, 4, E(3, 3), E(1, 1), E(1, 1), E(0, 2), E(0), E(0),
     WITH_INTERIOR, NDPAD_ERR_INTERIOR_MODE, {"interior[1]", "EDGE"}},
    {"interior_with_reflect", 2, REFLECT, 4, E(3, 3), E(1, 1), E(1, 1), E(1, 0), E(0), E(0),
     WITH_INTERIOR, NDPAD_ERR_INTERIOR_MODE, {"interior[0]", "REFLECT"}},
    {"interior_with_symmetric", 1, SYMM, 2, E(3), E(1), E(1), E(7), E(0), E(0), WITH_INTERIOR,
     NDPAD_ERR_INTERIOR_MODE, {"interior[0]", "SYMMETRIC"}},
    {"interior_with_wrap", 1, WRAP, 8, E(3), E(1), E(1), E(P62), E(0), E(0), WITH_INTERIOR,
     NDPAD_ERR_INTERIOR_MODE, {"interior[0]", "WRAP"}},
    {"negative_interior", 2, CONSTANT, 4, E(3, 3), E(0, 0), E(0, 0), E(0, -1), E(0), E(0),
     WITH_INTERIOR, NDPAD_ERR_INTERIOR, {"interior[1]"}},
    {"interior_overflowing_dilated_extent", 1, CONSTANT, 1, E(3), E(0), E(0), E(INT64_MAX),
     E(0), E(0), WITH_INTERIOR, NDPAD_ERR_OVERFLOW, {"interior[0]", "shape[0]"}},
    /* non-constant mode on an empty axis that must grow */
    {"edge_growing_empty_axis", 2, EDGE, 4, E(3, 0), E(1, 1), E(1, 0), E(0), E(0), E(0), 0,
     NDPAD_ERR_EMPTY_AXIS, {"axis 1", "shape[1] = 0"}},
    {"reflect_growing_empty_axis_other_axis_empty", 2, REFLECT, 4, E(3, 0), E(-2, 0), E(-1, 2),
     E(0), E(0), E(0), 0, NDPAD_ERR_EMPTY_AXIS, {"axis 1"}},
    {"wrap_growing_empty_axis_by_2_pow_62", 1, WRAP, 1, E(0), E(P62), E(0), E(0), E(0), E(0), 0,
     NDPAD_ERR_EMPTY_AXIS, {"axis 0"}},
    /* products and sums that overflow */
    {"extents_product_overflows_int64", 3, CONSTANT, 1, E(P32, P32, 2), E(0, 0, 0), E(0, 0, 0),
     E(0), E(0), E(0), 0, NDPAD_ERR_OVERFLOW, {"axis"}},
    {"output_bytes_overflow_int64", 2, CONSTANT, 8, E(P31, P31), E(0, 0), E(0, 0), E(0), E(0),
     E(0), 0, NDPAD_ERR_OVERFLOW, {"bytes"}},
    {"input_bytes_overflow_with_empty_output", 2, CONSTANT, 16, E(P32, P31 - 1), E(0, 0),
     E(-P32, 0), E(0), E(0), E(0), 0, NDPAD_ERR_OVERFLOW, {"input", "shape[1]"}},
    {"broadcast_input_bytes_overflow", 2, EDGE, 4, E(P31, P31), E(0, 0),
     E(1 - P31, 1 - P31), E(0), E(0, 0), E(0), WITH_IN_STRIDES, NDPAD_ERR_OVERFLOW,
     {"input", "shape[1]"}},
    {"dense_input_strides_overflow", 3, EDGE, 1, E(P32, P32, 1), E(0, 0, 0), E(-P32, 0, 0),
     E(0), E(0), E(0), 0, NDPAD_ERR_OVERFLOW, {"in_strides", "shape[0]"}},
    {"pads_2_pow_62_both_sides", 1, CONSTANT, 1, E(P62), E(P62), E(P62), E(0), E(0), E(0), 0,
     NDPAD_ERR_OVERFLOW, {"pads_begin[0]", "pads_end[0]"}},
    {"pads_int64_max_plus_extent", 2, EDGE, 4, E(2, 3), E(0, INT64_MAX), E(0, 0), E(0), E(0),
     E(0), 0, NDPAD_ERR_OVERFLOW, {"pads_begin[1]"}},
    {"pads_2_pow_62_on_two_axes", 2, CONSTANT, 1, E(1, 1), E(P62, P62), E(0, 0), E(0), E(0),
     E(0), 0, NDPAD_ERR_OVERFLOW, {"axis 1"}},
    {"pads_begin_int64_min", 1, CONSTANT, 1, E(3), E(INT64_MIN), E(INT64_MAX), E(0), E(0),
     E(0), 0, NDPAD_ERR_OVERFLOW, {"pads_begin[0]"}},
    {"pads_period_of_huge_extent", 1, REFLECT, 1, E(INT64_MAX / 2 + 1), E(0), E(0), E(0), E(0),
     E(0), 0, NDPAD_ERR_OVERFLOW, {"shape[0]", "REFLECT"}},
    /* strides */
    {"out_stride_2_pow_62", 2, CONSTANT, 4, E(3, 3), E(0, 0), E(0, 0), E(0), E(0), E(P62, 1),
     WITH_OUT_STRIDES, NDPAD_ERR_OVERFLOW, {"out_strides"}},
    {"out_strides_sum_overflows", 2, CONSTANT, 1, E(3, 3), E(0, 0), E(0, 0), E(0), E(0),
     E(P62, -P62), WITH_OUT_STRIDES, NDPAD_ERR_OVERFLOW, {"out_strides"}},
    {"in_stride_int64_min", 2, EDGE, 1, E(3, 3), E(1, 1), E(1, 1), E(0), E(INT64_MIN, 1), E(0),
     WITH_IN_STRIDES, NDPAD_ERR_OVERFLOW, {"in_strides"}},
    {"in_stride_overflowing_in_bytes", 1, CONSTANT, 16, E(3), E(0), E(0), E(0), E(P62), E(0),
     WITH_IN_STRIDES, NDPAD_ERR_OVERFLOW, {"in_strides"}},
    {"out_stride_int64_max_last_byte_overflows", 1, EDGE, 1, E(1), E(0), E(1), E(0), E(0),
     E(INT64_MAX), WITH_OUT_STRIDES, NDPAD_ERR_OVERFLOW, {"out_strides"}},
    {"zero_out_stride_on_axis_with_5_outputs", 2, EDGE, 4, E(3, 3), E(1, 1), E(1, 1), E(0),
     E(0), E(5, 0), WITH_OUT_STRIDES, NDPAD_ERR_STRIDE, {"out_strides[1]"}},
};
/* clang-format on */

typedef struct problem_copy {
    ndpad_problem p;
    int64_t *shape, *pb, *pe, *interior, *in_strides, *out_strides;
} problem_copy;

static int64_t *exact_copy(const int64_t *values, int32_t count)
{
    int64_t *copy = test_xmalloc(sizeof(int64_t) * (size_t)count);
    memcpy(copy, values, sizeof(int64_t) * (size_t)count);
    return copy;
}

static void copy_case(const hostile_case *c, problem_copy *pc)
{
    const int32_t entries = c->rank >= 1 && c->rank <= MAXA ? c->rank : 1;
    pc->shape = exact_copy(c->shape, entries);
    pc->pb = exact_copy(c->pb, entries);
    pc->pe = exact_copy(c->pe, entries);
    pc->interior = exact_copy(c->interior, entries);
    pc->in_strides = exact_copy(c->in_strides, entries);
    pc->out_strides = exact_copy(c->out_strides, entries);
    pc->p = (ndpad_problem){
        .rank = c->rank,
        .mode = c->mode,
        .elem_size = c->elem_size,
        .shape = c->flags & NULL_SHAPE ? NULL : pc->shape,
        .pads_begin = c->flags & NULL_PADS_BEGIN ? NULL : pc->pb,
        .pads_end = c->flags & NULL_PADS_END ? NULL : pc->pe,
        .interior = c->flags & WITH_INTERIOR ? pc->interior : NULL,
        .in_strides = c->flags & WITH_IN_STRIDES ? pc->in_strides : NULL,
        .out_strides = c->flags & WITH_OUT_STRIDES ? pc->out_strides : NULL,
    };
}

static void free_copy(problem_copy *pc)
{
    free(pc->shape);
    free(pc->pb);
    free(pc->pe);
    free(pc->interior);
    free(pc->in_strides);
    free(pc->out_strides);
}

/* The message of the call just made: it names the entry point and every needle. */
static void expect_message(const char *function, const char *const *needles, size_t count)
{
    const char *message = ndpad_last_error();
    assert_non_null(message);
    assert_non_null(memchr(message, '\0', 512));
    if (strncmp(message, function, strlen(function)) != 0 || message[strlen(function)] != ':')
        fail_msg("message \"%s\" does not start with \"%s:\"", message, function);
    for (size_t i = 0; i < count && needles[i] != NULL; i++)
        if (strstr(message, needles[i]) == NULL)
            fail_msg("message \"%s\" does not name \"%s\"", message, needles[i]);
}

/* Clears the last error to a known text that no case expects. */
static void clear_last_error(void)
{
    ndpad_options bad;
    ndpad_options_init(&bad);
    bad.threads = -12345;
    ndpad_plan *plan = NULL;
    const int64_t shape[1] = {1}, pads[1] = {0};
    const ndpad_problem ok = {.rank = 1,
                              .elem_size = 1,
                              .shape = shape,
                              .pads_begin = pads,
                              .pads_end = pads};
    assert_int_equal(ndpad_plan_create(&ok, &bad, &plan), NDPAD_ERR_OPTIONS);
    assert_non_null(strstr(ndpad_last_error(), "-12345"));
}

typedef struct buffers {
    unsigned char in[BUF], out[BUF + 2 * TEST_GUARD];
    int64_t out_shape[NDPAD_MAX_RANK + 8];
} buffers;

static void buffers_fill(buffers *b)
{
    for (int i = 0; i < BUF; i++) b->in[i] = (unsigned char)(i * 7 + 3);
    memset(b->out, TEST_SENTINEL, sizeof b->out);
    memset(b->out_shape, TEST_SENTINEL, sizeof b->out_shape);
}

static void buffers_untouched(const buffers *b, const char *what)
{
    for (int i = 0; i < BUF; i++)
        if (b->in[i] != (unsigned char)(i * 7 + 3)) fail_msg("%s wrote to the input", what);
    if (!test_all_bytes_are(b->out, sizeof b->out, TEST_SENTINEL))
        fail_msg("%s wrote to the output", what);
    if (!test_all_bytes_are(b->out_shape, sizeof b->out_shape, TEST_SENTINEL))
        fail_msg("%s wrote to out_shape", what);
}

static void run_core_case(void **state)
{
    const hostile_case *c = (const hostile_case *)*state;
    problem_copy pc;
    copy_case(c, &pc);
    const ndpad_problem *p = c->flags & NULL_PROBLEM ? NULL : &pc.p;
    buffers *b = test_xmalloc(sizeof(*b));
    const size_t needles = sizeof c->needles / sizeof c->needles[0];
    const bool alloc_check = !(c->flags & NO_ALLOC_CHECK);

    buffers_fill(b);
    clear_last_error();
    ndpad_alloc_fail_after(-1);
    assert_int_equal(ndpad_output_shape(p, b->out_shape), c->want);
    expect_message("ndpad_output_shape", c->needles, needles);
    buffers_untouched(b, "ndpad_output_shape");

    clear_last_error();
    ndpad_alloc_fail_after(-1);
    assert_int_equal(ndpad_pad(p, b->in, b->out + TEST_GUARD), c->want);
    if (alloc_check) assert_int_equal(ndpad_alloc_fail_after(-1), 0);
    expect_message("ndpad_pad", c->needles, needles);
    buffers_untouched(b, "ndpad_pad");

    for (int variant = 0; variant < 3; variant++) {
        ndpad_options options;
        ndpad_options_init(&options);
        options.threads = variant == 2 ? 2 : 0;
        options.isa = variant == 2 ? NDPAD_ISA_SCALAR : NDPAD_ISA_AUTO;
        options.tuning = variant == 1 ? NDPAD_TUNING_HEURISTIC : NDPAD_TUNING_CACHE;
        ndpad_plan *plan = (ndpad_plan *)(void *)b; /* must become NULL */
        clear_last_error();
        ndpad_alloc_fail_after(-1);
        assert_int_equal(ndpad_plan_create(p, variant ? &options : NULL, &plan), c->want);
        if (alloc_check) assert_int_equal(ndpad_alloc_fail_after(-1), 0);
        assert_null(plan);
        expect_message("ndpad_plan_create", c->needles, needles);
    }
    buffers_untouched(b, "ndpad_plan_create");
    free(b);
    free_copy(&pc);
}

/* ---- ONNX cases ------------------------------------------------------------------------ */

/* The case tables are aligned by hand, a case to a line or two. */
/* clang-format off */
typedef struct onnx_case {
    const char  *name;
    int32_t      rank;
    int64_t      shape[MAXA];
    int64_t      pads[2 * MAXA + 2];
    int64_t      pads_count;   /* entries passed; the heap copy holds exactly this (if sane) */
    int64_t      axes[MAXA + 1];
    int64_t      axes_count;   /* -2: axes NULL */
    const char  *mode;
    ndpad_status want;
    const char  *needles[3];
} onnx_case;

static const char long_mode[] =
    "constantconstantconstantconstantconstantconstantconstantconstantconstantconstant"
    "constantconstantconstantconstantconstantconstantconstantconstantconstantconstant";

static const onnx_case onnx_cases[] = {
    {"onnx_mode_symmetric", 1, E(3), E(1, 1), 2, E(0), -2, "symmetric", NDPAD_ERR_MODE,
     {"mode", "symmetric"}},
    {"onnx_mode_uppercase", 1, E(3), E(1, 1), 2, E(0), -2, "CONSTANT", NDPAD_ERR_MODE,
     {"mode", "CONSTANT"}},
    {"onnx_mode_trailing_space", 1, E(3), E(1, 1), 2, E(0), -2, "edge ", NDPAD_ERR_MODE,
     {"mode"}},
    {"onnx_mode_empty", 1, E(3), E(1, 1), 2, E(0), -2, "", NDPAD_ERR_MODE, {"mode"}},
    {"onnx_mode_format_directives", 1, E(3), E(1, 1), 2, E(0), -2, "%s%n%s%n", NDPAD_ERR_MODE,
     {"mode"}},
    {"onnx_mode_160_bytes", 1, E(3), E(1, 1), 2, E(0), -2, long_mode, NDPAD_ERR_MODE,
     {"mode"}},
    {"onnx_pads_length_3_for_rank_2", 2, E(3, 4), E(1, 1, 1), 3, E(0), -2, "constant",
     NDPAD_ERR_PADS_LENGTH, {"pads", "3"}},
    {"onnx_pads_length_0_for_rank_2", 2, E(3, 4), E(0), 0, E(0), -2, "reflect",
     NDPAD_ERR_PADS_LENGTH, {"pads"}},
    {"onnx_pads_length_int64_max", 1, E(3), E(1, 1), INT64_MAX, E(0), -2, "edge",
     NDPAD_ERR_PADS_LENGTH, {"pads"}},
    {"onnx_pads_length_negative", 1, E(3), E(1, 1), -2, E(0), -2, "edge", NDPAD_ERR_PADS_LENGTH,
     {"pads"}},
    {"onnx_pads_length_not_twice_axes", 3, E(2, 3, 4), E(1, 1, 1, 1), 4, E(2), 1, "wrap",
     NDPAD_ERR_PADS_LENGTH, {"pads", "4"}},
    {"onnx_repeated_axis", 3, E(2, 3, 4), E(1, 1, 1, 1), 4, E(1, -2), 2, "constant",
     NDPAD_ERR_AXES, {"axes[1]", "repeats"}},
    {"onnx_axis_equal_to_rank", 2, E(3, 4), E(1, 1), 2, E(2), 1, "constant", NDPAD_ERR_AXES,
     {"axes[0]"}},
    {"onnx_axis_below_minus_rank", 2, E(3, 4), E(1, 1, 1, 1), 4, E(0, -3), 2, "edge",
     NDPAD_ERR_AXES, {"axes[1]"}},
    {"onnx_axis_int64_min", 2, E(3, 4), E(1, 1), 2, E(INT64_MIN), 1, "edge", NDPAD_ERR_AXES,
     {"axes[0]"}},
    {"onnx_axes_count_above_rank", 2, E(3, 4), E(1, 1, 1, 1, 1, 1), 6, E(0, 1, 0), 3, "edge",
     NDPAD_ERR_AXES, {"axes_count"}},
    {"onnx_axes_count_int64_max", 2, E(3, 4), E(1, 1), 2, E(0), INT64_MAX, "edge",
     NDPAD_ERR_AXES, {"axes_count"}},
    {"onnx_axes_count_negative", 2, E(3, 4), E(1, 1), 2, E(0), -1, "edge", NDPAD_ERR_AXES,
     {"axes_count"}},
    {"onnx_rank_33", 33, E(0), E(0), 0, E(0), -2, "constant", NDPAD_ERR_RANK, {"rank = 33"}},
    {"onnx_negative_extent", 2, E(3, -1), E(0, 0, 0, 0), 4, E(0), -2, "constant",
     NDPAD_ERR_SHAPE, {"shape[1]"}},
    {"onnx_pads_int64_max", 1, E(3), E(INT64_MAX, 1), 2, E(0), -2, "constant",
     NDPAD_ERR_OVERFLOW, {"pads_begin[0]"}},
    {"onnx_edge_growing_empty_axis", 2, E(3, 0), E(0, 1, 0, 1), 4, E(0), -2, "edge",
     NDPAD_ERR_EMPTY_AXIS, {"axis 1"}},
};
/* clang-format on */

static void run_onnx_case(void **state)
{
    const onnx_case *c = (const onnx_case *)*state;
    const int32_t shape_entries = c->rank >= 1 && c->rank <= MAXA ? c->rank : 1;
    const int64_t pads_entries =
        c->pads_count >= 1 && c->pads_count <= 2 * MAXA + 2 ? c->pads_count : 1;
    int64_t *shape = exact_copy(c->shape, shape_entries);
    int64_t *pads = exact_copy(c->pads, (int32_t)pads_entries);
    int64_t *axes = NULL;
    if (c->axes_count != -2) {
        const int64_t entries = c->axes_count >= 1 && c->axes_count <= MAXA + 1 ? c->axes_count : 1;
        axes = exact_copy(c->axes, (int32_t)entries);
    }
    const int64_t axes_count = c->axes_count == -2 ? 0 : c->axes_count;
    const size_t needles = sizeof c->needles / sizeof c->needles[0];
    buffers *b = test_xmalloc(sizeof(*b));
    ndpad_onnx_problem *onnx = test_xmalloc(sizeof(*onnx));

    buffers_fill(b);
    clear_last_error();
    ndpad_alloc_fail_after(-1);
    assert_int_equal(ndpad_onnx_problem_init(onnx, c->rank, shape, 4, pads, c->pads_count, axes,
                                             axes_count, c->mode, NULL),
                     c->want);
    expect_message("ndpad_onnx_problem_init", c->needles, needles);

    clear_last_error();
    assert_int_equal(ndpad_onnx_pad(c->rank, shape, 4, pads, c->pads_count, axes, axes_count,
                                    c->mode, NULL, b->in, b->out + TEST_GUARD),
                     c->want);
    assert_int_equal(ndpad_alloc_fail_after(-1), 0);
    expect_message("ndpad_onnx_pad", c->needles, needles);
    buffers_untouched(b, "ndpad_onnx_pad");

    free(onnx);
    free(b);
    free(shape);
    free(pads);
    free(axes);
}

/* ---- NULL buffers, result pointers and options ------------------------------------------ */

static const int64_t small_shape[2] = {3, 4}, small_pb[2] = {1, 2}, small_pe[2] = {2, 1};

static ndpad_problem small_problem(int32_t mode)
{
    return (ndpad_problem){.rank = 2,
                           .mode = mode,
                           .elem_size = 4,
                           .shape = small_shape,
                           .pads_begin = small_pb,
                           .pads_end = small_pe};
}

static void null_in_and_null_out_are_named_and_write_nothing(void **state)
{
    (void)state;
    for (int32_t mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++) {
        const ndpad_problem p = small_problem(mode);
        buffers *b = test_xmalloc(sizeof(*b));
        buffers_fill(b);
        clear_last_error();
        assert_int_equal(ndpad_pad(&p, NULL, b->out + TEST_GUARD), NDPAD_ERR_NULL_BUFFER);
        const char *in_needles[] = {"in is NULL"};
        expect_message("ndpad_pad", in_needles, 1);
        clear_last_error();
        assert_int_equal(ndpad_pad(&p, b->in, NULL), NDPAD_ERR_NULL_BUFFER);
        const char *out_needles[] = {"out is NULL", "42 elements"};
        expect_message("ndpad_pad", out_needles, 2);

        ndpad_plan *plan = NULL;
        assert_int_equal(ndpad_plan_create(&p, NULL, &plan), NDPAD_OK);
        clear_last_error();
        assert_int_equal(ndpad_execute(plan, NULL, b->out + TEST_GUARD), NDPAD_ERR_NULL_BUFFER);
        expect_message("ndpad_execute", in_needles, 1);
        clear_last_error();
        assert_int_equal(ndpad_execute(plan, NULL, NULL), NDPAD_ERR_NULL_BUFFER);
        expect_message("ndpad_execute", out_needles, 1);
        ndpad_plan_destroy(plan);
        buffers_untouched(b, "a NULL buffer");
        free(b);
    }
}

static void null_result_pointers_and_null_plan_are_named(void **state)
{
    (void)state;
    const ndpad_problem p = small_problem(NDPAD_EDGE);
    clear_last_error();
    ndpad_alloc_fail_after(-1);
    assert_int_equal(ndpad_plan_create(&p, NULL, NULL), NDPAD_ERR_NULL_ARGUMENT);
    assert_int_equal(ndpad_alloc_fail_after(-1), 0);
    const char *plan_needles[] = {"plan"};
    expect_message("ndpad_plan_create", plan_needles, 1);
    clear_last_error();
    assert_int_equal(ndpad_output_shape(&p, NULL), NDPAD_ERR_NULL_ARGUMENT);
    const char *shape_needles[] = {"out_shape", "rank = 2"};
    expect_message("ndpad_output_shape", shape_needles, 2);
    clear_last_error();
    unsigned char out[64];
    memset(out, TEST_SENTINEL, sizeof out);
    assert_int_equal(ndpad_execute(NULL, out, out), NDPAD_ERR_NULL_ARGUMENT);
    expect_message("ndpad_execute", plan_needles, 1);
    assert_true(test_all_bytes_are(out, sizeof out, TEST_SENTINEL));
    clear_last_error();
    assert_int_equal(ndpad_onnx_problem_init(NULL, 1, small_shape, 4, small_pb, 2, NULL, 0, "edge",
                                             NULL),
                     NDPAD_ERR_NULL_ARGUMENT);
    const char *onnx_needles[] = {"onnx"};
    expect_message("ndpad_onnx_problem_init", onnx_needles, 1);
    /* the functions documented to ignore NULL */
    ndpad_plan_destroy(NULL);
    ndpad_options_init(NULL);
    char text[64];
    memset(text, TEST_SENTINEL, sizeof text);
    const size_t length = ndpad_plan_describe(NULL, text, sizeof text);
    assert_true(length < sizeof text ? strlen(text) == length : strlen(text) == sizeof text - 1);
}

static void hostile_options_are_named_and_allocate_nothing(void **state)
{
    (void)state;
    const ndpad_problem p = small_problem(NDPAD_REFLECT);
    ndpad_options o[8];
    const char *needles[8];
    int count = 0;
    ndpad_options_init(&o[count]), o[count].threads = INT32_MIN, needles[count++] = "threads";
    ndpad_options_init(&o[count]), o[count].tile_rows = INT64_MIN, needles[count++] = "tile_rows";
    ndpad_options_init(&o[count]), o[count].tile_cols = -1, needles[count++] = "tile_cols";
    ndpad_options_init(&o[count]), o[count].isa = 99, needles[count++] = "isa";
    ndpad_options_init(&o[count]), o[count].isa = -1, needles[count++] = "isa";
    ndpad_options_init(&o[count]), o[count].tuning = 7, needles[count++] = "tuning";
    ndpad_options_init(&o[count]), o[count].reserved[7] = 1, needles[count++] = "reserved[7]";
    ndpad_options_init(&o[count]), o[count].reserved32 = -1, needles[count++] = "reserved32";
    for (int i = 0; i < count; i++) {
        ndpad_plan *plan = (ndpad_plan *)(void *)&o[i];
        clear_last_error();
        ndpad_alloc_fail_after(-1);
        const ndpad_status st = ndpad_plan_create(&p, &o[i], &plan);
        assert_int_equal(ndpad_alloc_fail_after(-1), 0);
        assert_null(plan);
        if (st != NDPAD_ERR_OPTIONS) fail_msg("case %d (%s): status %d", i, needles[i], (int)st);
        expect_message("ndpad_plan_create", &needles[i], 1);
    }
}

/* ---- valid but extreme: time bounded by the output ------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs p (dense) through ndpad_pad and a plan with 2 threads, against the reference,
 * with sentinel guards; the whole check must take less than `seconds`. */
static void check_extreme(const ndpad_problem *p, double seconds)
{
    const double start = now_seconds();
    const int64_t count = test_check_output_shape(p, NULL);
    const size_t bytes = (size_t)count * p->elem_size;
    const int64_t in_count = test_count(p->rank, p->shape);
    unsigned char *in = test_xmalloc((size_t)in_count * p->elem_size);
    test_rng rng = test_rng_make(62, (uint64_t)count);
    test_rng_bytes(&rng, in, (size_t)in_count * p->elem_size);
    test_out expected = test_out_make(bytes), actual = test_out_make(bytes);
    assert_int_equal(ndpad_ref_pad(p, in, expected.body), NDPAD_OK);
    assert_int_equal(ndpad_pad(p, in, actual.body), NDPAD_OK);
    test_expect_same_bytes("ndpad_pad", p, expected.alloc, actual.alloc, bytes + 2 * TEST_GUARD,
                           TEST_GUARD);
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = 2;
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(p, &options, &plan), NDPAD_OK);
    memset(actual.alloc, TEST_SENTINEL, bytes + 2 * TEST_GUARD);
    assert_int_equal(ndpad_execute(plan, in, actual.body), NDPAD_OK);
    test_expect_same_bytes("plan", p, expected.alloc, actual.alloc, bytes + 2 * TEST_GUARD,
                           TEST_GUARD);
    ndpad_plan_destroy(plan);
    test_out_free(&expected);
    test_out_free(&actual);
    free(in);
    const double took = now_seconds() - start;
    if (took > seconds) fail_msg("took %.3f s, more than %.1f s", took, seconds);
}

static void huge_negative_pads_with_empty_output_return_at_once(void **state)
{
    (void)state;
    const int64_t shapes[][2] = {{3, 5}, {INT64_MAX / 4, 1}, {P62 / 4, 2}};
    const int64_t begins[][2] = {{-P62, 0}, {-P62, 0}, {0, -P62}};
    const int64_t ends[][2] = {{0, -P62}, {-P62 + 1, 2}, {-P62, P62 - 2}};
    for (int32_t mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++)
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
            const ndpad_problem p = {.rank = 2,
                                     .mode = mode,
                                     .elem_size = 1,
                                     .shape = shapes[i],
                                     .pads_begin = begins[i],
                                     .pads_end = ends[i]};
            const double start = now_seconds();
            int64_t out_shape[2];
            const ndpad_status st = ndpad_output_shape(&p, out_shape);
            if (st != NDPAD_OK) fail_msg("mode %d case %zu: %s", (int)mode, i, ndpad_last_error());
            assert_int_equal(out_shape[0] * out_shape[1], 0);
            assert_int_equal(ndpad_pad(&p, NULL, NULL), NDPAD_OK);
            ndpad_plan *plan = NULL;
            assert_int_equal(ndpad_plan_create(&p, NULL, &plan), NDPAD_OK);
            assert_int_equal(ndpad_execute(plan, NULL, NULL), NDPAD_OK);
            char text[2048];
            assert_true(ndpad_plan_describe(plan, text, sizeof text) > 0);
            ndpad_plan_destroy(plan);
            const double took = now_seconds() - start;
            if (took > 1.0) fail_msg("mode %d case %zu took %.3f s", (int)mode, i, took);
        }
}

/* An empty CONSTANT output never writes a pad value, so a huge element size (valid: nothing
 * is ever copied) must not make planning allocate one. */
static void empty_constant_output_with_huge_elements_needs_no_pad_value(void **state)
{
    (void)state;
    const int64_t shape[1] = {0}, zero[1] = {0};
    const ndpad_problem p = {.rank = 1,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = (size_t)P62,
                             .shape = shape,
                             .pads_begin = zero,
                             .pads_end = zero};
    if (ndpad_pad(&p, NULL, NULL) != NDPAD_OK) fail_msg("%s", ndpad_last_error());
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&p, NULL, &plan), NDPAD_OK);
    assert_int_equal(ndpad_execute(plan, NULL, NULL), NDPAD_OK);
    ndpad_plan_destroy(plan);
}

/* Interior padding goes between neighbours: an axis of one element has none, so any
 * interior there, INT64_MAX included, changes nothing (found by fuzz-pad). */
static void interior_of_a_single_element_inserts_nothing(void **state)
{
    (void)state;
    const int64_t shape[2] = {1, 3}, pb[2] = {1, 0}, pe[2] = {0, 1}, interior[2] = {INT64_MAX, 0};
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 1,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe,
                             .interior = interior};
    int64_t out_shape[2];
    if (ndpad_output_shape(&p, out_shape) != NDPAD_OK) fail_msg("%s", ndpad_last_error());
    assert_int_equal(out_shape[0], 2);
    assert_int_equal(out_shape[1], 4);
    const unsigned char in[3] = {1, 2, 3};
    unsigned char out[8], expected[8] = {0, 0, 0, 0, 1, 2, 3, 0};
    assert_int_equal(ndpad_pad(&p, in, out), NDPAD_OK);
    assert_memory_equal(out, expected, sizeof out);
}

static void pads_of_2_pow_62_around_a_tiny_output_in_every_mode(void **state)
{
    (void)state;
    /* n = b + d + e = 5 elements whose positions j sit near +-2^62: the periodic modes
     * must reduce j modulo the period, not walk to it */
    const int64_t shape[2] = {3, 4};
    const int64_t cases[][4] = {{-P62, P62 + 2, 1, 1},
                                {P62, -P62 + 2, 0, 2},
                                {-P62 + 7, P62 - 5, -2, 3},
                                {INT64_MAX - 8, -(INT64_MAX - 8), 1, 0}};
    for (int32_t mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            const int64_t pb[2] = {cases[i][0], cases[i][2]};
            const int64_t pe[2] = {cases[i][1], cases[i][3]};
            const ndpad_problem p = {.rank = 2,
                                     .mode = mode,
                                     .elem_size = 2,
                                     .shape = shape,
                                     .pads_begin = pb,
                                     .pads_end = pe};
            check_extreme(&p, 2.0);
        }
}

static void interior_of_2_pow_62_with_crops_to_a_tiny_output(void **state)
{
    (void)state;
    /* D = 2 * 2^62 + 1 overflows; 2^61 fits: crop the dilated input down to a few points */
    const int64_t shape[1] = {3}, interior[1] = {((int64_t)1 << 61) - 1};
    const int64_t pb[1] = {-((int64_t)1 << 61) + 2}, pe[1] = {-((int64_t)1 << 61) + 1};
    const ndpad_problem p = {.rank = 1,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe,
                             .interior = interior};
    check_extreme(&p, 2.0);
}

static void empty_tensors_with_overflowing_other_extents_are_valid(void **state)
{
    (void)state;
    /* An empty tensor has no element, so no size or stride of it can overflow: 0 x 2^32 x
     * 2^32 outputs and inputs are valid (found by fuzz-onnx: the element count used to be
     * multiplied up to the zero, and the dense strides checked past it) */
    const int64_t shape[3] = {0, P32, P32}, zero[3] = {0, 0, 0}, grow[3] = {3, 0, 0};
    const int64_t shape3[3] = {0, P32, 1};
    const int64_t pb[3] = {0, P32, P32};
    const int64_t huge[3] = {P62, P62, P62};
    const ndpad_problem problems[] = {
        {.rank = 3,
         .mode = NDPAD_CONSTANT,
         .elem_size = 8,
         .shape = zero,
         .pads_begin = pb,
         .pads_end = zero},
        {.rank = 3,
         .mode = NDPAD_EDGE,
         .elem_size = 8,
         .shape = shape,
         .pads_begin = zero,
         .pads_end = zero},
        {.rank = 3,
         .mode = NDPAD_WRAP,
         .elem_size = 16,
         .shape = shape,
         .pads_begin = zero,
         .pads_end = zero,
         .in_strides = huge,
         .out_strides = huge},
        {.rank = 3,
         .mode = NDPAD_CONSTANT,
         .elem_size = 4,
         .shape = shape3,
         .pads_begin = grow,
         .pads_end = zero,
         .in_strides = huge},
    };
    for (size_t i = 0; i < sizeof problems / sizeof problems[0]; i++) {
        int64_t out_shape[3];
        const ndpad_status st = ndpad_output_shape(&problems[i], out_shape);
        if (st != NDPAD_OK) fail_msg("case %zu: %s", i, ndpad_last_error());
        assert_int_equal(ndpad_ref_output_shape(&problems[i], out_shape), NDPAD_OK);
        ndpad_plan *plan = NULL;
        assert_int_equal(ndpad_plan_create(&problems[i], NULL, &plan), NDPAD_OK);
        assert_int_equal(ndpad_execute(plan, NULL, NULL),
                         i == 3 ? NDPAD_ERR_NULL_BUFFER : NDPAD_OK);
        ndpad_plan_destroy(plan);
    }
}

/* Bugs the fuzzers found (or review of their neighbours): each problem is valid, and ndpad
 * must agree with the reference on its output shape and, when small, its output. Under
 * UBSan (ci/sanitize.sh) the old code's signed overflow aborted on each. */
static void fuzz_regressions_agree_with_the_reference(void **state)
{
    (void)state;
    const int64_t M = INT64_MAX;
    struct {
        const char *what;
        int32_t rank, mode;
        int64_t shape[3], pb[3], pe[3];
        bool run;
    } cases[] = {
        /* fuzz-pad: crop_constant computed -b + 1 with b = -INT64_MAX (empty output) */
        {"crop_constant_lo_plus_step", 2, NDPAD_CONSTANT, {100000, 3}, {-M, 1}, {-1, 1}, true},
        /* fuzz-pad: b + D + e summed left to right overflowed though the total fits */
        {"pads_sum_order", 2, NDPAD_CONSTANT, {3, 100000}, {M - 1, -M}, {-M, 1}, true},
        {"pads_sum_order_reflect", 1, NDPAD_REFLECT, {3}, {M - 1}, {-(M - 1)}, true},
        {"pads_sum_order_edge", 1, NDPAD_EDGE, {3}, {M - 1}, {-(M - 1)}, true},
        /* fuzz-pad: an empty plan multiplied its huge extents into plan->rows */
        {"empty_plan_rows_product",
         3,
         NDPAD_CONSTANT,
         {1, 1015, 0},
         {P62 + 36, 0, 0},
         {0, 0, 0},
         true},
        /* fuzz-pad: ndpad_tile_default multiplied a huge row extent of an empty plan */
        {"empty_plan_row_bytes", 2, NDPAD_CONSTANT, {0, 3}, {0, P62}, {0, 0}, true},
        /* review: crop_edge negated pads_begin = INT64_MIN of an empty output */
        {"crop_edge_int64_min", 1, NDPAD_EDGE, {3}, {INT64_MIN}, {0}, true},
        /* review: n - b overflowed by one in the reads-input test (all pad value) */
        {"reads_input_n_minus_b",
         1,
         NDPAD_CONSTANT,
         {P62 / 4},
         {-(M - 1)},
         {M - P62 / 4 + 1},
         false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const ndpad_problem p = {.rank = cases[i].rank,
                                 .mode = cases[i].mode,
                                 .elem_size = 4,
                                 .shape = cases[i].shape,
                                 .pads_begin = cases[i].pb,
                                 .pads_end = cases[i].pe};
        int64_t got[3], want[3];
        const ndpad_status st = ndpad_output_shape(&p, got);
        if (st != NDPAD_OK) fail_msg("%s: %s", cases[i].what, ndpad_last_error());
        assert_int_equal(ndpad_ref_output_shape(&p, want), NDPAD_OK);
        for (int32_t k = 0; k < p.rank; k++) assert_int_equal(got[k], want[k]);
        if (cases[i].run) {
            check_extreme(&p, 2.0);
        } else {
            /* no input element is read: the output is all pad value, `in` may be NULL */
            test_out out = test_out_make((size_t)test_count(p.rank, got) * 4);
            memset(out.body, 0x11, out.size);
            assert_int_equal(ndpad_pad(&p, NULL, out.body), NDPAD_OK);
            assert_true(test_all_bytes_are(out.body, out.size, 0));
            assert_true(test_all_bytes_are(out.alloc, TEST_GUARD, TEST_SENTINEL));
            test_out_free(&out);
        }
    }
    /* review: strides of extent-1 axes are unchecked, and were multiplied by elem_size and
     * negated (INT64_MIN) in the normaliser */
    const int64_t shape[2] = {1, 3}, zero[2] = {0, 0}, strides[2] = {INT64_MIN, 1};
    const int64_t out_strides[2] = {INT64_MIN, 1};
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_WRAP,
                             .elem_size = 8,
                             .shape = shape,
                             .pads_begin = zero,
                             .pads_end = zero,
                             .in_strides = strides,
                             .out_strides = out_strides};
    int64_t in[3] = {1, 2, 3}, out[3] = {0};
    assert_int_equal(ndpad_pad(&p, in, out), NDPAD_OK);
    assert_memory_equal(in, out, sizeof in);
    /* fuzz-onnx: the output element count multiplied a huge extent before reaching the 0
     * (axis 2 cropped to nothing: 9 - 1 - 8; crops past the end are refused since issue 41) */
    const int64_t oshape[3] = {2, 4, 9}, opads[6] = {0, P62 + 1, -1, 2, 0, -8};
    ndpad_onnx_problem onnx;
    assert_int_equal(ndpad_onnx_problem_init(&onnx, 3, oshape, 2, opads, 6, NULL, 0, "constant",
                                             NULL),
                     NDPAD_OK);
    assert_int_equal(ndpad_onnx_pad(3, oshape, 2, opads, 6, NULL, 0, "constant", NULL, NULL, NULL),
                     NDPAD_OK);
    /* fuzz-onnx: crops of -INT64_MAX summed with the extent overflowed; since issue 41 a
     * crop past the end of an axis that leaves ONNX's extent d + begin + end below 0 is
     * refused, computed without overflow */
    const int64_t cshape[3] = {2, 3, 4};
    const int64_t cpads[6] = {-16, -20, -M, -M, -M, -9}, cpads2[2] = {INT64_MIN, 0};
    int64_t out_shape[3];
    assert_int_equal(ndpad_onnx_problem_init(&onnx, 3, cshape, 2, cpads, 6, NULL, 0, "reflect",
                                             NULL),
                     NDPAD_ERR_SHAPE);
    assert_non_null(strstr(ndpad_last_error(), "(axis 0)"));
    assert_int_equal(ndpad_onnx_pad(1, cshape, 4, cpads2, 2, NULL, 0, "constant", NULL, NULL, NULL),
                     NDPAD_ERR_SHAPE);
    assert_non_null(strstr(ndpad_last_error(), "pads[0] = -9223372036854775808"));
    /* fuzz-pad: WRAP's period is d, so d > 2^62 is no overflow (REFLECT's 2 (d - 1) is, but
     * only when an output element is made) */
    const int64_t wshape[2] = {6917529027641081856, 0}, wpads[2] = {-20, -20};
    const ndpad_problem wrap = {.rank = 2,
                                .mode = NDPAD_WRAP,
                                .elem_size = 5,
                                .shape = wshape,
                                .pads_begin = wpads,
                                .pads_end = wpads};
    assert_int_equal(ndpad_output_shape(&wrap, out_shape), NDPAD_OK);
    assert_int_equal(ndpad_pad(&wrap, NULL, NULL), NDPAD_OK);
    /* fuzz-pad: output positions of an axis were range-checked though another axis empties
     * the output (no position is ever computed then) */
    const int64_t rshape[2] = {0, 9}, rpb[2] = {-17, -16}, rpe[2] = {2, M};
    const ndpad_problem reflect = {.rank = 2,
                                   .mode = NDPAD_REFLECT,
                                   .elem_size = 8,
                                   .shape = rshape,
                                   .pads_begin = rpb,
                                   .pads_end = rpe};
    assert_int_equal(ndpad_output_shape(&reflect, out_shape), NDPAD_OK);
    assert_int_equal(ndpad_pad(&reflect, NULL, NULL), NDPAD_OK);
    const int64_t mpb[2] = {0, INT64_MIN}, mpe[2] = {-1, M};
    const int64_t mshape[2] = {1, 9};
    for (int32_t mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++) {
        const ndpad_problem q = {.rank = 2,
                                 .mode = mode,
                                 .elem_size = 1,
                                 .shape = mshape,
                                 .pads_begin = mpb,
                                 .pads_end = mpe};
        assert_int_equal(ndpad_output_shape(&q, out_shape), NDPAD_OK);
        assert_int_equal(ndpad_pad(&q, NULL, NULL), NDPAD_OK);
    }
    /* fuzz-onnx: the crop offset in bytes was checked though the crop left no element
     * (axis 0 cropped to nothing exactly: crops past the end are refused since issue 41) */
    const int64_t eshape[2] = {2, 1048576}, epads[4] = {-1, -20, -1, -20};
    assert_int_equal(ndpad_onnx_problem_init(&onnx, 2, eshape, (size_t)1 << 62, epads, 4, NULL, 0,
                                             "constant", NULL),
                     NDPAD_OK);
    assert_int_equal(onnx.in_offset, 0);
}

/* fuzz-wisdom: gbps = 999999999.9999 was accepted, exported as "1000000000.000" and that
 * export rejected: ndpad lost an entry of the wisdom it wrote itself. */
static void wisdom_entries_survive_their_own_export(void **state)
{
    (void)state;
    const ndpad_problem p = small_problem(NDPAD_EDGE);
    ndpad_options options;
    ndpad_options_init(&options);
    options.tuning = NDPAD_TUNING_HEURISTIC;
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&p, &options, &plan), NDPAD_OK);
    const ndpad_wisdom_key key = ndpad_wisdom_key_of(plan);
    ndpad_plan_destroy(plan);
    char key_text[256], header[1024], text[4096], exported[4096], again[4096];
    ndpad_wisdom_key_format(&key, key_text, sizeof key_text);
    ndpad_wisdom_forget();
    ndpad_wisdom_export_string(header, sizeof header);
    static const char *const values[] = {"999999999.9999", "999999999.9996", "1000000000.000",
                                         "0.0004", "12.3456"};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        snprintf(text, sizeof text,
                 "%sclass %s tile_rows=2 tile_cols=3 threads=1 stream=0 "
                 "gbps=%s\n",
                 header, key_text, values[i]);
        ndpad_wisdom_forget();
        assert_int_equal(ndpad_wisdom_import_string(text), 1);
        ndpad_wisdom_export_string(exported, sizeof exported);
        if (strstr(exported, key_text) == NULL) fail_msg("gbps=%s: entry dropped", values[i]);
        ndpad_wisdom_forget();
        assert_int_equal(ndpad_wisdom_import_string(exported), 1);
        ndpad_wisdom_export_string(again, sizeof again);
        if (strcmp(exported, again) != 0)
            fail_msg("gbps=%s: export -> import -> export differs:\n%s\n%s", values[i], exported,
                     again);
    }
    ndpad_wisdom_forget();
}

static void rank_32_output_of_2_pow_32_elements_plans_without_running(void **state)
{
    (void)state;
    int64_t shape[NDPAD_MAX_RANK], pb[NDPAD_MAX_RANK], pe[NDPAD_MAX_RANK];
    for (int k = 0; k < NDPAD_MAX_RANK; k++) shape[k] = 2, pb[k] = k % 3 == 0, pe[k] = 0;
    for (int32_t mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++) {
        const ndpad_problem p = {.rank = NDPAD_MAX_RANK,
                                 .mode = mode,
                                 .elem_size = 1,
                                 .shape = shape,
                                 .pads_begin = pb,
                                 .pads_end = pe};
        const double start = now_seconds();
        ndpad_plan *plan = NULL;
        assert_int_equal(ndpad_plan_create(&p, NULL, &plan), NDPAD_OK);
        char text[8192];
        assert_true(ndpad_plan_describe(plan, text, sizeof text) > 0);
        ndpad_plan_destroy(plan);
        if (now_seconds() - start > 1.0) fail_msg("planning took %.3f s", now_seconds() - start);
    }
}

static void int32_max_threads_with_one_row_tiles_is_correct_and_survives(void **state)
{
    (void)state;
    /* 20000 rows: one-row tiles would ask the OpenMP runtime for 20000 threads (it crashed
     * for 100000 before plans capped teams at the processors available) */
    const int64_t shape[2] = {20000, 3}, pb[2] = {1, 2}, pe[2] = {0, 1};
    for (int32_t mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode += 2) {
        const ndpad_problem p = {.rank = 2,
                                 .mode = mode,
                                 .elem_size = 1,
                                 .shape = shape,
                                 .pads_begin = pb,
                                 .pads_end = pe};
        const int64_t count = test_check_output_shape(&p, NULL);
        unsigned char *in = test_xmalloc(60000);
        test_rng rng = test_rng_make(32, (uint64_t)mode);
        test_rng_bytes(&rng, in, 60000);
        test_out expected = test_out_make((size_t)count), actual = test_out_make((size_t)count);
        assert_int_equal(ndpad_ref_pad(&p, in, expected.body), NDPAD_OK);
        ndpad_options options;
        ndpad_options_init(&options);
        options.threads = INT32_MAX;
        options.tile_rows = 1;
        options.tile_cols = mode == NDPAD_CONSTANT ? 2 : 0;
        ndpad_plan *plan = NULL;
        assert_int_equal(ndpad_plan_create(&p, &options, &plan), NDPAD_OK);
        const double start = now_seconds();
        assert_int_equal(ndpad_execute(plan, in, actual.body), NDPAD_OK);
        const double took = now_seconds() - start;
        test_expect_same_bytes("INT32_MAX threads", &p, expected.alloc, actual.alloc,
                               (size_t)count + 2 * TEST_GUARD, TEST_GUARD);
        if (took > 5.0) fail_msg("execution took %.3f s", took);
        ndpad_plan_destroy(plan);
        test_out_free(&expected);
        test_out_free(&actual);
        free(in);
    }
}

/* Empty outputs with any output strides, zeros included (numpy's (0, 0, 0) for shape
 * (4, 2, 0)): strided, in-place and numpy-like problems whose output has no element are
 * valid, give the reference's output shape, and read and write nothing through every
 * entry point (issue 12, item 11: such a check found 69 problems rejected with
 * NDPAD_ERR_STRIDE). */
static void empty_outputs_accept_any_output_strides(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 4, 8, 3, 16};
    enum { CASES = 3000, RANK = 5 };
    int failures = 0;
    for (int i = 0; i < CASES; i++) {
        test_rng rng = test_rng_make(12, (uint64_t)i);
        const int variant = i % 3; /* 0 strided, 1 in place, 2 numpy's zero strides */
        int64_t shape[RANK], pb[RANK], pe[RANK], interior[RANK], ins[RANK], outs[RANK];
        const int32_t rank = (int32_t)test_rng_range(&rng, 1, RANK);
        const int32_t mode = (int32_t)test_rng_range(&rng, NDPAD_CONSTANT, NDPAD_WRAP);
        const bool constant = mode == NDPAD_CONSTANT, in_place = variant == 1;
        const int32_t empty_axis = (int32_t)test_rng_range(&rng, 0, rank - 1);
        for (int32_t k = 0; k < rank; k++) {
            shape[k] = test_rng_range(&rng, 0, 4);
            pb[k] = test_rng_range(&rng, in_place ? 0 : -4, 4);
            pe[k] = test_rng_range(&rng, in_place ? 0 : -4, 4);
            interior[k] = constant && !in_place ? test_rng_range(&rng, 0, 2) : 0;
            if (!constant && shape[k] == 0) pb[k] = pe[k] = 0; /* nothing to grow from */
            if (k == empty_axis) {
                if (in_place || !constant) shape[k] = 0; /* pads >= 0: only d = 0 empties */
                if (!constant || in_place)
                    pb[k] = pe[k] = 0;
                else /* b + D + e <= 0 */
                    pe[k] = -(shape[k] == 0 ? 0 : (shape[k] - 1) * (interior[k] + 1) + 1) - pb[k] -
                            test_rng_range(&rng, 0, 2);
            }
            outs[k] = variant == 2 ? 0 : test_rng_range(&rng, -3, 3) * 8;
            ins[k] = in_place ? outs[k] : test_rng_range(&rng, -20, 20);
        }
        const ndpad_problem p = {
            .rank = rank,
            .mode = mode,
            .elem_size = sizes[test_rng_range(&rng, 0, 5)],
            .shape = shape,
            .pads_begin = pb,
            .pads_end = pe,
            .interior = constant ? interior : NULL,
            .in_strides = variant == 2 && test_rng_chance(&rng, 1, 2) ? NULL : ins,
            .out_strides = outs,
        };
        int64_t want[RANK], got[RANK];
        if (ndpad_ref_output_shape(&p, want) != NDPAD_OK || test_count(rank, want) != 0) {
            ndpad_ref_print_problem(stderr, &p);
            fail_msg("case %d: the generator made a problem that is invalid or not empty", i);
        }
        unsigned char in[256], out[256];
        memset(in, 0x3C, sizeof in);
        memset(out, TEST_SENTINEL, sizeof out);
        const void *source = in_place ? (const void *)(out + 64) : (const void *)in;
        ndpad_plan *plan = NULL;
        const ndpad_status shape_status = ndpad_output_shape(&p, got);
        const ndpad_status pad_status = ndpad_pad(&p, source, out + 64);
        const ndpad_status null_status = ndpad_pad(&p, NULL, NULL);
        const ndpad_status plan_status = ndpad_plan_create(&p, NULL, &plan);
        const ndpad_status run_status =
            plan != NULL ? ndpad_execute(plan, source, out + 64) : plan_status;
        ndpad_plan_destroy(plan);
        const bool ok = shape_status == NDPAD_OK && pad_status == NDPAD_OK &&
                        null_status == NDPAD_OK && plan_status == NDPAD_OK &&
                        run_status == NDPAD_OK &&
                        memcmp(got, want, (size_t)rank * sizeof(got[0])) == 0 &&
                        test_all_bytes_are(in, sizeof in, 0x3C) &&
                        test_all_bytes_are(out, sizeof out, TEST_SENTINEL);
        if (!ok && failures++ < 5) {
            fprintf(stderr, "case %d (%s): %s\n", i,
                    variant == 0   ? "strided"
                    : variant == 1 ? "in place"
                                   : "zero strides",
                    ndpad_last_error());
            ndpad_ref_print_problem(stderr, &p);
        }
    }
    if (failures > 0) fail_msg("%d of %d empty-output problems failed", failures, CASES);
}

static void last_error_is_always_terminated_and_bounded(void **state)
{
    (void)state;
    /* the longest messages: 20-digit numbers on every field of the empty-axis message */
    const int64_t shape[2] = {INT64_MAX / 2, 0}, pb[2] = {INT64_MIN + 1, -P62};
    const int64_t pe[2] = {0, INT64_MAX};
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_SYMMETRIC,
                             .elem_size = SIZE_MAX / 2,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe};
    assert_int_not_equal(ndpad_pad(&p, NULL, NULL), NDPAD_OK);
    const char *message = ndpad_last_error();
    assert_non_null(memchr(message, '\0', 512));
    assert_true(strlen(message) > 10);
}

int main(void)
{
    enum { CORE = sizeof core_cases / sizeof core_cases[0] };
    enum { ONNX = sizeof onnx_cases / sizeof onnx_cases[0] };
    const struct CMUnitTest fixed[] = {
        cmocka_unit_test(null_in_and_null_out_are_named_and_write_nothing),
        cmocka_unit_test(null_result_pointers_and_null_plan_are_named),
        cmocka_unit_test(hostile_options_are_named_and_allocate_nothing),
        cmocka_unit_test(huge_negative_pads_with_empty_output_return_at_once),
        cmocka_unit_test(pads_of_2_pow_62_around_a_tiny_output_in_every_mode),
        cmocka_unit_test(interior_of_2_pow_62_with_crops_to_a_tiny_output),
        cmocka_unit_test(empty_tensors_with_overflowing_other_extents_are_valid),
        cmocka_unit_test(fuzz_regressions_agree_with_the_reference),
        cmocka_unit_test(wisdom_entries_survive_their_own_export),
        cmocka_unit_test(rank_32_output_of_2_pow_32_elements_plans_without_running),
        cmocka_unit_test(int32_max_threads_with_one_row_tiles_is_correct_and_survives),
        cmocka_unit_test(last_error_is_always_terminated_and_bounded),
        cmocka_unit_test(empty_outputs_accept_any_output_strides),
        cmocka_unit_test(empty_constant_output_with_huge_elements_needs_no_pad_value),
        cmocka_unit_test(interior_of_a_single_element_inserts_nothing),
    };
    enum { FIXED = sizeof fixed / sizeof fixed[0] };
    struct CMUnitTest tests[CORE + ONNX + FIXED];
    size_t n = 0;
    for (size_t i = 0; i < CORE; i++)
        tests[n++] = (struct CMUnitTest){core_cases[i].name, run_core_case, NULL, NULL,
                                         (void *)&core_cases[i]};
    for (size_t i = 0; i < ONNX; i++)
        tests[n++] = (struct CMUnitTest){onnx_cases[i].name, run_onnx_case, NULL, NULL,
                                         (void *)&onnx_cases[i]};
    for (size_t i = 0; i < FIXED; i++) tests[n++] = fixed[i];
    /* the wisdom is not under test here: never read the user's file */
    setenv("NDPAD_WISDOM", "/nonexistent/ndpad-test-hostile/wisdom", 1);
    return _cmocka_run_group_tests("test-hostile", tests, n, NULL, NULL);
}
