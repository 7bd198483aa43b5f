/* The executor: tiles of output rows over OpenMP threads. Each row is its border runs,
 * filled by the mode's filler from the source row, and its interior run, one bulk copy.
 * Rows are visited in output order with an odometer, so a row costs O(1) index work. */
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "plan.h"

/* One row to produce: where its source row and output row start, and whether an outer
 * axis makes the whole row the pad value. */
typedef struct row_job {
    const char *src;
    char       *dst;
    bool        pad_row;
} row_job;

static inline void copy_element(char *dst, const char *src, size_t elem_size)
{
    switch (elem_size) {
    case 1: memcpy(dst, src, 1); break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, elem_size); break;
    }
}

/* Border run [s, t) of a dense row, non-CONSTANT modes: runs of the source row, forward or
 * reversed, for the first period; then copies of the period already written (doubling). */
static void fill_border_from_source(const ndpad_plan *plan, const ndpad_dim *row,
                                    const char *src, char *dst, int64_t s, int64_t t)
{
    const size_t es = plan->elem_size;
    const int32_t mode = plan->mode;
    const ndpad_fill_fn *fill = plan->kernels->fill;
    const int64_t d = row->d;

    if (mode == NDPAD_EDGE || d == 1) {
        const char *edge = s - row->b < 0 ? src : src + (size_t)(d - 1) * es;
        fill[NDPAD_EDGE](dst + (size_t)s * es, edge, t - s, es);
        return;
    }
    const int64_t period = mode == NDPAD_WRAP ? d : mode == NDPAD_REFLECT ? 2 * (d - 1) : 2 * d;
    int64_t o = s;
    while (o < t) {
        if (o - s >= period) {
            const int64_t distance = (o - s) / period * period;
            const int64_t len = distance < t - o ? distance : t - o;
            memcpy(dst + (size_t)o * es, dst + (size_t)(o - distance) * es, (size_t)len * es);
            o += len;
            continue;
        }
        int64_t m = (o - row->b) % period;
        if (m < 0) m += period;
        int64_t first, len;
        bool reversed;
        if (mode == NDPAD_WRAP) {
            first = m, len = d - m, reversed = false;
        } else if (mode == NDPAD_REFLECT) {
            if (m < d - 1) first = m, len = d - 1 - m, reversed = false;
            else first = period - m, len = period - m, reversed = true;
        } else {
            if (m < d) first = m, len = d - m, reversed = false;
            else first = period - 1 - m, len = period - m, reversed = true;
        }
        if (len > t - o) len = t - o;
        fill[reversed ? mode : NDPAD_WRAP](dst + (size_t)o * es, src + (size_t)first * es, len,
                                           es);
        o += len;
    }
}

/* Interior run [s, t) of a dense CONSTANT row with interior padding: lattice points copy,
 * the gaps between them are the pad value. */
static void copy_dilated(const ndpad_plan *plan, const ndpad_dim *row, const char *src,
                         char *dst, int64_t s, int64_t t)
{
    const size_t es = plan->elem_size;
    const int64_t step = row->r + 1;
    int64_t o = s;
    while (o < t) {
        const int64_t phase = (o - row->b) % step;
        if (phase == 0) {
            copy_element(dst + (size_t)o * es, src + (size_t)((o - row->b) / step) * es, es);
            o++;
        } else {
            const int64_t len = step - phase < t - o ? step - phase : t - o;
            plan->kernels->fill[NDPAD_CONSTANT](dst + (size_t)o * es, plan->pad_value, len, es);
            o += len;
        }
    }
}

/* Columns [x0, x1) of a row whose innermost axis is dense in both tensors. */
static void run_row_dense(const ndpad_plan *plan, const row_job *job, int64_t x0, int64_t x1,
                          bool skip_interior)
{
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const size_t es = plan->elem_size;
    const ndpad_fill_fn *fill = plan->kernels->fill;
    char *dst = job->dst;

    if (job->pad_row) {
        fill[NDPAD_CONSTANT](dst + (size_t)x0 * es, plan->pad_value, x1 - x0, es);
        return;
    }
    const int64_t c0 = row->copy_begin < x0 ? x0 : (row->copy_begin > x1 ? x1 : row->copy_begin);
    const int64_t c1 = row->copy_end < c0 ? c0 : (row->copy_end > x1 ? x1 : row->copy_end);
    const bool constant = plan->mode == NDPAD_CONSTANT;

    if (x0 < c0) {
        if (constant) fill[NDPAD_CONSTANT](dst + (size_t)x0 * es, plan->pad_value, c0 - x0, es);
        else fill_border_from_source(plan, row, job->src, dst, x0, c0);
    }
    if (c0 < c1 && !skip_interior) {
        if (row->r == 0)
            plan->kernels->copy(dst + (size_t)c0 * es, job->src + (size_t)(c0 - row->b) * es,
                                (size_t)(c1 - c0) * es);
        else
            copy_dilated(plan, row, job->src, dst, c0, c1);
    }
    if (c1 < x1) {
        if (constant) fill[NDPAD_CONSTANT](dst + (size_t)c1 * es, plan->pad_value, x1 - c1, es);
        else fill_border_from_source(plan, row, job->src, dst, c1, x1);
    }
}

/* Columns [x0, x1) of a row with any strides: element by element through the mapping. */
static void run_row_strided(const ndpad_plan *plan, const row_job *job, int64_t x0,
                            int64_t x1, bool skip_interior)
{
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const size_t es = plan->elem_size;
    for (int64_t o = x0; o < x1; o++) {
        if (skip_interior && !job->pad_row && o >= row->copy_begin && o < row->copy_end)
            continue;
        char *dst = job->dst + o * row->out_stride;
        const int64_t i = job->pad_row ? -1 : ndpad_dim_source(row, plan->mode, o);
        copy_element(dst, i < 0 ? (const char *)plan->pad_value : job->src + i * row->in_stride,
                     es);
    }
}

/* One tile: output rows [r0, r1) restricted to columns [x0, x1). */
static void run_tile(const ndpad_plan *plan, const char *in, char *out, bool skip_interior,
                     int64_t tile, int64_t col_tiles)
{
    const int32_t outer = plan->ndim - 1;
    const int64_t r0 = tile / col_tiles * plan->tile.rows;
    const int64_t r1 = r0 + plan->tile.rows < plan->rows ? r0 + plan->tile.rows : plan->rows;
    const int64_t x0 = tile % col_tiles * plan->tile.cols;
    const int64_t n = plan->dim[outer].n;
    const int64_t x1 = x0 + plan->tile.cols < n ? x0 + plan->tile.cols : n;

    /* Odometer over the outer axes; level k + 1 holds the offsets after axis k. */
    int64_t index[NDPAD_MAX_RANK];
    int64_t src_off[NDPAD_MAX_RANK + 1], dst_off[NDPAD_MAX_RANK + 1];
    bool pad[NDPAD_MAX_RANK + 1];
    int64_t rest = r0;
    for (int32_t k = outer - 1; k >= 0; k--) {
        index[k] = rest % plan->dim[k].n;
        rest /= plan->dim[k].n;
    }
    src_off[0] = 0, dst_off[0] = 0, pad[0] = false;
    int32_t from = 0;
    for (int64_t r = r0; r < r1; r++) {
        for (int32_t k = from; k < outer; k++) {
            const ndpad_dim *dim = &plan->dim[k];
            const int64_t i = pad[k] ? -1 : ndpad_dim_source(dim, plan->mode, index[k]);
            pad[k + 1] = i < 0;
            src_off[k + 1] = src_off[k] + (i < 0 ? 0 : i * dim->in_stride);
            dst_off[k + 1] = dst_off[k] + index[k] * dim->out_stride;
        }
        const row_job job = {.src = in != NULL ? in + src_off[outer] : NULL,
                             .dst = out + dst_off[outer],
                             .pad_row = pad[outer]};
        if (plan->inner_dense) run_row_dense(plan, &job, x0, x1, skip_interior);
        else run_row_strided(plan, &job, x0, x1, skip_interior);

        from = outer - 1;
        while (from >= 0 && ++index[from] == plan->dim[from].n) index[from--] = 0;
        if (from < 0) from = 0;
    }
}

void ndpad_run(const ndpad_plan *plan, const char *in, char *out, bool skip_interior)
{
    const int64_t n = plan->dim[plan->ndim - 1].n;
    const int64_t row_tiles = (plan->rows + plan->tile.rows - 1) / plan->tile.rows;
    const int64_t col_tiles = (n + plan->tile.cols - 1) / plan->tile.cols;
    const int64_t tiles = row_tiles * col_tiles;
    int64_t threads = plan->tile.threads < tiles ? plan->tile.threads : tiles;
#ifdef _OPENMP
    if (omp_in_parallel()) threads = 1; /* never a nested team: the caller owns the cores */
#else
    threads = 1;
#endif
    if (threads <= 1) {
        for (int64_t t = 0; t < tiles; t++) run_tile(plan, in, out, skip_interior, t, col_tiles);
        return;
    }
#ifdef _OPENMP
#pragma omp parallel for num_threads((int)threads) schedule(static)
    for (int64_t t = 0; t < tiles; t++) run_tile(plan, in, out, skip_interior, t, col_tiles);
#endif
}
