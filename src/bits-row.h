/* One output row of a sub-byte plan: its runs per mode (copies of the source row, reversed
 * copies, fills), and the source index of an output index on one axis. */
#ifndef NDPAD_BITS_ROW_H
#define NDPAD_BITS_ROW_H

#include "bits-plan.h"

/* The source index of output index o on axis a, or -1 for a pad element (CONSTANT). */
NDPAD_INTERNAL int64_t ndpad_bits_axis_source(int32_t mode, const ndpad_axis *a, int64_t o);

/* Writes the innermost output row at bit out_bit of out from the source row at bit in_bit
 * of in (unread when pad_row: the whole row is pad value). skip_interior: in place, the
 * row's interior already holds the input; only its borders are written. */
NDPAD_INTERNAL void ndpad_bits_row(const ndpad_bits_plan *plan, uint8_t *out, int64_t out_bit,
                                   const uint8_t *in, int64_t in_bit, bool pad_row,
                                   bool skip_interior);

#endif
