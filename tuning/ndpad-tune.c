/*
 * ndpad-tune — measure tile shapes and thread counts per problem class on this machine and
 * record the fastest in the wisdom file, which later plans read (NDPAD_TUNING_CACHE).
 *
 *   ndpad-tune [--budget SECONDS] [--problem SPEC]... [--cache PATH] [--threads LIST]
 *              [--large] [--max-memory MIB] [--check] [--compare | --compare-only]
 *              [--no-save]
 *
 *   What it searches per class: thread counts (fewer than the budget too), streaming stores
 *   on/off, tile shapes, the interior copy and the output-stream path on/off (coarse, then
 *   refined around the winner; slow classes, the large outputs, in rounds of all variants);
 *   a winner is stored only when two independent sets of interleaved pairs against the
 *   heuristic confirm it beyond their spread and the machine's noise. On a loaded machine
 *   (noisy paired memcpy runs) nothing is stored, and the summary says so.
 *
 *   --budget SECONDS  total time to spend measuring (default 30); the tuner finishes within it
 *                     (the comparison of --compare comes on top)
 *   --problem SPEC    tune this one problem instead of the standard cases of ndpad-bench, e.g.
 *                     "shape=1,64,256,256 pads=0,0,1,1/0,0,1,1 mode=constant esize=4"
 *                     (may be repeated)
 *   --cache PATH      the wisdom file (default $NDPAD_WISDOM, $XDG_CACHE_HOME/ndpad/wisdom,
 *                     ~/.cache/ndpad/wisdom); merged with what it holds, atomically
 *   --threads LIST    the thread budgets to tune for, comma-separated (default "1,C" with C
 *                     the cores ndpad uses by default). Wisdom is kept per thread budget:
 *                     plans made with options.threads = N (0 = all cores) use the entry of N
 *   --large           also the large-output classes (over 256 MiB of output; each of them
 *                     needs its input and output as scratch, about 0.6 GiB)
 *   --max-memory MIB  scratch buffers allowed per class (default 1024 MiB); larger classes
 *                     keep the heuristic, with a warning
 *   --check           re-measure the stored entries of the classes against the heuristic
 *                     (interleaved pairs) and revert those that no longer win
 *   --noise FRACTION  take the machine's noise as this (0.01 = 1%) instead of measuring it:
 *                     for tests, which need a verdict on a loaded machine; never for real
 *                     tuning (a loaded machine's winners are the load's)
 *   --neighbours      only check that a plan's speed does not depend on its neighbour: a
 *                     heuristic plan in interleaved pairs with a second heuristic plan, a
 *                     plan forced to the same tile and a wisdom plan of the same tile
 *                     (separate plan objects, as programs hold them); nothing is tuned
 *   --compare         afterwards, heuristic vs tuned GB/s at each thread budget: the two
 *                     plans run in pairs, in turn, about a second each (outside the budget);
 *                     the speedup is the median of the pairs' time ratios
 *   --compare-only    only the comparison, with the wisdom already in the file
 *   --no-save         measure and print, but do not write the file
 */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

#define MAX_PROBLEMS 64
#define MAX_THREADS  16

/* "1,2,4" into `out` (distinct values >= 1, in order); the count, or 0 when malformed. */
static int parse_threads(const char *s, int *out)
{
    int n = 0;
    while (*s != '\0') {
        char *end;
        const long v = strtol(s, &end, 10);
        if (end == s || v < 1 || v > 4096 || (*end != ',' && *end != '\0') || n == MAX_THREADS)
            return 0;
        bool seen = false;
        for (int k = 0; k < n; k++) seen |= out[k] == (int)v;
        if (!seen) out[n++] = (int)v;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

static void usage(FILE *f)
{
    fputs("usage: ndpad-tune [--budget SECONDS] [--problem SPEC]... [--cache PATH] "
          "[--threads LIST] [--large] [--max-memory MIB] [--check] [--noise FRACTION] "
          "[--neighbours] "
          "[--compare | --compare-only] [--no-save]\n"
          "  SPEC: \"shape=1,64,256,256 pads=0,0,1,1/0,0,1,1 mode=constant esize=4\"\n",
          f);
}

int main(int argc, char **argv)
{
    double budget = 30.0;
    const char *cache = NULL;
    int threads[MAX_THREADS], thread_count = 0;
    bool compare = false, compare_only = false, save = true, large = false, neighbours = false;
    tune_run run = {.budget = 30.0,
                    .scratch_cap = (int64_t)1024 << 20,
                    .check = false,
                    .noise = -1};
    static tune_problem problems[MAX_PROBLEMS];
    static tune_outcome outcomes[MAX_PROBLEMS * MAX_THREADS];
    int count = 0;

    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        const bool has_value = k + 1 < argc;
        if (strcmp(a, "--budget") == 0 && has_value) {
            char *end;
            budget = strtod(argv[++k], &end);
            if (*end != '\0' || !(budget > 0 && budget < 1e6)) {
                fprintf(stderr, "ndpad-tune: --budget wants a positive number of seconds\n");
                return 2;
            }
        } else if (strcmp(a, "--problem") == 0 && has_value) {
            if (count == MAX_PROBLEMS || !tune_parse_problem(argv[++k], &problems[count])) return 2;
            count++;
        } else if (strcmp(a, "--cache") == 0 && has_value) {
            cache = argv[++k];
        } else if (strcmp(a, "--threads") == 0 && has_value) {
            thread_count = parse_threads(argv[++k], threads);
            if (thread_count == 0) {
                fprintf(stderr, "ndpad-tune: --threads wants thread counts >= 1, e.g. 1,2\n");
                return 2;
            }
        } else if (strcmp(a, "--large") == 0) {
            large = true;
        } else if (strcmp(a, "--noise") == 0 && has_value) {
            char *end;
            run.noise = strtod(argv[++k], &end);
            if (*end != '\0' || !(run.noise >= 0 && run.noise <= 1)) {
                fprintf(stderr, "ndpad-tune: --noise wants a fraction in [0, 1]\n");
                return 2;
            }
        } else if (strcmp(a, "--check") == 0) {
            run.check = true;
        } else if (strcmp(a, "--max-memory") == 0 && has_value) {
            char *end;
            const long long mib = strtoll(argv[++k], &end, 10);
            if (*end != '\0' || mib < 1 || mib > ((long long)1 << 30)) {
                fprintf(stderr, "ndpad-tune: --max-memory wants a positive number of MiB\n");
                return 2;
            }
            run.scratch_cap = (int64_t)mib << 20;
        } else if (strcmp(a, "--neighbours") == 0) {
            neighbours = true;
        } else if (strcmp(a, "--compare") == 0) {
            compare = true;
        } else if (strcmp(a, "--compare-only") == 0) {
            compare = compare_only = true;
        } else if (strcmp(a, "--no-save") == 0) {
            save = false;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (count == 0) {
        count = tune_standard_problems(problems, MAX_PROBLEMS, large);
    }
    run.budget = budget;
    /* The file the plans of this process read and the file written are the same. */
    if (cache != NULL) setenv("NDPAD_WISDOM", cache, 1);
    char path[4096];
    if (ndpad_wisdom_path(path, sizeof(path)) == 0) {
        fprintf(stderr, "ndpad-tune: no wisdom location: use --cache PATH or set NDPAD_WISDOM\n");
        return 2;
    }
    ndpad_wisdom_forget(); /* load from `path` on first use */
    if (thread_count == 0) {
        /* The budgets plans have: one thread, and what threads = 0 gives (all cores,
         * capped by omp_get_max_threads(), as the planner counts them). */
        const int all = ndpad_default_threads();
        threads[thread_count++] = 1;
        if (all > 1) threads[thread_count++] = all;
    }
    char thread_text[128] = "";
    for (int k = 0; k < thread_count; k++)
        snprintf(thread_text + strlen(thread_text), sizeof(thread_text) - strlen(thread_text),
                 "%s%d", k ? "," : "", threads[k]);

    if (neighbours) {
        /* Only the check: no tuning, nothing saved. */
        tune_neighbours(problems, count, threads, thread_count, 0.5);
        return 0;
    }
    if (!compare_only) {
        fprintf(stderr,
                "ndpad-tune: %s %d problem%s at thread budgets %s, budget %.1f s, "
                "machine %s\n",
                run.check ? "checking the wisdom of" : "tuning", count, count == 1 ? "" : "s",
                thread_text, budget, ndpad_wisdom_fingerprint());
        const double start = ndpad_now();
        const ndpad_load_mark mark = ndpad_load_mark_now();
        tune_all(problems, count, threads, thread_count, &run, outcomes);
        tune_print_summary(outcomes, count * thread_count, run.check);
        if (save) {
            if (ndpad_wisdom_save_for(path, "ndpad-tune") != NDPAD_OK) {
                fprintf(stderr, "ndpad-tune: %s\n", ndpad_last_error());
                return 1;
            }
            printf("wisdom written to %s\n", path);
        }
        /* What others took meanwhile: runs on a loaded machine stretch, and with them the
         * least a class measures (tests read this to judge the budget). */
        printf("tuning took %.1f s of a %.1f s budget (other processes: %.0f%% of the CPUs)\n",
               ndpad_now() - start, budget, 100 * ndpad_other_load(&mark));
    }
    if (compare) {
        printf("\n");
        fflush(stdout);
        tune_compare(problems, count, threads, thread_count, 1.0, run.scratch_cap);
    }
    char warning[600];
    if (ndpad_wisdom_warning(warning, sizeof(warning)) > 0 && warning[0] != '\0')
        fprintf(stderr, "ndpad-tune: note: %s\n", warning);
    return 0;
}
