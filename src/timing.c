/* The monotonic clock and the order statistics of timed runs. */
#define _POSIX_C_SOURCE 200809L
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"

double ndpad_spread(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), ndpad_by_double);
    const double low = v[n / 4], high = v[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1];
    return low > 0 ? high / low : 1.0;
}

/* Quartiles of sorted v[0..n) by the nearest-rank rule, as ndpad_spread. */
static void quartiles(const double *v, int n, double *q1, double *q3)
{
    *q1 = v[n / 4];
    *q3 = v[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1];
}

/* 1.58 x IQR / sqrt(n) of sorted v[0..n): the half-width of a box plot's notch. */
static double notch(const double *v, int n)
{
    double q1, q3;
    quartiles(v, n, &q1, &q3);
    return 1.58 * (q3 - q1) / sqrt((double)n);
}

static double sorted_median(const double *v, int n)
{
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double ndpad_pair_noise(double *ratios, int n)
{
    if (n < 2) return 1.0;
    qsort(ratios, (size_t)n, sizeof(double), ndpad_by_double);
    return fabs(sorted_median(ratios, n) - 1.0) + notch(ratios, n);
}

ndpad_pair_verdict ndpad_judge_pairs(const double *ratios, int n, double noise, double floor)
{
    ndpad_pair_verdict v = {.pairs = n, .ratio = 1.0, .spread = 1.0, .margin = 1.0};
    v.loaded = !(noise <= NDPAD_MAX_NOISE); /* NaN counts as loaded */
    if (n < 1) return v;
    double *sorted = ndpad_malloc(sizeof(double) * (size_t)n);
    if (sorted == NULL) return v;
    memcpy(sorted, ratios, sizeof(double) * (size_t)n);
    qsort(sorted, (size_t)n, sizeof(double), ndpad_by_double);
    v.ratio = sorted_median(sorted, n);
    v.spread = notch(sorted, n);
    ndpad_free(sorted);
    v.margin = NDPAD_MIN_MARGIN;
    if (v.spread > v.margin) v.margin = v.spread;
    if (noise > v.margin) v.margin = noise;
    if (floor > v.margin) v.margin = floor;
    v.keep = !v.loaded && n >= NDPAD_MIN_PAIRS && v.ratio < 1.0 - v.margin;
    return v;
}

ndpad_pair_verdict ndpad_judge_two_sets(const double *first, int n1, const double *second, int n2,
                                        double noise, double floor)
{
    ndpad_pair_verdict a = ndpad_judge_pairs(first, n1, noise, floor);
    a.sets = 1;
    a.set_ratio[0] = a.set_ratio[1] = a.ratio;
    if (!a.keep || second == NULL || n2 < 1) {
        /* A first set that won but has no second one is not confirmed. */
        a.keep = false;
        return a;
    }
    const ndpad_pair_verdict b = ndpad_judge_pairs(second, n2, noise, floor);
    ndpad_pair_verdict v = a;
    v.sets = 2;
    v.set_ratio[1] = b.ratio;
    v.pairs = n1 + n2;
    if (b.ratio > v.ratio) v.ratio = b.ratio;
    if (b.spread > v.spread) v.spread = b.spread;
    if (b.margin > v.margin) v.margin = b.margin;
    v.loaded = a.loaded || b.loaded;
    /* Both sets win, and the less favourable ratio beats the larger margin. */
    v.keep = a.keep && b.keep && v.ratio < 1.0 - v.margin;
    return v;
}

double ndpad_measure_noise(size_t bytes, int pairs)
{
    char *a = ndpad_malloc(bytes), *b = ndpad_malloc(bytes);
    double *ratio = ndpad_malloc(sizeof(double) * (size_t)(pairs > 0 ? pairs : 1));
    double noise = 1.0;
    if (a != NULL && b != NULL && ratio != NULL && pairs >= 2) {
        memset(a, 1, bytes);
        memset(b, 2, bytes);
        for (int k = 0; k < pairs; k++) {
            double t[2];
            for (int i = 0; i < 2; i++) {
                const double t0 = ndpad_now();
                memcpy(b, a, bytes);
                __asm__ volatile("" : : "r"(b) : "memory"); /* the copy is not dead */
                t[i] = ndpad_now() - t0;
            }
            ratio[k] = t[0] > 0 ? t[1] / t[0] : 1.0;
        }
        noise = ndpad_pair_noise(ratio, pairs);
    }
    ndpad_free(a);
    ndpad_free(b);
    ndpad_free(ratio);
    return noise;
}

ndpad_load_mark ndpad_load_mark_now(void)
{
    ndpad_load_mark m = {.at = ndpad_now()};
    FILE *f = fopen("/proc/stat", "r");
    if (f != NULL) {
        unsigned long long v[10] = {0};
        /* cpu user nice system idle iowait irq softirq steal guest guest_nice */
        const int got = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
                               &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
        fclose(f);
        if (got >= 4) {
            /* guest time is already in user; steal is time the VM's host took. */
            const double idle = (double)v[3] + (double)v[4];
            const double all = (double)v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
            m.busy = all - idle;
            m.total = all;
            m.known = true;
        }
    }
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) == 0)
        m.own = (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec +
                (double)u.ru_stime.tv_sec + 1e-6 * (double)u.ru_stime.tv_usec;
    return m;
}

double ndpad_other_load(const ndpad_load_mark *since)
{
    const ndpad_load_mark now = ndpad_load_mark_now();
    if (!since->known || !now.known || now.total <= since->total) return 0;
    const double hz = (double)sysconf(_SC_CLK_TCK);
    const double own_ticks = (now.own - since->own) * (hz > 0 ? hz : 100);
    const double others = (now.busy - since->busy) - own_ticks;
    const double share = others / (now.total - since->total);
    return share < 0 ? 0 : share > 1 ? 1 : share;
}
