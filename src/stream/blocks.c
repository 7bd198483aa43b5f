/* BLOCKS: the modes that read the input, 64-byte output-aligned blocks assembled from the
 * rows that meet them: per side, a source window and per block position the border lanes
 * and their window bytes; where the borders lie near the rows' ends, each seam one
 * two-source permute (the seam table). Also the blocks_declined row after it. */
#include <string.h>

#include "checked.h"
#include "stream/strategy.h"

/* The window of border bytes [q0, q1): its first source byte in *window, false when they
 * span more than one block. */
static bool border_window(const ndpad_plan *plan, const ndpad_dim *row, int64_t q0, int64_t q1,
                          int64_t *window)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t q = q0; q < q1; q++) {
        const int64_t s = ndpad_stream_source_byte(plan, row, q);
        lo = s < lo ? s : lo;
        hi = s > hi ? s : hi;
    }
    *window = q0 < q1 ? lo : 0;
    return q0 >= q1 || hi - lo < NDPAD_STREAM_BLOCK;
}

/* Entries for blocks starting at row bytes p = first + e, e < entries, of the border bytes
 * [q0, q1) read through a window starting at source byte `window`. */
static void fill_table(const ndpad_plan *plan, const ndpad_dim *row, int64_t q0, int64_t q1,
                       int64_t window, int64_t first, int64_t entries, uint8_t *index,
                       uint64_t *mask)
{
    for (int64_t e = 0; e < entries; e++) {
        const int64_t p = first + e;
        mask[e] = ndpad_stream_lane_range(q0 - p, q1 - p);
        for (int64_t k = 0; k < NDPAD_STREAM_BLOCK; k++) {
            const int64_t q = p + k;
            index[e * NDPAD_STREAM_BLOCK + k] =
                q >= q0 && q < q1 ? (uint8_t)(ndpad_stream_source_byte(plan, row, q) - window) : 0;
        }
    }
}

/* x clamped to [lo, hi]. */
static int64_t clamped(int64_t x, int64_t lo, int64_t hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* The seam map of the plan's rows (left border [0, left), interior [left, interior_end)
 * from source byte src_interior on) in *t: its windows are the 64 source bytes that end
 * where the interior's source ends (a row's end, its right border nearby) and those that
 * start where it starts (the next row's start, its left border nearby). False where the
 * windows cannot be whole loads inside the source row or some byte of a block lies
 * outside them. */
static bool seam_map(const ndpad_plan *plan, int64_t left, int64_t interior_end,
                     int64_t src_interior, ndpad_seam_table *t)
{
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const int64_t row_bytes = plan->row_bytes;
    /* borders of at most a few blocks around a nonempty interior, in a source row whose
     * byte offsets (and those a row further) fit int64: nothing below overflows */
    int64_t source_bytes;
    if (left > NDPAD_STREAM_MAX_BORDER_BYTES || interior_end <= left ||
        row_bytes - interior_end > NDPAD_STREAM_MAX_BORDER_BYTES ||
        ndpad_mul_overflows(row->d, (int64_t)plan->elem_size, &source_bytes) ||
        source_bytes > INT64_MAX / 2 || src_interior > INT64_MAX / 2 || row_bytes > INT64_MAX / 4)
        return false;
    const int64_t last_window = source_bytes - NDPAD_STREAM_BLOCK;
    /* entries: block starts p in [max(left, interior_end - 63), row_bytes), then [0, left) */
    t->first = left > interior_end - (NDPAD_STREAM_BLOCK - 1)
                   ? left
                   : interior_end - (NDPAD_STREAM_BLOCK - 1);
    t->ends = row_bytes - t->first;
    t->entries = t->ends + left;
    const int64_t span = t->entries + NDPAD_STREAM_BLOCK - 1;
    if (row_bytes < NDPAD_STREAM_BLOCK || last_window < 0 || t->ends <= 0 ||
        span > (int64_t)sizeof(t->map))
        return false;
    t->tail = clamped(src_interior + (interior_end - left) - NDPAD_STREAM_BLOCK, 0, last_window);
    t->head = clamped(src_interior, 0, last_window);
    t->far = false;
    for (int64_t j = 0; j < span; j++) {
        const int64_t q = t->first + j, next = q >= row_bytes, r = q - next * row_bytes;
        if (r >= row_bytes) return false; /* a third row */
        const int64_t source = r >= left && r < interior_end
                                   ? src_interior + (r - left)
                                   : ndpad_stream_source_byte(plan, row, r);
        /* this row's bytes: its tail window (near) or its head (far); the next row's: the
         * first permute's second source is its head (near), the second's its tail (far) */
        const int64_t near = source - (next ? t->head : t->tail);
        const int64_t far = source - (next ? t->tail : t->head);
        t->is_far[j] = near < 0 || near >= NDPAD_STREAM_BLOCK;
        if (!t->is_far[j]) {
            t->map[j] = (uint8_t)(near + next * NDPAD_STREAM_BLOCK);
            t->far_map[j] = 0;
        } else if (far >= 0 && far < NDPAD_STREAM_BLOCK) {
            t->map[j] = 0;
            t->far_map[j] = (uint8_t)(far + next * NDPAD_STREAM_BLOCK);
            t->far = true;
        } else {
            return false;
        }
    }
    return true;
}

/* The seam table's entries at `index` (64 bytes each), from its map, and with far bytes
 * their second permute's at `far_index` with its lanes in `far_mask`. */
static void fill_seam_index(const ndpad_seam_table *t, int64_t row_bytes, uint8_t *index,
                            uint8_t *far_index, uint64_t *far_mask)
{
    for (int64_t e = 0; e < t->entries; e++) {
        const int64_t q0 = e < t->ends ? row_bytes - 1 - e : row_bytes + (e - t->ends);
        const int64_t j = q0 - t->first;
        memcpy(index + e * NDPAD_STREAM_BLOCK, t->map + j, NDPAD_STREAM_BLOCK);
        if (!t->far) continue;
        memcpy(far_index + e * NDPAD_STREAM_BLOCK, t->far_map + j, NDPAD_STREAM_BLOCK);
        far_mask[e] = 0;
        for (int64_t k = 0; k < NDPAD_STREAM_BLOCK; k++)
            far_mask[e] |= (uint64_t)t->is_far[j + k] << k;
    }
}

/* The seam table of the plan (once, in work), where the BLOCKS kernel may use it. */
static bool blocks_seam(const ndpad_stream_facts *facts, ndpad_stream_work *work)
{
    if (work->seam_state == NDPAD_ONCE_UNKNOWN)
        work->seam_state = !facts->constant &&
                                   facts->row_bytes >= NDPAD_STREAM_MIN_SEAM_ROW_BYTES &&
                                   facts->kernels->stream[NDPAD_STREAM_BLOCKS] != NULL &&
                                   seam_map(facts->plan, facts->left, facts->interior_end,
                                            facts->src_interior, &work->seam)
                               ? NDPAD_ONCE_YES
                               : NDPAD_ONCE_NO;
    return work->seam_state == NDPAD_ONCE_YES;
}

bool ndpad_stream_blocks_by_length(const ndpad_stream_facts *facts, ndpad_stream_work *work)
{
    if (facts->any_length || facts->row_bytes >= NDPAD_STREAM_MIN_BLOCK_ROW_BYTES) return true;
    if (facts->constant) return ndpad_stream_row_mask_rows(facts);
    /* a wrap seam is two permutes: only near ones pay on rows under 512 bytes */
    return blocks_seam(facts, work) && !work->seam.far &&
           facts->row_bytes >= NDPAD_STREAM_MIN_SEAM_ROW_BYTES;
}

static ndpad_stream_verdict blocks_applies(const ndpad_stream_facts *facts, ndpad_stream_work *work)
{
    if (facts->constant || !ndpad_stream_blocks_by_length(facts, work))
        return NDPAD_STRATEGY_DECLINES;
    /* each side's border within one window of the source row */
    const ndpad_plan *plan = facts->plan;
    if (facts->left > NDPAD_STREAM_MAX_BORDER_BYTES ||
        facts->right > NDPAD_STREAM_MAX_BORDER_BYTES ||
        !border_window(plan, facts->row, 0, facts->left, &work->left_window) ||
        !border_window(plan, facts->row, facts->interior_end, facts->row_bytes,
                       &work->right_window))
        return NDPAD_STRATEGY_DECLINES;
    work->left_entries = facts->left > 0 ? facts->left + NDPAD_STREAM_BLOCK - 1 : 0;
    work->right_entries = facts->right > 0 ? facts->right + NDPAD_STREAM_BLOCK - 1 : 0;
    (void)blocks_seam(facts, work); /* used where there is one (BLOCKS by its length too) */
    return NDPAD_STRATEGY_APPLIES;
}

static int64_t blocks_table_bytes(const ndpad_stream_facts *facts, const ndpad_stream_work *work)
{
    (void)facts;
    const bool seam = work->seam_state == NDPAD_ONCE_YES, far = seam && work->seam.far;
    const int64_t entries = work->left_entries + work->right_entries;
    const int64_t seam_lines = seam ? work->seam.entries * (far ? 2 : 1) : 0;
    return entries * (NDPAD_STREAM_BLOCK + (int64_t)sizeof(uint64_t)) +
           seam_lines * NDPAD_STREAM_BLOCK +
           (far ? work->seam.entries * (int64_t)sizeof(uint64_t) : 0) +
           (entries + seam_lines > 0 ? NDPAD_STREAM_BLOCK - 1 : 0); /* index alignment */
}

/* The BLOCKS tables of a mode that reads the input: for each side, the source window and,
 * per block position, the border lanes and their window bytes (masks first, then the
 * indices, after the struct). */
static void blocks_fill(const ndpad_stream_facts *facts, ndpad_stream_work *work,
                        ndpad_stream *stream)
{
    const ndpad_plan *plan = facts->plan;
    const int64_t left_window = work->left_window, right_window = work->right_window;
    const int64_t left_entries = work->left_entries, right_entries = work->right_entries;
    const ndpad_seam_table *seam = work->seam_state == NDPAD_ONCE_YES ? &work->seam : NULL;
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const int64_t left = stream->left_bytes, interior_end = stream->interior_end;
    const int64_t row_bytes = stream->row_bytes;
    /* masks first: 8-byte aligned after the struct, whose size is a multiple of 8; then the
     * indices, each entry one 64-byte line (a load that straddles two lines costs more, and
     * a plan's speed would depend on where malloc put it) */
    const int64_t far_entries = seam != NULL && seam->far ? seam->entries : 0;
    uint64_t *masks = (uint64_t *)(stream + 1);
    stream->masks = left_entries + right_entries + far_entries;
    uint8_t *index = ndpad_stream_index_start(masks + stream->masks);
    stream->index_bytes = (left_entries + right_entries) * NDPAD_STREAM_BLOCK;
    const int64_t source_bytes = row->d * stream->elem_size;
    stream->left_window = left_window;
    stream->right_window = right_window;
    stream->left_window_mask = ndpad_stream_lane_range(0, source_bytes - left_window);
    stream->right_window_mask = ndpad_stream_lane_range(0, source_bytes - right_window);
    stream->left_mask = ndpad_stream_offset(stream, masks);
    stream->right_mask = ndpad_stream_offset(stream, masks + left_entries);
    stream->left_index = ndpad_stream_offset(stream, index);
    stream->right_index = ndpad_stream_offset(stream, index + left_entries * NDPAD_STREAM_BLOCK);
    fill_table(plan, row, 0, left, left_window, 1 - NDPAD_STREAM_BLOCK, left_entries, index, masks);
    fill_table(plan, row, interior_end, row_bytes, right_window,
               interior_end + 1 - NDPAD_STREAM_BLOCK, right_entries,
               index + left_entries * NDPAD_STREAM_BLOCK, masks + left_entries);
    if (seam != NULL) {
        uint8_t *seam_index = index + stream->index_bytes;
        uint8_t *far_index = seam_index + seam->entries * NDPAD_STREAM_BLOCK;
        uint64_t *far_mask = masks + left_entries + right_entries;
        fill_seam_index(seam, row_bytes, seam_index, far_index, far_mask);
        if (seam->far) {
            stream->seam_far_index = ndpad_stream_offset(stream, far_index);
            stream->seam_far_mask = ndpad_stream_offset(stream, far_mask);
            stream->index_bytes += far_entries * NDPAD_STREAM_BLOCK;
        }
        stream->seam_index = ndpad_stream_offset(stream, seam_index);
        stream->seam_ends = seam->ends;
        stream->tail_window = seam->tail;
        stream->head_window = seam->head;
        stream->index_bytes += seam->entries * NDPAD_STREAM_BLOCK;
    }
}

const ndpad_stream_strategy ndpad_stream_strategy_blocks = {
    .name = "blocks",
    .kind = NDPAD_STREAM_BLOCKS,
    .applies = blocks_applies,
    .table_bytes = blocks_table_bytes,
    .fill = blocks_fill,
    .lists_rows = true,
};

/* Rows the BLOCKS row takes by their length but declined (a border beyond one window or
 * NDPAD_STREAM_MAX_BORDER_BYTES): no stream (table.h). */
static ndpad_stream_verdict blocks_declined_applies(const ndpad_stream_facts *facts,
                                                    ndpad_stream_work *work)
{
    return !facts->constant && ndpad_stream_blocks_by_length(facts, work) ? NDPAD_STRATEGY_APPLIES
                                                                          : NDPAD_STRATEGY_DECLINES;
}

const ndpad_stream_strategy ndpad_stream_strategy_blocks_declined = {
    .name = "blocks_declined",
    .kind = NDPAD_STREAM_BLOCKS,
    .applies = blocks_declined_applies,
    .none = true,
};
