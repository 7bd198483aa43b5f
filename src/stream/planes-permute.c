/* PLANES_PERMUTE: edge, reflect, symmetric and wrap of a dense input of small planes of
 * short rows: each 64-byte block one two-source permute of 128 bytes of the input. */
#include <string.h>

#include "alloc.h"
#include "stream/strategy.h"

/* PLANES_PERMUTE: the phases of a plane's blocks (`plane` bytes, from the output's start)
 * within the limits of table.h, or 0. */
static int64_t permute_phases(const ndpad_stream_facts *facts)
{
    const ndpad_plan *plan = facts->plan;
    const int64_t rows_per_plane = facts->rows_per_plane;
    const int64_t plane = rows_per_plane * plan->row_bytes;
    const int64_t phases = plane / ndpad_stream_gcd(plane, NDPAD_STREAM_BLOCK);
    return plan->mode != NDPAD_CONSTANT &&
                   ndpad_stream_lane(facts, NDPAD_STREAM_PLANES_PERMUTE) > 0 &&
                   plan->row_bytes < NDPAD_STREAM_MAX_PERMUTE_ROW_BYTES &&
                   rows_per_plane <= NDPAD_STREAM_MAX_PERMUTE_PLANE_ROWS &&
                   phases <= NDPAD_STREAM_MAX_PERMUTE_PHASES
               ? phases
               : 0;
}

/* PLANES_PERMUTE: each phase's window and lane index (stream-plan.h) into window[] and
 * index[] (`phases` blocks of the first period); false where a block reads more than 128
 * input bytes. A byte's source is its plane's input plane, the source row of its row in
 * the plane and the source byte of its place in the row, each from the mode. */
static bool permute_tables(const ndpad_stream_facts *facts, int64_t phases, int32_t *window,
                           uint8_t *index)
{
    const ndpad_plan *plan = facts->plan;
    const int64_t rows_per_plane = facts->rows_per_plane;
    const int32_t axis = facts->plane_axis;
    const int64_t row_bytes = plan->row_bytes, es = (int64_t)plan->elem_size;
    const int64_t lane = ndpad_stream_lane(facts, NDPAD_STREAM_PLANES_PERMUTE);
    const int64_t in_plane = plan->dim[axis].in_stride * plan->dim[axis].d;
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    int32_t row_source[NDPAD_STREAM_MAX_PERMUTE_PLANE_ROWS];
    int32_t byte_source[NDPAD_STREAM_MAX_PERMUTE_ROW_BYTES];
    /* the lowest and highest source of a row's bytes before byte x (head) and from byte x
     * on (tail): a block holds whole rows, a row's head and a row's tail (rows are under
     * 64 bytes), so its window comes from these a row at a time */
    int32_t head_lo[NDPAD_STREAM_MAX_PERMUTE_ROW_BYTES + 1],
        head_hi[NDPAD_STREAM_MAX_PERMUTE_ROW_BYTES + 1];
    int32_t tail_lo[NDPAD_STREAM_MAX_PERMUTE_ROW_BYTES + 1],
        tail_hi[NDPAD_STREAM_MAX_PERMUTE_ROW_BYTES + 1];
    for (int64_t j = 0; j < rows_per_plane; j++) {
        int64_t t = j, at = 0;
        for (int32_t k = plan->ndim - 2; k >= axis; k--) {
            const ndpad_dim *x = &plan->dim[k];
            at += ndpad_dim_source(x, plan->mode, t % x->n) * x->in_stride;
            t /= x->n;
        }
        row_source[j] = (int32_t)at; /* in a plane of at most 16 KiB */
    }
    for (int64_t q = 0; q < row_bytes; q++)
        byte_source[q] = (int32_t)(ndpad_dim_source(row, plan->mode, q / es) * es + q % es);
    head_lo[0] = INT32_MAX, head_hi[0] = INT32_MIN;
    tail_lo[row_bytes] = INT32_MAX, tail_hi[row_bytes] = INT32_MIN;
    for (int64_t q = 0; q < row_bytes; q++) {
        const int32_t a = byte_source[q], b = byte_source[row_bytes - 1 - q];
        head_lo[q + 1] = a < head_lo[q] ? a : head_lo[q];
        head_hi[q + 1] = a > head_hi[q] ? a : head_hi[q];
        tail_lo[row_bytes - 1 - q] = b < tail_lo[row_bytes - q] ? b : tail_lo[row_bytes - q];
        tail_hi[row_bytes - 1 - q] = b > tail_hi[row_bytes - q] ? b : tail_hi[row_bytes - q];
    }
    /* a block's bytes a row's run at a time: row j of plane p (of the period), from byte q */
    for (int64_t k = 0, p = 0, j = 0, q = 0; k < phases; k++) {
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (int64_t l = 0, pk = p, jk = j, qk = q; l < NDPAD_STREAM_BLOCK;) {
            const int64_t run =
                row_bytes - qk < NDPAD_STREAM_BLOCK - l ? row_bytes - qk : NDPAD_STREAM_BLOCK - l;
            const int64_t at = pk * in_plane + row_source[jk];
            /* a run is a row's tail (from qk to its end) or a head (from its start) */
            const int64_t run_lo = at + (qk + run == row_bytes ? tail_lo[qk] : head_lo[run]);
            const int64_t run_hi = at + (qk + run == row_bytes ? tail_hi[qk] : head_hi[run]);
            lo = run_lo < lo ? run_lo : lo;
            hi = run_hi > hi ? run_hi : hi;
            l += run;
            qk += run;
            if (qk == row_bytes) {
                qk = 0;
                if (++jk == rows_per_plane) jk = 0, pk++;
            }
        }
        if (hi - lo >= 2 * NDPAD_STREAM_BLOCK) return false;
        window[k] = (int32_t)lo; /* a period's input: at most 64 planes of 16 KiB */
        uint8_t *x = index + NDPAD_STREAM_BLOCK * k;
        for (int64_t l = 0; l < NDPAD_STREAM_BLOCK;) {
            const int64_t run =
                row_bytes - q < NDPAD_STREAM_BLOCK - l ? row_bytes - q : NDPAD_STREAM_BLOCK - l;
            const int32_t at = (int32_t)(p * in_plane + row_source[j] - lo);
            for (int64_t e = 0; e < run; e++) x[l + e] = (uint8_t)(at + byte_source[q + e]);
            l += run;
            q += run;
            if (q == row_bytes) {
                q = 0;
                if (++j == rows_per_plane) j = 0, p++;
            }
        }
        /* lanes of 2 or 4 bytes: lane l's index is its first byte's over the lane (the
         * window starts an element, and elements are whole lanes), in 16 or 32 bits */
        for (int64_t l = 0; lane > 1 && l < NDPAD_STREAM_BLOCK / lane; l++) {
            const uint32_t v = x[lane * l] / (uint32_t)lane;
            if (lane == 4)
                memcpy(x + 4 * l, &v, 4);
            else
                memcpy(x + 2 * l, &(uint16_t){(uint16_t)v}, 2);
        }
    }
    return true;
}

ndpad_stream_verdict ndpad_stream_permute_fits(const ndpad_stream_facts *facts,
                                               ndpad_stream_work *work)
{
    if (work->permute_state == NDPAD_ONCE_UNKNOWN) {
        work->permute_state = NDPAD_ONCE_NO;
        const int64_t phases = facts->dense ? permute_phases(facts) : 0;
        if (phases == 0 || facts->kernels->stream[NDPAD_STREAM_PLANES_PERMUTE] == NULL)
            return NDPAD_STRATEGY_DECLINES;
        /* the windows, then the byte indices; freed by the planner after the fill */
        work->permute = ndpad_malloc((size_t)phases * (sizeof(int32_t) + NDPAD_STREAM_BLOCK));
        if (work->permute == NULL) return NDPAD_STRATEGY_NO_MEMORY;
        work->phases = phases;
        if (permute_tables(facts, phases, work->permute, (uint8_t *)(work->permute + phases)))
            work->permute_state = NDPAD_ONCE_YES;
    }
    return work->permute_state == NDPAD_ONCE_YES ? NDPAD_STRATEGY_APPLIES : NDPAD_STRATEGY_DECLINES;
}

static ndpad_stream_verdict planes_permute_applies(const ndpad_stream_facts *facts,
                                                   ndpad_stream_work *work)
{
    return ndpad_stream_permute_fits(facts, work);
}

static int64_t planes_permute_table_bytes(const ndpad_stream_facts *facts,
                                          const ndpad_stream_work *work)
{
    (void)facts;
    return work->phases * ((int64_t)sizeof(int32_t) + NDPAD_STREAM_BLOCK);
}

/* PLANES_PERMUTE: the stream's fields (stream-plan.h), its windows at `window` followed by
 * its indices, made by permute_tables when the strategy applied. */
static void planes_permute_fill(const ndpad_stream_facts *facts, ndpad_stream_work *work,
                                ndpad_stream *stream)
{
    const ndpad_plan *plan = facts->plan;
    const int64_t rows_per_plane = facts->rows_per_plane, phases = work->phases;
    const int32_t axis = facts->plane_axis;
    int32_t *window = (int32_t *)(stream + 1); /* the struct's size is a multiple of 8 */
    memcpy(window, work->permute, (size_t)phases * (sizeof(int32_t) + NDPAD_STREAM_BLOCK));
    const int64_t plane = rows_per_plane * stream->row_bytes;
    /* each plane reads its own input plane, the input's planes one after another */
    const int64_t in_plane = plan->dim[axis].in_stride * plan->dim[axis].d;
    int64_t reach = 0;
    stream->plane_bytes = plane;
    stream->plane_rows = rows_per_plane;
    stream->plane_in_bytes = in_plane;
    stream->plane_phases = phases;
    stream->plane_in_end = in_plane * (plan->rows / rows_per_plane);
    stream->permute_period_in = NDPAD_STREAM_BLOCK * phases / plane * in_plane;
    for (int64_t k = 0; k < phases; k++)
        if (window[k] + 2 * NDPAD_STREAM_BLOCK > reach) reach = window[k] + 2 * NDPAD_STREAM_BLOCK;
    stream->permute_reach = reach;
    stream->permute_window = ndpad_stream_offset(stream, window);
    stream->permute_index = ndpad_stream_offset(stream, (const uint8_t *)(window + phases));
    stream->permute_lane = ndpad_stream_lane(facts, NDPAD_STREAM_PLANES_PERMUTE);
}

const ndpad_stream_strategy ndpad_stream_strategy_planes_permute = {
    .name = "planes_permute",
    .kind = NDPAD_STREAM_PLANES_PERMUTE,
    .applies = planes_permute_applies,
    .table_bytes = planes_permute_table_bytes,
    .fill = planes_permute_fill,
};
