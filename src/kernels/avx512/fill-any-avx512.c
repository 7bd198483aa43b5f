/* Any element size with AVX-512: the generic fillers of filler-entries.h over 64-byte
 * vectors and this ISA's short forward copy. */
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"
#include "kernels/avx512/vector-avx512.h"

NDPAD_DEFINE_ANY_FILLERS(avx512, 64, ndpad_copy_short_avx512)
