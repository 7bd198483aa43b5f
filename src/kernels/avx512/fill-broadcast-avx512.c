/* Broadcast (CONSTANT and EDGE borders) with AVX-512: one element splat into full-width
 * stores. The two modes differ only in where the element comes from (pad value or edge of the
 * input). */
#include "kernels/avx512/vector-avx512.h"
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"

static inline void broadcast_run(char *dst, const void *src, int64_t count, size_t bytes)
{
    ndpad_store_pattern_avx512(dst, (size_t)count * bytes, ndpad_splat_avx512(src, bytes), bytes);
}

NDPAD_DEFINE_FAST_FILLERS(avx512, broadcast, broadcast_run)
