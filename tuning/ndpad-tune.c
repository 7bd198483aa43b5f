/*
 * ndpad-tune: measures tile shapes, thread counts and paths per problem class on this
 * machine and records the fastest in the wisdom file, which later plans read. The full
 * manual is the help text below (`ndpad-tune --help`); tuning/wisdom-format.md is the file.
 *
 * Exit status: 0 when the wisdom file holds what was tuned (or --check, --compare-only,
 * --neighbours ran); 2 for bad arguments; 1 when the file cannot be written; 3 when nothing
 * was tuned (every class refused on a loaded machine, or the budget spent before any
 * class): then the file is left as it was, never replaced by an empty one.
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

static const char help_text[] =
    "usage: ndpad-tune [OPTION]...\n"
    "Measures, per problem class, the tile shape, thread count, streaming stores, interior\n"
    "copy and output-stream path of ndpad's plans on this machine, and stores the fastest\n"
    "in the wisdom file that later plans read. A choice is stored only when two independent\n"
    "sets of interleaved pairs against the planner's heuristic confirm it beyond their\n"
    "spread and the machine's noise; on a loaded machine nothing is stored.\n"
    "\n"
    "  --budget SECONDS  time to spend measuring, in all (default 30)\n"
    "  --problem SPEC    tune this problem instead of the standard benchmark cases\n"
    "                    (repeatable), e.g.\n"
    "                    \"shape=1,64,256,256 pads=0,0,1,1/0,0,1,1 mode=constant esize=4\"\n"
    "                    shape= extents; pads= begin list/end list (negative: crop);\n"
    "                    mode= constant|edge|reflect|symmetric|wrap; esize= element bytes\n"
    "  --cache PATH      the wisdom file (default $NDPAD_WISDOM, else\n"
    "                    $XDG_CACHE_HOME/ndpad/wisdom or ~/.cache/ndpad/wisdom); merged\n"
    "                    with what it holds and replaced atomically\n"
    "  --threads LIST    thread budgets to tune, e.g. 1,2 (default 1 and all cores);\n"
    "                    plans made with options.threads = N use the entry of N\n"
    "  --large           also the standard cases over 256 MiB of output (each needs its\n"
    "                    input and output as scratch, about 0.6 GiB)\n"
    "  --max-memory MIB  scratch allowed per class (default 1024); larger classes keep\n"
    "                    the heuristic, with a warning\n"
    "  --check           re-measure the stored entries against the heuristic and drop\n"
    "                    those that no longer win\n"
    "  --noise FRACTION  take the machine's noise as this (0.01 = 1%) instead of\n"
    "                    measuring it: for tests that need a verdict on a loaded machine,\n"
    "                    never for real tuning (a loaded machine's winners are the load's)\n"
    "  --neighbours      only check that a plan's speed does not depend on its neighbour\n"
    "                    (interleaved pairs of separate plan objects); nothing is tuned\n"
    "  --compare         afterwards, heuristic vs tuned GB/s per thread budget (pairs, in\n"
    "                    turn, about a second each, outside the budget)\n"
    "  --compare-only    only that comparison, with the wisdom already in the file\n"
    "  --no-save         measure and print, but do not write the file\n"
    "  -h, --help        this text\n"
    "\n"
    "Exit status: 0 done; 1 the wisdom file could not be written; 2 bad arguments;\n"
    "3 nothing tuned (machine loaded, or budget too short): the file is left unchanged.\n";

/* Options that take a value. */
static bool takes_value(const char *a)
{
    static const char *const with_value[] = {"--budget",  "--problem", "--cache",
                                             "--threads", "--noise",   "--max-memory"};
    for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++)
        if (strcmp(a, with_value[k]) == 0) return true;
    return false;
}

/* A bad argument: what is wrong, and where the help is. */
static int bad_argument(const char *what, const char *arg)
{
    fprintf(stderr, "ndpad-tune: %s%s%s\nTry 'ndpad-tune --help'.\n", what, arg != NULL ? ": " : "",
            arg != NULL ? arg : "");
    return 2;
}

/* Of the outcomes that had something to do (--check: a stored entry to check), how many
 * reached a verdict (not refused on a loaded machine, not skipped for the budget); the
 * count of those with something to do in *asked. */
static int decided(const tune_outcome *outcomes, int count, bool check, int *asked)
{
    int n = 0;
    *asked = 0;
    for (int k = 0; k < count; k++) {
        const tune_outcome *o = &outcomes[k];
        if ((check || o->checked_for != 0) && !o->had_entry) continue;
        ++*asked;
        n += o->ok && !o->result.refused;
    }
    return n;
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
        if (takes_value(a) && !has_value) return bad_argument("option needs a value", a);
        if (strcmp(a, "--budget") == 0 && has_value) {
            char *end;
            budget = strtod(argv[++k], &end);
            if (*end != '\0' || !(budget > 0 && budget < 1e6)) {
                fprintf(stderr, "ndpad-tune: --budget wants a positive number of seconds\n");
                return 2;
            }
        } else if (strcmp(a, "--problem") == 0 && has_value) {
            if (count == MAX_PROBLEMS)
                return bad_argument("too many --problem options (64 at most)", NULL);
            if (!tune_parse_problem(argv[++k], &problems[count])) return 2;
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
            fputs(help_text, stdout);
            return 0;
        } else {
            return bad_argument(a[0] == '-' ? "unknown option" : "unexpected argument", a);
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
        int asked;
        const int reached = decided(outcomes, count * thread_count, run.check, &asked);
        if (asked > 0 && reached == 0) {
            fprintf(stderr,
                    "ndpad-tune: nothing was %s (every class refused on a loaded machine or "
                    "skipped for the budget); %s left unchanged\n",
                    run.check ? "checked" : "tuned", path);
            return 3;
        }
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
