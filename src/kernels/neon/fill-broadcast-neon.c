/* Broadcast (CONSTANT and EDGE borders) with NEON: one element splat into full-width
 * stores. */
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"
#include "kernels/neon/vector-neon.h"

static inline void broadcast_run(uint8_t *dst, const void *src, int64_t count, size_t bytes)
{
    ndpad_store_pattern_neon(dst, (size_t)count * bytes, ndpad_splat_neon(src, bytes));
}

NDPAD_DEFINE_FAST_FILLERS(neon, broadcast, broadcast_run)
