/* One output row of a sub-byte plan: its runs per mode (copies of the source row, reversed
 * copies, fills), and the source index of an output index on one axis. */
#ifndef NDPAD_BITS_ROW_H
#define NDPAD_BITS_ROW_H

#include "bits-plan.h"

/* The source index of output index o on axis a, or -1 for a pad element (CONSTANT). */
NDPAD_INTERNAL int64_t ndpad_bits_axis_source(int32_t mode, const ndpad_axis *a, int64_t o);

/* One run of a periodic row: output [o, o + n) from source index i, forward (dir 1) or
 * backward (dir -1). */
typedef struct ndpad_bits_span {
    int64_t o, n, i;
    int dir;
} ndpad_bits_span;

#define NDPAD_BITS_WINDOW_RUNS 16

/* The window of the periodic modes (WRAP, REFLECT, SYMMETRIC) on the innermost axis: the
 * output elements [lo, hi) read from the source (the rest of a row repeats them), and its
 * runs, the same for every row: found once per plan execution, not once per row. count is
 * 0 when the window has more runs than it keeps (the rows then find them themselves), and
 * for the other modes. */
typedef struct ndpad_bits_window {
    int64_t lo, hi;
    int count;
    ndpad_bits_span runs[NDPAD_BITS_WINDOW_RUNS];
} ndpad_bits_window;

NDPAD_INTERNAL void ndpad_bits_window_init(const ndpad_bits_plan *plan, ndpad_bits_window *w);

/* Writes the innermost output row at bit out_bit of out from the source row at bit in_bit
 * of in (unread when pad_row: the whole row is pad value). skip_interior: in place, the
 * row's interior already holds the input; only its borders are written. */
NDPAD_INTERNAL void ndpad_bits_row(const ndpad_bits_plan *plan, const ndpad_bits_window *w,
                                   uint8_t *out, int64_t out_bit, const uint8_t *in, int64_t in_bit,
                                   bool pad_row, bool skip_interior);

#endif
