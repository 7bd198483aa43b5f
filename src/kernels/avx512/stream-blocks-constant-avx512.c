/* The BLOCKS output-stream kernel of CONSTANT (AVX-512 BW): borders are the pad pattern. */
#define STREAM_TARGET  "avx512f,avx512bw"
#define STREAM_BORDERS 0
#include "kernels/avx512/stream-avx512.h"

__attribute__((target(STREAM_TARGET))) void
ndpad_stream_blocks_constant__avx512(const ndpad_stream *st, const char *in, const int64_t *rows,
                                     int64_t count, char *out, bool nontemporal)
{
    stream_rows(st, in, rows, count, out, nontemporal);
}
