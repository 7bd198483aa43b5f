/* Runs a tile of whole output rows through the output-stream kernel: an odometer over the
 * outer axes lists the rows' source pointers in batches, and the kernel writes each batch
 * as one stretch of the output. */
#include "stream-plan.h"

#include <stdatomic.h>
#include <string.h>

_Atomic unsigned long long ndpad_stream_tiles_run;

/* Rows per kernel call: the pointer list stays in L1 and the call is amortised. */
#define NDPAD_STREAM_BATCH 256

/* The rows gathered so far, written by one kernel call. */
typedef struct batch {
    const ndpad_stream *stream;
    char *out;     /* output row of rows[0] */
    int64_t count; /* rows gathered         */
    bool nontemporal;
    const char *rows[NDPAD_STREAM_BATCH];
} batch;

/* The batch written out once it is full. */
static inline void flush_if_full(batch *b)
{
    if (b->count == NDPAD_STREAM_BATCH) {
        b->stream->kernel(b->stream, b->rows, b->count, b->out, b->nontemporal);
        b->out += b->count * b->stream->row_bytes;
        b->count = 0;
    }
}

static inline void add_row(batch *b, const char *src)
{
    b->rows[b->count++] = src;
    flush_if_full(b);
}

/* `n` rows from `src` on, `stride` bytes apart, not one add_row() each: four at a time, the
 * stores set the pace, not the loop (5d reflect, 19008 rows: 8.8 -> 5.6 us a call). */
static inline void add_rows(batch *b, const char *src, int64_t stride, int64_t n)
{
    while (n > 0) {
        const int64_t room = NDPAD_STREAM_BATCH - b->count, take = n < room ? n : room;
        const char **rows = b->rows + b->count;
        int64_t k = 0;
        /* two pointers a 16-byte vector (GCC's vector extension, every target): the
         * compiler's own vectorisation of the plain loop shuffles lanes on every step */
        typedef uintptr_t pair __attribute__((vector_size(2 * sizeof(uintptr_t))));
        pair p = {(uintptr_t)src, (uintptr_t)src + (uintptr_t)stride};
        const pair step = {2 * (uintptr_t)stride, 2 * (uintptr_t)stride};
        for (; k + 4 <= take; k += 4) {
            memcpy(rows + k, &p, sizeof(p));
            p += step;
            memcpy(rows + k + 2, &p, sizeof(p));
            p += step;
        }
        src += k * stride;
        for (; k < take; k++, src += stride) rows[k] = src;
        b->count += take, n -= take;
        flush_if_full(b);
    }
}

void ndpad_stream_run(const ndpad_plan *plan, const char *in, char *out, int64_t r0, int64_t r1)
{
    const ndpad_stream *stream = plan->stream;
    atomic_fetch_add_explicit(&ndpad_stream_tiles_run, 1, memory_order_relaxed);
    const int32_t outer = plan->ndim - 1;
    const int32_t mode = plan->mode;
    if (outer == 0) { /* one row */
        stream->kernel(stream, &in, 1, out, plan->tile.stream != 0);
        return;
    }
    batch b = {.stream = stream,
               .out = out + r0 * stream->row_bytes,
               .count = 0,
               .nontemporal = plan->tile.stream != 0};
    /* index[] is the odometer over axes 0..outer-1; offset[k + 1] and pad[k + 1] sum the
     * source offsets of axes 0..k (pad: some axis maps to the pad value). The prefix of
     * axes before the last outer one changes once per run of that axis; the run itself is
     * a loop whose interior rows are a pointer step each. */
    int64_t index[NDPAD_MAX_RANK], offset[NDPAD_MAX_RANK + 1];
    bool pad[NDPAD_MAX_RANK + 1];
    int64_t rest = r0;
    for (int32_t k = outer - 1; k >= 0; k--) {
        index[k] = rest % plan->dim[k].n;
        rest /= plan->dim[k].n;
    }
    offset[0] = 0, pad[0] = false;
    const ndpad_dim last = plan->dim[outer - 1];
    int64_t r = r0;
    while (r < r1) {
        for (int32_t a = 0; a < outer - 1; a++) {
            const ndpad_dim *dim = &plan->dim[a];
            const int64_t i = pad[a] ? -1 : ndpad_dim_source(dim, mode, index[a]);
            pad[a + 1] = pad[a] || i < 0;
            offset[a + 1] = offset[a] + (i < 0 ? 0 : i * dim->in_stride);
        }
        const char *const base = in + offset[outer - 1];
        const bool prefix_pad = pad[outer - 1];
        int64_t o = index[outer - 1];
        const int64_t o_end = o + (r1 - r) < last.n ? o + (r1 - r) : last.n;
        r += o_end - o;
        while (o < o_end) {
            if (prefix_pad) {
                add_row(&b, NULL);
                o++;
            } else if (o >= last.copy_begin && o < last.copy_end && last.r == 0) {
                /* the interior rows of this run, one stride apart */
                const int64_t hi = o_end < last.copy_end ? o_end : last.copy_end;
                add_rows(&b, base + (o - last.b) * last.in_stride, last.in_stride, hi - o);
                o = hi;
            } else {
                const int64_t i = ndpad_dim_source(&last, mode, o);
                add_row(&b, i < 0 ? NULL : base + i * last.in_stride);
                o++;
            }
        }
        /* carry into the axes before the last outer one */
        index[outer - 1] = 0;
        for (int32_t a = outer - 2; a >= 0; a--) {
            if (++index[a] < plan->dim[a].n) break;
            index[a] = 0;
        }
    }
    if (b.count > 0) stream->kernel(stream, b.rows, b.count, b.out, b.nontemporal);
}
