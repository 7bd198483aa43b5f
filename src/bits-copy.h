/* Runs of sub-byte elements at any bit position: a copy, a reversed copy and a fill, each
 * writing exactly its bits (the partial first and last byte read-modify-write) and reading
 * no byte outside its source bits. Positions are bits from bit 0 of the base pointer and may
 * be negative (rows before element [0, .., 0] of an input with negative strides). */
#ifndef NDPAD_BITS_COPY_H
#define NDPAD_BITS_COPY_H

#include <stdint.h>

#include "kernels/bits-kernels.h"

/* Bits [dst_bit, dst_bit + count) of dst = bits [src_bit, src_bit + count) of src. The two
 * bit ranges do not overlap (they may share a byte). */
NDPAD_INTERNAL void ndpad_bits_copy(const ndpad_bits_kernels *k, uint8_t *dst, int64_t dst_bit,
                                    const uint8_t *src, int64_t src_bit, int64_t count);

/* `elems` elements of `bits` bits at dst_bit = the `elems` elements at src_bit in reverse
 * order. The two bit ranges do not overlap. */
NDPAD_INTERNAL void ndpad_bits_copy_reversed(const ndpad_bits_kernels *k, uint8_t *dst,
                                             int64_t dst_bit, const uint8_t *src, int64_t src_bit,
                                             int64_t elems, unsigned bits);

/* `count` bits at dst_bit = the element `value` (its low `bits` bits) repeated. */
NDPAD_INTERNAL void ndpad_bits_fill(uint8_t *dst, int64_t dst_bit, int64_t count, unsigned value,
                                    unsigned bits);

/* The element of `bits` bits at bit position `bit` of src. */
NDPAD_INTERNAL unsigned ndpad_bits_get(const uint8_t *src, int64_t bit, unsigned bits);

#endif
