/* The sub-byte kernels of each ISA level (kernels/bits-kernels.h): the table's slots, filled
 * from kernels.inc with the parent-first inheritance of every kernel (kernel-table.c). */
#include "kernels/bits-kernels.h"

ndpad_bits_kernels ndpad_bits_kernels_select(ndpad_isa isa)
{
    /* whole bytes: the byte rows' interior copy (aligned stores for rows of a few KiB) */
    const ndpad_kernels *row = ndpad_kernels_select(isa, 1);
    const ndpad_bits_kernels k = {row->bits_shift, row->bits_reverse, row->copy};
    return k;
}
