/*
 * ndpad-bench-bits — sub-byte elements (ndpad_bits_*): int4 4096 x 4096 (8 MiB packed),
 * pad 16 on every side in CONSTANT, EDGE and REFLECT, and a crop-and-pad at odd element
 * offsets (pads {-1, -3} before and {2, 5} after: every source row starts at its 3rd
 * element, mid-byte), each against a memcpy of the output's bytes in the same run:
 * interleaved rounds (ndpad, memcpy, ndpad, ...), the median of the per-round ratios.
 * A plan made once per case, executed with options.threads (default 1).
 * Usage: ndpad-bench-bits [threads] [rounds] [case name part]. One table row per case.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-timing.h"
#include "ndpad.h"

#define MAX_ROUNDS 401
#define SIDE       4096

typedef struct bits_case {
    const char *name;
    int mode;
    int64_t pb[2], pe[2];
    double target; /* vs memcpy of the output bytes, 1 thread */
} bits_case;

static const bits_case cases[] = {
    {"int4-constant-pad16", NDPAD_CONSTANT, {16, 16}, {16, 16}, 1.3},
    {"int4-edge-pad16", NDPAD_EDGE, {16, 16}, {16, 16}, 1.3},
    {"int4-reflect-pad16", NDPAD_REFLECT, {16, 16}, {16, 16}, 1.3},
    {"int4-crop-pad-odd", NDPAD_CONSTANT, {-1, -3}, {2, 5}, 2.0},
    {"int4-reflect-crop-pad-odd", NDPAD_REFLECT, {-1, -3}, {2, 5}, 2.0},
};

int main(int argc, char **argv)
{
    const int threads = argc > 1 ? atoi(argv[1]) : 1;
    int rounds = argc > 2 ? atoi(argv[2]) : 41;
    if (rounds < 1) rounds = 1;
    if (rounds > MAX_ROUNDS) rounds = MAX_ROUNDS;
    const int64_t shape[2] = {SIDE, SIDE};
    const size_t in_bytes = (size_t)SIDE * SIDE / 2;
    unsigned char *in = malloc(in_bytes);
    for (size_t i = 0; i < in_bytes; i++) in[i] = (unsigned char)(i * 2654435761u >> 13);
    const size_t out_capacity = (size_t)(SIDE + 32) * (SIDE + 32) / 2 + 64;
    unsigned char *out = malloc(out_capacity), *copy = malloc(out_capacity);
    unsigned char *source = malloc(out_capacity);
    memset(out, 0, out_capacity);
    memset(copy, 0, out_capacity);
    memset(source, 0x5A, out_capacity);
    ndpad_options o;
    ndpad_options_init(&o);
    o.threads = threads;
    printf("ndpad-bench-bits: int4 %dx%d (%zu MiB packed), threads %d, %d interleaved rounds, "
           "ISA %s\n",
           SIDE, SIDE, in_bytes >> 20, threads, rounds, "(per plan)");
    printf("%-28s %10s %10s %10s %8s %7s %s\n", "case", "out MiB", "ndpad ms", "memcpy ms", "ratio",
           "target", "isa");
    int missed = 0;
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const bits_case *k = &cases[c];
        if (argc > 3 && strstr(k->name, argv[3]) == NULL) continue;
        const uint8_t pad = 0x9;
        ndpad_bits_problem p;
        memset(&p, 0, sizeof(p));
        p.problem = (ndpad_problem){.rank = 2,
                                    .mode = k->mode,
                                    .shape = shape,
                                    .pads_begin = k->pb,
                                    .pads_end = k->pe,
                                    .pad_value = &pad};
        p.elem_bits = 4;
        int64_t n[2];
        ndpad_bits_plan *plan = NULL;
        if (ndpad_bits_output_shape(&p, n) != NDPAD_OK ||
            ndpad_bits_plan_create(&p, &o, &plan) != NDPAD_OK) {
            fprintf(stderr, "%s: %s\n", k->name, ndpad_last_error());
            return 1;
        }
        const size_t out_bytes = (size_t)((n[0] * n[1] * 4 + 7) / 8);
        double t_bits[MAX_ROUNDS], t_copy[MAX_ROUNDS], ratio[MAX_ROUNDS];
        for (int w = 0; w < 3; w++) {
            ndpad_bits_execute(plan, in, out);
            memcpy(copy, out, out_bytes);
        }
        for (int r = 0; r < rounds; r++) {
            double t0 = bench_now();
            ndpad_bits_execute(plan, in, out);
            double t1 = bench_now();
            memcpy(copy, in + (r & 1), out_bytes < in_bytes - 1 ? out_bytes : in_bytes - 1);
            memcpy(copy + in_bytes - 1, in,
                   out_bytes > in_bytes - 1 ? out_bytes - (in_bytes - 1) : 0);
            double t2 = bench_now();
            t_bits[r] = t1 - t0, t_copy[r] = t2 - t1, ratio[r] = t_bits[r] / t_copy[r];
        }
        const double rm = bench_median(ratio, rounds);
        const double ms_bits = 1e3 * bench_median(t_bits, rounds),
                     ms_copy = 1e3 * bench_median(t_copy, rounds);
        const bool met = threads != 1 || rm <= k->target;
        if (!met) missed++;
        printf("%-28s %10.2f %10.3f %10.3f %8.2f %6.1fx %s%s\n", k->name,
               (double)out_bytes / (1 << 20), ms_bits, ms_copy, rm, k->target,
               ndpad_isa_name(ndpad_bits_plan_isa(plan)), met ? "" : "  MISSED");
        ndpad_bits_plan_destroy(plan);
    }
    free(in), free(out), free(copy), free(source);
    printf("ndpad-bench-bits: %d of %zu targets missed (1 thread)\n", missed,
           sizeof(cases) / sizeof(cases[0]));
    return 0;
}
