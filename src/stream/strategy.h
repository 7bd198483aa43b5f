/* The output-stream strategies' contract (FFTW's solvers): each strategy says whether it
 * applies to a plan, computing its work once into the planning work area, how many bytes of
 * tables it needs after the descriptor, and fills them. ndpad_stream_plan (stream-plan.c)
 * computes the plan's facts once, walks the ordered table (table.h) and takes the first
 * strategy that applies; one that declines falls through to the next row. */
#ifndef NDPAD_STREAM_STRATEGY_H
#define NDPAD_STREAM_STRATEGY_H

#include <stdbool.h>
#include <stdint.h>

#include "stream-plan.h"
#include "stream/table.h"

/* What every strategy asks, computed once before the walk. */
typedef struct ndpad_stream_facts {
    const ndpad_plan *plan;
    const ndpad_dim *row;         /* the row axis                                       */
    const ndpad_kernels *kernels; /* the level's row of the kernel table (scalar: reference) */
    int64_t es, row_bytes;        /* element and output row bytes                        */
    int64_t left, interior_end;   /* border [0, left), interior [left, interior_end) bytes */
    int64_t right;                /* row_bytes - interior_end                            */
    int64_t src_interior;         /* the interior's first source byte in its source row  */
    bool constant;                /* the mode is CONSTANT (reads no border from the input) */
    bool any_length;              /* NDPAD_STREAM=always: no row-length limit of BLOCKS, ROWS */
    /* PLANES, PLANES_16, PLANES_PERMUTE: the plan copies a whole dense input into planes of
     * rows_per_plane rows from axis plane_axis on (ndpad_stream_dense_planes) */
    bool dense;
    int64_t rows_per_plane;
    int32_t plane_axis;
} ndpad_stream_facts;

/* The seam table of a BLOCKS plan whose rows read the input (the descriptor's seam_*). */
#define NDPAD_SEAM_MAP_BYTES (2 * NDPAD_STREAM_MAX_BORDER_BYTES + 3 * NDPAD_STREAM_BLOCK)
typedef struct ndpad_seam_table {
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
} ndpad_seam_table;

/* A fact some strategies share, computed at most once: not yet asked, or its answer. */
typedef enum ndpad_stream_once {
    NDPAD_ONCE_UNKNOWN,
    NDPAD_ONCE_NO,
    NDPAD_ONCE_YES
} ndpad_stream_once;

/* The planning work area: what the strategies computed, kept for the fill. */
typedef struct ndpad_stream_work {
    /* The descriptor's fields of fixed size (byte maps, windows, masks) as the strategy that
     * applied set them; copied into the descriptor before its fill. Zeroed before the walk. */
    ndpad_stream draft;
    /* BLOCKS of the modes that read the input: the seam table (ndpad_stream_blocks_seam) and
     * the border windows and entries of each side */
    ndpad_stream_once seam_state;
    ndpad_seam_table seam;
    int64_t left_window, right_window, left_entries, right_entries;
    /* PLANES_16, PLANES_PERMUTE: a plane's block places */
    int64_t phases;
    /* PLANES_PERMUTE: its windows then byte indices, allocated by ndpad_stream_permute_fits
     * (the SHORT_ROWS_16 row before it asks too) and freed after the fill */
    ndpad_stream_once permute_state;
    int32_t *permute;
    /* BLOCKS_CONSTANT: row masks, and their expand entries */
    bool row_masks, row_expand;
    /* BLOCKS_CONSTANT: the row pattern of constants per index along the row */
    bool row_pattern;
} ndpad_stream_work;

typedef enum ndpad_stream_verdict {
    NDPAD_STRATEGY_DECLINES, /* the next row of the table is asked */
    NDPAD_STRATEGY_APPLIES,
    NDPAD_STRATEGY_NO_MEMORY, /* its work could not be allocated: planning fails */
} ndpad_stream_verdict;

/* `requires` of a strategy that needs no second kind: ROWS, which every level has. */
_Static_assert(NDPAD_STREAM_ROWS == 0, "a strategy's default `requires` is ROWS");

typedef struct ndpad_stream_strategy {
    const char *name;
    ndpad_stream_kind kind;     /* the kernel it plans for: the level's slot must be set */
    ndpad_stream_kind requires; /* another kind the level must have (default ROWS: every level) */
    ndpad_stream_verdict (*applies)(const ndpad_stream_facts *facts, ndpad_stream_work *work);
    /* Bytes of tables after the descriptor (whose size is a multiple of 8) */
    int64_t (*table_bytes)(const ndpad_stream_facts *facts, const ndpad_stream_work *work);
    /* The tables at stream + 1 and the kind's fields; the common fields and the draft are
     * already in `stream`. NULL: nothing to fill. */
    void (*fill)(const ndpad_stream_facts *facts, ndpad_stream_work *work, ndpad_stream *stream);
    bool lists_rows; /* the plan may hold its rows' list (not the plane kinds: rows[0] only) */
    bool none;       /* applying, it keeps the plan off the stream path (the executor's rows) */
} ndpad_stream_strategy;

/* The strategies, one file each under src/stream/ (the order is table.h's). */
#define NDPAD_STREAM_STRATEGY_DECLARE(id)                                                          \
    NDPAD_INTERNAL extern const ndpad_stream_strategy ndpad_stream_strategy_##id;
NDPAD_STREAM_STRATEGIES(NDPAD_STREAM_STRATEGY_DECLARE)
#undef NDPAD_STREAM_STRATEGY_DECLARE

/* The table in its order (stream-plan.c), and how many plans chose each row since the
 * library was loaded (relaxed, one add a plan): test-stream proves every row is reached. */
NDPAD_INTERNAL extern const ndpad_stream_strategy *const ndpad_stream_strategies[];
NDPAD_INTERNAL extern const size_t ndpad_stream_strategy_count;
NDPAD_INTERNAL extern _Atomic unsigned long long ndpad_stream_strategy_chosen[];

/* Shared by the strategies (common.c). */

/* Source byte, from the row's start, of output row byte q (a border byte). */
NDPAD_INTERNAL int64_t ndpad_stream_source_byte(const ndpad_plan *plan, const ndpad_dim *row,
                                                int64_t q);
/* Lanes [lo, hi) of a 64-lane mask, each bound clamped to [0, 64]. */
NDPAD_INTERNAL uint64_t ndpad_stream_lane_range(int64_t lo, int64_t hi);
NDPAD_INTERNAL int64_t ndpad_stream_gcd(int64_t a, int64_t b);
/* The first 64-byte boundary at or after `p`: where the BLOCKS index tables start. */
NDPAD_INTERNAL uint8_t *ndpad_stream_index_start(void *p);
/* PLANES, PLANES_16 and PLANES_PERMUTE: whether a plan copies a whole dense input, in order
 * (no crop, no interior padding), into planes of at most `max_plane` bytes;
 * *rows_per_plane and *axis (the outermost padded axis, where a plane starts) then. */
NDPAD_INTERNAL bool ndpad_stream_dense_planes(const ndpad_plan *plan, int64_t max_plane,
                                              int64_t *rows_per_plane, int32_t *axis);
/* PLANES and PLANES_16: which rows of a plane read the input, in_before[j] the input bytes
 * of the rows before row j, and the plane fields both kinds share. */
NDPAD_INTERNAL void ndpad_stream_fill_plane_in_before(const ndpad_plan *plan, ndpad_stream *stream,
                                                      int64_t rows_per_plane, int32_t axis,
                                                      int64_t *in_before);
/* The lane of the level's `kind` kernel that serves the plan's elements: 1 where it moves
 * bytes, else the widest lane of at most 4 bytes, at least its own, that the elements are
 * made of whole; 0 where none is. */
NDPAD_INTERNAL int64_t ndpad_stream_lane(const ndpad_stream_facts *facts, ndpad_stream_kind kind);
/* BLOCKS: the rows the BLOCKS kernels take by their length (table.h), asked by the BLOCKS
 * rows and the row after them; for the modes that read the input, builds the seam table
 * (once) where it may serve. */
NDPAD_INTERNAL bool ndpad_stream_blocks_by_length(const ndpad_stream_facts *facts,
                                                  ndpad_stream_work *work);
/* BLOCKS_CONSTANT: whether a CONSTANT plan's rows are of the lengths the row masks serve. */
NDPAD_INTERNAL bool ndpad_stream_row_mask_rows(const ndpad_stream_facts *facts);
/* SHORT_ROWS_16: whether the row's 16-byte segments each read one window (short-rows-16.c);
 * its fields in `draft` when they do. */
NDPAD_INTERNAL bool ndpad_stream_short_rows_16_fits(const ndpad_stream_facts *facts,
                                                    ndpad_stream *draft);
/* PLANES_PERMUTE: whether every block of the plan's planes reads one 128-byte window of the
 * input; builds its tables (once) into work->permute. */
NDPAD_INTERNAL ndpad_stream_verdict ndpad_stream_permute_fits(const ndpad_stream_facts *facts,
                                                              ndpad_stream_work *work);

#endif
