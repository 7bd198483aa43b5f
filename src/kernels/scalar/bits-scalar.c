/* Sub-byte element kernels in portable C (bits-kernels.h): the reference every ISA's
 * kernels are checked against, and the level every other one falls back to. */
#include <string.h>

#include "kernels/bits-kernels.h"

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline void store64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, sizeof(v));
}

void ndpad_bits_shift__scalar(uint8_t *restrict dst, const uint8_t *restrict src, size_t bytes,
                              unsigned shift)
{
    size_t k = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* 8 bytes of output from src[k .. k + 8]: the load at k + 1 brings the ninth byte's bits
     * (shifted by 8 - shift, the lane's top bits come from there) */
    for (; k + 8 <= bytes; k += 8)
        store64(dst + k, (load64(src + k) >> shift) | (load64(src + k + 1) << (8 - shift)));
#endif
    for (; k < bytes; k++) dst[k] = (uint8_t)((src[k] >> shift) | (src[k + 1] << (8 - shift)));
}

void ndpad_bits_reverse__scalar(uint8_t *restrict dst, const uint8_t *restrict src, size_t bytes,
                                unsigned bits)
{
    for (size_t k = 0; k < bytes; k++) dst[k] = ndpad_bits_reverse_byte(src[bytes - 1 - k], bits);
}
