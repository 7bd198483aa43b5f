/* The body of the ROWS output-stream kernels, included by src/kernels/<isa>/stream-rows-*.c
 * after defining STREAM_ROWS_CHUNK (the widest move the ISA makes in one instruction or a
 * pair: 16, 32 or 64 bytes). Short rows cost a function call each in the executor (the
 * interior copy and two border fills); here a batch of rows is one call and each row is a
 * few inline moves: the interior in CHUNK-byte moves with an overlapping last one, a pad
 * border from the repeated pattern the same way, and every other border element one move
 * from the source element the plan listed for it. Fixed-size memcpy calls are how the moves
 * are written: the compiler turns each into a load and a store of the ISA's width. */
#ifndef NDPAD_STREAM_ROWS_H
#define NDPAD_STREAM_ROWS_H

#include <string.h>

#include "short-move.h"
#include "kernels/stream-descriptor.h"

#define CHUNK STREAM_ROWS_CHUNK

/* One CHUNK-byte move; an ISA may define its own (GCC writes a 32-byte memcpy as two
 * 16-byte moves under -mavx2). */
#ifndef STREAM_ROWS_MOVE_CHUNK
#define STREAM_ROWS_MOVE_CHUNK(d, s) memcpy(d, s, CHUNK)
#endif

/* `n` < CHUNK bytes (any n): two overlapping moves of the largest power of two <= n. */
static inline __attribute__((always_inline)) void move_short(char *d, const char *s, int64_t n)
{
#if STREAM_ROWS_CHUNK > 32
    if (n >= 32) {
        memcpy(d, s, 32);
        memcpy(d + n - 32, s + n - 32, 32);
        return;
    }
#endif
#if STREAM_ROWS_CHUNK > 16
    if (n >= 16) {
        memcpy(d, s, 16);
        memcpy(d + n - 16, s + n - 16, 16);
        return;
    }
#endif
    ndpad_move_upto16(d, s, n);
}

/* `n` bytes, any n: CHUNK moves, the last one ending at the end (overlapping). */
static inline __attribute__((always_inline)) void move_bytes(char *d, const char *s, int64_t n)
{
    if (n < CHUNK) {
        move_short(d, s, n);
        return;
    }
    for (int64_t x = 0; x < n - CHUNK; x += CHUNK) STREAM_ROWS_MOVE_CHUNK(d + x, s + x);
    STREAM_ROWS_MOVE_CHUNK(d + n - CHUNK, s + n - CHUNK);
}

/* `n` bytes of pad pattern at d, an element boundary. The pattern's period divides 64 and
 * it is 128 bytes long, so its bytes [x % 64, x % 64 + CHUNK) are the ones for output bytes
 * [x, x + CHUNK) of the run. */
static inline __attribute__((always_inline)) void fill_pattern(char *d, const uint8_t *pattern,
                                                               int64_t n)
{
    const char *p = (const char *)pattern;
    if (n < CHUNK) {
        move_short(d, p, n);
        return;
    }
    for (int64_t x = 0; x < n - CHUNK; x += CHUNK) STREAM_ROWS_MOVE_CHUNK(d + x, p + x % 64);
    STREAM_ROWS_MOVE_CHUNK(d + n - CHUNK, p + (n - CHUNK) % 64);
}

/* `count` border elements at d: element k is source element source[k] of the row. */
static inline __attribute__((always_inline)) void
move_elements(char *d, const char *src, const int64_t *source, int64_t count, size_t es)
{
    for (int64_t k = 0; k < count; k++) memcpy(d + (size_t)k * es, src + source[k] * es, es);
}

/* The rows, with `es` a constant where the caller passes one (the moves become single
 * loads and stores) or the stream's element size. */
static inline __attribute__((always_inline)) void
stream_rows_body(const ndpad_stream *st, const char *in, const int64_t *rows, int64_t count,
                 char *out, size_t es)
{
    const int64_t row_bytes = st->row_bytes, left = st->left_bytes, end_in = st->interior_end;
    const int64_t right = row_bytes - end_in, src_interior = st->src_interior;
    const int64_t left_elems = left / (int64_t)es, right_elems = right / (int64_t)es;
    /* CONSTANT has no list (NULL, no arithmetic on it) */
    const int64_t *const left_source = (const int64_t *)ndpad_stream_table(st, st->border_source);
    const int64_t *const right_source = left_source != NULL ? left_source + left_elems : NULL;
    const uint8_t *const pattern = st->pad;
    const bool constant = st->constant;
    /* CONSTANT borders of at most CHUNK bytes are one full pattern move each, which may run
     * on into bytes written after it (this row's interior, the next rows): the pattern is
     * right at any element boundary, and what follows overwrites the rest. Only the batch's
     * end bounds it. */
    const bool short_borders = left <= CHUNK && right <= CHUNK;
    const char *const end = out + count * row_bytes;
    for (int64_t k = 0; k < count; k++, out += row_bytes) {
        const char *src = ndpad_stream_source(in, rows, k);
        if (src == NULL) {
            fill_pattern(out, pattern, row_bytes);
            continue;
        }
        if (constant) {
            if (short_borders && end - out >= end_in + CHUNK) {
                STREAM_ROWS_MOVE_CHUNK(out, pattern);
                move_bytes(out + left, src + src_interior, end_in - left);
                STREAM_ROWS_MOVE_CHUNK(out + end_in, pattern);
            } else {
                fill_pattern(out, pattern, left);
                move_bytes(out + left, src + src_interior, end_in - left);
                fill_pattern(out + end_in, pattern, right);
            }
        } else {
            move_bytes(out + left, src + src_interior, end_in - left);
            move_elements(out, src, left_source, left_elems, es);
            move_elements(out + end_in, src, right_source, right_elems, es);
        }
    }
}

/* The kernel `name`: the body instantiated for the five fast element sizes and any other. */
#define NDPAD_DEFINE_STREAM_ROWS(name)                                                             \
    void name(const ndpad_stream *st, const char *in, const int64_t *rows, int64_t count,          \
              char *out, bool nontemporal)                                                         \
    {                                                                                              \
        (void)nontemporal; /* rows this short stay in the cache */                                 \
        switch (st->elem_size) {                                                                   \
        case 1: stream_rows_body(st, in, rows, count, out, 1); break;                              \
        case 2: stream_rows_body(st, in, rows, count, out, 2); break;                              \
        case 4: stream_rows_body(st, in, rows, count, out, 4); break;                              \
        case 8: stream_rows_body(st, in, rows, count, out, 8); break;                              \
        case 16: stream_rows_body(st, in, rows, count, out, 16); break;                            \
        default: stream_rows_body(st, in, rows, count, out, (size_t)st->elem_size); break;         \
        }                                                                                          \
    }

#endif
