/* Planning the border runs of a dense row (see row-border.h). */
#include "row-border.h"

static void add_run(ndpad_row_border *border, int64_t o, int64_t len, int64_t from, int32_t filler)
{
    border->run[border->count++] =
        (ndpad_border_run){.o = o, .len = len, .from = from, .filler = filler};
    if (filler < 0 || len != 1) border->singles = false;
}

void ndpad_row_border_plan(ndpad_row_border *border, int32_t mode, const ndpad_dim *row, int64_t s,
                           int64_t t)
{
    border->count = 0;
    border->singles = true;
    if (s >= t) return;
    const int64_t d = row->d;
    if (mode == NDPAD_EDGE || d == 1) {
        add_run(border, s, t - s, s - row->b < 0 ? 0 : d - 1, NDPAD_EDGE);
        return;
    }
    /* The first period from the source, forward runs with the WRAP filler (a plain copy)
     * and reversed runs with the mode's own; then copies of the period already written,
     * each as long as everything before it. */
    const int64_t period = mode == NDPAD_WRAP ? d : mode == NDPAD_REFLECT ? 2 * (d - 1) : 2 * d;
    int64_t o = s;
    while (o < t) {
        if (o - s >= period) {
            const int64_t distance = (o - s) / period * period;
            const int64_t len = distance < t - o ? distance : t - o;
            add_run(border, o, len, distance, -1);
            o += len;
            continue;
        }
        int64_t m = (o - row->b) % period;
        if (m < 0) m += period;
        int64_t first, len;
        bool reversed;
        if (mode == NDPAD_WRAP) {
            first = m, len = d - m, reversed = false;
        } else if (mode == NDPAD_REFLECT) {
            if (m < d - 1)
                first = m, len = d - 1 - m, reversed = false;
            else
                first = period - m, len = period - m, reversed = true;
        } else {
            if (m < d)
                first = m, len = d - m, reversed = false;
            else
                first = period - 1 - m, len = period - m, reversed = true;
        }
        if (len > t - o) len = t - o;
        add_run(border, o, len, first, reversed ? mode : NDPAD_WRAP);
        o += len;
    }
}
