/*
 * test-bits-differential.c — random sub-byte problems (1-, 2- and 4-bit elements), ndpad
 * against the naive bit reference (ref/ndpad-bits-ref.c), bit for bit.
 *
 *   test-bits-differential [count] [seed] [--index=N]
 *   env (wins over argv): NDPAD_BITS_DIFF_COUNT (default 6000), NDPAD_BITS_DIFF_SEED
 *        (default 1), NDPAD_BITS_DIFF_INDEX (only problem N of the seed)
 *
 * Each problem: elem_bits 1/2/4, rank 0-4, every mode, pads -6..+12 (one in six: pads up to
 * three times the extent and more, so the periodic modes repeat their window), interior
 * padding with CONSTANT, input and output bit offsets 0..23 (every phase, including offsets
 * that are not multiples of elem_bits), rows long enough for every vector kernel (one in
 * eight: up to 2600 elements), dense or gapped output strides, dense, gapped or negative
 * input strides, sometimes in place (the input inside the output's interior), through
 * ndpad_bits_pad or a plan executed twice, with random options (threads 0/1/2, forced tile
 * rows, schedules). The output allocation with TEST_GUARD bytes on both sides is filled
 * with random bytes alike for expected and actual and compared whole: no bit outside the
 * output's elements may change, also in the bytes shared with a row's first and last
 * element. The input must come back unchanged. One problem in twelve breaks a rule on
 * purpose: ndpad must return the reference's status and write nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ndpad-bits-ref.h"
#include "test-util.h"

#define RANK_MAX 4

static int64_t diff_count = 6000;
static uint64_t diff_seed = 1;
static int64_t diff_index = -1;

typedef struct bits_case {
    ndpad_bits_problem p;
    int64_t shape[RANK_MAX], pb[RANK_MAX], pe[RANK_MAX], interior[RANK_MAX];
    int64_t in_strides[RANK_MAX], out_strides[RANK_MAX];
    unsigned char pad_byte;
    bool in_place, use_plan, options_null;
    ndpad_options options;
    const char *mutation;
} bits_case;

static int64_t out_extent(const bits_case *c, int32_t k)
{
    const int64_t d = c->shape[k], r = c->interior[k];
    const int64_t dil = d == 0 ? 0 : (d - 1) * (r + 1) + 1;
    const int64_t n = c->pb[k] + dil + c->pe[k];
    return n > 0 ? n : 0;
}

static void generate(uint64_t seed, int64_t index, bits_case *c)
{
    test_rng r = test_rng_make(seed, (uint64_t)index);
    memset(c, 0, sizeof(*c));
    const int32_t rank =
        (int32_t)(test_rng_chance(&r, 1, 30) ? 0 : test_rng_range(&r, 1, RANK_MAX));
    const bool long_rows = test_rng_chance(&r, 1, 8);
    const int32_t mode = (int32_t)test_rng_range(&r, 0, 4);
    const int bits_choice[3] = {1, 2, 4};
    c->p.elem_bits = bits_choice[test_rng_range(&r, 0, 2)];
    c->p.in_bit_offset = test_rng_range(&r, 0, 23);
    c->p.out_bit_offset = test_rng_range(&r, 0, 23);
    c->pad_byte = (unsigned char)test_rng_next(&r);
    const bool dilate = mode == NDPAD_CONSTANT && test_rng_chance(&r, 1, 4);
    const bool big_pads = test_rng_chance(&r, 1, 6);
    for (int32_t k = 0; k < rank; k++) {
        const bool inner = k == rank - 1;
        int64_t d = test_rng_range(&r, 0, inner ? 40 : 5);
        if (inner && long_rows) d = test_rng_range(&r, 1, 2600);
        if (rank > 2 && long_rows && !inner) d = test_rng_range(&r, 0, 2);
        if (test_rng_chance(&r, 1, 25)) d = 0;
        if (mode != NDPAD_CONSTANT && d == 0 && test_rng_chance(&r, 9, 10)) d = 1;
        c->shape[k] = d;
        c->interior[k] = dilate ? test_rng_range(&r, 0, 3) : 0;
        for (int side = 0; side < 2; side++) {
            int64_t v = test_rng_range(&r, -6, 12);
            if (big_pads) v = test_rng_range(&r, -d, 3 * d + 40);
            if (inner && long_rows && test_rng_chance(&r, 1, 2)) v = test_rng_range(&r, -70, 200);
            *(side ? &c->pe[k] : &c->pb[k]) = v;
        }
    }
    /* at most about 60000 output elements: the reference goes one bit at a time */
    for (int guard = 0; guard < 4 * RANK_MAX; guard++) {
        double count = 1;
        int32_t widest = 0;
        for (int32_t k = 0; k < rank; k++) {
            count *= (double)(out_extent(c, k) > 0 ? out_extent(c, k) : 0);
            if (out_extent(c, k) > out_extent(c, widest)) widest = k;
        }
        if (count <= 60000) break;
        if (c->shape[widest] > 64 && widest != rank - 1) c->shape[widest] = 3;
        c->pb[widest] = test_rng_range(&r, -2, 4);
        c->pe[widest] = test_rng_range(&r, -2, 4);
        if (guard >= 2 * RANK_MAX && c->shape[widest] > 8) c->shape[widest] = 8;
    }
    c->in_place = rank > 0 && test_rng_chance(&r, 1, 8);
    for (int32_t k = 0; k < rank && c->in_place; k++) {
        if (c->pb[k] < 0) c->pb[k] = -c->pb[k];
        if (c->pe[k] < 0) c->pe[k] = -c->pe[k];
        c->interior[k] = 0;
        if (c->shape[k] == 0) c->shape[k] = 1;
    }
    /* output strides: dense, or gapped on the outer axes (the innermost stays 1) */
    const bool gapped_out = rank > 1 && (c->in_place || test_rng_chance(&r, 1, 4));
    if (gapped_out) {
        int64_t stride = 1;
        for (int32_t k = rank - 1; k >= 0; k--) {
            c->out_strides[k] = stride;
            stride *= out_extent(c, k) > 0 ? out_extent(c, k) : 1;
            stride += test_rng_range(&r, 0, 9);
        }
        c->p.problem.out_strides = c->out_strides;
    } else if (c->in_place) {
        int64_t stride = 1;
        for (int32_t k = rank - 1; k >= 0; k--) {
            c->out_strides[k] = stride;
            stride *= out_extent(c, k) > 0 ? out_extent(c, k) : 1;
        }
        c->p.problem.out_strides = c->out_strides;
    }
    if (c->in_place) {
        memcpy(c->in_strides, c->out_strides, sizeof(c->in_strides));
        c->p.problem.in_strides = c->in_strides;
    } else if (rank > 1 && test_rng_chance(&r, 1, 4)) {
        /* input strides: gapped, and sometimes negative on an outer axis */
        int64_t stride = 1;
        for (int32_t k = rank - 1; k >= 0; k--) {
            c->in_strides[k] = stride;
            stride *= c->shape[k] > 0 ? c->shape[k] : 1;
            stride += test_rng_range(&r, 0, 5);
        }
        for (int32_t k = 0; k + 1 < rank; k++)
            if (test_rng_chance(&r, 1, 3)) c->in_strides[k] = -c->in_strides[k];
        c->p.problem.in_strides = c->in_strides;
    }
    c->p.problem.rank = rank;
    c->p.problem.mode = mode;
    c->p.problem.elem_size = (size_t)test_rng_range(&r, 0, 9); /* never read */
    c->p.problem.shape = c->shape;
    c->p.problem.pads_begin = c->pb;
    c->p.problem.pads_end = c->pe;
    c->p.problem.interior = dilate ? c->interior : NULL;
    c->p.problem.pad_value = test_rng_chance(&r, 1, 5) ? NULL : &c->pad_byte;
    c->use_plan = test_rng_chance(&r, 1, 2);
    c->options_null = test_rng_chance(&r, 1, 3);
    ndpad_options_init(&c->options);
    c->options.threads = (int32_t)test_rng_range(&r, 0, 2);
    if (test_rng_chance(&r, 1, 2)) c->options.tile_rows = test_rng_range(&r, 1, 5);
    c->options.schedule = (int32_t)test_rng_range(&r, 0, 1);
    if (!c->in_place && test_rng_chance(&r, 1, 12)) {
        switch (test_rng_range(&r, 0, 5)) {
        case 0:
            c->p.elem_bits = (int32_t)test_rng_range(&r, -1, 9) | 8, c->mutation = "elem_bits";
            break;
        case 1: c->p.reserved = 1, c->mutation = "reserved"; break;
        case 2:
            c->p.in_bit_offset = -test_rng_range(&r, 1, 9), c->mutation = "in_bit_offset";
            break;
        case 3:
            c->p.out_bit_offset = INT64_MAX - test_rng_range(&r, 0, 9),
            c->mutation = "out overflow";
            break;
        case 4:
            if (rank > 0) {
                c->in_strides[rank - 1] = 2;
                for (int32_t k = 0; k + 1 < rank; k++) c->in_strides[k] = 1000;
                c->p.problem.in_strides = c->in_strides;
                c->mutation = "innermost stride";
            }
            break;
        default: c->p.problem.mode = 7, c->mutation = "mode"; break;
        }
    }
}

/* The bits [first, past) a tensor's elements reach (positive strides: first = offset). */
static void reach(int32_t rank, const int64_t *extents, const int64_t *strides, int64_t offset,
                  int64_t bits, int64_t *first, int64_t *past)
{
    int64_t lo, hi;
    *first = *past = 0; /* an empty tensor has no bits (its offset may be anything) */
    for (int32_t k = 0; k < rank; k++)
        if (extents[k] == 0) return;
    ndpad_ref_span(rank, extents, strides, &lo, &hi);
    *first = offset + lo * bits;
    *past = offset + (hi + 1) * bits;
}

static int printed = 0;

static bool report(const bits_case *c, int64_t index, const char *what)
{
    if (printed++ < 10) {
        fprintf(stderr, "problem %" PRId64 " (seed %" PRIu64 "): %s%s%s%s\n  ", index, diff_seed,
                what, c->in_place ? " [in place]" : "", c->use_plan ? " [plan]" : " [pad]",
                c->mutation ? " [mutation]" : "");
        ndpad_ref_bits_print_problem(stderr, &c->p);
    }
    return false;
}

static ndpad_status run_ndpad(const bits_case *c, const void *in, void *out)
{
    const ndpad_options *o = c->options_null ? NULL : &c->options;
    if (!c->use_plan) return ndpad_bits_pad(&c->p, o, in, out);
    ndpad_bits_plan *plan = NULL;
    ndpad_status st = ndpad_bits_plan_create(&c->p, o, &plan);
    if (st != NDPAD_OK) return st;
    st = ndpad_bits_execute(plan, in, out);
    if (st == NDPAD_OK && !c->in_place) st = ndpad_bits_execute(plan, in, out);
    ndpad_bits_plan_destroy(plan);
    return st;
}

static bool run_one(int64_t index)
{
    bits_case c;
    generate(diff_seed, index, &c);
    test_rng r = test_rng_make(diff_seed ^ 0x5EED, (uint64_t)index);
    ndpad_ref_verdict verdict;
    const ndpad_status expected_status = ndpad_ref_bits_validate(&c.p, &verdict);
    const int32_t rank = c.p.problem.rank;
    const int64_t bits = c.p.elem_bits;
    int64_t n[RANK_MAX] = {0};
    int64_t out_first = 0, out_past = 0, in_first = 0, in_past = 0;
    if (expected_status == NDPAD_OK) {
        ndpad_bits_output_shape(&c.p, n);
        reach(rank, n, c.p.problem.out_strides, c.p.out_bit_offset, bits, &out_first, &out_past);
        reach(rank, c.shape, c.p.problem.in_strides, c.p.in_bit_offset, bits, &in_first, &in_past);
    }
    if (out_past > ((int64_t)1 << 40) || in_past > ((int64_t)1 << 40)) {
        /* valid, but its bits lie far beyond any buffer: the plan must still be made */
        ndpad_bits_plan *plan = NULL;
        const bool made = ndpad_bits_plan_create(&c.p, NULL, &plan) == NDPAD_OK;
        ndpad_bits_plan_destroy(plan);
        return made ? true : report(&c, index, "a valid far-away problem was refused");
    }
    /* the output: guard, its bytes, guard; the input: its own allocation, element [0..0]
     * placed so that negative strides stay inside it */
    const size_t out_bytes = (size_t)((out_past + 7) / 8) + 2 * TEST_GUARD;
    const int64_t in_lead = in_first < 0 ? (-in_first + 7) / 8 : 0;
    const size_t in_bytes = (size_t)(in_lead + (in_past + 7) / 8) + 2 * TEST_GUARD;
    unsigned char *actual = malloc(out_bytes), *expected = malloc(out_bytes);
    unsigned char *in_alloc = malloc(in_bytes), *in_copy = malloc(in_bytes);
    test_rng_bytes(&r, actual, out_bytes);
    memcpy(expected, actual, out_bytes);
    test_rng_bytes(&r, in_alloc, in_bytes);
    memcpy(in_copy, in_alloc, in_bytes);
    unsigned char *out = actual + TEST_GUARD;
    const unsigned char *in = in_alloc + TEST_GUARD + in_lead;
    bool ok = true;

    if (expected_status != NDPAD_OK) {
        const ndpad_status got = run_ndpad(&c, in, out);
        if (got != expected_status) ok = report(&c, index, "status differs from the reference");
        if (memcmp(actual, expected, out_bytes) != 0) ok = report(&c, index, "wrote on error");
        if (got != NDPAD_OK && ndpad_last_error()[0] == '\0') ok = report(&c, index, "no message");
    } else if (c.in_place) {
        /* the input: its elements written into the output's interior, and a dense copy of
         * them for the reference */
        int64_t interior_bits = c.p.out_bit_offset;
        for (int32_t k = 0; k < rank; k++) interior_bits += c.pb[k] * c.out_strides[k] * bits;
        ndpad_bits_problem ref = c.p;
        ref.problem.in_strides = NULL;
        ref.in_bit_offset = 0;
        int64_t count = 1;
        for (int32_t k = 0; k < rank; k++) count *= c.shape[k];
        unsigned char *dense = calloc((size_t)(count * bits + 7) / 8 + 1, 1);
        int64_t idx[RANK_MAX] = {0};
        for (int64_t e = 0; e < count; e++) {
            int64_t pos = interior_bits;
            for (int32_t k = 0; k < rank; k++) pos += idx[k] * c.out_strides[k] * bits;
            const unsigned v = (unsigned)test_rng_range(&r, 0, (1 << bits) - 1);
            ndpad_ref_bits_set(out, pos, (unsigned)bits, v);
            ndpad_ref_bits_set(expected + TEST_GUARD, pos, (unsigned)bits, v);
            ndpad_ref_bits_set(dense, e * bits, (unsigned)bits, v);
            for (int32_t k = rank - 1; k >= 0; k--) {
                if (++idx[k] < c.shape[k]) break;
                idx[k] = 0;
            }
        }
        c.p.in_bit_offset = interior_bits & 7;
        const unsigned char *in_place_in = out + (interior_bits >> 3);
        if (ndpad_ref_bits_pad(&ref, dense, expected + TEST_GUARD) != NDPAD_OK)
            ok = report(&c, index, "the reference failed");
        const ndpad_status got = run_ndpad(&c, in_place_in, out);
        if (got != NDPAD_OK)
            ok = report(&c, index, ndpad_last_error());
        else if (memcmp(actual, expected, out_bytes) != 0)
            ok = report(&c, index, "in-place output differs");
        free(dense);
    } else {
        if (ndpad_ref_bits_pad(&c.p, in, expected + TEST_GUARD) != NDPAD_OK)
            ok = report(&c, index, "the reference failed");
        const ndpad_status got = run_ndpad(&c, in, out);
        if (got != NDPAD_OK)
            ok = report(&c, index, ndpad_last_error());
        else if (memcmp(actual, expected, out_bytes) != 0) {
            size_t i = 0;
            while (actual[i] == expected[i]) i++;
            char what[160];
            snprintf(what, sizeof(what), "output differs at byte %zd of the output (%s)",
                     (ptrdiff_t)i - TEST_GUARD,
                     i < TEST_GUARD || i >= out_bytes - TEST_GUARD ? "a guard byte" : "inside");
            ok = report(&c, index, what);
        }
        if (memcmp(in_alloc, in_copy, in_bytes) != 0) ok = report(&c, index, "input changed");
    }
    free(actual), free(expected), free(in_alloc), free(in_copy);
    return ok;
}

static void random_problems_match_reference(void **state)
{
    (void)state;
    int64_t failures = 0;
    if (diff_index >= 0) {
        assert_true(run_one(diff_index));
        return;
    }
    for (int64_t i = 0; i < diff_count; i++)
        if (!run_one(i)) failures++;
    if (failures)
        fprintf(stderr, "%" PRId64 " of %" PRId64 " problems failed\n", failures, diff_count);
    assert_int_equal(failures, 0);
}

/* The header's example, byte for byte, and its mid-byte variant. */
static void header_example_holds(void **state)
{
    (void)state;
    int64_t shape[2] = {2, 3}, pb[2] = {1, 1}, pe[2] = {1, 1};
    uint8_t in[3] = {0x21, 0x43, 0x65}, out[10], minus1 = 0x0F;
    ndpad_bits_problem p = {.problem = {.rank = 2,
                                        .mode = NDPAD_CONSTANT,
                                        .shape = shape,
                                        .pads_begin = pb,
                                        .pads_end = pe,
                                        .pad_value = &minus1},
                            .elem_bits = 4};
    assert_int_equal(ndpad_bits_pad(&p, NULL, in, out), NDPAD_OK);
    const uint8_t want[10] = {0xFF, 0xFF, 0xFF, 0x21, 0xF3, 0x4F, 0x65, 0xFF, 0xFF, 0xFF};
    assert_memory_equal(out, want, 10);
    uint8_t shifted[11];
    memset(shifted, 0x00, sizeof(shifted));
    p.out_bit_offset = 4;
    assert_int_equal(ndpad_bits_pad(&p, NULL, in, shifted), NDPAD_OK);
    assert_int_equal(shifted[0], 0xF0);  /* the low nibble kept its 0 */
    assert_int_equal(shifted[10], 0x0F); /* the high nibble too */
}

static uint64_t parse_seed(const char *s)
{
    return (uint64_t)strtoull(s, NULL, 0);
}

int main(int argc, char **argv)
{
    const char *env;
    if ((env = getenv("NDPAD_BITS_DIFF_COUNT")) && *env) diff_count = strtoll(env, NULL, 0);
    if ((env = getenv("NDPAD_BITS_DIFF_SEED")) && *env) diff_seed = parse_seed(env);
    if ((env = getenv("NDPAD_BITS_DIFF_INDEX")) && *env) diff_index = strtoll(env, NULL, 0);
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--index=", 8) == 0)
            diff_index = strtoll(argv[i] + 8, NULL, 0);
        else if (positional++ == 0) {
            if (!getenv("NDPAD_BITS_DIFF_COUNT")) diff_count = strtoll(argv[i], NULL, 0);
        } else if (!getenv("NDPAD_BITS_DIFF_SEED"))
            diff_seed = parse_seed(argv[i]);
    }
    printf("test-bits-differential: seed=%" PRIu64 " count=%" PRId64 "\n", diff_seed, diff_count);
    fflush(stdout);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(header_example_holds),
        cmocka_unit_test(random_problems_match_reference),
    };
    return cmocka_run_group_tests_name("bits-differential", tests, NULL, NULL);
}
