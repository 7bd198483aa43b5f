/* PLANES_16: CONSTANT, a dense input of small planes in 16-byte blocks, each one byte
 * shuffle of the input's next 16 bytes (levels without an expand instruction). */
#include "stream/strategy.h"

/* Whether each of the first `count` bytes of the planes (one after another) is interior,
 * in interior[]: row by row, without a division a byte (planning a one-shot 10 x 10 fp32
 * pad spent 3 of its 3.3 us dividing here). */
static void plane_interior_bytes(const ndpad_stream *stream, const int64_t *in_before,
                                 int64_t rows_per_plane, uint8_t *interior, int64_t count)
{
    const int64_t row_bytes = stream->row_bytes;
    for (int64_t x = 0, j = 0; x < count; j = j + 1 == rows_per_plane ? 0 : j + 1) {
        const bool input = in_before[j + 1] > in_before[j];
        for (int64_t q = 0; q < row_bytes && x < count; q++, x++)
            interior[x] = input && q >= stream->left_bytes && q < stream->interior_end;
    }
}

/* CONSTANT, dense planes (facts) of rows under
 * NDPAD_STREAM_MAX_PLANE16_ROW_BYTES whose period holds at most
 * NDPAD_STREAM_MAX_PLANE16_PHASES block positions, in elements that divide 16 (every block
 * then starts the pad pattern afresh); *phases then. */
static ndpad_stream_verdict planes_16_applies(const ndpad_stream_facts *facts,
                                              ndpad_stream_work *work)
{
    const ndpad_plan *plan = facts->plan;
    if (!facts->constant || !facts->dense ||
        plan->row_bytes >= NDPAD_STREAM_MAX_PLANE16_ROW_BYTES || 16 % (int64_t)plan->elem_size != 0)
        return NDPAD_STRATEGY_DECLINES;
    /* where the row masks serve (AVX-512), they do */
    if (facts->kernels->stream[NDPAD_STREAM_BLOCKS_CONSTANT] != NULL &&
        ndpad_stream_row_mask_rows(facts))
        return NDPAD_STRATEGY_DECLINES;
    const int64_t plane = facts->rows_per_plane * plan->row_bytes;
    work->phases = plane / ndpad_stream_gcd(plane, 16);
    return work->phases <= NDPAD_STREAM_MAX_PLANE16_PHASES ? NDPAD_STRATEGY_APPLIES
                                                           : NDPAD_STRATEGY_DECLINES;
}

static int64_t planes_16_table_bytes(const ndpad_stream_facts *facts, const ndpad_stream_work *work)
{
    return (facts->rows_per_plane + 1) * (int64_t)sizeof(int64_t) +
           (work->phases + 2 * NDPAD_STREAM_PLANE16_RUN) * 18 + 2;
}

/* The tables after the descriptor (stream-plan.h): which rows of a plane read the input,
 * then each block position's shuffle index and input bytes. */
static void planes_16_fill(const ndpad_stream_facts *facts, ndpad_stream_work *work,
                           ndpad_stream *stream)
{
    const ndpad_plan *plan = facts->plan;
    const int64_t rows_per_plane = facts->rows_per_plane, phases = work->phases;
    const int32_t axis = facts->plane_axis;
    int64_t *tables = (int64_t *)(stream + 1); /* the struct's size is a multiple of 8 */
    int64_t *in_before = tables;
    ndpad_stream_fill_plane_in_before(plan, stream, rows_per_plane, axis, in_before);
    /* a whole number of periods, of NDPAD_STREAM_PLANE16_RUN blocks at least, and that many
     * blocks more: a run of blocks from any block of the periods lies together */
    const int64_t period = (NDPAD_STREAM_PLANE16_RUN + phases - 1) / phases * phases;
    const int64_t entries = period + NDPAD_STREAM_PLANE16_RUN;
    uint16_t *in_at = (uint16_t *)(in_before + rows_per_plane + 1);
    uint8_t *index = (uint8_t *)(in_at + entries + 1);
    /* the blocks run over the planes without a break: entries blocks of them */
    uint8_t interior_byte[16 * (NDPAD_STREAM_MAX_PLANE16_PHASES + 2 * NDPAD_STREAM_PLANE16_RUN)];
    plane_interior_bytes(stream, in_before, rows_per_plane, interior_byte, 16 * entries);
    in_at[0] = 0;
    for (int64_t k = 0; k < entries; k++) {
        uint8_t c = 0;
        for (int64_t l = 0; l < 16; l++) index[16 * k + l] = interior_byte[16 * k + l] ? c++ : 0x80;
        in_at[k + 1] = (uint16_t)(in_at[k] + c); /* under 2^16: 16 bytes a block at most */
    }
    stream->plane_phases = phases;
    stream->plane_period = period;
    stream->plane_in_end =
        stream->src_interior + plan->rows / rows_per_plane * in_before[rows_per_plane];
    stream->plane_in_at = ndpad_stream_offset(stream, in_at);
    stream->plane_index = ndpad_stream_offset(stream, index);
}

const ndpad_stream_strategy ndpad_stream_strategy_planes_16 = {
    .name = "planes_16",
    .kind = NDPAD_STREAM_PLANES_16,
    .applies = planes_16_applies,
    .table_bytes = planes_16_table_bytes,
    .fill = planes_16_fill,
};
