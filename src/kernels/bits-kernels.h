/* The kernels of sub-byte elements (1, 2 or 4 bits, the first element in the low bits of a
 * byte): the two loops a row of bits spends its time in. Everything around them (a row's
 * partial first and last byte, the runs of each mode) is generic code (bits-copy.c). */
#ifndef NDPAD_BITS_KERNELS_H
#define NDPAD_BITS_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "ndpad.h"
#include "status.h"

/* The funnel shift: dst[k] = (src[k] >> shift) | (src[k + 1] << (8 - shift)) for k in
 * [0, bytes), shift in [1, 7]: `bytes` whole bytes of a bit stream that starts `shift` bits
 * into src[0]. Reads src[0 .. bytes] (bytes + 1 bytes) and nothing else; writes dst[0 ..
 * bytes - 1]. dst and src do not overlap. */
typedef void (*ndpad_bits_shift_fn)(uint8_t *restrict dst, const uint8_t *restrict src,
                                    size_t bytes, unsigned shift);

/* Element reversal of whole bytes: dst[k] = src[bytes - 1 - k] with the order of its
 * elements of `bits` bits (1, 2 or 4) reversed inside the byte, so that the bit stream of
 * dst is the element stream of src backwards. dst and src do not overlap. */
typedef void (*ndpad_bits_reverse_fn)(uint8_t *restrict dst, const uint8_t *restrict src,
                                      size_t bytes, unsigned bits);

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

NDPAD_INTERNAL void ndpad_bits_shift__scalar(uint8_t *restrict dst, const uint8_t *restrict src,
                                             size_t bytes, unsigned shift);
NDPAD_INTERNAL void ndpad_bits_reverse__scalar(uint8_t *restrict dst, const uint8_t *restrict src,
                                               size_t bytes, unsigned bits);
NDPAD_INTERNAL void ndpad_bits_shift__avx2(uint8_t *restrict dst, const uint8_t *restrict src,
                                           size_t bytes, unsigned shift);
NDPAD_INTERNAL void ndpad_bits_reverse__avx2(uint8_t *restrict dst, const uint8_t *restrict src,
                                             size_t bytes, unsigned bits);
NDPAD_INTERNAL void ndpad_bits_shift__avx512(uint8_t *restrict dst, const uint8_t *restrict src,
                                             size_t bytes, unsigned shift);
NDPAD_INTERNAL void ndpad_bits_reverse__avx512vbmi(uint8_t *restrict dst,
                                                   const uint8_t *restrict src, size_t bytes,
                                                   unsigned bits);
NDPAD_INTERNAL void ndpad_bits_shift__avx512vbmi2(uint8_t *restrict dst,
                                                  const uint8_t *restrict src, size_t bytes,
                                                  unsigned shift);
NDPAD_INTERNAL void ndpad_bits_shift__neon(uint8_t *restrict dst, const uint8_t *restrict src,
                                           size_t bytes, unsigned shift);
NDPAD_INTERNAL void ndpad_bits_reverse__neon(uint8_t *restrict dst, const uint8_t *restrict src,
                                             size_t bytes, unsigned bits);

/* The kernels of `isa` (a level this build has; its own, else its nearest ancestor's). */
NDPAD_INTERNAL ndpad_bits_kernels ndpad_bits_kernels_select(ndpad_isa isa);

#endif
