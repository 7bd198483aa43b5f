/* Walking the elements of a strided tensor, for the tests and fuzzers that build inputs with
 * any strides (the in-place cases among them) and hand the reference a dense copy. */
#ifndef NDPAD_TEST_STRIDED_H
#define NDPAD_TEST_STRIDED_H

#include <stdint.h>
#include <string.h>

#include "ndpad.h"
#include "ref/ndpad-ref.h"
#include "test-util.h"

/* Element offset (in elements) of the next element after `index` in row-major order; steps
 * `index` on. */
static inline int64_t test_strided_offset(int32_t rank, const int64_t *shape,
                                          const int64_t *strides, int64_t *index)
{
    int64_t offset = 0;
    for (int32_t k = 0; k < rank; k++) offset += index[k] * strides[k];
    for (int32_t k = rank - 1; k >= 0; k--) {
        if (++index[k] < shape[k]) break;
        index[k] = 0;
    }
    return offset;
}

/* Random bytes into every element of the tensor `shape` / `strides` at `base`. */
static inline void test_fill_strided(test_rng *rng, unsigned char *base, int32_t rank,
                                     const int64_t *shape, const int64_t *strides, size_t es)
{
    int64_t index[NDPAD_MAX_RANK] = {0};
    const int64_t count = test_count(rank, shape);
    for (int64_t e = 0; e < count; e++)
        test_rng_bytes(rng, base + test_strided_offset(rank, shape, strides, index) * (int64_t)es,
                       es);
}

/* Copies the input elements of `p` (strided, at `in`) into the dense buffer `dense`. */
static inline void test_gather_dense(const ndpad_problem *p, const unsigned char *in,
                                     unsigned char *dense)
{
    const size_t es = p->elem_size;
    int64_t strides[NDPAD_MAX_RANK], index[NDPAD_MAX_RANK] = {0};
    if (p->in_strides)
        memcpy(strides, p->in_strides, sizeof(int64_t) * (size_t)p->rank);
    else
        ndpad_ref_dense_strides(p->rank, p->shape, strides);
    const int64_t count = test_count(p->rank, p->shape);
    for (int64_t e = 0; e < count; e++)
        memcpy(dense + e * (int64_t)es,
               in + test_strided_offset(p->rank, p->shape, strides, index) * (int64_t)es, es);
}

#endif
