/* The input range one axis of an output window reads (see window-range.h): one function per
 * family of index maps. */
#include "window-range.h"

#include "checked.h"

__extension__ typedef __int128 wide;

static int64_t mod_floor(int64_t a, int64_t p)
{
    const int64_t m = a % p;
    return m < 0 ? m + p : m;
}

/* o - b, a position in the dilated input; saturates at INT64_MAX (o >= 0, so only upwards). */
static int64_t position(int64_t o, int64_t b)
{
    int64_t j;
    return ndpad_sub_overflows(o, b, &j) ? INT64_MAX : j;
}

/* The period of a periodic mode's map on an axis of extent d >= 1. */
static int64_t period(int32_t mode, int64_t d)
{
    if (mode == NDPAD_WRAP) return d;
    if (mode == NDPAD_SYMMETRIC) return 2 * d;
    return d == 1 ? 1 : 2 * (d - 1);
}

/* The map of REFLECT/SYMMETRIC at m in [0, 2P): rising for m mod P below d, then falling.
 * Positions past P are wide: P itself may be close to INT64_MAX. */
static int64_t fold(int32_t mode, int64_t d, int64_t p, wide m)
{
    const int64_t r = (int64_t)(m >= p ? m - p : m);
    if (mode == NDPAD_REFLECT) return d == 1 ? 0 : (r < d ? r : p - r);
    return r < d ? r : p - 1 - r;
}

/* The local begin pad when the window reads the whole axis: b - o0 itself when it is near
 * the window (so the window shows the input where the whole output does, and in-place
 * padding is recognised) and the end pad that follows, len - (b - o0) - d, fits int64;
 * else the equivalent -((o0 - b) mod p), which is small. */
static int64_t whole_axis_begin(int64_t b, int64_t o0, int64_t len, int64_t p, int64_t m0)
{
    const wide diff = (wide)b - o0;
    if (diff <= len && diff >= -(wide)len - 2 * (wide)p && (wide)len - diff <= INT64_MAX)
        return (int64_t)diff;
    return -m0;
}

/* CONSTANT: the lattice points t (r + 1) of [max(j0, 0), min(j1, D)). */
static void constant_range(const ndpad_axis *a, int64_t o0, int64_t o1, ndpad_window_range *w)
{
    const int64_t step = a->d > 1 ? a->r + 1 : 1;
    const int64_t j0 = position(o0, a->b), j1 = position(o1, a->b);
    const int64_t lo = j0 > 0 ? j0 : 0, hi = j1 < a->dilated ? j1 : a->dilated;
    if (lo >= hi) return;
    const int64_t first = lo / step + (lo % step != 0), last = (hi - 1) / step;
    if (first > last) return;
    w->r0 = first;
    w->r1 = last + 1;
    w->local_d = w->r1 - w->r0;
    w->local_b = first * step - j0; /* in [0, len) */
}

/* EDGE: the clamped positions of the window's two ends. */
static void edge_range(const ndpad_axis *a, int64_t o0, int64_t o1, ndpad_window_range *w)
{
    const int64_t d = a->d, len = o1 - o0;
    const int64_t j0 = position(o0, a->b), j_last = position(o1 - 1, a->b);
    w->r0 = j0 < 0 ? 0 : (j0 > d - 1 ? d - 1 : j0);
    w->r1 = (j_last < 0 ? 0 : (j_last > d - 1 ? d - 1 : j_last)) + 1;
    w->local_d = w->r1 - w->r0;
    /* r0 - j0 cannot overflow (r0 >= 0, j0 >= -INT64_MAX); beyond +-len it only says "all
     * of the window clamps to one end", where the local extent is 1. */
    const int64_t b = w->r0 - j0;
    w->local_b = b > len ? len : (b < -len ? -len : b);
}

/* REFLECT/SYMMETRIC over positions m in [m0, m0 + len) of the period, len < p: the map is
 * monotone between turning points, so the extremes are at the ends or at a turning point
 * inside. A proper sub-range holds at most one turning point, at one of its ends, where the
 * local problem turns as well: start on the rising or the falling side as the window does. */
static void folded_range(const ndpad_axis *a, int32_t mode, int64_t o0, int64_t len, int64_t p,
                         int64_t m0, ndpad_window_range *w)
{
    const int64_t d = a->d;
    const wide m_last = (wide)m0 + len - 1;
    int64_t lo = fold(mode, d, p, m0), hi = lo;
    const int64_t last = fold(mode, d, p, m_last);
    lo = last < lo ? last : lo;
    hi = last > hi ? last : hi;
    const int64_t turns[4] = {0, d - 1, d, p - 1}; /* REFLECT's are 0 and d - 1 */
    for (int t = 0; t < (mode == NDPAD_REFLECT ? 2 : 4); t++)
        for (wide c = turns[t]; c <= m_last; c += p)
            if (c >= m0) {
                const int64_t v = fold(mode, d, p, c);
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
    w->r0 = lo;
    w->r1 = hi + 1;
    const int64_t dl = w->r1 - w->r0;
    w->local_d = dl;
    if (w->r0 == 0 && w->r1 == d) {
        w->local_b = whole_axis_begin(a->b, o0, len, p, m0);
        return;
    }
    const int64_t i0 = fold(mode, d, p, m0) - w->r0;
    int64_t j_local;
    if (m0 < d) /* rising (m0 < p) */
        j_local = i0;
    else if (mode == NDPAD_REFLECT)
        j_local = dl == 1 ? 0 : 2 * (dl - 1) - i0;
    else
        j_local = 2 * dl - 1 - i0;
    w->local_b = -j_local;
}

/* REFLECT, SYMMETRIC, WRAP: a whole period or a wrap seam reads the whole axis, shifted by
 * whole periods; else WRAP reads one forward run and the folding modes a folded range. */
static void periodic_range(const ndpad_axis *a, int32_t mode, int64_t o0, int64_t o1,
                           ndpad_window_range *w)
{
    const int64_t d = a->d, len = o1 - o0;
    const int64_t p = period(mode, d);
    /* (o0 - b) mod p without forming o0 - b, which may overflow. */
    const int64_t m0 = mod_floor(mod_floor(o0, p) - mod_floor(a->b, p), p);
    if (len >= p || (mode == NDPAD_WRAP && len > d - m0)) {
        w->r0 = 0;
        w->r1 = d;
        w->local_d = d;
        w->local_b = whole_axis_begin(a->b, o0, len, p, m0);
    } else if (mode == NDPAD_WRAP) {
        w->r0 = m0;
        w->r1 = m0 + len;
        w->local_d = len;
        w->local_b = 0;
    } else {
        folded_range(a, mode, o0, len, p, m0, w);
    }
}

void ndpad_window_range_of(const ndpad_axis *a, int32_t mode, int64_t o0, int64_t o1,
                           ndpad_window_range *w)
{
    w->r0 = w->r1 = 0;
    if (mode == NDPAD_CONSTANT)
        constant_range(a, o0, o1, w);
    else if (mode == NDPAD_EDGE)
        edge_range(a, o0, o1, w);
    else
        periodic_range(a, mode, o0, o1, w);
}
