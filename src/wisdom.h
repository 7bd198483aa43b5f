/* Wisdom: the per-machine cache of tuned tile shapes, keyed by problem class, and the
 * measuring engine that fills it (used by NDPAD_TUNING_MEASURE and by tuning/ndpad-tune).
 * The file format is documented in tuning/wisdom-format.md. */
#ifndef NDPAD_WISDOM_H
#define NDPAD_WISDOM_H

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"

#define NDPAD_WISDOM_VERSION 2
/* Outputs below this many bytes always run on one thread, with no OpenMP region, whatever
 * the wisdom says (a 1x3x32x40 pad must not pay thread start-up); the heuristic's own
 * threshold too. */
#define NDPAD_TINY_BYTES ((int64_t)256 * 1024)

/* A problem class: what tuned tiles are remembered by. */
typedef struct ndpad_wisdom_key {
    int32_t mode;
    int32_t esize;    /* element size of the normalised plan, bytes */
    int32_t rank;     /* normalised rank (plan->ndim)                */
    int32_t out_log2; /* floor(log2(output bytes))                   */
    int32_t row_log2; /* floor(log2(output row bytes))               */
    int32_t isa;      /* ndpad_isa of the plan                       */
    int32_t nthr;     /* the plan's thread budget (plan->max_threads): a 1-thread plan
                          and an all-cores plan are tuned apart, as FFTW keys by nthr */
} ndpad_wisdom_key;

NDPAD_INTERNAL ndpad_wisdom_key ndpad_wisdom_key_of(const ndpad_plan *plan);

/* Formats the key as "mode=.. esize=.. rank=.. out=.. row=.. isa=.. nthr=..". */
NDPAD_INTERNAL void ndpad_wisdom_key_format(const ndpad_wisdom_key *key, char *buf, size_t size);

/* The tile remembered for `key` (the default file is loaded on first use). */
NDPAD_INTERNAL bool ndpad_wisdom_lookup(const ndpad_wisdom_key *key, ndpad_tile *tile);

/* Merge with and atomically rewrite `path` (NULL: the default path). On failure records a
 * message in ndpad_last_error() under `caller` and returns false. */
NDPAD_INTERNAL bool ndpad_wisdom_save(const char *path, const char *caller);

/* Record `text` as the last wisdom warning and pass it to the log callback. */
NDPAD_INTERNAL void ndpad_wisdom_warn(const char *text);

/* The machine fingerprint line (without "machine "), computed once. */
NDPAD_INTERNAL const char *ndpad_wisdom_fingerprint(void);

/* `tile` made valid for `plan`: rows, cols and threads clamped, tiny outputs on 1 thread. */
NDPAD_INTERNAL ndpad_tile ndpad_tile_fit(const ndpad_plan *plan, ndpad_tile tile);

/* ---- measuring ------------------------------------------------------------------------ */

/* Candidate tiles for `plan` with up to `max_threads` threads, most promising first: tile
 * rows are powers of two times a base derived from the L2 size plus even splits over the
 * threads, column splits of long rows, thread counts 1..max_threads, streaming on/off;
 * pruned by cache sizes and by tiles < threads. Returns the count (<= cap). */
NDPAD_INTERNAL size_t ndpad_tune_candidates(const ndpad_plan *plan, int32_t max_threads,
                                            ndpad_tile *out, size_t cap);

/* Scratch buffers that cover everything `plan` reads and writes. */
typedef struct ndpad_scratch {
    char *in_block, *out_block;
    const char *in; /* as given to ndpad_run (after in_offset) */
    char *out;
    int64_t bytes_moved; /* output bytes + input bytes copied, per execution */
} ndpad_scratch;

NDPAD_INTERNAL bool ndpad_scratch_alloc(const ndpad_plan *plan, ndpad_scratch *scratch);
NDPAD_INTERNAL void ndpad_scratch_free(ndpad_scratch *scratch);

typedef struct ndpad_tune_result {
    ndpad_tile default_tile, tuned_tile;
    double default_gbps, tuned_gbps; /* medians */
    int candidates, measured;
    bool noisy; /* the confirming runs were too spread to trust: default kept */
} ndpad_tune_result;

typedef void (*ndpad_tune_progress_fn)(int done, int total, void *user);

/* Measure the default tile and the candidates of `plan` for about `budget_seconds` and
 * store the winner in the wisdom under the plan's class (the default tile when no candidate
 * beats it by 5%, or when the confirming runs are too spread to tell, as on a machine whose
 * load comes and goes: so that the class counts as tuned). False when no scratch memory. */
NDPAD_INTERNAL bool ndpad_tune_plan(ndpad_plan *plan, double budget_seconds,
                                    ndpad_tune_result *result, ndpad_tune_progress_fn progress,
                                    void *user);

NDPAD_INTERNAL double ndpad_now(void);

#endif
