/* Any element size with NEON (the generic slot: NHWC rows whose pixel is 3 floats, odd
 * sizes). Broadcasts are one vector pattern: the first period of the row (lcm of the element
 * size and the vector width, when that is at most 128 bytes) plus one vector is written by
 * doubling, then every further vector is a copy of the row at its phase in that period, so
 * the rest of the row is plain full-width stores. Short rows and long periods stay with the
 * doubling alone; reversed runs move one element at a time, forward runs are one copy. */
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

void ndpad_fill_constant_any__neon(void *restrict dst, const void *restrict src, int64_t count,
                                   size_t elem_size)
{
    broadcast_any((char *)dst, (const char *)src, count, elem_size);
}

void ndpad_fill_edge_any__neon(void *restrict dst, const void *restrict src, int64_t count,
                               size_t elem_size)
{
    broadcast_any((char *)dst, (const char *)src, count, elem_size);
}

static void reverse_any(char *dst, const char *src, int64_t count, size_t es)
{
    for (int64_t k = 0; k < count; k++)
        neon_copy(dst + (size_t)k * es, src - (size_t)k * es, es);
}

void ndpad_fill_reflect_any__neon(void *restrict dst, const void *restrict src, int64_t count,
                                  size_t elem_size)
{
    reverse_any((char *)dst, (const char *)src, count, elem_size);
}

void ndpad_fill_symmetric_any__neon(void *restrict dst, const void *restrict src,
                                    int64_t count, size_t elem_size)
{
    reverse_any((char *)dst, (const char *)src, count, elem_size);
}

void ndpad_fill_wrap_any__neon(void *restrict dst, const void *restrict src, int64_t count,
                               size_t elem_size)
{
    if (count > 0) neon_copy((char *)dst, (const char *)src, (size_t)count * elem_size);
}
