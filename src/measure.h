/* The measuring engine that fills the wisdom: the search's variants, scratch buffers, the
 * timed search and its confirmation (used by NDPAD_TUNING_MEASURE and tuning/ndpad-tune). */
#ifndef NDPAD_MEASURE_H
#define NDPAD_MEASURE_H

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"
#include "timing.h"

/* The search's variants, at most NDPAD_TUNE_MAX_VARIANTS each, `list[0]` the incumbent,
 * every one fitted to `plan`, distinct, and with no thread idle for want of tiles.
 * Coarse: `def` (the heuristic's tile) at 1, 2, 4 .. threads up to the plan's budget (and
 * the processing units), streaming stores on and off. Refine, around `best`: tile rows
 * x 1/4 .. 4, column splits in 2 and 4 (pieces of 4 KiB at least), each other interior
 * copy this CPU has (when the plan copies input), the output-stream path toggled (when
 * the plan has one). Return the count. */
#define NDPAD_TUNE_MAX_VARIANTS 64
NDPAD_INTERNAL int ndpad_tune_coarse(const ndpad_plan *plan, const ndpad_tile *def,
                                     ndpad_tile *list);
NDPAD_INTERNAL int ndpad_tune_refine(const ndpad_plan *plan, const ndpad_tile *best,
                                     ndpad_tile *list);

/* Measuring never allocates more scratch than this (input and output together): beyond
 * it a MEASURE plan keeps the heuristic tile, with a warning. */
#define NDPAD_SCRATCH_CAP ((int64_t)256 << 20)

/* Dense scratch buffers of `plan`'s shape (sized by the elements it touches, never by its
 * strides' span) and `plan` itself with dense strides to run on them. */
typedef struct ndpad_scratch {
    ndpad_plan plan; /* `plan` with dense strides: run this one on the buffers  */
    char *in_block, *out_block;
    const char *in; /* as given to ndpad_run (after in_offset)                 */
    char *out;
    int64_t bytes_moved;  /* output bytes + input bytes copied, per execution        */
    int64_t bytes_needed; /* the buffers' size (INT64_MAX when it overflows)        */
    bool in_place;        /* runs pad in place (CONSTANT: only the gaps are written) */
    /* plan.stream when the dense strides differ from the plan's and its stream holds a
     * row list (offsets for the plan's own strides): one made for the dense plan */
    ndpad_stream *stream;
} ndpad_scratch;

/* False when the buffers would exceed NDPAD_SCRATCH_CAP or there is no memory. */
NDPAD_INTERNAL bool ndpad_scratch_alloc(const ndpad_plan *plan, ndpad_scratch *scratch);
/* The same with another cap (ndpad-tune's large classes). */
NDPAD_INTERNAL bool ndpad_scratch_alloc_capped(const ndpad_plan *plan, ndpad_scratch *scratch,
                                               int64_t cap);
NDPAD_INTERNAL void ndpad_scratch_free(ndpad_scratch *scratch);

typedef struct ndpad_tune_result {
    ndpad_tile default_tile, tuned_tile;
    double default_gbps, tuned_gbps; /* from the confirming pairs when they ran      */
    int candidates, measured;        /* variants generated, and measured             */
    double noise;                    /* the machine's noise, measured first (ndpad_measure_noise) */
    double self_noise;               /* the heuristic against itself in pairs (ndpad_pair_noise):
                                a floor for the margin                                   */
    double other_load;               /* others' share of the CPUs while it measured (0 .. 1)      */
    ndpad_pair_verdict verdict;      /* of the confirming pairs (pairs = 0: none ran)          */
    ndpad_tile challenger;           /* the search's best, which the pairs judged                 */
    /* In-place CONSTANT classes: the prefetch distance, timed in place after the rest;
     * prefetch_challenger.prefetch is the best distance, judged by prefetch_verdict. */
    bool prefetch_measured;
    ndpad_tile prefetch_challenger;
    ndpad_pair_verdict prefetch_verdict;
    /* In-place CONSTANT classes whose search kept another tile: that tile against the
     * heuristic's timed in place too (inplace_ratio: median of tuned / heuristic), and
     * dropped when it loses there by more than inplace_margin. */
    bool inplace_checked, inplace_dropped;
    double inplace_ratio, inplace_margin;
    bool refused; /* loaded machine: nothing stored                            */
    bool noisy;   /* = refused (older name)                                    */
    bool stored;  /* an entry was written to the wisdom (in memory)            */
} ndpad_tune_result;

typedef void (*ndpad_tune_progress_fn)(int done, int total, void *user);

typedef struct ndpad_tune_settings {
    double budget_seconds; /* the whole tuning of this plan, noise and confirmation included */
    int64_t scratch_cap;   /* bytes of scratch buffers allowed (0: NDPAD_SCRATCH_CAP)      */
    double noise;          /* the noise if already known (taken as it is), else < 0: then
                               measured here, memcpy pairs and the plan against itself    */
    double slow_runs;      /* a class is slow (chosen in rounds) when fewer runs than this
                               fit its budget (0: the default, 200); tests force a path   */
    ndpad_tune_progress_fn progress;
    void *user;
} ndpad_tune_settings;

/* Tunes `plan`'s class within the settings' budget and stores the result in the wisdom:
 * 1. the noise (unless given) of paired memcpy runs, and of the heuristic against itself
 *    in pairs (a floor for the margin); a loaded machine (noise over NDPAD_MAX_NOISE, or other
 *    processes taking over NDPAD_MAX_OTHER_LOAD of the CPUs while it measures, checked
 *    again before storing) stores nothing;
 * 2. a coarse search over thread counts (fewer than the budget included) and streaming
 *    stores on/off, on the heuristic's tile shape;
 * 3. a refinement around its winner: tile rows and column splits, the interior copy
 *    (ndpad_copy_kind) and the output-stream path on/off;
 * 4. the best, if it is not the heuristic's choice, against the heuristic in interleaved
 *    pairs, judged by ndpad_judge_pairs;
 * 5. for a CONSTANT class that can pad in place (and is not slow), the last quarter of the
 *    budget: the in-place prefetch distance (none, 4, 16, 32 rows against 8), timed in
 *    place with the tile of step 4, the best confirmed against 8 in pairs alike. The class's entry is the candidate when it is
 *    kept, else the heuristic's choice (so that the class counts as tuned). A tile
 *    dimension equal to the heuristic's is stored as 0, "the heuristic's", so that the
 *    entry fits the other problems of its class. When the
 *    budget covered no variant but the heuristic, nothing is stored.
 * Every variant runs round-robin with the others, on the same dense scratch plan (one plan
 * object, its tile swapped), so that load and cache state hit them alike. False when no
 * scratch memory (beyond the cap: a warning). */
NDPAD_INTERNAL bool ndpad_tune_plan_with(ndpad_plan *plan, const ndpad_tune_settings *settings,
                                         ndpad_tune_result *result);

/* Tests only: the noise NDPAD_TUNING_MEASURE plans take instead of measuring it (and the
 * load check skipped), so that their tests reach a verdict on a loaded machine; < 0 (the
 * default) measures. Not thread-safe: set it before planning. */
NDPAD_INTERNAL void ndpad_tune_assume_noise(double noise);

/* ndpad_tune_plan_with with the default cap and the noise measured first (unless a test
 * assumed one). */
NDPAD_INTERNAL bool ndpad_tune_plan(ndpad_plan *plan, double budget_seconds,
                                    ndpad_tune_result *result, ndpad_tune_progress_fn progress,
                                    void *user);

/* Re-measures `stored` (a tile the wisdom holds for `plan`'s class) against the heuristic
 * in interleaved pairs for about `seconds`: the verdict, with result->noise measured first
 * (`noise` >= 0: taken as it is). False when no scratch memory. */
NDPAD_INTERNAL bool ndpad_tune_check(ndpad_plan *plan, ndpad_tile stored, double seconds,
                                     int64_t scratch_cap, double noise, ndpad_tune_result *result);

#endif
