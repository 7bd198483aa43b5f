/* Any element size with AVX-512 (the generic slot: NHWC rows whose pixel is 3 floats, odd
 * sizes). Broadcasts are one vector pattern: the first period of the row (lcm of the element
 * size and the vector width, when that is at most 512 bytes) plus one vector is written by
 * doubling, then every further vector is a copy of the row at its phase in that period, so
 * the rest of the row is plain full-width stores. Short rows and long periods stay with the
 * doubling alone; reversed runs move one element at a time, forward runs are one copy. */
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"
#include "kernels/avx512/vector-avx512.h"

#define V 64

static inline void double_in_place(char *dst, size_t done, size_t total)
{
    while (done < total) {
        const size_t chunk = done < total - done ? done : total - done;
        ndpad_copy_short_avx512(dst + done, dst, chunk);
        done += chunk;
    }
}

static void broadcast_any(char *dst, const char *src, int64_t count, size_t es)
{
    if (count <= 0) return;
    const size_t total = (size_t)count * es;
    size_t period = es;
    while (period % V != 0 && period <= 512) period += es;
    ndpad_copy_short_avx512(dst, src, es);
    if (period % V != 0 || total <= period + V) {
        double_in_place(dst, es, total);
        return;
    }
    double_in_place(dst, es, period + V);
    size_t k = period + V, phase = V % period;
    for (; k + V <= total; k += V) {
        _mm512_storeu_si512(dst + k, _mm512_loadu_si512(dst + phase));
        phase += V;
        if (phase >= period) phase -= period;
    }
    if (k < total)
        _mm512_mask_storeu_epi8(dst + k, ndpad_byte_mask(total - k),
                                _mm512_loadu_si512(dst + phase));
}

NDPAD_DEFINE_ANY_FILLERS(avx512, broadcast_any, ndpad_copy_short_avx512)
