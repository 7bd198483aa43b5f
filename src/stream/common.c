/* What the output-stream strategies share: source bytes, lane masks, dense planes. */
#include <string.h>

#include "checked.h"
#include "stream/strategy.h"

int64_t ndpad_stream_source_byte(const ndpad_plan *plan, const ndpad_dim *row, int64_t q)
{
    const int64_t es = (int64_t)plan->elem_size;
    return ndpad_dim_source(row, plan->mode, q / es) * es + q % es;
}

uint64_t ndpad_stream_lane_range(int64_t lo, int64_t hi)
{
    lo = lo < 0 ? 0 : lo > 64 ? 64 : lo;
    hi = hi < 0 ? 0 : hi > 64 ? 64 : hi;
    if (hi <= lo) return 0;
    const uint64_t below_hi = hi == 64 ? ~(uint64_t)0 : ((uint64_t)1 << hi) - 1;
    const uint64_t below_lo = lo == 64 ? ~(uint64_t)0 : ((uint64_t)1 << lo) - 1;
    return below_hi & ~below_lo;
}

int64_t ndpad_stream_gcd(int64_t a, int64_t b)
{
    while (b != 0) {
        const int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

uint8_t *ndpad_stream_index_start(void *p)
{
    return (uint8_t *)(((uintptr_t)p + NDPAD_STREAM_BLOCK - 1) &
                       ~(uintptr_t)(NDPAD_STREAM_BLOCK - 1));
}

/* Each plane reads its own input plane, the input's planes one after another. */
bool ndpad_stream_dense_planes(const ndpad_plan *plan, int64_t max_plane, int64_t *rows_per_plane,
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

/* Their index along the axes from `axis` on inside the copy range. */
void ndpad_stream_fill_plane_in_before(const ndpad_plan *plan, ndpad_stream *stream,
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
    stream->plane_in_before = ndpad_stream_offset(stream, in_before);
}

int64_t ndpad_stream_lane(const ndpad_stream_facts *facts, ndpad_stream_kind kind)
{
    const int64_t es = facts->es, lane = facts->kernels->stream_lane[kind];
    if (lane == 1) return 1;
    return es % 4 == 0 ? 4 : lane <= 2 && es % 2 == 0 ? 2 : 0;
}

/* Whether a CONSTANT plan's rows are of the lengths the row masks serve (table.h). */
bool ndpad_stream_row_mask_rows(const ndpad_stream_facts *facts)
{
    return facts->constant && facts->row_bytes >= NDPAD_STREAM_BLOCK &&
           facts->row_bytes < NDPAD_STREAM_MAX_ROW_MASK_BYTES;
}
