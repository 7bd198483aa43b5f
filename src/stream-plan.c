/* The output-stream planner: the plan's facts once, then the first strategy of the table
 * (stream/table.h) that applies; its descriptor and tables in one allocation. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "checked.h"
#include "row-list.h"
#include "stream-plan.h"
#include "stream/strategy.h"

const ndpad_stream_strategy *const ndpad_stream_strategies[] = {
#define NDPAD_STREAM_STRATEGY_ROW(id) &ndpad_stream_strategy_##id,
    NDPAD_STREAM_STRATEGIES(NDPAD_STREAM_STRATEGY_ROW)
#undef NDPAD_STREAM_STRATEGY_ROW
};
const size_t ndpad_stream_strategy_count =
    sizeof(ndpad_stream_strategies) / sizeof(ndpad_stream_strategies[0]);
_Atomic unsigned long long ndpad_stream_strategy_chosen[sizeof(ndpad_stream_strategies) /
                                                        sizeof(ndpad_stream_strategies[0])];

/* Whether the plan's output is one stream of dense rows that read the input (and, for
 * CONSTANT, mostly input rows); *src_interior: the interior's first source byte, inside
 * the source row. */
static bool stream_fits(const ndpad_plan *plan, int64_t *src_interior)
{
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const int64_t es = (int64_t)plan->elem_size;
    const bool constant = plan->mode == NDPAD_CONSTANT;
    if (plan->empty || !plan->reads_input || !plan->inner_dense || !plan->out_contiguous ||
        row->r != 0 || row->n < 1 || es < 1)
        return false;
    if (constant && (es > NDPAD_STREAM_BLOCK || NDPAD_STREAM_BLOCK % es != 0)) return false;
    if (constant) {
        /* Mostly pad rows (e.g. ov-small, 16% input rows): the executor fills a run of pad
         * rows as one gap, while the stream visits every row (1.2 vs 3.4 us). */
        int64_t input_rows = 1;
        for (int32_t k = 0; k + 1 < plan->ndim; k++) input_rows *= plan->dim[k].d;
        if (input_rows < plan->rows / 2) return false;
    }
    /* A row with no interior (all of it clamped or cropped away, e.g. EDGE with a pad near
     * -2^63) reads nothing there, and copy_begin - b may lie far outside the row, even
     * beyond int64: 0, so that the kernels never form a pointer out of the row (they do,
     * for a copy of zero bytes). */
    *src_interior = 0;
    return !(row->copy_begin < row->copy_end &&
             (ndpad_sub_overflows(row->copy_begin, row->b, src_interior) ||
              ndpad_mul_overflows(*src_interior, es, src_interior)));
}

/* The facts every strategy asks (strategy.h), and NDPAD_STREAM's filter on the table (table.h):
 * false for "off" or a plan the path does not fit. */
static bool stream_facts(const ndpad_plan *plan, ndpad_stream_facts *f, bool *reference)
{
    const char *env = getenv("NDPAD_STREAM");
    *reference = env != NULL && strcmp(env, "reference") == 0;
    if ((env != NULL && strcmp(env, "off") == 0) || !stream_fits(plan, &f->src_interior))
        return false;
    f->plan = plan;
    f->row = &plan->dim[plan->ndim - 1];
    f->kernels =
        *reference ? ndpad_kernels_select(NDPAD_ISA_SCALAR, plan->elem_size) : plan->kernels;
    f->es = (int64_t)plan->elem_size;
    f->row_bytes = plan->row_bytes;
    f->left = f->row->copy_begin * f->es;
    f->interior_end = f->row->copy_end * f->es;
    f->right = f->row_bytes - f->interior_end;
    f->constant = plan->mode == NDPAD_CONSTANT;
    f->any_length = *reference || (env != NULL && strcmp(env, "always") == 0);
    f->dense = ndpad_stream_dense_planes(plan, NDPAD_STREAM_MAX_ANY_PLANE_BYTES, &f->rows_per_plane,
                                         &f->plane_axis);
    return true;
}

/* The descriptor of the strategy that applied: its tables after it, then the row list. */
static ndpad_stream *stream_make(const ndpad_stream_facts *f, const ndpad_stream_strategy *s,
                                 ndpad_stream_work *work)
{
    const ndpad_plan *plan = f->plan;
    const size_t tables =
        sizeof(ndpad_stream) + (size_t)(s->table_bytes ? s->table_bytes(f, work) : 0);
    /* the row list last, 8-byte aligned: the indices move in front of it in a copy */
    const size_t list_at = (tables + 7) & ~(size_t)7;
    const bool row_list = s->lists_rows && plan->ndim > 1 &&
                          plan->rows <= NDPAD_STREAM_MAX_ROW_LIST &&
                          f->row_bytes >= NDPAD_STREAM_MIN_LIST_ROW_BYTES &&
                          f->row_bytes < NDPAD_STREAM_MAX_LIST_ROW_BYTES;
    const size_t bytes = row_list ? list_at + (size_t)plan->rows * sizeof(int64_t) : tables;
    ndpad_stream *stream = ndpad_malloc(bytes);
    if (stream == NULL) return NULL;
    *stream = work->draft;
    stream->kernel = f->kernels->stream[s->kind];
    stream->kernel_name = f->kernels->stream_name[s->kind];
    stream->kind = s->kind;
    stream->bytes = (int64_t)bytes;
    stream->row_bytes = f->row_bytes;
    stream->left_bytes = f->left;
    stream->interior_end = f->interior_end;
    stream->src_interior = f->src_interior;
    stream->elem_size = f->es;
    stream->constant = f->constant;
    if (f->constant)
        for (int64_t k = 0; k < 2 * NDPAD_STREAM_BLOCK; k++)
            stream->pad[k] = plan->pad_value[k % f->es];
    if (s->fill != NULL) s->fill(f, work, stream);
    if (row_list) {
        int64_t *list = (int64_t *)((char *)stream + list_at);
        ndpad_row_odometer odometer;
        ndpad_row_odometer_start(&odometer, plan, 0, plan->rows);
        (void)ndpad_row_odometer_next(&odometer, list, plan->rows);
        stream->row_list = ndpad_stream_offset(stream, list);
    }
    return stream;
}

ndpad_status ndpad_stream_plan(const ndpad_plan *plan, ndpad_stream **result, const char *caller)
{
    ndpad_status status = NDPAD_OK;
    *result = NULL;
    ndpad_stream_facts facts;
    bool reference;
    if (!stream_facts(plan, &facts, &reference)) return NDPAD_OK;
    ndpad_stream_work work;
    memset(&work.draft, 0, sizeof(work.draft));
    work.seam_state = work.permute_state = NDPAD_ONCE_UNKNOWN;
    work.permute = NULL;
    for (size_t k = 0; k < ndpad_stream_strategy_count; k++) {
        const ndpad_stream_strategy *s = ndpad_stream_strategies[k];
        if ((reference && s != &NDPAD_STREAM_REFERENCE_ROW) ||
            facts.kernels->stream[s->kind] == NULL || facts.kernels->stream[s->requires] == NULL)
            continue;
        const ndpad_stream_verdict verdict = s->applies(&facts, &work);
        if (verdict == NDPAD_STRATEGY_NO_MEMORY)
            NDPAD_FAIL(NDPAD_ERR_OUT_OF_MEMORY, "no memory for the output-stream tables");
        if (verdict == NDPAD_STRATEGY_DECLINES) continue;
        if (!s->none && (*result = stream_make(&facts, s, &work)) == NULL)
            NDPAD_FAIL(NDPAD_ERR_OUT_OF_MEMORY, "no memory for the output-stream tables");
        atomic_fetch_add_explicit(&ndpad_stream_strategy_chosen[k], 1, memory_order_relaxed);
        break;
    }
    ndpad_free(work.permute);
    return NDPAD_OK;
fail:
    ndpad_free(work.permute);
    return status;
}

ndpad_stream *ndpad_stream_copy(const ndpad_stream *stream, void *buffer, size_t size)
{
    /* without the row list where only the tables fit: the odometer lists the rows then */
    const size_t tables = stream->row_list != 0 ? (size_t)stream->row_list : (size_t)stream->bytes;
    const bool list = (size_t)stream->bytes <= size;
    if (tables > size) return NULL;
    ndpad_stream *copy = buffer;
    memcpy(copy, stream, list ? (size_t)stream->bytes : tables);
    copy->bytes = list ? stream->bytes : (int64_t)tables;
    if (!list) copy->row_list = 0;
    if (stream->index_bytes > 0) {
        /* The buffer's alignment may differ from the original's: the indices move to the
         * copy's own first line boundary after the masks (the slack allows for it). */
        const uint64_t *masks = (const uint64_t *)(copy + 1);
        const int64_t delta =
            ndpad_stream_offset(copy, ndpad_stream_index_start((void *)(masks + stream->masks))) -
            stream->left_index;
        if (delta != 0) {
            memmove((char *)copy + stream->left_index + delta, (char *)copy + stream->left_index,
                    (size_t)stream->index_bytes);
            copy->left_index += delta;
            copy->right_index += delta;
            if (stream->seam_index != 0) copy->seam_index += delta;
            if (stream->seam_far_index != 0) copy->seam_far_index += delta;
        }
    }
    return copy;
}

void ndpad_stream_destroy(ndpad_stream *stream)
{
    ndpad_free(stream);
}
