/* The BLOCKS output-stream kernel of every mode (AVX-512 BW + VBMI's vpermb for borders). */
#define STREAM_TARGET  "avx512f,avx512bw,avx512vbmi"
#define STREAM_BORDERS 1
#include "kernels/avx512/stream-avx512.h"

__attribute__((target(STREAM_TARGET))) void
ndpad_stream_blocks__avx512vbmi(const ndpad_stream *st, const char *in, const int64_t *rows,
                                int64_t count, char *out, bool nontemporal)
{
    stream_rows(st, in, rows, count, out, nontemporal);
}
