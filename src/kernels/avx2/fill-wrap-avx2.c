/* WRAP borders with AVX2: forward copies; short runs with overlapping vector moves instead
 * of a call to memcpy. */
#include "kernels/avx2/vector-avx2.h"
#include "kernels/kernels.h"

#define NDPAD_DEFINE_WRAP(bytes)                                                                   \
    void ndpad_fill_wrap_e##bytes##__avx2(void *restrict dst, const void *restrict src,            \
                                          int64_t count, size_t elem_size)                         \
    {                                                                                              \
        (void)elem_size;                                                                           \
        ndpad_copy_short_avx2((char *)dst, (const char *)src, (size_t)count *(bytes));             \
    }

NDPAD_DEFINE_WRAP(1)
NDPAD_DEFINE_WRAP(2)
NDPAD_DEFINE_WRAP(4)
NDPAD_DEFINE_WRAP(8)
NDPAD_DEFINE_WRAP(16)
