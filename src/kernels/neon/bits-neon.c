/* Sub-byte element kernels with NEON (bits-kernels.h): the funnel shift as AVX2's (two
 * loads one byte apart, ushl by -shift and by 8 - shift, orr), the reversal with vrev64 and
 * a swap of the two halves, and the elements inside each byte with masks and shifts
 * (vrbit reverses single bits at once). */
#include <arm_neon.h>

#include "kernels/bits-kernels.h"

void ndpad_bits_shift__neon(uint8_t *restrict dst, const uint8_t *restrict src, size_t bytes,
                            unsigned shift)
{
    const int64x2_t right = vdupq_n_s64(-(int64_t)shift);
    const int64x2_t left = vdupq_n_s64((int64_t)(8 - shift));
    size_t k = 0;
    for (; k + 32 <= bytes; k += 32) {
        const uint64x2_t a0 = vreinterpretq_u64_u8(vld1q_u8(src + k));
        const uint64x2_t a1 = vreinterpretq_u64_u8(vld1q_u8(src + k + 1));
        const uint64x2_t b0 = vreinterpretq_u64_u8(vld1q_u8(src + k + 16));
        const uint64x2_t b1 = vreinterpretq_u64_u8(vld1q_u8(src + k + 17));
        vst1q_u8(dst + k,
                 vreinterpretq_u8_u64(vorrq_u64(vshlq_u64(a0, right), vshlq_u64(a1, left))));
        vst1q_u8(dst + k + 16,
                 vreinterpretq_u8_u64(vorrq_u64(vshlq_u64(b0, right), vshlq_u64(b1, left))));
    }
    for (; k + 16 <= bytes; k += 16) {
        const uint64x2_t a0 = vreinterpretq_u64_u8(vld1q_u8(src + k));
        const uint64x2_t a1 = vreinterpretq_u64_u8(vld1q_u8(src + k + 1));
        vst1q_u8(dst + k,
                 vreinterpretq_u8_u64(vorrq_u64(vshlq_u64(a0, right), vshlq_u64(a1, left))));
    }
    if (k < bytes) ndpad_bits_shift__scalar(dst + k, src + k, bytes - k, shift);
}

static inline uint8x16_t reverse_in_bytes(uint8x16_t v, unsigned bits)
{
    if (bits == 1) return vrbitq_u8(v);
    if (bits == 2) {
        const uint8x16_t m = vdupq_n_u8(0x33);
        v = vorrq_u8(vshlq_n_u8(vandq_u8(v, m), 2), vandq_u8(vshrq_n_u8(v, 2), m));
    }
    return vorrq_u8(vshlq_n_u8(v, 4), vshrq_n_u8(v, 4));
}

void ndpad_bits_reverse__neon(uint8_t *restrict dst, const uint8_t *restrict src, size_t bytes,
                              unsigned bits)
{
    size_t k = 0;
    for (; k + 16 <= bytes; k += 16) {
        const uint8x16_t v = vrev64q_u8(vld1q_u8(src + bytes - k - 16));
        vst1q_u8(dst + k, reverse_in_bytes(vextq_u8(v, v, 8), bits));
    }
    if (k < bytes) ndpad_bits_reverse__scalar(dst + k, src, bytes - k, bits);
}
