/* One window of a valid problem checked end to end, for test-window, the differential test
 * and fuzz-pad: the box ndpad_window_input_box names is compared with the smallest box the
 * reference's index map reads; the box (maybe enlarged) is copied out of the whole input
 * into its own allocation (random layout, random bytes around it) or left in a whole-input
 * layout whose other bytes are garbage; the window is written into its own sentinel-filled
 * allocation (random layout) or into a whole-output layout; every byte is compared with
 * the same block of the reference's whole output. */
#ifndef NDPAD_TEST_WINDOW_CHECK_H
#define NDPAD_TEST_WINDOW_CHECK_H

#include <stdarg.h>
#include <stdio.h>

#include "test-strided.h"

/* Random strides over `extents`: random axis order, gaps, sign flips (never zero), so
 * distinct indices have distinct offsets. */
static inline void test_window_layout(test_rng *r, int32_t rank, const int64_t *extents,
                                      int64_t *strides)
{
    int32_t order[NDPAD_MAX_RANK];
    for (int32_t k = 0; k < rank; k++) order[k] = k;
    for (int32_t k = rank - 1; k > 0 && test_rng_chance(r, 1, 2); k--) {
        const int32_t j = (int32_t)test_rng_range(r, 0, k);
        const int32_t t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
    int64_t stride = test_rng_chance(r, 1, 5) ? 2 : 1;
    for (int32_t i = rank - 1; i >= 0; i--) {
        const int32_t k = order[i];
        strides[k] = test_rng_chance(r, 1, 6) ? -stride : stride;
        stride *= (extents[k] > 0 ? extents[k] : 1) + (test_rng_chance(r, 1, 3) ? 1 : 0);
    }
}

static inline bool test_window_fail(char *why, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(why, size, format, args);
    va_end(args);
    return false;
}

/* A random window of an output of extents `n`: mostly nonempty, sometimes empty or whole. */
static inline void test_window_random(test_rng *r, int32_t rank, const int64_t *n,
                                      int64_t *out_begin, int64_t *out_end)
{
    for (int32_t k = 0; k < rank; k++) {
        if (n[k] == 0 || test_rng_chance(r, 1, 8)) {
            out_begin[k] = 0;
            out_end[k] = n[k];
        } else if (test_rng_chance(r, 1, 30)) {
            out_begin[k] = out_end[k] = test_rng_range(r, 0, n[k]);
        } else {
            out_begin[k] = test_rng_range(r, 0, n[k] - 1);
            out_end[k] = test_rng_range(r, out_begin[k] + 1, n[k]);
        }
    }
}

/* Checks the window [out_begin, out_end) of the valid problem `p`. `dense_in` is its input
 * and `dense_out` its whole output (reference), both dense row-major. On failure returns
 * false with the reason in `why`. */
static inline bool test_window_check(test_rng *r, const ndpad_problem *p,
                                     const unsigned char *dense_in, const unsigned char *dense_out,
                                     const int64_t *out_begin, const int64_t *out_end,
                                     const ndpad_options *options, char *why, size_t why_size)
{
    const int32_t rank = p->rank;
    const size_t es = p->elem_size;
    int64_t n[NDPAD_MAX_RANK], w[NDPAD_MAX_RANK], box0[NDPAD_MAX_RANK], box1[NDPAD_MAX_RANK];
    int64_t want0[NDPAD_MAX_RANK], want1[NDPAD_MAX_RANK], bext[NDPAD_MAX_RANK];
    int64_t in_dense[NDPAD_MAX_RANK], out_dense[NDPAD_MAX_RANK];
    ndpad_ref_output_shape(p, n);
    if (test_count(rank, n) == 0) {
        /* An empty output has only empty windows (its other extents may be huge, so no
         * layout is built): they read nothing. */
        const ndpad_status st = ndpad_window_input_box(p, out_begin, out_end, box0, box1);
        if (st != NDPAD_OK)
            return test_window_fail(why, why_size, "ndpad_window_input_box: %s (%s)",
                                    ndpad_status_string(st), ndpad_last_error());
        for (int32_t k = 0; k < rank; k++)
            if (box0[k] != 0 || box1[k] != 0)
                return test_window_fail(why, why_size,
                                        "empty window, input box axis %d "
                                        "[%lld, %lld) is not [0, 0)",
                                        (int)k, (long long)box0[k], (long long)box1[k]);
        return true;
    }
    ndpad_ref_dense_strides(rank, p->shape, in_dense);
    ndpad_ref_dense_strides(rank, n, out_dense);
    for (int32_t k = 0; k < rank; k++) w[k] = out_end[k] - out_begin[k];

    /* The smallest box, straight from the contract's index map. */
    bool reads = ndpad_ref_reads_input(p);
    for (int32_t k = 0; k < rank && reads; k++) {
        const int64_t rr = p->interior ? p->interior[k] : 0;
        want0[k] = INT64_MAX;
        want1[k] = -1;
        for (int64_t o = out_begin[k]; o < out_end[k]; o++) {
            const int64_t i = ndpad_ref_source_index(p->mode, p->shape[k], rr, p->pads_begin[k], o);
            if (i < 0) continue;
            want0[k] = i < want0[k] ? i : want0[k];
            want1[k] = i + 1 > want1[k] ? i + 1 : want1[k];
        }
        if (want1[k] < 0) reads = false;
    }
    for (int32_t k = 0; k < rank && !reads; k++) want0[k] = want1[k] = 0;
    const ndpad_status bst = ndpad_window_input_box(p, out_begin, out_end, box0, box1);
    if (bst != NDPAD_OK)
        return test_window_fail(why, why_size, "ndpad_window_input_box: %s (%s)",
                                ndpad_status_string(bst), ndpad_last_error());
    for (int32_t k = 0; k < rank; k++)
        if (box0[k] != want0[k] || box1[k] != want1[k])
            return test_window_fail(why, why_size,
                                    "input box axis %d: [%lld, %lld), the "
                                    "smallest is [%lld, %lld)",
                                    (int)k, (long long)box0[k], (long long)box1[k],
                                    (long long)want0[k], (long long)want1[k]);

    /* Sometimes a larger box: any box inside the input that covers the reads. */
    if (test_rng_chance(r, 1, 3))
        for (int32_t k = 0; k < rank; k++) {
            if (!reads) box0[k] = test_rng_range(r, 0, p->shape[k]), box1[k] = box0[k];
            box0[k] = test_rng_range(r, 0, box0[k]);
            box1[k] = test_rng_range(r, box1[k], p->shape[k]);
        }
    for (int32_t k = 0; k < rank; k++) bext[k] = box1[k] - box0[k];

    /* The box: its own allocation with random bytes around and between its elements, or a
     * whole-input layout (NULL box strides) whose elements outside the box are garbage. */
    bool box_whole = test_rng_chance(r, 1, 4);
    /* An empty input has no layout to place a box in (its other extents may be huge). */
    if (test_count(rank, p->shape) == 0) box_whole = false;
    if (box_whole && p->in_strides) {
        /* The whole input's layout only when it is small: a problem that reads nothing may
         * have strides whose span no test could allocate (fuzz-pad found 2^62 bytes). */
        int64_t whole_lo = 0, whole_hi = -1;
        ndpad_ref_span(rank, p->shape, p->in_strides, &whole_lo, &whole_hi);
        if ((__int128)(whole_hi - whole_lo + 1) * (__int128)es > ((__int128)1 << 24))
            box_whole = false;
    }
    int64_t bstrides[NDPAD_MAX_RANK], lo = 0, hi = -1;
    const int64_t *box_layout_extents = box_whole ? p->shape : bext;
    if (box_whole) {
        if (p->in_strides)
            memcpy(bstrides, p->in_strides, sizeof(int64_t) * (size_t)rank);
        else
            memcpy(bstrides, in_dense, sizeof(int64_t) * (size_t)rank);
    } else {
        test_window_layout(r, rank, bext, bstrides);
    }
    if (test_count(rank, box_layout_extents) > 0)
        ndpad_ref_span(rank, box_layout_extents, bstrides, &lo, &hi);
    const size_t in_size = (size_t)(hi - lo + 1) * es + 2 * TEST_GUARD;
    unsigned char *in_alloc = test_xmalloc(in_size), *in_copy = test_xmalloc(in_size);
    test_rng_bytes(r, in_alloc, in_size);
    unsigned char *origin = in_alloc + TEST_GUARD + (-lo) * (int64_t)es;
    unsigned char *in = origin;
    /* An empty box may begin one past an axis's end, outside the layout: it reads nothing. */
    if (box_whole && test_count(rank, bext) > 0)
        for (int32_t k = 0; k < rank; k++) in += box0[k] * bstrides[k] * (int64_t)es;
    {
        int64_t idx[NDPAD_MAX_RANK] = {0};
        const int64_t count = test_count(rank, bext);
        for (int64_t e = 0; e < count; e++) {
            int64_t src = 0, dst = 0;
            for (int32_t k = 0; k < rank; k++) {
                src += (box0[k] + idx[k]) * in_dense[k];
                dst += idx[k] * bstrides[k];
            }
            memcpy(in + dst * (int64_t)es, dense_in + src * (int64_t)es, es);
            for (int32_t k = rank - 1; k >= 0; k--) {
                if (++idx[k] < bext[k]) break;
                idx[k] = 0;
            }
        }
    }
    memcpy(in_copy, in_alloc, in_size);

    /* The window: its own allocation, or the whole output's layout (NULL window strides). */
    const bool out_whole = test_rng_chance(r, 1, 4);
    int64_t ostrides[NDPAD_MAX_RANK];
    int64_t olo = 0, ohi = -1;
    const int64_t *out_layout_extents = out_whole ? n : w;
    if (out_whole) {
        if (p->out_strides)
            memcpy(ostrides, p->out_strides, sizeof(int64_t) * (size_t)rank);
        else
            memcpy(ostrides, out_dense, sizeof(int64_t) * (size_t)rank);
    } else {
        test_window_layout(r, rank, w, ostrides);
    }
    if (test_count(rank, out_layout_extents) > 0)
        ndpad_ref_span(rank, out_layout_extents, ostrides, &olo, &ohi);
    const size_t out_size = (size_t)(ohi - olo + 1) * es + 2 * TEST_GUARD;
    unsigned char *actual = test_xmalloc(out_size), *expected = test_xmalloc(out_size);
    memset(actual, TEST_SENTINEL, out_size);
    memset(expected, TEST_SENTINEL, out_size);
    ptrdiff_t out_at = TEST_GUARD + (ptrdiff_t)(-olo) * (ptrdiff_t)es;
    /* An empty window may begin one past an axis's end, outside the layout. */
    if (out_whole && test_count(rank, w) > 0)
        for (int32_t k = 0; k < rank; k++) out_at += out_begin[k] * ostrides[k] * (int64_t)es;
    {
        int64_t idx[NDPAD_MAX_RANK] = {0};
        const int64_t count = test_count(rank, w);
        for (int64_t e = 0; e < count; e++) {
            int64_t src = 0, dst = 0;
            for (int32_t k = 0; k < rank; k++) {
                src += (out_begin[k] + idx[k]) * out_dense[k];
                dst += idx[k] * ostrides[k];
            }
            memcpy(expected + out_at + dst * (int64_t)es, dense_out + src * (int64_t)es, es);
            for (int32_t k = rank - 1; k >= 0; k--) {
                if (++idx[k] < w[k]) break;
                idx[k] = 0;
            }
        }
    }

    bool ok = true;
    ndpad_plan *plan = NULL;
    const ndpad_status st =
        ndpad_window_plan_create(p, out_begin, out_end, box0, box1, box_whole ? NULL : bstrides,
                                 out_whole ? NULL : ostrides, options, &plan);
    if (st != NDPAD_OK) {
        ok = test_window_fail(why, why_size, "ndpad_window_plan_create: %s (%s)",
                              ndpad_status_string(st), ndpad_last_error());
    } else {
        const ndpad_status ex = ndpad_execute(plan, in, actual + out_at);
        if (ex != NDPAD_OK)
            ok = test_window_fail(why, why_size, "ndpad_execute: %s (%s)", ndpad_status_string(ex),
                                  ndpad_last_error());
        else if (test_first_difference(expected, actual, out_size) >= 0) {
            ok = test_window_fail(why, why_size,
                                  "window differs from the block of the whole "
                                  "output at byte %td of %zu (window element [0..0] at %td; "
                                  "box %s, window %s)",
                                  test_first_difference(expected, actual, out_size), out_size,
                                  out_at, box_whole ? "in the whole input" : "alone",
                                  out_whole ? "in the whole output" : "alone");
        } else if (memcmp(in_alloc, in_copy, in_size) != 0) {
            ok = test_window_fail(why, why_size, "the box allocation was written");
        }
    }
    ndpad_plan_destroy(plan);
    free(in_alloc);
    free(in_copy);
    free(actual);
    free(expected);
    return ok;
}

#endif /* NDPAD_TEST_WINDOW_CHECK_H */
