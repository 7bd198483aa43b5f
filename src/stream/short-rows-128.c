/* SHORT_ROWS_128: rows of 65 to 128 bytes that read the input, each two two-source
 * permutations of a 128-byte window of its source row. */
#include "stream/strategy.h"

/* SHORT_ROWS_128: whether a row of 65 to 128 bytes, in a mode that reads the input, reads
 * only bytes of one 128-byte window of its source row; its byte map and the masks of the
 * window's two halves (bytes of the source row only) in `stream` (the draft) then. */
static bool short_rows_128_fits(const ndpad_stream_facts *facts, ndpad_stream *stream)
{
    const ndpad_plan *plan = facts->plan;
    const ndpad_dim *row = facts->row;
    const int64_t width = 2 * NDPAD_STREAM_BLOCK;
    /* without byte permutes, 4-byte lanes: whole elements of them, in place */
    const int64_t lane = ndpad_stream_lane(facts, NDPAD_STREAM_SHORT_ROWS_128);
    if (plan->mode == NDPAD_CONSTANT || plan->row_bytes <= NDPAD_STREAM_BLOCK ||
        plan->row_bytes > width || lane == 0)
        return false;
    int64_t lo = INT64_MAX, hi = -1;
    for (int64_t q = 0; q < plan->row_bytes; q++) {
        const int64_t b = ndpad_stream_source_byte(plan, row, q);
        lo = b < lo ? b : lo;
        hi = b > hi ? b : hi;
    }
    if (hi < 0 || hi - lo >= width) return false;
    stream->short_window = lo;
    stream->wide_window_mask[0] = ndpad_stream_lane_range(0, hi - lo + 1);
    stream->wide_window_mask[1] = ndpad_stream_lane_range(0, hi - lo + 1 - NDPAD_STREAM_BLOCK);
    for (int64_t q = 0; q < plan->row_bytes; q++)
        stream->wide_map[q] = (uint8_t)(ndpad_stream_source_byte(plan, row, q) - lo);
    /* (elements of whole lanes start on lanes, lo among them) */
    for (int64_t l = 0; 4 * l < plan->row_bytes; l++)
        stream->wide_lanes[l] = stream->wide_map[4 * l] / 4u;
    return true;
}

static ndpad_stream_verdict short_rows_128_applies(const ndpad_stream_facts *facts,
                                                   ndpad_stream_work *work)
{
    return short_rows_128_fits(facts, &work->draft) ? NDPAD_STRATEGY_APPLIES
                                                    : NDPAD_STRATEGY_DECLINES;
}

const ndpad_stream_strategy ndpad_stream_strategy_short_rows_128 = {
    .name = "short_rows_128",
    .kind = NDPAD_STREAM_SHORT_ROWS_128,
    .applies = short_rows_128_applies,
    .lists_rows = true,
};
