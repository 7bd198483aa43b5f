/* Forward copies (WRAP borders) with AVX2: short runs with overlapping vector moves instead
 * of a call to memcpy. */
#include "kernels/avx2/vector-avx2.h"
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"

static inline void forward_run(char *dst, const char *src, int64_t count, size_t bytes)
{
    ndpad_copy_short_avx2(dst, src, (size_t)count * bytes);
}

NDPAD_DEFINE_FAST_FILLERS(avx2, forward, forward_run)
