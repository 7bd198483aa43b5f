/*
 * ndpad-bench-sides — constants per axis and side (ndpad_pad_sides) against the single
 * constant on the same shape: the conv case 1x64x256x256 fp32 pad 1 and NHWC 1x224x224x3
 * pad 1 (H, W). Interleaved rounds, median of per-round ratios; each call of
 * ndpad_pad_sides makes its plans (as a user's call does), the single constant runs a
 * plan made once (its fastest form). Usage: ndpad-bench-sides [threads] [rounds];
 * threads 0 passes NULL options (all cores; small outputs then reuse cached plans).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ndpad.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define MAX_ROUNDS 201

static void run_case(const char *name, const int64_t *shape, const int64_t *pb, const int64_t *pe,
                     const float *sides, const char *sides_name, int threads, int rounds)
{
    int64_t in_n = 1, out_n = 1;
    for (int k = 0; k < 4; k++) in_n *= shape[k], out_n *= shape[k] + pb[k] + pe[k];
    float *in = malloc((size_t)in_n * 4), *out = malloc((size_t)out_n * 4);
    for (int64_t i = 0; i < in_n; i++) in[i] = (float)i;
    const float zero = 0;
    const ndpad_problem p = {.rank = 4,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe,
                             .pad_value = &zero};
    ndpad_options o;
    ndpad_options_init(&o);
    o.threads = threads;
    ndpad_plan *plan = NULL;
    if (ndpad_plan_create(&p, &o, &plan) != NDPAD_OK) {
        fprintf(stderr, "%s\n", ndpad_last_error());
        exit(1);
    }
    double single[MAX_ROUNDS], per_side[MAX_ROUNDS], ratio[MAX_ROUNDS];
    for (int warm = 0; warm < 3; warm++) {
        ndpad_execute(plan, in, out);
        ndpad_pad_sides(&p, sides, threads == 0 ? NULL : &o, in, out);
    }
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        ndpad_execute(plan, in, out);
        double t1 = now();
        if (ndpad_pad_sides(&p, sides, threads == 0 ? NULL : &o, in, out) != NDPAD_OK) exit(1);
        double t2 = now();
        single[r] = t1 - t0;
        per_side[r] = t2 - t1;
        ratio[r] = per_side[r] / single[r];
    }
    qsort(single, (size_t)rounds, sizeof(double), by_value);
    qsort(per_side, (size_t)rounds, sizeof(double), by_value);
    qsort(ratio, (size_t)rounds, sizeof(double), by_value);
    printf("| %-22s | %-34s | %d | %8.3f | %8.3f | %5.2fx (%4.2f..%4.2f) |\n", name, sides_name,
           threads, single[rounds / 2] * 1e3, per_side[rounds / 2] * 1e3, ratio[rounds / 2],
           ratio[rounds / 4], ratio[3 * rounds / 4]);
    ndpad_plan_destroy(plan);
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    const int threads = argc > 1 ? atoi(argv[1]) : 1;
    int rounds = argc > 2 ? atoi(argv[2]) : 31;
    if (rounds < 3) rounds = 3;
    if (rounds > MAX_ROUNDS) rounds = MAX_ROUNDS;
    const int64_t conv[4] = {1, 64, 256, 256}, conv_pb[4] = {0, 0, 1, 1};
    const int64_t nhwc[4] = {1, 224, 224, 3}, nhwc_pb[4] = {0, 1, 1, 0};
    const float same[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const float rows_cols[8] = {0, 0, 0, 0, 1, 1, 2, 2};
    const float four[8] = {0, 0, 0, 0, 1, 2, 3, 4};
    const float four_nhwc[8] = {0, 0, 1, 2, 3, 4, 0, 0};
    printf("| case | side values | threads | single (ms) | per side (ms) | ratio (IQR) |\n");
    printf("|---|---|---|---|---|---|\n");
    run_case("conv 1x64x256x256 p1", conv, conv_pb, conv_pb, same, "all equal", threads, rounds);
    run_case("conv 1x64x256x256 p1", conv, conv_pb, conv_pb, rows_cols, "H (1,1), W (2,2)", threads,
             rounds);
    run_case("conv 1x64x256x256 p1", conv, conv_pb, conv_pb, four, "H (1,2), W (3,4)", threads,
             rounds);
    run_case("nhwc 1x224x224x3 p1", nhwc, nhwc_pb, nhwc_pb, four_nhwc, "H (1,2), W (3,4)", threads,
             rounds);
    return 0;
}
