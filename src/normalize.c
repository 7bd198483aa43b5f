/* Normalisation: the smallest equivalent problem, so that rows are as long as possible and
 * the executor's per-row work is as small as possible (XNNPACK reshape_constant_pad_nd).
 *   1. crops become an input offset and a smaller extent where the mode allows
 *      (CONSTANT always, EDGE by clamping; the periodic modes read the whole input);
 *   2. axes with one output element become an input offset and disappear;
 *   3. axes are ordered by decreasing output stride, so rows follow memory order;
 *   4. adjacent unpadded axes that are dense in both tensors merge into one;
 *   5. CONSTANT: a padded axis absorbs a dense unpadded axis after it (pads scale);
 *      other modes: dense unpadded trailing axes fold into the element size. */
#include <string.h>

#include "checked.h"
#include "plan.h"

/* A stride in bytes. It only counts on an axis with more than one element of a tensor that
 * has elements: the validation bounds it there alone, and elsewhere it may be anything. */
static int64_t stride_bytes(int64_t stride, size_t elem_size, int64_t extent)
{
    int64_t bytes;
    if (extent <= 1 || __builtin_mul_overflow(stride, (int64_t)elem_size, &bytes)) return 0;
    return bytes;
}

static bool is_identity(const ndpad_dim *a)
{
    return a->b == 0 && a->n == a->d && a->r == 0;
}

/* Axis `outer` directly encloses `inner` in both tensors' layouts. */
static bool encloses_densely(const ndpad_dim *outer, const ndpad_dim *inner)
{
    return outer->out_stride == inner->n * inner->out_stride &&
           (outer->d <= 1 || outer->in_stride == inner->d * inner->in_stride);
}

static void set_copy_range(ndpad_dim *a, int32_t mode)
{
    if (mode == NDPAD_CONSTANT) {
        /* Crops are folded already: input position 0 sits at b >= 0. */
        a->copy_begin = a->b;
        a->copy_end = a->d == 0 ? a->b : a->b + (a->d - 1) * (a->r + 1) + 1;
        return;
    }
    const int64_t begin = a->b < 0 ? 0 : (a->b > a->n ? a->n : a->b);
    int64_t end; /* min(b + d, n), where b + d alone may exceed int64 (b + d + e fits) */
    if (a->b >= a->n)
        end = a->n;
    else if (a->b < 0)
        end = a->b + a->d;
    else
        end = a->d > a->n - a->b ? a->n : a->b + a->d;
    end = end < begin ? begin : (end > a->n ? a->n : end);
    a->copy_begin = begin;
    a->copy_end = end;
}

/* Step 1 for CONSTANT: keep only the input window the output sees. */
static void crop_constant(ndpad_dim *a, int64_t *in_offset, bool *all_pad)
{
    if (a->n == 0) return;
    const int64_t step = a->d > 1 ? a->r + 1 : 1;
    const int64_t lo = a->b < 0 ? -a->b : 0; /* first visible j */
    const int64_t dilated = a->d == 0 ? 0 : (a->d - 1) * step + 1;
    /* one past the last visible j: n - b, which may exceed int64 for b near -2^63 */
    int64_t hi;
    if (__builtin_sub_overflow(a->n, a->b, &hi) || hi > dilated) hi = dilated;
    const int64_t first = lo / step + (lo % step != 0); /* input index */
    const int64_t last = hi > 0 ? (hi - 1) / step : -1;
    if (first > last) {
        *all_pad = true;
        return;
    }
    /* Validation bounds the reach of the strides only for an input with elements; an
     * input that is empty on another axis may overflow here, and reads nothing anyway. */
    int64_t skip;
    if (ndpad_mul_overflows(first, a->in_stride, &skip) ||
        ndpad_add_overflows(*in_offset, skip, in_offset)) {
        *all_pad = true;
        return;
    }
    a->b += first * step;
    a->d = last - first + 1;
    if (a->d == 1) a->r = 0;
}

/* Step 1 for EDGE: clamping reads only up to the crop, so crops become offsets too. */
static void crop_edge(ndpad_dim *a, int64_t *in_offset)
{
    if (a->n == 0) return; /* an empty output reads nothing (and b may be INT64_MIN) */
    if (a->b < 0) {
        const int64_t k = -a->b < a->d - 1 ? -a->b : a->d - 1;
        *in_offset += k * a->in_stride;
        a->d -= k;
        a->b += k;
    }
    /* pads_end as it is now, e = (n - 1 - b) - (d - 1): n - b may exceed int64 by one and
     * n - 1 - b is validated, but with b far past the output the difference can still fall
     * below INT64_MIN, which crops all it can anyway. */
    int64_t e;
    if (__builtin_sub_overflow(a->n - 1 - a->b, a->d - 1, &e)) e = INT64_MIN;
    if (e < 0) {
        const int64_t k = e < -(a->d - 1) ? a->d - 1 : -e;
        a->d -= k;
    }
}

/* Does any output element read the input? CONSTANT needs a non-empty crop window on every
 * axis; the other modes read whenever there is output. */
bool ndpad_problem_reads_input(const ndpad_valid_problem *v)
{
    if (v->out_elems == 0) return false;
    for (int32_t k = 0; k < v->rank && v->mode == NDPAD_CONSTANT; k++) {
        const ndpad_axis *a = &v->axis[k];
        /* window of positions j in [max(0, -b), min(D, n - b)) must hold a lattice point */
        const int64_t lo = a->b < 0 ? -a->b : 0;
        int64_t hi; /* n - b may exceed int64 by one (n - 1 - b is validated) */
        if (ndpad_sub_overflows(a->n, a->b, &hi) || hi > a->dilated) hi = a->dilated;
        const int64_t step = a->d > 1 ? a->r + 1 : 1;       /* d <= 1: only j = 0 */
        const int64_t first = lo / step + (lo % step != 0); /* lattice indices */
        const int64_t last = hi > 0 ? (hi - 1) / step : -1;
        if (first > last) return false;
    }
    return true;
}

/* In-place padding is possible when the input can sit inside the output's layout: pads
 * >= 0, no interior, equal strides; the input then starts inplace_offset bytes into out. */
static void set_inplace(const ndpad_valid_problem *v, ndpad_plan *plan)
{
    int64_t offset = 0, term;
    plan->inplace_capable = false;
    for (int32_t k = 0; k < v->rank; k++) {
        const ndpad_axis *a = &v->axis[k];
        if (a->b < 0 || a->e < 0 || a->r != 0 || a->in_stride != a->out_stride ||
            ndpad_mul_overflows(a->b, a->out_stride, &term) ||
            ndpad_add_overflows(offset, term, &offset))
            return;
    }
    plan->inplace_capable =
        !ndpad_mul_overflows(offset, (int64_t)v->elem_size, &plan->inplace_offset);
}

/* Step 1: the axes in bytes, each cropped to the input window it reads where the mode
 * allows. Returns the number of axes (the rank). */
static int32_t load_axes(const ndpad_valid_problem *v, const ndpad_plan *plan, ndpad_dim *dims,
                         int64_t *in_offset, bool *all_pad)
{
    int32_t ndim = 0;
    for (int32_t k = 0; k < v->rank; k++) {
        const ndpad_axis *src = &v->axis[k];
        ndpad_dim a = {
            .n = src->n,
            .d = src->d,
            .b = src->b,
            .r = src->d > 1 ? src->r : 0,
            .in_stride = stride_bytes(src->in_stride, v->elem_size, src->d),
            .out_stride = stride_bytes(src->out_stride, v->elem_size, src->n),
            .origin = k,
            .index_div = plan->consts != NULL && plan->consts->kind == NDPAD_CONSTS_INDEX &&
                                 plan->consts->axis == k
                             ? 1
                             : 0,
        };
        /* an empty output is not cropped: its positions need not fit int64 */
        if (!plan->empty && v->mode == NDPAD_CONSTANT)
            crop_constant(&a, in_offset, all_pad);
        else if (!plan->empty && v->mode == NDPAD_EDGE)
            crop_edge(&a, in_offset);
        dims[ndim++] = a;
    }
    return ndim;
}

/* Nothing to read: every output element is the pad value (or there is none), so no axis
 * keeps an input extent. */
static void forget_input(ndpad_dim *dims, int32_t ndim, int64_t *in_offset, ndpad_plan *plan)
{
    for (int32_t k = 0; k < ndim; k++) {
        dims[k].d = 0;
        dims[k].b = 0;
        dims[k].r = 0;
        dims[k].in_stride = 0;
    }
    *in_offset = 0;
    plan->reads_input = false;
}

/* Constants per side or index on an output that reads nothing: per index every element
 * is a constant of its index, so nothing else counts (forget_input's axes); per side (no
 * interior) each axis keeps its padding ranges [0, b) and [b + D, n), clamped to the
 * output so that no later sum overflows (an uncropped axis may hold pads near 2^63). */
static void keep_padding_only(ndpad_dim *dims, int32_t ndim, int32_t kind)
{
    for (int32_t k = 0; k < ndim; k++) {
        ndpad_dim *a = &dims[k];
        a->in_stride = 0; /* never read */
        if (kind != NDPAD_CONSTS_SIDES) {
            a->d = 0, a->b = 0, a->r = 0;
            continue;
        }
        const int64_t first = a->b < 0 ? 0 : a->b > a->n ? a->n : a->b;
        int64_t past; /* b + D with r = 0 (per side takes no interior) */
        if (__builtin_add_overflow(a->b, a->d, &past)) past = a->b > 0 ? a->n : 0;
        past = past < first ? first : past > a->n ? a->n : past;
        a->b = first, a->d = past - first, a->r = 0;
    }
}

/* Step 2: a single output element per axis is an offset. Returns the axes kept. */
static int32_t drop_single_element_axes(ndpad_dim *dims, int32_t ndim, const ndpad_plan *plan,
                                        int32_t mode, int64_t *in_offset)
{
    int32_t kept = 0;
    for (int32_t k = 0; k < ndim; k++) {
        ndpad_dim a = dims[k];
        if (a.n == 1 && !plan->empty) {
            set_copy_range(&a, mode);
            /* Constants per side or index: an axis whose one element is padding decides
             * values (the last axis in whose padding an element lies gives it), and the
             * per-index axis gives the index; both stay. */
            if (plan->consts != NULL && (a.index_div != 0 || ndpad_dim_source(&a, mode, 0) < 0)) {
                dims[kept++] = a;
                continue;
            }
            const int64_t i = plan->reads_input ? ndpad_dim_source(&a, mode, 0) : -1;
            if (i >= 0) *in_offset += i * a.in_stride;
            continue;
        }
        dims[kept++] = a;
    }
    return kept;
}

/* Step 3: memory order of the output (stable, so dense outputs keep their order). */
static void sort_by_out_stride(ndpad_dim *dims, int32_t ndim)
{
    for (int32_t k = 1; k < ndim; k++) {
        const ndpad_dim a = dims[k];
        const int64_t key = a.out_stride < 0 ? -a.out_stride : a.out_stride;
        int32_t m = k;
        while (m > 0) {
            const int64_t prev =
                dims[m - 1].out_stride < 0 ? -dims[m - 1].out_stride : dims[m - 1].out_stride;
            if (prev >= key) break;
            dims[m] = dims[m - 1];
            m--;
        }
        dims[m] = a;
    }
}

/* Steps 4 and 5, innermost first so a merged axis can merge again. Returns the axes left. */
static int32_t merge_dense_axes(ndpad_dim *dims, int32_t ndim, int32_t mode)
{
    for (int32_t k = ndim - 2; k >= 0; k--) {
        ndpad_dim *outer = &dims[k], *inner = &dims[k + 1];
        if (!is_identity(inner) || !encloses_densely(outer, inner)) continue;
        const bool merge_identities = is_identity(outer);
        const bool scale_pads = mode == NDPAD_CONSTANT && outer->r == 0;
        if (!merge_identities && !scale_pads) continue;
        outer->b *= inner->n;
        outer->d *= inner->d;
        outer->n *= inner->n;
        outer->in_stride = inner->in_stride;
        outer->out_stride = inner->out_stride;
        /* the per-index axis's index, (o / index_div) % extent, in the merged axis */
        if (inner->index_div != 0)
            outer->index_div = inner->index_div;
        else if (outer->index_div != 0)
            outer->index_div *= inner->n;
        memmove(inner, inner + 1, (size_t)(ndim - k - 2) * sizeof(*inner));
        ndim--;
    }
    return ndim;
}

/* Step 5 for the modes other than CONSTANT: dense unpadded trailing axes become part of the
 * element. Returns the axes left. */
static int32_t fold_into_element(const ndpad_dim *dims, int32_t ndim, ndpad_plan *plan)
{
    while (ndim >= 2 && is_identity(&dims[ndim - 1]) &&
           dims[ndim - 1].out_stride == (int64_t)plan->elem_size &&
           dims[ndim - 1].in_stride == (int64_t)plan->elem_size) {
        plan->elem_size *= (size_t)dims[ndim - 1].n;
        ndim--;
    }
    return ndim;
}

/* The plan's row geometry from its final axes: rows, row bytes, density of the row and of
 * the whole output. */
static void set_rows(ndpad_plan *plan, const ndpad_dim *dims, int32_t ndim)
{
    /* An empty output has no rows; its other extents may be huge (their product need not
     * fit int64 once one extent is 0), so nothing is multiplied then. */
    plan->rows = plan->empty ? 0 : 1;
    for (int32_t k = 0; k + 1 < ndim && !plan->empty; k++) plan->rows *= dims[k].n;
    const ndpad_dim *row = &dims[ndim - 1];
    /* the validated output byte count: it fits int64 */
    plan->row_bytes = row->n * (int64_t)plan->elem_size;
    plan->out_bytes = plan->empty ? 0 : plan->rows * plan->row_bytes;
    plan->inner_dense = row->out_stride == (int64_t)plan->elem_size &&
                        (row->d <= 1 || row->in_stride == (int64_t)plan->elem_size);
    int64_t dense_stride = (int64_t)plan->elem_size;
    plan->out_contiguous = !plan->empty;
    for (int32_t k = ndim - 1; k >= 0 && !plan->empty; k--) {
        if (dims[k].out_stride != dense_stride) plan->out_contiguous = false;
        dense_stride *= dims[k].n;
    }
}

void ndpad_normalize(const ndpad_valid_problem *v, ndpad_plan *plan)
{
    const int32_t mode = v->mode;
    int64_t in_offset = 0;
    bool all_pad = false;
    ndpad_dim dims[NDPAD_MAX_RANK];

    plan->empty = v->out_elems == 0;
    plan->reads_input = ndpad_problem_reads_input(v);
    plan->elem_size = v->elem_size;
    set_inplace(v, plan);

    int32_t ndim = load_axes(v, plan, dims, &in_offset, &all_pad);
    if (plan->consts != NULL && !plan->empty && (all_pad || !plan->reads_input)) {
        /* Constants per side or index keep every axis's padding ranges, which give the
         * values: no row reads the input (no visible lattice point on some axis). */
        plan->reads_input = false;
        in_offset = 0;
        keep_padding_only(dims, ndim, plan->consts->kind);
    } else if (plan->empty || all_pad || !plan->reads_input)
        forget_input(dims, ndim, &in_offset, plan);
    if (plan->empty) {
        /* No element: one axis of extent 0 stands for all. The others may be huge (their
         * product need not fit int64 once one extent is 0), and nothing may multiply them. */
        dims[0] = (ndpad_dim){.n = 0,
                              .in_stride = (int64_t)plan->elem_size,
                              .out_stride = (int64_t)plan->elem_size};
        ndim = 1;
    }
    ndim = drop_single_element_axes(dims, ndim, plan, mode, &in_offset);
    sort_by_out_stride(dims, ndim);
    ndim = merge_dense_axes(dims, ndim, mode);
    if (mode != NDPAD_CONSTANT) ndim = fold_into_element(dims, ndim, plan);
    if (ndim == 0) {
        /* Rank 0, or every axis was a single element: one element to copy or fill. */
        dims[0] = (ndpad_dim){
            .n = 1,
            .d = plan->reads_input ? 1 : 0,
            .in_stride = (int64_t)plan->elem_size,
            .out_stride = (int64_t)plan->elem_size,
        };
        ndim = 1;
    }
    for (int32_t k = 0; k < ndim; k++) set_copy_range(&dims[k], mode);

    memcpy(plan->dim, dims, (size_t)ndim * sizeof(dims[0]));
    plan->ndim = ndim;
    plan->in_offset = in_offset;
    set_rows(plan, dims, ndim);
}
