/* Plan creation: validate, normalise, pick kernels and a tile shape. Everything the
 * executor needs is decided here, once, so execution does no planning work. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime (stopwatch.h) in strict C11 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "isa.h"
#include "const-map.h"
#include "plan.h"
#include "stream-plan.h"
#include "measure.h"
#include "tile-choice.h"
#include "wisdom.h"

/* The options' ABI: 88 bytes, the fields appended in the reserved area at fixed offsets. */
_Static_assert(sizeof(ndpad_options) == 88, "ndpad_options keeps its size");
_Static_assert(offsetof(ndpad_options, reserved) == 24, "reserved stays where it was");
_Static_assert(offsetof(ndpad_options, tuning) == 28, "tuning shares reserved[0]");
_Static_assert(offsetof(ndpad_options, schedule) == 32, "schedule is reserved[1]'s low half");
_Static_assert(sizeof(void *) != 8 || offsetof(ndpad_options, thread_pool) == 40,
               "thread_pool is reserved[2]");

ndpad_status ndpad_options_check(const ndpad_options *options, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (options == NULL) return NDPAD_OK;
    if (options->threads < 0)
        NDPAD_FAIL(NDPAD_ERR_OPTIONS, "options.threads = %d is negative (0 means all cores)",
                   (int)options->threads);
    if (options->tile_rows < 0)
        NDPAD_FAIL(NDPAD_ERR_OPTIONS,
                   "options.tile_rows = %lld is negative (0 means the "
                   "planner's choice)",
                   (long long)options->tile_rows);
    if (options->tile_cols < 0)
        NDPAD_FAIL(NDPAD_ERR_OPTIONS,
                   "options.tile_cols = %lld is negative (0 means the "
                   "planner's choice)",
                   (long long)options->tile_cols);
    if (options->reserved32 != 0)
        NDPAD_FAIL(NDPAD_ERR_OPTIONS,
                   "options.reserved32 = %d must be zero (the low half of "
                   "options.reserved[0]; initialise options with ndpad_options_init)",
                   (int)options->reserved32);
    if (options->tuning < NDPAD_TUNING_CACHE || options->tuning > NDPAD_TUNING_MEASURE)
        NDPAD_FAIL(NDPAD_ERR_OPTIONS,
                   "options.tuning = %d is not an ndpad_tuning (0 cache, "
                   "1 heuristic, 2 measure)",
                   (int)options->tuning);
    NDPAD_FORWARD(ndpad_schedule_check(options->schedule, caller));
    if (options->reserved32b != 0)
        NDPAD_FAIL(NDPAD_ERR_OPTIONS,
                   "options.reserved32b = %d must be zero (the high half of "
                   "options.reserved[1]; initialise options with ndpad_options_init)",
                   (int)options->reserved32b);
    if (options->thread_pool != NULL)
        NDPAD_FORWARD(ndpad_thread_pool_check(options->thread_pool, "options.thread_pool", caller));
    /* reserved[1] holds schedule and reserved32b, reserved[2] thread_pool */
    for (size_t k = 3; k < sizeof(options->reserved) / sizeof(options->reserved[0]); k++)
        if (options->reserved[k] != 0)
            NDPAD_FAIL(NDPAD_ERR_OPTIONS,
                       "options.reserved[%zu] = %lld must be zero "
                       "(initialise options with ndpad_options_init)",
                       k, (long long)options->reserved[k]);
fail:
    return status;
}

/* options.tuning left at CACHE (the default): NDPAD_TUNING=heuristic|cache may choose
 * instead, as NDPAD_ISA does for the ISA. A value it does not know is a wisdom warning, not
 * an error: the choice only changes speed. */
static int32_t tuning_from_environment(const char *caller)
{
    const char *env = getenv("NDPAD_TUNING");
    if (env == NULL || env[0] == '\0' || strcmp(env, "cache") == 0) return NDPAD_TUNING_CACHE;
    if (strcmp(env, "heuristic") == 0) return NDPAD_TUNING_HEURISTIC;
    static atomic_flag warned = ATOMIC_FLAG_INIT; /* one warning per process */
    if (atomic_flag_test_and_set(&warned)) return NDPAD_TUNING_CACHE;
    char warn[200];
    snprintf(warn, sizeof(warn),
             "%s: NDPAD_TUNING = \"%.32s\" is neither \"heuristic\" nor "
             "\"cache\"; using the cache",
             caller, env);
    ndpad_wisdom_warn(warn);
    return NDPAD_TUNING_CACHE;
}

/* A new plan of the validated problem: its fields, the normalised axes and the kernels. */
static ndpad_status new_plan(const ndpad_valid_problem *valid, ndpad_isa isa,
                             const ndpad_options *options, ndpad_const_map *consts,
                             const char *caller, ndpad_plan **result)
{
    ndpad_status status = NDPAD_OK;
    ndpad_plan *plan = ndpad_calloc(1, sizeof(*plan));
    if (plan == NULL) NDPAD_FAIL(NDPAD_ERR_OUT_OF_MEMORY, "no memory for the plan");
    plan->mode = valid->mode;
    plan->isa = isa;
    plan->rank = valid->rank;
    plan->problem_elem_size = valid->elem_size;
    plan->out_elems = valid->out_elems;
    ndpad_thread_policy_resolve(options, &plan->policy);
    plan->consts = consts; /* the normaliser keeps what the constants need */
    ndpad_normalize(valid, plan);
    plan->kernels = ndpad_kernels_select(isa, plan->elem_size);
    *result = plan;
fail:
    return status;
}

/* CONSTANT's pad value, copied (or zero). CONSTANT never folds axes into the element, so
 * the pattern is one element. An empty output never executes, so it needs none (elem_size
 * may be huge there). */
static ndpad_status copy_pad_value(ndpad_plan *plan, const ndpad_valid_problem *valid,
                                   const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (plan->mode != NDPAD_CONSTANT || plan->empty) return NDPAD_OK;
    plan->pad_value = ndpad_malloc(plan->elem_size);
    if (plan->pad_value == NULL)
        NDPAD_FAIL(NDPAD_ERR_OUT_OF_MEMORY, "no memory for the %zu-byte pad value",
                   plan->elem_size);
    if (valid->pad_value != NULL)
        memcpy(plan->pad_value, valid->pad_value, plan->elem_size);
    else
        memset(plan->pad_value, 0, plan->elem_size);
fail:
    return status;
}

/* Measure this class now, remember it, save it (a failed save is only a warning). */
static void measure_tile(ndpad_plan *plan, const char *caller)
{
    ndpad_tune_result tuned;
    /* On a loaded machine nothing is stored and the heuristic stays (refused). */
    if (!ndpad_tune_plan(plan, 1.0, &tuned, NULL, NULL) || !tuned.stored) return;
    plan->tile = tuned.tuned_tile;
    plan->tile_source = NDPAD_TILE_MEASURED;
    if (ndpad_wisdom_save_for(NULL, caller) != NDPAD_OK) {
        char warn[600];
        snprintf(warn, sizeof(warn), "%s: wisdom not saved: %s", caller, ndpad_last_error());
        ndpad_wisdom_warn(warn);
    }
}

/* The tile the wisdom cache holds for this class, if any, fitted to the plan. */
static bool tile_from_wisdom(ndpad_plan *plan)
{
    const ndpad_wisdom_key key = ndpad_wisdom_key_of(plan);
    ndpad_tile tile;
    if (!ndpad_wisdom_lookup(&key, &tile)) return false;
    plan->tile = ndpad_tile_fit(plan, tile);
    plan->tile_source = NDPAD_TILE_WISDOM;
    return true;
}

/* The tile shape the options force, on every thread they allow. */
static void force_tile(ndpad_plan *plan, const ndpad_options *options)
{
    if (options->tile_rows > 0) plan->tile.rows = options->tile_rows;
    if (options->tile_cols > 0) plan->tile.cols = options->tile_cols;
    plan->tile = ndpad_tile_fit(plan, plan->tile);
    /* A forced shape runs on every thread the options allow, tiny output or not. */
    plan->tile.threads = plan->policy.threads;
    plan->tile_source = NDPAD_TILE_FORCED;
}

/* The tile shape: forced by the options, else measured, from wisdom or the heuristic's, as
 * options.tuning (or NDPAD_TUNING) asks. */
static void choose_tile(ndpad_plan *plan, const ndpad_options *options, const char *caller)
{
    plan->tile = ndpad_tile_default(plan);
    plan->tile_source = NDPAD_TILE_HEURISTIC;
    const int32_t tuning = options != NULL && options->tuning != NDPAD_TUNING_CACHE
                               ? options->tuning
                               : tuning_from_environment(caller);
    const bool forced = options != NULL && (options->tile_rows > 0 || options->tile_cols > 0);
    if (forced) force_tile(plan, options);
    /* A class already tuned is not measured again (re-tuning is ndpad-tune's job). */
    else if (!plan->empty && tuning == NDPAD_TUNING_MEASURE) {
        if (!tile_from_wisdom(plan)) measure_tile(plan, caller);
    } else if (!plan->empty && tuning == NDPAD_TUNING_CACHE)
        tile_from_wisdom(plan);
}

/* Whether the output-stream path may serve the plan. With constants per side or index
 * (whose kept axes of one element the strategies do not expect) only when every axis has
 * more than one element: its kernels write with the plan's one pad value, and the row
 * executor writes the constants of each batch after them (executor.c). */
static bool stream_serves(const ndpad_plan *plan)
{
    if (plan->consts == NULL) return true;
    for (int32_t k = 0; k < plan->ndim; k++)
        if (plan->dim[k].n < 2) return false;
    return true;
}

/* Plan creation; `kind` 0 for one constant, else an ndpad_consts_kind with its axis and
 * values. */
static ndpad_status plan_create(const ndpad_problem *problem, int32_t kind, int32_t axis,
                                const void *values, const ndpad_options *options,
                                ndpad_plan **result, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    ndpad_plan *plan = NULL;
    ndpad_const_map *consts = NULL;
    ndpad_valid_problem valid;
    ndpad_isa isa = NDPAD_ISA_SCALAR;

    if (result == NULL) NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "plan (the result pointer) is NULL");
    *result = NULL;
    NDPAD_FORWARD(ndpad_problem_validate(problem, caller, &valid));
    if (kind != 0) NDPAD_FORWARD(ndpad_consts_check(problem, &valid, kind, axis, values, caller));
    /* the problem's pad_value is unused with constants (the header): the plan's one pad
     * value, which the output-stream kernels write before the constants, is zero bytes */
    if (kind != 0) valid.pad_value = NULL;
    NDPAD_FORWARD(ndpad_options_check(options, caller));
    NDPAD_FORWARD(ndpad_isa_resolve(options != NULL ? options->isa : NDPAD_ISA_AUTO, caller, &isa));
    if (kind != 0) NDPAD_FORWARD(ndpad_const_map_new(&valid, kind, axis, values, caller, &consts));
    NDPAD_FORWARD(new_plan(&valid, isa, options, consts, caller, &plan));
    consts = NULL; /* the plan's now */
    NDPAD_FORWARD(copy_pad_value(plan, &valid, caller));
    /* Constants per side or index run on the row executor, which writes them per row; the
     * output-stream strategies bake one pad value into their tables. */
    if (plan->consts != NULL) NDPAD_FORWARD(ndpad_const_map_finish(plan, caller));
    if (stream_serves(plan)) NDPAD_FORWARD(ndpad_stream_plan(plan, &plan->stream, caller));
    choose_tile(plan, options, caller);
    plan->tile.threads = ndpad_thread_policy_cap(&plan->policy, plan->tile.threads);
    plan->solo_nt = plan->tile_source == NDPAD_TILE_FORCED || plan->tile.threads <= 1
                        ? -1
                        : (int8_t)ndpad_tile_streams_alone(plan);
    *result = plan;
    return NDPAD_OK;

fail:
    ndpad_const_map_destroy(consts);
    ndpad_plan_destroy(plan);
    return status;
}

ndpad_status ndpad_plan_create_for(const ndpad_problem *problem, const ndpad_options *options,
                                   ndpad_plan **result, const char *caller)
{
    return plan_create(problem, 0, 0, NULL, options, result, caller);
}

ndpad_status ndpad_plan_create_consts_for(const ndpad_problem *problem, int32_t kind, int32_t axis,
                                          const void *values, const ndpad_options *options,
                                          ndpad_plan **result, const char *caller)
{
    return plan_create(problem, kind, axis, values, options, result, caller);
}

ndpad_status ndpad_plan_create(const ndpad_problem *problem, const ndpad_options *options,
                               ndpad_plan **plan)
{
    return ndpad_plan_create_for(problem, options, plan, __func__);
}

ndpad_status ndpad_plan_create_sides(const ndpad_problem *problem, const void *side_values,
                                     const ndpad_options *options, ndpad_plan **plan)
{
    return plan_create(problem, NDPAD_CONSTS_SIDES, 0, side_values, options, plan, __func__);
}

ndpad_status ndpad_plan_create_per_index(const ndpad_problem *problem, int32_t axis,
                                         const void *values, const ndpad_options *options,
                                         ndpad_plan **plan)
{
    return plan_create(problem, NDPAD_CONSTS_INDEX, axis, values, options, plan, __func__);
}

void ndpad_plan_destroy(ndpad_plan *plan)
{
    if (plan == NULL) return;
    ndpad_free(plan->pad_value);
    ndpad_stream_destroy(plan->stream);
    ndpad_const_map_destroy(plan->consts);
    ndpad_free(plan);
}

int64_t ndpad_plan_heap_bytes(const ndpad_plan *plan)
{
    return (int64_t)sizeof(*plan) + (plan->pad_value != NULL ? (int64_t)plan->elem_size : 0) +
           (plan->stream != NULL ? plan->stream->bytes : 0) +
           (plan->consts != NULL ? plan->consts->heap_bytes : 0);
}

void ndpad_options_init(ndpad_options *options)
{
    if (options != NULL) memset(options, 0, sizeof(*options));
}

ndpad_isa ndpad_plan_isa(const ndpad_plan *plan)
{
    return plan != NULL ? plan->isa : NDPAD_ISA_SCALAR;
}
