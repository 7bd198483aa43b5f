/* Kernel prototypes and the dispatch table: per ISA and element-size class, one filler per
 * mode plus the interior copy. Every slot is always valid: the table is filled with the
 * scalar kernels first and ISA kernels then overwrite theirs (BLIS `_ref` then override). */
#ifndef NDPAD_KERNELS_H
#define NDPAD_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "ndpad.h"
#include "status.h"

/* Fill `count` dense elements of `elem_size` bytes at dst from src (see kernels.inc). */
typedef void (*ndpad_fill_fn)(void *restrict dst, const void *restrict src, int64_t count,
                              size_t elem_size);
/* Copy `bytes` bytes (the interior run of a row). */
typedef void (*ndpad_copy_fn)(void *restrict dst, const void *restrict src, size_t bytes);

#define NDPAD_MODE_COUNT 5
/* Element-size classes with their own kernels: 1, 2, 4, 8, 16 bytes, and any other. */
#define NDPAD_SIZE_CLASS_COUNT 6

typedef struct ndpad_kernels {
    ndpad_fill_fn fill[NDPAD_MODE_COUNT];
    const char *fill_name[NDPAD_MODE_COUNT];
    ndpad_copy_fn copy;
    const char *copy_name;
    ndpad_copy_fn copy_stream;
    const char *copy_stream_name;
} ndpad_kernels;

#define NDPAD_FILLER(isa, mode, elem_bytes, function)                                              \
    NDPAD_INTERNAL void function(void *restrict dst, const void *restrict src, int64_t count,      \
                                 size_t elem_size);
#define NDPAD_COPY(isa, function)                                                                  \
    NDPAD_INTERNAL void function(void *restrict dst, const void *restrict src, size_t bytes);
#define NDPAD_COPY_STREAM(isa, function) NDPAD_COPY(isa, function)
#include "kernels/kernels.inc"
#undef NDPAD_FILLER
#undef NDPAD_COPY
#undef NDPAD_COPY_STREAM

/* Element-size class index of `elem_size`: 0..4 for 1, 2, 4, 8, 16 bytes, 5 for any other. */
NDPAD_INTERNAL int ndpad_size_class(size_t elem_size);

/* The kernels for `isa` (a concrete level, not AUTO) and `elem_size`. Never NULL. */
NDPAD_INTERNAL const ndpad_kernels *ndpad_kernels_select(ndpad_isa isa, size_t elem_size);

#endif
