/* The body of the SHORT_ROWS_128 output-stream kernels (stream-plan.h), for the modes that
 * read the input, included by avx512vbmi/stream-short-rows-128-avx512vbmi.c (SR128_LANE 1:
 * vpermt2b, any element size) and avx512/stream-short-rows-128-avx512.c (SR128_LANE 4:
 * vpermt2d, elements of whole 4-byte lanes) with SR128_TARGET: a row of 65 to 128 bytes is
 * two masked loads of the bytes it reads from its source row (a 128-byte window), two
 * two-source permutes through the plan's map, one for each half of the row, and two
 * stores. The second store is full width while it stays inside the batch (what it writes
 * past the row belongs to the next rows, written later); the batch's last row is masked to
 * its bytes. Rows this short, whose source rows are under 64 bytes or whose borders the seam
 * table cannot serve, otherwise go through the ROWS kernel's moves, a few per border
 * element (76 x 34 x 15 fp32 reflect, 68-byte rows, one thread: 2.4-2.7x -> 1.6-1.8x of a
 * memcpy; 120-byte rows 1.5x -> 1.0-1.15x). */
#ifndef NDPAD_STREAM_SHORT_ROWS_128_AVX512_H
#define NDPAD_STREAM_SHORT_ROWS_128_AVX512_H

#include <immintrin.h>

#include "kernels/stream-descriptor.h"

#if SR128_LANE == 1
#define SR128_MAP(st, half)      _mm512_loadu_si512((const void *)((st)->wide_map + 64 * (half)))
#define SR128_PERMUTE(a, map, b) _mm512_permutex2var_epi8(a, map, b)
#else
#define SR128_MAP(st, half)      _mm512_loadu_si512((const void *)((st)->wide_lanes + 16 * (half)))
#define SR128_PERMUTE(a, map, b) _mm512_permutex2var_epi32(a, map, b)
#endif

static inline __attribute__((always_inline, target(SR128_TARGET))) void
short_rows_128(const ndpad_stream *st, const char *in, const int64_t *rows, int64_t count,
               char *out, bool nontemporal)
{
    (void)nontemporal; /* rows this short stay in the cache */
    const __m512i map_lo = SR128_MAP(st, 0), map_hi = SR128_MAP(st, 1);
    const __mmask64 window_lo = _cvtu64_mask64(st->wide_window_mask[0]);
    const __mmask64 window_hi = _cvtu64_mask64(st->wide_window_mask[1]);
    const int64_t row_bytes = st->row_bytes, window = st->short_window;
    const __mmask64 row_hi =
        _cvtu64_mask64(ndpad_stream_lanes_below(row_bytes - NDPAD_STREAM_BLOCK));
    char *const end = out + count * row_bytes;
    for (int64_t k = 0; k < count; k++, out += row_bytes) {
        const char *const src = in + rows[k] + window; /* never a pad row: no CONSTANT */
        const __m512i w0 = _mm512_maskz_loadu_epi8(window_lo, src);
        const __m512i w1 = _mm512_maskz_loadu_epi8(window_hi, src + NDPAD_STREAM_BLOCK);
        _mm512_storeu_si512((void *)out, SR128_PERMUTE(w0, map_lo, w1));
        const __m512i v = SR128_PERMUTE(w0, map_hi, w1);
        if (end - out >= 2 * NDPAD_STREAM_BLOCK)
            _mm512_storeu_si512((void *)(out + NDPAD_STREAM_BLOCK), v);
        else
            _mm512_mask_storeu_epi8(out + NDPAD_STREAM_BLOCK, row_hi, v);
    }
}

#endif
