/* Forward copies (WRAP borders) with AVX-512: short runs with masked vector moves instead
 * of a call to memcpy. */
#include "kernels/avx512/vector-avx512.h"
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"

static inline void forward_run(char *dst, const char *src, int64_t count, size_t bytes)
{
    ndpad_copy_short_avx512(dst, src, (size_t)count * bytes);
}

NDPAD_DEFINE_FAST_FILLERS(avx512, forward, forward_run)
