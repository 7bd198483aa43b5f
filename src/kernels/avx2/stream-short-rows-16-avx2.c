/* The SHORT_ROWS_16 output-stream kernel (AVX2): a row of at most 16 bytes is one load of a
 * 16-byte window inside its source row (or of the row's 4-byte words, for source rows
 * shorter than that), one pshufb through the plan's byte map, the pad pattern blended in,
 * and one store. The store is full width while it stays inside the batch: what it writes
 * past the row belongs to the rows after it, which are written later. */
#include <immintrin.h>
#include <string.h>

#include "stream-plan.h"

void ndpad_stream_short_rows_16__avx2(const ndpad_stream *st, const char *in, const int64_t *rows,
                                      int64_t count, char *out, bool nontemporal)
{
    (void)nontemporal; /* rows this short stay in the cache */
    const __m128i map = _mm_loadu_si128((const __m128i *)(const void *)st->short_map);
    const __m128i pad = _mm_loadu_si128((const __m128i *)(const void *)st->pad);
    uint8_t pad_bytes[16];
    for (int k = 0; k < 16; k++) pad_bytes[k] = (st->short_pad_mask >> k & 1) ? 0xFF : 0;
    const __m128i pad_lanes = _mm_loadu_si128((const __m128i *)(const void *)pad_bytes);
    int32_t word_bits[4];
    for (int k = 0; k < 4; k++) word_bits[k] = (st->short_window_mask >> k & 1) ? -1 : 0;
    const __m128i words = _mm_loadu_si128((const __m128i *)(const void *)word_bits);
    const bool whole = st->short_window_mask == 0;
    const int64_t row_bytes = st->row_bytes, window = st->short_window;
    const char *const end = out + count * row_bytes;
    for (int64_t k = 0; k < count; k++, out += row_bytes) {
        const char *src = ndpad_stream_source(in, rows, k);
        __m128i v = pad;
        if (src != NULL) {
            const __m128i w =
                whole ? _mm_loadu_si128((const __m128i *)(const void *)(src + window))
                      : _mm_maskload_epi32((const int *)(const void *)(src + window), words);
            v = _mm_blendv_epi8(_mm_shuffle_epi8(w, map), pad, pad_lanes);
        }
        if (end - out >= 16) {
            _mm_storeu_si128((__m128i *)(void *)out, v);
        } else {
            uint8_t last[16];
            _mm_storeu_si128((__m128i *)(void *)last, v);
            memcpy(out, last, (size_t)row_bytes);
        }
    }
}
