/* SHORT_ROWS_16: rows of at most 64 bytes in 16-byte segments, each a permutation of a
 * 16-byte window (levels with a 16-byte byte shuffle: AVX2, NEON). Also asked by the
 * short_rows_16_segments row before PLANES_PERMUTE. */
#include <string.h>

#include "stream/strategy.h"

/* SHORT_ROWS_16: whether a row of at most 64 bytes reads, in each 16-byte segment, only
 * bytes of one 16-byte window inside its source row (loaded whole), or of the whole source
 * row where that is shorter than 16 bytes (its 4-byte words, or where it is not made of
 * them, its first and last 8 bytes, 4 under 8 bytes); the segments' windows, their byte
 * maps and the word mask in `stream` (the draft) then. */
bool ndpad_stream_short_rows_16_fits(const ndpad_stream_facts *facts, ndpad_stream *stream)
{
    const ndpad_plan *plan = facts->plan;
    const ndpad_dim *row = facts->row;
    const int64_t es = (int64_t)plan->elem_size, source_bytes = row->d * es;
    const int64_t row_bytes = plan->row_bytes, segments = (row_bytes + 15) / 16;
    const bool whole = source_bytes >= 16;
    /* else its 4-byte words, or its first and last 8 (4) bytes, overlapping, as one vector */
    const bool overlap = !whole && source_bytes % 4 != 0;
    const int64_t half = source_bytes >= 8 ? 8 : 4;
    if (row_bytes > NDPAD_STREAM_BLOCK || (overlap && source_bytes < 4)) return false;
    /* a segment's bytes from one window, or (a 16-byte load inside the row, a mode that
     * reads it: a wrap border beside the row's other end) from two */
    int64_t window[NDPAD_STREAM_BLOCK / 16], second[NDPAD_STREAM_BLOCK / 16];
    bool two = false;
    for (int64_t s = 0; s < segments; s++) {
        int64_t lo = INT64_MAX, hi = -1, lo_b = INT64_MAX, hi_b = -1;
        for (int64_t q = 16 * s; q < row_bytes && q < 16 * s + 16; q++) {
            const int64_t b = ndpad_stream_source_byte(plan, row, q);
            if (b < 0) continue; /* pad */
            lo = b < lo ? b : lo;
            hi = b > hi ? b : hi;
        }
        window[s] = hi < 0 || !whole ? 0 : lo < source_bytes - 16 ? lo : source_bytes - 16;
        second[s] = window[s];
        if (hi - window[s] < 16) continue;
        if (!whole || plan->mode == NDPAD_CONSTANT) return false;
        for (int64_t q = 16 * s; q < row_bytes && q < 16 * s + 16; q++) {
            const int64_t b = ndpad_stream_source_byte(plan, row, q);
            if (b - window[s] < 16) continue;
            lo_b = b < lo_b ? b : lo_b;
            hi_b = b > hi_b ? b : hi_b;
        }
        second[s] = lo_b < source_bytes - 16 ? lo_b : source_bytes - 16;
        if (hi_b - second[s] >= 16) return false;
        two = true;
    }
    stream->short_segments = segments;
    stream->short_window_mask = whole ? 0 : ndpad_stream_lane_range(0, source_bytes / 4);
    stream->short_overlap = overlap ? source_bytes : 0;
    stream->short_two_windows = two;
    memset(stream->short_map, 0x80, sizeof(stream->short_map));
    memset(stream->short_map_second, 0x80, sizeof(stream->short_map_second));
    for (int64_t q = 0; q < row_bytes; q++) {
        const int64_t source = ndpad_stream_source_byte(plan, row, q);
        if (source < 0) continue; /* pad: 0x80 */
        /* overlap: source byte b is byte b of the vector below `half`, b - source_bytes +
         * 2 half from there on */
        const int64_t b = source - window[q / 16];
        if (b >= 16)
            stream->short_map_second[q] = (uint8_t)(source - second[q / 16]);
        else
            stream->short_map[q] =
                (uint8_t)(overlap && b >= half ? b - source_bytes + 2 * half : b);
    }
    for (int64_t s = 0; s < segments; s++) {
        stream->short_segment_window[s] = window[s];
        stream->short_segment_second[s] = second[s];
    }
    return true;
}

static ndpad_stream_verdict short_rows_16_applies(const ndpad_stream_facts *facts,
                                                  ndpad_stream_work *work)
{
    return ndpad_stream_short_rows_16_fits(facts, &work->draft) ? NDPAD_STRATEGY_APPLIES
                                                                : NDPAD_STRATEGY_DECLINES;
}

const ndpad_stream_strategy ndpad_stream_strategy_short_rows_16 = {
    .name = "short_rows_16",
    .kind = NDPAD_STREAM_SHORT_ROWS_16,
    .applies = short_rows_16_applies,
    .lists_rows = true,
};

/* A dense input of small planes that PLANES_PERMUTE serves (table.h), in rows of whole
 * 16-byte segments: stored whole by SHORT_ROWS_16. */
static ndpad_stream_verdict short_rows_16_segments_applies(const ndpad_stream_facts *facts,
                                                           ndpad_stream_work *work)
{
    const ndpad_stream_verdict permute = ndpad_stream_permute_fits(facts, work);
    if (permute != NDPAD_STRATEGY_APPLIES) return permute;
    if (facts->row_bytes % 16 != 0 || facts->row_bytes < 32) return NDPAD_STRATEGY_DECLINES;
    return short_rows_16_applies(facts, work);
}

const ndpad_stream_strategy ndpad_stream_strategy_short_rows_16_segments = {
    .name = "short_rows_16_segments",
    .kind = NDPAD_STREAM_SHORT_ROWS_16,
    .requires = NDPAD_STREAM_PLANES_PERMUTE,
    .applies = short_rows_16_segments_applies,
    .lists_rows = true,
};
