/* A row of sub-byte elements, built from runs: CONSTANT and EDGE are a fill, the source
 * row's interior and a fill; the periodic modes (WRAP, REFLECT, SYMMETRIC) are periodic
 * along the row (period d, 2 (d - 1) and 2 d), so the runs of one window of at least a
 * period around the interior are copied from the source (forward or reversed) and the rest
 * of the row is that window repeated, by copies of what the row already holds that double
 * in length (a pad a thousand times the input costs ten copies, not a thousand runs). The
 * window and its runs are the same for every row (ndpad_bits_window, found once per
 * execution); its long runs' whole bytes are the kernels' and the rest of it, the borders
 * and the bytes they share with the interior, is composed in a register and stored as
 * whole bytes (periodic_composed). */
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

typedef ndpad_bits_span run;

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

/* The composed window: runs of at least this many bits have the bytes they cover whole
 * written by the kernels; everything else of the window (the short runs, a border of a few
 * elements, and the byte a border shares with the interior's run) is built in a register,
 * 64 bits at a time, and stored as whole bytes: no byte store per element, no read of the
 * output (a read of a line no store has brought in waits for memory), where the row's ends
 * are bytes of its own. */
#define NDPAD_BITS_LONG_RUN 512

/* The bits of output elements [e0, e1) (inside run r, at most 64 bits), at bit 0. */
static uint64_t run_word(const row_ctx *c, const run *r, int64_t e0, int64_t e1)
{
    const unsigned nbits = (unsigned)((e1 - e0) * c->bits);
    if (r->dir > 0)
        return ndpad_bits_load_word(c->in, c->in_bit + (r->i + e0 - r->o) * c->bits, nbits);
    /* backward: e1 - 1 comes from the lowest source index */
    const int64_t from = r->i - (e1 - 1 - r->o);
    const uint64_t w =
        ndpad_bits_reverse_word(ndpad_bits_load_word(c->in, c->in_bit + from * c->bits, nbits),
                                c->bits);
    return nbits == 64 ? w : w >> (64 - nbits);
}

/* Output elements [e0, e1) (at most 64 bits) from the runs (sorted, covering them). */
static uint64_t gather(const row_ctx *c, const run *runs, int count, int64_t e0, int64_t e1)
{
    uint64_t w = 0;
    for (int k = 0; k < count && runs[k].o < e1; k++) {
        const int64_t a = runs[k].o > e0 ? runs[k].o : e0;
        const int64_t b = runs[k].o + runs[k].n < e1 ? runs[k].o + runs[k].n : e1;
        if (a < b) w |= run_word(c, &runs[k], a, b) << ((a - e0) * c->bits);
    }
    return w;
}

/* Row bits [q0, q1) (from the row's first bit; element boundaries) from the runs, 64 bits
 * a store: the first store ends on a byte boundary, and when q1 is one the last store is
 * the 64 bits before it (rewriting bits of the store before with their value). */
static void compose(const row_ctx *c, const run *runs, int count, int64_t q0, int64_t q1)
{
    const int lg = (int)(c->bits >> 1); /* log2 of the element size (1, 2, 4) */
    for (int64_t q = q0; q < q1;) {
        int64_t len = 64 - ((c->out_bit + q) & 7);
        if (len > q1 - q) {
            len = q1 - q;
            if (q1 - 64 >= q0 && ((c->out_bit + q1) & 7) == 0) q = q1 - 64, len = 64;
        }
        ndpad_bits_store_word(c->out, c->out_bit + q, (unsigned)len,
                              gather(c, runs, count, q >> lg, (q + len) >> lg));
        q += len;
    }
}

/* Row bits down to / up to a byte boundary of the output. */
static int64_t byte_floor(const row_ctx *c, int64_t q)
{
    return q - ((c->out_bit + q) & 7);
}

static int64_t byte_ceil(const row_ctx *c, int64_t q)
{
    return q + ((8 - ((c->out_bit + q) & 7)) & 7);
}

/* The window of a periodic row, composed (see NDPAD_BITS_LONG_RUN), left to right, from
 * its runs (the same for every row). False (nothing written) when it does not apply: byte
 * boundaries that split an element (an output bit offset that is not a multiple of the
 * element size), or a window of more runs than it keeps. */
static bool periodic_composed(const row_ctx *c, const ndpad_bits_window *w)
{
    const int64_t bits = c->bits;
    if (w->count == 0 || (c->out_bit & (bits - 1)) != 0) return false;
    const int lg = (int)(bits >> 1); /* log2 of 1, 2, 4: element indices by shifts */
    const run *runs = w->runs;
    const int count = w->count;
    int64_t done = w->lo * bits; /* row bits written */
    for (int k = 0; k < count; k++) {
        const run *r = &runs[k];
        if (r->n * bits < NDPAD_BITS_LONG_RUN) continue;
        const int64_t q0 = byte_ceil(c, r->o * bits), q1 = byte_floor(c, (r->o + r->n) * bits);
        if (q0 > done) compose(c, runs, count, done, q0);
        /* the run's whole bytes: elements [q0 / bits, q1 / bits) (q0, q1 >= 0) */
        const run whole = {q0 >> lg, (q1 - q0) >> lg,
                           r->dir > 0 ? r->i + ((q0 >> lg) - r->o) : r->i - ((q0 >> lg) - r->o),
                           r->dir};
        write_run(c, &whole);
        done = q1;
    }
    if (w->hi * bits > done) compose(c, runs, count, done, w->hi * bits);
    return true;
}

static wide period_of(int32_t mode, int64_t d)
{
    return mode == NDPAD_WRAP ? d : (mode == NDPAD_REFLECT ? 2 * (wide)(d - 1) : 2 * (wide)d);
}

void ndpad_bits_window_init(const ndpad_bits_plan *plan, ndpad_bits_window *w)
{
    const ndpad_axis *a = &plan->axis[plan->rank - 1];
    const int32_t mode = plan->mode;
    w->lo = w->hi = 0, w->count = 0;
    if (mode == NDPAD_CONSTANT || mode == NDPAD_EDGE || a->n == 0 || a->d <= 1) return;
    const int64_t n = a->n, d = a->d;
    const wide period = period_of(mode, d);
    /* the window read from the source: a period before the interior, the interior and a
     * period after it, within the row; at least a period long unless it is the whole row */
    int64_t lo = clamp_wide((wide)a->b - period, 0, n);
    if ((wide)n - lo < period) lo = clamp_wide((wide)n - period, 0, n);
    w->lo = lo;
    w->hi = clamp_wide((wide)lo + 2 * period + d, lo, n);
    for (int64_t o = w->lo; o < w->hi;) {
        if (w->count == NDPAD_BITS_WINDOW_RUNS) {
            w->count = 0; /* too many: the rows take the general path */
            return;
        }
        int64_t i;
        int dir;
        wide len;
        periodic_run(mode, a, o, &i, &dir, &len);
        const int64_t m = len < w->hi - o ? (int64_t)len : w->hi - o;
        w->runs[w->count++] = (run){o, m, i, dir};
        o += m;
    }
}

static void row_periodic(const row_ctx *c, const ndpad_axis *a, int32_t mode,
                         const ndpad_bits_window *w, bool skip_interior)
{
    const int64_t n = a->n, d = a->d;
    const wide period = period_of(mode, d);
    int64_t lo = w->lo, hi = w->hi;
    if (skip_interior) {
        /* in place: the interior [b, b + d) lies inside the window and holds the input */
        periodic_direct(c, a, mode, lo, a->b);
        periodic_direct(c, a, mode, a->b + d, hi);
    } else if (!periodic_composed(c, w)) {
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

void ndpad_bits_row(const ndpad_bits_plan *plan, const ndpad_bits_window *w, uint8_t *out,
                    int64_t out_bit, const uint8_t *in, int64_t in_bit, bool pad_row,
                    bool skip_interior)
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
        row_periodic(&c, a, plan->mode, w, skip_interior);
    }
}
