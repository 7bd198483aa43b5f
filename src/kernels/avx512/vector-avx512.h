/* AVX-512 (F, BW, VL) building blocks: element splat, in-register reversal per element
 * size (vpermw/vpermd/vpermq; bytes with vpshufb + lane swap, or with one vpermb where
 * __AVX512VBMI__ is defined: in src/kernels/avx512vbmi/, the avx512vbmi level's files),
 * and byte-masked loads and stores so that no run needs a scalar tail and no byte past a
 * run is touched (masked-off lanes neither fault nor write). */
#ifndef NDPAD_VECTOR_AVX512_H
#define NDPAD_VECTOR_AVX512_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

/* The first `bytes` (< 64) lanes of a byte mask. */
static inline __mmask64 ndpad_byte_mask(size_t bytes)
{
    return bytes >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << bytes) - 1);
}

static inline __m512i ndpad_splat_avx512(const void *src, size_t elem_size)
{
    switch (elem_size) {
    case 1: return _mm512_set1_epi8(*(const char *)src);
    case 2: {
        int16_t v;
        memcpy(&v, src, 2);
        return _mm512_set1_epi16(v);
    }
    case 4: {
        int32_t v;
        memcpy(&v, src, 4);
        return _mm512_set1_epi32(v);
    }
    case 8: {
        int64_t v;
        memcpy(&v, src, 8);
        return _mm512_set1_epi64(v);
    }
    default: return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)src));
    }
}

/* `bytes` bytes of a pattern of `period` bytes (1, 2, 4, 8 or 16): full stores, then one
 * masked store. */
static inline void ndpad_store_pattern_avx512(char *dst, size_t bytes, __m512i pattern,
                                              size_t period)
{
    size_t k = 0;
    /* Long fills: one masked head store up to a cache line, then aligned stores (a store
     * straddling two lines costs two; about 20% on a 52 KiB fill). Only when the pattern is
     * in phase at the line boundary, as it is for elements at addresses of their size. */
    const size_t head = (64 - ((uintptr_t)dst & 63)) & 63;
    if (bytes >= 512 && head % period == 0) {
        _mm512_mask_storeu_epi8(dst, ndpad_byte_mask(head), pattern);
        for (k = head; k + 256 <= bytes; k += 256) {
            _mm512_store_si512(dst + k, pattern);
            _mm512_store_si512(dst + k + 64, pattern);
            _mm512_store_si512(dst + k + 128, pattern);
            _mm512_store_si512(dst + k + 192, pattern);
        }
    }
    for (; k + 64 <= bytes; k += 64) _mm512_storeu_si512(dst + k, pattern);
    if (k < bytes) _mm512_mask_storeu_epi8(dst + k, ndpad_byte_mask(bytes - k), pattern);
}

/* Forward copy: masked moves up to 128 bytes, four overlapping moves up to 256, memcpy
 * beyond. */
static inline void ndpad_copy_short_avx512(char *dst, const char *src, size_t bytes)
{
    if (bytes <= 64) {
        const __mmask64 m = ndpad_byte_mask(bytes);
        _mm512_mask_storeu_epi8(dst, m, _mm512_maskz_loadu_epi8(m, src));
    } else if (bytes <= 128) {
        const __mmask64 m = ndpad_byte_mask(bytes - 64);
        const __m512i head = _mm512_loadu_si512(src);
        _mm512_mask_storeu_epi8(dst + 64, m, _mm512_maskz_loadu_epi8(m, src + 64));
        _mm512_storeu_si512(dst, head);
    } else if (bytes <= 256) {
        /* two vectors from each end, overlapping in the middle: no call for a short row */
        const __m512i a = _mm512_loadu_si512(src), b = _mm512_loadu_si512(src + 64);
        const __m512i c = _mm512_loadu_si512(src + bytes - 128);
        const __m512i d = _mm512_loadu_si512(src + bytes - 64);
        _mm512_storeu_si512(dst, a);
        _mm512_storeu_si512(dst + 64, b);
        _mm512_storeu_si512(dst + bytes - 128, c);
        _mm512_storeu_si512(dst + bytes - 64, d);
    } else {
        memcpy(dst, src, bytes);
    }
}

/* Permutation taking lane t - 1 - p to lane p (a full reversal when t is the lane count),
 * for element sizes 1 (needs VBMI), 2, 4 and 8. */
static inline __m512i ndpad_reverse_index_avx512(int64_t t, size_t elem_size)
{
    switch (elem_size) {
    case 1: {
        const __m512i iota =
            _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46,
                            45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28,
                            27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10,
                            9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
        return _mm512_sub_epi8(_mm512_set1_epi8((char)(t - 1)), iota);
    }
    case 2: {
        const __m512i iota =
            _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14,
                             13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
        return _mm512_sub_epi16(_mm512_set1_epi16((short)(t - 1)), iota);
    }
    case 4:
        return _mm512_sub_epi32(_mm512_set1_epi32((int)(t - 1)),
                                _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
                                                 0));
    default: /* 8, and 16 as pairs of quadwords */
        return _mm512_sub_epi64(_mm512_set1_epi64(t - 1), _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
    }
}

static inline __m512i ndpad_permute_avx512(__m512i index, __m512i v, size_t elem_size)
{
    switch (elem_size) {
#ifdef __AVX512VBMI__
    case 1: return _mm512_permutexvar_epi8(index, v);
#endif
    case 2: return _mm512_permutexvar_epi16(index, v);
    case 4: return _mm512_permutexvar_epi32(index, v);
    default: return _mm512_permutexvar_epi64(index, v);
    }
}

/* Full reversal of one vector's elements. */
static inline __m512i ndpad_reverse_avx512(__m512i v, size_t elem_size)
{
    if (elem_size == 16) return _mm512_shuffle_i64x2(v, v, 0x1B);
#ifndef __AVX512VBMI__
    if (elem_size == 1) {
        const __m512i bytes =
            _mm512_set_epi64(0x0001020304050607, 0x08090a0b0c0d0e0f, 0x0001020304050607,
                             0x08090a0b0c0d0e0f, 0x0001020304050607, 0x08090a0b0c0d0e0f,
                             0x0001020304050607, 0x08090a0b0c0d0e0f);
        const __m512i in_lane = _mm512_shuffle_epi8(v, bytes);
        return _mm512_shuffle_i64x2(in_lane, in_lane, 0x1B);
    }
#endif
    const int64_t lanes = 64 / (int64_t)elem_size;
    return ndpad_permute_avx512(ndpad_reverse_index_avx512(lanes, elem_size), v, elem_size);
}

/* dst[k] = src[-k] for k < count. Whole vectors, then one vector overlapping the end; a
 * run shorter than a vector is one masked load, one permute and one masked store. */
static inline void ndpad_reverse_run_avx512(char *dst, const char *src, int64_t count,
                                            size_t elem_size)
{
    const int64_t es = (int64_t)elem_size;
    const int64_t lanes = 64 / es;
    if (count >= lanes) {
        int64_t k = 0;
        for (; k + lanes <= count; k += lanes) {
            const __m512i v = _mm512_loadu_si512(src - (k + lanes - 1) * es);
            _mm512_storeu_si512(dst + k * es, ndpad_reverse_avx512(v, elem_size));
        }
        if (k < count) {
            k = count - lanes;
            const __m512i v = _mm512_loadu_si512(src - (k + lanes - 1) * es);
            _mm512_storeu_si512(dst + k * es, ndpad_reverse_avx512(v, elem_size));
        }
        return;
    }
    if (count <= 0) return;
    const __mmask64 m = ndpad_byte_mask((size_t)(count * es));
    /* lanes [0, count) hold src[-(count - 1)] .. src[0] */
    const __m512i v = _mm512_maskz_loadu_epi8(m, src - (count - 1) * es);
    __m512i r;
    if (elem_size == 1 && count <= 16) {
        /* A run within one 128-bit lane reverses with vpshufb, also where vpermb exists:
         * it has the shorter latency, and these calls are latency-bound (measured: vpermb
         * 0-17% slower for runs of 1-8 bytes, within noise at 12). */
        const __m128i iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        const __m128i index = _mm_sub_epi8(_mm_set1_epi8((char)(count - 1)), iota);
        const __m128i lane = _mm_shuffle_epi8(_mm512_castsi512_si128(v), index);
        _mm512_mask_storeu_epi8(dst, m, _mm512_castsi128_si512(lane));
        return;
    }
#ifndef __AVX512VBMI__
    if (elem_size == 1) {
        /* Longer runs: reverse the whole vector, then move the run down to lane 0 through
         * memory (with VBMI, one vpermb puts it there: the avx512vbmi level). */
        const __m512i full = ndpad_reverse_avx512(v, 1);
        char lanes_out[64];
        _mm512_storeu_si512(lanes_out, full);
        memcpy(dst, lanes_out + 64 - count, (size_t)count);
        return;
    }
#endif
    if (elem_size == 16) {
        /* quadword pairs: element p takes element count - 1 - p */
        const __m512i q = _mm512_set_epi64(1, 0, 1, 0, 1, 0, 1, 0);
        const __m512i pair = _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0);
        const __m512i index =
            _mm512_add_epi64(_mm512_slli_epi64(_mm512_sub_epi64(_mm512_set1_epi64(count - 1), pair),
                                               1),
                             q);
        r = _mm512_permutexvar_epi64(index, v);
    } else {
        r = ndpad_permute_avx512(ndpad_reverse_index_avx512(count, elem_size), v, elem_size);
    }
    _mm512_mask_storeu_epi8(dst, m, r);
}

#endif
