/* Runs of sub-byte elements (bits-copy.h). The bytes a run covers entirely are the ISA
 * kernel's (a memcpy or memset when the shifts are whole bytes); its partial first and last
 * byte are read-modify-write with a mask, so that bits outside the run keep their value. */
#include "bits-copy.h"

#include <string.h>

/* The byte of a bit position (floor: positions may be negative) and the bit in it. */
static inline const uint8_t *byte_of(const uint8_t *base, int64_t bit)
{
    return base + (bit >> 3);
}

/* `count` (0 .. 57) bits at bit `shift` (0 .. 7) of p, reading only the bytes they cover. */
static inline uint64_t load_bits(const uint8_t *p, unsigned shift, unsigned count)
{
    const unsigned bytes = (shift + count + 7) / 8;
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++) v |= (uint64_t)p[i] << (8 * i);
    return (v >> shift) & (((uint64_t)1 << count) - 1);
}

/* Bits [shift, shift + count) of *p = the low bits of v (count + shift <= 8). */
static inline void store_partial(uint8_t *p, unsigned shift, unsigned count, uint64_t v)
{
    const unsigned mask = ((1u << count) - 1) << shift;
    *p = (uint8_t)((*p & ~mask) | (((unsigned)v << shift) & mask));
}

unsigned ndpad_bits_get(const uint8_t *src, int64_t bit, unsigned bits)
{
    return (unsigned)load_bits(byte_of(src, bit), (unsigned)(bit & 7), bits);
}

void ndpad_bits_copy(const ndpad_bits_kernels *k, uint8_t *dst, int64_t dst_bit, const uint8_t *src,
                     int64_t src_bit, int64_t count)
{
    if (count <= 0) return;
    dst += dst_bit >> 3;
    src += src_bit >> 3;
    unsigned d = (unsigned)(dst_bit & 7), s = (unsigned)(src_bit & 7);
    if (d != 0) {
        /* the head: dst's partial first byte */
        const unsigned head = count < 8 - d ? (unsigned)count : 8 - d;
        store_partial(dst, d, head, load_bits(src, s, head));
        dst++;
        count -= head;
        s += head;
        src += s >> 3;
        s &= 7;
    }
    const size_t whole = (size_t)(count >> 3);
    /* the partial last byte before the whole ones: its read must not follow the kernels'
     * masked stores, whose 64-byte span may hold it (a load inside a masked store's span
     * waits until the store has reached the cache: a memory round trip per row) */
    const unsigned tail = (unsigned)(count & 7);
    if (tail != 0) store_partial(dst + whole, 0, tail, load_bits(src + whole, s, tail));
    if (whole > 0) {
        if (s == 0)
            k->copy(dst, src, whole);
        else
            k->shift(dst, src, whole, s);
    }
}

/* Short reversed runs (a border of a few elements): 64 bits at a time through a register. */
#define NDPAD_BITS_WORD_RUN 64

static void copy_reversed_words(uint8_t *dst, int64_t dst_bit, const uint8_t *src, int64_t src_bit,
                                int64_t elems, unsigned bits)
{
    const int64_t per_word = NDPAD_BITS_WORD_RUN / bits;
    for (int64_t done = 0; done < elems;) {
        const int64_t n = elems - done < per_word ? elems - done : per_word;
        const unsigned nbits = (unsigned)(n * bits);
        const int64_t from = src_bit + (elems - done - n) * (int64_t)bits;
        const uint64_t w = ndpad_bits_reverse_word(ndpad_bits_load_word(src, from, nbits), bits);
        ndpad_bits_store_word(dst, dst_bit + done * (int64_t)bits, nbits,
                              nbits == 64 ? w : w >> (64 - nbits));
        done += n;
    }
}

/* Chunks of reversed elements go through two small buffers on the stack: the chunk's bits
 * copied to bit 0 of one, reversed byte by byte into the other (whose bit stream is then
 * the chunk's elements backwards, ending at a byte boundary), then copied into place. */
#define NDPAD_BITS_CHUNK_BYTES 512

void ndpad_bits_copy_reversed(const ndpad_bits_kernels *k, uint8_t *dst, int64_t dst_bit,
                              const uint8_t *src, int64_t src_bit, int64_t elems, unsigned bits)
{
    if (elems <= 0) return;
    if (elems * bits <= 4 * NDPAD_BITS_WORD_RUN) {
        copy_reversed_words(dst, dst_bit, src, src_bit, elems, bits);
        return;
    }
    uint8_t straight[NDPAD_BITS_CHUNK_BYTES], reversed[NDPAD_BITS_CHUNK_BYTES];
    const int64_t chunk_elems = NDPAD_BITS_CHUNK_BYTES * 8 / bits;
    /* the output's elements come from the source's end: chunk c of the output is the
     * source's elements [elems - done - n, elems - done) reversed */
    for (int64_t done = 0; done < elems;) {
        const int64_t n = elems - done < chunk_elems ? elems - done : chunk_elems;
        const int64_t nbits = n * bits;
        const size_t nbytes = (size_t)((nbits + 7) >> 3);
        ndpad_bits_copy(k, straight, 0, src, src_bit + (elems - done - n) * (int64_t)bits, nbits);
        k->reverse(reversed, straight, nbytes, bits);
        ndpad_bits_copy(k, dst, dst_bit + done * (int64_t)bits, reversed,
                        (int64_t)nbytes * 8 - nbits, nbits);
        done += n;
    }
}

void ndpad_bits_fill(uint8_t *dst, int64_t dst_bit, int64_t count, unsigned value, unsigned bits)
{
    if (count <= 0) return;
    dst += dst_bit >> 3;
    const unsigned d = (unsigned)(dst_bit & 7);
    /* the value in every element slot of a byte, rotated to the run's element phase (the
     * run starts d bits into the byte; bits divides 8) */
    const unsigned elem_mask = (1u << bits) - 1;
    unsigned pattern = (value & elem_mask) * (0xFFu / elem_mask);
    const unsigned phase = d % bits;
    if (phase != 0) pattern = ((pattern << phase) | (pattern >> (8 - phase))) & 0xFFu;
    if (d != 0) {
        const unsigned head = count < 8 - d ? (unsigned)count : 8 - d;
        store_partial(dst, d, head, pattern >> d);
        dst++;
        count -= head;
    }
    const size_t whole = (size_t)(count >> 3);
    memset(dst, (int)pattern, whole);
    const unsigned tail = (unsigned)(count & 7);
    if (tail != 0) store_partial(dst + whole, 0, tail, pattern);
}
