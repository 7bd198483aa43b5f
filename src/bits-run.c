/* Sub-byte rows over tiles and threads. A tile is a block of whole output rows, and every
 * tile but the first starts at a row whose first bit is the first bit of a byte: rows of
 * two tiles then never share a byte, so threads write disjoint bytes without atomics (a
 * dense output whose rows all start mid-byte at the same phase has no such row: one thread).
 * Each row finds its source row by the outer axes' source indices, as the byte executor's
 * row odometer does. */
#include "bits-run.h"

#include "bits-row.h"
#include "task-runner.h"
#include "workers.h"

/* Outputs below this run on the calling thread (as ndpad_plan_create()'s 256 KiB). */
#define NDPAD_BITS_SOLO_BYTES ((int64_t)256 * 1024)

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b != 0) {
        const int64_t t = a % b;
        a = b, b = t;
    }
    return a;
}

/* Row boundaries that start a byte: every row (step 1 from row 0), every step-th row from
 * row `first` of a dense output, or none (false). */
static bool aligned_rows(const ndpad_bits_plan *plan, int64_t *first, int64_t *step)
{
    const int32_t inner = plan->rank - 1;
    bool every = plan->out_bit_offset % 8 == 0, dense = true;
    int64_t dense_stride = plan->axis[inner].n;
    for (int32_t k = inner - 1; k >= 0; k--) {
        const ndpad_axis *a = &plan->axis[k];
        if (a->n > 1 && (a->out_stride % 8 + 8) % 8 * (int64_t)plan->bits % 8 != 0) every = false;
        if (a->n > 1 && a->out_stride != dense_stride) dense = false;
        dense_stride *= a->n; /* the output's element count fits int64 */
    }
    if (every) {
        *first = 0, *step = 1;
        return true;
    }
    if (!dense) return false;
    const int64_t row_bits = plan->axis[inner].n % 8 * (int64_t)plan->bits % 8;
    const int64_t g = gcd64(row_bits == 0 ? 8 : row_bits, 8);
    const int64_t phase = plan->out_bit_offset % 8;
    if (phase % g != 0) return false;
    *step = 8 / g;
    for (int64_t r = 0; r < *step; r++)
        if ((phase + r * row_bits) % 8 == 0) {
            *first = r;
            return true;
        }
    return false;
}

void ndpad_bits_plan_tiles(ndpad_bits_plan *plan, int64_t forced_rows)
{
    plan->first_rows = plan->rows, plan->tile_rows = plan->rows, plan->tiles = 1;
    const __int128 out_bytes = (__int128)plan->rows * plan->axis[plan->rank - 1].n * plan->bits / 8;
    int64_t first, step;
    if (plan->empty || plan->rows < 2 || !aligned_rows(plan, &first, &step)) {
        plan->threads = 1;
        return;
    }
    if (forced_rows == 0 && (plan->threads <= 1 || out_bytes < NDPAD_BITS_SOLO_BYTES)) {
        plan->threads = 1;
        return;
    }
    /* four tiles a thread (the caller-driven scheduler balances them), whole steps */
    int64_t rows = forced_rows;
    if (rows == 0) rows = plan->rows / ((int64_t)plan->threads * 4);
    if (rows < 1) rows = 1;
    if (rows > plan->rows) rows = plan->rows;
    rows = (rows + step - 1) / step * step;
    const int64_t max_tiles = NDPAD_WORKERS_MAX_TASKS;
    if ((plan->rows - first) / rows + 1 > max_tiles)
        rows = ((plan->rows - first) / (max_tiles - 1) + step) / step * step;
    plan->tile_rows = rows;
    plan->first_rows = first + rows < plan->rows ? first + rows : plan->rows;
    plan->tiles = 1 + (plan->rows - plan->first_rows + rows - 1) / rows;
    if (plan->tiles < 2) plan->threads = 1;
}

/* A prefetch of the byte of bit position `bit` (two's complement) of base. */
static inline void prefetch_bits(const void *base, uint64_t bit, int write)
{
    const void *p = (const void *)((uintptr_t)base + (uintptr_t)(int64_t)((int64_t)bit >> 3));
    if (write)
        __builtin_prefetch(p, 1, 3);
    else
        __builtin_prefetch(p, 0, 3);
}

/* The rows [r0, r1) of the plan, rows found by an odometer over the outer axes. */
static void run_rows(const ndpad_bits_plan *plan, const uint8_t *in, uint8_t *out, int64_t r0,
                     int64_t r1, bool in_place)
{
    const int32_t outer = plan->rank - 1;
    const int64_t bits = plan->bits;
    int64_t o[NDPAD_MAX_RANK], src[NDPAD_MAX_RANK];
    int64_t rest = r0;
    for (int32_t k = outer - 1; k >= 0; k--) {
        o[k] = rest % plan->axis[k].n;
        rest /= plan->axis[k].n;
    }
    for (int32_t k = 0; k < outer; k++)
        src[k] = ndpad_bits_axis_source(plan->mode, &plan->axis[k], o[k]);
    const int64_t row_bits = plan->axis[outer].n * bits;
    ndpad_bits_window window;
    ndpad_bits_window_init(plan, &window);
    const uint64_t in_row_bits = (uint64_t)plan->axis[outer].d * (uint64_t)bits; /* a guess */
    for (int64_t r = r0; r < r1; r++) {
        int64_t out_bit = plan->out_bit_offset;
        /* wrapping: an empty input's strides were never checked, and its rows are never
         * read (they are pad rows, or rows of an empty innermost axis) */
        uint64_t in_pos = (uint64_t)plan->in_bit_offset;
        bool pad = false, interior = true;
        for (int32_t k = 0; k < outer; k++) {
            const ndpad_axis *a = &plan->axis[k];
            out_bit += o[k] * a->out_stride * bits;
            if (src[k] < 0)
                pad = true;
            else
                in_pos += (uint64_t)src[k] * (uint64_t)a->in_stride * (uint64_t)bits;
            if (in_place && (o[k] < a->b || o[k] >= a->b + a->d)) interior = false;
        }
        const int64_t in_bit = (int64_t)in_pos;
        if (outer > 0 && r + 2 < r1) {
            /* the ends of the row two ahead (most often two strides along the last outer
             * axis), for writing: their partial bytes are read-modify-write, and a read of a
             * line not yet fetched waits for memory (bits-row.c); and its source row's
             * ends, which the border runs read before (right) or without (left) the
             * interior's streaming copy. A guess: wrapping arithmetic, and a prefetch of a
             * wrong address only costs a cache line. */
            const ndpad_axis *a = &plan->axis[outer - 1];
            const uint64_t next = (uint64_t)out_bit + 2 * (uint64_t)a->out_stride * (uint64_t)bits;
            prefetch_bits(out, next, 1);
            prefetch_bits(out, next + (uint64_t)row_bits - 1, 1);
            if (!pad) {
                const uint64_t from =
                    (uint64_t)in_bit + 2 * (uint64_t)a->in_stride * (uint64_t)bits;
                prefetch_bits(in, from, 0);
                prefetch_bits(in, from + in_row_bits - 1, 0);
            }
        }
        ndpad_bits_row(plan, &window, out, out_bit, in, in_bit, pad, in_place && interior);
        for (int32_t k = outer - 1; k >= 0; k--) {
            if (++o[k] < plan->axis[k].n) {
                src[k] = ndpad_bits_axis_source(plan->mode, &plan->axis[k], o[k]);
                break;
            }
            o[k] = 0;
            src[k] = ndpad_bits_axis_source(plan->mode, &plan->axis[k], 0);
        }
    }
}

typedef struct bits_job {
    const ndpad_bits_plan *plan;
    const uint8_t *in;
    uint8_t *out;
} bits_job;

/* Tiles [t0, t1): their rows, one run of consecutive rows. */
static void run_tiles(void *context, int64_t t0, int64_t t1, bool alone)
{
    (void)alone;
    const bits_job *job = (const bits_job *)context;
    const ndpad_bits_plan *p = job->plan;
    const int64_t r0 = t0 == 0 ? 0 : p->first_rows + (t0 - 1) * p->tile_rows;
    const int64_t end = p->first_rows + (t1 - 1) * p->tile_rows;
    run_rows(p, job->in, job->out, r0, end < p->rows ? end : p->rows, false);
}

/* In place: in's first bit is out's first interior bit, with the plan's equal strides. */
static bool is_in_place(const ndpad_bits_plan *plan, const uint8_t *in, const uint8_t *out)
{
    if (!plan->may_be_in_place || in == NULL) return false;
    const __int128 diff =
        ((__int128)(intptr_t)in - (intptr_t)out) * 8 + plan->in_bit_offset - plan->out_bit_offset;
    return diff == plan->in_place_bits;
}

void ndpad_bits_run(const ndpad_bits_plan *plan, const uint8_t *in, uint8_t *out)
{
    if (plan->empty) return;
    if (is_in_place(plan, in, out)) {
        /* borders only, on this thread: another thread's border write would share bytes
         * with the input bits this one reads */
        run_rows(plan, in, out, 0, plan->rows, true);
        return;
    }
    bits_job job = {plan, in, out};
    ndpad_tasks_run(&plan->policy, plan->threads, run_tiles, &job, plan->tiles);
}
