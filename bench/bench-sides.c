/*
 * ndpad-bench-sides — constants per axis and side (ndpad_plan_create_sides) and per channel
 * (ndpad_plan_create_per_index) against the single constant on the same shape: the conv
 * case 1x64x256x256 fp32 pad 1 (H, W; 64 channels on axis 1) and NHWC 1x224x224x3 fp32 pad
 * 1 (H, W; 3 channels on axis 3, a 12-byte pattern along each row). Each round runs the
 * single-constant plan and every variant's plan once, alternated (interleaved rounds in one
 * process); the figures are the medians of the times and of the per-round ratios to the
 * single constant. Then the one-shot calls the same way: ndpad_pad (its plan cache) against
 * ndpad_pad_sides and ndpad_pad_per_index, which plan on every call.
 * Usage: ndpad-bench-sides [threads] [rounds]   (threads 0: all cores)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-timing.h"
#include "ndpad.h"

#define MAX_ROUNDS 401
#define VARIANTS   4 /* single, all sides equal, four side values, per channel */

static const char *const variant_names[VARIANTS] = {"single constant", "per side, all equal",
                                                    "per side, 4 values", "per channel"};

static void die(const char *what)
{
    fprintf(stderr, "ndpad-bench-sides: %s: %s\n", what, ndpad_last_error());
    exit(1);
}

/* One shape: `axis` holds the channels. */
static void run_case(const char *name, const int64_t *shape, const int64_t *pads, int32_t axis,
                     int threads, int rounds)
{
    int64_t in_n = 1, out_n = 1, out_shape[4];
    for (int k = 0; k < 4; k++) {
        out_shape[k] = shape[k] + 2 * pads[k];
        in_n *= shape[k], out_n *= out_shape[k];
    }
    float *in = malloc((size_t)in_n * 4), *out = malloc((size_t)out_n * 4);
    float *channel = malloc((size_t)out_shape[axis] * 4);
    for (int64_t i = 0; i < in_n; i++) in[i] = (float)i;
    for (int64_t c = 0; c < out_shape[axis]; c++) channel[c] = 0.5f + (float)c;
    memset(out, 0, (size_t)out_n * 4);
    const float zero = 0, equal[8] = {0}, four[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const ndpad_problem p = {.rank = 4,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pads,
                             .pads_end = pads,
                             .pad_value = &zero};
    ndpad_options o;
    ndpad_options_init(&o);
    o.threads = threads;
    ndpad_plan *plan[VARIANTS] = {NULL};
    if (ndpad_plan_create(&p, &o, &plan[0]) != NDPAD_OK) die("plan");
    if (ndpad_plan_create_sides(&p, equal, &o, &plan[1]) != NDPAD_OK) die("sides plan");
    if (ndpad_plan_create_sides(&p, four, &o, &plan[2]) != NDPAD_OK) die("sides plan");
    if (ndpad_plan_create_per_index(&p, axis, channel, &o, &plan[3]) != NDPAD_OK)
        die("per-index plan");
    static double t[VARIANTS][MAX_ROUNDS], ratio[VARIANTS][MAX_ROUNDS];
    for (int warm = 0; warm < 5; warm++)
        for (int v = 0; v < VARIANTS; v++) ndpad_execute(plan[v], in, out);
    for (int r = 0; r < rounds; r++) {
        /* the order rotates, so that no variant always follows the same one */
        for (int i = 0; i < VARIANTS; i++) {
            const int v = (i + r) % VARIANTS;
            const double t0 = bench_now();
            if (ndpad_execute(plan[v], in, out) != NDPAD_OK) die("execute");
            t[v][r] = bench_now() - t0;
        }
        for (int v = 0; v < VARIANTS; v++) ratio[v][r] = t[v][r] / t[0][r];
    }
    for (int v = 0; v < VARIANTS; v++) {
        const double ms = bench_median(t[v], rounds) * 1e3;
        qsort(ratio[v], (size_t)rounds, sizeof(double), bench_by_value);
        printf("| %-22s | plan     | %-20s | %d | %8.4f | %5.2fx (%4.2f..%4.2f) |\n", name,
               variant_names[v], threads, ms, ratio[v][rounds / 2], ratio[v][rounds / 4],
               ratio[v][3 * rounds / 4]);
    }
    /* one-shot calls: default options when threads is 0 (ndpad_pad's cache), else `o` */
    const ndpad_options *use = threads == 0 ? NULL : &o;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < VARIANTS; i++) {
            const int v = (i + r) % VARIANTS;
            const double t0 = bench_now();
            ndpad_status st = NDPAD_OK;
            if (v == 0)
                st = use == NULL ? ndpad_pad(&p, in, out) : ndpad_execute(plan[0], in, out);
            else if (v == 3)
                st = ndpad_pad_per_index(&p, axis, channel, use, in, out);
            else
                st = ndpad_pad_sides(&p, v == 1 ? equal : four, use, in, out);
            if (st != NDPAD_OK) die("one-shot");
            t[v][r] = bench_now() - t0;
        }
        for (int v = 0; v < VARIANTS; v++) ratio[v][r] = t[v][r] / t[0][r];
    }
    for (int v = 0; v < VARIANTS; v++) {
        const double ms = bench_median(t[v], rounds) * 1e3;
        qsort(ratio[v], (size_t)rounds, sizeof(double), bench_by_value);
        printf("| %-22s | one-shot | %-20s | %d | %8.4f | %5.2fx (%4.2f..%4.2f) |\n", name,
               variant_names[v], threads, ms, ratio[v][rounds / 2], ratio[v][rounds / 4],
               ratio[v][3 * rounds / 4]);
    }
    for (int v = 0; v < VARIANTS; v++) ndpad_plan_destroy(plan[v]);
    free(channel);
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    const int threads = argc > 1 ? atoi(argv[1]) : 1;
    int rounds = argc > 2 ? atoi(argv[2]) : 51;
    if (rounds < 3) rounds = 3;
    if (rounds > MAX_ROUNDS) rounds = MAX_ROUNDS;
    const int64_t conv[4] = {1, 64, 256, 256}, conv_pads[4] = {0, 0, 1, 1};
    const int64_t nhwc[4] = {1, 224, 224, 3}, nhwc_pads[4] = {0, 1, 1, 0};
    printf("| case | form | constants | threads | median (ms) | ratio to single (IQR) |\n");
    printf("|---|---|---|---|---|---|\n");
    run_case("conv 1x64x256x256 p1", conv, conv_pads, 1, threads, rounds);
    run_case("nhwc 1x224x224x3 p1", nhwc, nhwc_pads, 3, threads, rounds);
    return 0;
}
