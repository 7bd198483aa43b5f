/* ONNX Pad (through Pad-25) and CenterCropPad (18) by ONNX element type: which operator
 * version accepts which type at which opset (ONNX's own type lists, onnx/defs), and the
 * type's width, which sends whole-byte types to the core problem and the 4- and 2-bit types
 * to the sub-byte one. The translation itself (crop first) is dialect-onnx.c's, done in
 * elements. */
#include <string.h>

#include "dialect-onnx.h"

#include "bits-plan.h"
#include "bits-problem.h"
#include "checked.h"
#include "plan.h"

/* Each TensorProto.DataType: ONNX's name, bits per element (0: none fixed), and the first
 * Pad version whose type list holds it (0: none). Pad versions only ever added types, so a
 * type is accepted at opset o exactly when o >= pad_since (Pad-1 at opset 1 and so on).
 * CenterCropPad-18 takes the types of Pad-13: those with pad_since <= 13. */
static const struct {
    const char *name;
    int32_t bits;
    int32_t pad_since;
} onnx_types[] = {
    [NDPAD_ONNX_UNDEFINED] = {"UNDEFINED", 0, 0},
    [NDPAD_ONNX_FLOAT] = {"FLOAT", 32, 1},
    [NDPAD_ONNX_UINT8] = {"UINT8", 8, 11},
    [NDPAD_ONNX_INT8] = {"INT8", 8, 11},
    [NDPAD_ONNX_UINT16] = {"UINT16", 16, 11},
    [NDPAD_ONNX_INT16] = {"INT16", 16, 11},
    [NDPAD_ONNX_INT32] = {"INT32", 32, 11},
    [NDPAD_ONNX_INT64] = {"INT64", 64, 11},
    [NDPAD_ONNX_STRING] = {"STRING", 0, 13},
    [NDPAD_ONNX_BOOL] = {"BOOL", 8, 13},
    [NDPAD_ONNX_FLOAT16] = {"FLOAT16", 16, 1},
    [NDPAD_ONNX_DOUBLE] = {"DOUBLE", 64, 1},
    [NDPAD_ONNX_UINT32] = {"UINT32", 32, 11},
    [NDPAD_ONNX_UINT64] = {"UINT64", 64, 11},
    [NDPAD_ONNX_COMPLEX64] = {"COMPLEX64", 64, 13},
    [NDPAD_ONNX_COMPLEX128] = {"COMPLEX128", 128, 13},
    [NDPAD_ONNX_BFLOAT16] = {"BFLOAT16", 16, 13},
    [NDPAD_ONNX_FLOAT8E4M3FN] = {"FLOAT8E4M3FN", 8, 21},
    [NDPAD_ONNX_FLOAT8E4M3FNUZ] = {"FLOAT8E4M3FNUZ", 8, 21},
    [NDPAD_ONNX_FLOAT8E5M2] = {"FLOAT8E5M2", 8, 21},
    [NDPAD_ONNX_FLOAT8E5M2FNUZ] = {"FLOAT8E5M2FNUZ", 8, 21},
    [NDPAD_ONNX_UINT4] = {"UINT4", 4, 21},
    [NDPAD_ONNX_INT4] = {"INT4", 4, 21},
    [NDPAD_ONNX_FLOAT4E2M1] = {"FLOAT4E2M1", 4, 23},
    [NDPAD_ONNX_FLOAT8E8M0] = {"FLOAT8E8M0", 8, 24},
    [NDPAD_ONNX_UINT2] = {"UINT2", 2, 25},
    [NDPAD_ONNX_INT2] = {"INT2", 2, 25},
    [NDPAD_ONNX_FLOAT6E2M3] = {"FLOAT6E2M3", 6, 0},
    [NDPAD_ONNX_FLOAT6E3M2] = {"FLOAT6E3M2", 6, 0},
};

enum {
    TYPE_COUNT = (int32_t)(sizeof(onnx_types) / sizeof(onnx_types[0])),
    PAD_NEWEST = 25,            /* the newest Pad version */
    CENTER_CROP_PAD_SINCE = 18, /* CenterCropPad's only version */
    CENTER_CROP_PAD_TYPES = 13, /* CenterCropPad-18 takes Pad-13's types */
    PAD_AXES_SINCE = 18,
    PAD_WRAP_SINCE = 19,
};

static bool known_type(int32_t elem_type)
{
    return elem_type >= 0 && elem_type < TYPE_COUNT;
}

int32_t ndpad_onnx_type_bits(int32_t elem_type)
{
    return known_type(elem_type) ? onnx_types[elem_type].bits : 0;
}

const char *ndpad_onnx_type_name(int32_t elem_type)
{
    return known_type(elem_type) ? onnx_types[elem_type].name : "?";
}

/* The Pad version in force at `opset` (the newest at or below it); opset 0 is the newest. */
static int32_t pad_version(int32_t opset)
{
    static const int32_t versions[] = {25, 24, 23, 21, 19, 18, 13, 11, 2, 1};
    if (opset == 0) return PAD_NEWEST;
    for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++)
        if (versions[i] <= opset) return versions[i];
    return 0;
}

/* ONNX's type check of input `data` of operator `op` (its version in force at `opset`), as
 * the checker's "Type Error"; also refuses STRING, whose elements have no fixed width. */
static ndpad_status check_type(int32_t opset, int32_t elem_type, bool center_crop_pad,
                               const char *caller)
{
    ndpad_status status = NDPAD_OK;
    const char *op = center_crop_pad ? "CenterCropPad" : "Pad";
    if (opset < 0)
        NDPAD_FAIL(NDPAD_ERR_TYPE,
                   "opset = %d is negative (the node's opset, or 0 for ndpad's widest rule)",
                   (int)opset);
    if (center_crop_pad && opset != 0 && opset < CENTER_CROP_PAD_SINCE)
        NDPAD_FAIL(NDPAD_ERR_TYPE,
                   "opset = %d has no CenterCropPad (CenterCropPad-18 is its first)", (int)opset);
    const int32_t version = center_crop_pad ? CENTER_CROP_PAD_SINCE : pad_version(opset);
    /* CenterCropPad-18 takes Pad-13's types; opset 0 takes Pad-25's for both operators */
    const int32_t types_of = !center_crop_pad ? version
                             : opset == 0     ? PAD_NEWEST
                                              : CENTER_CROP_PAD_TYPES;
    if (!known_type(elem_type) || onnx_types[elem_type].pad_since == 0)
        NDPAD_FAIL(NDPAD_ERR_TYPE,
                   "elem_type = %d (%s) of input 'data' is not a type of %s-%d (opset %d), nor "
                   "of any version of it",
                   (int)elem_type, ndpad_onnx_type_name(elem_type), op, (int)version, (int)opset);
    if (onnx_types[elem_type].pad_since > types_of) {
        if (center_crop_pad)
            NDPAD_FAIL(NDPAD_ERR_TYPE,
                       "elem_type = %d (%s) of input 'data' is not a type of CenterCropPad-18 "
                       "(opset %d); opset 0 (ndpad's widest rule) takes it",
                       (int)elem_type, onnx_types[elem_type].name, (int)opset);
        NDPAD_FAIL(NDPAD_ERR_TYPE,
                   "elem_type = %d (%s) of input 'data' is not a type of Pad-%d (opset %d); "
                   "Pad takes it from opset %d",
                   (int)elem_type, onnx_types[elem_type].name, (int)version, (int)opset,
                   (int)onnx_types[elem_type].pad_since);
    }
    if (onnx_types[elem_type].bits == 0)
        NDPAD_FAIL(NDPAD_ERR_TYPE,
                   "elem_type = %d (%s) has elements of no fixed width: ndpad pads fixed-width "
                   "elements only (an array of string handles pads with ndpad_onnx_pad() and "
                   "elem_size = the handle's size)",
                   (int)elem_type, onnx_types[elem_type].name);
fail:
    return status;
}

/* The rules of a Pad version beyond its types: `axes` from Pad-18, "wrap" from Pad-19. */
static ndpad_status check_pad_version(int32_t opset, const int64_t *axes, const char *mode,
                                      const char *caller)
{
    ndpad_status status = NDPAD_OK;
    const int32_t version = pad_version(opset);
    if (axes != NULL && version < PAD_AXES_SINCE)
        NDPAD_FAIL(NDPAD_ERR_AXES, "axes is an input of Pad-18 and later, not of Pad-%d (opset %d)",
                   (int)version, (int)opset);
    if (mode != NULL && strcmp(mode, "wrap") == 0 && version < PAD_WRAP_SINCE)
        NDPAD_FAIL(NDPAD_ERR_MODE, "mode = \"wrap\" is Pad-19's and later, not Pad-%d's (opset %d)",
                   (int)version, (int)opset);
fail:
    return status;
}

/* The element-sized translation of a sub-byte type as a bits problem over the same arrays:
 * the crop's offset in bits, the core problem disabled (elem_size 0), then every rule of the
 * bits API checked. */
static ndpad_status to_bits(ndpad_onnx_typed_problem *typed, const void *constant_value,
                            const char *caller)
{
    ndpad_status status = NDPAD_OK;
    ndpad_onnx_problem *onnx = &typed->onnx;
    int64_t in_bit_offset;
    if (ndpad_mul_overflows((int64_t)onnx->in_offset, typed->elem_bits, &in_bit_offset))
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW, "the crop's input offset of %lld elements overflows in bits",
                   (long long)onnx->in_offset);
    typed->bits.problem = onnx->problem;
    typed->bits.problem.elem_size = 0;
    typed->bits.problem.pad_value =
        onnx->problem.mode == NDPAD_CONSTANT && constant_value != NULL ? constant_value : NULL;
    typed->bits.elem_bits = typed->elem_bits;
    typed->bits.in_bit_offset = in_bit_offset;
    typed->bits.out_bit_offset = 0;
    onnx->problem.elem_size = 0;
    onnx->in_offset = 0;
    ndpad_bits_valid valid;
    NDPAD_FORWARD(ndpad_bits_validate(&typed->bits, caller, &valid));
fail:
    return status;
}

/* The type's facts into `typed`, after its check. */
static ndpad_status begin(ndpad_onnx_typed_problem *typed, int32_t opset, int32_t elem_type,
                          bool center_crop_pad, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (typed == NULL) NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "typed (the result) is NULL");
    memset(typed, 0, sizeof(*typed));
    NDPAD_FORWARD(check_type(opset, elem_type, center_crop_pad, caller));
    typed->elem_type = elem_type;
    typed->elem_bits = onnx_types[elem_type].bits;
fail:
    return status;
}

/* Bytes per element for the translation: the type's, or 1 for a sub-byte type (whose
 * translation is then in elements, moved to bits by to_bits). */
static size_t translation_size(const ndpad_onnx_typed_problem *typed)
{
    return typed->elem_bits >= 8 ? (size_t)typed->elem_bits / 8 : 1;
}

static ndpad_status pad_init(ndpad_onnx_typed_problem *typed, int32_t opset, int32_t rank,
                             const int64_t *shape, int32_t elem_type, const int64_t *pads,
                             int64_t pads_count, const int64_t *axes, int64_t axes_count,
                             const char *mode, const void *constant_value, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    NDPAD_FORWARD(begin(typed, opset, elem_type, false, caller));
    NDPAD_FORWARD(check_pad_version(opset, axes, mode, caller));
    NDPAD_FORWARD(ndpad_onnx_translate(&typed->onnx, rank, shape, translation_size(typed), pads,
                                       pads_count, axes, axes_count, mode, constant_value, caller));
    if (typed->elem_bits < 8) NDPAD_FORWARD(to_bits(typed, constant_value, caller));
fail:
    return status;
}

static ndpad_status center_init(ndpad_onnx_typed_problem *typed, int32_t opset, int32_t rank,
                                const int64_t *shape, int32_t elem_type,
                                const int64_t *target_shape, int64_t target_count,
                                const int64_t *axes, int64_t axes_count, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    NDPAD_FORWARD(begin(typed, opset, elem_type, true, caller));
    NDPAD_FORWARD(ndpad_onnx_center_translate(&typed->onnx, rank, shape, translation_size(typed),
                                              target_shape, target_count, axes, axes_count,
                                              caller));
    if (typed->elem_bits < 8) NDPAD_FORWARD(to_bits(typed, NULL, caller));
fail:
    return status;
}

/* Runs a typed problem on dense ONNX tensors. A sub-byte output's last byte is ONNX's: its
 * bits past the last element are zero (they were the output's own byte, so writing them
 * writes no byte outside the tensor). */
static ndpad_status run(const ndpad_onnx_typed_problem *typed, const void *in, void *out,
                        const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (typed->elem_bits >= 8) {
        const char *source = in != NULL ? (const char *)in + typed->onnx.in_offset : NULL;
        return ndpad_pad_for(&typed->onnx.problem, source, out, caller);
    }
    /* every message under the caller's name, never the sub-byte call's */
    ndpad_bits_valid valid;
    NDPAD_FORWARD(ndpad_bits_validate(&typed->bits, caller, &valid));
    NDPAD_FORWARD(ndpad_bits_pad_for(&typed->bits, NULL, in, out, caller));
    /* an empty output has no last byte (its other extents may be anything); else the bit
     * count fits: the validation checked it */
    const int32_t rank = typed->bits.problem.rank;
    int64_t bit_count = typed->elem_bits;
    for (int32_t k = 0; k < rank; k++)
        if (valid.core.axis[k].n == 0) return NDPAD_OK;
    for (int32_t k = 0; k < rank; k++) bit_count *= valid.core.axis[k].n;
    const int64_t used_bits = bit_count % 8;
    if (used_bits != 0) {
        unsigned char *last = (unsigned char *)out + bit_count / 8;
        *last = (unsigned char)(*last & ((1u << used_bits) - 1u));
    }
fail:
    return status;
}

ndpad_status ndpad_onnx_problem_init_typed(ndpad_onnx_typed_problem *typed, int32_t opset,
                                           int32_t rank, const int64_t *shape, int32_t elem_type,
                                           const int64_t *pads, int64_t pads_count,
                                           const int64_t *axes, int64_t axes_count,
                                           const char *mode, const void *constant_value)
{
    return pad_init(typed, opset, rank, shape, elem_type, pads, pads_count, axes, axes_count, mode,
                    constant_value, __func__);
}

ndpad_status ndpad_onnx_pad_typed(int32_t opset, int32_t rank, const int64_t *shape,
                                  int32_t elem_type, const int64_t *pads, int64_t pads_count,
                                  const int64_t *axes, int64_t axes_count, const char *mode,
                                  const void *constant_value, const void *in, void *out)
{
    ndpad_onnx_typed_problem typed;
    const ndpad_status status = pad_init(&typed, opset, rank, shape, elem_type, pads, pads_count,
                                         axes, axes_count, mode, constant_value, __func__);
    if (status != NDPAD_OK) return status;
    return run(&typed, in, out, __func__);
}

ndpad_status ndpad_onnx_center_crop_pad_init_typed(ndpad_onnx_typed_problem *typed, int32_t opset,
                                                   int32_t rank, const int64_t *shape,
                                                   int32_t elem_type, const int64_t *target_shape,
                                                   int64_t target_count, const int64_t *axes,
                                                   int64_t axes_count)
{
    return center_init(typed, opset, rank, shape, elem_type, target_shape, target_count, axes,
                       axes_count, __func__);
}

ndpad_status ndpad_onnx_center_crop_pad_typed(int32_t opset, int32_t rank, const int64_t *shape,
                                              int32_t elem_type, const int64_t *target_shape,
                                              int64_t target_count, const int64_t *axes,
                                              int64_t axes_count, const void *in, void *out)
{
    ndpad_onnx_typed_problem typed;
    const ndpad_status status = center_init(&typed, opset, rank, shape, elem_type, target_shape,
                                            target_count, axes, axes_count, __func__);
    if (status != NDPAD_OK) return status;
    return run(&typed, in, out, __func__);
}
