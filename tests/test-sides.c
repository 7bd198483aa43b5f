/*
 * test-sides.c — ndpad_pad_sides (constants per axis and side) against a naive reference
 * written from numpy.pad's rule (axis 0 padded first, then axis 1 over the padded array,
 * ...: the last axis whose padding holds an element gives its value): the header example,
 * random problems (ranks 1-5, element sizes 1-16, crops, random side values with repeats,
 * dense and strided outputs, in place) with guard bytes, and the hostile arguments.
 * Registered per ISA, so every level's kernels run it (NDPAD_ISA).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ndpad.h"
#include "test-checks.h"

/* Naive: every output element on its own; the output is addressed by out_strides. */
static void ref_pad_sides(int32_t rank, const int64_t *shape, const int64_t *pb, const int64_t *pe,
                          size_t es, const unsigned char *sides, const unsigned char *in,
                          const int64_t *in_strides, unsigned char *out, const int64_t *out_strides,
                          const int64_t *out_shape)
{
    (void)pe;
    const int64_t count = test_count(rank, out_shape);
    for (int64_t flat = 0; flat < count; flat++) {
        int64_t rest = flat, src = 0, dst = 0;
        const unsigned char *value = NULL;
        for (int32_t k = rank - 1; k >= 0; k--) {
            const int64_t o = rest % out_shape[k];
            rest /= out_shape[k];
            const int64_t j = o - pb[k];
            dst += o * out_strides[k];
            src += j * in_strides[k];
            /* numpy: the highest axis in padding wins; k runs downwards, keep the first */
            if (value == NULL && (j < 0 || j >= shape[k]))
                value = sides + (size_t)(2 * k + (j < 0 ? 0 : 1)) * es;
        }
        memcpy(out + dst * (int64_t)es, value != NULL ? value : in + src * (int64_t)es, es);
    }
}

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
    /* again with other values: the plan cache (keyed by the pad value) must not mix them */
    const int32_t other[4] = {70, 80, 50, 60};
    assert_int_equal(ndpad_pad_sides(&p, other, NULL, in, out), NDPAD_OK);
    for (int i = 0; i < 16; i++) assert_int_equal(out[i], want[i] < 5 ? want[i] : 10 * want[i]);
    assert_int_equal(ndpad_pad_sides(&p, sides, NULL, in, out), NDPAD_OK);
    assert_memory_equal(out, want, sizeof want);
    /* NULL side values: the problem's pad value everywhere */
    const int32_t nine = 9;
    ndpad_problem q = p;
    q.pad_value = &nine;
    assert_int_equal(ndpad_pad_sides(&q, NULL, NULL, in, out), NDPAD_OK);
    assert_int_equal(out[0], 9);
    assert_int_equal(out[5], 1);
    assert_int_equal(out[15], 9);
}

/* One random problem; `strided` gives the output a gap of 3 elements after every row,
 * `in_place` puts the input inside the output. */
static void check_random(uint64_t index)
{
    static const size_t sizes[] = {1, 2, 3, 4, 8, 16};
    test_rng r = test_rng_make(0x53494445ull, index);
    const int32_t rank = (int32_t)test_rng_range(&r, 1, 5);
    const size_t es = sizes[test_rng_range(&r, 0, 5)];
    int64_t shape[5], pb[5], pe[5], out_shape[5], in_strides[5], out_strides[5];
    const bool in_place = test_rng_chance(&r, 1, 6);
    const bool strided = !in_place && test_rng_chance(&r, 1, 3);
    for (int32_t k = 0; k < rank; k++) {
        shape[k] = test_rng_chance(&r, 1, 30) ? 0 : test_rng_range(&r, 1, rank > 3 ? 6 : 40);
        const bool crop = !in_place && test_rng_chance(&r, 1, 5);
        pb[k] = crop ? -test_rng_range(&r, 0, shape[k] + 2) : test_rng_range(&r, 0, 5);
        pe[k] = !in_place && test_rng_chance(&r, 1, 5) ? -test_rng_range(&r, 0, shape[k] + 2)
                                                       : test_rng_range(&r, 0, 5);
        out_shape[k] = pb[k] + shape[k] + pe[k];
        if (out_shape[k] < 0) out_shape[k] = 0;
    }
    /* output strides: dense, or with a gap of 3 elements after each row */
    int64_t span = 1;
    for (int32_t k = rank - 1; k >= 0; k--) {
        out_strides[k] = span;
        span *= out_shape[k] + (strided && k == rank - 1 ? 3 : 0);
    }
    const int64_t out_count = test_count(rank, out_shape);
    const size_t out_bytes = (size_t)(out_count == 0 ? 0 : span) * es;
    int64_t in_count = test_count(rank, shape);
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
    /* side values: few distinct ones, so that equal values share a plan */
    unsigned char palette[3][16], sides[10 * 16];
    test_rng_bytes(&r, palette, sizeof palette);
    for (int32_t i = 0; i < 2 * rank; i++)
        memcpy(sides + (size_t)i * es, palette[test_rng_range(&r, 0, 2)], es);

    unsigned char *expected = test_xmalloc(out_bytes + 1);
    memcpy(expected, out.body, out_bytes);
    ref_pad_sides(rank, shape, pb, pe, es, sides, in, in_strides, expected, out_strides, out_shape);
    ndpad_problem p = {.rank = rank,
                       .mode = NDPAD_CONSTANT,
                       .elem_size = es,
                       .shape = shape,
                       .pads_begin = pb,
                       .pads_end = pe,
                       .in_strides = in_strides,
                       .out_strides = out_strides};
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = (int32_t)test_rng_range(&r, 1, 2);
    /* twice: with default options the second call takes its plans from the plan cache; the
     * whole buffer is compared, so the gaps of a strided output must stay as they were */
    const ndpad_options *use = test_rng_chance(&r, 1, 2) ? &options : NULL;
    for (int rep = 0; rep < 2; rep++) {
        const ndpad_status st = ndpad_pad_sides(&p, sides, use, in, out.body);
        if (st != NDPAD_OK)
            fail_msg("random problem %llu: %s (%s)", (unsigned long long)index,
                     ndpad_status_string(st), ndpad_last_error());
        const ptrdiff_t at = test_first_difference(expected, out.body, out_bytes);
        if (at >= 0)
            fail_msg("random problem %llu (rank %d, elem %zu%s%s, call %d): first difference at "
                     "byte %td",
                     (unsigned long long)index, (int)rank, es, in_place ? ", in place" : "",
                     strided ? ", strided" : "", rep + 1, at);
        if (!test_all_bytes_are(out.alloc, TEST_GUARD, TEST_SENTINEL) ||
            !test_all_bytes_are(out.body + out_bytes, TEST_GUARD, TEST_SENTINEL))
            fail_msg("random problem %llu: a guard byte changed", (unsigned long long)index);
    }
    free(expected);
    free(in_buf);
    test_out_free(&out);
}

static void random_problems_vs_reference(void **state)
{
    (void)state;
    for (uint64_t index = 0; index < 3000; index++) check_random(index);
}

/* Bigger outputs, so that threads and the stream kernels run: 1x8x70x90 fp32, pad 1..3. */
static void larger_problems_vs_reference(void **state)
{
    (void)state;
    for (uint64_t index = 0; index < 6; index++) {
        test_rng r = test_rng_make(0x4c415247ull, index);
        const size_t es = index % 2 ? 4 : 1;
        const int64_t shape[4] = {1, 8, 70 + (int64_t)index, 90};
        int64_t pb[4] = {0}, pe[4] = {0}, out_shape[4], dense_in[4], dense_out[4];
        for (int k = 1; k < 4; k++) {
            pb[k] = test_rng_range(&r, 0, 3);
            pe[k] = test_rng_range(&r, 0, 3);
        }
        int64_t si = 1, so = 1;
        for (int k = 3; k >= 0; k--) {
            out_shape[k] = pb[k] + shape[k] + pe[k];
            dense_in[k] = si, si *= shape[k];
            dense_out[k] = so, so *= out_shape[k];
        }
        unsigned char sides[8 * 4];
        test_rng_bytes(&r, sides, sizeof sides);
        unsigned char *in = test_xmalloc((size_t)si * es);
        test_rng_bytes(&r, in, (size_t)si * es);
        test_out out = test_out_make((size_t)so * es);
        unsigned char *expected = test_xmalloc((size_t)so * es);
        ref_pad_sides(4, shape, pb, pe, es, sides, in, dense_in, expected, dense_out, out_shape);
        const ndpad_problem p = {.rank = 4,
                                 .mode = NDPAD_CONSTANT,
                                 .elem_size = es,
                                 .shape = shape,
                                 .pads_begin = pb,
                                 .pads_end = pe};
        assert_int_equal(ndpad_pad_sides(&p, sides, NULL, in, out.body), NDPAD_OK);
        assert_true(test_first_difference(expected, out.body, (size_t)so * es) < 0);
        assert_true(test_all_bytes_are(out.alloc, TEST_GUARD, TEST_SENTINEL));
        assert_true(test_all_bytes_are(out.body + out.size, TEST_GUARD, TEST_SENTINEL));
        free(expected);
        free(in);
        test_out_free(&out);
    }
}

static void hostile_arguments(void **state)
{
    (void)state;
    const int64_t shape[2] = {2, 3}, pb[2] = {1, 1}, pe[2] = {1, 1}, interior[2] = {0, 2};
    const int64_t bad_shape[2] = {2, -3};
    const int32_t in[6] = {0}, sides[4] = {1, 2, 3, 4};
    int32_t out[64];
    const struct {
        ndpad_problem p;
        ndpad_status status;
        const char *says;
    } cases[] = {
        {{.rank = 2,
          .mode = NDPAD_EDGE,
          .elem_size = 4,
          .shape = shape,
          .pads_begin = pb,
          .pads_end = pe},
         NDPAD_ERR_MODE,
         "constants per side need NDPAD_CONSTANT"},
        {{.rank = 2,
          .mode = NDPAD_CONSTANT,
          .elem_size = 4,
          .shape = shape,
          .pads_begin = pb,
          .pads_end = pe,
          .interior = interior},
         NDPAD_ERR_INTERIOR_MODE,
         "interior[1] = 2 with side_values"},
        {{.rank = 2,
          .mode = NDPAD_CONSTANT,
          .elem_size = 4,
          .shape = bad_shape,
          .pads_begin = pb,
          .pads_end = pe},
         NDPAD_ERR_SHAPE,
         "shape[1] = -3"},
        {{.rank = 40,
          .mode = NDPAD_CONSTANT,
          .elem_size = 4,
          .shape = shape,
          .pads_begin = pb,
          .pads_end = pe},
         NDPAD_ERR_RANK,
         "rank"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memset(out, TEST_SENTINEL, sizeof out);
        const ndpad_status st = ndpad_pad_sides(&cases[c].p, sides, NULL, in, out);
        if (st != cases[c].status || strstr(ndpad_last_error(), cases[c].says) == NULL ||
            strstr(ndpad_last_error(), "ndpad_pad_sides") == NULL)
            fail_msg("case %zu: %s (%s)", c, ndpad_status_string(st), ndpad_last_error());
        assert_true(test_all_bytes_are(out, sizeof out, TEST_SENTINEL));
    }
    assert_int_equal(ndpad_pad_sides(NULL, sides, NULL, in, out), NDPAD_ERR_NULL_ARGUMENT);
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe};
    memset(out, TEST_SENTINEL, sizeof out);
    assert_int_equal(ndpad_pad_sides(&p, sides, NULL, NULL, out), NDPAD_ERR_NULL_BUFFER);
    assert_true(test_all_bytes_are(out, sizeof out, TEST_SENTINEL));
    ndpad_options bad;
    ndpad_options_init(&bad);
    bad.isa = 99;
    assert_int_equal(ndpad_pad_sides(&p, sides, &bad, in, out), NDPAD_ERR_OPTIONS);
    assert_true(test_all_bytes_are(out, sizeof out, TEST_SENTINEL));
    assert_int_equal(ndpad_pad_sides(&p, sides, NULL, in, NULL), NDPAD_ERR_NULL_BUFFER);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(header_example),
        cmocka_unit_test(random_problems_vs_reference),
        cmocka_unit_test(larger_problems_vs_reference),
        cmocka_unit_test(hostile_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
