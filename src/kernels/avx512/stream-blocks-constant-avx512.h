/* BLOCKS_CONSTANT (STREAM_BORDERS 0): the whole blocks of a batch of CONSTANT rows of 64
 * bytes or more, constant_blocks() and with row masks constant_row_mask_blocks(), and the
 * block loop of the frame (stream-blocks-avx512.h, which includes this header after its
 * walk). */
#ifndef NDPAD_STREAM_BLOCKS_CONSTANT_AVX512_H
#define NDPAD_STREAM_BLOCKS_CONSTANT_AVX512_H

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
    const uint8_t *row_pattern;
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
        char *after = pad_blocks(st, b->rows, b->count, b->out, i, block, b->stop, b->pad,
                                 b->row_pattern, b->nontemporal);
        if (after != block) return after;
    }
    walk_blocks(st, b->in, b->rows, b->count, b->out, block, block + BLOCK, b->pad, b->row_pattern,
                b->nontemporal);
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
                char *out, char *block, int64_t blocks, __m512i pad, const uint8_t *row_pattern,
                bool nontemporal)
{
    const int64_t row_bytes = st->row_bytes, left = st->left_bytes, end_in = st->interior_end;
    const char *const stop = block + blocks * BLOCK;
    const constant_batch batch = {st, in, rows, count, out, stop, pad, row_pattern, nontemporal};
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
                    put(block, _mm512_mask_loadu_epi8(pad_at(pad, row_pattern, p), tail, src),
                        nontemporal);
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
                    __m512i v = _mm512_mask_loadu_epi8(pad_at(pad, row_pattern, p), tail,
                                                       tail != 0 ? src : next_src);
                    v = _mm512_mask_loadu_epi8(v, ~(uint64_t)0 << head, next_src);
                    put(block, v, nontemporal);
                    block += BLOCK;
                    continue;
                }
            } else if (left - p < BLOCK && p + BLOCK <= end_in) {
                /* row i's left border, then its interior */
                put(block,
                    _mm512_mask_loadu_epi8(pad_at(pad, row_pattern, p), ~(uint64_t)0 << (left - p),
                                           src),
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
                         char *out, char *block, int64_t blocks, __m512i pad,
                         const uint8_t *row_pattern, bool nontemporal)
{
    (void)row_pattern; /* never with row masks (stream/blocks-constant.c) */
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

/* Out of line, one instance per kind of store and pad (see SEAM_BLOCKS_INSTANCE): the one
 * pattern in a register, or the row pattern's table. */
#define CONSTANT_BLOCKS_INSTANCE(name, loop, pattern, nontemporal)                                 \
    static __attribute__((noinline, target(STREAM_TARGET))) void name(const ndpad_stream *st,      \
                                                                      const char *in,              \
                                                                      const int64_t *rows,         \
                                                                      int64_t count, char *out,    \
                                                                      char *block, int64_t blocks, \
                                                                      __m512i pad)                 \
    {                                                                                              \
        loop(st, in, rows, count, out, block, blocks, pad,                                         \
             pattern ? NDPAD_STREAM_TABLE(st, row_pattern, uint8_t) : NULL, nontemporal);          \
    }
CONSTANT_BLOCKS_INSTANCE(constant_blocks_cached, constant_blocks, false, false)
CONSTANT_BLOCKS_INSTANCE(constant_blocks_streaming, constant_blocks, false, true)
CONSTANT_BLOCKS_INSTANCE(constant_pattern_blocks_cached, constant_blocks, true, false)
CONSTANT_BLOCKS_INSTANCE(constant_pattern_blocks_streaming, constant_blocks, true, true)
CONSTANT_BLOCKS_INSTANCE(constant_row_mask_blocks_cached, constant_row_mask_blocks, false, false)
CONSTANT_BLOCKS_INSTANCE(constant_row_mask_blocks_streaming, constant_row_mask_blocks, false, true)
#undef CONSTANT_BLOCKS_INSTANCE

/* Whether a batch's whole blocks go through a block loop (seam_blocks with a seam table,
 * constant_blocks on rows of 64 bytes or more), and that loop's instance for the stores. */
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
    else if (st->row_pattern != 0)
        (nontemporal
             ? constant_pattern_blocks_streaming
             : constant_pattern_blocks_cached)(st, in, rows, count, out, first, blocks, pad);
    else
        (nontemporal ? constant_blocks_streaming : constant_blocks_cached)(st, in, rows, count, out,
                                                                           first, blocks, pad);
}

#endif
