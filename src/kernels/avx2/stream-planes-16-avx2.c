/* The PLANES_16 output-stream kernel (kernels/stream-planes-16.h) on AVX2: a block is one
 * pshufb of the input's next 16 bytes and a blend of the pad pattern by the same index
 * (0x80 marks a pad lane for both); two blocks at a time are one 32-byte store, aligned
 * where the output's 16-byte blocks are, each half shuffled from its own 16-byte load. */
#include <immintrin.h>
#include <string.h>

#include "kernels/stream-descriptor.h"

#define P16_TARGET "avx2"
#define P16_INLINE static inline __attribute__((always_inline, target(P16_TARGET)))
typedef __m128i p16_vec;

P16_INLINE p16_vec p16_load_pad(const uint8_t *pad)
{
    return _mm_loadu_si128((const __m128i *)(const void *)pad);
}

P16_INLINE p16_vec p16_block(const char *src, const uint8_t *index, p16_vec pad)
{
    const __m128i lanes = _mm_loadu_si128((const __m128i *)(const void *)index);
    const __m128i v = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)src), lanes);
    return _mm_blendv_epi8(v, pad, lanes);
}

P16_INLINE void p16_store(void *dst, p16_vec v)
{
    _mm_storeu_si128((__m128i *)dst, v);
}

/* Two blocks at `x` (a 32-byte store): their shuffles at `index` (stream-plan.h), their
 * input at base + at0 and base + at1. */
P16_INLINE void pair(const uint8_t *index, uint64_t at0, uint64_t at1, char *x, const char *base,
                     __m256i pad, bool zero_pad, bool stream)
{
    const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)(base + at0));
    const __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(base + at1));
    const __m256i lanes = _mm256_loadu_si256((const __m256i *)(const void *)index);
    const __m256i bytes = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
    __m256i v = _mm256_shuffle_epi8(bytes, lanes); /* pad lanes zero */
    if (!zero_pad) v = _mm256_blendv_epi8(v, pad, lanes);
    if (stream)
        _mm256_stream_si256((__m256i *)(void *)x, v);
    else
        _mm256_storeu_si256((__m256i *)(void *)x, v);
}

/* Blocks four and two at a time from x up to `stop` (where their loads stay inside the
 * input): where it stopped; *src_at and *k_at moved on. */
P16_INLINE char *runs(const ndpad_stream *st, char *x, char *stop, const char **src_at,
                      int64_t *k_at, p16_vec pad16, bool zero_pad, bool stream)
{
    const int64_t phases = st->plane_phases, period = st->plane_period;
    const uint16_t *const in_at = NDPAD_STREAM_TABLE(st, plane_in_at, uint16_t);
    const uint8_t *const index = NDPAD_STREAM_TABLE(st, plane_index, uint8_t);
    const __m256i pad = _mm256_broadcastsi128_si256(pad16);
    /* block j's input at base + in_at[j]; the tables walked by pointer, back by their
     * period (they hold a run more) when past it */
    const int64_t k = *k_at;
    const char *base = *src_at - in_at[k];
    const uint16_t *at = in_at + k, *const at_wrap = in_at + period;
    const uint8_t *lanes = index + 16 * k;
    const int64_t period_in = in_at[period];
    const uintptr_t last_run = (uintptr_t)stop - 64; /* as integers: maybe before the buffer */
    for (; (uintptr_t)x <= last_run && x < stop; x += 64) {
        /* the four blocks' offsets in one load: the loads, not the arithmetic, bound this
         * loop (one each: 1.5 -> 1.3x a memcpy on 512 x 7 x 7 fp32) */
        uint64_t four;
        memcpy(&four, at, sizeof(four));
        pair(lanes, four & 0xffff, four >> 16 & 0xffff, x, base, pad, zero_pad, stream);
        pair(lanes + 32, four >> 32 & 0xffff, four >> 48, x + 32, base, pad, zero_pad, stream);
        at += 4;
        lanes += 64;
        if (at >= at_wrap) {
            at -= period;
            lanes -= 16 * period;
            base += period_in;
        }
    }
    if (stop - x >= 32) {
        pair(lanes, at[0], at[1], x, base, pad, zero_pad, stream);
        x += 32;
        at += 2;
    }
    *src_at = base + *at;
    *k_at = (at - in_at) % phases;
    return x;
}

/* The blocks from x that runs() writes, after one where that puts them on a 32-byte
 * boundary (where the output's blocks are 16-byte aligned). */
P16_INLINE char *pairs(const ndpad_stream *st, char *x, char *stop, const char **src_at,
                       int64_t *k_at, p16_vec pad16, bool nontemporal)
{
    if ((uintptr_t)x % 32 == 16 && stop - x >= 16) {
        const int64_t k = *k_at;
        p16_store(x,
                  p16_block(*src_at, NDPAD_STREAM_TABLE(st, plane_index, uint8_t) + 16 * k, pad16));
        *src_at += NDPAD_STREAM_TABLE(st, plane_in_at, uint16_t)[k + 1] -
                   NDPAD_STREAM_TABLE(st, plane_in_at, uint16_t)[k];
        *k_at = k + 1 == st->plane_phases ? 0 : k + 1;
        x += 16;
    }
    const bool stream = nontemporal && (uintptr_t)x % 32 == 0;
    const bool zero_pad = _mm_testz_si128(pad16, pad16);
    if (stream) {
        x = zero_pad ? runs(st, x, stop, src_at, k_at, pad16, true, true)
                     : runs(st, x, stop, src_at, k_at, pad16, false, true);
        _mm_sfence();
        return x;
    }
    return zero_pad ? runs(st, x, stop, src_at, k_at, pad16, true, false)
                    : runs(st, x, stop, src_at, k_at, pad16, false, false);
}

#define P16_MAIN pairs

#include "kernels/stream-planes-16.h"

NDPAD_STREAM_KERNEL(ndpad_stream_planes_16__avx2, P16_TARGET, planes_16_kernel)
