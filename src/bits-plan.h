/* The plan of a sub-byte problem: the validated axes (strides in elements), the bit
 * offsets, the kernels, and how its rows are cut into tiles for threads. */
#ifndef NDPAD_BITS_PLAN_H
#define NDPAD_BITS_PLAN_H

#include <stdbool.h>

#include "kernels/bits-kernels.h"
#include "problem.h"
#include "task-runner.h"

struct ndpad_bits_plan {
    int32_t rank; /* >= 1: a rank-0 problem is planned as one axis of one element */
    int32_t mode;
    unsigned bits;
    unsigned pad_value;
    ndpad_isa isa;
    ndpad_axis axis[NDPAD_MAX_RANK];
    int64_t in_bit_offset, out_bit_offset;
    int64_t rows;          /* output rows: the product of the outer axes' output extents */
    bool empty;            /* no output element                                          */
    bool reads_input;      /* some output element is an input element                    */
    bool may_be_in_place;  /* pads >= 0, no interior, equal strides                  */
    int64_t in_place_bits; /* then: in's first bit minus out's, in place            */
    ndpad_bits_kernels kernels;
    ndpad_thread_policy policy; /* the options' threads, as ndpad_plan_create() reads them */
    int32_t threads;            /* at most; 1 when the rows cannot be cut without sharing bytes */
    /* tiles: tile 0 is rows [0, first_rows), tile t > 0 rows [first_rows + (t - 1) *
     * tile_rows, ...): every boundary is a row that starts on a byte of its own */
    int64_t first_rows, tile_rows, tiles;
};

/* ndpad_bits_pad(), with `caller` naming the public entry point in error messages (the
 * typed ONNX calls run their sub-byte problems through it). */
NDPAD_INTERNAL ndpad_status ndpad_bits_pad_for(const ndpad_bits_problem *problem,
                                               const ndpad_options *options, const void *in,
                                               void *out, const char *caller);

#endif
