/* CONSTANT and EDGE borders with AVX-512: one element splat into full-width stores. The two
 * modes differ only in where the element comes from (pad value or edge of the input). */
#include "kernels/avx512/vector-avx512.h"
#include "kernels/kernels.h"

#define NDPAD_DEFINE_BROADCAST(mode, bytes)                                               \
    void ndpad_fill_##mode##_e##bytes##__avx512(void *restrict dst, const void *restrict src, \
                                              int64_t count, size_t elem_size)           \
    {                                                                                     \
        (void)elem_size;                                                                  \
        ndpad_store_pattern_avx512((char *)dst, (size_t)count * (bytes),                  \
                                   ndpad_splat_avx512(src, (bytes)), (bytes));            \
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
