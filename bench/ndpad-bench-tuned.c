/*
 * ndpad-bench-tuned — the tuner's own measurement: for every standard case (the table of
 * bench/standard-cases.c) and thread count, the plan the wisdom gives (NDPAD_TUNING_CACHE)
 * against the plan the heuristic gives (NDPAD_TUNING_HEURISTIC; the in-process twin of
 * NDPAD_TUNING=heuristic), both made in this one process and timed in interleaved rounds on the same buffers, so that both see the same
 * load. For the large-output cases (--large) two more plans run in the same rounds: the
 * heuristic's choice with cached stores and with streaming stores forced, so that "the
 * wisdom at least as fast as the faster of the two (within 2%)" is measured, not assumed.
 *
 *   ndpad-bench-tuned [--large] [--threads LIST] [--seconds S] [--filter TEXT]
 *
 *   --large        also the cases of 256 MiB and more of output (about 0.6 GiB of buffers
 *                  each, some seconds per case)
 *   --threads LIST thread counts, comma-separated (default "1,C": one thread and the
 *                  budget of options.threads = 0, as ndpad-tune tunes them)
 *   --seconds S    timed rounds per case and thread count, about (default 0.5; at least 21
 *                  rounds, 11 for the large cases)
 *   --filter TEXT  only the cases whose name-mode contains TEXT
 *
 * One round runs every plan once, which plan goes first rotating from round to round. Per
 * round the ratio tuned time / heuristic time; the table gives the medians of the times,
 * the median of the ratios and its uncertainty (the notch: 1.58 x IQR / sqrt(rounds), the
 * tuner's rule), and a verdict: faster, same within noise, or SLOWER, where the noise is the
 * largest of the notch, the machine's noise (paired memcpy runs, measured first) and the
 * A/A noise: a second heuristic plan runs in the same rounds, and its median ratio to the
 * first strays from 1 only by chance (ndpad_pair_noise, the tuner's floor).
 * Exit status 0 (verdicts are reported, not judged: timings belong to the benchmark); 1 when
 * an ndpad call fails; 2 on a bad flag.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"
#include "ndpad.h"
#include "plan.h"
#include "standard-cases.h"
#include "tile-choice.h"
#include "timing.h"

#define MAX_THREAD_COUNTS 8
#define MAX_ROUNDS        401
#define MAX_PLANS         5 /* heuristic, tuned, heuristic again; large: cached, streaming */
#define LARGE_TOLERANCE   0.02

enum { HEUR, TUNED, HEUR2, CACHED, STREAMING };

typedef struct settings {
    bool large;
    int threads[MAX_THREAD_COUNTS], thread_count;
    double seconds;
    const char *filter;
} settings;

/* The rounds of one case at one thread count. */
typedef struct rounds {
    int plans, n;
    double t[MAX_PLANS][MAX_ROUNDS];
} rounds;

static void *zalloc(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes + 64) != 0) return NULL;
    memset(p, 0, bytes + 64); /* pages faulted in before any timing */
    return p;
}

static bool parse_args(int argc, char **argv, settings *s)
{
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        const bool more = k + 1 < argc;
        if (strcmp(a, "--large") == 0) {
            s->large = true;
        } else if (strcmp(a, "--threads") == 0 && more) {
            const char *p = argv[++k];
            s->thread_count = 0;
            while (*p != '\0') {
                char *end;
                const long v = strtol(p, &end, 10);
                if (end == p || v < 1 || v > 4096 || (*end != ',' && *end != '\0') ||
                    s->thread_count == MAX_THREAD_COUNTS)
                    return false;
                s->threads[s->thread_count++] = (int)v;
                p = *end == ',' ? end + 1 : end;
            }
            if (s->thread_count == 0) return false;
        } else if (strcmp(a, "--seconds") == 0 && more) {
            char *end;
            s->seconds = strtod(argv[++k], &end);
            if (*end != '\0' || !(s->seconds > 0 && s->seconds < 3600)) return false;
        } else if (strcmp(a, "--filter") == 0 && more) {
            s->filter = argv[++k];
        } else {
            return false;
        }
    }
    return true;
}

/* The output shape and the byte counts of a case; false when it does not fit in memory. */
static bool case_sizes(const standard_case *c, int64_t *out_shape, size_t *in_bytes,
                       size_t *out_bytes)
{
    *in_bytes = *out_bytes = c->elem_size;
    for (int k = 0; k < c->rank; k++) {
        out_shape[k] = c->pads_begin[k] + c->shape[k] + c->pads_end[k];
        if (out_shape[k] < 0) return false;
        *in_bytes *= (size_t)c->shape[k];
        *out_bytes *= (size_t)out_shape[k];
    }
    return true;
}

/* Every plan of the round once, the first one rotating; false when an execution fails. */
static bool run_rounds(ndpad_plan *const *plans, int count, const char *in, char *out,
                       double seconds, int min_rounds, rounds *r)
{
    r->plans = count;
    r->n = 0;
    for (int p = 0; p < count; p++) /* warm-up: code, pages, thread team */
        if (ndpad_execute(plans[p], in, out) != NDPAD_OK) return false;
    const double start = ndpad_now();
    while (r->n < MAX_ROUNDS && (r->n < min_rounds || ndpad_now() - start < seconds)) {
        for (int i = 0; i < count; i++) {
            /* Even rounds rotate forwards, odd ones backwards: every plan follows every
             * other about equally often. */
            const int p = r->n & 1 ? (count - 1 - (i + r->n / 2) % count) : (i + r->n / 2) % count;
            const double t0 = ndpad_now();
            (void)ndpad_execute(plans[p], in, out);
            r->t[p][r->n] = ndpad_now() - t0;
        }
        r->n++;
    }
    return true;
}

/* Median over the rounds of plans[a]'s time over plans[b]'s, with its notch. */
static ndpad_pair_verdict ratio_of(const rounds *r, int a, int b)
{
    static double ratio[MAX_ROUNDS];
    for (int k = 0; k < r->n; k++) ratio[k] = r->t[b][k] > 0 ? r->t[a][k] / r->t[b][k] : 1.0;
    return ndpad_judge_pairs(ratio, r->n, 0.0, 0.0);
}

/* The faster of CACHED and STREAMING: the lower median ratio to the heuristic over the
 * rounds. (The minimum of the two in each round would be biased: the lower of two noisy
 * times is below either's typical time.) */
static int faster_store(const rounds *r)
{
    return ratio_of(r, STREAMING, HEUR).ratio < ratio_of(r, CACHED, HEUR).ratio ? STREAMING
                                                                                : CACHED;
}

/* The A/A noise of the rounds: HEUR2 over HEUR (ndpad_pair_noise). */
static double aa_noise(const rounds *r)
{
    static double ratio[MAX_ROUNDS];
    for (int k = 0; k < r->n; k++)
        ratio[k] = r->t[HEUR][k] > 0 ? r->t[HEUR2][k] / r->t[HEUR][k] : 1.0;
    return ndpad_pair_noise(ratio, r->n);
}

static double median_us(const rounds *r, int p)
{
    static double v[MAX_ROUNDS];
    memcpy(v, r->t[p], sizeof(double) * (size_t)r->n);
    return 1e6 * ndpad_median(v, r->n);
}

static void choice_text(const ndpad_plan *plan, char *buf, size_t size)
{
    static const char *const sources[] = {"heuristic", "wisdom", "measured", "forced"};
    char tile[48];
    (void)ndpad_tile_text(&plan->tile, tile, sizeof(tile));
    const bool known = plan->tile_source >= 0 && plan->tile_source < 4;
    snprintf(buf, size, "%s (%s)", tile, known ? sources[plan->tile_source] : "?");
}

/* Large cases: the wisdom against the faster of cached and streaming stores. */
typedef struct large_line {
    char name[48];
    int threads;
    double cached_us, streaming_us;
    int best; /* CACHED or STREAMING */
    ndpad_pair_verdict vs_best;
} large_line;

int main(int argc, char **argv)
{
    settings s = {.seconds = 0.5};
    if (!parse_args(argc, argv, &s)) {
        fprintf(stderr, "usage: ndpad-bench-tuned [--large] [--threads LIST] [--seconds S] "
                        "[--filter TEXT]\n");
        return 2;
    }
    if (s.thread_count == 0) {
        const int all = ndpad_default_threads();
        s.threads[s.thread_count++] = 1;
        if (all > 1) s.threads[s.thread_count++] = all;
    }
    const ndpad_load_mark mark = ndpad_load_mark_now();
    const double noise = ndpad_measure_noise((size_t)4 << 20, 21);
    char wisdom[4096] = "";
    (void)ndpad_wisdom_path(wisdom, sizeof(wisdom));
    printf("tuned (wisdom) vs heuristic plans, interleaved rounds in one process; wisdom %s\n",
           wisdom[0] != '\0' ? wisdom : "(no path)");
    printf("%-22s %4s %-30s %-30s %10s %10s %7s %-7s %-7s %s\n", "class", "nthr",
           "heuristic choice", "tuned choice (source)", "heur us", "tuned us", "ratio", "+-",
           "noise", "verdict");
    static large_line large[16];
    int large_n = 0, failures = 0, slower = 0, faster = 0;
    for (size_t i = 0; i < standard_case_count; i++) {
        const standard_case *c = &standard_cases[i];
        if (c->large && !s.large) continue;
        char name[48];
        snprintf(name, sizeof(name), "%s-%s", c->name, ndpad_mode_name((ndpad_mode)c->mode));
        if (s.filter != NULL && strstr(name, s.filter) == NULL) continue;
        int64_t out_shape[STANDARD_MAX_RANK], strides[STANDARD_MAX_RANK];
        size_t in_bytes, out_bytes;
        if (!case_sizes(c, out_shape, &in_bytes, &out_bytes)) continue;
        ndpad_problem problem = {.rank = c->rank,
                                 .mode = c->mode,
                                 .elem_size = c->elem_size,
                                 .shape = c->shape,
                                 .pads_begin = c->pads_begin,
                                 .pads_end = c->pads_end,
                                 .pad_value = c->pad_value};
        char *out = zalloc(out_bytes), *in_block = c->inplace ? NULL : zalloc(in_bytes);
        const char *in = in_block;
        if (c->inplace) {
            /* The input sits in the output's interior, in its layout: borders only. */
            int64_t stride = 1, offset = 0;
            for (int k = c->rank - 1; k >= 0; k--) {
                strides[k] = stride;
                offset += c->pads_begin[k] * stride;
                stride *= out_shape[k];
            }
            problem.in_strides = problem.out_strides = strides;
            in = out != NULL ? out + offset * (int64_t)c->elem_size : NULL;
        }
        if (out == NULL || in == NULL) {
            printf("%-22s (no memory for %zu + %zu bytes)\n", name, in_bytes, out_bytes);
            free(out);
            free(in_block);
            continue;
        }
        for (int t = 0; t < s.thread_count; t++) {
            ndpad_plan *plans[MAX_PLANS] = {NULL, NULL, NULL, NULL, NULL};
            ndpad_plan forced[2];
            for (int v = 0; v < 3; v++) {
                ndpad_options o;
                ndpad_options_init(&o);
                o.threads = s.threads[t];
                o.tuning = v == TUNED ? NDPAD_TUNING_CACHE : NDPAD_TUNING_HEURISTIC;
                if (ndpad_plan_create(&problem, &o, &plans[v]) != NDPAD_OK) {
                    fprintf(stderr, "ndpad-bench-tuned: %s: %s\n", name, ndpad_last_error());
                    failures++;
                }
            }
            int count = 3;
            if (c->large && plans[HEUR] != NULL) {
                /* The heuristic's choice with either store: copies of its plan object (they
                 * own nothing of their own and are never destroyed). */
                for (int v = 0; v < 2; v++) {
                    forced[v] = *plans[HEUR];
                    forced[v].tile.nt = v;
                    plans[CACHED + v] = &forced[v];
                }
                count = 5;
            }
            static rounds r;
            if (plans[HEUR] == NULL || plans[TUNED] == NULL || plans[HEUR2] == NULL ||
                !run_rounds(plans, count, in, out, c->large ? 5 * s.seconds : s.seconds,
                            c->large ? 11 : 21, &r)) {
                if (plans[HEUR] != NULL && plans[TUNED] != NULL && plans[HEUR2] != NULL) {
                    fprintf(stderr, "ndpad-bench-tuned: %s: %s\n", name, ndpad_last_error());
                    failures++;
                }
                for (int v = 0; v < 3; v++) ndpad_plan_destroy(plans[v]);
                continue;
            }
            const ndpad_pair_verdict v = ratio_of(&r, TUNED, HEUR);
            /* The noise: the notch, the memcpy pairs', and the heuristic against a second
             * heuristic plan in the same rounds (an A/A test: how far such a median strays
             * for no reason; the tuner's floor too). */
            const double aa = aa_noise(&r);
            double tolerance = v.spread > noise ? v.spread : noise;
            if (aa > tolerance) tolerance = aa;
            const bool same = ndpad_tile_same(&plans[HEUR]->tile, &plans[TUNED]->tile);
            const char *verdict = v.ratio < 1.0 - tolerance   ? "faster"
                                  : v.ratio > 1.0 + tolerance ? "SLOWER"
                                                              : "same within noise";
            faster += v.ratio < 1.0 - tolerance;
            slower += v.ratio > 1.0 + tolerance;
            char heur[80], tuned[80];
            choice_text(plans[HEUR], heur, sizeof(heur));
            choice_text(plans[TUNED], tuned, sizeof(tuned));
            printf("%-22s %4d %-30s %-30s %10.1f %10.1f %7.3f %-7.3f %-7.3f %s%s\n", name,
                   s.threads[t], heur,
                   !same                                            ? tuned
                   : plans[TUNED]->tile_source == NDPAD_TILE_WISDOM ? "= heuristic (wisdom)"
                                                                    : "= heuristic (no entry)",
                   median_us(&r, HEUR), median_us(&r, TUNED), v.ratio, v.spread, tolerance, verdict,
                   same ? " (same choice)" : "");
            fflush(stdout);
            if (count == 5 && large_n < 16) {
                large_line *l = &large[large_n++];
                snprintf(l->name, sizeof(l->name), "%s", name);
                l->threads = s.threads[t];
                l->cached_us = median_us(&r, CACHED);
                l->streaming_us = median_us(&r, STREAMING);
                l->best = faster_store(&r);
                l->vs_best = ratio_of(&r, TUNED, l->best);
            }
            for (int v = 0; v < 3; v++) ndpad_plan_destroy(plans[v]);
        }
        free(out);
        free(in_block);
    }
    const double others = ndpad_other_load(&mark);
    printf(
        "%d faster, %d SLOWER, the rest the same within noise. us = median time per "
        "execution; ratio = median over\ninterleaved rounds of tuned time / heuristic time, "
        "+- its notch (1.58 x IQR / sqrt(rounds)); verdicts\nbeyond `noise`, the largest of "
        "the notch, the machine's memcpy noise and the A/A noise (a\nsecond heuristic plan "
        "in the same rounds against the first). choice = tile rows x cols / threads, /nt\nstreaming "
        "stores, /memcpy or /movsb the interior copy, /rows the output-stream path off, /pfN "
        "in-place\nprefetch N rows ahead.\n",
        faster, slower);
    printf("machine: memcpy pairs %.1f%% noise, other processes took %.0f%% of the CPUs during "
           "the run%s\n",
           100 * noise, 100 * others,
           noise > NDPAD_MAX_NOISE || others > NDPAD_MAX_OTHER_LOAD
               ? ": LOADED, the verdicts are the load's as much as the plans'"
               : "");
    if (large_n > 0) {
        printf("\nlarge outputs: the tuned plan against the faster of the heuristic's choice "
               "with cached and with\nstreaming stores, in the same rounds (target: ratio <= "
               "%.2f)\n",
               1.0 + LARGE_TOLERANCE);
        printf("%-22s %4s %12s %12s %-9s %7s %-7s %s\n", "class", "nthr", "cached us",
               "streaming us", "faster", "ratio", "+-", "target");
        for (int k = 0; k < large_n; k++) {
            const large_line *l = &large[k];
            printf("%-22s %4d %12.1f %12.1f %-9s %7.3f %-7.3f %s\n", l->name, l->threads,
                   l->cached_us, l->streaming_us, l->best == STREAMING ? "streaming" : "cached",
                   l->vs_best.ratio, l->vs_best.spread,
                   l->vs_best.ratio <= 1.0 + LARGE_TOLERANCE ? "met"
                   : l->vs_best.ratio - l->vs_best.spread <= 1.0 + LARGE_TOLERANCE
                       ? "not shown (within the notch)"
                       : "NOT MET");
        }
        printf("faster = the store with the lower median ratio to the heuristic over the rounds; "
               "ratio = median\nover the rounds of tuned time / that store's time in the same "
               "round, +- its notch.\n");
    }
    return failures > 0 ? 1 : 0;
}
