/* The ROWS output-stream kernel (kernels/stream-rows.h) with 16-byte moves: the portable
 * reference of the stream kernels, and the stream path of levels without a vector one. */
#define STREAM_ROWS_CHUNK 16
#include "kernels/stream-rows.h"

NDPAD_DEFINE_STREAM_ROWS(ndpad_stream_rows__scalar)
