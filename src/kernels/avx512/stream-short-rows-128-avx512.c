/* The SHORT_ROWS_128 output-stream kernel of AVX-512 F: elements of whole 4-byte lanes
 * (fp32, int32, fp64), two vpermt2d a row (stream-short-rows-128-avx512.h). */
#define SR128_TARGET "avx512f,avx512bw,avx512vl"
#define SR128_LANE   4
#include "kernels/avx512/stream-short-rows-128-avx512.h"

NDPAD_STREAM_KERNEL(ndpad_stream_short_rows_128__avx512, SR128_TARGET, short_rows_128)
