/*
 * test-util.h — small helpers shared by the ndpad tests: a seeded generator, sentinel
 * buffers, byte comparisons that say where they differ, and integer elements of any size.
 * Everything is static inline so that each test stays one translation unit plus the
 * reference.
 */
#ifndef NDPAD_TEST_UTIL_H
#define NDPAD_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ndpad.h"

/* Bytes that no test writes on purpose: a store the problem does not name shows up. */
#define TEST_SENTINEL 0xA5
#define TEST_GUARD    64

/* ---- seeded generator (splitmix64: every index reproducible on its own) -------------- */

typedef struct test_rng {
    uint64_t state;
} test_rng;

static inline uint64_t test_rng_next(test_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline test_rng test_rng_make(uint64_t seed, uint64_t stream)
{
    test_rng r = {seed ^ (stream * 0xD1B54A32D192ED03ull)};
    test_rng_next(&r);
    return r;
}

/* uniform in [lo, hi] */
static inline int64_t test_rng_range(test_rng *r, int64_t lo, int64_t hi)
{
    const uint64_t span = (uint64_t)(hi - lo) + 1;
    return lo + (int64_t)(span == 0 ? test_rng_next(r) : test_rng_next(r) % span);
}

/* true with probability num/den */
static inline bool test_rng_chance(test_rng *r, int num, int den)
{
    return (int)(test_rng_next(r) % (uint64_t)den) < num;
}

static inline void test_rng_bytes(test_rng *r, void *buf, size_t size)
{
    unsigned char *p = (unsigned char *)buf;
    for (size_t i = 0; i < size; i++) p[i] = (unsigned char)test_rng_next(r);
}

/* ---- buffers ------------------------------------------------------------------------- */

static inline void *test_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory (%zu bytes)\n", size);
        abort();
    }
    return p;
}

static inline bool test_all_bytes_are(const void *buf, size_t size, unsigned char value)
{
    const unsigned char *p = (const unsigned char *)buf;
    for (size_t i = 0; i < size; i++)
        if (p[i] != value) return false;
    return true;
}

/* Index of the first differing byte, or -1. */
static inline ptrdiff_t test_first_difference(const void *a, const void *b, size_t size)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    for (size_t i = 0; i < size; i++)
        if (x[i] != y[i]) return (ptrdiff_t)i;
    return -1;
}

/* Prints up to `max` differing bytes of expected/actual around the first difference. */
static inline void test_print_difference(FILE *f, const void *expected, const void *actual,
                                         size_t size, ptrdiff_t origin)
{
    const ptrdiff_t first = test_first_difference(expected, actual, size);
    if (first < 0) return;
    size_t count = 0;
    for (size_t i = 0; i < size; i++)
        count += ((const unsigned char *)expected)[i] != ((const unsigned char *)actual)[i];
    fprintf(f, "  %zu byte(s) differ; first at byte %td (offset %td from element [0..0])\n", count,
            first, first - origin);
    const ptrdiff_t from = first >= 8 ? first - 8 : 0;
    const ptrdiff_t to = (size_t)(first + 24) < size ? first + 24 : (ptrdiff_t)size;
    fprintf(f, "  expected:");
    for (ptrdiff_t i = from; i < to; i++) fprintf(f, " %02x", ((const unsigned char *)expected)[i]);
    fprintf(f, "\n  actual:  ");
    for (ptrdiff_t i = from; i < to; i++) fprintf(f, " %02x", ((const unsigned char *)actual)[i]);
    fprintf(f, "\n  (bytes %td .. %td)\n", from, to - 1);
}

/* A buffer with TEST_GUARD sentinel bytes on both sides of its body: a store (or, for an
 * input, a change) outside the body shows up. The cmocka tests and the fuzzers share it. */
typedef struct test_out {
    unsigned char *alloc;
    unsigned char *body;
    size_t size; /* bytes of the body */
} test_out;

static inline test_out test_out_make(size_t body_size)
{
    test_out o;
    o.size = body_size;
    o.alloc = (unsigned char *)test_xmalloc(body_size + 2 * TEST_GUARD);
    memset(o.alloc, TEST_SENTINEL, body_size + 2 * TEST_GUARD);
    o.body = o.alloc + TEST_GUARD;
    return o;
}

/* Bytes of the whole allocation, guards included. */
static inline size_t test_out_alloc_size(const test_out *o)
{
    return o->size + 2 * TEST_GUARD;
}

static inline void test_out_free(test_out *o)
{
    free(o->alloc);
    o->alloc = o->body = NULL;
}

/* ---- integer elements of any size ----------------------------------------------------- */

/* The element of `elem_size` bytes that stands for the integer v: int8/int16/int32/int64
 * for 1/2/4/8, and for 16 a pair of int64 {v, -1000003 v} so that a copy of only the first
 * half is caught (0 stays all zero bytes: the default pad value). */
static inline void test_int_element(int64_t v, size_t elem_size, void *dst)
{
    switch (elem_size) {
    case 1: {
        const int8_t x = (int8_t)v;
        memcpy(dst, &x, 1);
        break;
    }
    case 2: {
        const int16_t x = (int16_t)v;
        memcpy(dst, &x, 2);
        break;
    }
    case 4: {
        const int32_t x = (int32_t)v;
        memcpy(dst, &x, 4);
        break;
    }
    case 8: {
        memcpy(dst, &v, 8);
        break;
    }
    case 16: {
        const int64_t x[2] = {v, -1000003 * v};
        memcpy(dst, x, 16);
        break;
    }
    default: abort();
    }
}

static inline void test_int_elements(const int64_t *values, size_t count, size_t elem_size,
                                     void *dst)
{
    for (size_t i = 0; i < count; i++)
        test_int_element(values[i], elem_size, (char *)dst + i * elem_size);
}

/* ---- problems ------------------------------------------------------------------------- */

static inline int64_t test_count(int32_t rank, const int64_t *extents)
{
    for (int32_t k = 0; k < rank; k++)
        if (extents[k] == 0) return 0; /* the other extents may then be huge */
    int64_t c = 1;
    for (int32_t k = 0; k < rank; k++) c *= extents[k];
    return c;
}

static inline bool test_contains(const char *haystack, const char *needle)
{
    return haystack != NULL && needle != NULL && strstr(haystack, needle) != NULL;
}

#endif /* NDPAD_TEST_UTIL_H */
