/*
 * test-plan-cache.c — the one-shot plan cache (src/plan-cache.c): a repeated ndpad_pad()
 * hits it and gives the reference's bytes; a problem differing in any byte (a pad value, a
 * pad, a stride given or not) misses; NDPAD_ISA and the wisdom (forgotten between calls)
 * are part of what a hit must match; many threads sharing the slots agree with the
 * reference; a hit keeps the plan's output-stream path and runs through it.
 */
#define _DEFAULT_SOURCE /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ndpad.h"
#include "plan-cache.h"
#include "plan.h"
#include "stream-plan.h"
#include "ref/ndpad-ref.h"

static void pad_and_compare(const ndpad_problem *p, const float *in)
{
    float out[12 * 12], want[12 * 12];
    memset(out, 0x5A, sizeof(out));
    assert_int_equal(ndpad_ref_pad(p, in, want), NDPAD_OK);
    assert_int_equal(ndpad_pad(p, in, out), NDPAD_OK);
    const int64_t count = ndpad_ref_output_count(p);
    assert_true(count > 0 && count <= 12 * 12);
    assert_memory_equal(out, want, sizeof(float) * (size_t)count);
}

static void test_hits_and_misses(void **state)
{
    (void)state;
    const int64_t shape[2] = {8, 9}, begin[2] = {1, 1}, end[2] = {1, 0};
    const int64_t other_end[2] = {1, 1}, strides[2] = {9, 1};
    float in[72], value = 7.0f, other_value = -1.0f;
    for (int k = 0; k < 72; k++) in[k] = (float)k;
    ndpad_problem p = {.rank = 2,
                       .mode = NDPAD_CONSTANT,
                       .elem_size = 4,
                       .shape = shape,
                       .pads_begin = begin,
                       .pads_end = end,
                       .pad_value = &value};
    ndpad_cached_plan cached;
    pad_and_compare(&p, in);
    assert_true(ndpad_plan_cache_get(&p, &cached));
    ndpad_plan_cache_release(&cached);
    pad_and_compare(&p, in); /* from the cache */

    ndpad_problem q = p;
    q.pad_value = &other_value;
    assert_false(ndpad_plan_cache_get(&q, &cached));
    pad_and_compare(&q, in);
    q = p;
    q.pads_end = other_end;
    assert_false(ndpad_plan_cache_get(&q, &cached));
    q = p;
    q.in_strides = strides; /* the same layout, but the problem's bytes differ */
    assert_false(ndpad_plan_cache_get(&q, &cached));
    pad_and_compare(&q, in);

    /* A different NDPAD_ISA (the per-ISA runs of this test set it already) */
    const char *isa = getenv("NDPAD_ISA");
    char saved[32] = "";
    if (isa != NULL) strncpy(saved, isa, sizeof(saved) - 1);
    const bool was_scalar = isa != NULL && strcmp(isa, "scalar") == 0;
    if (was_scalar)
        unsetenv("NDPAD_ISA");
    else
        setenv("NDPAD_ISA", "scalar", 1);
    assert_false(ndpad_plan_cache_get(&p, &cached));
    pad_and_compare(&p, in);
    assert_true(ndpad_plan_cache_get(&p, &cached));
    ndpad_plan_cache_release(&cached);
    if (!was_scalar) assert_int_equal(cached.plan.isa, NDPAD_ISA_SCALAR);
    if (isa != NULL)
        setenv("NDPAD_ISA", saved, 1);
    else
        unsetenv("NDPAD_ISA");

    for (int32_t mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++) {
        p.mode = mode;
        p.pad_value = mode == NDPAD_CONSTANT ? &value : NULL;
        pad_and_compare(&p, in);
        pad_and_compare(&p, in);
    }
}

/* The wisdom answers differently after ndpad_wisdom_forget() only when it held an entry
 * for the class; either way the result is the reference's. */
static void test_wisdom_forget(void **state)
{
    (void)state;
    const int64_t shape[2] = {5, 6}, begin[2] = {2, 3}, end[2] = {1, 2};
    float in[30];
    for (int k = 0; k < 30; k++) in[k] = (float)(k * 3);
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_REFLECT,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = begin,
                             .pads_end = end};
    pad_and_compare(&p, in);
    ndpad_wisdom_forget();
    pad_and_compare(&p, in);
    pad_and_compare(&p, in);
}

/* A hit takes the output-stream path exactly when a fresh plan of the problem does, and runs
 * through it: short rows whose tables the slot holds (CONSTANT, and borders read from the
 * input), and rows long enough for the BLOCKS kernels, whose tables are rebuilt on the copy
 * on levels that have them. Fails if a cached copy drops its stream. */
static void test_hits_keep_the_stream(void **state)
{
    (void)state;
    static const int64_t cases[][3] = {
        /* rows, row elements, pad each side */
        {40, 14, 1},
        {30, 200, 2},
        {12, 300, 40},
    };
    int64_t stream_hits = 0;
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        for (int32_t mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++) {
            const int64_t shape[2] = {cases[c][0], cases[c][1]};
            const int64_t pads[2] = {1, cases[c][2]};
            float value = 3.0f;
            const ndpad_problem p = {.rank = 2,
                                     .mode = mode,
                                     .elem_size = 4,
                                     .shape = shape,
                                     .pads_begin = pads,
                                     .pads_end = pads,
                                     .pad_value = mode == NDPAD_CONSTANT ? &value : NULL};
            const size_t in_count = (size_t)(shape[0] * shape[1]);
            const size_t out_count = (size_t)((shape[0] + 2) * (shape[1] + 2 * cases[c][2]));
            float *in = malloc(in_count * sizeof(float));
            float *out = malloc(out_count * sizeof(float)),
                  *want = malloc(out_count * sizeof(float));
            assert_non_null(in);
            assert_non_null(out);
            assert_non_null(want);
            for (size_t k = 0; k < in_count; k++) in[k] = (float)k;
            assert_int_equal(ndpad_ref_pad(&p, in, want), NDPAD_OK);

            ndpad_plan *fresh = NULL;
            assert_int_equal(ndpad_plan_create(&p, NULL, &fresh), NDPAD_OK);
            const bool streams = fresh->stream != NULL;
            ndpad_plan_destroy(fresh);

            assert_int_equal(ndpad_pad(&p, in, out), NDPAD_OK); /* a miss: cached now */
            ndpad_cached_plan cached;
            assert_true(ndpad_plan_cache_get(&p, &cached));
            assert_int_equal(cached.plan.stream != NULL, streams);
            ndpad_plan_cache_release(&cached);

            memset(out, 0x5A, out_count * sizeof(float));
            const unsigned long long tiles_before = ndpad_stream_tiles_run;
            assert_int_equal(ndpad_pad(&p, in, out), NDPAD_OK); /* a hit */
            if (streams) assert_true(ndpad_stream_tiles_run > tiles_before);
            stream_hits += streams;
            assert_memory_equal(out, want, out_count * sizeof(float));
            free(in);
            free(out);
            free(want);
        }
    }
    /* Short rows take the ROWS kernel on every level, so some case streams anywhere (unless
     * the environment turned the path off). */
    const char *env = getenv("NDPAD_STREAM");
    if (env == NULL || strcmp(env, "off") != 0) assert_true(stream_hits > 0);
}

/* A small feature map's plane tables (PLANES: 8 bytes a plane byte; PLANES_16: 18 a block
 * position) are held in the slot and copied out on a hit, not rebuilt on every call: the
 * rebuild cost a one-shot 10 x 10 pad ten times its copy. */
static void test_plane_tables_are_held(void **state)
{
    (void)state;
    const int64_t shape[3] = {16, 8, 8}, pads[3] = {0, 1, 1};
    const ndpad_problem p = {.rank = 3,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pads,
                             .pads_end = pads};
    float in[16 * 8 * 8], out[16 * 10 * 10], want[16 * 10 * 10];
    for (size_t k = 0; k < 16 * 8 * 8; k++) in[k] = (float)k;
    assert_int_equal(ndpad_ref_pad(&p, in, want), NDPAD_OK);
    assert_int_equal(ndpad_pad(&p, in, out), NDPAD_OK); /* a miss: cached now */
    ndpad_cached_plan cached;
    assert_true(ndpad_plan_cache_get(&p, &cached));
    const ndpad_stream *stream = cached.plan.stream;
    if (stream != NULL &&
        (stream->kind == NDPAD_STREAM_PLANES || stream->kind == NDPAD_STREAM_PLANES_16)) {
        assert_false(cached.owns_stream);
        assert_true((const unsigned char *)stream >= cached.stream &&
                    (const unsigned char *)stream < cached.stream + sizeof(cached.stream));
    }
    ndpad_plan_cache_release(&cached);
    memset(out, 0, sizeof(out));
    assert_int_equal(ndpad_pad(&p, in, out), NDPAD_OK); /* a hit */
    assert_memory_equal(out, want, sizeof(out));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hits_and_misses),
        cmocka_unit_test(test_wisdom_forget),
        cmocka_unit_test(test_hits_keep_the_stream),
        cmocka_unit_test(test_plane_tables_are_held),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
