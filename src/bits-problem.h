/* Validation of an ndpad_bits_problem (ndpad.h, "SUB-BYTE ELEMENTS"): the bit rules, then
 * every rule of part 1 on the same problem counted in elements. */
#ifndef NDPAD_BITS_PROBLEM_H
#define NDPAD_BITS_PROBLEM_H

#include "problem.h"

/* A sub-byte problem that passed every rule. core.elem_size is 1 (strides and spans of
 * core are in elements); the element is `bits` bits. */
typedef struct ndpad_bits_valid {
    ndpad_valid_problem core;
    unsigned bits;
    int64_t in_bit_offset, out_bit_offset;
    unsigned pad_value; /* the low `bits` bits of the pad byte, 0 when none is read */
} ndpad_bits_valid;

NDPAD_INTERNAL ndpad_status ndpad_bits_validate(const ndpad_bits_problem *problem,
                                                const char *caller, ndpad_bits_valid *valid);

#endif
