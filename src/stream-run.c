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
    if (plan->ndim == 1) { /* one row */
        const int64_t row = 0;
        stream->kernel(stream, in, &row, 1, out, nontemporal);
        return;
    }
    out += r0 * stream->row_bytes;
    if (stream->row_list != 0) {
        /* The plan's list, read by the kernel itself: one listed here batch by batch costs
         * more than its own instructions (5d reflect, 1 thread: 130 -> 119 us) */
        stream->kernel(stream, in, NDPAD_STREAM_TABLE(stream, row_list, int64_t) + r0, r1 - r0, out,
                       nontemporal);
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
