/* REFLECT and SYMMETRIC borders with AVX-512: reversed copies of the input next to the edge,
 * reversed in registers (vpermb or vpshufb + vshufi64x2, vpermw, vpermd, vpermq). The modes
 * differ only in which element the run starts from, which the executor decides. */
#include "kernels/avx512/vector-avx512.h"
#include "kernels/kernels.h"

#define NDPAD_DEFINE_REVERSE(mode, bytes)                                                 \
    void ndpad_fill_##mode##_e##bytes##__avx512(void *restrict dst, const void *restrict src, \
                                              int64_t count, size_t elem_size)           \
    {                                                                                     \
        (void)elem_size;                                                                  \
        ndpad_reverse_run_avx512((char *)dst, (const char *)src, count, (bytes));           \
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
