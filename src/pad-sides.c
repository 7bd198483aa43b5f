/* Constants per axis and side (numpy.pad's constant_values=((a, b), (c, d), ...)) and per
 * output index along one axis, in one call: a plan with those constants (planner.c), whose
 * rows the row executor writes with each row's values (executor.c); without side values,
 * an ordinary one-shot pad. */
#include "plan.h"

ndpad_status ndpad_pad_sides(const ndpad_problem *problem, const void *side_values,
                             const ndpad_options *options, const void *in, void *out)
{
    const char *const caller = __func__;
    ndpad_plan *plan = NULL;
    ndpad_status status;
    if (side_values == NULL && options == NULL) return ndpad_pad_for(problem, in, out, caller);
    if (side_values == NULL)
        status = ndpad_plan_create_for(problem, options, &plan, caller);
    else
        status = ndpad_plan_create_consts_for(problem, NDPAD_CONSTS_SIDES, 0, side_values, options,
                                              &plan, caller);
    if (status == NDPAD_OK) status = ndpad_execute_for(plan, in, out, caller);
    ndpad_plan_destroy(plan);
    return status;
}

ndpad_status ndpad_pad_per_index(const ndpad_problem *problem, int32_t axis, const void *values,
                                 const ndpad_options *options, const void *in, void *out)
{
    const char *const caller = __func__;
    ndpad_plan *plan = NULL;
    ndpad_status status = ndpad_plan_create_consts_for(problem, NDPAD_CONSTS_INDEX, axis, values,
                                                       options, &plan, caller);
    if (status == NDPAD_OK) status = ndpad_execute_for(plan, in, out, caller);
    ndpad_plan_destroy(plan);
    return status;
}
