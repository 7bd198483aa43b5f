/*
 * fuzz-wisdom.c — libFuzzer target for the tuning-cache (wisdom) parser and for what the
 * wisdom may do to plans: stored wisdom must never cause a failure and never change a result.
 *
 * The bytes become a wisdom text, either raw (the first byte's low bits 0) or a valid header
 * ("ndpad-wisdom <version>", this machine's fingerprint line) followed by generated lines: class
 * lines for the problem classes of the plans below with hostile tile numbers (0, negative,
 * INT64_MAX, 65537 threads, stream 2, gbps nan/inf/1e300, ...), class lines with one token
 * replaced by raw bytes, raw byte lines, over-long lines, CRLF, a cut-off last line. Then:
 *   - ndpad_wisdom_import_string() (and, when the first byte says so, the same bytes,
 *     NULs included, through ndpad_wisdom_import_file()) returns 0 or 1; 0 leaves memory
 *     as it was and sets a message naming the wisdom;
 *   - what is accepted exports (snprintf semantics checked) and the export re-imports to
 *     the same text (ndpad must read every line it writes);
 *   - plans with NDPAD_TUNING_CACHE of three fixed problems (one tiny, two above the
 *     64 KiB one-thread limit, with options.threads = 2) are created, described and
 *     executed; each output must equal the reference byte for byte with guard bytes.
 * Every input starts from ndpad_wisdom_forget() with $NDPAD_WISDOM pointing at a file that
 * does not exist, so that inputs are independent and no user's wisdom is read.
 *
 * Build with clang -fsanitize=fuzzer (ci/fuzz.sh), or link with replay.c to run a corpus.
 */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "fuzz-common.h"
#include "wisdom.h"

#define TEXT_MAX (1 << 16)

typedef struct fixed_problem {
    ndpad_problem p;
    int64_t shape[3], pb[3], pe[3];
    unsigned char *in;
    unsigned char *expected; /* TEST_GUARD sentinels, output, TEST_GUARD sentinels */
    size_t out_bytes;
    char key[160]; /* "mode=.. esize=.. rank=.. out=.. row=.. isa=.." */
} fixed_problem;

enum { PROBLEMS = 3 };
static fixed_problem problems[PROBLEMS];
static char wisdom_file[64];
static const char *current_text;

static void fuzz_describe_current(void)
{
    if (current_text != NULL) fprintf(stderr, "  wisdom text:\n%s\n  (end)\n", current_text);
}

static void make_problem(fixed_problem *f, int32_t mode, size_t es, int32_t rank,
                         const int64_t *shape, const int64_t *pb, const int64_t *pe)
{
    memset(f, 0, sizeof(*f));
    memcpy(f->shape, shape, sizeof(int64_t) * (size_t)rank);
    memcpy(f->pb, pb, sizeof(int64_t) * (size_t)rank);
    memcpy(f->pe, pe, sizeof(int64_t) * (size_t)rank);
    f->p = (ndpad_problem){.rank = rank,
                           .mode = mode,
                           .elem_size = es,
                           .shape = f->shape,
                           .pads_begin = f->pb,
                           .pads_end = f->pe};
    int64_t n[3];
    if (ndpad_ref_output_shape(&f->p, n) != NDPAD_OK) abort();
    const size_t in_bytes = (size_t)test_count(rank, shape) * es;
    f->out_bytes = (size_t)test_count(rank, n) * es;
    f->in = test_xmalloc(in_bytes);
    test_rng rng = test_rng_make(0x3157d0, (uint64_t)mode);
    test_rng_bytes(&rng, f->in, in_bytes);
    f->expected = test_xmalloc(f->out_bytes + 2 * TEST_GUARD);
    memset(f->expected, TEST_SENTINEL, f->out_bytes + 2 * TEST_GUARD);
    if (ndpad_ref_pad(&f->p, f->in, f->expected + TEST_GUARD) != NDPAD_OK) abort();

    /* The class a plan of this problem looks up (the scalar and the best ISA differ; the
     * plans below use the default, the best). */
    ndpad_options options;
    ndpad_options_init(&options);
    options.tuning = NDPAD_TUNING_HEURISTIC;
    ndpad_plan *plan = NULL;
    if (ndpad_plan_create(&f->p, &options, &plan) != NDPAD_OK) abort();
    const ndpad_wisdom_key key = ndpad_wisdom_key_of(plan);
    ndpad_wisdom_key_format(&key, f->key, sizeof f->key);
    ndpad_plan_destroy(plan);
}

static void initialise(void)
{
    static bool done;
    if (done) return;
    done = true;
    setenv("NDPAD_WISDOM", "/nonexistent/ndpad-fuzz/wisdom", 1);
    snprintf(wisdom_file, sizeof wisdom_file, "/tmp/ndpad-fuzz-wisdom-%ld", (long)getpid());
    static const int64_t s0[2] = {3, 5}, b0[2] = {1, 7}, e0[2] = {2, 0};
    static const int64_t s1[2] = {300, 400}, b1[2] = {1, 2}, e1[2] = {3, 0};
    static const int64_t s2[3] = {20, 30, 40}, b2[3] = {2, -3, 5}, e2[3] = {1, 4, -6};
    make_problem(&problems[0], NDPAD_REFLECT, 4, 2, s0, b0, e0);
    make_problem(&problems[1], NDPAD_CONSTANT, 1, 2, s1, b1, e1);
    make_problem(&problems[2], NDPAD_WRAP, 16, 3, s2, b2, e2);
}

/* ---- building the text ----------------------------------------------------------------- */

typedef struct text_buf {
    char *data;
    size_t length;
} text_buf;

static void put_bytes(text_buf *t, const void *bytes, size_t count)
{
    if (count > TEXT_MAX - 1 - t->length) count = TEXT_MAX - 1 - t->length;
    memcpy(t->data + t->length, bytes, count);
    t->length += count;
    t->data[t->length] = '\0';
}

static void put_text(text_buf *t, const char *s)
{
    put_bytes(t, s, strlen(s));
}

static const char *const numbers[] = {"1",
                                      "2",
                                      "3",
                                      "7",
                                      "64",
                                      "1000",
                                      "0",
                                      "-1",
                                      "9223372036854775807",
                                      "-9223372036854775808",
                                      "99999999999999999999",
                                      "1099511627776",
                                      "2147483647",
                                      "2147483648",
                                      "65536",
                                      "65537",
                                      " 5",
                                      "+4",
                                      "0x10",
                                      "1e3",
                                      "",
                                      "4 ",
                                      "-0",
                                      "00000000000003"};
static const char *const gbps_values[] =
    {"1.500",          "0",      "nan",  "inf",    "-1",    "1e300",
     "999999999.9999", "0.0001", "-nan", "1e-320", "12abc", "3.0"};

static const char *pick(fuzz_reader *r, const char *const *table, size_t count)
{
    return table[fuzz_u8(r) % count];
}

static void put_class_line(fuzz_reader *r, text_buf *t)
{
    const uint8_t which = fuzz_u8(r);
    const fixed_problem *f = &problems[which % PROBLEMS];
    char key[sizeof f->key];
    memcpy(key, f->key, sizeof key);
    if (which & 0x80) {
        /* another class near this one: one digit of the key changed */
        char *digit = strpbrk(key + (which >> 3 & 15), "0123456789");
        if (digit != NULL) *digit = (char)('0' + (which >> 2) % 10);
    }
    const uint8_t shape = fuzz_u8(r);
    char line[600];
    const char *rows = shape & 1 ? pick(r, numbers, FUZZ_COUNT(numbers)) : "1";
    const char *cols = shape & 2 ? pick(r, numbers, FUZZ_COUNT(numbers)) : "100000";
    const char *threads = shape & 4 ? pick(r, numbers, FUZZ_COUNT(numbers)) : "2";
    const char *stream = shape & 8 ? pick(r, numbers, FUZZ_COUNT(numbers)) : "0";
    const char *gbps = shape & 16 ? pick(r, gbps_values, FUZZ_COUNT(gbps_values)) : "1.000";
    if (shape & 32) { /* small numbers, the ones the fitting clamps least */
        static const char *const small[] = {"1", "2", "3", "5", "8", "13", "300", "401"};
        rows = small[fuzz_u8(r) % 8];
        cols = small[fuzz_u8(r) % 8];
    }
    /* Format 4's optional fields (none: a format 2/3 line), valid and not, chosen from
     * bytes already read so that older inputs keep their lines' numbers. */
    static const char *const choices[] = {"",
                                          " copy=vector path=auto",
                                          " copy=memcpy path=rows",
                                          " copy=movsb",
                                          " path=rows",
                                          " copy=bogus",
                                          " path=sideways",
                                          " copy= path=auto",
                                          " path=auto copy=memcpy",
                                          " copy=movsb path=rows"};
    const char *choice = choices[(uint8_t)(which ^ shape) % FUZZ_COUNT(choices)];
    snprintf(line, sizeof line,
             "class %s tile_rows=%s tile_cols=%s threads=%s stream=%s%s "
             "gbps=%s",
             key, rows, cols, threads, stream, choice, gbps);
    if (shape & 64) {
        /* one byte of the line replaced by a raw byte */
        const size_t at = fuzz_u8(r) % strlen(line);
        line[at] = (char)fuzz_u8(r);
        if (line[at] == '\0') line[at] = ' ';
    }
    put_text(t, line);
    put_text(t, shape & 128 ? "\r\n" : "\n");
}

static void build_text(fuzz_reader *r, uint8_t style, text_buf *t)
{
    if ((style & 3) == 0) {
        /* raw: the rest of the input as it is */
        put_bytes(t, r->data + r->pos, r->size - r->pos);
        r->pos = r->size;
        return;
    }
    char header[600];
    snprintf(header, sizeof header, "ndpad-wisdom %d\nmachine %s\n", NDPAD_WISDOM_VERSION,
             ndpad_wisdom_fingerprint());
    put_text(t, header);
    while (r->pos < r->size && t->length < TEXT_MAX / 2) {
        const uint8_t op = fuzz_u8(r);
        switch (op % 8) {
        case 0:
        case 1:
        case 2:
        case 3: put_class_line(r, t); break;
        case 4: { /* raw bytes up to the next newline of the input, or a length */
            const size_t length = fuzz_u8(r);
            const size_t room = r->size - r->pos;
            const size_t count = length < room ? length : room;
            put_bytes(t, r->data + r->pos, count);
            r->pos += count;
            put_text(t, "\n");
            break;
        }
        case 5: { /* an over-long line: a class line padded past 512 bytes */
            put_text(t, "class ");
            put_text(t, problems[op >> 3 & 1].key);
            for (int k = 0; k < 40; k++) put_text(t, " tile_rows=1234567890");
            put_text(t, "\n");
            break;
        }
        case 6: put_text(t, op & 8 ? "# a comment\n" : "\n"); break;
        default: /* a class line cut short at the end of the text */
            put_class_line(r, t);
            const size_t cut = 1 + (size_t)(op >> 3) % 20u;
            if (cut < t->length) t->length -= cut;
            t->data[t->length] = '\0';
            return;
        }
    }
}

/* ---- checks --------------------------------------------------------------------------- */

static char *export_text(void)
{
    const size_t length = ndpad_wisdom_export_string(NULL, 0);
    FUZZ_CHECK(length > 0 && length < (size_t)16 << 20, "export length %zu", length);
    char *text = test_xmalloc(length + 1);
    memset(text, TEST_SENTINEL, length + 1);
    /* snprintf semantics: a short buffer gets a terminated prefix */
    const size_t part = length / 2 + 1;
    FUZZ_CHECK(ndpad_wisdom_export_string(text, part) == length, "export length changes");
    FUZZ_CHECK(text[part - 1] == '\0' && strlen(text) == part - 1, "short export not cut");
    FUZZ_CHECK((unsigned char)text[part] == TEST_SENTINEL, "export wrote past `size`");
    FUZZ_CHECK(ndpad_wisdom_export_string(text, length + 1) == length, "export length changes");
    FUZZ_CHECK(strlen(text) == length, "export text length %zu, returned %zu", strlen(text),
               length);
    return text;
}

static void check_plans(void)
{
    for (int i = 0; i < PROBLEMS; i++) {
        const fixed_problem *f = &problems[i];
        ndpad_options options;
        ndpad_options_init(&options);
        options.threads = 2;
        ndpad_plan *plan = NULL;
        const ndpad_status st = ndpad_plan_create(&f->p, &options, &plan);
        FUZZ_CHECK(st == NDPAD_OK && plan != NULL, "wisdom made plan_create fail: %d (%s)", (int)st,
                   ndpad_last_error());
        char description[4096];
        const size_t length = ndpad_plan_describe(plan, description, sizeof description);
        FUZZ_CHECK(length > 0 && memchr(description, '\0', sizeof description) != NULL,
                   "ndpad_plan_describe");
        unsigned char *out = test_xmalloc(f->out_bytes + 2 * TEST_GUARD);
        memset(out, TEST_SENTINEL, f->out_bytes + 2 * TEST_GUARD);
        const ndpad_status run = ndpad_execute(plan, f->in, out + TEST_GUARD);
        FUZZ_CHECK(run == NDPAD_OK, "ndpad_execute: %d (%s)", (int)run, ndpad_last_error());
        const ptrdiff_t diff =
            test_first_difference(f->expected, out, f->out_bytes + 2 * TEST_GUARD);
        if (diff >= 0) {
            fprintf(stderr, "%s\n", description);
            test_print_difference(stderr, f->expected, out, f->out_bytes + 2 * TEST_GUARD,
                                  TEST_GUARD);
        }
        FUZZ_CHECK(diff < 0, "problem %d (%s): wisdom changed the result at byte %td", i, f->key,
                   diff);
        free(out);
        ndpad_plan_destroy(plan);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    initialise();
    fuzz_reader r = {data, size, 0};
    const uint8_t style = fuzz_u8(&r);
    text_buf t = {test_xmalloc(TEXT_MAX), 0};
    t.data[0] = '\0';
    build_text(&r, style, &t);
    current_text = t.data;

    ndpad_wisdom_forget();
    char *before = export_text();
    const int ok = ndpad_wisdom_import_string(t.data);
    FUZZ_CHECK(ok == 0 || ok == 1, "import_string returned %d", ok);
    if (ok == 0) {
        FUZZ_CHECK(fuzz_last_error_ok() && strstr(ndpad_last_error(), "wisdom") != NULL,
                   "a rejected import does not say why: \"%s\"", ndpad_last_error());
        char *after = export_text();
        FUZZ_CHECK(strcmp(before, after) == 0, "a rejected import changed memory");
        free(after);
    }
    if (style & 4) {
        /* the same bytes through a file, NULs and all */
        FILE *file = fopen(wisdom_file, "wb");
        FUZZ_CHECK(file != NULL, "cannot write %s", wisdom_file);
        fwrite(t.data, 1, t.length, file);
        fclose(file);
        const int file_ok = ndpad_wisdom_import_file(wisdom_file);
        FUZZ_CHECK(file_ok == 0 || file_ok == 1, "import_file returned %d", file_ok);
        FUZZ_CHECK(file_ok == 1 || fuzz_last_error_ok(), "import_file: no message");
        unlink(wisdom_file);
    }

    /* Round trip: what memory holds exports, and the export reads back as itself. */
    char *exported = export_text();
    ndpad_wisdom_forget();
    FUZZ_CHECK(ndpad_wisdom_import_string(exported) == 1, "ndpad rejects its own export: %s",
               ndpad_last_error());
    char *again = export_text();
    if (strcmp(exported, again) != 0) fprintf(stderr, "first:\n%s\nsecond:\n%s\n", exported, again);
    FUZZ_CHECK(strcmp(exported, again) == 0, "export -> import -> export differs");

    check_plans();

    ndpad_wisdom_forget();
    current_text = NULL;
    free(before);
    free(exported);
    free(again);
    free(t.data);
    return 0;
}
