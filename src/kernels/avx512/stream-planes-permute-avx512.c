/* The PLANES_PERMUTE output-stream kernel of AVX-512 (F and BW): elements of whole 2- or
 * 4-byte lanes, one vpermt2w or vpermt2d a block (stream-planes-permute-avx512.h). */
#define PERMUTE_TARGET "avx512f,avx512bw,avx512vl"
#define PERMUTE_BYTES  0
#include "kernels/avx512/stream-planes-permute-avx512.h"

NDPAD_STREAM_KERNEL(ndpad_stream_planes_permute__avx512, PERMUTE_TARGET, planes_permute_kernel)
