/* The constants of plans with constants per side or per index (plan.h's ndpad_const_map):
 * their arguments checked, the values copied (spread over 16 bytes where borders are
 * written by moves), and the row axis's pattern once the problem is normalised. */
#include "const-map.h"

#include <string.h>

#include "alloc.h"

/* The arguments of constants per side or per index, checked against the valid problem. */
ndpad_status ndpad_consts_check(const ndpad_problem *problem, const ndpad_valid_problem *v,
                                int32_t kind, int32_t axis, const void *values, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    const char *const what = kind == NDPAD_CONSTS_SIDES ? "side_values" : "values";
    const char *const need =
        kind == NDPAD_CONSTS_SIDES ? "constants per side need" : "constants per index need";
    if (kind == NDPAD_CONSTS_INDEX && (axis < 0 || axis >= v->rank))
        NDPAD_FAIL(NDPAD_ERR_AXES, "axis = %d is outside [0, rank = %d) (the axis of the values)",
                   (int)axis, (int)v->rank);
    if (values == NULL) {
        if (kind == NDPAD_CONSTS_SIDES)
            NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT,
                       "side_values is NULL (2 x rank = %d values of elem_size bytes)",
                       (int)(2 * v->rank));
        NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT,
                   "values is NULL (one value per output index of axis %d, %lld of them)",
                   (int)axis, (long long)v->axis[axis].n);
    }
    if (v->mode != NDPAD_CONSTANT) {
        if (kind == NDPAD_CONSTS_SIDES)
            NDPAD_FAIL(NDPAD_ERR_MODE, "%s given with mode = %d (%s); %s NDPAD_CONSTANT", what,
                       (int)v->mode, ndpad_mode_name((ndpad_mode)v->mode), need);
        NDPAD_FAIL(NDPAD_ERR_MODE, "%s along axis %d given with mode = %d (%s); %s NDPAD_CONSTANT",
                   what, (int)axis, (int)v->mode, ndpad_mode_name((ndpad_mode)v->mode), need);
    }
    for (int32_t k = 0; k < v->rank && kind == NDPAD_CONSTS_SIDES; k++)
        if (problem->interior != NULL && problem->interior[k] != 0)
            NDPAD_FAIL(NDPAD_ERR_INTERIOR_MODE,
                       "interior[%d] = %lld with side_values; constants per side take no "
                       "interior padding (its holes belong to no side)",
                       (int)k, (long long)problem->interior[k]);
fail:
    return status;
}

/* The constants' map before normalisation: a copy of the values (none for an empty output,
 * which never executes and whose extents need not multiply). */
ndpad_status ndpad_const_map_new(const ndpad_valid_problem *v, int32_t kind, int32_t axis,
                                 const void *values, const char *caller, ndpad_const_map **result)
{
    ndpad_status status = NDPAD_OK;
    ndpad_const_map *m = ndpad_calloc(1, sizeof(*m));
    if (m == NULL) NDPAD_FAIL(NDPAD_ERR_OUT_OF_MEMORY, "no memory for the constants");
    *result = m;
    m->kind = kind;
    m->axis = axis;
    m->index_dim = -1;
    m->heap_bytes = (int64_t)sizeof(*m);
    if (v->out_elems == 0) return NDPAD_OK;
    /* both counts are at most the output's elements, whose bytes fit */
    const int64_t count = kind == NDPAD_CONSTS_SIDES ? 2 * (int64_t)v->rank : v->axis[axis].n;
    m->axis_n = kind == NDPAD_CONSTS_INDEX ? count : 0;
    const size_t es = v->elem_size;
    const bool spread = 16 % es == 0 && count <= NDPAD_CONSTS_SPREAD_MAX;
    m->value_stride = spread ? 16 : (int64_t)es;
    const size_t bytes = (size_t)count * (size_t)m->value_stride;
    m->values = ndpad_malloc(bytes > 0 ? bytes : 1);
    if (m->values == NULL)
        NDPAD_FAIL(NDPAD_ERR_OUT_OF_MEMORY, "no memory for the %zu bytes of %s", bytes,
                   kind == NDPAD_CONSTS_SIDES ? "side_values" : "values");
    for (int64_t i = 0; i < count; i++)
        for (size_t b = 0; b < (size_t)m->value_stride; b += es)
            memcpy(m->values + (size_t)i * (size_t)m->value_stride + b,
                   (const unsigned char *)values + (size_t)i * es, es);
    m->heap_bytes += (int64_t)bytes;
    m->values_bytes = (int64_t)bytes;
fail:
    return status;
}

/* After normalisation: which axis holds the per-index axis, and for the row axis the
 * pattern of its constants (whole periods, at least NDPAD_CONSTS_PATTERN_MIN bytes). */
ndpad_status ndpad_const_map_finish(ndpad_plan *plan, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    ndpad_const_map *m = plan->consts;
    if (m->kind != NDPAD_CONSTS_INDEX || plan->empty) return NDPAD_OK;
    for (int32_t k = 0; k < plan->ndim; k++)
        if (plan->dim[k].index_div != 0) m->index_dim = k;
    if (m->index_dim != plan->ndim - 1) return NDPAD_OK;
    const size_t es = plan->elem_size;
    const int64_t div = plan->dim[m->index_dim].index_div;
    /* a period within the row: div x axis_n elements divide the row's n */
    m->period_elems = div * m->axis_n;
    const int64_t period_bytes = m->period_elems * (int64_t)es;
    const int64_t reps = (NDPAD_CONSTS_PATTERN_MIN + period_bytes - 1) / period_bytes;
    m->pattern_bytes = reps * period_bytes;
    /* and 16 bytes more of the pattern, so that a move of up to 16 bytes from any phase
     * reads what follows it */
    const int64_t elems = reps * m->period_elems + (16 + (int64_t)es - 1) / (int64_t)es;
    m->pattern = ndpad_malloc((size_t)(elems * (int64_t)es));
    if (m->pattern == NULL)
        NDPAD_FAIL(NDPAD_ERR_OUT_OF_MEMORY, "no memory for the %lld-byte pattern of values",
                   (long long)(elems * (int64_t)es));
    for (int64_t x = 0; x < elems; x++)
        memcpy(m->pattern + x * (int64_t)es, m->values + (x / div % m->axis_n) * m->value_stride,
               es);
    m->heap_bytes += elems * (int64_t)es;
    m->pattern_alloc = elems * (int64_t)es;
fail:
    return status;
}

void ndpad_const_map_destroy(ndpad_const_map *m)
{
    if (m == NULL) return;
    ndpad_free(m->values);
    ndpad_free(m->pattern);
    ndpad_free(m);
}
