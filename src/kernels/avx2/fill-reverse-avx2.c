/* Reversed copies (REFLECT and SYMMETRIC borders) with AVX2, reversed in registers
 * (vpshufb + vperm2i128, vpermd, vpermq). The modes differ only in which element the run
 * starts from, which the executor decides. */
#include "kernels/avx2/vector-avx2.h"
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"

NDPAD_DEFINE_FAST_FILLERS(avx2, reverse, ndpad_reverse_run_avx2)
