/* The filler entry points every ISA defines the same way. kernels.inc names them
 * ndpad_fill_<operation>_e<bytes>__<isa> and ndpad_fill_<operation>_any__<isa>; each only
 * forwards to one of the ISA's building blocks, so an ISA's files keep what differs (the
 * blocks) and stamp out the entry points with these macros. Include after the ISA's own
 * header. The operations (kernels.inc has the contract):
 *   broadcast  dst[k] = src[0]     reverse  dst[k] = src[-k]     forward  dst[k] = src[k] */
#ifndef NDPAD_FILLER_ENTRIES_H
#define NDPAD_FILLER_ENTRIES_H

#include <stddef.h>
#include <stdint.h>

#define NDPAD_FILLER_ENTRY(isa, op, size, body)                                                    \
    void ndpad_fill_##op##_##size##__##isa(void *restrict dst, const void *restrict src,           \
                                           int64_t count, size_t elem_size)                        \
    {                                                                                              \
        (void)elem_size;                                                                           \
        body;                                                                                      \
    }

/* `op` for the five fast sizes, each `run(dst, src, count, bytes)` with a constant size. */
#define NDPAD_DEFINE_FAST_FILLERS(isa, op, run)                                                    \
    NDPAD_FILLER_ENTRY(isa, op, e1, run(dst, src, count, 1))                                       \
    NDPAD_FILLER_ENTRY(isa, op, e2, run(dst, src, count, 2))                                       \
    NDPAD_FILLER_ENTRY(isa, op, e4, run(dst, src, count, 4))                                       \
    NDPAD_FILLER_ENTRY(isa, op, e8, run(dst, src, count, 8))                                       \
    NDPAD_FILLER_ENTRY(isa, op, e16, run(dst, src, count, 16))

/* The three generic-size entries, each `run(dst, src, count, elem_size)`. */
#define NDPAD_DEFINE_ANY_FILLERS_FROM(isa, broadcast_run, reverse_run, forward_run)                \
    NDPAD_FILLER_ENTRY(isa, broadcast, any, broadcast_run(dst, src, count, elem_size))             \
    NDPAD_FILLER_ENTRY(isa, reverse, any, reverse_run(dst, src, count, elem_size))                 \
    NDPAD_FILLER_ENTRY(isa, forward, any, forward_run(dst, src, count, elem_size))

/* The generic size slot (NHWC rows whose pixel is 3 floats, odd sizes), for an ISA whose
 * vectors are `width` bytes and whose short forward copy is `copy(dst, src, bytes)`.
 * Broadcast writes one vector pattern: the first period of the row (the lcm of the
 * element size and the width, when that is at most 8 vectors) plus one vector by doubling,
 * then every further vector is a copy of the row at its phase in that period, so the rest
 * of the row is full-width moves; short rows and long periods stay with the doubling.
 * Reversed runs move one element at a time; forward runs are one copy. */
#define NDPAD_DEFINE_ANY_FILLERS(isa, width, copy)                                                 \
    static void ndpad_broadcast_any__##isa(char *dst, const char *src, int64_t count, size_t es)   \
    {                                                                                              \
        if (count <= 0) return;                                                                    \
        const size_t total = (size_t)count * es;                                                   \
        size_t period = es;                                                                        \
        while (period % (width) != 0 && period <= 8 * (width)) period += es;                       \
        const size_t doubled =                                                                     \
            period % (width) != 0 || total <= period + (width) ? total : period + (width);         \
        copy(dst, src, es);                                                                        \
        size_t k = es;                                                                             \
        while (k < doubled) {                                                                      \
            const size_t chunk = k < doubled - k ? k : doubled - k;                                \
            copy(dst + k, dst, chunk);                                                             \
            k += chunk;                                                                            \
        }                                                                                          \
        for (size_t phase = (width) % period; k < total; k += (width)) {                           \
            copy(dst + k, dst + phase, total - k < (width) ? total - k : (width));                 \
            phase += (width);                                                                      \
            if (phase >= period) phase -= period;                                                  \
        }                                                                                          \
    }                                                                                              \
    static void ndpad_reverse_any__##isa(char *dst, const char *src, int64_t count, size_t es)     \
    {                                                                                              \
        for (int64_t k = 0; k < count; k++) copy(dst + (size_t)k * es, src - (size_t)k * es, es);  \
    }                                                                                              \
    static void ndpad_forward_any__##isa(char *dst, const char *src, int64_t count, size_t es)     \
    {                                                                                              \
        if (count > 0) copy(dst, src, (size_t)count *es);                                          \
    }                                                                                              \
    NDPAD_DEFINE_ANY_FILLERS_FROM(isa, ndpad_broadcast_any__##isa, ndpad_reverse_any__##isa,       \
                                  ndpad_forward_any__##isa)

#endif
