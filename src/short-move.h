/* Moves of a few bytes whose count is known only at run time, without a call: two
 * overlapping fixed-size moves of the largest power of two not above the count. Used where
 * a row's short pieces (a gap, a border, a row's tail) would otherwise cost a call each. */
#ifndef NDPAD_SHORT_MOVE_H
#define NDPAD_SHORT_MOVE_H

#include <stdint.h>
#include <string.h>

/* n bytes from s to d, 0 <= n <= 16 (the overlap copies some bytes twice). */
static inline __attribute__((always_inline)) void ndpad_move_upto16(char *d, const char *s,
                                                                    int64_t n)
{
    if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n >= 2) {
        memcpy(d, s, 2);
        memcpy(d + n - 2, s + n - 2, 2);
    } else if (n == 1) {
        *d = *s;
    }
}

#endif
