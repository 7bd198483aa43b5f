/* The row executor: tiles of output rows, run over threads by the task runner (task-runner.h).
 * Each row is its border runs, filled by the mode's filler from the source row, and its
 * interior run, one bulk copy. Rows are visited in output order with an odometer, so a row
 * costs O(1) index work. */
#include <stdatomic.h>
#include <string.h>

#include "copy-choice.h"
#include "plan.h"
#include "short-move.h"
#include "row-border.h"
#include "row-constants.h"
#include "row-list.h"
#include "stream-plan.h"
#include "task-runner.h"

/* Interior run [s, t) of a dense CONSTANT row with interior padding: lattice points copy,
 * the gaps between them are constants (`value`). */
static void copy_dilated(const ndpad_row_context *ctx, const ndpad_dim *row, const char *src,
                         char *dst, int64_t s, int64_t t, const void *value)
{
    const size_t es = ctx->es;
    const int64_t step = row->r + 1;
    int64_t o = s;
    while (o < t) {
        const int64_t phase = (o - row->b) % step;
        if (phase == 0) {
            ndpad_copy_element(dst + (size_t)o * es, src + (size_t)((o - row->b) / step) * es, es);
            o++;
        } else {
            const int64_t len = step - phase < t - o ? step - phase : t - o;
            ndpad_fill_constants(ctx, dst, o, o + len, value);
            o += len;
        }
    }
}

/* The gap [from, to) of a flat CONSTANT row, to > from. */
static inline void fill_gap(const ndpad_row_context *ctx, char *from, char *to)
{
    if (to - from <= 16 && ctx->short_gaps)
        ndpad_move_upto16(from, (const char *)ctx->pattern, to - from);
    else
        ctx->fill_pad(from, ctx->pad_value, (to - from) / (int64_t)ctx->es, ctx->es);
}

/* Columns [x0, x1) of a row whose innermost axis is dense in both tensors; `v`: its
 * constants (CONSTANT). */
static inline void run_row_dense(const ndpad_row_context *ctx, const char *src, char *dst,
                                 bool pad_row, bool skip_interior, const ndpad_row_values *v)
{
    const size_t es = ctx->es;
    const int64_t x0 = ctx->x0, x1 = ctx->x1, c0 = ctx->c0, c1 = ctx->c1;
    if (pad_row) {
        if (ctx->consts == NULL || (v->left == v->mid && v->right == v->mid)) {
            ndpad_fill_constants(ctx, dst, x0, x1, v->mid);
        } else {
            /* per side: the row axis's own sides win over the outer axes' before them */
            ndpad_fill_constants(ctx, dst, x0, c0, v->left);
            ndpad_fill_constants(ctx, dst, c0, c1, v->mid);
            ndpad_fill_constants(ctx, dst, c1, x1, v->right);
        }
        return;
    }
    /* The interior first: the borders then read source elements it has just brought into
     * the cache (WRAP's left border reads the row's far end). */
    if (c0 < c1 && !skip_interior) {
        if (ctx->row.r == 0)
            ctx->copy(dst + (size_t)c0 * es, src + (size_t)(c0 - ctx->row.b) * es,
                      (size_t)(c1 - c0) * es);
        else
            copy_dilated(ctx, &ctx->row, src, dst, c0, c1, v->mid);
    }
    if (x0 < c0) {
        if (ctx->constant)
            ndpad_fill_constants(ctx, dst, x0, c0, v->left);
        else
            ndpad_row_border_fill(ctx->left, ctx->fill, src, dst, es);
    }
    if (c1 < x1) {
        if (ctx->constant)
            ndpad_fill_constants(ctx, dst, c1, x1, v->right);
        else
            ndpad_row_border_fill(ctx->right, ctx->fill, src, dst, es);
    }
}

/* Columns [x0, x1) of a row with any strides: element by element through the mapping. */
static void run_row_strided(const ndpad_row_context *ctx, const char *src, char *dst, bool pad_row,
                            bool skip_interior, const ndpad_row_values *v)
{
    const ndpad_dim *row = &ctx->row;
    for (int64_t o = ctx->x0; o < ctx->x1; o++) {
        if (skip_interior && o >= row->copy_begin && o < row->copy_end) continue;
        const int64_t i = pad_row ? -1 : ndpad_dim_source(row, ctx->plan->mode, o);
        ndpad_copy_element(dst + o * row->out_stride,
                           i >= 0                ? src + i * row->in_stride
                           : ctx->consts == NULL ? (const char *)ctx->pad_value
                                                 : ndpad_constant_at(ctx, v, o),
                           ctx->es);
    }
}

/* `inside`: every outer index of this row lies in the interior region, so for in-place
 * padding its interior run is the input itself and is not written. */
static inline void run_row(const ndpad_row_context *ctx, const char *src, char *dst, bool pad_row,
                           bool inside, const ndpad_row_values *v)
{
    const bool skip = ctx->skip_interior && inside && !pad_row;
    if (ctx->dense)
        run_row_dense(ctx, src, dst, pad_row, skip, v);
    else
        run_row_strided(ctx, src, dst, pad_row, skip, v);
}

/* CONSTANT rows of a contiguous output, whole rows per tile: the output is interior runs
 * separated by gaps of pad value. A gap (this row's right border, the next row's left
 * border, and any pad rows between) is filled once, from `*cursor` to the next run. */
static inline void run_row_flat(const ndpad_row_context *ctx, const char *src, char *dst,
                                bool pad_row, bool skip_interior, char **cursor)
{
    if (pad_row) return;
    const size_t es = ctx->es;
    char *run = dst + (size_t)ctx->c0 * es;
    if (run > *cursor) ctx->fill_pad(*cursor, ctx->pad_value, (run - *cursor) / (int64_t)es, es);
    if (ctx->c0 < ctx->c1 && !skip_interior) {
        if (ctx->row.r == 0)
            ctx->copy(run, src + (size_t)(ctx->c0 - ctx->row.b) * es,
                      (size_t)(ctx->c1 - ctx->c0) * es);
        else
            copy_dilated(ctx, &ctx->row, src, dst, ctx->c0, ctx->c1, ctx->pad_value);
    }
    *cursor = dst + (size_t)ctx->c1 * es;
}

/* `count` consecutive interior rows of a flat CONSTANT tile along an axis without interior
 * padding: the rows differ only by the strides, so each is one gap fill and one copy (none
 * in place), with no index mapping. */
static void run_rows_flat_interior(const ndpad_row_context *ctx, const char *src, char *dst,
                                   int64_t count, int64_t in_stride, int64_t out_stride,
                                   bool skip_interior, char **cursor)
{
    const size_t es = ctx->es;
    const size_t run_bytes = (size_t)(ctx->c1 - ctx->c0) * es;
    char *run = dst + (size_t)ctx->c0 * es;
    const char *from = src + (size_t)(ctx->c0 - ctx->row.b) * es;
    char *end = *cursor;
    if (skip_interior) {
        /* In place only the gaps are written, one or two cache lines a row apart: ask for
         * the lines a few rows ahead, for writing, so their misses overlap. How far ahead
         * pays differs between machines: the tile's (ndpad-tune measures it). */
        const int32_t rows_ahead = ctx->plan->tile.prefetch;
        const int64_t ahead = (rows_ahead == 0 ? NDPAD_PREFETCH_ROWS : rows_ahead) * out_stride - 8;
        for (int64_t k = 0; k < count; k++) {
            if (rows_ahead >= 0) __builtin_prefetch(run + ahead, 1, 3);
            if (run > end) fill_gap(ctx, end, run);
            end = run + run_bytes;
            run += out_stride;
        }
        *cursor = end;
        return;
    }
    for (int64_t k = 0; k < count; k++) {
        if (run > end) fill_gap(ctx, end, run);
        if (run_bytes != 0) ctx->copy(run, from, run_bytes);
        end = run + run_bytes;
        run += out_stride;
        from += in_stride;
    }
    *cursor = end;
}

/* What every row of tile `tile` shares: its columns [x0, x1), the interior run clipped to
 * them, and the plan's kernels and pad value, held in locals. */
static inline void init_row_context(ndpad_row_context *ctx, const ndpad_plan *plan,
                                    bool skip_interior, int64_t tile, int64_t col_tiles,
                                    bool nontemporal)
{
    *ctx = (ndpad_row_context){
        .plan = plan,
        .row = plan->dim[plan->ndim - 1],
        .fill_pad = plan->kernels->fill[NDPAD_CONSTANT],
        .copy = ndpad_copy_choose(plan->kernels, plan->tile.copy, nontemporal),
        .pad_value = plan->pad_value,
        .es = plan->elem_size,
        .constant = plan->mode == NDPAD_CONSTANT,
        .dense = plan->inner_dense,
        .skip_interior = skip_interior,
        .consts = plan->consts,
    };
    ctx->short_gaps = ctx->constant && 16 % ctx->es == 0;
    if (ctx->short_gaps)
        for (size_t k = 0; k < 16; k++)
            ctx->pattern[k] = ((const uint8_t *)plan->pad_value)[k % ctx->es];
    const int64_t tile_cols = plan->tile.cols;
    ctx->x0 = tile % col_tiles * tile_cols;
    ctx->x1 = ctx->x0 + tile_cols < ctx->row.n ? ctx->x0 + tile_cols : ctx->row.n;
    ctx->c0 = ctx->row.copy_begin < ctx->x0   ? ctx->x0
              : ctx->row.copy_begin > ctx->x1 ? ctx->x1
                                              : ctx->row.copy_begin;
    ctx->c1 = ctx->row.copy_end < ctx->c0   ? ctx->c0
              : ctx->row.copy_end > ctx->x1 ? ctx->x1
                                            : ctx->row.copy_end;
    if (ctx->consts != NULL && ctx->consts->pattern != NULL) {
        const int64_t period = ctx->consts->period_elems, es = (int64_t)ctx->es;
        ctx->phase_x0 = ctx->x0 % period * es;
        ctx->phase_c1 = ctx->c1 % period * es;
    }
}

/* Dense rows of the modes other than CONSTANT: where each border run reads in the source
 * row, the same for every row of the tile. */
static inline void plan_borders(ndpad_row_context *ctx, ndpad_row_border *left,
                                ndpad_row_border *right)
{
    ctx->fill = ctx->plan->kernels->fill;
    ndpad_row_border_plan(left, ctx->plan->mode, &ctx->row, ctx->x0, ctx->c0);
    ndpad_row_border_plan(right, ctx->plan->mode, &ctx->row, ctx->c1, ctx->x1);
    ctx->left = left, ctx->right = right;
}

/* Offsets and flags of the axes before the last outer one, at the odometer's index; level
 * k + 1 holds axes 0..k. Once per run of the last outer axis, not per row. */
static inline void odometer_prefix(const ndpad_plan *plan, int32_t outer, int32_t mode,
                                   const int64_t *index, int64_t *src_off, int64_t *dst_off,
                                   bool *pad, bool *inside)
{
    for (int32_t k = 0; k < outer - 1; k++) {
        const ndpad_dim *dim = &plan->dim[k];
        const int64_t i = pad[k] ? -1 : ndpad_dim_source(dim, mode, index[k]);
        pad[k + 1] = pad[k] || i < 0;
        inside[k + 1] = inside[k] && index[k] >= dim->copy_begin && index[k] < dim->copy_end;
        src_off[k + 1] = src_off[k] + (i < 0 ? 0 : i * dim->in_stride);
        dst_off[k + 1] = dst_off[k] + index[k] * dim->out_stride;
    }
}

/* Rows [r0, r1) of a tile with outer axes. The outer axes are an odometer; the last of
 * them, which moves every row, is walked in a tight loop. */
static inline void run_rows(const ndpad_row_context *ctx, const char *in, char *out, int64_t r0,
                            int64_t r1, bool flat, char **cursor)
{
    const ndpad_plan *plan = ctx->plan;
    const int32_t outer = plan->ndim - 1;
    const int32_t mode = plan->mode;
    const bool skip_interior = ctx->skip_interior;
    int64_t index[NDPAD_MAX_RANK];
    int64_t src_off[NDPAD_MAX_RANK + 1], dst_off[NDPAD_MAX_RANK + 1];
    bool pad[NDPAD_MAX_RANK + 1], inside[NDPAD_MAX_RANK + 1];
    ndpad_outer_index_of_row(plan, r0, index);
    src_off[0] = 0, dst_off[0] = 0, pad[0] = false, inside[0] = true;

    const ndpad_dim last = plan->dim[outer - 1];
    int64_t r = r0;
    while (r < r1) {
        odometer_prefix(plan, outer, mode, index, src_off, dst_off, pad, inside);
        /* The last outer axis from index[outer - 1] to its end or the tile's end. */
        const char *src_base = in != NULL ? in + src_off[outer - 1] : NULL;
        char *dst_base = out + dst_off[outer - 1];
        const bool prefix_pad = pad[outer - 1], prefix_inside = inside[outer - 1];
        int64_t o = index[outer - 1];
        const int64_t o_end = o + (r1 - r) < last.n ? o + (r1 - r) : last.n;
        r += o_end - o;
        if (flat && (prefix_pad || (last.r == 0 && ctx->row.r == 0 && src_base != NULL))) {
            /* Flat CONSTANT: pad rows are part of the gap the next run's fill covers, so
             * only the interior rows of this axis are visited, in one strided loop. */
            const int64_t lo = o > last.copy_begin ? o : last.copy_begin;
            const int64_t hi = o_end < last.copy_end ? o_end : last.copy_end;
            if (!prefix_pad && lo < hi)
                run_rows_flat_interior(ctx, src_base + (lo - last.b) * last.in_stride,
                                       dst_base + lo * last.out_stride, hi - lo, last.in_stride,
                                       last.out_stride, skip_interior && prefix_inside, cursor);
            o = o_end;
        }
        /* Constants per side or index: the interior rows [lo, hi) in one loop when their
         * values are the same (none: lo = hi = o_end). */
        int64_t lo = o_end, hi = o_end;
        if (ctx->consts != NULL && !flat && ctx->dense && !prefix_pad && last.r == 0 &&
            ctx->row.r == 0 && src_base != NULL && ndpad_consts_same_along_last(ctx)) {
            lo = o > last.copy_begin ? o : last.copy_begin;
            hi = o_end < last.copy_end ? o_end : last.copy_end;
            if (lo >= hi) lo = hi = o_end;
        }
        for (; o < o_end; o++) {
            if (o == lo && ctx->pad_rows_only) {
                o = hi - 1;
                continue;
            }
            if (o == lo) {
                ndpad_row_values v = {ctx->pad_value, ctx->pad_value, ctx->pad_value};
                ndpad_row_constants(ctx, index, lo, false, &v);
                ndpad_rows_consts_interior(ctx, src_base + (lo - last.b) * last.in_stride,
                                           dst_base + lo * last.out_stride, hi - lo, last.in_stride,
                                           last.out_stride, skip_interior && prefix_inside, &v);
                o = hi - 1;
                continue;
            }
            const int64_t i = prefix_pad ? -1 : ndpad_dim_source(&last, mode, o);
            if (i >= 0 && ctx->pad_rows_only) continue;
            const char *src = i < 0 || src_base == NULL ? src_base : src_base + i * last.in_stride;
            const bool inside_row = prefix_inside && o >= last.copy_begin && o < last.copy_end;
            if (flat) {
                run_row_flat(ctx, src, dst_base + o * last.out_stride, i < 0,
                             skip_interior && inside_row, cursor);
            } else if (ctx->consts != NULL) {
                ndpad_row_values v = {ctx->pad_value, ctx->pad_value, ctx->pad_value};
                ndpad_row_constants(ctx, index, o, i < 0, &v);
                run_row(ctx, src, dst_base + o * last.out_stride, i < 0, inside_row, &v);
            } else {
                const ndpad_row_values v = {ctx->pad_value, ctx->pad_value, ctx->pad_value};
                run_row(ctx, src, dst_base + o * last.out_stride, i < 0, inside_row, &v);
            }
        }
        ndpad_outer_index_carry(plan, index);
    }
}

/* Orders the non-temporal stores before it with everything after (sfence on x86-64, whose
 * streaming stores are weakly ordered; a full fence elsewhere). */
static inline void store_fence(void)
{
#if defined(__x86_64__)
    __builtin_ia32_sfence();
#else
    atomic_thread_fence(memory_order_seq_cst);
#endif
}

/* Rows [r0, r1) of tile `tile` by the row executor. */
static void run_tile_rows(const ndpad_plan *plan, const char *in, char *out, bool skip_interior,
                          int64_t tile, int64_t col_tiles, int64_t r0, int64_t r1, bool nontemporal,
                          bool pad_rows_only)
{
    ndpad_row_context ctx;
    init_row_context(&ctx, plan, skip_interior, tile, col_tiles, nontemporal);
    ctx.pad_rows_only = pad_rows_only;
    ndpad_row_border left, right; /* not in ctx: its initialiser would zero them */
    if (ctx.dense && !ctx.constant) plan_borders(&ctx, &left, &right);

    if (plan->ndim == 1) {
        ndpad_row_values v = {ctx.pad_value, ctx.pad_value, ctx.pad_value};
        if (pad_rows_only) return; /* the one row is an input row */
        if (ctx.consts != NULL) ndpad_row_constants(&ctx, NULL, 0, false, &v);
        run_row(&ctx, in, out, false, true, &v);
        return;
    }
    /* constants per side or index change from row to row: no gap spans rows */
    const bool flat = ctx.constant && ctx.dense && plan->out_contiguous && ctx.x0 == 0 &&
                      ctx.x1 == ctx.row.n && ctx.consts == NULL;
    const int64_t row_bytes = ctx.row.n * (int64_t)ctx.es;
    char *cursor = out + r0 * row_bytes;
    run_rows(&ctx, in, out, r0, r1, flat, &cursor);
    if (flat) {
        /* The gap after the tile's last run, to the end of its rows. */
        char *end = out + r1 * row_bytes;
        if (end > cursor)
            ctx.fill_pad(cursor, ctx.pad_value, (end - cursor) / (int64_t)ctx.es, ctx.es);
    }
}

/* One tile: output rows [r0, r1) restricted to columns [x0, x1); `nontemporal` with
 * streaming stores. */
static void run_tile(const ndpad_plan *plan, const char *in, char *out, bool skip_interior,
                     int64_t tile, int64_t col_tiles, bool nontemporal)
{
    const int64_t tile_rows = plan->tile.rows;
    const int64_t r0 = tile / col_tiles * tile_rows;
    const int64_t r1 = r0 + tile_rows < plan->rows ? r0 + tile_rows : plan->rows;
    const int64_t value_run =
        !skip_interior && ndpad_stream_takes(plan) ? ndpad_stream_value_run(plan) : 0;
    if (value_run > 0) {
        /* constants per index along an outer axis: the kernel a run of rows of one value at
         * a time, that value its pad */
        ndpad_stream_run_values(plan, in, out, r0, r1, nontemporal, value_run);
        return;
    }
    const bool row_pattern = plan->stream != NULL && plan->stream->row_pattern != 0;
    if (!skip_interior && ndpad_stream_takes(plan) &&
        (plan->consts == NULL || (row_pattern && plan->consts->kind == NDPAD_CONSTS_INDEX))) {
        /* whole rows: the output-stream path (constants per index along the row: its
         * kernel writes them from the row pattern) */
        ndpad_stream_run(plan, in, out, r0, r1, nontemporal);
        return;
    }
    if (!skip_interior && ndpad_stream_takes(plan) && !nontemporal) {
        /* Constants per side or index on the output-stream path: the stream kernel writes a
         * batch of rows with the plan's one pad value (per side with a row pattern: every
         * input row with its constants), then the row executor writes the batch's constants
         * again (with a row pattern: its pad rows only), row by row, while the batch is in
         * cache (its interior runs are not copied again: the in-place form). Streaming stores
         * would have sent the batch to memory: those tiles take the row executor alone
         * (below). */
        const int64_t batch_rows = NDPAD_CONSTS_BATCH_BYTES / plan->row_bytes > 1
                                       ? NDPAD_CONSTS_BATCH_BYTES / plan->row_bytes
                                       : 1;
        for (int64_t a = r0, b; a < r1; a = b) {
            b = a + batch_rows < r1 ? a + batch_rows : r1;
            ndpad_stream_run(plan, in, out, a, b, false);
            run_tile_rows(plan, in, out, true, tile, col_tiles, a, b, false, row_pattern);
        }
        return;
    }
    run_tile_rows(plan, in, out, skip_interior, tile, col_tiles, r0, r1, nontemporal, false);
    /* Streaming copies leave their stores unordered (kernels.h): publish the tile's. */
    if (nontemporal) store_fence();
}

/* An execution's tiles as the task runner's items. */
typedef struct tile_job {
    const ndpad_plan *plan;
    const char *in;
    char *out;
    bool skip_interior;
    int64_t col_tiles;
} tile_job;

/* Tiles [t0, t1) with the plan's stores, or its one-thread choice while the execution has
 * run on the caller alone (one thread, a sequential host, or workers that have not started:
 * the tiles are the plan's for more threads, the stores those of one thread). Only speed
 * depends on it. */
static void run_tiles(void *context, int64_t t0, int64_t t1, bool alone)
{
    const tile_job *job = (const tile_job *)context;
    const ndpad_plan *plan = job->plan;
    const bool nontemporal = alone && plan->solo_nt >= 0 && plan->tile.threads > 1
                                 ? plan->solo_nt != 0
                                 : plan->tile.nt != 0;
    for (int64_t t = t0; t < t1; t++)
        run_tile(plan, job->in, job->out, job->skip_interior, t, job->col_tiles, nontemporal);
}

void ndpad_run(const ndpad_plan *plan, const char *in, char *out, bool skip_interior)
{
    const int64_t n = plan->dim[plan->ndim - 1].n;
    const int64_t row_tiles = (plan->rows + plan->tile.rows - 1) / plan->tile.rows;
    const int64_t col_tiles = (n + plan->tile.cols - 1) / plan->tile.cols;
    tile_job job = {plan, in, out, skip_interior, col_tiles};
    ndpad_tasks_run(&plan->policy, plan->tile.threads, run_tiles, &job, row_tiles * col_tiles);
}
