/* Interior runs with AVX-512: masked moves for short runs, aligned stores for rows of a few
 * KiB, memcpy for long ones, and the streaming variant with non-temporal stores for outputs
 * far larger than the last-level cache (no read-for-ownership, no eviction of the input). */
#include <stdbool.h>

#include "kernels/avx512/vector-avx512.h"
#include "kernels/kernels.h"

/* Rows of a padded output start wherever the pads put them, rarely on a cache line, and a
 * store that straddles two lines costs two. For runs of a few KiB (the common row: 1 KiB in
 * the conv case) libc's memcpy keeps the destination's misalignment; here the head is one
 * masked store and every other store is aligned (loads may straddle: they are cheaper).
 * Measured 8-25% faster than memcpy on 1-4 KiB rows at an offset of 4 bytes; past 8 KiB
 * memcpy's `rep movsb` wins again. */
#define NDPAD_ALIGNED_COPY_MAX 8192

/* `bytes` >= 64: a masked head up to the destination's next cache line, then whole lines
 * with aligned (or, `stream`, non-temporal) stores, then a masked tail. */
static inline void copy_to_aligned_lines(char *out, const char *in, size_t bytes, bool stream)
{
    const size_t head = (64 - ((uintptr_t)out & 63)) & 63;
    ndpad_copy_short_avx512(out, in, head);
    size_t k = head;
    for (; k + 256 <= bytes; k += 256) {
        const __m512i a = _mm512_loadu_si512(in + k);
        const __m512i b = _mm512_loadu_si512(in + k + 64);
        const __m512i c = _mm512_loadu_si512(in + k + 128);
        const __m512i d = _mm512_loadu_si512(in + k + 192);
        if (stream) {
            _mm512_stream_si512((__m512i *)(out + k), a);
            _mm512_stream_si512((__m512i *)(out + k + 64), b);
            _mm512_stream_si512((__m512i *)(out + k + 128), c);
            _mm512_stream_si512((__m512i *)(out + k + 192), d);
        } else {
            _mm512_store_si512((__m512i *)(out + k), a);
            _mm512_store_si512((__m512i *)(out + k + 64), b);
            _mm512_store_si512((__m512i *)(out + k + 128), c);
            _mm512_store_si512((__m512i *)(out + k + 192), d);
        }
    }
    for (; k + 64 <= bytes; k += 64) {
        const __m512i a = _mm512_loadu_si512(in + k);
        if (stream)
            _mm512_stream_si512((__m512i *)(out + k), a);
        else
            _mm512_store_si512((__m512i *)(out + k), a);
    }
    ndpad_copy_short_avx512(out + k, in + k, bytes - k);
}

void ndpad_copy_interior__avx512(void *restrict dst, const void *restrict src, size_t bytes)
{
    char *out = (char *)dst;
    const char *in = (const char *)src;
    if (bytes <= 256 || bytes > NDPAD_ALIGNED_COPY_MAX || ((uintptr_t)out & 63) == 0)
        ndpad_copy_short_avx512(out, in, bytes);
    else
        copy_to_aligned_lines(out, in, bytes, false);
}

void ndpad_copy_nt__avx512(void *restrict dst, const void *restrict src, size_t bytes)
{
    char *out = (char *)dst;
    const char *in = (const char *)src;
    if (bytes < 512) {
        ndpad_copy_short_avx512(out, in, bytes);
        return;
    }
    /* no fence: the caller orders the streaming stores once (kernels.h) */
    copy_to_aligned_lines(out, in, bytes, true);
}
