/* A naive reference for ndpad, from api.md only (see ndpad-ref.h). Exact integer math is
 * done in 128 bits so that the reference's own arithmetic can never wrap. */
#include "ndpad-ref.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef __int128 ref_i128;

#define REF_I64_MAX ((ref_i128)INT64_MAX)
#define REF_I64_MIN ((ref_i128)INT64_MIN)
/* Products are saturated here: far above any limit, far below the range of ref_i128. */
#define REF_CAP ((ref_i128)1 << 100)

static ref_i128 byte_limit(void)
{
    const ref_i128 ptrdiff_max = (ref_i128)PTRDIFF_MAX;
    const ref_i128 size_max = (ref_i128)SIZE_MAX;
    return ptrdiff_max < size_max ? ptrdiff_max : size_max;
}

static ref_i128 sat_mul(ref_i128 a, ref_i128 b)
{
    if (a == 0 || b == 0) return 0;
    if (a > REF_CAP / b) return REF_CAP;
    const ref_i128 p = a * b;
    return p > REF_CAP ? REF_CAP : p;
}

static ref_i128 sat_add(ref_i128 a, ref_i128 b)
{
    const ref_i128 s = a + b;
    return s > REF_CAP ? REF_CAP : s;
}

static ref_i128 abs128(ref_i128 a)
{
    return a < 0 ? -a : a;
}

static ref_i128 mod128(ref_i128 a, ref_i128 m)
{
    ref_i128 r = a % m;
    return r < 0 ? r + m : r;
}

static void breaks(ndpad_ref_verdict *v, ndpad_status status, const char *format, ...)
{
    v->broken |= NDPAD_REF_BIT(status);
    if (v->status != NDPAD_OK) return;
    v->status = status;
    va_list args;
    va_start(args, format);
    vsnprintf(v->where, sizeof(v->where), format, args);
    va_end(args);
}

static bool mode_is_valid(int32_t mode)
{
    return mode >= NDPAD_CONSTANT && mode <= NDPAD_WRAP;
}

const char *ndpad_ref_mode_name(int32_t mode)
{
    static const char *const names[] = {"NDPAD_CONSTANT", "NDPAD_EDGE", "NDPAD_REFLECT",
                                        "NDPAD_SYMMETRIC", "NDPAD_WRAP"};
    return mode_is_valid(mode) ? names[mode] : NULL;
}

/* Per-axis facts of a problem, computed exactly. */
typedef struct ref_axis {
    bool known; /* d >= 0, r >= 0 and both extents fit int64 */
    ref_i128 d, r, b, e, dilated, n;
} ref_axis;

static void axis_facts(const ndpad_problem *p, int32_t k, ref_axis *a)
{
    a->d = p->shape[k];
    a->r = p->interior ? p->interior[k] : 0;
    a->b = p->pads_begin[k];
    a->e = p->pads_end[k];
    a->known = false;
    a->dilated = a->n = 0;
    if (a->d < 0 || a->r < 0) return;
    a->dilated = a->d == 0 ? 0 : (a->d - 1) * (a->r + 1) + 1;
    const ref_i128 sum = a->b + a->dilated + a->e;
    a->n = sum > 0 ? sum : 0;
    a->known = a->dilated <= REF_I64_MAX && sum <= REF_I64_MAX && sum >= REF_I64_MIN;
}

ndpad_status ndpad_ref_validate(const ndpad_problem *p, ndpad_ref_verdict *verdict)
{
    ndpad_ref_verdict v = {NDPAD_OK, 0, ""};
    ref_axis axis[NDPAD_MAX_RANK];

    if (p == NULL) {
        breaks(&v, NDPAD_ERR_NULL_ARGUMENT, "problem");
        goto done;
    }
    const bool rank_ok = p->rank >= 0 && p->rank <= NDPAD_MAX_RANK;
    const bool mode_ok = mode_is_valid(p->mode);
    if (!rank_ok) breaks(&v, NDPAD_ERR_RANK, "rank");
    if (!mode_ok) breaks(&v, NDPAD_ERR_MODE, "mode");
    if (p->elem_size == 0) breaks(&v, NDPAD_ERR_ELEM_SIZE, "elem_size");
    if (!rank_ok) goto done;

    const int32_t rank = p->rank;
    if (rank > 0) {
        if (p->shape == NULL) breaks(&v, NDPAD_ERR_NULL_ARGUMENT, "shape");
        if (p->pads_begin == NULL) breaks(&v, NDPAD_ERR_NULL_ARGUMENT, "pads_begin");
        if (p->pads_end == NULL) breaks(&v, NDPAD_ERR_NULL_ARGUMENT, "pads_end");
        if (p->shape == NULL || p->pads_begin == NULL || p->pads_end == NULL) goto done;
    }

    for (int32_t k = 0; k < rank; k++) {
        const int64_t r = p->interior ? p->interior[k] : 0;
        if (p->shape[k] < 0) breaks(&v, NDPAD_ERR_SHAPE, "shape[%d]", (int)k);
        if (r < 0) breaks(&v, NDPAD_ERR_INTERIOR, "interior[%d]", (int)k);
        if (r > 0 && mode_ok && p->mode != NDPAD_CONSTANT)
            breaks(&v, NDPAD_ERR_INTERIOR_MODE, "interior[%d]", (int)k);
    }

    bool all_known = true;
    for (int32_t k = 0; k < rank; k++) {
        axis_facts(p, k, &axis[k]);
        const ref_axis *a = &axis[k];
        if (a->d < 0 || a->r < 0) {
            all_known = false;
            continue;
        }
        if (!a->known) {
            breaks(&v, NDPAD_ERR_OVERFLOW, "%s[%d]",
                   a->dilated > REF_I64_MAX ? "interior" : "pads_end", (int)k);
            all_known = false;
        }
    }

    for (int32_t k = 0; k < rank; k++) {
        const ref_axis *a = &axis[k];
        if (a->d == 0 && a->r >= 0 && a->n != 0 && mode_ok && p->mode != NDPAD_CONSTANT)
            breaks(&v, NDPAD_ERR_EMPTY_AXIS, "shape[%d]", (int)k);
    }

    /* An empty output addresses nothing: its strides may be anything, zeros included. */
    bool out_empty = false;
    for (int32_t k = 0; k < rank; k++)
        if (axis[k].d >= 0 && axis[k].r >= 0 && axis[k].n == 0) out_empty = true;
    if (p->out_strides != NULL && !out_empty) {
        for (int32_t k = 0; k < rank; k++) {
            const ref_axis *a = &axis[k];
            if (a->d >= 0 && a->r >= 0 && a->n > 1 && p->out_strides[k] == 0)
                breaks(&v, NDPAD_ERR_STRIDE, "out_strides[%d]", (int)k);
        }
    }

    if (all_known && p->elem_size > 0) {
        const ref_i128 limit = byte_limit();
        const ref_i128 es = (ref_i128)p->elem_size;
        for (int side = 0; side < 2; side++) { /* 0: output, 1: input */
            const int64_t *strides = side == 0 ? p->out_strides : p->in_strides;
            ref_i128 count = 1, span = 0;
            for (int32_t k = 0; k < rank; k++) {
                const ref_i128 extent = side == 0 ? axis[k].n : axis[k].d;
                count = sat_mul(count, extent);
                if (strides != NULL && extent > 1)
                    span = sat_add(span, sat_mul(extent - 1, abs128(strides[k])));
            }
            if (count == 0) continue;
            if (sat_mul(count, es) > limit)
                breaks(&v, NDPAD_ERR_OVERFLOW, side == 0 ? "output size" : "input size");
            if (sat_mul(sat_add(span, 1), es) > limit)
                breaks(&v, NDPAD_ERR_OVERFLOW, side == 0 ? "out_strides" : "in_strides");
        }
    }

done:
    if (verdict) *verdict = v;
    return v.status;
}

ndpad_status ndpad_ref_output_shape(const ndpad_problem *p, int64_t *out_shape)
{
    const ndpad_status status = ndpad_ref_validate(p, NULL);
    if (status != NDPAD_OK) return status;
    for (int32_t k = 0; k < p->rank; k++) {
        ref_axis a;
        axis_facts(p, k, &a);
        out_shape[k] = (int64_t)a.n;
    }
    return NDPAD_OK;
}

int64_t ndpad_ref_output_count(const ndpad_problem *p)
{
    ref_i128 count = 1;
    for (int32_t k = 0; k < p->rank; k++) {
        ref_axis a;
        axis_facts(p, k, &a);
        count = sat_mul(count, a.n);
    }
    return count > REF_I64_MAX ? INT64_MAX : (int64_t)count;
}

int64_t ndpad_ref_source_index(int32_t mode, int64_t d, int64_t r, int64_t b, int64_t o)
{
    const ref_i128 j = (ref_i128)o - b;
    switch (mode) {
    case NDPAD_CONSTANT: {
        const ref_i128 step = (ref_i128)r + 1;
        const ref_i128 dilated = d == 0 ? 0 : ((ref_i128)d - 1) * step + 1;
        if (j < 0 || j >= dilated || j % step != 0) return -1;
        return (int64_t)(j / step);
    }
    case NDPAD_EDGE: return j < 0 ? 0 : j > d - 1 ? d - 1 : (int64_t)j;
    case NDPAD_REFLECT: {
        if (d == 1) return 0;
        const ref_i128 period = 2 * ((ref_i128)d - 1);
        const ref_i128 m = mod128(j, period);
        return (int64_t)(m < d ? m : period - m);
    }
    case NDPAD_SYMMETRIC: {
        const ref_i128 period = 2 * (ref_i128)d;
        const ref_i128 m = mod128(j, period);
        return (int64_t)(m < d ? m : period - 1 - m);
    }
    case NDPAD_WRAP: return (int64_t)mod128(j, d);
    default: abort();
    }
}

bool ndpad_ref_reads_input(const ndpad_problem *p)
{
    if (ndpad_ref_output_count(p) == 0) return false;
    if (p->mode != NDPAD_CONSTANT) return true; /* every d > 0 when the output is not empty */
    for (int32_t k = 0; k < p->rank; k++) {
        ref_axis a;
        axis_facts(p, k, &a);
        /* the first multiple of (r + 1) at or after the first j the output looks at */
        const ref_i128 step = a.r + 1;
        const ref_i128 first_j = a.b > 0 ? 0 : -a.b;
        const ref_i128 j0 = (first_j + step - 1) / step * step;
        if (!(j0 < a.dilated && j0 <= a.n - 1 - a.b)) return false;
    }
    return true;
}

void ndpad_ref_dense_strides(int32_t rank, const int64_t *extents, int64_t *strides)
{
    int64_t stride = 1;
    for (int32_t k = rank - 1; k >= 0; k--) {
        strides[k] = stride;
        stride *= extents[k] > 0 ? extents[k] : 1;
    }
}

void ndpad_ref_span(int32_t rank, const int64_t *extents, const int64_t *strides, int64_t *lowest,
                    int64_t *highest)
{
    int64_t dense[NDPAD_MAX_RANK];
    int64_t lo = 0, hi = 0;
    *lowest = *highest = 0;
    for (int32_t k = 0; k < rank; k++)
        if (extents[k] == 0) return;
    if (strides == NULL) {
        ndpad_ref_dense_strides(rank, extents, dense);
        strides = dense;
    }
    for (int32_t k = 0; k < rank; k++) {
        const int64_t reach = (extents[k] - 1) * strides[k];
        if (reach < 0)
            lo += reach;
        else
            hi += reach;
    }
    *lowest = lo;
    *highest = hi;
}

/* The constant of an element at output indices `index`: kind 0 the pad value (or NULL for
 * zero), per side the side value of the last axis whose padding holds it, per index the
 * value of its index along `axis`. */
static const void *ref_constant(const ndpad_problem *p, int32_t kind, int32_t axis,
                                const unsigned char *values, const int64_t *index)
{
    if (kind == NDPAD_REF_PER_INDEX) return values + (size_t)index[axis] * p->elem_size;
    if (kind != NDPAD_REF_PER_SIDE) return p->pad_value;
    for (int32_t k = p->rank - 1; k >= 0; k--) {
        ref_axis a;
        axis_facts(p, k, &a);
        const ref_i128 j = (ref_i128)index[k] - a.b;
        if (j < 0 || j >= a.dilated)
            return values + (size_t)(2 * k + (j < 0 ? 0 : 1)) * p->elem_size;
    }
    return p->pad_value; /* not reached: some axis holds a pad element in its padding */
}

ndpad_status ndpad_ref_validate_constants(const ndpad_problem *p, int32_t kind, int32_t axis,
                                          const void *values)
{
    const ndpad_status status = ndpad_ref_validate(p, NULL);
    if (status != NDPAD_OK || kind == 0) return status;
    if (kind == NDPAD_REF_PER_INDEX && (axis < 0 || axis >= p->rank)) return NDPAD_ERR_AXES;
    if (values == NULL) return NDPAD_ERR_NULL_ARGUMENT;
    if (p->mode != NDPAD_CONSTANT) return NDPAD_ERR_MODE;
    for (int32_t k = 0; k < p->rank && kind == NDPAD_REF_PER_SIDE; k++)
        if (p->interior != NULL && p->interior[k] != 0) return NDPAD_ERR_INTERIOR_MODE;
    return NDPAD_OK;
}

ndpad_status ndpad_ref_pad(const ndpad_problem *p, const void *in, void *out)
{
    return ndpad_ref_pad_constants(p, 0, 0, NULL, in, out);
}

ndpad_status ndpad_ref_pad_constants(const ndpad_problem *p, int32_t kind, int32_t axis,
                                     const void *values, const void *in, void *out)
{
    const ndpad_status status = ndpad_ref_validate_constants(p, kind, axis, values);
    if (status != NDPAD_OK) return status;
    const int64_t count = ndpad_ref_output_count(p);
    if (count == 0) return NDPAD_OK;
    if (out == NULL) return NDPAD_ERR_NULL_BUFFER;
    if (in == NULL && ndpad_ref_reads_input(p)) return NDPAD_ERR_NULL_BUFFER;

    const int32_t rank = p->rank;
    const size_t es = p->elem_size;
    int64_t n[NDPAD_MAX_RANK], in_strides[NDPAD_MAX_RANK], out_strides[NDPAD_MAX_RANK];
    int64_t index[NDPAD_MAX_RANK] = {0};
    ndpad_ref_output_shape(p, n);
    if (p->in_strides)
        memcpy(in_strides, p->in_strides, sizeof(int64_t) * (size_t)rank);
    else
        ndpad_ref_dense_strides(rank, p->shape, in_strides);
    if (p->out_strides)
        memcpy(out_strides, p->out_strides, sizeof(int64_t) * (size_t)rank);
    else
        ndpad_ref_dense_strides(rank, n, out_strides);

    for (int64_t element = 0; element < count; element++) {
        bool pad = false;
        /* 128 bits: the sum of an element that turns out to be pad is never used, and may
         * leave int64 (huge strides on the axes that are not padding) */
        ref_i128 in_offset = 0;
        int64_t out_offset = 0;
        for (int32_t k = 0; k < rank; k++) {
            const int64_t r = p->interior ? p->interior[k] : 0;
            const int64_t source =
                ndpad_ref_source_index(p->mode, p->shape[k], r, p->pads_begin[k], index[k]);
            if (source < 0)
                pad = true;
            else
                in_offset += (ref_i128)source * in_strides[k];
            out_offset += index[k] * out_strides[k];
        }
        char *dst = (char *)out + (ptrdiff_t)out_offset * (ptrdiff_t)es;
        if (!pad)
            memcpy(dst, (const char *)in + (ptrdiff_t)in_offset * (ptrdiff_t)es, es);
        else if (ref_constant(p, kind, axis, values, index) != NULL)
            memcpy(dst, ref_constant(p, kind, axis, values, index), es);
        else
            memset(dst, 0, es);

        for (int32_t k = rank - 1; k >= 0; k--) {
            if (++index[k] < n[k]) break;
            index[k] = 0;
        }
    }
    return NDPAD_OK;
}

/* ------------------------------------------------------------------------------------- */
/* ONNX                                                                                   */
/* ------------------------------------------------------------------------------------- */

/* An ONNX call turned into "crop this box, then pad the cropped tensor". */
typedef struct ref_onnx {
    int32_t mode;
    int64_t start[NDPAD_MAX_RANK];   /* first input index kept on each axis   */
    int64_t cropped[NDPAD_MAX_RANK]; /* extent kept on each axis              */
    int64_t pb[NDPAD_MAX_RANK], pe[NDPAD_MAX_RANK];
    ndpad_problem core; /* padding of the dense cropped tensor   */
} ref_onnx;

static int32_t onnx_mode(const char *mode)
{
    static const char *const names[] = {"constant", "edge", "reflect", "wrap"};
    static const int32_t modes[] = {NDPAD_CONSTANT, NDPAD_EDGE, NDPAD_REFLECT, NDPAD_WRAP};
    if (mode == NULL) return NDPAD_CONSTANT;
    for (int i = 0; i < 4; i++)
        if (strcmp(mode, names[i]) == 0) return modes[i];
    return -1;
}

static ndpad_status onnx_translate(int32_t rank, const int64_t *shape, size_t elem_size,
                                   const int64_t *pads, int64_t pads_count, const int64_t *axes,
                                   int64_t axes_count, const char *mode, const void *constant_value,
                                   ndpad_ref_verdict *verdict, ref_onnx *t)
{
    ndpad_ref_verdict v = {NDPAD_OK, 0, ""};
    memset(t, 0, sizeof(*t));
    if (rank < 0 || rank > NDPAD_MAX_RANK) {
        breaks(&v, NDPAD_ERR_RANK, "rank");
        goto done;
    }
    t->mode = onnx_mode(mode);
    if (t->mode < 0) breaks(&v, NDPAD_ERR_MODE, "mode");
    if (elem_size == 0) breaks(&v, NDPAD_ERR_ELEM_SIZE, "elem_size");
    if (rank > 0 && shape == NULL) {
        breaks(&v, NDPAD_ERR_NULL_ARGUMENT, "shape");
        goto done;
    }

    const int64_t num_axes = axes != NULL ? axes_count : rank;
    int32_t axis_of[NDPAD_MAX_RANK];
    bool axes_ok = true;
    if (axes != NULL) {
        bool seen[NDPAD_MAX_RANK] = {false};
        if (axes_count < 0 || axes_count > rank) {
            /* a count above rank must repeat or leave the range; the array need not hold
             * axes_count entries then (it may be INT64_MAX), so none is read */
            breaks(&v, NDPAD_ERR_AXES, "axes_count");
            axes_ok = false;
        }
        for (int64_t i = 0; axes_ok && i < axes_count; i++) {
            const int64_t a = axes[i];
            if (a < -(int64_t)rank || a >= rank) {
                breaks(&v, NDPAD_ERR_AXES, "axes[%lld]", (long long)i);
                axes_ok = false;
                break;
            }
            const int32_t norm = (int32_t)(a < 0 ? a + rank : a);
            if (seen[norm]) {
                breaks(&v, NDPAD_ERR_AXES, "axes[%lld]", (long long)i);
                axes_ok = false;
                break;
            }
            seen[norm] = true;
            axis_of[i] = norm;
        }
    } else {
        for (int32_t i = 0; i < rank; i++) axis_of[i] = i;
    }
    const bool length_ok =
        num_axes >= 0 && num_axes <= NDPAD_MAX_RANK && pads_count == 2 * num_axes;
    if (!length_ok) breaks(&v, NDPAD_ERR_PADS_LENGTH, "pads_count");
    /* pads NULL where axes need pads: broken too, whatever pads_count says */
    if ((length_ok ? pads_count > 0 : num_axes > 0) && pads == NULL)
        breaks(&v, NDPAD_ERR_NULL_ARGUMENT, "pads");
    for (int32_t k = 0; k < rank; k++)
        if (shape[k] < 0) breaks(&v, NDPAD_ERR_SHAPE, "shape[%d]", (int)k);
    if (v.status != NDPAD_OK || !axes_ok) goto done;
    /* the ONNX input is the dense tensor of `shape`: its element count must fit int64 */
    ref_i128 in_count = 1;
    for (int32_t k = 0; k < rank; k++) in_count = sat_mul(in_count, shape[k]);
    if (in_count > REF_I64_MAX) breaks(&v, NDPAD_ERR_OVERFLOW, "shape");

    /* a negative extent on any axis comes first, then an axis with nothing to repeat */
    bool nothing_to_repeat[NDPAD_MAX_RANK] = {false};
    for (int32_t k = 0; k < rank; k++) {
        int64_t b = 0, e = 0;
        for (int64_t i = 0; i < num_axes; i++)
            if (axis_of[i] == k) {
                b = pads[i];
                e = pads[num_axes + i];
            }
        const ref_i128 crop_b = b < 0 ? -(ref_i128)b : 0;
        const ref_i128 crop_e = e < 0 ? -(ref_i128)e : 0;
        const ref_i128 kept = (ref_i128)shape[k] - crop_b - crop_e;
        /* ONNX's output extent (its shape inference, ONNX Runtime's output) */
        const ref_i128 extent = (ref_i128)shape[k] + b + e;
        if (extent < 0) breaks(&v, NDPAD_ERR_SHAPE, "pads of axis %d", (int)k);
        if (kept >= 0) {
            t->start[k] = kept > 0 ? (int64_t)crop_b : 0;
            t->cropped[k] = (int64_t)kept;
            t->pb[k] = b > 0 ? b : 0;
            t->pe[k] = e > 0 ? e : 0;
            continue;
        }
        /* a crop longer than the axis: no input element is left on it, so each of its
         * `extent` output elements is a pad (ONNX Runtime: the value with "constant"; the
         * other modes have no element to repeat) */
        nothing_to_repeat[k] = t->mode != NDPAD_CONSTANT;
        t->start[k] = 0;
        t->cropped[k] = 0;
        t->pb[k] = extent > 0 ? (int64_t)extent : 0;
        t->pe[k] = 0;
    }
    for (int32_t k = 0; k < rank; k++)
        if (nothing_to_repeat[k]) breaks(&v, NDPAD_ERR_EMPTY_AXIS, "pads of axis %d", (int)k);
    /* ndpad addresses the dense ONNX input as a whole: when any of it is read (the crop
     * keeps something on every axis), its byte count must fit int64 too */
    bool kept_all = true;
    for (int32_t k = 0; k < rank; k++) kept_all = kept_all && t->cropped[k] > 0;
    if (kept_all && in_count <= REF_I64_MAX &&
        sat_mul(in_count, (int64_t)(elem_size > (size_t)INT64_MAX ? INT64_MAX : elem_size)) >
            REF_I64_MAX)
        breaks(&v, NDPAD_ERR_OVERFLOW, "shape");
    t->core.rank = rank;
    t->core.mode = t->mode;
    t->core.elem_size = elem_size;
    t->core.shape = t->cropped;
    t->core.pads_begin = t->pb;
    t->core.pads_end = t->pe;
    t->core.pad_value = t->mode == NDPAD_CONSTANT ? constant_value : NULL;
    ndpad_ref_verdict core;
    ndpad_ref_validate(&t->core, &core);
    if (core.status != NDPAD_OK) breaks(&v, core.status, "%s", core.where);
    v.broken |= core.broken;

done:
    if (verdict) *verdict = v;
    return v.status;
}

ndpad_status ndpad_ref_onnx_validate(int32_t rank, const int64_t *shape, size_t elem_size,
                                     const int64_t *pads, int64_t pads_count, const int64_t *axes,
                                     int64_t axes_count, const char *mode,
                                     ndpad_ref_verdict *verdict, int64_t *out_shape)
{
    ref_onnx t;
    const ndpad_status status = onnx_translate(rank, shape, elem_size, pads, pads_count, axes,
                                               axes_count, mode, NULL, verdict, &t);
    if (status != NDPAD_OK || out_shape == NULL) return status;
    ndpad_ref_output_shape(&t.core, out_shape);
    /* the translation keeps ONNX's extent d + begin + end on every axis */
    for (int32_t k = 0; k < rank; k++) {
        const int64_t num_axes = axes != NULL ? axes_count : rank;
        ref_i128 extent = shape[k];
        for (int64_t i = 0; i < num_axes; i++)
            if ((axes != NULL ? (axes[i] + rank) % rank : i) == k)
                extent += (ref_i128)pads[i] + pads[num_axes + i];
        if (out_shape[k] != extent) abort();
    }
    return status;
}

ndpad_status ndpad_ref_onnx_pad(int32_t rank, const int64_t *shape, size_t elem_size,
                                const int64_t *pads, int64_t pads_count, const int64_t *axes,
                                int64_t axes_count, const char *mode, const void *constant_value,
                                const void *in, void *out)
{
    ref_onnx t;
    ndpad_status status = onnx_translate(rank, shape, elem_size, pads, pads_count, axes, axes_count,
                                         mode, constant_value, NULL, &t);
    if (status != NDPAD_OK) return status;
    if (ndpad_ref_output_count(&t.core) == 0) return NDPAD_OK;
    if (out == NULL) return NDPAD_ERR_NULL_BUFFER;
    if (!ndpad_ref_reads_input(&t.core)) return ndpad_ref_pad(&t.core, NULL, out);
    if (in == NULL) return NDPAD_ERR_NULL_BUFFER;

    /* The cropped tensor, copied out of the dense input by plain index loops. */
    int64_t in_strides[NDPAD_MAX_RANK], index[NDPAD_MAX_RANK] = {0};
    ndpad_ref_dense_strides(rank, shape, in_strides);
    int64_t kept = 1;
    for (int32_t k = 0; k < rank; k++) kept *= t.cropped[k];
    char *cropped = malloc((size_t)kept * elem_size);
    if (cropped == NULL) abort();
    for (int64_t element = 0; element < kept; element++) {
        int64_t offset = 0;
        for (int32_t k = 0; k < rank; k++) offset += (t.start[k] + index[k]) * in_strides[k];
        memcpy(cropped + element * (int64_t)elem_size,
               (const char *)in + offset * (int64_t)elem_size, elem_size);
        for (int32_t k = rank - 1; k >= 0; k--) {
            if (++index[k] < t.cropped[k]) break;
            index[k] = 0;
        }
    }
    status = ndpad_ref_pad(&t.core, cropped, out);
    free(cropped);
    return status;
}

/* ------------------------------------------------------------------------------------- */
/* Descriptions                                                                           */
/* ------------------------------------------------------------------------------------- */

typedef struct ref_text {
    char *buf;
    size_t size, length;
} ref_text;

static void put(ref_text *t, const char *format, ...)
{
    char *at = t->length < t->size ? t->buf + t->length : NULL;
    const size_t room = t->length < t->size ? t->size - t->length : 0;
    va_list args;
    va_start(args, format);
    const int n = vsnprintf(at, room, format, args);
    va_end(args);
    if (n > 0) t->length += (size_t)n;
}

static void put_array(ref_text *t, const char *name, const int64_t *values, int64_t count)
{
    if (values == NULL) {
        put(t, ", .%s=NULL", name);
        return;
    }
    put(t, ", .%s=(int64_t[]){", name);
    for (int64_t k = 0; k < count; k++) put(t, "%s%lld", k ? "," : "", (long long)values[k]);
    put(t, "}");
}

static void put_bytes(ref_text *t, const char *name, const void *bytes, size_t size)
{
    if (bytes == NULL) {
        put(t, ", .%s=NULL", name);
        return;
    }
    const size_t shown = size > 64 ? 64 : size;
    put(t, ", .%s=(uint8_t[]){", name);
    for (size_t i = 0; i < shown; i++)
        put(t, "%s0x%02x", i ? "," : "", ((const unsigned char *)bytes)[i]);
    put(t, "%s}", shown < size ? ",..." : "");
}

size_t ndpad_ref_format_problem(char *buf, size_t size, const ndpad_problem *p)
{
    ref_text t = {buf, size, 0};
    if (size > 0) buf[0] = '\0';
    if (p == NULL) {
        put(&t, "ndpad_problem NULL");
        return t.length;
    }
    const char *mode = ndpad_ref_mode_name(p->mode);
    put(&t, "ndpad_problem{.rank=%d, .mode=", (int)p->rank);
    if (mode)
        put(&t, "%s", mode);
    else
        put(&t, "%d", (int)p->mode);
    put(&t, ", .elem_size=%zu", p->elem_size);
    /* Arrays hold `rank` entries only when the rank is valid. */
    const int64_t count = p->rank >= 0 && p->rank <= NDPAD_MAX_RANK ? p->rank : 0;
    put_array(&t, "shape", p->shape, count);
    put_array(&t, "pads_begin", p->pads_begin, count);
    put_array(&t, "pads_end", p->pads_end, count);
    put_array(&t, "interior", p->interior, count);
    put_array(&t, "in_strides", p->in_strides, count);
    put_array(&t, "out_strides", p->out_strides, count);
    put_bytes(&t, "pad_value", p->pad_value, p->elem_size);
    put(&t, "}");
    return t.length;
}

void ndpad_ref_print_problem(FILE *f, const ndpad_problem *p)
{
    const size_t length = ndpad_ref_format_problem(NULL, 0, p);
    char *line = malloc(length + 1);
    if (line == NULL) return;
    ndpad_ref_format_problem(line, length + 1, p);
    fprintf(f, "%s\n", line);
    free(line);
}

size_t ndpad_ref_format_onnx(char *buf, size_t size, int32_t rank, const int64_t *shape,
                             size_t elem_size, const int64_t *pads, int64_t pads_count,
                             const int64_t *axes, int64_t axes_count, const char *mode)
{
    ref_text t = {buf, size, 0};
    if (size > 0) buf[0] = '\0';
    put(&t, "ndpad_onnx_pad(.rank=%d", (int)rank);
    put_array(&t, "shape", shape, rank >= 0 && rank <= NDPAD_MAX_RANK ? rank : 0);
    put(&t, ", .elem_size=%zu", elem_size);
    put_array(&t, "pads", pads,
              pads_count > 0 && pads_count <= 4 * NDPAD_MAX_RANK ? pads_count : 0);
    put(&t, ", .pads_count=%lld", (long long)pads_count);
    put_array(&t, "axes", axes,
              axes_count > 0 && axes_count <= 2 * NDPAD_MAX_RANK ? axes_count : 0);
    put(&t, ", .axes_count=%lld", (long long)axes_count);
    if (mode)
        put(&t, ", .mode=\"%s\")", mode);
    else
        put(&t, ", .mode=NULL)");
    return t.length;
}
