/* The body of the PLANES_16 output-stream kernels (stream-plan.h), included by
 * src/kernels/<isa>/stream-planes-16-*.c after defining, for the level's 16-byte vectors:
 *
 *   P16_INLINE            how its inline helpers are declared (static inline, forced, for
 *                         the level's target where the baseline lacks it)
 *   p16_vec               the vector type
 *   p16_load_pad(pad)     the 16-byte pad pattern (elements divide 16: every block starts it)
 *   p16_block(src, index, pad)
 *                         the block: lane l is byte index[l] of the 16 at src, or pad where
 *                         index[l] is 0x80 (a byte shuffle and a blend, or one NEON TBX)
 *   p16_store(dst, v)     an unaligned 16-byte store
 *   P16_MAIN              optional: a function that writes whole blocks from x faster (two
 *                         at a time, say), up to a bound where their 16-byte loads stay in
 *                         the input, and returns where it stopped
 *
 * CONSTANT padding of a dense input with small planes, the levels that have no expand
 * instruction (AVX2, NEON): the output's interior bytes are the input's, in order, so a
 * 16-byte block of the output is the input's next bytes shuffled over its interior lanes.
 * The blocks run from the output's row 0 in steps of 16 (aligned where the output is), each
 * at a plane position whose shuffle the plan holds; short rows, pad rows and planes cost no
 * per-row work. A load reads 16 bytes from the block's first input byte: near the input's
 * end the bytes are first copied out (nothing past the input is read). The partial blocks
 * at either end of a batch store only their own bytes: the rest belongs to other batches,
 * maybe other threads'. */
#ifndef NDPAD_STREAM_PLANES_16_H
#define NDPAD_STREAM_PLANES_16_H

#include <stdint.h>
#include <string.h>

#include "kernels/stream-descriptor.h"

/* p16_block of the input bytes at src that lie before in_end (its last block's). */
P16_INLINE p16_vec p16_block_near_end(const char *src, const char *in_end, const uint8_t *index,
                                      p16_vec pad)
{
    char window[16] = {0};
    memcpy(window, src, (size_t)(in_end - src < 16 ? in_end - src : 16));
    return p16_block(window, index, pad);
}

/* The next phase after k. */
P16_INLINE int64_t p16_next(int64_t k, int64_t phases)
{
    return k + 1 == phases ? 0 : k + 1;
}

/* How far from `out` (the batch's start, row `first`; at most `bytes`, the batch's) the
 * blocks read at most 16 bytes from each block's first input byte without passing the
 * input's end: all the way, but in the batch that holds the input's last bytes. */
static inline int64_t p16_safe_bytes(const ndpad_stream *st, int64_t first, int64_t count)
{
    const int64_t plane_rows = st->plane_rows, plane_in = st->plane_in_bytes;
    const int64_t last = first + count, in_total = st->plane_in_end - st->src_interior;
    const int64_t batch_in = last / plane_rows * plane_in +
                             NDPAD_STREAM_TABLE(st, plane_in_before, int64_t)[last % plane_rows];
    if (batch_in + 16 <= in_total) return count * st->row_bytes;
    /* the output place of input byte in_total - 16: the blocks from there read too far */
    const int64_t o = in_total - 16;
    if (o < 0) return 0;
    const int64_t r = o % plane_in;
    int64_t j = 0;
    while (NDPAD_STREAM_TABLE(st, plane_in_before, int64_t)[j + 1] <= r) j++;
    const int64_t place = o / plane_in * st->plane_bytes + j * st->row_bytes + st->left_bytes +
                          (r - NDPAD_STREAM_TABLE(st, plane_in_before, int64_t)[j]) -
                          first * st->row_bytes;
    return place < 0 ? 0 : place < count * st->row_bytes ? place : count * st->row_bytes;
}

/* The kernel: rows rows[0] .. rows[0] + count - 1 (rows[0]: the batch's first row, not a
 * source offset: kernels.h) at `out`. */
P16_INLINE void planes_16_kernel(const ndpad_stream *st, const char *in, const int64_t *rows,
                                 int64_t count, char *out, bool nontemporal)
{
    const int64_t first = rows[0], phases = st->plane_phases;
    const uint8_t *const index = NDPAD_STREAM_TABLE(st, plane_index, uint8_t);
    const uint16_t *const in_at = NDPAD_STREAM_TABLE(st, plane_in_at, uint16_t);
    const char *src = in + st->src_interior + first / st->plane_rows * st->plane_in_bytes +
                      NDPAD_STREAM_TABLE(st, plane_in_before, int64_t)[first % st->plane_rows];
    const char *const in_end = in + st->plane_in_end;
    char *const end = out + count * st->row_bytes;
    const p16_vec pad = p16_load_pad(st->pad);
    /* the block that holds the batch's first byte, and its phase */
    const int64_t offset = first * st->row_bytes, skip = offset % 16;
    int64_t k = offset / 16 % phases;
    char *x = out - skip;
    if (skip > 0) {
        /* its lanes before the batch take input bytes before src */
        int64_t before = 0;
        for (int64_t l = 0; l < skip; l++) before += index[16 * k + l] < 0x80;
        char block[16];
        p16_store(block, p16_block_near_end(src - before, in_end, index + 16 * k, pad));
        const int64_t stop = end - x < 16 ? end - x : 16;
        memcpy(out, block + skip, (size_t)(stop - skip));
        src += in_at[k + 1] - in_at[k] - before;
        x += 16;
        k = p16_next(k, phases);
    }
#ifdef P16_MAIN
    char *const safe_end = out + p16_safe_bytes(st, first, count);
    if (x < safe_end) x = P16_MAIN(st, x, safe_end, &src, &k, pad, nontemporal);
#else
    (void)nontemporal;
#endif
    for (; x + 16 <= end; x += 16) {
        const uint8_t *const lanes = index + 16 * k;
        p16_store(x, in_end - src >= 16 ? p16_block(src, lanes, pad)
                                        : p16_block_near_end(src, in_end, lanes, pad));
        src += in_at[k + 1] - in_at[k];
        k = p16_next(k, phases);
    }
    if (x < end) {
        char block[16];
        p16_store(block, p16_block_near_end(src, in_end, index + 16 * k, pad));
        memcpy(x, block, (size_t)(end - x));
    }
}

#endif
