/* The PLANES output-stream kernel of AVX-512 VBMI2: any element size, one vpexpandb load a
 * block (stream-planes-avx512.h). */
#define PLANES_TARGET "avx512f,avx512bw,avx512vl,avx512vbmi2,popcnt"
#define PLANES_LANE   1
#include "kernels/avx512/stream-planes-avx512.h"

NDPAD_STREAM_KERNEL(ndpad_stream_planes__avx512vbmi2, PLANES_TARGET, planes_kernel)
