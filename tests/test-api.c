/*
 * test-api.c — the plan API and the behaviours ndpad.h promises beyond single results:
 * plan reuse (many times, from several pthreads at once, after the problem is freed),
 * ndpad_plan_describe's snprintf semantics, ISA reporting, options (NULL vs zeroed),
 * rank 0, empty outputs with NULL buffers, in-place padding that writes only borders,
 * nGraph interior padding with crops, pads much larger than the extent, crops beyond the
 * extent, one big 1x64x256x256 fp32 case in every mode, calls from inside an OpenMP
 * parallel region, and the per-thread last error.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <omp.h>
#include <pthread.h>

#include "ndpad.h"
#include "test-checks.h"

static const int32_t all_modes[5] = {NDPAD_CONSTANT, NDPAD_EDGE, NDPAD_REFLECT, NDPAD_SYMMETRIC,
                                     NDPAD_WRAP};

/* A small 3-D float problem used by the plan tests. */
static const int64_t small_shape[3] = {3, 5, 7}, small_pb[3] = {1, 2, 3}, small_pe[3] = {2, 0, 4};

static ndpad_problem small_problem(int32_t mode, const float *value)
{
    const ndpad_problem p = {.rank = 3,
                             .mode = mode,
                             .elem_size = sizeof(float),
                             .shape = small_shape,
                             .pads_begin = small_pb,
                             .pads_end = small_pe,
                             .pad_value = value};
    return p;
}

enum { SMALL_IN = 3 * 5 * 7, SMALL_OUT = 6 * 7 * 14 };

static void fill_random_floats(float *x, size_t count, uint64_t seed)
{
    test_rng r = test_rng_make(seed, 77);
    for (size_t i = 0; i < count; i++) x[i] = (float)test_rng_range(&r, -100000, 100000) / 64.0f;
}

/* ===================================================================================== */
/* plans                                                                                   */
/* ===================================================================================== */

static void plan_create_execute_destroy_matches_reference_in_every_mode(void **state)
{
    (void)state;
    float in[SMALL_IN];
    fill_random_floats(in, SMALL_IN, 1);
    const float value = -3.5f;
    for (int m = 0; m < 5; m++) {
        const ndpad_problem p = small_problem(all_modes[m], &value);
        const int64_t out_shape[3] = {6, 7, 14};
        test_check_core("small 3-D", &p, in, out_shape, NULL);
    }
}

static void plan_reused_100_times_with_different_inputs(void **state)
{
    (void)state;
    const ndpad_problem p = small_problem(NDPAD_SYMMETRIC, NULL);
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&p, NULL, &plan), NDPAD_OK);
    float in[SMALL_IN], expected[SMALL_OUT], got[SMALL_OUT];
    for (int rep = 0; rep < 100; rep++) {
        fill_random_floats(in, SMALL_IN, (uint64_t)rep + 100);
        assert_int_equal(ndpad_ref_pad(&p, in, expected), NDPAD_OK);
        memset(got, TEST_SENTINEL, sizeof got);
        assert_int_equal(ndpad_execute(plan, in, got), NDPAD_OK);
        assert_memory_equal(expected, got, sizeof got);
    }
    ndpad_plan_destroy(plan);
}

static void plan_outlives_the_problem_and_its_arrays(void **state)
{
    (void)state;
    int64_t *shape = test_xmalloc(3 * sizeof(int64_t)), *pb = test_xmalloc(3 * sizeof(int64_t));
    int64_t *pe = test_xmalloc(3 * sizeof(int64_t)), *interior = test_xmalloc(3 * sizeof(int64_t));
    int64_t *out_strides = test_xmalloc(3 * sizeof(int64_t));
    float *value = test_xmalloc(sizeof(float));
    const int64_t shape0[3] = {2, 3, 4}, pb0[3] = {1, -1, 2}, pe0[3] = {0, 2, -1},
                  interior0[3] = {1, 0, 2};
    memcpy(shape, shape0, sizeof shape0);
    memcpy(pb, pb0, sizeof pb0);
    memcpy(pe, pe0, sizeof pe0);
    memcpy(interior, interior0, sizeof interior0);
    *value = 9.25f;
    ndpad_problem *p = test_xmalloc(sizeof(*p));
    *p = (ndpad_problem){.rank = 3,
                         .mode = NDPAD_CONSTANT,
                         .elem_size = 4,
                         .shape = shape,
                         .pads_begin = pb,
                         .pads_end = pe,
                         .interior = interior,
                         .pad_value = value};
    int64_t out_shape[3];
    assert_int_equal(ndpad_ref_output_shape(p, out_shape), NDPAD_OK);
    /* a gapped output: rows of 16 elements for an inner extent of 11 */
    out_strides[2] = 1;
    out_strides[1] = 16;
    out_strides[0] = 16 * out_shape[1] + 5;
    p->out_strides = out_strides;
    float in[24];
    fill_random_floats(in, 24, 3);
    const size_t span = (size_t)((out_shape[0] - 1) * out_strides[0] +
                                 (out_shape[1] - 1) * out_strides[1] + out_shape[2]);
    test_out expected = test_out_make(span * 4), got = test_out_make(span * 4);
    assert_int_equal(ndpad_ref_pad(p, in, expected.body), NDPAD_OK);

    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(p, NULL, &plan), NDPAD_OK);
    memset(shape, 0xEE, 3 * sizeof(int64_t));
    memset(pb, 0xEE, 3 * sizeof(int64_t));
    memset(pe, 0xEE, 3 * sizeof(int64_t));
    memset(interior, 0xEE, 3 * sizeof(int64_t));
    memset(out_strides, 0xEE, 3 * sizeof(int64_t));
    memset(value, 0xEE, sizeof(float));
    free(shape);
    free(pb);
    free(pe);
    free(interior);
    free(out_strides);
    free(value);
    free(p);
    assert_int_equal(ndpad_execute(plan, in, got.body), NDPAD_OK);
    ndpad_plan_destroy(plan);
    test_expect_same_bytes("plan after the problem was freed", NULL, expected.alloc, got.alloc,
                           span * 4 + 2 * TEST_GUARD, TEST_GUARD);
    test_out_free(&expected);
    test_out_free(&got);
}

typedef struct thread_job {
    const ndpad_plan *plan;
    const ndpad_problem *problem;
    int id;
    int failures;
} thread_job;

static void *run_shared_plan(void *arg)
{
    thread_job *job = (thread_job *)arg;
    float in[SMALL_IN], expected[SMALL_OUT], got[SMALL_OUT];
    for (int rep = 0; rep < 50; rep++) {
        fill_random_floats(in, SMALL_IN, (uint64_t)(job->id * 1000 + rep));
        ndpad_ref_pad(job->problem, in, expected);
        memset(got, TEST_SENTINEL, sizeof got);
        if (ndpad_execute(job->plan, in, got) != NDPAD_OK || memcmp(expected, got, sizeof got) != 0)
            job->failures++;
    }
    return NULL;
}

static void plan_shared_by_4_pthreads_with_distinct_buffers(void **state)
{
    (void)state;
    const float value = 1.5f;
    for (int variant = 0; variant < 2; variant++) {
        const ndpad_problem p = small_problem(variant ? NDPAD_REFLECT : NDPAD_CONSTANT, &value);
        ndpad_options options;
        ndpad_options_init(&options);
        options.threads = variant ? 2 : 1;
        ndpad_plan *plan = NULL;
        assert_int_equal(ndpad_plan_create(&p, &options, &plan), NDPAD_OK);
        pthread_t threads[4];
        thread_job jobs[4];
        for (int t = 0; t < 4; t++) {
            jobs[t] = (thread_job){.plan = plan, .problem = &p, .id = t, .failures = 0};
            assert_int_equal(pthread_create(&threads[t], NULL, run_shared_plan, &jobs[t]), 0);
        }
        for (int t = 0; t < 4; t++) {
            pthread_join(threads[t], NULL);
            if (jobs[t].failures) fail_msg("thread %d: %d wrong executions", t, jobs[t].failures);
        }
        ndpad_plan_destroy(plan);
    }
}

static bool contains_nocase(const char *haystack, const char *needle)
{
    const size_t n = strlen(needle);
    for (const char *h = haystack; *h; h++) {
        size_t i = 0;
        while (i < n && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n) return true;
    }
    return false;
}

static void plan_describe_has_snprintf_semantics_and_names_mode_and_isa(void **state)
{
    (void)state;
    static const char *const mode_words[5] = {"constant", "edge", "reflect", "symmetric", "wrap"};
    for (int m = 0; m < 5; m++) {
        const ndpad_problem p = small_problem(all_modes[m], NULL);
        ndpad_plan *plan = NULL;
        assert_int_equal(ndpad_plan_create(&p, NULL, &plan), NDPAD_OK);
        const size_t length = ndpad_plan_describe(plan, NULL, 0);
        assert_true(length > 0);
        char *full = test_xmalloc(length + 1);
        memset(full, 'x', length + 1);
        assert_int_equal(ndpad_plan_describe(plan, full, length + 1), length);
        assert_int_equal(strlen(full), length);
        if (!contains_nocase(full, mode_words[m]))
            fail_msg("describe does not mention the mode %s:\n%s", mode_words[m], full);
        const char *isa = ndpad_isa_name(ndpad_plan_isa(plan));
        if (!contains_nocase(full, isa))
            fail_msg("describe does not mention the ISA %s:\n%s", isa, full);

        /* truncated: size - 1 characters and a NUL, same return value, nothing past size */
        char small[16];
        memset(small, 'x', sizeof small);
        assert_int_equal(ndpad_plan_describe(plan, small, 8), length);
        assert_int_equal(small[7], '\0');
        assert_memory_equal(small, full, 7);
        for (size_t i = 8; i < sizeof small; i++) assert_int_equal(small[i], 'x');
        /* size 1: just the NUL */
        small[0] = 'y';
        assert_int_equal(ndpad_plan_describe(plan, small, 1), length);
        assert_int_equal(small[0], '\0');
        free(full);
        ndpad_plan_destroy(plan);
    }
}

/* ndpad_plan_info: the numbers describe prints, a forced tile reported as forced, the size
 * field honoured (an older, shorter struct gets only its own fields), bad calls named. */
static void plan_info_matches_describe_and_honours_size(void **state)
{
    (void)state;
    const int64_t shape[2] = {600, 700}, pads[2] = {1, 1};
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_REFLECT,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pads,
                             .pads_end = pads};
    ndpad_options o;
    ndpad_options_init(&o);
    o.threads = 2;
    o.tile_rows = 100;
    o.tile_cols = 300;
    o.isa = NDPAD_ISA_SCALAR;
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&p, &o, &plan), NDPAD_OK);
    struct ndpad_plan_info info;
    memset(&info, 0xEE, sizeof info);
    info.size = sizeof info;
    assert_int_equal(ndpad_plan_info(plan, &info), NDPAD_OK);
    assert_int_equal(info.size, sizeof info);
    assert_int_equal(info.isa, NDPAD_ISA_SCALAR);
    assert_int_equal(info.tile_rows, 100);
    assert_int_equal(info.tile_cols, 300);
    assert_int_equal(info.tiles, 7 * 3); /* 602 rows in 100s, 702 columns in 300s */
    assert_int_equal(info.tile_source, NDPAD_TILE_FORCED);
    assert_true(info.threads >= 1 && info.threads <= 2);
    assert_true(info.streaming == 0 || info.streaming == 1);
    char text[4096], want[160];
    ndpad_plan_describe(plan, text, sizeof text);
    snprintf(want, sizeof want, "tiles: 100 rows x 300 columns, 21 tiles, %d threads",
             (int)info.threads);
    if (strstr(text, want) == NULL) fail_msg("describe lacks \"%s\":\n%s", want, text);
    assert_non_null(strstr(text, "tile source: forced"));

    /* a caller built with a struct that ended after tile_rows gets only those fields */
    struct ndpad_plan_info old;
    memset(&old, 0xEE, sizeof old);
    old.size = offsetof(struct ndpad_plan_info, tile_cols);
    assert_int_equal(ndpad_plan_info(plan, &old), NDPAD_ERR_OPTIONS);
    assert_non_null(strstr(ndpad_last_error(), "info->size"));
    old.size = sizeof old + 64; /* a newer, longer struct: this version's fields only */
    assert_int_equal(ndpad_plan_info(plan, &old), NDPAD_OK);
    assert_int_equal(old.size, sizeof old);
    assert_int_equal(old.tiles, 21);

    assert_int_equal(ndpad_plan_info(NULL, &info), NDPAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(ndpad_last_error(), "plan is NULL"));
    assert_int_equal(ndpad_plan_info(plan, NULL), NDPAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(ndpad_last_error(), "info is NULL"));
    ndpad_plan_destroy(plan);

    /* the heuristic's tile, as the planner reports it */
    o.tile_rows = o.tile_cols = 0;
    o.tuning = NDPAD_TUNING_HEURISTIC;
    assert_int_equal(ndpad_plan_create(&p, &o, &plan), NDPAD_OK);
    info.size = sizeof info;
    assert_int_equal(ndpad_plan_info(plan, &info), NDPAD_OK);
    assert_int_equal(info.tile_source, NDPAD_TILE_HEURISTIC);
    assert_true(info.tiles >= 1 && info.tile_rows >= 1 && info.tile_cols >= 1);
    ndpad_plan_destroy(plan);
}

static void plan_isa_is_never_auto_and_forced_scalar_is_reported(void **state)
{
    (void)state;
    const ndpad_problem p = small_problem(NDPAD_WRAP, NULL);
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&p, NULL, &plan), NDPAD_OK);
    const ndpad_isa isa = ndpad_plan_isa(plan);
    assert_int_not_equal(isa, NDPAD_ISA_AUTO);
    assert_true(isa >= NDPAD_ISA_SCALAR && isa <= NDPAD_ISA_AVX512_VBMI2);
    ndpad_plan_destroy(plan);

    ndpad_options options;
    ndpad_options_init(&options);
    options.isa = NDPAD_ISA_SCALAR;
    assert_int_equal(ndpad_plan_create(&p, &options, &plan), NDPAD_OK);
    assert_int_equal(ndpad_plan_isa(plan), NDPAD_ISA_SCALAR);
    ndpad_plan_destroy(plan);
}

static void isa_names_of_every_level_and_unknown(void **state)
{
    (void)state;
    assert_string_equal(ndpad_isa_name(NDPAD_ISA_AUTO), "auto");
    assert_string_equal(ndpad_isa_name(NDPAD_ISA_SCALAR), "scalar");
    assert_string_equal(ndpad_isa_name(NDPAD_ISA_AVX2), "avx2");
    assert_string_equal(ndpad_isa_name(NDPAD_ISA_AVX512), "avx512");
    assert_string_equal(ndpad_isa_name(NDPAD_ISA_NEON), "neon");
    assert_string_equal(ndpad_isa_name(NDPAD_ISA_AVX512_VBMI), "avx512vbmi");
    assert_string_equal(ndpad_isa_name(NDPAD_ISA_AVX512_VBMI2), "avx512vbmi2");
    assert_string_equal(ndpad_isa_name((ndpad_isa)7), "unknown");
    assert_string_equal(ndpad_isa_name((ndpad_isa)-1), "unknown");
    assert_string_equal(ndpad_isa_name((ndpad_isa)1000), "unknown");
}

static void options_init_zeroes_every_field_and_ignores_null(void **state)
{
    (void)state;
    ndpad_options options, zero;
    memset(&options, 0xFF, sizeof options);
    memset(&zero, 0, sizeof zero);
    ndpad_options_init(&options);
    assert_memory_equal(&options, &zero, sizeof options);
    ndpad_options_init(NULL);
}

static void options_null_zeroed_and_forced_tiles_give_equal_results(void **state)
{
    (void)state;
    float in[SMALL_IN], expected[SMALL_OUT], got[SMALL_OUT];
    fill_random_floats(in, SMALL_IN, 5);
    const float value = 2.0f;
    for (int m = 0; m < 5; m++) {
        const ndpad_problem p = small_problem(all_modes[m], &value);
        assert_int_equal(ndpad_ref_pad(&p, in, expected), NDPAD_OK);
        for (int variant = 0; variant < 6; variant++) {
            ndpad_options options;
            memset(&options, 0, sizeof options);
            if (variant == 2) options.threads = 1;
            if (variant == 3) options.threads = 2, options.tile_rows = 1, options.tile_cols = 3;
            if (variant == 4) options.tile_rows = 5, options.tile_cols = 1;
            if (variant == 5) options.isa = NDPAD_ISA_SCALAR, options.tile_rows = 2;
            ndpad_plan *plan = NULL;
            assert_int_equal(ndpad_plan_create(&p, variant == 0 ? NULL : &options, &plan),
                             NDPAD_OK);
            memset(got, TEST_SENTINEL, sizeof got);
            assert_int_equal(ndpad_execute(plan, in, got), NDPAD_OK);
            ndpad_plan_destroy(plan);
            if (memcmp(expected, got, sizeof got) != 0)
                fail_msg("mode %d, options variant %d differs from the reference", m, variant);
        }
    }
}

/* ===================================================================================== */
/* shapes at the edges                                                                     */
/* ===================================================================================== */

static void rank_0_copies_one_element_of_any_size(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 3, 16, 1000};
    for (size_t s = 0; s < 4; s++)
        for (int m = 0; m < 5; m++) {
            unsigned char *in = test_xmalloc(sizes[s]);
            for (size_t i = 0; i < sizes[s]; i++) in[i] = (unsigned char)(i * 7 + 1);
            const ndpad_problem p = {.rank = 0, .mode = all_modes[m], .elem_size = sizes[s]};
            test_check_core("rank 0", &p, in, NULL, in);
            free(in);
        }
}

static void empty_outputs_accept_null_buffers_in_every_mode(void **state)
{
    (void)state;
    for (int m = 0; m < 5; m++) {
        /* 4x3 cropped to 0 rows */
        const int64_t shape[2] = {4, 3}, pb[2] = {-2, 1}, pe[2] = {-2, 1};
        const ndpad_problem p = {.rank = 2,
                                 .mode = all_modes[m],
                                 .elem_size = 8,
                                 .shape = shape,
                                 .pads_begin = pb,
                                 .pads_end = pe};
        int64_t out_shape[2];
        assert_int_equal(ndpad_output_shape(&p, out_shape), NDPAD_OK);
        assert_int_equal(out_shape[0], 0);
        assert_int_equal(out_shape[1], 5);
        assert_int_equal(ndpad_pad(&p, NULL, NULL), NDPAD_OK);
        ndpad_plan *plan = NULL;
        assert_int_equal(ndpad_plan_create(&p, NULL, &plan), NDPAD_OK);
        assert_int_equal(ndpad_execute(plan, NULL, NULL), NDPAD_OK);
        ndpad_plan_destroy(plan);
    }
    /* CONSTANT on an axis of extent 0 that stays 0, with the other axis padded */
    const int64_t shape[2] = {0, 3}, pb[2] = {0, 2}, pe[2] = {0, 2};
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe};
    assert_int_equal(ndpad_pad(&p, NULL, NULL), NDPAD_OK);
}

static void crop_beyond_the_extent_gives_an_empty_axis(void **state)
{
    (void)state;
    for (int m = 0; m < 5; m++) {
        const int64_t shape[2] = {3, 4}, pb[2] = {-5, 0}, pe[2] = {0, 0};
        const int64_t pb2[2] = {1, 0}, pe2[2] = {-9, 2};
        const ndpad_problem p = {.rank = 2,
                                 .mode = all_modes[m],
                                 .elem_size = 4,
                                 .shape = shape,
                                 .pads_begin = pb,
                                 .pads_end = pe};
        const ndpad_problem q = {.rank = 2,
                                 .mode = all_modes[m],
                                 .elem_size = 4,
                                 .shape = shape,
                                 .pads_begin = pb2,
                                 .pads_end = pe2};
        int64_t out_shape[2];
        assert_int_equal(ndpad_output_shape(&p, out_shape), NDPAD_OK);
        assert_int_equal(out_shape[0], 0);
        assert_int_equal(out_shape[1], 4);
        assert_int_equal(ndpad_output_shape(&q, out_shape), NDPAD_OK);
        assert_int_equal(out_shape[0], 0);
        assert_int_equal(out_shape[1], 6);
        unsigned char in[48], out[64];
        memset(in, 1, sizeof in);
        memset(out, TEST_SENTINEL, sizeof out);
        assert_int_equal(ndpad_pad(&p, in, out), NDPAD_OK);
        assert_int_equal(ndpad_pad(&q, in, out), NDPAD_OK);
        assert_true(test_all_bytes_are(out, sizeof out, TEST_SENTINEL));
    }
}

static void large_pads_repeat_the_pattern_d3_pad20(void **state)
{
    (void)state;
    /* 1-D [1, 2, 3], pads 20 / 20: the periodic patterns of api.md, written out */
    static const int32_t reflect[4] = {1, 2, 3, 2};         /* P = 4, from j = 0 */
    static const int32_t symmetric[6] = {1, 2, 3, 3, 2, 1}; /* P = 6 */
    static const int32_t wrap[3] = {1, 2, 3};
    const int32_t in[3] = {1, 2, 3};
    const int64_t shape[1] = {3}, pb[1] = {20}, pe[1] = {20}, out_shape[1] = {43};
    for (int m = 0; m < 5; m++) {
        int32_t expected[43];
        for (int o = 0; o < 43; o++) {
            const int j = o - 20;
            switch (all_modes[m]) {
            case NDPAD_CONSTANT: expected[o] = j >= 0 && j < 3 ? in[j] : 0; break;
            case NDPAD_EDGE: expected[o] = j < 0 ? 1 : j > 2 ? 3 : in[j]; break;
            case NDPAD_REFLECT: expected[o] = reflect[((j % 4) + 4) % 4]; break;
            case NDPAD_SYMMETRIC: expected[o] = symmetric[((j % 6) + 6) % 6]; break;
            default: expected[o] = wrap[((j % 3) + 3) % 3]; break;
            }
        }
        const ndpad_problem p = {.rank = 1,
                                 .mode = all_modes[m],
                                 .elem_size = 4,
                                 .shape = shape,
                                 .pads_begin = pb,
                                 .pads_end = pe};
        test_check_core("d = 3, pads 20", &p, in, out_shape, expected);
    }
    /* and on the inner axis of a 2-D tensor, with an asymmetric crop of the outer one */
    int32_t in2[4 * 3];
    for (int i = 0; i < 12; i++) in2[i] = i + 1;
    const int64_t shape2[2] = {4, 3}, pb2[2] = {-1, 20}, pe2[2] = {7, 17};
    for (int m = 0; m < 5; m++) {
        const ndpad_problem p = {.rank = 2,
                                 .mode = all_modes[m],
                                 .elem_size = 4,
                                 .shape = shape2,
                                 .pads_begin = pb2,
                                 .pads_end = pe2};
        test_check_core("4x3, pads -1,20 / 7,17", &p, in2, NULL, NULL);
    }
}

static void interior_padding_with_negative_pads_crops_the_dilated_input(void **state)
{
    (void)state;
    /* [1, 2, 3], interior 2: dilated 1 v v 2 v v 3 (D = 7); below -1, above -2: v v 2 v */
    const int32_t in[3] = {1, 2, 3}, v = -1;
    const int64_t shape[1] = {3}, interior[1] = {2}, pb[1] = {-1}, pe[1] = {-2};
    const int64_t out_shape[1] = {4};
    const int32_t expected[4] = {v, v, 2, v};
    const ndpad_problem p = {.rank = 1,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe,
                             .interior = interior,
                             .pad_value = &v};
    test_check_core("interior 2, pads -1/-2", &p, in, out_shape, expected);

    /* 2-D with interior on both axes, crops and pads, int64 elements */
    int64_t in2[3 * 4];
    for (int i = 0; i < 12; i++) in2[i] = 100 + i;
    const int64_t shape2[2] = {3, 4}, interior2[2] = {2, 1}, pb2[2] = {-2, 3}, pe2[2] = {1, -4};
    const int64_t v2 = 42;
    const ndpad_problem q = {.rank = 2,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 8,
                             .shape = shape2,
                             .pads_begin = pb2,
                             .pads_end = pe2,
                             .interior = interior2,
                             .pad_value = &v2};
    const int64_t out_shape2[2] = {6, 6};
    test_check_core("3x4 interior 2,1", &q, in2, out_shape2, NULL);
}

static void odd_and_large_element_sizes_match_reference(void **state)
{
    (void)state;
    static const size_t sizes[] = {5, 6, 7, 24, 33, 100};
    const int64_t shape[2] = {3, 4}, pb[2] = {2, -1}, pe[2] = {3, 5};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        unsigned char *in = test_xmalloc(12 * sizes[s]), *value = test_xmalloc(sizes[s]);
        test_rng r = test_rng_make(11, s);
        test_rng_bytes(&r, in, 12 * sizes[s]);
        test_rng_bytes(&r, value, sizes[s]);
        for (int m = 0; m < 5; m++) {
            const ndpad_problem p = {.rank = 2,
                                     .mode = all_modes[m],
                                     .elem_size = sizes[s],
                                     .shape = shape,
                                     .pads_begin = pb,
                                     .pads_end = pe,
                                     .pad_value = value};
            test_check_core("odd element size", &p, in, NULL, NULL);
        }
        free(in);
        free(value);
    }
}

/* ===================================================================================== */
/* in-place padding                                                                        */
/* ===================================================================================== */

/* Pads in place: the input is written into the output's interior (with a pattern), the
 * rest of the allocation is sentinel; afterwards the interior must be unchanged and the
 * whole allocation must equal the reference's output computed from a separate copy. */
static void check_in_place(int32_t rank, const int64_t *shape, const int64_t *pb, const int64_t *pe,
                           int32_t mode, size_t es, const int64_t *gaps, bool through_plan)
{
    int64_t n[4], strides[4];
    for (int32_t k = 0; k < rank; k++) n[k] = pb[k] + shape[k] + pe[k];
    int64_t stride = 1;
    for (int32_t k = rank - 1; k >= 0; k--) {
        strides[k] = stride;
        stride *= n[k] + gaps[k];
    }
    int64_t lo, hi;
    ndpad_ref_span(rank, n, strides, &lo, &hi);
    const size_t body = (size_t)(hi - lo + 1) * es;
    test_out actual = test_out_make(body), expected = test_out_make(body);
    int64_t offset = 0;
    for (int32_t k = 0; k < rank; k++) offset += pb[k] * strides[k];
    unsigned char *inside = actual.body + offset * (int64_t)es;

    /* the pattern, element by element, and a dense copy for the reference */
    const int64_t count = test_count(rank, shape);
    unsigned char *dense = test_xmalloc((size_t)count * es);
    int64_t index[4] = {0};
    for (int64_t e = 0; e < count; e++) {
        int64_t off = 0;
        for (int32_t k = 0; k < rank; k++) off += index[k] * strides[k];
        for (size_t b = 0; b < es; b++) {
            const unsigned char v = (unsigned char)(e * 31 + (int64_t)b * 7 + 3);
            inside[off * (int64_t)es + (int64_t)b] = v;
            dense[e * (int64_t)es + (int64_t)b] = v;
        }
        for (int32_t k = rank - 1; k >= 0; k--) {
            if (++index[k] < shape[k]) break;
            index[k] = 0;
        }
    }
    memcpy(expected.alloc, actual.alloc, body + 2 * TEST_GUARD);
    unsigned char *before = test_xmalloc(body + 2 * TEST_GUARD);
    memcpy(before, actual.alloc, body + 2 * TEST_GUARD);

    const ndpad_problem ref = {.rank = rank,
                               .mode = mode,
                               .elem_size = es,
                               .shape = shape,
                               .pads_begin = pb,
                               .pads_end = pe,
                               .out_strides = strides};
    assert_int_equal(ndpad_ref_pad(&ref, dense, expected.body), NDPAD_OK);

    ndpad_problem p = ref;
    p.in_strides = strides;
    if (through_plan) {
        ndpad_plan *plan = NULL;
        assert_int_equal(ndpad_plan_create(&p, NULL, &plan), NDPAD_OK);
        assert_int_equal(ndpad_execute(plan, inside, actual.body), NDPAD_OK);
        ndpad_plan_destroy(plan);
    } else {
        assert_int_equal(ndpad_pad(&p, inside, actual.body), NDPAD_OK);
    }

    /* the interior is what it was */
    for (int32_t k = 0; k < rank; k++) index[k] = 0;
    for (int64_t e = 0; e < count; e++) {
        int64_t off = 0;
        for (int32_t k = 0; k < rank; k++) off += index[k] * strides[k];
        if (memcmp(inside + off * (int64_t)es, dense + e * (int64_t)es, es) != 0) {
            ndpad_ref_print_problem(stderr, &p);
            fail_msg("in-place: interior element %lld changed", (long long)e);
        }
        for (int32_t k = rank - 1; k >= 0; k--) {
            if (++index[k] < shape[k]) break;
            index[k] = 0;
        }
    }
    test_expect_same_bytes("in-place padding vs reference", &p, expected.alloc, actual.alloc,
                           body + 2 * TEST_GUARD, TEST_GUARD);
    free(before);
    free(dense);
    test_out_free(&actual);
    test_out_free(&expected);
}

static void in_place_padding_writes_only_the_borders_in_every_mode(void **state)
{
    (void)state;
    const int64_t shape2[2] = {5, 7}, pb2[2] = {2, 3}, pe2[2] = {1, 9}, nogap[3] = {0, 0, 0};
    const int64_t gap2[2] = {2, 3};
    const int64_t shape3[3] = {2, 3, 4}, pb3[3] = {1, 0, 2}, pe3[3] = {2, 4, 1},
                  gap3[3] = {1, 0, 5};
    static const size_t sizes[] = {1, 4, 12};
    for (int m = 0; m < 5; m++)
        for (size_t s = 0; s < 3; s++)
            for (int plan = 0; plan < 2; plan++) {
                check_in_place(2, shape2, pb2, pe2, all_modes[m], sizes[s], nogap, plan);
                check_in_place(2, shape2, pb2, pe2, all_modes[m], sizes[s], gap2, plan);
                check_in_place(3, shape3, pb3, pe3, all_modes[m], sizes[s], gap3, plan);
            }
}

/* ===================================================================================== */
/* big case                                                                                */
/* ===================================================================================== */

static void big_1x64x256x256_fp32_pad_1_every_mode_vs_reference(void **state)
{
    (void)state;
    const int64_t shape[4] = {1, 64, 256, 256}, pb[4] = {0, 0, 1, 1}, pe[4] = {0, 0, 1, 1};
    const int64_t out_shape[4] = {1, 64, 258, 258};
    const size_t in_count = 64 * 256 * 256;
    float *in = test_xmalloc(in_count * sizeof(float));
    fill_random_floats(in, in_count, 9);
    const float value = 0.5f;
    for (int m = 0; m < 5; m++) {
        const ndpad_problem p = {.rank = 4,
                                 .mode = all_modes[m],
                                 .elem_size = 4,
                                 .shape = shape,
                                 .pads_begin = pb,
                                 .pads_end = pe,
                                 .pad_value = &value};
        test_check_core("1x64x256x256 pad 1", &p, in, out_shape, NULL);
    }
    free(in);
}

/* ===================================================================================== */
/* threads                                                                                 */
/* ===================================================================================== */

static void calls_inside_an_omp_parallel_region_are_correct(void **state)
{
    (void)state;
    enum { JOBS = 64 };
    const float value = 7.0f;
    int failures = 0;
    ndpad_plan *shared = NULL;
    const ndpad_problem sp = small_problem(NDPAD_WRAP, NULL);
    assert_int_equal(ndpad_plan_create(&sp, NULL, &shared), NDPAD_OK);
#pragma omp parallel for schedule(dynamic) reduction(+ : failures)
    for (int job = 0; job < JOBS; job++) {
        float in[SMALL_IN], expected[SMALL_OUT], got[SMALL_OUT];
        fill_random_floats(in, SMALL_IN, (uint64_t)job + 500);
        const ndpad_problem p = small_problem(all_modes[job % 5], &value);
        ndpad_ref_pad(&p, in, expected);
        memset(got, TEST_SENTINEL, sizeof got);
        if (ndpad_pad(&p, in, got) != NDPAD_OK || memcmp(expected, got, sizeof got) != 0)
            failures++;
        ndpad_ref_pad(&sp, in, expected);
        memset(got, TEST_SENTINEL, sizeof got);
        if (ndpad_execute(shared, in, got) != NDPAD_OK || memcmp(expected, got, sizeof got) != 0)
            failures++;
    }
    ndpad_plan_destroy(shared);
    assert_int_equal(failures, 0);
    /* and with nesting allowed, so that a nested team would really be created */
    omp_set_max_active_levels(4);
#pragma omp parallel num_threads(2) reduction(+ : failures)
    {
        float in[SMALL_IN], expected[SMALL_OUT], got[SMALL_OUT];
        fill_random_floats(in, SMALL_IN, (uint64_t)omp_get_thread_num() + 900);
        const ndpad_problem p = small_problem(NDPAD_REFLECT, NULL);
        ndpad_ref_pad(&p, in, expected);
        for (int rep = 0; rep < 20; rep++) {
            memset(got, TEST_SENTINEL, sizeof got);
            if (ndpad_pad(&p, in, got) != NDPAD_OK || memcmp(expected, got, sizeof got) != 0)
                failures++;
        }
    }
    omp_set_max_active_levels(1);
    assert_int_equal(failures, 0);
}

typedef struct error_job {
    char first[256];
    char after[256];
} error_job;

static void *fail_on_this_thread(void *arg)
{
    error_job *job = (error_job *)arg;
    snprintf(job->first, sizeof job->first, "%s", ndpad_last_error());
    const int64_t shape[1] = {-1}, pads[1] = {0};
    const ndpad_problem p = {.rank = 1,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 1,
                             .shape = shape,
                             .pads_begin = pads,
                             .pads_end = pads};
    int64_t out_shape[1];
    ndpad_output_shape(&p, out_shape);
    snprintf(job->after, sizeof job->after, "%s", ndpad_last_error());
    return NULL;
}

static void last_error_is_per_thread_and_empty_before_any_failure(void **state)
{
    (void)state;
    /* this thread fails with a rank error ... */
    const ndpad_problem bad = {.rank = 99, .mode = NDPAD_CONSTANT, .elem_size = 1};
    int64_t out_shape[128];
    assert_int_equal(ndpad_output_shape(&bad, out_shape), NDPAD_ERR_RANK);
    char mine[256];
    snprintf(mine, sizeof mine, "%s", ndpad_last_error());
    assert_true(mine[0] != '\0');
    /* ... a new thread starts with "" and fails with its own shape error ... */
    error_job job;
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, fail_on_this_thread, &job), 0);
    pthread_join(thread, NULL);
    assert_string_equal(job.first, "");
    assert_true(job.after[0] != '\0');
    assert_true(strstr(job.after, "shape[0]") != NULL);
    /* ... which leaves this thread's message alone */
    assert_string_equal(ndpad_last_error(), mine);
}

/* The running library says its version, as text and as a number, and both agree with the
 * header it was built with (the test links the library of this tree). */
static void version_of_the_library(void **state)
{
    (void)state;
    char expected[32];
    snprintf(expected, sizeof(expected), "%d.%d.%d", NDPAD_VERSION_MAJOR, NDPAD_VERSION_MINOR,
             NDPAD_VERSION_PATCH);
    assert_string_equal(ndpad_version(), expected);
    assert_int_equal(ndpad_version_number(), NDPAD_VERSION_NUMBER);
    assert_int_equal(NDPAD_VERSION_NUMBER,
                     NDPAD_VERSION_MAJOR * 10000 + NDPAD_VERSION_MINOR * 100 + NDPAD_VERSION_PATCH);
}

/* ndpad_set_default_threads() caps plans of options.threads = 0, new ones only; 0 lifts the
 * cap; a negative count is refused with a message naming the call and the argument. */
static void default_threads_cap(void **state)
{
    (void)state;
    const int32_t uncapped = ndpad_get_default_threads();
    assert_true(uncapped >= 1);
    int64_t shape[2] = {512, 512}, pb[2] = {1, 1}, pe[2] = {1, 1};
    ndpad_problem p = {.rank = 2,
                       .mode = NDPAD_EDGE,
                       .elem_size = 4,
                       .shape = shape,
                       .pads_begin = pb,
                       .pads_end = pe};
    ndpad_plan *before = NULL, *capped = NULL;
    assert_int_equal(ndpad_plan_create(&p, NULL, &before), NDPAD_OK);
    assert_int_equal(ndpad_set_default_threads(1), NDPAD_OK);
    assert_int_equal(ndpad_get_default_threads(), 1);
    assert_int_equal(ndpad_plan_create(&p, NULL, &capped), NDPAD_OK);
    struct ndpad_plan_info info = {.size = sizeof(info)};
    assert_int_equal(ndpad_plan_info(capped, &info), NDPAD_OK);
    assert_int_equal(info.threads, 1);
    /* An explicit count is the caller's: not capped. */
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = 2;
    ndpad_plan *explicit_two = NULL;
    assert_int_equal(ndpad_plan_create(&p, &options, &explicit_two), NDPAD_OK);
    assert_int_equal(ndpad_set_default_threads(-1), NDPAD_ERR_OPTIONS);
    assert_non_null(strstr(ndpad_last_error(), "ndpad_set_default_threads"));
    assert_non_null(strstr(ndpad_last_error(), "threads"));
    assert_int_equal(ndpad_get_default_threads(), 1); /* unchanged by the refused call */
    assert_int_equal(ndpad_set_default_threads(0), NDPAD_OK);
    assert_int_equal(ndpad_get_default_threads(), uncapped);
    ndpad_plan_destroy(before);
    ndpad_plan_destroy(capped);
    ndpad_plan_destroy(explicit_two);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plan_create_execute_destroy_matches_reference_in_every_mode),
        cmocka_unit_test(plan_reused_100_times_with_different_inputs),
        cmocka_unit_test(plan_outlives_the_problem_and_its_arrays),
        cmocka_unit_test(plan_shared_by_4_pthreads_with_distinct_buffers),
        cmocka_unit_test(plan_describe_has_snprintf_semantics_and_names_mode_and_isa),
        cmocka_unit_test(plan_info_matches_describe_and_honours_size),
        cmocka_unit_test(plan_isa_is_never_auto_and_forced_scalar_is_reported),
        cmocka_unit_test(isa_names_of_every_level_and_unknown),
        cmocka_unit_test(options_init_zeroes_every_field_and_ignores_null),
        cmocka_unit_test(options_null_zeroed_and_forced_tiles_give_equal_results),
        cmocka_unit_test(rank_0_copies_one_element_of_any_size),
        cmocka_unit_test(empty_outputs_accept_null_buffers_in_every_mode),
        cmocka_unit_test(crop_beyond_the_extent_gives_an_empty_axis),
        cmocka_unit_test(large_pads_repeat_the_pattern_d3_pad20),
        cmocka_unit_test(interior_padding_with_negative_pads_crops_the_dilated_input),
        cmocka_unit_test(odd_and_large_element_sizes_match_reference),
        cmocka_unit_test(in_place_padding_writes_only_the_borders_in_every_mode),
        cmocka_unit_test(big_1x64x256x256_fp32_pad_1_every_mode_vs_reference),
        cmocka_unit_test(calls_inside_an_omp_parallel_region_are_correct),
        cmocka_unit_test(last_error_is_per_thread_and_empty_before_any_failure),
        cmocka_unit_test(version_of_the_library),
        cmocka_unit_test(default_threads_cap),
    };
    return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
