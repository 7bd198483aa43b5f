/* Whether a plan can use the output-stream path, and its precomputed border tables. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "checked.h"
#include "isa-slots.h"
#include "isa.h"
#include "row-list.h"
#include "stream-plan.h"

/* Border tables grow with the border (64 + 8 bytes per border byte and side); beyond this
 * the per-row fillers of the executor, which broadcast long runs, are as good. */
#define NDPAD_STREAM_MAX_BORDER_BYTES 256
/* Shorter rows do not take the BLOCKS kernels by default: with every block assembled from
 * two or three rows, they measured 1.5-3x slower on 128-256 B reflect rows and at best even
 * on 16-64 B constant rows (row-length sweep, one thread, loaded AMD EPYC), while from 512 B
 * on they tie or win (volume reflect, 528 B rows: 72 -> 66 us; crop-pad ~10%). */
#define NDPAD_STREAM_MIN_BLOCK_ROW_BYTES 512
/* Rows that read the input and whose seams are one permute each (the seam table,
 * stream-plan.h) take them from this length on, which is every row the table can serve.
 * Against the ROWS kernel, one thread, 4 MiB outputs of fp32 reflect rows, ratio to memcpy,
 * back to back: 72 B 2.14 -> 1.39, 96 B 2.30 -> 1.65, 128 B 1.78 -> 1.39, 176 B 1.45 ->
 * 1.27, 208 B 1.46 -> 1.19, 240 B 1.29 -> 1.11; 192, 224 and 256 B even; 160 B the one loss,
 * 1.58 -> 1.69 (at 16 MiB, 1.04 -> 0.79). Edge and symmetric alike. (It was 256 bytes
 * while the seam loop was slower: 264 B 1.32 -> 1.30 then.) */
#define NDPAD_STREAM_MIN_SEAM_ROW_BYTES 64
/* Rows up to this many vector widths of the level (isa-levels.inc: 16 bytes scalar, 32
 * AVX2, 64 AVX-512) take the ROWS kernels by default in the modes that read the input, where
 * no BLOCKS kernel does: callgrind, reflect sweep, instructions per output byte, executor's
 * rows -> ROWS. AVX2: 16 B 9.3 -> 3.8, 64 B 2.3 -> 1.0, 256 B 0.66 -> 0.37, 512 B 0.44 ->
 * 0.27, 1 KiB 0.27 -> 0.21, 2 KiB 0.18 -> 0.18; volume (528 B) 0.57 -> 0.29, 5d (264 B)
 * 0.65 -> 0.37. Scalar (16-byte moves): 16 B 9.1 -> 3.7, 256 B 0.63 -> 0.53, 512 B 0.41 ->
 * 0.42, 1 KiB 0.25 -> 0.37. */
#define NDPAD_STREAM_MAX_ROWS_WIDTHS 32
/* CONSTANT rows under this many bytes take the ROWS kernel on levels of 32-byte vectors or
 * wider that have no block kernel for them (AVX2), in place of the executor's copy and
 * fill calls per row, whose instructions were as few (callgrind, AVX2: 64 B 0.75 vs 0.79
 * per output byte, 512 B 0.25 vs 0.24) but not as fast once the plan holds its row list.
 * AVX2, one thread, 1 MiB of fp32 rows in the cache, ratio to a memcpy: 96 B 3.3 -> 2.1,
 * 128 B 2.6 -> 1.8, 192 B 2.3 -> 1.5, 384 B 1.4 -> 1.2; 1x128x28x28 pad 1 2.0 -> 1.7; from
 * 512 B on even, and 1 KiB rows 1.23 -> 1.14, but a 16 MiB output of 1 KiB rows 0.65 ->
 * 0.92: the executor's rows stream their stores past the cache, which the kernel does not
 * (tile-choice.c sends such tiles there). */
#define NDPAD_STREAM_MAX_CONSTANT_ROWS_BYTES 512

/* Source byte, from the row's start, of output row byte q (a border byte). */
static int64_t source_byte(const ndpad_plan *plan, const ndpad_dim *row, int64_t q)
{
    const int64_t es = (int64_t)plan->elem_size;
    return ndpad_dim_source(row, plan->mode, q / es) * es + q % es;
}

/* Lanes [lo, hi) of a 64-lane mask, each bound clamped to [0, 64]. */
static uint64_t lane_range(int64_t lo, int64_t hi)
{
    lo = lo < 0 ? 0 : lo > 64 ? 64 : lo;
    hi = hi < 0 ? 0 : hi > 64 ? 64 : hi;
    if (hi <= lo) return 0;
    const uint64_t below_hi = hi == 64 ? ~(uint64_t)0 : ((uint64_t)1 << hi) - 1;
    const uint64_t below_lo = lo == 64 ? ~(uint64_t)0 : ((uint64_t)1 << lo) - 1;
    return below_hi & ~below_lo;
}

/* The window of border bytes [q0, q1): its first source byte in *window, false when they
 * span more than one block. */
static bool border_window(const ndpad_plan *plan, const ndpad_dim *row, int64_t q0, int64_t q1,
                          int64_t *window)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t q = q0; q < q1; q++) {
        const int64_t s = source_byte(plan, row, q);
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
        mask[e] = lane_range(q0 - p, q1 - p);
        for (int64_t k = 0; k < NDPAD_STREAM_BLOCK; k++) {
            const int64_t q = p + k;
            index[e * NDPAD_STREAM_BLOCK + k] =
                q >= q0 && q < q1 ? (uint8_t)(source_byte(plan, row, q) - window) : 0;
        }
    }
}

/* The seam map's bytes at most: entries (the right border plus a block, the left border)
 * and a block more. */
#define NDPAD_SEAM_MAP_BYTES (2 * NDPAD_STREAM_MAX_BORDER_BYTES + 3 * NDPAD_STREAM_BLOCK)

/* The seam table (stream-plan.h) of a plan whose rows read the input. */
typedef struct seam_table {
    int64_t entries, ends; /* blocks that meet a row's end, then those from a left border */
    int64_t first;         /* row byte of map[0]                                      */
    int64_t tail, head;    /* the windows' first source bytes                         */
    /* Every entry is 64 consecutive bytes of one map over the bytes q = first + j from the
     * start of a row (q >= row_bytes: byte q - row_bytes of the next row), so the map is
     * built once, with a call per border byte, and the entries are copies of it. A byte
     * outside its row's near window (a row's end: the tail; a row's start: the head) that
     * lies in the row's far one (wrap) is taken by a second permute: far_map, is_far. */
    uint8_t map[NDPAD_SEAM_MAP_BYTES];
    uint8_t far_map[NDPAD_SEAM_MAP_BYTES];
    uint8_t is_far[NDPAD_SEAM_MAP_BYTES];
    bool far; /* some byte is */
} seam_table;

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
                     int64_t src_interior, seam_table *t)
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
        const int64_t source =
            r >= left && r < interior_end ? src_interior + (r - left) : source_byte(plan, row, r);
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
static void fill_seam_index(const seam_table *t, int64_t row_bytes, uint8_t *index,
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

/* NDPAD_STREAM: "off" never takes the stream path (A/B measurements); "always" takes it
 * whatever the row length, with the level's BLOCKS kernel where it has one for the mode and
 * its ROWS kernel otherwise; "reference" with the scalar ROWS kernel on every level (tests).
 * SHORT_ROWS (and its 16- and 128-byte kinds), where the level has it and a row fits, comes
 * first in every case but "reference" (after PLANES, which serves a whole plane at once).
 * Unset: the BLOCKS kernel for rows of NDPAD_STREAM_MIN_BLOCK_ROW_BYTES or more (of
 * NDPAD_STREAM_MIN_SEAM_ROW_BYTES with a seam table; CONSTANT rows of 64 bytes up to
 * NDPAD_STREAM_MAX_ROW_MASK_BYTES with row masks), the ROWS
 * kernel for rows up to NDPAD_STREAM_MAX_ROWS_WIDTHS vectors that read the input, else the
 * executor's rows. */
/* Each level's vector width in bytes (isa-levels.inc). */
static const int64_t level_width[NDPAD_ISA_SLOTS] = {
#define NDPAD_ISA_LEVEL(ID, name, PARENT, arch, width, ...) [NDPAD_ISA_##ID] = width,
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
};

enum stream_choice { STREAM_DEFAULT, STREAM_OFF, STREAM_ALWAYS, STREAM_REFERENCE };

static enum stream_choice stream_choice_from_environment(void)
{
    const char *env = getenv("NDPAD_STREAM");
    if (env == NULL) return STREAM_DEFAULT;
    if (strcmp(env, "off") == 0) return STREAM_OFF;
    if (strcmp(env, "always") == 0) return STREAM_ALWAYS;
    if (strcmp(env, "reference") == 0) return STREAM_REFERENCE;
    return STREAM_DEFAULT;
}

/* SHORT_ROWS: whether a row of at most 64 bytes reads only bytes of one 64-byte window of
 * its source row (loaded masked to them); with `stream`, its byte map, window and masks
 * too. */
static bool short_map(const ndpad_plan *plan, const ndpad_dim *row, ndpad_stream *stream)
{
    const int64_t width = NDPAD_STREAM_BLOCK;
    const int64_t es = (int64_t)plan->elem_size;
    /* without VBMI's byte permutes (AVX-512 F): elements of whole 4-byte lanes */
    const bool lanes = !ndpad_isa_refines(plan->isa, NDPAD_ISA_AVX512_VBMI);
    if (plan->row_bytes > width || (lanes && es % 4 != 0)) return false;
    int64_t lo = INT64_MAX, hi = -1;
    for (int64_t q = 0; q < plan->row_bytes; q++) {
        const int64_t i = ndpad_dim_source(row, plan->mode, q / es);
        if (i < 0) continue;
        lo = i * es + q % es < lo ? i * es + q % es : lo;
        hi = i * es + q % es > hi ? i * es + q % es : hi;
    }
    if (hi < 0 || hi - lo >= width) return false;
    const int64_t window = lo;
    if (stream == NULL) return true;
    stream->short_window = window;
    stream->short_window_mask = lane_range(0, hi - lo + 1); /* the bytes read */
    stream->short_pad_mask = 0;
    for (int64_t q = 0; q < plan->row_bytes; q++) {
        const int64_t i = ndpad_dim_source(row, plan->mode, q / es);
        stream->short_map[q] = i < 0 ? 0 : (uint8_t)(i * es + q % es - window);
        if (i < 0) stream->short_pad_mask |= (uint64_t)1 << q;
    }
    if (lanes) /* (elements of whole lanes start on lanes, the window among them) */
        for (int64_t l = 0; 4 * l < plan->row_bytes; l++)
            stream->short_lanes[l] = stream->short_map[4 * l] / 4u;
    return true;
}

/* SHORT_ROWS_16: whether a row of at most 64 bytes reads, in each 16-byte segment, only
 * bytes of one 16-byte window inside its source row (loaded whole), or of the whole source
 * row where that is shorter than 16 bytes (its 4-byte words, or where it is not made of
 * them, its first and last 8 bytes, 4 under 8 bytes); with `stream`, the segments' windows, their byte maps
 * and the word mask too. */
static bool segment_map(const ndpad_plan *plan, const ndpad_dim *row, ndpad_stream *stream)
{
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
            const int64_t b = source_byte(plan, row, q);
            if (b < 0) continue; /* pad */
            lo = b < lo ? b : lo;
            hi = b > hi ? b : hi;
        }
        window[s] = hi < 0 || !whole ? 0 : lo < source_bytes - 16 ? lo : source_bytes - 16;
        second[s] = window[s];
        if (hi - window[s] < 16) continue;
        if (!whole || plan->mode == NDPAD_CONSTANT) return false;
        for (int64_t q = 16 * s; q < row_bytes && q < 16 * s + 16; q++) {
            const int64_t b = source_byte(plan, row, q);
            if (b - window[s] < 16) continue;
            lo_b = b < lo_b ? b : lo_b;
            hi_b = b > hi_b ? b : hi_b;
        }
        second[s] = lo_b < source_bytes - 16 ? lo_b : source_bytes - 16;
        if (hi_b - second[s] >= 16) return false;
        two = true;
    }
    if (stream == NULL) return true;
    stream->short_segments = segments;
    stream->short_window_mask = whole ? 0 : lane_range(0, source_bytes / 4);
    stream->short_overlap = overlap ? source_bytes : 0;
    stream->short_two_windows = two;
    memset(stream->short_map, 0x80, sizeof(stream->short_map));
    memset(stream->short_map_second, 0x80, sizeof(stream->short_map_second));
    for (int64_t q = 0; q < row_bytes; q++) {
        const int64_t source = source_byte(plan, row, q);
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

/* SHORT_ROWS_128: whether a row of 65 to 128 bytes, in a mode that reads the input, reads
 * only bytes of one 128-byte window of its source row; with `stream`, its byte map and the
 * masks of the window's two halves too (bytes of the source row only). */
static bool wide_map(const ndpad_plan *plan, const ndpad_dim *row, ndpad_stream *stream)
{
    const int64_t width = 2 * NDPAD_STREAM_BLOCK;
    /* without VBMI's byte permutes, 4-byte lanes: whole elements of them, in place */
    const bool lanes = !ndpad_isa_refines(plan->isa, NDPAD_ISA_AVX512_VBMI);
    if (plan->mode == NDPAD_CONSTANT || plan->row_bytes <= NDPAD_STREAM_BLOCK ||
        plan->row_bytes > width || (lanes && plan->elem_size % 4 != 0))
        return false;
    int64_t lo = INT64_MAX, hi = -1;
    for (int64_t q = 0; q < plan->row_bytes; q++) {
        const int64_t b = source_byte(plan, row, q);
        lo = b < lo ? b : lo;
        hi = b > hi ? b : hi;
    }
    if (hi < 0 || hi - lo >= width) return false;
    if (stream == NULL) return true;
    stream->short_window = lo;
    stream->wide_window_mask[0] = lane_range(0, hi - lo + 1);
    stream->wide_window_mask[1] = lane_range(0, hi - lo + 1 - NDPAD_STREAM_BLOCK);
    for (int64_t q = 0; q < plan->row_bytes; q++)
        stream->wide_map[q] = (uint8_t)(source_byte(plan, row, q) - lo);
    /* (elements of whole lanes start on lanes, lo among them) */
    for (int64_t l = 0; 4 * l < plan->row_bytes; l++)
        stream->wide_lanes[l] = stream->wide_map[4 * l] / 4u;
    return true;
}

/* SHORT_ROWS: the group of rows one window serves (stream-plan.h, short_group_*), from the
 * row's map: as many rows as fit in a block (at most 8: the kernel tests their sources with
 * one compare), their source rows one input row apart (the axis above the row's stride)
 * and every byte they read inside one 64-byte window. None where fewer than two fit. */
static void short_group(const ndpad_plan *plan, ndpad_stream *stream)
{
    const int64_t row_bytes = plan->row_bytes;
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

/* The PLANES kernel's lane (stream-plan.h): 1 byte on levels that expand bytes (AVX-512
 * VBMI2's vpexpandb), else 4 (AVX-512 F's vpexpandd). */
static int64_t plane_lane(const ndpad_plan *plan)
{
    return ndpad_isa_refines(plan->isa, NDPAD_ISA_AVX512_VBMI2) ? 1 : 4;
}

/* PLANES, PLANES_16 and PLANES_PERMUTE (stream-plan.h): whether a plan copies a whole dense
 * input, in order (no crop, no interior padding), into planes of at most `max_plane` bytes;
 * *rows_per_plane and *axis (the outermost padded axis, where a plane starts) then. Each
 * plane reads its own input plane, the input's planes one after another. */
static bool dense_planes(const ndpad_plan *plan, int64_t max_plane, int64_t *rows_per_plane,
                         int32_t *axis)
{
    if (plan->in_offset != 0) return false;
    int64_t stride = (int64_t)plan->elem_size;
    int32_t a = -1;
    for (int32_t k = plan->ndim - 1; k >= 0; k--) {
        const ndpad_dim *x = &plan->dim[k];
        if (x->r != 0 || x->copy_begin != x->b || x->b < 0 || x->copy_end - x->b != x->d ||
            x->in_stride != stride)
            return false;
        if (x->n != x->d) a = k;
        if (k > 0 && ndpad_mul_overflows(stride, x->d, &stride)) return false;
    }
    if (a < 0) return false;
    int64_t rows = 1, bytes;
    for (int32_t k = a; k + 1 < plan->ndim; k++)
        if (ndpad_mul_overflows(rows, plan->dim[k].n, &rows) ||
            ndpad_mul_overflows(rows, plan->row_bytes, &bytes) || bytes > max_plane)
            return false;
    *rows_per_plane = rows;
    *axis = a;
    return true;
}

static int64_t gcd(int64_t a, int64_t b)
{
    while (b != 0) {
        const int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

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

/* PLANES: dense planes (above, `rows_per_plane` rows each) within the limits of
 * stream-plan.h, in elements of whole lanes of its level's kernel. */
static bool plane_rows(const ndpad_plan *plan, int64_t rows_per_plane)
{
    const int64_t plane = rows_per_plane * plan->row_bytes; /* checked by dense_planes */
    return plan->row_bytes < NDPAD_STREAM_MAX_PLANE_ROW_BYTES &&
           (int64_t)plan->elem_size % plane_lane(plan) == 0 &&
           plane <= NDPAD_STREAM_MAX_PLANE_BYTES &&
           plane / gcd(plane, NDPAD_STREAM_BLOCK) <= NDPAD_STREAM_MAX_PLANE_PHASES;
}

/* PLANES_16: dense planes (above, `rows_per_plane` rows each) of rows under
 * NDPAD_STREAM_MAX_PLANE16_ROW_BYTES whose period holds at most
 * NDPAD_STREAM_MAX_PLANE16_PHASES block positions, in elements that divide 16 (every block
 * then starts the pad pattern afresh); *phases then. */
static bool plane16_rows(const ndpad_plan *plan, int64_t rows_per_plane, int64_t *phases)
{
    if (plan->row_bytes >= NDPAD_STREAM_MAX_PLANE16_ROW_BYTES || 16 % (int64_t)plan->elem_size != 0)
        return false;
    const int64_t plane = rows_per_plane * plan->row_bytes;
    *phases = plane / gcd(plane, 16);
    return *phases <= NDPAD_STREAM_MAX_PLANE16_PHASES;
}

/* The largest plane any plane kind takes (dense_planes is asked once for all). */
#define NDPAD_STREAM_MAX_ANY_PLANE_BYTES                                                           \
    (NDPAD_STREAM_MAX_PLANE_BYTES > 16 * NDPAD_STREAM_MAX_PLANE16_PHASES                           \
         ? NDPAD_STREAM_MAX_PLANE_BYTES                                                            \
         : 16 * NDPAD_STREAM_MAX_PLANE16_PHASES)

/* Of a plane's rows, which read the input (their index along the axes from `axis` on
 * inside the copy range): in_before[j], the input bytes of the rows before row j; and the
 * plane fields both plane kinds share (stream-plan.h). */
static void fill_plane_in_before(const ndpad_plan *plan, ndpad_stream *stream,
                                 int64_t rows_per_plane, int32_t axis, int64_t *in_before)
{
    const int64_t interior = stream->interior_end - stream->left_bytes;
    in_before[0] = 0;
    for (int64_t j = 0; j < rows_per_plane; j++) {
        bool input = true;
        int64_t t = j;
        for (int32_t k = plan->ndim - 2; k >= axis; k--) {
            const ndpad_dim *x = &plan->dim[k];
            const int64_t o = t % x->n;
            t /= x->n;
            input = input && o >= x->copy_begin && o < x->copy_end;
        }
        in_before[j + 1] = in_before[j] + (input ? interior : 0);
    }
    stream->plane_bytes = rows_per_plane * stream->row_bytes;
    stream->plane_rows = rows_per_plane;
    stream->plane_in_bytes = in_before[rows_per_plane];
    stream->plane_in_before = in_before;
}

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

/* PLANES: the entries of a plane's blocks (stream-plan.h): their phases, and the entries
 * the table holds (whole repeats, NDPAD_STREAM_PLANE_RUN at least). */
static void plane_entries(int64_t plane, int64_t *phases, int64_t *entries)
{
    *phases = plane / gcd(plane, NDPAD_STREAM_BLOCK);
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

static int64_t plane_table_entries(int64_t plane)
{
    int64_t phases, entries;
    plane_entries(plane, &phases, &entries);
    return entries;
}

/* PLANES: the tables at `tables` (stream-plan.h): the blocks' entries, in the order the
 * blocks come, then which rows of a plane read the input (their index along the axes from
 * `axis` on inside the copy range). */
static void fill_planes(const ndpad_plan *plan, ndpad_stream *stream, int64_t rows_per_plane,
                        int32_t axis, uint64_t *tables)
{
    const int64_t plane = rows_per_plane * stream->row_bytes;
    int64_t phases, entries;
    plane_entries(plane, &phases, &entries);
    int64_t *in_before = (int64_t *)(tables + entries);
    fill_plane_in_before(plan, stream, rows_per_plane, axis, in_before);
    uint64_t interior[(NDPAD_STREAM_MAX_PLANE_BYTES + NDPAD_STREAM_BLOCK) / 64 + 1];
    plane_interior_bits(stream, in_before, rows_per_plane, interior, plane + NDPAD_STREAM_BLOCK);
    const bool lanes_of_4 = plane_lane(plan) == 4;
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
    /* the entry of plane byte q gcd(64, plane): q times the inverse of 64 / gcd modulo the
     * phases */
    stream->plane_phase_inverse =
        inverse_mod(NDPAD_STREAM_BLOCK / gcd(plane, NDPAD_STREAM_BLOCK), phases);
    stream->plane_phases = phases;
    stream->plane_entries = entries;
    stream->plane_masks = tables;
}

/* PLANES_16: the tables at `tables` (stream-plan.h): which rows of a plane read the input,
 * then each block position's shuffle index and input bytes. */
static void fill_planes_16(const ndpad_plan *plan, ndpad_stream *stream, int64_t rows_per_plane,
                           int32_t axis, int64_t phases, int64_t *tables)
{
    int64_t *in_before = tables;
    fill_plane_in_before(plan, stream, rows_per_plane, axis, in_before);
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
    stream->plane_in_at = in_at;
    stream->plane_index = index;
}

/* PLANES_PERMUTE: the lane its level permutes (stream-plan.h), 1 byte with VBMI's vpermt2b,
 * else 4 (vpermt2d) or 2 (vpermt2w) where the elements are whole lanes; 0 for none. */
static int64_t permute_lane(const ndpad_plan *plan)
{
    if (ndpad_isa_refines(plan->isa, NDPAD_ISA_AVX512_VBMI)) return 1;
    return plan->elem_size % 4 == 0 ? 4 : plan->elem_size % 2 == 0 ? 2 : 0;
}

/* PLANES_PERMUTE: the phases of a plane's blocks (`plane` bytes, from the output's start)
 * within the limits of stream-plan.h, or 0. */
static int64_t permute_phases(const ndpad_plan *plan, int64_t rows_per_plane)
{
    const int64_t plane = rows_per_plane * plan->row_bytes;
    const int64_t phases = plane / gcd(plane, NDPAD_STREAM_BLOCK);
    return plan->mode != NDPAD_CONSTANT && permute_lane(plan) > 0 &&
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
static bool fill_permute(const ndpad_plan *plan, int64_t rows_per_plane, int32_t axis,
                         int64_t phases, int32_t *window, uint8_t *index)
{
    const int64_t row_bytes = plan->row_bytes, es = (int64_t)plan->elem_size;
    const int64_t lane = permute_lane(plan);
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

/* PLANES_PERMUTE: the stream's fields (stream-plan.h), its windows at `window` followed by
 * its indices, made by fill_permute. */
static void fill_plane_permute(const ndpad_plan *plan, ndpad_stream *stream, int64_t rows_per_plane,
                               int32_t axis, int64_t phases, const int32_t *window)
{
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
    stream->permute_window = window;
    stream->permute_index = (const uint8_t *)(window + phases);
    stream->permute_lane = permute_lane(plan);
}

/* Whether a CONSTANT plan's rows are of the lengths the row masks serve (stream-plan.h),
 * where its level has a BLOCKS kernel. */
static bool row_mask_rows(const ndpad_plan *plan)
{
    return plan->mode == NDPAD_CONSTANT && plan->row_bytes >= NDPAD_STREAM_BLOCK &&
           plan->row_bytes < NDPAD_STREAM_MAX_ROW_MASK_BYTES;
}

/* The kind of kernel for the plan, from its level's row of the kernel table, in *kind and
 * *kernels; false for none (the executor's rows then serve). `has_planes`: the plan's planes
 * fit the PLANES kernel (plane_rows). */
static bool choose_kernel(const ndpad_plan *plan, bool has_seam, bool has_planes,
                          bool has_planes_16, bool has_permute, ndpad_stream_kind *kind,
                          const ndpad_kernels **kernels)
{
    const enum stream_choice choice = stream_choice_from_environment();
    if (choice == STREAM_OFF) return false;
    *kernels = plan->kernels;
    *kind = NDPAD_STREAM_ROWS;
    if (choice == STREAM_REFERENCE) {
        *kernels = ndpad_kernels_select(NDPAD_ISA_SCALAR, plan->elem_size);
        return true;
    }
    const ndpad_stream_kind blocks =
        plan->mode == NDPAD_CONSTANT ? NDPAD_STREAM_BLOCKS_CONSTANT : NDPAD_STREAM_BLOCKS;
    const bool has_blocks = plan->kernels->stream[blocks] != NULL;
    /* short CONSTANT rows of a dense input: a block of their planes at a time */
    if (has_planes && plan->kernels->stream[NDPAD_STREAM_PLANES] != NULL) {
        *kind = NDPAD_STREAM_PLANES;
        return true;
    }
    /* the same in 16-byte shuffles, but where the row masks serve (AVX-512) */
    if (has_planes_16 && plan->kernels->stream[NDPAD_STREAM_PLANES_16] != NULL &&
        !(has_blocks && row_mask_rows(plan))) {
        *kind = NDPAD_STREAM_PLANES_16;
        return true;
    }
    /* short rows of a dense input: a block of their planes at a time, but rows of whole
     * 16-byte segments store those whole (stream-plan.h) */
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    if (has_permute && plan->row_bytes % 16 == 0 && plan->row_bytes >= 32 &&
        plan->kernels->stream[NDPAD_STREAM_SHORT_ROWS_16] != NULL && segment_map(plan, row, NULL)) {
        *kind = NDPAD_STREAM_SHORT_ROWS_16;
        return true;
    }
    if (has_permute && plan->kernels->stream[NDPAD_STREAM_PLANES_PERMUTE] != NULL) {
        *kind = NDPAD_STREAM_PLANES_PERMUTE;
        return true;
    }
    /* one permutation a row beats every other way, in every mode */
    if (plan->kernels->stream[NDPAD_STREAM_SHORT_ROWS] != NULL && short_map(plan, row, NULL)) {
        *kind = NDPAD_STREAM_SHORT_ROWS;
        return true;
    }
    if (plan->kernels->stream[NDPAD_STREAM_SHORT_ROWS_16] != NULL && segment_map(plan, row, NULL)) {
        *kind = NDPAD_STREAM_SHORT_ROWS_16;
        return true;
    }
    if (plan->kernels->stream[NDPAD_STREAM_SHORT_ROWS_128] != NULL && wide_map(plan, row, NULL)) {
        *kind = NDPAD_STREAM_SHORT_ROWS_128;
        return true;
    }
    if (choice == STREAM_ALWAYS) {
        if (has_blocks) *kind = blocks;
        return true;
    }
    if (has_blocks &&
        (plan->row_bytes >= NDPAD_STREAM_MIN_BLOCK_ROW_BYTES ||
         (has_seam && plan->row_bytes >= NDPAD_STREAM_MIN_SEAM_ROW_BYTES) || row_mask_rows(plan))) {
        *kind = blocks;
        return true;
    }
    const int64_t width = (int)plan->isa > NDPAD_ISA_AUTO && (int)plan->isa < NDPAD_ISA_SLOTS
                              ? level_width[plan->isa]
                              : 16;
    if (plan->mode == NDPAD_CONSTANT)
        return width >= 32 && plan->row_bytes < NDPAD_STREAM_MAX_CONSTANT_ROWS_BYTES;
    return plan->row_bytes <= NDPAD_STREAM_MAX_ROWS_WIDTHS * width;
}

/* The ROWS kernels' list: the source element of each border element, left then right. */
static void fill_border_source(const ndpad_plan *plan, const ndpad_dim *row, int64_t *source)
{
    int64_t k = 0;
    for (int64_t o = 0; o < row->copy_begin; o++)
        source[k++] = ndpad_dim_source(row, plan->mode, o);
    for (int64_t o = row->copy_end; o < row->n; o++)
        source[k++] = ndpad_dim_source(row, plan->mode, o);
}

/* Whether the plan's output is one stream of dense rows that read the input (and, for
 * CONSTANT, mostly input rows); *src_interior: the interior's first source byte, inside
 * the source row. */
static bool stream_fits(const ndpad_plan *plan, int64_t *src_interior)
{
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const int64_t es = (int64_t)plan->elem_size;
    const bool constant = plan->mode == NDPAD_CONSTANT;
    if (plan->empty || !plan->reads_input || !plan->inner_dense || !plan->out_contiguous ||
        row->r != 0 || row->n < 1 || es < 1)
        return false;
    if (constant && (es > NDPAD_STREAM_BLOCK || NDPAD_STREAM_BLOCK % es != 0)) return false;
    if (constant) {
        /* Mostly pad rows (e.g. ov-small, 16% input rows): the executor fills a run of pad
         * rows as one gap, while the stream visits every row (1.2 vs 3.4 us). */
        int64_t input_rows = 1;
        for (int32_t k = 0; k + 1 < plan->ndim; k++) input_rows *= plan->dim[k].d;
        if (input_rows < plan->rows / 2) return false;
    }
    /* A row with no interior (all of it clamped or cropped away, e.g. EDGE with a pad near
     * -2^63) reads nothing there, and copy_begin - b may lie far outside the row, even
     * beyond int64: 0, so that the kernels never form a pointer out of the row (they do,
     * for a copy of zero bytes). */
    *src_interior = 0;
    return !(row->copy_begin < row->copy_end &&
             (ndpad_sub_overflows(row->copy_begin, row->b, src_interior) ||
              ndpad_mul_overflows(*src_interior, es, src_interior)));
}

/* The first 64-byte boundary at or after `p`: where the index tables start. */
static uint8_t *index_start(void *p)
{
    return (uint8_t *)(((uintptr_t)p + NDPAD_STREAM_BLOCK - 1) &
                       ~(uintptr_t)(NDPAD_STREAM_BLOCK - 1));
}

/* The BLOCKS tables of a mode that reads the input: for each side, the source window and,
 * per block position, the border lanes and their window bytes (masks first, then the
 * indices, after the struct). */
static void fill_block_tables(const ndpad_plan *plan, ndpad_stream *stream, int64_t left_window,
                              int64_t right_window, int64_t left_entries, int64_t right_entries,
                              const seam_table *seam)
{
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const int64_t left = stream->left_bytes, interior_end = stream->interior_end;
    const int64_t row_bytes = stream->row_bytes;
    /* masks first: 8-byte aligned after the struct, whose size is a multiple of 8; then the
     * indices, each entry one 64-byte line (a load that straddles two lines costs more, and
     * a plan's speed would depend on where malloc put it) */
    const int64_t far_entries = seam != NULL && seam->far ? seam->entries : 0;
    uint64_t *masks = (uint64_t *)(stream + 1);
    stream->masks = left_entries + right_entries + far_entries;
    uint8_t *index = index_start(masks + stream->masks);
    stream->index_bytes = (left_entries + right_entries) * NDPAD_STREAM_BLOCK;
    const int64_t source_bytes = row->d * stream->elem_size;
    stream->left_window = left_window;
    stream->right_window = right_window;
    stream->left_window_mask = lane_range(0, source_bytes - left_window);
    stream->right_window_mask = lane_range(0, source_bytes - right_window);
    stream->left_mask = masks;
    stream->right_mask = masks + left_entries;
    stream->left_index = index;
    stream->right_index = index + left_entries * NDPAD_STREAM_BLOCK;
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
            stream->seam_far_index = far_index;
            stream->seam_far_mask = far_mask;
            stream->index_bytes += far_entries * NDPAD_STREAM_BLOCK;
        }
        stream->seam_index = seam_index;
        stream->seam_ends = seam->ends;
        stream->tail_window = seam->tail;
        stream->head_window = seam->head;
        stream->index_bytes += seam->entries * NDPAD_STREAM_BLOCK;
    }
}

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
        masks[2 * p] = lane_range(left - p, interior_end - p);
        masks[2 * p + 1] = lane_range(row_bytes + left - p, row_bytes + interior_end - p);
    }
    stream->masks = row_mask_entries(row_bytes, expand);
    stream->row_masks = masks;
    if (!expand) return;
    /* in 4-byte lanes: the row's bytes, its borders and elements are all multiples of 4 */
    uint64_t *entries = masks + 2 * row_bytes;
    const int64_t n = row_bytes / 4, lo = left / 4, hi = interior_end / 4;
    for (int64_t q = 0; q < n; q++) {
        const uint64_t lanes =
            (lane_range(lo - q, hi - q) | lane_range(n + lo - q, n + hi - q)) & 0xffff;
        const int64_t read = 4 * (q < lo ? 0 : q < hi ? q - lo : hi - lo);
        const uint64_t load = ((uint64_t)1 << __builtin_popcountll(lanes)) - 1;
        entries[q] = lanes | load << 16 | (uint64_t)read << 32;
    }
    stream->row_expand = entries;
}

ndpad_status ndpad_stream_plan(const ndpad_plan *plan, ndpad_stream **result, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    *result = NULL;
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const int64_t es = (int64_t)plan->elem_size;
    const bool constant = plan->mode == NDPAD_CONSTANT;
    int64_t src_interior;
    if (!stream_fits(plan, &src_interior)) return NDPAD_OK;
    const int64_t row_bytes = plan->row_bytes;
    const int64_t left = row->copy_begin * es, interior_end = row->copy_end * es;
    /* the seam map only where the level has a BLOCKS kernel to use it (plan time) */
    seam_table seam;
    const bool has_seam = !constant && row_bytes >= NDPAD_STREAM_MIN_SEAM_ROW_BYTES &&
                          plan->kernels->stream[NDPAD_STREAM_BLOCKS] != NULL &&
                          seam_map(plan, left, interior_end, src_interior, &seam);
    int64_t rows_per_plane = 0, phases_16 = 0;
    int32_t plane_axis = 0;
    const bool dense =
        dense_planes(plan, NDPAD_STREAM_MAX_ANY_PLANE_BYTES, &rows_per_plane, &plane_axis);
    const bool has_planes = constant && dense && plane_rows(plan, rows_per_plane);
    const bool has_planes_16 = constant && dense && plane16_rows(plan, rows_per_plane, &phases_16);
    /* PLANES_PERMUTE's tables, made before the choice: whether every block's bytes lie
     * within one window is known only from them */
    const int64_t phases_permute = dense ? permute_phases(plan, rows_per_plane) : 0;
    int32_t *permute = NULL; /* the windows, then the byte indices */
    bool has_permute = false;
    if (phases_permute > 0 && plan->kernels->stream[NDPAD_STREAM_PLANES_PERMUTE] != NULL) {
        permute = ndpad_malloc((size_t)phases_permute * (sizeof(int32_t) + NDPAD_STREAM_BLOCK));
        if (permute == NULL)
            NDPAD_FAIL(NDPAD_ERR_OUT_OF_MEMORY, "no memory for the output-stream tables");
        has_permute = fill_permute(plan, rows_per_plane, plane_axis, phases_permute, permute,
                                   (uint8_t *)(permute + phases_permute));
    }
    ndpad_stream_kind kind;
    const ndpad_kernels *kernels;
    /* a wrap seam is two permutes: only near ones pay on rows under 512 bytes */
    if (!choose_kernel(plan, has_seam && !seam.far, has_planes, has_planes_16, has_permute, &kind,
                       &kernels))
        goto done;

    const int64_t right = row_bytes - interior_end;
    if (!constant &&
        (left > NDPAD_STREAM_MAX_BORDER_BYTES || right > NDPAD_STREAM_MAX_BORDER_BYTES))
        goto done;
    int64_t left_window = 0, right_window = 0, left_entries = 0, right_entries = 0, sources = 0,
            seam_index_lines = 0;
    const bool blocks = kind == NDPAD_STREAM_BLOCKS_CONSTANT || kind == NDPAD_STREAM_BLOCKS;
    if (!constant && blocks) {
        if (!border_window(plan, row, 0, left, &left_window) ||
            !border_window(plan, row, interior_end, row_bytes, &right_window))
            goto done;
        left_entries = left > 0 ? left + NDPAD_STREAM_BLOCK - 1 : 0;
        right_entries = right > 0 ? right + NDPAD_STREAM_BLOCK - 1 : 0;
        seam_index_lines = has_seam ? seam.entries * (seam.far ? 2 : 1) : 0;
    }
    if (!constant && kind == NDPAD_STREAM_ROWS) sources = (left + right) / es;

    const bool row_expand = row_expand_fits(plan);
    const int64_t row_masks = kind == NDPAD_STREAM_BLOCKS_CONSTANT && row_mask_rows(plan)
                                  ? row_mask_entries(row_bytes, row_expand)
                                  : 0;
    const int64_t plane_tables =
        kind == NDPAD_STREAM_PLANES
            ? plane_table_entries(rows_per_plane * row_bytes) + rows_per_plane + 1
            : 0;
    const int64_t plane_16_bytes = kind == NDPAD_STREAM_PLANES_16
                                       ? (rows_per_plane + 1) * (int64_t)sizeof(int64_t) +
                                             (phases_16 + 2 * NDPAD_STREAM_PLANE16_RUN) * 18 + 2
                                       : 0;
    const int64_t permute_bytes =
        kind == NDPAD_STREAM_PLANES_PERMUTE
            ? phases_permute * ((int64_t)sizeof(int32_t) + NDPAD_STREAM_BLOCK)
            : 0;
    const size_t entries = (size_t)(left_entries + right_entries);
    const size_t table_bytes =
        sizeof(ndpad_stream) + (size_t)sources * sizeof(int64_t) +
        entries * (NDPAD_STREAM_BLOCK + sizeof(uint64_t)) +
        (size_t)seam_index_lines * NDPAD_STREAM_BLOCK +
        (size_t)(row_masks + plane_tables) * sizeof(uint64_t) + (size_t)plane_16_bytes +
        (size_t)permute_bytes +
        (has_seam && seam.far ? (size_t)seam.entries * sizeof(uint64_t) : 0) +
        (entries + (size_t)seam_index_lines > 0 ? NDPAD_STREAM_BLOCK - 1 : 0); /* index alignment */
    /* the row list last, 8-byte aligned: the indices move in front of it in a copy */
    const size_t list_at = (table_bytes + 7) & ~(size_t)7;
    const bool row_list = kind != NDPAD_STREAM_PLANES && kind != NDPAD_STREAM_PLANES_16 &&
                          kind != NDPAD_STREAM_PLANES_PERMUTE && plan->ndim > 1 &&
                          plan->rows <= NDPAD_STREAM_MAX_ROW_LIST &&
                          row_bytes >= NDPAD_STREAM_MIN_LIST_ROW_BYTES &&
                          row_bytes < NDPAD_STREAM_MAX_LIST_ROW_BYTES;
    const size_t bytes = row_list ? list_at + (size_t)plan->rows * sizeof(int64_t) : table_bytes;
    ndpad_stream *stream = ndpad_malloc(bytes);
    if (stream == NULL)
        NDPAD_FAIL(NDPAD_ERR_OUT_OF_MEMORY, "no memory for the output-stream tables");
    memset(stream, 0, sizeof(*stream));
    stream->kernel = kernels->stream[kind];
    stream->kernel_name = kernels->stream_name[kind];
    stream->kind = kind;
    stream->bytes = (int64_t)bytes;
    stream->row_bytes = row_bytes;
    stream->left_bytes = left;
    stream->interior_end = interior_end;
    stream->src_interior = src_interior;
    stream->elem_size = es;
    stream->constant = constant;
    if (constant) {
        for (int64_t k = 0; k < 2 * NDPAD_STREAM_BLOCK; k++)
            stream->pad[k] = plan->pad_value[k % es];
    }
    if (kind == NDPAD_STREAM_SHORT_ROWS) {
        (void)short_map(plan, row, stream); /* fits: choose_kernel asked */
        /* groups take byte permutes (VBMI) */
        if (ndpad_isa_refines(plan->isa, NDPAD_ISA_AVX512_VBMI)) short_group(plan, stream);
    } else if (kind == NDPAD_STREAM_SHORT_ROWS_16) {
        (void)segment_map(plan, row, stream); /* fits: choose_kernel asked */
    } else if (kind == NDPAD_STREAM_SHORT_ROWS_128) {
        (void)wide_map(plan, row, stream); /* fits: choose_kernel asked */
    } else if (!constant && kind == NDPAD_STREAM_ROWS) {
        int64_t *source = (int64_t *)(stream + 1); /* the struct's size is a multiple of 8 */
        fill_border_source(plan, row, source);
        stream->border_source = source;
    } else if (kind == NDPAD_STREAM_PLANES) {
        fill_planes(plan, stream, rows_per_plane, plane_axis, (uint64_t *)(stream + 1));
    } else if (kind == NDPAD_STREAM_PLANES_16) {
        fill_planes_16(plan, stream, rows_per_plane, plane_axis, phases_16,
                       (int64_t *)(stream + 1));
    } else if (kind == NDPAD_STREAM_PLANES_PERMUTE) {
        int32_t *window = (int32_t *)(stream + 1);
        memcpy(window, permute, (size_t)permute_bytes); /* the windows, then the indices */
        fill_plane_permute(plan, stream, rows_per_plane, plane_axis, phases_permute, window);
    } else if (row_masks > 0) {
        fill_row_masks(stream, (uint64_t *)(stream + 1), row_expand); /* 8-byte multiple */
    } else if (!constant) {
        fill_block_tables(plan, stream, left_window, right_window, left_entries, right_entries,
                          has_seam ? &seam : NULL);
    }
    if (row_list) {
        int64_t *list = (int64_t *)((char *)stream + list_at);
        ndpad_row_odometer odometer;
        ndpad_row_odometer_start(&odometer, plan, 0, plan->rows);
        (void)ndpad_row_odometer_next(&odometer, list, plan->rows);
        stream->row_list = list;
    }
    *result = stream;
done:
    ndpad_free(permute);
    return NDPAD_OK;
fail:
    ndpad_free(permute);
    return status;
}

/* `p`, a pointer into the tables of `from`, moved to the same place in `to`. */
static const void *moved(const void *p, const ndpad_stream *from, const ndpad_stream *to)
{
    return p == NULL ? NULL : (const char *)to + ((const char *)p - (const char *)from);
}

ndpad_stream *ndpad_stream_copy(const ndpad_stream *stream, void *buffer, size_t size)
{
    /* without the row list where only the tables fit: the odometer lists the rows then */
    const size_t tables = stream->row_list != NULL
                              ? (size_t)((const char *)stream->row_list - (const char *)stream)
                              : (size_t)stream->bytes;
    const bool list = (size_t)stream->bytes <= size;
    if (tables > size) return NULL;
    ndpad_stream *copy = buffer;
    memcpy(copy, stream, list ? (size_t)stream->bytes : tables);
    copy->bytes = list ? stream->bytes : (int64_t)tables;
    copy->border_source = moved(stream->border_source, stream, copy);
    copy->left_index = moved(stream->left_index, stream, copy);
    copy->right_index = moved(stream->right_index, stream, copy);
    copy->left_mask = moved(stream->left_mask, stream, copy);
    copy->right_mask = moved(stream->right_mask, stream, copy);
    copy->seam_far_mask = moved(stream->seam_far_mask, stream, copy);
    copy->row_masks = moved(stream->row_masks, stream, copy);
    copy->row_expand = moved(stream->row_expand, stream, copy);
    copy->plane_masks = moved(stream->plane_masks, stream, copy);
    copy->plane_in_before = moved(stream->plane_in_before, stream, copy);
    copy->plane_in_at = moved(stream->plane_in_at, stream, copy);
    copy->plane_index = moved(stream->plane_index, stream, copy);
    copy->permute_window = moved(stream->permute_window, stream, copy);
    copy->permute_index = moved(stream->permute_index, stream, copy);
    copy->row_list = list ? moved(stream->row_list, stream, copy) : NULL;
    if (stream->index_bytes > 0) {
        /* The buffer's alignment may differ from the original's: the indices move to the
         * copy's own first line boundary after the masks (the slack allows for it). */
        const uint64_t *masks = (const uint64_t *)(copy + 1);
        uint8_t *index = index_start((void *)(masks + stream->masks));
        memmove(index, copy->left_index, (size_t)stream->index_bytes);
        copy->right_index = index + (stream->right_index - stream->left_index);
        if (stream->seam_index != NULL)
            copy->seam_index = index + (stream->seam_index - stream->left_index);
        if (stream->seam_far_index != NULL)
            copy->seam_far_index = index + (stream->seam_far_index - stream->left_index);
        copy->left_index = index;
    }
    return copy;
}

void ndpad_stream_destroy(ndpad_stream *stream)
{
    ndpad_free(stream);
}
