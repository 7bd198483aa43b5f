/* CONSTANT and EDGE borders with NEON: one element splat into full-width stores. */
#include "kernels/kernels.h"
#include "kernels/neon/vector-neon.h"

#define NDPAD_DEFINE_BROADCAST(mode, bytes)                                               \
    void ndpad_fill_##mode##_e##bytes##__neon(void *restrict dst, const void *restrict src, \
                                              int64_t count, size_t elem_size)           \
    {                                                                                     \
        (void)elem_size;                                                                  \
        ndpad_store_pattern_neon((uint8_t *)dst, (size_t)count * (bytes),                 \
                                 ndpad_splat_neon(src, (bytes)));                         \
    }

NDPAD_DEFINE_BROADCAST(constant, 1)
NDPAD_DEFINE_BROADCAST(constant, 2)
NDPAD_DEFINE_BROADCAST(constant, 4)
NDPAD_DEFINE_BROADCAST(constant, 8)
NDPAD_DEFINE_BROADCAST(constant, 16)
NDPAD_DEFINE_BROADCAST(edge, 1)
NDPAD_DEFINE_BROADCAST(edge, 2)
NDPAD_DEFINE_BROADCAST(edge, 4)
NDPAD_DEFINE_BROADCAST(edge, 8)
NDPAD_DEFINE_BROADCAST(edge, 16)
