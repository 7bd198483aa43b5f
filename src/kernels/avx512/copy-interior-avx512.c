/* Interior runs with AVX-512: masked moves for short runs, memcpy for long ones, and the
 * streaming variant with non-temporal stores for outputs far larger than the last-level
 * cache (no read-for-ownership, no eviction of the input). */
#include "kernels/avx512/vector-avx512.h"
#include "kernels/kernels.h"

/* Rows of a padded output start wherever the pads put them, rarely on a cache line, and a
 * store that straddles two lines costs two. For runs of a few KiB (the common row: 1 KiB in
 * the conv case) libc's memcpy keeps the destination's misalignment; here the head is one
 * masked store and every other store is aligned (loads may straddle: they are cheaper).
 * Measured 8-25% faster than memcpy on 1-4 KiB rows at an offset of 4 bytes; past 8 KiB
 * memcpy's `rep movsb` wins again. */
#define NDPAD_ALIGNED_COPY_MAX 8192

void ndpad_copy_interior__avx512(void *restrict dst, const void *restrict src, size_t bytes)
{
    char *out = (char *)dst;
    const char *in = (const char *)src;
    if (bytes <= 256 || bytes > NDPAD_ALIGNED_COPY_MAX || ((uintptr_t)out & 63) == 0) {
        ndpad_copy_short_avx512(out, in, bytes);
        return;
    }
    const size_t head = 64 - ((uintptr_t)out & 63);
    ndpad_copy_short_avx512(out, in, head);
    size_t k = head;
    for (; k + 256 <= bytes; k += 256) {
        const __m512i a = _mm512_loadu_si512(in + k);
        const __m512i b = _mm512_loadu_si512(in + k + 64);
        const __m512i c = _mm512_loadu_si512(in + k + 128);
        const __m512i d = _mm512_loadu_si512(in + k + 192);
        _mm512_store_si512((__m512i *)(out + k), a);
        _mm512_store_si512((__m512i *)(out + k + 64), b);
        _mm512_store_si512((__m512i *)(out + k + 128), c);
        _mm512_store_si512((__m512i *)(out + k + 192), d);
    }
    for (; k + 64 <= bytes; k += 64)
        _mm512_store_si512((__m512i *)(out + k), _mm512_loadu_si512(in + k));
    ndpad_copy_short_avx512(out + k, in + k, bytes - k);
}

void ndpad_copy_stream__avx512(void *restrict dst, const void *restrict src, size_t bytes)
{
    char *out = (char *)dst;
    const char *in = (const char *)src;
    if (bytes < 512) {
        ndpad_copy_short_avx512(out, in, bytes);
        return;
    }
    const size_t head = (64 - ((uintptr_t)out & 63)) & 63;
    ndpad_copy_short_avx512(out, in, head);
    size_t k = head;
    for (; k + 256 <= bytes; k += 256) {
        const __m512i a = _mm512_loadu_si512(in + k);
        const __m512i b = _mm512_loadu_si512(in + k + 64);
        const __m512i c = _mm512_loadu_si512(in + k + 128);
        const __m512i d = _mm512_loadu_si512(in + k + 192);
        _mm512_stream_si512((__m512i *)(out + k), a);
        _mm512_stream_si512((__m512i *)(out + k + 64), b);
        _mm512_stream_si512((__m512i *)(out + k + 128), c);
        _mm512_stream_si512((__m512i *)(out + k + 192), d);
    }
    for (; k + 64 <= bytes; k += 64)
        _mm512_stream_si512((__m512i *)(out + k), _mm512_loadu_si512(in + k));
    ndpad_copy_short_avx512(out + k, in + k, bytes - k);
    _mm_sfence(); /* streaming stores are weakly ordered: publish before returning */
}
