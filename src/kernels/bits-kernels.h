/* The kernels of sub-byte elements (1, 2 or 4 bits, the first element in the low bits of a
 * byte): the two loops a row of bits spends its time in. Everything around them (a row's
 * partial first and last byte, the runs of each mode) is generic code (bits-copy.c). */
#ifndef NDPAD_BITS_KERNELS_H
#define NDPAD_BITS_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/kernels.h"
#include "ndpad.h"
#include "status.h"

/* The two kernel kinds (their contracts) are in kernels.h, and each level's entries in
 * kernels.inc, inherited along the levels' parent chain like every other kernel. */

/* Whole bytes (a shift of 0): the ISA's interior copy of byte rows (kernels.h). */
typedef void (*ndpad_bits_copy_fn)(void *restrict dst, const void *restrict src, size_t bytes);

/* One ISA level's kernels (every slot valid: a level without its own takes its parent's). */
typedef struct ndpad_bits_kernels {
    ndpad_bits_shift_fn shift;
    ndpad_bits_reverse_fn reverse;
    ndpad_bits_copy_fn copy;
} ndpad_bits_kernels;

/* One byte with the order of its elements of `bits` bits reversed (the scalar reversal, and
 * every ISA's tail). */
static inline uint8_t ndpad_bits_reverse_byte(uint8_t x, unsigned bits)
{
    if (bits <= 1) x = (uint8_t)(((x & 0x55u) << 1) | ((x >> 1) & 0x55u));
    if (bits <= 2) x = (uint8_t)(((x & 0x33u) << 2) | ((x >> 2) & 0x33u));
    return (uint8_t)((x << 4) | (x >> 4));
}

/* The kernels of `isa` (a level this build has; its own, else its nearest ancestor's). */
NDPAD_INTERNAL ndpad_bits_kernels ndpad_bits_kernels_select(ndpad_isa isa);

#endif
