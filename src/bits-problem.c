/* Validation of sub-byte problems, in the order the header lists the rules: the fields of
 * ndpad_bits_problem (reserved, elem_bits, bit offsets), then part 1's rules on the problem
 * with elements of one unit (so that every message of problem.c names its argument and
 * axis as for bytes), then the innermost strides and the reach of every bit position. */
#include "bits-problem.h"

#include <string.h>

typedef __int128 wide;

/* The lowest and highest element offsets a non-empty tensor reaches (extents, strides). */
static void reach(const ndpad_valid_problem *v, bool input, wide *lowest, wide *highest)
{
    *lowest = 0, *highest = 0;
    for (int32_t k = 0; k < v->rank; k++) {
        const ndpad_axis *a = &v->axis[k];
        const wide extent = input ? a->d : a->n;
        const wide step = (wide)(input ? a->in_stride : a->out_stride) * (extent - 1);
        if (step < 0)
            *lowest += step;
        else
            *highest += step;
    }
}

static bool tensor_empty(const ndpad_valid_problem *v, bool input)
{
    for (int32_t k = 0; k < v->rank; k++)
        if ((input ? v->axis[k].d : v->axis[k].n) == 0) return true;
    return false;
}

/* Rule: every bit position of the tensor, and the bit just past its last element, fit int64. */
static ndpad_status check_bit_reach(const ndpad_bits_valid *b, bool input, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (tensor_empty(&b->core, input)) return NDPAD_OK;
    wide lowest, highest;
    reach(&b->core, input, &lowest, &highest);
    const wide offset = input ? b->in_bit_offset : b->out_bit_offset;
    const wide first = offset + lowest * (wide)b->bits;
    const wide past = offset + (highest + 1) * (wide)b->bits;
    if (first < INT64_MIN || past > INT64_MAX)
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                   "%s bit positions (%s_bit_offset = %lld plus %s_strides times elem_bits = "
                   "%u) reach beyond the int64 range",
                   input ? "input" : "output", input ? "in" : "out",
                   (long long)(input ? b->in_bit_offset : b->out_bit_offset), input ? "in" : "out",
                   b->bits);
fail:
    return status;
}

/* Rule: a row's elements are adjacent bits: the innermost stride is 1 wherever that axis
 * has more than one element. */
static ndpad_status check_innermost(const ndpad_bits_problem *p, const ndpad_valid_problem *v,
                                    const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (v->rank == 0) return NDPAD_OK;
    const int32_t k = v->rank - 1;
    const ndpad_axis *a = &v->axis[k];
    if (p->problem.in_strides != NULL && a->d > 1 && a->in_stride != 1)
        NDPAD_FAIL(NDPAD_ERR_STRIDE,
                   "in_strides[%d] = %lld: the innermost axis of sub-byte elements must have "
                   "stride 1 (a row's elements are adjacent bits)",
                   (int)k, (long long)a->in_stride);
    if (p->problem.out_strides != NULL && a->n > 1 && v->out_elems > 0 && a->out_stride != 1)
        NDPAD_FAIL(NDPAD_ERR_STRIDE,
                   "out_strides[%d] = %lld: the innermost axis of sub-byte elements must have "
                   "stride 1 (a row's elements are adjacent bits)",
                   (int)k, (long long)a->out_stride);
fail:
    return status;
}

ndpad_status ndpad_bits_validate(const ndpad_bits_problem *p, const char *caller,
                                 ndpad_bits_valid *b)
{
    ndpad_status status = NDPAD_OK;
    memset(b, 0, sizeof(*b));
    if (p == NULL) NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "problem is NULL");
    if (p->reserved != 0)
        NDPAD_FAIL(NDPAD_ERR_OPTIONS, "reserved = %d must be zero", (int)p->reserved);
    if (p->elem_bits != 1 && p->elem_bits != 2 && p->elem_bits != 4)
        NDPAD_FAIL(NDPAD_ERR_ELEM_SIZE,
                   "elem_bits = %d is not 1, 2 or 4 (whole bytes: use ndpad_problem's elem_size)",
                   (int)p->elem_bits);
    if (p->in_bit_offset < 0)
        NDPAD_FAIL(NDPAD_ERR_SHAPE, "in_bit_offset = %lld is negative",
                   (long long)p->in_bit_offset);
    if (p->out_bit_offset < 0)
        NDPAD_FAIL(NDPAD_ERR_SHAPE, "out_bit_offset = %lld is negative",
                   (long long)p->out_bit_offset);
    ndpad_problem units = p->problem;
    units.elem_size = 1;
    NDPAD_FORWARD(ndpad_problem_validate(&units, caller, &b->core));
    b->bits = (unsigned)p->elem_bits;
    b->in_bit_offset = p->in_bit_offset;
    b->out_bit_offset = p->out_bit_offset;
    NDPAD_FORWARD(check_innermost(p, &b->core, caller));
    NDPAD_FORWARD(check_bit_reach(b, false, caller));
    NDPAD_FORWARD(check_bit_reach(b, true, caller));
    if (b->core.mode == NDPAD_CONSTANT && b->core.out_elems > 0 && p->problem.pad_value != NULL)
        b->pad_value = *(const uint8_t *)p->problem.pad_value & ((1u << b->bits) - 1);
    b->core.pad_value = NULL; /* the byte was read here; core's elem_size says nothing of it */
fail:
    return status;
}
