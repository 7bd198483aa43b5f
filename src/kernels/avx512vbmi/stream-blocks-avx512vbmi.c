/* The BLOCKS output-stream kernel of every mode (AVX-512 BW + VBMI's vpermb for borders). */
#define STREAM_TARGET  "avx512f,avx512bw,avx512vbmi"
#define STREAM_BORDERS 1
#include "kernels/avx512/stream-blocks-avx512.h"

NDPAD_STREAM_KERNEL(ndpad_stream_blocks__avx512vbmi, STREAM_TARGET, stream_rows)
