/* The ROWS output-stream kernel (kernels/stream-rows.h) with 64-byte moves. */
#define STREAM_ROWS_CHUNK 64
#include "kernels/stream-rows.h"

NDPAD_DEFINE_STREAM_ROWS(ndpad_stream_rows__avx512)
