/* Runs of sub-byte elements at any bit position: a copy, a reversed copy and a fill, each
 * writing exactly its bits (the partial first and last byte read-modify-write) and reading
 * no byte outside its source bits. Positions are bits from bit 0 of the base pointer and may
 * be negative (rows before element [0, .., 0] of an input with negative strides). */
#ifndef NDPAD_BITS_COPY_H
#define NDPAD_BITS_COPY_H

#include <stdint.h>
#include <string.h>

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

/* Words of up to 64 bits at any bit position, through a register: what the short runs and
 * the composed ends of a row (bits-row.c) are made of. */

/* The 64 / bits elements of w in reverse order. */
static inline uint64_t ndpad_bits_reverse_word(uint64_t w, unsigned bits)
{
    if (bits <= 1) w = ((w & 0x5555555555555555ull) << 1) | ((w >> 1) & 0x5555555555555555ull);
    if (bits <= 2) w = ((w & 0x3333333333333333ull) << 2) | ((w >> 2) & 0x3333333333333333ull);
    w = ((w & 0x0F0F0F0F0F0F0F0Full) << 4) | ((w >> 4) & 0x0F0F0F0F0F0F0F0Full);
    return __builtin_bswap64(w);
}

/* 8 bytes at p, the first in the low bits. */
static inline uint64_t ndpad_bits_load_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline void ndpad_bits_store_le64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, sizeof(v));
}

/* `count` (1 .. 64) bits at bit position `bit` of src, reading only the bytes they cover. */
static inline uint64_t ndpad_bits_load_word(const uint8_t *src, int64_t bit, unsigned count)
{
    const uint8_t *p = src + (bit >> 3);
    const unsigned shift = (unsigned)(bit & 7), bytes = (shift + count + 7) / 8;
    uint64_t v;
    if (bytes >= 8) {
        v = ndpad_bits_load_le64(p) >> shift;
        if (bytes == 9) v |= (uint64_t)p[8] << (64 - shift); /* 9 bytes: shift > 0 */
    } else {
        v = 0;
        for (unsigned i = 0; i < bytes; i++) v |= (uint64_t)p[i] << (8 * i);
        v >>= shift;
    }
    return count == 64 ? v : v & (((uint64_t)1 << count) - 1);
}

/* `count` (1 .. 64) bits at bit position `bit` of dst = the low bits of v. Whole bytes are
 * stores (one of 8 bytes for a byte-aligned 64 bits), never reads; a partial first or last
 * byte is read-modify-write (a read of an output line waits for memory when no store has
 * brought it in yet). */
static inline void ndpad_bits_store_word(uint8_t *dst, int64_t bit, unsigned count, uint64_t v)
{
    uint8_t *p = dst + (bit >> 3);
    const unsigned shift = (unsigned)(bit & 7);
    if (shift == 0 && count == 64) {
        ndpad_bits_store_le64(p, v);
        return;
    }
    if (shift == 0 && count % 8 == 0) {
        for (unsigned i = 0; i < count / 8; i++) p[i] = (uint8_t)(v >> (8 * i));
        return;
    }
    const unsigned end = shift + count, bytes = (end + 7) / 8;
    const unsigned __int128 bits = (unsigned __int128)v << shift;
    for (unsigned i = 0; i < bytes; i++) {
        const unsigned lo = i == 0 ? shift : 0, hi = 8 * i + 8 <= end ? 8 : end - 8 * i;
        const uint8_t b = (uint8_t)(bits >> (8 * i));
        if (lo == 0 && hi == 8) {
            p[i] = b;
        } else {
            const unsigned mask = ((1u << (hi - lo)) - 1) << lo;
            p[i] = (uint8_t)((p[i] & ~mask) | (b & mask));
        }
    }
}

#endif
