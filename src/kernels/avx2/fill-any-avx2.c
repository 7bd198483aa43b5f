/* Any element size with AVX2 (the generic slot: NHWC rows whose pixel is 3 floats, odd
 * sizes). Broadcasts are one vector pattern: the first period of the row (lcm of the element
 * size and the vector width, when that is at most 256 bytes) plus one vector is written by
 * doubling, then every further vector is a copy of the row at its phase in that period, so
 * the rest of the row is plain full-width stores. Short rows and long periods stay with the
 * doubling alone; reversed runs move one element at a time, forward runs are one copy. */
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"
#include "kernels/avx2/vector-avx2.h"

#define V 32

static inline void double_in_place(char *dst, size_t done, size_t total)
{
    while (done < total) {
        const size_t chunk = done < total - done ? done : total - done;
        ndpad_copy_short_avx2(dst + done, dst, chunk);
        done += chunk;
    }
}

static void broadcast_any(char *dst, const char *src, int64_t count, size_t es)
{
    if (count <= 0) return;
    const size_t total = (size_t)count * es;
    size_t period = es;
    while (period % V != 0 && period <= 256) period += es;
    ndpad_copy_short_avx2(dst, src, es);
    if (period % V != 0 || total <= period + V) {
        double_in_place(dst, es, total);
        return;
    }
    double_in_place(dst, es, period + V);
    size_t k = period + V, phase = V % period;
    for (; k + V <= total; k += V) {
        _mm256_storeu_si256((__m256i *)(dst + k),
                            _mm256_loadu_si256((const __m256i *)(dst + phase)));
        phase += V;
        if (phase >= period) phase -= period;
    }
    if (k < total) {
        const size_t x = total - V;
        _mm256_storeu_si256((__m256i *)(dst + x),
                            _mm256_loadu_si256((const __m256i *)(dst + x % period)));
    }
}

NDPAD_DEFINE_ANY_FILLERS(avx2, broadcast_any, ndpad_copy_short_avx2)
