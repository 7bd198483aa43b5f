/* The measuring engine: the search's variants, scratch buffers to run them on, the timed
 * stages and the confirmation, and ndpad_tune_plan (used by NDPAD_TUNING_MEASURE and by
 * tuning/ndpad-tune). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime (stopwatch.h) in strict C11 */
#include "measure.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "copy-choice.h"
#include "stream-plan.h"
#include "tile-choice.h"
#include "timing.h"
#include "topology.h"
#include "wisdom.h"

#define PASSES       3    /* round-robin passes over a stage's variants                   */
#define COARSE_SHARE 0.35 /* of a class's budget: the coarse stage ...                    */
#define REFINE_SHARE 0.30 /* ... the refinement; the rest (about a third) confirms        */
#define MAX_PAIRS    201  /* confirming pairs, at most                                    */
#define NOISE_BYTES  ((size_t)4 << 20) /* memcpy size of the noise measurement            */
#define NOISE_PAIRS  21
#define SELF_PAIRS   101 /* A/A pairs of the heuristic, at most (fewer when slow)          */
/* Fewer runs of the heuristic than this fit what is left of a class's budget: the class is
 * slow (hundreds of MiB of output) and chosen in rounds (the search, the A/A pairs and two
 * sets of confirming pairs need about 120 runs at least). */
#define SLOW_RUNS 200
/* Of a slow class's budget: the rounds that choose; the rest confirms. */
#define SELECT_SHARE 0.5
/* Of an in-place CONSTANT class's budget: the prefetch stage's, at the end. */
#define PREFETCH_SHARE 0.25

/* ---- measuring ------------------------------------------------------------------------ */

bool ndpad_scratch_alloc(const ndpad_plan *plan, ndpad_scratch *s)
{
    return ndpad_scratch_alloc_capped(plan, s, NDPAD_SCRATCH_CAP);
}

bool ndpad_scratch_alloc_capped(const ndpad_plan *plan, ndpad_scratch *s, int64_t cap)
{
    memset(s, 0, sizeof(*s));
    /* Dense buffers of the plan's shape, not its stride span: two rows 1 GiB apart cost
     * their elements, not 1 GiB. The run plan is the plan with dense strides; its flags
     * (inner_dense, out_contiguous) stay as they are: a strided plan's generic path runs
     * on dense strides as well, and a dense plan's strides do not change. */
    s->plan = *plan;
    const int64_t es = (int64_t)plan->elem_size;
    int64_t in_size = es, out_size = es;
    bool fits = true, restrided = false;
    for (int32_t k = plan->ndim - 1; k >= 0; k--) {
        ndpad_dim *a = &s->plan.dim[k];
        restrided = restrided || a->in_stride != in_size;
        a->in_stride = in_size;
        a->out_stride = out_size;
        const int64_t d = a->d > 0 ? a->d : 1, n = a->n > 0 ? a->n : 1;
        fits = fits && !__builtin_mul_overflow(in_size, d, &in_size) &&
               !__builtin_mul_overflow(out_size, n, &out_size);
    }
    if (!plan->reads_input) in_size = 0;
    s->bytes_needed = fits && in_size <= cap ? in_size + out_size : INT64_MAX;
    if (s->bytes_needed > cap) return false;
    s->in_block = ndpad_malloc((size_t)in_size + 64);
    s->out_block = ndpad_malloc((size_t)out_size + 64);
    if (s->in_block == NULL || s->out_block == NULL) {
        ndpad_scratch_free(s);
        return false;
    }
    /* The plan's row list holds offsets for its own strides (a crop's input rows are
     * longer than the dense buffer's): the dense plan gets a stream of its own. */
    if (restrided && plan->reads_input && plan->stream != NULL && plan->stream->row_list != 0) {
        if (ndpad_stream_plan(&s->plan, &s->stream, "ndpad_tune") != NDPAD_OK) {
            ndpad_scratch_free(s);
            return false;
        }
        s->plan.stream = s->stream;
    }
    memset(s->in_block, 1, (size_t)in_size + 64);
    memset(s->out_block, 0, (size_t)out_size + 64);
    s->in = plan->reads_input ? s->in_block : NULL;
    s->out = s->out_block;
    const int64_t out_bytes = plan->out_bytes;
    int64_t interior = plan->reads_input ? es : 0;
    for (int32_t k = 0; k < plan->ndim && plan->reads_input; k++)
        interior *= plan->dim[k].copy_end - plan->dim[k].copy_begin;
    s->bytes_moved = out_bytes + interior;
    return true;
}

void ndpad_scratch_free(ndpad_scratch *s)
{
    ndpad_free(s->in_block);
    ndpad_free(s->out_block);
    ndpad_stream_destroy(s->stream);
    s->in_block = s->out_block = NULL;
    s->stream = NULL;
}

#define STAGE_RUNS 15 /* timed runs of one variant per pass, at most */

/* The measuring's arrays, on the heap: no large stack frames in a caller's thread, no
 * thread-local storage in the library. */
typedef struct workspace {
    double times[NDPAD_TUNE_MAX_VARIANTS][PASSES * STAGE_RUNS];
    ndpad_tile coarse[NDPAD_TUNE_MAX_VARIANTS], fine[NDPAD_TUNE_MAX_VARIANTS];
    double a[MAX_PAIRS], b[MAX_PAIRS], ratio[MAX_PAIRS], ratio2[MAX_PAIRS];
} workspace;

/* One timed execution of `plan` with `tile`, on the scratch; seconds. */
static double time_once(ndpad_plan *plan, const ndpad_tile *tile, const ndpad_scratch *s)
{
    plan->tile = *tile;
    plan->solo_nt = -1; /* the candidate's stores, whichever threads run it */
    const double t0 = ndpad_now();
    /* In place, CONSTANT reads nothing: only the gaps around the interior are written. */
    ndpad_run(plan, s->in_place ? s->out : s->in, s->out, s->in_place);
    return ndpad_now() - t0;
}

/* A stage: `count` variants (index 0 is the stage's incumbent) measured in PASSES
 * round-robin passes until `end`; returns the index of the lowest median. Variants cut off
 * by the deadline before their first pass are not candidates. */
static int run_stage(ndpad_plan *dense, const ndpad_scratch *s, const ndpad_tile *variants,
                     int count, double end, double per_run, ndpad_tune_result *r,
                     const ndpad_tune_settings *settings, int *done, int total, workspace *w)
{
    enum { RUNS = STAGE_RUNS };
    double(*const times)[PASSES * STAGE_RUNS] = w->times;
    int taken[NDPAD_TUNE_MAX_VARIANTS] = {0};
    /* Runs per slice: as many as the stage's time allows, 1 .. RUNS. */
    int runs = (int)((end - ndpad_now()) / (PASSES * (double)count * per_run));
    if (runs > RUNS) runs = RUNS;
    if (runs < 1) runs = 1;
    for (int pass = 0; pass < PASSES; pass++)
        for (int k = 0; k < count; k++) {
            if ((pass > 0 || k > 0) && ndpad_now() > end) goto judged;
            time_once(dense, &variants[k], s); /* untimed: its first touch after another */
            for (int i = 0; i < runs; i++) times[k][taken[k]++] = time_once(dense, &variants[k], s);
            if (settings->progress != NULL) settings->progress(++*done, total, settings->user);
        }
judged:;
    int best = 0;
    double best_time = ndpad_median(times[0], taken[0]);
    for (int k = 1; k < count; k++) {
        if (taken[k] == 0) continue;
        r->measured++;
        const double t = ndpad_median(times[k], taken[k]);
        if (t < best_time) best_time = t, best = k;
    }
    return best;
}

static void add_variant(ndpad_tile *list, int *count, const ndpad_plan *plan, ndpad_tile t)
{
    t = ndpad_tile_fit(plan, t);
    const int64_t tiles =
        (plan->rows + t.rows - 1) / t.rows * ((plan->dim[plan->ndim - 1].n + t.cols - 1) / t.cols);
    if (tiles < t.threads) return; /* idle threads */
    for (int k = 0; k < *count; k++)
        if (ndpad_tile_same(&list[k], &t)) return;
    if (*count < NDPAD_TUNE_MAX_VARIANTS) list[(*count)++] = t;
}

/* Coarse: the heuristic's tile shape at every thread count 1, 2, 4 .. budget, with
 * streaming stores on and off. Streaming is measured, never taken from the LLC size. */
int ndpad_tune_coarse(const ndpad_plan *plan, const ndpad_tile *def, ndpad_tile *list)
{
    int count = 0;
    list[count++] = *def;
    /* Never more threads than processing units: a budget of 64 on 2 cores tries 1 and 2. */
    const int32_t pus = ndpad_topology_get()->pus;
    const int32_t most = pus > 0 && pus < plan->policy.threads ? pus : plan->policy.threads;
    int32_t threads[16], n = 0;
    for (int32_t t = 1; t < most && n < 15; t *= 2) threads[n++] = t;
    threads[n++] = most;
    for (int k = 0; k < n; k++)
        for (int32_t stream = 0; stream <= 1; stream++) {
            ndpad_tile t = *def;
            t.threads = threads[k], t.nt = stream;
            /* One thread: one tile is the heuristic's own shape for it. */
            if (t.threads == 1 && def->threads > 1) t.rows = plan->rows, t.cols = def->cols;
            add_variant(list, &count, plan, t);
        }
    return count;
}

/* Around `best`: tile rows x 1/4 .. 4, column splits in 2 and 4, the other interior
 * copies, the output-stream path off (when the plan has it). */
int ndpad_tune_refine(const ndpad_plan *plan, const ndpad_tile *best, ndpad_tile *list)
{
    int count = 0;
    list[count++] = *best;
    const int64_t n = plan->dim[plan->ndim - 1].n;
    static const double scale[] = {0.25, 0.5, 2.0, 4.0};
    for (int k = 0; k < 4; k++) {
        ndpad_tile t = *best;
        t.rows = (int64_t)((double)best->rows * scale[k]);
        add_variant(list, &count, plan, t);
    }
    for (int64_t split = 2; split <= 4; split *= 2)
        if (n * (int64_t)plan->elem_size / split >= 4096) {
            ndpad_tile t = *best;
            t.cols = (n + split - 1) / split;
            add_variant(list, &count, plan, t);
        }
    if (plan->reads_input)
        for (int32_t kind = 0; kind < NDPAD_COPY_KINDS; kind++)
            if (kind != best->copy && ndpad_copy_available(kind)) {
                ndpad_tile t = *best;
                t.copy = kind, t.nt = 0;
                add_variant(list, &count, plan, t);
            }
    if (plan->stream != NULL) {
        ndpad_tile t = *best;
        t.rows_path = !best->rows_path;
        add_variant(list, &count, plan, t);
    }
    return count;
}

/* Interleaved pairs (heuristic, candidate; then candidate, heuristic; ...) until `end` (at
 * least NDPAD_MIN_PAIRS): ratio[k] = candidate / heuristic; returns the count, the
 * heuristic's and the candidate's median times in *def_time, *cand_time. */
static int confirm_pairs(ndpad_plan *dense, const ndpad_scratch *s, const ndpad_tile *def,
                         const ndpad_tile *cand, double end, double per_run, workspace *w,
                         double *ratio, double *def_time, double *cand_time)
{
    double *const a = w->a, *const b = w->b;
    time_once(dense, def, s);
    time_once(dense, cand, s);
    int n = 0;
    while (n < MAX_PAIRS && (n < NDPAD_MIN_PAIRS || ndpad_now() + 2 * per_run < end)) {
        if (n & 1) {
            b[n] = time_once(dense, cand, s);
            a[n] = time_once(dense, def, s);
        } else {
            a[n] = time_once(dense, def, s);
            b[n] = time_once(dense, cand, s);
        }
        ratio[n] = a[n] > 0 ? b[n] / a[n] : 1.0;
        n++;
    }
    *def_time = ndpad_median(a, n);
    *cand_time = ndpad_median(b, n);
    return n;
}

/* A winner must be real: the candidate against the heuristic in a first set of pairs until
 * halfway to `end`, and when it wins there, in a second, independent set until `end`
 * (ndpad_judge_two_sets). The times are the first set's. */
static ndpad_pair_verdict confirm_twice(ndpad_plan *dense, const ndpad_scratch *s,
                                        const ndpad_tile *def, const ndpad_tile *cand, double end,
                                        double per_run, workspace *w, double noise, double floor,
                                        double *def_time, double *cand_time)
{
    const double now = ndpad_now(), mid = now + 0.5 * (end - now);
    const int n1 =
        confirm_pairs(dense, s, def, cand, mid, per_run, w, w->ratio, def_time, cand_time);
    if (!ndpad_judge_pairs(w->ratio, n1, noise, floor).keep)
        return ndpad_judge_two_sets(w->ratio, n1, NULL, 0, noise, floor);
    double unused[2];
    const int n2 =
        confirm_pairs(dense, s, def, cand, end, per_run, w, w->ratio2, &unused[0], &unused[1]);
    return ndpad_judge_two_sets(w->ratio, n1, w->ratio2, n2, noise, floor);
}

/* The plan's own noise: pairs of the heuristic against itself (an A/A test) until `end`,
 * at least NDPAD_MIN_PAIRS: how far a median of pair ratios strays for no reason on this
 * machine and plan (single 2-thread runs on a VM jitter by +-15% even when it is idle),
 * and any effect of which run goes first. A floor for the margin, not a refusal. */
static double self_noise(ndpad_plan *dense, const ndpad_scratch *s, const ndpad_tile *def,
                         double end)
{
    double ratio[SELF_PAIRS];
    int n = 0;
    while (n < SELF_PAIRS && (n < NDPAD_MIN_PAIRS || ndpad_now() < end)) {
        const double a = time_once(dense, def, s), b = time_once(dense, def, s);
        ratio[n++] = a > 0 ? b / a : 1.0;
    }
    return ndpad_pair_noise(ratio, n);
}

/* Slow classes (tens of ms a run: hundreds of MiB of output) cannot afford a median of
 * many runs per variant: the variants run in ROUNDS instead, every variant once a round
 * (the order rotating and reversing), and each is judged by the median over the rounds of its time over
 * the heuristic's in the same round, so that a load or a slow stretch of memory hits all
 * alike. The heuristic runs twice a round: the second copy against the first is the A/A
 * noise (*self), the margin's floor, at no extra pass. Until `end`, at least
 * NDPAD_MIN_PAIRS rounds; returns the index of the best median ratio (0: the heuristic). */
static int select_in_rounds(ndpad_plan *dense, const ndpad_scratch *s, const ndpad_tile *variants,
                            int count, double end, ndpad_tune_result *r,
                            const ndpad_tune_settings *settings, int *done, int total, workspace *w,
                            double *self)
{
    double(*const times)[PASSES * STAGE_RUNS] = w->times;
    enum { MAX_ROUNDS = PASSES * STAGE_RUNS };
    const int slots = count + 1; /* slot `count` is the heuristic again */
    int n = 0;
    while (n < MAX_ROUNDS && (n < NDPAD_MIN_PAIRS || ndpad_now() < end)) {
        for (int i = 0; i < slots; i++) {
            /* Forwards in even rounds, backwards in odd ones, the start rotating: each
             * variant follows both its neighbours in the list (a plan's speed may depend
             * on what the one before left in the caches). */
            const int k = n & 1 ? slots - 1 - (i + n / 2) % slots : (i + n / 2) % slots;
            times[k][n] = time_once(dense, k == count ? &variants[0] : &variants[k], s);
        }
        n++;
        if (settings->progress != NULL) settings->progress(++*done, total, settings->user);
    }
    double *const ratio = w->ratio;
    for (int j = 0; j < n; j++) ratio[j] = times[0][j] > 0 ? times[count][j] / times[0][j] : 1.0;
    *self = ndpad_pair_noise(ratio, n);
    int best = 0;
    double best_ratio = 1.0;
    for (int k = 1; k < count; k++) {
        for (int j = 0; j < n; j++) ratio[j] = times[0][j] > 0 ? times[k][j] / times[0][j] : 1.0;
        const double m = ndpad_median(ratio, n);
        r->measured++;
        if (m < best_ratio) best_ratio = m, best = k;
    }
    return best;
}

/* The machine's noise from paired memcpy runs. Over the limit, once more after a pause,
 * and the lower of the two: a blip (the kernel zeroing the pages of a large scratch, a
 * daemon waking) is gone moments later, a load is not. */
static double machine_noise(void)
{
    double noise = ndpad_measure_noise(NOISE_BYTES, NOISE_PAIRS);
    if (noise > NDPAD_MAX_NOISE) {
        const struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
        const double again = ndpad_measure_noise(NOISE_BYTES, NOISE_PAIRS);
        if (again < noise) noise = again;
    }
    return noise;
}

static bool scratch_for(const ndpad_plan *plan, int64_t cap, ndpad_scratch *s)
{
    if (cap <= 0) cap = NDPAD_SCRATCH_CAP;
    if (ndpad_scratch_alloc_capped(plan, s, cap)) return true;
    if (s->bytes_needed > cap) {
        char warn[200];
        snprintf(warn, sizeof(warn),
                 "measuring needs %lld MiB of scratch buffers, beyond "
                 "the %lld MiB cap; using the heuristic tile",
                 s->bytes_needed == INT64_MAX ? -1LL : (long long)(s->bytes_needed >> 20),
                 (long long)(cap >> 20));
        ndpad_wisdom_warn(warn);
    }
    return false;
}

/* The heuristic's tile as the planner leaves it: fitted, and no more threads than the
 * processing units (the planner caps a team so). */
static ndpad_tile heuristic_tile(const ndpad_plan *plan)
{
    ndpad_tile tile = ndpad_tile_fit(plan, ndpad_tile_default(plan));
    const int32_t pus = ndpad_topology_get()->pus;
    if (pus > 0 && tile.threads > pus) tile.threads = pus;
    return tile;
}

/* Seconds per run of `tile`: the median of 3 runs after 2 untimed ones, at least 0.1 us (a
 * divisor). The first runs of a process's first team start its threads and bind them (a
 * 1 MB pad at 2 threads: 5-10 ms, then 35-50 us, then 17 us); timed, they made the first
 * 2-thread class of every ndpad-tune run look 100x slower than it is, so that its search
 * measured 3 variants where the others measure 10. */
static double time_per_run(ndpad_plan *dense, const ndpad_tile *tile, const ndpad_scratch *s)
{
    double first[3];
    for (int k = 0; k < 2; k++) time_once(dense, tile, s);
    for (int k = 0; k < 3; k++) first[k] = time_once(dense, tile, s);
    const double run = ndpad_median(first, 3);
    return run > 1e-7 ? run : 1e-7;
}

/* The heuristic's time per run (median of 3, in *per_run), whether the class is slow (few
 * runs fit the budget) and the machine's state. False when the machine is loaded: then
 * r->refused is set and nothing is tuned. */
static bool time_heuristic(ndpad_plan *dense, const ndpad_scratch *s,
                           const ndpad_tune_settings *settings, double start,
                           const ndpad_load_mark *mark, ndpad_tune_result *r, double *per_run,
                           bool *slow)
{
    const ndpad_tile def = r->default_tile;
    *per_run = time_per_run(dense, &def, s);
    r->default_gbps = r->tuned_gbps = (double)s->bytes_moved / 1e9 / *per_run;
    /* Few runs fit the budget: the variants are chosen in rounds, which give the A/A
     * noise too. */
    const double slow_runs = settings->slow_runs > 0 ? settings->slow_runs : SLOW_RUNS;
    *slow = *per_run * slow_runs > start + settings->budget_seconds - ndpad_now();
    if (settings->noise < 0) {
        if (!*slow)
            r->self_noise = self_noise(dense, s, &def, start + settings->budget_seconds * 0.1);
        r->other_load = ndpad_other_load(mark);
    }
    if (r->noise > NDPAD_MAX_NOISE || r->other_load > NDPAD_MAX_OTHER_LOAD) {
        /* Loaded: a winner found now would be the load's, not the machine's. */
        r->refused = r->noisy = true;
        return false;
    }
    return true;
}

/* The search for a challenger to the heuristic (r->challenger): for a slow class, threads
 * and streaming stores in rounds; otherwise a coarse stage, then a refinement around its
 * winner. False when the budget cannot cover it (r->measured == 0: not tuned). */
static bool search(ndpad_plan *plan, ndpad_plan *dense, const ndpad_scratch *s,
                   const ndpad_tune_settings *settings, double start, double per_run, bool slow,
                   workspace *w, ndpad_tune_result *r, int *total_guess)
{
    const double budget = settings->budget_seconds;
    const ndpad_tile def = r->default_tile;
    ndpad_tile *const coarse = w->coarse, *const fine = w->fine;
    const int n_coarse = ndpad_tune_coarse(plan, &def, coarse);
    int done = 0;
    *total_guess = PASSES * (n_coarse + 12);
    /* A slow class's least: NDPAD_MIN_PAIRS rounds of every variant and the heuristic's
     * copy, and two sets of as many confirming pairs after two warm-up runs each. What
     * cannot finish does not start. */
    const double slow_least = per_run * (NDPAD_MIN_PAIRS * (n_coarse + 1 + 4) + 4);
    if (slow && ndpad_now() + slow_least > start + budget)
        return false; /* measured == 0: "budget too short", nothing stored */
    if (slow) {
        /* Threads and streaming stores on and off, in rounds; the tile shape and the copy
         * matter little beside the stores at this size, and there is no time for them. */
        double self = 0;
        *total_guess = (int)(budget * SELECT_SHARE / (per_run * (n_coarse + 1))) + 1;
        const int c = select_in_rounds(dense, s, coarse, n_coarse, start + budget * SELECT_SHARE, r,
                                       settings, &done, *total_guess, w, &self);
        if (settings->noise < 0) r->self_noise = self;
        r->candidates = n_coarse - 1;
        r->challenger = coarse[c];
    } else {
        const int c = run_stage(dense, s, coarse, n_coarse, start + budget * COARSE_SHARE, per_run,
                                r, settings, &done, *total_guess, w);
        const int n_fine = ndpad_tune_refine(plan, &coarse[c], fine);
        const int f =
            run_stage(dense, s, fine, n_fine, start + budget * (COARSE_SHARE + REFINE_SHARE),
                      per_run, r, settings, &done, *total_guess, w);
        r->candidates = n_coarse + n_fine - 2;
        r->challenger = fine[f];
    }
    /* The budget did not cover one other variant: the class is not tuned. */
    return r->measured != 0;
}

/* A CONSTANT class whose problems may pad in place: in place only the gaps are written, a
 * cache line or two a row apart, and how far ahead to prefetch them is a choice of its own.
 * The class is shared by the problem tuned here (say with a dense input) and the same
 * problem padded in place, so the problem need not be in place itself: in place, CONSTANT
 * writes the gaps and reads nothing, which the scratch can time for any plan without
 * interior padding. */
static bool prefetch_applies(const ndpad_plan *plan)
{
    if (plan->mode != NDPAD_CONSTANT || !plan->reads_input) return false;
    for (int32_t k = 0; k < plan->ndim; k++)
        if (plan->dim[k].r != 0) return false;
    return true;
}

/* Step 5: the in-place prefetch distance on the tile chosen so far, timed in place: none,
 * 4, 16 and 32 rows against the default (8) in a stage, the best against the default in
 * interleaved pairs until `end`. */
static void tune_prefetch(ndpad_plan *dense, ndpad_scratch *s, const ndpad_tune_settings *settings,
                          double stage_end, double end, workspace *w, ndpad_tune_result *r,
                          int *done, int total)
{
    static const int32_t distances[] = {-1, 4, 16, 32};
    ndpad_tile *const list = w->fine;
    int count = 0;
    list[count++] = r->tuned_tile;
    for (size_t k = 0; k < sizeof(distances) / sizeof(distances[0]); k++) {
        list[count] = r->tuned_tile;
        list[count++].prefetch = distances[k];
    }
    s->in_place = true;
    const double per_run = time_per_run(dense, &list[0], s);
    const int best =
        run_stage(dense, s, list, count, stage_end, per_run, r, settings, done, total, w);
    r->prefetch_measured = true;
    r->prefetch_challenger = list[best];
    if (best != 0) {
        double def_time, cand_time;
        r->prefetch_verdict = confirm_twice(dense, s, &list[0], &list[best], end, per_run, w,
                                            r->noise, r->self_noise, &def_time, &cand_time);
        if (r->prefetch_verdict.keep) r->tuned_tile.prefetch = list[best].prefetch;
    }
    s->in_place = false;
}

/* An in-place CONSTANT class whose search kept a tile other than the heuristic's: the class
 * is shared by the problem tuned (a dense input) and the same problem padded in place, where
 * only the gaps are written and a tile's cost is its overhead, not its bytes. The tile must
 * not lose there: timed in place in pairs against the heuristic's until `end`, it is
 * dropped when it is slower by more than the margin (conv's class at 2 threads, 229-row
 * tiles for 918: 2% faster padding, 17% slower in place). */
static void inplace_guard(ndpad_plan *dense, ndpad_scratch *s, double end, workspace *w,
                          ndpad_tune_result *r)
{
    const ndpad_tile def = r->default_tile;
    ndpad_tile tuned = r->tuned_tile;
    tuned.prefetch = def.prefetch;
    s->in_place = true;
    const double per_run = time_per_run(dense, &def, s);
    double def_time, tuned_time;
    const int n =
        confirm_pairs(dense, s, &def, &tuned, end, per_run, w, w->ratio, &def_time, &tuned_time);
    s->in_place = false;
    /* the heuristic's win in place, judged as any win is: heuristic / tuned */
    for (int k = 0; k < n; k++) w->ratio2[k] = w->ratio[k] > 0 ? 1.0 / w->ratio[k] : 1.0;
    const ndpad_pair_verdict v = ndpad_judge_pairs(w->ratio2, n, r->noise, r->self_noise);
    r->inplace_checked = true;
    r->inplace_ratio = v.ratio > 0 ? 1.0 / v.ratio : 1.0;
    r->inplace_margin = v.margin;
    if (v.keep) {
        r->inplace_dropped = true;
        r->tuned_tile = def;
        r->tuned_gbps = r->default_gbps;
    }
}

/* Everything measured, in the scratch: the heuristic, the search, then the challenger
 * against the heuristic in interleaved pairs (r->verdict), and for in-place CONSTANT
 * classes the prefetch distance. False when nothing may be stored (loaded machine, budget
 * too short). */
static bool measure_in_scratch(ndpad_plan *plan, ndpad_scratch *s,
                               const ndpad_tune_settings *settings, double start,
                               const ndpad_load_mark *mark, workspace *w, ndpad_tune_result *r,
                               int *total_guess)
{
    ndpad_plan *const dense = &s->plan; /* the one plan object every variant runs as */
    const ndpad_tile def = r->default_tile;
    /* The prefetch stage takes the last part of the budget; the rest sees a shorter one. */
    const bool prefetch = prefetch_applies(plan);
    ndpad_tune_settings main = *settings;
    if (prefetch) main.budget_seconds *= 1 - PREFETCH_SHARE;
    double per_run;
    bool slow;
    if (!time_heuristic(dense, s, &main, start, mark, r, &per_run, &slow)) return false;
    if (!search(plan, dense, s, &main, start, per_run, slow, w, r, total_guess)) return false;
    if (!ndpad_tile_same(&r->challenger, &def)) {
        const double gb = (double)s->bytes_moved / 1e9;
        double def_time, cand_time;
        r->verdict = confirm_twice(dense, s, &def, &r->challenger, start + main.budget_seconds,
                                   per_run, w, r->noise, r->self_noise, &def_time, &cand_time);
        r->default_gbps = def_time > 0 ? gb / def_time : 0;
        r->tuned_gbps = r->default_gbps / r->verdict.ratio;
        if (r->verdict.keep)
            r->tuned_tile = r->challenger;
        else
            r->tuned_gbps = r->default_gbps;
    }
    if (prefetch && !slow) {
        const double share = PREFETCH_SHARE * settings->budget_seconds;
        const double end = start + settings->budget_seconds;
        /* the tuned tile's guard takes the first fifth of the in-place share */
        if (!ndpad_tile_same(&r->tuned_tile, &def))
            inplace_guard(dense, s, end - 0.8 * share, w, r);
        int done = *total_guess - 5;
        *total_guess += 5;
        tune_prefetch(dense, s, settings, end - 0.6 * share, end, w, r, &done, *total_guess);
    }
    return true;
}

bool ndpad_tune_plan_with(ndpad_plan *plan, const ndpad_tune_settings *settings,
                          ndpad_tune_result *r)
{
    memset(r, 0, sizeof(*r));
    const double start = ndpad_now();
    r->default_tile = heuristic_tile(plan);
    r->tuned_tile = r->challenger = r->default_tile;
    if (plan->empty) return true;
    /* The noise first, before a large scratch's pages are zeroed. */
    const ndpad_load_mark mark = ndpad_load_mark_now();
    r->noise = settings->noise >= 0 ? settings->noise : machine_noise();
    ndpad_scratch s;
    if (!scratch_for(plan, settings->scratch_cap, &s)) return false;
    workspace *const w = ndpad_malloc(sizeof(*w));
    if (w == NULL) {
        ndpad_scratch_free(&s);
        return false;
    }
    int total_guess = 0;
    const bool measured = measure_in_scratch(plan, &s, settings, start, &mark, w, r, &total_guess);
    s.plan.tile = r->default_tile;
    ndpad_free(w);
    ndpad_scratch_free(&s);
    if (!measured) return true;

    if (settings->progress != NULL) settings->progress(total_guess, total_guess, settings->user);
    if (settings->noise < 0) {
        /* A load that came while it measured: what won may be the load's doing. */
        r->other_load = ndpad_other_load(&mark);
        if (r->other_load > NDPAD_MAX_OTHER_LOAD) {
            r->refused = r->noisy = true;
            return true;
        }
    }
    /* Dimensions the heuristic chose alike are stored as 0, "the heuristic's": the entry
     * then fits every problem of the class (16384x256 tiles of one problem would cut
     * another's 258-element rows into 256 + 2). */
    ndpad_tile entry = r->tuned_tile;
    if (entry.rows == r->default_tile.rows) entry.rows = 0;
    if (entry.cols == r->default_tile.cols) entry.cols = 0;
    const ndpad_wisdom_key key = ndpad_wisdom_key_of(plan);
    ndpad_wisdom_store(&key, entry, r->tuned_gbps);
    r->stored = true;
    return true;
}

static double assumed_noise = -1;

void ndpad_tune_assume_noise(double noise)
{
    assumed_noise = noise;
}

bool ndpad_tune_plan(ndpad_plan *plan, double budget_seconds, ndpad_tune_result *result,
                     ndpad_tune_progress_fn progress, void *user)
{
    const ndpad_tune_settings settings = {.budget_seconds = budget_seconds,
                                          .noise = assumed_noise,
                                          .progress = progress,
                                          .user = user};
    return ndpad_tune_plan_with(plan, &settings, result);
}

bool ndpad_tune_check(ndpad_plan *plan, ndpad_tile stored, double seconds, int64_t scratch_cap,
                      double noise, ndpad_tune_result *r)
{
    memset(r, 0, sizeof(*r));
    const double start = ndpad_now();
    r->default_tile = heuristic_tile(plan);
    r->challenger = ndpad_tile_fit(plan, stored);
    /* timed out of place, where the in-place prefetch distance does nothing */
    r->challenger.prefetch = r->default_tile.prefetch;
    r->tuned_tile = r->default_tile;
    /* an entry that is the heuristic's choice for this problem: nothing to measure */
    if (plan->empty || ndpad_tile_same(&r->challenger, &r->default_tile)) return true;
    ndpad_scratch s;
    if (!scratch_for(plan, scratch_cap, &s)) return false;
    ndpad_plan *const dense = &s.plan;
    workspace *const w = ndpad_malloc(sizeof(*w));
    if (w == NULL) {
        ndpad_scratch_free(&s);
        return false;
    }
    const ndpad_load_mark mark = ndpad_load_mark_now();
    const double per_run = time_once(dense, &r->default_tile, &s);
    r->noise = noise;
    if (noise < 0) {
        r->noise = machine_noise();
        r->self_noise = self_noise(dense, &s, &r->default_tile, start + seconds * 0.2);
    }
    r->refused = r->noisy = r->noise > NDPAD_MAX_NOISE;
    double def_time, cand_time;
    r->verdict = confirm_twice(dense, &s, &r->default_tile, &r->challenger, start + seconds,
                               per_run > 1e-7 ? per_run : 1e-7, w, r->noise, r->self_noise,
                               &def_time, &cand_time);
    if (noise < 0) r->other_load = ndpad_other_load(&mark);
    if (r->other_load > NDPAD_MAX_OTHER_LOAD) r->refused = r->noisy = true;
    const double gb = (double)s.bytes_moved / 1e9;
    r->default_gbps = def_time > 0 ? gb / def_time : 0;
    r->tuned_gbps = cand_time > 0 ? gb / cand_time : 0;
    if (r->verdict.keep) r->tuned_tile = r->challenger;
    dense->tile = r->default_tile;
    ndpad_free(w);
    ndpad_scratch_free(&s);
    return true;
}
