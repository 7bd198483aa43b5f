/* The PLANES output-stream kernel of AVX-512 F: elements of whole 4-byte lanes (fp32, int32,
 * fp64), one vpexpandd load a block (stream-planes-avx512.h). */
#define PLANES_TARGET "avx512f,avx512bw,avx512vl"
#define PLANES_LANE   4
#include "kernels/avx512/stream-planes-avx512.h"

NDPAD_STREAM_KERNEL(ndpad_stream_planes__avx512, PLANES_TARGET, planes_kernel)
