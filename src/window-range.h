/* The input range one axis of an output window reads, and the local problem on it.
 *
 * Along one axis, the mode's index map restricted to a window [o0, o1) visits a set of input
 * positions that is a range (WRAP across a seam: the whole axis). The window is then an
 * ordinary problem on that range, the LOCAL problem, whose map equals the original one
 * shifted:
 *   CONSTANT, EDGE         the range with shifted pads (negative pads crop);
 *   REFLECT, SYMMETRIC     the range is either the whole axis (shift by whole periods) or
 *                          holds at most one turning point, which is then an end of the
 *                          range, where the local problem turns too;
 *   WRAP                   the whole axis (whole periods) or one forward run.
 * So the planner, the normaliser and every kernel serve windows unchanged (window.c), and the
 * local problem names only input elements inside the range. */
#ifndef NDPAD_WINDOW_RANGE_H
#define NDPAD_WINDOW_RANGE_H

#include "problem.h"

/* What one axis of a window reads: input positions [r0, r1) (empty when r0 == r1), and the
 * local problem's extent and begin pad on that range. */
typedef struct ndpad_window_range {
    int64_t r0, r1;
    int64_t local_d, local_b;
} ndpad_window_range;

/* Axis `a` of a window [o0, o1), o0 < o1, under `mode`: the range it reads and its local
 * problem. The axis comes from a valid problem with an input extent d >= 1. */
NDPAD_INTERNAL void ndpad_window_range_of(const ndpad_axis *a, int32_t mode, int64_t o0, int64_t o1,
                                          ndpad_window_range *w);

#endif
