/* The one-call entry points and execution: validate, plan, run. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "plan-cache.h"
#include "plan.h"

ndpad_status ndpad_output_shape(const ndpad_problem *problem, int64_t *out_shape)
{
    const char *const caller = __func__;
    ndpad_status status = NDPAD_OK;
    ndpad_valid_problem valid;
    NDPAD_FORWARD(ndpad_problem_validate(problem, caller, &valid));
    if (valid.rank > 0 && out_shape == NULL)
        NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "out_shape is NULL with rank = %d", (int)valid.rank);
    for (int32_t k = 0; k < valid.rank; k++) out_shape[k] = valid.axis[k].n;
    return NDPAD_OK;
fail:
    return status;
}

ndpad_status ndpad_execute_for(const ndpad_plan *plan, const void *in, void *out,
                               const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (plan == NULL) NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "plan is NULL");
    if (plan->empty) return NDPAD_OK;
    if (out == NULL)
        NDPAD_FAIL(NDPAD_ERR_NULL_BUFFER, "out is NULL but the output has %lld elements",
                   (long long)plan->out_elems);
    if (in == NULL && plan->reads_input)
        NDPAD_FAIL(NDPAD_ERR_NULL_BUFFER, "in is NULL but the output copies input elements");

    /* In-place padding: the input already sits in the output's interior. */
    const bool in_place = plan->inplace_capable && in != NULL &&
                          (uintptr_t)in == (uintptr_t)out + (uintptr_t)plan->inplace_offset;
    const char *source = plan->reads_input ? (const char *)in + plan->in_offset : NULL;
    ndpad_run(plan, source, (char *)out, in_place);
    return NDPAD_OK;
fail:
    return status;
}

ndpad_status ndpad_execute(const ndpad_plan *plan, const void *in, void *out)
{
    return ndpad_execute_for(plan, in, out, __func__);
}

ndpad_status ndpad_pad_for(const ndpad_problem *problem, const void *in, void *out,
                           const char *caller)
{
    ndpad_cached_plan cached; /* small outputs: a recent plan of the same problem */
    if (ndpad_plan_cache_get(problem, &cached)) {
        const ndpad_status status = ndpad_execute_for(&cached.plan, in, out, caller);
        ndpad_plan_cache_release(&cached);
        return status;
    }
    ndpad_plan *plan = NULL;
    ndpad_status status = ndpad_plan_create_for(problem, NULL, &plan, caller);
    if (status == NDPAD_OK) status = ndpad_execute_for(plan, in, out, caller);
    if (status == NDPAD_OK) ndpad_plan_cache_put(problem, plan);
    ndpad_plan_destroy(plan);
    return status;
}

ndpad_status ndpad_pad(const ndpad_problem *problem, const void *in, void *out)
{
    return ndpad_pad_for(problem, in, out, __func__);
}

ndpad_status ndpad_plan_info(const ndpad_plan *plan, struct ndpad_plan_info *info)
{
    const char *const caller = __func__;
    ndpad_status status = NDPAD_OK;
    /* The first version of the struct ends after `streaming`; later ones append. */
    const size_t first_version =
        offsetof(struct ndpad_plan_info, streaming) + sizeof(info->streaming);
    if (plan == NULL) NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "plan is NULL");
    if (info == NULL) NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "info is NULL");
    if (info->size < first_version)
        NDPAD_FAIL(NDPAD_ERR_OPTIONS,
                   "info->size = %zu is smaller than the %zu bytes of the "
                   "first struct ndpad_plan_info (set it to sizeof(struct ndpad_plan_info))",
                   info->size, first_version);
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const bool whole_rows = plan->tile.cols >= row->n; /* the stream path runs whole rows */
    struct ndpad_plan_info all = {
        .size = info->size < sizeof(all) ? info->size : sizeof(all),
        .isa = (int32_t)plan->isa,
        .threads = plan->tile.threads,
        .tile_rows = plan->tile.rows,
        .tile_cols = plan->tile.cols,
        .tiles = ndpad_plan_tile_count(plan),
        .tile_source = plan->tile_source,
        .streaming = plan->tile.nt != 0,
        .interior_copy = plan->tile.copy,
        .stream_path = plan->stream != NULL && !plan->tile.rows_path && whole_rows,
        .plan_bytes = ndpad_plan_heap_bytes(plan),
    };
    memcpy(info, &all, all.size); /* only what the caller's version of the struct holds */
    return NDPAD_OK;
fail:
    return status;
}
