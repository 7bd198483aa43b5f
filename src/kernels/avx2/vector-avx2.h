/* AVX2 building blocks for the fillers: an element splat, an element-order reversal per
 * element size, and stores of a periodic pattern or of a run of any length without
 * touching a byte past it (overlapping stores instead of scalar tails). */
#ifndef NDPAD_VECTOR_AVX2_H
#define NDPAD_VECTOR_AVX2_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

/* One vector holding the element at src repeated (32 is a multiple of every fast size). */
static inline __m256i ndpad_splat_avx2(const void *src, size_t elem_size)
{
    switch (elem_size) {
    case 1: return _mm256_set1_epi8(*(const char *)src);
    case 2: {
        int16_t v;
        memcpy(&v, src, 2);
        return _mm256_set1_epi16(v);
    }
    case 4: {
        int32_t v;
        memcpy(&v, src, 4);
        return _mm256_set1_epi32(v);
    }
    case 8: {
        int64_t v;
        memcpy(&v, src, 8);
        return _mm256_set1_epi64x(v);
    }
    default: return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)src));
    }
}

/* `bytes` bytes (a multiple of the element size) of a pattern whose period divides 16:
 * full stores, then one store overlapping the end; short runs use narrower overlapping
 * stores. Every store starts at a multiple of the element size, so overlaps agree. */
static inline void ndpad_store_pattern_avx2(char *dst, size_t bytes, __m256i pattern)
{
    if (bytes >= 32) {
        size_t k = 0;
        for (; k + 32 <= bytes; k += 32) _mm256_storeu_si256((__m256i *)(dst + k), pattern);
        if (k < bytes) _mm256_storeu_si256((__m256i *)(dst + bytes - 32), pattern);
        return;
    }
    const __m128i p = _mm256_castsi256_si128(pattern);
    if (bytes >= 16) {
        _mm_storeu_si128((__m128i *)dst, p);
        _mm_storeu_si128((__m128i *)(dst + bytes - 16), p);
    } else if (bytes >= 8) {
        _mm_storel_epi64((__m128i *)dst, p);
        _mm_storel_epi64((__m128i *)(dst + bytes - 8), p);
    } else if (bytes >= 4) {
        const int32_t v = _mm_cvtsi128_si32(p);
        memcpy(dst, &v, 4);
        memcpy(dst + bytes - 4, &v, 4);
    } else if (bytes >= 2) {
        const int16_t v = (int16_t)_mm_cvtsi128_si32(p);
        memcpy(dst, &v, 2);
        memcpy(dst + bytes - 2, &v, 2);
    } else if (bytes == 1) {
        *dst = (char)_mm_cvtsi128_si32(p);
    }
}

/* Copy `bytes` bytes forward with at most two overlapping vector pairs for short runs. */
static inline void ndpad_copy_short_avx2(char *dst, const char *src, size_t bytes)
{
    if (bytes > 64) {
        memcpy(dst, src, bytes);
    } else if (bytes >= 32) {
        const __m256i head = _mm256_loadu_si256((const __m256i *)src);
        const __m256i tail = _mm256_loadu_si256((const __m256i *)(src + bytes - 32));
        _mm256_storeu_si256((__m256i *)dst, head);
        _mm256_storeu_si256((__m256i *)(dst + bytes - 32), tail);
    } else if (bytes >= 16) {
        const __m128i head = _mm_loadu_si128((const __m128i *)src);
        const __m128i tail = _mm_loadu_si128((const __m128i *)(src + bytes - 16));
        _mm_storeu_si128((__m128i *)dst, head);
        _mm_storeu_si128((__m128i *)(dst + bytes - 16), tail);
    } else if (bytes >= 8) {
        uint64_t head, tail;
        memcpy(&head, src, 8), memcpy(&tail, src + bytes - 8, 8);
        memcpy(dst, &head, 8), memcpy(dst + bytes - 8, &tail, 8);
    } else if (bytes >= 4) {
        uint32_t head, tail;
        memcpy(&head, src, 4), memcpy(&tail, src + bytes - 4, 4);
        memcpy(dst, &head, 4), memcpy(dst + bytes - 4, &tail, 4);
    } else {
        for (size_t k = 0; k < bytes; k++) dst[k] = src[k];
    }
}

/* Reverse the order of the elements of one vector. */
static inline __m256i ndpad_reverse_avx2(__m256i v, size_t elem_size)
{
    switch (elem_size) {
    case 1: {
        const __m256i bytes =
            _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12,
                             11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
        return _mm256_permute2x128_si256(_mm256_shuffle_epi8(v, bytes),
                                         _mm256_shuffle_epi8(v, bytes), 0x01);
    }
    case 2: {
        const __m256i words =
            _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13,
                             10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
        const __m256i w = _mm256_shuffle_epi8(v, words);
        return _mm256_permute2x128_si256(w, w, 0x01);
    }
    case 4: return _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
    case 8: return _mm256_permute4x64_epi64(v, 0x1B);
    default: return _mm256_permute2x128_si256(v, v, 0x01);
    }
}

/* Element reversal within 16 bytes (the short runs). */
static inline __m128i ndpad_reverse16_avx2(__m128i v, size_t elem_size)
{
    switch (elem_size) {
    case 1:
        return _mm_shuffle_epi8(v, _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
                                                 0));
    case 2:
        return _mm_shuffle_epi8(v, _mm_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0,
                                                 1));
    case 4: return _mm_shuffle_epi32(v, 0x1B);
    case 8: return _mm_shuffle_epi32(v, 0x4E);
    default: return v;
    }
}

/* Element reversal within 8 and 4 bytes held in a general register. */
static inline uint64_t ndpad_reverse8_avx2(uint64_t x, size_t elem_size)
{
    switch (elem_size) {
    case 1: return __builtin_bswap64(x);
    case 2:
        x = (x >> 32) | (x << 32);
        return ((x >> 16) & 0x0000FFFF0000FFFFull) | ((x & 0x0000FFFF0000FFFFull) << 16);
    case 4: return (x >> 32) | (x << 32);
    default: return x;
    }
}

static inline uint32_t ndpad_reverse4_avx2(uint32_t x, size_t elem_size)
{
    switch (elem_size) {
    case 1: return __builtin_bswap32(x);
    case 2: return (x >> 16) | (x << 16);
    default: return x;
    }
}

/* A run of fewer than 32 bytes, reversed without an element loop: its first W bytes are
 * the reversed last W bytes of the source and its last W bytes the reversed first W (W the
 * largest power of two <= bytes, a multiple of the element size), two overlapping moves. */
static inline void ndpad_reverse_short_avx2(char *dst, const char *lo, size_t bytes,
                                            size_t elem_size)
{
    if (bytes >= 16) {
        const __m128i first = _mm_loadu_si128((const __m128i *)lo);
        const __m128i last = _mm_loadu_si128((const __m128i *)(lo + bytes - 16));
        _mm_storeu_si128((__m128i *)dst, ndpad_reverse16_avx2(last, elem_size));
        _mm_storeu_si128((__m128i *)(dst + bytes - 16), ndpad_reverse16_avx2(first, elem_size));
    } else if (bytes >= 8) {
        uint64_t first, last;
        memcpy(&first, lo, 8), memcpy(&last, lo + bytes - 8, 8);
        first = ndpad_reverse8_avx2(first, elem_size), last = ndpad_reverse8_avx2(last, elem_size);
        memcpy(dst, &last, 8), memcpy(dst + bytes - 8, &first, 8);
    } else if (bytes >= 4) {
        uint32_t first, last;
        memcpy(&first, lo, 4), memcpy(&last, lo + bytes - 4, 4);
        first = ndpad_reverse4_avx2(first, elem_size), last = ndpad_reverse4_avx2(last, elem_size);
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

/* dst[k] = src[-k] for k < count: whole vectors, then one vector overlapping the end;
 * runs shorter than a vector with two overlapping narrower moves. */
static inline void ndpad_reverse_run_avx2(char *dst, const char *src, int64_t count,
                                          size_t elem_size)
{
    const int64_t lanes = 32 / (int64_t)elem_size;
    if (count >= lanes) {
        int64_t k = 0;
        for (; k + lanes <= count; k += lanes) {
            const __m256i v =
                _mm256_loadu_si256((const __m256i *)(src - (k + lanes - 1) * (int64_t)elem_size));
            _mm256_storeu_si256((__m256i *)(dst + k * (int64_t)elem_size),
                                ndpad_reverse_avx2(v, elem_size));
        }
        if (k < count) {
            k = count - lanes;
            const __m256i v =
                _mm256_loadu_si256((const __m256i *)(src - (k + lanes - 1) * (int64_t)elem_size));
            _mm256_storeu_si256((__m256i *)(dst + k * (int64_t)elem_size),
                                ndpad_reverse_avx2(v, elem_size));
        }
        return;
    }
    if (count > 0)
        ndpad_reverse_short_avx2(dst, src - (count - 1) * (int64_t)elem_size,
                                 (size_t)count * elem_size, elem_size);
}

#endif
