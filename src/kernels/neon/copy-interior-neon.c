/* Interior runs with NEON: short runs with vector moves, long ones with memcpy. AArch64
 * has no general non-temporal store the compiler exposes portably, so the streaming slot
 * stays the ordinary copy. */
#include "kernels/kernels.h"
#include "kernels/neon/vector-neon.h"

void ndpad_copy_interior__neon(void *restrict dst, const void *restrict src, size_t bytes)
{
    ndpad_copy_short_neon((uint8_t *)dst, (const uint8_t *)src, bytes);
}
