/*
 * test-consts-stream.c — constants per axis and side and per output index (ndpad_pad_sides,
 * ndpad_pad_per_index and their plans) on the output-stream path, under every NDPAD_STREAM
 * setting (unset, off, always, reference), against the naive reference (tests/ref:
 * ndpad_ref_pad_constants). Random dense problems shaped for the stream kernels: short
 * rows (under 64 bytes), the row masks' 64 to 511 bytes, long rows with a row pattern, and
 * runs of rows of one value (per index along an outer axis) of 16 KiB or more; outputs at
 * every offset from a 64-byte boundary, guard bytes on both sides, 1 and 2 threads, forced
 * tiles, one-shot and planned. Registered per ISA (NDPAD_ISA), so every level's stream
 * kernels run it.
 *
 *   NDPAD_CONSTS_STREAM_COUNT=n   problems per NDPAD_STREAM setting (default 300; the
 *                                 emulated aarch64 run takes fewer)
 *
 * Issue 41: the AVX-512 BLOCKS_CONSTANT kernel stepped its pad rows' row pattern by 64 bytes
 * as if rows were 64 bytes or longer; NDPAD_STREAM=always gives it shorter ones, which read
 * past the table (uint8 [1,94,70,3], per index along axis 3: 440 wrong bytes).
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ndpad.h"
#include "ref/ndpad-ref.h"
#include "stream-plan.h"
#include "stream/strategy.h"
#include "test-util.h"

#define MAX_RANK 4

static const char *const settings[] = {NULL, "off", "always", "reference"};
#define SETTINGS (sizeof settings / sizeof settings[0])

static int64_t problems_per_setting(void)
{
    const char *env = getenv("NDPAD_CONSTS_STREAM_COUNT");
    const long long n = env != NULL ? strtoll(env, NULL, 10) : 0;
    return n > 0 ? (int64_t)n : 300;
}

static void set_stream(const char *value)
{
    if (value == NULL)
        unsetenv("NDPAD_STREAM");
    else
        setenv("NDPAD_STREAM", value, 1);
}

/* A random dense CONSTANT problem for the stream kernels in `shape`, `pb`, `pe` (rank
 * returned): the row (the last axis, padded so that it stays the row) of `row_class` 0
 * short, 1 the row masks' lengths, 2 long; with `big` the outer axes hold 16 KiB per index
 * of the first one. */
static int32_t random_problem(test_rng *r, size_t es, int row_class, bool big, int64_t *shape,
                              int64_t *pb, int64_t *pe)
{
    const int32_t rank = (int32_t)test_rng_range(r, big ? 3 : row_class == 0 ? 2 : 1, MAX_RANK);
    static const int64_t row_bytes_lo[3] = {1, 64, 512}, row_bytes_hi[3] = {63, 511, 2100};
    int64_t row = test_rng_range(r, row_bytes_lo[row_class], row_bytes_hi[row_class]) / (int64_t)es;
    /* source rows of 1 to 3 elements often (SHORT_ROWS_16 declines those under 4 bytes) */
    if (row_class == 0 && test_rng_chance(r, 1, 2)) row = test_rng_range(r, 1, 3);
    if (row < 1) row = 1;
    for (int32_t k = 0; k < rank; k++) {
        const bool last = k == rank - 1;
        /* Outer axes of 2 or more (the stream serves constants only where no axis is of one
         * element) and mostly input rows (else it declines), pads of whole planes (runs of
         * pad rows over several blocks); short rows in planes of up to 90 (the PLANES kinds
         * decline planes of many phases: BLOCKS_CONSTANT and the others then take them). */
        const bool plane_rows = k == rank - 2 && row_class == 0; /* planes of many short rows */
        shape[k] = last         ? row
                   : plane_rows ? test_rng_range(r, 2, 90)
                                : test_rng_range(r, 2, rank > 2 ? 9 : 24);
        pb[k] = test_rng_range(r, 0, 3);
        pe[k] = test_rng_range(r, 0, 3);
        /* a crop sometimes, never of the whole axis */
        if (test_rng_chance(r, 1, 8)) pb[k] = -test_rng_range(r, 0, (shape[k] - 1) / 2);
        if (test_rng_chance(r, 1, 8)) pe[k] = -test_rng_range(r, 0, (shape[k] - 1) / 2);
        /* sometimes an unpadded outer axis (it merges with its neighbour) */
        if (!last && test_rng_chance(r, 1, 5)) pb[k] = pe[k] = 0;
    }
    if (pb[rank - 1] == 0 && pe[rank - 1] == 0) pe[rank - 1] = 1; /* the row stays the row */
    if (big) {
        /* NCHW-like: a few channels (axis 0) of planes of at least 16 KiB */
        shape[0] = test_rng_range(r, 2, 4);
        pb[0] = pe[0] = test_rng_chance(r, 1, 2) ? 0 : 1;
        int64_t plane = 1;
        for (int32_t k = 1; k < rank; k++) plane *= shape[k] + pb[k] + pe[k];
        if (plane * (int64_t)es < 16384)
            shape[1] += 16384 / ((int64_t)es * plane / (shape[1] + pb[1] + pe[1])) + 1;
    }
    return rank;
}

/* Stream tiles run so far (stream-plan.h). */
static unsigned long long stream_tiles(void)
{
    return atomic_load(&ndpad_stream_tiles_run);
}

/* Problem `index` of setting `s`: one-shot, again (a small output's plan then comes from the
 * cache), then planned with random options; every run checked against the reference over
 * the whole output and the guard bytes on both sides. */
static void check_one(size_t s, uint64_t index)
{
    static const size_t sizes[] = {1, 2, 4, 8, 16, 3, 1, 4};
    test_rng r = test_rng_make(0x43535452ull + s, index);
    const size_t es = sizes[test_rng_range(&r, 0, 7)];
    const int row_class = test_rng_chance(&r, 1, 2) ? 0 : (int)test_rng_range(&r, 1, 2);
    const bool big = test_rng_chance(&r, 1, 10);
    int64_t shape[MAX_RANK], pb[MAX_RANK], pe[MAX_RANK], out_shape[MAX_RANK];
    const int32_t rank = random_problem(&r, es, row_class, big, shape, pb, pe);
    int64_t in_count = 1, out_count = 1;
    for (int32_t k = 0; k < rank; k++) {
        out_shape[k] = pb[k] + shape[k] + pe[k];
        in_count *= shape[k], out_count *= out_shape[k];
    }
    const int32_t kind = test_rng_chance(&r, 1, 2) ? NDPAD_REF_PER_SIDE : NDPAD_REF_PER_INDEX;
    /* per index: along the row (NHWC's channels) as often as along an outer axis */
    const int32_t axis = big && test_rng_chance(&r, 2, 3) ? 0
                         : test_rng_chance(&r, 1, 2)      ? rank - 1
                                                     : (int32_t)test_rng_range(&r, 0, rank - 1);
    const size_t bytes = (size_t)out_count * es, shift = (size_t)test_rng_range(&r, 0, 63);
    const int64_t n_values = kind == NDPAD_REF_PER_SIDE ? 2 * rank : out_shape[axis];
    unsigned char *values = test_xmalloc((size_t)n_values * es);
    test_rng_bytes(&r, values, (size_t)n_values * es);
    unsigned char *in = test_xmalloc((size_t)in_count * es + 1);
    test_rng_bytes(&r, in, (size_t)in_count * es);
    unsigned char *expected = test_xmalloc(bytes);
    memset(expected, TEST_SENTINEL, bytes);
    const ndpad_problem p = {.rank = rank,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = es,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe};
    assert_int_equal(ndpad_ref_pad_constants(&p, kind, axis, values, in, expected), NDPAD_OK);
    /* the body `shift` bytes past a 64-byte boundary, TEST_GUARD bytes guarded each side */
    const size_t total = bytes + 2 * TEST_GUARD + 128;
    unsigned char *alloc = test_xmalloc(total);
    unsigned char *body =
        (unsigned char *)(((uintptr_t)alloc + TEST_GUARD + 63) & ~(uintptr_t)63) + shift;
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = (int32_t)test_rng_range(&r, 1, 2);
    if (test_rng_chance(&r, 1, 4)) options.tile_rows = test_rng_range(&r, 1, 40);
    for (int run = 0; run < 3; run++) {
        memset(alloc, TEST_SENTINEL, total);
        const bool planned = run == 2;
        const ndpad_options *use = planned ? &options : NULL;
        ndpad_status st;
        if (planned) {
            ndpad_plan *plan = NULL;
            st = kind == NDPAD_REF_PER_SIDE
                     ? ndpad_plan_create_sides(&p, values, use, &plan)
                     : ndpad_plan_create_per_index(&p, axis, values, use, &plan);
            if (st == NDPAD_OK) st = ndpad_execute(plan, in, body);
            ndpad_plan_destroy(plan);
        } else {
            st = kind == NDPAD_REF_PER_SIDE ? ndpad_pad_sides(&p, values, use, in, body)
                                            : ndpad_pad_per_index(&p, axis, values, use, in, body);
        }
        const char *setting = settings[s] != NULL ? settings[s] : "(unset)";
        if (st != NDPAD_OK) {
            ndpad_ref_print_problem(stderr, &p);
            fail_msg("NDPAD_STREAM=%s problem %llu: %s (%s)", setting, (unsigned long long)index,
                     ndpad_status_string(st), ndpad_last_error());
        }
        const ptrdiff_t at = test_first_difference(expected, body, bytes);
        if (at >= 0) {
            ndpad_ref_print_problem(stderr, &p);
            fprintf(stderr, "%s axis %d, output at 64 k + %zu, %s, threads %d, tile rows %lld\n",
                    kind == NDPAD_REF_PER_SIDE ? "per side" : "per index", (int)axis, shift,
                    planned ? "planned" : "one-shot", planned ? (int)options.threads : 0,
                    planned ? (long long)options.tile_rows : 0);
            test_print_difference(stderr, expected, body, bytes, 0);
            fail_msg("NDPAD_STREAM=%s problem %llu: first difference at byte %td", setting,
                     (unsigned long long)index, at);
        }
        if (!test_all_bytes_are(alloc, (size_t)(body - alloc), TEST_SENTINEL) ||
            !test_all_bytes_are(body + bytes, total - (size_t)(body - alloc) - bytes,
                                TEST_SENTINEL))
            fail_msg("NDPAD_STREAM=%s problem %llu: a guard byte changed", setting,
                     (unsigned long long)index);
    }
    free(alloc);
    free(expected);
    free(in);
    free(values);
}

/* Every setting's problems; the stream path must have run under the settings that take it
 * (else the test would prove nothing of its kernels). */
static void random_constants_every_stream_setting(void **state)
{
    (void)state;
    const int64_t n = problems_per_setting();
    for (size_t s = 0; s < SETTINGS; s++) {
        set_stream(settings[s]);
        const unsigned long long before = stream_tiles();
        for (int64_t i = 0; i < n; i++) check_one(s, (uint64_t)i);
        const unsigned long long ran = stream_tiles() - before;
        printf("NDPAD_STREAM=%s: %lld problems, %llu stream tiles\n",
               settings[s] != NULL ? settings[s] : "(unset)", (long long)n, ran);
        if (settings[s] != NULL && strcmp(settings[s], "off") == 0)
            assert_true(ran == 0);
        else if (settings[s] != NULL)
            assert_true(ran > 0);
    }
    set_stream(NULL);
}

/* Issue 41's case: uint8 [1,94,70,3], pads H (2,0), W (1,2), C (0,1), per index along axis
 * 3, NDPAD_STREAM=always (on AVX-512 without VBMI: BLOCKS_CONSTANT on 4-byte rows, whose
 * pad rows read the row pattern past its end). */
static void issue41_short_rows_per_index(void **state)
{
    (void)state;
    const int64_t shape[4] = {1, 94, 70, 3}, pb[4] = {0, 2, 1, 0}, pe[4] = {0, 0, 2, 1};
    const uint8_t values[4] = {0xA1, 0xB2, 0xC3, 0xD4};
    const ndpad_problem p = {.rank = 4,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 1,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe};
    const size_t in_bytes = 94 * 70 * 3, bytes = 96 * 73 * 4;
    unsigned char *in = test_xmalloc(in_bytes), *expected = test_xmalloc(bytes);
    for (size_t i = 0; i < in_bytes; i++) in[i] = (unsigned char)(i * 7 + 1);
    assert_int_equal(ndpad_ref_pad_constants(&p, NDPAD_REF_PER_INDEX, 3, values, in, expected),
                     NDPAD_OK);
    test_out out = test_out_make(bytes);
    for (size_t s = 0; s < SETTINGS; s++) {
        set_stream(settings[s]);
        for (int call = 0; call < 4; call++) {
            memset(out.body, 0x5a + call, bytes);
            assert_int_equal(ndpad_pad_per_index(&p, 3, values, NULL, in, out.body), NDPAD_OK);
            const ptrdiff_t at = test_first_difference(expected, out.body, bytes);
            if (at >= 0) {
                test_print_difference(stderr, expected, out.body, bytes, 0);
                fail_msg("NDPAD_STREAM=%s call %d: first difference at byte %td",
                         settings[s] != NULL ? settings[s] : "(unset)", call, at);
            }
            assert_true(test_all_bytes_are(out.alloc, TEST_GUARD, TEST_SENTINEL));
            assert_true(test_all_bytes_are(out.body + bytes, TEST_GUARD, TEST_SENTINEL));
        }
    }
    set_stream(NULL);
    test_out_free(&out);
    free(in);
    free(expected);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(issue41_short_rows_per_index),
        cmocka_unit_test(random_constants_every_stream_setting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
