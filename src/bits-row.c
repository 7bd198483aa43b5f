/* A row of sub-byte elements, built from runs: CONSTANT and EDGE are a fill, the source
 * row's interior and a fill; the periodic modes (WRAP, REFLECT, SYMMETRIC) are periodic
 * along the row (period d, 2 (d - 1) and 2 d), so the runs of one window of at least a
 * period around the interior are copied from the source (forward or reversed) and the rest
 * of the row is that window repeated, by copies of what the row already holds that double
 * in length (a pad a thousand times the input costs ten copies, not a thousand runs). */
#include "bits-row.h"

#include "bits-copy.h"

typedef __int128 wide;

static wide mod_wide(wide a, wide m)
{
    if (a >= INT64_MIN && a <= INT64_MAX && m <= INT64_MAX) {
        /* the usual case, without a 128-bit division call */
        const int64_t r = (int64_t)a % (int64_t)m;
        return r < 0 ? r + (int64_t)m : r;
    }
    const wide r = a % m;
    return r < 0 ? r + m : r;
}

int64_t ndpad_bits_axis_source(int32_t mode, const ndpad_axis *a, int64_t o)
{
    const wide j = (wide)o - a->b, d = a->d;
    switch (mode) {
    case NDPAD_CONSTANT:
        if (j < 0 || j >= a->dilated || j % (a->r + 1) != 0) return -1;
        return (int64_t)(j / (a->r + 1));
    case NDPAD_EDGE: return (int64_t)(j < 0 ? 0 : (j >= d ? d - 1 : j));
    case NDPAD_REFLECT: {
        if (d == 1) return 0;
        const wide period = 2 * (d - 1), m = mod_wide(j, period);
        return (int64_t)(m < d ? m : period - m);
    }
    case NDPAD_SYMMETRIC: {
        const wide period = 2 * d, m = mod_wide(j, period);
        return (int64_t)(m < d ? m : period - 1 - m);
    }
    default: return (int64_t)mod_wide(j, d);
    }
}

static int64_t clamp_wide(wide v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : (v > hi ? hi : (int64_t)v);
}

/* What a row writes with: the plan, the row's bases, and its element size. */
typedef struct row_ctx {
    const ndpad_bits_kernels *k;
    uint8_t *out;
    int64_t out_bit;
    const uint8_t *in;
    int64_t in_bit;
    unsigned bits;
} row_ctx;

static void fill(const row_ctx *c, int64_t o0, int64_t o1, unsigned value)
{
    ndpad_bits_fill(c->out, c->out_bit + o0 * c->bits, (o1 - o0) * c->bits, value, c->bits);
}

/* Output elements [o0, o1) = source elements [i0, i0 + o1 - o0). */
static void copy(const row_ctx *c, int64_t o0, int64_t o1, int64_t i0)
{
    ndpad_bits_copy(c->k, c->out, c->out_bit + o0 * c->bits, c->in, c->in_bit + i0 * c->bits,
                    (o1 - o0) * c->bits);
}

/* Output elements [o0, o1) = output elements [from, from + o1 - o0) of the same row. */
static void repeat(const row_ctx *c, int64_t o0, int64_t o1, int64_t from)
{
    ndpad_bits_copy(c->k, c->out, c->out_bit + o0 * c->bits, c->out, c->out_bit + from * c->bits,
                    (o1 - o0) * c->bits);
}

static unsigned source_element(const row_ctx *c, int64_t i)
{
    return ndpad_bits_get(c->in, c->in_bit + i * c->bits, c->bits);
}

/* CONSTANT with interior padding on the row: pad value, then every input element at its
 * place b + i (r + 1). */
static void row_dilated(const row_ctx *c, const ndpad_axis *a, unsigned pad)
{
    fill(c, 0, a->n, pad);
    const wide step = (wide)a->r + 1;
    wide i = a->b >= 0 ? 0 : ((wide)-a->b + step - 1) / step;
    for (; i < a->d; i++) {
        const wide o = a->b + i * step;
        if (o >= a->n) break;
        copy(c, (int64_t)o, (int64_t)o + 1, (int64_t)i);
    }
}

/* CONSTANT (no interior) and EDGE: [0, lo) left value, [lo, hi) the input, [hi, n) right. */
static void row_flat(const row_ctx *c, const ndpad_axis *a, int32_t mode, unsigned pad,
                     bool skip_interior)
{
    const int64_t lo = clamp_wide(a->b, 0, a->n);
    const int64_t hi = clamp_wide((wide)a->b + a->d, lo, a->n);
    const bool edge = mode == NDPAD_EDGE;
    if (lo > 0) fill(c, 0, lo, edge ? source_element(c, 0) : pad);
    if (hi > lo && !skip_interior) copy(c, lo, hi, lo - a->b);
    if (a->n > hi) fill(c, hi, a->n, edge ? source_element(c, a->d - 1) : pad);
}

/* The run of a periodic mode that starts at output index o: its first source index, its
 * direction (1 forward, -1 backward) and how many elements it has before it turns. */
static void periodic_run(int32_t mode, const ndpad_axis *a, int64_t o, int64_t *i, int *dir,
                         wide *len)
{
    const wide j = (wide)o - a->b, d = a->d;
    if (mode == NDPAD_WRAP) {
        const wide m = mod_wide(j, d);
        *i = (int64_t)m, *dir = 1, *len = d - m;
        return;
    }
    const wide period = mode == NDPAD_REFLECT ? 2 * (d - 1) : 2 * d;
    const wide turn = mode == NDPAD_REFLECT ? d - 1 : d; /* first m of the backward run */
    const wide m = mod_wide(j, period);
    if (m < turn) {
        *i = (int64_t)m, *dir = 1, *len = turn - m;
    } else {
        *i = (int64_t)(mode == NDPAD_REFLECT ? period - m : period - 1 - m);
        *dir = -1, *len = period - m;
    }
}

/* One run of a periodic row: output [o, o + n) from source index i, forward or backward. */
typedef struct run {
    int64_t o, n, i;
    int dir;
} run;

static void write_run(const row_ctx *c, const run *r)
{
    if (r->dir > 0)
        copy(c, r->o, r->o + r->n, r->i);
    else
        ndpad_bits_copy_reversed(c->k, c->out, c->out_bit + r->o * c->bits, c->in,
                                 c->in_bit + (r->i - r->n + 1) * c->bits, r->n, c->bits);
}

/* Output elements [o0, o1) from the source, run by run, written right to left: a run's
 * partial last byte is then a byte its right neighbour has just written (a read the store
 * buffer answers), never one of a line no store has touched yet (a read that waits for
 * memory: 2x the time of the row's copy on int4 4096 x 4096 reflect). */
#define NDPAD_BITS_RUNS 16

static void periodic_direct(const row_ctx *c, const ndpad_axis *a, int32_t mode, int64_t o0,
                            int64_t o1)
{
    run runs[NDPAD_BITS_RUNS];
    int count = 0;
    for (int64_t o = o0; o < o1;) {
        int64_t i;
        int dir;
        wide len;
        periodic_run(mode, a, o, &i, &dir, &len);
        const int64_t n = len < o1 - o ? (int64_t)len : o1 - o;
        if (count == NDPAD_BITS_RUNS) {
            while (count > 0) write_run(c, &runs[--count]);
        }
        runs[count++] = (run){o, n, i, dir};
        o += n;
    }
    while (count > 0) write_run(c, &runs[--count]);
}

static void row_periodic(const row_ctx *c, const ndpad_axis *a, int32_t mode, bool skip_interior)
{
    const int64_t n = a->n, d = a->d;
    const wide period =
        mode == NDPAD_WRAP ? d : (mode == NDPAD_REFLECT ? 2 * (wide)(d - 1) : 2 * (wide)d);
    /* the window read from the source: a period before the interior, the interior and a
     * period after it, within the row; at least a period long unless it is the whole row */
    int64_t lo = clamp_wide((wide)a->b - period, 0, n);
    if ((wide)n - lo < period) lo = clamp_wide((wide)n - period, 0, n);
    int64_t hi = clamp_wide((wide)lo + 2 * period + d, lo, n);
    if (skip_interior) {
        /* in place: the interior [b, b + d) lies inside the window and holds the input */
        periodic_direct(c, a, mode, lo, a->b);
        periodic_direct(c, a, mode, a->b + d, hi);
    } else {
        periodic_direct(c, a, mode, lo, hi);
    }
    /* the rest repeats the window: copies of whole periods of it, doubling */
    while (hi < n) {
        const int64_t span = (int64_t)(((wide)(hi - lo) / period) * period);
        const int64_t len = span < n - hi ? span : n - hi;
        repeat(c, hi, hi + len, hi - span);
        hi += len;
    }
    while (lo > 0) {
        const int64_t span = (int64_t)(((wide)(hi - lo) / period) * period);
        const int64_t len = span < lo ? span : lo;
        repeat(c, lo - len, lo, lo - len + span);
        lo -= len;
    }
}

void ndpad_bits_row(const ndpad_bits_plan *plan, uint8_t *out, int64_t out_bit, const uint8_t *in,
                    int64_t in_bit, bool pad_row, bool skip_interior)
{
    const ndpad_axis *a = &plan->axis[plan->rank - 1];
    const row_ctx c = {&plan->kernels, out, out_bit, in, in_bit, plan->bits};
    if (a->n == 0) return;
    /* The runs' partial bytes are read-modify-write, mostly near the row's ends, and a read
     * of a line no store has brought in waits for memory (a reflected border's first byte
     * after the interior's copy: 2x the copy's time on int4 4096 x 4096). Fetch both ends
     * for writing first: the interior's copy runs meanwhile. */
    __builtin_prefetch(out + (out_bit >> 3), 1, 3);
    __builtin_prefetch(out + ((out_bit + a->n * (int64_t)plan->bits - 1) >> 3), 1, 3);
    if (pad_row) {
        fill(&c, 0, a->n, plan->pad_value);
        return;
    }
    switch (plan->mode) {
    case NDPAD_CONSTANT:
        if (a->r > 0)
            row_dilated(&c, a, plan->pad_value);
        else
            row_flat(&c, a, NDPAD_CONSTANT, plan->pad_value, skip_interior);
        return;
    case NDPAD_EDGE: row_flat(&c, a, NDPAD_EDGE, 0, skip_interior); return;
    default:
        /* one input element: every output element is it (REFLECT's period would be 0) */
        if (a->d == 1) {
            if (skip_interior) {
                const int64_t lo = a->b, hi = a->b + 1;
                fill(&c, 0, lo, source_element(&c, 0));
                fill(&c, hi, a->n, source_element(&c, 0));
            } else {
                fill(&c, 0, a->n, source_element(&c, 0));
            }
            return;
        }
        row_periodic(&c, a, plan->mode, skip_interior);
    }
}
