/* Validation: the contract's rules in the order a user would fix them (arguments, then
 * per-axis values, then sizes), each with its own status and a message naming the axis. */
#include "problem.h"

#include <string.h>

#include "checked.h"

static const char *const mode_names[] = {"CONSTANT", "EDGE", "REFLECT", "SYMMETRIC", "WRAP"};

/* Dense row-major strides (elements) of `extents`, or an overflow at axis *where. */
static bool dense_strides_overflow(const int64_t *extents, int32_t rank, int64_t *strides,
                                   int32_t *where)
{
    int64_t stride = 1;
    for (int32_t k = 0; k < rank; k++)
        if (extents[k] == 0) {
            /* An empty tensor has no addressable element: its strides never reach memory. */
            for (int32_t m = 0; m < rank; m++) strides[m] = 0;
            return false;
        }
    for (int32_t k = rank - 1; k >= 0; k--) {
        strides[k] = stride;
        if (ndpad_mul_overflows(stride, extents[k], &stride)) {
            *where = k;
            return true;
        }
    }
    return false;
}

/* Largest byte distance from element 0 reached by a tensor: sum |stride| (extent - 1). */
static bool span_overflows(const ndpad_valid_problem *v, bool input, int64_t *span_bytes)
{
    int64_t span = 0;
    for (int32_t k = 0; k < v->rank; k++) {
        const ndpad_axis *a = &v->axis[k];
        const int64_t extent = input ? a->d : a->n;
        const int64_t stride = input ? a->in_stride : a->out_stride;
        int64_t magnitude, term;
        if (extent <= 1) continue;
        if (ndpad_abs_overflows(stride, &magnitude) ||
            ndpad_mul_overflows(magnitude, extent - 1, &term) ||
            ndpad_mul_overflows(term, (int64_t)v->elem_size, &term) ||
            ndpad_add_overflows(span, term, &span))
            return true;
    }
    /* and the last byte of the farthest element too */
    int64_t end;
    if (ndpad_add_overflows(span, (int64_t)v->elem_size, &end)) return true;
    *span_bytes = span;
    return false;
}

ndpad_status ndpad_problem_validate(const ndpad_problem *problem, const char *caller,
                                    ndpad_valid_problem *v)
{
    ndpad_status status = NDPAD_OK;
    memset(v, 0, sizeof(*v));

    if (problem == NULL) NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "problem is NULL");
    if (problem->rank < 0 || problem->rank > NDPAD_MAX_RANK)
        NDPAD_FAIL(NDPAD_ERR_RANK, "rank = %d is outside [0, %d]", (int)problem->rank,
                   NDPAD_MAX_RANK);
    if (problem->mode < NDPAD_CONSTANT || problem->mode > NDPAD_WRAP)
        NDPAD_FAIL(NDPAD_ERR_MODE,
                   "mode = %d is not an ndpad_mode (CONSTANT 0, EDGE 1, REFLECT 2, "
                   "SYMMETRIC 3, WRAP 4)",
                   (int)problem->mode);
    if (problem->elem_size == 0)
        NDPAD_FAIL(NDPAD_ERR_ELEM_SIZE, "elem_size = 0; an element needs at least one byte");
    if (problem->elem_size > (size_t)INT64_MAX)
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW, "elem_size = %zu exceeds INT64_MAX", problem->elem_size);

    const int32_t rank = problem->rank;
    v->rank = rank;
    v->mode = problem->mode;
    v->elem_size = problem->elem_size;
    v->pad_value = problem->pad_value;
    if (rank > 0) {
        if (problem->shape == NULL)
            NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "shape is NULL with rank = %d", (int)rank);
        if (problem->pads_begin == NULL)
            NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "pads_begin is NULL with rank = %d", (int)rank);
        if (problem->pads_end == NULL)
            NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "pads_end is NULL with rank = %d", (int)rank);
    }

    const bool constant = problem->mode == NDPAD_CONSTANT;
    for (int32_t k = 0; k < rank; k++) {
        ndpad_axis *a = &v->axis[k];
        a->d = problem->shape[k];
        a->b = problem->pads_begin[k];
        a->e = problem->pads_end[k];
        a->r = problem->interior != NULL ? problem->interior[k] : 0;
        if (a->d < 0)
            NDPAD_FAIL(NDPAD_ERR_SHAPE, "shape[%d] = %lld is negative", (int)k, (long long)a->d);
        if (a->r < 0)
            NDPAD_FAIL(NDPAD_ERR_INTERIOR, "interior[%d] = %lld is negative", (int)k,
                       (long long)a->r);
        if (a->r != 0 && !constant)
            NDPAD_FAIL(NDPAD_ERR_INTERIOR_MODE, "interior[%d] = %lld needs mode CONSTANT, not %s",
                       (int)k, (long long)a->r, mode_names[problem->mode]);
        int64_t step;
        if (a->d <= 1) {
            a->dilated = a->d; /* one element has no neighbours: the interior inserts none */
        } else if (ndpad_add_overflows(a->r, 1, &step) ||
                   ndpad_mul_overflows(a->d - 1, step, &a->dilated) ||
                   ndpad_add_overflows(a->dilated, 1, &a->dilated)) {
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                       "shape[%d] = %lld with interior[%d] = %lld overflows int64", (int)k,
                       (long long)a->d, (int)k, (long long)a->r);
        }
        int64_t n;
        if (ndpad_add3_overflows(a->b, a->dilated, a->e, &n))
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                       "pads_begin[%d] = %lld + extent %lld + pads_end[%d] = %lld overflows "
                       "int64",
                       (int)k, (long long)a->b, (long long)a->dilated, (int)k, (long long)a->e);
        a->n = n > 0 ? n : 0;
    }

    /* The empty-axis rule holds even when another axis empties the whole output. */
    if (!constant) {
        for (int32_t k = 0; k < rank; k++) {
            const ndpad_axis *a = &v->axis[k];
            if (a->d == 0 && a->n != 0)
                NDPAD_FAIL(NDPAD_ERR_EMPTY_AXIS,
                           "mode %s cannot fill axis %d: shape[%d] = 0 but pads_begin[%d] = "
                           "%lld and pads_end[%d] = %lld ask for %lld output elements",
                           mode_names[problem->mode], (int)k, (int)k, (int)k, (long long)a->b,
                           (int)k, (long long)a->e, (long long)a->n);
        }
    }

    /* Output size: elements and bytes both fit. */
    int64_t out_elems = 1;
    for (int32_t k = 0; k < rank; k++)
        if (v->axis[k].n == 0) out_elems = 0; /* then no other extent can overflow it */
    for (int32_t k = 0; k < rank && out_elems != 0; k++)
        if (ndpad_mul_overflows(out_elems, v->axis[k].n, &out_elems))
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                       "output has more than INT64_MAX elements (overflow at axis %d, "
                       "extent %lld)",
                       (int)k, (long long)v->axis[k].n);
    int64_t out_bytes;
    if (ndpad_mul_overflows(out_elems, (int64_t)v->elem_size, &out_bytes))
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW, "output of %lld elements of %zu bytes overflows int64",
                   (long long)out_elems, v->elem_size);
    v->out_elems = out_elems;

    /* Every position o - b with o in [0, n) must be representable, when an output element
     * is made at all (an empty output computes no position). */
    for (int32_t k = 0; k < rank && out_elems > 0; k++) {
        const ndpad_axis *a = &v->axis[k];
        int64_t last_position;
        if (a->b == INT64_MIN || ndpad_sub_overflows(a->n - 1, a->b, &last_position))
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                       "pads_begin[%d] = %lld puts output positions out of int64 range", (int)k,
                       (long long)a->b);
    }

    /* REFLECT and SYMMETRIC repeat with period 2 (d - 1) and 2 d, computed in int64 when an
     * output element is made: an extent above 2^62 is refused then (its input alone would
     * be 2^62 elements). WRAP's period is d; an empty output computes none. */
    const bool doubled = problem->mode == NDPAD_REFLECT || problem->mode == NDPAD_SYMMETRIC;
    for (int32_t k = 0; k < rank && doubled && out_elems > 0; k++)
        if (v->axis[k].d > INT64_MAX / 2)
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                       "shape[%d] = %lld is too large for mode %s (its period 2 * shape "
                       "overflows int64)",
                       (int)k, (long long)v->axis[k].d, mode_names[problem->mode]);

    /* Strides: given or dense; output strides may not be zero where elements would collide. */
    int64_t extents[NDPAD_MAX_RANK] = {0}, dense[NDPAD_MAX_RANK];
    for (int32_t k = 0; k < rank; k++) extents[k] = v->axis[k].n;
    if (problem->out_strides != NULL) {
        for (int32_t k = 0; k < rank; k++) {
            v->axis[k].out_stride = problem->out_strides[k];
            if (v->axis[k].out_stride == 0 && v->axis[k].n > 1)
                NDPAD_FAIL(NDPAD_ERR_STRIDE,
                           "out_strides[%d] = 0 but axis %d has %lld output elements; output "
                           "elements must not share an address",
                           (int)k, (int)k, (long long)v->axis[k].n);
        }
    } else {
        int32_t k;
        if (dense_strides_overflow(extents, rank, dense, &k))
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                       "dense output strides (out_strides NULL) overflow "
                       "int64 at axis %d (output extent %lld)",
                       (int)k, (long long)v->axis[k].n);
        for (int32_t k = 0; k < rank; k++) v->axis[k].out_stride = dense[k];
    }
    for (int32_t k = 0; k < rank; k++) extents[k] = v->axis[k].d;
    if (problem->in_strides != NULL) {
        for (int32_t k = 0; k < rank; k++) v->axis[k].in_stride = problem->in_strides[k];
    } else {
        int32_t k;
        if (dense_strides_overflow(extents, rank, dense, &k))
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                       "dense input strides (in_strides NULL) overflow "
                       "int64 at shape[%d] = %lld",
                       (int)k, (long long)v->axis[k].d);
        for (int32_t k = 0; k < rank; k++) v->axis[k].in_stride = dense[k];
    }

    /* Input size (when it has elements): elements and bytes fit, whatever the strides. */
    int64_t in_elems = 1, in_bytes;
    for (int32_t k = 0; k < rank; k++)
        if (v->axis[k].d == 0) in_elems = 0;
    for (int32_t k = 0; k < rank && in_elems != 0; k++)
        if (ndpad_mul_overflows(in_elems, v->axis[k].d, &in_elems) ||
            ndpad_mul_overflows(in_elems, (int64_t)v->elem_size, &in_bytes))
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                       "input of %zu-byte elements overflows int64 bytes "
                       "(at shape[%d] = %lld)",
                       v->elem_size, (int)k, (long long)v->axis[k].d);

    int64_t span;
    if (out_elems > 0 && span_overflows(v, false, &span))
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW, "out_strides reach beyond the int64 byte range");
    if (in_elems > 0 && span_overflows(v, true, &span))
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW, "in_strides reach beyond the int64 byte range");

    /* Does any output element read the input? CONSTANT needs a non-empty crop window on
     * every axis; the other modes read whenever there is output. */
    v->reads_input = out_elems > 0;
    if (constant && v->reads_input) {
        for (int32_t k = 0; k < rank; k++) {
            const ndpad_axis *a = &v->axis[k];
            /* window of positions j in [max(0, -b), min(D, n - b)) must hold a lattice point */
            const int64_t lo = a->b < 0 ? -a->b : 0;
            int64_t hi; /* n - b may exceed int64 by one (n - 1 - b is validated) */
            if (ndpad_sub_overflows(a->n, a->b, &hi) || hi > a->dilated) hi = a->dilated;
            const int64_t step = a->d > 1 ? a->r + 1 : 1;       /* d <= 1: only j = 0 */
            const int64_t first = lo / step + (lo % step != 0); /* lattice indices */
            const int64_t last = hi > 0 ? (hi - 1) / step : -1;
            if (first > last) v->reads_input = false;
        }
    }

    /* In-place padding is possible when the input can sit inside the output's layout. */
    v->inplace_capable = true;
    int64_t offset = 0;
    for (int32_t k = 0; k < rank && v->inplace_capable; k++) {
        const ndpad_axis *a = &v->axis[k];
        int64_t term;
        if (a->b < 0 || a->e < 0 || a->r != 0 || a->in_stride != a->out_stride ||
            ndpad_mul_overflows(a->b, a->out_stride, &term) ||
            ndpad_add_overflows(offset, term, &offset))
            v->inplace_capable = false;
    }
    if (v->inplace_capable &&
        ndpad_mul_overflows(offset, (int64_t)v->elem_size, &v->inplace_offset))
        v->inplace_capable = false;
    return NDPAD_OK;

fail:
    return status;
}
