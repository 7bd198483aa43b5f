/* The PLANES_16 output-stream kernel (kernels/stream-planes-16.h) on NEON: a block is one
 * TBX of the input's next 16 bytes into the pad pattern (an index of 0x80 is out of the
 * table's range: TBX keeps the pad byte there). */
#include <arm_neon.h>

#include "kernels/stream-descriptor.h"

#define P16_INLINE static inline __attribute__((always_inline))
typedef uint8x16_t p16_vec;

P16_INLINE p16_vec p16_load_pad(const uint8_t *pad)
{
    return vld1q_u8(pad);
}

P16_INLINE p16_vec p16_block(const char *src, const uint8_t *index, p16_vec pad)
{
    return vqtbx1q_u8(pad, vld1q_u8((const uint8_t *)src), vld1q_u8(index));
}

P16_INLINE void p16_store(void *dst, p16_vec v)
{
    vst1q_u8((uint8_t *)dst, v);
}

#include "kernels/stream-planes-16.h"

void ndpad_stream_planes_16__neon(const ndpad_stream *st, const char *in, const int64_t *rows,
                                  int64_t count, char *out, bool nontemporal)
{
    planes_16_kernel(st, in, rows, count, out, nontemporal);
}
