/* Constants per axis and side (numpy.pad's constant_values=((a, b), (c, d), ...)) and per
 * output index along one axis, in one call: a plan with those constants (planner.c), whose
 * rows the row executor writes with each row's values (executor.c); without side values,
 * an ordinary one-shot pad. With default options a recent plan of the same problem and
 * values comes from the one-shot plan cache, as ndpad_pad()'s do (planning a small pad
 * costs more than running it: 3x32x32 fp32 per side, 4.2 us planned against 0.8). */
#include "plan-cache.h"
#include "plan.h"

static ndpad_status one_shot(const ndpad_problem *problem, int32_t kind, int32_t axis,
                             const void *values, const ndpad_options *options, const void *in,
                             void *out, const char *caller)
{
    if (options == NULL) {
        ndpad_cached_plan cached;
        if (ndpad_plan_cache_get_consts(problem, kind, axis, values, &cached)) {
            const ndpad_status status = ndpad_execute_for(&cached.plan, in, out, caller);
            ndpad_plan_cache_release(&cached);
            return status;
        }
    }
    ndpad_plan *plan = NULL;
    ndpad_status status =
        ndpad_plan_create_consts_for(problem, kind, axis, values, options, &plan, caller);
    if (status == NDPAD_OK) status = ndpad_execute_for(plan, in, out, caller);
    if (status == NDPAD_OK && options == NULL)
        ndpad_plan_cache_put_consts(problem, kind, axis, values, plan);
    ndpad_plan_destroy(plan);
    return status;
}

ndpad_status ndpad_pad_sides(const ndpad_problem *problem, const void *side_values,
                             const ndpad_options *options, const void *in, void *out)
{
    const char *const caller = __func__;
    if (side_values == NULL && options == NULL) return ndpad_pad_for(problem, in, out, caller);
    if (side_values != NULL)
        return one_shot(problem, NDPAD_CONSTS_SIDES, 0, side_values, options, in, out, caller);
    ndpad_plan *plan = NULL;
    ndpad_status status = ndpad_plan_create_for(problem, options, &plan, caller);
    if (status == NDPAD_OK) status = ndpad_execute_for(plan, in, out, caller);
    ndpad_plan_destroy(plan);
    return status;
}

ndpad_status ndpad_pad_per_index(const ndpad_problem *problem, int32_t axis, const void *values,
                                 const ndpad_options *options, const void *in, void *out)
{
    return one_shot(problem, NDPAD_CONSTS_INDEX, axis, values, options, in, out, __func__);
}
