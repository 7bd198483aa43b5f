/*
 * test-differential.c — random problems, ndpad against the reference, byte for byte.
 *
 *   test-differential [count] [seed] [--index=N]
 *   env (wins over argv, so that `NDPAD_DIFF_COUNT=200000 ctest -R differential` works):
 *        NDPAD_DIFF_COUNT (default 25000), NDPAD_DIFF_SEED (default 1; "time" = clock),
 *        NDPAD_DIFF_INDEX (run only problem N of the seed), NDPAD_DIFF_PRINT (failures
 *        described in full, default 10)
 *
 * Problem i of a seed is drawn from its own generator state, so one failing index can be
 * replayed alone. Each problem: rank 0-6, extents 0-9, pads -9..+20 (one in ten: a long
 * innermost axis of up to 200 elements and pads up to 150), every mode, elem_size
 * 1/2/3/4/8/12/16, sometimes interior 0-3 (CONSTANT), random pad value bytes, input strides
 * dense / gapped / permuted / negative / zero (broadcast), output strides dense / gapped /
 * permuted / negative, sometimes in-place (the input inside the output's interior), through
 * ndpad_pad or a plan with random options (threads 0/1/2, forced tile shapes, AUTO or
 * SCALAR). The whole output allocation (gap bytes between strided elements too) plus
 * TEST_GUARD bytes on both sides is sentinel-filled alike for expected and actual and
 * compared byte for byte; the input allocation must come back unchanged. Some problems break
 * a rule on purpose: ndpad must reject them with the reference's status, writing nothing.
 * One valid problem in three then runs one random window (ndpad_window_plan_create on the box
 * ndpad_window_input_box names, box and window in layouts of their own or of the whole
 * tensors, guard bytes around both) against the same block of the reference's output.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <time.h>

#include "ndpad.h"
#include "test-checks.h"
#include "test-strided.h"
#include "test-window-check.h"

#define MAX_TEST_RANK 6
#define ARR           40 /* arrays are longer than any rank a problem claims (rank 33 cases) */

static int64_t diff_count = 25000;
static uint64_t diff_seed = 1;
static int64_t diff_index = -1;

typedef enum path { PATH_PAD, PATH_PLAN } path;

typedef struct diff_case {
    ndpad_problem p;
    int64_t shape[ARR], pb[ARR], pe[ARR], interior[ARR], in_strides[ARR], out_strides[ARR];
    unsigned char pad_value[16];
    bool in_place;
    path how;
    bool options_null;
    ndpad_options options;
    int executions; /* plan path: executions of the same plan */
    bool null_in, null_out;
    const char *mutation; /* the rule broken on purpose, or NULL */
} diff_case;

/* ===================================================================================== */
/* generation                                                                              */
/* ===================================================================================== */

static int64_t random_pad(test_rng *r, int64_t max_positive)
{
    const int64_t c = test_rng_range(r, 0, 99);
    int64_t v;
    if (c < 35)
        v = test_rng_range(r, 0, 2);
    else if (c < 55)
        v = test_rng_range(r, 3, 8);
    else if (c < 65)
        v = test_rng_range(r, 9, 20);
    else if (c < 85)
        v = test_rng_range(r, -3, -1);
    else
        v = test_rng_range(r, -9, -4);
    return v > max_positive ? test_rng_range(r, 0, max_positive) : v;
}

static int64_t wide_pad(test_rng *r)
{
    const int64_t c = test_rng_range(r, 0, 99);
    if (c < 15) return 0;
    if (c < 50) return test_rng_range(r, 1, 3);
    if (c < 80) return test_rng_range(r, 4, 150);
    return -test_rng_range(r, 1, 20);
}

static int64_t out_extent(const diff_case *c, int32_t k)
{
    const int64_t d = c->shape[k];
    const int64_t r = c->p.interior ? c->interior[k] : 0;
    const int64_t dilated = d == 0 ? 0 : (d - 1) * (r + 1) + 1;
    const int64_t n = c->pb[k] + dilated + c->pe[k];
    return n > 0 ? n : 0;
}

/* A layout over `extents`: a random axis order, gaps between rows, and sign flips.
 * Distinct indices get distinct offsets whatever the choices. */
static void random_layout(test_rng *r, int32_t rank, const int64_t *extents, int64_t *strides,
                          bool allow_flip, bool allow_zero)
{
    int32_t order[MAX_TEST_RANK + 1];
    for (int32_t k = 0; k < rank; k++) order[k] = k;
    if (test_rng_chance(r, 1, 2))
        for (int32_t k = rank - 1; k > 0; k--) {
            const int32_t j = (int32_t)test_rng_range(r, 0, k);
            const int32_t t = order[k];
            order[k] = order[j];
            order[j] = t;
        }
    int64_t stride = test_rng_chance(r, 1, 5) ? test_rng_range(r, 2, 3) : 1;
    for (int32_t i = rank - 1; i >= 0; i--) { /* order[rank-1] is the innermost axis */
        const int32_t k = order[i];
        strides[k] = stride;
        const int64_t gap = test_rng_chance(r, 2, 5) ? test_rng_range(r, 1, 3) : 0;
        stride *= (extents[k] > 0 ? extents[k] : 1) + gap;
    }
    for (int32_t k = 0; k < rank; k++) {
        if (allow_flip && test_rng_chance(r, 1, 4)) strides[k] = -strides[k];
        if (allow_zero && test_rng_chance(r, 1, 10)) strides[k] = 0;
    }
}

static void mutate(test_rng *r, diff_case *c)
{
    const int32_t rank = c->p.rank;
    const int64_t what = test_rng_range(r, 0, 8);
    const int32_t k = rank > 0 ? (int32_t)test_rng_range(r, 0, rank - 1) : 0;
    switch (what) {
    case 0:
        if (rank == 0) break;
        c->shape[k] = -test_rng_range(r, 1, 5);
        c->mutation = "negative extent";
        break;
    case 1:
        if (rank == 0) break;
        if (!c->p.interior) memset(c->interior, 0, sizeof c->interior);
        c->p.interior = c->interior;
        c->interior[k] = -test_rng_range(r, 1, 3);
        c->mutation = "negative interior";
        break;
    case 2:
        if (rank == 0) break;
        if (!c->p.interior) memset(c->interior, 0, sizeof c->interior);
        c->p.interior = c->interior;
        c->interior[k] = test_rng_range(r, 1, 3);
        c->p.mode = (int32_t)test_rng_range(r, NDPAD_EDGE, NDPAD_WRAP);
        c->mutation = "interior with a non-CONSTANT mode";
        break;
    case 3: {
        int32_t axis = -1;
        for (int32_t j = 0; j < rank; j++)
            if (out_extent(c, j) > 1) axis = j;
        if (axis < 0) break;
        if (!c->p.out_strides) {
            int64_t n[ARR];
            for (int32_t j = 0; j < rank; j++) n[j] = out_extent(c, j);
            ndpad_ref_dense_strides(rank, n, c->out_strides);
            c->p.out_strides = c->out_strides;
        }
        c->out_strides[axis] = 0;
        c->mutation = "zero output stride";
        break;
    }
    case 4:
        c->p.mode = test_rng_chance(r, 1, 2) ? (int32_t)test_rng_range(r, 5, 100)
                                             : (int32_t)test_rng_range(r, -100, -1);
        c->mutation = "unknown mode";
        break;
    case 5:
        c->p.elem_size = 0;
        c->mutation = "elem_size 0";
        break;
    case 6:
        c->p.rank = test_rng_chance(r, 1, 2) ? NDPAD_MAX_RANK + (int32_t)test_rng_range(r, 1, 3)
                                             : -(int32_t)test_rng_range(r, 1, 3);
        c->mutation = "rank out of range";
        break;
    case 7:
        if (rank == 0) break;
        if (test_rng_chance(r, 1, 3))
            c->p.shape = NULL;
        else if (test_rng_chance(r, 1, 2))
            c->p.pads_begin = NULL;
        else
            c->p.pads_end = NULL;
        c->mutation = "NULL array";
        break;
    default:
        if (rank == 0) break;
        c->p.mode = (int32_t)test_rng_range(r, NDPAD_EDGE, NDPAD_WRAP);
        c->p.interior = NULL;
        c->shape[k] = 0;
        if (c->pb[k] + c->pe[k] <= 0) c->pe[k] = test_rng_range(r, 1, 3) - c->pb[k];
        c->mutation = "non-CONSTANT mode growing an empty axis";
        break;
    }
}

static void generate(uint64_t seed, int64_t index, diff_case *c)
{
    test_rng r = test_rng_make(seed, (uint64_t)index);
    static const int32_t rank_weights[MAX_TEST_RANK + 1] = {3, 20, 30, 22, 12, 8, 5};
    static const int64_t max_extent[MAX_TEST_RANK + 1] = {9, 9, 9, 9, 6, 4, 3};
    static const int64_t max_pad[MAX_TEST_RANK + 1] = {20, 20, 20, 8, 4, 3, 2};
    static const size_t sizes[] = {1, 2, 3, 4, 8, 12, 16};

    memset(c, 0, sizeof(*c));
    int64_t w = test_rng_range(&r, 0, 99);
    int32_t rank = 0;
    while (w >= rank_weights[rank]) w -= rank_weights[rank++];

    c->p.rank = rank;
    c->p.mode = (int32_t)test_rng_range(&r, NDPAD_CONSTANT, NDPAD_WRAP);
    c->p.elem_size = sizes[test_rng_range(&r, 0, (int64_t)(sizeof sizes / sizeof sizes[0]) - 1)];
    c->p.shape = c->shape;
    c->p.pads_begin = c->pb;
    c->p.pads_end = c->pe;
    const bool constant = c->p.mode == NDPAD_CONSTANT;
    const bool interior = constant && rank > 0 && test_rng_chance(&r, 1, 5);
    if (interior || test_rng_chance(&r, 1, 20)) c->p.interior = c->interior; /* maybe all 0 */

    /* one problem in ten has a long innermost axis (up to 200 elements, pads up to 150):
     * vector kernels and forced column tiles see long, unaligned runs */
    const bool wide = rank >= 1 && rank <= 3 && test_rng_chance(&r, 1, 10);
    for (int attempt = 0;; attempt++) {
        int64_t in_count = 1, out_count = 1;
        for (int32_t k = 0; k < rank; k++) {
            const int empty_odds = constant ? 6 : 3;
            if (wide && k == rank - 1) {
                c->shape[k] = test_rng_chance(&r, 1, 30) ? 0 : test_rng_range(&r, 1, 200);
                c->pb[k] = wide_pad(&r);
                c->pe[k] = wide_pad(&r);
            } else {
                c->shape[k] = test_rng_chance(&r, empty_odds, 100)
                                  ? 0
                                  : test_rng_range(&r, 1, wide ? 4 : max_extent[rank]);
                c->pb[k] = random_pad(&r, wide ? 2 : max_pad[rank]);
                c->pe[k] = random_pad(&r, wide ? 2 : max_pad[rank]);
            }
            c->interior[k] = interior && test_rng_chance(&r, 2, 3) ? test_rng_range(&r, 0, 3) : 0;
            if (!constant && c->shape[k] == 0 && test_rng_chance(&r, 9, 10)) {
                /* a non-CONSTANT empty axis must stay empty (else EMPTY_AXIS) */
                c->pe[k] = -c->pb[k] - test_rng_range(&r, 0, 2);
            }
            in_count *= c->shape[k];
            out_count *= out_extent(c, k);
        }
        /* empty outputs are common with crops: keep about one in four of them */
        const bool retry_empty = out_count == 0 && test_rng_chance(&r, 3, 4);
        if ((in_count <= (wide ? 4096 : 2048) && out_count <= (wide ? 8192 : 4096) &&
             !retry_empty) ||
            attempt > 200) {
            if (attempt > 200) /* fall back to a tiny problem */
                for (int32_t k = 0; k < rank; k++) {
                    c->shape[k] = 1;
                    c->pb[k] = c->pe[k] = 1;
                    c->interior[k] = 0;
                }
            break;
        }
    }

    if (constant) {
        if (test_rng_chance(&r, 7, 10)) {
            test_rng_bytes(&r, c->pad_value, sizeof c->pad_value);
            c->p.pad_value = c->pad_value;
        }
    } else if (test_rng_chance(&r, 1, 3)) { /* ignored by the other modes */
        test_rng_bytes(&r, c->pad_value, sizeof c->pad_value);
        c->p.pad_value = c->pad_value;
    }

    int64_t n[ARR];
    bool all_pads_non_negative = true, has_interior = false;
    for (int32_t k = 0; k < rank; k++) {
        n[k] = out_extent(c, k);
        all_pads_non_negative = all_pads_non_negative && c->pb[k] >= 0 && c->pe[k] >= 0;
        has_interior = has_interior || (c->p.interior && c->interior[k] != 0);
    }

    /* in-place: the input lives inside the output, with the output's strides */
    c->in_place = rank > 0 && all_pads_non_negative && !has_interior && test_rng_chance(&r, 1, 8);
    if (c->in_place) {
        random_layout(&r, rank, n, c->out_strides, test_rng_chance(&r, 1, 3), false);
        c->p.out_strides = c->out_strides;
        memcpy(c->in_strides, c->out_strides, sizeof c->in_strides);
        c->p.in_strides = test_rng_chance(&r, 1, 4) ? c->out_strides : c->in_strides;
    } else {
        if (rank > 0 && test_rng_chance(&r, 7, 10)) {
            random_layout(&r, rank, c->shape, c->in_strides, true, true);
            c->p.in_strides = c->in_strides;
        }
        if (rank > 0 && test_rng_chance(&r, 6, 10)) {
            random_layout(&r, rank, n, c->out_strides, test_rng_chance(&r, 1, 3), false);
            /* the stride of a one-element axis is never used: anything goes, even 0 */
            for (int32_t k = 0; k < rank; k++)
                if (n[k] == 1 && test_rng_chance(&r, 1, 4))
                    c->out_strides[k] = test_rng_range(&r, -5, 5);
            c->p.out_strides = c->out_strides;
        }
    }

    c->how = test_rng_chance(&r, 1, 2) ? PATH_PAD : PATH_PLAN;
    c->options_null = test_rng_chance(&r, 1, 4);
    ndpad_options_init(&c->options);
    c->options.threads = (int32_t)test_rng_range(&r, 0, 2);
    c->options.isa = test_rng_chance(&r, 1, 3) ? NDPAD_ISA_SCALAR : NDPAD_ISA_AUTO;
    c->options.tile_rows = test_rng_chance(&r, 1, 2) ? 0 : test_rng_range(&r, 1, 8);
    c->options.tile_cols = test_rng_chance(&r, 1, 2) ? 0 : test_rng_range(&r, 1, 16);
    c->executions = test_rng_chance(&r, 1, 5) ? 2 : 1;

    if (!c->in_place && test_rng_chance(&r, 1, 20)) mutate(&r, c);

    /* NULL buffers where the contract allows them, and sometimes where it does not */
    if (ndpad_ref_validate(&c->p, NULL) == NDPAD_OK && !c->in_place) {
        const bool empty = ndpad_ref_output_count(&c->p) == 0;
        const bool reads = ndpad_ref_reads_input(&c->p);
        if (empty && test_rng_chance(&r, 1, 2)) c->null_out = true;
        if (!reads && test_rng_chance(&r, 1, 2)) c->null_in = true;
        if (test_rng_chance(&r, 1, 100)) {
            if (!empty && test_rng_chance(&r, 1, 2))
                c->null_out = true;
            else if (reads)
                c->null_in = true;
        }
    }
}

/* ===================================================================================== */
/* running one problem                                                                     */
/* ===================================================================================== */

static int printed_failures = 0;
static int max_printed = 10; /* NDPAD_DIFF_PRINT */

static void describe(const diff_case *c, int64_t index)
{
    fprintf(stderr,
            "  seed=%" PRIu64 " index=%" PRId64 "  (replay: NDPAD_DIFF_SEED=%" PRIu64
            " NDPAD_DIFF_INDEX=%" PRId64 " test-differential)\n",
            diff_seed, index, diff_seed, index);
    fprintf(stderr, "  problem: ");
    ndpad_ref_print_problem(stderr, &c->p);
    fprintf(stderr, "  path=%s", c->how == PATH_PAD ? "ndpad_pad" : "plan+execute");
    if (c->how == PATH_PLAN) {
        if (c->options_null)
            fprintf(stderr, " options=NULL");
        else
            fprintf(stderr, " options={.threads=%d, .isa=%d, .tile_rows=%lld, .tile_cols=%lld}",
                    (int)c->options.threads, (int)c->options.isa, (long long)c->options.tile_rows,
                    (long long)c->options.tile_cols);
        fprintf(stderr, " executions=%d", c->executions);
    }
    fprintf(stderr, " in_place=%d null_in=%d null_out=%d%s%s\n", c->in_place, c->null_in,
            c->null_out, c->mutation ? " mutation=" : "", c->mutation ? c->mutation : "");
}

static bool report(const diff_case *c, int64_t index, const char *format, ...)
{
    if (printed_failures++ >= max_printed) return false;
    va_list args;
    va_start(args, format);
    fprintf(stderr, "FAIL: ");
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
    describe(c, index);
    return false;
}

/* One call of ndpad on `c`, by the case's path. `plan_out` receives the plan for reuse. */
static ndpad_status run_ndpad(diff_case *c, const void *in, void *out, ndpad_plan **plan_out)
{
    *plan_out = NULL;
    if (c->how == PATH_PAD) return ndpad_pad(&c->p, in, out);
    ndpad_plan *plan = NULL;
    const ndpad_status st = ndpad_plan_create(&c->p, c->options_null ? NULL : &c->options, &plan);
    if (st != NDPAD_OK) {
        if (plan != NULL) return (ndpad_status)-1000; /* *plan must be NULL on error */
        return st;
    }
    *plan_out = plan;
    /* the plan owns copies: scribble over the problem's arrays before executing */
    diff_case saved = *c;
    memset(c->shape, 0x5C, sizeof c->shape);
    memset(c->pb, 0x5C, sizeof c->pb);
    memset(c->pe, 0x5C, sizeof c->pe);
    memset(c->interior, 0x5C, sizeof c->interior);
    memset(c->out_strides, 0x5C, sizeof c->out_strides);
    memset(c->pad_value, 0x5C, sizeof c->pad_value);
    if (!c->in_place) memset(c->in_strides, 0x5C, sizeof c->in_strides);
    c->p.rank = 99;
    const ndpad_status ex = ndpad_execute(plan, in, out);
    *c = saved;
    return ex;
}

static bool run_invalid(diff_case *c, int64_t index, const ndpad_ref_verdict *verdict)
{
    enum { SIZE = 512 };
    unsigned char in[SIZE], out[SIZE + 2 * TEST_GUARD];
    int64_t out_shape[ARR];
    for (int i = 0; i < SIZE; i++) in[i] = (unsigned char)(i * 13);
    memset(out, TEST_SENTINEL, sizeof out);
    memset(out_shape, TEST_SENTINEL, sizeof out_shape);

    const ndpad_status shape_st = ndpad_output_shape(&c->p, out_shape);
    ndpad_plan *plan = NULL;
    const ndpad_status st = run_ndpad(c, in + SIZE / 2, out + TEST_GUARD + SIZE / 2, &plan);
    ndpad_plan_destroy(plan);

    const bool single = (verdict->broken & (verdict->broken - 1)) == 0;
    const ndpad_status sts[2] = {shape_st, st};
    for (int i = 0; i < 2; i++) {
        const char *entry = i == 0 ? "ndpad_output_shape" : "ndpad_pad/plan";
        if (sts[i] == NDPAD_OK)
            return report(c, index, "%s accepted an invalid problem (reference: %s, %s)", entry,
                          ndpad_status_string(verdict->status), verdict->where);
        if ((int)sts[i] == -1000)
            return report(c, index, "ndpad_plan_create failed but left *plan non-NULL");
        const bool allowed =
            sts[i] >= 0 && sts[i] < 32 && (verdict->broken & NDPAD_REF_BIT(sts[i])) != 0;
        if (!allowed || (single && sts[i] != verdict->status))
            return report(c, index, "%s returned %s; the reference says %s (%s)", entry,
                          ndpad_status_string(sts[i]), ndpad_status_string(verdict->status),
                          verdict->where);
        if (ndpad_last_error()[0] == '\0')
            return report(c, index, "%s failed with an empty ndpad_last_error()", entry);
    }
    if (!test_all_bytes_are(out, sizeof out, TEST_SENTINEL))
        return report(c, index, "an invalid problem wrote to out");
    if (!test_all_bytes_are(out_shape, sizeof out_shape, TEST_SENTINEL))
        return report(c, index, "an invalid problem wrote out_shape");
    for (int i = 0; i < SIZE; i++)
        if (in[i] != (unsigned char)(i * 13)) return report(c, index, "the input was written");
    return true;
}

/* A random window of the problem, from the box it reads (test-window-check.h), against
 * the block of the reference's whole output. `in` holds the input elements as c->p says. */
static bool check_window(diff_case *c, int64_t index, test_rng *r, const unsigned char *in,
                         const int64_t *n)
{
    const int32_t rank = c->p.rank;
    const size_t es = c->p.elem_size;
    ndpad_problem dense_problem = c->p;
    dense_problem.in_strides = NULL;
    dense_problem.out_strides = NULL;
    const int64_t in_count = test_count(rank, c->shape), out_count = test_count(rank, n);
    unsigned char *dense_in = test_xmalloc((size_t)in_count * es);
    unsigned char *dense_out = test_xmalloc((size_t)out_count * es);
    if (c->in_place)
        memcpy(dense_in, in, (size_t)in_count * es);
    else if (in_count > 0)
        test_gather_dense(&c->p, in, dense_in);
    bool ok = ndpad_ref_pad(&dense_problem, dense_in, dense_out) == NDPAD_OK;
    if (!ok) ok = report(c, index, "test bug: the reference failed on the dense problem");
    int64_t ob[ARR], oe[ARR];
    char why[512];
    test_window_random(r, rank, n, ob, oe);
    if (ok && !test_window_check(r, &c->p, dense_in, dense_out, ob, oe,
                                 c->options_null ? NULL : &c->options, why, sizeof why)) {
        ok = report(c, index, "window: %s", why);
        if (printed_failures <= max_printed) {
            fprintf(stderr, "  window:");
            for (int32_t k = 0; k < rank; k++)
                fprintf(stderr, " [%lld, %lld)", (long long)ob[k], (long long)oe[k]);
            fprintf(stderr, "\n");
        }
    }
    free(dense_in);
    free(dense_out);
    return ok;
}

static bool run_one(int64_t index)
{
    diff_case c;
    generate(diff_seed, index, &c);
    test_rng r = test_rng_make(diff_seed ^ 0xABCDEFull, (uint64_t)index);

    ndpad_ref_verdict verdict;
    if (ndpad_ref_validate(&c.p, &verdict) != NDPAD_OK) return run_invalid(&c, index, &verdict);

    const int32_t rank = c.p.rank;
    const size_t es = c.p.elem_size;
    int64_t n[ARR], got_shape[ARR];
    ndpad_ref_output_shape(&c.p, n);
    const ndpad_status shape_st = ndpad_output_shape(&c.p, got_shape);
    if (shape_st != NDPAD_OK)
        return report(&c, index, "ndpad_output_shape: %s (%s)", ndpad_status_string(shape_st),
                      ndpad_last_error());
    for (int32_t k = 0; k < rank; k++)
        if (got_shape[k] != n[k])
            return report(&c, index, "output extent %d: ndpad %lld, reference %lld", (int)k,
                          (long long)got_shape[k], (long long)n[k]);

    /* the output allocation: every byte the strides span, plus guards */
    int64_t out_lo = 0, out_hi = -1;
    const bool empty = ndpad_ref_output_count(&c.p) == 0;
    if (!empty) ndpad_ref_span(rank, n, c.p.out_strides, &out_lo, &out_hi);
    const size_t out_body = (size_t)(out_hi - out_lo + 1) * es;
    const size_t out_size = out_body + 2 * TEST_GUARD;
    const ptrdiff_t out_origin = TEST_GUARD + (ptrdiff_t)(-out_lo) * (ptrdiff_t)es;
    unsigned char *actual = test_xmalloc(out_size), *expected = test_xmalloc(out_size);
    memset(actual, TEST_SENTINEL, out_size);

    unsigned char *in_alloc = NULL, *in_copy = NULL, *dense = NULL;
    const unsigned char *in = NULL;
    size_t in_size = 0;
    const int64_t in_count = test_count(rank, c.shape);
    ndpad_problem ref_problem = c.p;
    const void *ref_in;

    if (c.in_place) {
        int64_t offset = 0;
        for (int32_t k = 0; k < rank; k++) offset += c.pb[k] * c.out_strides[k];
        unsigned char *inside = actual + out_origin + offset * (int64_t)es;
        /* write random input elements into the output's interior */
        test_fill_strided(&r, inside, rank, c.shape, c.in_strides, es);
        in = inside;
        dense = test_xmalloc((size_t)in_count * es);
        test_gather_dense(&c.p, in, dense);
        ref_problem.in_strides = NULL;
        ref_in = dense;
    } else {
        int64_t lo = 0, hi = -1;
        if (in_count > 0) ndpad_ref_span(rank, c.shape, c.p.in_strides, &lo, &hi);
        in_size = (size_t)(hi - lo + 1) * es + 2 * TEST_GUARD;
        in_alloc = test_xmalloc(in_size);
        test_rng_bytes(&r, in_alloc, in_size);
        in_copy = test_xmalloc(in_size);
        memcpy(in_copy, in_alloc, in_size);
        in = c.null_in ? NULL : in_alloc + TEST_GUARD + (-lo) * (int64_t)es;
        ref_in = in;
    }
    memcpy(expected, actual, out_size);

    unsigned char *out = c.null_out ? NULL : actual + out_origin;
    ndpad_status want =
        ndpad_ref_pad(&ref_problem, ref_in, c.null_out ? NULL : expected + out_origin);
    if (c.in_place && want != NDPAD_OK)
        return report(&c, index, "test bug: reference failed on an in-place case");

    bool ok = true;
    ndpad_plan *plan = NULL;
    const ndpad_status got = run_ndpad(&c, in, out, &plan);
    if ((int)got == -1000) {
        ok = report(&c, index, "ndpad_plan_create failed but left *plan non-NULL");
    } else if (got != want) {
        ok = report(&c, index, "status %s (%s), reference %s", ndpad_status_string(got),
                    got != NDPAD_OK ? ndpad_last_error() : "", ndpad_status_string(want));
    } else if (test_first_difference(expected, actual, out_size) >= 0) {
        ok = report(&c, index,
                    "output differs from the reference (allocation of %zu bytes, "
                    "element [0..0] at byte %td)",
                    out_size, out_origin);
        if (printed_failures <= max_printed)
            test_print_difference(stderr, expected, actual, out_size, out_origin);
    }
    /* the same plan again into a fresh allocation (non-in-place only) */
    if (ok && plan != NULL && c.executions > 1 && !c.in_place && out != NULL) {
        memset(actual, TEST_SENTINEL, out_size);
        const ndpad_status again = ndpad_execute(plan, in, actual + out_origin);
        if (again != want)
            ok = report(&c, index, "second execution: %s", ndpad_status_string(again));
        else if (test_first_difference(expected, actual, out_size) >= 0)
            ok = report(&c, index, "second execution of the same plan differs");
    }
    ndpad_plan_destroy(plan);
    if (ok && in_alloc && memcmp(in_alloc, in_copy, in_size) != 0)
        ok = report(&c, index, "the input allocation was modified");
    /* one problem in three: a window costs a second reference run (test-window has more) */
    if (ok && want == NDPAD_OK && !c.null_in && !c.null_out && rank > 0 && index % 3 == 0)
        ok = check_window(&c, index, &r, c.in_place ? dense : in, n);

    free(actual);
    free(expected);
    free(in_alloc);
    free(in_copy);
    free(dense);
    return ok;
}

static void random_problems_match_reference(void **state)
{
    (void)state;
    int64_t failures = 0, invalid = 0, in_place = 0, empty = 0;
    const int64_t first = diff_index >= 0 ? diff_index : 0;
    const int64_t last = diff_index >= 0 ? diff_index + 1 : diff_count;
    const clock_t start = clock();
    for (int64_t i = first; i < last; i++) {
        diff_case c;
        generate(diff_seed, i, &c);
        if (ndpad_ref_validate(&c.p, NULL) != NDPAD_OK)
            invalid++;
        else if (ndpad_ref_output_count(&c.p) == 0)
            empty++;
        in_place += c.in_place;
        if (!run_one(i)) failures++;
    }
    printf("test-differential: %" PRId64 " problems (%" PRId64 " invalid, %" PRId64
           " empty, %" PRId64 " in-place), %" PRId64 " failures, %.1f s CPU\n",
           last - first, invalid, empty, in_place, failures,
           (double)(clock() - start) / CLOCKS_PER_SEC);
    if (failures)
        fail_msg("%" PRId64 " of %" PRId64 " random problems failed (seed %" PRIu64 ")", failures,
                 last - first, diff_seed);
}

static uint64_t parse_seed(const char *s)
{
    if (strcmp(s, "time") == 0 || strcmp(s, "random") == 0)
        return (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    return strtoull(s, NULL, 0);
}

int main(int argc, char **argv)
{
    const char *env;
    if ((env = getenv("NDPAD_DIFF_COUNT")) && *env) diff_count = strtoll(env, NULL, 0);
    if ((env = getenv("NDPAD_DIFF_SEED")) && *env) diff_seed = parse_seed(env);
    if ((env = getenv("NDPAD_DIFF_INDEX")) && *env) diff_index = strtoll(env, NULL, 0);
    if ((env = getenv("NDPAD_DIFF_PRINT")) && *env) max_printed = atoi(env);
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--index=", 8) == 0)
            diff_index = strtoll(argv[i] + 8, NULL, 0);
        else if (positional++ == 0) {
            if (!getenv("NDPAD_DIFF_COUNT")) diff_count = strtoll(argv[i], NULL, 0);
        } else if (!getenv("NDPAD_DIFF_SEED"))
            diff_seed = parse_seed(argv[i]);
    }
    printf("test-differential: seed=%" PRIu64 " count=%" PRId64, diff_seed, diff_count);
    if (diff_index >= 0) printf(" index=%" PRId64, diff_index);
    printf("\n");
    fflush(stdout);

    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_problems_match_reference),
    };
    return cmocka_run_group_tests_name("differential", tests, NULL, NULL);
}
