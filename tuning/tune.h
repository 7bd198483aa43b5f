/* ndpad-tune internals: the problems it tunes (problems.c) and the driver that shares the
 * budget, shows progress and prints the results (driver.c). The engine itself (variants,
 * timing, the confirmation rule, storing) is src/measure.c and src/timing.c, shared with
 * plans made with NDPAD_TUNING_MEASURE. */
#ifndef NDPAD_TUNE_H
#define NDPAD_TUNE_H

#include <stdbool.h>
#include <stdint.h>

#include "ndpad.h"
#include "measure.h"
#include "wisdom.h"

typedef struct tune_problem {
    char name[48];
    int32_t rank;
    int32_t mode;
    size_t esize;
    int64_t shape[NDPAD_MAX_RANK], pads_begin[NDPAD_MAX_RANK], pads_end[NDPAD_MAX_RANK];
    bool large; /* 256 MiB of output or more: a standard case of these is tuned only with
                   --large; any gets a large share of the budget */
} tune_problem;

/* The classes of the standard benchmark cases (bench/standard-cases.c) that are tuned
 * (inplace shares conv-constant's class); the large-output ones only when `large`. */
int tune_standard_problems(tune_problem *out, int cap, bool large);

/* Parses "shape=1,64,256,256 pads=0,0,1,1/0,0,1,1 mode=constant esize=4"; false with a
 * message on stderr when it cannot. */
bool tune_parse_problem(const char *spec, tune_problem *out);

ndpad_problem tune_as_problem(const tune_problem *p);

/* A plan of `p` with `threads` (0 = all cores) and the heuristic tile. */
ndpad_plan *tune_plan(const tune_problem *p, int threads);

typedef struct tune_outcome {
    tune_problem problem;
    int threads; /* the plans' thread budget (options.threads) */
    char class_key[160];
    ndpad_tune_result result;
    bool ok;
    bool had_entry; /* --check: the class had a wisdom entry to check */
    /* Another problem of this run has the same class and stored its entry first: this
     * one checked that entry (as --check does) instead of tuning the class again. */
    int checked_for; /* index + 1 of that problem's outcome; 0: tuned (or --check) */
} tune_outcome;

typedef struct tune_run {
    double budget;       /* seconds for everything */
    int64_t scratch_cap; /* bytes of scratch per class */
    bool check;          /* re-measure stored entries instead of tuning */
    double noise;        /* < 0: measured; else taken as the noise (--noise, for tests) */
} tune_run;

/* Tunes (or with run->check, checks) each problem at each thread budget of `threads`
 * (`thread_count` of them) within run->budget seconds in all; `outcomes` has count *
 * thread_count entries, problem-major. The machine's noise is measured first and said;
 * progress is a bar on a terminal, plain lines otherwise (stderr). */
void tune_all(const tune_problem *problems, int count, const int *threads, int thread_count,
              const tune_run *run, tune_outcome *outcomes);

/* Summary table on stdout: class, heuristic choice, tuned choice, paired speedup with its
 * spread, and the verdict (confirmed, within the margin, refused on a loaded machine). */
void tune_print_summary(const tune_outcome *outcomes, int count, bool check);

/* The neighbour check (--neighbours): a heuristic plan alternated with a second heuristic
 * plan, a plan forced to the same tile and a wisdom plan of the same tile, each pair of
 * separate plan objects on one pair of buffers for about `seconds`; prints the medians of
 * the pairs' time ratios. Problems over 256 MiB are skipped. */
void tune_neighbours(const tune_problem *problems, int count, const int *threads, int thread_count,
                     double seconds);

/* Heuristic vs wisdom GB/s (medians) of each problem at each thread budget. */
void tune_compare(const tune_problem *problems, int count, const int *threads, int thread_count,
                  double seconds, int64_t scratch_cap);

#endif
