/* The measuring driver of ndpad-tune: shares the time budget over the problems, draws the
 * progress bar, prints the summary and the heuristic-vs-wisdom comparison. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tune.h"

typedef struct progress_state {
    int index, count;
    bool tty;
} progress_state;

static void draw(int done, int total, void *user)
{
    const progress_state *s = user;
    if (!s->tty) return;
    const double fraction =
        ((double)s->index + (total > 0 ? (double)done / total : 1.0)) / (double)s->count;
    char bar[41];
    const int filled = (int)(fraction * 40.0 + 0.5);
    for (int k = 0; k < 40; k++) bar[k] = k < filled ? '#' : '.';
    bar[40] = '\0';
    fprintf(stderr, "\r[%s] %3d%%  class %d/%d  candidate %d/%d   ", bar,
            (int)(fraction * 100.0 + 0.5), s->index + 1, s->count, done, total);
    fflush(stderr);
}

void tune_all(const tune_problem *problems, int count, const int *threads, int thread_count,
              double budget, tune_outcome *outcomes)
{
    const double start = ndpad_now();
    /* Keep a tenth (at most two seconds) for planning, allocation and saving. */
    const double reserve = budget * 0.1 < 2.0 ? budget * 0.1 : 2.0;
    const int jobs = count * thread_count;
    progress_state state = {.count = jobs, .tty = isatty(2)};
    for (int k = 0; k < jobs; k++) {
        const tune_problem *p = &problems[k / thread_count];
        tune_outcome *o = &outcomes[k];
        memset(o, 0, sizeof(*o));
        o->problem = *p;
        o->threads = threads[k % thread_count];
        state.index = k;
        draw(0, 1, &state);
        /* What is left, shared evenly by the jobs not done yet; none left: stop. */
        const double left = budget - reserve - (ndpad_now() - start);
        if (left <= 0.02 * budget) {
            fprintf(stderr, "ndpad-tune: %s at %d thread%s: skipped, the budget is spent\n",
                    p->name, o->threads, o->threads == 1 ? "" : "s");
            continue;
        }
        ndpad_plan *plan = tune_plan(p, o->threads);
        if (plan == NULL) continue;
        const ndpad_wisdom_key key = ndpad_wisdom_key_of(plan);
        ndpad_wisdom_key_format(&key, o->class_key, sizeof(o->class_key));
        o->ok = ndpad_tune_plan(plan, left / (double)(jobs - k), &o->result, draw, &state);
        ndpad_plan_destroy(plan);
    }
    if (state.tty) fprintf(stderr, "\r%*s\r", 80, "");
}

static void tile_text(const ndpad_tile *t, char *buf, size_t size)
{
    snprintf(buf, size, "%lldx%lld/%dt%s", (long long)t->rows, (long long)t->cols, (int)t->threads,
             t->stream ? "/nt" : "");
}

void tune_print_summary(const tune_outcome *outcomes, int count)
{
    printf("%-18s %-60s %-16s %-16s %8s %8s %7s %s\n", "problem", "class", "default tile",
           "tuned tile", "def GB/s", "tun GB/s", "speedup", "measured");
    for (int k = 0; k < count; k++) {
        const tune_outcome *o = &outcomes[k];
        if (!o->ok) {
            printf("%-18s (not tuned at %d thread%s: budget spent, or no plan or scratch "
                   "memory)\n",
                   o->problem.name, o->threads, o->threads == 1 ? "" : "s");
            continue;
        }
        char def[40], tuned[40];
        tile_text(&o->result.default_tile, def, sizeof(def));
        tile_text(&o->result.tuned_tile, tuned, sizeof(tuned));
        const double speedup =
            o->result.default_gbps > 0 ? o->result.tuned_gbps / o->result.default_gbps : 1.0;
        printf("%-18s %-60s %-16s %-16s %8.2f %8.2f %6.2fx %d/%d%s\n", o->problem.name,
               o->class_key, def, tuned, o->result.default_gbps, o->result.tuned_gbps, speedup,
               o->result.measured, o->result.candidates,
               o->result.noisy ? " noisy: kept the heuristic" : "");
    }
    printf("tile = rows x columns / threads (/nt = streaming stores); nthr = the plans' thread "
           "budget;\nGB/s = (output bytes + input bytes copied) / median time; speedup 1.00x = "
           "the heuristic's tile was kept;\nnoisy = the timings spread too much (a loaded "
           "machine) to trust a winner: tune again when it is quiet\n");
}

static int by_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    if (n == 0) return 0;
    qsort(v, (size_t)n, sizeof(double), by_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#define COMPARE_PAIRS 201

/* The heuristic's plan and the wisdom's plan of one problem run in pairs, one of each in
 * turn (which goes first alternates), on the same scratch buffers for about `seconds`:
 * both of a pair see the same load, so the median of the pairs' ratios is a fair speedup
 * on a shared machine even when the medians of the times themselves swing. */
static bool compare_pair(ndpad_plan *const plans[2], double seconds, double gbps[2],
                         double *speedup)
{
    ndpad_scratch s;
    if (!ndpad_scratch_alloc(plans[0], &s)) return false;
    static double times[2][COMPARE_PAIRS], ratio[COMPARE_PAIRS];
    for (int v = 0; v < 2; v++) ndpad_run(plans[v], s.in, s.out, false); /* warm-up */
    const double start = ndpad_now();
    int n = 0;
    while (n < COMPARE_PAIRS && (n < 5 || ndpad_now() - start < seconds)) {
        for (int i = 0; i < 2; i++) {
            const int v = i ^ (n & 1);
            const double t0 = ndpad_now();
            ndpad_run(plans[v], s.in, s.out, false);
            times[v][n] = ndpad_now() - t0;
        }
        ratio[n] = times[1][n] > 0 ? times[0][n] / times[1][n] : 1.0;
        n++;
    }
    const double gb = (double)s.bytes_moved / 1e9;
    for (int v = 0; v < 2; v++) {
        const double t = median(times[v], n);
        gbps[v] = t > 0 ? gb / t : 0;
    }
    *speedup = median(ratio, n);
    ndpad_scratch_free(&s);
    return true;
}

void tune_compare(const tune_problem *problems, int count, const int *threads, int thread_count,
                  double seconds)
{
    printf("%-18s %7s %-16s %10s %-28s %10s %8s\n", "problem", "threads", "heuristic tile",
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
                !compare_pair(plans, seconds, gbps, &speedup)) {
                printf("%-18s %7d (no plan or no scratch memory)\n", problems[k].name, threads[c]);
            } else {
                char a[40], b[60];
                tile_text(&plans[0]->tile, a, sizeof(a));
                tile_text(&plans[1]->tile, b, sizeof(b) - 16);
                if (plans[1]->tile_source != NDPAD_TILE_WISDOM)
                    strncat(b, " (no wisdom)", sizeof(b) - strlen(b) - 1);
                printf("%-18s %7d %-16s %10.2f %-28s %10.2f %7.2fx\n", problems[k].name, threads[c],
                       a, gbps[0], b, gbps[1], speedup);
            }
            ndpad_plan_destroy(plans[0]);
            ndpad_plan_destroy(plans[1]);
        }
    printf("GB/s = (output bytes + input bytes copied) / median time; speedup = median over "
           "paired runs\n(heuristic, wisdom in turn) of heuristic time / wisdom time\n");
}
