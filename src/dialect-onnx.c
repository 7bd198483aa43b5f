/* ONNX Pad (opset 2 .. 19+) and CenterCropPad (opset 18) onto the core problem. ONNX Runtime crops first and pads the
 * cropped tensor, so a negative pad becomes a smaller shape and an input offset over the
 * original strides, never a negative core pad (whose borders would read the whole input). */
#include <stdio.h>
#include <string.h>

#include "dialect-onnx.h"

#include "checked.h"
#include "plan.h"

static const struct {
    const char *name;
    ndpad_mode mode;
} onnx_modes[] = {
    {"constant", NDPAD_CONSTANT},
    {"edge", NDPAD_EDGE},
    {"reflect", NDPAD_REFLECT},
    {"wrap", NDPAD_WRAP},
};

/* The result pointer, rank, shape pointer and element size, in the core's rule order. */
static ndpad_status check_arguments(const ndpad_onnx_problem *onnx, int32_t rank,
                                    const int64_t *shape, size_t elem_size, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (onnx == NULL) NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "onnx (the result) is NULL");
    if (rank < 0 || rank > NDPAD_MAX_RANK)
        NDPAD_FAIL(NDPAD_ERR_RANK, "rank = %d is outside [0, %d]", (int)rank, NDPAD_MAX_RANK);
    if (rank > 0 && shape == NULL)
        NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "shape is NULL with rank = %d", (int)rank);
    if (elem_size == 0)
        NDPAD_FAIL(NDPAD_ERR_ELEM_SIZE, "elem_size = 0; an element needs at least one byte");
fail:
    return status;
}

/* The ONNX mode name (NULL is "constant") as an ndpad_mode. */
static ndpad_status parse_mode(const char *mode, const char *caller, int32_t *mode_value)
{
    ndpad_status status = NDPAD_OK;
    const char *mode_name = mode != NULL ? mode : "constant";
    *mode_value = -1;
    for (size_t k = 0; k < sizeof(onnx_modes) / sizeof(onnx_modes[0]); k++)
        if (strcmp(mode_name, onnx_modes[k].name) == 0) *mode_value = onnx_modes[k].mode;
    if (*mode_value < 0)
        NDPAD_FAIL(NDPAD_ERR_MODE,
                   "mode = \"%.40s\" is not an ONNX Pad mode (\"constant\", "
                   "\"edge\", \"reflect\", \"wrap\")",
                   mode_name);
fail:
    return status;
}

/* Which axis each pads pair applies to: axes[] (negative counts from the end, no repeats),
 * or all axes in order when axes is NULL. */
static ndpad_status map_axes(int32_t rank, const int64_t *axes, int64_t axes_count,
                             const char *caller, int32_t *axis_of, int64_t *num_axes)
{
    ndpad_status status = NDPAD_OK;
    *num_axes = rank;
    if (axes == NULL) {
        for (int32_t k = 0; k < rank; k++) axis_of[k] = k;
        return NDPAD_OK;
    }
    if (axes_count < 0 || axes_count > rank)
        NDPAD_FAIL(NDPAD_ERR_AXES, "axes_count = %lld is outside [0, rank = %d]",
                   (long long)axes_count, (int)rank);
    *num_axes = axes_count;
    int32_t seen_at[NDPAD_MAX_RANK];
    for (int32_t k = 0; k < rank; k++) seen_at[k] = -1;
    for (int32_t i = 0; i < (int32_t)axes_count; i++) {
        const int64_t a = axes[i];
        if (a < -(int64_t)rank || a >= rank)
            NDPAD_FAIL(NDPAD_ERR_AXES, "axes[%d] = %lld is outside [-%d, %d] for rank %d", (int)i,
                       (long long)a, (int)rank, (int)rank - 1, (int)rank);
        const int32_t axis = (int32_t)(a < 0 ? a + rank : a);
        if (seen_at[axis] >= 0)
            NDPAD_FAIL(NDPAD_ERR_AXES, "axes[%d] = %lld repeats axis %d (already axes[%d])", (int)i,
                       (long long)a, (int)axis, (int)seen_at[axis]);
        seen_at[axis] = i;
        axis_of[i] = axis;
    }
fail:
    return status;
}

/* pads holds a begin and an end for each of the num_axes axes. */
static ndpad_status check_pads(const int64_t *pads, int64_t pads_count, int64_t num_axes,
                               const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (pads == NULL && num_axes > 0)
        NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "pads is NULL with %lld axes", (long long)num_axes);
    if (pads_count != 2 * num_axes)
        NDPAD_FAIL(NDPAD_ERR_PADS_LENGTH,
                   "pads has %lld entries but %lld axes need 2 * %lld = %lld "
                   "([x1_begin .. xn_begin, x1_end .. xn_end])",
                   (long long)pads_count, (long long)num_axes, (long long)num_axes,
                   (long long)(2 * num_axes));
fail:
    return status;
}

/* No extent is negative; *empty tells whether one is 0 (the input has no element). */
static ndpad_status check_shape(int32_t rank, const int64_t *shape, const char *caller, bool *empty)
{
    ndpad_status status = NDPAD_OK;
    *empty = false;
    for (int32_t k = rank - 1; k >= 0; k--) {
        if (shape[k] < 0)
            NDPAD_FAIL(NDPAD_ERR_SHAPE, "shape[%d] = %lld is negative", (int)k,
                       (long long)shape[k]);
        if (shape[k] == 0) *empty = true;
    }
fail:
    return status;
}

/* The message of an axis whose pads ONNX's rules refuse: both pads by their index in `pads`
 * (an axis no pair lists has none, and no crop to refuse). */
static void describe_pads(char *buf, size_t size, int32_t axis, const int32_t *pair_of,
                          int64_t num_axes, const int64_t *begin, const int64_t *end)
{
    snprintf(buf, size, "pads[%lld] = %lld and pads[%lld] = %lld (axis %d)",
             (long long)pair_of[axis], (long long)begin[axis],
             (long long)(pair_of[axis] + num_axes), (long long)end[axis], (int)axis);
}

/* ONNX's output extent d + begin + end, exactly, and the input extent its crops keep
 * (below 0: a crop longer than the axis). */
__extension__ typedef __int128 wide;
static wide onnx_extent(int64_t d, int64_t begin, int64_t end)
{
    return (wide)d + begin + end;
}

static wide kept_extent(int64_t d, int64_t begin, int64_t end)
{
    return (wide)d + (begin < 0 ? begin : 0) + (end < 0 ? end : 0);
}

/* ONNX's rules on crops: the output extent d + begin + end (its shape inference, ONNX
 * Runtime's output, the header's rule) of every axis is >= 0; then a crop longer than its
 * axis leaves no input element there, which "constant" pads with the value (as ONNX Runtime
 * does) and the other modes cannot repeat (ONNX Runtime refuses them too). */
static ndpad_status check_crops(int32_t rank, const int64_t *shape, int32_t mode,
                                const int64_t *begin, const int64_t *end, const int32_t *pair_of,
                                int64_t num_axes, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    char pads_text[160];
    for (int32_t k = 0; k < rank; k++)
        if (onnx_extent(shape[k], begin[k], end[k]) < 0) {
            describe_pads(pads_text, sizeof(pads_text), k, pair_of, num_axes, begin, end);
            NDPAD_FAIL(NDPAD_ERR_SHAPE,
                       "%s crop more than shape[%d] = %lld: the output extent "
                       "shape + begin + end is negative (ONNX's rule: it must be >= 0)",
                       pads_text, (int)k, (long long)shape[k]);
        }
    for (int32_t k = 0; k < rank && mode != NDPAD_CONSTANT; k++)
        if (kept_extent(shape[k], begin[k], end[k]) < 0) {
            describe_pads(pads_text, sizeof(pads_text), k, pair_of, num_axes, begin, end);
            NDPAD_FAIL(NDPAD_ERR_EMPTY_AXIS,
                       "%s crop more than shape[%d] = %lld: mode \"%s\" has no input element "
                       "left to repeat (only \"constant\" pads an axis cropped past its end)",
                       pads_text, (int)k, (long long)shape[k], ndpad_mode_name((ndpad_mode)mode));
        }
fail:
    return status;
}

/* Crop first (ONNX Runtime): negative pads shrink the shape, positive ones are the core's
 * pads. An axis cropped past its end (CONSTANT, after check_crops) has no input extent and
 * its d + begin + end output elements all pads. Returns whether no input element is left
 * (the offset is then never used). */
static bool crop_shape(ndpad_onnx_problem *onnx, int32_t rank, const int64_t *shape,
                       const int64_t *begin, const int64_t *end, bool empty)
{
    bool cropped_empty = empty;
    for (int32_t k = 0; k < rank; k++) {
        const wide kept = kept_extent(shape[k], begin[k], end[k]);
        if (kept < 0) {
            /* 0 <= extent < the positive pad */
            onnx->shape[k] = 0;
            onnx->pads_begin[k] = (int64_t)onnx_extent(shape[k], begin[k], end[k]);
            onnx->pads_end[k] = 0;
        } else {
            onnx->shape[k] = (int64_t)kept; /* kept > 0: -crop_begin < shape[k] fits */
            onnx->pads_begin[k] = begin[k] > 0 ? begin[k] : 0;
            onnx->pads_end[k] = end[k] > 0 ? end[k] : 0;
        }
        if (onnx->shape[k] == 0) cropped_empty = true;
    }
    return cropped_empty;
}

/* The original dense strides, and the crops' input offset in bytes over them. */
static ndpad_status set_strides_and_offset(ndpad_onnx_problem *onnx, int32_t rank,
                                           const int64_t *shape, size_t elem_size,
                                           const int64_t *begin, bool empty, bool cropped_empty,
                                           const char *caller)
{
    ndpad_status status = NDPAD_OK;
    int64_t stride = 1, offset = 0;
    for (int32_t k = rank - 1; k >= 0; k--) {
        const int64_t crop_begin = begin[k] < 0 ? begin[k] : 0;
        int64_t term;
        onnx->in_strides[k] = stride;
        if (!cropped_empty && (ndpad_mul_overflows(-crop_begin, stride, &term) ||
                               ndpad_add_overflows(offset, term, &offset)))
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW, "crop of axis %d overflows the input offset", (int)k);
        if (!empty && ndpad_mul_overflows(stride, shape[k], &stride))
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW, "shape overflows int64 at axis %d", (int)k);
    }
    /* The input that is read is the dense tensor of `shape`: its bytes must be addressable,
     * not only those of the crop's start (the reference checks the same). */
    int64_t in_bytes;
    if (!cropped_empty && ndpad_mul_overflows(stride, (int64_t)elem_size, &in_bytes))
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                   "the input of %lld elements of %zu bytes overflows "
                   "int64 (shape)",
                   (long long)stride, elem_size);
    int64_t offset_bytes = 0;
    if (!cropped_empty && ndpad_mul_overflows(offset, (int64_t)elem_size, &offset_bytes))
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW, "crop offset of %lld elements overflows in bytes",
                   (long long)offset);
    onnx->in_offset = (ptrdiff_t)offset_bytes;
fail:
    return status;
}

ndpad_status ndpad_onnx_translate(ndpad_onnx_problem *onnx, int32_t rank, const int64_t *shape,
                                  size_t elem_size, const int64_t *pads, int64_t pads_count,
                                  const int64_t *axes, int64_t axes_count, const char *mode,
                                  const void *constant_value, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (onnx != NULL) memset(onnx, 0, sizeof(*onnx));
    NDPAD_FORWARD(check_arguments(onnx, rank, shape, elem_size, caller));
    int32_t mode_value;
    NDPAD_FORWARD(parse_mode(mode, caller, &mode_value));
    int32_t axis_of[NDPAD_MAX_RANK];
    int64_t num_axes;
    NDPAD_FORWARD(map_axes(rank, axes, axes_count, caller, axis_of, &num_axes));
    NDPAD_FORWARD(check_pads(pads, pads_count, num_axes, caller));

    int64_t begin[NDPAD_MAX_RANK] = {0}, end[NDPAD_MAX_RANK] = {0};
    int32_t pair_of[NDPAD_MAX_RANK] = {0};
    for (int32_t i = 0; i < (int32_t)num_axes; i++) {
        begin[axis_of[i]] = pads[i];
        end[axis_of[i]] = pads[i + num_axes];
        pair_of[axis_of[i]] = i;
    }
    bool empty;
    NDPAD_FORWARD(check_shape(rank, shape, caller, &empty));
    NDPAD_FORWARD(check_crops(rank, shape, mode_value, begin, end, pair_of, num_axes, caller));
    const bool cropped_empty = crop_shape(onnx, rank, shape, begin, end, empty);
    NDPAD_FORWARD(
        set_strides_and_offset(onnx, rank, shape, elem_size, begin, empty, cropped_empty, caller));
    onnx->problem = (ndpad_problem){
        .rank = rank,
        .mode = mode_value,
        .elem_size = elem_size,
        .shape = onnx->shape,
        .pads_begin = onnx->pads_begin,
        .pads_end = onnx->pads_end,
        .in_strides = onnx->in_strides,
        .pad_value = mode_value == NDPAD_CONSTANT ? constant_value : NULL,
    };
    ndpad_valid_problem valid;
    NDPAD_FORWARD(ndpad_problem_validate(&onnx->problem, caller, &valid));
    return NDPAD_OK;
fail:
    return status;
}

ndpad_status ndpad_onnx_problem_init(ndpad_onnx_problem *onnx, int32_t rank, const int64_t *shape,
                                     size_t elem_size, const int64_t *pads, int64_t pads_count,
                                     const int64_t *axes, int64_t axes_count, const char *mode,
                                     const void *constant_value)
{
    return ndpad_onnx_translate(onnx, rank, shape, elem_size, pads, pads_count, axes, axes_count,
                                mode, constant_value, __func__);
}

ndpad_status ndpad_onnx_pad(int32_t rank, const int64_t *shape, size_t elem_size,
                            const int64_t *pads, int64_t pads_count, const int64_t *axes,
                            int64_t axes_count, const char *mode, const void *constant_value,
                            const void *in, void *out)
{
    ndpad_onnx_problem onnx;
    const ndpad_status status =
        ndpad_onnx_translate(&onnx, rank, shape, elem_size, pads, pads_count, axes, axes_count,
                             mode, constant_value, __func__);
    if (status != NDPAD_OK) return status;
    const char *source = in != NULL ? (const char *)in + onnx.in_offset : NULL;
    return ndpad_pad_for(&onnx.problem, source, out, __func__);
}

/* CenterCropPad's target extents: one per listed axis, none negative. */
static ndpad_status check_targets(const int64_t *target_shape, int64_t target_count,
                                  int64_t num_axes, const int32_t *axis_of, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (target_shape == NULL && num_axes > 0)
        NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "target_shape is NULL with %lld axes",
                   (long long)num_axes);
    if (target_count != num_axes)
        NDPAD_FAIL(NDPAD_ERR_PADS_LENGTH,
                   "target_shape has %lld entries but there are %lld axes (one extent per axis)",
                   (long long)target_count, (long long)num_axes);
    for (int32_t i = 0; i < (int32_t)num_axes; i++)
        if (target_shape[i] < 0)
            NDPAD_FAIL(NDPAD_ERR_SHAPE, "target_shape[%d] = %lld (axis %d) is negative", (int)i,
                       (long long)target_shape[i], (int)axis_of[i]);
fail:
    return status;
}

/* ONNX's centring (its reference implementation): a crop of diff = d - t starts at diff / 2,
 * a pad of diff = t - d puts the input at diff / 2; the odd element goes to the end. */
static void center_pads(int64_t extent, int64_t target, int64_t *begin, int64_t *end)
{
    if (target <= extent) {
        const int64_t diff = extent - target;
        *begin = -(diff / 2);
        *end = -(diff - diff / 2);
    } else {
        const int64_t diff = target - extent;
        *begin = diff / 2;
        *end = diff - diff / 2;
    }
}

ndpad_status ndpad_onnx_center_translate(ndpad_onnx_problem *onnx, int32_t rank,
                                         const int64_t *shape, size_t elem_size,
                                         const int64_t *target_shape, int64_t target_count,
                                         const int64_t *axes, int64_t axes_count,
                                         const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (onnx != NULL) memset(onnx, 0, sizeof(*onnx));
    NDPAD_FORWARD(check_arguments(onnx, rank, shape, elem_size, caller));
    int32_t axis_of[NDPAD_MAX_RANK];
    int64_t num_axes;
    NDPAD_FORWARD(map_axes(rank, axes, axes_count, caller, axis_of, &num_axes));
    bool empty;
    NDPAD_FORWARD(check_shape(rank, shape, caller, &empty));
    NDPAD_FORWARD(check_targets(target_shape, target_count, num_axes, axis_of, caller));
    int64_t pads[2 * NDPAD_MAX_RANK] = {0};
    for (int32_t i = 0; i < (int32_t)num_axes; i++)
        center_pads(shape[axis_of[i]], target_shape[i], &pads[axis_of[i]],
                    &pads[rank + axis_of[i]]);
    NDPAD_FORWARD(ndpad_onnx_translate(onnx, rank, shape, elem_size, pads, 2 * (int64_t)rank, NULL,
                                       0, "constant", NULL, caller));
    return NDPAD_OK;
fail:
    return status;
}

ndpad_status ndpad_onnx_center_crop_pad_init(ndpad_onnx_problem *onnx, int32_t rank,
                                             const int64_t *shape, size_t elem_size,
                                             const int64_t *target_shape, int64_t target_count,
                                             const int64_t *axes, int64_t axes_count)
{
    return ndpad_onnx_center_translate(onnx, rank, shape, elem_size, target_shape, target_count,
                                       axes, axes_count, __func__);
}

ndpad_status ndpad_onnx_center_crop_pad(int32_t rank, const int64_t *shape, size_t elem_size,
                                        const int64_t *target_shape, int64_t target_count,
                                        const int64_t *axes, int64_t axes_count, const void *in,
                                        void *out)
{
    ndpad_onnx_problem onnx;
    const ndpad_status status =
        ndpad_onnx_center_translate(&onnx, rank, shape, elem_size, target_shape, target_count, axes,
                                    axes_count, __func__);
    if (status != NDPAD_OK) return status;
    const char *source = in != NULL ? (const char *)in + onnx.in_offset : NULL;
    return ndpad_pad_for(&onnx.problem, source, out, __func__);
}
