/* The PLANES output-stream kernel (AVX-512 VBMI2): CONSTANT padding of a dense input whose
 * planes are small, such as the 7 x 7 and 14 x 14 feature maps of a CNN in any element
 * size. The output's interior bytes are the input's, in order, so a 64-byte block of the
 * output is the input's next bytes spread over the block's interior lanes: one expanding
 * load (vpexpandb from memory, which reads just the bytes it spreads) over the pad pattern
 * and one aligned store, whatever rows, pad rows and planes the block meets. The lanes come
 * from the plan's mask of the block's place in its plane; the input moves on by their
 * count. Short rows cost no per-row work at all (512 x 7 x 7 uint8, 9-byte rows, one
 * thread: 15x -> 1.2x of a memcpy of the output). The partial blocks at either end of a
 * batch take only the lanes inside it, and store only those: the pad pattern's lanes
 * before the batch belong to another batch, maybe another thread's. */
#include <immintrin.h>

#include "stream-plan.h"

/* The block at `block`, at byte `f` of its plane, `lanes` of it in the batch (interior or
 * pad), from the input at `src`: the input bytes it took. */
static inline __attribute__((always_inline)) int64_t put_partial(const ndpad_stream *st,
                                                                 char *block, int64_t f,
                                                                 uint64_t lanes, const char *src,
                                                                 __m512i pad)
{
    const uint64_t m = st->plane_masks[f] & lanes;
    _mm512_mask_storeu_epi8(block, lanes, _mm512_mask_expandloadu_epi8(pad, m, src));
    return __builtin_popcountll(m);
}

/* The blocks of `count` rows at `out`, starting at row `first` of the output. */
static inline __attribute__((always_inline)) void planes(const ndpad_stream *st, const char *in,
                                                         int64_t first, int64_t count, char *out,
                                                         bool nontemporal)
{
    const int64_t plane_rows = st->plane_rows, plane = st->plane_bytes, step = st->plane_step;
    const uint64_t *const masks = st->plane_masks;
    char *const end = out + count * st->row_bytes;
    const char *src = in + st->plane_source + first / plane_rows * st->plane_in_bytes +
                      st->plane_in_before[first % plane_rows];
    char *block = (char *)((uintptr_t)out & ~(uintptr_t)(NDPAD_STREAM_BLOCK - 1));
    /* the block's place in its plane, and the pad pattern at the blocks' phase (the element
     * size divides 64) */
    int64_t f = (first % plane_rows * st->row_bytes - (out - block)) % plane;
    if (f < 0) f += plane;
    const __m512i pad =
        _mm512_loadu_si512((const void *)(st->pad + (64 - (out - block)) % st->elem_size));
    if (block < out) {
        const uint64_t lanes =
            ndpad_stream_lanes_below(end - block) & ~ndpad_stream_lanes_below(out - block);
        src += put_partial(st, block, f, lanes, src, pad);
        block += NDPAD_STREAM_BLOCK;
        f += step;
        if (f >= plane) f -= plane;
    }
    for (; block + NDPAD_STREAM_BLOCK <= end; block += NDPAD_STREAM_BLOCK) {
        const uint64_t m = masks[f];
        const __m512i v = _mm512_mask_expandloadu_epi8(pad, m, src);
        if (nontemporal)
            _mm512_stream_si512((void *)block, v);
        else
            _mm512_store_si512((void *)block, v);
        src += __builtin_popcountll(m);
        f += step;
        if (f >= plane) f -= plane;
    }
    if (block < end) put_partial(st, block, f, ndpad_stream_lanes_below(end - block), src, pad);
    if (nontemporal) _mm_sfence();
}

/* Output rows rows[0] .. rows[0] + count - 1 (rows[0]: the batch's first row, not a source
 * offset: kernels.h) at `out`. */
void ndpad_stream_planes__avx512vbmi2(const ndpad_stream *st, const char *in, const int64_t *rows,
                                      int64_t count, char *out, bool nontemporal)
{
    if (nontemporal)
        planes(st, in, rows[0], count, out, true);
    else
        planes(st, in, rows[0], count, out, false);
}
