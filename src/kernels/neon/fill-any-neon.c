/* Any element size with NEON: the generic fillers of filler-entries.h over 16-byte
 * vectors and this ISA's short forward copy. */
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"
#include "kernels/neon/vector-neon.h"

/* the building blocks take bytes, the generic code chars */
static inline void neon_copy(char *dst, const char *src, size_t bytes)
{
    ndpad_copy_short_neon((uint8_t *)dst, (const uint8_t *)src, bytes);
}

NDPAD_DEFINE_ANY_FILLERS(neon, 16, neon_copy)
