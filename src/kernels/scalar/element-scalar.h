/* Fixed-size element moves of the scalar fillers: broadcast and reversed copy, written so
 * the compiler can vectorize them, plus the any-size versions. */
#ifndef NDPAD_ELEMENT_SCALAR_H
#define NDPAD_ELEMENT_SCALAR_H

#include <stdint.h>
#include <string.h>

typedef struct ndpad_e16 {
    uint64_t lo, hi;
} ndpad_e16;

#define NDPAD_DEFINE_ELEMENT_MOVES(bytes, type)                                                    \
    static inline void ndpad_broadcast_e##bytes(void *restrict dst, const void *restrict src,      \
                                                int64_t count)                                     \
    {                                                                                              \
        type value;                                                                                \
        memcpy(&value, src, sizeof(value));                                                        \
        char *out = (char *)dst;                                                                   \
        for (int64_t k = 0; k < count; k++) memcpy(out + k * (bytes), &value, (bytes));            \
    }                                                                                              \
    static inline void ndpad_reverse_e##bytes(void *restrict dst, const void *restrict src,        \
                                              int64_t count)                                       \
    {                                                                                              \
        char *out = (char *)dst;                                                                   \
        const char *in = (const char *)src;                                                        \
        for (int64_t k = 0; k < count; k++) {                                                      \
            type value;                                                                            \
            memcpy(&value, in - k * (bytes), (bytes));                                             \
            memcpy(out + k * (bytes), &value, (bytes));                                            \
        }                                                                                          \
    }

NDPAD_DEFINE_ELEMENT_MOVES(1, uint8_t)
NDPAD_DEFINE_ELEMENT_MOVES(2, uint16_t)
NDPAD_DEFINE_ELEMENT_MOVES(4, uint32_t)
NDPAD_DEFINE_ELEMENT_MOVES(8, uint64_t)
NDPAD_DEFINE_ELEMENT_MOVES(16, ndpad_e16)

/* `bytes` is a constant in each stamped entry point, so the switch folds away. */
static inline void ndpad_broadcast_run(void *restrict dst, const void *restrict src, int64_t count,
                                       size_t bytes)
{
    switch (bytes) {
    case 1: ndpad_broadcast_e1(dst, src, count); break;
    case 2: ndpad_broadcast_e2(dst, src, count); break;
    case 4: ndpad_broadcast_e4(dst, src, count); break;
    case 8: ndpad_broadcast_e8(dst, src, count); break;
    default: ndpad_broadcast_e16(dst, src, count); break;
    }
}

static inline void ndpad_reverse_run(void *restrict dst, const void *restrict src, int64_t count,
                                     size_t bytes)
{
    switch (bytes) {
    case 1: ndpad_reverse_e1(dst, src, count); break;
    case 2: ndpad_reverse_e2(dst, src, count); break;
    case 4: ndpad_reverse_e4(dst, src, count); break;
    case 8: ndpad_reverse_e8(dst, src, count); break;
    default: ndpad_reverse_e16(dst, src, count); break;
    }
}

/* Forward runs of any size: the C library's memcpy. */
static inline void ndpad_forward_run(void *restrict dst, const void *restrict src, int64_t count,
                                     size_t elem_size)
{
    memcpy(dst, src, (size_t)count * elem_size);
}

/* Any size: one element, then copies of what is already written, doubling each time. */
static inline void ndpad_broadcast_any(void *restrict dst, const void *restrict src, int64_t count,
                                       size_t elem_size)
{
    if (count <= 0) return;
    char *out = (char *)dst;
    const size_t total = (size_t)count * elem_size;
    memcpy(out, src, elem_size);
    size_t done = elem_size;
    while (done < total) {
        const size_t chunk = done < total - done ? done : total - done;
        memcpy(out + done, out, chunk);
        done += chunk;
    }
}

static inline void ndpad_reverse_any(void *restrict dst, const void *restrict src, int64_t count,
                                     size_t elem_size)
{
    char *out = (char *)dst;
    const char *in = (const char *)src;
    for (int64_t k = 0; k < count; k++)
        memcpy(out + (size_t)k * elem_size, in - (ptrdiff_t)((size_t)k * elem_size), elem_size);
}

#endif
