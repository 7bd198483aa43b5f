/* The PLANES_PERMUTE output-stream kernel of AVX-512 VBMI: lanes of a byte, any element
 * size, one vpermt2b a block (avx512/stream-planes-permute-avx512.h). */
#define PERMUTE_TARGET "avx512f,avx512bw,avx512vl,avx512vbmi"
#define PERMUTE_BYTES  1
#include "kernels/avx512/stream-planes-permute-avx512.h"

NDPAD_STREAM_KERNEL(ndpad_stream_planes_permute__avx512vbmi, PERMUTE_TARGET, planes_permute_kernel)
