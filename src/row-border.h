/* The border of a dense row in the modes that read the input (edge, reflect, symmetric,
 * wrap), worked out once per tile and replayed on every row of it. All rows of a tile have
 * the same columns and the same source extent, so the runs (which input elements, forward or
 * reversed, and which copies of what the row already holds) are the same; only the source
 * row differs. Working them out costs divisions and branches; replaying them is a loop. */
#ifndef NDPAD_ROW_BORDER_H
#define NDPAD_ROW_BORDER_H

#include <stdbool.h>
#include <string.h>

#include "plan.h"

/* One run of output elements [o, o + len) of the row. */
typedef struct ndpad_border_run {
    int64_t o;
    int64_t len;
    int64_t from;   /* filler >= 0: source element the filler starts at;
                        filler < 0: distance back in the output row to copy from */
    int32_t filler; /* index into the plan's fill[] (a mode), or -1 for a repeat */
} ndpad_border_run;

/* Up to 3 runs reach one period of the pattern; each repeat then doubles what is written,
 * so 64 more cover any int64_t length. */
#define NDPAD_BORDER_RUNS_MAX 68

typedef struct ndpad_row_border {
    int32_t count;
    bool singles; /* every run is one element read from the source */
    ndpad_border_run run[NDPAD_BORDER_RUNS_MAX];
} ndpad_row_border;

/* Plans output columns [s, t) of `row`, which lie outside its interior region, for a
 * non-CONSTANT `mode`. */
NDPAD_INTERNAL void ndpad_row_border_plan(ndpad_row_border *border, int32_t mode,
                                          const ndpad_dim *row, int64_t s, int64_t t);

/* One element of `elem_size` bytes; fixed sizes become single moves. */
static inline void ndpad_copy_element(char *dst, const char *src, size_t elem_size)
{
    switch (elem_size) {
    case 1: memcpy(dst, src, 1); break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, elem_size); break;
    }
}

/* Writes the planned runs into the output row `dst` from the source row `src`. */
static inline void ndpad_row_border_fill(const ndpad_row_border *border, const ndpad_fill_fn *fill,
                                         const char *src, char *dst, size_t es)
{
    const ndpad_border_run *run = border->run;
    const int32_t count = border->count;
    if (border->singles) {
        /* the size switch outside the loop: each element is then one load and one store */
#define NDPAD_COPY_SINGLES(bytes)                                                                  \
    for (int32_t k = 0; k < count; k++)                                                            \
        memcpy(dst + (size_t)run[k].o * (bytes), src + (size_t)run[k].from * (bytes), (bytes));    \
    return;
        switch (es) {
        case 1: NDPAD_COPY_SINGLES(1)
        case 2: NDPAD_COPY_SINGLES(2)
        case 4: NDPAD_COPY_SINGLES(4)
        case 8: NDPAD_COPY_SINGLES(8)
        case 16: NDPAD_COPY_SINGLES(16)
        default: NDPAD_COPY_SINGLES(es)
        }
#undef NDPAD_COPY_SINGLES
    }
    for (int32_t k = 0; k < count; k++) {
        char *out = dst + (size_t)run[k].o * es;
        if (run[k].filler < 0)
            memcpy(out, out - (size_t)run[k].from * es, (size_t)run[k].len * es);
        else if (run[k].len == 1)
            ndpad_copy_element(out, src + (size_t)run[k].from * es, es);
        else
            fill[run[k].filler](out, src + (size_t)run[k].from * es, run[k].len, es);
    }
}

#endif
