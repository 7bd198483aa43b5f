/* The standard cases (see standard-cases.h). Targets (issues 5 and 13): time / memcpy's at
 * most 1.05 for CONSTANT and 1.10 for the other modes where the output is 1 MB or more; 1.20
 * below (ov-small, nhwc, feature, fmap-u8, fmap-fp16); in place, the borders alone within a
 * tenth of copying the whole output. The weak shapes of issue 13 (volume, long, crop-pad,
 * u8, fp16, 5d) and the large outputs of issue 14 are cases like the others. */
#include "standard-cases.h"

#include "ndpad.h"

/* clang-format off */
#define CONV .group = "conv", .rank = 4, .elem_size = 4, .shape = {1, 64, 256, 256}, \
             .pads_begin = {0, 0, 1, 1}, .pads_end = {0, 0, 1, 1}

static const float fifteen = 15.0f;

const standard_case standard_cases[] = {
    {CONV, .name = "conv", .mode = NDPAD_CONSTANT, .tuned = true, .target_vs_memcpy = 1.05},
    {CONV, .name = "conv", .mode = NDPAD_EDGE, .tuned = true, .target_vs_memcpy = 1.10},
    {CONV, .name = "conv", .mode = NDPAD_REFLECT, .tuned = true, .target_vs_memcpy = 1.10},
    {CONV, .name = "conv", .mode = NDPAD_SYMMETRIC, .tuned = true, .target_vs_memcpy = 1.10},
    {CONV, .name = "conv", .mode = NDPAD_WRAP, .tuned = true, .target_vs_memcpy = 1.10},
    /* conv-constant's class: tuned there */
    {CONV, .name = "inplace", .mode = NDPAD_CONSTANT, .inplace = true, .target_vs_memcpy = 0.10},
    {.group = "image", .name = "image", .mode = NDPAD_REFLECT, .rank = 4, .elem_size = 4,
     .shape = {1, 3, 1080, 1920}, .pads_begin = {0, 0, 8, 8}, .pads_end = {0, 0, 8, 8},
     .tuned = true, .target_vs_memcpy = 1.10},
    {.group = "nhwc", .name = "nhwc", .mode = NDPAD_CONSTANT, .rank = 4, .elem_size = 4,
     .shape = {1, 224, 224, 3}, .pads_begin = {0, 3, 3, 0}, .pads_end = {0, 3, 3, 0},
     .tuned = true, .target_vs_memcpy = 1.20},
    {.group = "ov-small", .name = "ov-small", .mode = NDPAD_CONSTANT, .rank = 4, .elem_size = 4,
     .shape = {1, 3, 32, 40}, .pads_begin = {0, 5, 2, 1}, .pads_end = {1, 0, 3, 7},
     .pad_value = &fifteen, .tuned = true, .target_vs_memcpy = 1.20},
    /* a CNN feature map (ResNet's 28 x 28 stage): rows of 120 bytes, a pad row above and
     * below every plane */
    {.group = "feature", .name = "feature", .mode = NDPAD_CONSTANT, .rank = 4, .elem_size = 4,
     .shape = {1, 128, 28, 28}, .pads_begin = {0, 0, 1, 1}, .pads_end = {0, 0, 1, 1},
     .tuned = true, .target_vs_memcpy = 1.20},
    /* small feature maps of quantised and half-precision CNNs: 16- and 18-byte rows, a pad
     * row above and below every plane */
    {.group = "fmap-u8", .name = "fmap-u8", .mode = NDPAD_CONSTANT, .rank = 4, .elem_size = 1,
     .shape = {1, 256, 14, 14}, .pads_begin = {0, 0, 1, 1}, .pads_end = {0, 0, 1, 1},
     .tuned = true, .target_vs_memcpy = 1.20},
    {.group = "fmap-fp16", .name = "fmap-fp16", .mode = NDPAD_CONSTANT, .rank = 4,
     .elem_size = 2, .shape = {1, 512, 7, 7}, .pads_begin = {0, 0, 1, 1},
     .pads_end = {0, 0, 1, 1}, .tuned = true, .target_vs_memcpy = 1.20},
    {.group = "channel", .name = "channel", .mode = NDPAD_CONSTANT, .rank = 4, .elem_size = 4,
     .shape = {8, 64, 56, 56}, .pads_begin = {0, 0, 0, 0}, .pads_end = {0, 64, 0, 0},
     .tuned = true, .target_vs_memcpy = 1.05},
    /* 3-D volume padded on every axis: rows of about 0.5 KiB */
    {.group = "volume", .name = "volume", .mode = NDPAD_REFLECT, .rank = 3, .elem_size = 4,
     .shape = {60, 60, 128}, .pads_begin = {2, 2, 2}, .pads_end = {2, 2, 2},
     .tuned = true, .target_vs_memcpy = 1.10},
    /* one very long row */
    {.group = "long", .name = "long", .mode = NDPAD_WRAP, .rank = 1, .elem_size = 4,
     .shape = {8 << 20}, .pads_begin = {1024}, .pads_end = {1024},
     .tuned = true, .target_vs_memcpy = 1.10},
    /* crop on one side of an axis, pad on the other */
    {.group = "crop-pad", .name = "crop-pad", .mode = NDPAD_CONSTANT, .rank = 4, .elem_size = 4,
     .shape = {1, 64, 256, 256}, .pads_begin = {0, 0, -3, -3}, .pads_end = {0, 0, 5, 5},
     .tuned = true, .target_vs_memcpy = 1.05},
    {.group = "u8", .name = "u8", .mode = NDPAD_EDGE, .rank = 2, .elem_size = 1,
     .shape = {4096, 4096}, .pads_begin = {16, 16}, .pads_end = {16, 16},
     .tuned = true, .target_vs_memcpy = 1.10},
    {.group = "fp16", .name = "fp16", .mode = NDPAD_CONSTANT, .rank = 4, .elem_size = 2,
     .shape = {1, 64, 256, 256}, .pads_begin = {0, 0, 1, 1}, .pads_end = {0, 0, 1, 1},
     .tuned = true, .target_vs_memcpy = 1.05},
    {.group = "5d", .name = "5d", .mode = NDPAD_REFLECT, .rank = 5, .elem_size = 4,
     .shape = {2, 8, 16, 64, 64}, .pads_begin = {0, 0, 1, 1, 1}, .pads_end = {0, 0, 1, 1, 1},
     .tuned = true, .target_vs_memcpy = 1.10},
    /* large outputs (>= 256 MiB), where streaming stores may pay */
    {.group = "large", .name = "large", .mode = NDPAD_REFLECT, .rank = 2, .elem_size = 4,
     .shape = {8192, 8192}, .pads_begin = {8, 8}, .pads_end = {8, 8},
     .tuned = true, .large = true, .target_vs_memcpy = 1.10},
    {.group = "large-u8", .name = "large-u8", .mode = NDPAD_CONSTANT, .rank = 2, .elem_size = 1,
     .shape = {16384, 16384}, .pads_begin = {16, 16}, .pads_end = {16, 16},
     .tuned = true, .large = true, .target_vs_memcpy = 1.05},
};
/* clang-format on */

const size_t standard_case_count = sizeof(standard_cases) / sizeof(standard_cases[0]);
