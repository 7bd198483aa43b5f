/* The constants map of a plan with constants per side or per index (const-map.c), as the
 * planner builds it: check, copy, then finish after normalisation. */
#ifndef NDPAD_CONST_MAP_H
#define NDPAD_CONST_MAP_H

#include "plan.h"

/* The arguments of constants per side or index (`kind` an ndpad_consts_kind, `axis` the
 * INDEX axis, `values` as ndpad_plan_create_sides/_per_index take them), checked against
 * the valid problem. */
NDPAD_INTERNAL ndpad_status ndpad_consts_check(const ndpad_problem *problem,
                                               const ndpad_valid_problem *v, int32_t kind,
                                               int32_t axis, const void *values,
                                               const char *caller);

/* The map before normalisation: a copy of the values (none for an empty output). */
NDPAD_INTERNAL ndpad_status ndpad_const_map_new(const ndpad_valid_problem *v, int32_t kind,
                                                int32_t axis, const void *values,
                                                const char *caller, ndpad_const_map **result);

/* After normalisation: the normalised axis holding the per-index axis, and the row axis's
 * pattern when it is that axis. */
NDPAD_INTERNAL ndpad_status ndpad_const_map_finish(ndpad_plan *plan, const char *caller);

/* Frees `m` and what it owns (NULL: nothing). */
NDPAD_INTERNAL void ndpad_const_map_destroy(ndpad_const_map *m);

#endif
