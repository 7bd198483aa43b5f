/* Wisdom: the per-machine cache of tuned tile shapes, keyed by problem class. The table
 * lives in wisdom-cache.c, the file format and file handling in wisdom-file.c, the keys
 * and machine fingerprint in wisdom-key.c, warnings in wisdom-log.c; the measuring engine
 * that fills it is measure.c. The file format is documented in tuning/wisdom-format.md. */
#ifndef NDPAD_WISDOM_H
#define NDPAD_WISDOM_H

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"

/* 4: class lines carry the interior copy and the executor path (3 and 2 still read). */
#define NDPAD_WISDOM_VERSION 5

/* A problem class: what tuned tiles are remembered by. */
typedef struct ndpad_wisdom_key {
    int32_t mode;
    int32_t esize;    /* element size of the normalised plan, bytes */
    int32_t rank;     /* normalised rank (plan->ndim)                */
    int32_t out_log2; /* floor(log2(output bytes))                   */
    int32_t row_log2; /* floor(log2(output row bytes))               */
    int32_t isa;      /* ndpad_isa of the plan                       */
    int32_t nthr;     /* the plan's thread budget (plan->max_threads): a 1-thread plan
                          and an all-cores plan are tuned apart, as FFTW keys by nthr */
} ndpad_wisdom_key;

NDPAD_INTERNAL ndpad_wisdom_key ndpad_wisdom_key_of(const ndpad_plan *plan);

/* Formats the key as "mode=.. esize=.. rank=.. out=.. row=.. isa=.. nthr=..". */
NDPAD_INTERNAL void ndpad_wisdom_key_format(const ndpad_wisdom_key *key, char *buf, size_t size);

NDPAD_INTERNAL bool ndpad_wisdom_key_equal(const ndpad_wisdom_key *a, const ndpad_wisdom_key *b);

/* The machine fingerprint line (without "machine "), computed once. */
NDPAD_INTERNAL const char *ndpad_wisdom_fingerprint(void);

/* The tile remembered for `key` (the default file is loaded on first use). */
NDPAD_INTERNAL bool ndpad_wisdom_lookup(const ndpad_wisdom_key *key, ndpad_tile *tile);

/* Remember `tile` for `key` in memory (replacing an older entry). */
NDPAD_INTERNAL void ndpad_wisdom_store(const ndpad_wisdom_key *key, ndpad_tile tile, double gbps);

/* Merge with and atomically rewrite `path` (NULL: the default path): ndpad_wisdom_save_file
 * with `caller` naming the entry point in ndpad_last_error(). */
NDPAD_INTERNAL ndpad_status ndpad_wisdom_save_for(const char *path, const char *caller);

/* Record `text` as the last wisdom warning and pass it to the log callback. */
NDPAD_INTERNAL void ndpad_wisdom_warn(const char *text);

#endif
