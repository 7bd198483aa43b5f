/* The constants of a row of the row executor (executor.c): which value each constant
 * element of a row takes (one pad value, or a plan's constants per side or per index,
 * plan.h's ndpad_const_map) and the moves that write them, with what every row of a tile
 * shares. Inline: a call per border cost 15% of an NHWC pad. */
#ifndef NDPAD_ROW_CONSTANTS_H
#define NDPAD_ROW_CONSTANTS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "plan.h"
#include "row-border.h"
#include "short-move.h"

/* What every row of a tile shares, held in locals: stores through `char *` may alias
 * anything, so reading these from the plan inside the row loop would reload them. */
typedef struct ndpad_row_context {
    const ndpad_plan *plan;
    ndpad_dim row;          /* the row axis                                 */
    ndpad_fill_fn fill_pad; /* CONSTANT filler                              */
    ndpad_copy_fn copy;
    const void *pad_value;
    size_t es;
    int64_t x0, x1;                /* the tile's columns                           */
    int64_t c0, c1;                /* the interior run clipped to those columns    */
    const ndpad_fill_fn *fill;     /* the plan's fillers, by mode                  */
    const ndpad_row_border *left;  /* non-CONSTANT dense rows: [x0, c0)            */
    const ndpad_row_border *right; /*                          [c1, x1)            */
    const ndpad_const_map *consts; /* constants per side or index, or NULL         */
    int64_t phase_x0, phase_c1;    /* its row pattern's byte phase at x0 and c1     */
    bool constant;
    bool dense;
    bool skip_interior;
    /* the output stream has written every input row with its constants (per side: its row
     * pattern holds the row axis's two values): only pad rows are left to write */
    bool pad_rows_only;
    /* CONSTANT, elem_size dividing 16: the pad value repeated over 16 bytes, for gaps of at
     * most 16 bytes written inline (a call per gap cost more than the gap) */
    bool short_gaps;
    uint8_t pattern[16];
} ndpad_row_context;

/* The constants of one row (CONSTANT): the value of its columns before the interior region
 * (`left`), in it (`mid`: gaps and whole pad rows) and after it (`right`); one pad value
 * for all three unless the plan has constants per side or index. */
typedef struct ndpad_row_values {
    const void *left, *mid, *right;
} ndpad_row_values;

/* Columns [s, t) of the row at `dst` with a plan's per-index constants along the row axis:
 * copies of the pattern from the phase of s, then whole pattern buffers (vector moves). */
static void ndpad_fill_pattern(const ndpad_const_map *m, char *dst, int64_t s, int64_t t, size_t es)
{
    int64_t bytes = (t - s) * (int64_t)es;
    char *p = dst + (size_t)s * es;
    const int64_t phase = s % m->period_elems * (int64_t)es;
    int64_t len = m->pattern_bytes - phase < bytes ? m->pattern_bytes - phase : bytes;
    memcpy(p, m->pattern + phase, (size_t)len);
    for (p += len, bytes -= len; bytes > 0; p += len, bytes -= len) {
        len = m->pattern_bytes < bytes ? m->pattern_bytes : bytes;
        memcpy(p, m->pattern, (size_t)len);
    }
}

/* Columns [s, t) of the row at `dst` are constants of value `value` (or the row pattern).
 * Up to 16 bytes of a spread value or of the pattern are moves without a call (NHWC's
 * borders are 12 bytes, a call each cost 15% of the pad). */
static inline void ndpad_fill_constants(const ndpad_row_context *ctx, char *dst, int64_t s,
                                        int64_t t, const void *value)
{
    if (s >= t) return;
    const ndpad_const_map *m = ctx->consts;
    const size_t es = ctx->es;
    const int64_t bytes = (t - s) * (int64_t)es;
    if (m != NULL && m->pattern != NULL) {
        if (bytes > 16) {
            ndpad_fill_pattern(m, dst, s, t, es);
            return;
        }
        const int64_t phase = s == ctx->x0   ? ctx->phase_x0
                              : s == ctx->c1 ? ctx->phase_c1
                                             : s % m->period_elems * (int64_t)es;
        ndpad_move_upto16(dst + (size_t)s * es, (const char *)m->pattern + phase, bytes);
    } else if (m != NULL && m->value_stride == 16 && bytes <= 16) {
        ndpad_move_upto16(dst + (size_t)s * es, (const char *)value, bytes);
    } else {
        ctx->fill_pad(dst + (size_t)s * es, value, t - s, es);
    }
}

/* The constants of a row at outer indices index[0 .. outer - 2] and `last` on the last outer
 * axis, for a plan with constants per side or index; `pad_row`: some outer index is padding. */
static void ndpad_row_constants(const ndpad_row_context *ctx, const int64_t *index, int64_t last,
                                bool pad_row, ndpad_row_values *v)
{
    const ndpad_plan *plan = ctx->plan;
    const ndpad_const_map *m = ctx->consts;
    const int32_t outer = plan->ndim - 1;
    if (m->kind == NDPAD_CONSTS_INDEX) {
        if (m->pattern != NULL) return; /* the row's pattern */
        const int32_t k = m->index_dim;
        const int64_t o = k == outer - 1 ? last : index[k];
        v->mid = m->values + (o / plan->dim[k].index_div % m->axis_n) * m->value_stride;
        v->left = v->right = v->mid;
        return;
    }
    /* numpy's rule: the last axis in whose padding the element lies gives its value */
    const unsigned char *values = m->values;
    const int32_t row_origin = ctx->row.origin;
    int32_t winner = -1;
    if (pad_row) {
        int side = 0;
        for (int32_t k = 0; k < outer; k++) {
            const ndpad_dim *dim = &plan->dim[k];
            const int64_t o = k == outer - 1 ? last : index[k];
            const int s = o < dim->copy_begin ? 0 : o >= dim->copy_end ? 1 : -1;
            if (s >= 0 && dim->origin > winner) winner = dim->origin, side = s;
        }
        v->mid = values + (2 * winner + side) * m->value_stride;
    }
    v->left = row_origin > winner ? values + 2 * row_origin * m->value_stride : v->mid;
    v->right = row_origin > winner ? values + (2 * row_origin + 1) * m->value_stride : v->mid;
}

/* The constant of column o of a row with constants `v`. */
static inline const char *ndpad_constant_at(const ndpad_row_context *ctx, const ndpad_row_values *v,
                                            int64_t o)
{
    const ndpad_const_map *m = ctx->consts;
    if (m != NULL && m->pattern != NULL)
        return (const char *)m->pattern + (size_t)(o % m->period_elems) * ctx->es;
    return (const char *)(o < ctx->row.copy_begin  ? v->left
                          : o >= ctx->row.copy_end ? v->right
                                                   : v->mid);
}

/* `count` consecutive interior rows of the last outer axis of a plan with constants whose
 * values there are the same row after row (`v`): each row its interior copy (none in
 * place) and its two borders, with no index mapping (the in-place form is the output
 * stream's second write of a batch's constants: NHWC's rows cost 11 ns each through
 * run_row). */
static void ndpad_rows_consts_interior(const ndpad_row_context *ctx, const char *src, char *dst,
                                       int64_t count, int64_t in_stride, int64_t out_stride,
                                       bool skip_interior, const ndpad_row_values *v)
{
    const size_t es = ctx->es;
    const int64_t x0 = ctx->x0, x1 = ctx->x1, c0 = ctx->c0, c1 = ctx->c1;
    const size_t run_bytes = (size_t)(c1 - c0) * es;
    const char *from = src + (c0 - ctx->row.b) * (int64_t)es;
    for (int64_t k = 0; k < count; k++) {
        if (!skip_interior && run_bytes != 0) ctx->copy(dst + (size_t)c0 * es, from, run_bytes);
        ndpad_fill_constants(ctx, dst, x0, c0, v->left);
        ndpad_fill_constants(ctx, dst, c1, x1, v->right);
        dst += out_stride;
        from += in_stride;
    }
}

/* Whether a plan's constants are the same on every non-pad row of a run of the last outer
 * axis (ndpad_rows_consts_interior): per side always, per index unless that axis holds the
 * index. */
static inline bool ndpad_consts_same_along_last(const ndpad_row_context *ctx)
{
    const ndpad_const_map *m = ctx->consts;
    return m->kind == NDPAD_CONSTS_SIDES || m->pattern != NULL ||
           m->index_dim != ctx->plan->ndim - 2;
}

#endif
