/* Runs a tile of whole output rows through the output-stream kernel: the plan's list of the
 * rows' source offsets, or an odometer over the outer axes listing them in batches; the
 * kernel writes each batch as one stretch of the output. */
#include "stream-plan.h"

#include <stdatomic.h>

#include "row-list.h"

_Atomic unsigned long long ndpad_stream_tiles_run;

/* Rows per kernel call where the plan holds no list: the offsets stay in L1 and the call
 * is amortised. */
#define NDPAD_STREAM_BATCH 256

/* Rows [r0, r1) in batches through the kernel of `stream` (the plan's, or a copy of it with
 * another pad: the row list is read from the plan's own). */
static void run_rows(const ndpad_plan *plan, const ndpad_stream *stream, const char *in, char *out,
                     int64_t r0, int64_t r1, bool nontemporal)
{
    if (plan->ndim == 1) { /* one row */
        const int64_t row = 0;
        stream->kernel(stream, in, &row, 1, out, nontemporal);
        return;
    }
    out += r0 * stream->row_bytes;
    if (plan->stream->row_list != 0) {
        /* The plan's list, read by the kernel itself: one listed here batch by batch costs
         * more than its own instructions (5d reflect, 1 thread: 130 -> 119 us) */
        stream->kernel(stream, in, NDPAD_STREAM_TABLE(plan->stream, row_list, int64_t) + r0,
                       r1 - r0, out, nontemporal);
        return;
    }
    ndpad_row_odometer odometer;
    ndpad_row_odometer_start(&odometer, plan, r0, r1);
    int64_t rows[NDPAD_STREAM_BATCH], count;
    while ((count = ndpad_row_odometer_next(&odometer, rows, NDPAD_STREAM_BATCH)) > 0) {
        stream->kernel(stream, in, rows, count, out, nontemporal);
        out += count * stream->row_bytes;
    }
}

void ndpad_stream_run(const ndpad_plan *plan, const char *in, char *out, int64_t r0, int64_t r1,
                      bool nontemporal)
{
    const ndpad_stream *stream = plan->stream;
    atomic_fetch_add_explicit(&ndpad_stream_tiles_run, 1, memory_order_relaxed);
    if (stream->kind == NDPAD_STREAM_PLANES || stream->kind == NDPAD_STREAM_PLANES_16 ||
        stream->kind == NDPAD_STREAM_PLANES_PERMUTE) {
        /* one call for the tile, told its first row (kernels.h): no rows to list */
        stream->kernel(stream, in, &r0, r1 - r0, out + r0 * stream->row_bytes, nontemporal);
        return;
    }
    run_rows(plan, stream, in, out, r0, r1, nontemporal);
}

int64_t ndpad_stream_value_run(const ndpad_plan *plan)
{
    const ndpad_const_map *m = plan->consts;
    const ndpad_stream *stream = plan->stream;
    if (m == NULL || m->kind != NDPAD_CONSTS_INDEX || m->index_dim >= plan->ndim - 1 ||
        stream == NULL || !stream->constant)
        return 0;
    /* no table between the descriptor and its row list (or its end) */
    const int64_t tables = stream->row_list != 0 ? stream->row_list : stream->bytes;
    if (tables > (int64_t)((sizeof(ndpad_stream) + 7) & ~(size_t)7)) return 0;
    /* the value of row r is (r / run) % axis_n: the index axis's output index divided by
     * index_div, its extent a multiple of index_div x axis_n (normalize.c) */
    int64_t run = plan->dim[m->index_dim].index_div;
    for (int32_t k = m->index_dim + 1; k < plan->ndim - 1; k++) run *= plan->dim[k].n;
    return run * plan->row_bytes >= NDPAD_CONSTS_MIN_RUN_BYTES ? run : 0;
}

void ndpad_stream_run_values(const ndpad_plan *plan, const char *in, char *out, int64_t r0,
                             int64_t r1, bool nontemporal, int64_t run)
{
    const ndpad_const_map *m = plan->consts;
    const int64_t es = (int64_t)plan->elem_size;
    atomic_fetch_add_explicit(&ndpad_stream_tiles_run, 1, memory_order_relaxed);
    ndpad_stream local = *plan->stream; /* it names no table: a copy is a whole one */
    for (int64_t a = r0, b; a < r1; a = b) {
        b = (a / run + 1) * run < r1 ? (a / run + 1) * run : r1;
        const unsigned char *value = m->values + (a / run % m->axis_n) * m->value_stride;
        for (int64_t k = 0; k < 2 * NDPAD_STREAM_BLOCK; k++) local.pad[k] = value[k % es];
        run_rows(plan, &local, in, out, a, b, nontemporal);
    }
}
