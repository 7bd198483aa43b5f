/* Sub-byte element kernels with AVX2 (bits-kernels.h). The funnel shift of a bit stream
 * that starts `shift` bits into a byte: each 64-bit lane of the output is the lane loaded
 * at byte k shifted right, or'ed with the lane loaded one byte further shifted left by
 * 8 - shift (its top bits are the next byte's low bits): two unaligned loads, two shifts,
 * one or, no shuffle across lanes. The reversal: vpshufb reverses the bytes of each 128-bit
 * half, the halves swap, and the elements inside each byte reverse with masks and shifts. */
#include <immintrin.h>

#include "kernels/bits-kernels.h"

void ndpad_bits_shift__avx2(uint8_t *restrict dst, const uint8_t *restrict src, size_t bytes,
                            unsigned shift)
{
    const __m128i right = _mm_cvtsi32_si128((int)shift);
    const __m128i left = _mm_cvtsi32_si128((int)(8 - shift));
    size_t k = 0;
    /* the loads at k + 1 read src[k + 1 .. k + 64]: within src[0 .. bytes] */
    for (; k + 64 <= bytes; k += 64) {
        const __m256i a0 = _mm256_loadu_si256((const __m256i *)(src + k));
        const __m256i a1 = _mm256_loadu_si256((const __m256i *)(src + k + 1));
        const __m256i b0 = _mm256_loadu_si256((const __m256i *)(src + k + 32));
        const __m256i b1 = _mm256_loadu_si256((const __m256i *)(src + k + 33));
        _mm256_storeu_si256((__m256i *)(dst + k), _mm256_or_si256(_mm256_srl_epi64(a0, right),
                                                                  _mm256_sll_epi64(a1, left)));
        _mm256_storeu_si256((__m256i *)(dst + k + 32), _mm256_or_si256(_mm256_srl_epi64(b0, right),
                                                                       _mm256_sll_epi64(b1, left)));
    }
    for (; k + 32 <= bytes; k += 32) {
        const __m256i a0 = _mm256_loadu_si256((const __m256i *)(src + k));
        const __m256i a1 = _mm256_loadu_si256((const __m256i *)(src + k + 1));
        _mm256_storeu_si256((__m256i *)(dst + k), _mm256_or_si256(_mm256_srl_epi64(a0, right),
                                                                  _mm256_sll_epi64(a1, left)));
    }
    if (k < bytes) ndpad_bits_shift__scalar(dst + k, src + k, bytes - k, shift);
}

/* The elements of every byte of `v` in reverse order (bits 1, 2 or 4). */
static inline __m256i reverse_in_bytes(__m256i v, unsigned bits)
{
    if (bits <= 1) {
        const __m256i m = _mm256_set1_epi8(0x55);
        v = _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(v, m), 1),
                            _mm256_and_si256(_mm256_srli_epi16(v, 1), m));
    }
    if (bits <= 2) {
        const __m256i m = _mm256_set1_epi8(0x33);
        v = _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(v, m), 2),
                            _mm256_and_si256(_mm256_srli_epi16(v, 2), m));
    }
    const __m256i m = _mm256_set1_epi8(0x0F);
    return _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(v, m), 4),
                           _mm256_and_si256(_mm256_srli_epi16(v, 4), m));
}

void ndpad_bits_reverse__avx2(uint8_t *restrict dst, const uint8_t *restrict src, size_t bytes,
                              unsigned bits)
{
    const __m256i bytes_reversed =
        _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11,
                         10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    size_t k = 0;
    for (; k + 32 <= bytes; k += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(src + bytes - k - 32));
        v = _mm256_shuffle_epi8(v, bytes_reversed);
        v = _mm256_permute2x128_si256(v, v, 0x01);
        _mm256_storeu_si256((__m256i *)(dst + k), reverse_in_bytes(v, bits));
    }
    if (k < bytes) ndpad_bits_reverse__scalar(dst + k, src, bytes - k, bits);
}
