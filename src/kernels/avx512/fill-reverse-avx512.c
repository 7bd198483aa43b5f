/* Reversed copies (REFLECT and SYMMETRIC borders) with AVX-512, reversed in registers
 * (vpshufb + vshufi64x2, vpermw, vpermd, vpermq; vpermb is the avx512vbmi level's). The modes
 * differ only in which element the run starts from, which the executor decides. */
#include "kernels/avx512/vector-avx512.h"
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"

NDPAD_DEFINE_FAST_FILLERS(avx512, reverse, ndpad_reverse_run_avx512)
