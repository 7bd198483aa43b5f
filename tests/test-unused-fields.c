/*
 * test-unused-fields.c — a field a problem does not use is never read (issue 35).
 *
 * Every field that the header says is unused in a case holds a poisoned pointer: (void *)16
 * (a fault on any read) or a PROT_NONE page, and for pad values also the last readable byte
 * before such a page (a read of more than that one byte faults). The fields: pad_value
 * outside CONSTANT (and for a CONSTANT output that is empty), every array of a rank-0
 * problem, `in` and `out` of an empty output, `in` when no input element is read, the
 * strides of an empty output, ONNX's constant_value outside "constant", a window's arrays
 * at rank 0 and its `in` when it reads nothing. Each goes through every entry point it
 * reaches: ndpad_output_shape, ndpad_plan_create + ndpad_execute, ndpad_pad (twice: the
 * second call hits the one-shot plan cache), the window calls and the ONNX calls; results
 * are compared with the reference. A read is a crash (SIGSEGV), which fails the test.
 * Before the fix, ndpad_pad of EDGE with pad_value (void *)16 died here (defect 3); and an
 * elem_size above INT64_MAX with an empty output was refused (defect 4).
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "ndpad-ref.h"
#include "ndpad.h"
#include "test-util.h"

#define POISON ((void *)16)

static unsigned char *guarded;   /* two pages: the first readable, the second PROT_NONE */
static const void *none_page;    /* the PROT_NONE page                                  */
static const void *last_byte;    /* the last readable byte before it                    */
static const int64_t *bad_array; /* an int64 array pointer that faults when read        */

static const void *poisons(int k)
{
    return k == 0 ? POISON : k == 1 ? none_page : last_byte;
}

static void setup_pages(void)
{
    const long page = sysconf(_SC_PAGESIZE);
    guarded =
        mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(guarded != MAP_FAILED);
    memset(guarded, 0x5A, (size_t)page);
    assert_int_equal(mprotect(guarded + page, (size_t)page, PROT_NONE), 0);
    none_page = guarded + page;
    last_byte = guarded + page - 1;
    bad_array = (const int64_t *)none_page;
}

/* `p` (whose unused fields are poisoned) against `clean` (the same problem with NULL there)
 * through the plan, the one-shot call (twice) and a window of its whole output. */
static void check_every_entry(const ndpad_problem *p, const ndpad_problem *clean, const void *in,
                              const char *what)
{
    const int64_t count = ndpad_ref_output_count(clean);
    const size_t bytes = (size_t)count * p->elem_size;
    unsigned char *want = malloc(bytes + 1), *got = malloc(bytes + 1);
    assert_non_null(want);
    assert_non_null(got);
    assert_int_equal(ndpad_ref_pad(clean, in, want), NDPAD_OK);
    int64_t shape[NDPAD_MAX_RANK];
    assert_int_equal(ndpad_output_shape(p, shape), NDPAD_OK);

    ndpad_plan *plan = NULL;
    memset(got, 0xEE, bytes);
    if (ndpad_plan_create(p, NULL, &plan) != NDPAD_OK)
        fail_msg("%s: plan_create: %s", what, ndpad_last_error());
    assert_int_equal(ndpad_execute(plan, in, got), NDPAD_OK);
    ndpad_plan_destroy(plan);
    if (memcmp(got, want, bytes) != 0) fail_msg("%s: plan differs from the reference", what);
    for (int round = 0; round < 2; round++) {
        memset(got, 0xEE, bytes);
        if (ndpad_pad(p, in, got) != NDPAD_OK)
            fail_msg("%s: ndpad_pad: %s", what, ndpad_last_error());
        if (memcmp(got, want, bytes) != 0) fail_msg("%s: ndpad_pad round %d differs", what, round);
    }
    /* The window of the whole output, on the box it reads. */
    int64_t begin[NDPAD_MAX_RANK] = {0}, in_begin[NDPAD_MAX_RANK], in_end[NDPAD_MAX_RANK];
    assert_int_equal(ndpad_window_input_box(p, begin, shape, in_begin, in_end), NDPAD_OK);
    assert_int_equal(ndpad_window_plan_create(p, begin, shape, in_begin, in_end, NULL, NULL, NULL,
                                              &plan),
                     NDPAD_OK);
    int64_t offset = 0, stride = 1;
    for (int32_t k = p->rank - 1; k >= 0; k--) {
        offset += in_begin[k] * stride;
        stride *= p->shape[k];
    }
    memset(got, 0xEE, bytes);
    const bool reads = p->rank == 0 || in_end[0] > in_begin[0];
    assert_int_equal(ndpad_execute(plan,
                                   reads ? (const char *)in + offset * (int64_t)p->elem_size
                                         : POISON,
                                   got),
                     NDPAD_OK);
    ndpad_plan_destroy(plan);
    if (memcmp(got, want, bytes) != 0) fail_msg("%s: window differs", what);
    free(want);
    free(got);
}

/* Defect 3: pad_value outside CONSTANT, every non-CONSTANT mode, element sizes whose
 * copy would run past a 1-byte value. */
static void pad_value_is_unread_outside_constant(void **state)
{
    (void)state;
    static const int64_t shape[2] = {5, 7}, pb[2] = {2, 1}, pe[2] = {1, 3};
    static const size_t sizes[] = {1, 4, 64};
    for (int mode = NDPAD_EDGE; mode <= NDPAD_WRAP; mode++)
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            for (int k = 0; k < 3; k++) {
                const size_t es = sizes[s];
                unsigned char *in = malloc(35 * es);
                assert_non_null(in);
                for (size_t i = 0; i < 35 * es; i++) in[i] = (unsigned char)(i * 7 + 1);
                const ndpad_problem clean = {.rank = 2,
                                             .mode = mode,
                                             .elem_size = es,
                                             .shape = shape,
                                             .pads_begin = pb,
                                             .pads_end = pe};
                ndpad_problem p = clean;
                p.pad_value = poisons(k);
                char what[96];
                snprintf(what, sizeof(what), "%s elem_size %zu pad_value poison %d",
                         ndpad_mode_name(mode), es, k);
                check_every_entry(&p, &clean, in, what);
                free(in);
            }
}

/* ONNX: constant_value outside "constant". */
static void onnx_constant_value_is_unread_outside_constant(void **state)
{
    (void)state;
    static const int64_t shape[2] = {4, 6}, pads[4] = {1, 2, 3, 1};
    static const char *const modes[] = {"edge", "reflect", "wrap"};
    unsigned char in[4 * 6 * 64], want[8 * 9 * 64], got[8 * 9 * 64];
    for (size_t i = 0; i < sizeof(in); i++) in[i] = (unsigned char)(i * 13 + 5);
    for (int m = 0; m < 3; m++)
        for (int k = 0; k < 3; k++)
            for (size_t es = 1; es <= 64; es *= 8) {
                assert_int_equal(ndpad_ref_onnx_pad(2, shape, es, pads, 4, NULL, 0, modes[m], NULL,
                                                    in, want),
                                 NDPAD_OK);
                memset(got, 0xEE, sizeof(got));
                assert_int_equal(ndpad_onnx_pad(2, shape, es, pads, 4, NULL, 0, modes[m],
                                                poisons(k), in, got),
                                 NDPAD_OK);
                assert_memory_equal(got, want, 8 * 9 * es);
                ndpad_onnx_problem onnx;
                assert_int_equal(ndpad_onnx_problem_init(&onnx, 2, shape, es, pads, 4, NULL, 0,
                                                         modes[m], poisons(k)),
                                 NDPAD_OK);
                assert_null(onnx.problem.pad_value);
            }
}

/* Rank 0: no array is read; outside CONSTANT not the pad value either. */
static void arrays_are_unread_at_rank_0(void **state)
{
    (void)state;
    for (int mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++)
        for (int k = 0; k < 2; k++) {
            const int64_t *a = k == 0 ? (const int64_t *)POISON : bad_array;
            const ndpad_problem p = {.rank = 0,
                                     .mode = mode,
                                     .elem_size = 8,
                                     .shape = a,
                                     .pads_begin = a,
                                     .pads_end = a,
                                     .interior = a,
                                     .in_strides = a,
                                     .out_strides = a,
                                     .pad_value = mode == NDPAD_CONSTANT ? NULL : poisons(k)};
            const ndpad_problem clean = {.rank = 0, .mode = mode, .elem_size = 8};
            const uint64_t in = 0x0123456789ABCDEFull;
            char what[64];
            snprintf(what, sizeof(what), "rank 0 %s poison %d", ndpad_mode_name(mode), k);
            check_every_entry(&p, &clean, &in, what);
            ndpad_plan *plan = NULL;
            uint64_t out = 0;
            assert_int_equal(ndpad_window_plan_create(&p, a, a, a, a, a, a, NULL, &plan), NDPAD_OK);
            assert_int_equal(ndpad_execute(plan, &in, &out), NDPAD_OK);
            assert_true(out == in);
            ndpad_plan_destroy(plan);
            assert_int_equal(ndpad_window_input_box(&p, a, a, (int64_t *)POISON, (int64_t *)POISON),
                             NDPAD_OK);
        }
}

/* An empty output: `in`, `out`, the pad value (CONSTANT too: nothing is filled) and the
 * strides' values are never used; any elem_size >= 1 is valid (defect 4: above INT64_MAX
 * too, when the input is empty as well), as the reference says. */
static void empty_outputs_read_nothing(void **state)
{
    (void)state;
    static const int64_t garbage[3] = {0, INT64_MIN, INT64_MAX};
    static const size_t sizes[] = {1, 4, (size_t)INT64_MAX, (size_t)INT64_MAX + 1, SIZE_MAX};
    /* {shape, pads_begin, pads_end}: an empty input padded by nothing; a crop to nothing
     * (input not empty) */
    static const int64_t cases[2][3][3] = {{{3, 0, 2}, {0, 0, 1}, {1, 0, 0}},
                                           {{3, 4, 2}, {0, -2, 0}, {0, -2, 0}}};
    for (int c = 0; c < 2; c++)
        for (int mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++)
            for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
                for (int k = 0; k < 2; k++) {
                    const ndpad_problem p = {.rank = 3,
                                             .mode = mode,
                                             .elem_size = sizes[s],
                                             .shape = cases[c][0],
                                             .pads_begin = cases[c][1],
                                             .pads_end = cases[c][2],
                                             .in_strides = c == 0 ? garbage : NULL,
                                             .out_strides = garbage,
                                             .pad_value = poisons(k)};
                    ndpad_problem clean = p;
                    clean.pad_value = NULL; /* the reference prints it */
                    char line[512];
                    ndpad_ref_format_problem(line, sizeof(line), &clean);
                    const ndpad_status want = ndpad_ref_validate(&clean, NULL);
                    /* an input with elements of more than INT64_MAX bytes in all is refused */
                    if (c == 0) assert_int_equal(want, NDPAD_OK);
                    int64_t shape[3];
                    if (ndpad_output_shape(&p, shape) != want)
                        fail_msg("output_shape of %s: %s", line, ndpad_last_error());
                    ndpad_plan *plan = NULL;
                    if (ndpad_plan_create(&p, NULL, &plan) != want)
                        fail_msg("plan_create of %s: %s", line, ndpad_last_error());
                    if (want != NDPAD_OK) {
                        assert_int_equal(ndpad_pad(&p, POISON, POISON), want);
                        continue;
                    }
                    assert_int_equal(shape[1], 0);
                    assert_int_equal(ndpad_execute(plan, POISON, (void *)none_page), NDPAD_OK);
                    ndpad_plan_destroy(plan);
                    for (int round = 0; round < 2; round++)
                        if (ndpad_pad(&p, none_page, POISON) != NDPAD_OK)
                            fail_msg("ndpad_pad of %s: %s", line, ndpad_last_error());
                    /* the empty window of the empty output */
                    const int64_t zero[3] = {0, 0, 0};
                    int64_t ib[3], ie[3];
                    assert_int_equal(ndpad_window_input_box(&p, zero, shape, ib, ie), NDPAD_OK);
                    assert_int_equal(ndpad_window_plan_create(&p, zero, shape, ib, ie, garbage,
                                                              garbage, NULL, &plan),
                                     NDPAD_OK);
                    assert_int_equal(ndpad_execute(plan, POISON, POISON), NDPAD_OK);
                    ndpad_plan_destroy(plan);
                }
    /* ONNX: an empty output of a huge element size, in and out poisoned. */
    static const int64_t shape[2] = {3, 0}, pads[4] = {1, 0, 2, 0};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        assert_int_equal(ndpad_ref_onnx_validate(2, shape, sizes[s], pads, 4, NULL, 0, "constant",
                                                 NULL, NULL),
                         NDPAD_OK);
        if (ndpad_onnx_pad(2, shape, sizes[s], pads, 4, NULL, 0, "constant", POISON, POISON,
                           POISON) != NDPAD_OK)
            fail_msg("onnx_pad elem_size %zu: %s", sizes[s], ndpad_last_error());
        assert_int_equal(ndpad_onnx_pad(2, shape, sizes[s], pads, 4, NULL, 0, "reflect", POISON,
                                        POISON, POISON),
                         NDPAD_OK);
    }
}

/* No input element read (CONSTANT's output all pad value): `in` is never touched. */
static void input_is_unread_when_all_pad(void **state)
{
    (void)state;
    /* an empty input grown by pads; a crop past the whole input then padded */
    static const int64_t cases[2][3][2] = {{{0, 5}, {1, 0}, {1, 2}}, {{4, 3}, {-4, 1}, {3, 0}}};
    const float value = 2.5f;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 2; k++) {
            const ndpad_problem p = {.rank = 2,
                                     .mode = NDPAD_CONSTANT,
                                     .elem_size = 4,
                                     .shape = cases[c][0],
                                     .pads_begin = cases[c][1],
                                     .pads_end = cases[c][2],
                                     .pad_value = &value};
            char what[64];
            snprintf(what, sizeof(what), "all-pad case %d in poison %d", c, k);
            check_every_entry(&p, &p, k == 0 ? POISON : none_page, what);
        }
}

int main(void)
{
    setup_pages();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pad_value_is_unread_outside_constant),
        cmocka_unit_test(onnx_constant_value_is_unread_outside_constant),
        cmocka_unit_test(arrays_are_unread_at_rank_0),
        cmocka_unit_test(empty_outputs_read_nothing),
        cmocka_unit_test(input_is_unread_when_all_pad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
