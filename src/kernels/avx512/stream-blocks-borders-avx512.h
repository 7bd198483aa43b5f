/* BLOCKS (the modes that read the input, STREAM_BORDERS 1): the whole blocks of a batch
 * with a seam table, seam_blocks(), and the block loop of the frame
 * (stream-blocks-avx512.h, which includes this header after its walk). */
#ifndef NDPAD_STREAM_BLOCKS_BORDERS_AVX512_H
#define NDPAD_STREAM_BLOCKS_BORDERS_AVX512_H

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

/* Whether a batch's whole blocks go through a block loop (seam_blocks with a seam table,
 * constant_blocks on rows of 64 bytes or more), and that loop's instance for the stores. */
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

#endif
