/* The funnel shift of sub-byte elements with AVX-512 (bits-kernels.h): as AVX2's, 64 bytes
 * a vector, and the tail of fewer than 64 bytes with masked loads and a masked store (no
 * byte outside src[0 .. bytes] is read, none outside dst[0 .. bytes - 1] written). */
#include <immintrin.h>

#include "kernels/bits-kernels.h"

void ndpad_bits_shift__avx512(uint8_t *restrict dst, const uint8_t *restrict src, size_t bytes,
                              unsigned shift)
{
    const __m128i right = _mm_cvtsi32_si128((int)shift);
    const __m128i left = _mm_cvtsi32_si128((int)(8 - shift));
    size_t k = 0;
    for (; k + 128 <= bytes; k += 128) {
        const __m512i a0 = _mm512_loadu_si512(src + k);
        const __m512i a1 = _mm512_loadu_si512(src + k + 1);
        const __m512i b0 = _mm512_loadu_si512(src + k + 64);
        const __m512i b1 = _mm512_loadu_si512(src + k + 65);
        _mm512_storeu_si512(dst + k, _mm512_or_si512(_mm512_srl_epi64(a0, right),
                                                     _mm512_sll_epi64(a1, left)));
        _mm512_storeu_si512(dst + k + 64, _mm512_or_si512(_mm512_srl_epi64(b0, right),
                                                          _mm512_sll_epi64(b1, left)));
    }
    for (; k + 64 <= bytes; k += 64) {
        const __m512i a0 = _mm512_loadu_si512(src + k);
        const __m512i a1 = _mm512_loadu_si512(src + k + 1);
        _mm512_storeu_si512(dst + k, _mm512_or_si512(_mm512_srl_epi64(a0, right),
                                                     _mm512_sll_epi64(a1, left)));
    }
    if (k < bytes) {
        const size_t rest = bytes - k; /* 1 .. 63: loads of rest bytes at k and at k + 1 */
        const __mmask64 m = ((__mmask64)1 << rest) - 1;
        const __m512i a0 = _mm512_maskz_loadu_epi8(m, src + k);
        const __m512i a1 = _mm512_maskz_loadu_epi8(m, src + k + 1);
        _mm512_mask_storeu_epi8(dst + k, m,
                                _mm512_or_si512(_mm512_srl_epi64(a0, right),
                                                _mm512_sll_epi64(a1, left)));
    }
}
