/* The body of the PLANES_PERMUTE output-stream kernels (stream-plan.h), included with
 * PERMUTE_TARGET by avx512vbmi/stream-planes-permute-avx512vbmi.c (PERMUTE_BYTES 1: lanes
 * of a byte, vpermt2b) and avx512/stream-planes-permute-avx512.c (PERMUTE_BYTES 0: lanes
 * of 2 or 4 bytes, vpermt2w or vpermt2d, elements being whole lanes): edge, reflect,
 * symmetric and wrap padding of a dense input whose planes are small and rows short, such
 * as the 7 x 7 and 14 x 14 maps of a CNN. Every 64-byte block of the output, whatever
 * rows, borders, pad rows and planes it meets, is one two-source permute of the 128 input
 * bytes its phase's window starts at, by its phase's index, and one aligned
 * store: no per-row work, where the SHORT_ROWS kernel stores each row of 9 to 39 bytes on
 * its own (256 x 7 x 7 uint8 reflect, one thread, back to back: 15x -> 1.4x of a memcpy of
 * the output). The partial blocks at either end of a batch store only their own lanes: the
 * lanes outside belong to another batch, maybe another thread's. */
#ifndef NDPAD_STREAM_PLANES_PERMUTE_AVX512_H
#define NDPAD_STREAM_PLANES_PERMUTE_AVX512_H

#include <immintrin.h>

#include "kernels/stream-descriptor.h"

#define TARGET PERMUTE_TARGET
#define BLOCK  NDPAD_STREAM_BLOCK

/* How planes_permute() stores a whole block. */
enum permute_store { PERMUTE_ALIGNED, PERMUTE_STREAMING, PERMUTE_UNALIGNED };

/* Lanes of `lane` bytes from lo and hi (a 128-byte window) by `lanes`. */
static inline __attribute__((always_inline, target(TARGET))) __m512i
permute2(__m512i lo, __m512i lanes, __m512i hi, int lane)
{
#if PERMUTE_BYTES
    if (lane == 1) return _mm512_permutex2var_epi8(lo, lanes, hi);
#endif
    if (lane == 2) return _mm512_permutex2var_epi16(lo, lanes, hi);
    return _mm512_permutex2var_epi32(lo, lanes, hi);
}

/* The block whose window starts at `w`, by `index`; with `near_end`, the window's bytes
 * from `end` (the input's end) on are not read. */
static inline __attribute__((always_inline, target(TARGET))) __m512i
permute_block(const char *w, const uint8_t *index, const char *end, bool near_end, int lane)
{
    const __m512i lanes = _mm512_loadu_si512((const void *)index);
    if (near_end && w + 2 * BLOCK > end) {
        /* the window ends past the input's: the bytes there are no block's sources */
        const int64_t room = end - w;
        const __m512i lo = _mm512_maskz_loadu_epi8(ndpad_stream_lanes_below(room), w);
        const __m512i hi =
            _mm512_maskz_loadu_epi8(room > BLOCK ? ndpad_stream_lanes_below(room - BLOCK) : 0,
                                    w + BLOCK);
        return permute2(lo, lanes, hi, lane);
    }
    const __m512i lo = _mm512_loadu_si512((const void *)w);
    const __m512i hi = _mm512_loadu_si512((const void *)(w + BLOCK));
    return permute2(lo, lanes, hi, lane);
}

/* `n` whole blocks from `block` on, from phase k's tables on (n does not pass the period's
 * end), the period's input at `base`. */
static inline __attribute__((always_inline, target(TARGET))) char *
permute_run(const ndpad_stream *st, char *block, int64_t n, int64_t k, const char *base,
            const char *end, enum permute_store store, bool near_end, int lane)
{
    const int32_t *window = NDPAD_STREAM_TABLE(st, permute_window, int32_t) + k;
    const uint8_t *index = NDPAD_STREAM_TABLE(st, permute_index, uint8_t) + k * BLOCK;
    for (char *const stop = block + n * BLOCK; block < stop; block += BLOCK, index += BLOCK) {
        const __m512i v = permute_block(base + *window++, index, end, near_end, lane);
        if (store == PERMUTE_STREAMING)
            _mm512_stream_si512((void *)block, v);
        else if (store == PERMUTE_ALIGNED)
            _mm512_store_si512((void *)block, v);
        else
            _mm512_storeu_si512((void *)block, v);
    }
    return block;
}

/* The blocks of `count` rows at `out`, starting at row `first` of the output: they lie
 * every 64 bytes from the output's start (out - first rows). */
static inline __attribute__((always_inline, target(TARGET))) void
planes_permute(const ndpad_stream *st, const char *in, int64_t first, int64_t count, char *out,
               enum permute_store store, int lane)
{
    const int64_t phases = st->plane_phases, before = first * st->row_bytes;
    const int64_t b = before / BLOCK; /* the first block's number from the output's start */
    const char *const end = in + st->plane_in_end;
    char *const stop = out + count * st->row_bytes;
    char *block = out - before % BLOCK;
    int64_t k = b % phases;
    const char *base = in + b / phases * st->permute_period_in;
    if (block < out) {
        const uint64_t lanes =
            ndpad_stream_lanes_below(stop - block) & ~ndpad_stream_lanes_below(out - block);
        const __m512i v = permute_block(base + NDPAD_STREAM_TABLE(st, permute_window, int32_t)[k],
                                        NDPAD_STREAM_TABLE(st, permute_index, uint8_t) + k * BLOCK,
                                        end, true, lane);
        _mm512_mask_storeu_epi8(block, lanes, v);
        block += BLOCK;
        if (++k == phases) k = 0, base += st->permute_period_in;
    }
    for (int64_t blocks = (stop - block) / BLOCK; blocks > 0;) {
        const int64_t n = blocks < phases - k ? blocks : phases - k;
        /* the input's end is checked only in the periods whose windows reach it */
        if (base + st->permute_reach <= end)
            block = permute_run(st, block, n, k, base, end, store, false, lane);
        else
            block = permute_run(st, block, n, k, base, end, store, true, lane);
        blocks -= n;
        k += n;
        if (k == phases) k = 0, base += st->permute_period_in;
    }
    if (block < stop) {
        const __m512i v = permute_block(base + NDPAD_STREAM_TABLE(st, permute_window, int32_t)[k],
                                        NDPAD_STREAM_TABLE(st, permute_index, uint8_t) + k * BLOCK,
                                        end, true, lane);
        _mm512_mask_storeu_epi8(block, ndpad_stream_lanes_below(stop - block), v);
    }
    if (store == PERMUTE_STREAMING) _mm_sfence();
}

/* The batch in lanes of `lane` bytes; streaming stores only where the blocks are aligned. */
static inline __attribute__((always_inline, target(TARGET))) void
planes_permute_lanes(const ndpad_stream *st, const char *in, int64_t first, int64_t count,
                     char *out, bool nontemporal, int lane)
{
    if ((uintptr_t)(out - first * st->row_bytes) % BLOCK != 0)
        planes_permute(st, in, first, count, out, PERMUTE_UNALIGNED, lane);
    else if (nontemporal)
        planes_permute(st, in, first, count, out, PERMUTE_STREAMING, lane);
    else
        planes_permute(st, in, first, count, out, PERMUTE_ALIGNED, lane);
}

/* rows[0]: the batch's first row, not a source offset (kernels.h). */
static inline __attribute__((always_inline, target(TARGET))) void
planes_permute_kernel(const ndpad_stream *st, const char *in, const int64_t *rows, int64_t count,
                      char *out, bool nontemporal)
{
#if PERMUTE_BYTES
    planes_permute_lanes(st, in, rows[0], count, out, nontemporal, 1);
#else
    if (st->permute_lane == 4)
        planes_permute_lanes(st, in, rows[0], count, out, nontemporal, 4);
    else
        planes_permute_lanes(st, in, rows[0], count, out, nontemporal, 2);
#endif
}

#undef TARGET
#undef BLOCK

#endif
