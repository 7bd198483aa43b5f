/* The tile heuristic and the clamp that makes any tile valid for a plan. */
#ifndef NDPAD_TILE_CHOICE_H
#define NDPAD_TILE_CHOICE_H

#include "plan.h"

/* The default tile for `plan` given its thread budget: one thread and one tile for small
 * outputs, otherwise about four tiles per thread, splitting long rows by columns. */
NDPAD_INTERNAL ndpad_tile ndpad_tile_default(const ndpad_plan *plan);

/* Whether the heuristic would give `plan` streaming stores at one thread. */
NDPAD_INTERNAL bool ndpad_tile_streams_alone(const ndpad_plan *plan);

/* `tile` made valid for `plan`: rows or cols 0 are the heuristic's (wisdom entries store
 * them so), then rows, cols and threads clamped, tiny outputs on 1 thread. */
NDPAD_INTERNAL ndpad_tile ndpad_tile_fit(const ndpad_plan *plan, ndpad_tile tile);

/* A tile as the tuner's tables write it: "918x258/2t", then "/nt" (streaming stores),
 * "/memcpy" or "/movsb" (the interior copy), "/rows" (output-stream path off), "/pf16"
 * (in-place prefetch 16 rows ahead; "/pf0": none). snprintf semantics. */
NDPAD_INTERNAL int ndpad_tile_text(const ndpad_tile *tile, char *buf, size_t size);

/* True when two tiles are the same choice. */
NDPAD_INTERNAL bool ndpad_tile_same(const ndpad_tile *a, const ndpad_tile *b);

#endif
