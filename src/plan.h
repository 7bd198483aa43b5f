/* The plan: a normalised problem described as one interior region plus border regions,
 * the kernels that fill them, and the tile shape the executor runs over threads. */
#ifndef NDPAD_PLAN_H
#define NDPAD_PLAN_H

#include <stdbool.h>
#include <string.h>

#include "default-threads.h"
#include "kernels/kernels.h"
#include "mode-names.h"
#include "problem.h"
#include "task-runner.h"

/* One normalised axis. Output index o reads input position j = o - b; the output range
 * [copy_begin, copy_end) holds input elements (for CONSTANT with interior r, only the
 * lattice points copy_begin + t (r + 1)); the rest of the axis is border. */
typedef struct ndpad_dim {
    int64_t n;          /* output extent (> 1 after normalisation, unless it is the only axis) */
    int64_t d;          /* input extent                                                 */
    int64_t b;          /* output index of input position 0; negative crops              */
    int64_t r;          /* interior (CONSTANT only)                                     */
    int64_t copy_begin; /* first output index of the interior region                    */
    int64_t copy_end;   /* one past the last                                            */
    int64_t in_stride;  /* bytes                                                        */
    int64_t out_stride; /* bytes                                                        */
    /* Plans with constants per side or per index (plan->consts) only: */
    int32_t origin;    /* the problem's axis this one starts with (merged axes: the outer) */
    int64_t index_div; /* per index: the chosen axis is in this one, its index at output
                           index o being (o / index_div) % its extent; 0: it is not      */
} ndpad_dim;

/* How the executor splits the output: tiles of `rows` output rows by `cols` elements of
 * the innermost axis, run by `threads` threads (1 = no OpenMP region). The seam for the
 * hwloc tiling and the autotuner: they choose these numbers, the executor obeys. */
typedef struct ndpad_tile {
    int64_t rows;
    int64_t cols;
    int32_t threads;
    int32_t nt;        /* interior copies with non-temporal (nt) stores */
    int32_t copy;      /* the interior copy otherwise: an ndpad_copy_kind (copy-choice.h) */
    int32_t rows_path; /* 1: the row executor even where the output-stream path applies */
    int32_t prefetch;  /* in-place CONSTANT walks: gap lines prefetched this many rows ahead;
                          0: NDPAD_PREFETCH_ROWS, -1: none (tile-choice.c keeps it in range) */
} ndpad_tile;

/* The in-place prefetch distance a tile with prefetch 0 means, and the largest one. */
#define NDPAD_PREFETCH_ROWS     8
#define NDPAD_PREFETCH_ROWS_MAX 64

/* Constants per axis and side, or per output index along one axis (ndpad_plan_create_sides,
 * ndpad_plan_create_per_index): which value each constant element takes, worked out per row
 * by the row executor (row-constants.h) and written by the same fillers as a single constant. */
typedef enum ndpad_consts_kind {
    NDPAD_CONSTS_SIDES = 1, /* values [rank][2]: axis k's begin value, then its end value */
    NDPAD_CONSTS_INDEX = 2  /* values [axis_n]: one per output index along `axis`         */
} ndpad_consts_kind;

typedef struct ndpad_const_map {
    int32_t kind;          /* an ndpad_consts_kind                                      */
    int32_t axis;          /* INDEX: the problem's axis                                  */
    int64_t axis_n;        /* INDEX: its output extent (entries of `values`)             */
    int32_t index_dim;     /* INDEX: the normalised axis holding it                      */
    unsigned char *values; /* value i at i x value_stride, owned                         */
    /* 16 when elem_size divides 16 (and the values are not too many): each value then
     * spread over 16 bytes, so that borders of up to 16 bytes are moves without a call;
     * else elem_size */
    int64_t value_stride;
    /* INDEX on the row axis: the row's constants repeat every period_elems elements;
     * `pattern` holds whole periods, pattern_bytes >= NDPAD_CONSTS_PATTERN_MIN, and 16
     * bytes more of the pattern (moves of up to 16 bytes from any phase); owned */
    unsigned char *pattern;
    int64_t period_elems, pattern_bytes;
    int64_t values_bytes, pattern_alloc; /* the bytes `values` and `pattern` hold */
    int64_t heap_bytes;                  /* this structure and what it owns       */
} ndpad_const_map;

/* A copy of `m` with its values and pattern in the `size` bytes at `buffer` (16-byte
 * aligned), or NULL when they do not fit (the one-shot plan cache holds small maps). */
static inline ndpad_const_map *ndpad_const_map_copy(const ndpad_const_map *m, void *buffer,
                                                    size_t size)
{
    const size_t head = (sizeof(*m) + 15) / 16 * 16;
    const size_t values = ((size_t)m->values_bytes + 15) / 16 * 16;
    if (m->values == NULL || head + values + (size_t)m->pattern_alloc > size) return NULL;
    ndpad_const_map *copy = (ndpad_const_map *)buffer;
    *copy = *m;
    copy->values = (unsigned char *)buffer + head;
    memcpy(copy->values, m->values, (size_t)m->values_bytes);
    if (m->pattern != NULL) {
        copy->pattern = copy->values + values;
        memcpy(copy->pattern, m->pattern, (size_t)m->pattern_alloc);
    }
    return copy;
}

/* Output bytes the stream kernel writes before the row executor writes their constants
 * again (executor.c): the batch is still in L2. */
#define NDPAD_CONSTS_BATCH_BYTES (192 * 1024)

/* The shortest run of rows of one value (per index along an outer axis) that the stream
 * kernel writes in a call of its own (stream-run.c): conv's channel planes are 266 KB. */
#define NDPAD_CONSTS_MIN_RUN_BYTES (16 * 1024)

/* The most values spread over 16 bytes each (value_stride). */
#define NDPAD_CONSTS_SPREAD_MAX 65536

/* The shortest pattern buffer: fills copy it in chunks this long (vector moves). */
#define NDPAD_CONSTS_PATTERN_MIN 512

struct ndpad_plan {
    int32_t mode;
    ndpad_isa isa;
    int32_t rank;             /* of the problem as given                           */
    size_t problem_elem_size; /* as given                                          */
    size_t elem_size;         /* after folding unpadded dense trailing axes        */
    int32_t ndim;             /* normalised axes, >= 1; the last is the row axis   */
    ndpad_dim dim[NDPAD_MAX_RANK];
    int64_t in_offset;   /* bytes added to `in`: crops turned into an offset  */
    int64_t rows;        /* output rows: product of n over all but the last   */
    int64_t row_bytes;   /* bytes of one output row (n of the row axis x elem) */
    int64_t out_bytes;   /* rows x row_bytes; 0 for an empty output           */
    int64_t out_elems;   /* of the problem as given                           */
    bool empty;          /* no output element at all                          */
    bool reads_input;    /* some output element is an input element           */
    bool inner_dense;    /* row axis dense in input and output: kernels apply */
    bool out_contiguous; /* output is one dense row-major block of the axes    */
    bool inplace_capable;
    int64_t inplace_offset;     /* bytes from out to where an in-place input sits    */
    ndpad_thread_policy policy; /* the options' threads, schedule and host pool  */
    /* Streaming stores when the execution runs on one thread: the heuristic's choice for
     * one thread (a tile for two threads streams less, as two caches hold more), used by
     * tasks that run on the caller before any other thread has run one (a sequential
     * host, a worker that has not started); -1: always tile.nt (forced tiles, the
     * measuring engine's candidates) */
    int8_t solo_nt;
    ndpad_tile tile;
    int32_t tile_source; /* an ndpad_tile_source (ndpad.h): where `tile` came from */
    const ndpad_kernels *kernels;
    unsigned char *pad_value;    /* elem_size bytes (CONSTANT), owned                 */
    struct ndpad_stream *stream; /* output-stream path (stream-plan.h) or NULL, owned   */
    ndpad_const_map *consts;     /* constants per side or per index, or NULL; owned       */
};

/* Outputs below this many bytes always run on one thread, with no OpenMP region, whatever
 * the wisdom says (a 1x3x32x40 pad must not pay thread start-up); only a tile shape forced
 * through the options overrides it. */
#define NDPAD_TINY_BYTES ((int64_t)256 * 1024)

/* Normalise `valid` into plan->dim (drop size-1 axes, crops to offsets, axis order by
 * output stride, merge dense unpadded axes, fold unpadded trailing axes into the element)
 * and set the fields derived from it. */
NDPAD_INTERNAL void ndpad_normalize(const ndpad_valid_problem *valid, ndpad_plan *plan);

/* True when some output element of `valid` is an input element (the normaliser's fact,
 * also asked by window plans). */
NDPAD_INTERNAL bool ndpad_problem_reads_input(const ndpad_valid_problem *valid);

/* The one rule for tiny outputs: true when `plan` runs on the calling thread whatever its
 * thread budget, tuning or wisdom say (the heuristic, the wisdom's fit, the candidates). */
static inline bool ndpad_plan_is_tiny(const ndpad_plan *plan)
{
    return plan->out_bytes < NDPAD_TINY_BYTES;
}

/* Tiles one execution of `plan` runs: row tiles x column tiles. */
static inline int64_t ndpad_plan_tile_count(const ndpad_plan *plan)
{
    const int64_t n = plan->dim[plan->ndim - 1].n;
    return ((plan->rows + plan->tile.rows - 1) / plan->tile.rows) *
           ((n + plan->tile.cols - 1) / plan->tile.cols);
}

/* Source position along `dim` of output index o, or -1 when the element is the pad value. */
static inline int64_t ndpad_dim_source(const ndpad_dim *dim, int32_t mode, int64_t o)
{
    const int64_t j = o - dim->b;
    if (o >= dim->copy_begin && o < dim->copy_end) {
        if (dim->r == 0) return j;
        return j % (dim->r + 1) == 0 ? j / (dim->r + 1) : -1;
    }
    const int64_t d = dim->d;
    int64_t period, m;
    /* Borders within one reflection of the input (almost every pad) take no division: a
     * 64-bit one costs tens of cycles, paid on every border row of the stream's and the
     * executor's odometers (5d reflect: 8 us of 140). */
    switch (mode) {
    case NDPAD_EDGE: return j < 0 ? 0 : d - 1;
    case NDPAD_REFLECT:
        if (d == 1) return 0;
        if (j < 0 && j > -d) return -j;
        if (j >= d && j - d < d - 1) return d - 2 - (j - d);
        period = 2 * (d - 1);
        m = j % period;
        if (m < 0) m += period;
        return m < d ? m : period - m;
    case NDPAD_SYMMETRIC:
        if (j < 0 && j >= -d) return -1 - j;
        if (j >= d && j - d < d) return d - 1 - (j - d);
        period = 2 * d;
        m = j % period;
        if (m < 0) m += period;
        return m < d ? m : period - 1 - m;
    case NDPAD_WRAP:
        if (j < 0 && j >= -d) return j + d;
        if (j >= d && j - d < d) return j - d;
        m = j % d;
        return m < 0 ? m + d : m;
    default: return -1;
    }
}

/* The checks of ndpad_plan_create() on `options` (NULL: none), `caller` in the messages. */
NDPAD_INTERNAL ndpad_status ndpad_options_check(const ndpad_options *options, const char *caller);

/* ndpad_plan_create(), with `caller` naming the public entry point in error messages. */
NDPAD_INTERNAL ndpad_status ndpad_plan_create_for(const ndpad_problem *problem,
                                                  const ndpad_options *options, ndpad_plan **plan,
                                                  const char *caller);

/* The heap bytes `plan` holds (what ndpad_plan_destroy() frees): the plan, its pad value
 * and its output-stream tables. */
NDPAD_INTERNAL int64_t ndpad_plan_heap_bytes(const ndpad_plan *plan);

/* ndpad_plan_create_sides() / ndpad_plan_create_per_index() with `caller` in messages:
 * `kind` an ndpad_consts_kind, `axis` the INDEX axis, `values` as those take them. */
NDPAD_INTERNAL ndpad_status ndpad_plan_create_consts_for(const ndpad_problem *problem, int32_t kind,
                                                         int32_t axis, const void *values,
                                                         const ndpad_options *options,
                                                         ndpad_plan **plan, const char *caller);

/* ndpad_execute(), likewise. */
NDPAD_INTERNAL ndpad_status ndpad_execute_for(const ndpad_plan *plan, const void *in, void *out,
                                              const char *caller);

/* ndpad_pad(), likewise (the ONNX entry point reuses it). */
NDPAD_INTERNAL ndpad_status ndpad_pad_for(const ndpad_problem *problem, const void *in, void *out,
                                          const char *caller);

/* Executes `plan` on buffers already checked; `skip_interior` for in-place padding. */
NDPAD_INTERNAL void ndpad_run(const ndpad_plan *plan, const char *in, char *out,
                              bool skip_interior);

#endif
