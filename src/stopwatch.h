/* The monotonic clock and the median of timed runs, for the measuring engine, the tuner and
 * the benchmarks alike (static inline: the benchmarks link the public library only). */
#ifndef NDPAD_STOPWATCH_H
#define NDPAD_STOPWATCH_H

#include <stdlib.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static inline double ndpad_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int ndpad_by_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n), sorting v in place; 0 when n < 1. */
static inline double ndpad_median(double *v, int n)
{
    if (n < 1) return 0.0;
    qsort(v, (size_t)n, sizeof(double), ndpad_by_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
