/* The clock and the median the small interleaved benchmarks share (ndpad-bench-bits,
 * ndpad-bench-sides): seconds on the monotonic clock, and the median of n values (sorted
 * in place). Header-only: each benchmark is one file. */
#ifndef NDPAD_BENCH_TIMING_H
#define NDPAD_BENCH_TIMING_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int bench_by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0 .. n), n >= 1; v ends up sorted. */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), bench_by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
