/* The standard cases: one table read by the benchmark (bench/bench-cases.c), the tuner
 * (tuning/, which tunes each case's class) and, through the benchmark's JSON, the report
 * (ci/bench-report.py). A case's targets live here, beside its shape; the benchmark puts
 * them in the JSON as counters, so the report hard-codes none. Adding a case is adding a
 * line to standard-cases.c (HACKING.md, "Add a benchmark case"). */
#ifndef NDPAD_STANDARD_CASES_H
#define NDPAD_STANDARD_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STANDARD_MAX_RANK 8

/* The targets apply at 1 .. this many threads (the "1 and 2 threads"). */
#define STANDARD_TARGET_MAX_THREADS 2

/* plan/conv: ndpad_plan_create + ndpad_plan_destroy of the first case, target in us. */
#define STANDARD_PLAN_TARGET_US 2.0

typedef struct standard_case {
    const char *group; /* cases of one group share their input, output and memcpy run   */
    const char *name;  /* "conv", "inplace", ...: a benchmark is ndpad/<name>-<mode>/... */
    int32_t mode;      /* an ndpad_mode                                                   */
    int32_t rank;
    int64_t shape[STANDARD_MAX_RANK];
    int64_t pads_begin[STANDARD_MAX_RANK];
    int64_t pads_end[STANDARD_MAX_RANK];
    size_t elem_size;        /* bytes per element: 4 for fp32, 2 for fp16, 1 for uint8     */
    const void *pad_value;   /* elem_size bytes (CONSTANT), or NULL for zero bytes          */
    bool inplace;            /* the input already sits in the output's interior: borders only */
    bool tuned;              /* ndpad-tune tunes its class (false when another case shares it)  */
    bool large;              /* output >= 256 MiB: benchmarked with --ndpad_large and tuned
                                with ndpad-tune --large only (minutes, GiBs: not in CI)  */
    double target_vs_memcpy; /* time / memcpy of the output's bytes at most this, at
                                     1 .. STANDARD_TARGET_MAX_THREADS threads; 0 = none     */
} standard_case;

extern const standard_case standard_cases[];
extern const size_t standard_case_count;

#endif
