/* The body of the BLOCKS output-stream kernels for AVX-512, included by
 * stream-blocks-constant-avx512.c and avx512vbmi/stream-blocks-avx512vbmi.c with
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
#ifndef NDPAD_STREAM_AVX512_H
#define NDPAD_STREAM_AVX512_H

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

#if !STREAM_BORDERS
/* CONSTANT: from `block`, a pad block of row i (its row in the batch at `out`: a pad row, or
 * a block at row byte p outside the interior), the whole blocks of pad up to `stop`: a left
 * border, or a right border, the pad rows after it and the next input row's left border.
 * Wide borders are a store loop, not a block at a time through the assembly (channel,
 * 800 KB borders, 1 thread: 700 -> 330 us, 1.1 -> 0.58 of a memcpy). Returns the block
 * after them (`block` itself when the pad ends inside it). */
static inline __attribute__((always_inline, target(STREAM_TARGET))) char *
pad_blocks(const ndpad_stream *st, const int64_t *rows, int64_t count, char *out, int64_t i,
           char *block, const char *stop, __m512i pad, bool nontemporal)
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
    for (; block + BLOCK <= pad_end; block += BLOCK) put(block, pad, nontemporal);
    return block;
}

#endif

/* The blocks from `block` (64-byte aligned) up to `stop` of the batch of `count` rows at
 * `out`, block by block. Without STREAM_BORDERS (CONSTANT) the borders are the pad pattern
 * a block starts from. */
static inline __attribute__((always_inline, target(STREAM_TARGET))) void
walk_blocks(const ndpad_stream *st, const char *in, const int64_t *rows, int64_t count, char *out,
            char *block, const char *stop, __m512i pad, bool nontemporal)
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
            char *after = pad_blocks(st, rows, count, out, i, block, stop, pad, nontemporal);
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
            v = _mm512_mask_blend_epi8(tail | head, pad, v);
#endif
            put(block, v, nontemporal);
            block += BLOCK;
            continue;
        }
        __m512i v = pad;
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

#if STREAM_BORDERS
/* How far past the end of a row's source seam_blocks() prefetches: 128 to 384 bytes gained
 * alike on 5d; 384 cost the volume case (528-byte rows) 2%, 192 nothing. Rows shorter than
 * SEAM_PREFETCH_MIN_ROW_BYTES, with a seam every block or two, do not prefetch: there it
 * cost 7% (128- and 192-byte rows, the kernel alone), where 264- and 272-byte rows gained
 * 9% and 6%, and 256 to 1 KiB ones -2% to +2%. */
#define SEAM_PREFETCH_AHEAD         192
#define SEAM_PREFETCH_MIN_ROW_BYTES 256

/* `blocks` whole blocks of the batch from `block` on, with a seam table: each one a copy
 * from inside its row or one seam permute (two with `far`). The walk above decides the
 * same per block, but after more tests than a row of four blocks can pay for: this loop
 * has one, and runs a row's interior blocks in a copy loop (5d reflect, 264-byte rows, the
 * kernel alone: 127 -> 118 us, a memcpy of its output 114; volume, 528 bytes: 48 -> 46). */
static inline __attribute__((always_inline, target(STREAM_TARGET))) void
seam_blocks(const ndpad_stream *st, const char *in, const int64_t *rows, char *out, char *block,
            int64_t blocks, bool nontemporal, bool far, bool prefetch)
{
    const int64_t row_bytes = st->row_bytes, left = st->left_bytes, end_in = st->interior_end;
    const int64_t ends = st->seam_ends;
    /* The input plus each place a row is read from: a row's offset then indexes each, as a
     * list of pointers did. Opaque to the compiler, which otherwise folds them back into
     * `in` plus constants, spilled and added per use (conv reflect, streaming stores, the
     * kernel alone: 5% slower than with pointers). Not in wrap's loop, which has two more
     * loads per seam: there the barrier itself cost 25% (conv wrap, the kernel alone). */
    const char *copy_base = in + (st->src_interior - left);
    const char *tail_base = in + st->tail_window, *head_base = in + st->head_window;
    if (!far) __asm__("" : "+r"(copy_base), "+r"(tail_base), "+r"(head_base));
    const uint8_t *const seam_index = NDPAD_STREAM_TABLE(st, seam_index, uint8_t),
                         *const far_index = NDPAD_STREAM_TABLE(st, seam_far_index, uint8_t);
    const uint64_t *const far_mask = NDPAD_STREAM_TABLE(st, seam_far_mask, uint64_t);
    const char *const stop = block + blocks * BLOCK;
    int64_t i = block - out >= row_bytes ? (block - out) / row_bytes : 0;
    const char *row_start = out + i * row_bytes;
    while (block < stop) {
        if (row_start + row_bytes <= block) i++, row_start += row_bytes; /* rows >= 64 B */
        const int64_t p = block - row_start;
        if (p >= left && p + BLOCK <= end_in) {
            /* the row's whole blocks from here, up to the batch's last */
            const int64_t n = (end_in - p) / BLOCK, left_in_batch = (stop - block) / BLOCK;
            block = copy_blocks(block, copy_base + rows[i] + p,
                                n < left_in_batch ? n : left_in_batch, nontemporal);
            continue;
        }
        /* a block from the left border lies inside its row (stream-plan.c, seam_map) */
        const int64_t e = p >= left ? row_bytes - 1 - p : ends + p;
        /* no pad rows: the modes with a seam table read the input on every row */
        const int64_t this_row = rows[i], next_row = rows[i + (p + BLOCK > row_bytes)];
        const __m512i tail = _mm512_loadu_si512((const void *)(tail_base + this_row));
        const __m512i head = _mm512_loadu_si512((const void *)(head_base + next_row));
        const __m512i idx = _mm512_load_si512((const void *)(seam_index + e * BLOCK));
        /* Into L1, the source a few lines past this row's end: without it, short rows
         * waited on their loads (5d reflect, 264-byte rows, the kernel alone: 1.11 -> 1.05
         * of a memcpy of its output; into L2 only, no gain). A prefetch never faults. */
        if (prefetch) __builtin_prefetch(tail_base + this_row + SEAM_PREFETCH_AHEAD, 0, 3);
        __m512i v = _mm512_permutex2var_epi8(tail, idx, head);
        if (far && far_mask[e] != 0) {
            const __m512i far_idx = _mm512_load_si512((const void *)(far_index + e * BLOCK));
            const __m512i this_head = _mm512_loadu_si512((const void *)(head_base + this_row));
            const __m512i next_tail = _mm512_loadu_si512((const void *)(tail_base + next_row));
            v = _mm512_mask_blend_epi8(far_mask[e], v,
                                       _mm512_permutex2var_epi8(this_head, far_idx, next_tail));
        }
        put(block, v, nontemporal);
        block += BLOCK;
    }
}

/* Out of line, one instance per kind of store, of seam and of row (short rows do not
 * prefetch; far seams come only on rows of 512 bytes or more): each loop keeps its values in
 * registers (a first version inlined into the walk spilled them). */
#define SEAM_BLOCKS_INSTANCE(name, nontemporal, far, prefetch)                                     \
    static __attribute__((noinline, target(STREAM_TARGET))) void name(const ndpad_stream *st,      \
                                                                      const char *in,              \
                                                                      const int64_t *rows,         \
                                                                      char *out, char *block,      \
                                                                      int64_t blocks)              \
    {                                                                                              \
        seam_blocks(st, in, rows, out, block, blocks, nontemporal, far, prefetch);                 \
    }
SEAM_BLOCKS_INSTANCE(seam_blocks_cached, false, false, true)
SEAM_BLOCKS_INSTANCE(seam_blocks_cached_short, false, false, false)
SEAM_BLOCKS_INSTANCE(seam_blocks_cached_far, false, true, true)
SEAM_BLOCKS_INSTANCE(seam_blocks_streaming, true, false, true)
SEAM_BLOCKS_INSTANCE(seam_blocks_streaming_short, true, false, false)
SEAM_BLOCKS_INSTANCE(seam_blocks_streaming_far, true, true, true)
#undef SEAM_BLOCKS_INSTANCE
#endif

#if !STREAM_BORDERS
/* What constant_other() needs besides the block: in one place, so that the loop calling it
 * keeps only the address of this in a register, not seven values. */
typedef struct constant_batch {
    const ndpad_stream *st;
    const char *in;
    const int64_t *rows;
    int64_t count;
    char *out;
    const char *stop;
    __m512i pad;
    bool nontemporal;
} constant_batch;

/* CONSTANT, rows of 64 bytes or more: the block at `block` of row i (starting at output
 * byte `row_start`) that is neither a copy from inside its row nor a seam of
 * constant_blocks(): a run of pad, else (a block meeting a pad row or a wide border) the
 * walk's assembly of one block. Returns the block after what it wrote. Out of line: the
 * common loop keeps its values in registers. */
static __attribute__((noinline, target(STREAM_TARGET))) char *
constant_other(const constant_batch *b, int64_t i, const char *row_start, char *block)
{
    const ndpad_stream *st = b->st;
    const int64_t p = block - row_start;
    if (b->rows[i] == NDPAD_STREAM_PAD_ROW || p >= st->interior_end || p < st->left_bytes) {
        char *after =
            pad_blocks(st, b->rows, b->count, b->out, i, block, b->stop, b->pad, b->nontemporal);
        if (after != block) return after;
    }
    walk_blocks(st, b->in, b->rows, b->count, b->out, block, block + BLOCK, b->pad, b->nontemporal);
    return block + BLOCK;
}

/* CONSTANT, rows of 64 bytes or more: `blocks` whole blocks of the batch from `block` on,
 * each a copy from inside its row; the end of an input row (its interior's tail, pad, and
 * the next input row's head where the block reaches it) or the start of one (pad, then its
 * interior's head): one or two masked loads over the pad pattern, each mask one shift; or
 * (constant_other) a run of pad or a block of another shape. The walk decides the same per
 * block after more tests (fp16 1x64x256x256, 516-byte rows, 2 threads, the kernel alone:
 * 119 -> 111 us, a memcpy of its output 102). Masks from lanes() and the rare paths inline
 * cost a tenth more again (fp16, 1 MB of output, the kernel alone: 1.13 -> 1.04 of a
 * memcpy; the benchmark's fp16 at 2 threads, back to back: 1.12 -> 1.03). */
static inline __attribute__((always_inline, target(STREAM_TARGET))) void
constant_blocks(const ndpad_stream *st, const char *in, const int64_t *rows, int64_t count,
                char *out, char *block, int64_t blocks, __m512i pad, bool nontemporal)
{
    const int64_t row_bytes = st->row_bytes, left = st->left_bytes, end_in = st->interior_end;
    const char *const stop = block + blocks * BLOCK;
    const constant_batch batch = {st, in, rows, count, out, stop, pad, nontemporal};
    /* rows' offsets index this, as in seam_blocks */
    const char *copy_base = in + (st->src_interior - left);
    __asm__("" : "+r"(copy_base));
    int64_t i = block - out >= row_bytes ? (block - out) / row_bytes : 0;
    const int64_t *row = rows + i;
    const char *row_start = out + i * row_bytes;
    while (block < stop) {
        /* a copy run or a seam block ends at most one row on (rows >= 64 B) */
        if (row_start + row_bytes <= block) row++, row_start += row_bytes;
        const int64_t p = block - row_start;
        const int64_t this_row = row[0];
        if (__builtin_expect(this_row != NDPAD_STREAM_PAD_ROW, 1)) {
            const char *const src = copy_base + this_row + p;
            if (p >= left) {
                if (p + BLOCK <= end_in) {
                    const int64_t n = (end_in - p) / BLOCK, left_in_batch = (stop - block) / BLOCK;
                    block =
                        copy_blocks(block, src, n < left_in_batch ? n : left_in_batch, nontemporal);
                    continue;
                }
                /* The end of row i: its interior's lanes [0, end_in - p), if any, then pad,
                 * then from lane `head` (if under 64) row i + 1's interior, which fills the
                 * rest of the block when end_in >= 64. */
                const int64_t head = row_bytes + left - p;
                const uint64_t tail = p < end_in ? ((uint64_t)1 << (end_in - p)) - 1 : 0;
                if (head >= BLOCK && tail != 0) {
                    put(block, _mm512_mask_loadu_epi8(pad, tail, src), nontemporal);
                    block += BLOCK;
                    continue;
                }
                int64_t next_row; /* head < 64: the block ends in row i + 1, in the batch */
                if (head < BLOCK && end_in >= BLOCK &&
                    (next_row = row[1]) != NDPAD_STREAM_PAD_ROW) {
                    const char *const next_src = copy_base + next_row + (p - row_bytes);
                    /* A load with no lanes still reads at an address the other one reads:
                     * one past the row's end may be near address 0 (a fault-suppression
                     * assist of hundreds of cycles: fp16 ran at half speed), and one at
                     * the pad pattern, which spans two lines, cost conv's rows 20%. */
                    __m512i v = _mm512_mask_loadu_epi8(pad, tail, tail != 0 ? src : next_src);
                    v = _mm512_mask_loadu_epi8(v, ~(uint64_t)0 << head, next_src);
                    put(block, v, nontemporal);
                    block += BLOCK;
                    continue;
                }
            } else if (left - p < BLOCK && p + BLOCK <= end_in) {
                /* row i's left border, then its interior */
                put(block, _mm512_mask_loadu_epi8(pad, ~(uint64_t)0 << (left - p), src),
                    nontemporal);
                block += BLOCK;
                continue;
            }
        }
        block = constant_other(&batch, row - rows, row_start, block);
        /* maybe many pad rows on: all but the last row step here */
        while (row_start + 2 * row_bytes <= block) row++, row_start += row_bytes;
    }
}

/* Rows constant_row_mask_blocks() looks ahead for a run: the whole list of a tile, read
 * before its first block, had 128-byte rows run 10% slower (4 MiB, one thread). */
#define CONSTANT_RUN_ROWS 64

/* The last row of the run from row j (an input row) on, before `j_max`: the rows after j
 * that are input rows `step` bytes after the one before. Eight rows a compare (a row at a
 * time cost 128-byte rows a tenth). */
static inline __attribute__((always_inline, target(STREAM_TARGET))) int64_t
run_end(const int64_t *rows, int64_t j, int64_t j_max, uint64_t step)
{
    const __m512i steps = _mm512_set1_epi64((int64_t)step);
    const __m512i pad_rows = _mm512_set1_epi64(NDPAD_STREAM_PAD_ROW);
    for (; j + 8 < j_max; j += 8) {
        const __m512i a = _mm512_loadu_si512((const void *)(rows + j));
        const __m512i b = _mm512_loadu_si512((const void *)(rows + j + 1));
        const __mmask8 ends = _mm512_cmpneq_epi64_mask(_mm512_sub_epi64(b, a), steps) |
                              _mm512_cmpeq_epi64_mask(b, pad_rows);
        if (ends != 0) return j + __builtin_ctz(ends);
    }
    while (j + 1 < j_max && rows[j + 1] != NDPAD_STREAM_PAD_ROW &&
           (uint64_t)rows[j + 1] - (uint64_t)rows[j] == step)
        j++;
    return j;
}

/* CONSTANT, rows of 64 to 511 bytes (the plan's row_masks): `blocks` whole blocks of the
 * batch from `block` on, each a masked load of row i's interior over the pad pattern and,
 * where the block meets it, one of row i + 1's, at the lanes the table gives for the
 * block's place in row i. Over a run of input rows one step apart in the input (the rows of
 * a plane) that is all a block costs: no tests of where it lies, where constant_blocks()
 * spends more on them than on the copies its seams leave (the kernels alone, one thread,
 * ratio to a memcpy, with two loads a block: 4 MiB of 96-byte rows 1.7-2.1 -> 1.4-1.8,
 * 256-byte 1.3-1.5 -> 1.2; 128 x 28 x 28 fp32 padded by 1, a pad row at either end of every
 * plane, 2.1 -> 1.4; 128-byte rows, two blocks each, 1.2 -> 1.3). Next to a pad row a
 * block reads one row, or none. */
static inline __attribute__((always_inline, target(STREAM_TARGET))) void
constant_row_mask_blocks(const ndpad_stream *st, const char *in, const int64_t *rows, int64_t count,
                         char *out, char *block, int64_t blocks, __m512i pad, bool nontemporal)
{
    const int64_t row_bytes = st->row_bytes;
    const char *const stop = block + blocks * BLOCK;
    /* rows' offsets index this, as in seam_blocks */
    const char *copy_base = in + (st->src_interior - st->left_bytes);
    __asm__("" : "+r"(copy_base));
    /* the expand entries' lanes are the elements' where the batch starts on a 4-byte
     * boundary (blocks are 64-byte aligned) */
    const bool expand = st->row_expand != 0 && ((uintptr_t)out & 3) == 0;
    const char *const expand_base = in + st->src_interior;
    const int64_t interior = st->interior_end - st->left_bytes;
    int64_t i = block - out >= row_bytes ? (block - out) / row_bytes : 0;
    int64_t p = block - (out + i * row_bytes); /* the block's place in row i */
    while (block < stop) {
        const int64_t this_row = rows[i];
        const int64_t next_row = i + 1 < count ? rows[i + 1] : NDPAD_STREAM_PAD_ROW;
        const uint64_t *mask = NDPAD_STREAM_TABLE(st, row_masks, uint64_t) + 2 * p;
        const int64_t room = (stop - block) / BLOCK;
        if (this_row != NDPAD_STREAM_PAD_ROW && next_row != NDPAD_STREAM_PAD_ROW) {
            /* The blocks of rows i .. j - 1 where rows i .. j lie one `step` apart in the
             * input: a block of row k reads row k + 1 `step` bytes after row k. */
            const uint64_t step = (uint64_t)next_row - (uint64_t)this_row; /* may not fit */
            const int64_t j_max = count - i > CONSTANT_RUN_ROWS ? i + CONSTANT_RUN_ROWS : count;
            const int64_t j = run_end(rows, i + 1, j_max, step);
            const int64_t n = (out + j * row_bytes - block + BLOCK - 1) / BLOCK;
            const char *const last = block + (n < room ? n : room) * BLOCK;
            if (expand && step == (uint64_t)interior) {
                /* Rows back to back in the input: a block's interior bytes are one run of
                 * it, one masked load expanded into the block's lanes (feature, 120-byte
                 * rows, the kernel alone, one thread: 1.19 -> 1.11 of a memcpy). */
                const char *src = expand_base + this_row;
                const uint64_t *x = NDPAD_STREAM_TABLE(st, row_expand, uint64_t) + p / 4;
                for (; block < last; block += BLOCK) {
                    const uint64_t e = *x;
                    const __m512i w =
                        _mm512_maskz_loadu_epi32((__mmask16)(e >> 16), src + (e >> 32));
                    put(block, _mm512_mask_expand_epi32(pad, (__mmask16)e, w), nontemporal);
                    x += BLOCK / 4, p += BLOCK;
                    if (p >= row_bytes) src += interior, x -= row_bytes / 4, p -= row_bytes, i++;
                }
                continue;
            }
            /* row i's lanes from here on, row i + 1's from `next` bytes further */
            const char *src = copy_base + this_row + p;
            const int64_t next = (int64_t)step - row_bytes;
            for (; block < last; block += BLOCK) {
                __m512i v = _mm512_mask_loadu_epi8(pad, mask[0], src);
                /* most blocks meet one row's interior: a second load costs more than the
                 * branch, whose pattern repeats with the row (3-11%, 72- to 508-byte rows) */
                if (mask[1] != 0) v = _mm512_mask_loadu_epi8(v, mask[1], src + next);
                put(block, v, nontemporal);
                src += BLOCK, mask += 2 * BLOCK, p += BLOCK;
                if (p >= row_bytes) src += next, mask -= 2 * row_bytes, p -= row_bytes, i++;
            }
            continue;
        }
        /* Row i alone, next to a pad row (or the batch's end): the lanes of a pad row are
         * the pattern's, so a block reads one row or none. */
        const int64_t n = (out + (i + 1) * row_bytes - block + BLOCK - 1) / BLOCK;
        const char *const last = block + (n < room ? n : room) * BLOCK;
        const int64_t blocks_here = (last - block) / BLOCK;
        if (this_row != NDPAD_STREAM_PAD_ROW) {
            const char *src = copy_base + this_row + p;
            for (; block < last; block += BLOCK, src += BLOCK, mask += 2 * BLOCK)
                put(block, _mm512_mask_loadu_epi8(pad, mask[0], src), nontemporal);
        } else if (next_row != NDPAD_STREAM_PAD_ROW) {
            const char *src = copy_base + next_row - row_bytes + p;
            for (; block < last; block += BLOCK, src += BLOCK, mask += 2 * BLOCK)
                put(block, _mm512_mask_loadu_epi8(pad, mask[1], src), nontemporal);
        } else {
            for (; block < last; block += BLOCK) put(block, pad, nontemporal);
        }
        p += blocks_here * BLOCK;
        while (p >= row_bytes) p -= row_bytes, i++;
    }
}

/* Out of line, one instance per kind of store (see SEAM_BLOCKS_INSTANCE). */
#define CONSTANT_BLOCKS_INSTANCE(name, loop, nontemporal)                                          \
    static __attribute__((noinline, target(STREAM_TARGET))) void name(const ndpad_stream *st,      \
                                                                      const char *in,              \
                                                                      const int64_t *rows,         \
                                                                      int64_t count, char *out,    \
                                                                      char *block, int64_t blocks, \
                                                                      __m512i pad)                 \
    {                                                                                              \
        loop(st, in, rows, count, out, block, blocks, pad, nontemporal);                           \
    }
CONSTANT_BLOCKS_INSTANCE(constant_blocks_cached, constant_blocks, false)
CONSTANT_BLOCKS_INSTANCE(constant_blocks_streaming, constant_blocks, true)
CONSTANT_BLOCKS_INSTANCE(constant_row_mask_blocks_cached, constant_row_mask_blocks, false)
CONSTANT_BLOCKS_INSTANCE(constant_row_mask_blocks_streaming, constant_row_mask_blocks, true)
#undef CONSTANT_BLOCKS_INSTANCE
#endif

/* Whether a batch's whole blocks go through a block loop (seam_blocks with a seam table,
 * constant_blocks on rows of 64 bytes or more), and that loop's instance for the stores. */
#if STREAM_BORDERS
static inline bool has_block_loop(const ndpad_stream *st)
{
    return st->seam_index != 0;
}

static inline __attribute__((always_inline, target(STREAM_TARGET))) void
block_loop(const ndpad_stream *st, const char *in, const int64_t *rows, int64_t count, char *out,
           char *first, int64_t blocks, __m512i pad, bool nontemporal)
{
    (void)count, (void)pad;
    const bool far = st->seam_far_index != 0;
    const bool short_rows = st->row_bytes < SEAM_PREFETCH_MIN_ROW_BYTES;
    if (nontemporal)
        (far          ? seam_blocks_streaming_far
         : short_rows ? seam_blocks_streaming_short
                      : seam_blocks_streaming)(st, in, rows, out, first, blocks);
    else
        (far          ? seam_blocks_cached_far
         : short_rows ? seam_blocks_cached_short
                      : seam_blocks_cached)(st, in, rows, out, first, blocks);
}
#else
static inline bool has_block_loop(const ndpad_stream *st)
{
    return st->row_bytes >= BLOCK;
}

static inline __attribute__((always_inline, target(STREAM_TARGET))) void
block_loop(const ndpad_stream *st, const char *in, const int64_t *rows, int64_t count, char *out,
           char *first, int64_t blocks, __m512i pad, bool nontemporal)
{
    if (st->row_masks != 0)
        (nontemporal
             ? constant_row_mask_blocks_streaming
             : constant_row_mask_blocks_cached)(st, in, rows, count, out, first, blocks, pad);
    else
        (nontemporal ? constant_blocks_streaming : constant_blocks_cached)(st, in, rows, count, out,
                                                                           first, blocks, pad);
}
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
    char *const first = block < out ? block + BLOCK : block;
    if (has_block_loop(st) && end > first) {
        /* the whole blocks by the block loop, a partial one at either end by the walk */
        const int64_t blocks = (end - first) / BLOCK;
        walk_blocks(st, in, rows, count, out, block, first, pad, nontemporal);
        block_loop(st, in, rows, count, out, first, blocks, pad, nontemporal);
        block = first + blocks * BLOCK;
    }
    walk_blocks(st, in, rows, count, out, block, end, pad, nontemporal);
    if (nontemporal) _mm_sfence();
}

#endif
