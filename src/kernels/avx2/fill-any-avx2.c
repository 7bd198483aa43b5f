/* Any element size with AVX2: the generic fillers of filler-entries.h over 32-byte
 * vectors and this ISA's short forward copy. */
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"
#include "kernels/avx2/vector-avx2.h"

NDPAD_DEFINE_ANY_FILLERS(avx2, 32, ndpad_copy_short_avx2)
