/* PLANES: CONSTANT, a dense input of small planes: each 64-byte block the input's next
 * bytes spread over its lanes by the plane's mask (vpexpandd, or vpexpandb with VBMI2). */
#include <string.h>

#include "stream/strategy.h"

/* The inverse of a modulo m (a and m coprime, m >= 1), by Euclid's algorithm extended. */
static int64_t inverse_mod(int64_t a, int64_t m)
{
    int64_t r0 = m, r1 = a % m, t0 = 0, t1 = 1;
    while (r1 != 0) {
        const int64_t q = r0 / r1, r = r0 - q * r1, t = t0 - q * t1;
        r0 = r1, r1 = r, t0 = t1, t1 = t;
    }
    return (t0 % m + m) % m;
}

/* CONSTANT, dense planes (facts) within the limits of table.h, in elements of whole lanes
 * of its level's kernel. */
static ndpad_stream_verdict planes_applies(const ndpad_stream_facts *facts, ndpad_stream_work *work)
{
    (void)work;
    if (!facts->constant || !facts->dense) return NDPAD_STRATEGY_DECLINES;
    const ndpad_plan *plan = facts->plan;
    const int64_t plane = facts->rows_per_plane * plan->row_bytes; /* checked by dense_planes */
    return plan->row_bytes < NDPAD_STREAM_MAX_PLANE_ROW_BYTES &&
                   ndpad_stream_lane(facts, NDPAD_STREAM_PLANES) > 0 &&
                   plane <= NDPAD_STREAM_MAX_PLANE_BYTES &&
                   plane / ndpad_stream_gcd(plane, NDPAD_STREAM_BLOCK) <=
                       NDPAD_STREAM_MAX_PLANE_PHASES
               ? NDPAD_STRATEGY_APPLIES
               : NDPAD_STRATEGY_DECLINES;
}

/* PLANES: the entries of a plane's blocks (stream-plan.h): their phases, and the entries
 * the table holds (whole repeats, NDPAD_STREAM_PLANE_RUN at least). */
static void planes_block_places(int64_t plane, int64_t *phases, int64_t *entries)
{
    *phases = plane / ndpad_stream_gcd(plane, NDPAD_STREAM_BLOCK);
    *entries = (NDPAD_STREAM_PLANE_RUN + *phases - 1) / *phases * *phases;
}

/* PLANES: whether each byte of the planes from a plane's start on is interior, one bit a
 * byte in interior[], up to byte `count`: row by row, a run of bits a row that reads the
 * input (planning a one-shot 64 x 43 x 43 uint8 pad spent 15 us asking byte by byte). */
static void plane_interior_bits(const ndpad_stream *stream, const int64_t *in_before,
                                int64_t rows_per_plane, uint64_t *interior, int64_t count)
{
    const int64_t row_bytes = stream->row_bytes;
    memset(interior, 0, (size_t)(count + 63) / 64 * sizeof(uint64_t));
    for (int64_t x = 0, j = 0; x < count; x += row_bytes, j = j + 1 == rows_per_plane ? 0 : j + 1) {
        if (in_before[j + 1] == in_before[j]) continue;
        const int64_t lo = x + stream->left_bytes;
        const int64_t hi = x + stream->interior_end < count ? x + stream->interior_end : count;
        for (int64_t b = lo; b < hi;) {
            const int64_t shift = b % 64, n = hi - b < 64 - shift ? hi - b : 64 - shift;
            interior[b / 64] |= (n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1) << shift;
            b += n;
        }
    }
}

static int64_t planes_table_bytes(const ndpad_stream_facts *facts, const ndpad_stream_work *work)
{
    (void)work;
    int64_t phases, entries;
    planes_block_places(facts->rows_per_plane * facts->row_bytes, &phases, &entries);
    return (entries + facts->rows_per_plane + 1) * (int64_t)sizeof(uint64_t);
}

/* The tables after the descriptor (stream-plan.h): the blocks' entries, in the order the
 * blocks come, then which rows of a plane read the input (their index along the axes from
 * `axis` on inside the copy range). */
static void planes_fill(const ndpad_stream_facts *facts, ndpad_stream_work *work,
                        ndpad_stream *stream)
{
    (void)work;
    const ndpad_plan *plan = facts->plan;
    const int64_t rows_per_plane = facts->rows_per_plane;
    const int32_t axis = facts->plane_axis;
    uint64_t *tables = (uint64_t *)(stream + 1); /* the struct's size is a multiple of 8 */
    const int64_t plane = rows_per_plane * stream->row_bytes;
    int64_t phases, entries;
    planes_block_places(plane, &phases, &entries);
    int64_t *in_before = (int64_t *)(tables + entries);
    ndpad_stream_fill_plane_in_before(plan, stream, rows_per_plane, axis, in_before);
    uint64_t interior[(NDPAD_STREAM_MAX_PLANE_BYTES + NDPAD_STREAM_BLOCK) / 64 + 1];
    plane_interior_bits(stream, in_before, rows_per_plane, interior, plane + NDPAD_STREAM_BLOCK);
    const bool lanes_of_4 = ndpad_stream_lane(facts, NDPAD_STREAM_PLANES) == 4;
    const int64_t step = NDPAD_STREAM_BLOCK % plane;
    for (int64_t k = 0, f = 0; k < entries; k++) {
        /* the interior bytes of the block's 64 from plane byte f */
        const int64_t w = f / 64, shift = f % 64;
        const uint64_t m = interior[w] >> shift | (shift > 0 ? interior[w + 1] << (64 - shift) : 0);
        tables[k] = m;
        if (lanes_of_4) {
            /* the block's 4-byte lanes (bits 0, 4, .. 60 of m, gathered), and the input
             * bytes they take (elements are whole lanes: a lane is interior or pad whole) */
            uint64_t lanes = m & 0x1111111111111111u;
            lanes = (lanes | lanes >> 3) & 0x0303030303030303u;
            lanes = (lanes | lanes >> 6) & 0x000F000F000F000Fu;
            lanes = (lanes | lanes >> 12) & 0x000000FF000000FFu;
            lanes = (lanes | lanes >> 24) & 0xFFFFu;
            tables[k] = lanes | (uint64_t)(4 * __builtin_popcountll(lanes)) << 16;
        }
        f += step;
        if (f >= plane) f -= plane;
    }
    /* the entry of plane byte q ndpad_stream_gcd(64, plane): q times the inverse of 64 / gcd modulo the
     * phases */
    stream->plane_phase_inverse =
        inverse_mod(NDPAD_STREAM_BLOCK / ndpad_stream_gcd(plane, NDPAD_STREAM_BLOCK), phases);
    stream->plane_phases = phases;
    stream->plane_entries = entries;
    stream->plane_masks = ndpad_stream_offset(stream, tables);
}

const ndpad_stream_strategy ndpad_stream_strategy_planes = {
    .name = "planes",
    .kind = NDPAD_STREAM_PLANES,
    .applies = planes_applies,
    .table_bytes = planes_table_bytes,
    .fill = planes_fill,
};
