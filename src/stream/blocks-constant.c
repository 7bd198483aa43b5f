/* BLOCKS_CONSTANT: CONSTANT rows in 64-byte output-aligned blocks of the pad pattern with
 * the interior blended in; rows of 64 to 511 bytes with their row masks (one entry a row
 * byte), and where the elements are whole 4-byte lanes the expand entries; longer rows
 * with constants per index along the row or per side their row pattern (one byte a row
 * byte). */
#include <string.h>

#include "stream/strategy.h"

/* Whether a CONSTANT plan with row masks also takes their expand entries (stream-plan.h):
 * elements of whole 4-byte lanes. */
static bool row_expand_fits(const ndpad_plan *plan)
{
    return plan->elem_size % 4 == 0;
}

/* The row masks' entries of a CONSTANT plan: two a row byte, and with `expand` one more
 * every 4 bytes. */
static int64_t row_mask_entries(int64_t row_bytes, bool expand)
{
    return 2 * row_bytes + (expand ? row_bytes / 4 : 0);
}

/* CONSTANT: the row masks (stream-plan.h) at `masks`, then with `expand` the expand
 * entries. */
static void fill_row_masks(ndpad_stream *stream, uint64_t *masks, bool expand)
{
    const int64_t row_bytes = stream->row_bytes, left = stream->left_bytes;
    const int64_t interior_end = stream->interior_end;
    for (int64_t p = 0; p < row_bytes; p++) {
        masks[2 * p] = ndpad_stream_lane_range(left - p, interior_end - p);
        masks[2 * p + 1] =
            ndpad_stream_lane_range(row_bytes + left - p, row_bytes + interior_end - p);
    }
    stream->masks = row_mask_entries(row_bytes, expand);
    stream->row_masks = ndpad_stream_offset(stream, masks);
    if (!expand) return;
    /* in 4-byte lanes: the row's bytes, its borders and elements are all multiples of 4 */
    uint64_t *entries = masks + 2 * row_bytes;
    const int64_t n = row_bytes / 4, lo = left / 4, hi = interior_end / 4;
    for (int64_t q = 0; q < n; q++) {
        const uint64_t lanes = (ndpad_stream_lane_range(lo - q, hi - q) |
                                ndpad_stream_lane_range(n + lo - q, n + hi - q)) &
                               0xffff;
        const int64_t read = 4 * (q < lo ? 0 : q < hi ? q - lo : hi - lo);
        const uint64_t load = ((uint64_t)1 << __builtin_popcountll(lanes)) - 1;
        entries[q] = lanes | load << 16 | (uint64_t)read << 32;
    }
    stream->row_expand = ndpad_stream_offset(stream, entries);
}

/* Whether a plan's constants have a row pattern (on rows the row pattern serves: not with
 * row masks): per index along the row axis (plan.h: the const map's pattern), the same in
 * every row; per side, the row axis's two values, those of every input row (the executor
 * writes the pad rows after the kernel). */
static bool row_pattern_fits(const ndpad_stream_facts *facts, const ndpad_stream_work *work)
{
    const ndpad_const_map *m = facts->plan->consts;
    return m != NULL && (m->pattern != NULL || m->kind == NDPAD_CONSTS_SIDES) && !work->row_masks &&
           facts->row_bytes <= NDPAD_STREAM_MAX_ROW_PATTERN_BYTES;
}

/* The row pattern table's bytes: row bytes p in [-64, row_bytes + 64). */
static int64_t row_pattern_bytes(int64_t row_bytes)
{
    return row_bytes + 2 * NDPAD_STREAM_BLOCK;
}

/* `n` bytes at `dst` of a run of the constant whose 128-byte pattern is `pattern`, from row
 * byte q on (the element size divides 64: the pattern at q's phase serves every 64 bytes). */
static void fill_run(uint8_t *dst, const uint8_t *pattern, int64_t es, int64_t q, int64_t n)
{
    for (int64_t len; n > 0; dst += len, n -= len) {
        len = n < NDPAD_STREAM_BLOCK ? n : NDPAD_STREAM_BLOCK;
        memcpy(dst, pattern + q % es, (size_t)len);
    }
}

/* The row pattern at `table`: byte 64 + p the constant byte of row byte p mod row_bytes,
 * copied in runs (a one-shot call plans every time; NHWC's table is 2.8 KB). Per index,
 * the const map's pattern (whole periods from a row's start; a period divides the row, so
 * the table is that pattern from the phase of row byte -64 on); per side, the row axis's
 * begin value before the interior and its end value from it on (the interior's bytes are
 * the input's in every row the kernel's pattern serves). */
static void fill_row_pattern(const ndpad_stream_facts *facts, ndpad_stream *stream, uint8_t *table)
{
    const ndpad_const_map *m = facts->plan->consts;
    const int64_t row_bytes = facts->row_bytes, bytes = row_pattern_bytes(row_bytes);
    const int64_t es = facts->es;
    if (m->pattern != NULL) {
        const int64_t period = m->period_elems * es;
        int64_t phase = (period - NDPAD_STREAM_BLOCK % period) % period;
        for (int64_t j = 0, len; j < bytes; j += len, phase = 0) {
            len = m->pattern_bytes - phase < bytes - j ? m->pattern_bytes - phase : bytes - j;
            memcpy(table + j, m->pattern + phase, (size_t)len);
        }
    } else {
        uint8_t sides[2][2 * NDPAD_STREAM_BLOCK];
        for (int side = 0; side < 2; side++)
            for (int64_t k = 0; k < 2 * NDPAD_STREAM_BLOCK; k++)
                sides[side][k] =
                    m->values[(2 * facts->row->origin + side) * m->value_stride + k % es];
        int64_t q = ((row_bytes - NDPAD_STREAM_BLOCK) % row_bytes + row_bytes) % row_bytes;
        for (int64_t j = 0, n; j < bytes; j += n) {
            const int64_t stop = q < facts->left ? facts->left : row_bytes;
            n = stop - q < bytes - j ? stop - q : bytes - j;
            fill_run(table + j, sides[q < facts->left ? 0 : 1], es, q, n);
            if ((q += n) == row_bytes) q = 0;
        }
    }
    stream->row_pattern = ndpad_stream_offset(stream, table);
}

static ndpad_stream_verdict blocks_constant_applies(const ndpad_stream_facts *facts,
                                                    ndpad_stream_work *work)
{
    if (!facts->constant || !ndpad_stream_blocks_by_length(facts, work))
        return NDPAD_STRATEGY_DECLINES;
    work->row_masks = ndpad_stream_row_mask_rows(facts);
    work->row_expand = row_expand_fits(facts->plan);
    work->row_pattern = row_pattern_fits(facts, work);
    return NDPAD_STRATEGY_APPLIES;
}

static int64_t blocks_constant_table_bytes(const ndpad_stream_facts *facts,
                                           const ndpad_stream_work *work)
{
    if (work->row_pattern) return row_pattern_bytes(facts->row_bytes);
    return work->row_masks
               ? row_mask_entries(facts->row_bytes, work->row_expand) * (int64_t)sizeof(uint64_t)
               : 0;
}

static void blocks_constant_fill(const ndpad_stream_facts *facts, ndpad_stream_work *work,
                                 ndpad_stream *stream)
{
    if (work->row_masks) /* after the struct, whose size is a multiple of 8 */
        fill_row_masks(stream, (uint64_t *)(stream + 1), work->row_expand);
    if (work->row_pattern) fill_row_pattern(facts, stream, (uint8_t *)(stream + 1));
}

const ndpad_stream_strategy ndpad_stream_strategy_blocks_constant = {
    .name = "blocks_constant",
    .kind = NDPAD_STREAM_BLOCKS_CONSTANT,
    .applies = blocks_constant_applies,
    .table_bytes = blocks_constant_table_bytes,
    .fill = blocks_constant_fill,
    .lists_rows = true,
};
