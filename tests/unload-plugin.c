/*
 * unload-plugin.c — the plugin of test-unload: a module that uses ndpad (linked with the
 * static library, or with the shared one) the way a host's plugin would, with two threads,
 * so that ndpad's workers start inside it. test-unload loads, runs and unloads it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ndpad.h"

/* Pads a 256 x 256 fp32 image by 3 with 7.0 on two threads and checks the output: 0 when
 * it is right, else 1 (or 2 when ndpad failed). */
__attribute__((visibility("default"))) int unload_plugin_run(void)
{
    enum { N = 256, P = 3, M = N + 2 * P };
    const int64_t shape[2] = {N, N}, pads[2] = {P, P};
    const float seven = 7.0f;
    float *in = malloc(sizeof(float) * N * N), *out = malloc(sizeof(float) * M * M);
    if (in == NULL || out == NULL) {
        free(in), free(out);
        return 2;
    }
    for (int i = 0; i < N * N; i++) in[i] = (float)i;
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = sizeof(float),
                             .shape = shape,
                             .pads_begin = pads,
                             .pads_end = pads,
                             .pad_value = &seven};
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = 2;
    ndpad_plan *plan = NULL;
    int result = 0;
    if (ndpad_plan_create(&p, &options, &plan) != NDPAD_OK ||
        ndpad_execute(plan, in, out) != NDPAD_OK)
        result = 2;
    ndpad_plan_destroy(plan);
    for (int y = 0; y < M && result == 0; y++)
        for (int x = 0; x < M; x++) {
            const bool pad = y < P || y >= N + P || x < P || x >= N + P;
            const float want = pad ? seven : in[(y - P) * N + (x - P)];
            if (out[y * M + x] != want) {
                result = 1;
                break;
            }
        }
    free(in);
    free(out);
    return result;
}
