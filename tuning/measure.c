/* The measuring driver of ndpad-tune: shares the time budget over the problems, draws the
 * progress bar, prints the summary and the heuristic-vs-wisdom comparison. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tune.h"

typedef struct progress_state {
    int  index, count;
    bool tty;
} progress_state;

static void draw(int done, int total, void *user)
{
    const progress_state *s = user;
    if (!s->tty) return;
    const double fraction = ((double)s->index + (total > 0 ? (double)done / total : 1.0)) /
                            (double)s->count;
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
    snprintf(buf, size, "%lldx%lld/%dt%s", (long long)t->rows, (long long)t->cols,
             (int)t->threads, t->stream ? "/nt" : "");
}

void tune_print_summary(const tune_outcome *outcomes, int count)
{
    printf("%-18s %-60s %-16s %-16s %8s %8s %7s %s\n", "problem", "class", "default tile",
           "tuned tile", "def GB/s", "tun GB/s", "speedup", "measured");
    for (int k = 0; k < count; k++) {
        const tune_outcome *o = &outcomes[k];
        if (!o->ok) {
            printf("%-18s (not tuned at %d thread%s: budget spent, or no plan or scratch "
                   "memory)\n", o->problem.name, o->threads, o->threads == 1 ? "" : "s");
            continue;
        }
        char def[40], tuned[40];
        tile_text(&o->result.default_tile, def, sizeof(def));
        tile_text(&o->result.tuned_tile, tuned, sizeof(tuned));
        const double speedup = o->result.default_gbps > 0
                                   ? o->result.tuned_gbps / o->result.default_gbps : 1.0;
        printf("%-18s %-60s %-16s %-16s %8.2f %8.2f %6.2fx %d/%d\n", o->problem.name,
               o->class_key, def, tuned, o->result.default_gbps, o->result.tuned_gbps,
               speedup, o->result.measured, o->result.candidates);
    }
    printf("tile = rows x columns / threads (/nt = streaming stores); nthr = the plans' thread "
           "budget;\nGB/s = (output bytes + input bytes copied) / median time; speedup 1.00x = "
           "the heuristic's tile was kept\n");
}

static double measure_plan(ndpad_plan *plan, double seconds, ndpad_tile *tile)
{
    ndpad_scratch s;
    *tile = plan->tile;
    if (!ndpad_scratch_alloc(plan, &s)) return 0;
    const double t = ndpad_tune_time(plan, plan->tile, &s, 31, seconds);
    const double gbps = t > 0 ? (double)s.bytes_moved / 1e9 / t : 0;
    ndpad_scratch_free(&s);
    return gbps;
}

void tune_compare(const tune_problem *problems, int count, const int *threads,
                  int thread_count, double seconds)
{
    printf("%-18s %7s %-16s %10s %-28s %10s %7s\n", "problem", "threads", "heuristic tile",
           "heur GB/s", "wisdom tile", "wisd GB/s", "ratio");
    for (int k = 0; k < count; k++)
        for (int c = 0; c < thread_count; c++) {
            const ndpad_problem problem = tune_as_problem(&problems[k]);
            double gbps[2] = {0, 0};
            ndpad_tile tiles[2] = {{0}, {0}};
            const char *source[2] = {"", ""};
            for (int v = 0; v < 2; v++) {
                ndpad_options options;
                ndpad_options_init(&options);
                options.threads = threads[c];
                options.tuning = v == 0 ? NDPAD_TUNING_HEURISTIC : NDPAD_TUNING_CACHE;
                ndpad_plan *plan = NULL;
                if (ndpad_plan_create(&problem, &options, &plan) != NDPAD_OK) continue;
                gbps[v] = measure_plan(plan, seconds, &tiles[v]);
                source[v] = plan->tile_source == NDPAD_TILE_WISDOM ? "" : " (no wisdom)";
                ndpad_plan_destroy(plan);
            }
            char a[40], b[60];
            tile_text(&tiles[0], a, sizeof(a));
            tile_text(&tiles[1], b, sizeof(b) - 16);
            strncat(b, source[1], sizeof(b) - strlen(b) - 1);
            printf("%-18s %7d %-16s %10.2f %-28s %10.2f %6.2fx\n", problems[k].name, threads[c],
                   a, gbps[0], b, gbps[1], gbps[0] > 0 ? gbps[1] / gbps[0] : 0.0);
        }
    printf("GB/s = (output bytes + input bytes copied) / median of up to 31 runs\n");
}
