/* The driver of ndpad-tune (the measuring itself is the engine's, in src/): shares the time
 * budget over the problems, draws the progress bar, prints the summary table, and runs and
 * prints the heuristic-vs-wisdom comparison (--compare). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime (stopwatch.h) in strict C11 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tile-choice.h"
#include "tune.h"

typedef struct progress_state {
    int index, count;
    bool tty;
    double last_line; /* when the last plain progress line was written */
} progress_state;

static void draw(int done, int total, void *user)
{
    progress_state *s = user;
    /* The step count of a class is an estimate (its refinement is not known in advance). */
    const double within = total > 0 && done < total ? (double)done / total : 1.0;
    const double fraction = ((double)s->index + within) / (double)s->count;
    if (!s->tty) {
        /* A log, not a bar: at most one line every few seconds. */
        const double now = ndpad_now();
        if (now - s->last_line < 5.0) return;
        s->last_line = now;
        fprintf(stderr, "ndpad-tune: %3d%% (class %d of %d)\n", (int)(fraction * 100.0 + 0.5),
                s->index + 1, s->count);
        return;
    }
    char bar[41];
    const int filled = (int)(fraction * 40.0 + 0.5);
    for (int k = 0; k < 40; k++) bar[k] = k < filled ? '#' : '.';
    bar[40] = '\0';
    fprintf(stderr, "\r[%s] %3d%%  class %d/%d  step %d/%d   ", bar, (int)(fraction * 100.0 + 0.5),
            s->index + 1, s->count, done, total);
    fflush(stderr);
}

/* --check of one class: its stored entry against the heuristic; an entry that no longer
 * wins is replaced by the heuristic's choice. */
static void check_one(ndpad_plan *plan, double seconds, const tune_run *run, tune_outcome *o)
{
    const ndpad_wisdom_key key = ndpad_wisdom_key_of(plan);
    ndpad_tile stored;
    o->had_entry = ndpad_wisdom_lookup(&key, &stored);
    if (!o->had_entry) return;
    o->ok = ndpad_tune_check(plan, stored, seconds, run->scratch_cap, run->noise, &o->result);
    if (!o->ok || o->result.refused) return;
    if (ndpad_tile_same(&o->result.challenger, &o->result.default_tile)) return;
    if (!o->result.verdict.keep) {
        /* the heuristic's tile, rows and columns as 0 (the heuristic's for every problem
         * of the class, as the tuner stores them); the in-place prefetch distance (not
         * timed here) stays */
        ndpad_tile heuristic = o->result.default_tile;
        heuristic.rows = heuristic.cols = 0;
        heuristic.prefetch = stored.prefetch;
        ndpad_wisdom_store(&key, heuristic, o->result.default_gbps);
        o->result.stored = true;
    }
}

/* A large class's share of the budget against another's: its runs take tens of ms, and
 * a sound choice between cached and streaming stores needs some rounds of them and two
 * sets of confirming pairs (seconds), where a small class decides in a second. */
#define LARGE_WEIGHT 6.0

static double job_weight(const tune_problem *p)
{
    return p->large ? LARGE_WEIGHT : 1.0;
}

/* The earlier outcome of this run that tuned `class_key` and stored its entry, or -1. */
static int class_owner(const tune_outcome *outcomes, int k, const char *class_key)
{
    for (int j = 0; j < k; j++)
        if (outcomes[j].checked_for == 0 && outcomes[j].ok && outcomes[j].result.stored &&
            strcmp(outcomes[j].class_key, class_key) == 0)
            return j;
    return -1;
}

/* The machine's noise as one number against one limit (NDPAD_MAX_NOISE): the paired memcpy
 * runs' noise, or other processes' share of the CPUs scaled so that its own limit
 * (NDPAD_MAX_OTHER_LOAD) lands on it, whichever is larger; over the limit exactly when the
 * measuring engine refuses (either reading over its limit). */
static double noise_reading(double noise, double others)
{
    const double scaled = others * (NDPAD_MAX_NOISE / NDPAD_MAX_OTHER_LOAD);
    return noise > scaled ? noise : scaled;
}

void tune_all(const tune_problem *problems, int count, const int *threads, int thread_count,
              const tune_run *run, tune_outcome *outcomes)
{
    const double start = ndpad_now(), budget = run->budget;
    /* Keep a tenth (at most two seconds) for planning, allocation and saving. */
    const double reserve = budget * 0.1 < 2.0 ? budget * 0.1 : 2.0;
    const int jobs = count * thread_count;
    progress_state state = {.count = jobs, .tty = isatty(2), .last_line = ndpad_now()};
    const ndpad_load_mark mark = ndpad_load_mark_now();
    const double noise = run->noise >= 0 ? run->noise : ndpad_measure_noise((size_t)4 << 20, 21);
    const double others = run->noise >= 0 ? 0 : ndpad_other_load(&mark);
    const double reading = noise_reading(noise, others);
    fprintf(stderr,
            "ndpad-tune: machine noise %.1f%% (limit %.0f%%; the larger of the paired memcpy "
            "runs' %.1f%% and other processes' %.0f%% of the CPUs scaled to the limit)%s\n",
            100 * reading, 100 * NDPAD_MAX_NOISE, 100 * noise, 100 * others,
            reading > NDPAD_MAX_NOISE ? ": loaded, classes measured under load store nothing; "
                                        "tune again when it is quiet"
                                      : "");
    double weights_left = 0;
    for (int k = 0; k < jobs; k++) weights_left += job_weight(&problems[k / thread_count]);
    for (int k = 0; k < jobs; k++) {
        const tune_problem *p = &problems[k / thread_count];
        const double weight = job_weight(p);
        tune_outcome *o = &outcomes[k];
        memset(o, 0, sizeof(*o));
        o->problem = *p;
        o->threads = threads[k % thread_count];
        state.index = k;
        draw(0, 1, &state);
        /* None left: stop. */
        const double left = budget - reserve - (ndpad_now() - start);
        if (left <= 0.02 * budget) {
            weights_left -= weight;
            fprintf(stderr, "%sndpad-tune: %s at %d thread%s: skipped, the budget is spent\n",
                    state.tty ? "\n" : "", p->name, o->threads, o->threads == 1 ? "" : "s");
            continue;
        }
        /* What is left, shared by the jobs not done yet in proportion to their weights. */
        const double share = left * weight / weights_left;
        weights_left -= weight;
        ndpad_plan *plan = tune_plan(p, o->threads);
        if (plan == NULL) continue;
        const ndpad_wisdom_key key = ndpad_wisdom_key_of(plan);
        ndpad_wisdom_key_format(&key, o->class_key, sizeof(o->class_key));
        const int owner = run->check ? -1 : class_owner(outcomes, k, o->class_key);
        if (run->check) {
            check_one(plan, share, run, o);
        } else if (owner >= 0) {
            /* The class's entry is one for all its problems: a second problem of the class
             * (conv constant and crop-pad, both 1x64x256x256 fp32) checks the entry the
             * first stored, and drops it for the heuristic's unless it wins here too. Tuned
             * again, the last would overwrite it: crop-pad's 229-row tiles, 2.3% faster
             * there, made conv 2.2% and the in-place conv 17% slower. */
            o->checked_for = owner + 1;
            check_one(plan, share, run, o);
        } else {
            /* Each class measures the noise again: a load that starts midway refuses the
             * classes it hits. */
            const ndpad_tune_settings settings = {.budget_seconds = share,
                                                  .scratch_cap = run->scratch_cap,
                                                  .noise = run->noise,
                                                  .progress = draw,
                                                  .user = &state};
            o->ok = ndpad_tune_plan_with(plan, &settings, &o->result);
        }
        ndpad_plan_destroy(plan);
    }
    if (state.tty) fprintf(stderr, "\r%*s\r", 80, "");
}

static void tile_text(const ndpad_tile *t, char *buf, size_t size)
{
    (void)ndpad_tile_text(t, buf, size);
}

/* The in-place prefetch stage's line under its class: the distance and its verdict. */
static void print_prefetch(const ndpad_tune_result *r)
{
    const ndpad_pair_verdict *v = &r->prefetch_verdict;
    const int32_t best = r->prefetch_challenger.prefetch;
    char distance[24];
    if (best == 0)
        snprintf(distance, sizeof(distance), "%d rows (default)", NDPAD_PREFETCH_ROWS);
    else if (best < 0)
        snprintf(distance, sizeof(distance), "none");
    else
        snprintf(distance, sizeof(distance), "%d rows", (int)best);
    printf("%-22s %4s   in place: gap-line prefetch, best %s", "", "", distance);
    if (best == 0 || v->pairs == 0)
        printf(": default kept\n");
    else if (v->keep)
        printf(": %.3fx, CONFIRMED twice in %d pairs (%.3f, %.3f; margin %.1f%%); stored\n",
               1.0 / v->ratio, v->pairs, v->set_ratio[0], v->set_ratio[1], 100 * v->margin);
    else
        printf(": %.3fx, not confirmed in %d pairs (margin %.1f%%); default kept\n", 1.0 / v->ratio,
               v->pairs, 100 * v->margin);
}

void tune_print_summary(const tune_outcome *outcomes, int count, bool check)
{
    printf("%-22s %4s %-22s %-28s %9s %9s %8s %-8s %s\n", "problem", "nthr", "heuristic",
           check ? "stored" : "tuned (challenger)", "heur GB/s", "cand GB/s", "speedup", "+-spread",
           "verdict");
    for (int k = 0; k < count; k++) {
        const tune_outcome *o = &outcomes[k];
        const ndpad_tune_result *r = &o->result;
        if (check && !o->had_entry) {
            if (o->class_key[0] != '\0')
                printf("%-22s %4d (no wisdom entry to check: class %s)\n", o->problem.name,
                       o->threads, o->class_key);
            continue;
        }
        if (!o->ok) {
            printf("%-22s %4d (not tuned: budget spent, or no plan or scratch memory)\n",
                   o->problem.name, o->threads);
            continue;
        }
        char def[48], cand[48];
        tile_text(&r->default_tile, def, sizeof(def));
        tile_text(&r->challenger, cand, sizeof(cand));
        const bool same = ndpad_tile_same(&r->challenger, &r->default_tile);
        /* a row checked as --check checks: "kept" / "dropped" wording */
        const bool checking = check || o->checked_for != 0;
        char speed[16] = "-", spread[16] = "-", cand_gbps[16] = "-", verdict[128];
        if (r->verdict.pairs > 0) {
            snprintf(speed, sizeof(speed), "%.3fx", 1.0 / r->verdict.ratio);
            snprintf(spread, sizeof(spread), "%.1f%%", 100 * r->verdict.spread);
            /* The challenger's rate from the same pairs: the heuristic's over the ratio. */
            snprintf(cand_gbps, sizeof(cand_gbps), "%.2f", r->default_gbps / r->verdict.ratio);
        }
        char owner[96] = "";
        if (o->checked_for != 0)
            snprintf(owner, sizeof(owner),
                     "class tuned by %s: ", outcomes[o->checked_for - 1].problem.name);
        if (r->refused)
            snprintf(verdict, sizeof(verdict), "%sREFUSED: machine noise %.1f%% over %.0f%%%s",
                     owner, 100 * noise_reading(r->noise, r->other_load), 100 * NDPAD_MAX_NOISE,
                     checking ? "; entry kept" : "; nothing stored");
        else if (checking && same)
            snprintf(verdict, sizeof(verdict), "%sthe entry is the heuristic's choice here", owner);
        else if (!checking && r->measured == 0)
            snprintf(verdict, sizeof(verdict),
                     "budget too short for any other variant; "
                     "nothing stored");
        else if (same)
            snprintf(verdict, sizeof(verdict), "heuristic is best (%d variants measured)",
                     r->measured);
        else if (r->verdict.keep)
            snprintf(verdict, sizeof(verdict),
                     "%sCONFIRMED twice in %d pairs (%.3f, %.3f; margin %.1f%%)%s", owner,
                     r->verdict.pairs, r->verdict.set_ratio[0], r->verdict.set_ratio[1],
                     100 * r->verdict.margin, checking ? "; kept" : "; stored");
        else if (r->verdict.sets == 2)
            snprintf(verdict, sizeof(verdict),
                     "%swon the first set (%.3f), not the second (%.3f; margin %.1f%%): %s", owner,
                     r->verdict.set_ratio[0], r->verdict.set_ratio[1], 100 * r->verdict.margin,
                     checking ? "entry dropped (heuristic)" : "heuristic stored");
        else
            snprintf(verdict, sizeof(verdict),
                     "%snot confirmed in %d pairs (margin %.1f%%): "
                     "%s",
                     owner, r->verdict.pairs, 100 * r->verdict.margin,
                     checking ? "entry dropped (heuristic)" : "heuristic stored");
        char heur_gbps[16] = "-"; /* nothing timed: a check of the heuristic's own choice */
        if (r->default_gbps > 0) snprintf(heur_gbps, sizeof(heur_gbps), "%.2f", r->default_gbps);
        printf("%-22s %4d %-22s %-28s %9s %9s %8s %-8s %s\n", o->problem.name, o->threads, def,
               cand, heur_gbps, cand_gbps, speed, spread, verdict);
        if (!check && r->inplace_checked && !r->refused)
            printf("%-22s %4s   in place: the tuned tile %.3fx of the heuristic's time (margin "
                   "%.1f%%): %s\n",
                   "", "", r->inplace_ratio, 100 * r->inplace_margin,
                   r->inplace_dropped ? "slower, heuristic stored" : "kept");
        if (!check && r->prefetch_measured && !r->refused) print_prefetch(r);
    }
    printf(
        "choice = tile rows x columns / threads; /nt streaming stores; /memcpy, /movsb the "
        "interior copy\n(default: the ISA's vector copy); /rows the output-stream path off; /pfN "
        "in-place prefetch N rows ahead. "
        "GB/s = (output + input bytes\ncopied) / median time over the confirming pairs "
        "(over 3 runs when none ran). "
        "speedup = 1 / median over\ninterleaved pairs of (candidate time / heuristic time); "
        "+-spread = that median's uncertainty\n(1.58 x IQR / sqrt(pairs)); stored only when "
        "the win exceeds the spread, the memcpy pairs' noise,\nthe heuristic-against-itself "
        "noise and 2%%, in two independent sets of pairs (the worse set is shown).\n"
        "Memcpy noise over 5%% (twice), or other processes over 10%% of the CPUs while it "
        "measured:\nmachine loaded, nothing stored. Slow classes (under 200 runs fit their share: the "
        "large outputs)\nchoose threads and streaming stores in rounds of all variants "
        "(the heuristic twice: its A/A noise).\n");
}

#define COMPARE_PAIRS 201

/* The heuristic's plan and the wisdom's plan of one problem run in pairs, one of each in
 * turn (which goes first alternates), on the same scratch buffers for about `seconds`:
 * both of a pair see the same load, so the median of the pairs' ratios is a fair speedup
 * on a shared machine even when the medians of the times themselves swing. */
static bool compare_pair(ndpad_plan *const plans[2], double seconds, int64_t scratch_cap,
                         double gbps[2], double *speedup)
{
    ndpad_scratch s;
    if (!ndpad_scratch_alloc_capped(plans[0], &s, scratch_cap)) return false;
    static double times[2][COMPARE_PAIRS], ratio[COMPARE_PAIRS];
    /* Both run as the scratch's dense plan with their own tiles (the buffers are dense). */
    ndpad_plan dense[2] = {s.plan, s.plan};
    for (int v = 0; v < 2; v++) dense[v].tile = plans[v]->tile;
    for (int v = 0; v < 2; v++) ndpad_run(&dense[v], s.in, s.out, false); /* warm-up */
    const double start = ndpad_now();
    int n = 0;
    while (n < COMPARE_PAIRS && (n < 5 || ndpad_now() - start < seconds)) {
        for (int i = 0; i < 2; i++) {
            const int v = i ^ (n & 1);
            const double t0 = ndpad_now();
            ndpad_run(&dense[v], s.in, s.out, false);
            times[v][n] = ndpad_now() - t0;
        }
        ratio[n] = times[1][n] > 0 ? times[0][n] / times[1][n] : 1.0;
        n++;
    }
    const double gb = (double)s.bytes_moved / 1e9;
    for (int v = 0; v < 2; v++) {
        const double t = ndpad_median(times[v], n);
        gbps[v] = t > 0 ? gb / t : 0;
    }
    *speedup = ndpad_median(ratio, n); /* n >= 5 */
    ndpad_scratch_free(&s);
    return true;
}

void tune_compare(const tune_problem *problems, int count, const int *threads, int thread_count,
                  double seconds, int64_t scratch_cap)
{
    printf("%-22s %7s %-16s %10s %-28s %10s %8s\n", "problem", "threads", "heuristic tile",
           "heur GB/s", "wisdom tile", "wisd GB/s", "speedup");
    for (int k = 0; k < count; k++)
        for (int c = 0; c < thread_count; c++) {
            const ndpad_problem problem = tune_as_problem(&problems[k]);
            ndpad_plan *plans[2] = {NULL, NULL};
            for (int v = 0; v < 2; v++) {
                ndpad_options options;
                ndpad_options_init(&options);
                options.threads = threads[c];
                options.tuning = v == 0 ? NDPAD_TUNING_HEURISTIC : NDPAD_TUNING_CACHE;
                if (ndpad_plan_create(&problem, &options, &plans[v]) != NDPAD_OK) plans[v] = NULL;
            }
            double gbps[2] = {0, 0}, speedup = 0;
            if (plans[0] == NULL || plans[1] == NULL ||
                !compare_pair(plans, seconds, scratch_cap, gbps, &speedup)) {
                printf("%-22s %7d (no plan or no scratch memory)\n", problems[k].name, threads[c]);
            } else {
                char a[40], b[60];
                tile_text(&plans[0]->tile, a, sizeof(a));
                tile_text(&plans[1]->tile, b, sizeof(b) - 16);
                if (plans[1]->tile_source != NDPAD_TILE_WISDOM)
                    strncat(b, " (no wisdom)", sizeof(b) - strlen(b) - 1);
                printf("%-22s %7d %-16s %10.2f %-28s %10.2f %7.3fx\n", problems[k].name, threads[c],
                       a, gbps[0], b, gbps[1], speedup);
            }
            ndpad_plan_destroy(plans[0]);
            ndpad_plan_destroy(plans[1]);
        }
    printf("GB/s = (output bytes + input bytes copied) / median time; speedup = median over "
           "paired runs\n(heuristic, wisdom in turn) of heuristic time / wisdom time\n");
}

/* ---- --neighbours: is a plan's speed independent of the plan that ran before it? ------ */

/* `a` and `b` (separate plan objects, as a program holds them) in interleaved pairs on one
 * pair of buffers for about `seconds`: the median of b/a and its uncertainty. */
static bool neighbour_pairs(const ndpad_plan *a, const ndpad_plan *b, const char *in, char *out,
                            double seconds, double *ratio_out, double *notch_out)
{
    static double ratio[COMPARE_PAIRS];
    for (int k = 0; k < 3; k++) {
        if (ndpad_execute(a, in, out) != NDPAD_OK || ndpad_execute(b, in, out) != NDPAD_OK)
            return false;
    }
    const double start = ndpad_now();
    int n = 0;
    while (n < COMPARE_PAIRS && (n < 11 || ndpad_now() - start < seconds)) {
        const ndpad_plan *first = n & 1 ? b : a, *second = n & 1 ? a : b;
        const double t0 = ndpad_now();
        (void)ndpad_execute(first, in, out);
        const double t1 = ndpad_now();
        (void)ndpad_execute(second, in, out);
        const double t2 = ndpad_now();
        const double ta = n & 1 ? t2 - t1 : t1 - t0, tb = n & 1 ? t1 - t0 : t2 - t1;
        ratio[n++] = ta > 0 ? tb / ta : 1.0;
    }
    const ndpad_pair_verdict v = ndpad_judge_pairs(ratio, n, 0.0, 0.0);
    *ratio_out = v.ratio;
    *notch_out = v.spread;
    return true;
}

void tune_neighbours(const tune_problem *problems, int count, const int *threads, int thread_count,
                     double seconds)
{
    printf("%-22s %4s  %-24s %-24s %-24s\n", "problem", "nthr", "heuristic / heuristic",
           "forced / heuristic", "wisdom / heuristic");
    for (int k = 0; k < count; k++)
        for (int c = 0; c < thread_count; c++) {
            const tune_problem *p = &problems[k];
            const ndpad_problem problem = tune_as_problem(p);
            int64_t shape[NDPAD_MAX_RANK];
            if (ndpad_output_shape(&problem, shape) != NDPAD_OK) continue;
            size_t in_bytes = p->esize, out_bytes = p->esize;
            for (int32_t a = 0; a < p->rank; a++) {
                in_bytes *= (size_t)p->shape[a];
                out_bytes *= (size_t)shape[a];
            }
            if (in_bytes + out_bytes > ((size_t)256 << 20)) continue; /* not the large ones */
            char *in = malloc(in_bytes + 64), *out = malloc(out_bytes + 64);
            ndpad_plan *plans[4] = {NULL, NULL, NULL, NULL}; /* heuristic x2, forced, wisdom */
            bool ok = in != NULL && out != NULL;
            if (ok) memset(in, 1, in_bytes), memset(out, 0, out_bytes);
            for (int v = 0; v < 4 && ok; v++) {
                ndpad_options options;
                ndpad_options_init(&options);
                options.threads = threads[c];
                options.tuning = v == 3 ? NDPAD_TUNING_CACHE : NDPAD_TUNING_HEURISTIC;
                if (v == 2) { /* the heuristic's own tile, forced */
                    options.tile_rows = plans[0]->tile.rows;
                    options.tile_cols = plans[0]->tile.cols;
                }
                ok = ndpad_plan_create(&problem, &options, &plans[v]) == NDPAD_OK;
            }
            char cell[3][32] = {"-", "-", "-"};
            for (int v = 1; v < 4 && ok; v++) {
                double ratio, notch;
                if (v == 3 && plans[3]->tile_source != NDPAD_TILE_WISDOM) {
                    snprintf(cell[2], sizeof(cell[2]), "(no wisdom entry)");
                    continue;
                }
                if (v == 3 && !ndpad_tile_same(&plans[3]->tile, &plans[0]->tile)) {
                    snprintf(cell[2], sizeof(cell[2]), "(another tile)");
                    continue;
                }
                if (neighbour_pairs(plans[0], plans[v], in, out, seconds, &ratio, &notch))
                    snprintf(cell[v - 1], sizeof(cell[v - 1]), "%.3f +- %.3f", ratio, notch);
            }
            printf("%-22s %4d  %-24s %-24s %-24s\n", p->name, threads[c], cell[0], cell[1],
                   cell[2]);
            for (int v = 0; v < 4; v++) ndpad_plan_destroy(plans[v]);
            free(in);
            free(out);
        }
    printf("median over interleaved pairs of (time of the plan / time of the heuristic plan), "
           "separate plan objects\nwith the same tile (forced: the heuristic's tile through "
           "options.tile_rows/cols; wisdom: when its entry\nis the heuristic's tile), +- the "
           "median's uncertainty. 1 within it: the plan's speed does not depend on\nwhich "
           "plan ran before it.\n");
}
