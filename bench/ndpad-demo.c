/*
 * ndpad-demo: the specifications' worked examples, checked.
 *
 *   1. pads every worked example of the specifications (OpenVINO Pad-1/Pad-12, nGraph Pad,
 *      ONNX Pad) and prints the results as matrices, each checked against the spec's output;
 *   2. shows where ONNX Runtime and OpenVINO Pad-12 differ on negative pads.
 * Timings are the benchmark's job (ndpad-bench, ci/bench.sh).
 *
 * Exit status: 0 when every call succeeds and every result matches, 1 otherwise.
 */
#include "ndpad.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_failures;

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Reports a failed call; returns 1 when `st` is OK so callers can write `if (!ok(...))`. */
static int ok(ndpad_status st, const char *what)
{
    if (st == NDPAD_OK) return 1;
    fprintf(stderr, "FAIL: %s: %s: %s\n", what, ndpad_status_string(st), ndpad_last_error());
    g_failures++;
    return 0;
}

static void print_matrix(const float *m, int64_t rows, int64_t cols)
{
    for (int64_t r = 0; r < rows; r++) {
        fputs("    ", stdout);
        for (int64_t c = 0; c < cols; c++) printf(" %4g", (double)m[r * cols + c]);
        putchar('\n');
    }
}

/* Prints `got` and compares it with the specification's `want`. */
static void show_result(const char *title, const float *got, const int64_t *shape,
                        const float *want, const int64_t *want_shape)
{
    const int same_shape = shape[0] == want_shape[0] && shape[1] == want_shape[1];
    const int same =
        same_shape && memcmp(got, want, (size_t)(shape[0] * shape[1]) * sizeof(float)) == 0;
    printf("  %s -> %lldx%lld  [%s]\n", title, (long long)shape[0], (long long)shape[1],
           same ? "matches the spec" : "MISMATCH");
    print_matrix(got, shape[0], shape[1]);
    if (!same) {
        printf("    expected %lldx%lld:\n", (long long)want_shape[0], (long long)want_shape[1]);
        print_matrix(want, want_shape[0], want_shape[1]);
        g_failures++;
    }
}

/* ----------------------------------------------------------------------------------------- */
/* 1. OpenVINO Pad-1 / Pad-12 on DATA = [[1 2 3 4] [5 6 7 8] [9 10 11 12]]                     */
/* ----------------------------------------------------------------------------------------- */

typedef struct openvino_example {
    const char *pads;
    int32_t mode;
    int64_t pb[2], pe[2];
    int64_t rows, cols;
    float want[40];
} openvino_example;

/* clang-format off */
static const openvino_example openvino_examples[] = {
    /* positive pads (Pad-1 and Pad-12) */
    {"pads_begin [0, 1], pads_end [2, 3]", NDPAD_CONSTANT, {0, 1}, {2, 3}, 5, 8,
     {0, 1, 2, 3, 4, 0, 0, 0, 0, 5, 6, 7, 8, 0, 0, 0, 0, 9, 10, 11, 12, 0, 0, 0,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"pads_begin [0, 1], pads_end [2, 3]", NDPAD_EDGE, {0, 1}, {2, 3}, 5, 8,
     {1, 1, 2, 3, 4, 4, 4, 4, 5, 5, 6, 7, 8, 8, 8, 8, 9, 9, 10, 11, 12, 12, 12, 12,
      9, 9, 10, 11, 12, 12, 12, 12, 9, 9, 10, 11, 12, 12, 12, 12}},
    {"pads_begin [0, 1], pads_end [2, 3]", NDPAD_REFLECT, {0, 1}, {2, 3}, 5, 8,
     {2, 1, 2, 3, 4, 3, 2, 1, 6, 5, 6, 7, 8, 7, 6, 5, 10, 9, 10, 11, 12, 11, 10, 9,
      6, 5, 6, 7, 8, 7, 6, 5, 2, 1, 2, 3, 4, 3, 2, 1}},
    {"pads_begin [0, 1], pads_end [2, 3]", NDPAD_SYMMETRIC, {0, 1}, {2, 3}, 5, 8,
     {1, 1, 2, 3, 4, 4, 3, 2, 5, 5, 6, 7, 8, 8, 7, 6, 9, 9, 10, 11, 12, 12, 11, 10,
      9, 9, 10, 11, 12, 12, 11, 10, 5, 5, 6, 7, 8, 8, 7, 6}},
    /* negative pads (Pad-12): every mode crops to [[6 7]] */
    {"pads_begin [-1, -1], pads_end [-1, -1]", NDPAD_CONSTANT, {-1, -1}, {-1, -1}, 1, 2, {6, 7}},
    {"pads_begin [-1, -1], pads_end [-1, -1]", NDPAD_EDGE, {-1, -1}, {-1, -1}, 1, 2, {6, 7}},
    {"pads_begin [-1, -1], pads_end [-1, -1]", NDPAD_REFLECT, {-1, -1}, {-1, -1}, 1, 2, {6, 7}},
    {"pads_begin [-1, -1], pads_end [-1, -1]", NDPAD_SYMMETRIC, {-1, -1}, {-1, -1}, 1, 2, {6, 7}},
    /* mixed pads (Pad-12): borders come from the whole input, not the cropped part */
    {"pads_begin [2, -1], pads_end [-1, 3]", NDPAD_CONSTANT, {2, -1}, {-1, 3}, 4, 6,
     {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 4, 0, 0, 0, 6, 7, 8, 0, 0, 0}},
    {"pads_begin [2, -1], pads_end [-1, 3]", NDPAD_EDGE, {2, -1}, {-1, 3}, 4, 6,
     {2, 3, 4, 4, 4, 4, 2, 3, 4, 4, 4, 4, 2, 3, 4, 4, 4, 4, 6, 7, 8, 8, 8, 8}},
    {"pads_begin [2, -1], pads_end [-1, 3]", NDPAD_REFLECT, {2, -1}, {-1, 3}, 4, 6,
     {10, 11, 12, 11, 10, 9, 6, 7, 8, 7, 6, 5, 2, 3, 4, 3, 2, 1, 6, 7, 8, 7, 6, 5}},
    {"pads_begin [2, -1], pads_end [-1, 3]", NDPAD_SYMMETRIC, {2, -1}, {-1, 3}, 4, 6,
     {6, 7, 8, 8, 7, 6, 2, 3, 4, 4, 3, 2, 2, 3, 4, 4, 3, 2, 6, 7, 8, 8, 7, 6}},
};
/* clang-format on */

static const float openvino_data[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

static void demo_openvino(void)
{
    printf("OpenVINO Pad-1 / Pad-12, DATA (3x4):\n");
    print_matrix(openvino_data, 3, 4);
    const char *last_pads = "";
    for (size_t k = 0; k < ARRAY_LEN(openvino_examples); k++) {
        const openvino_example *ex = &openvino_examples[k];
        if (strcmp(ex->pads, last_pads) != 0) {
            printf("\n %s\n", ex->pads);
            last_pads = ex->pads;
        }
        const int64_t shape[2] = {3, 4};
        const ndpad_problem p = {.rank = 2,
                                 .mode = ex->mode,
                                 .elem_size = sizeof(float),
                                 .shape = shape,
                                 .pads_begin = ex->pb,
                                 .pads_end = ex->pe};
        int64_t out_shape[2];
        float out[40];
        if (!ok(ndpad_output_shape(&p, out_shape), "ndpad_output_shape (OpenVINO)")) continue;
        if (out_shape[0] * out_shape[1] > (int64_t)ARRAY_LEN(out)) {
            fprintf(stderr, "FAIL: unexpected output shape %lldx%lld\n", (long long)out_shape[0],
                    (long long)out_shape[1]);
            g_failures++;
            continue;
        }
        if (!ok(ndpad_pad(&p, openvino_data, out), "ndpad_pad (OpenVINO)")) continue;
        const int64_t want_shape[2] = {ex->rows, ex->cols};
        char title[64];
        snprintf(title, sizeof(title), "pad_mode = \"%s\"", ndpad_mode_name(ex->mode));
        show_result(title, out, out_shape, ex->want, want_shape);
    }

    /* The 4-D examples of Pad-1 and Pad-12 give only output shapes. */
    printf("\n Output shapes of the 4-D examples (ndpad_output_shape):\n");
    /* clang-format off */
    static const struct {
        const char *name;
        int32_t mode;
        int64_t shape[4], pb[4], pe[4], want[4];
    } shapes[] = {
        {"Pad-1  1x3x32x40, pads [0,5,2,1]/[1,0,3,7], constant 15", NDPAD_CONSTANT,
         {1, 3, 32, 40}, {0, 5, 2, 1}, {1, 0, 3, 7}, {2, 8, 37, 48}},
        {"Pad-1  1x3x32x40, pads [0,5,2,1]/[1,0,3,7], edge       ", NDPAD_EDGE,
         {1, 3, 32, 40}, {0, 5, 2, 1}, {1, 0, 3, 7}, {2, 8, 37, 48}},
        {"Pad-12 2x3x32x40, pads [0,-2,-8,1]/[-1,4,-6,7], constant", NDPAD_CONSTANT,
         {2, 3, 32, 40}, {0, -2, -8, 1}, {-1, 4, -6, 7}, {1, 5, 18, 48}},
    };
    /* clang-format on */
    for (size_t k = 0; k < ARRAY_LEN(shapes); k++) {
        const float fifteen = 15.0f;
        const ndpad_problem p = {.rank = 4,
                                 .mode = shapes[k].mode,
                                 .elem_size = sizeof(float),
                                 .shape = shapes[k].shape,
                                 .pads_begin = shapes[k].pb,
                                 .pads_end = shapes[k].pe,
                                 .pad_value = shapes[k].mode == NDPAD_CONSTANT ? &fifteen : NULL};
        int64_t s[4];
        if (!ok(ndpad_output_shape(&p, s), "ndpad_output_shape (4-D)")) continue;
        const int same = memcmp(s, shapes[k].want, sizeof(s)) == 0;
        printf("  %s -> %lldx%lldx%lldx%lld  [%s]\n", shapes[k].name, (long long)s[0],
               (long long)s[1], (long long)s[2], (long long)s[3],
               same ? "matches the spec" : "MISMATCH");
        g_failures += !same;
    }
}

/* ----------------------------------------------------------------------------------------- */
/* 2. nGraph Pad v0: interior padding                                                          */
/* ----------------------------------------------------------------------------------------- */

static void demo_ngraph(void)
{
    printf("\nnGraph Pad (v0): 3x3, padding_below (1,2), padding_above (1,0), "
           "padding_interior (1,2), value 42\n");
    const int64_t shape[2] = {3, 3}, below[2] = {1, 2}, above[2] = {1, 0}, interior[2] = {1, 2};
    const float data[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, value = 42.0f;
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = sizeof(float),
                             .shape = shape,
                             .pads_begin = below,
                             .pads_end = above,
                             .interior = interior,
                             .pad_value = &value};
    /* clang-format off */
    static const float want[63] = {
        42, 42, 42, 42, 42, 42, 42, 42, 42, /**/ 42, 42, 1, 42, 42, 2, 42, 42, 3,
        42, 42, 42, 42, 42, 42, 42, 42, 42, /**/ 42, 42, 4, 42, 42, 5, 42, 42, 6,
        42, 42, 42, 42, 42, 42, 42, 42, 42, /**/ 42, 42, 7, 42, 42, 8, 42, 42, 9,
        42, 42, 42, 42, 42, 42, 42, 42, 42};
    /* clang-format on */
    const int64_t want_shape[2] = {7, 9};
    int64_t out_shape[2];
    float out[63];
    if (!ok(ndpad_output_shape(&p, out_shape), "ndpad_output_shape (nGraph)")) return;
    if (out_shape[0] * out_shape[1] != 63) {
        fprintf(stderr, "FAIL: nGraph output shape %lldx%lld, expected 7x9\n",
                (long long)out_shape[0], (long long)out_shape[1]);
        g_failures++;
        return;
    }
    if (ok(ndpad_pad(&p, data, out), "ndpad_pad (nGraph)"))
        show_result("CONSTANT with interior", out, out_shape, want, want_shape);
}

/* ----------------------------------------------------------------------------------------- */
/* 3. ONNX Pad                                                                                 */
/* ----------------------------------------------------------------------------------------- */

typedef struct onnx_example {
    const char *mode;
    int64_t rows, cols;
    float want[24];
} onnx_example;

static void run_onnx(const float *data, const int64_t *shape, const int64_t *pads,
                     const onnx_example *ex)
{
    float out[24];
    ndpad_onnx_problem onnx;
    if (!ok(ndpad_onnx_problem_init(&onnx, 2, shape, sizeof(float), pads, 4, NULL, 0, ex->mode,
                                    NULL),
            "ndpad_onnx_problem_init"))
        return;
    int64_t out_shape[2];
    if (!ok(ndpad_output_shape(&onnx.problem, out_shape), "ndpad_output_shape (ONNX)")) return;
    if (out_shape[0] * out_shape[1] > (int64_t)ARRAY_LEN(out)) {
        fprintf(stderr, "FAIL: ONNX output shape %lldx%lld too large\n", (long long)out_shape[0],
                (long long)out_shape[1]);
        g_failures++;
        return;
    }
    if (!ok(ndpad_onnx_pad(2, shape, sizeof(float), pads, 4, NULL, 0, ex->mode, NULL, data, out),
            "ndpad_onnx_pad"))
        return;
    const int64_t want_shape[2] = {ex->rows, ex->cols};
    char title[64];
    snprintf(title, sizeof(title), "mode = '%s'", ex->mode);
    show_result(title, out, out_shape, ex->want, want_shape);
}

static void demo_onnx(void)
{
    printf("\nONNX Pad (opset 2..19), data (3x2), pads = [0, 2, 0, 0]:\n");
    const float data[6] = {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f};
    print_matrix(data, 3, 2);
    const int64_t shape[2] = {3, 2}, pads[4] = {0, 2, 0, 0};
    /* clang-format off */
    static const onnx_example examples[] = {
        {"constant", 3, 4, {0, 0, 1.0f, 1.2f, 0, 0, 2.3f, 3.4f, 0, 0, 4.5f, 5.7f}},
        {"reflect", 3, 4, {1.0f, 1.2f, 1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f, 5.7f, 4.5f, 5.7f}},
        {"edge", 3, 4, {1.0f, 1.0f, 1.0f, 1.2f, 2.3f, 2.3f, 2.3f, 3.4f, 4.5f, 4.5f, 4.5f, 5.7f}},
    };
    /* clang-format on */
    for (size_t k = 0; k < ARRAY_LEN(examples); k++) run_onnx(data, shape, pads, &examples[k]);

    /* The Pad-12 mixed example through ONNX: ONNX Runtime crops first ([[2 3 4] [6 7 8]])
     * and pads the cropped tensor, so its reflect/wrap borders differ from OpenVINO's. */
    printf("\nONNX Pad on the OpenVINO DATA (3x4), pads = [2, -1, -1, 3] "
           "(= pads_begin [2, -1], pads_end [-1, 3]):\n"
           "  ONNX Runtime crops first, then pads the cropped [[2 3 4] [6 7 8]]:\n");
    const int64_t mixed_shape[2] = {3, 4}, mixed_pads[4] = {2, -1, -1, 3};
    /* clang-format off */
    static const onnx_example mixed[] = {
        {"constant", 4, 6, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 4, 0, 0, 0, 6, 7, 8, 0, 0, 0}},
        {"edge", 4, 6, {2, 3, 4, 4, 4, 4, 2, 3, 4, 4, 4, 4, 2, 3, 4, 4, 4, 4, 6, 7, 8, 8, 8, 8}},
        {"reflect", 4, 6, {2, 3, 4, 3, 2, 3, 6, 7, 8, 7, 6, 7, 2, 3, 4, 3, 2, 3, 6, 7, 8, 7, 6, 7}},
        {"wrap", 4, 6, {2, 3, 4, 2, 3, 4, 6, 7, 8, 6, 7, 8, 2, 3, 4, 2, 3, 4, 6, 7, 8, 6, 7, 8}},
    };
    /* clang-format on */
    for (size_t k = 0; k < ARRAY_LEN(mixed); k++)
        run_onnx(openvino_data, mixed_shape, mixed_pads, &mixed[k]);
    printf("  OpenVINO Pad-12 reflect on the same pads (above) takes its borders from the "
           "whole input:\n  10 11 12 11 10 9 / 6 7 8 7 6 5 / ...; ONNX gives "
           "2 3 4 3 2 3 / 6 7 8 7 6 7 / ...\n");
}

/* ----------------------------------------------------------------------------------------- */
/* 4. ONNX Pad by element type (Pad-19 .. Pad-25)                                            */
/* ----------------------------------------------------------------------------------------- */

static void demo_onnx_typed(void)
{
    printf("\nONNX Pad by element type (ndpad_onnx_pad_typed):\n");
    /* ONNX's Example 4 (wrap mode), FLOAT at opset 19 */
    const float data[6] = {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f};
    const int64_t shape[2] = {3, 2}, pads[4] = {2, 1, 1, 1}, out_shape[2] = {6, 4};
    static const float want[24] = {3.4f, 2.3f, 3.4f, 2.3f, 5.7f, 4.5f, 5.7f, 4.5f,
                                   1.2f, 1.0f, 1.2f, 1.0f, 3.4f, 2.3f, 3.4f, 2.3f,
                                   5.7f, 4.5f, 5.7f, 4.5f, 1.2f, 1.0f, 1.2f, 1.0f};
    float out[24];
    if (ok(ndpad_onnx_pad_typed(19, 2, shape, NDPAD_ONNX_FLOAT, pads, 4, NULL, 0, "wrap", NULL,
                                data, out),
           "ndpad_onnx_pad_typed (FLOAT)"))
        show_result("FLOAT, opset 19, pads = [2, 1, 1, 1], mode = 'wrap'", out, out_shape, want,
                    out_shape);

    /* int4 [1, 2, 3], Pad-21 with pads [1, 2] and constant_value -1 (ONNX's reference
     * evaluator gives the bytes 1f 32 ff) */
    const int64_t shape4[1] = {3}, pads4[2] = {1, 2};
    const uint8_t in4[2] = {0x21, 0x03}, minus1 = 0x0F, want4[3] = {0x1F, 0x32, 0xFF};
    uint8_t out4[3];
    if (ok(ndpad_onnx_pad_typed(21, 1, shape4, NDPAD_ONNX_INT4, pads4, 2, NULL, 0, "constant",
                                &minus1, in4, out4),
           "ndpad_onnx_pad_typed (INT4)")) {
        const int same = memcmp(out4, want4, sizeof want4) == 0;
        printf("  INT4 [1 2 3] (bytes 21 03), opset 21, pads = [1, 2], constant_value = -1 -> "
               "bytes %02x %02x %02x = [",
               out4[0], out4[1], out4[2]);
        for (int i = 0; i < 6; i++) {
            const int v = (out4[i / 2] >> (4 * (i % 2))) & 0xF;
            printf("%s%d", i ? " " : "", v >= 8 ? v - 16 : v);
        }
        printf("]  [%s]\n", same ? "matches ONNX's reference" : "MISMATCH");
        if (!same) g_failures++;
    }

    /* a type the opset's Pad does not take: ONNX's type error */
    if (ndpad_onnx_pad_typed(22, 1, shape4, NDPAD_ONNX_FLOAT4E2M1, pads4, 2, NULL, 0, "constant",
                             NULL, in4, out4) != NDPAD_ERR_TYPE) {
        fprintf(stderr, "FAIL: float4e2m1 at opset 22 was not refused\n");
        g_failures++;
    } else {
        printf("  FLOAT4E2M1 at opset 22 -> NDPAD_ERR_TYPE: %s\n", ndpad_last_error());
    }
}

int main(void)
{
    printf("ndpad %d.%d.%d demo\n\n", NDPAD_VERSION_MAJOR, NDPAD_VERSION_MINOR,
           NDPAD_VERSION_PATCH);
    demo_openvino();
    demo_ngraph();
    demo_onnx();
    demo_onnx_typed();
    if (g_failures) {
        fprintf(stderr, "\nndpad-demo: %d failure(s)\n", g_failures);
        return 1;
    }
    printf("\nndpad-demo: all examples match their specifications\n");
    return 0;
}
