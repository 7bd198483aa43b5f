/* REFLECT border: a reversed copy of the input run next to the edge (edge excluded). */
#include "kernels/kernels.h"
#include "kernels/scalar/element-scalar.h"

#define NDPAD_DEFINE_FILL(bytes)                                                                   \
    void ndpad_fill_reflect_e##bytes##__scalar(void *restrict dst, const void *restrict src,       \
                                               int64_t count, size_t elem_size)                    \
    {                                                                                              \
        (void)elem_size;                                                                           \
        ndpad_reverse_e##bytes(dst, src, count);                                                   \
    }

NDPAD_DEFINE_FILL(1)
NDPAD_DEFINE_FILL(2)
NDPAD_DEFINE_FILL(4)
NDPAD_DEFINE_FILL(8)
NDPAD_DEFINE_FILL(16)

void ndpad_fill_reflect_any__scalar(void *restrict dst, const void *restrict src, int64_t count,
                                    size_t elem_size)
{
    ndpad_reverse_any(dst, src, count, elem_size);
}
