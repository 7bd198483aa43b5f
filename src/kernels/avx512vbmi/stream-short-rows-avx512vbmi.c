/* The SHORT_ROWS output-stream kernel (AVX-512 BW + VBMI): a row of at most 64 bytes is one
 * masked load of the bytes it reads from its source row, one vpermb through the plan's byte
 * map, the pad pattern blended in, and one store. The store is full width while it stays
 * inside the batch: what it writes past the row belongs to the rows after it, which are
 * written later; the batch's last rows are masked to their bytes. */
#include <immintrin.h>

#include "stream-plan.h"

void ndpad_stream_short_rows__avx512vbmi(const ndpad_stream *st, const char *in,
                                         const int64_t *rows, int64_t count, char *out,
                                         bool nontemporal)
{
    (void)nontemporal; /* rows this short stay in the cache */
    const __m512i map = _mm512_loadu_si512((const void *)st->short_map);
    const __m512i pad = _mm512_loadu_si512((const void *)st->pad); /* rows start on elements */
    const __mmask64 window_mask = st->short_window_mask, pad_mask = st->short_pad_mask;
    const int64_t row_bytes = st->row_bytes, window = st->short_window;
    const __mmask64 row_mask = _cvtu64_mask64(
        row_bytes >= NDPAD_STREAM_BLOCK ? ~(uint64_t)0 : ((uint64_t)1 << row_bytes) - 1);
    const char *const end = out + count * row_bytes;
    for (int64_t k = 0; k < count; k++, out += row_bytes) {
        const char *src = ndpad_stream_source(in, rows, k);
        __m512i v = pad;
        if (src != NULL) {
            const __m512i w = _mm512_maskz_loadu_epi8(window_mask, src + window);
            v = _mm512_mask_mov_epi8(_mm512_permutexvar_epi8(map, w), pad_mask, pad);
        }
        if (end - out >= NDPAD_STREAM_BLOCK)
            _mm512_storeu_si512((void *)out, v);
        else
            _mm512_mask_storeu_epi8(out, row_mask, v);
    }
}
