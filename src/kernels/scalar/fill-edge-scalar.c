/* EDGE border: the edge element broadcast over the run. */
#include "kernels/kernels.h"
#include "kernels/scalar/element-scalar.h"

#define NDPAD_DEFINE_FILL(bytes)                                                                   \
    void ndpad_fill_edge_e##bytes##__scalar(void *restrict dst, const void *restrict src,          \
                                            int64_t count, size_t elem_size)                       \
    {                                                                                              \
        (void)elem_size;                                                                           \
        ndpad_broadcast_e##bytes(dst, src, count);                                                 \
    }

NDPAD_DEFINE_FILL(1)
NDPAD_DEFINE_FILL(2)
NDPAD_DEFINE_FILL(4)
NDPAD_DEFINE_FILL(8)
NDPAD_DEFINE_FILL(16)

void ndpad_fill_edge_any__scalar(void *restrict dst, const void *restrict src, int64_t count,
                                 size_t elem_size)
{
    ndpad_broadcast_any(dst, src, count, elem_size);
}
