/* The body of the PLANES output-stream kernels (stream-plan.h), included by
 * avx512/stream-planes-avx512.c (PLANES_LANE 4: vpexpandd, AVX-512 F, elements of whole
 * 4-byte lanes) and avx512vbmi2/stream-planes-avx512vbmi2.c (PLANES_LANE 1: vpexpandb, any
 * element size) with PLANES_TARGET. CONSTANT padding of a dense input whose planes are
 * small, such as the 7 x 7 and 14 x 14 feature maps of a CNN: the output's interior bytes
 * are the input's, in order, so a 64-byte block of the output is the input's next bytes
 * spread over the block's interior lanes, one expanding load (which reads just the bytes it
 * spreads) over the pad pattern and one aligned store, whatever rows, pad rows and planes
 * the block meets. The lanes come from the plan's entries for the blocks' class, read one
 * after another; the input moves on by their bytes. Short rows cost no per-row work at all (512 x 7 x 7
 * uint8, 9-byte rows, one thread: 15x -> 1.1-1.3x of a memcpy of the output). The partial
 * blocks at either end of a batch take only the lanes inside it, and store only those: the
 * lanes before the batch belong to another batch, maybe another thread's. */
#ifndef NDPAD_STREAM_PLANES_AVX512_H
#define NDPAD_STREAM_PLANES_AVX512_H

#include <immintrin.h>

#include "kernels/stream-descriptor.h"

#if PLANES_LANE == 1
/* An entry is the block's byte lanes; it takes as many input bytes. */
#define ENTRY_LANES(e)       (e)
#define ENTRY_BYTES(e)       ((int64_t)__builtin_popcountll(e))
#define EXPAND(pad, m, src)  _mm512_mask_expandloadu_epi8(pad, m, src)
#define STORE_LANES(p, m, v) _mm512_mask_storeu_epi8(p, m, v)
#define LANES_BELOW(bytes)   ndpad_stream_lanes_below(bytes)
#define LANE_BYTES(m)        ((int64_t)__builtin_popcountll(m))
#else
/* An entry is the block's 4-byte lanes (bits 0-15) and the input bytes they take (16-31). */
#define ENTRY_LANES(e)       ((__mmask16)(e))
#define ENTRY_BYTES(e)       ((int64_t)((e) >> 16 & 0xffff))
#define EXPAND(pad, m, src)  _mm512_mask_expandloadu_epi32(pad, m, src)
#define STORE_LANES(p, m, v) _mm512_mask_storeu_epi32(p, (__mmask16)(m), v)
#define LANES_BELOW(bytes)   (ndpad_stream_lanes_below((bytes) / 4) & 0xffff)
#define LANE_BYTES(m)        ((int64_t)4 * __builtin_popcount((unsigned)(m)))
#endif

/* The block at `block`, of entry `e`, `lanes` of it in the batch (interior or pad), from
 * the input at `src`: the input bytes it took. */
static inline __attribute__((always_inline, target(PLANES_TARGET))) int64_t
put_partial(char *block, uint64_t e, uint64_t lanes, const char *src, __m512i pad)
{
    const uint64_t m = ENTRY_LANES(e) & lanes;
    STORE_LANES(block, lanes, EXPAND(pad, m, src));
    return LANE_BYTES(m);
}

/* How planes() stores a whole block. */
enum planes_store { PLANES_ALIGNED, PLANES_STREAMING, PLANES_UNALIGNED };

/* The blocks of `count` rows at `out`, starting at row `first` of the output. The blocks lie
 * every 64 bytes from the output's start (out - first rows), aligned where it is: a block
 * then starts at plane byte 64 k mod plane_bytes, the table's entry k mod plane_entries
 * (stream-plan.h), whichever row a batch starts at. */
static inline __attribute__((always_inline, target(PLANES_TARGET))) void
planes(const ndpad_stream *st, const char *src, int64_t first, int64_t count, char *out,
       enum planes_store store)
{
    const int64_t before = first * st->row_bytes; /* the output's bytes before the batch's */
    char *const end = out + count * st->row_bytes;
    char *block = out - before % NDPAD_STREAM_BLOCK;
    /* the block's place in its plane (a multiple of gcd(64, plane_bytes)), its entry */
    const int64_t f = (before - before % NDPAD_STREAM_BLOCK) % st->plane_bytes;
    const uint64_t *const table = NDPAD_STREAM_TABLE(st, plane_masks, uint64_t),
                          *const table_end = table + st->plane_entries;
    const uint64_t *x = table + f / (st->plane_bytes / st->plane_phases) * st->plane_phase_inverse %
                                    st->plane_phases;
    const __m512i pad = _mm512_loadu_si512((const void *)st->pad); /* elements divide 64 */
    if (block < out) {
        const uint64_t lanes = LANES_BELOW(end - block) & ~LANES_BELOW(out - block);
        src += put_partial(block, *x, lanes, src, pad);
        block += NDPAD_STREAM_BLOCK;
        if (++x == table_end) x = table;
    }
    for (int64_t blocks = (end - block) / NDPAD_STREAM_BLOCK; blocks > 0;) {
        const int64_t n = blocks < table_end - x ? blocks : table_end - x;
        char *const stop = block + n * NDPAD_STREAM_BLOCK;
        for (; block < stop; block += NDPAD_STREAM_BLOCK, x++) {
            const uint64_t e = *x;
            const __m512i v = EXPAND(pad, ENTRY_LANES(e), src);
            if (store == PLANES_STREAMING)
                _mm512_stream_si512((void *)block, v);
            else if (store == PLANES_ALIGNED)
                _mm512_store_si512((void *)block, v);
            else
                _mm512_storeu_si512((void *)block, v);
            src += ENTRY_BYTES(e);
        }
        blocks -= n;
        if (x == table_end) x = table;
    }
    if (block < end) put_partial(block, *x, LANES_BELOW(end - block), src, pad);
    if (store == PLANES_STREAMING) _mm_sfence();
}

/* The kernel: rows rows[0] .. rows[0] + count - 1 (rows[0]: the batch's first row, not a
 * source offset: kernels.h) at `out`; streaming stores only where the blocks are aligned. */
static inline __attribute__((always_inline, target(PLANES_TARGET))) void
planes_kernel(const ndpad_stream *st, const char *in, const int64_t *rows, int64_t count, char *out,
              bool nontemporal)
{
    const int64_t first = rows[0];
    const char *src = in + st->src_interior + first / st->plane_rows * st->plane_in_bytes +
                      NDPAD_STREAM_TABLE(st, plane_in_before, int64_t)[first % st->plane_rows];
    if ((uintptr_t)(out - first * st->row_bytes) % NDPAD_STREAM_BLOCK != 0)
        planes(st, src, first, count, out, PLANES_UNALIGNED);
    else if (nontemporal)
        planes(st, src, first, count, out, PLANES_STREAMING);
    else
        planes(st, src, first, count, out, PLANES_ALIGNED);
}

#endif
