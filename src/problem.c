/* Validation: the contract's rules (ndpad.h, "RULES") in the order a user would fix them:
 * arguments, then per-axis values, then sizes, then strides. One function per rule or
 * group of rules, each with its own status and a message naming the argument and axis.
 * What follows from a valid problem (which elements read the input, whether in-place
 * padding applies) is the normaliser's business, not a rule. */
#include "problem.h"

#include <string.h>

#include "checked.h"

static const char *const mode_names[] = {"CONSTANT", "EDGE", "REFLECT", "SYMMETRIC", "WRAP"};

/* Dense row-major strides (elements) of the input's or the output's extents, into the axes'
 * in_stride or out_stride; true on an overflow at axis *where. */
static bool dense_strides_overflow(ndpad_valid_problem *v, bool input, int32_t *where)
{
    int64_t stride = 1;
    for (int32_t k = 0; k < v->rank; k++)
        if ((input ? v->axis[k].d : v->axis[k].n) == 0) {
            /* An empty tensor has no addressable element: its strides never reach memory. */
            for (int32_t m = 0; m < v->rank; m++)
                *(input ? &v->axis[m].in_stride : &v->axis[m].out_stride) = 0;
            return false;
        }
    for (int32_t k = v->rank - 1; k >= 0; k--) {
        ndpad_axis *a = &v->axis[k];
        *(input ? &a->in_stride : &a->out_stride) = stride;
        if (ndpad_mul_overflows(stride, input ? a->d : a->n, &stride)) {
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

/* Rule: rank in [0, NDPAD_MAX_RANK], mode an ndpad_mode, elem_size >= 1, and the per-axis
 * arrays present when rank > 0. An elem_size above INT64_MAX is refused only by the byte
 * counts of a tensor that has elements (an empty problem holds no byte). */
static ndpad_status check_arguments(const ndpad_problem *problem, const char *caller)
{
    ndpad_status status = NDPAD_OK;
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
    if (problem->rank > 0) {
        const int rank = (int)problem->rank;
        if (problem->shape == NULL)
            NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "shape is NULL with rank = %d", rank);
        if (problem->pads_begin == NULL)
            NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "pads_begin is NULL with rank = %d", rank);
        if (problem->pads_end == NULL)
            NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "pads_end is NULL with rank = %d", rank);
    }
fail:
    return status;
}

/* Rule: shape[k] >= 0, interior[k] >= 0 and only with CONSTANT; the dilated extent
 * D = (d - 1)(r + 1) + 1 and the output extent b + D + e fit int64. Fills axis k. */
static ndpad_status check_axis(const ndpad_problem *problem, int32_t k, const char *caller,
                               ndpad_axis *a)
{
    ndpad_status status = NDPAD_OK;
    a->d = problem->shape[k];
    a->b = problem->pads_begin[k];
    a->e = problem->pads_end[k];
    a->r = problem->interior != NULL ? problem->interior[k] : 0;
    if (a->d < 0)
        NDPAD_FAIL(NDPAD_ERR_SHAPE, "shape[%d] = %lld is negative", (int)k, (long long)a->d);
    if (a->r < 0)
        NDPAD_FAIL(NDPAD_ERR_INTERIOR, "interior[%d] = %lld is negative", (int)k, (long long)a->r);
    if (a->r != 0 && problem->mode != NDPAD_CONSTANT)
        NDPAD_FAIL(NDPAD_ERR_INTERIOR_MODE, "interior[%d] = %lld needs mode CONSTANT, not %s",
                   (int)k, (long long)a->r, mode_names[problem->mode]);
    int64_t step;
    if (a->d <= 1) {
        a->dilated = a->d; /* one element has no neighbours: the interior inserts none */
    } else if (ndpad_add_overflows(a->r, 1, &step) ||
               ndpad_mul_overflows(a->d - 1, step, &a->dilated) ||
               ndpad_add_overflows(a->dilated, 1, &a->dilated)) {
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW, "shape[%d] = %lld with interior[%d] = %lld overflows int64",
                   (int)k, (long long)a->d, (int)k, (long long)a->r);
    }
    int64_t n;
    if (ndpad_add3_overflows(a->b, a->dilated, a->e, &n))
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                   "pads_begin[%d] = %lld + extent %lld + pads_end[%d] = %lld overflows "
                   "int64",
                   (int)k, (long long)a->b, (long long)a->dilated, (int)k, (long long)a->e);
    a->n = n > 0 ? n : 0;
fail:
    return status;
}

/* Rule: a non-CONSTANT mode cannot grow an axis with d == 0, even when another axis
 * empties the whole output. */
static ndpad_status check_empty_axes(const ndpad_valid_problem *v, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    for (int32_t k = 0; k < v->rank && v->mode != NDPAD_CONSTANT; k++) {
        const ndpad_axis *a = &v->axis[k];
        if (a->d == 0 && a->n != 0)
            NDPAD_FAIL(NDPAD_ERR_EMPTY_AXIS,
                       "mode %s cannot fill axis %d: shape[%d] = 0 but pads_begin[%d] = "
                       "%lld and pads_end[%d] = %lld ask for %lld output elements",
                       mode_names[v->mode], (int)k, (int)k, (int)k, (long long)a->b, (int)k,
                       (long long)a->e, (long long)a->n);
    }
fail:
    return status;
}

/* Rule: the output's elements and bytes fit int64; sets v->out_elems. */
static ndpad_status check_output_size(ndpad_valid_problem *v, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    int64_t out_elems = 1;
    for (int32_t k = 0; k < v->rank; k++)
        if (v->axis[k].n == 0) out_elems = 0; /* then no other extent can overflow it */
    for (int32_t k = 0; k < v->rank && out_elems != 0; k++)
        if (ndpad_mul_overflows(out_elems, v->axis[k].n, &out_elems))
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                       "output has more than INT64_MAX elements (overflow at axis %d, "
                       "extent %lld)",
                       (int)k, (long long)v->axis[k].n);
    if (out_elems > 0 && v->elem_size > (size_t)INT64_MAX)
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                   "elem_size = %zu exceeds INT64_MAX (the output has %lld elements)", v->elem_size,
                   (long long)out_elems);
    int64_t out_bytes;
    if (ndpad_mul_overflows(out_elems, (int64_t)v->elem_size, &out_bytes))
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW, "output of %lld elements of %zu bytes overflows int64",
                   (long long)out_elems, v->elem_size);
    v->out_elems = out_elems;
fail:
    return status;
}

/* Rule: the positions an output element computes fit int64. Every o - b with o in [0, n)
 * must be representable; REFLECT and SYMMETRIC repeat with period 2 (d - 1) and 2 d, so an
 * extent above 2^62 is refused for them (its input alone would be 2^62 elements). WRAP's
 * period is d. An empty output computes no position and no period. */
static ndpad_status check_positions(const ndpad_valid_problem *v, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (v->out_elems == 0) return NDPAD_OK;
    for (int32_t k = 0; k < v->rank; k++) {
        const ndpad_axis *a = &v->axis[k];
        int64_t last_position;
        if (a->b == INT64_MIN || ndpad_sub_overflows(a->n - 1, a->b, &last_position))
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                       "pads_begin[%d] = %lld puts output positions out of int64 range", (int)k,
                       (long long)a->b);
    }
    const bool doubled = v->mode == NDPAD_REFLECT || v->mode == NDPAD_SYMMETRIC;
    for (int32_t k = 0; k < v->rank && doubled; k++)
        if (v->axis[k].d > INT64_MAX / 2)
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                       "shape[%d] = %lld is too large for mode %s (its period 2 * shape "
                       "overflows int64)",
                       (int)k, (long long)v->axis[k].d, mode_names[v->mode]);
fail:
    return status;
}

/* Rule: strides, given or dense (which must fit int64). Input strides may be anything:
 * negative, zero, overlapping. A zero output stride on an axis of more than one element
 * would make elements share an address, but only when the output has elements: an empty
 * output addresses nothing (numpy gives shape (4, 2, 0) the strides (0, 0, 0)). */
static ndpad_status set_strides(const ndpad_problem *problem, bool input, ndpad_valid_problem *v,
                                const char *caller)
{
    ndpad_status status = NDPAD_OK;
    const int64_t *given = input ? problem->in_strides : problem->out_strides;
    int32_t k;
    for (k = 0; k < v->rank && given != NULL; k++) {
        ndpad_axis *a = &v->axis[k];
        *(input ? &a->in_stride : &a->out_stride) = given[k];
        if (!input && a->out_stride == 0 && a->n > 1 && v->out_elems > 0)
            NDPAD_FAIL(NDPAD_ERR_STRIDE,
                       "out_strides[%d] = 0 but axis %d has %lld output elements; output "
                       "elements must not share an address",
                       (int)k, (int)k, (long long)a->n);
    }
    if (given == NULL && dense_strides_overflow(v, input, &k)) {
        if (input)
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                       "dense input strides (in_strides NULL) overflow "
                       "int64 at shape[%d] = %lld",
                       (int)k, (long long)v->axis[k].d);
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                   "dense output strides (out_strides NULL) overflow "
                   "int64 at axis %d (output extent %lld)",
                   (int)k, (long long)v->axis[k].n);
    }
fail:
    return status;
}

/* Rule: a tensor with elements has elements and bytes that fit int64 (the input, whatever
 * its strides), and strides whose reach stays within the int64 byte range. */
static ndpad_status check_extents_and_spans(const ndpad_valid_problem *v, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    int64_t in_elems = 1, in_bytes;
    for (int32_t k = 0; k < v->rank; k++)
        if (v->axis[k].d == 0) in_elems = 0;
    if (in_elems != 0 && v->elem_size > (size_t)INT64_MAX)
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW, "elem_size = %zu exceeds INT64_MAX (the input has elements)",
                   v->elem_size);
    for (int32_t k = 0; k < v->rank && in_elems != 0; k++)
        if (ndpad_mul_overflows(in_elems, v->axis[k].d, &in_elems) ||
            ndpad_mul_overflows(in_elems, (int64_t)v->elem_size, &in_bytes))
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                       "input of %zu-byte elements overflows int64 bytes "
                       "(at shape[%d] = %lld)",
                       v->elem_size, (int)k, (long long)v->axis[k].d);
    int64_t span;
    if (v->out_elems > 0 && span_overflows(v, false, &span))
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW, "out_strides reach beyond the int64 byte range");
    if (in_elems > 0 && span_overflows(v, true, &span))
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW, "in_strides reach beyond the int64 byte range");
fail:
    return status;
}

ndpad_status ndpad_problem_validate(const ndpad_problem *problem, const char *caller,
                                    ndpad_valid_problem *v)
{
    ndpad_status status = NDPAD_OK;
    memset(v, 0, sizeof(*v));
    NDPAD_FORWARD(check_arguments(problem, caller));
    v->rank = problem->rank;
    v->mode = problem->mode;
    v->elem_size = problem->elem_size;
    v->pad_value = problem->pad_value;
    for (int32_t k = 0; k < v->rank; k++)
        NDPAD_FORWARD(check_axis(problem, k, caller, &v->axis[k]));
    NDPAD_FORWARD(check_empty_axes(v, caller));
    NDPAD_FORWARD(check_output_size(v, caller));
    NDPAD_FORWARD(check_positions(v, caller));
    NDPAD_FORWARD(set_strides(problem, false, v, caller));
    NDPAD_FORWARD(set_strides(problem, true, v, caller));
    NDPAD_FORWARD(check_extents_and_spans(v, caller));
    return NDPAD_OK;
fail:
    return status;
}
