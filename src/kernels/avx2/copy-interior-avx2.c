/* Interior runs with AVX2: short runs with overlapping vector moves, long ones with memcpy,
 * and the streaming variant with non-temporal stores for outputs far larger than the
 * last-level cache (no read-for-ownership, no eviction of the input). */
#include "kernels/avx2/vector-avx2.h"
#include "kernels/kernels.h"

/* Rows of a padded output rarely start on a cache line; for runs of a few KiB libc's
 * memcpy keeps the destination's misalignment, so stores straddle lines. Here the head is
 * one overlapping move and the rest are aligned stores (see the AVX-512 copy). */
#define NDPAD_ALIGNED_COPY_MAX 8192

void ndpad_copy_interior__avx2(void *restrict dst, const void *restrict src, size_t bytes)
{
    char *out = (char *)dst;
    const char *in = (const char *)src;
    if (bytes <= 256 || bytes > NDPAD_ALIGNED_COPY_MAX || ((uintptr_t)out & 31) == 0) {
        ndpad_copy_short_avx2(out, in, bytes);
        return;
    }
    const size_t head = 32 - ((uintptr_t)out & 31);
    _mm256_storeu_si256((__m256i *)out, _mm256_loadu_si256((const __m256i *)in));
    size_t k = head;
    for (; k + 128 <= bytes; k += 128) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(in + k));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(in + k + 32));
        const __m256i c = _mm256_loadu_si256((const __m256i *)(in + k + 64));
        const __m256i d = _mm256_loadu_si256((const __m256i *)(in + k + 96));
        _mm256_store_si256((__m256i *)(out + k), a);
        _mm256_store_si256((__m256i *)(out + k + 32), b);
        _mm256_store_si256((__m256i *)(out + k + 64), c);
        _mm256_store_si256((__m256i *)(out + k + 96), d);
    }
    for (; k + 32 <= bytes; k += 32)
        _mm256_store_si256((__m256i *)(out + k), _mm256_loadu_si256((const __m256i *)(in + k)));
    /* the last 32 bytes, overlapping what is written (bytes > 256 > 32) */
    _mm256_storeu_si256((__m256i *)(out + bytes - 32),
                        _mm256_loadu_si256((const __m256i *)(in + bytes - 32)));
}

void ndpad_copy_stream__avx2(void *restrict dst, const void *restrict src, size_t bytes)
{
    char *out = (char *)dst;
    const char *in = (const char *)src;
    if (bytes < 256) {
        ndpad_copy_short_avx2(out, in, bytes);
        return;
    }
    const size_t head = (32 - ((uintptr_t)out & 31)) & 31;
    ndpad_copy_short_avx2(out, in, head);
    size_t k = head;
    for (; k + 128 <= bytes; k += 128) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(in + k));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(in + k + 32));
        const __m256i c = _mm256_loadu_si256((const __m256i *)(in + k + 64));
        const __m256i d = _mm256_loadu_si256((const __m256i *)(in + k + 96));
        _mm256_stream_si256((__m256i *)(out + k), a);
        _mm256_stream_si256((__m256i *)(out + k + 32), b);
        _mm256_stream_si256((__m256i *)(out + k + 64), c);
        _mm256_stream_si256((__m256i *)(out + k + 96), d);
    }
    ndpad_copy_short_avx2(out + k, in + k, bytes - k);
    _mm_sfence(); /* streaming stores are weakly ordered: publish before returning */
}
