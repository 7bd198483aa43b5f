/* The SHORT_ROWS output-stream kernel of AVX-512 F (no byte permutes: elements of whole
 * 4-byte lanes, fp32, int32, fp64): a row of at most 64 bytes is one masked load of the
 * bytes it reads from its source row, one vpermd through the plan's lane map, the pad
 * pattern blended in, and one store, full width while it stays inside the batch (what it
 * writes past the row belongs to the rows after it, written later). The VBMI kernel
 * (avx512vbmi/stream-short-rows-avx512vbmi.c) permutes bytes and groups rows; without it
 * these rows took the ROWS kernel's moves, a few per border element (512 x 7 x 7 fp32
 * reflect, one thread: 6.6x a memcpy). */
#include <immintrin.h>

#include "kernels/stream-descriptor.h"

void ndpad_stream_short_rows__avx512(const ndpad_stream *st, const char *in, const int64_t *rows,
                                     int64_t count, char *out, bool nontemporal)
{
    (void)nontemporal; /* rows this short stay in the cache */
    const __m512i lanes = _mm512_loadu_si512((const void *)st->short_lanes);
    const __m512i pad = _mm512_loadu_si512((const void *)st->pad); /* rows start on elements */
    const __mmask64 window_mask = st->short_window_mask, pad_mask = st->short_pad_mask;
    const int64_t row_bytes = st->row_bytes, window = st->short_window;
    const __mmask64 row_mask = _cvtu64_mask64(ndpad_stream_lanes_below(row_bytes));
    const char *const end = out + count * row_bytes;
    for (int64_t k = 0; k < count; k++, out += row_bytes) {
        const char *const src = ndpad_stream_source(in, rows, k);
        __m512i v = pad;
        if (src != NULL) {
            const __m512i w = _mm512_maskz_loadu_epi8(window_mask, src + window);
            v = _mm512_mask_mov_epi8(_mm512_permutexvar_epi32(lanes, w), pad_mask, pad);
        }
        if (end - out >= NDPAD_STREAM_BLOCK)
            _mm512_storeu_si512((void *)out, v);
        else
            _mm512_mask_storeu_epi8(out, row_mask, v);
    }
}
