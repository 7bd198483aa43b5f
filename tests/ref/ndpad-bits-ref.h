/*
 * ndpad-bits-ref.h — the naive reference of sub-byte elements (ndpad.h, "SUB-BYTE
 * ELEMENTS"): one element at a time, get and set by bit position, each output element's
 * source from ndpad_ref_source_index() of every axis. Shares no code with src/.
 */
#ifndef NDPAD_BITS_REF_H
#define NDPAD_BITS_REF_H

#include "ndpad-ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The element of `bits` bits at bit position `bit` of `base` (bit p: bit p % 8 of byte
 *  p / 8, floor division). One bit at a time. */
unsigned ndpad_ref_bits_get(const void *base, int64_t bit, unsigned bits);

/** Sets the element of `bits` bits at bit position `bit` of `base`; no other bit changes. */
void ndpad_ref_bits_set(void *base, int64_t bit, unsigned bits, unsigned value);

/** ndpad_ref_bits_validate() : the rules, in the header's order: NULL problem; reserved;
 *  elem_bits; in_bit_offset, out_bit_offset; part 1's rules with elem_size 1; the innermost
 *  strides; the reach of the bit positions. `verdict` may be NULL. */
ndpad_status ndpad_ref_bits_validate(const ndpad_bits_problem *p, ndpad_ref_verdict *verdict);

/** ndpad_ref_bits_pad() : the output, element by element (validation and buffer rules as
 *  ndpad_ref_pad()). `in` and `out` must not overlap. */
ndpad_status ndpad_ref_bits_pad(const ndpad_bits_problem *p, const void *in, void *out);

/** The problem as one reproducible line. */
void ndpad_ref_bits_print_problem(FILE *f, const ndpad_bits_problem *p);

#ifdef __cplusplus
}
#endif

#endif
