/* The PLANES output-stream kernel of AVX-512 F: elements of whole 4-byte lanes (fp32, int32,
 * fp64), one vpexpandd load a block (stream-planes-avx512.h). */
#define PLANES_TARGET "avx512f,avx512bw,avx512vl"
#define PLANES_LANE   4
#include "kernels/avx512/stream-planes-avx512.h"

__attribute__((target(PLANES_TARGET))) void
ndpad_stream_planes__avx512(const ndpad_stream *st, const char *in, const int64_t *rows,
                            int64_t count, char *out, bool nontemporal)
{
    planes_kernel(st, in, rows, count, out, nontemporal);
}
