/*
 * fuzz-pad.c — libFuzzer target: bytes -> an ndpad problem -> ndpad against the naive
 * reference (tests/ref), byte for byte, with guard bytes around the output.
 *
 * The bytes decode into: rank (0..6 mostly, up to 32, or hostile: -1, 33, INT32_MIN, ...),
 * mode (valid or not), element size (1..64 or hostile: 0, SIZE_MAX, 2^62, ...), and per axis
 * an extent, pads and interior (small, or hostile: ±2^62, INT64_MIN/MAX, 2^32, ...), input
 * and output layouts (axis order, gaps, negative and zero strides, hostile strides), a pad
 * value, in-place or not, NULL buffers, and plan options (threads 0-2, forced tile shapes).
 *
 * Invalid problems (the reference says so) must be rejected by ndpad_output_shape,
 * ndpad_pad and ndpad_plan_create with a status the reference found, a non-empty
 * ndpad_last_error(), *plan == NULL and nothing written anywhere. Valid problems small
 * enough to run (bounded below, so that each input runs in well under a millisecond or
 * so) are run through ndpad_pad (default options) and through a plan on EVERY instruction
 * set this CPU has (scalar, AVX2, AVX-512; simdjson's fuzz_implementations), executed twice,
 * each compared with the reference over the whole output allocation plus guard bytes; the
 * input must come back unchanged. Valid problems too big to run still have their output
 * shape checked and a plan created (planning must not depend on the output's size).
 *
 * Constants (issue 36): every runnable CONSTANT problem also runs with constants per side
 * (without interior) and per index along an axis drawn from the run's seeded generator
 * (ndpad_pad_sides, ndpad_pad_per_index and their plans on every ISA) against the
 * reference's ndpad_ref_pad_constants; other modes must refuse them (NDPAD_ERR_MODE, nothing
 * written), and invalid problems give the same statuses through them.
 *
 * Windows: trailing bytes (after everything above, so older inputs decode as before) give
 * a window per axis, the whole output when absent. A runnable problem checks that window
 * on every ISA (box from ndpad_window_input_box against the reference's reads, box and
 * window in their own layouts or the whole tensors', guard bytes, the block of the whole
 * output); a problem too big to run still gets its window's box and plan.
 *
 * Not fuzzed here: options.threads above 2 (a plan may then start that many OpenMP
 * threads; huge counts are covered by test-hostile) and the NDPAD_ISA variable
 * (fuzz-onnx.c fuzzes it).
 *
 * Build with clang -fsanitize=fuzzer (ci/fuzz.sh), or link with replay.c to run a corpus.
 */
#include "fuzz-common.h"
#include "test-strided.h"
#include "test-window-check.h"

#define ARR            40                 /* array slots: more than any valid rank */
#define FUZZ_MAX_OUT   ((int64_t)16384)   /* output elements the reference computes per run */
#define FUZZ_MAX_BYTES ((int64_t)1 << 17) /* bytes of an output or input allocation */

typedef struct fuzz_case {
    ndpad_problem p;
    int32_t arrays; /* entries in each array (exactly: ASan sees over-reads) */
    int64_t *shape, *pb, *pe, *interior, *in_strides, *out_strides;
    unsigned char *pad_value;
    bool in_place, null_in, null_out;
    ndpad_options options;
    uint16_t window[ARR][2]; /* trailing bytes (0 past the end: the whole output) */
} fuzz_case;

static const fuzz_case *current;

static void fuzz_describe_current(void)
{
    if (current == NULL) return;
    fprintf(stderr, "  problem: ");
    ndpad_ref_print_problem(stderr, &current->p);
    fprintf(stderr,
            "  in_place=%d null_in=%d null_out=%d options={.threads=%d, .tile_rows=%lld,"
            " .tile_cols=%lld}\n",
            current->in_place, current->null_in, current->null_out, (int)current->options.threads,
            (long long)current->options.tile_rows, (long long)current->options.tile_cols);
}

/* ---- decoding ------------------------------------------------------------------------ */

static int64_t sat_mul(int64_t a, int64_t b)
{
    int64_t p;
    return __builtin_mul_overflow(a, b, &p) ? INT64_MAX : p;
}

/* Output extent by the contract, saturated (it only shapes layouts; the reference decides). */
static int64_t out_extent(const fuzz_case *c, int32_t k)
{
    __extension__ typedef __int128 i128;
    const i128 d = c->shape[k], r = c->p.interior ? c->interior[k] : 0;
    if (d < 0 || r < 0) return 1;
    const i128 dilated = d == 0 ? 0 : (d - 1) * (r + 1) + 1;
    const i128 n = (i128)c->pb[k] + dilated + c->pe[k];
    return n <= 0 ? 0 : n > INT64_MAX ? INT64_MAX : (int64_t)n;
}

/* A layout over `extents`: axis order from `order_seed`, per axis one byte: gap (0..3),
 * negative (flip), zero (input only), or 0xFF followed by a hostile stride. */
static void decode_layout(fuzz_reader *r, int32_t rank, const int64_t *extents, int64_t *strides,
                          bool allow_zero)
{
    int32_t order[ARR];
    for (int32_t k = 0; k < rank; k++) order[k] = k;
    uint32_t seed = fuzz_u8(r);
    if (seed & 1)
        for (int32_t k = rank - 1; k > 0; k--) {
            seed = seed * 1103515245u + 12345u;
            const int32_t j = (int32_t)((seed >> 8) % (uint32_t)(k + 1));
            const int32_t t = order[k];
            order[k] = order[j];
            order[j] = t;
        }
    uint8_t bytes[ARR];
    fuzz_bytes(r, bytes, (size_t)rank);
    int64_t stride = (seed & 6) == 6 ? 2 : 1;
    for (int32_t i = rank - 1; i >= 0; i--) {
        const int32_t k = order[i];
        strides[k] = stride;
        const int64_t extent = extents[k] > 0 ? extents[k] : 1;
        stride = sat_mul(stride, extent < INT64_MAX - 3 ? extent + (bytes[k] & 3) : extent);
    }
    for (int32_t k = 0; k < rank; k++) {
        const uint8_t b = bytes[k];
        if (b == 0xFF)
            strides[k] = fuzz_hostile_i64[fuzz_u8(r) % 16];
        else if (allow_zero && ((b >> 3) & 7) == 0)
            strides[k] = 0;
        else if ((b >> 2) & 1)
            strides[k] = -strides[k];
    }
}

static void decode(fuzz_reader *r, fuzz_case *c)
{
    static const int32_t hostile_ranks[] = {-1,        NDPAD_MAX_RANK + 1,
                                            INT32_MIN, INT32_MAX,
                                            -7,        64,
                                            40,        1000};
    static const int32_t hostile_modes[] = {5, -1, INT32_MAX, INT32_MIN, 100, 6, -5, 255};
    static const int32_t threads[] = {0, 1, 2, 1};
    static const int64_t tile_rows[] = {0, 0, 0, 1, 2, 3, 5, INT64_MAX};
    static const int64_t tile_cols[] = {0, 0, 0, 1, 3, 7, 16, INT64_MAX};

    memset(c, 0, sizeof(*c));
    const uint8_t rank_byte = fuzz_u8(r);
    int32_t rank;
    if (rank_byte < 224)
        rank = rank_byte % 7;
    else if (rank_byte < 248)
        rank = 7 + rank_byte % 26; /* 7 .. 32 */
    else
        rank = hostile_ranks[rank_byte % 8];
    const uint8_t mode_byte = fuzz_u8(r);
    c->p.rank = rank;
    c->p.mode = mode_byte < 240 ? mode_byte % 5 : hostile_modes[mode_byte % 8];
    c->p.elem_size = fuzz_elem_size(r);
    const uint8_t flags = fuzz_u8(r), extra = fuzz_u8(r), opts = fuzz_u8(r);

    ndpad_options_init(&c->options);
    c->options.threads = threads[opts & 3];
    c->options.tile_rows = tile_rows[(opts >> 2) & 7];
    c->options.tile_cols = tile_cols[(opts >> 5) & 7];

    /* Arrays hold exactly `rank` entries for a valid rank, one for an invalid one (which
     * must not be read at all). */
    const bool rank_ok = rank >= 0 && rank <= NDPAD_MAX_RANK;
    const int32_t axes = rank_ok ? rank : 0;
    c->arrays = axes > 0 ? axes : 1;
    const size_t bytes = sizeof(int64_t) * (size_t)c->arrays;
    c->shape = test_xmalloc(bytes);
    c->pb = test_xmalloc(bytes);
    c->pe = test_xmalloc(bytes);
    c->interior = test_xmalloc(bytes);
    c->in_strides = test_xmalloc(bytes);
    c->out_strides = test_xmalloc(bytes);
    memset(c->shape, 0, bytes);
    memset(c->pb, 0, bytes);
    memset(c->pe, 0, bytes);
    memset(c->interior, 0, bytes);

    const bool interior = flags & 1;
    for (int32_t k = 0; k < axes; k++) {
        int64_t d = fuzz_extent(r);
        if (rank > 6 && d >= 0 && d < 10) d %= 3; /* many axes: tiny extents */
        c->shape[k] = d;
        c->pb[k] = fuzz_pad(r);
        c->pe[k] = fuzz_pad(r);
        if (rank > 6 && c->pb[k] > 2 && c->pb[k] < 40) c->pb[k] %= 3;
        if (rank > 6 && c->pe[k] > 2 && c->pe[k] < 40) c->pe[k] %= 3;
        if (interior) c->interior[k] = fuzz_interior(r);
    }
    c->p.shape = c->shape;
    c->p.pads_begin = c->pb;
    c->p.pads_end = c->pe;
    c->p.interior = interior ? c->interior : NULL;
    if (rank == 0 && (flags & 0x80)) c->p.shape = c->p.pads_begin = c->p.pads_end = NULL;

    int64_t n[ARR];
    bool pads_non_negative = true, has_interior = false;
    for (int32_t k = 0; k < axes; k++) {
        n[k] = out_extent(c, k);
        pads_non_negative = pads_non_negative && c->pb[k] >= 0 && c->pe[k] >= 0;
        has_interior = has_interior || (interior && c->interior[k] != 0);
    }

    c->in_place = (extra & 7) == 1 && rank > 0 && pads_non_negative && !has_interior;
    if (c->in_place) {
        decode_layout(r, axes, n, c->out_strides, false);
        memcpy(c->in_strides, c->out_strides, bytes);
        c->p.out_strides = c->out_strides;
        c->p.in_strides = c->in_strides;
    } else {
        if (flags & 2) {
            decode_layout(r, axes, c->shape, c->in_strides, true);
            c->p.in_strides = c->in_strides;
        }
        if (flags & 4) {
            decode_layout(r, axes, n, c->out_strides, false);
            c->p.out_strides = c->out_strides;
        }
        c->null_in = ((extra >> 3) & 7) == 1;
        c->null_out = ((extra >> 6) & 3) == 1;
    }

    /* The pad value: elem_size bytes when that is reasonable, else NULL (zero bytes). */
    if ((flags & 8) && c->p.elem_size > 0 && c->p.elem_size <= 4096) {
        c->pad_value = test_xmalloc(c->p.elem_size);
        const size_t given = c->p.elem_size < 64 ? c->p.elem_size : 64;
        fuzz_bytes(r, c->pad_value, given);
        for (size_t i = given; i < c->p.elem_size; i++) c->pad_value[i] = (unsigned char)(i * 7);
        c->p.pad_value = c->pad_value;
    }

    /* Last, so that inputs made before windows decode to the same problem. */
    for (int32_t k = 0; k >= 0 && k < c->p.rank && k <= NDPAD_MAX_RANK; k++)
        for (int i = 0; i < 2; i++) {
            const uint8_t lo = fuzz_u8(r);
            c->window[k][i] = (uint16_t)(lo | fuzz_u8(r) << 8);
        }
}

/* The window of a valid problem with output extents `n`, from the trailing bytes: per axis
 * o0 = v0 mod (n + 1) and o1 = n - (v1 mod (n - o0 + 1)), so that an input without them
 * (every corpus file made before windows) gets the whole output. */
static void decode_window(const fuzz_case *c, const int64_t *n, int64_t *ob, int64_t *oe)
{
    for (int32_t k = 0; k < c->p.rank; k++) {
        const uint64_t span = (uint64_t)n[k] + 1;
        ob[k] = span == 0 ? 0 : (int64_t)(c->window[k][0] % span);
        const uint64_t rest = (uint64_t)(n[k] - ob[k]) + 1;
        oe[k] = n[k] - (rest == 0 ? 0 : (int64_t)(c->window[k][1] % rest));
    }
}

static void release(fuzz_case *c)
{
    free(c->shape);
    free(c->pb);
    free(c->pe);
    free(c->interior);
    free(c->in_strides);
    free(c->out_strides);
    free(c->pad_value);
}

/* ---- invalid problems ---------------------------------------------------------------- */

/* The places ndpad may be stricter than the reference. First, an element size above
 * PTRDIFF_MAX is NDPAD_ERR_OVERFLOW for ndpad ("no byte count may overflow ptrdiff_t",
 * the element being a byte count), checked right after elem_size == 0, even when the
 * tensors are empty; the reference only checks the tensors' byte counts. */
static bool stricter_than_reference(const fuzz_case *c, ndpad_status got)
{
    if (got != NDPAD_ERR_OVERFLOW) return false;
    if (c->p.elem_size > (size_t)PTRDIFF_MAX) return true;
    /* The other place: REFLECT and SYMMETRIC compute their period, 2 (d - 1) or 2 d, in
     * int64, so a non-empty output of an axis with d > 2^62 (an input of 2^62 elements or
     * more) is NDPAD_ERR_OVERFLOW; the reference computes it in 128 bits. */
    if (c->p.rank < 1 || c->p.rank > NDPAD_MAX_RANK || c->p.shape == NULL) return false;
    const bool doubled = c->p.mode == NDPAD_REFLECT || c->p.mode == NDPAD_SYMMETRIC;
    for (int32_t k = 0; k < c->p.rank; k++)
        if (doubled && c->p.shape[k] > INT64_MAX / 2) return true;
    /* And the third: output positions j = o - pads_begin are int64, so a non-empty output
     * whose o - pads_begin leaves int64 on some axis (pads_begin near -2^63 with o > 0, or
     * INT64_MIN) is NDPAD_ERR_OVERFLOW ("no offset may overflow int64"); the reference
     * computes positions in 128 bits. */
    int64_t n[ARR];
    if (ndpad_ref_output_shape(&c->p, n) != NDPAD_OK) return false;
    for (int32_t k = 0; k < c->p.rank; k++)
        if (n[k] == 0) return false;
    for (int32_t k = 0; k < c->p.rank; k++) {
        int64_t position;
        if (c->p.pads_begin[k] == INT64_MIN ||
            __builtin_sub_overflow(n[k] - 1, c->p.pads_begin[k], &position))
            return true;
    }
    return false;
}

/* AUTO, then every level of the one list (src/isa-levels.inc). */
static const int32_t all_isas[] = {
    NDPAD_ISA_AUTO,
#define NDPAD_ISA_LEVEL(ID, ...) NDPAD_ISA_##ID,
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
};

static void check_invalid(const fuzz_case *c, const ndpad_ref_verdict *verdict)
{
    enum { SIZE = 512 };
    static unsigned char in[SIZE], out[SIZE + 2 * TEST_GUARD];
    int64_t out_shape[ARR];
    for (int i = 0; i < SIZE; i++) in[i] = (unsigned char)(i * 13 + 1);
    memset(out, TEST_SENTINEL, sizeof out);
    memset(out_shape, TEST_SENTINEL, sizeof out_shape);

    ndpad_status st = ndpad_output_shape(&c->p, out_shape);
    FUZZ_CHECK(fuzz_status_allowed(st, verdict) || stricter_than_reference(c, st),
               "ndpad_output_shape returned %d (%s); the reference says %d (%s)", (int)st,
               ndpad_last_error(), (int)verdict->status, verdict->where);
    FUZZ_CHECK(fuzz_last_error_ok(), "ndpad_output_shape: bad ndpad_last_error()");
    FUZZ_CHECK(test_all_bytes_are(out_shape, sizeof out_shape, TEST_SENTINEL),
               "ndpad_output_shape wrote out_shape on error");

    st = ndpad_pad(&c->p, in + SIZE / 2, out + TEST_GUARD + SIZE / 2);
    FUZZ_CHECK(fuzz_status_allowed(st, verdict) || stricter_than_reference(c, st),
               "ndpad_pad returned %d (%s); the reference says %d (%s)", (int)st,
               ndpad_last_error(), (int)verdict->status, verdict->where);
    FUZZ_CHECK(fuzz_last_error_ok(), "ndpad_pad: bad ndpad_last_error()");

    /* constants per side and per index: the problem's rules first, the same statuses */
    for (int kind = 0; kind < 2; kind++) {
        st = kind == 0
                 ? ndpad_pad_sides(&c->p, in, NULL, in + SIZE / 2, out + TEST_GUARD + SIZE / 2)
                 : ndpad_pad_per_index(&c->p, 0, in, NULL, in + SIZE / 2,
                                       out + TEST_GUARD + SIZE / 2);
        FUZZ_CHECK(fuzz_status_allowed(st, verdict) || stricter_than_reference(c, st),
                   "%s returned %d (%s); the reference says %d (%s)",
                   kind == 0 ? "ndpad_pad_sides" : "ndpad_pad_per_index", (int)st,
                   ndpad_last_error(), (int)verdict->status, verdict->where);
        FUZZ_CHECK(fuzz_last_error_ok(), "constants: bad ndpad_last_error()");
    }

    for (size_t i = 0; i < FUZZ_COUNT(all_isas); i++) {
        ndpad_options options = c->options;
        options.isa = all_isas[i];
        ndpad_plan *plan = (ndpad_plan *)(void *)&options; /* must become NULL */
        st = ndpad_plan_create(&c->p, &options, &plan);
        FUZZ_CHECK(plan == NULL, "ndpad_plan_create failed but left *plan non-NULL");
        FUZZ_CHECK(fuzz_status_allowed(st, verdict) || stricter_than_reference(c, st) ||
                       (st == NDPAD_ERR_ISA_UNAVAILABLE && all_isas[i] > NDPAD_ISA_SCALAR),
                   "ndpad_plan_create(isa %s) returned %d (%s); the reference says %d (%s)",
                   ndpad_isa_name((ndpad_isa)all_isas[i]), (int)st, ndpad_last_error(),
                   (int)verdict->status, verdict->where);
    }
    FUZZ_CHECK(test_all_bytes_are(out, sizeof out, TEST_SENTINEL), "an invalid problem wrote out");
    for (int i = 0; i < SIZE; i++)
        FUZZ_CHECK(in[i] == (unsigned char)(i * 13 + 1), "an invalid problem wrote the input");
}

/* ---- valid problems ------------------------------------------------------------------ */

/* What one valid run needs: the expected output allocation and how to build the actual. */
typedef struct valid_run {
    size_t out_size;      /* whole output allocation, guards included */
    ptrdiff_t out_origin; /* byte of element [0..0]                   */
    unsigned char *expected;
    unsigned char *initial; /* what the output allocation holds before a run */
    unsigned char *in_alloc, *in_copy;
    size_t in_size;
    const unsigned char *in; /* the input pointer passed (NULL when null_in) */
    ndpad_status want;
    /* constants per side or index (NDPAD_REF_PER_SIDE / _PER_INDEX), 0: the pad value */
    int32_t kind, axis;
    const unsigned char *values;
} valid_run;

/* ndpad_pad, or the one-shot call of the run's constants. */
static ndpad_status run_one_shot(const fuzz_case *c, const valid_run *v, const void *in, void *out)
{
    if (v->kind == NDPAD_REF_PER_SIDE) return ndpad_pad_sides(&c->p, v->values, NULL, in, out);
    if (v->kind == NDPAD_REF_PER_INDEX)
        return ndpad_pad_per_index(&c->p, v->axis, v->values, NULL, in, out);
    return ndpad_pad(&c->p, in, out);
}

/* ndpad_plan_create, or the plan of the run's constants. */
static ndpad_status create_plan(const fuzz_case *c, const valid_run *v,
                                const ndpad_options *options, ndpad_plan **plan)
{
    if (v->kind == NDPAD_REF_PER_SIDE)
        return ndpad_plan_create_sides(&c->p, v->values, options, plan);
    if (v->kind == NDPAD_REF_PER_INDEX)
        return ndpad_plan_create_per_index(&c->p, v->axis, v->values, options, plan);
    return ndpad_plan_create(&c->p, options, plan);
}

/* Runs one variant (ndpad_pad, or a plan executed twice) and compares. */
static void compare_variant(const fuzz_case *c, const valid_run *v, const char *what,
                            const ndpad_plan *plan)
{
    unsigned char *actual = test_xmalloc(v->out_size);
    for (int round = 0; round < (plan ? 2 : 1); round++) {
        memcpy(actual, v->initial, v->out_size);
        const unsigned char *in = v->in;
        if (c->in_place) in = actual + (v->in - v->initial); /* the input inside this output */
        unsigned char *out = c->null_out ? NULL : actual + v->out_origin;
        const ndpad_status got = plan ? ndpad_execute(plan, in, out) : run_one_shot(c, v, in, out);
        FUZZ_CHECK(got == v->want, "%s (round %d): status %d (%s), reference %d", what, round,
                   (int)got, got != NDPAD_OK ? ndpad_last_error() : "", (int)v->want);
        if (got != NDPAD_OK) FUZZ_CHECK(fuzz_last_error_ok(), "%s: bad ndpad_last_error()", what);
        const ptrdiff_t diff = test_first_difference(v->expected, actual, v->out_size);
        if (diff >= 0) {
            test_print_difference(stderr, v->expected, actual, v->out_size, v->out_origin);
            FUZZ_CHECK(false,
                       "%s (round %d): output differs from the reference at byte %td "
                       "of %zu (element [0..0] at %td)",
                       what, round, diff, v->out_size, v->out_origin);
        }
        if (v->in_alloc)
            FUZZ_CHECK(memcmp(v->in_alloc, v->in_copy, v->in_size) == 0,
                       "%s: the input allocation was modified", what);
    }
    free(actual);
}

/* ---- windows ------------------------------------------------------------------------- */

/* The decoded window of a runnable problem, on every instruction set (test-window-check.h:
 * the box from ndpad_window_input_box vs the reference's reads, box and window in layouts
 * of their own or of the whole tensors, guard bytes, the block of the whole output). */
static void check_window(const fuzz_case *c, const int64_t *n, const unsigned char *dense_in,
                         const unsigned char *dense_out, test_rng *rng)
{
    int64_t ob[ARR], oe[ARR];
    decode_window(c, n, ob, oe);
    for (size_t i = 0; i < FUZZ_COUNT(all_isas); i++) {
        ndpad_options options = c->options;
        options.isa = all_isas[i];
        ndpad_plan *probe = NULL;
        if (ndpad_plan_create(&c->p, &options, &probe) == NDPAD_ERR_ISA_UNAVAILABLE) continue;
        ndpad_plan_destroy(probe);
        char why[512];
        const bool ok =
            test_window_check(rng, &c->p, dense_in, dense_out, ob, oe, &options, why, sizeof why);
        if (!ok) {
            fprintf(stderr, "  window:");
            for (int32_t k = 0; k < c->p.rank; k++)
                fprintf(stderr, " [%lld, %lld)", (long long)ob[k], (long long)oe[k]);
            fprintf(stderr, "\n");
        }
        FUZZ_CHECK(ok, "window (isa %s): %s", ndpad_isa_name((ndpad_isa)all_isas[i]), why);
    }
}

/* A problem too big to run: its window's box and plan (hostile pads and extents reach the
 * window arithmetic here), with dense box and window strides. The box must lie inside the
 * input, and planning may only fail with NDPAD_ERR_OVERFLOW (byte sizes of the box/window
 * layouts) . */
static void plan_big_window(const fuzz_case *c, const int64_t *n, const ndpad_options *options)
{
    const int32_t rank = c->p.rank;
    int64_t ob[ARR], oe[ARR], ib[ARR], ie[ARR], bext[ARR], wext[ARR], bs[ARR], ws[ARR];
    decode_window(c, n, ob, oe);
    const ndpad_status st = ndpad_window_input_box(&c->p, ob, oe, ib, ie);
    FUZZ_CHECK(st == NDPAD_OK, "ndpad_window_input_box rejects a valid window: %d (%s)", (int)st,
               ndpad_last_error());
    for (int32_t k = 0; k < rank; k++) {
        FUZZ_CHECK(0 <= ib[k] && ib[k] <= ie[k] && ie[k] <= c->p.shape[k],
                   "input box axis %d [%lld, %lld) outside the input", (int)k, (long long)ib[k],
                   (long long)ie[k]);
        bext[k] = ie[k] - ib[k];
        wext[k] = oe[k] - ob[k];
    }
    ndpad_ref_dense_strides(rank, bext, bs);
    ndpad_ref_dense_strides(rank, wext, ws);
    for (int32_t k = 0; k < rank; k++) ws[k] = ws[k] == 0 ? 1 : ws[k];
    ndpad_plan *plan = NULL;
    const ndpad_status ps = ndpad_window_plan_create(&c->p, ob, oe, ib, ie, bs, ws, options, &plan);
    FUZZ_CHECK(ps == NDPAD_OK || ps == NDPAD_ERR_OVERFLOW,
               "ndpad_window_plan_create rejects a valid window: %d (%s)", (int)ps,
               ndpad_last_error());
    FUZZ_CHECK((plan != NULL) == (ps == NDPAD_OK), "plan and status disagree");
    ndpad_plan_destroy(plan);
}

/* ndpad_pad (or the one-shot call of the run's constants), then a plan on every
 * instruction set, executed twice, each against v->expected. */
static void compare_all(const fuzz_case *c, const valid_run *v)
{
    compare_variant(c, v,
                    v->kind == 0                    ? "ndpad_pad"
                    : v->kind == NDPAD_REF_PER_SIDE ? "ndpad_pad_sides"
                                                    : "ndpad_pad_per_index",
                    NULL);
    for (size_t i = 1; i < FUZZ_COUNT(all_isas); i++) {
        ndpad_options options = c->options;
        options.isa = all_isas[i];
        ndpad_plan *plan = NULL;
        const ndpad_status st = create_plan(c, v, &options, &plan);
        if (st == NDPAD_ERR_ISA_UNAVAILABLE && all_isas[i] != NDPAD_ISA_SCALAR) continue;
        FUZZ_CHECK(st == NDPAD_OK && plan != NULL,
                   "ndpad_plan_create(isa %s) rejects a valid problem: %d (%s)",
                   ndpad_isa_name((ndpad_isa)all_isas[i]), (int)st, ndpad_last_error());
        FUZZ_CHECK(ndpad_plan_isa(plan) == (ndpad_isa)all_isas[i], "plan has isa %s, not %s",
                   ndpad_isa_name(ndpad_plan_isa(plan)), ndpad_isa_name((ndpad_isa)all_isas[i]));
        char what[64];
        snprintf(what, sizeof what, "plan + execute (constants %d, isa %s)", (int)v->kind,
                 ndpad_isa_name((ndpad_isa)all_isas[i]));
        compare_variant(c, v, what, plan);
        ndpad_plan_destroy(plan);
    }
}

/* Constants per side (no interior) and per index along an axis the rng picks, for a
 * runnable CONSTANT problem: one-shot and plans on every ISA against the reference, with
 * the same output allocation, guards and input; another mode must be NDPAD_ERR_MODE with
 * nothing written. */
static void check_constants(const fuzz_case *c, const valid_run *base, const ndpad_problem *ref_p,
                            const void *ref_in, test_rng *rng)
{
    const ndpad_problem *p = &c->p;
    if (p->rank < 1 || base->want != NDPAD_OK || c->null_out) return;
    int64_t n[ARR];
    ndpad_ref_output_shape(p, n);
    const size_t es = p->elem_size;
    const int32_t axis = (int32_t)test_rng_range(rng, 0, p->rank - 1);
    if (p->mode != NDPAD_CONSTANT) {
        unsigned char *actual = test_xmalloc(base->out_size), values[64];
        memcpy(actual, base->initial, base->out_size);
        const ndpad_status st =
            ndpad_pad_per_index(p, axis, values, NULL, base->in, actual + base->out_origin);
        FUZZ_CHECK(st == NDPAD_ERR_MODE && fuzz_last_error_ok(),
                   "ndpad_pad_per_index with mode %d: %d (%s)", (int)p->mode, (int)st,
                   ndpad_last_error());
        FUZZ_CHECK(memcmp(actual, base->initial, base->out_size) == 0,
                   "ndpad_pad_per_index with a bad mode wrote the output");
        free(actual);
        return;
    }
    bool interior = false;
    for (int32_t k = 0; k < p->rank; k++) interior = interior || (p->interior && p->interior[k]);
    for (int32_t kind = NDPAD_REF_PER_SIDE; kind <= NDPAD_REF_PER_INDEX; kind++) {
        if (kind == NDPAD_REF_PER_SIDE && interior) continue;
        /* an empty output reads no value: a one-element buffer (ASan sees any read past it),
         * whatever the extent of the axis (which may be huge) */
        const int64_t count = ndpad_ref_output_count(p) == 0 ? 1
                              : kind == NDPAD_REF_PER_SIDE   ? 2 * p->rank
                                                             : n[axis];
        /* a few distinct values, so that equal neighbours and repeats occur */
        unsigned char palette[4][64];
        test_rng_bytes(rng, palette, sizeof palette);
        unsigned char *values = test_xmalloc((size_t)(count > 0 ? count : 1) * es);
        for (int64_t i = 0; i < count; i++)
            for (size_t b = 0; b < es; b++)
                values[(size_t)i * es + b] = palette[test_rng_range(rng, 0, 3)][b % 64];
        valid_run v = *base;
        v.kind = kind, v.axis = axis, v.values = values;
        v.expected = test_xmalloc(v.out_size);
        memcpy(v.expected, v.initial, v.out_size);
        FUZZ_CHECK(ndpad_ref_pad_constants(ref_p, kind, axis, values, ref_in,
                                           v.expected + v.out_origin) == NDPAD_OK,
                   "fuzz bug: the reference fails with constants");
        compare_all(c, &v);
        free(v.expected);
        free(values);
    }
}

static void check_valid(const fuzz_case *c)
{
    const ndpad_problem *p = &c->p;
    const int32_t rank = p->rank;
    const size_t es = p->elem_size;
    int64_t n[ARR], got_shape[ARR];
    ndpad_ref_output_shape(p, n);

    const ndpad_status shape_st = ndpad_output_shape(p, got_shape);
    if (stricter_than_reference(c, shape_st)) {
        FUZZ_CHECK(ndpad_pad(p, NULL, NULL) == NDPAD_ERR_OVERFLOW, "ndpad_pad disagrees");
        return;
    }
    FUZZ_CHECK(shape_st == NDPAD_OK, "ndpad_output_shape rejects a valid problem: %d (%s)",
               (int)shape_st, ndpad_last_error());
    for (int32_t k = 0; k < rank; k++)
        FUZZ_CHECK(got_shape[k] == n[k], "output extent %d: ndpad %lld, reference %lld", (int)k,
                   (long long)got_shape[k], (long long)n[k]);

    const int64_t count = ndpad_ref_output_count(p);
    const bool empty = count == 0, reads = ndpad_ref_reads_input(p);
    int64_t out_lo = 0, out_hi = -1, in_lo = 0, in_hi = -1;
    if (!empty) ndpad_ref_span(rank, n, p->out_strides, &out_lo, &out_hi);
    const int64_t in_count = rank > 0 ? test_count(rank, p->shape) : 1;
    if (in_count > 0 && reads) ndpad_ref_span(rank, p->shape, p->in_strides, &in_lo, &in_hi);

    /* Too big to run: only planning (which must not cost in proportion to the output). */
    const __int128 out_bytes = (__int128)(out_hi - out_lo + 1) * (__int128)es;
    const __int128 in_bytes = (__int128)(in_hi - in_lo + 1) * (__int128)es;
    if (count > FUZZ_MAX_OUT || out_bytes > FUZZ_MAX_BYTES || in_bytes > FUZZ_MAX_BYTES ||
        (c->in_place && in_count > FUZZ_MAX_OUT) || es > 4096) {
        if (es <= ((size_t)1 << 20)) {
            ndpad_options options = c->options;
            options.isa = NDPAD_ISA_SCALAR;
            ndpad_plan *plan = NULL;
            const ndpad_status st = ndpad_plan_create(p, &options, &plan);
            FUZZ_CHECK(st == NDPAD_OK, "ndpad_plan_create rejects a valid problem: %d (%s)",
                       (int)st, ndpad_last_error());
            ndpad_plan_destroy(plan);
            plan_big_window(c, n, &options);
        }
        return;
    }

    valid_run v = {0};
    v.out_size = (size_t)out_bytes + 2 * TEST_GUARD;
    v.out_origin = TEST_GUARD + (ptrdiff_t)(-out_lo) * (ptrdiff_t)es;
    v.initial = test_xmalloc(v.out_size);
    v.expected = test_xmalloc(v.out_size);
    memset(v.initial, TEST_SENTINEL, v.out_size);

    test_rng rng = test_rng_make(0x5eed, (uint64_t)count * 31 + es);
    unsigned char *dense = NULL;
    ndpad_problem ref_problem = *p;
    const void *ref_in;
    if (c->in_place) {
        /* the input elements inside the output's interior; an empty input has none, and on
         * its empty axis pads_begin may reach one past the output's end, outside the layout */
        int64_t offset = 0;
        for (int32_t k = 0; k < rank && in_count > 0; k++) offset += c->pb[k] * c->out_strides[k];
        unsigned char *inside = v.initial + v.out_origin + offset * (int64_t)es;
        test_fill_strided(&rng, inside, rank, p->shape, c->in_strides, es);
        v.in = inside;
        dense = test_xmalloc((size_t)in_count * es);
        test_gather_dense(p, inside, dense);
        ref_problem.in_strides = NULL;
        ref_in = dense;
    } else {
        v.in_size = (size_t)in_bytes + 2 * TEST_GUARD;
        v.in_alloc = test_xmalloc(v.in_size);
        test_rng_bytes(&rng, v.in_alloc, v.in_size);
        v.in_copy = test_xmalloc(v.in_size);
        memcpy(v.in_copy, v.in_alloc, v.in_size);
        v.in = c->null_in ? NULL : v.in_alloc + TEST_GUARD + (-in_lo) * (int64_t)es;
        ref_in = v.in;
    }
    memcpy(v.expected, v.initial, v.out_size);
    v.want = ndpad_ref_pad(&ref_problem, ref_in, c->null_out ? NULL : v.expected + v.out_origin);
    FUZZ_CHECK(!c->in_place || v.want == NDPAD_OK, "fuzz bug: the reference fails in place");

    compare_all(c, &v);
    check_constants(c, &v, &ref_problem, ref_in, &rng);

    /* Windows gather the input densely: only inputs as small as the runnable outputs. */
    if (v.want == NDPAD_OK && !c->null_in && !c->null_out && rank > 0 && in_count <= FUZZ_MAX_OUT &&
        (__int128)in_count * (__int128)es <= FUZZ_MAX_BYTES) {
        unsigned char *dense_in = test_xmalloc((size_t)in_count * es);
        unsigned char *dense_out = test_xmalloc((size_t)count * es);
        if (c->in_place)
            memcpy(dense_in, dense, (size_t)in_count * es);
        else if (in_count > 0 && reads)
            test_gather_dense(p, v.in, dense_in);
        else
            memset(dense_in, 0, (size_t)in_count * es);
        ndpad_problem dense_problem = *p;
        dense_problem.in_strides = NULL;
        dense_problem.out_strides = NULL;
        FUZZ_CHECK(ndpad_ref_pad(&dense_problem, dense_in, dense_out) == NDPAD_OK,
                   "fuzz bug: the reference fails on the dense problem");
        check_window(c, n, dense_in, dense_out, &rng);
        free(dense_in);
        free(dense_out);
    }

    free(v.initial);
    free(v.expected);
    free(v.in_alloc);
    free(v.in_copy);
    free(dense);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_reader r = {data, size, 0};
    fuzz_case c;
    decode(&r, &c);
    current = &c;

    ndpad_ref_verdict verdict;
    if (ndpad_ref_validate(&c.p, &verdict) != NDPAD_OK)
        check_invalid(&c, &verdict);
    else
        check_valid(&c);

    current = NULL;
    release(&c);
    return 0;
}
