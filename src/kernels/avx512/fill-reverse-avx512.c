/* REFLECT and SYMMETRIC borders with AVX-512: reversed copies of the input next to the edge,
 * reversed in registers (vpermb or vpshufb + vshufi64x2, vpermw, vpermd, vpermq). The modes
 * differ only in which element the run starts from, which the executor decides. */
#include "kernels/avx512/vector-avx512.h"
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"

NDPAD_DEFINE_REVERSE_FILLERS(avx512, ndpad_reverse_run_avx512)
