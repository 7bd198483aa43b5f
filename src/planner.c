/* Plan creation: validate, normalise, pick kernels and a tile shape. Everything the
 * executor needs is decided here, once, so execution does no planning work. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "alloc.h"
#include "isa.h"
#include "plan.h"
#include "topology.h"
#include "wisdom.h"

/* Below this many output bytes a second thread costs more to start than it saves. */
#define NDPAD_PARALLEL_MIN_BYTES NDPAD_TINY_BYTES
/* Each thread should get at least this much output, and about this many tiles. */
#define NDPAD_BYTES_PER_THREAD ((int64_t)128 * 1024)
#define NDPAD_TILES_PER_THREAD 4
/* A row is split into column tiles only in pieces of at least this many bytes. */
#define NDPAD_MIN_COLUMN_TILE_BYTES ((int64_t)64 * 1024)
/* The per-core L2 size assumed when hwloc does not know it. */
#define NDPAD_L2_FALLBACK ((int64_t)1024 * 1024)

static int64_t ceil_div(int64_t a, int64_t b)
{
    return a / b + (a % b != 0);
}

ndpad_tile ndpad_tile_default(const ndpad_plan *plan)
{
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const int64_t row_bytes = row->n * (int64_t)plan->elem_size;
    const int64_t out_bytes = plan->empty ? 0 : plan->rows * row_bytes;
    ndpad_tile tile = {.rows = plan->rows > 0 ? plan->rows : 1,
                       .cols = row->n > 0 ? row->n : 1,
                       .threads = 1,
                       .stream = 0};
    /* Outputs beyond the last-level cache cannot stay cached anyway: stream them. */
    const ndpad_topology *topo = ndpad_topology_get();
    tile.stream = topo->llc_bytes != 0 && (uint64_t)out_bytes > (uint64_t)topo->llc_bytes;
    if (out_bytes < NDPAD_PARALLEL_MIN_BYTES || plan->max_threads <= 1) return tile;

    int64_t threads = out_bytes / NDPAD_BYTES_PER_THREAD;
    if (threads > plan->max_threads) threads = plan->max_threads;
    if (threads < 1) threads = 1;
    tile.threads = (int32_t)threads;
    /* About four tiles per thread, and more when that keeps a tile within one core's L2
     * (hwloc): a thread's block of tiles is then worked through in cache-sized pieces. A
     * multiple of the threads, so that schedule(static) gives every thread as many. */
    const int64_t l2 = topo->l2_bytes != 0 ? (int64_t)topo->l2_bytes : NDPAD_L2_FALLBACK;
    int64_t want_tiles = threads * NDPAD_TILES_PER_THREAD;
    if (ceil_div(out_bytes, l2) > want_tiles)
        want_tiles = ceil_div(ceil_div(out_bytes, l2), threads) * threads;
    if (plan->rows >= want_tiles) {
        tile.rows = ceil_div(plan->rows, want_tiles);
    } else {
        /* Few long rows: one row per tile, rows cut into column pieces. */
        tile.rows = 1;
        const int64_t pieces = ceil_div(want_tiles, plan->rows);
        int64_t cols = ceil_div(row->n, pieces);
        const int64_t min_cols = ceil_div(NDPAD_MIN_COLUMN_TILE_BYTES, (int64_t)plan->elem_size);
        if (cols < min_cols) cols = min_cols;
        tile.cols = cols < row->n ? cols : row->n;
    }
    return tile;
}

static int32_t default_threads(void)
{
    int32_t threads = ndpad_topology_get()->cores;
#ifdef _OPENMP
    const int omp_max = omp_get_max_threads();
    if (omp_max < threads) threads = omp_max;
#endif
    return threads > 0 ? threads : 1;
}

static ndpad_status check_options(const ndpad_options *options, const char *caller)
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
    for (size_t k = 1; k < sizeof(options->reserved) / sizeof(options->reserved[0]); k++)
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

ndpad_status ndpad_plan_create_for(const ndpad_problem *problem, const ndpad_options *options,
                                   ndpad_plan **result, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    ndpad_plan *plan = NULL;
    ndpad_valid_problem valid;
    ndpad_isa isa = NDPAD_ISA_SCALAR;

    if (result == NULL) NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "plan (the result pointer) is NULL");
    *result = NULL;
    NDPAD_FORWARD(ndpad_problem_validate(problem, caller, &valid));
    NDPAD_FORWARD(check_options(options, caller));
    NDPAD_FORWARD(ndpad_isa_resolve(options != NULL ? options->isa : NDPAD_ISA_AUTO, caller, &isa));

    plan = ndpad_calloc(1, sizeof(*plan));
    if (plan == NULL) NDPAD_FAIL(NDPAD_ERR_OUT_OF_MEMORY, "no memory for the plan");
    plan->mode = valid.mode;
    plan->isa = isa;
    plan->rank = valid.rank;
    plan->problem_elem_size = valid.elem_size;
    plan->out_elems = valid.out_elems;
    plan->inplace_capable = valid.inplace_capable;
    plan->inplace_offset = valid.inplace_offset;
    plan->max_threads =
        options != NULL && options->threads > 0 ? options->threads : default_threads();
    ndpad_normalize(&valid, plan);
    plan->kernels = ndpad_kernels_select(isa, plan->elem_size);

    if (plan->mode == NDPAD_CONSTANT && !plan->empty) {
        /* CONSTANT never folds axes into the element, so the pattern is one element. An
         * empty output never executes, so it needs none (elem_size may be huge there). */
        plan->pad_value = ndpad_malloc(plan->elem_size);
        if (plan->pad_value == NULL)
            NDPAD_FAIL(NDPAD_ERR_OUT_OF_MEMORY, "no memory for the %zu-byte pad value",
                       plan->elem_size);
        if (valid.pad_value != NULL)
            memcpy(plan->pad_value, valid.pad_value, plan->elem_size);
        else
            memset(plan->pad_value, 0, plan->elem_size);
    }

    plan->tile = ndpad_tile_default(plan);
    plan->tile_source = NDPAD_TILE_HEURISTIC;
    const int32_t tuning = options != NULL && options->tuning != NDPAD_TUNING_CACHE
                               ? options->tuning
                               : tuning_from_environment(caller);
    const bool forced = options != NULL && (options->tile_rows > 0 || options->tile_cols > 0);
    if (!forced && !plan->empty && tuning == NDPAD_TUNING_MEASURE) {
        /* Measure this class now, remember it, save it (a failed save is only a warning). */
        ndpad_tune_result tuned;
        if (ndpad_tune_plan(plan, 1.0, &tuned, NULL, NULL)) {
            plan->tile = tuned.tuned_tile;
            plan->tile_source = NDPAD_TILE_MEASURED;
            if (!ndpad_wisdom_save(NULL, caller)) {
                char warn[600];
                snprintf(warn, sizeof(warn), "%s: wisdom not saved: %s", caller,
                         ndpad_last_error());
                ndpad_wisdom_warn(warn);
            }
        }
    } else if (!forced && !plan->empty && tuning == NDPAD_TUNING_CACHE) {
        const ndpad_wisdom_key key = ndpad_wisdom_key_of(plan);
        ndpad_tile tile;
        if (ndpad_wisdom_lookup(&key, &tile)) {
            plan->tile = ndpad_tile_fit(plan, tile);
            plan->tile_source = NDPAD_TILE_WISDOM;
        }
    }
    if (forced) {
        const ndpad_dim *row = &plan->dim[plan->ndim - 1];
        if (options->tile_rows > 0)
            plan->tile.rows = options->tile_rows < plan->rows ? options->tile_rows : plan->rows;
        if (options->tile_cols > 0)
            plan->tile.cols = options->tile_cols < row->n ? options->tile_cols : row->n;
        if (plan->tile.rows < 1) plan->tile.rows = 1;
        if (plan->tile.cols < 1) plan->tile.cols = 1;
        /* A forced shape runs on every thread the options allow. */
        plan->tile.threads = plan->max_threads;
        plan->tile_source = NDPAD_TILE_FORCED;
    }
#ifdef _OPENMP
    /* options.threads is an upper bound: a team never has more threads than the processors
     * this process may run on (INT32_MAX threads would make the OpenMP runtime fail or
     * crash). Asked here, once: omp_get_num_procs() is a system call. */
    if (plan->tile.threads > 1) {
        const int procs = omp_get_num_procs();
        if (plan->tile.threads > procs) plan->tile.threads = procs > 1 ? procs : 1;
    }
#endif
    *result = plan;
    return NDPAD_OK;

fail:
    ndpad_plan_destroy(plan);
    return status;
}

ndpad_status ndpad_plan_create(const ndpad_problem *problem, const ndpad_options *options,
                               ndpad_plan **plan)
{
    return ndpad_plan_create_for(problem, options, plan, __func__);
}

void ndpad_plan_destroy(ndpad_plan *plan)
{
    if (plan == NULL) return;
    ndpad_free(plan->pad_value);
    ndpad_free(plan);
}

void ndpad_options_init(ndpad_options *options)
{
    if (options != NULL) memset(options, 0, sizeof(*options));
}

ndpad_isa ndpad_plan_isa(const ndpad_plan *plan)
{
    return plan != NULL ? plan->isa : NDPAD_ISA_SCALAR;
}
