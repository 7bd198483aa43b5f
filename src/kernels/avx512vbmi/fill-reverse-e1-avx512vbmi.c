/* Reversed copies of 1-byte elements (REFLECT and SYMMETRIC borders of uint8 tensors) with
 * AVX-512 VBMI: one vpermb per vector, and a run shorter than a vector is one masked load,
 * one vpermb and one masked store (AVX-512 without VBMI swaps in-lane bytes, then lanes, and
 * moves a short run through memory). Built with -mavx512vbmi, so vector-avx512.h's
 * __AVX512VBMI__ paths are the ones compiled here. Every other slot is AVX-512's. */
#include "kernels/avx512/vector-avx512.h"
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"

NDPAD_FILLER_ENTRY(avx512vbmi, reverse, e1, ndpad_reverse_run_avx512(dst, src, count, 1))
