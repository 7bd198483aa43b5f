/*
 * fuzz-common.h — what the ndpad fuzz targets share (zstd's fuzz_data_producer): a reader
 * that turns bytes into structured values (past the end every read is 0, so any prefix of
 * an input is an input too), value tables with the hostile numbers, guarded buffers and the
 * FUZZ_CHECK macro, which describes the problem and aborts, so that libFuzzer records the
 * input and the replay driver fails.
 */
#ifndef NDPAD_FUZZ_COMMON_H
#define NDPAD_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ndpad.h"
#include "ref/ndpad-ref.h"
#include "test-util.h"

/* Every fuzz target defines this. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fuzz_reader {
    const uint8_t *data;
    size_t size;
    size_t pos;
} fuzz_reader;

static inline uint8_t fuzz_u8(fuzz_reader *r)
{
    return r->pos < r->size ? r->data[r->pos++] : 0;
}

static inline bool fuzz_bit(fuzz_reader *r)
{
    return (fuzz_u8(r) & 1) != 0;
}

/* `count` bytes into dst (zeros past the end of the input). */
static inline void fuzz_bytes(fuzz_reader *r, void *dst, size_t count)
{
    unsigned char *p = (unsigned char *)dst;
    for (size_t i = 0; i < count; i++) p[i] = fuzz_u8(r);
}

#define FUZZ_COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* Hostile 64-bit values: limits, powers of two around them, ±2^62. */
static const int64_t fuzz_hostile_i64[16] = {
    INT64_MAX,
    INT64_MIN,
    (int64_t)1 << 62,
    -((int64_t)1 << 62),
    ((int64_t)1 << 62) + 1,
    -((int64_t)1 << 62) - 1,
    (int64_t)1 << 32,
    -((int64_t)1 << 32),
    (int64_t)1 << 31,
    -((int64_t)1 << 31),
    INT64_MAX / 2,
    INT64_MAX / 2 + 1,
    (int64_t)1 << 40,
    -((int64_t)1 << 40),
    INT64_MAX - 1,
    -INT64_MAX,
};

/* Element sizes: mostly what the kernels specialise and a few odd ones; then hostile. */
static inline size_t fuzz_elem_size(fuzz_reader *r)
{
    static const size_t usual[] = {1, 2, 4, 8, 16, 3, 12, 5, 7, 32, 64, 24};
    static const size_t hostile[] =
        {0,    SIZE_MAX, SIZE_MAX / 2 + 1, (size_t)1 << 62, (size_t)PTRDIFF_MAX, (size_t)1 << 40,
         4096, 1000};
    const uint8_t v = fuzz_u8(r);
    if (v < 240) return usual[v % FUZZ_COUNT(usual)];
    return hostile[v % FUZZ_COUNT(hostile)];
}

/* Extents: 0..9 mostly, up to 49 sometimes, hostile rarely. */
static inline int64_t fuzz_extent(fuzz_reader *r)
{
    static const int64_t hostile[] = {-1,
                                      INT64_MIN,
                                      INT64_MAX,
                                      (int64_t)1 << 32,
                                      (int64_t)1 << 31,
                                      (int64_t)1 << 40,
                                      (int64_t)1 << 62,
                                      ((int64_t)1 << 62) + 1,
                                      INT64_MAX / 2,
                                      INT64_MAX / 2 + 1,
                                      -2,
                                      (int64_t)1 << 20,
                                      (int64_t)1 << 33,
                                      3 * ((int64_t)1 << 61),
                                      1000,
                                      100000};
    const uint8_t v = fuzz_u8(r);
    if (v < 200) return v % 10;
    if (v < 240) return 10 + (v - 200);
    return hostile[v % FUZZ_COUNT(hostile)];
}

/* Pads: -20..+39 mostly, hostile rarely. */
static inline int64_t fuzz_pad(fuzz_reader *r)
{
    const uint8_t v = fuzz_u8(r);
    if (v < 240) return (int64_t)(v % 60) - 20;
    return fuzz_hostile_i64[v % 16];
}

/* Interior: 0..3 mostly, hostile rarely. */
static inline int64_t fuzz_interior(fuzz_reader *r)
{
    static const int64_t hostile[] =
        {-1,        INT64_MAX,        (int64_t)1 << 62,       (int64_t)1 << 32,
         INT64_MIN, (int64_t)1 << 31, ((int64_t)1 << 62) - 1, 100};
    const uint8_t v = fuzz_u8(r);
    if (v < 248) return v % 4;
    return hostile[v % FUZZ_COUNT(hostile)];
}

/* A fatal finding: say what and abort (libFuzzer saves the input; replay fails). */
#define FUZZ_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FUZZ FINDING (%s:%d): ", __FILE__, __LINE__);                         \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            fuzz_describe_current();                                                               \
            fflush(stderr);                                                                        \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* Each target defines this: prints the problem it is running. */
static void fuzz_describe_current(void);

/* The statuses a rejected problem may give: any rule the reference found broken; exactly
 * the reference's when it found only one. */
static inline bool fuzz_status_allowed(ndpad_status got, const ndpad_ref_verdict *verdict)
{
    if (got == NDPAD_OK || (int)got < 0 || (int)got >= 32) return false;
    if ((verdict->broken & NDPAD_REF_BIT(got)) == 0) return false;
    const bool single = (verdict->broken & (verdict->broken - 1)) == 0;
    return !single || got == verdict->status;
}

/* ndpad_last_error() after a failure: non-empty, terminated within its 512-byte buffer. */
static inline bool fuzz_last_error_ok(void)
{
    const char *message = ndpad_last_error();
    if (message == NULL || message[0] == '\0') return false;
    return memchr(message, '\0', 512) != NULL;
}

#endif /* NDPAD_FUZZ_COMMON_H */
