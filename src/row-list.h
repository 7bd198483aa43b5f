/* The source rows of a plan's output rows, in output order: an odometer over the outer axes
 * gives each row's byte offset from the input (after the plan's input offset), or
 * NDPAD_STREAM_PAD_ROW for a row of pad value. The output-stream path lists a plan's rows
 * once when it is planned (stream-plan.c) or a tile's rows batch by batch (stream-run.c). */
#ifndef NDPAD_ROW_LIST_H
#define NDPAD_ROW_LIST_H

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"

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
