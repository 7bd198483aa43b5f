/* The output-stream path's planner and runner: which plans take it, their descriptor
 * (kernels/stream-descriptor.h, the kernels' contract), and a tile's rows through its kernel.
 * The strategies and their order: stream/table.h. */
#ifndef NDPAD_STREAM_PLAN_H
#define NDPAD_STREAM_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/stream-descriptor.h"
#include "plan.h"
#include "stream/table.h"

/* The stream description of `plan` (its normalised axes, mode, pad value and kernels) in
 * *stream, or NULL when the plan does not fit the path (the executor's rows serve it).
 * NDPAD_ERR_OUT_OF_MEMORY (for `caller`) when the tables cannot be allocated. */
NDPAD_INTERNAL ndpad_status ndpad_stream_plan(const ndpad_plan *plan, ndpad_stream **stream,
                                              const char *caller);

/* A copy of `stream` with its tables in the `size` bytes at `buffer` (8-byte aligned), or
 * NULL when they do not fit; without its row list when only that does not fit. The copy
 * is not destroyed: it lives as long as the buffer. */
NDPAD_INTERNAL ndpad_stream *ndpad_stream_copy(const ndpad_stream *stream, void *buffer,
                                               size_t size);

NDPAD_INTERNAL void ndpad_stream_destroy(ndpad_stream *stream);

/* Tiles run by ndpad_stream_run since the library was loaded (relaxed, one add per tile):
 * lets test-stream prove that plans with a stream really execute through it. */
NDPAD_INTERNAL extern _Atomic unsigned long long ndpad_stream_tiles_run;

/* Whether executions of `plan` take its output stream: it has one and its tiles are whole
 * rows, not asked for the row executor (an in-place execution never does). */
static inline bool ndpad_stream_takes(const ndpad_plan *plan)
{
    return plan->stream != NULL && !plan->tile.rows_path &&
           plan->tile.cols >= plan->dim[plan->ndim - 1].n;
}

/* Output rows [r0, r1) of `plan` (which has a stream) by the stream kernel; `in` already
 * includes the plan's input offset, and the row offsets are from it. `nontemporal`: with
 * streaming stores (the plan's choice, or its one-thread choice when the execution runs on
 * one thread, executor.c). */
NDPAD_INTERNAL void ndpad_stream_run(const ndpad_plan *plan, const char *in, char *out, int64_t r0,
                                     int64_t r1, bool nontemporal);

/* Plans with constants per index along an outer axis (one value for each run of rows: conv
 * per channel): how many consecutive rows share a value, where the stream kernel writes
 * them itself, a call per run with the value as its pad pattern; 0 where it does not. It
 * does when its descriptor names no table (a copy of the descriptor with another pad is
 * then a valid input of the same kernel) and a run holds NDPAD_CONSTS_MIN_RUN_BYTES. */
NDPAD_INTERNAL int64_t ndpad_stream_value_run(const ndpad_plan *plan);

/* ndpad_stream_run for such a plan, `run` from ndpad_stream_value_run. */
NDPAD_INTERNAL void ndpad_stream_run_values(const ndpad_plan *plan, const char *in, char *out,
                                            int64_t r0, int64_t r1, bool nontemporal, int64_t run);

#endif
