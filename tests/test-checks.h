/*
 * test-checks.h — checks shared by the cmocka tests: run a problem through ndpad (one call,
 * and plan + execute) and through the reference, into sentinel-filled buffers with guard
 * bytes, and compare every byte, optionally against a hard-coded expected output too.
 * Include after <cmocka.h>.
 */
#ifndef NDPAD_TEST_CHECKS_H
#define NDPAD_TEST_CHECKS_H

#include "ref/ndpad-ref.h"
#include "test-util.h"

/* Fails the current test, after printing what and where, if the buffers differ. */
static inline void test_expect_same_bytes(const char *what, const ndpad_problem *p,
                                          const void *expected, const void *actual, size_t size,
                                          ptrdiff_t origin)
{
    if (test_first_difference(expected, actual, size) < 0) return;
    fprintf(stderr, "MISMATCH: %s\n  problem: ", what);
    if (p)
        ndpad_ref_print_problem(stderr, p);
    else
        fprintf(stderr, "(see above)\n");
    test_print_difference(stderr, expected, actual, size, origin);
    fail_msg("%s: output differs", what);
}

/* Output shape of `p` by ndpad and by the reference; both must equal `expected_shape`
 * (when not NULL). Returns the number of output elements. */
static inline int64_t test_check_output_shape(const ndpad_problem *p, const int64_t *expected_shape)
{
    int64_t shape[NDPAD_MAX_RANK], ref_shape[NDPAD_MAX_RANK];
    const ndpad_status st = ndpad_output_shape(p, shape);
    if (st != NDPAD_OK) {
        ndpad_ref_print_problem(stderr, p);
        fail_msg("ndpad_output_shape: %s (%s)", ndpad_status_string(st), ndpad_last_error());
    }
    assert_int_equal(ndpad_ref_output_shape(p, ref_shape), NDPAD_OK);
    for (int32_t k = 0; k < p->rank; k++) {
        assert_int_equal(shape[k], ref_shape[k]);
        if (expected_shape) {
            assert_int_equal(ref_shape[k], expected_shape[k]);
            assert_int_equal(shape[k], expected_shape[k]);
        }
    }
    return test_count(p->rank, shape);
}

/* Runs `p` (dense output) through ndpad_pad, plan + execute and the reference.
 * `expected` (dense, may be NULL) pins both the reference and ndpad. */
static inline void test_check_core(const char *what, const ndpad_problem *p, const void *in,
                                   const int64_t *expected_shape, const void *expected)
{
    const int64_t count = test_check_output_shape(p, expected_shape);
    const size_t bytes = (size_t)count * p->elem_size;
    test_out ref = test_out_make(bytes), one = test_out_make(bytes), planned = test_out_make(bytes);

    assert_int_equal(ndpad_ref_pad(p, in, ref.body), NDPAD_OK);
    if (expected)
        test_expect_same_bytes("reference vs the spec's expected output", p, expected, ref.body,
                               bytes, 0);

    ndpad_status st = ndpad_pad(p, in, one.body);
    if (st != NDPAD_OK) {
        ndpad_ref_print_problem(stderr, p);
        fail_msg("%s: ndpad_pad: %s (%s)", what, ndpad_status_string(st), ndpad_last_error());
    }
    if (expected)
        test_expect_same_bytes("ndpad_pad vs the spec's expected output", p, expected, one.body,
                               bytes, 0);
    test_expect_same_bytes("ndpad_pad vs reference (with guard bytes)", p, ref.alloc, one.alloc,
                           bytes + 2 * TEST_GUARD, TEST_GUARD);

    ndpad_plan *plan = NULL;
    st = ndpad_plan_create(p, NULL, &plan);
    if (st != NDPAD_OK) {
        ndpad_ref_print_problem(stderr, p);
        fail_msg("%s: ndpad_plan_create: %s (%s)", what, ndpad_status_string(st),
                 ndpad_last_error());
    }
    assert_non_null(plan);
    assert_int_equal(ndpad_execute(plan, in, planned.body), NDPAD_OK);
    ndpad_plan_destroy(plan);
    test_expect_same_bytes("plan + execute vs reference (with guard bytes)", p, ref.alloc,
                           planned.alloc, bytes + 2 * TEST_GUARD, TEST_GUARD);

    test_out_free(&ref);
    test_out_free(&one);
    test_out_free(&planned);
}

/* ONNX: ndpad_onnx_pad, ndpad_onnx_problem_init + ndpad_pad(in + in_offset) and the
 * reference; `expected` (may be NULL) pins both. */
static inline void test_check_onnx(const char *what, int32_t rank, const int64_t *shape,
                                   size_t elem_size, const int64_t *pads, int64_t pads_count,
                                   const int64_t *axes, int64_t axes_count, const char *mode,
                                   const void *constant_value, const void *in,
                                   const int64_t *expected_shape, const void *expected)
{
    char line[1024];
    ndpad_ref_format_onnx(line, sizeof line, rank, shape, elem_size, pads, pads_count, axes,
                          axes_count, mode);

    int64_t ref_shape[NDPAD_MAX_RANK], shape_out[NDPAD_MAX_RANK];
    ndpad_status st = ndpad_ref_onnx_validate(rank, shape, elem_size, pads, pads_count, axes,
                                              axes_count, mode, NULL, ref_shape);
    if (st != NDPAD_OK) fail_msg("%s: reference rejects %s: %d", what, line, (int)st);

    ndpad_onnx_problem *onnx = (ndpad_onnx_problem *)test_xmalloc(sizeof(*onnx));
    st = ndpad_onnx_problem_init(onnx, rank, shape, elem_size, pads, pads_count, axes, axes_count,
                                 mode, constant_value);
    if (st != NDPAD_OK)
        fail_msg("%s: ndpad_onnx_problem_init(%s): %s (%s)", what, line, ndpad_status_string(st),
                 ndpad_last_error());
    st = ndpad_output_shape(&onnx->problem, shape_out);
    if (st != NDPAD_OK)
        fail_msg("%s: ndpad_output_shape of the ONNX problem: %s (%s)", what,
                 ndpad_status_string(st), ndpad_last_error());
    for (int32_t k = 0; k < rank; k++) {
        if (expected_shape) assert_int_equal(ref_shape[k], expected_shape[k]);
        /* the header's shape: the input's with each listed axis's pads added */
        int64_t extent = shape[k];
        for (int64_t i = 0; i < (axes != NULL ? axes_count : rank); i++)
            if ((axes != NULL ? (axes[i] + rank) % rank : i) == k)
                extent += pads[i] + pads[(axes != NULL ? axes_count : rank) + i];
        if (shape_out[k] != extent) {
            fprintf(stderr, "%s\n", line);
            fail_msg("%s: output extent %d: ndpad %lld, the header's shape %lld", what, (int)k,
                     (long long)shape_out[k], (long long)extent);
        }
        if (shape_out[k] != ref_shape[k]) {
            fprintf(stderr, "%s\n", line);
            fail_msg("%s: output extent %d: ndpad %lld, reference %lld", what, (int)k,
                     (long long)shape_out[k], (long long)ref_shape[k]);
        }
    }
    /* the translation has non-negative pads (ndpad.h) */
    for (int32_t k = 0; k < onnx->problem.rank; k++) {
        assert_true(onnx->problem.pads_begin[k] >= 0);
        assert_true(onnx->problem.pads_end[k] >= 0);
    }

    const size_t bytes = (size_t)test_count(rank, ref_shape) * elem_size;
    test_out ref = test_out_make(bytes), one = test_out_make(bytes), core = test_out_make(bytes);
    assert_int_equal(ndpad_ref_onnx_pad(rank, shape, elem_size, pads, pads_count, axes, axes_count,
                                        mode, constant_value, in, ref.body),
                     NDPAD_OK);
    if (expected) {
        if (test_first_difference(expected, ref.body, bytes) >= 0) fprintf(stderr, "%s\n", line);
        test_expect_same_bytes("reference (ONNX) vs the spec's expected output", NULL, expected,
                               ref.body, bytes, 0);
    }

    st = ndpad_onnx_pad(rank, shape, elem_size, pads, pads_count, axes, axes_count, mode,
                        constant_value, in, one.body);
    if (st != NDPAD_OK)
        fail_msg("%s: ndpad_onnx_pad(%s): %s (%s)", what, line, ndpad_status_string(st),
                 ndpad_last_error());
    if (test_first_difference(ref.alloc, one.alloc, bytes + 2 * TEST_GUARD) >= 0)
        fprintf(stderr, "%s\n", line);
    test_expect_same_bytes("ndpad_onnx_pad vs reference (with guard bytes)", NULL, ref.alloc,
                           one.alloc, bytes + 2 * TEST_GUARD, TEST_GUARD);

    const void *shifted = in ? (const void *)((const char *)in + onnx->in_offset) : NULL;
    st = ndpad_pad(&onnx->problem, shifted, core.body);
    if (st != NDPAD_OK)
        fail_msg("%s: ndpad_pad of the ONNX problem: %s (%s)", what, ndpad_status_string(st),
                 ndpad_last_error());
    if (test_first_difference(ref.alloc, core.alloc, bytes + 2 * TEST_GUARD) >= 0)
        fprintf(stderr, "%s\n", line);
    test_expect_same_bytes("ndpad_pad(onnx.problem, in + in_offset) vs reference", &onnx->problem,
                           ref.alloc, core.alloc, bytes + 2 * TEST_GUARD, TEST_GUARD);

    free(onnx);
    test_out_free(&ref);
    test_out_free(&one);
    test_out_free(&core);
}

/* A call that must be refused: `status`, a message that names `caller` and contains `says`,
 * and nothing written to the `size` sentinel bytes of `out`. */
static inline void test_expect_refused(const char *what, ndpad_status got, ndpad_status status,
                                       const char *caller, const char *says,
                                       const unsigned char *out, size_t size)
{
    if (got != status || strstr(ndpad_last_error(), says) == NULL ||
        strstr(ndpad_last_error(), caller) == NULL)
        fail_msg("%s: %s (%s), expected %s from %s with \"%s\"", what, ndpad_status_string(got),
                 ndpad_last_error(), ndpad_status_string(status), caller, says);
    if (!test_all_bytes_are(out, size, TEST_SENTINEL)) fail_msg("%s: wrote to out", what);
}

#endif /* NDPAD_TEST_CHECKS_H */
