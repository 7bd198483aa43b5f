/* The BLOCKS output-stream kernel of CONSTANT (AVX-512 BW): borders are the pad pattern. */
#define STREAM_TARGET  "avx512f,avx512bw"
#define STREAM_BORDERS 0
#include "kernels/avx512/stream-blocks-avx512.h"

NDPAD_STREAM_KERNEL(ndpad_stream_blocks_constant__avx512, STREAM_TARGET, stream_rows)
