/* Overflow-checked integer arithmetic (XNNPACK's xnn_safe_*): every size, extent and
 * offset ndpad computes goes through these, so a hostile problem is an error, never a
 * wrap-around. Each returns true on overflow. */
#ifndef NDPAD_CHECKED_H
#define NDPAD_CHECKED_H

#include <stdbool.h>
#include <stdint.h>

static inline bool ndpad_add_overflows(int64_t a, int64_t b, int64_t *sum)
{
    return __builtin_add_overflow(a, b, sum);
}

static inline bool ndpad_sub_overflows(int64_t a, int64_t b, int64_t *difference)
{
    return __builtin_sub_overflow(a, b, difference);
}

static inline bool ndpad_mul_overflows(int64_t a, int64_t b, int64_t *product)
{
    return __builtin_mul_overflow(a, b, product);
}

/* a + b + c exactly (no intermediate sum can overflow on its own), true when the result
 * does not fit int64. */
static inline bool ndpad_add3_overflows(int64_t a, int64_t b, int64_t c, int64_t *sum)
{
    __extension__ typedef __int128 wide;
    const wide exact = (wide)a + (wide)b + (wide)c;
    if (exact > INT64_MAX || exact < INT64_MIN) return true;
    *sum = (int64_t)exact;
    return false;
}

/* |a| as int64, false when a == INT64_MIN (no representable magnitude). */
static inline bool ndpad_abs_overflows(int64_t a, int64_t *magnitude)
{
    if (a == INT64_MIN) return true;
    *magnitude = a < 0 ? -a : a;
    return false;
}

#endif
