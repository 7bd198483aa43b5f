/* Element reversal of sub-byte elements with AVX-512 VBMI (bits-kernels.h): one vpermb
 * reverses the 64 bytes of a vector, masks and shifts reverse the elements inside each
 * byte; the tail of fewer than 64 bytes is one masked load, one vpermb and a masked store. */
#include <immintrin.h>

#include "kernels/bits-kernels.h"

static inline __m512i reverse_in_bytes(__m512i v, unsigned bits)
{
    if (bits <= 1) {
        const __m512i m = _mm512_set1_epi8(0x55);
        v = _mm512_or_si512(_mm512_slli_epi16(_mm512_and_si512(v, m), 1),
                            _mm512_and_si512(_mm512_srli_epi16(v, 1), m));
    }
    if (bits <= 2) {
        const __m512i m = _mm512_set1_epi8(0x33);
        v = _mm512_or_si512(_mm512_slli_epi16(_mm512_and_si512(v, m), 2),
                            _mm512_and_si512(_mm512_srli_epi16(v, 2), m));
    }
    const __m512i m = _mm512_set1_epi8(0x0F);
    return _mm512_or_si512(_mm512_slli_epi16(_mm512_and_si512(v, m), 4),
                           _mm512_and_si512(_mm512_srli_epi16(v, 4), m));
}

/* byte indices 63, 62, .., 0 */
static inline __m512i reversed_indices(void)
{
    const __m512i up =
        _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45,
                        44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26,
                        25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
                        5, 4, 3, 2, 1, 0);
    return _mm512_sub_epi8(_mm512_set1_epi8(63), up);
}

void ndpad_bits_reverse__avx512vbmi(uint8_t *restrict dst, const uint8_t *restrict src,
                                    size_t bytes, unsigned bits)
{
    const __m512i rev = reversed_indices();
    size_t k = 0;
    for (; k + 64 <= bytes; k += 64) {
        const __m512i v = _mm512_loadu_si512(src + bytes - k - 64);
        _mm512_storeu_si512(dst + k, reverse_in_bytes(_mm512_permutexvar_epi8(rev, v), bits));
    }
    if (k < bytes) {
        /* the first `rest` source bytes, loaded into the top of a vector so that the
         * reversal puts them at its bottom */
        const size_t rest = bytes - k;
        const __mmask64 m = ((__mmask64)1 << rest) - 1;
        const __m512i v = _mm512_maskz_loadu_epi8(m << (64 - rest), src - (64 - rest));
        _mm512_mask_storeu_epi8(dst + k, m,
                                reverse_in_bytes(_mm512_permutexvar_epi8(rev, v), bits));
    }
}
