/* The frame of the BLOCKS output-stream kernels for AVX-512 (the walk over a batch's blocks
 * and the batch), shared by the two kinds, whose whole-block loops have a header each
 * (stream-blocks-borders-avx512.h: BLOCKS; stream-blocks-constant-avx512.h:
 * BLOCKS_CONSTANT). Included by stream-blocks-constant-avx512.c and
 * avx512vbmi/stream-blocks-avx512vbmi.c with
 * STREAM_TARGET (the target attribute: the two need different instruction sets, and a
 * function cannot inline code of a wider target) and STREAM_BORDERS (1: permute the borders
 * in). What they do: every store is a full, 64-byte-aligned block of the output (masked
 * only at the two ends of a batch), assembled from each row that meets it: a masked load of
 * the row's interior bytes over the pad pattern, then (modes that read the input) each
 * border's bytes permuted out of a 64-byte window of the source row with vpermb. Masked
 * loads read only their enabled lanes, so nothing outside a source row is read, and masked
 * stores write nothing outside the batch. Blocks inside one row's interior are a plain
 * load/store loop. With a seam table (stream-plan.h), seam_blocks() writes every whole
 * block of the batch: a copy run inside a row's interior, else one permute (two, blended,
 * for wrap) of whole 64-byte windows inside the source rows; the assembly above serves
 * only a partial block at either end. CONSTANT rows of 64 bytes or more take the same
 * shape of loop, constant_blocks(): a copy run, a run of pad, or one seam of two masked
 * loads; rows under 512 bytes the plan's row masks instead, constant_row_mask_blocks():
 * every block one or two masked loads. The CONSTANT kernel needs AVX-512 BW; the other adds
 * VBMI. */
#ifndef NDPAD_STREAM_BLOCKS_AVX512_H
#define NDPAD_STREAM_BLOCKS_AVX512_H

#include <immintrin.h>

#include "kernels/stream-descriptor.h"

#define BLOCK NDPAD_STREAM_BLOCK

/* Lanes [lo, hi) (clamped to [0, 64]). */
static inline __attribute__((always_inline, target(STREAM_TARGET))) uint64_t lanes(int64_t lo,
                                                                                   int64_t hi)
{
    lo = lo < 0 ? 0 : lo > BLOCK ? BLOCK : lo;
    hi = hi < 0 ? 0 : hi > BLOCK ? BLOCK : hi;
    return ndpad_stream_lanes_below(hi) & ~ndpad_stream_lanes_below(lo);
}

#if STREAM_BORDERS
static inline __attribute__((always_inline, target(STREAM_TARGET))) __m512i
border(__m512i v, const char *src, int64_t window, uint64_t window_mask, const uint8_t *index,
       const uint64_t *mask, int64_t e)
{
    const __m512i w = _mm512_maskz_loadu_epi8(window_mask, src + window);
    const __m512i idx = _mm512_loadu_si512((const void *)(index + e * BLOCK));
    return _mm512_mask_permutexvar_epi8(v, mask[e], idx, w);
}
#endif

/* One aligned block, through the cache or around it. */
static inline __attribute__((always_inline, target(STREAM_TARGET))) void put(char *block, __m512i v,
                                                                             bool nontemporal)
{
    if (nontemporal)
        _mm512_stream_si512((void *)block, v);
    else
        _mm512_store_si512((void *)block, v);
}

/* `n` whole blocks from `block` on, copied from `s` on (a row's interior); the block after
 * them. */
static inline __attribute__((always_inline, target(STREAM_TARGET))) char *
copy_blocks(char *block, const char *s, int64_t n, bool nontemporal)
{
    if (nontemporal)
        for (int64_t b = 0; b < n; b++, s += BLOCK, block += BLOCK)
            _mm512_stream_si512((void *)block, _mm512_loadu_si512((const void *)s));
    else
        /* 256-bit moves: on the AMD EPYC (Zen 4) this was measured on, a 512-bit load that
         * straddles two lines costs more than two 256-bit ones (volume case 70 -> 66 us) */
        for (int64_t b = 0; b < n; b++, s += BLOCK, block += BLOCK) {
            const __m256i lo = _mm256_loadu_si256((const __m256i *)s);
            const __m256i hi = _mm256_loadu_si256((const __m256i *)(s + 32));
            _mm256_store_si256((__m256i *)block, lo);
            _mm256_store_si256((__m256i *)(block + 32), hi);
        }
    return block;
}

/* CONSTANT: the pad under a block at row byte p in [-64, row_bytes): the plan's one pattern
 * `pad`, or with a row pattern (constants per index along the row: the descriptor's
 * row_pattern) the row's constants from byte p on. */
static inline __attribute__((always_inline, target(STREAM_TARGET))) __m512i
pad_at(__m512i pad, const uint8_t *row_pattern, int64_t p)
{
    return row_pattern == NULL ? pad : _mm512_loadu_si512((const void *)(row_pattern + BLOCK + p));
}

#if !STREAM_BORDERS
/* CONSTANT: from `block`, a pad block of row i (its row in the batch at `out`: a pad row, or
 * a block at row byte p outside the interior), the whole blocks of pad up to `stop`: a left
 * border, or a right border, the pad rows after it and the next input row's left border.
 * Wide borders are a store loop, not a block at a time through the assembly (channel,
 * 800 KB borders, 1 thread: 700 -> 330 us, 1.1 -> 0.58 of a memcpy). Returns the block
 * after them (`block` itself when the pad ends inside it). */
static inline __attribute__((always_inline, target(STREAM_TARGET))) char *
pad_blocks(const ndpad_stream *st, const int64_t *rows, int64_t count, char *out, int64_t i,
           char *block, const char *stop, __m512i pad, const uint8_t *row_pattern, bool nontemporal)
{
    const int64_t row_bytes = st->row_bytes, left = st->left_bytes;
    const char *row_start = out + i * row_bytes, *pad_end;
    if (rows[i] != NDPAD_STREAM_PAD_ROW && block - row_start < left) {
        pad_end = row_start + left;
    } else {
        int64_t j = i + 1;
        while (j < count && rows[j] == NDPAD_STREAM_PAD_ROW) j++;
        pad_end = j < count ? out + j * row_bytes + left : out + count * row_bytes;
    }
    pad_end = pad_end < stop ? pad_end : stop;
    if (row_pattern == NULL) {
        for (; block + BLOCK <= pad_end; block += BLOCK) put(block, pad, nontemporal);
        return block;
    }
    /* The row's constants: the block's place in its row, moved on by a block modulo the
     * row. Rows under 64 bytes (NDPAD_STREAM=always, a tuned class) move by 64 mod their
     * length: a step of 64 would leave p past the table, whose bytes it would then read. */
    const int64_t step = row_bytes >= BLOCK ? BLOCK : BLOCK % row_bytes;
    for (int64_t p = block - row_start; block + BLOCK <= pad_end; block += BLOCK) {
        put(block, pad_at(pad, row_pattern, p), nontemporal);
        if ((p += step) >= row_bytes) p -= row_bytes;
    }
    return block;
}

#endif

/* The blocks from `block` (64-byte aligned) up to `stop` of the batch of `count` rows at
 * `out`, block by block. Without STREAM_BORDERS (CONSTANT) the borders are the pad pattern
 * a block starts from. */
static inline __attribute__((always_inline, target(STREAM_TARGET))) void
walk_blocks(const ndpad_stream *st, const char *in, const int64_t *rows, int64_t count, char *out,
            char *block, const char *stop, __m512i pad, const uint8_t *row_pattern,
            bool nontemporal)
{
    const int64_t row_bytes = st->row_bytes, left = st->left_bytes, end_in = st->interior_end;
    char *const end = out + count * row_bytes;
    /* the first row that meets the block (no division for the batch's first block) */
    int64_t i = block - out >= row_bytes ? (block - out) / row_bytes : 0;
    char *row_start = out + i * row_bytes;
    while (block < stop) {
        while (row_start + row_bytes <= block) i++, row_start += row_bytes;
        int64_t p = block - row_start;
        if (p >= left && p + BLOCK <= end_in && rows[i] != NDPAD_STREAM_PAD_ROW && block >= out) {
            /* Whole blocks inside row i's interior: a copy loop. */
            block = copy_blocks(block, in + rows[i] + st->src_interior + (p - left),
                                (end_in - p) / BLOCK, nontemporal);
            continue;
        }
#if !STREAM_BORDERS
        if (block >= out && (rows[i] == NDPAD_STREAM_PAD_ROW || p >= end_in || p < left)) {
            char *after =
                pad_blocks(st, rows, count, out, i, block, stop, pad, row_pattern, nontemporal);
            if (after != block) {
                block = after;
                continue;
            }
        }
#endif
        if (p >= left && p + BLOCK > row_bytes && p + BLOCK - row_bytes <= end_in &&
            i + 1 < count && rows[i] != NDPAD_STREAM_PAD_ROW &&
            rows[i + 1] != NDPAD_STREAM_PAD_ROW && block >= out && block + BLOCK <= end) {
            /* The seam of two rows, the block every row of a few hundred bytes has: the end
             * of row i (its interior's tail, its right border) and the start of row i + 1
             * (its left border, its interior's head), nothing else. Straight-line code
             * (volume case 74 -> 62 us, 1.58 -> 1.38 of memcpy): the loop below serves every
             * other block. */
            const char *a = in + rows[i], *b = in + rows[i + 1];
            const int64_t q = p - row_bytes; /* row i + 1 starts at lane -q */
            const uint64_t tail = lanes(0, end_in - p), head = lanes(left - q, BLOCK);
            __m512i v =
                _mm512_or_si512(_mm512_maskz_loadu_epi8(tail, a + st->src_interior + (p - left)),
                                _mm512_maskz_loadu_epi8(head, b + st->src_interior + (q - left)));
#if STREAM_BORDERS
            if (end_in < row_bytes)
                v = border(v, a, st->right_window, st->right_window_mask,
                           NDPAD_STREAM_TABLE(st, right_index, uint8_t),
                           NDPAD_STREAM_TABLE(st, right_mask, uint64_t), p - (end_in - BLOCK + 1));
            if (left > 0)
                v = border(v, b, st->left_window, st->left_window_mask,
                           NDPAD_STREAM_TABLE(st, left_index, uint8_t),
                           NDPAD_STREAM_TABLE(st, left_mask, uint64_t), q + BLOCK - 1);
#else
            v = _mm512_mask_blend_epi8(tail | head, pad_at(pad, row_pattern, p), v);
#endif
            put(block, v, nontemporal);
            block += BLOCK;
            continue;
        }
        __m512i v = pad_at(pad, row_pattern, p);
        const char *rs = row_start;
        for (int64_t j = i; j < count && rs < block + BLOCK; j++, rs += row_bytes, p -= row_bytes) {
            const char *src = ndpad_stream_source(in, rows, j);
            if (src == NULL) continue; /* a pad row: the pattern is already there */
            const uint64_t m = lanes(left - p, end_in - p);
            if (m != 0) v = _mm512_mask_loadu_epi8(v, m, src + st->src_interior + (p - left));
#if STREAM_BORDERS
            {
                if (p < left && left > 0)
                    v = border(v, src, st->left_window, st->left_window_mask,
                               NDPAD_STREAM_TABLE(st, left_index, uint8_t),
                               NDPAD_STREAM_TABLE(st, left_mask, uint64_t), p + BLOCK - 1);
                if (p + BLOCK > end_in && end_in < row_bytes)
                    v = border(v, src, st->right_window, st->right_window_mask,
                               NDPAD_STREAM_TABLE(st, right_index, uint8_t),
                               NDPAD_STREAM_TABLE(st, right_mask, uint64_t),
                               p - (end_in - BLOCK + 1));
            }
#endif
        }
        const uint64_t store = lanes(out - block, end - block);
        if (store != ~(uint64_t)0)
            _mm512_mask_storeu_epi8(block, store, v);
        else
            put(block, v, nontemporal);
        block += BLOCK;
    }
}

/* The whole blocks of a batch: the kind's block loop (has_block_loop, block_loop). */
#if STREAM_BORDERS
#include "kernels/avx512/stream-blocks-borders-avx512.h"
#else
#include "kernels/avx512/stream-blocks-constant-avx512.h"
#endif

/* The batch: every store a whole aligned block but a partial one at either end; streaming
 * stores fenced once at its end. */
static inline __attribute__((always_inline, target(STREAM_TARGET))) void
stream_rows(const ndpad_stream *st, const char *in, const int64_t *rows, int64_t count, char *out,
            bool nontemporal)
{
    char *const end = out + count * st->row_bytes;
    char *block = (char *)((uintptr_t)out & ~(uintptr_t)(BLOCK - 1));
    /* the pad pattern at the phase of the aligned blocks: block - out mod elem_size (which
     * divides 64), with out - block in [0, 64) */
    const int64_t phase = STREAM_BORDERS ? 0 : (64 - (out - block)) % st->elem_size;
    const __m512i pad = STREAM_BORDERS ? _mm512_setzero_si512()
                                       : _mm512_loadu_si512((const void *)(st->pad + phase));
    const uint8_t *const row_pattern =
        STREAM_BORDERS ? NULL : (const uint8_t *)ndpad_stream_table(st, st->row_pattern);
    char *const first = block < out ? block + BLOCK : block;
    if (has_block_loop(st) && end > first) {
        /* the whole blocks by the block loop, a partial one at either end by the walk */
        const int64_t blocks = (end - first) / BLOCK;
        walk_blocks(st, in, rows, count, out, block, first, pad, row_pattern, nontemporal);
        block_loop(st, in, rows, count, out, first, blocks, pad, nontemporal);
        block = first + blocks * BLOCK;
    }
    walk_blocks(st, in, rows, count, out, block, end, pad, row_pattern, nontemporal);
    if (nontemporal) _mm_sfence();
}

#endif
