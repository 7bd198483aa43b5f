/* WRAP borders with NEON: forward copies, short runs with overlapping vector moves. */
#include "kernels/kernels.h"
#include "kernels/neon/vector-neon.h"

#define NDPAD_DEFINE_WRAP(bytes)                                                                   \
    void ndpad_fill_wrap_e##bytes##__neon(void *restrict dst, const void *restrict src,            \
                                          int64_t count, size_t elem_size)                         \
    {                                                                                              \
        (void)elem_size;                                                                           \
        ndpad_copy_short_neon((uint8_t *)dst, (const uint8_t *)src, (size_t)count *(bytes));       \
    }

NDPAD_DEFINE_WRAP(1)
NDPAD_DEFINE_WRAP(2)
NDPAD_DEFINE_WRAP(4)
NDPAD_DEFINE_WRAP(8)
NDPAD_DEFINE_WRAP(16)
