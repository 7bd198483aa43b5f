/* A small cache of recent one-shot plans, so that ndpad_pad() of a small output does not
 * validate, normalise and pick kernels on every call (planning measured 0.3-0.6 us against
 * 0.07-1.2 us of execution for outputs of 0.4-113 KB). */
#ifndef NDPAD_PLAN_CACHE_H
#define NDPAD_PLAN_CACHE_H

#include <stdbool.h>

#include "plan.h"

/* A plan from the cache, and the pad value and output-stream tables it points to: copies
 * of the slot's, since a slot may be replaced while the copy runs. */
#define NDPAD_PLAN_CACHE_PAD 64
/* Stream tables up to this size are held in the slot and copied out on a hit (the ROWS
 * tables of borders up to ~900 elements, the CONSTANT ones, the PLANES tables of up to ~900
 * block places: a one-shot 10 x 10 fp32 pad rebuilt its 4 KiB of masks on every call, 3.3
 * us); larger ones are rebuilt on the copy. */
#define NDPAD_PLAN_CACHE_STREAM 8192
/* Constants per side or index (ndpad_const_map with its values and pattern) up to this
 * size are cached with their plan; larger ones are not cached. */
#define NDPAD_PLAN_CACHE_CONSTS 2048
typedef struct ndpad_cached_plan {
    ndpad_plan plan;
    unsigned char pad[NDPAD_PLAN_CACHE_PAD];
    _Alignas(16) unsigned char stream[NDPAD_PLAN_CACHE_STREAM];
    _Alignas(16) unsigned char consts[NDPAD_PLAN_CACHE_CONSTS];
    bool owns_stream; /* plan.stream was rebuilt: ndpad_plan_cache_release frees it */
} ndpad_cached_plan;

/* Fills *cached with the cached plan of `problem` planned with default options, with its
 * output-stream tables if it had them, and returns true; or returns false. Release a hit
 * with ndpad_plan_cache_release() once it has run. Thread-safe. */
NDPAD_INTERNAL bool ndpad_plan_cache_get(const ndpad_problem *problem, ndpad_cached_plan *cached);

/* The same for a plan with constants per side or index (`kind` an ndpad_consts_kind, with
 * its axis and values as ndpad_plan_create_consts_for takes them): the values are part of
 * the key, the problem's pad value is not (those plans never read it). */
NDPAD_INTERNAL bool ndpad_plan_cache_get_consts(const ndpad_problem *problem, int32_t kind,
                                                int32_t axis, const void *values,
                                                ndpad_cached_plan *cached);

/* Frees what a hit of ndpad_plan_cache_get() allocated (rebuilt stream tables). */
NDPAD_INTERNAL void ndpad_plan_cache_release(ndpad_cached_plan *cached);

/* Remembers `plan`, made from `problem` with default options, if it is small enough to be
 * worth it (evicting the oldest entry). Thread-safe. */
NDPAD_INTERNAL void ndpad_plan_cache_put(const ndpad_problem *problem, const ndpad_plan *plan);

/* ndpad_plan_cache_put() for a plan of ndpad_plan_create_consts_for(problem, kind, axis,
 * values, NULL, ...). */
NDPAD_INTERNAL void ndpad_plan_cache_put_consts(const ndpad_problem *problem, int32_t kind,
                                                int32_t axis, const void *values,
                                                const ndpad_plan *plan);

#endif
