/* The PLANES output-stream kernel of AVX-512 VBMI2: any element size, one vpexpandb load a
 * block (stream-planes-avx512.h). */
#define PLANES_TARGET "avx512f,avx512bw,avx512vl,avx512vbmi2,popcnt"
#define PLANES_LANE   1
#include "kernels/avx512/stream-planes-avx512.h"

__attribute__((target(PLANES_TARGET))) void
ndpad_stream_planes__avx512vbmi2(const ndpad_stream *st, const char *in, const int64_t *rows,
                                 int64_t count, char *out, bool nontemporal)
{
    planes_kernel(st, in, rows, count, out, nontemporal);
}
