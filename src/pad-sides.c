/* Constants per axis and side (numpy.pad's constant_values=((a, b), (c, d), ...)).
 *
 * numpy pads axis 0 first, then axis 1 over the padded array, and so on: the slab of
 * (axis k, side) spans the whole output on the axes before k and only the input's area on
 * the axes after k. Those slabs partition the padding (without interior padding), so an
 * element in the padding of several axes belongs to the slab of the last of them, and
 * each slab can be written on its own, in any order. The commonest value (by elements) is
 * the pad value of one ordinary plan, which writes the input and every slab; the other
 * slabs are then filled by plans of their own. Every plan is made (or taken from the
 * one-shot plan cache) before anything is written, so an error leaves `out` untouched. */
#include <string.h>

#include "alloc.h"
#include "checked.h"
#include "plan-cache.h"
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

/* One plan to run: its problem (kept for the plan cache) and where its output starts. With
 * default options (NULL) a recent plan of the same problem comes from ndpad_pad()'s cache,
 * as one-shot pads of small outputs do (planning costs about as much as executing them). */
typedef struct sub_plan {
    ndpad_problem problem;
    int64_t shape[NDPAD_MAX_RANK], begin[NDPAD_MAX_RANK], zeros[NDPAD_MAX_RANK];
    int64_t strides[NDPAD_MAX_RANK];
    ptrdiff_t offset;
    ndpad_plan *made;          /* made here (destroyed here), or NULL */
    ndpad_cached_plan *cached; /* a cache hit (released here), or NULL */
} sub_plan;

/* The problem that fills `slab` with its value: CONSTANT over an input with no element. */
static void slab_problem(const ndpad_valid_problem *v, const side_slab *slab, sub_plan *sub)
{
    const int32_t k = slab->axis;
    int64_t elems = 0;
    for (int32_t j = 0; j < v->rank; j++) {
        sub->shape[j] = j == k ? 0 : slab->hi[j] - slab->lo[j];
        sub->begin[j] = j == k ? slab->hi[j] - slab->lo[j] : 0;
        sub->zeros[j] = 0;
        sub->strides[j] = v->axis[j].out_stride;
        elems += slab->lo[j] * sub->strides[j]; /* inside the validated output: no overflow */
    }
    sub->offset = (ptrdiff_t)elems * (ptrdiff_t)v->elem_size;
    sub->problem = (ndpad_problem){
        .rank = v->rank,
        .mode = NDPAD_CONSTANT,
        .elem_size = v->elem_size,
        .shape = sub->shape,
        .pads_begin = sub->begin,
        .pads_end = sub->zeros,
        .out_strides = sub->strides,
        .pad_value = slab->value,
    };
}

static ndpad_status get_plan(sub_plan *sub, const ndpad_options *options, const char *caller)
{
    if (options == NULL) {
        sub->cached = ndpad_malloc(sizeof(*sub->cached));
        if (sub->cached != NULL && ndpad_plan_cache_get(&sub->problem, sub->cached))
            return NDPAD_OK;
        ndpad_free(sub->cached);
        sub->cached = NULL;
    }
    return ndpad_plan_create_for(&sub->problem, options, &sub->made, caller);
}

static const ndpad_plan *plan_of(const sub_plan *sub)
{
    return sub->cached != NULL ? &sub->cached->plan : sub->made;
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
    sub_plan *subs = NULL;
    int count = 0;
    ndpad_valid_problem v;
    NDPAD_FORWARD(ndpad_problem_validate(problem, caller, &v));
    if (side_values != NULL) NDPAD_FORWARD(check_sides(problem, &v, caller));
    side_slab slabs[2 * NDPAD_MAX_RANK];
    int used = 0;
    if (side_values != NULL)
        for (int32_t k = 0; k < v.rank; k++)
            for (int side = 0; side < 2; side++) {
                make_slab(&v, k, side, side_values, &slabs[used]);
                if (slabs[used].elems > 0) used++;
            }
    subs = ndpad_calloc((size_t)used + 1, sizeof(*subs));
    if (subs == NULL) NDPAD_FAIL(NDPAD_ERR_OUT_OF_MEMORY, "no memory for %d plans", used + 1);
    /* plan 0: the ordinary one, with the commonest value */
    subs[0].problem = *problem;
    if (used > 0) subs[0].problem.pad_value = commonest_value(slabs, used, v.elem_size);
    NDPAD_FORWARD(get_plan(&subs[count++], options, caller));
    for (int i = 0; i < used; i++) {
        if (memcmp(slabs[i].value, subs[0].problem.pad_value, v.elem_size) == 0) continue;
        slab_problem(&v, &slabs[i], &subs[count]);
        NDPAD_FORWARD(get_plan(&subs[count++], options, caller));
    }
    /* The ordinary plan first: it checks `in` and `out` before anything is written. */
    NDPAD_FORWARD(ndpad_execute_for(plan_of(&subs[0]), in, out, caller));
    for (int i = 1; i < count; i++)
        NDPAD_FORWARD(
            ndpad_execute_for(plan_of(&subs[i]), NULL, (char *)out + subs[i].offset, caller));
    if (options == NULL)
        for (int i = 0; i < count; i++)
            if (subs[i].made != NULL) ndpad_plan_cache_put(&subs[i].problem, subs[i].made);
fail:
    for (int i = 0; i < count; i++) {
        if (subs[i].cached != NULL) ndpad_plan_cache_release(subs[i].cached);
        ndpad_free(subs[i].cached);
        ndpad_plan_destroy(subs[i].made);
    }
    ndpad_free(subs);
    return status;
}
