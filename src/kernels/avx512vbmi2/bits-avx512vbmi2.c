/* The funnel shift of sub-byte elements with AVX-512 VBMI2 (bits-kernels.h): vpshrdq
 * shifts the concatenation of two 64-bit lanes right, one instruction for AVX-512's two
 * shifts and or; the second operand is the lane 8 bytes further, loaded unaligned. */
#include <immintrin.h>

#include "kernels/bits-kernels.h"

void ndpad_bits_shift__avx512vbmi2(uint8_t *restrict dst, const uint8_t *restrict src, size_t bytes,
                                   unsigned shift)
{
    const __m512i count = _mm512_set1_epi64((long long)shift);
    size_t k = 0;
    /* lane j: (src lane at k + 8 j) : (lane at k + 8 j + 8) >> shift. The load at k + 8
     * reads src[k + 8 .. k + 71], so a vector needs k + 72 <= bytes + 1 */
    for (; k + 71 <= bytes; k += 64) {
        const __m512i lo = _mm512_loadu_si512(src + k);
        const __m512i hi = _mm512_loadu_si512(src + k + 8);
        _mm512_storeu_si512(dst + k, _mm512_shrdv_epi64(lo, hi, count));
    }
    if (k < bytes) ndpad_bits_shift__avx512(dst + k, src + k, bytes - k, shift);
}
