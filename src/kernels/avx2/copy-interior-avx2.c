/* Interior runs with AVX2: short runs with overlapping vector moves, aligned stores for rows
 * of a few KiB, memcpy for long ones, and the streaming variant with non-temporal stores for
 * outputs far larger than the last-level cache (no read-for-ownership, no eviction of the
 * input), whole cache lines only. */
#include <stdbool.h>

#include "kernels/avx2/vector-avx2.h"
#include "kernels/kernels.h"

/* Rows of a padded output rarely start on a cache line; for runs of a few KiB libc's
 * memcpy keeps the destination's misalignment, so stores straddle lines. Here the head is
 * one short move and the rest are aligned stores (see the AVX-512 copy). */
#define NDPAD_ALIGNED_COPY_MAX 8192

/* `bytes` >= 64: a head up to the destination's next 32-byte boundary (`stream`: its next
 * cache line), then aligned (or non-temporal) stores of 128 bytes at a time, then the tail.
 * Non-temporal stores only ever fill whole lines: a partial one goes to memory as a partial
 * write, and the cached head and tail beside it (a row's borders) would share its line. */
static inline void copy_to_aligned_vectors(char *out, const char *in, size_t bytes, bool stream)
{
    const size_t align = stream ? 64 : 32;
    const size_t head = (align - ((uintptr_t)out & (align - 1))) & (align - 1);
    ndpad_copy_short_avx2(out, in, head);
    size_t k = head;
    for (; k + 128 <= bytes; k += 128) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(in + k));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(in + k + 32));
        const __m256i c = _mm256_loadu_si256((const __m256i *)(in + k + 64));
        const __m256i d = _mm256_loadu_si256((const __m256i *)(in + k + 96));
        if (stream) {
            _mm256_stream_si256((__m256i *)(out + k), a);
            _mm256_stream_si256((__m256i *)(out + k + 32), b);
            _mm256_stream_si256((__m256i *)(out + k + 64), c);
            _mm256_stream_si256((__m256i *)(out + k + 96), d);
        } else {
            _mm256_store_si256((__m256i *)(out + k), a);
            _mm256_store_si256((__m256i *)(out + k + 32), b);
            _mm256_store_si256((__m256i *)(out + k + 64), c);
            _mm256_store_si256((__m256i *)(out + k + 96), d);
        }
    }
    for (; stream && k + 64 <= bytes; k += 64) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(in + k));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(in + k + 32));
        _mm256_stream_si256((__m256i *)(out + k), a);
        _mm256_stream_si256((__m256i *)(out + k + 32), b);
    }
    ndpad_copy_short_avx2(out + k, in + k, bytes - k);
}

void ndpad_copy_interior__avx2(void *restrict dst, const void *restrict src, size_t bytes)
{
    char *out = (char *)dst;
    const char *in = (const char *)src;
    if (bytes <= 256 || bytes > NDPAD_ALIGNED_COPY_MAX || ((uintptr_t)out & 31) == 0)
        ndpad_copy_short_avx2(out, in, bytes);
    else
        copy_to_aligned_vectors(out, in, bytes, false);
}

void ndpad_copy_nt__avx2(void *restrict dst, const void *restrict src, size_t bytes)
{
    char *out = (char *)dst;
    const char *in = (const char *)src;
    if (bytes < 256) {
        ndpad_copy_short_avx2(out, in, bytes);
        return;
    }
    /* no fence: the caller orders the streaming stores once (a fence per row of a tile cost
     * 3.4x on AVX-512 rows, kernels.h) */
    copy_to_aligned_vectors(out, in, bytes, true);
}
