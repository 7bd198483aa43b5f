/*
 * test-seeds.c — every worked example of the specifications in shared/seeds/, checked
 * against the output written in the spec AND against the reference, so that the
 * reference itself is pinned by the specs:
 *   000  OpenVINO Pad-1       3x4 positive pads in 4 modes; 1x3x32x40 constant 15.0
 *   001  OpenVINO Pad-12 (Japanese edition of 003: the same examples)
 *   002  nGraph Pad           3x3, interior (1,2), below (1,2), above (1,0), value 42
 *   003  OpenVINO Pad-12      positive / negative / mixed pads in 4 modes; 1x3x32x40
 *                             constant and edge; 2x3x32x40 constant with negative pads
 *   004  ONNX Pad             examples 1-3 (3x2, pads [0,2,0,0]); test_constant_pad,
 *                             test_edge_pad, test_reflect_pad, test_constant_pad_axes
 * Integer examples run as int32 and again at elem_size 1, 2, 8 and 16; float examples as
 * float32. Examples whose input the spec draws at random use a fixed pseudo-random input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ndpad.h"
#include "test-checks.h"

/* ===================================================================================== */
/* Integer examples on small tensors                                                      */
/* ===================================================================================== */

static const int64_t data_3x4[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
static const int64_t data_3x3[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};

/* OpenVINO Pad-1 (000) and Pad-12 (003, 001): pads_begin [0, 1], pads_end [2, 3] */
static const int64_t positive_constant[5 * 8] = {0, 1, 2, 3, 4,  0,  0,  0, 0, 5, 6, 7, 8, 0,
                                                 0, 0, 0, 9, 10, 11, 12, 0, 0, 0, 0, 0, 0, 0,
                                                 0, 0, 0, 0, 0,  0,  0,  0, 0, 0, 0, 0};
static const int64_t positive_edge[5 * 8] = {1,  1,  2,  3,  4,  4,  4,  4,  5,  5,  6,  7, 8,  8,
                                             8,  8,  9,  9,  10, 11, 12, 12, 12, 12, 9,  9, 10, 11,
                                             12, 12, 12, 12, 9,  9,  10, 11, 12, 12, 12, 12};
static const int64_t positive_reflect[5 * 8] = {2, 1, 2,  3, 4,  3,  2,  1,  6,  5, 6, 7, 8, 7,
                                                6, 5, 10, 9, 10, 11, 12, 11, 10, 9, 6, 5, 6, 7,
                                                8, 7, 6,  5, 2,  1,  2,  3,  4,  3, 2, 1};
static const int64_t positive_symmetric[5 * 8] = {1,  1,  2,  3,  4, 4, 3,  2,  5,  5,
                                                  6,  7,  8,  8,  7, 6, 9,  9,  10, 11,
                                                  12, 12, 11, 10, 9, 9, 10, 11, 12, 12,
                                                  11, 10, 5,  5,  6, 7, 8,  8,  7,  6};

/* Pad-12 (003): pads_begin [-1, -1], pads_end [-1, -1], every mode */
static const int64_t negative_all_modes[1 * 2] = {6, 7};

/* Pad-12 (003): pads_begin [2, -1], pads_end [-1, 3] */
static const int64_t mixed_constant[4 * 6] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                              2, 3, 4, 0, 0, 0, 6, 7, 8, 0, 0, 0};
static const int64_t mixed_edge[4 * 6] = {2, 3, 4, 4, 4, 4, 2, 3, 4, 4, 4, 4,
                                          2, 3, 4, 4, 4, 4, 6, 7, 8, 8, 8, 8};
static const int64_t mixed_reflect[4 * 6] = {10, 11, 12, 11, 10, 9, 6, 7, 8, 7, 6, 5,
                                             2,  3,  4,  3,  2,  1, 6, 7, 8, 7, 6, 5};
static const int64_t mixed_symmetric[4 * 6] = {6, 7, 8, 8, 7, 6, 2, 3, 4, 4, 3, 2,
                                               2, 3, 4, 4, 3, 2, 6, 7, 8, 8, 7, 6};

/* nGraph (002): 3x3, interior (1,2), below (1,2), above (1,0), value 42 -> 7x9 */
static const int64_t ngraph_interior[7 * 9] = {42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 1,  42,
                                               42, 2,  42, 42, 3,  42, 42, 42, 42, 42, 42, 42, 42,
                                               42, 42, 42, 4,  42, 42, 5,  42, 42, 6,  42, 42, 42,
                                               42, 42, 42, 42, 42, 42, 42, 42, 7,  42, 42, 8,  42,
                                               42, 9,  42, 42, 42, 42, 42, 42, 42, 42, 42};

typedef struct int_example {
    const char *name;
    int32_t mode;
    int64_t shape[2], pads_begin[2], pads_end[2], interior[2];
    bool has_interior;
    bool has_pad_value;
    int64_t pad_value;
    int64_t out_shape[2];
    const int64_t *data;
    const int64_t *expected;
} int_example;

#define POSITIVE {3, 4}, {0, 1}, {2, 3}, {0, 0}, false, false, 0, {5, 8}, data_3x4
#define NEGATIVE {3, 4}, {-1, -1}, {-1, -1}, {0, 0}, false, false, 0, {1, 2}, data_3x4
#define MIXED    {3, 4}, {2, -1}, {-1, 3}, {0, 0}, false, false, 0, {4, 6}, data_3x4

static const int_example int_examples[] = {
    {"openvino_pad1_positive_pads_constant", NDPAD_CONSTANT, POSITIVE, positive_constant},
    {"openvino_pad1_positive_pads_edge", NDPAD_EDGE, POSITIVE, positive_edge},
    {"openvino_pad1_positive_pads_reflect", NDPAD_REFLECT, POSITIVE, positive_reflect},
    {"openvino_pad1_positive_pads_symmetric", NDPAD_SYMMETRIC, POSITIVE, positive_symmetric},
    {"openvino_pad12_positive_pads_constant", NDPAD_CONSTANT, POSITIVE, positive_constant},
    {"openvino_pad12_positive_pads_edge", NDPAD_EDGE, POSITIVE, positive_edge},
    {"openvino_pad12_positive_pads_reflect", NDPAD_REFLECT, POSITIVE, positive_reflect},
    {"openvino_pad12_positive_pads_symmetric", NDPAD_SYMMETRIC, POSITIVE, positive_symmetric},
    {"openvino_pad12_negative_pads_crop_constant", NDPAD_CONSTANT, NEGATIVE, negative_all_modes},
    {"openvino_pad12_negative_pads_crop_edge", NDPAD_EDGE, NEGATIVE, negative_all_modes},
    {"openvino_pad12_negative_pads_crop_reflect", NDPAD_REFLECT, NEGATIVE, negative_all_modes},
    {"openvino_pad12_negative_pads_crop_symmetric", NDPAD_SYMMETRIC, NEGATIVE, negative_all_modes},
    {"openvino_pad12_mixed_pads_constant", NDPAD_CONSTANT, MIXED, mixed_constant},
    {"openvino_pad12_mixed_pads_edge_border_from_whole_input", NDPAD_EDGE, MIXED, mixed_edge},
    {"openvino_pad12_mixed_pads_reflect_border_from_whole_input", NDPAD_REFLECT, MIXED,
     mixed_reflect},
    {"openvino_pad12_mixed_pads_symmetric_border_from_whole_input", NDPAD_SYMMETRIC, MIXED,
     mixed_symmetric},
    {"ngraph_interior_1_2_below_1_2_above_1_0_value_42",
     NDPAD_CONSTANT,
     {3, 3},
     {1, 2},
     {1, 0},
     {1, 2},
     true,
     true,
     42,
     {7, 9},
     data_3x3,
     ngraph_interior},
};
#define INT_EXAMPLES (sizeof(int_examples) / sizeof(int_examples[0]))

/* One example at one element size: int32 is the spec's type, the others exercise sizes. */
typedef struct int_run {
    const int_example *example;
    size_t elem_size;
} int_run;

static void run_int_example(void **state)
{
    const int_run *run = (const int_run *)*state;
    const int_example *ex = run->example;
    const size_t es = run->elem_size;
    const size_t in_count = (size_t)(ex->shape[0] * ex->shape[1]);
    const size_t out_count = (size_t)(ex->out_shape[0] * ex->out_shape[1]);

    unsigned char *in = test_xmalloc(in_count * es), *expected = test_xmalloc(out_count * es);
    unsigned char pad_value[16];
    test_int_elements(ex->data, in_count, es, in);
    test_int_elements(ex->expected, out_count, es, expected);
    test_int_element(ex->pad_value, es, pad_value);

    const ndpad_problem p = {.rank = 2,
                             .mode = ex->mode,
                             .elem_size = es,
                             .shape = ex->shape,
                             .pads_begin = ex->pads_begin,
                             .pads_end = ex->pads_end,
                             .interior = ex->has_interior ? ex->interior : NULL,
                             .pad_value = ex->has_pad_value ? pad_value : NULL};
    test_check_core(ex->name, &p, in, ex->out_shape, expected);

    /* An explicit zero pad value is the same as none. */
    if (!ex->has_pad_value && ex->mode == NDPAD_CONSTANT) {
        ndpad_problem q = p;
        test_int_element(0, es, pad_value);
        q.pad_value = pad_value;
        test_check_core(ex->name, &q, in, ex->out_shape, expected);
    }
    free(in);
    free(expected);
}

/* ===================================================================================== */
/* The mixed-pads example under ONNX: crop first, then pad the cropped 2x3 tensor          */
/* [[2,3,4],[6,7,8]] by begin [2,0], end [0,3]. Values by hand from api.md's mapping on     */
/* the cropped tensor (d0 = 2: j = -2,-1,0,1; d1 = 3: j = 0..5).                            */
/* ===================================================================================== */

/* EDGE: rows clamp(j) = 0,0,0,1; cols 0,1,2,2,2,2 -- the same as Pad-12: an edge border
 * only ever reads the element at its own side, which a crop on the other side keeps. */
static const int64_t onnx_mixed_edge[4 * 6] = {2, 3, 4, 4, 4, 4, 2, 3, 4, 4, 4, 4,
                                               2, 3, 4, 4, 4, 4, 6, 7, 8, 8, 8, 8};
/* REFLECT: rows (P = 2) 0,1,0,1; cols (P = 4) 0,1,2,1,0,1 */
static const int64_t onnx_mixed_reflect[4 * 6] = {2, 3, 4, 3, 2, 3, 6, 7, 8, 7, 6, 7,
                                                  2, 3, 4, 3, 2, 3, 6, 7, 8, 7, 6, 7};
/* WRAP: rows 0,1,0,1; cols 0,1,2,0,1,2 */
static const int64_t onnx_mixed_wrap[4 * 6] = {2, 3, 4, 2, 3, 4, 6, 7, 8, 6, 7, 8,
                                               2, 3, 4, 2, 3, 4, 6, 7, 8, 6, 7, 8};
/* The core (Pad-12 style) WRAP of the same pads takes its border from the whole input:
 * rows (d = 3, j = -2..1) 1,2,0,1; cols (d = 4, j = 1..6) 1,2,3,0,1,2. */
static const int64_t core_mixed_wrap[4 * 6] = {6, 7, 8, 5, 6, 7, 10, 11, 12, 9, 10, 11,
                                               2, 3, 4, 1, 2, 3, 6,  7,  8,  5, 6,  7};

static void onnx_mixed_pads_crop_first_differs_from_pad12(void **state)
{
    (void)state;
    const int64_t shape[2] = {3, 4}, pads[4] = {2, -1, -1, 3};
    const int64_t pb[2] = {2, -1}, pe[2] = {-1, 3}, out_shape[2] = {4, 6};
    int32_t in[12], onnx_out[24], core_out[24];
    test_int_elements(data_3x4, 12, 4, in);

    static const struct {
        const char *mode_string;
        int32_t mode;
        const int64_t *onnx_expected;
        const int64_t *core_expected;
        bool differ;
    } cases[] = {
        {"constant", NDPAD_CONSTANT, mixed_constant, mixed_constant, false},
        {"edge", NDPAD_EDGE, onnx_mixed_edge, mixed_edge, false},
        {"reflect", NDPAD_REFLECT, onnx_mixed_reflect, mixed_reflect, true},
        {"wrap", NDPAD_WRAP, onnx_mixed_wrap, core_mixed_wrap, true},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        int32_t onnx_expected[24], core_expected[24];
        test_int_elements(cases[c].onnx_expected, 24, 4, onnx_expected);
        test_int_elements(cases[c].core_expected, 24, 4, core_expected);

        test_check_onnx(cases[c].mode_string, 2, shape, 4, pads, 4, NULL, 0, cases[c].mode_string,
                        NULL, in, out_shape, onnx_expected);
        const ndpad_problem p = {.rank = 2,
                                 .mode = cases[c].mode,
                                 .elem_size = 4,
                                 .shape = shape,
                                 .pads_begin = pb,
                                 .pads_end = pe};
        test_check_core(cases[c].mode_string, &p, in, out_shape, core_expected);

        assert_int_equal(ndpad_onnx_pad(2, shape, 4, pads, 4, NULL, 0, cases[c].mode_string, NULL,
                                        in, onnx_out),
                         NDPAD_OK);
        assert_int_equal(ndpad_pad(&p, in, core_out), NDPAD_OK);
        const bool differ = memcmp(onnx_out, core_out, sizeof onnx_out) != 0;
        if (differ != cases[c].differ)
            fail_msg("mode %s: ONNX and Pad-12 results %s, expected them to %s",
                     cases[c].mode_string, differ ? "differ" : "are equal",
                     cases[c].differ ? "differ" : "be equal");
    }
}

/* ndpad_onnx_problem_init's translation of the mixed example, as ndpad.h describes it:
 * the cropped shape, an offset to element [0, 1], the original dense strides and the
 * non-negative parts of the pads. */
static void onnx_mixed_pads_translation_is_crop_offset_and_dense_strides(void **state)
{
    (void)state;
    const int64_t shape[2] = {3, 4}, pads[4] = {2, -1, -1, 3};
    ndpad_onnx_problem *onnx = test_xmalloc(sizeof(*onnx));
    assert_int_equal(ndpad_onnx_problem_init(onnx, 2, shape, 4, pads, 4, NULL, 0, "reflect", NULL),
                     NDPAD_OK);
    const ndpad_problem *p = &onnx->problem;
    assert_int_equal(p->rank, 2);
    assert_int_equal(p->mode, NDPAD_REFLECT);
    assert_int_equal(p->elem_size, 4);
    assert_int_equal(p->shape[0], 2);
    assert_int_equal(p->shape[1], 3);
    assert_int_equal(p->pads_begin[0], 2);
    assert_int_equal(p->pads_begin[1], 0);
    assert_int_equal(p->pads_end[0], 0);
    assert_int_equal(p->pads_end[1], 3);
    assert_int_equal(onnx->in_offset, 1 * 4);
    assert_non_null(p->in_strides);
    assert_int_equal(p->in_strides[0], 4);
    assert_int_equal(p->in_strides[1], 1);
    assert_true(p->interior == NULL || (p->interior[0] == 0 && p->interior[1] == 0));
    free(onnx);
}

/* ===================================================================================== */
/* ONNX examples 1-3 (004): 3x2 float, pads [0, 2, 0, 0]                                  */
/* ===================================================================================== */

static const float onnx_data[6] = {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f};
static const int64_t onnx_shape[2] = {3, 2}, onnx_pads[4] = {0, 2, 0, 0};
static const int64_t onnx_out_shape[2] = {3, 4};

static void check_onnx_example(const char *mode, const float *constant_value, const float *expected)
{
    test_check_onnx(mode, 2, onnx_shape, sizeof(float), onnx_pads, 4, NULL, 0, mode, constant_value,
                    onnx_data, onnx_out_shape, expected);
    /* the same through the core problem (no crops: Pad-12 and ONNX agree) */
    const int64_t pb[2] = {0, 2}, pe[2] = {0, 0};
    const int32_t core_mode = strcmp(mode, "constant") == 0 ? NDPAD_CONSTANT
                              : strcmp(mode, "edge") == 0   ? NDPAD_EDGE
                                                            : NDPAD_REFLECT;
    const ndpad_problem p = {.rank = 2,
                             .mode = core_mode,
                             .elem_size = sizeof(float),
                             .shape = onnx_shape,
                             .pads_begin = pb,
                             .pads_end = pe,
                             .pad_value = constant_value};
    test_check_core(mode, &p, onnx_data, onnx_out_shape, expected);
}

static void onnx_example1_constant_pads_begin_of_axis1(void **state)
{
    (void)state;
    const float value = 0.0f;
    const float expected[12] = {0.0f, 0.0f, 1.0f, 1.2f, 0.0f, 0.0f,
                                2.3f, 3.4f, 0.0f, 0.0f, 4.5f, 5.7f};
    check_onnx_example("constant", &value, expected);
    /* mode NULL and constant_value NULL mean "constant" and 0 */
    test_check_onnx("constant (defaults)", 2, onnx_shape, sizeof(float), onnx_pads, 4, NULL, 0,
                    NULL, NULL, onnx_data, onnx_out_shape, expected);
}

static void onnx_example2_reflect_pad_equals_extent(void **state)
{
    (void)state;
    const float expected[12] = {1.0f, 1.2f, 1.0f, 1.2f, 2.3f, 3.4f,
                                2.3f, 3.4f, 4.5f, 5.7f, 4.5f, 5.7f};
    check_onnx_example("reflect", NULL, expected);
}

static void onnx_example3_edge(void **state)
{
    (void)state;
    const float expected[12] = {1.0f, 1.0f, 1.0f, 1.2f, 2.3f, 2.3f,
                                2.3f, 3.4f, 4.5f, 4.5f, 4.5f, 5.7f};
    check_onnx_example("edge", NULL, expected);
}

/* ONNX Pad-1 (004) shows the same example as `paddings = [0, 0, 2, 0]` with the output of
 * example 1 (printed with one bracket level too many). Its attribute text says the format is
 * [x1_begin, x2_begin, x1_end, x2_end], which would instead add two rows after axis 0: the
 * example's list is per-axis (begin, end) pairs, the order of the Caffe2 operator Pad-1 came
 * from. A Pad-1 importer therefore reorders pairs into ONNX order before calling ndpad; both
 * readings are pinned here so that neither can silently change. */
static void onnx_pad1_example_paddings_are_axis_pairs(void **state)
{
    (void)state;
    const int64_t paddings[4] = {0, 0, 2, 0};
    /* as (begin, end) pairs per axis: the example's own output */
    const int64_t pairs_as_onnx[4] = {paddings[0], paddings[2], paddings[1], paddings[3]};
    const float value = 0.0f;
    const float expected[12] = {0.0f, 0.0f, 1.0f, 1.2f, 0.0f, 0.0f,
                                2.3f, 3.4f, 0.0f, 0.0f, 4.5f, 5.7f};
    test_check_onnx("Pad-1 paddings as pairs", 2, onnx_shape, sizeof(float), pairs_as_onnx, 4, NULL,
                    0, "constant", &value, onnx_data, onnx_out_shape, expected);
    /* read literally in the documented format: two rows of zeros after the data */
    const int64_t literal_shape[2] = {5, 2};
    const float literal[10] = {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f, 0.0f, 0.0f, 0.0f, 0.0f};
    test_check_onnx("Pad-1 paddings literally", 2, onnx_shape, sizeof(float), paddings, 4, NULL, 0,
                    "constant", &value, onnx_data, literal_shape, literal);
}

/* ===================================================================================== */
/* 4-D examples with random inputs: ndpad vs reference, plus a direct check of the        */
/* documented values (every new element is the pad value / the edge value / a mirror).   */
/* ===================================================================================== */

static void fill_floats(float *x, size_t count, uint64_t seed)
{
    test_rng r = test_rng_make(seed, 0);
    for (size_t i = 0; i < count; i++) x[i] = (float)(test_rng_range(&r, -4000, 4000)) / 16.0f;
}

static void fill_int32(int32_t *x, size_t count, uint64_t seed)
{
    test_rng r = test_rng_make(seed, 1);
    for (size_t i = 0; i < count; i++) x[i] = (int32_t)test_rng_range(&r, -3, 3);
}

/* Direct 4-D check of a dense output: per axis, `map[k][o]` is the input index of output
 * index o, or -1 for the pad value. */
static void check_4d_by_maps(const char *what, const int64_t *shape, const int64_t *out_shape,
                             int64_t *const map[4], const void *in, const void *out, size_t es,
                             const void *pad_value)
{
    int64_t o[4];
    for (o[0] = 0; o[0] < out_shape[0]; o[0]++)
        for (o[1] = 0; o[1] < out_shape[1]; o[1]++)
            for (o[2] = 0; o[2] < out_shape[2]; o[2]++)
                for (o[3] = 0; o[3] < out_shape[3]; o[3]++) {
                    const int64_t out_index =
                        ((o[0] * out_shape[1] + o[1]) * out_shape[2] + o[2]) * out_shape[3] + o[3];
                    const void *got = (const char *)out + out_index * (int64_t)es;
                    const int64_t i0 = map[0][o[0]], i1 = map[1][o[1]], i2 = map[2][o[2]],
                                  i3 = map[3][o[3]];
                    const void *want;
                    if (i0 < 0 || i1 < 0 || i2 < 0 || i3 < 0) {
                        want = pad_value;
                    } else {
                        const int64_t in_index =
                            ((i0 * shape[1] + i1) * shape[2] + i2) * shape[3] + i3;
                        want = (const char *)in + in_index * (int64_t)es;
                    }
                    if (memcmp(got, want, es) != 0)
                        fail_msg("%s: output [%lld,%lld,%lld,%lld] is not the documented value",
                                 what, (long long)o[0], (long long)o[1], (long long)o[2],
                                 (long long)o[3]);
                }
}

/* map of a constant axis: o - b inside [0, d), else -1; of an edge axis: clamped */
static int64_t *axis_map(int64_t d, int64_t b, int64_t n, bool edge)
{
    int64_t *m = test_xmalloc(sizeof(int64_t) * (size_t)n);
    for (int64_t o = 0; o < n; o++) {
        const int64_t j = o - b;
        m[o] = edge ? (j < 0 ? 0 : j >= d ? d - 1 : j) : (j >= 0 && j < d ? j : -1);
    }
    return m;
}

static void check_openvino_4d(const char *what, int32_t mode, const int64_t *shape,
                              const int64_t *pb, const int64_t *pe, const int64_t *out_shape,
                              uint64_t seed)
{
    const size_t in_count = (size_t)test_count(4, shape);
    const size_t out_count = (size_t)test_count(4, out_shape);
    float *in = test_xmalloc(in_count * sizeof(float));
    float *out = test_xmalloc(out_count * sizeof(float));
    fill_floats(in, in_count, seed);
    const float value = 15.0f;
    const ndpad_problem p = {.rank = 4,
                             .mode = mode,
                             .elem_size = sizeof(float),
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe,
                             .pad_value = mode == NDPAD_CONSTANT ? &value : NULL};
    test_check_core(what, &p, in, out_shape, NULL);

    assert_int_equal(ndpad_pad(&p, in, out), NDPAD_OK);
    int64_t *map[4];
    for (int k = 0; k < 4; k++)
        map[k] = axis_map(shape[k], pb[k], out_shape[k], mode == NDPAD_EDGE);
    check_4d_by_maps(what, shape, out_shape, map, in, out, sizeof(float), &value);
    for (int k = 0; k < 4; k++) free(map[k]);
    free(in);
    free(out);
}

/* Pad-1 (000) and Pad-12 (003): 1x3x32x40, pads_begin [0,5,2,1], pads_end [1,0,3,7],
 * pad_value 15.0 -> 2x8x37x48, all new elements 15.0 */
static void openvino_1x3x32x40_constant_15_positive_pads(void **state)
{
    (void)state;
    const int64_t shape[4] = {1, 3, 32, 40}, pb[4] = {0, 5, 2, 1}, pe[4] = {1, 0, 3, 7};
    const int64_t out_shape[4] = {2, 8, 37, 48};
    check_openvino_4d("1x3x32x40 constant", NDPAD_CONSTANT, shape, pb, pe, out_shape, 1);
}

/* Pad-12 (003): 2x3x32x40, pads_begin [0,-2,-8,1], pads_end [-1,4,-6,7], 15.0 -> 1x5x18x48
 * (the spec's comment on the first extent says "2 = 0 + 2 + (-1)"; its <dim> is 1). */
static void openvino_2x3x32x40_constant_15_mixed_pads_crop(void **state)
{
    (void)state;
    const int64_t shape[4] = {2, 3, 32, 40}, pb[4] = {0, -2, -8, 1}, pe[4] = {-1, 4, -6, 7};
    const int64_t out_shape[4] = {1, 5, 18, 48};
    check_openvino_4d("2x3x32x40 constant mixed", NDPAD_CONSTANT, shape, pb, pe, out_shape, 2);
}

/* Pad-12 (003): 1x3x32x40 edge, pads_begin [0,5,2,1], pads_end [1,0,3,7] -> 2x8x37x48 */
static void openvino_1x3x32x40_edge_positive_pads(void **state)
{
    (void)state;
    const int64_t shape[4] = {1, 3, 32, 40}, pb[4] = {0, 5, 2, 1}, pe[4] = {1, 0, 3, 7};
    const int64_t out_shape[4] = {2, 8, 37, 48};
    check_openvino_4d("1x3x32x40 edge", NDPAD_EDGE, shape, pb, pe, out_shape, 3);
}

/* ONNX test_constant_pad: x 1x3x4x5 float32, pads [0,0,1,3,0,0,2,4], value 1.2 */
static void onnx_test_constant_pad_1x3x4x5(void **state)
{
    (void)state;
    const int64_t shape[4] = {1, 3, 4, 5}, pads[8] = {0, 0, 1, 3, 0, 0, 2, 4};
    const int64_t out_shape[4] = {1, 3, 7, 12};
    float x[60], y[1 * 3 * 7 * 12];
    const float value = 1.2f;
    fill_floats(x, 60, 4);
    test_check_onnx("test_constant_pad", 4, shape, 4, pads, 8, NULL, 0, "constant", &value, x,
                    out_shape, NULL);
    assert_int_equal(ndpad_onnx_pad(4, shape, 4, pads, 8, NULL, 0, "constant", &value, x, y),
                     NDPAD_OK);
    int64_t *map[4];
    const int64_t pb[4] = {0, 0, 1, 3};
    for (int k = 0; k < 4; k++) map[k] = axis_map(shape[k], pb[k], out_shape[k], false);
    check_4d_by_maps("test_constant_pad", shape, out_shape, map, x, y, 4, &value);
    for (int k = 0; k < 4; k++) free(map[k]);
}

/* ONNX test_edge_pad / test_reflect_pad: x 1x3x4x5 int32, pads [0,0,1,1,0,0,1,1] */
static void check_onnx_edge_reflect(const char *mode)
{
    const int64_t shape[4] = {1, 3, 4, 5}, pads[8] = {0, 0, 1, 1, 0, 0, 1, 1};
    const int64_t out_shape[4] = {1, 3, 6, 7};
    int32_t x[60], y[1 * 3 * 6 * 7];
    fill_int32(x, 60, 5);
    test_check_onnx(mode, 4, shape, 4, pads, 8, NULL, 0, mode, NULL, x, out_shape, NULL);
    assert_int_equal(ndpad_onnx_pad(4, shape, 4, pads, 8, NULL, 0, mode, NULL, x, y), NDPAD_OK);
    /* numpy.pad index maps written out: H = 4 and W = 5 padded by 1 on each side */
    int64_t m0[1] = {0}, m1[3] = {0, 1, 2};
    int64_t edge_h[6] = {0, 0, 1, 2, 3, 3}, edge_w[7] = {0, 0, 1, 2, 3, 4, 4};
    int64_t refl_h[6] = {1, 0, 1, 2, 3, 2}, refl_w[7] = {1, 0, 1, 2, 3, 4, 3};
    const bool edge = strcmp(mode, "edge") == 0;
    int64_t *const map[4] = {m0, m1, edge ? edge_h : refl_h, edge ? edge_w : refl_w};
    check_4d_by_maps(mode, shape, out_shape, map, x, y, 4, NULL);
}

static void onnx_test_edge_pad_1x3x4x5(void **state)
{
    (void)state;
    check_onnx_edge_reflect("edge");
}

static void onnx_test_reflect_pad_1x3x4x5(void **state)
{
    (void)state;
    check_onnx_edge_reflect("reflect");
}

/* ONNX test_constant_pad_axes: x 1x3x4x5 float32, pads [0,3,0,4], axes [1,3], value 1.2 */
static void onnx_test_constant_pad_axes_1_3(void **state)
{
    (void)state;
    const int64_t shape[4] = {1, 3, 4, 5}, pads[4] = {0, 3, 0, 4}, axes[2] = {1, 3};
    const int64_t out_shape[4] = {1, 3, 4, 12};
    float x[60], y[1 * 3 * 4 * 12];
    const float value = 1.2f;
    fill_floats(x, 60, 6);
    test_check_onnx("test_constant_pad_axes", 4, shape, 4, pads, 4, axes, 2, "constant", &value, x,
                    out_shape, NULL);
    assert_int_equal(ndpad_onnx_pad(4, shape, 4, pads, 4, axes, 2, "constant", &value, x, y),
                     NDPAD_OK);
    int64_t *map[4];
    const int64_t pb[4] = {0, 0, 0, 3};
    for (int k = 0; k < 4; k++) map[k] = axis_map(shape[k], pb[k], out_shape[k], false);
    check_4d_by_maps("test_constant_pad_axes", shape, out_shape, map, x, y, 4, &value);
    for (int k = 0; k < 4; k++) free(map[k]);
}

/* nGraph (002): ndpad_output_shape reports {7, 9} for the interior example, as ndpad.h says */
static void ngraph_interior_output_shape_is_7x9(void **state)
{
    (void)state;
    const int64_t shape[2] = {3, 3}, interior[2] = {1, 2}, pb[2] = {1, 2}, pe[2] = {1, 0};
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe,
                             .interior = interior};
    int64_t out[2] = {0, 0};
    assert_int_equal(ndpad_output_shape(&p, out), NDPAD_OK);
    assert_int_equal(out[0], 7);
    assert_int_equal(out[1], 9);
}

/* ndpad.h's own example: Pad-12 mixed reflect as floats */
static void header_example_mixed_reflect_float(void **state)
{
    (void)state;
    int64_t shape[2] = {3, 4}, pb[2] = {2, -1}, pe[2] = {-1, 3};
    float data[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const float expected[24] = {10, 11, 12, 11, 10, 9, 6, 7, 8, 7, 6, 5,
                                2,  3,  4,  3,  2,  1, 6, 7, 8, 7, 6, 5};
    const int64_t out_shape[2] = {4, 6};
    ndpad_problem p = {.rank = 2,
                       .mode = NDPAD_REFLECT,
                       .elem_size = sizeof(float),
                       .shape = shape,
                       .pads_begin = pb,
                       .pads_end = pe};
    test_check_core("ndpad.h example", &p, data, out_shape, expected);
}

int main(void)
{
    static const size_t sizes[] = {4, 1, 2, 8, 16};
    enum { SIZES = sizeof(sizes) / sizeof(sizes[0]) };
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(onnx_mixed_pads_crop_first_differs_from_pad12),
        cmocka_unit_test(onnx_mixed_pads_translation_is_crop_offset_and_dense_strides),
        cmocka_unit_test(onnx_example1_constant_pads_begin_of_axis1),
        cmocka_unit_test(onnx_example2_reflect_pad_equals_extent),
        cmocka_unit_test(onnx_example3_edge),
        cmocka_unit_test(onnx_pad1_example_paddings_are_axis_pairs),
        cmocka_unit_test(openvino_1x3x32x40_constant_15_positive_pads),
        cmocka_unit_test(openvino_2x3x32x40_constant_15_mixed_pads_crop),
        cmocka_unit_test(openvino_1x3x32x40_edge_positive_pads),
        cmocka_unit_test(onnx_test_constant_pad_1x3x4x5),
        cmocka_unit_test(onnx_test_edge_pad_1x3x4x5),
        cmocka_unit_test(onnx_test_reflect_pad_1x3x4x5),
        cmocka_unit_test(onnx_test_constant_pad_axes_1_3),
        cmocka_unit_test(ngraph_interior_output_shape_is_7x9),
        cmocka_unit_test(header_example_mixed_reflect_float),
    };
    enum { FIXED = sizeof(fixed) / sizeof(fixed[0]) };

    static int_run runs[INT_EXAMPLES * SIZES];
    static char names[INT_EXAMPLES * SIZES][128];
    static struct CMUnitTest tests[INT_EXAMPLES * SIZES + FIXED];
    size_t count = 0;
    for (size_t e = 0; e < INT_EXAMPLES; e++)
        for (size_t s = 0; s < SIZES; s++) {
            const size_t i = e * SIZES + s;
            runs[i].example = &int_examples[e];
            runs[i].elem_size = sizes[s];
            if (sizes[s] == 4)
                snprintf(names[i], sizeof names[i], "%s_int32", int_examples[e].name);
            else
                snprintf(names[i], sizeof names[i], "%s_elem_size_%zu", int_examples[e].name,
                         sizes[s]);
            tests[count].name = names[i];
            tests[count].test_func = run_int_example;
            tests[count].setup_func = NULL;
            tests[count].teardown_func = NULL;
            tests[count].initial_state = &runs[i];
            count++;
        }
    for (size_t i = 0; i < FIXED; i++) tests[count++] = fixed[i];
    return _cmocka_run_group_tests("seeds", tests, count, NULL, NULL);
}
