/* Kernel prototypes, the kernel list as data, and the dispatch table: per ISA level and
 * element-size class, one filler per mode plus the interior copies. Every slot is always
 * valid: a level's row starts as its parent's row (the scalar row at the root) and the
 * level's own kernels then overwrite theirs (BLIS `_ref`, then each configuration's). */
#ifndef NDPAD_KERNELS_H
#define NDPAD_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ndpad.h"
#include "status.h"

/* Fill `count` dense elements of `elem_size` bytes at dst from src (see kernels.inc). */
typedef void (*ndpad_fill_fn)(void *restrict dst, const void *restrict src, int64_t count,
                              size_t elem_size);
/* Copy `bytes` bytes (the interior run of a row). The copy_nt slot's kernels leave their
 * non-temporal stores unordered: whoever calls them fences once after the last (the
 * executor, at the end of each tile), not each call (a fence per 1 KiB row waits for memory
 * every row: 3.4x slower on AVX-512). */
typedef void (*ndpad_copy_fn)(void *restrict dst, const void *restrict src, size_t bytes);

/* Sub-byte rows (1-, 2- or 4-bit elements, the first in the low bits of a byte; bits-row.c):
 * the funnel shift, dst[k] = (src[k] >> shift) | (src[k + 1] << (8 - shift)) for k in
 * [0, bytes), shift in [1, 7]: `bytes` whole bytes of a bit stream that starts `shift` bits
 * into src[0]; reads src[0 .. bytes] (bytes + 1 bytes) and nothing else. */
typedef void (*ndpad_bits_shift_fn)(uint8_t *restrict dst, const uint8_t *restrict src,
                                    size_t bytes, unsigned shift);
/* The element reversal of whole bytes: dst[k] = src[bytes - 1 - k] with the order of its
 * elements of `bits` bits (1, 2 or 4) reversed inside the byte, so that the bit stream of
 * dst is the element stream of src backwards. dst and src never overlap in either. */
typedef void (*ndpad_bits_reverse_fn)(uint8_t *restrict dst, const uint8_t *restrict src,
                                      size_t bytes, unsigned bits);

/* Output-stream kernels (stream-plan.h has the description they read): write `count`
 * consecutive output rows starting at `out` (a row start); the source row of output row k
 * starts at in + rows[k], or rows[k] is NDPAD_STREAM_PAD_ROW for a row of pad value
 * (CONSTANT). Offsets, not pointers, so that a plan can hold its rows' list once for every
 * input. `nontemporal`: streaming stores where the kernel has them (a hint). */
typedef struct ndpad_stream ndpad_stream;
typedef void (*ndpad_stream_fn)(const ndpad_stream *stream, const char *in, const int64_t *rows,
                                int64_t count, char *out, bool nontemporal);

#define NDPAD_STREAM_PAD_ROW INT64_MIN

/* Defines the stream kernel `name`, built for `isa_target` (a target attribute), as a call of
 * `body` with its arguments: one line for each level that stamps a kernel body shared
 * between levels (a header of the body, included with that level's settings). */
#define NDPAD_STREAM_KERNEL(name, isa_target, body)                                                \
    __attribute__((target(isa_target))) void name(const ndpad_stream *st, const char *in,          \
                                                  const int64_t *rows, int64_t count, char *out,   \
                                                  bool nontemporal)                                \
    {                                                                                              \
        body(st, in, rows, count, out, nontemporal);                                               \
    }

/* The source row of output row k of a list, or NULL for a row of pad value. */
static inline const char *ndpad_stream_source(const char *in, const int64_t *rows, int64_t k)
{
    return rows[k] == NDPAD_STREAM_PAD_ROW ? NULL : in + rows[k];
}

/* What a stream kernel does. ROWS: row after row in one call, every mode and element size
 * (borders from the per-element source list); the scalar level always has one. BLOCKS:
 * 64-byte output-aligned blocks assembled from the rows that meet them (the byte tables),
 * CONSTANT only or every mode; a level may have none (its slot is then NULL). */
typedef enum ndpad_stream_kind {
    NDPAD_STREAM_ROWS,
    NDPAD_STREAM_BLOCKS_CONSTANT,
    NDPAD_STREAM_BLOCKS,
    NDPAD_STREAM_SHORT_ROWS,     /* rows of at most 64 bytes, each one permutation of a
                                   source window (the byte map); a level may have none */
    NDPAD_STREAM_SHORT_ROWS_16,  /* the same for rows of at most 64 bytes in 16-byte
                                    segments, each a permutation of a 16-byte window */
    NDPAD_STREAM_PLANES,         /* CONSTANT, a dense input: each block the input's next
                                   bytes spread over its lanes by the plane's byte mask
                                   (rows[0] is the batch's first row, stream-plan.h) */
    NDPAD_STREAM_PLANES_16,      /* the same in 16-byte blocks, each one byte shuffle of
                                   the input's next 16 bytes (no expand instruction) */
    NDPAD_STREAM_SHORT_ROWS_128, /* modes that read the input, rows of 65 to 128 bytes: a
                                    row two two-source permutations of a 128-byte window */
    NDPAD_STREAM_PLANES_PERMUTE, /* modes that read the input, a dense input of small
                                    planes of short rows: each block one two-source byte
                                    permute of the input (rows[0] as PLANES's) */
    NDPAD_STREAM_KIND_COUNT
} ndpad_stream_kind;

/* What a filler does; each mode is one of these (ndpad_mode_op). */
typedef enum ndpad_fill_op {
    NDPAD_OP_BROADCAST, /* dst[k] = src[0]  */
    NDPAD_OP_REVERSE,   /* dst[k] = src[-k] */
    NDPAD_OP_FORWARD,   /* dst[k] = src[k]  */
    NDPAD_OP_COUNT
} ndpad_fill_op;

#define NDPAD_MODE_COUNT 5
/* Element-size classes with their own kernels: 1, 2, 4, 8, 16 bytes, and any other. */
#define NDPAD_SIZE_CLASS_COUNT 6

/* THE table from modes to operations: a new mode is a line here, not a kernel. */
NDPAD_INTERNAL extern const ndpad_fill_op ndpad_mode_op[NDPAD_MODE_COUNT];

/* Names of the operations, "broadcast", "reverse", "forward", for tests and benchmarks. */
NDPAD_INTERNAL extern const char *const ndpad_fill_op_names[NDPAD_OP_COUNT];

typedef struct ndpad_kernels {
    ndpad_fill_fn fill[NDPAD_MODE_COUNT];
    const char *fill_name[NDPAD_MODE_COUNT];
    ndpad_copy_fn copy;
    const char *copy_name;
    ndpad_copy_fn copy_nt;
    const char *copy_nt_name;
    ndpad_stream_fn stream[NDPAD_STREAM_KIND_COUNT]; /* NULL: no level supplies that kind */
    const char *stream_name[NDPAD_STREAM_KIND_COUNT];
    int32_t stream_lane[NDPAD_STREAM_KIND_COUNT]; /* its capability (kernels.inc) */
    ndpad_bits_shift_fn bits_shift;               /* sub-byte rows (the same in every size class) */
    const char *bits_shift_name;
    ndpad_bits_reverse_fn bits_reverse;
    const char *bits_reverse_name;
} ndpad_kernels;

#define NDPAD_FILLER(isa, op, elem_bytes, function)                                                \
    NDPAD_INTERNAL void function(void *restrict dst, const void *restrict src, int64_t count,      \
                                 size_t elem_size);
#define NDPAD_COPY(isa, function)                                                                  \
    NDPAD_INTERNAL void function(void *restrict dst, const void *restrict src, size_t bytes);
#define NDPAD_COPY_NT(isa, function) NDPAD_COPY(isa, function)
#define NDPAD_STREAM(isa, kind, lane, function)                                                    \
    NDPAD_INTERNAL void function(const ndpad_stream *stream, const char *in, const int64_t *rows,  \
                                 int64_t count, char *out, bool nontemporal);
#define NDPAD_BITS_SHIFT(isa, function)                                                            \
    NDPAD_INTERNAL void function(uint8_t *restrict dst, const uint8_t *restrict src, size_t bytes, \
                                 unsigned shift);
#define NDPAD_BITS_REVERSE(isa, function)                                                          \
    NDPAD_INTERNAL void function(uint8_t *restrict dst, const uint8_t *restrict src, size_t bytes, \
                                 unsigned bits);
#include "kernels/kernels.inc"
#undef NDPAD_FILLER
#undef NDPAD_COPY
#undef NDPAD_COPY_NT
#undef NDPAD_STREAM
#undef NDPAD_BITS_SHIFT
#undef NDPAD_BITS_REVERSE

/* kernels.inc as data, expanded once (kernel-table.c): the dispatch table is built from it,
 * and the kernel tests and benchmarks walk it, so a new entry is tested and measured. */
typedef struct ndpad_filler_entry {
    ndpad_isa isa;
    ndpad_fill_op op;
    size_t elem_bytes; /* 0: any element size */
    ndpad_fill_fn fn;
    const char *name;
} ndpad_filler_entry;

typedef struct ndpad_copy_entry {
    ndpad_isa isa;
    bool nt; /* the NDPAD_COPY_NT slot (non-temporal stores) */
    ndpad_copy_fn fn;
    const char *name;
} ndpad_copy_entry;

typedef struct ndpad_stream_entry {
    ndpad_isa isa;
    ndpad_stream_kind kind;
    int32_t lane; /* bytes it moves as one (kernels.inc) */
    ndpad_stream_fn fn;
    const char *name;
} ndpad_stream_entry;

/* A sub-byte kernel: the shift or the reversal (one of the two pointers is set). */
typedef struct ndpad_bits_entry {
    ndpad_isa isa;
    bool reverse; /* the NDPAD_BITS_REVERSE slot, else NDPAD_BITS_SHIFT */
    ndpad_bits_shift_fn shift;
    ndpad_bits_reverse_fn reverse_fn;
    const char *name;
} ndpad_bits_entry;

NDPAD_INTERNAL extern const ndpad_filler_entry ndpad_filler_list[];
NDPAD_INTERNAL extern const size_t ndpad_filler_list_count;
NDPAD_INTERNAL extern const ndpad_copy_entry ndpad_copy_list[];
NDPAD_INTERNAL extern const size_t ndpad_copy_list_count;
NDPAD_INTERNAL extern const ndpad_stream_entry ndpad_stream_list[];
NDPAD_INTERNAL extern const size_t ndpad_stream_list_count;
NDPAD_INTERNAL extern const ndpad_bits_entry ndpad_bits_list[];
NDPAD_INTERNAL extern const size_t ndpad_bits_list_count;

/* Element-size class index of `elem_size`: 0..4 for 1, 2, 4, 8, 16 bytes, 5 for any other. */
NDPAD_INTERNAL int ndpad_size_class(size_t elem_size);

/* Whether this build has kernels of its own for `isa` (SCALAR always): a level that lists
 * nothing in kernels.inc was not compiled and is not usable. */
NDPAD_INTERNAL bool ndpad_kernels_built(ndpad_isa isa);

/* The kernels for `isa` (a concrete level, not AUTO) and `elem_size`. Never NULL. */
NDPAD_INTERNAL const ndpad_kernels *ndpad_kernels_select(ndpad_isa isa, size_t elem_size);

#endif
