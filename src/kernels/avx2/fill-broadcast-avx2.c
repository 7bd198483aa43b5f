/* Broadcast (CONSTANT and EDGE borders) with AVX2: one element splat into full-width
 * stores. The two modes differ only in where the element comes from (pad value or edge of the
 * input). */
#include "kernels/avx2/vector-avx2.h"
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"

static inline void broadcast_run(char *dst, const void *src, int64_t count, size_t bytes)
{
    ndpad_store_pattern_avx2(dst, (size_t)count * bytes, ndpad_splat_avx2(src, bytes));
}

NDPAD_DEFINE_FAST_FILLERS(avx2, broadcast, broadcast_run)
