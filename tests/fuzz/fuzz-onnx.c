/*
 * fuzz-onnx.c — libFuzzer target for ndpad's text and byte parsers that exist today:
 *   1. the ONNX entry point: ndpad_onnx_problem_init / ndpad_onnx_pad with arbitrary rank,
 *      shape, pads (and pads_count, right or wrong), axes (NULL, repeated, out of range,
 *      hostile counts) and mode strings (valid names, near misses, arbitrary bytes);
 *      compared with the reference's ONNX semantics (tests/ref) and, when valid and small,
 *      run and compared byte for byte with guard bytes;
 *   2. the NDPAD_ISA environment variable: set to fuzzed text, then a plan is created
 *      with default options; the only outcomes allowed are the named level (or the best
 *      one for "auto" / "") and NDPAD_ERR_ISA_UNAVAILABLE with a bounded message;
 *   3. the typed entry point ndpad_onnx_pad_typed with a fuzzed ONNX element type and
 *      opset over the same arguments: refused exactly as ONNX's type lists say, else as
 *      the reference (4- and 2-bit types unpacked, padded, packed again), byte for byte
 *      with guard bytes.
 * The tuning-cache (wisdom) parser has its own target, fuzz-wisdom.c.
 */
#define _POSIX_C_SOURCE 200809L
#include "fuzz-common.h"

#define ARR            40
#define FUZZ_MAX_OUT   ((int64_t)16384)
#define FUZZ_MAX_BYTES ((int64_t)1 << 17)

typedef struct onnx_case {
    int32_t rank;
    size_t elem_size;
    int64_t *shape; /* NULL or exactly max(rank, 1) entries */
    int64_t *pads;  /* NULL or exactly the entries pads_count promises (when sane) */
    int64_t pads_count;
    int64_t *axes; /* NULL or exactly the entries axes_count promises (when sane) */
    int64_t axes_count;
    const char *mode;
    char mode_text[300];
    unsigned char *constant_value;
    int32_t elem_type, opset;
    bool typed;
    bool set_isa;
    char isa_text[32];
} onnx_case;

static const onnx_case *current;

static void fuzz_describe_current(void)
{
    if (current == NULL) return;
    char line[2048];
    ndpad_ref_format_onnx(line, sizeof line, current->rank, current->shape, current->elem_size,
                          current->pads, current->pads_count, current->axes, current->axes_count,
                          current->mode);
    fprintf(stderr, "  %s\n", line);
    if (current->set_isa) fprintf(stderr, "  NDPAD_ISA=\"%s\"\n", current->isa_text);
    if (current->typed)
        fprintf(stderr, "  typed: elem_type %d, opset %d\n", (int)current->elem_type,
                (int)current->opset);
}

/* Not inlined: GCC 12 inlined into the decoder warns (-Wstringop-overflow, a false positive
 * on the vectorised copy) that a text overflows its array. */
__attribute__((noinline)) static void decode_text(fuzz_reader *r, char *dst, size_t capacity)
{
    const size_t length = fuzz_u8(r) % capacity; /* < capacity: room for the NUL */
    fuzz_bytes(r, dst, length);
    dst[length] = '\0';
}

static int32_t hostile_i32_values(uint8_t b)
{
    static const int32_t values[] = {-1, INT32_MIN, INT32_MAX, 255, 256, -26, 1 << 20, 100};
    return values[b % 8];
}

static void decode(fuzz_reader *r, onnx_case *c)
{
    static const int32_t hostile_ranks[] = {-1,        NDPAD_MAX_RANK + 1,
                                            INT32_MIN, NDPAD_MAX_RANK,
                                            INT32_MAX, -2,
                                            40,        7};
    static const char *const odd_modes[] =
        {"symmetric",      "Constant", "EDGE",     "",    "reflect ", " wrap",
         "constant\n",     "%s%n%s%n", "wrap\xff", "edg", "reflectx", "constant\0edge",
         "\xc3\xa9\x64ge", /* "\u00e9dge" (\x64 is the d a hex escape would swallow) */
         "NULL",           "0",        "auto"};

    memset(c, 0, sizeof(*c));
    const uint8_t rank_byte = fuzz_u8(r);
    c->rank = rank_byte < 240 ? rank_byte % 6 : hostile_ranks[rank_byte % 8];
    c->elem_size = fuzz_elem_size(r);
    const uint8_t flags = fuzz_u8(r);
    const bool rank_ok = c->rank >= 0 && c->rank <= NDPAD_MAX_RANK;
    const int32_t axes = rank_ok ? c->rank : 0;

    if (!(flags & 1) || c->rank == 0) {
        c->shape = test_xmalloc(sizeof(int64_t) * (size_t)(axes > 0 ? axes : 1));
        for (int32_t k = 0; k < axes; k++) c->shape[k] = fuzz_extent(r);
    }

    /* axes: NULL (all axes in order), or a list that may repeat or leave the range */
    const uint8_t axes_byte = fuzz_u8(r);
    int64_t num_axes = axes;
    if (axes_byte & 3) {
        static const int64_t hostile_counts[] = {-1, INT64_MAX, INT64_MIN, NDPAD_MAX_RANK + 1};
        const uint8_t v = axes_byte >> 2;
        c->axes_count = v < 60 ? v % (axes + 3) : hostile_counts[v % 4];
        const bool sane = c->axes_count >= 0 && c->axes_count <= 2 * NDPAD_MAX_RANK;
        const int64_t entries = sane ? c->axes_count : 1;
        c->axes = test_xmalloc(sizeof(int64_t) * (size_t)(entries > 0 ? entries : 1));
        for (int64_t i = 0; i < entries; i++) {
            const uint8_t b = fuzz_u8(r);
            if (b < 240)
                c->axes[i] = (int64_t)(b % (2 * axes + 4)) - axes - 2;
            else
                c->axes[i] = fuzz_hostile_i64[b % 16];
        }
        num_axes = c->axes_count;
    }

    /* pads_count: usually 2 * the number of axes */
    const uint8_t count_byte = fuzz_u8(r);
    const int64_t expected = num_axes >= 0 && num_axes <= 4 * NDPAD_MAX_RANK ? 2 * num_axes : 0;
    if (count_byte < 224) {
        c->pads_count = expected;
    } else {
        const int64_t odd[] = {expected + 1,
                               expected - 1,
                               0,
                               -1,
                               INT64_MAX,
                               INT64_MIN,
                               expected + 2,
                               -2,
                               2 * expected,
                               1,
                               3,
                               64,
                               INT64_MAX - 1,
                               expected / 2,
                               4 * NDPAD_MAX_RANK + 2,
                               -expected};
        c->pads_count = odd[count_byte % 16];
    }
    if (!(flags & 2)) {
        const bool sane = c->pads_count >= 0 && c->pads_count <= 4 * NDPAD_MAX_RANK + 2;
        const int64_t entries = sane ? c->pads_count : expected + 1;
        c->pads = test_xmalloc(sizeof(int64_t) * (size_t)(entries > 0 ? entries : 1));
        for (int64_t i = 0; i < entries; i++) c->pads[i] = fuzz_pad(r);
    }

    /* mode: a valid name, NULL, a near miss, or arbitrary bytes */
    const uint8_t mode_byte = fuzz_u8(r);
    static const char *const valid_modes[] = {"constant", "edge", "reflect", "wrap"};
    switch (mode_byte % 8) {
    case 0:
    case 1:
    case 2:
    case 3: c->mode = valid_modes[mode_byte % 8]; break;
    case 4: c->mode = NULL; break;
    case 5:
        c->mode = odd_modes[(mode_byte >> 3) % FUZZ_COUNT(odd_modes)];
        if ((mode_byte >> 3) == 31) { /* a 299-byte name */
            memset(c->mode_text, 'a', sizeof c->mode_text - 1);
            c->mode = c->mode_text;
        }
        break;
    default:
        decode_text(r, c->mode_text, 64);
        c->mode = c->mode_text;
        break;
    }

    if ((flags & 4) && c->elem_size > 0 && c->elem_size <= 4096) {
        c->constant_value = test_xmalloc(c->elem_size);
        const size_t given = c->elem_size < 64 ? c->elem_size : 64;
        fuzz_bytes(r, c->constant_value, given);
        for (size_t i = given; i < c->elem_size; i++) c->constant_value[i] = (unsigned char)i;
    }

    c->set_isa = (flags & 8) != 0;
    if (c->set_isa) {
        const uint8_t which = fuzz_u8(r);
        static const char *const names[] = {"auto", "scalar", "avx2", "avx512",
                                            "neon", "",       "AVX2", "sse2"};
        if (which < 128)
            snprintf(c->isa_text, sizeof c->isa_text, "%s", names[which % 8]);
        else
            decode_text(r, c->isa_text, sizeof c->isa_text);
    }

    /* read last, so that the inputs made before it keep their meaning */
    c->typed = (flags & 16) != 0;
    if (c->typed) {
        const uint8_t type_byte = fuzz_u8(r), opset_byte = fuzz_u8(r);
        c->elem_type = type_byte < 240 ? type_byte % 31 : hostile_i32_values(type_byte);
        c->opset = opset_byte < 240 ? opset_byte % 32 : hostile_i32_values(opset_byte);
    }
}

static void release(onnx_case *c)
{
    free(c->shape);
    free(c->pads);
    free(c->axes);
    free(c->constant_value);
}

/* ---- ONNX ---------------------------------------------------------------------------- */

/* REFLECT's period 2 (d - 1) is int64: ndpad refuses an extent above INT64_MAX / 2 with
 * NDPAD_ERR_OVERFLOW where the reference, which never forms the period, accepts it (the
 * core's documented stricter rule, as in fuzz-pad.c). */
static bool reflect_period_overflows(const onnx_case *c)
{
    const bool reflect = c->mode != NULL && strcmp(c->mode, "reflect") == 0;
    const bool rank_ok = c->rank >= 0 && c->rank <= NDPAD_MAX_RANK; /* shape has rank entries */
    for (int32_t k = 0; reflect && rank_ok && c->shape != NULL && k < c->rank; k++)
        if (c->shape[k] > INT64_MAX / 2) return true;
    return false;
}

static void check_onnx(const onnx_case *c)
{
    ndpad_ref_verdict verdict;
    int64_t ref_shape[ARR];
    ndpad_ref_onnx_validate(c->rank, c->shape, c->elem_size, c->pads, c->pads_count, c->axes,
                            c->axes_count, c->mode, &verdict, ref_shape);

    ndpad_onnx_problem *onnx = test_xmalloc(sizeof(*onnx));
    const ndpad_status st =
        ndpad_onnx_problem_init(onnx, c->rank, c->shape, c->elem_size, c->pads, c->pads_count,
                                c->axes, c->axes_count, c->mode, c->constant_value);

    /* As in fuzz-pad.c: an element size above PTRDIFF_MAX is NDPAD_ERR_OVERFLOW for ndpad
     * even when the tensors are empty (the reference only checks their byte counts). */
    if (st == NDPAD_ERR_OVERFLOW &&
        (c->elem_size > (size_t)PTRDIFF_MAX || reflect_period_overflows(c))) {
        free(onnx);
        return;
    }
    if (verdict.status != NDPAD_OK) {
        FUZZ_CHECK(fuzz_status_allowed(st, &verdict),
                   "ndpad_onnx_problem_init returned %d (%s); the reference says %d (%s)", (int)st,
                   ndpad_last_error(), (int)verdict.status, verdict.where);
        FUZZ_CHECK(fuzz_last_error_ok(), "ndpad_onnx_problem_init: bad ndpad_last_error()");
        enum { SIZE = 512 };
        static unsigned char in[SIZE], out[SIZE];
        for (int i = 0; i < SIZE; i++) in[i] = (unsigned char)(i * 5 + 3);
        memset(out, TEST_SENTINEL, sizeof out);
        const ndpad_status st2 =
            ndpad_onnx_pad(c->rank, c->shape, c->elem_size, c->pads, c->pads_count, c->axes,
                           c->axes_count, c->mode, c->constant_value, in, out);
        FUZZ_CHECK(fuzz_status_allowed(st2, &verdict),
                   "ndpad_onnx_pad returned %d (%s); the reference says %d (%s)", (int)st2,
                   ndpad_last_error(), (int)verdict.status, verdict.where);
        FUZZ_CHECK(test_all_bytes_are(out, sizeof out, TEST_SENTINEL),
                   "ndpad_onnx_pad wrote to out on error");
        for (int i = 0; i < SIZE; i++)
            FUZZ_CHECK(in[i] == (unsigned char)(i * 5 + 3), "ndpad_onnx_pad wrote the input");
        free(onnx);
        return;
    }

    FUZZ_CHECK(st == NDPAD_OK, "ndpad_onnx_problem_init rejects a valid call: %d (%s)", (int)st,
               ndpad_last_error());
    const int32_t rank = c->rank;
    int64_t n[ARR];
    const ndpad_status shape_st = ndpad_output_shape(&onnx->problem, n);
    FUZZ_CHECK(shape_st == NDPAD_OK, "ndpad_output_shape of the ONNX problem: %d (%s)",
               (int)shape_st, ndpad_last_error());
    for (int32_t k = 0; k < rank; k++) {
        FUZZ_CHECK(n[k] == ref_shape[k], "output extent %d: ndpad %lld, reference %lld", (int)k,
                   (long long)n[k], (long long)ref_shape[k]);
        FUZZ_CHECK(onnx->problem.pads_begin[k] >= 0 && onnx->problem.pads_end[k] >= 0,
                   "the ONNX translation has a negative pad on axis %d", (int)k);
    }

    /* run when small: dense input and output, guards on both sides */
    const size_t es = c->elem_size;
    __int128 in_count = 1, out_count = 1;
    for (int32_t k = 0; k < rank; k++) {
        in_count *= c->shape[k];
        out_count *= n[k];
        if (in_count > FUZZ_MAX_OUT) in_count = FUZZ_MAX_OUT + 1;
        if (out_count > FUZZ_MAX_OUT) out_count = FUZZ_MAX_OUT + 1;
    }
    if (in_count > FUZZ_MAX_OUT || out_count > FUZZ_MAX_OUT || es > 4096 ||
        in_count * (__int128)es > FUZZ_MAX_BYTES || out_count * (__int128)es > FUZZ_MAX_BYTES) {
        free(onnx);
        return;
    }
    const size_t in_bytes = (size_t)in_count * es, out_bytes = (size_t)out_count * es;
    test_out in = test_out_make(in_bytes);
    test_rng rng = test_rng_make(0x0ada, in_bytes);
    test_rng_bytes(&rng, in.alloc, test_out_alloc_size(&in));
    unsigned char *in_copy = test_xmalloc(test_out_alloc_size(&in));
    memcpy(in_copy, in.alloc, test_out_alloc_size(&in));
    test_out expected = test_out_make(out_bytes), actual = test_out_make(out_bytes),
             core = test_out_make(out_bytes);
    const size_t out_whole = test_out_alloc_size(&expected);
    unsigned char *in_body = in.body;

    const ndpad_status want =
        ndpad_ref_onnx_pad(rank, c->shape, es, c->pads, c->pads_count, c->axes, c->axes_count,
                           c->mode, c->constant_value, in_body, expected.alloc + TEST_GUARD);
    FUZZ_CHECK(want == NDPAD_OK, "fuzz bug: the reference fails on a valid call (%d)", (int)want);
    const ndpad_status got =
        ndpad_onnx_pad(rank, c->shape, es, c->pads, c->pads_count, c->axes, c->axes_count, c->mode,
                       c->constant_value, in_body, actual.alloc + TEST_GUARD);
    FUZZ_CHECK(got == NDPAD_OK, "ndpad_onnx_pad: %d (%s)", (int)got, ndpad_last_error());
    ptrdiff_t diff = test_first_difference(expected.alloc, actual.alloc, out_whole);
    if (diff >= 0)
        test_print_difference(stderr, expected.alloc, actual.alloc, out_whole, TEST_GUARD);
    FUZZ_CHECK(diff < 0, "ndpad_onnx_pad differs from the reference at byte %td", diff);

    const ndpad_status got_core =
        ndpad_pad(&onnx->problem, in_body + onnx->in_offset, core.alloc + TEST_GUARD);
    FUZZ_CHECK(got_core == NDPAD_OK, "ndpad_pad(onnx.problem): %d (%s)", (int)got_core,
               ndpad_last_error());
    diff = test_first_difference(expected.alloc, core.alloc, out_whole);
    if (diff >= 0) test_print_difference(stderr, expected.alloc, core.alloc, out_whole, TEST_GUARD);
    FUZZ_CHECK(diff < 0, "ndpad_pad(onnx.problem, in + in_offset) differs at byte %td", diff);
    FUZZ_CHECK(memcmp(in.alloc, in_copy, test_out_alloc_size(&in)) == 0, "the input was modified");

    free(in_copy);
    test_out_free(&in);
    test_out_free(&expected);
    test_out_free(&actual);
    test_out_free(&core);
    free(onnx);
}

/* ---- ONNX element types -------------------------------------------------------------- */

/* The first Pad version that lists each type (ONNX's lists), 0 for none. */
static int32_t pad_since(int32_t type)
{
    switch (type) {
    case 1:
    case 10:
    case 11: return 1;
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
    case 12:
    case 13: return 11;
    case 8:
    case 9:
    case 14:
    case 15:
    case 16: return 13;
    case 17:
    case 18:
    case 19:
    case 20:
    case 21:
    case 22: return 21;
    case 23: return 23;
    case 24: return 24;
    case 25:
    case 26: return 25;
    default: return 0;
    }
}

static int32_t pad_version_at(int32_t opset)
{
    static const int32_t versions[] = {25, 24, 23, 21, 19, 18, 13, 11, 2, 1};
    if (opset == 0) return 25;
    for (size_t i = 0; i < FUZZ_COUNT(versions); i++)
        if (versions[i] <= opset) return versions[i];
    return 0;
}

static unsigned get_bits(const unsigned char *buf, int64_t i, int32_t bits)
{
    const int64_t p = i * bits;
    return (unsigned)(buf[p / 8] >> (p % 8)) & ((1u << bits) - 1u);
}

static void check_typed(const onnx_case *c)
{
    const int32_t type = c->elem_type, opset = c->opset;
    const int32_t bits = ndpad_onnx_type_bits(type);
    const size_t es = bits >= 8 ? (size_t)bits / 8 : 1;
    const int32_t version = opset >= 0 ? pad_version_at(opset) : 0;
    const bool type_ok = opset >= 0 && pad_since(type) != 0 && version >= pad_since(type) &&
                         type != NDPAD_ONNX_STRING;
    /* one element of the type (up to 16 bytes), from the fuzzed value of elem_size bytes */
    unsigned char value_bytes[16];
    const unsigned char *value = NULL;
    if (c->constant_value != NULL) {
        for (size_t i = 0; i < sizeof value_bytes; i++)
            value_bytes[i] = i < c->elem_size ? c->constant_value[i] : (unsigned char)(i * 3);
        value = value_bytes;
    }
    ndpad_ref_verdict verdict;
    int64_t ref_shape[ARR];
    ndpad_ref_onnx_validate(c->rank, c->shape, es, c->pads, c->pads_count, c->axes, c->axes_count,
                            c->mode, &verdict, ref_shape);
    ndpad_onnx_typed_problem *typed = test_xmalloc(sizeof(*typed));
    const ndpad_status st =
        ndpad_onnx_problem_init_typed(typed, opset, c->rank, c->shape, type, c->pads, c->pads_count,
                                      c->axes, c->axes_count, c->mode, value);
    free(typed);
    enum { SIZE = 512 };
    static unsigned char in[SIZE], out[SIZE];
    for (int i = 0; i < SIZE; i++) in[i] = (unsigned char)(i * 7 + 1);
    memset(out, TEST_SENTINEL, sizeof out);
    if (!type_ok) {
        FUZZ_CHECK(st == NDPAD_ERR_TYPE, "typed init of type %d at opset %d: %d (%s)", (int)type,
                   (int)opset, (int)st, ndpad_last_error());
        FUZZ_CHECK(ndpad_onnx_pad_typed(opset, c->rank, c->shape, type, c->pads, c->pads_count,
                                        c->axes, c->axes_count, c->mode, value, in,
                                        out) == NDPAD_ERR_TYPE,
                   "ndpad_onnx_pad_typed and its init disagree");
        FUZZ_CHECK(test_all_bytes_are(out, sizeof out, TEST_SENTINEL), "wrote to out on error");
        return;
    }
    if (c->axes != NULL && version < 18) {
        FUZZ_CHECK(st == NDPAD_ERR_AXES, "axes at opset %d: %d (%s)", (int)opset, (int)st,
                   ndpad_last_error());
        return;
    }
    if (c->mode != NULL && strcmp(c->mode, "wrap") == 0 && version < 19) {
        FUZZ_CHECK(st == NDPAD_ERR_MODE, "wrap at opset %d: %d (%s)", (int)opset, (int)st,
                   ndpad_last_error());
        return;
    }
    if (st == NDPAD_ERR_OVERFLOW && verdict.status == NDPAD_OK && reflect_period_overflows(c)) {
        FUZZ_CHECK(ndpad_onnx_pad_typed(opset, c->rank, c->shape, type, c->pads, c->pads_count,
                                        c->axes, c->axes_count, c->mode, value, in, out) == st,
                   "ndpad_onnx_pad_typed and its init disagree");
        FUZZ_CHECK(test_all_bytes_are(out, sizeof out, TEST_SENTINEL), "wrote to out on error");
        return;
    }
    if (verdict.status != NDPAD_OK || st != NDPAD_OK) {
        /* the byte rules as the reference has them; a sub-byte tensor may also overflow
         * int64 in bits where its element count does not */
        FUZZ_CHECK(verdict.status != NDPAD_OK ? fuzz_status_allowed(st, &verdict)
                                              : bits < 8 && st == NDPAD_ERR_OVERFLOW,
                   "typed init returned %d (%s); the reference says %d (%s)", (int)st,
                   ndpad_last_error(), (int)verdict.status, verdict.where);
        FUZZ_CHECK(fuzz_last_error_ok(), "typed init: bad ndpad_last_error()");
        FUZZ_CHECK(ndpad_onnx_pad_typed(opset, c->rank, c->shape, type, c->pads, c->pads_count,
                                        c->axes, c->axes_count, c->mode, value, in, out) == st,
                   "ndpad_onnx_pad_typed and its init disagree");
        FUZZ_CHECK(test_all_bytes_are(out, sizeof out, TEST_SENTINEL), "wrote to out on error");
        return;
    }
    /* run when small: dense packed tensors, guards on both sides */
    __int128 in_count = 1, out_count = 1;
    for (int32_t k = 0; k < c->rank; k++) {
        in_count *= c->shape[k];
        out_count *= ref_shape[k];
        if (in_count > FUZZ_MAX_OUT) in_count = FUZZ_MAX_OUT + 1;
        if (out_count > FUZZ_MAX_OUT) out_count = FUZZ_MAX_OUT + 1;
    }
    if (in_count > FUZZ_MAX_OUT || out_count > FUZZ_MAX_OUT) return;
    const size_t in_bytes = (size_t)((in_count * bits + 7) / 8);
    const size_t out_bytes = (size_t)((out_count * bits + 7) / 8);
    unsigned char *source = test_xmalloc(in_bytes + 1);
    test_rng rng = test_rng_make(0x7e9e, in_bytes);
    test_rng_bytes(&rng, source, in_bytes + 1);
    unsigned char *expected = test_xmalloc(out_bytes + 1);
    memset(expected, 0, out_bytes + 1);
    if (bits >= 8) {
        FUZZ_CHECK(ndpad_ref_onnx_pad(c->rank, c->shape, es, c->pads, c->pads_count, c->axes,
                                      c->axes_count, c->mode, value, source, expected) == NDPAD_OK,
                   "fuzz bug: the reference fails on a valid call");
    } else {
        unsigned char *wide_in = test_xmalloc((size_t)in_count + 1);
        unsigned char *wide_out = test_xmalloc((size_t)out_count + 1);
        for (int64_t i = 0; i < (int64_t)in_count; i++)
            wide_in[i] = (unsigned char)get_bits(source, i, bits);
        const unsigned char wide_value = value != NULL ? value[0] & ((1u << bits) - 1u) : 0;
        FUZZ_CHECK(ndpad_ref_onnx_pad(c->rank, c->shape, 1, c->pads, c->pads_count, c->axes,
                                      c->axes_count, c->mode, value != NULL ? &wide_value : NULL,
                                      wide_in, wide_out) == NDPAD_OK,
                   "fuzz bug: the reference fails on a valid call");
        for (int64_t i = 0; i < (int64_t)out_count; i++)
            expected[(i * bits) / 8] |= (unsigned char)(wide_out[i] << ((i * bits) % 8));
        free(wide_in);
        free(wide_out);
    }
    test_out actual = test_out_make(out_bytes);
    const ndpad_status got =
        ndpad_onnx_pad_typed(opset, c->rank, c->shape, type, c->pads, c->pads_count, c->axes,
                             c->axes_count, c->mode, value, source, actual.body);
    FUZZ_CHECK(got == NDPAD_OK, "ndpad_onnx_pad_typed: %d (%s)", (int)got, ndpad_last_error());
    const ptrdiff_t diff = test_first_difference(expected, actual.body, out_bytes);
    if (diff >= 0) test_print_difference(stderr, expected, actual.body, out_bytes, 0);
    FUZZ_CHECK(diff < 0, "ndpad_onnx_pad_typed (%s) differs from the reference at byte %td",
               ndpad_onnx_type_name(type), diff);
    FUZZ_CHECK(test_all_bytes_are(actual.alloc, TEST_GUARD, TEST_SENTINEL) &&
                   test_all_bytes_are(actual.body + out_bytes, TEST_GUARD, TEST_SENTINEL),
               "ndpad_onnx_pad_typed wrote a guard byte");
    test_out_free(&actual);
    free(expected);
    free(source);
}

/* ---- NDPAD_ISA ----------------------------------------------------------------------- */

static void check_isa_variable(const onnx_case *c)
{
    static const int64_t shape[2] = {3, 5}, pb[2] = {1, 7}, pe[2] = {2, 0};
    static const int32_t in[15] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_REFLECT,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe};
    int32_t expected[6 * 12], actual[6 * 12];

    const char *saved = getenv("NDPAD_ISA");
    char saved_copy[256];
    if (saved) snprintf(saved_copy, sizeof saved_copy, "%s", saved);
    setenv("NDPAD_ISA", c->isa_text, 1);

    ndpad_plan *plan = NULL;
    const ndpad_status st = ndpad_plan_create(&p, NULL, &plan);
    int32_t named = -1; /* the level the text names, -1 for none, 0 for the best */
    static const int32_t levels[] = {
        NDPAD_ISA_AUTO,
#define NDPAD_ISA_LEVEL(ID, ...) NDPAD_ISA_##ID,
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
    };
    for (size_t k = 0; k < sizeof(levels) / sizeof(levels[0]); k++)
        if (strcmp(c->isa_text, ndpad_isa_name((ndpad_isa)levels[k])) == 0) named = levels[k];
    if (c->isa_text[0] == '\0') named = NDPAD_ISA_AUTO;

    if (st == NDPAD_OK) {
        FUZZ_CHECK(named >= 0, "NDPAD_ISA=\"%s\" names no level but a plan was made", c->isa_text);
        FUZZ_CHECK(named == NDPAD_ISA_AUTO || ndpad_plan_isa(plan) == (ndpad_isa)named,
                   "NDPAD_ISA=\"%s\" gave a plan with isa %s", c->isa_text,
                   ndpad_isa_name(ndpad_plan_isa(plan)));
        FUZZ_CHECK(ndpad_plan_isa(plan) != NDPAD_ISA_AUTO, "a plan reports isa auto");
        FUZZ_CHECK(ndpad_ref_pad(&p, in, expected) == NDPAD_OK, "fuzz bug: reference fails");
        memset(actual, TEST_SENTINEL, sizeof actual);
        FUZZ_CHECK(ndpad_execute(plan, in, actual) == NDPAD_OK, "ndpad_execute failed");
        FUZZ_CHECK(memcmp(expected, actual, sizeof actual) == 0,
                   "NDPAD_ISA=\"%s\": output differs from the reference", c->isa_text);
    } else {
        FUZZ_CHECK(st == NDPAD_ERR_ISA_UNAVAILABLE,
                   "NDPAD_ISA=\"%s\": ndpad_plan_create returned %d (%s)", c->isa_text, (int)st,
                   ndpad_last_error());
        FUZZ_CHECK(named != NDPAD_ISA_AUTO && named != NDPAD_ISA_SCALAR,
                   "NDPAD_ISA=\"%s\" is always available but was refused", c->isa_text);
        FUZZ_CHECK(plan == NULL, "*plan non-NULL on error");
        FUZZ_CHECK(fuzz_last_error_ok(), "bad ndpad_last_error() for NDPAD_ISA");
        FUZZ_CHECK(strstr(ndpad_last_error(), "NDPAD_ISA") != NULL,
                   "the message does not name NDPAD_ISA: %s", ndpad_last_error());
        memset(actual, TEST_SENTINEL, sizeof actual);
        FUZZ_CHECK(ndpad_pad(&p, in, actual) == NDPAD_ERR_ISA_UNAVAILABLE,
                   "ndpad_pad and ndpad_plan_create disagree on NDPAD_ISA=\"%s\"", c->isa_text);
        FUZZ_CHECK(test_all_bytes_are(actual, sizeof actual, TEST_SENTINEL),
                   "ndpad_pad wrote to out on error");
    }
    ndpad_plan_destroy(plan);

    if (saved)
        setenv("NDPAD_ISA", saved_copy, 1);
    else
        unsetenv("NDPAD_ISA");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_reader r = {data, size, 0};
    onnx_case c;
    decode(&r, &c);
    current = &c;
    check_onnx(&c);
    if (c.typed) check_typed(&c);
    if (c.set_isa) check_isa_variable(&c);
    current = NULL;
    release(&c);
    return 0;
}
