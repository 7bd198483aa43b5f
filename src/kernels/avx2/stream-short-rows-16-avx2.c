/* The SHORT_ROWS_16 output-stream kernel (AVX2): a row of at most 64 bytes is up to four
 * 16-byte segments, each one load of a 16-byte window inside its source row (or of the
 * row's 4-byte words, or its first and last 8 bytes, for source rows shorter than that), one pshufb through the plan's
 * byte map, the pad pattern blended in by the same map (0x80 on pad bytes), and one store.
 * A store is full width while it stays inside the batch: what it writes past the row
 * belongs to the rows after it, which are written later. Rows of more than 16 bytes went
 * through the ROWS kernel's moves, a few per border element (512 x 7 x 7 fp32 reflect, one
 * thread: 9x a memcpy). */
#include <immintrin.h>
#include <string.h>

#include "kernels/stream-descriptor.h"

/* How a segment loads its source bytes (stream-plan.h): a 16-byte window inside the source
 * row, the row's 4-byte words, or its first and last 8 (4) bytes. */
enum load { LOAD_WINDOW, LOAD_WORDS, LOAD_EIGHTS, LOAD_FOURS };

/* The 16 bytes of a source row at `src` that its segments permute (`overlap`: the row's
 * bytes, for LOAD_EIGHTS and LOAD_FOURS). */
static inline __attribute__((always_inline, target("avx2"))) __m128i
source_bytes(const char *src, int64_t window, __m128i words, enum load load, int64_t overlap)
{
    if (load == LOAD_WINDOW) return _mm_loadu_si128((const __m128i *)(const void *)(src + window));
    if (load == LOAD_WORDS) return _mm_maskload_epi32((const int *)(const void *)src, words);
    if (load == LOAD_EIGHTS)
        return _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)src),
                                  _mm_loadl_epi64(
                                      (const __m128i *)(const void *)(src + overlap - 8)));
    int32_t first, last;
    memcpy(&first, src, 4);
    memcpy(&last, src + overlap - 4, 4);
    return _mm_unpacklo_epi32(_mm_cvtsi32_si128(first), _mm_cvtsi32_si128(last));
}

/* One row's segment s: from the row's source (NULL: a pad row). */
static inline __attribute__((always_inline, target("avx2"))) __m128i
segment(const char *src, int64_t window, __m128i map, __m128i pad, __m128i words, enum load load,
        int64_t overlap, bool constant)
{
    if (constant && src == NULL) return pad;
    const __m128i w = source_bytes(src, window, words, load, overlap);
    const __m128i v = _mm_shuffle_epi8(w, map);
    return constant ? _mm_blendv_epi8(v, pad, map) : v; /* pad bytes only in CONSTANT */
}

/* The same from two windows of the row, the second at `second` through `map2` (each map
 * zero where the other serves; the modes that read the input). */
static inline __attribute__((always_inline, target("avx2"))) __m128i
segment_of_two(const char *src, int64_t window, int64_t second, __m128i map, __m128i map2)
{
    const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(src + window));
    const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + second));
    return _mm_or_si128(_mm_shuffle_epi8(a, map), _mm_shuffle_epi8(b, map2));
}

/* The rows, `segments` (1 to 4) segments each, `constant` or not, from `two` windows a
 * segment or one: constants where inlined. */
static inline __attribute__((always_inline, target("avx2"))) void
segment_rows(const ndpad_stream *st, const char *in, const int64_t *rows, int64_t count, char *out,
             const enum load load, const int64_t segments, const bool constant, const bool two)
{
    __m128i map[4], map2[4], pad[4];
    int64_t window[4], second[4];
    for (int64_t s = 0; s < segments; s++) {
        map[s] = _mm_loadu_si128((const __m128i *)(const void *)(st->short_map + 16 * s));
        /* rows start on elements; a segment 16 s bytes into the pattern */
        pad[s] = _mm_loadu_si128((const __m128i *)(const void *)(st->pad + 16 * s % st->elem_size));
        window[s] = st->short_segment_window[s];
        map2[s] = _mm_loadu_si128((const __m128i *)(const void *)(st->short_map_second + 16 * s));
        second[s] = st->short_segment_second[s];
    }
    int32_t word_bits[4];
    for (int k = 0; k < 4; k++) word_bits[k] = (st->short_window_mask >> k & 1) ? -1 : 0;
    const __m128i words = _mm_loadu_si128((const __m128i *)(const void *)word_bits);
    const int64_t overlap = st->short_overlap;
    const int64_t row_bytes = st->row_bytes;
    const char *const end = out + count * row_bytes;
    int64_t k = 0;
    /* every segment's store inside the batch (what it writes past the row is the next rows') */
    for (; k < count && end - out >= 16 * segments; k++, out += row_bytes) {
        const char *src = ndpad_stream_source(in, rows, k);
        for (int64_t s = 0; s < segments; s++)
            _mm_storeu_si128((__m128i *)(void *)(out + 16 * s),
                             two ? segment_of_two(src, window[s], second[s], map[s], map2[s])
                                 : segment(src, window[s], map[s], pad[s], words, load, overlap,
                                           constant));
    }
    for (; k < count; k++, out += row_bytes) { /* the batch's last rows: their bytes only */
        const char *src = ndpad_stream_source(in, rows, k);
        for (int64_t s = 0; s < segments && 16 * s < row_bytes; s++) {
            uint8_t bytes[16];
            _mm_storeu_si128((__m128i *)(void *)bytes,
                             two ? segment_of_two(src, window[s], second[s], map[s], map2[s])
                                 : segment(src, window[s], map[s], pad[s], words, load, overlap,
                                           constant));
            memcpy(out + 16 * s, bytes,
                   (size_t)(row_bytes - 16 * s < 16 ? row_bytes - 16 * s : 16));
        }
    }
}

/* segment_rows() for the plan's segments and mode, `load` a constant where inlined. */
static inline __attribute__((always_inline, target("avx2"))) void
rows_loaded(const ndpad_stream *st, const char *in, const int64_t *rows, int64_t count, char *out,
            const enum load load)
{
    const bool c = st->constant;
    switch (st->short_segments) {
    case 1:
        c ? segment_rows(st, in, rows, count, out, load, 1, true, false)
          : segment_rows(st, in, rows, count, out, load, 1, false, false);
        break;
    case 2:
        c ? segment_rows(st, in, rows, count, out, load, 2, true, false)
          : segment_rows(st, in, rows, count, out, load, 2, false, false);
        break;
    case 3:
        c ? segment_rows(st, in, rows, count, out, load, 3, true, false)
          : segment_rows(st, in, rows, count, out, load, 3, false, false);
        break;
    default:
        c ? segment_rows(st, in, rows, count, out, load, 4, true, false)
          : segment_rows(st, in, rows, count, out, load, 4, false, false);
        break;
    }
}

void ndpad_stream_short_rows_16__avx2(const ndpad_stream *st, const char *in, const int64_t *rows,
                                      int64_t count, char *out, bool nontemporal)
{
    (void)nontemporal; /* rows this short stay in the cache */
    if (st->short_two_windows) {
        /* whole windows; never CONSTANT */
        switch (st->short_segments) {
        case 1: segment_rows(st, in, rows, count, out, LOAD_WINDOW, 1, false, true); break;
        case 2: segment_rows(st, in, rows, count, out, LOAD_WINDOW, 2, false, true); break;
        case 3: segment_rows(st, in, rows, count, out, LOAD_WINDOW, 3, false, true); break;
        default: segment_rows(st, in, rows, count, out, LOAD_WINDOW, 4, false, true); break;
        }
    } else if (st->short_window_mask == 0)
        rows_loaded(st, in, rows, count, out, LOAD_WINDOW);
    else if (st->short_overlap == 0)
        rows_loaded(st, in, rows, count, out, LOAD_WORDS);
    else if (st->short_overlap >= 8)
        rows_loaded(st, in, rows, count, out, LOAD_EIGHTS);
    else
        rows_loaded(st, in, rows, count, out, LOAD_FOURS);
}
