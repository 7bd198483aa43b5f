/* The ONNX translations that the byte-size entry points (dialect-onnx.c) and the typed ones
 * (dialect-onnx-typed.c) share: ONNX Pad's and CenterCropPad's arguments onto the core
 * problem, crop first. */
#ifndef NDPAD_DIALECT_ONNX_H
#define NDPAD_DIALECT_ONNX_H

#include "status.h"

/* ndpad_onnx_problem_init() with the public entry point `caller` for the messages. */
NDPAD_INTERNAL ndpad_status ndpad_onnx_translate(ndpad_onnx_problem *onnx, int32_t rank,
                                                 const int64_t *shape, size_t elem_size,
                                                 const int64_t *pads, int64_t pads_count,
                                                 const int64_t *axes, int64_t axes_count,
                                                 const char *mode, const void *constant_value,
                                                 const char *caller);

/* ndpad_onnx_center_crop_pad_init() with the public entry point `caller` for the messages. */
NDPAD_INTERNAL ndpad_status ndpad_onnx_center_translate(ndpad_onnx_problem *onnx, int32_t rank,
                                                        const int64_t *shape, size_t elem_size,
                                                        const int64_t *target_shape,
                                                        int64_t target_count, const int64_t *axes,
                                                        int64_t axes_count, const char *caller);

#endif
