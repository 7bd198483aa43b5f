/* The SHORT_ROWS_16 output-stream kernel on NEON (stream-plan.h): a row of at most 64 bytes
 * is up to four 16-byte segments, each one table lookup (TBX: an index of 0x80 keeps the
 * pad byte) of 16 bytes of its source row: a window inside the row, or for a source row
 * under 16 bytes its 4-byte words or its first and last 8 (4) bytes; a wrap border beside
 * the row's other end takes a second window and lookup. A store is full width while it
 * stays inside the batch: what it writes past the row belongs to the rows after it, written
 * later. */
#include <arm_neon.h>
#include <string.h>

#include "kernels/stream-descriptor.h"

/* The 16 bytes of the source row at `src` that segment s reads (the AVX2 kernel's loads). */
static inline uint8x16_t source_bytes(const ndpad_stream *st, const char *src, int64_t s)
{
    const int64_t overlap = st->short_overlap;
    if (st->short_window_mask == 0)
        return vld1q_u8((const uint8_t *)src + st->short_segment_window[s]);
    uint8_t bytes[16] = {0};
    if (overlap == 0) { /* the row's words: all of it */
        memcpy(bytes, src, (size_t)(4 * __builtin_popcountll(st->short_window_mask)));
        return vld1q_u8(bytes);
    }
    const int64_t half = overlap >= 8 ? 8 : 4;
    memcpy(bytes, src, (size_t)half);
    memcpy(bytes + half, src + overlap - half, (size_t)half);
    return vld1q_u8(bytes);
}

/* Segment s of the row whose source is at `src` (NULL: a pad row). */
static inline uint8x16_t segment(const ndpad_stream *st, const char *src, int64_t s, uint8x16_t pad)
{
    if (src == NULL) return pad;
    const uint8x16_t map = vld1q_u8(st->short_map + 16 * s);
    uint8x16_t v = vqtbx1q_u8(pad, source_bytes(st, src, s), map);
    if (st->short_two_windows) {
        const uint8x16_t second = vld1q_u8((const uint8_t *)src + st->short_segment_second[s]);
        v = vqtbx1q_u8(v, second, vld1q_u8(st->short_map_second + 16 * s));
    }
    return v;
}

void ndpad_stream_short_rows_16__neon(const ndpad_stream *st, const char *in, const int64_t *rows,
                                      int64_t count, char *out, bool nontemporal)
{
    (void)nontemporal; /* rows this short stay in the cache */
    const int64_t segments = st->short_segments, row_bytes = st->row_bytes;
    uint8x16_t pad[4];
    for (int64_t s = 0; s < segments; s++) /* rows start on elements */
        pad[s] = vld1q_u8(st->pad + 16 * s % st->elem_size);
    const char *const end = out + count * row_bytes;
    for (int64_t k = 0; k < count; k++, out += row_bytes) {
        const char *src = ndpad_stream_source(in, rows, k);
        for (int64_t s = 0; s < segments && 16 * s < row_bytes; s++) {
            const uint8x16_t v = segment(st, src, s, pad[s]);
            char *const at = out + 16 * s;
            if (end - at >= 16) {
                vst1q_u8((uint8_t *)at, v);
            } else { /* the batch's last bytes */
                uint8_t bytes[16];
                vst1q_u8(bytes, v);
                memcpy(at, bytes, (size_t)(end - at));
            }
        }
    }
}
