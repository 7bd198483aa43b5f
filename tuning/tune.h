/* ndpad-tune internals: the problems it tunes (candidates.c) and the measuring driver
 * (measure.c). The engine itself — candidate tiles, timing, storing — is in src/wisdom.c,
 * shared with plans made with NDPAD_TUNING_MEASURE. */
#ifndef NDPAD_TUNE_H
#define NDPAD_TUNE_H

#include <stdbool.h>
#include <stdint.h>

#include "ndpad.h"
#include "wisdom.h"

typedef struct tune_problem {
    char name[48];
    int32_t rank;
    int32_t mode;
    size_t esize;
    int64_t shape[NDPAD_MAX_RANK], pads_begin[NDPAD_MAX_RANK], pads_end[NDPAD_MAX_RANK];
} tune_problem;

/* The classes of bench/bench-cases.c's standard cases: conv in all five modes (inplace
 * shares conv-constant's class), image, nhwc, channel, ov-small. */
int tune_standard_problems(tune_problem *out, int cap);

/* Parses "shape=1,64,256,256 pads=0,0,1,1/0,0,1,1 mode=constant esize=4"; false with a
 * message on stderr when it cannot. */
bool tune_parse_problem(const char *spec, tune_problem *out);

ndpad_problem tune_as_problem(const tune_problem *p);

/* The thread budget of a plan made with options.threads = 0 (all cores, capped by
 * omp_get_max_threads()). */
int tune_default_threads(void);

/* A plan of `p` with `threads` (0 = all cores) and the heuristic tile. */
ndpad_plan *tune_plan(const tune_problem *p, int threads);

typedef struct tune_outcome {
    tune_problem problem;
    int threads; /* the plans' thread budget (options.threads) */
    char class_key[160];
    ndpad_tune_result result;
    bool ok;
} tune_outcome;

/* Tunes each problem at each thread budget of `threads` (`thread_count` of them) within
 * `budget` seconds in all; `outcomes` has count * thread_count entries, problem-major.
 * Progress bar on stderr when it is a terminal. */
void tune_all(const tune_problem *problems, int count, const int *threads, int thread_count,
              double budget, tune_outcome *outcomes);

/* Summary table on stdout. */
void tune_print_summary(const tune_outcome *outcomes, int count);

/* Heuristic vs wisdom GB/s (medians) of each problem at each thread budget. */
void tune_compare(const tune_problem *problems, int count, const int *threads, int thread_count,
                  double seconds);

#endif
