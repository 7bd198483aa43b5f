/* The ROWS output-stream kernel (kernels/stream-rows.h) with 32-byte moves. */
#include <immintrin.h>

#define STREAM_ROWS_CHUNK 32
#define STREAM_ROWS_MOVE_CHUNK(d, s)                                                               \
    _mm256_storeu_si256((__m256i *)(void *)(d),                                                    \
                        _mm256_loadu_si256((const __m256i *)(const void *)(s)))
#include "kernels/stream-rows.h"

NDPAD_DEFINE_STREAM_ROWS(ndpad_stream_rows__avx2)
