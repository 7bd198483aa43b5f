/* Window plans: a rectangular block of a problem's output computed from only the input box
 * it reads. Each axis of the window reads a range of input positions and is an ordinary
 * problem on it, the local problem (window-range.h), so the planner, the normaliser and every
 * kernel serve windows unchanged, and nothing outside the box is read. */
#include <string.h>

#include "checked.h"
#include "plan.h"
#include "window-range.h"

/* The ranges every axis of a nonempty window reads; false when it reads no input element
 * (a pure CONSTANT border, or interior-padding holes only, on some axis). */
static bool window_reads(const ndpad_valid_problem *v, const int64_t *out_begin,
                         const int64_t *out_end, ndpad_window_range *w)
{
    if (!ndpad_problem_reads_input(v)) return false;
    for (int32_t k = 0; k < v->rank; k++) {
        if (out_begin[k] == out_end[k]) return false;
        ndpad_window_range_of(&v->axis[k], v->mode, out_begin[k], out_end[k], &w[k]);
        if (w[k].r0 == w[k].r1) return false;
    }
    return true;
}

/* Validation of the window: [out_begin, out_end) inside the output on every axis. */
static ndpad_status check_window(const ndpad_valid_problem *v, const int64_t *out_begin,
                                 const int64_t *out_end, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (v->rank > 0 && out_begin == NULL)
        NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "out_begin is NULL with rank = %d", (int)v->rank);
    if (v->rank > 0 && out_end == NULL)
        NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "out_end is NULL with rank = %d", (int)v->rank);
    for (int32_t k = 0; k < v->rank; k++) {
        const int64_t n = v->axis[k].n;
        if (out_begin[k] < 0 || out_begin[k] > n)
            NDPAD_FAIL(NDPAD_ERR_SHAPE,
                       "out_begin[%d] = %lld is outside the output's "
                       "[0, %lld] on axis %d",
                       (int)k, (long long)out_begin[k], (long long)n, (int)k);
        if (out_end[k] < out_begin[k] || out_end[k] > n)
            NDPAD_FAIL(NDPAD_ERR_SHAPE,
                       "out_end[%d] = %lld is outside [out_begin[%d] = %lld, "
                       "%lld] (the output's extent) on axis %d",
                       (int)k, (long long)out_end[k], (int)k, (long long)out_begin[k], (long long)n,
                       (int)k);
    }
    return NDPAD_OK;
fail:
    return status;
}

ndpad_status ndpad_window_input_box(const ndpad_problem *problem, const int64_t *out_begin,
                                    const int64_t *out_end, int64_t *in_begin, int64_t *in_end)
{
    const char *const caller = __func__;
    ndpad_status status = NDPAD_OK;
    ndpad_valid_problem valid;
    ndpad_window_range w[NDPAD_MAX_RANK];
    NDPAD_FORWARD(ndpad_problem_validate(problem, caller, &valid));
    NDPAD_FORWARD(check_window(&valid, out_begin, out_end, caller));
    if (valid.rank > 0 && (in_begin == NULL || in_end == NULL))
        NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "%s is NULL with rank = %d",
                   in_begin == NULL ? "in_begin" : "in_end", (int)valid.rank);
    const bool reads = window_reads(&valid, out_begin, out_end, w);
    for (int32_t k = 0; k < valid.rank; k++) {
        in_begin[k] = reads ? w[k].r0 : 0;
        in_end[k] = reads ? w[k].r1 : 0;
    }
    return NDPAD_OK;
fail:
    return status;
}

/* Validation of the input box on axis k: inside the input, and covering what the window
 * reads there (when it reads anything). */
static ndpad_status check_box_axis(const ndpad_valid_problem *v, int32_t k, const int64_t *in_begin,
                                   const int64_t *in_end, bool reads, const ndpad_window_range *w,
                                   const char *caller)
{
    ndpad_status status = NDPAD_OK;
    const int64_t d = v->axis[k].d;
    if (in_begin[k] < 0 || in_begin[k] > in_end[k] || in_end[k] > d)
        NDPAD_FAIL(NDPAD_ERR_SHAPE,
                   "input box [in_begin[%d], in_end[%d]) = [%lld, %lld) "
                   "is not inside the input's [0, %lld) on axis %d",
                   (int)k, (int)k, (long long)in_begin[k], (long long)in_end[k], (long long)d,
                   (int)k);
    if (reads && (in_begin[k] > w->r0 || in_end[k] < w->r1))
        NDPAD_FAIL(NDPAD_ERR_SHAPE,
                   "input box [in_begin[%d], in_end[%d]) = [%lld, %lld) "
                   "does not cover [%lld, %lld), what the window reads on axis %d "
                   "(ndpad_window_input_box)",
                   (int)k, (int)k, (long long)in_begin[k], (long long)in_end[k], (long long)w->r0,
                   (long long)w->r1, (int)k);
    return NDPAD_OK;
fail:
    return status;
}

/* The local problem's arrays (see window-range.h). */
typedef struct local_arrays {
    int64_t shape[NDPAD_MAX_RANK], pb[NDPAD_MAX_RANK], pe[NDPAD_MAX_RANK];
    int64_t in_strides[NDPAD_MAX_RANK], out_strides[NDPAD_MAX_RANK];
} local_arrays;

/* The local problem's axis k: extent, pads and strides (the box's and the window's own, or
 * the whole tensors'). A window that reads nothing has no input extent. */
static ndpad_status local_axis(const ndpad_valid_problem *v, int32_t k, int64_t extent, bool reads,
                               bool window_empty, const ndpad_window_range *w,
                               const int64_t *box_strides, const int64_t *window_strides,
                               local_arrays *l, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    int64_t *const out_stride = &l->out_strides[k], *const in_stride = &l->in_strides[k];
    *out_stride = window_strides != NULL ? window_strides[k] : v->axis[k].out_stride;
    *in_stride = box_strides != NULL ? box_strides[k] : v->axis[k].in_stride;
    if (window_empty) *out_stride = *in_stride = 1; /* never used: no element */
    if (*out_stride == 0 && extent > 1)
        NDPAD_FAIL(NDPAD_ERR_STRIDE, "%s[%d] = 0 on an axis with %lld window elements",
                   window_strides != NULL ? "window_strides" : "problem->out_strides", (int)k,
                   (long long)extent);
    const int64_t d = reads ? w->local_d : 0;
    const int64_t step = v->mode == NDPAD_CONSTANT && d > 1 ? v->axis[k].r + 1 : 1;
    const int64_t dilated = d == 0 ? 0 : (d - 1) * step + 1;
    l->shape[k] = d;
    l->pb[k] = reads ? w->local_b : 0;
    int64_t rest;
    if (ndpad_sub_overflows(extent, l->pb[k], &rest) ||
        ndpad_sub_overflows(rest, dilated, &l->pe[k]))
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                   "axis %d: the window's end pad on its input box overflows int64", (int)k);
    return NDPAD_OK;
fail:
    return status;
}

/* Bytes from the box's first element (where `in` points) to the local input's first, the
 * element r0 of every axis. */
static ndpad_status box_offset(const ndpad_valid_problem *v, const ndpad_window_range *w,
                               const int64_t *in_begin, const int64_t *in_strides, int64_t *offset,
                               const char *caller)
{
    ndpad_status status = NDPAD_OK;
    *offset = 0;
    for (int32_t k = 0; k < v->rank; k++) {
        int64_t term;
        if (ndpad_mul_overflows(w[k].r0 - in_begin[k], in_strides[k], &term) ||
            ndpad_mul_overflows(term, (int64_t)v->elem_size, &term) ||
            ndpad_add_overflows(*offset, term, offset))
            NDPAD_FAIL(NDPAD_ERR_OVERFLOW,
                       "the byte offset of input element %lld on axis %d "
                       "from the box's first overflows int64",
                       (long long)w[k].r0, (int)k);
    }
    return NDPAD_OK;
fail:
    return status;
}

ndpad_status ndpad_window_plan_create(const ndpad_problem *problem, const int64_t *out_begin,
                                      const int64_t *out_end, const int64_t *in_begin,
                                      const int64_t *in_end, const int64_t *box_strides,
                                      const int64_t *window_strides, const ndpad_options *options,
                                      ndpad_plan **result)
{
    const char *const caller = __func__;
    ndpad_status status = NDPAD_OK;
    ndpad_valid_problem valid;
    ndpad_window_range w[NDPAD_MAX_RANK];
    local_arrays l;

    if (result == NULL) NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "plan (the result pointer) is NULL");
    *result = NULL;
    NDPAD_FORWARD(ndpad_problem_validate(problem, caller, &valid));
    NDPAD_FORWARD(check_window(&valid, out_begin, out_end, caller));
    const int32_t rank = valid.rank;
    if (rank > 0 && (in_begin == NULL || in_end == NULL))
        NDPAD_FAIL(NDPAD_ERR_NULL_ARGUMENT, "%s is NULL with rank = %d",
                   in_begin == NULL ? "in_begin" : "in_end", (int)rank);
    const bool reads = window_reads(&valid, out_begin, out_end, w);
    bool window_empty = false;
    for (int32_t k = 0; k < rank; k++) window_empty |= out_begin[k] == out_end[k];
    for (int32_t k = 0; k < rank; k++) {
        NDPAD_FORWARD(check_box_axis(&valid, k, in_begin, in_end, reads, &w[k], caller));
        NDPAD_FORWARD(local_axis(&valid, k, out_end[k] - out_begin[k], reads, window_empty, &w[k],
                                 box_strides, window_strides, &l, caller));
    }

    /* A window that reads nothing is all pad value (or empty): CONSTANT with no input,
     * whatever the mode, since it has no input position to map. */
    const ndpad_problem local = {
        .rank = rank,
        .mode = reads ? valid.mode : NDPAD_CONSTANT,
        .elem_size = valid.elem_size,
        .shape = l.shape,
        .pads_begin = l.pb,
        .pads_end = l.pe,
        .interior = reads && valid.mode == NDPAD_CONSTANT ? problem->interior : NULL,
        .in_strides = l.in_strides,
        .out_strides = l.out_strides,
        .pad_value = valid.mode == NDPAD_CONSTANT ? valid.pad_value : NULL,
    };
    int64_t extra = 0;
    if (reads) NDPAD_FORWARD(box_offset(&valid, w, in_begin, l.in_strides, &extra, caller));
    ndpad_plan *plan = NULL;
    NDPAD_FORWARD(ndpad_plan_create_for(&local, options, &plan, caller));
    if (plan->reads_input && ndpad_add_overflows(plan->in_offset, extra, &plan->in_offset)) {
        ndpad_plan_destroy(plan);
        NDPAD_FAIL(NDPAD_ERR_OVERFLOW, "the input box's byte offsets overflow int64");
    }
    plan->inplace_offset = (int64_t)((uint64_t)plan->inplace_offset - (uint64_t)extra);
    *result = plan;
    return NDPAD_OK;
fail:
    return status;
}
