/*
 * test-wisdom.c — the per-machine tile cache (wisdom) and the tuner's tile shapes:
 * export/import round trip; corrupt, truncated, other-version and other-machine files
 * ignored with one warning and heuristic tiles; two processes saving at once lose nothing;
 * a plan made with the cache uses the cached tile (ndpad_plan_describe), only at the thread
 * budget it was tuned for; NDPAD_TUNING_MEASURE measures, stores and saves; NDPAD_TUNING in
 * the environment; tiny outputs stay on one thread; the heuristic follows the caches; and
 * results stay byte-identical to the reference under every tile shape the tuner's candidate
 * generator produces.
 *
 * Every test works in its own temporary directory through $NDPAD_WISDOM, never in the
 * user's cache.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ndpad-ref.h"
#include "ndpad.h"
#include "test-util.h"
#include "topology.h" /* internals: cache sizes */
#include "wisdom.h"   /* internals: candidate generator, plan tile */

static char dir[256];
static char path[300];

static void write_text(const char *file, const char *text, size_t length)
{
    FILE *f = fopen(file, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, length, f), length);
    fclose(f);
}

static char *read_text(const char *file)
{
    FILE *f = fopen(file, "rb");
    if (f == NULL) return NULL;
    char *buf = calloc(1, 1 << 20);
    assert_non_null(buf);
    const size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/ndpad-wisdom-XXXXXX");
    if (mkdtemp(dir) == NULL) return -1;
    snprintf(path, sizeof(path), "%s/sub/wisdom", dir);
    setenv("NDPAD_WISDOM", path, 1);
    ndpad_wisdom_forget();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char command[400];
    snprintf(command, sizeof(command), "rm -rf '%s'", dir);
    if (system(command) != 0) return -1;
    ndpad_wisdom_forget();
    return 0;
}

/* ---- problems --------------------------------------------------------------------------- */

typedef struct shape4 {
    int32_t rank, mode;
    size_t esize;
    int64_t shape[4], pb[4], pe[4];
} shape4;

static ndpad_problem problem_of(const shape4 *s)
{
    ndpad_problem p = {.rank = s->rank,
                       .mode = s->mode,
                       .elem_size = s->esize,
                       .shape = s->shape,
                       .pads_begin = s->pb,
                       .pads_end = s->pe};
    return p;
}

static const shape4 conv_edge = {4, NDPAD_EDGE, 4, {1, 16, 64, 64}, {0, 0, 1, 1}, {0, 0, 1, 1}};

static ndpad_plan *make_plan(const shape4 *s, int32_t tuning, int32_t threads)
{
    const ndpad_problem p = problem_of(s);
    ndpad_options o;
    ndpad_options_init(&o);
    o.tuning = tuning;
    o.threads = threads;
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&p, &o, &plan), NDPAD_OK);
    return plan;
}

/* The "tiles:" line and the class key of a plan's description. */
static void describe_parts(const ndpad_plan *plan, char *tiles, size_t tiles_size, char *key,
                           size_t key_size, char *source, size_t source_size)
{
    char text[8192];
    ndpad_plan_describe(plan, text, sizeof(text));
    const char *t = strstr(text, "tiles: ");
    assert_non_null(t);
    const char *end = strchr(t, '\n');
    snprintf(tiles, tiles_size, "%.*s", (int)(end - t), t);
    const char *s = strstr(text, "tile source: ");
    assert_non_null(s);
    s += strlen("tile source: ");
    const char *space = strchr(s, ' ');
    snprintf(source, source_size, "%.*s", (int)(space - s), s);
    const char *k = strstr(s, "(class ");
    assert_non_null(k);
    k += strlen("(class ");
    const char *close = strchr(k, ')');
    snprintf(key, key_size, "%.*s", (int)(close - k), k);
}

/* "ndpad-wisdom 1\nmachine ...\n" of this machine. */
static void header(char *buf, size_t size)
{
    ndpad_wisdom_forget();
    char all[4096];
    ndpad_wisdom_export_string(all, sizeof(all));
    const char *second = strchr(all, '\n');
    assert_non_null(second);
    const char *third = strchr(second + 1, '\n');
    assert_non_null(third);
    snprintf(buf, size, "%.*s", (int)(third + 1 - all), all);
}

static int log_calls;
static char log_last[600];
static void on_log(const char *message, void *user)
{
    (void)user;
    log_calls++;
    snprintf(log_last, sizeof(log_last), "%s", message);
}

/* ---- tests ------------------------------------------------------------------------------ */

static void round_trip_string_and_file(void **state)
{
    (void)state;
    char head[1024], text[4096], line[512];
    header(head, sizeof(head));
    assert_true(strncmp(head, "ndpad-wisdom 2\nmachine ", 23) == 0);
    snprintf(line, sizeof(line),
             "class mode=edge esize=4 rank=3 out=20 row=8 isa=scalar "
             "nthr=3 tile_rows=12 tile_cols=66 threads=2 stream=1 gbps=3.500\n");
    snprintf(text, sizeof(text), "%s%s", head, line);
    assert_int_equal(ndpad_wisdom_import_string(text), 1);

    char out[4096];
    const size_t need = ndpad_wisdom_export_string(NULL, 0);
    assert_int_equal(ndpad_wisdom_export_string(out, sizeof(out)), need);
    assert_string_equal(out, text);
    /* snprintf semantics on a short buffer */
    char small[10];
    assert_int_equal(ndpad_wisdom_export_string(small, sizeof(small)), need);
    assert_int_equal(strlen(small), 9);

    assert_int_equal(ndpad_wisdom_export_file(path), 1);
    char *disk = read_text(path);
    assert_non_null(disk);
    assert_string_equal(disk, text);
    free(disk);
    ndpad_wisdom_forget();
    setenv("NDPAD_WISDOM", "/nonexistent/ndpad/wisdom", 1);
    assert_int_equal(ndpad_wisdom_import_file(path), 1);
    ndpad_wisdom_export_string(out, sizeof(out));
    assert_string_equal(out, text);
    setenv("NDPAD_WISDOM", path, 1);
}

static void plan_with_cache_uses_cached_tile(void **state)
{
    (void)state;
    ndpad_plan *heuristic = make_plan(&conv_edge, NDPAD_TUNING_HEURISTIC, 1);
    char tiles[256], key[256], source[32];
    describe_parts(heuristic, tiles, sizeof(tiles), key, sizeof(key), source, sizeof(source));
    assert_string_equal(source, "heuristic");

    char head[1024], text[2048];
    header(head, sizeof(head));
    snprintf(text, sizeof(text),
             "%sclass %s tile_rows=7 tile_cols=30 threads=1 stream=0 "
             "gbps=1.000\n",
             head, key);
    ndpad_wisdom_forget();
    assert_int_equal(ndpad_wisdom_import_string(text), 1);

    ndpad_plan *cached = make_plan(&conv_edge, NDPAD_TUNING_CACHE, 1);
    char tiles2[256], key2[256], source2[32];
    describe_parts(cached, tiles2, sizeof(tiles2), key2, sizeof(key2), source2, sizeof(source2));
    assert_string_equal(source2, "wisdom");
    assert_string_equal(key2, key);
    assert_true(test_contains(tiles2, "tiles: 7 rows x 30 columns"));

    /* NDPAD_TUNING_HEURISTIC ignores it; a forced tile wins over it. */
    ndpad_plan *ignoring = make_plan(&conv_edge, NDPAD_TUNING_HEURISTIC, 1);
    describe_parts(ignoring, tiles2, sizeof(tiles2), key2, sizeof(key2), source2, sizeof(source2));
    assert_string_equal(tiles2, tiles);
    const ndpad_problem p = problem_of(&conv_edge);
    ndpad_options o;
    ndpad_options_init(&o);
    o.threads = 1;
    o.tile_rows = 3;
    ndpad_plan *forced = NULL;
    assert_int_equal(ndpad_plan_create(&p, &o, &forced), NDPAD_OK);
    describe_parts(forced, tiles2, sizeof(tiles2), key2, sizeof(key2), source2, sizeof(source2));
    assert_string_equal(source2, "forced");
    assert_true(test_contains(tiles2, "tiles: 3 rows x"));

    /* Same bytes either way, and as the reference. */
    const int64_t in_count = test_count(4, conv_edge.shape);
    int64_t out_shape[4];
    assert_int_equal(ndpad_output_shape(&p, out_shape), NDPAD_OK);
    const int64_t out_count = test_count(4, out_shape);
    unsigned char *in = test_xmalloc((size_t)in_count * 4);
    unsigned char *a = test_xmalloc((size_t)out_count * 4),
                  *b = test_xmalloc((size_t)out_count * 4);
    unsigned char *ref = test_xmalloc((size_t)out_count * 4);
    test_rng r = test_rng_make(1, 2);
    test_rng_bytes(&r, in, (size_t)in_count * 4);
    assert_int_equal(ndpad_execute(heuristic, in, a), NDPAD_OK);
    assert_int_equal(ndpad_execute(cached, in, b), NDPAD_OK);
    assert_int_equal(ndpad_ref_pad(&p, in, ref), NDPAD_OK);
    assert_memory_equal(a, ref, (size_t)out_count * 4);
    assert_memory_equal(b, ref, (size_t)out_count * 4);
    free(in), free(a), free(b), free(ref);
    ndpad_plan_destroy(heuristic);
    ndpad_plan_destroy(cached);
    ndpad_plan_destroy(ignoring);
    ndpad_plan_destroy(forced);
}

static void lazy_load_from_default_location(void **state)
{
    (void)state;
    ndpad_plan *heuristic = make_plan(&conv_edge, NDPAD_TUNING_HEURISTIC, 0);
    char tiles[256], key[256], source[32], head[1024], text[2048];
    describe_parts(heuristic, tiles, sizeof(tiles), key, sizeof(key), source, sizeof(source));
    header(head, sizeof(head));
    snprintf(text, sizeof(text),
             "%s# a comment\n\nclass %s tile_rows=5 tile_cols=66 threads=1 "
             "stream=0 gbps=1.000\n",
             head, key);
    snprintf(path, sizeof(path), "%s/wisdom", dir);
    setenv("NDPAD_WISDOM", path, 1);
    write_text(path, text, strlen(text));
    ndpad_wisdom_forget();
    ndpad_plan *cached = make_plan(&conv_edge, NDPAD_TUNING_CACHE, 0);
    describe_parts(cached, tiles, sizeof(tiles), key, sizeof(key), source, sizeof(source));
    assert_string_equal(source, "wisdom");
    assert_true(test_contains(tiles, "tiles: 5 rows x 66 columns"));
    /* Read once: the file changing does not matter until ndpad_wisdom_forget(). */
    write_text(path, "garbage\n", 8);
    ndpad_plan *again = make_plan(&conv_edge, NDPAD_TUNING_CACHE, 0);
    describe_parts(again, tiles, sizeof(tiles), key, sizeof(key), source, sizeof(source));
    assert_string_equal(source, "wisdom");
    ndpad_plan_destroy(heuristic);
    ndpad_plan_destroy(cached);
    ndpad_plan_destroy(again);
    snprintf(path, sizeof(path), "%s/sub/wisdom", dir);
    setenv("NDPAD_WISDOM", path, 1);
}

/* A bad default file: heuristic tiles, exactly one warning, no crash. */
static void expect_ignored(const char *text, size_t length, const char *why)
{
    char file[320];
    snprintf(file, sizeof(file), "%s/bad", dir);
    write_text(file, text, length);
    setenv("NDPAD_WISDOM", file, 1);
    ndpad_wisdom_forget();
    log_calls = 0;
    ndpad_set_log_callback(on_log, NULL);

    ndpad_plan *heuristic = make_plan(&conv_edge, NDPAD_TUNING_HEURISTIC, 1);
    ndpad_plan *p1 = make_plan(&conv_edge, NDPAD_TUNING_CACHE, 1);
    ndpad_plan *p2 = make_plan(&conv_edge, NDPAD_TUNING_CACHE, 1);
    char t0[256], t1[256], key[256], source[32];
    describe_parts(heuristic, t0, sizeof(t0), key, sizeof(key), source, sizeof(source));
    describe_parts(p1, t1, sizeof(t1), key, sizeof(key), source, sizeof(source));
    assert_string_equal(t0, t1);
    assert_string_equal(source, "heuristic");
    describe_parts(p2, t1, sizeof(t1), key, sizeof(key), source, sizeof(source));
    assert_string_equal(t0, t1);
    if (why != NULL) {
        assert_int_equal(log_calls, 1);
        if (!test_contains(log_last, why)) fail_msg("warning \"%s\" lacks \"%s\"", log_last, why);
        char w[600];
        ndpad_wisdom_warning(w, sizeof(w));
        assert_string_equal(w, log_last);
    }
    ndpad_set_log_callback(NULL, NULL);
    /* Explicit import of a wholly bad file reports it. */
    if (why != NULL && !test_contains(why, "skipped")) {
        assert_int_equal(ndpad_wisdom_import_file(file), 0);
        assert_true(test_contains(ndpad_last_error(), "ndpad_wisdom_import_file"));
    }
    ndpad_plan_destroy(heuristic);
    ndpad_plan_destroy(p1);
    ndpad_plan_destroy(p2);
    setenv("NDPAD_WISDOM", path, 1);
}

static void bad_files_are_ignored_with_one_warning(void **state)
{
    (void)state;
    ndpad_plan *h = make_plan(&conv_edge, NDPAD_TUNING_HEURISTIC, 1);
    char tiles[256], key[256], source[32], head[1024], good[2048], text[4096];
    describe_parts(h, tiles, sizeof(tiles), key, sizeof(key), source, sizeof(source));
    ndpad_plan_destroy(h);
    header(head, sizeof(head));
    snprintf(good, sizeof(good),
             "%sclass %s tile_rows=5 tile_cols=66 threads=1 stream=0 "
             "gbps=1.000\n",
             head, key);

    expect_ignored("", 0, "truncated or corrupt");
    expect_ignored("\x7f"
                   "ELF\x01\x02\0\0garbage",
                   14, "not ndpad wisdom");
    static const char other_version[] = "ndpad-wisdom 99\nmachine x\n";
    char version1[1024]; /* this machine, but the format before nthr joined the key */
    snprintf(version1, sizeof(version1), "ndpad-wisdom 1\n%s", strchr(head, '\n') + 1);
    static const char other_machine[] = "ndpad-wisdom 2\nmachine cpu=Other level=scalar cores=1\n";
    expect_ignored(other_version, strlen(other_version), "another format version");
    expect_ignored(version1, strlen(version1), "another format version");
    expect_ignored(other_machine, strlen(other_machine), "another machine");
    /* Truncated inside the machine line, and inside the class line (that line skipped). */
    expect_ignored(good, strlen(head) - 10, "truncated or corrupt");
    expect_ignored(good, strlen(good) - 12, "skipped 1");
    /* Corrupt class lines: bad values, unknown names, overlong lines, binary. */
    snprintf(text, sizeof(text),
             "%sclass mode=edge esize=4\nclass %s tile_rows=-5 tile_cols=66 "
             "threads=1 stream=0 gbps=1.0\nclass %s tile_rows=5 tile_cols=66 threads=1 stream=7 "
             "gbps=1.0\nclass mode=bogus esize=4 rank=3 out=20 row=8 isa=avx2 nthr=1 tile_rows=1 "
             "tile_cols=1 threads=1 stream=0 gbps=1.0\n%0600d\n\x01\x02\x03\n"
             "class %s tile_rows=5 tile_cols=66 threads=9 stream=0 gbps=1.0\n"
             "class mode=edge esize=4 rank=3 out=20 row=8 isa=avx2 tile_rows=1 "
             "tile_cols=1 threads=1 stream=0 gbps=1.0\n",
             head, key, key, 7, key);
    /* the last two: more threads than the budget (key has nthr=1), no nthr (format 1) */
    expect_ignored(text, strlen(text), "skipped 8");
    /* A missing file. */
    char missing[320];
    snprintf(missing, sizeof(missing), "%s/none/wisdom", dir);
    setenv("NDPAD_WISDOM", missing, 1);
    ndpad_wisdom_forget();
    log_calls = 0;
    ndpad_set_log_callback(on_log, NULL);
    ndpad_plan *p = make_plan(&conv_edge, NDPAD_TUNING_CACHE, 1);
    ndpad_plan_destroy(p);
    ndpad_set_log_callback(NULL, NULL);
    assert_int_equal(log_calls, 1);
    assert_true(test_contains(log_last, "does not exist"));
    assert_int_equal(ndpad_wisdom_import_file(missing), 0);
    setenv("NDPAD_WISDOM", path, 1);

    /* Random bytes, many times: never a crash. */
    test_rng r = test_rng_make(3, 4);
    for (int k = 0; k < 200; k++) {
        char junk[1500];
        size_t n = (size_t)test_rng_range(&r, 0, sizeof(junk) - 1);
        memcpy(junk, good, strlen(good));
        for (size_t i = 0; i < n; i++)
            if (i >= strlen(good) || test_rng_chance(&r, 1, 20))
                junk[i] = (char)test_rng_range(&r, 0, 255);
        junk[n] = '\0';
        ndpad_wisdom_forget();
        (void)ndpad_wisdom_import_string(junk);
        char out[8192];
        ndpad_wisdom_export_string(out, sizeof(out));
    }
    ndpad_wisdom_forget();
}

static void concurrent_writers_lose_nothing(void **state)
{
    (void)state;
    char head[1024];
    header(head, sizeof(head));
    enum { WRITERS = 3, CLASSES = 12 };
    pid_t pids[WRITERS];
    for (int w = 0; w < WRITERS; w++) {
        pids[w] = fork();
        assert_true(pids[w] >= 0);
        if (pids[w] == 0) {
            /* A writer: one class more per save, each save through the merging path. */
            for (int c = 0; c < CLASSES; c++) {
                char text[2048];
                ndpad_wisdom_forget();
                snprintf(text, sizeof(text),
                         "%sclass mode=constant esize=%d rank=2 out=%d "
                         "row=9 isa=scalar nthr=1 tile_rows=%d tile_cols=8 threads=1 stream=0 "
                         "gbps=1.0\n",
                         head, w + 1, c + 10, c + 1);
                if (!ndpad_wisdom_import_string(text)) _exit(2);
                if (!ndpad_wisdom_export_file(path)) _exit(3);
            }
            _exit(0);
        }
    }
    for (int w = 0; w < WRITERS; w++) {
        int status = 0;
        assert_int_equal(waitpid(pids[w], &status, 0), pids[w]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    ndpad_wisdom_forget();
    assert_int_equal(ndpad_wisdom_import_file(path), 1);
    char *out = malloc(1 << 16);
    assert_non_null(out);
    ndpad_wisdom_export_string(out, 1 << 16);
    for (int w = 0; w < WRITERS; w++)
        for (int c = 0; c < CLASSES; c++) {
            char needle[256];
            snprintf(needle, sizeof(needle),
                     "class mode=constant esize=%d rank=2 out=%d row=9 "
                     "isa=scalar nthr=1 tile_rows=%d ",
                     w + 1, c + 10, c + 1);
            if (!test_contains(out, needle)) fail_msg("lost: %s", needle);
        }
    free(out);
    /* No temporary files left behind. */
    char command[400];
    snprintf(command, sizeof(command), "ls '%s/sub' | grep -q tmp", dir);
    assert_int_not_equal(system(command), 0);
}

static void measure_stores_and_saves(void **state)
{
    (void)state;
    const shape4 s = {4, NDPAD_REFLECT, 4, {1, 8, 100, 130}, {0, 0, 2, 3}, {0, 0, 2, 3}};
    ndpad_plan *measured = make_plan(&s, NDPAD_TUNING_MEASURE, 0);
    char tiles[256], key[256], source[32], tiles2[256];
    describe_parts(measured, tiles, sizeof(tiles), key, sizeof(key), source, sizeof(source));
    assert_string_equal(source, "measured");
    char *disk = read_text(path);
    assert_non_null(disk);
    char needle[300];
    snprintf(needle, sizeof(needle), "class %s ", key);
    assert_true(test_contains(disk, needle));
    free(disk);
    ndpad_wisdom_forget(); /* read back from the file */
    ndpad_plan *cached = make_plan(&s, NDPAD_TUNING_CACHE, 0);
    describe_parts(cached, tiles2, sizeof(tiles2), key, sizeof(key), source, sizeof(source));
    assert_string_equal(source, "wisdom");
    assert_string_equal(tiles2, tiles);
    ndpad_plan_destroy(measured);
    ndpad_plan_destroy(cached);
}

static void options_tuning_is_checked(void **state)
{
    (void)state;
    const ndpad_problem p = problem_of(&conv_edge);
    ndpad_options o;
    ndpad_options_init(&o);
    assert_int_equal(sizeof(ndpad_options), 88);
    assert_int_equal(offsetof(ndpad_options, reserved), 24);
    ndpad_plan *plan = NULL;
    o.tuning = 3;
    assert_int_equal(ndpad_plan_create(&p, &o, &plan), NDPAD_ERR_OPTIONS);
    assert_true(test_contains(ndpad_last_error(), "options.tuning"));
    o.tuning = -1;
    assert_int_equal(ndpad_plan_create(&p, &o, &plan), NDPAD_ERR_OPTIONS);
    o.tuning = 0;
    o.reserved32 = 1;
    assert_int_equal(ndpad_plan_create(&p, &o, &plan), NDPAD_ERR_OPTIONS);
    assert_true(test_contains(ndpad_last_error(), "reserved"));
}

/* An entry for conv_edge's class at `threads` threads, tile 7 x 30 on `team` threads. */
static void import_entry_for(const shape4 *shape, int32_t threads, int team)
{
    ndpad_plan *h = make_plan(shape, NDPAD_TUNING_HEURISTIC, threads);
    char tiles[256], key[256], source[32], head[1024], text[2048];
    describe_parts(h, tiles, sizeof(tiles), key, sizeof(key), source, sizeof(source));
    ndpad_plan_destroy(h);
    header(head, sizeof(head));
    snprintf(text, sizeof(text),
             "%sclass %s tile_rows=7 tile_cols=30 threads=%d stream=0 "
             "gbps=1.000\n",
             head, key, team);
    ndpad_wisdom_forget();
    assert_int_equal(ndpad_wisdom_import_string(text), 1);
}

static void source_of(const shape4 *shape, int32_t tuning, int32_t threads, char *tiles,
                      char *source)
{
    ndpad_plan *plan = make_plan(shape, tuning, threads);
    char key[256];
    describe_parts(plan, tiles, 256, key, sizeof(key), source, 32);
    ndpad_plan_destroy(plan);
}

/* Wisdom measured for one thread is not used by a two-thread plan, and the other way. */
static void thread_budget_is_part_of_the_class(void **state)
{
    (void)state;
    char tiles[256], source[32];
    import_entry_for(&conv_edge, 1, 1);
    source_of(&conv_edge, NDPAD_TUNING_CACHE, 1, tiles, source);
    assert_string_equal(source, "wisdom");
    assert_true(test_contains(tiles, "tiles: 7 rows x 30 columns"));
    source_of(&conv_edge, NDPAD_TUNING_CACHE, 2, tiles, source);
    assert_string_equal(source, "heuristic");

    import_entry_for(&conv_edge, 2, 2);
    source_of(&conv_edge, NDPAD_TUNING_CACHE, 2, tiles, source);
    assert_string_equal(source, "wisdom");
    assert_true(test_contains(tiles, ", 2 threads")); /* conv_edge is over 256 KiB */
    source_of(&conv_edge, NDPAD_TUNING_CACHE, 1, tiles, source);
    assert_string_equal(source, "heuristic");
}

/* NDPAD_TUNING=heuristic turns the cache off for default options; explicit options win;
 * an unknown value is one warning and the cache. */
static void environment_chooses_heuristic(void **state)
{
    (void)state;
    char tiles[256], source[32];
    import_entry_for(&conv_edge, 1, 1);
    setenv("NDPAD_TUNING", "heuristic", 1);
    source_of(&conv_edge, NDPAD_TUNING_CACHE, 1, tiles, source);
    assert_string_equal(source, "heuristic");
    setenv("NDPAD_TUNING", "cache", 1);
    source_of(&conv_edge, NDPAD_TUNING_CACHE, 1, tiles, source);
    assert_string_equal(source, "wisdom");
    log_calls = 0;
    ndpad_set_log_callback(on_log, NULL);
    setenv("NDPAD_TUNING", "fastest-please", 1);
    source_of(&conv_edge, NDPAD_TUNING_CACHE, 1, tiles, source);
    assert_string_equal(source, "wisdom");
    source_of(&conv_edge, NDPAD_TUNING_CACHE, 1, tiles, source);
    ndpad_set_log_callback(NULL, NULL);
    assert_int_equal(log_calls, 1);
    assert_true(test_contains(log_last, "NDPAD_TUNING"));
    unsetenv("NDPAD_TUNING");
    source_of(&conv_edge, NDPAD_TUNING_CACHE, 1, tiles, source);
    assert_string_equal(source, "wisdom");
}

/* ov-small (1x3x32x40, 113 KiB out) never gets a thread team, whatever the wisdom says;
 * its result is still the reference's. */
static void tiny_output_stays_on_one_thread(void **state)
{
    (void)state;
    const shape4 ov = {4, NDPAD_CONSTANT, 4, {1, 3, 32, 40}, {0, 5, 2, 1}, {1, 0, 3, 7}};
    char tiles[256], source[32];
    source_of(&ov, NDPAD_TUNING_HEURISTIC, 2, tiles, source);
    assert_true(test_contains(tiles, ", 1 threads"));
    import_entry_for(&ov, 2, 2);
    source_of(&ov, NDPAD_TUNING_CACHE, 2, tiles, source);
    assert_string_equal(source, "wisdom");
    assert_true(test_contains(tiles, "tiles: 7 rows x 30 columns"));
    assert_true(test_contains(tiles, ", 1 threads"));
}

/* The heuristic: above 256 KiB, a multiple of the threads in tiles, each within the
 * per-core L2 as hwloc reports it (or one row when a row is larger). */
static void heuristic_tiles_follow_the_caches(void **state)
{
    (void)state;
    const shape4 big = {4, NDPAD_REFLECT, 4, {1, 64, 256, 256}, {0, 0, 1, 1}, {0, 0, 1, 1}};
    ndpad_plan *plan = make_plan(&big, NDPAD_TUNING_HEURISTIC, 2);
    const ndpad_tile t = plan->tile;
    const int64_t rows = plan->rows, n = plan->dim[plan->ndim - 1].n;
    const int64_t tiles = (rows + t.rows - 1) / t.rows * ((n + t.cols - 1) / t.cols);
    assert_int_equal(t.threads, 2);
    assert_int_equal(tiles % t.threads, 0);
    assert_true(tiles >= 4 * t.threads);
    const size_t l2 = ndpad_topology_get()->l2_bytes;
    const int64_t tile_bytes = t.rows * t.cols * (int64_t)plan->elem_size;
    if (l2 != 0 && t.rows > 1 && tile_bytes > (int64_t)l2)
        fail_msg("tile of %lld bytes exceeds the L2 of %zu", (long long)tile_bytes, l2);
    const size_t llc = ndpad_topology_get()->llc_bytes;
    const int64_t out_bytes = rows * n * (int64_t)plan->elem_size;
    assert_int_equal(t.stream, llc != 0 && (uint64_t)out_bytes > llc);
    ndpad_plan_destroy(plan);
    plan = make_plan(&big, NDPAD_TUNING_HEURISTIC, 1);
    assert_int_equal(plan->tile.threads, 1);
    ndpad_plan_destroy(plan);
}

/* After a two-thread execution, the OpenMP worker ndpad used is bound to one core of the
 * process's CPUs (hwloc), unless the user chose OpenMP affinity or NDPAD_BIND=0. */
static void worker_threads_are_bound_to_cores(void **state)
{
    (void)state;
    if (getenv("OMP_PROC_BIND") != NULL || getenv("OMP_PLACES") != NULL ||
        getenv("GOMP_CPU_AFFINITY") != NULL || getenv("KMP_AFFINITY") != NULL ||
        (getenv("NDPAD_BIND") != NULL && strcmp(getenv("NDPAD_BIND"), "0") == 0) ||
        ndpad_topology_get()->cores < 2) {
        skip();
    }
    const shape4 big = {4, NDPAD_CONSTANT, 4, {1, 16, 128, 128}, {0, 0, 1, 1}, {0, 0, 1, 1}};
    ndpad_plan *plan = make_plan(&big, NDPAD_TUNING_HEURISTIC, 2);
    assert_int_equal(plan->tile.threads, 2);
    const size_t in_bytes = 16 * 128 * 128 * 4, out_bytes = 16 * 130 * 130 * 4;
    unsigned char *in = test_xmalloc(in_bytes), *out = test_xmalloc(out_bytes);
    memset(in, 7, in_bytes);
    assert_int_equal(ndpad_execute(plan, in, out), NDPAD_OK);
    ndpad_plan_destroy(plan);
    free(in), free(out);

    cpu_set_t process;
    CPU_ZERO(&process);
    assert_int_equal(sched_getaffinity(0, sizeof(process), &process), 0);
    const int process_cpus = CPU_COUNT(&process);
    DIR *tasks = opendir("/proc/self/task");
    assert_non_null(tasks);
    int bound = 0;
    for (struct dirent *e; (e = readdir(tasks)) != NULL;) {
        const pid_t tid = (pid_t)atoi(e->d_name);
        if (tid <= 0 || tid == getpid()) continue;
        cpu_set_t mask;
        CPU_ZERO(&mask);
        if (sched_getaffinity(tid, sizeof(mask), &mask) != 0) continue;
        cpu_set_t inside;
        CPU_AND(&inside, &mask, &process);
        /* one core's CPUs: fewer than the process has, all of them the process's */
        if (CPU_COUNT(&mask) < process_cpus && CPU_EQUAL(&inside, &mask)) bound++;
    }
    closedir(tasks);
    if (bound == 0) fail_msg("no OpenMP worker thread is bound to a core");
}

/* Every tile shape the candidate generator gives: the same bytes as the reference. */
static void candidate_tiles_match_reference(void **state)
{
    (void)state;
    const shape4 problems[] = {
        {4, NDPAD_CONSTANT, 4, {1, 16, 64, 64}, {0, 0, 1, 1}, {0, 0, 1, 1}},
        {4, NDPAD_EDGE, 2, {1, 3, 120, 200}, {0, 0, 8, 8}, {0, 0, 8, 8}},
        {4, NDPAD_REFLECT, 4, {1, 3, 90, 161}, {0, 0, 8, 8}, {0, 0, 8, 8}},
        {4, NDPAD_SYMMETRIC, 1, {2, 5, 70, 300}, {0, 1, 3, 2}, {1, 0, 2, 9}},
        {4, NDPAD_WRAP, 8, {1, 40, 28, 28}, {0, 0, 2, 2}, {0, 0, 2, 2}},
        {4, NDPAD_CONSTANT, 4, {1, 56, 56, 3}, {0, 3, 3, 0}, {0, 3, 3, 0}},
        {4, NDPAD_CONSTANT, 4, {2, 16, 24, 24}, {0, 0, 0, 0}, {0, 16, 0, 0}},
        {4, NDPAD_CONSTANT, 4, {1, 3, 32, 40}, {0, 5, 2, 1}, {1, 0, 3, 7}},
        {2, NDPAD_EDGE, 3, {5, 40000}, {1, 7}, {2, -3}},
    };
    size_t tried = 0;
    for (size_t k = 0; k < sizeof(problems) / sizeof(problems[0]); k++) {
        const ndpad_problem p = problem_of(&problems[k]);
        int64_t out_shape[4];
        assert_int_equal(ndpad_output_shape(&p, out_shape), NDPAD_OK);
        const size_t es = problems[k].esize;
        const size_t in_bytes = (size_t)test_count(p.rank, p.shape) * es;
        const size_t out_bytes = (size_t)test_count(p.rank, out_shape) * es;
        unsigned char *in = test_xmalloc(in_bytes), *out = test_xmalloc(out_bytes + 2 * TEST_GUARD);
        unsigned char *ref = test_xmalloc(out_bytes);
        test_rng r = test_rng_make(11, k);
        test_rng_bytes(&r, in, in_bytes);
        assert_int_equal(ndpad_ref_pad(&p, in, ref), NDPAD_OK);

        ndpad_plan *plan = make_plan(&problems[k], NDPAD_TUNING_HEURISTIC, 4);
        ndpad_tile cands[256];
        const size_t n = ndpad_tune_candidates(plan, 4, cands, 256);
        assert_true(n > 0);
        for (size_t c = 0; c < n; c++) {
            plan->tile = ndpad_tile_fit(plan, cands[c]);
            memset(out, TEST_SENTINEL, out_bytes + 2 * TEST_GUARD);
            assert_int_equal(ndpad_execute(plan, in, out + TEST_GUARD), NDPAD_OK);
            if (memcmp(out + TEST_GUARD, ref, out_bytes) != 0)
                fail_msg("problem %zu, tile %lldx%lld/%d stream %d differs from the reference", k,
                         (long long)cands[c].rows, (long long)cands[c].cols, (int)cands[c].threads,
                         (int)cands[c].stream);
            assert_true(test_all_bytes_are(out, TEST_GUARD, TEST_SENTINEL));
            assert_true(
                test_all_bytes_are(out + TEST_GUARD + out_bytes, TEST_GUARD, TEST_SENTINEL));
            tried++;
        }
        /* Tiny outputs never get a thread team. */
        if (out_bytes < 256 * 1024)
            for (size_t c = 0; c < n; c++) assert_int_equal(cands[c].threads, 1);
        ndpad_plan_destroy(plan);
        free(in), free(out), free(ref);
    }
    print_message("%zu candidate tiles checked\n", tried);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(concurrent_writers_lose_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(round_trip_string_and_file, setup, teardown),
        cmocka_unit_test_setup_teardown(plan_with_cache_uses_cached_tile, setup, teardown),
        cmocka_unit_test_setup_teardown(lazy_load_from_default_location, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_files_are_ignored_with_one_warning, setup, teardown),
        cmocka_unit_test_setup_teardown(measure_stores_and_saves, setup, teardown),
        cmocka_unit_test_setup_teardown(options_tuning_is_checked, setup, teardown),
        cmocka_unit_test_setup_teardown(candidate_tiles_match_reference, setup, teardown),
        cmocka_unit_test_setup_teardown(thread_budget_is_part_of_the_class, setup, teardown),
        cmocka_unit_test_setup_teardown(environment_chooses_heuristic, setup, teardown),
        cmocka_unit_test_setup_teardown(tiny_output_stays_on_one_thread, setup, teardown),
        cmocka_unit_test_setup_teardown(heuristic_tiles_follow_the_caches, setup, teardown),
        cmocka_unit_test_setup_teardown(worker_threads_are_bound_to_cores, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
