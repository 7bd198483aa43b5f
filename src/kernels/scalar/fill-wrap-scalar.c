/* WRAP border: a forward copy of the input run at the other end of the axis. */
#include <string.h>

#include "kernels/kernels.h"

#define NDPAD_DEFINE_FILL(bytes)                                                                   \
    void ndpad_fill_wrap_e##bytes##__scalar(void *restrict dst, const void *restrict src,          \
                                            int64_t count, size_t elem_size)                       \
    {                                                                                              \
        (void)elem_size;                                                                           \
        memcpy(dst, src, (size_t)count *(bytes));                                                  \
    }

NDPAD_DEFINE_FILL(1)
NDPAD_DEFINE_FILL(2)
NDPAD_DEFINE_FILL(4)
NDPAD_DEFINE_FILL(8)
NDPAD_DEFINE_FILL(16)

void ndpad_fill_wrap_any__scalar(void *restrict dst, const void *restrict src, int64_t count,
                                 size_t elem_size)
{
    memcpy(dst, src, (size_t)count * elem_size);
}
