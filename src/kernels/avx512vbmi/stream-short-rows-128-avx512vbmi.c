/* The SHORT_ROWS_128 output-stream kernel (AVX-512 BW + VBMI), for the modes that read the
 * input: a row of 65 to 128 bytes is two masked loads of the bytes it reads from its source
 * row (a 128-byte window), two two-source permutes (vpermt2b) through the plan's byte map,
 * one for each half of the row, and two stores. The second store is full width while it
 * stays inside the batch (what it writes past the row belongs to the next rows, written
 * later); the batch's last row is masked to its bytes. Rows this short, whose source rows
 * are under 64 bytes or whose borders the seam table cannot serve, otherwise go through the
 * ROWS kernel's moves, a few per border element. */
#include <immintrin.h>

#include "stream-plan.h"

void ndpad_stream_short_rows_128__avx512vbmi(const ndpad_stream *st, const char *in,
                                             const int64_t *rows, int64_t count, char *out,
                                             bool nontemporal)
{
    (void)nontemporal; /* rows this short stay in the cache */
    const __m512i map_lo = _mm512_loadu_si512((const void *)st->wide_map);
    const __m512i map_hi = _mm512_loadu_si512((const void *)(st->wide_map + NDPAD_STREAM_BLOCK));
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
        _mm512_storeu_si512((void *)out, _mm512_permutex2var_epi8(w0, map_lo, w1));
        const __m512i v = _mm512_permutex2var_epi8(w0, map_hi, w1);
        if (end - out >= 2 * NDPAD_STREAM_BLOCK)
            _mm512_storeu_si512((void *)(out + NDPAD_STREAM_BLOCK), v);
        else
            _mm512_mask_storeu_epi8(out + NDPAD_STREAM_BLOCK, row_hi, v);
    }
}
