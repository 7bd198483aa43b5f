/* ROWS: row after row in one call, every mode and element size, each border element one
 * move from the source element listed for it (the scalar level's is the reference). */
#include "isa-slots.h"
#include "stream/strategy.h"

/* Each level's vector width in bytes (isa-levels.inc). */
static const int64_t level_width[NDPAD_ISA_SLOTS] = {
#define NDPAD_ISA_LEVEL(ID, name, PARENT, arch, width, ...) [NDPAD_ISA_##ID] = width,
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
};

static ndpad_stream_verdict rows_applies(const ndpad_stream_facts *facts, ndpad_stream_work *work)
{
    (void)work;
    const ndpad_plan *plan = facts->plan;
    if (!facts->constant && (facts->left > NDPAD_STREAM_MAX_BORDER_BYTES ||
                             facts->right > NDPAD_STREAM_MAX_BORDER_BYTES))
        return NDPAD_STRATEGY_DECLINES;
    if (facts->any_length) return NDPAD_STRATEGY_APPLIES;
    const int64_t width = (int)plan->isa > NDPAD_ISA_AUTO && (int)plan->isa < NDPAD_ISA_SLOTS
                              ? level_width[plan->isa]
                              : 16;
    const bool fits = facts->constant
                          ? width >= 32 && facts->row_bytes < NDPAD_STREAM_MAX_CONSTANT_ROWS_BYTES
                          : facts->row_bytes <= NDPAD_STREAM_MAX_ROWS_WIDTHS * width;
    return fits ? NDPAD_STRATEGY_APPLIES : NDPAD_STRATEGY_DECLINES;
}

static int64_t rows_table_bytes(const ndpad_stream_facts *facts, const ndpad_stream_work *work)
{
    (void)work;
    return facts->constant ? 0
                           : (facts->left + facts->right) / facts->es * (int64_t)sizeof(int64_t);
}

/* The ROWS kernels' list: the source element of each border element, left then right. */
static void rows_fill(const ndpad_stream_facts *facts, ndpad_stream_work *work,
                      ndpad_stream *stream)
{
    (void)work;
    if (facts->constant) return;
    const ndpad_plan *plan = facts->plan;
    const ndpad_dim *row = facts->row;
    int64_t *source = (int64_t *)(stream + 1); /* the struct's size is a multiple of 8 */
    stream->border_source = ndpad_stream_offset(stream, source);
    int64_t k = 0;
    for (int64_t o = 0; o < row->copy_begin; o++)
        source[k++] = ndpad_dim_source(row, plan->mode, o);
    for (int64_t o = row->copy_end; o < row->n; o++)
        source[k++] = ndpad_dim_source(row, plan->mode, o);
}

const ndpad_stream_strategy ndpad_stream_strategy_rows = {
    .name = "rows",
    .kind = NDPAD_STREAM_ROWS,
    .applies = rows_applies,
    .table_bytes = rows_table_bytes,
    .fill = rows_fill,
    .lists_rows = true,
};
