/* ndpad_plan_describe(): the plan as a person reads it — normalised axes, the interior
 * region and its copy runs, the border regions with their fillers, ISA and tiles. */
#include "plan.h"
#include "stream-plan.h"
#include "text.h"
#include "wisdom.h"

size_t ndpad_plan_describe(const ndpad_plan *plan, char *buf, size_t size)
{
    text t = {.buf = buf, .size = buf != NULL ? size : 0, .length = 0};
    if (t.size > 0) buf[0] = '\0';
    if (plan == NULL) {
        put(&t, "(null plan)\n");
        return t.length;
    }
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    put(&t, "ndpad plan: mode %s, elem_size %zu, isa %s\n", ndpad_mode_name(plan->mode),
        plan->problem_elem_size, ndpad_isa_name(plan->isa));
    put(&t, "normalised: rank %d -> %d axes, element %zu bytes, input offset %lld bytes%s\n",
        (int)plan->rank, (int)plan->ndim, plan->elem_size, (long long)plan->in_offset,
        plan->empty         ? ", empty output"
        : plan->reads_input ? ""
                            : ", pad value only");
    for (int32_t k = 0; k < plan->ndim; k++) {
        const ndpad_dim *a = &plan->dim[k];
        put(&t, "  axis %d: out %lld, in %lld, input starts at %lld, interior [%lld, %lld)", (int)k,
            (long long)a->n, (long long)a->d, (long long)a->b, (long long)a->copy_begin,
            (long long)a->copy_end);
        if (a->r != 0) put(&t, " every %lld", (long long)(a->r + 1));
        put(&t, ", strides in %lld out %lld bytes%s\n", (long long)a->in_stride,
            (long long)a->out_stride, k + 1 == plan->ndim ? " (row axis)" : "");
    }
    const int64_t run_bytes = (row->copy_end - row->copy_begin) * (int64_t)plan->elem_size;
    put(&t, "interior region: %lld rows x %s of %lld bytes via %s\n", (long long)plan->rows,
        row->r == 0 && plan->inner_dense ? "one run" : "element copies",
        (long long)(row->r == 0 && plan->inner_dense ? run_bytes : (int64_t)plan->elem_size),
        plan->inner_dense ? plan->kernels->copy_name : "element loop");
    for (int32_t k = 0; k < plan->ndim; k++) {
        const ndpad_dim *a = &plan->dim[k];
        const int64_t before = a->copy_begin, after = a->n - a->copy_end;
        if (before == 0 && after == 0 && a->r == 0) continue;
        put(&t, "border regions of axis %d: %lld before, %lld after%s, filled by %s\n", (int)k,
            (long long)before, (long long)after, a->r != 0 ? ", interior gaps" : "",
            k + 1 == plan->ndim && plan->inner_dense ? plan->kernels->fill_name[plan->mode]
            : plan->mode == NDPAD_CONSTANT           ? "pad-value rows"
                                                     : "source rows mapped by the mode");
    }
    const ndpad_const_map *consts = plan->consts;
    if (consts != NULL && consts->kind == NDPAD_CONSTS_SIDES)
        put(&t, "constants: per axis and side (numpy's corners), per row by the row executor\n");
    else if (consts != NULL && consts->pattern != NULL)
        put(&t,
            "constants: per index of axis %d, along the row axis: a pattern of %lld elements "
            "(%lld bytes held)\n",
            (int)consts->axis, (long long)consts->period_elems, (long long)consts->pattern_bytes);
    else if (consts != NULL)
        put(&t, "constants: per index of axis %d (normalised axis %d), per row\n",
            (int)consts->axis, (int)consts->index_dim);
    if (plan->stream != NULL) {
        const char *const kernel = plan->stream->kernel_name;
        if (!ndpad_stream_takes(plan))
            put(&t, "output stream: not taken (the tiles ask for the row executor)\n");
        else if (plan->stream->kind == NDPAD_STREAM_PLANES)
            put(&t, "output stream: %s, planes of %lld rows (%lld bytes) expanded from the input\n",
                kernel, (long long)plan->stream->plane_rows, (long long)plan->stream->plane_bytes);
        else if (plan->stream->kind == NDPAD_STREAM_PLANES_PERMUTE)
            put(&t,
                "output stream: %s, planes of %lld rows (%lld bytes) permuted from the input in "
                "%lld block positions\n",
                kernel, (long long)plan->stream->plane_rows, (long long)plan->stream->plane_bytes,
                (long long)plan->stream->plane_phases);
        else if (plan->stream->kind == NDPAD_STREAM_PLANES_16)
            put(&t,
                "output stream: %s, planes of %lld rows (%lld bytes) shuffled from the input in "
                "%lld block positions\n",
                kernel, (long long)plan->stream->plane_rows, (long long)plan->stream->plane_bytes,
                (long long)plan->stream->plane_phases);
        else if (plan->stream->row_list != 0)
            put(&t, "output stream: %s, the rows' source offsets held by the plan (%lld KiB)\n",
                kernel, (long long)((plan->rows * (int64_t)sizeof(int64_t) + 1023) / 1024));
        else
            put(&t, "output stream: %s, the rows' source offsets listed per tile\n", kernel);
    }
    static const char *const sources[] = {"heuristic", "wisdom", "measured", "forced"};
    const char *runner = plan->tile.threads <= 1 ? ""
                         : plan->policy.has_pool ? " on the host's pool"
                         : plan->policy.schedule == NDPAD_SCHEDULE_FIXED_TEAM
                             ? " (a fixed OpenMP team)"
                             : " (the caller and ndpad's workers)";
    put(&t, "tiles: %lld rows x %lld columns, %lld tiles, %d threads%s%s%s\n",
        (long long)plan->tile.rows, (long long)plan->tile.cols,
        (long long)ndpad_plan_tile_count(plan), (int)plan->tile.threads, runner,
        plan->tile.nt ? ", streaming stores" : "",
        plan->solo_nt > 0 && !plan->tile.nt ? " (streaming while on one thread)" : "");
    char key[160];
    const ndpad_wisdom_key class_key = ndpad_wisdom_key_of(plan);
    ndpad_wisdom_key_format(&class_key, key, sizeof(key));
    put(&t, "tile source: %s (class %s)\n",
        plan->tile_source >= 0 && plan->tile_source <= 3 ? sources[plan->tile_source] : "?", key);
    return t.length;
}
