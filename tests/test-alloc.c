/*
 * test-alloc.c — allocation failure (issue 6): every allocation that plan creation makes
 * can fail, and each failure gives NDPAD_ERR_OUT_OF_MEMORY with nothing leaked and nothing
 * written, or (for the lazy load of the wisdom file, which must never cause a failure) a
 * plan with heuristic tiles.
 *
 * ndpad_alloc_fail_after(k) (src/alloc.c) makes the (k+1)-th allocation of this thread fail.
 * Each case runs with k = 0, 1, 2, ... until the call succeeds; the allocations are counted
 * by wrapping ndpad_malloc / ndpad_calloc / ndpad_realloc / ndpad_free at link time
 * (-Wl,--wrap, see tests/CMakeLists.txt), so that "nothing leaked" is checked here, exactly,
 * and not only by LeakSanitizer and valgrind.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "measure.h" /* ndpad_tune_assume_noise */
#include "topology.h"
#include "wisdom.h"
#include "ndpad.h"
#include "test-checks.h"

/* ---- counting wrappers ------------------------------------------------------------------ */

void *__real_ndpad_malloc(size_t bytes);
void *__real_ndpad_calloc(size_t count, size_t bytes);
void *__real_ndpad_realloc(void *pointer, size_t bytes);
void __real_ndpad_free(void *pointer);

static _Thread_local long live;     /* allocations not freed yet, this thread */
static _Thread_local long failures; /* allocations refused, this thread       */
static _Thread_local long made;     /* allocations made, this thread          */

/* The bytes of the live allocations, for ndpad_plan_info's plan_bytes: each allocation's
 * size by its address, in a table that holds what plan creation keeps (a few blocks). */
enum { SIZES = 256 };
static _Thread_local struct {
    void *pointer;
    size_t bytes;
} sizes[SIZES];
static _Thread_local long long live_bytes;
static _Thread_local bool sizes_overflowed;

static void remember(void *pointer, size_t bytes)
{
    live++;
    made++;
    live_bytes += (long long)bytes;
    for (int i = 0; i < SIZES; i++)
        if (sizes[i].pointer == NULL) {
            sizes[i].pointer = pointer, sizes[i].bytes = bytes;
            return;
        }
    sizes_overflowed = true;
}

static void forget(void *pointer)
{
    live--;
    for (int i = 0; i < SIZES; i++)
        if (sizes[i].pointer == pointer) {
            live_bytes -= (long long)sizes[i].bytes;
            sizes[i].pointer = NULL;
            return;
        }
}

void *__wrap_ndpad_malloc(size_t bytes)
{
    void *p = __real_ndpad_malloc(bytes);
    if (p != NULL)
        remember(p, bytes);
    else
        failures++;
    return p;
}

void *__wrap_ndpad_calloc(size_t count, size_t bytes)
{
    void *p = __real_ndpad_calloc(count, bytes);
    if (p != NULL)
        remember(p, count * bytes);
    else
        failures++;
    return p;
}

void *__wrap_ndpad_realloc(void *pointer, size_t bytes)
{
    void *p = __real_ndpad_realloc(pointer, bytes);
    if (p == NULL) {
        failures++;
    } else {
        if (pointer != NULL) forget(pointer);
        remember(p, bytes);
    }
    return p;
}

void __wrap_ndpad_free(void *pointer)
{
    if (pointer != NULL) forget(pointer);
    __real_ndpad_free(pointer);
}

/* ---- the cases --------------------------------------------------------------------------- */

static char wisdom_dir[64], wisdom_path[128];

/* A wisdom file with an entry for the class of `p` (heuristic plan), so that a plan made
 * with NDPAD_TUNING_CACHE loads it, parses it and uses it. */
static void write_wisdom_for(const ndpad_problem *p)
{
    ndpad_options options;
    ndpad_options_init(&options);
    options.tuning = NDPAD_TUNING_HEURISTIC;
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(p, &options, &plan), NDPAD_OK);
    char text[2048], key[256];
    ndpad_wisdom_forget();
    assert_true(ndpad_wisdom_export_string(text, sizeof text) < sizeof text);
    const ndpad_wisdom_key k = ndpad_wisdom_key_of(plan);
    ndpad_wisdom_key_format(&k, key, sizeof key);
    ndpad_plan_destroy(plan);
    FILE *f = fopen(wisdom_path, "w");
    assert_non_null(f);
    fputs(text, f);
    fprintf(f, "class %s tile_rows=2 tile_cols=3 threads=1 stream=0 gbps=1.000\n", key);
    /* plus many bad lines, so that the parser grows its array and skips */
    for (int i = 0; i < 100; i++) fprintf(f, "class junk %d\n", i);
    fclose(f);
}

typedef struct alloc_case {
    const char *name;
    int32_t rank, mode;
    size_t elem_size;
    int64_t shape[3], pb[3], pe[3];
    int32_t tuning;
    int32_t isa;
} alloc_case;

static const alloc_case cases[] = {
    {"constant_f32", 2, NDPAD_CONSTANT, 4, {3, 5}, {1, 2}, {2, 1}, NDPAD_TUNING_HEURISTIC, 0},
    {"constant_cache",
     3,
     NDPAD_CONSTANT,
     2,
     {4, 5, 6},
     {1, 0, 2},
     {0, 3, 1},
     NDPAD_TUNING_CACHE,
     0},
    {"edge_cache", 2, NDPAD_EDGE, 8, {300, 200}, {1, 2}, {2, 1}, NDPAD_TUNING_CACHE, 0},
    {"reflect_scalar",
     2,
     NDPAD_REFLECT,
     3,
     {3, 4},
     {-1, 5},
     {2, -2},
     NDPAD_TUNING_HEURISTIC,
     NDPAD_ISA_SCALAR},
    {"symmetric_rank_0", 0, NDPAD_SYMMETRIC, 16, {0}, {0}, {0}, NDPAD_TUNING_CACHE, 0},
    {"wrap_empty", 2, NDPAD_WRAP, 4, {3, 4}, {-3, 1}, {0, 1}, NDPAD_TUNING_CACHE, 0},
};

static ndpad_problem problem_of(const alloc_case *c)
{
    return (ndpad_problem){.rank = c->rank,
                           .mode = c->mode,
                           .elem_size = c->elem_size,
                           .shape = c->shape,
                           .pads_begin = c->pb,
                           .pads_end = c->pe};
}

/* plan_create with the k-th allocation failing, k = 0, 1, ... until it succeeds */
static void every_plan_allocation_can_fail(void **state)
{
    const alloc_case *c = (const alloc_case *)*state;
    const ndpad_problem p = problem_of(c);
    if (c->tuning == NDPAD_TUNING_CACHE) write_wisdom_for(&p);
    ndpad_options options;
    ndpad_options_init(&options);
    options.tuning = c->tuning;
    options.isa = c->isa;

    long k = 0, refused = 0, degraded = 0;
    for (;; k++) {
        ndpad_wisdom_forget(); /* the next cache plan loads the file again */
        live = failures = 0;
        ndpad_alloc_fail_after(k);
        ndpad_plan *plan = (ndpad_plan *)(void *)&options; /* must become NULL on failure */
        const ndpad_status st = ndpad_plan_create(&p, &options, &plan);
        const long made = ndpad_alloc_fail_after(-1);
        if (st == NDPAD_ERR_OUT_OF_MEMORY) {
            assert_null(plan);
            assert_int_equal(failures, 1);
            if (live != 0) fail_msg("k = %ld: %ld allocation(s) leaked", k, live);
            if (strstr(ndpad_last_error(), "ndpad_plan_create: no memory") == NULL)
                fail_msg("k = %ld: message \"%s\"", k, ndpad_last_error());
            refused++;
            continue;
        }
        if (st != NDPAD_OK)
            fail_msg("k = %ld: %s (%s)", k, ndpad_status_string(st), ndpad_last_error());
        assert_non_null(plan);
        ndpad_plan_destroy(plan);
        if (live != 0) fail_msg("k = %ld: %ld allocation(s) leaked by a plan", k, live);
        if (failures == 0) { /* the first run with no failure: every allocation was tried */
            assert_int_equal(made, k);
            break;
        }
        /* a refused allocation that did not fail the plan: only the wisdom load may */
        assert_int_equal(c->tuning, NDPAD_TUNING_CACHE);
        degraded++;
    }
    /* the plan allocates at least itself, CONSTANT also its pad value, and a cache plan the
     * file buffer and the parsed entries */
    int64_t out_shape[3];
    assert_int_equal(ndpad_output_shape(&p, out_shape), NDPAD_OK);
    const bool lookup = c->tuning == NDPAD_TUNING_CACHE && test_count(c->rank, out_shape) > 0;
    const long least = 1 + (c->mode == NDPAD_CONSTANT) + 2 * lookup;
    if (k < least) fail_msg("only %ld allocations; expected at least %ld", k, least);
    assert_int_equal(refused + degraded, k);
    if (lookup)
        assert_true(degraded >= 2);
    else
        assert_int_equal(degraded, 0);
}

/* ndpad_pad and ndpad_onnx_pad: every failure is OUT_OF_MEMORY and writes nothing */
static void one_call_entry_points_fail_cleanly(void **state)
{
    (void)state;
    const int64_t shape[2] = {3, 4}, pads[4] = {1, -1, 2, 3};
    const int64_t pb[2] = {1, -1}, pe[2] = {2, 3};
    for (int32_t mode = NDPAD_CONSTANT; mode <= NDPAD_WRAP; mode++) {
        const ndpad_problem p = {.rank = 2,
                                 .mode = mode,
                                 .elem_size = 4,
                                 .shape = shape,
                                 .pads_begin = pb,
                                 .pads_end = pe};
        float in[12];
        for (int i = 0; i < 12; i++) in[i] = (float)i;
        test_out out = test_out_make(6 * 6 * 4), ref = test_out_make(6 * 6 * 4);
        assert_int_equal(ndpad_ref_pad(&p, in, ref.body), NDPAD_OK);
        for (long k = 0;; k++) {
            live = failures = 0;
            ndpad_alloc_fail_after(k);
            const ndpad_status st = ndpad_pad(&p, in, out.body);
            ndpad_alloc_fail_after(-1);
            assert_int_equal(live, 0);
            if (st == NDPAD_OK && failures > 0) continue; /* the wisdom load, ignored */
            if (st == NDPAD_OK) {
                test_expect_same_bytes("ndpad_pad", &p, ref.alloc, out.alloc,
                                       out.size + 2 * TEST_GUARD, TEST_GUARD);
                break;
            }
            assert_int_equal(st, NDPAD_ERR_OUT_OF_MEMORY);
            assert_non_null(strstr(ndpad_last_error(), "ndpad_pad: no memory"));
            assert_true(test_all_bytes_are(out.alloc, out.size + 2 * TEST_GUARD, TEST_SENTINEL));
        }
        if (mode == NDPAD_SYMMETRIC) {
            test_out_free(&out);
            test_out_free(&ref);
            continue;
        }
        static const char *const names[] = {"constant", "edge", "reflect", "", "wrap"};
        memset(out.alloc, TEST_SENTINEL, out.size + 2 * TEST_GUARD);
        for (long k = 0;; k++) {
            live = failures = 0;
            ndpad_alloc_fail_after(k);
            const ndpad_status st =
                ndpad_onnx_pad(2, shape, 4, pads, 4, NULL, 0, names[mode], NULL, in, out.body);
            ndpad_alloc_fail_after(-1);
            assert_int_equal(live, 0);
            if (st == NDPAD_OK && failures > 0) continue; /* the wisdom load, ignored */
            if (st == NDPAD_OK) break;
            assert_int_equal(st, NDPAD_ERR_OUT_OF_MEMORY);
            assert_non_null(strstr(ndpad_last_error(), "ndpad_onnx_pad: no memory"));
            assert_true(test_all_bytes_are(out.alloc, out.size + 2 * TEST_GUARD, TEST_SENTINEL));
        }
        test_out_free(&out);
        test_out_free(&ref);
    }
}

/* The injector is per thread: a thread that is out of memory does not starve another. */
static void *create_on_other_thread(void *arg)
{
    const ndpad_problem *p = (const ndpad_problem *)arg;
    ndpad_plan *plan = NULL;
    const ndpad_status st = ndpad_plan_create(p, NULL, &plan);
    ndpad_plan_destroy(plan);
    return (void *)(intptr_t)st;
}

static void failure_injection_is_per_thread(void **state)
{
    (void)state;
    const int64_t shape[1] = {5}, pb[1] = {2}, pe[1] = {3};
    const ndpad_problem p = {.rank = 1,
                             .mode = NDPAD_CONSTANT,
                             .elem_size = 1,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe};
    ndpad_alloc_fail_after(0);
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&p, NULL, &plan), NDPAD_ERR_OUT_OF_MEMORY);
    pthread_t thread;
    void *result = NULL;
    assert_int_equal(pthread_create(&thread, NULL, create_on_other_thread, (void *)&p), 0);
    assert_int_equal(pthread_join(thread, &result), 0);
    assert_int_equal((intptr_t)result, NDPAD_OK);
    assert_int_equal(ndpad_plan_create(&p, NULL, &plan), NDPAD_ERR_OUT_OF_MEMORY);
    ndpad_alloc_fail_after(-1);
    assert_int_equal(ndpad_plan_create(&p, NULL, &plan), NDPAD_OK);
    ndpad_plan_destroy(plan);
}

/* topology.c allocates once per process (the per-core binding sets, through alloc.h): a
 * child process makes that allocation fail and must still pad correctly, unbound. Runs
 * first, before anything in this process has discovered the topology. */
static void topology_allocation_can_fail(void **state)
{
    (void)state;
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        live = failures = 0;
        ndpad_alloc_fail_after(0);
        const ndpad_topology *topo = ndpad_topology_get();
        const long made = ndpad_alloc_fail_after(-1);
        int bad = 0;
        if (topo->cores < 1) bad |= 1;
        if (made < 1 || failures != 1) bad |= 2; /* the binding sets went through alloc.h */
        if (live != 0) bad |= 4;
        /* A multi-threaded pad still gives the reference's bytes. */
        const int64_t shape[2] = {512, 512}, pb[2] = {3, 5}, pe[2] = {4, 2};
        const ndpad_problem p = {.rank = 2,
                                 .mode = NDPAD_REFLECT,
                                 .elem_size = 4,
                                 .shape = shape,
                                 .pads_begin = pb,
                                 .pads_end = pe};
        const size_t bytes = (size_t)519 * 519 * 4;
        float *in = malloc((size_t)512 * 512 * 4);
        unsigned char *out = malloc(bytes), *ref = malloc(bytes);
        for (int i = 0; i < 512 * 512; i++) in[i] = (float)i;
        if (ndpad_pad(&p, in, out) != NDPAD_OK || ndpad_ref_pad(&p, in, ref) != NDPAD_OK ||
            memcmp(out, ref, bytes) != 0)
            bad |= 8;
        free(in), free(out), free(ref);
        _exit(bad);
    }
    int wstatus = 0;
    const pid_t waited = waitpid(pid, &wstatus, 0);
    (void)ndpad_topology_get(); /* discovered here, outside the counted cases below */
    assert_int_equal(waited, pid);
    assert_true(WIFEXITED(wstatus));
    if (WEXITSTATUS(wstatus) != 0) fail_msg("child failed checks 0x%x", WEXITSTATUS(wstatus));
}

/* A MEASURE plan: every allocation of the measuring engine (scratch, candidates, samples)
 * and of the save that follows can fail; the plan then falls back to the heuristic tile
 * (or fails with OUT_OF_MEMORY for the plan's own allocations), leaking nothing. */
static void every_measure_allocation_can_fail(void **state)
{
    (void)state;
    const int64_t shape[2] = {6, 10}, pb[2] = {1, 2}, pe[2] = {2, 1};
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_EDGE,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe};
    ndpad_options options;
    ndpad_options_init(&options);
    options.tuning = NDPAD_TUNING_MEASURE;
    /* A loaded machine would refuse before storing and saving: assume a quiet one, so
     * that every allocation up to the save is reached. */
    ndpad_tune_assume_noise(0.0);
    long degraded = 0, k = 0;
    for (;; k++) {
        ndpad_wisdom_forget();
        unlink(wisdom_path);
        live = failures = 0;
        ndpad_alloc_fail_after(k);
        ndpad_plan *plan = NULL;
        const ndpad_status st = ndpad_plan_create(&p, &options, &plan);
        ndpad_alloc_fail_after(-1);
        ndpad_plan_destroy(plan);
        if (live != 0) fail_msg("k = %ld: %ld allocation(s) leaked", k, live);
        if (st == NDPAD_ERR_OUT_OF_MEMORY) continue;
        assert_int_equal(st, NDPAD_OK);
        if (failures == 0) break;
        degraded++;
    }
    ndpad_tune_assume_noise(-1);
    /* scratch in and out, the verdict's sorted ratios; the save's read buffer and text */
    if (degraded < 4) fail_msg("only %ld allocations of the measuring engine failed", degraded);
}

/* The wisdom file entry points: an allocation failure is NDPAD_ERR_OUT_OF_MEMORY, never a
 * half-merged table or a truncated file, and nothing leaks. */
static void wisdom_file_calls_fail_cleanly(void **state)
{
    (void)state;
    const int64_t shape[2] = {30, 20}, pb[2] = {1, 2}, pe[2] = {2, 1};
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_WRAP,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe};
    write_wisdom_for(&p);
    long k;
    for (k = 0;; k++) {
        ndpad_wisdom_forget();
        live = failures = 0;
        ndpad_alloc_fail_after(k);
        const ndpad_status st = ndpad_wisdom_load_file(wisdom_path);
        ndpad_alloc_fail_after(-1);
        if (live != 0) fail_msg("load k = %ld: %ld allocation(s) leaked", k, live);
        if (failures == 0) {
            assert_int_equal(st, NDPAD_OK);
            break;
        }
        assert_int_equal(st, NDPAD_ERR_OUT_OF_MEMORY);
        assert_non_null(strstr(ndpad_last_error(), "ndpad_wisdom_load_file"));
    }
    assert_true(k >= 2); /* the file buffer and the parsed entries */
    FILE *f = fopen(wisdom_path, "rb");
    assert_non_null(f);
    char before[8192];
    const size_t before_len = fread(before, 1, sizeof before, f);
    fclose(f);
    for (k = 0;; k++) {
        live = failures = 0;
        ndpad_alloc_fail_after(k);
        const ndpad_status st = ndpad_wisdom_save_file(wisdom_path);
        ndpad_alloc_fail_after(-1);
        if (live != 0) fail_msg("save k = %ld: %ld allocation(s) leaked", k, live);
        if (failures == 0) {
            assert_int_equal(st, NDPAD_OK);
            break;
        }
        assert_int_equal(st, NDPAD_ERR_OUT_OF_MEMORY);
        /* a failed save leaves the file as it was */
        char now[8192];
        f = fopen(wisdom_path, "rb");
        assert_non_null(f);
        const size_t now_len = fread(now, 1, sizeof now, f);
        fclose(f);
        assert_true(now_len == before_len && memcmp(now, before, now_len) == 0);
    }
    assert_true(k >= 2); /* the disk's text and the merged text */
}

static int teardown_all(void **state)
{
    (void)state;
    char lock_path[sizeof wisdom_path + 8];
    snprintf(lock_path, sizeof lock_path, "%s.lock", wisdom_path);
    unlink(wisdom_path);
    unlink(lock_path); /* the writers' lock file, which ndpad leaves in place (wisdom-file.c) */
    rmdir(wisdom_dir);
    return 0;
}

/* ndpad_plan_info's plan_bytes is what the plan holds: exactly the bytes plan creation
 * left allocated, and what ndpad_plan_destroy() gives back. One-time allocations (the
 * topology) are made by a first plan, before counting. */
static void plan_info_counts_the_plan_heap(void **state)
{
    (void)state;
    static const int64_t shape5[5] = {2, 8, 16, 64, 64}, pads5[5] = {0, 0, 1, 1, 1};
    static const int64_t shape2[2] = {300, 200}, pads2[2] = {2, 3};
    const ndpad_problem problems[] = {
        /* 19008 rows of 264 bytes: where the output-stream path lists its rows */
        {.rank = 5,
         .mode = NDPAD_REFLECT,
         .elem_size = 4,
         .shape = shape5,
         .pads_begin = pads5,
         .pads_end = pads5},
        {.rank = 2,
         .mode = NDPAD_CONSTANT,
         .elem_size = 2,
         .shape = shape2,
         .pads_begin = pads2,
         .pads_end = pads2},
        {.rank = 2,
         .mode = NDPAD_EDGE,
         .elem_size = 8,
         .shape = shape2,
         .pads_begin = pads2,
         .pads_end = pads2},
    };
    ndpad_options options;
    ndpad_options_init(&options);
    options.tuning = NDPAD_TUNING_HEURISTIC;
    for (size_t k = 0; k < sizeof problems / sizeof problems[0]; k++) {
        ndpad_plan *plan = NULL;
        assert_int_equal(ndpad_plan_create(&problems[k], &options, &plan), NDPAD_OK);
        ndpad_plan_destroy(plan);
        const long long before = live_bytes;
        assert_int_equal(ndpad_plan_create(&problems[k], &options, &plan), NDPAD_OK);
        struct ndpad_plan_info info = {.size = sizeof info};
        assert_int_equal(ndpad_plan_info(plan, &info), NDPAD_OK);
        assert_false(sizes_overflowed);
        assert_int_equal(info.plan_bytes, live_bytes - before);
        if (k == 0 && info.stream_path)
            assert_true(info.plan_bytes > 19008 * (int64_t)sizeof(int64_t)); /* the row list */
        if (k == 1) assert_true(info.plan_bytes > (int64_t)sizeof(int64_t)); /* pad value */
        ndpad_plan_destroy(plan);
        assert_int_equal(live_bytes, before);
    }
}

/* A sub-byte plan reads its options (threads, schedule, host pool, ISA) without making a
 * byte plan for a dummy problem (issue 42): it is one allocation, the plan, whatever the
 * options and the wisdom cache (NDPAD_TUNING=cache here) say. */
static void bits_plan_is_one_allocation(void **state)
{
    (void)state;
    int64_t shape[2] = {3, 5}, pb[2] = {1, 2}, pe[2] = {1, 3};
    ndpad_bits_problem p = {.problem = {.rank = 2,
                                        .mode = NDPAD_CONSTANT,
                                        .shape = shape,
                                        .pads_begin = pb,
                                        .pads_end = pe},
                            .elem_bits = 4};
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = 2;
    const ndpad_options *each[] = {NULL, &options};
    for (size_t i = 0; i < 2; i++) {
        ndpad_bits_plan *plan = NULL;
        /* the first call of the process may load the topology */
        assert_int_equal(ndpad_bits_plan_create(&p, each[i], &plan), NDPAD_OK);
        ndpad_bits_plan_destroy(plan);
        const long before = made, live_before = live;
        assert_int_equal(ndpad_bits_plan_create(&p, each[i], &plan), NDPAD_OK);
        assert_int_equal(made - before, 1);
        ndpad_bits_plan_destroy(plan);
        assert_int_equal(live, live_before);
    }
}

int main(void)
{
    snprintf(wisdom_dir, sizeof wisdom_dir, "/tmp/ndpad-test-alloc-XXXXXX");
    if (mkdtemp(wisdom_dir) == NULL) return 1;
    snprintf(wisdom_path, sizeof wisdom_path, "%s/wisdom", wisdom_dir);
    setenv("NDPAD_WISDOM", wisdom_path, 1);
    setenv("NDPAD_TUNING", "cache", 1);

    enum { CASES = sizeof cases / sizeof cases[0] };
    struct CMUnitTest tests[CASES + 7];
    size_t n = 0;
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(topology_allocation_can_fail);
    for (size_t i = 0; i < CASES; i++)
        tests[n++] = (struct CMUnitTest){cases[i].name, every_plan_allocation_can_fail, NULL, NULL,
                                         (void *)&cases[i]};
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(one_call_entry_points_fail_cleanly);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(failure_injection_is_per_thread);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(every_measure_allocation_can_fail);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(wisdom_file_calls_fail_cleanly);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(plan_info_counts_the_plan_heap);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(bits_plan_is_one_allocation);
    return _cmocka_run_group_tests("test-alloc", tests, n, NULL, teardown_all);
}
