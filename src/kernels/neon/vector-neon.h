/* NEON (AArch64 Advanced SIMD) building blocks: element splat, in-register reversal
 * (vrev64 + vext for 1, 2 and 4 bytes, vext for 8), pattern stores with an overlapping
 * last vector, and short forward copies. */
#ifndef NDPAD_VECTOR_NEON_H
#define NDPAD_VECTOR_NEON_H

#include <arm_neon.h>
#include <stdint.h>
#include <string.h>

static inline uint8x16_t ndpad_splat_neon(const void *src, size_t elem_size)
{
    switch (elem_size) {
    case 1: return vdupq_n_u8(*(const uint8_t *)src);
    case 2: {
        uint16_t v;
        memcpy(&v, src, 2);
        return vreinterpretq_u8_u16(vdupq_n_u16(v));
    }
    case 4: {
        uint32_t v;
        memcpy(&v, src, 4);
        return vreinterpretq_u8_u32(vdupq_n_u32(v));
    }
    case 8: {
        uint64_t v;
        memcpy(&v, src, 8);
        return vreinterpretq_u8_u64(vdupq_n_u64(v));
    }
    default: return vld1q_u8((const uint8_t *)src);
    }
}

/* `bytes` bytes (a multiple of the element size) of a pattern whose period divides 16. */
static inline void ndpad_store_pattern_neon(uint8_t *dst, size_t bytes, uint8x16_t pattern)
{
    if (bytes >= 16) {
        size_t k = 0;
        for (; k + 64 <= bytes; k += 64) {
            vst1q_u8(dst + k, pattern);
            vst1q_u8(dst + k + 16, pattern);
            vst1q_u8(dst + k + 32, pattern);
            vst1q_u8(dst + k + 48, pattern);
        }
        for (; k + 16 <= bytes; k += 16) vst1q_u8(dst + k, pattern);
        if (k < bytes) vst1q_u8(dst + bytes - 16, pattern);
        return;
    }
    const uint8x8_t half = vget_low_u8(pattern);
    if (bytes >= 8) {
        vst1_u8(dst, half);
        vst1_u8(dst + bytes - 8, half);
    } else if (bytes >= 4) {
        vst1_lane_u32((uint32_t *)(void *)dst, vreinterpret_u32_u8(half), 0);
        uint32_t v = vget_lane_u32(vreinterpret_u32_u8(half), 0);
        memcpy(dst + bytes - 4, &v, 4);
    } else if (bytes >= 2) {
        uint16_t v = vget_lane_u16(vreinterpret_u16_u8(half), 0);
        memcpy(dst, &v, 2);
        memcpy(dst + bytes - 2, &v, 2);
    } else if (bytes == 1) {
        *dst = vget_lane_u8(half, 0);
    }
}

static inline void ndpad_copy_short_neon(uint8_t *dst, const uint8_t *src, size_t bytes)
{
    if (bytes > 64) {
        memcpy(dst, src, bytes);
    } else if (bytes >= 16) {
        size_t k = 0;
        for (; k + 16 <= bytes; k += 16) vst1q_u8(dst + k, vld1q_u8(src + k));
        if (k < bytes) vst1q_u8(dst + bytes - 16, vld1q_u8(src + bytes - 16));
    } else if (bytes >= 8) {
        const uint8x8_t head = vld1_u8(src), tail = vld1_u8(src + bytes - 8);
        vst1_u8(dst, head);
        vst1_u8(dst + bytes - 8, tail);
    } else if (bytes >= 4) {
        uint32_t head, tail;
        memcpy(&head, src, 4), memcpy(&tail, src + bytes - 4, 4);
        memcpy(dst, &head, 4), memcpy(dst + bytes - 4, &tail, 4);
    } else {
        for (size_t k = 0; k < bytes; k++) dst[k] = src[k];
    }
}

static inline uint8x16_t ndpad_reverse_neon(uint8x16_t v, size_t elem_size)
{
    switch (elem_size) {
    case 1: {
        const uint8x16_t r = vrev64q_u8(v);
        return vextq_u8(r, r, 8);
    }
    case 2: {
        const uint16x8_t r = vrev64q_u16(vreinterpretq_u16_u8(v));
        return vreinterpretq_u8_u16(vextq_u16(r, r, 4));
    }
    case 4: {
        const uint32x4_t r = vrev64q_u32(vreinterpretq_u32_u8(v));
        return vreinterpretq_u8_u32(vextq_u32(r, r, 2));
    }
    case 8: return vextq_u8(v, v, 8);
    default: return v;
    }
}

static inline uint8x8_t ndpad_reverse8_neon(uint8x8_t v, size_t elem_size)
{
    switch (elem_size) {
    case 1: return vrev64_u8(v);
    case 2: return vreinterpret_u8_u16(vrev64_u16(vreinterpret_u16_u8(v)));
    case 4: return vreinterpret_u8_u32(vrev64_u32(vreinterpret_u32_u8(v)));
    default: return v;
    }
}

/* A run of fewer than 16 bytes, reversed without an element loop: its first W bytes are
 * the reversed last W bytes of the source and its last W bytes the reversed first W (W the
 * largest power of two <= bytes, a multiple of the element size), two overlapping moves. */
static inline void ndpad_reverse_short_neon(uint8_t *dst, const uint8_t *lo, size_t bytes,
                                            size_t elem_size)
{
    if (bytes >= 8) {
        const uint8x8_t first = vld1_u8(lo), last = vld1_u8(lo + bytes - 8);
        vst1_u8(dst, ndpad_reverse8_neon(last, elem_size));
        vst1_u8(dst + bytes - 8, ndpad_reverse8_neon(first, elem_size));
    } else if (bytes >= 4) {
        uint32_t first, last;
        memcpy(&first, lo, 4), memcpy(&last, lo + bytes - 4, 4);
        if (elem_size == 1)
            first = __builtin_bswap32(first), last = __builtin_bswap32(last);
        else if (elem_size == 2)
            first = (first >> 16) | (first << 16), last = (last >> 16) | (last << 16);
        memcpy(dst, &last, 4), memcpy(dst + bytes - 4, &first, 4);
    } else if (bytes >= 2) {
        uint16_t first, last;
        memcpy(&first, lo, 2), memcpy(&last, lo + bytes - 2, 2);
        if (elem_size == 1) first = __builtin_bswap16(first), last = __builtin_bswap16(last);
        memcpy(dst, &last, 2), memcpy(dst + bytes - 2, &first, 2);
    } else if (bytes == 1) {
        *dst = *lo;
    }
}

/* dst[k] = src[-k] for k < count: whole vectors, then one overlapping the end; shorter runs
 * with two overlapping narrower moves. */
static inline void ndpad_reverse_run_neon(uint8_t *dst, const uint8_t *src, int64_t count,
                                          size_t elem_size)
{
    const int64_t es = (int64_t)elem_size;
    const int64_t lanes = 16 / es;
    if (count >= lanes) {
        int64_t k = 0;
        for (; k + lanes <= count; k += lanes)
            vst1q_u8(dst + k * es,
                     ndpad_reverse_neon(vld1q_u8(src - (k + lanes - 1) * es), elem_size));
        if (k < count) {
            k = count - lanes;
            vst1q_u8(dst + k * es,
                     ndpad_reverse_neon(vld1q_u8(src - (k + lanes - 1) * es), elem_size));
        }
        return;
    }
    if (count > 0)
        ndpad_reverse_short_neon(dst, src - (count - 1) * es, (size_t)(count * es), elem_size);
}

#endif
