/* WRAP borders with AVX-512: forward copies; short runs with masked vector moves instead
 * of a call to memcpy. */
#include "kernels/avx512/vector-avx512.h"
#include "kernels/kernels.h"

#define NDPAD_DEFINE_WRAP(bytes)                                                                   \
    void ndpad_fill_wrap_e##bytes##__avx512(void *restrict dst, const void *restrict src,          \
                                            int64_t count, size_t elem_size)                       \
    {                                                                                              \
        (void)elem_size;                                                                           \
        ndpad_copy_short_avx512((char *)dst, (const char *)src, (size_t)count *(bytes));           \
    }

NDPAD_DEFINE_WRAP(1)
NDPAD_DEFINE_WRAP(2)
NDPAD_DEFINE_WRAP(4)
NDPAD_DEFINE_WRAP(8)
NDPAD_DEFINE_WRAP(16)
