/* SHORT_ROWS: rows of at most 64 bytes, each one permutation of a 64-byte window of its
 * source row (the byte map), and on levels with byte permutes several rows one window. */
#include "stream/strategy.h"

/* Whether a row reads only bytes of one 64-byte window of its source row (loaded masked to
 * them); its byte map, window and masks in `draft` then. */
static bool short_rows_fits(const ndpad_stream_facts *facts, ndpad_stream *draft)
{
    const ndpad_plan *plan = facts->plan;
    const ndpad_dim *row = facts->row;
    const int64_t width = NDPAD_STREAM_BLOCK;
    const int64_t es = facts->es;
    /* without byte permutes (AVX-512 F): elements of whole 4-byte lanes */
    const int64_t lane = ndpad_stream_lane(facts, NDPAD_STREAM_SHORT_ROWS);
    if (plan->row_bytes > width || lane == 0) return false;
    int64_t lo = INT64_MAX, hi = -1;
    for (int64_t q = 0; q < plan->row_bytes; q++) {
        const int64_t i = ndpad_dim_source(row, plan->mode, q / es);
        if (i < 0) continue;
        lo = i * es + q % es < lo ? i * es + q % es : lo;
        hi = i * es + q % es > hi ? i * es + q % es : hi;
    }
    if (hi < 0 || hi - lo >= width) return false;
    const int64_t window = lo;
    draft->short_window = window;
    draft->short_window_mask = ndpad_stream_lane_range(0, hi - lo + 1); /* the bytes read */
    draft->short_pad_mask = 0;
    for (int64_t q = 0; q < plan->row_bytes; q++) {
        const int64_t i = ndpad_dim_source(row, plan->mode, q / es);
        draft->short_map[q] = i < 0 ? 0 : (uint8_t)(i * es + q % es - window);
        if (i < 0) draft->short_pad_mask |= (uint64_t)1 << q;
    }
    if (lane == 4) /* (elements of whole lanes start on lanes, the window among them) */
        for (int64_t l = 0; 4 * l < plan->row_bytes; l++)
            draft->short_lanes[l] = draft->short_map[4 * l] / 4u;
    return true;
}

static ndpad_stream_verdict short_rows_applies(const ndpad_stream_facts *facts,
                                               ndpad_stream_work *work)
{
    return short_rows_fits(facts, &work->draft) ? NDPAD_STRATEGY_APPLIES : NDPAD_STRATEGY_DECLINES;
}

/* The group of rows one window serves (stream-plan.h, short_group_*), from the row's map:
 * as many rows as fit in a block (at most 8: the kernel tests their sources with one
 * compare), their source rows one input row apart (the axis above the row's stride) and
 * every byte they read inside one 64-byte window. None where fewer than two fit, or where
 * the kernel has no byte permutes. */
static void short_rows_fill_group(const ndpad_stream_facts *facts, ndpad_stream_work *work,
                                  ndpad_stream *stream)
{
    (void)work;
    const ndpad_plan *plan = facts->plan;
    const int64_t row_bytes = plan->row_bytes;
    if (ndpad_stream_lane(facts, NDPAD_STREAM_SHORT_ROWS) != 1) return;
    if (plan->ndim < 2 || row_bytes > NDPAD_STREAM_BLOCK / 2 || stream->short_window_mask == 0)
        return;
    const int64_t stride = plan->dim[plan->ndim - 2].in_stride;
    if (stride <= 0 || stride > NDPAD_STREAM_BLOCK) return; /* and no product below overflows */
    const int64_t span = 64 - __builtin_clzll(stream->short_window_mask); /* bytes read */
    int64_t rows = NDPAD_STREAM_BLOCK / row_bytes < 8 ? NDPAD_STREAM_BLOCK / row_bytes : 8;
    while (rows >= 2 && (rows - 1) * stride + span > NDPAD_STREAM_BLOCK) rows--;
    if (rows < 2) return;
    stream->short_group_rows = rows;
    stream->short_group_stride = stride;
    for (int64_t j = 0; j < rows; j++) {
        stream->short_group_window_mask |= stream->short_window_mask << (j * stride);
        stream->short_group_pad_mask |= stream->short_pad_mask << (j * row_bytes);
        for (int64_t q = 0; q < row_bytes; q++)
            stream->short_group_map[j * row_bytes + q] =
                (uint8_t)(stream->short_map[q] + j * stride);
    }
}

const ndpad_stream_strategy ndpad_stream_strategy_short_rows = {
    .name = "short_rows",
    .kind = NDPAD_STREAM_SHORT_ROWS,
    .applies = short_rows_applies,
    .fill = short_rows_fill_group,
    .lists_rows = true,
};
