/* The SHORT_ROWS_128 output-stream kernel of AVX-512 VBMI: any element size, two vpermt2b
 * a row (avx512/stream-short-rows-128-avx512.h). */
#define SR128_TARGET "avx512f,avx512bw,avx512vl,avx512vbmi"
#define SR128_LANE   1
#include "kernels/avx512/stream-short-rows-128-avx512.h"

NDPAD_STREAM_KERNEL(ndpad_stream_short_rows_128__avx512vbmi, SR128_TARGET, short_rows_128)
