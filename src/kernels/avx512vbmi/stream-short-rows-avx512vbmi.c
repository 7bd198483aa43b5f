/* The SHORT_ROWS output-stream kernel (AVX-512 BW + VBMI): a row of at most 64 bytes is one
 * masked load of the bytes it reads from its source row, one vpermb through the plan's byte
 * map, the pad pattern blended in, and one store. The store is full width while it stays
 * inside the batch: what it writes past the row belongs to the rows after it, which are
 * written later; the batch's last rows are masked to their bytes. Rows of at most 32 bytes
 * whose sources follow one another in the input (the plan's group, stream-plan.h) go a
 * group at a time: the same four instructions for up to eight rows, after one compare of
 * their sources. */
#include <immintrin.h>

#include "kernels/stream-descriptor.h"

/* `v` at `out`, `room` bytes of the batch from there on: a full store while it stays inside
 * the batch (what it writes past `mask`'s bytes is written again later), else masked. */
static inline __attribute__((always_inline)) void store_within(char *out, __m512i v, int64_t room,
                                                               __mmask64 mask)
{
    if (room >= NDPAD_STREAM_BLOCK)
        _mm512_storeu_si512((void *)out, v);
    else
        _mm512_mask_storeu_epi8(out, mask, v);
}

/* One row at `out`, its source at `src` (NULL: pad), `room` bytes of the batch from `out`
 * on. */
static inline __attribute__((always_inline)) void one_row(char *out, const char *src, int64_t room,
                                                          __m512i map, __m512i pad,
                                                          __mmask64 window_mask, __mmask64 pad_mask,
                                                          int64_t window, __mmask64 row_mask)
{
    __m512i v = pad;
    if (src != NULL) {
        const __m512i w = _mm512_maskz_loadu_epi8(window_mask, src + window);
        v = _mm512_mask_mov_epi8(_mm512_permutexvar_epi8(map, w), pad_mask, pad);
    }
    store_within(out, v, room, row_mask);
}

void ndpad_stream_short_rows__avx512vbmi(const ndpad_stream *st, const char *in,
                                         const int64_t *rows, int64_t count, char *out,
                                         bool nontemporal)
{
    (void)nontemporal; /* rows this short stay in the cache */
    const __m512i map = _mm512_loadu_si512((const void *)st->short_map);
    const __m512i pad = _mm512_loadu_si512((const void *)st->pad); /* rows start on elements */
    const __mmask64 window_mask = st->short_window_mask, pad_mask = st->short_pad_mask;
    const int64_t row_bytes = st->row_bytes, window = st->short_window;
    const __mmask64 row_mask = _cvtu64_mask64(ndpad_stream_lanes_below(row_bytes));
    const char *const end = out + count * row_bytes;
    const int64_t group = st->short_group_rows;
    int64_t k = 0;
    if (group >= 2) {
        const __m512i group_map = _mm512_loadu_si512((const void *)st->short_group_map);
        const __mmask64 group_window = st->short_group_window_mask;
        const __mmask64 group_pad = st->short_group_pad_mask;
        const __mmask64 group_mask = _cvtu64_mask64(ndpad_stream_lanes_below(group * row_bytes));
        const int64_t s = st->short_group_stride, group_bytes = group * row_bytes;
        /* source j of a group is the first's plus j * s: lanes [0, group) compared (a pad
         * row never passes: its offset is INT64_MIN, the next one's is not that plus s) */
        const __m512i steps = _mm512_set_epi64(7 * s, 6 * s, 5 * s, 4 * s, 3 * s, 2 * s, s, 0);
        const __mmask8 lanes = (__mmask8)((1u << group) - 1);
        for (; k + group <= count; k += group, out += group_bytes) {
            const __m512i sources = _mm512_maskz_loadu_epi64(lanes, rows + k);
            const __m512i expected = _mm512_add_epi64(_mm512_set1_epi64(rows[k]), steps);
            if (_mm512_mask_cmpneq_epi64_mask(lanes, sources, expected) != 0) {
                /* not one run of the input (pad rows, a reflected outer axis): row by row */
                for (int64_t j = 0; j < group; j++)
                    one_row(out + j * row_bytes, ndpad_stream_source(in, rows, k + j),
                            end - (out + j * row_bytes), map, pad, window_mask, pad_mask, window,
                            row_mask);
                continue;
            }
            const __m512i w = _mm512_maskz_loadu_epi8(group_window, in + rows[k] + window);
            const __m512i v =
                _mm512_mask_mov_epi8(_mm512_permutexvar_epi8(group_map, w), group_pad, pad);
            store_within(out, v, end - out, group_mask);
        }
    }
    for (; k < count; k++, out += row_bytes)
        one_row(out, ndpad_stream_source(in, rows, k), end - out, map, pad, window_mask, pad_mask,
                window, row_mask);
}
