/*
 * test-onnx-types.c — the typed ONNX entry points (ndpad_onnx_pad_typed and friends): which
 * element type each Pad version and CenterCropPad-18 accept at each opset (ONNX's own type
 * lists, written out here per version), every accepted type padded like the reference (the
 * 4- and 2-bit ones unpacked to bytes, padded by the naive reference, packed again) with
 * guard bytes, ONNX's worked examples, plans from the typed problem, and every refusal.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "ndpad.h"
#include "test-checks.h"

/* ---- ONNX's type lists (onnx/defs: Pad's TypeConstraint "T" per version) ---------------- */

static const int32_t pad1_types[] = {NDPAD_ONNX_FLOAT, NDPAD_ONNX_FLOAT16, NDPAD_ONNX_DOUBLE};
static const int32_t pad11_added[] = {NDPAD_ONNX_UINT8,  NDPAD_ONNX_UINT16, NDPAD_ONNX_UINT32,
                                      NDPAD_ONNX_UINT64, NDPAD_ONNX_INT8,   NDPAD_ONNX_INT16,
                                      NDPAD_ONNX_INT32,  NDPAD_ONNX_INT64};
static const int32_t pad13_added[] = {NDPAD_ONNX_BFLOAT16, NDPAD_ONNX_BOOL, NDPAD_ONNX_COMPLEX64,
                                      NDPAD_ONNX_COMPLEX128, NDPAD_ONNX_STRING};
static const int32_t pad21_added[] = {NDPAD_ONNX_FLOAT8E4M3FN, NDPAD_ONNX_FLOAT8E4M3FNUZ,
                                      NDPAD_ONNX_FLOAT8E5M2,   NDPAD_ONNX_FLOAT8E5M2FNUZ,
                                      NDPAD_ONNX_UINT4,        NDPAD_ONNX_INT4};
static const int32_t pad23_added[] = {NDPAD_ONNX_FLOAT4E2M1};
static const int32_t pad24_added[] = {NDPAD_ONNX_FLOAT8E8M0};
static const int32_t pad25_added[] = {NDPAD_ONNX_UINT2, NDPAD_ONNX_INT2};

#define LIST(a) a, (int)(sizeof(a) / sizeof(a[0]))
static const struct {
    int32_t version;
    const int32_t *added;
    int count;
} pad_versions[] = {
    {1, LIST(pad1_types)},   {2, NULL, 0},
    {11, LIST(pad11_added)}, {13, LIST(pad13_added)},
    {18, NULL, 0},           {19, NULL, 0},
    {21, LIST(pad21_added)}, {23, LIST(pad23_added)},
    {24, LIST(pad24_added)}, {25, LIST(pad25_added)},
};
enum { VERSIONS = sizeof(pad_versions) / sizeof(pad_versions[0]), TYPES_TO_TRY = 40 };

/* Pad's version at `opset` (0: the newest). */
static int32_t expected_pad_version(int32_t opset)
{
    int32_t version = 0;
    for (int v = 0; v < VERSIONS; v++)
        if (opset == 0 || pad_versions[v].version <= opset) version = pad_versions[v].version;
    return version;
}

/* Is `type` in the type list of Pad-`version`? */
static bool pad_version_lists(int32_t version, int32_t type)
{
    for (int v = 0; v < VERSIONS && pad_versions[v].version <= version; v++)
        for (int i = 0; i < pad_versions[v].count; i++)
            if (pad_versions[v].added[i] == type) return true;
    return false;
}

/* ---- sub-byte packing and the reference -------------------------------------------------- */

static unsigned get_element(const uint8_t *buf, int64_t i, int32_t bits)
{
    const int64_t p = i * bits;
    return (unsigned)(buf[p / 8] >> (p % 8)) & ((1u << bits) - 1u);
}

static void set_element(uint8_t *buf, int64_t i, int32_t bits, unsigned v)
{
    const int64_t p = i * bits;
    const unsigned mask = ((1u << bits) - 1u) << (p % 8);
    buf[p / 8] = (uint8_t)((buf[p / 8] & ~mask) | ((v << (p % 8)) & mask));
}

static size_t packed_bytes(int64_t count, int32_t bits)
{
    return (size_t)((count * bits + 7) / 8);
}

/* The expected dense output of a typed ONNX Pad: the byte reference for whole-byte types;
 * for sub-byte types the elements unpacked one per byte, padded by the byte reference,
 * packed again (bits past the last element zero, as ONNX packs). NULL when the reference
 * refuses the problem. */
static uint8_t *reference_typed_pad(int32_t rank, const int64_t *shape, int32_t bits,
                                    const int64_t *pads, int64_t pads_count, const int64_t *axes,
                                    int64_t axes_count, const char *mode, const void *value,
                                    const uint8_t *in, int64_t *out_count)
{
    const size_t es = bits >= 8 ? (size_t)bits / 8 : 1;
    int64_t out_shape[NDPAD_MAX_RANK];
    ndpad_ref_verdict verdict;
    ndpad_ref_onnx_validate(rank, shape, es, pads, pads_count, axes, axes_count, mode, &verdict,
                            out_shape);
    if (verdict.status != NDPAD_OK) return NULL;
    *out_count = test_count(rank, out_shape);
    const int64_t in_count = test_count(rank, shape);
    if (bits >= 8) {
        uint8_t *out = test_xmalloc((size_t)*out_count * es + 1);
        assert_int_equal(ndpad_ref_onnx_pad(rank, shape, es, pads, pads_count, axes, axes_count,
                                            mode, value, in, out),
                         NDPAD_OK);
        return out;
    }
    uint8_t *wide_in = test_xmalloc((size_t)in_count + 1);
    uint8_t *wide_out = test_xmalloc((size_t)*out_count + 1);
    for (int64_t i = 0; i < in_count; i++) wide_in[i] = (uint8_t)get_element(in, i, bits);
    uint8_t wide_value = 0;
    if (value != NULL) wide_value = (uint8_t)(*(const uint8_t *)value & ((1u << bits) - 1u));
    assert_int_equal(ndpad_ref_onnx_pad(rank, shape, 1, pads, pads_count, axes, axes_count, mode,
                                        value != NULL ? &wide_value : NULL, wide_in, wide_out),
                     NDPAD_OK);
    uint8_t *out = test_xmalloc(packed_bytes(*out_count, bits) + 1);
    memset(out, 0, packed_bytes(*out_count, bits) + 1);
    for (int64_t i = 0; i < *out_count; i++) set_element(out, i, bits, wide_out[i]);
    free(wide_in);
    free(wide_out);
    return out;
}

/* Runs ndpad_onnx_pad_typed into a guarded buffer and through a plan of the typed problem;
 * both must give `expected` (bytes of `count` elements). */
static void check_typed_pad(const char *what, int32_t opset, int32_t rank, const int64_t *shape,
                            int32_t type, const int64_t *pads, int64_t pads_count,
                            const int64_t *axes, int64_t axes_count, const char *mode,
                            const void *value, const uint8_t *in, const uint8_t *expected,
                            int64_t count)
{
    const int32_t bits = ndpad_onnx_type_bits(type);
    const size_t bytes = packed_bytes(count, bits);
    test_out out = test_out_make(bytes);
    ndpad_status st = ndpad_onnx_pad_typed(opset, rank, shape, type, pads, pads_count, axes,
                                           axes_count, mode, value, in, out.body);
    if (st != NDPAD_OK)
        fail_msg("%s: ndpad_onnx_pad_typed: %s (%s)", what, ndpad_status_string(st),
                 ndpad_last_error());
    if (memcmp(out.body, expected, bytes) != 0) {
        test_print_difference(stderr, expected, out.body, bytes, 0);
        fail_msg("%s (%s): output differs from the reference", what, ndpad_onnx_type_name(type));
    }
    if (!test_all_bytes_are(out.alloc, TEST_GUARD, TEST_SENTINEL) ||
        !test_all_bytes_are(out.body + bytes, TEST_GUARD, TEST_SENTINEL))
        fail_msg("%s: a guard byte changed", what);

    /* the typed problem through a plan: the core one, or the bits one on the unoffset input */
    ndpad_onnx_typed_problem *typed = test_xmalloc(sizeof(*typed));
    assert_int_equal(ndpad_onnx_problem_init_typed(typed, opset, rank, shape, type, pads,
                                                   pads_count, axes, axes_count, mode, value),
                     NDPAD_OK);
    assert_int_equal(typed->elem_type, type);
    assert_int_equal(typed->elem_bits, bits);
    memset(out.body, TEST_SENTINEL, bytes);
    if (bits >= 8) {
        assert_int_equal(typed->onnx.problem.elem_size, (size_t)bits / 8);
        ndpad_plan *plan = NULL;
        assert_int_equal(ndpad_plan_create(&typed->onnx.problem, NULL, &plan), NDPAD_OK);
        st = ndpad_execute(plan, in == NULL ? NULL : in + typed->onnx.in_offset, out.body);
        ndpad_plan_destroy(plan);
        assert_int_equal(st, NDPAD_OK);
        if (memcmp(out.body, expected, bytes) != 0) fail_msg("%s: plan output differs", what);
    } else {
        /* the core refuses the element-sized shadow of a sub-byte problem */
        ndpad_plan *core = NULL;
        assert_int_equal(ndpad_plan_create(&typed->onnx.problem, NULL, &core), NDPAD_ERR_ELEM_SIZE);
        assert_int_equal(typed->onnx.in_offset, 0);
        ndpad_bits_plan *plan = NULL;
        assert_int_equal(ndpad_bits_plan_create(&typed->bits, NULL, &plan), NDPAD_OK);
        st = ndpad_bits_execute(plan, in, out.body);
        ndpad_bits_plan_destroy(plan);
        assert_int_equal(st, NDPAD_OK);
        /* a plan writes the elements only: the last byte's spare bits keep the sentinel's */
        for (int64_t i = 0; i < count; i++)
            if (get_element(out.body, i, bits) != get_element(expected, i, bits))
                fail_msg("%s: plan output differs at element %lld", what, (long long)i);
        const int64_t spare = (count * bits) % 8;
        if (spare != 0 && (out.body[bytes - 1] >> spare) != (TEST_SENTINEL >> spare))
            fail_msg("%s: a plan changed bits past the last element", what);
    }
    free(typed);
    test_out_free(&out);
}

/* ---- the type table ------------------------------------------------------------------- */

static void type_bits_and_names_are_onnx_s(void **state)
{
    (void)state;
    static const struct {
        int32_t type;
        int32_t bits;
        const char *name;
    } expect[] = {
        {0, 0, "UNDEFINED"},
        {1, 32, "FLOAT"},
        {2, 8, "UINT8"},
        {3, 8, "INT8"},
        {4, 16, "UINT16"},
        {5, 16, "INT16"},
        {6, 32, "INT32"},
        {7, 64, "INT64"},
        {8, 0, "STRING"},
        {9, 8, "BOOL"},
        {10, 16, "FLOAT16"},
        {11, 64, "DOUBLE"},
        {12, 32, "UINT32"},
        {13, 64, "UINT64"},
        {14, 64, "COMPLEX64"},
        {15, 128, "COMPLEX128"},
        {16, 16, "BFLOAT16"},
        {17, 8, "FLOAT8E4M3FN"},
        {18, 8, "FLOAT8E4M3FNUZ"},
        {19, 8, "FLOAT8E5M2"},
        {20, 8, "FLOAT8E5M2FNUZ"},
        {21, 4, "UINT4"},
        {22, 4, "INT4"},
        {23, 4, "FLOAT4E2M1"},
        {24, 8, "FLOAT8E8M0"},
        {25, 2, "UINT2"},
        {26, 2, "INT2"},
        {27, 6, "FLOAT6E2M3"},
        {28, 6, "FLOAT6E3M2"},
        {29, 0, "?"},
        {-1, 0, "?"},
        {INT32_MAX, 0, "?"},
        {INT32_MIN, 0, "?"},
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        assert_int_equal(ndpad_onnx_type_bits(expect[i].type), expect[i].bits);
        assert_string_equal(ndpad_onnx_type_name(expect[i].type), expect[i].name);
    }
}

/* Every type number at every opset: accepted exactly when ONNX's Pad of that opset lists
 * it (STRING refused for its width, with its own message), and CenterCropPad likewise with
 * CenterCropPad-18's list (Pad-13's) from opset 18 on, every Pad-25 type at opset 0. */
static void each_opset_accepts_onnx_s_types(void **state)
{
    (void)state;
    const int64_t shape[2] = {2, 3}, pads[4] = {1, 0, 0, 2}, target[2] = {3, 2};
    int accepted = 0, refused = 0;
    for (int32_t opset = 0; opset <= NDPAD_ONNX_OPSET_MAX + 3; opset++) {
        const int32_t version = expected_pad_version(opset);
        for (int32_t type = -2; type < TYPES_TO_TRY; type++) {
            ndpad_onnx_typed_problem typed;
            char what[96];
            snprintf(what, sizeof what, "Pad, opset %d, type %d", (int)opset, (int)type);
            ndpad_status st = ndpad_onnx_problem_init_typed(&typed, opset, 2, shape, type, pads, 4,
                                                            NULL, 0, "constant", NULL);
            const bool listed = version != 0 && pad_version_lists(version, type);
            if (listed && type != NDPAD_ONNX_STRING) {
                if (st != NDPAD_OK)
                    fail_msg("%s: %s (%s)", what, ndpad_status_string(st), ndpad_last_error());
                accepted++;
            } else {
                if (st != NDPAD_ERR_TYPE || !test_contains(ndpad_last_error(), "elem_type = "))
                    fail_msg("%s: %s (%s), expected NDPAD_ERR_TYPE", what, ndpad_status_string(st),
                             ndpad_last_error());
                if (listed) assert_true(test_contains(ndpad_last_error(), "no fixed width"));
                refused++;
            }
            snprintf(what, sizeof what, "CenterCropPad, opset %d, type %d", (int)opset, (int)type);
            st = ndpad_onnx_center_crop_pad_init_typed(&typed, opset, 2, shape, type, target, 2,
                                                       NULL, 0);
            const bool ccp_listed = opset == 0 ? pad_version_lists(25, type)
                                               : opset >= 18 && pad_version_lists(13, type);
            if (ccp_listed && type != NDPAD_ONNX_STRING) {
                if (st != NDPAD_OK)
                    fail_msg("%s: %s (%s)", what, ndpad_status_string(st), ndpad_last_error());
            } else if (st != NDPAD_ERR_TYPE) {
                fail_msg("%s: %s (%s), expected NDPAD_ERR_TYPE", what, ndpad_status_string(st),
                         ndpad_last_error());
            }
        }
    }
    printf("typed init: %d accepted, %d refused (type, opset) pairs\n", accepted, refused);
}

/* ---- every accepted type against the reference ---------------------------------------- */

static const int32_t every_type[] = {
    NDPAD_ONNX_FLOAT,          NDPAD_ONNX_UINT8,          NDPAD_ONNX_INT8,
    NDPAD_ONNX_UINT16,         NDPAD_ONNX_INT16,          NDPAD_ONNX_INT32,
    NDPAD_ONNX_INT64,          NDPAD_ONNX_BOOL,           NDPAD_ONNX_FLOAT16,
    NDPAD_ONNX_DOUBLE,         NDPAD_ONNX_UINT32,         NDPAD_ONNX_UINT64,
    NDPAD_ONNX_COMPLEX64,      NDPAD_ONNX_COMPLEX128,     NDPAD_ONNX_BFLOAT16,
    NDPAD_ONNX_FLOAT8E4M3FN,   NDPAD_ONNX_FLOAT8E4M3FNUZ, NDPAD_ONNX_FLOAT8E5M2,
    NDPAD_ONNX_FLOAT8E5M2FNUZ, NDPAD_ONNX_UINT4,          NDPAD_ONNX_INT4,
    NDPAD_ONNX_FLOAT4E2M1,     NDPAD_ONNX_FLOAT8E8M0,     NDPAD_ONNX_UINT2,
    NDPAD_ONNX_INT2,
};
enum { EVERY_TYPE = sizeof(every_type) / sizeof(every_type[0]) };

/* The first opset of Pad that takes `type` (from the lists above). */
static int32_t first_opset(int32_t type)
{
    for (int v = 0; v < VERSIONS; v++)
        if (pad_version_lists(pad_versions[v].version, type)) return pad_versions[v].version;
    return 0;
}

/* The element count of the header's output shape (the input's with each listed axis's
 * pads added), written out here from the arguments; false when an extent is negative. */
static bool header_output_count(int32_t rank, const int64_t *shape, const int64_t *pads,
                                int64_t num_axes, const int64_t *axes, int64_t *count)
{
    *count = 1;
    bool valid = true;
    for (int32_t k = 0; k < rank; k++) {
        int64_t extent = shape[k];
        for (int64_t i = 0; i < num_axes; i++)
            if ((axes != NULL ? (axes[i] + rank) % rank : i) == k)
                extent += pads[i] + pads[num_axes + i];
        if (extent < 0) valid = false;
        *count *= extent;
    }
    if (!valid) *count = -1;
    return valid;
}

static void every_type_pads_like_the_reference(void **state)
{
    (void)state;
    static const char *const modes[] = {"constant", "edge", "reflect", "wrap", NULL};
    int64_t checked = 0, refused = 0;
    for (int t = 0; t < EVERY_TYPE; t++) {
        const int32_t type = every_type[t];
        const int32_t bits = ndpad_onnx_type_bits(type);
        for (int64_t index = 0; index < 400; index++) {
            test_rng r = test_rng_make(0x54595045ull + (uint64_t)type, (uint64_t)index);
            /* opset 0, or one where this type, axes and wrap are all Pad's */
            const int32_t low = first_opset(type) > 19 ? first_opset(type) : 19;
            const int32_t opset = test_rng_chance(&r, 1, 3)
                                      ? 0
                                      : (int32_t)test_rng_range(&r, low, NDPAD_ONNX_OPSET_MAX);
            const int32_t rank = (int32_t)test_rng_range(&r, 1, 4);
            int64_t shape[4], pads[8], axes[4];
            const int64_t max_extent = rank > 2 ? 5 : 9, max_pad = rank > 2 ? 4 : 10;
            for (int32_t k = 0; k < rank; k++)
                shape[k] = test_rng_chance(&r, 1, 20) ? 0 : test_rng_range(&r, 1, max_extent);
            const bool use_axes = test_rng_chance(&r, 1, 2);
            int64_t num_axes = rank;
            if (use_axes) {
                /* a prefix of a rotation of the axes, as negative numbers half the time */
                const int32_t first = (int32_t)test_rng_range(&r, 0, rank - 1);
                num_axes = test_rng_range(&r, 0, rank);
                for (int64_t i = 0; i < num_axes; i++) {
                    const int32_t a = (int32_t)((first + i) % rank);
                    axes[i] = test_rng_chance(&r, 1, 2) ? a : a - rank;
                }
            }
            for (int64_t i = 0; i < num_axes; i++) {
                const int64_t a = use_axes ? (axes[i] + rank) % rank : i;
                const int64_t d = shape[a];
                /* now and then crops longer than the axis (issue 41) */
                const int64_t over = test_rng_chance(&r, 1, 6) ? 3 : 0;
                const int64_t b = test_rng_chance(&r, 1, 3) ? -test_rng_range(&r, 0, d + over)
                                                            : test_rng_range(&r, 0, max_pad);
                const int64_t left = d + (b < 0 ? b : 0);
                pads[i] = b;
                pads[num_axes + i] = test_rng_chance(&r, 1, 3)
                                         ? -test_rng_range(&r, 0, (left > 0 ? left : 0) + over)
                                         : test_rng_range(&r, 0, max_pad);
            }
            const char *mode = modes[test_rng_range(&r, 0, 4)];
            uint8_t value[16];
            test_rng_bytes(&r, value, sizeof value);
            const void *constant_value = test_rng_chance(&r, 1, 2) ? value : NULL;
            const int64_t in_count = test_count(rank, shape);
            const size_t in_bytes = packed_bytes(in_count, bits);
            uint8_t *in = test_xmalloc(in_bytes + 1);
            test_rng_bytes(&r, in, in_bytes + 1); /* spare bits of the last byte too */
            int64_t count = 0;
            uint8_t *expected =
                reference_typed_pad(rank, shape, bits, pads, 2 * num_axes, use_axes ? axes : NULL,
                                    num_axes, mode, constant_value, in, &count);
            char what[128];
            snprintf(what, sizeof what, "%s problem %lld (opset %d, %s)",
                     ndpad_onnx_type_name(type), (long long)index, (int)opset,
                     mode != NULL ? mode : "NULL");
            /* the header's shape: each listed axis's pads added; never negative */
            int64_t header_count = 0;
            const bool header_valid = header_output_count(rank, shape, pads, num_axes,
                                                          use_axes ? axes : NULL, &header_count);
            if (!header_valid && expected != NULL) fail_msg("%s: a negative extent accepted", what);
            if (expected != NULL && count != header_count)
                fail_msg("%s: %lld output elements, the header's shape has %lld", what,
                         (long long)count, (long long)header_count);
            if (expected != NULL && count <= 4000) {
                check_typed_pad(what, opset, rank, shape, type, pads, 2 * num_axes,
                                use_axes ? axes : NULL, num_axes, mode, constant_value, in,
                                expected, count);
                checked++;
            } else if (expected == NULL) {
                ndpad_ref_verdict verdict;
                ndpad_ref_onnx_validate(rank, shape, bits >= 8 ? (size_t)bits / 8 : 1, pads,
                                        2 * num_axes, use_axes ? axes : NULL, num_axes, mode,
                                        &verdict, NULL);
                uint8_t out[64];
                memset(out, TEST_SENTINEL, sizeof out);
                test_expect_refused(what,
                                    ndpad_onnx_pad_typed(opset, rank, shape, type, pads,
                                                         2 * num_axes, use_axes ? axes : NULL,
                                                         num_axes, mode, constant_value, in, out),
                                    verdict.status, "ndpad_onnx_pad_typed", "", out, sizeof out);
                refused++;
            }
            free(expected);
            free(in);
        }
    }
    printf("typed pad: %lld problems over %d types checked against the reference, %lld "
           "refused as it refuses them\n",
           (long long)checked, (int)EVERY_TYPE, (long long)refused);
}

/* ---- crops longer than their axis (issue 41) -------------------------------------------- */

/* Every ONNX Pad entry point on one problem, into buffers of exactly the header's shape
 * (`count` elements) with guard bytes: the one-shot calls, untyped (whole-byte types) and
 * typed, and the output shape of each translated problem. */
static void check_over_crop(const char *what, int32_t type, int32_t rank, const int64_t *shape,
                            const int64_t *pads, const char *mode, const void *value,
                            const uint8_t *in, const uint8_t *expected, int64_t count)
{
    const int32_t bits = ndpad_onnx_type_bits(type);
    int64_t header_count = 0;
    assert_true(header_output_count(rank, shape, pads, rank, NULL, &header_count));
    assert_int_equal(header_count, count);
    check_typed_pad(what, 25, rank, shape, type, pads, 2 * rank, NULL, 0, mode, value, in, expected,
                    count);
    ndpad_onnx_typed_problem typed;
    assert_int_equal(ndpad_onnx_problem_init_typed(&typed, 25, rank, shape, type, pads, 2 * rank,
                                                   NULL, 0, mode, value),
                     NDPAD_OK);
    int64_t out_shape[NDPAD_MAX_RANK];
    if (bits >= 8)
        assert_int_equal(ndpad_output_shape(&typed.onnx.problem, out_shape), NDPAD_OK);
    else
        assert_int_equal(ndpad_bits_output_shape(&typed.bits, out_shape), NDPAD_OK);
    assert_int_equal(test_count(rank, out_shape), count);
    if (bits < 8) return;
    ndpad_onnx_problem onnx;
    assert_int_equal(ndpad_onnx_problem_init(&onnx, rank, shape, (size_t)bits / 8, pads, 2 * rank,
                                             NULL, 0, mode, value),
                     NDPAD_OK);
    assert_int_equal(ndpad_output_shape(&onnx.problem, out_shape), NDPAD_OK);
    assert_int_equal(test_count(rank, out_shape), count);
    const size_t bytes = (size_t)count * (size_t)bits / 8;
    test_out out = test_out_make(bytes);
    assert_int_equal(ndpad_onnx_pad(rank, shape, (size_t)bits / 8, pads, 2 * rank, NULL, 0, mode,
                                    value, in, out.body),
                     NDPAD_OK);
    assert_memory_equal(out.body, expected, bytes);
    if (!test_all_bytes_are(out.alloc, TEST_GUARD, TEST_SENTINEL) ||
        !test_all_bytes_are(out.body + bytes, TEST_GUARD, TEST_SENTINEL))
        fail_msg("%s: ndpad_onnx_pad wrote a guard byte", what);
    test_out_free(&out);
}

/* Every ONNX Pad entry point refuses the problem with `status`, naming itself and `says`,
 * and writes nothing. */
static void check_over_crop_refused(const char *what, int32_t type, int32_t rank,
                                    const int64_t *shape, const int64_t *pads, const char *mode,
                                    ndpad_status status, const char *says)
{
    const int32_t bits = ndpad_onnx_type_bits(type);
    const uint8_t in[16] = {1, 2, 3, 4, 5, 6, 7, 8};
    uint8_t out[64];
    memset(out, TEST_SENTINEL, sizeof out);
    test_expect_refused(what,
                        ndpad_onnx_pad_typed(25, rank, shape, type, pads, 2 * rank, NULL, 0, mode,
                                             NULL, in, out),
                        status, "ndpad_onnx_pad_typed", says, out, sizeof out);
    ndpad_onnx_typed_problem typed;
    test_expect_refused(what,
                        ndpad_onnx_problem_init_typed(&typed, 25, rank, shape, type, pads, 2 * rank,
                                                      NULL, 0, mode, NULL),
                        status, "ndpad_onnx_problem_init_typed", says, out, sizeof out);
    if (bits < 8) return;
    test_expect_refused(what,
                        ndpad_onnx_pad(rank, shape, (size_t)bits / 8, pads, 2 * rank, NULL, 0, mode,
                                       NULL, in, out),
                        status, "ndpad_onnx_pad", says, out, sizeof out);
    ndpad_onnx_problem onnx;
    test_expect_refused(what,
                        ndpad_onnx_problem_init(&onnx, rank, shape, (size_t)bits / 8, pads,
                                                2 * rank, NULL, 0, mode, NULL),
                        status, "ndpad_onnx_problem_init", says, out, sizeof out);
}

/* A crop longer than its axis: shape {1}, pads {3, -2}, UINT8 at opset 21, value 7 wrote
 * 3 bytes where the header's shape (d + begin + end) has 2 (issue 41). Now the output has
 * the header's shape on every entry point: "constant" fills it with the value (ONNX
 * Runtime's output), the other modes have no element to repeat and a negative extent is
 * no shape (both refused by ONNX Runtime, and here with the pads and the axis named). */
static void crop_longer_than_its_axis_keeps_the_header_s_shape(void **state)
{
    (void)state;
    const int64_t one[1] = {1}, three[1] = {3}, two_three[2] = {2, 3};
    const int64_t pads_3_m2[2] = {3, -2}, pads_m4_4[2] = {-4, 4}, pads_2_m3[2] = {2, -3};
    const uint8_t seven = 7, in[8] = {0x21, 0x43, 0x65, 0x87, 0xA9, 0xCB};
    const uint8_t seven_seven[2] = {7, 7};
    check_over_crop("uint8 {1}, pads {3, -2}", NDPAD_ONNX_UINT8, 1, one, pads_3_m2, "constant",
                    &seven, in, seven_seven, 2);
    const uint8_t nibble = 0xF7, int4_77 = 0x77;
    check_over_crop("int4 {1}, pads {3, -2}", NDPAD_ONNX_INT4, 1, one, pads_3_m2, "constant",
                    &nibble, in, &int4_77, 2);
    const uint8_t crumb = 0x02, uint2_222 = 0x2A;
    check_over_crop("uint2 {3}, pads {-4, 4}", NDPAD_ONNX_UINT2, 1, three, pads_m4_4, NULL, &crumb,
                    in, &uint2_222, 3);
    /* 2 x 3 float, axis 1 cropped by 4 then padded by 2: 3 x 1 of the value */
    const int64_t pads_2d[4] = {0, -4, 1, 2};
    const float value = -1.5f, floats[6] = {1, 2, 3, 4, 5, 6};
    const float all_value[3] = {value, value, value};
    check_over_crop("float {2, 3}, pads {0, -4, 1, 2}", NDPAD_ONNX_FLOAT, 2, two_three, pads_2d,
                    "constant", &value, (const uint8_t *)floats, (const uint8_t *)all_value, 3);
    /* an empty extent: nothing to write */
    check_over_crop("uint8 {1}, pads {2, -3}", NDPAD_ONNX_UINT8, 1, one, pads_2_m3, "constant",
                    &seven, in, seven_seven, 0);

    static const char *const modes[] = {"edge", "reflect", "wrap"};
    for (int m = 0; m < 3; m++) {
        check_over_crop_refused(modes[m], NDPAD_ONNX_UINT8, 1, one, pads_3_m2, modes[m],
                                NDPAD_ERR_EMPTY_AXIS,
                                "pads[0] = 3 and pads[1] = -2 (axis 0) crop more than shape[0]");
        check_over_crop_refused(modes[m], NDPAD_ONNX_INT4, 1, three, pads_m4_4, modes[m],
                                NDPAD_ERR_EMPTY_AXIS, "has no input element left to repeat");
        check_over_crop_refused(modes[m], NDPAD_ONNX_UINT2, 2, two_three, pads_2d, modes[m],
                                NDPAD_ERR_EMPTY_AXIS, "pads[1] = -4 and pads[3] = 2 (axis 1)");
        /* an empty output extent with nothing to repeat: refused too, as ONNX Runtime */
        check_over_crop_refused(modes[m], NDPAD_ONNX_FLOAT16, 1, one, pads_2_m3, modes[m],
                                NDPAD_ERR_EMPTY_AXIS, "(axis 0)");
    }
    /* a negative output extent, in every mode */
    const int64_t pads_m2_m2[2] = {-2, -2}, pads_3_m5[2] = {3, -5};
    const int64_t pads_neg_2d[4] = {0, -1, 1, -3};
    static const char *const every_mode[] = {"constant", "edge", "reflect", "wrap"};
    for (int m = 0; m < 4; m++) {
        check_over_crop_refused(every_mode[m], NDPAD_ONNX_UINT8, 1, three, pads_m2_m2,
                                every_mode[m], NDPAD_ERR_SHAPE,
                                "pads[0] = -2 and pads[1] = -2 (axis 0) crop more than shape[0] "
                                "= 3: the output extent");
        check_over_crop_refused(every_mode[m], NDPAD_ONNX_INT4, 1, one, pads_3_m5, every_mode[m],
                                NDPAD_ERR_SHAPE, "is negative");
        check_over_crop_refused(every_mode[m], NDPAD_ONNX_INT64, 2, two_three, pads_neg_2d,
                                every_mode[m], NDPAD_ERR_SHAPE, "(axis 1)");
    }
}

/* ---- worked examples -------------------------------------------------------------------- */

/* ONNX's four documented Pad examples (operators/onnx__Pad), as FLOAT at opset 19. */
static void onnx_documented_examples(void **state)
{
    (void)state;
    const float data[6] = {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f};
    const int64_t shape[2] = {3, 2};
    const float zero = 0.0f;
    const struct {
        const char *mode;
        int64_t pads[4];
        int64_t count;
        float out[24];
    } examples[] = {
        {"constant", {0, 2, 0, 0}, 12, {0, 0, 1.0f, 1.2f, 0, 0, 2.3f, 3.4f, 0, 0, 4.5f, 5.7f}},
        {"reflect",
         {0, 2, 0, 0},
         12,
         {1.0f, 1.2f, 1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f, 5.7f, 4.5f, 5.7f}},
        {"edge",
         {0, 2, 0, 0},
         12,
         {1.0f, 1.0f, 1.0f, 1.2f, 2.3f, 2.3f, 2.3f, 3.4f, 4.5f, 4.5f, 4.5f, 5.7f}},
        {"wrap", {2, 1, 1, 1}, 24, {3.4f, 2.3f, 3.4f, 2.3f, 5.7f, 4.5f, 5.7f, 4.5f,
                                    1.2f, 1.0f, 1.2f, 1.0f, 3.4f, 2.3f, 3.4f, 2.3f,
                                    5.7f, 4.5f, 5.7f, 4.5f, 1.2f, 1.0f, 1.2f, 1.0f}},
    };
    for (size_t e = 0; e < sizeof examples / sizeof examples[0]; e++)
        check_typed_pad(examples[e].mode, 19, 2, shape, NDPAD_ONNX_FLOAT, examples[e].pads, 4, NULL,
                        0, examples[e].mode, &zero, (const uint8_t *)data,
                        (const uint8_t *)examples[e].out, examples[e].count);
}

/* Sub-byte cases worked by hand; ONNX's reference evaluator (onnx 1.23, onnx.reference)
 * gives the same bytes for the first two. */
static void sub_byte_worked_examples(void **state)
{
    (void)state;
    /* the header's example: int4 [1, 2, 3], pads [1, 2], -1 -> [-1, 1, 2, 3, -1, -1] */
    const int64_t three[1] = {3}, pads_12[2] = {1, 2};
    const uint8_t int4_in[2] = {0x21, 0x03}, minus1 = 0x0F;
    const uint8_t int4_out[3] = {0x1F, 0x32, 0xFF};
    check_typed_pad("int4 constant", 21, 1, three, NDPAD_ONNX_INT4, pads_12, 2, NULL, 0, "constant",
                    &minus1, int4_in, int4_out, 6);
    /* uint2 [0, 1, 2, 3, 1] reflect pads [2, 1] -> [2, 1, 0, 1, 2, 3, 1, 3] */
    const int64_t five[1] = {5}, pads_21[2] = {2, 1};
    const uint8_t uint2_in[2] = {0xE4, 0x01}, uint2_out[2] = {0x46, 0xDE};
    check_typed_pad("uint2 reflect", 25, 1, five, NDPAD_ONNX_UINT2, pads_21, 2, NULL, 0, "reflect",
                    NULL, uint2_in, uint2_out, 8);
    /* float4e2m1 2x3 {1..6}, crop a column at the front, wrap a row before: 3x2 of
     * {5 6 / 2 3 / 5 6}; 6 elements of 4 bits in 3 bytes */
    const int64_t shape23[2] = {2, 3}, pads_wrap[4] = {1, -1, 0, 0};
    const uint8_t f4_in[3] = {0x21, 0x43, 0x65}, f4_out[3] = {0x65, 0x32, 0x65};
    check_typed_pad("float4e2m1 wrap + crop", 23, 2, shape23, NDPAD_ONNX_FLOAT4E2M1, pads_wrap, 4,
                    NULL, 0, "wrap", NULL, f4_in, f4_out, 6);
    /* an odd count: int4 [7] edge-padded to 3 elements, the last byte's high nibble zero
     * even where the caller's buffer held other bits */
    const int64_t one[1] = {1}, pads_11[2] = {1, 1};
    const uint8_t seven = 0xF7, int4_edge[2] = {0x77, 0x07};
    check_typed_pad("int4 edge, odd count", 21, 1, one, NDPAD_ONNX_INT4, pads_11, 2, NULL, 0,
                    "edge", NULL, &seven, int4_edge, 3);
    /* rank 0: one int2 element, copied; the byte's other bits zero */
    const uint8_t crumb = 0xFE, crumb_out = 0x02;
    check_typed_pad("int2 rank 0", 25, 0, NULL, NDPAD_ONNX_INT2, NULL, 0, NULL, 0, "reflect", NULL,
                    &crumb, &crumb_out, 1);
}

/* ---- CenterCropPad by type -------------------------------------------------------------- */

static void center_crop_pad_every_type_like_the_reference(void **state)
{
    (void)state;
    int64_t checked = 0;
    for (int t = 0; t < EVERY_TYPE; t++) {
        const int32_t type = every_type[t];
        const int32_t bits = ndpad_onnx_type_bits(type);
        const bool onnx_s = first_opset(type) <= 13;
        for (int64_t index = 0; index < 150; index++) {
            test_rng r = test_rng_make(0x43435054ull + (uint64_t)type, (uint64_t)index);
            const int32_t opset = onnx_s && test_rng_chance(&r, 1, 2)
                                      ? (int32_t)test_rng_range(&r, 18, NDPAD_ONNX_OPSET_MAX)
                                      : 0;
            const int32_t rank = (int32_t)test_rng_range(&r, 1, 4);
            int64_t shape[4], target[4], pads[8];
            for (int32_t k = 0; k < rank; k++) {
                shape[k] = test_rng_chance(&r, 1, 20) ? 0 : test_rng_range(&r, 1, 9);
                target[k] = test_rng_range(&r, 0, 11);
                /* ONNX's rule, as its reference implementation writes it */
                const int64_t diff = target[k] - shape[k];
                pads[k] = diff >= 0 ? diff / 2 : -((-diff) / 2);
                pads[rank + k] = diff - pads[k];
            }
            const int64_t in_count = test_count(rank, shape);
            uint8_t *in = test_xmalloc(packed_bytes(in_count, bits) + 1);
            test_rng_bytes(&r, in, packed_bytes(in_count, bits) + 1);
            int64_t count = 0;
            uint8_t *expected = reference_typed_pad(rank, shape, bits, pads, 2 * rank, NULL, 0,
                                                    "constant", NULL, in, &count);
            assert_non_null(expected);
            const size_t bytes = packed_bytes(count, bits);
            test_out out = test_out_make(bytes);
            const ndpad_status st =
                ndpad_onnx_center_crop_pad_typed(opset, rank, shape, type, target, rank, NULL, 0,
                                                 in, out.body);
            if (st != NDPAD_OK)
                fail_msg("%s %lld: %s (%s)", ndpad_onnx_type_name(type), (long long)index,
                         ndpad_status_string(st), ndpad_last_error());
            if (memcmp(out.body, expected, bytes) != 0)
                fail_msg("%s CenterCropPad %lld: output differs", ndpad_onnx_type_name(type),
                         (long long)index);
            if (!test_all_bytes_are(out.alloc, TEST_GUARD, TEST_SENTINEL) ||
                !test_all_bytes_are(out.body + bytes, TEST_GUARD, TEST_SENTINEL))
                fail_msg("%s CenterCropPad %lld: a guard byte changed", ndpad_onnx_type_name(type),
                         (long long)index);
            test_out_free(&out);
            free(expected);
            free(in);
            checked++;
        }
    }
    printf("typed CenterCropPad: %lld problems checked\n", (long long)checked);
}

/* ---- refusals ---------------------------------------------------------------------------- */

static void typed_calls_refuse_with_onnx_s_errors(void **state)
{
    (void)state;
    const int64_t shape[2] = {2, 3}, pads[4] = {1, 1, 1, 1}, axes[1] = {1}, pads1[2] = {1, 1};
    const int64_t target[2] = {3, 3};
    const uint8_t in[64] = {0};
    const struct {
        int32_t opset, type;
        const int64_t *pads;
        int64_t pads_count;
        const int64_t *axes;
        int64_t axes_count;
        const char *mode;
        ndpad_status status;
        const char *says;
    } pad_cases[] = {
        {-1, NDPAD_ONNX_FLOAT, pads, 4, NULL, 0, "constant", NDPAD_ERR_TYPE, "opset = -1"},
        {22, NDPAD_ONNX_FLOAT4E2M1, pads, 4, NULL, 0, "constant", NDPAD_ERR_TYPE,
         "elem_type = 23 (FLOAT4E2M1) of input 'data' is not a type of Pad-21 (opset 22); Pad "
         "takes it from opset 23"},
        {20, NDPAD_ONNX_INT4, pads, 4, NULL, 0, "constant", NDPAD_ERR_TYPE,
         "elem_type = 22 (INT4) of input 'data' is not a type of Pad-19 (opset 20)"},
        {23, NDPAD_ONNX_FLOAT8E8M0, pads, 4, NULL, 0, "edge", NDPAD_ERR_TYPE,
         "(FLOAT8E8M0) of input 'data' is not a type of Pad-23"},
        {24, NDPAD_ONNX_INT2, pads, 4, NULL, 0, "edge", NDPAD_ERR_TYPE,
         "elem_type = 26 (INT2) of input 'data' is not a type of Pad-24 (opset 24)"},
        {12, NDPAD_ONNX_BOOL, pads, 4, NULL, 0, "edge", NDPAD_ERR_TYPE, "Pad-11 (opset 12)"},
        {10, NDPAD_ONNX_INT32, pads, 4, NULL, 0, "edge", NDPAD_ERR_TYPE, "Pad-2 (opset 10)"},
        {0, NDPAD_ONNX_STRING, pads, 4, NULL, 0, "constant", NDPAD_ERR_TYPE, "no fixed width"},
        {0, NDPAD_ONNX_FLOAT6E2M3, pads, 4, NULL, 0, "constant", NDPAD_ERR_TYPE,
         "elem_type = 27 (FLOAT6E2M3) of input 'data' is not a type of Pad-25 (opset 0), nor of "
         "any version"},
        {0, 99, pads, 4, NULL, 0, "constant", NDPAD_ERR_TYPE, "elem_type = 99 (?)"},
        {0, NDPAD_ONNX_UNDEFINED, pads, 4, NULL, 0, "constant", NDPAD_ERR_TYPE, "(UNDEFINED)"},
        {18, NDPAD_ONNX_FLOAT, pads, 4, NULL, 0, "wrap", NDPAD_ERR_MODE,
         "mode = \"wrap\" is Pad-19's and later, not Pad-18's (opset 18)"},
        {13, NDPAD_ONNX_INT32, pads1, 2, axes, 1, "constant", NDPAD_ERR_AXES,
         "axes is an input of Pad-18 and later, not of Pad-13 (opset 13)"},
        /* the ONNX rules after the type's: reported as ndpad_onnx_pad reports them */
        {21, NDPAD_ONNX_INT4, pads, 3, NULL, 0, "constant", NDPAD_ERR_PADS_LENGTH,
         "pads has 3 entries"},
        {21, NDPAD_ONNX_INT4, pads, 4, NULL, 0, "mirror", NDPAD_ERR_MODE, "mode = \"mirror\""},
        {25, NDPAD_ONNX_UINT2, pads1, 2, (const int64_t[]){2}, 1, "edge", NDPAD_ERR_AXES,
         "axes[0] = 2"},
    };
    for (size_t c = 0; c < sizeof pad_cases / sizeof pad_cases[0]; c++) {
        uint8_t out[64];
        memset(out, TEST_SENTINEL, sizeof out);
        char what[48];
        snprintf(what, sizeof what, "Pad case %zu", c);
        test_expect_refused(what,
                            ndpad_onnx_pad_typed(pad_cases[c].opset, 2, shape, pad_cases[c].type,
                                                 pad_cases[c].pads, pad_cases[c].pads_count,
                                                 pad_cases[c].axes, pad_cases[c].axes_count,
                                                 pad_cases[c].mode, NULL, in, out),
                            pad_cases[c].status, "ndpad_onnx_pad_typed", pad_cases[c].says, out,
                            sizeof out);
        ndpad_onnx_typed_problem typed;
        test_expect_refused(what,
                            ndpad_onnx_problem_init_typed(&typed, pad_cases[c].opset, 2, shape,
                                                          pad_cases[c].type, pad_cases[c].pads,
                                                          pad_cases[c].pads_count,
                                                          pad_cases[c].axes,
                                                          pad_cases[c].axes_count,
                                                          pad_cases[c].mode, NULL),
                            pad_cases[c].status, "ndpad_onnx_problem_init_typed", pad_cases[c].says,
                            out, sizeof out);
    }
    const struct {
        int32_t opset, type;
        ndpad_status status;
        const char *says;
    } center_cases[] = {
        {17, NDPAD_ONNX_FLOAT, NDPAD_ERR_TYPE, "opset = 17 has no CenterCropPad"},
        {18, NDPAD_ONNX_INT4, NDPAD_ERR_TYPE,
         "elem_type = 22 (INT4) of input 'data' is not a type of CenterCropPad-18 (opset 18); "
         "opset 0 (ndpad's widest rule) takes it"},
        {28, NDPAD_ONNX_FLOAT8E4M3FN, NDPAD_ERR_TYPE, "CenterCropPad-18 (opset 28)"},
        {18, NDPAD_ONNX_STRING, NDPAD_ERR_TYPE, "no fixed width"},
        {-5, NDPAD_ONNX_FLOAT, NDPAD_ERR_TYPE, "opset = -5 is negative"},
    };
    for (size_t c = 0; c < sizeof center_cases / sizeof center_cases[0]; c++) {
        uint8_t out[64];
        memset(out, TEST_SENTINEL, sizeof out);
        char what[48];
        snprintf(what, sizeof what, "CenterCropPad case %zu", c);
        test_expect_refused(what,
                            ndpad_onnx_center_crop_pad_typed(center_cases[c].opset, 2, shape,
                                                             center_cases[c].type, target, 2, NULL,
                                                             0, in, out),
                            center_cases[c].status, "ndpad_onnx_center_crop_pad_typed",
                            center_cases[c].says, out, sizeof out);
    }
    /* CenterCropPad's own rules after the type's, under the typed name */
    uint8_t out[64];
    memset(out, TEST_SENTINEL, sizeof out);
    test_expect_refused("CenterCropPad negative target",
                        ndpad_onnx_center_crop_pad_typed(0, 2, shape, NDPAD_ONNX_UINT4,
                                                         (const int64_t[]){3, -1}, 2, NULL, 0, in,
                                                         out),
                        NDPAD_ERR_SHAPE, "ndpad_onnx_center_crop_pad_typed",
                        "target_shape[1] = -1 (axis 1) is negative", out, sizeof out);
    assert_int_equal(ndpad_onnx_problem_init_typed(NULL, 0, 2, shape, NDPAD_ONNX_FLOAT, pads, 4,
                                                   NULL, 0, NULL, NULL),
                     NDPAD_ERR_NULL_ARGUMENT);
    assert_int_equal(ndpad_onnx_center_crop_pad_init_typed(NULL, 0, 2, shape, NDPAD_ONNX_FLOAT,
                                                           target, 2, NULL, 0),
                     NDPAD_ERR_NULL_ARGUMENT);
}

/* A sub-byte problem whose bit count overflows int64 is refused before anything is run. */
static void sub_byte_bit_overflow_is_refused(void **state)
{
    (void)state;
    const int64_t shape[2] = {INT64_MAX / 4, 2}, pads[4] = {0, 0, 0, 0};
    uint8_t out[16];
    memset(out, TEST_SENTINEL, sizeof out);
    /* the message names the typed call, as every rule's (the bits checks run under its name) */
    test_expect_refused("int4 bit count overflow",
                        ndpad_onnx_pad_typed(0, 2, shape, NDPAD_ONNX_INT4, pads, 4, NULL, 0, "edge",
                                             NULL, out, out),
                        NDPAD_ERR_OVERFLOW, "ndpad_onnx_pad_typed", "", out, sizeof out);
}

/* An empty sub-byte output writes nothing, whatever its other extents (fuzz-onnx found the
 * spare-bit clearing multiplying them: regress-typed-empty-output-bit-count-overflow). */
static void sub_byte_empty_output_writes_nothing(void **state)
{
    (void)state;
    const int64_t shape[3] = {INT64_MAX / 2, 3, 0}, pads[6] = {0, 1, 0, 0, 1, 0};
    uint8_t out[16];
    memset(out, TEST_SENTINEL, sizeof out);
    assert_int_equal(ndpad_onnx_pad_typed(0, 3, shape, NDPAD_ONNX_UINT2, pads, 6, NULL, 0,
                                          "constant", NULL, NULL, out),
                     NDPAD_OK);
    assert_int_equal(ndpad_onnx_pad_typed(0, 3, shape, NDPAD_ONNX_INT4, pads, 6, NULL, 0,
                                          "constant", NULL, NULL, NULL),
                     NDPAD_OK);
    assert_true(test_all_bytes_are(out, sizeof out, TEST_SENTINEL));
}

/* Typed calls on 4- and 2-bit types name themselves in ndpad_last_error(), never the
 * sub-byte call they run on (issue 41: "ndpad_bits_pad: out is NULL ..."). */
static void sub_byte_errors_name_the_typed_call(void **state)
{
    (void)state;
    const int64_t shape[2] = {2, 3}, pads[4] = {1, 0, 0, 1}, target[2] = {3, 4};
    const uint8_t in[4] = {0x21, 0x43, 0x65, 0x87};
    const int32_t types[] = {NDPAD_ONNX_INT4, NDPAD_ONNX_UINT4, NDPAD_ONNX_FLOAT4E2M1,
                             NDPAD_ONNX_INT2, NDPAD_ONNX_UINT2};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        char what[64];
        snprintf(what, sizeof what, "%s", ndpad_onnx_type_name(types[t]));
        test_expect_refused(what,
                            ndpad_onnx_pad_typed(0, 2, shape, types[t], pads, 4, NULL, 0, "edge",
                                                 NULL, in, NULL),
                            NDPAD_ERR_NULL_BUFFER, "ndpad_onnx_pad_typed: ", "out is NULL", NULL,
                            0);
        assert_null(strstr(ndpad_last_error(), "ndpad_bits"));
        test_expect_refused(what,
                            ndpad_onnx_pad_typed(0, 2, shape, types[t], pads, 4, NULL, 0, "reflect",
                                                 NULL, NULL, (uint8_t[8]){0}),
                            NDPAD_ERR_NULL_BUFFER, "ndpad_onnx_pad_typed: ", "in is NULL", NULL, 0);
        assert_null(strstr(ndpad_last_error(), "ndpad_bits"));
        test_expect_refused(what,
                            ndpad_onnx_center_crop_pad_typed(0, 2, shape, types[t], target, 2, NULL,
                                                             0, in, NULL),
                            NDPAD_ERR_NULL_BUFFER,
                            "ndpad_onnx_center_crop_pad_typed: ", "out is NULL", NULL, 0);
        assert_null(strstr(ndpad_last_error(), "ndpad_bits"));
    }
}

static int wisdom_log_calls;
static void count_wisdom_log(const char *message, void *user)
{
    (void)message;
    (void)user;
    wisdom_log_calls++;
}

/* Sub-byte plans use no wisdom (ndpad.h, 2g), with default options too: a corrupt
 * $NDPAD_WISDOM is never read by a sub-byte call, typed ONNX or ndpad_bits_*, so it logs
 * nothing (issue 41: a warning on every typed int4 / int2 call). A byte plan with default
 * options reads the same file and warns: the file would be seen. */
static void sub_byte_calls_never_read_wisdom(void **state)
{
    (void)state;
    char dir[] = "/tmp/ndpad-test-onnx-types-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/wisdom", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("this is no wisdom file\n\x01\x02 garbage\n", f);
    fclose(f);
    const char *old = getenv("NDPAD_WISDOM");
    char *saved = old != NULL ? strdup(old) : NULL;
    setenv("NDPAD_WISDOM", path, 1);
    ndpad_wisdom_forget();
    wisdom_log_calls = 0;
    ndpad_set_log_callback(count_wisdom_log, NULL);

    const int64_t shape[2] = {3, 5}, pads[4] = {1, 2, 0, 1}, target[2] = {4, 4};
    /* 15 elements: 8 bytes at 4 bits, 15 for the byte control below */
    const uint8_t in[16] = {0x21, 0x43, 0x65, 0x87, 0xA9, 0xCB, 0xED, 0x0F,
                            0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0};
    uint8_t out[64];
    static const struct {
        int32_t opset, type;
        const char *mode;
    } typed[] = {{21, NDPAD_ONNX_INT4, "constant"},
                 {25, NDPAD_ONNX_INT2, "reflect"},
                 {0, NDPAD_ONNX_UINT4, "edge"}};
    const ndpad_bits_problem bits = {.problem = {.rank = 2,
                                                 .mode = NDPAD_EDGE,
                                                 .shape = shape,
                                                 .pads_begin = pads,
                                                 .pads_end = pads + 2},
                                     .elem_bits = 4};
    for (int rep = 0; rep < 3; rep++) {
        for (size_t t = 0; t < sizeof typed / sizeof typed[0]; t++)
            assert_int_equal(ndpad_onnx_pad_typed(typed[t].opset, 2, shape, typed[t].type, pads, 4,
                                                  NULL, 0, typed[t].mode, NULL, in, out),
                             NDPAD_OK);
        assert_int_equal(ndpad_onnx_center_crop_pad_typed(0, 2, shape, NDPAD_ONNX_UINT4, target, 2,
                                                          NULL, 0, in, out),
                         NDPAD_OK);
        assert_int_equal(ndpad_bits_pad(&bits, NULL, in, out), NDPAD_OK);
        ndpad_bits_plan *plan = NULL;
        assert_int_equal(ndpad_bits_plan_create(&bits, NULL, &plan), NDPAD_OK);
        ndpad_bits_plan_destroy(plan);
    }
    const int sub_byte_calls = wisdom_log_calls;

    /* the control: the same problem of bytes, with default options, loads the file */
    assert_int_equal(ndpad_onnx_pad(2, shape, 1, pads, 4, NULL, 0, "constant", NULL, in, out),
                     NDPAD_OK);
    const int byte_calls = wisdom_log_calls - sub_byte_calls;

    ndpad_set_log_callback(NULL, NULL);
    if (saved != NULL)
        setenv("NDPAD_WISDOM", saved, 1);
    else
        unsetenv("NDPAD_WISDOM");
    free(saved);
    ndpad_wisdom_forget();
    unlink(path);
    rmdir(dir);
    if (sub_byte_calls != 0)
        fail_msg("sub-byte calls logged %d wisdom warnings (they read the wisdom file)",
                 sub_byte_calls);
    if (byte_calls < 1) fail_msg("the control byte plan logged no warning of the corrupt file");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(type_bits_and_names_are_onnx_s),
        cmocka_unit_test(each_opset_accepts_onnx_s_types),
        cmocka_unit_test(every_type_pads_like_the_reference),
        cmocka_unit_test(onnx_documented_examples),
        cmocka_unit_test(sub_byte_worked_examples),
        cmocka_unit_test(crop_longer_than_its_axis_keeps_the_header_s_shape),
        cmocka_unit_test(center_crop_pad_every_type_like_the_reference),
        cmocka_unit_test(typed_calls_refuse_with_onnx_s_errors),
        cmocka_unit_test(sub_byte_bit_overflow_is_refused),
        cmocka_unit_test(sub_byte_empty_output_writes_nothing),
        cmocka_unit_test(sub_byte_errors_name_the_typed_call),
        cmocka_unit_test(sub_byte_calls_never_read_wisdom),
    };
    return cmocka_run_group_tests_name("onnx-types", tests, NULL, NULL);
}
