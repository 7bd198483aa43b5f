/* The one-shot plan cache: a few slots of static storage (no allocation, so nothing to
 * free at exit and nothing for the allocation tests to count), each a plan copied by value
 * with the exact bytes of the problem it was made for. A hit copies the plan out under the
 * lock and the caller executes its copy: a slot may be replaced meanwhile without harm.
 * The output-stream tables are copied too (held in the slot), or rebuilt on the copy when
 * they are too large to hold: a cached plan takes the same path as a fresh one.
 * Slots are compared with memcmp, which leaves at the first differing word (a byte-wise
 * hash of the ~300-byte key cost 0.5 us: more than the planning it saves).
 *
 * What the key holds is everything a default-options plan depends on: every field and
 * array of the problem (and CONSTANT's pad value: other modes never read it), the OpenMP
 * thread budget, the calling thread's host pool, and the environment variables the planner
 * reads (NDPAD_ISA, NDPAD_TUNING, NDPAD_STREAM, NDPAD_THREADS_FIXED). The wisdom may
 * change between calls (import, forget, a tuner in another thread): a slot remembers what
 * the wisdom said for its plan's class, and a hit whose answer differs now is a miss. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "plan-cache.h"
#include "stream-plan.h"
#include "tile-choice.h"
#include "wisdom.h"

#define SLOTS 8
/* PLANES_PERMUTE's tables are held whole (stream-plan.h). */
_Static_assert(sizeof(ndpad_stream) + NDPAD_STREAM_MAX_PERMUTE_PHASES * (4 + NDPAD_STREAM_BLOCK) <=
                   NDPAD_PLAN_CACHE_STREAM,
               "the plan cache holds PLANES_PERMUTE's tables");
/* Planning costs well under a microsecond: above this output size it is lost in the copy. */
#define CACHE_MAX_OUTPUT_BYTES ((int64_t)1 << 20)
#define ENV_CHARS              16
/* The most bytes of constants' values a key holds (more: not cached). */
#define CONSTS_KEY_BYTES 1024

typedef struct cache_key {
    int32_t rank, mode;
    uint64_t elem_size;
    int32_t threads;        /* omp_get_max_threads(): the default budget follows it */
    int32_t threads_cap;    /* ndpad_set_default_threads()'s cap: so does it           */
    uint32_t arrays;        /* bit k: array k given (interior, strides)             */
    char env[4][ENV_CHARS]; /* NDPAD_ISA, NDPAD_TUNING, NDPAD_STREAM,
                               NDPAD_THREADS_FIXED (truncated)                       */
    /* the calling thread's host pool (ndpad_set_thread_pool()), zeros for none: a plan
     * made for one pool never runs a call made with another */
    ndpad_parallel_for_fn pool_for;
    void *pool_context;
    int64_t pool_threads;
    unsigned char pad[NDPAD_PLAN_CACHE_PAD];
    int64_t values[6 * NDPAD_MAX_RANK]; /* shape, pads, interior, strides: rank each    */
    /* constants per side or index: compared only for their keys (which are longer than any
     * other, so never equal to one), the problem's pad value then unread and left out */
    int32_t consts_kind, consts_axis;
    unsigned char consts_values[CONSTS_KEY_BYTES];
} cache_key;

typedef struct cache_slot {
    bool used;
    size_t key_bytes;
    cache_key key;
    ndpad_plan plan;
    unsigned char pad[NDPAD_PLAN_CACHE_PAD];
    ndpad_wisdom_key wisdom_key;
    bool wisdom_found; /* what the wisdom said for the class when planned     */
    ndpad_tile wisdom_tile;
    _Alignas(16) unsigned char stream[NDPAD_PLAN_CACHE_STREAM];
    _Alignas(16) unsigned char consts[NDPAD_PLAN_CACHE_CONSTS]; /* plan.consts, if any */
    bool stream_held;    /* plan.stream points to `stream`                          */
    bool stream_rebuild; /* the plan had tables too large to hold: rebuild on a hit */
} cache_slot;

static pthread_mutex_t cache_mutex = PTHREAD_MUTEX_INITIALIZER;
static cache_slot slots[SLOTS];
static unsigned next_victim;

/* fork() while another thread holds the mutex would leave it locked forever in the child:
 * held across the fork, released on both sides. A leaf lock (nothing is taken under it):
 * its handler is registered early (priority 101) so that its prepare step runs after those
 * of the locks held while others are taken (fork runs prepare steps in reverse order). */
static void cache_mutex_prepare(void)
{
    pthread_mutex_lock(&cache_mutex);
}
static void cache_mutex_release(void)
{
    pthread_mutex_unlock(&cache_mutex);
}

__attribute__((constructor(101))) static void cache_mutex_watch_forks(void)
{
    (void)pthread_atfork(cache_mutex_prepare, cache_mutex_release, cache_mutex_release);
}

/* Whether any axis of `p` has an empty output (or one too large to tell): such a problem
 * is not cached, so that nothing of it is read that its plan does not need (CONSTANT's
 * pad value, for one). */
static bool output_may_be_empty(const ndpad_problem *p)
{
    for (int32_t k = 0; k < p->rank; k++) {
        const int64_t d = p->shape[k], r = p->interior != NULL ? p->interior[k] : 0;
        int64_t dilated = d, n;
        if (d < 0 || r < 0) return true;
        if (d > 1 && (__builtin_mul_overflow(d - 1, r, &dilated) ||
                      __builtin_add_overflow(dilated, d, &dilated)))
            return true;
        if (__builtin_add_overflow(dilated, p->pads_begin[k], &n) ||
            __builtin_add_overflow(n, p->pads_end[k], &n) || n <= 0)
            return true;
    }
    return false;
}

static void env_copy(char *dst, const char *name)
{
    const char *v = getenv(name);
    memset(dst, 0, ENV_CHARS);
    /* a longer value is not one the planner knows: any such value plans alike */
    if (v != NULL)
        strncpy(dst, v, ENV_CHARS - 1);
    else
        dst[ENV_CHARS - 1] = 1;
}

/* The key of `problem` in *key and its used size, or 0 when the problem is not cached
 * (malformed: the planner reports it; or a pad value larger than a key holds). */
static size_t make_key(const ndpad_problem *p, cache_key *key)
{
    if (p == NULL || p->rank < 0 || p->rank > NDPAD_MAX_RANK || p->elem_size < 1 ||
        p->elem_size > NDPAD_PLAN_CACHE_PAD)
        return 0;
    if (p->rank > 0 && (p->shape == NULL || p->pads_begin == NULL || p->pads_end == NULL)) return 0;
    /* The pad value is read only for CONSTANT with an output (as the planner reads it). */
    const bool constant = p->mode == NDPAD_CONSTANT;
    if (constant && p->pad_value != NULL && output_may_be_empty(p)) return 0;
    const size_t bytes = offsetof(cache_key, values) + 6 * (size_t)p->rank * sizeof(int64_t);
    memset(key, 0, bytes); /* absent arrays and padding compare equal */
    key->rank = p->rank;
    key->mode = p->mode;
    key->elem_size = p->elem_size;
    /* What the default budget follows besides the machine (read once per process): not
     * ndpad_default_threads() itself, whose first call reads the topology (allocates). */
#ifdef _OPENMP
    key->threads = omp_get_max_threads();
#endif
    key->threads_cap = ndpad_default_threads_cap();
    env_copy(key->env[0], "NDPAD_ISA");
    env_copy(key->env[1], "NDPAD_TUNING");
    env_copy(key->env[2], "NDPAD_STREAM");
    env_copy(key->env[3], "NDPAD_THREADS_FIXED");
    const ndpad_thread_pool *pool = ndpad_thread_pool_current();
    if (pool != NULL) {
        key->pool_for = pool->parallel_for;
        key->pool_context = pool->context;
        key->pool_threads = pool->threads;
    }
    if (constant && p->pad_value != NULL)
        memcpy(key->pad, p->pad_value, p->elem_size);
    else
        key->arrays |= 1u << 6;
    const int64_t *const arrays[6] = {p->shape,    p->pads_begin, p->pads_end,
                                      p->interior, p->in_strides, p->out_strides};
    const size_t r = (size_t)p->rank;
    for (int k = 0; k < 6; k++) {
        if (arrays[k] == NULL) continue;
        key->arrays |= 1u << k;
        memcpy(key->values + k * r, arrays[k], r * sizeof(int64_t));
    }
    return bytes;
}

/* The key of a plan with constants per side or index, or 0 when it is not cached (a
 * problem the planner will refuse, an output that may be empty, too many values). */
static size_t make_key_consts(const ndpad_problem *p, int32_t kind, int32_t axis,
                              const void *values, cache_key *key)
{
    if (p == NULL || values == NULL || p->mode != NDPAD_CONSTANT || p->rank < 1 ||
        p->rank > NDPAD_MAX_RANK || p->shape == NULL || p->pads_begin == NULL ||
        p->pads_end == NULL || p->elem_size < 1 || p->elem_size > NDPAD_PLAN_CACHE_PAD)
        return 0;
    if (kind == NDPAD_CONSTS_SIDES && p->interior != NULL) return 0; /* the planner decides */
    if (kind == NDPAD_CONSTS_INDEX && (axis < 0 || axis >= p->rank)) return 0;
    if (output_may_be_empty(p)) return 0; /* also: every extent below fits int64 */
    /* The values are read only for a valid problem (an invalid one reads nothing, however
     * short its values): the planner then reports the error, with its own caller. */
    ndpad_valid_problem valid;
    if (ndpad_problem_validate(p, "ndpad_pad", &valid) != NDPAD_OK) return 0;
    int64_t count = 2 * (int64_t)p->rank;
    if (kind == NDPAD_CONSTS_INDEX) {
        const int64_t d = p->shape[axis], r = p->interior != NULL ? p->interior[axis] : 0;
        count = (d > 1 ? (d - 1) * (r + 1) + 1 : d) + p->pads_begin[axis] + p->pads_end[axis];
    }
    if (count > CONSTS_KEY_BYTES / (int64_t)p->elem_size) return 0;
    const size_t value_bytes = (size_t)count * p->elem_size;
    ndpad_problem unread = *p; /* the pad value is never read with constants */
    unread.pad_value = NULL;
    const size_t base = make_key(&unread, key);
    if (base == 0) return 0;
    memset((char *)key + base, 0, offsetof(cache_key, consts_values) - base);
    key->consts_kind = kind;
    key->consts_axis = kind == NDPAD_CONSTS_INDEX ? axis : 0;
    memcpy(key->consts_values, values, value_bytes);
    return offsetof(cache_key, consts_values) + value_bytes;
}

static bool cache_get(const cache_key *key, size_t bytes, ndpad_cached_plan *cached);
static void cache_put(const cache_key *key, size_t bytes, const ndpad_plan *plan);

bool ndpad_plan_cache_get(const ndpad_problem *problem, ndpad_cached_plan *cached)
{
    cache_key key;
    const size_t bytes = make_key(problem, &key);
    cached->owns_stream = false;
    return bytes != 0 && cache_get(&key, bytes, cached);
}

bool ndpad_plan_cache_get_consts(const ndpad_problem *problem, int32_t kind, int32_t axis,
                                 const void *values, ndpad_cached_plan *cached)
{
    cache_key key;
    const size_t bytes = make_key_consts(problem, kind, axis, values, &key);
    cached->owns_stream = false;
    return bytes != 0 && cache_get(&key, bytes, cached);
}

static bool cache_get(const cache_key *keyp, size_t bytes, ndpad_cached_plan *cached)
{
    ndpad_plan *const plan = &cached->plan;
    unsigned char *const pad = cached->pad;
    bool rebuild = false;
    cached->owns_stream = false;
    bool hit = false;
    ndpad_wisdom_key wisdom_key;
    bool wisdom_found = false;
    ndpad_tile wisdom_tile = {.rows = 0};
    pthread_mutex_lock(&cache_mutex);
    for (int s = 0; s < SLOTS; s++) {
        const cache_slot *slot = &slots[s];
        if (!slot->used || slot->key_bytes != bytes || memcmp(&slot->key, keyp, bytes) != 0)
            continue;
        *plan = slot->plan;
        memcpy(pad, slot->pad, NDPAD_PLAN_CACHE_PAD);
        if (slot->stream_held)
            plan->stream =
                ndpad_stream_copy(slot->plan.stream, cached->stream, sizeof(cached->stream));
        if (slot->plan.consts != NULL)
            plan->consts =
                ndpad_const_map_copy(slot->plan.consts, cached->consts, sizeof(cached->consts));
        rebuild = slot->stream_rebuild;
        wisdom_key = slot->wisdom_key;
        wisdom_found = slot->wisdom_found;
        wisdom_tile = slot->wisdom_tile;
        hit = true;
        break;
    }
    pthread_mutex_unlock(&cache_mutex);
    if (!hit) return false;
    /* The wisdom changed for this class since the plan was made: plan again. */
    ndpad_tile now;
    const bool found = ndpad_wisdom_lookup(&wisdom_key, &now);
    if (found != wisdom_found || (found && !ndpad_tile_same(&now, &wisdom_tile))) return false;
    if (plan->pad_value != NULL) plan->pad_value = pad;
    if (rebuild) {
        /* On failure (no memory) the executor's rows serve: the same bytes. */
        if (ndpad_stream_plan(plan, &plan->stream, "ndpad_pad") != NDPAD_OK) plan->stream = NULL;
        cached->owns_stream = plan->stream != NULL;
    }
    return true;
}

void ndpad_plan_cache_release(ndpad_cached_plan *cached)
{
    if (cached->owns_stream) ndpad_stream_destroy(cached->plan.stream);
    cached->owns_stream = false;
    cached->plan.stream = NULL;
}

void ndpad_plan_cache_put(const ndpad_problem *problem, const ndpad_plan *plan)
{
    cache_key key;
    const size_t bytes = make_key(problem, &key);
    if (bytes != 0) cache_put(&key, bytes, plan);
}

void ndpad_plan_cache_put_consts(const ndpad_problem *problem, int32_t kind, int32_t axis,
                                 const void *values, const ndpad_plan *plan)
{
    cache_key key;
    const size_t bytes = make_key_consts(problem, kind, axis, values, &key);
    if (bytes != 0) cache_put(&key, bytes, plan);
}

static void cache_put(const cache_key *keyp, size_t bytes, const ndpad_plan *plan)
{
    int64_t out_bytes;
    if (__builtin_mul_overflow(plan->out_elems, (int64_t)plan->problem_elem_size, &out_bytes) ||
        out_bytes > CACHE_MAX_OUTPUT_BYTES || plan->elem_size > NDPAD_PLAN_CACHE_PAD)
        return;
    const ndpad_wisdom_key wisdom_key = ndpad_wisdom_key_of(plan);
    ndpad_tile wisdom_tile = {.rows = 0};
    const bool wisdom_found = ndpad_wisdom_lookup(&wisdom_key, &wisdom_tile);
    pthread_mutex_lock(&cache_mutex);
    cache_slot *slot = &slots[next_victim++ % SLOTS];
    slot->used = true;
    slot->key_bytes = bytes;
    memcpy(&slot->key, keyp, bytes);
    slot->plan = *plan;
    slot->plan.stream = NULL;
    if (plan->consts != NULL) {
        slot->plan.consts = ndpad_const_map_copy(plan->consts, slot->consts, sizeof(slot->consts));
        if (slot->plan.consts == NULL) { /* too large to hold: not cached */
            slot->used = false;
            pthread_mutex_unlock(&cache_mutex);
            return;
        }
    }
    slot->stream_held = slot->stream_rebuild = false;
    if (plan->stream != NULL) {
        slot->plan.stream = ndpad_stream_copy(plan->stream, slot->stream, sizeof(slot->stream));
        slot->stream_held = slot->plan.stream != NULL;
        slot->stream_rebuild = !slot->stream_held;
    }
    memset(slot->pad, 0, sizeof(slot->pad));
    if (plan->pad_value != NULL) memcpy(slot->pad, plan->pad_value, plan->elem_size);
    slot->wisdom_key = wisdom_key;
    slot->wisdom_found = wisdom_found;
    slot->wisdom_tile = wisdom_tile;
    pthread_mutex_unlock(&cache_mutex);
}
