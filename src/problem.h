/* Validation of an ndpad_problem: every rule of the contract, checked completely before
 * anything is planned or written, with overflow-checked size math. */
#ifndef NDPAD_PROBLEM_H
#define NDPAD_PROBLEM_H

#include <stdbool.h>

#include "ndpad.h"
#include "status.h"

/* One axis of a validated problem, in the contract's terms (strides in elements). */
typedef struct ndpad_axis {
    int64_t d;          /* input extent                                  */
    int64_t b, e;       /* pads begin / end (negative crops)             */
    int64_t r;          /* interior                                      */
    int64_t dilated;    /* D = (d - 1)(r + 1) + 1, or 0                  */
    int64_t n;          /* output extent                                 */
    int64_t in_stride;  /* elements                                      */
    int64_t out_stride; /* elements                                      */
} ndpad_axis;

/* A problem that passed every rule. What follows from it (does any element read the
 * input? can it pad in place?) is worked out by the normaliser (plan.h). */
typedef struct ndpad_valid_problem {
    int32_t rank;
    int32_t mode;
    size_t elem_size;
    const void *pad_value; /* NULL = zero bytes                          */
    int64_t out_elems;     /* product of the output extents              */
    ndpad_axis axis[NDPAD_MAX_RANK];
} ndpad_valid_problem;

/* Checks every rule; on failure records a message naming `caller`, the argument and the
 * axis, and returns its status. */
NDPAD_INTERNAL ndpad_status ndpad_problem_validate(const ndpad_problem *problem, const char *caller,
                                                   ndpad_valid_problem *valid);

#endif
