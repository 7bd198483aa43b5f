/* The one-call entry points and execution: validate, plan, run. */
#include <stdint.h>

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
    ndpad_plan *plan = NULL;
    ndpad_status status = ndpad_plan_create_for(problem, NULL, &plan, caller);
    if (status == NDPAD_OK) status = ndpad_execute_for(plan, in, out, caller);
    ndpad_plan_destroy(plan);
    return status;
}

ndpad_status ndpad_pad(const ndpad_problem *problem, const void *in, void *out)
{
    return ndpad_pad_for(problem, in, out, __func__);
}
