/* The public entry points of sub-byte elements (ndpad.h, "SUB-BYTE ELEMENTS"). Options are
 * read exactly as ndpad_plan_create() reads them: the same checks, the ISA resolved with
 * NDPAD_ISA, and the thread policy (budget, schedule, host pool) of task-runner.h. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bits-plan.h"
#include "bits-problem.h"
#include "bits-run.h"
#include "isa.h"
#include "plan.h"

/* The facts of `options`. */
static ndpad_status read_options(const ndpad_options *options, ndpad_bits_plan *plan,
                                 const char *caller)
{
    ndpad_status status = NDPAD_OK;
    ndpad_options o;
    ndpad_options_init(&o);
    if (options != NULL) {
        o = *options;
        if (o.tuning < NDPAD_TUNING_CACHE || o.tuning > NDPAD_TUNING_MEASURE)
            NDPAD_FAIL(NDPAD_ERR_OPTIONS,
                       "options.tuning = %d is not an ndpad_tuning (0 cache, 1 heuristic, "
                       "2 measure)",
                       (int)o.tuning);
    }
    NDPAD_FORWARD(ndpad_options_check(&o, caller));
    NDPAD_FORWARD(ndpad_isa_resolve(o.isa, caller, &plan->isa));
    ndpad_thread_policy_resolve(&o, &plan->policy);
    const int32_t threads = plan->policy.threads > 0 ? plan->policy.threads : 1;
    plan->threads = ndpad_thread_policy_cap(&plan->policy, threads);
fail:
    return status;
}

/* Does some output element read the input? Per axis, some output index has a source. */
static bool reads_input(const ndpad_bits_plan *plan)
{
    if (plan->empty) return false;
    if (plan->mode != NDPAD_CONSTANT) return true;
    for (int32_t k = 0; k < plan->rank; k++) {
        const ndpad_axis *a = &plan->axis[k];
        if (a->d == 0) return false;
        const __int128 step = (__int128)a->r + 1;
        const __int128 first = a->b >= 0 ? 0 : ((__int128)-a->b + step - 1) / step;
        if (first >= a->d || a->b + first * step >= a->n) return false;
    }
    return true;
}

/* In place is possible: pads >= 0, no interior, the same strides; then in's first bit is
 * out's first bit plus sum_k b_k out_stride_k bits. */
static void plan_in_place(ndpad_bits_plan *plan)
{
    __int128 bits = 0;
    plan->may_be_in_place = false;
    if (plan->empty) return;
    for (int32_t k = 0; k < plan->rank; k++) {
        const ndpad_axis *a = &plan->axis[k];
        if (a->b < 0 || a->e < 0 || a->r != 0 || a->d == 0) return;
        if (a->d > 1 && a->in_stride != a->out_stride) return;
        bits += (__int128)a->b * a->out_stride * plan->bits;
    }
    if (bits > INT64_MAX) return;
    plan->may_be_in_place = true;
    plan->in_place_bits = (int64_t)bits;
}

static ndpad_status create(const ndpad_bits_problem *problem, const ndpad_options *options,
                           ndpad_bits_plan **result, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    ndpad_bits_plan *plan = NULL;
    ndpad_bits_valid v;
    if (result == NULL) NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "plan (the result pointer) is NULL");
    *result = NULL;
    NDPAD_FORWARD(ndpad_bits_validate(problem, caller, &v));
    plan = ndpad_calloc(1, sizeof(*plan));
    if (plan == NULL) NDPAD_FAIL(NDPAD_ERR_OUT_OF_MEMORY, "no memory for the plan");
    NDPAD_FORWARD(read_options(options, plan, caller));
    plan->mode = v.core.mode;
    plan->bits = v.bits;
    plan->pad_value = v.pad_value;
    plan->in_bit_offset = v.in_bit_offset;
    plan->out_bit_offset = v.out_bit_offset;
    plan->rank = v.core.rank;
    memcpy(plan->axis, v.core.axis, sizeof(plan->axis));
    if (plan->rank == 0) {
        /* one element, copied: an axis of one element, no pads */
        plan->rank = 1;
        plan->mode = NDPAD_CONSTANT;
        plan->axis[0] = (ndpad_axis){.d = 1, .dilated = 1, .n = 1, .in_stride = 1, .out_stride = 1};
    }
    plan->empty = v.core.out_elems == 0;
    /* the outer extents' product; an empty output's may overflow (another axis is 0) */
    plan->rows = 0;
    if (!plan->empty) {
        plan->rows = 1;
        for (int32_t k = 0; k + 1 < plan->rank; k++) plan->rows *= plan->axis[k].n;
    }
    plan->reads_input = reads_input(plan);
    plan_in_place(plan);
    plan->kernels = ndpad_bits_kernels_select(plan->isa);
    ndpad_bits_plan_tiles(plan, options != NULL ? options->tile_rows : 0);
    *result = plan;
    return NDPAD_OK;
fail:
    ndpad_free(plan);
    return status;
}

ndpad_status ndpad_bits_plan_create(const ndpad_bits_problem *problem, const ndpad_options *options,
                                    ndpad_bits_plan **plan)
{
    return create(problem, options, plan, __func__);
}

static ndpad_status execute(const ndpad_bits_plan *plan, const void *in, void *out,
                            const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (plan == NULL) NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "plan is NULL");
    if (plan->empty) return NDPAD_OK;
    if (out == NULL)
        NDPAD_FAIL(NDPAD_ERR_NULL_BUFFER, "out is NULL but the output has %lld rows",
                   (long long)plan->rows);
    if (in == NULL && plan->reads_input)
        NDPAD_FAIL(NDPAD_ERR_NULL_BUFFER, "in is NULL but output elements are read from it");
    ndpad_bits_run(plan, (const uint8_t *)in, (uint8_t *)out);
fail:
    return status;
}

ndpad_status ndpad_bits_execute(const ndpad_bits_plan *plan, const void *in, void *out)
{
    return execute(plan, in, out, __func__);
}

void ndpad_bits_plan_destroy(ndpad_bits_plan *plan)
{
    ndpad_free(plan);
}

ndpad_isa ndpad_bits_plan_isa(const ndpad_bits_plan *plan)
{
    return plan != NULL ? plan->isa : NDPAD_ISA_SCALAR;
}

ndpad_status ndpad_bits_output_shape(const ndpad_bits_problem *problem, int64_t *out_shape)
{
    const char *const caller = __func__;
    ndpad_status status = NDPAD_OK;
    ndpad_bits_valid v;
    NDPAD_FORWARD(ndpad_bits_validate(problem, caller, &v));
    if (v.core.rank > 0 && out_shape == NULL)
        NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "out_shape is NULL");
    for (int32_t k = 0; k < v.core.rank; k++) out_shape[k] = v.core.axis[k].n;
fail:
    return status;
}

ndpad_status ndpad_bits_pad_for(const ndpad_bits_problem *problem, const ndpad_options *options,
                                const void *in, void *out, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    ndpad_bits_plan *plan = NULL;
    NDPAD_FORWARD(create(problem, options, &plan, caller));
    NDPAD_FORWARD(execute(plan, in, out, caller));
fail:
    ndpad_bits_plan_destroy(plan);
    return status;
}

ndpad_status ndpad_bits_pad(const ndpad_bits_problem *problem, const ndpad_options *options,
                            const void *in, void *out)
{
    return ndpad_bits_pad_for(problem, options, in, out, __func__);
}
