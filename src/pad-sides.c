/* Constants per axis and side (numpy.pad's constant_values=((a, b), (c, d), ...)).
 *
 * numpy pads axis 0 first, then axis 1 over the padded array, and so on: the slab of
 * (axis k, side) spans the whole output on the axes before k and only the input's area on
 * the axes after k. Those slabs partition the padding (without interior padding), so an
 * element in the padding of several axes belongs to the slab of the last of them, and
 * each slab can be written on its own, in any order. The commonest value (by elements) is
 * the pad value of one ordinary plan, which writes the input and every slab; the other
 * slabs are then filled by plans of their own. Every plan is made before anything is
 * written, so an error leaves `out` untouched. */
#include <string.h>

#include "checked.h"
#include "plan.h"

/* One slab: its box in output indices and its value. */
typedef struct side_slab {
    int64_t lo[NDPAD_MAX_RANK], hi[NDPAD_MAX_RANK];
    int64_t elems;
    int32_t axis;
    const unsigned char *value;
} side_slab;

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* The slab of (axis k, side): j = o - b < 0 (begin) or j >= D (end) on axis k. */
static void make_slab(const ndpad_valid_problem *v, int32_t k, int side, const void *side_values,
                      side_slab *slab)
{
    slab->elems = 1;
    slab->axis = k;
    for (int32_t j = 0; j < v->rank; j++) {
        const ndpad_axis *a = &v->axis[j];
        const int64_t first = clamp64(a->b, 0, a->n);
        /* b + D may overflow only when the output is empty; then nothing is written */
        int64_t past;
        if (ndpad_add_overflows(a->b, a->dilated, &past)) past = a->n;
        past = clamp64(past, first, a->n);
        if (j < k) {
            slab->lo[j] = 0, slab->hi[j] = a->n;
        } else if (j == k) {
            slab->lo[j] = side == 0 ? 0 : past;
            slab->hi[j] = side == 0 ? first : a->n;
        } else {
            slab->lo[j] = first, slab->hi[j] = past;
        }
        slab->elems *= slab->hi[j] - slab->lo[j];
    }
    slab->value = (const unsigned char *)side_values + (size_t)(2 * k + side) * v->elem_size;
}

/* The value that covers the most elements: the one plan with it writes all of them. */
static const void *commonest_value(const side_slab *slabs, int count, size_t elem_size)
{
    const void *best = NULL;
    int64_t best_elems = -1;
    for (int i = 0; i < count; i++) {
        int64_t elems = 0;
        for (int j = 0; j < count; j++)
            if (memcmp(slabs[i].value, slabs[j].value, elem_size) == 0) elems += slabs[j].elems;
        if (elems > best_elems) best = slabs[i].value, best_elems = elems;
    }
    return best;
}

/* A plan that fills `slab` with its value: CONSTANT over an input with no element. */
static ndpad_status slab_plan(const ndpad_valid_problem *v, int32_t k, const side_slab *slab,
                              const ndpad_options *options, const char *caller, ndpad_plan **plan,
                              ptrdiff_t *offset)
{
    int64_t shape[NDPAD_MAX_RANK], begin[NDPAD_MAX_RANK], zeros[NDPAD_MAX_RANK];
    int64_t strides[NDPAD_MAX_RANK];
    int64_t elems = 0;
    for (int32_t j = 0; j < v->rank; j++) {
        shape[j] = j == k ? 0 : slab->hi[j] - slab->lo[j];
        begin[j] = j == k ? slab->hi[j] - slab->lo[j] : 0;
        zeros[j] = 0;
        strides[j] = v->axis[j].out_stride;
        elems += slab->lo[j] * strides[j]; /* inside the validated output: no overflow */
    }
    *offset = (ptrdiff_t)elems * (ptrdiff_t)v->elem_size;
    const ndpad_problem fill = {
        .rank = v->rank,
        .mode = NDPAD_CONSTANT,
        .elem_size = v->elem_size,
        .shape = shape,
        .pads_begin = begin,
        .pads_end = zeros,
        .out_strides = strides,
        .pad_value = slab->value,
    };
    return ndpad_plan_create_for(&fill, options, plan, caller);
}

static ndpad_status check_sides(const ndpad_problem *problem, const ndpad_valid_problem *v,
                                const char *caller)
{
    ndpad_status status = NDPAD_OK;
    if (v->mode != NDPAD_CONSTANT)
        NDPAD_FAIL(NDPAD_ERR_MODE,
                   "side_values given with mode = %d (%s); constants per side need "
                   "NDPAD_CONSTANT",
                   (int)v->mode, ndpad_mode_name((ndpad_mode)v->mode));
    for (int32_t k = 0; k < v->rank; k++)
        if (problem->interior != NULL && problem->interior[k] != 0)
            NDPAD_FAIL(NDPAD_ERR_INTERIOR_MODE,
                       "interior[%d] = %lld with side_values; constants per side take no "
                       "interior padding (its holes belong to no side)",
                       (int)k, (long long)problem->interior[k]);
fail:
    return status;
}

ndpad_status ndpad_pad_sides(const ndpad_problem *problem, const void *side_values,
                             const ndpad_options *options, const void *in, void *out)
{
    const char *const caller = __func__;
    ndpad_status status = NDPAD_OK;
    ndpad_plan *plans[1 + 2 * NDPAD_MAX_RANK] = {NULL};
    ptrdiff_t offsets[1 + 2 * NDPAD_MAX_RANK] = {0};
    int count = 0;
    ndpad_valid_problem v;
    NDPAD_FORWARD(ndpad_problem_validate(problem, caller, &v));
    ndpad_problem base = *problem;
    if (side_values != NULL) {
        NDPAD_FORWARD(check_sides(problem, &v, caller));
        side_slab slabs[2 * NDPAD_MAX_RANK];
        int used = 0;
        for (int32_t k = 0; k < v.rank; k++)
            for (int side = 0; side < 2; side++) {
                make_slab(&v, k, side, side_values, &slabs[used]);
                if (slabs[used].elems > 0) used++;
            }
        base.pad_value = commonest_value(slabs, used, v.elem_size);
        NDPAD_FORWARD(ndpad_plan_create_for(&base, options, &plans[count++], caller));
        for (int i = 0; i < used; i++) {
            if (memcmp(slabs[i].value, base.pad_value, v.elem_size) == 0) continue;
            NDPAD_FORWARD(slab_plan(&v, slabs[i].axis, &slabs[i], options, caller, &plans[count],
                                    &offsets[count]));
            count++;
        }
    } else {
        NDPAD_FORWARD(ndpad_plan_create_for(&base, options, &plans[count++], caller));
    }
    /* The ordinary plan first: it checks `in` and `out` before anything is written. */
    NDPAD_FORWARD(ndpad_execute_for(plans[0], in, out, caller));
    for (int i = 1; i < count; i++)
        NDPAD_FORWARD(ndpad_execute_for(plans[i], NULL, (char *)out + offsets[i], caller));
fail:
    for (int i = 0; i < count; i++) ndpad_plan_destroy(plans[i]);
    return status;
}
