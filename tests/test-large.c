/*
 * test-large.c — 64-bit sizes end to end (issue 35), 1-byte elements, every mode, checked
 * against the reference's source index on sampled rows (both borders, the interior and the
 * rows around the 2^31 and 2^32 byte offsets):
 *   - an output of more than 2^32 elements (> 4 GiB) from a small input, the interior
 *     straddling offset 2^32, on two threads (default tiles, and forced small tiles);
 *   - one row of more than 2^31 elements (3 GiB), the interior past offset 2^31;
 *   - input strides beyond 2^31 and 2^32 bytes, positive and negative (address space only:
 *     the input is a MAP_NORESERVE mapping of which only the rows read are touched);
 *   - windows at offsets past 2^32 of a 4.6 GB problem, on compact buffers and on the whole
 *     (untouched, MAP_NORESERVE) input and output.
 * Other libraries corrupt such pads silently (TensorFlow's reflect above 2^31 output
 * elements, torch's reflect of views above 2^32 elements). The test needs about 4.4 GB of
 * memory and takes seconds: ctest runs it alone (RESOURCE_LOCK large_memory). Each case
 * prints its time and the process's peak RSS.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#include <cmocka.h>

#include "ndpad-ref.h"
#include "ndpad.h"
#include "test-util.h"

#define P31       ((int64_t)1 << 31)
#define P32       ((int64_t)1 << 32)
#define PAD_VALUE 0x5C

static unsigned char *big; /* the large output, shared by the cases */
static size_t big_bytes;
static const unsigned char pad_value = PAD_VALUE;

static unsigned char in_value(int64_t i, int64_t j)
{
    return (unsigned char)(i * 131 + j * 7 + (i >> 9) + (j >> 13) + 1);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void report(const char *what, double seconds)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    printf("test-large: %-44s %6.2f s, peak RSS %.2f GiB\n", what, seconds,
           (double)u.ru_maxrss / (1024.0 * 1024.0));
    fflush(stdout);
}

static void *map_noreserve(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    assert_true(p != MAP_FAILED);
    return p;
}

/* The expected element at source indices (s0, s1) (-1: pad value). */
static unsigned char expected(int64_t s0, int64_t s1)
{
    return s0 < 0 || s1 < 0 ? PAD_VALUE : in_value(s0, s1);
}

/* ---- an output of more than 2^32 elements ------------------------------------------- */

enum { D0 = 1000, D1 = 60000 };
static const int64_t wide_shape[2] = {D0, D1}, wide_pb[2] = {65000, 3000}, wide_pe[2] = {536, 2544};
#define WIDE_ROWS (65000 + D0 + 536)
#define WIDE_COLS (3000 + D1 + 2544)

static void check_wide_rows(int mode, const unsigned char *out, const char *what)
{
    int64_t *s1 = malloc(WIDE_COLS * sizeof(int64_t));
    unsigned char *row = malloc(WIDE_COLS);
    assert_non_null(s1);
    assert_non_null(row);
    for (int64_t c = 0; c < WIDE_COLS; c++)
        s1[c] = ndpad_ref_source_index(mode, D1, 0, wide_pb[1], c);
    int64_t rows[64] = {0,
                        1,
                        64999,
                        65000,
                        65001,
                        P31 / WIDE_COLS,
                        P31 / WIDE_COLS + 1,
                        P32 / WIDE_COLS,
                        P32 / WIDE_COLS + 1,
                        65999,
                        66000,
                        WIDE_ROWS - 1};
    test_rng rng = test_rng_make(35, (uint64_t)mode);
    for (int k = 12; k < 64; k++) rows[k] = test_rng_range(&rng, 0, WIDE_ROWS - 1);
    for (int k = 0; k < 64; k++) {
        const int64_t s0 = ndpad_ref_source_index(mode, D0, 0, wide_pb[0], rows[k]);
        for (int64_t c = 0; c < WIDE_COLS; c++) row[c] = expected(s0, s1[c]);
        const unsigned char *got = out + rows[k] * WIDE_COLS;
        if (memcmp(got, row, WIDE_COLS) != 0) {
            int64_t c = 0;
            while (got[c] == row[c]) c++;
            fail_msg("%s: output [%lld, %lld] (byte offset %lld) is %d, expected %d", what,
                     (long long)rows[k], (long long)c, (long long)(rows[k] * WIDE_COLS + c), got[c],
                     row[c]);
        }
    }
    free(s1);
    free(row);
}

static void output_beyond_2_pow_32_elements(void **state)
{
    (void)state;
    assert_true((int64_t)WIDE_ROWS * WIDE_COLS > P32);
    unsigned char *in = malloc((size_t)D0 * D1);
    assert_non_null(in);
    for (int64_t i = 0; i < D0; i++)
        for (int64_t j = 0; j < D1; j++) in[i * D1 + j] = in_value(i, j);
    for (int mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++) {
        const ndpad_problem p = {.rank = 2,
                                 .mode = mode,
                                 .elem_size = 1,
                                 .shape = wide_shape,
                                 .pads_begin = wide_pb,
                                 .pads_end = wide_pe,
                                 .pad_value = &pad_value};
        int64_t shape[2];
        assert_int_equal(ndpad_output_shape(&p, shape), NDPAD_OK);
        assert_int_equal(shape[0], WIDE_ROWS);
        assert_int_equal(shape[1], WIDE_COLS);
        ndpad_options options;
        ndpad_options_init(&options);
        options.threads = 2;
        if (mode == NDPAD_EDGE || mode == NDPAD_WRAP) { /* many tiles, past 2^32 too */
            options.tile_rows = 3;
            options.tile_cols = 20000;
        }
        ndpad_plan *plan = NULL;
        assert_int_equal(ndpad_plan_create(&p, &options, &plan), NDPAD_OK);
        memset(big, 0xEE, 4096); /* the rest is overwritten by the pad */
        const double t0 = now();
        assert_int_equal(ndpad_execute(plan, in, big), NDPAD_OK);
        const double t1 = now();
        ndpad_plan_destroy(plan);
        char what[96];
        snprintf(what, sizeof(what), "%s 66536 x 65544 uint8 (4.06 GiB)%s", ndpad_mode_name(mode),
                 options.tile_rows ? ", 3x20000 tiles" : "");
        check_wide_rows(mode, big, what);
        report(what, t1 - t0);
    }
    free(in);
}

/* ---- one row of more than 2^31 elements --------------------------------------------- */

static void row_beyond_2_pow_31_elements(void **state)
{
    (void)state;
    const int64_t d = 100000, b = P31 + 12345, e = P31 / 2;
    const int64_t n = b + d + e;
    static int64_t shape[1], pb[1], pe[1];
    shape[0] = d;
    pb[0] = b;
    pe[0] = e;
    unsigned char *in = malloc((size_t)d);
    assert_non_null(in);
    for (int64_t j = 0; j < d; j++) in[j] = in_value(0, j);
    for (int mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++) {
        const ndpad_problem p = {.rank = 1,
                                 .mode = mode,
                                 .elem_size = 1,
                                 .shape = shape,
                                 .pads_begin = pb,
                                 .pads_end = pe,
                                 .pad_value = &pad_value};
        const double t0 = now();
        assert_int_equal(ndpad_pad(&p, in, big), NDPAD_OK);
        const double t1 = now();
        /* Samples of 8192 elements: both ends, around 2^31 and the interior's ends. */
        int64_t starts[40] = {0, P31 - 4096, b - 4096, b + d - 4096, n - 8192, P31 + 4096};
        test_rng rng = test_rng_make(31, (uint64_t)mode);
        for (int k = 6; k < 40; k++) starts[k] = test_rng_range(&rng, 0, n - 8192);
        for (int k = 0; k < 40; k++)
            for (int64_t o = starts[k]; o < starts[k] + 8192; o++) {
                const unsigned char want = expected(0, ndpad_ref_source_index(mode, d, 0, b, o));
                if (big[o] != want)
                    fail_msg("%s 1-D: output [%lld] is %d, expected %d", ndpad_mode_name(mode),
                             (long long)o, big[o], want);
            }
        char what[96];
        snprintf(what, sizeof(what), "%s one row of 3.0 G uint8 (ndpad_pad)",
                 ndpad_mode_name(mode));
        report(what, t1 - t0);
    }
    free(in);
}

/* ---- input strides beyond 2^31 and 2^32 bytes ---------------------------------------- */

static void input_strides_beyond_2_pow_31_bytes(void **state)
{
    (void)state;
    static const int64_t shape[2] = {3, 5000}, pb[2] = {2, 3}, pe[2] = {2, 3};
    static const int64_t strides[2] = {P31 + 17, -(P32 + 5)};
    const double t0 = now();
    for (int s = 0; s < 2; s++) {
        const int64_t stride = strides[s], span = 2 * (stride < 0 ? -stride : stride) + 5000;
        unsigned char *mapping = map_noreserve((size_t)span);
        /* element [0, 0]: at the start for a positive stride, at the last row for a negative */
        unsigned char *in = stride > 0 ? mapping : mapping + 2 * -stride;
        for (int64_t i = 0; i < 3; i++)
            for (int64_t j = 0; j < 5000; j++) in[i * stride + j] = in_value(i, j);
        const int64_t in_strides[2] = {stride, 1};
        for (int mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++) {
            const ndpad_problem p = {.rank = 2,
                                     .mode = mode,
                                     .elem_size = 1,
                                     .shape = shape,
                                     .pads_begin = pb,
                                     .pads_end = pe,
                                     .in_strides = in_strides,
                                     .pad_value = &pad_value};
            static unsigned char want[7 * 5006], got[7 * 5006];
            assert_int_equal(ndpad_ref_pad(&p, in, want), NDPAD_OK);
            for (int round = 0; round < 2; round++) {
                memset(got, 0xEE, sizeof(got));
                if (round == 0) {
                    assert_int_equal(ndpad_pad(&p, in, got), NDPAD_OK);
                } else {
                    ndpad_options options;
                    ndpad_options_init(&options);
                    options.threads = 2;
                    options.tile_rows = 2;
                    options.tile_cols = 999;
                    ndpad_plan *plan = NULL;
                    assert_int_equal(ndpad_plan_create(&p, &options, &plan), NDPAD_OK);
                    assert_int_equal(ndpad_execute(plan, in, got), NDPAD_OK);
                    ndpad_plan_destroy(plan);
                }
                if (memcmp(got, want, sizeof(want)) != 0)
                    fail_msg("%s, in_strides[0] = %lld, round %d: differs from the reference",
                             ndpad_mode_name(mode), (long long)stride, round);
            }
        }
        munmap(mapping, (size_t)span);
    }
    report("in_strides 2^31+17 and -(2^32+5) bytes, 5 modes", now() - t0);
}

/* ---- windows at offsets past 2^32 ----------------------------------------------------- */

enum { W0 = 70000, W1 = 65536 };
static const int64_t win_shape[2] = {W0, W1}, win_pb[2] = {3, 5}, win_pe[2] = {4, 2};
#define WIN_COLS (5 + W1 + 2)

/* Window [ob, oe) of the problem of `mode`, on compact buffers (compact) or on the whole
 * input and output (`whole_in`, `whole_out`: MAP_NORESERVE, touched only where used). */
static void check_window(int mode, const int64_t ob[2], const int64_t oe[2], bool compact,
                         unsigned char *whole_in, unsigned char *whole_out)
{
    const ndpad_problem p = {.rank = 2,
                             .mode = mode,
                             .elem_size = 1,
                             .shape = win_shape,
                             .pads_begin = win_pb,
                             .pads_end = win_pe,
                             .pad_value = &pad_value};
    int64_t ib[2], ie[2];
    assert_int_equal(ndpad_window_input_box(&p, ob, oe, ib, ie), NDPAD_OK);
    const int64_t bw = ie[1] - ib[1], ww = oe[1] - ob[1];
    const int64_t box_strides[2] = {bw > 0 ? bw : 1, 1}, window_strides[2] = {ww, 1};
    unsigned char *box = NULL, *window = NULL;
    const unsigned char *in;
    unsigned char *out;
    if (compact) {
        box = malloc((size_t)((ie[0] - ib[0]) * bw) + 1);
        window = malloc((size_t)((oe[0] - ob[0]) * ww));
        assert_non_null(box);
        assert_non_null(window);
        for (int64_t i = ib[0]; i < ie[0]; i++)
            for (int64_t j = ib[1]; j < ie[1]; j++)
                box[(i - ib[0]) * bw + (j - ib[1])] = in_value(i, j);
        in = box;
        out = window;
    } else {
        for (int64_t i = ib[0]; i < ie[0]; i++)
            for (int64_t j = ib[1]; j < ie[1]; j++) whole_in[i * W1 + j] = in_value(i, j);
        in = whole_in + ib[0] * W1 + ib[1];
        out = whole_out + ob[0] * WIN_COLS + ob[1];
    }
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = 2;
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_window_plan_create(&p, ob, oe, ib, ie, compact ? box_strides : NULL,
                                              compact ? window_strides : NULL, &options, &plan),
                     NDPAD_OK);
    assert_int_equal(ndpad_execute(plan, in, out), NDPAD_OK);
    ndpad_plan_destroy(plan);
    for (int64_t o0 = ob[0]; o0 < oe[0]; o0++) {
        const int64_t s0 = ndpad_ref_source_index(mode, W0, 0, win_pb[0], o0);
        for (int64_t o1 = ob[1]; o1 < oe[1]; o1++) {
            const unsigned char want =
                expected(s0, ndpad_ref_source_index(mode, W1, 0, win_pb[1], o1));
            const unsigned char got =
                compact ? window[(o0 - ob[0]) * ww + (o1 - ob[1])] : whole_out[o0 * WIN_COLS + o1];
            if (got != want)
                fail_msg("%s window [%lld, %lld) x [%lld, %lld) (%s): [%lld, %lld] is %d, "
                         "expected %d",
                         ndpad_mode_name(mode), (long long)ob[0], (long long)oe[0],
                         (long long)ob[1], (long long)oe[1], compact ? "compact" : "whole",
                         (long long)o0, (long long)o1, got, want);
        }
    }
    free(box);
    free(window);
}

static void windows_past_2_pow_32(void **state)
{
    (void)state;
    const double t0 = now();
    const size_t in_bytes = (size_t)W0 * W1, out_bytes = (size_t)(W0 + 7) * WIN_COLS;
    assert_true((int64_t)in_bytes > P32);
    unsigned char *whole_in = map_noreserve(in_bytes), *whole_out = map_noreserve(out_bytes);
    /* Rows past 2^32 / width: the interior's far end and the end border, a block across
     * the begin border of the columns (WRAP reads whole rows there: it crosses the seam),
     * the end border's rows. Row 70003 would take WRAP across its seam: a box of the whole
     * 4.6 GB input. */
    static const int64_t windows[4][2][2] = {{{66000, 64990}, {66040, 65543}},
                                             {{69990, 0}, {70003, 300}},
                                             {{65531, 30000}, {65541, 30500}},
                                             {{70003, 65530}, {70007, 65543}}};
    for (int mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++)
        for (int w = 0; w < 4; w++)
            for (int compact = 0; compact < 2; compact++)
                check_window(mode, windows[w][0], windows[w][1], compact, whole_in, whole_out);
    munmap(whole_in, in_bytes);
    munmap(whole_out, out_bytes);
    report("windows past 2^32 of a 4.6 GB problem, 5 modes", now() - t0);
}

int main(void)
{
    big_bytes = (size_t)WIDE_ROWS * WIDE_COLS;
    big = malloc(big_bytes);
    if (big == NULL) {
        fprintf(stderr, "test-large: no memory for a %zu-byte output\n", big_bytes);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(input_strides_beyond_2_pow_31_bytes),
        cmocka_unit_test(windows_past_2_pow_32),
        cmocka_unit_test(row_beyond_2_pow_31_elements),
        cmocka_unit_test(output_beyond_2_pow_32_elements),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    free(big);
    return failed;
}
