/* REFLECT and SYMMETRIC borders with NEON: reversed copies reversed in registers
 * (vrev64 + vext); 16-byte elements are whole vectors moved in reverse order. */
#include "kernels/kernels.h"
#include "kernels/neon/vector-neon.h"

#define NDPAD_DEFINE_REVERSE(mode, bytes)                                                 \
    void ndpad_fill_##mode##_e##bytes##__neon(void *restrict dst, const void *restrict src, \
                                              int64_t count, size_t elem_size)           \
    {                                                                                     \
        (void)elem_size;                                                                  \
        ndpad_reverse_run_neon((uint8_t *)dst, (const uint8_t *)src, count, (bytes));     \
    }

NDPAD_DEFINE_REVERSE(reflect, 1)
NDPAD_DEFINE_REVERSE(reflect, 2)
NDPAD_DEFINE_REVERSE(reflect, 4)
NDPAD_DEFINE_REVERSE(reflect, 8)
NDPAD_DEFINE_REVERSE(reflect, 16)
NDPAD_DEFINE_REVERSE(symmetric, 1)
NDPAD_DEFINE_REVERSE(symmetric, 2)
NDPAD_DEFINE_REVERSE(symmetric, 4)
NDPAD_DEFINE_REVERSE(symmetric, 8)
NDPAD_DEFINE_REVERSE(symmetric, 16)
