/* The ROWS output-stream kernel (kernels/stream-rows.h) with 32-byte moves. */
#define STREAM_ROWS_CHUNK 32
#include "kernels/stream-rows.h"

NDPAD_DEFINE_STREAM_ROWS(ndpad_stream_rows__neon)
