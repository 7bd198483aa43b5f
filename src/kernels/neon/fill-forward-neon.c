/* Forward copies (WRAP borders) with NEON: short runs with overlapping vector moves. */
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"
#include "kernels/neon/vector-neon.h"

static inline void forward_run(void *dst, const void *src, int64_t count, size_t bytes)
{
    ndpad_copy_short_neon((uint8_t *)dst, (const uint8_t *)src, (size_t)count * bytes);
}

NDPAD_DEFINE_FAST_FILLERS(neon, forward, forward_run)
