/* Any element size with NEON (the generic slot: NHWC rows whose pixel is 3 floats, odd
 * sizes). Broadcasts are one vector pattern: the first period of the row (lcm of the element
 * size and the vector width, when that is at most 128 bytes) plus one vector is written by
 * doubling, then every further vector is a copy of the row at its phase in that period, so
 * the rest of the row is plain full-width stores. Short rows and long periods stay with the
 * doubling alone; reversed runs move one element at a time, forward runs are one copy. */
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"
#include "kernels/neon/vector-neon.h"

#define V 16

static inline void neon_copy(char *dst, const char *src, size_t bytes)
{
    ndpad_copy_short_neon((uint8_t *)dst, (const uint8_t *)src, bytes);
}

static inline void double_in_place(char *dst, size_t done, size_t total)
{
    while (done < total) {
        const size_t chunk = done < total - done ? done : total - done;
        neon_copy(dst + done, dst, chunk);
        done += chunk;
    }
}

static void broadcast_any(char *dst, const char *src, int64_t count, size_t es)
{
    if (count <= 0) return;
    const size_t total = (size_t)count * es;
    size_t period = es;
    while (period % V != 0 && period <= 128) period += es;
    neon_copy(dst, src, es);
    if (period % V != 0 || total <= period + V) {
        double_in_place(dst, es, total);
        return;
    }
    double_in_place(dst, es, period + V);
    size_t k = period + V, phase = V % period;
    for (; k + V <= total; k += V) {
        vst1q_u8((uint8_t *)dst + k, vld1q_u8((const uint8_t *)dst + phase));
        phase += V;
        if (phase >= period) phase -= period;
    }
    if (k < total) {
        const size_t x = total - V;
        vst1q_u8((uint8_t *)dst + x, vld1q_u8((const uint8_t *)dst + x % period));
    }
}

NDPAD_DEFINE_ANY_FILLERS(neon, broadcast_any, neon_copy)
