/* Execution of a sub-byte plan: its rows over tiles and threads. */
#ifndef NDPAD_BITS_RUN_H
#define NDPAD_BITS_RUN_H

#include "bits-plan.h"

/* Cuts the plan's rows into tiles for its threads (plan->threads may drop to 1 when rows
 * of different tiles would share a byte). `forced_rows`: options.tile_rows, 0 for none. */
NDPAD_INTERNAL void ndpad_bits_plan_tiles(ndpad_bits_plan *plan, int64_t forced_rows);

/* Pads in into out (both non-NULL where needed: the caller checked). */
NDPAD_INTERNAL void ndpad_bits_run(const ndpad_bits_plan *plan, const uint8_t *in, uint8_t *out);

#endif
