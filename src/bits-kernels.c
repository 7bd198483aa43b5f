/* The sub-byte kernels of each ISA level (kernels/bits-kernels.h): a level's own where it
 * has them, else its parent's, down to the scalar ones, as kernel-table.c does for the byte
 * kernels. The chain is short and explicit: which level has which of the two kernels. */
#include "kernels/bits-kernels.h"

#include "kernels/kernels.h"

ndpad_bits_kernels ndpad_bits_kernels_select(ndpad_isa isa)
{
    /* whole bytes: the byte rows' interior copy (aligned stores for rows of a few KiB) */
    ndpad_bits_kernels k = {ndpad_bits_shift__scalar, ndpad_bits_reverse__scalar,
                            ndpad_kernels_select(isa, 1)->copy};
    switch (isa) {
    case NDPAD_ISA_AVX512_VBMI2:
#ifdef NDPAD_HAVE_AVX512VBMI2
        k.shift = ndpad_bits_shift__avx512vbmi2;
#endif
        /* fall through */
    case NDPAD_ISA_AVX512_VBMI:
#ifdef NDPAD_HAVE_AVX512VBMI
        k.reverse = ndpad_bits_reverse__avx512vbmi;
#endif
        /* fall through */
    case NDPAD_ISA_AVX512:
#ifdef NDPAD_HAVE_AVX512
        if (k.shift == ndpad_bits_shift__scalar) k.shift = ndpad_bits_shift__avx512;
#endif
        /* fall through */
    case NDPAD_ISA_AVX2:
#ifdef NDPAD_HAVE_AVX2
        if (k.shift == ndpad_bits_shift__scalar) k.shift = ndpad_bits_shift__avx2;
        if (k.reverse == ndpad_bits_reverse__scalar) k.reverse = ndpad_bits_reverse__avx2;
#endif
        break;
    case NDPAD_ISA_NEON:
#ifdef NDPAD_HAVE_NEON
        k.shift = ndpad_bits_shift__neon;
        k.reverse = ndpad_bits_reverse__neon;
#endif
        break;
    default: break;
    }
    return k;
}
