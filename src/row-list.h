/* The source rows of a plan's output rows, in output order: an odometer over the outer axes
 * gives each row's byte offset from the input (after the plan's input offset), or
 * NDPAD_STREAM_PAD_ROW for a row of pad value. The output-stream path lists a plan's rows
 * once when it is planned (stream-plan.c) or a tile's rows batch by batch (stream-run.c). */
#ifndef NDPAD_ROW_LIST_H
#define NDPAD_ROW_LIST_H

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"

/* index[0 .. ndim - 2], the output index on each outer axis, of output row r of `plan`.
 * The row executor (executor.c) and the odometer below both count rows with these two. */
static inline void ndpad_outer_index_of_row(const ndpad_plan *plan, int64_t r, int64_t *index)
{
    for (int32_t k = plan->ndim - 2; k >= 0; k--) {
        index[k] = r % plan->dim[k].n;
        r /= plan->dim[k].n;
    }
}

/* The last outer axis has run to its end: it goes back to 0 and carries into the ones
 * before it. */
static inline void ndpad_outer_index_carry(const ndpad_plan *plan, int64_t *index)
{
    index[plan->ndim - 2] = 0;
    for (int32_t k = plan->ndim - 3; k >= 0; k--) {
        if (++index[k] < plan->dim[k].n) break;
        index[k] = 0;
    }
}

/* Where the odometer stands: rows [r, r1) of the plan are still to come. */
typedef struct ndpad_row_odometer {
    const ndpad_plan *plan;
    int64_t r, r1;
    /* index[a]: the output index on outer axis a (the last outer axis: the next row) */
    int64_t index[NDPAD_MAX_RANK];
    /* the axes before the last outer one: their source offset, whether one maps to pad, and
     * whether the two are worked out for the current index */
    int64_t base;
    bool prefix_pad, prefix_known;
} ndpad_row_odometer;

/* An odometer at output row r0 of `plan` (two axes or more), to stop before row r1. */
NDPAD_INTERNAL void ndpad_row_odometer_start(ndpad_row_odometer *odometer, const ndpad_plan *plan,
                                             int64_t r0, int64_t r1);

/* The next rows' offsets in rows[0..], at most `capacity` of them; how many (0 at r1). */
NDPAD_INTERNAL int64_t ndpad_row_odometer_next(ndpad_row_odometer *odometer, int64_t *rows,
                                               int64_t capacity);

#endif
