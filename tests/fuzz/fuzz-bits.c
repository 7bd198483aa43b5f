/*
 * fuzz-bits.c — libFuzzer target for sub-byte elements (ndpad_bits_*): bytes -> an
 * ndpad_bits_problem (elem_bits mostly 1, 2 or 4, hostile sometimes; bit offsets at every
 * phase, hostile sometimes; every mode, extents, pads, interior and strides as fuzz-pad
 * draws them, innermost strides 1 or not). Invalid problems must be refused with a status
 * the reference (tests/ref/ndpad-bits-ref.c) found broken, a message, and nothing written.
 * Valid problems with small outputs run on every ISA level (plan + execute, random threads
 * and forced tile rows) and, when the rules allow it, in place, compared with the
 * reference bit for bit over the whole output allocation with guard bytes on both sides.
 */
#define _POSIX_C_SOURCE 200809L
#include "fuzz-common.h"
#include "ndpad-bits-ref.h"

#define RANK_MAX       4
#define FUZZ_MAX_ELEMS ((int64_t)1 << 12)
#define GUARD          16

typedef struct bits_fuzz_case {
    ndpad_bits_problem p;
    int64_t shape[RANK_MAX], pb[RANK_MAX], pe[RANK_MAX], interior[RANK_MAX];
    int64_t in_strides[RANK_MAX], out_strides[RANK_MAX];
    uint8_t pad_byte;
    int32_t threads;
    int64_t tile_rows;
} bits_fuzz_case;

static const bits_fuzz_case *current;

static void fuzz_describe_current(void)
{
    if (current != NULL) ndpad_ref_bits_print_problem(stderr, &current->p);
}

static const int32_t all_isas[] = {
    NDPAD_ISA_AUTO,
#define NDPAD_ISA_LEVEL(ID, ...) NDPAD_ISA_##ID,
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
};

static int64_t bit_offset(fuzz_reader *r)
{
    const uint8_t v = fuzz_u8(r);
    if (v < 248) return v % 40;
    return fuzz_hostile_i64[fuzz_u8(r) % 16];
}

static void decode(fuzz_reader *r, bits_fuzz_case *c)
{
    memset(c, 0, sizeof(*c));
    const uint8_t head = fuzz_u8(r);
    c->p.problem.rank = (int32_t)(head % (RANK_MAX + 1));
    const uint8_t m = fuzz_u8(r);
    c->p.problem.mode = m < 250 ? m % 5 : (int32_t)m;
    const uint8_t b = fuzz_u8(r);
    static const int32_t widths[] = {1, 2, 4, 1, 2, 4, 1, 2, 4, 0, 3, 8, -1, 16, 5, INT32_MAX};
    c->p.elem_bits = b < 240 ? widths[b % 3] : widths[b % 16];
    c->p.in_bit_offset = bit_offset(r);
    c->p.out_bit_offset = bit_offset(r);
    if (fuzz_u8(r) == 255) c->p.reserved = 1;
    const uint8_t flags = fuzz_u8(r);
    for (int32_t k = 0; k < c->p.problem.rank; k++) {
        c->shape[k] = fuzz_extent(r);
        c->pb[k] = fuzz_pad(r);
        c->pe[k] = fuzz_pad(r);
        c->interior[k] = fuzz_interior(r);
    }
    c->p.problem.shape = c->shape;
    c->p.problem.pads_begin = c->pb;
    c->p.problem.pads_end = c->pe;
    if (flags & 1) c->p.problem.interior = c->interior;
    if (flags & 2) {
        /* input strides: gapped dense, negative outer axes, or hostile */
        int64_t stride = 1;
        for (int32_t k = c->p.problem.rank - 1; k >= 0; k--) {
            const uint8_t v = fuzz_u8(r);
            c->in_strides[k] = v < 250 ? stride : fuzz_hostile_i64[v % 16];
            if (v & 1 && k < c->p.problem.rank - 1) c->in_strides[k] = -c->in_strides[k];
            stride = (c->shape[k] > 0 && c->shape[k] < 64 ? c->shape[k] : 1) * stride + v % 4;
        }
        c->p.problem.in_strides = c->in_strides;
    }
    if (flags & 4) {
        int64_t n[RANK_MAX], stride = 1;
        for (int32_t k = 0; k < c->p.problem.rank; k++) {
            const int64_t d = c->shape[k], rr = flags & 1 ? c->interior[k] : 0;
            const int64_t dil = d <= 0 || rr < 0 || rr > 64 ? 1 : (d - 1) * (rr + 1) + 1;
            const __int128 nn = (__int128)c->pb[k] + dil + c->pe[k]; /* hostile pads */
            n[k] = nn > 0 && nn < 4096 ? (int64_t)nn : 1;
        }
        for (int32_t k = c->p.problem.rank - 1; k >= 0; k--) {
            const uint8_t v = fuzz_u8(r);
            c->out_strides[k] = v < 250 ? stride : fuzz_hostile_i64[v % 16];
            stride = n[k] * stride + v % 4;
        }
        c->p.problem.out_strides = c->out_strides;
    }
    c->pad_byte = fuzz_u8(r);
    c->p.problem.pad_value = flags & 8 ? NULL : &c->pad_byte;
    c->p.problem.elem_size = (size_t)fuzz_u8(r); /* never read */
    c->threads = fuzz_u8(r) % 3;
    c->tile_rows = fuzz_u8(r) % 4;
}

/* The bits [first, past) a valid tensor reaches, and whether it is small enough to run. */
static bool small_reach(int32_t rank, const int64_t *extents, const int64_t *strides,
                        int64_t offset, int64_t bits, int64_t *first, int64_t *past)
{
    int64_t dense[RANK_MAX];
    __int128 lo = 0, hi = 0, count = 1;
    *first = *past = 0;
    for (int32_t k = 0; k < rank; k++) count *= extents[k];
    if (count == 0) return true;
    if (count > FUZZ_MAX_ELEMS) return false;
    if (strides == NULL) {
        ndpad_ref_dense_strides(rank, extents, dense);
        strides = dense;
    }
    for (int32_t k = 0; k < rank; k++) {
        const __int128 step = (__int128)(extents[k] - 1) * strides[k];
        if (step < 0)
            lo += step;
        else
            hi += step;
    }
    const __int128 f = offset + lo * bits, p = offset + (hi + 1) * bits;
    if (p - f > ((__int128)1 << 17) || f < -((__int128)1 << 40) || p > ((__int128)1 << 40))
        return false;
    *first = (int64_t)f, *past = (int64_t)p;
    return true;
}

static void check_invalid(const bits_fuzz_case *c, const ndpad_ref_verdict *verdict)
{
    uint8_t out[64], in[64];
    memset(out, 0xA5, sizeof(out));
    memset(in, 0x3C, sizeof(in));
    const ndpad_status st = ndpad_bits_pad(&c->p, NULL, in + 32, out + 32);
    FUZZ_CHECK(fuzz_status_allowed(st, verdict),
               "ndpad_bits_pad returned %d (%s); the reference says %d (%s)", (int)st,
               ndpad_last_error(), (int)verdict->status, verdict->where);
    FUZZ_CHECK(fuzz_last_error_ok(), "no message after a failure");
    for (size_t i = 0; i < sizeof(out); i++) FUZZ_CHECK(out[i] == 0xA5, "wrote on error");
    ndpad_bits_plan *plan = NULL;
    FUZZ_CHECK(ndpad_bits_plan_create(&c->p, NULL, &plan) == st && plan == NULL,
               "plan creation disagrees with ndpad_bits_pad");
}

/* Every ISA: a plan with the case's options, executed on a fresh guarded output. */
static void check_valid(const bits_fuzz_case *c)
{
    const int32_t rank = c->p.problem.rank;
    const int64_t bits = c->p.elem_bits;
    int64_t n[RANK_MAX] = {0}, of, op, inf, inp;
    FUZZ_CHECK(ndpad_bits_output_shape(&c->p, n) == NDPAD_OK, "output shape of a valid problem");
    const bool runs =
        small_reach(rank, n, c->p.problem.out_strides, c->p.out_bit_offset, bits, &of, &op) &&
        small_reach(rank, c->shape, c->p.problem.in_strides, c->p.in_bit_offset, bits, &inf, &inp);
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = c->threads;
    options.tile_rows = c->tile_rows;
    if (!runs) {
        ndpad_bits_plan *plan = NULL;
        FUZZ_CHECK(ndpad_bits_plan_create(&c->p, &options, &plan) == NDPAD_OK,
                   "a valid problem was refused: %s", ndpad_last_error());
        ndpad_bits_plan_destroy(plan);
        return;
    }
    const size_t out_bytes = (size_t)((op + 7) / 8) + 2 * GUARD;
    const int64_t lead = inf < 0 ? (-inf + 7) / 8 : 0;
    const size_t in_bytes = (size_t)(lead + (inp + 7) / 8) + 2 * GUARD;
    uint8_t *want = malloc(out_bytes), *got = malloc(out_bytes), *in = malloc(in_bytes);
    for (size_t i = 0; i < in_bytes; i++) in[i] = (uint8_t)(i * 37 + 11);
    for (size_t i = 0; i < out_bytes; i++) want[i] = (uint8_t)(i * 91 + 5);
    const uint8_t *in0 = in + GUARD + lead;
    FUZZ_CHECK(ndpad_ref_bits_pad(&c->p, in0, want + GUARD) == NDPAD_OK, "the reference failed");
    for (size_t i = 0; i < FUZZ_COUNT(all_isas); i++) {
        options.isa = all_isas[i];
        ndpad_bits_plan *plan = NULL;
        const ndpad_status st = ndpad_bits_plan_create(&c->p, &options, &plan);
        if (st == NDPAD_ERR_ISA_UNAVAILABLE && all_isas[i] > NDPAD_ISA_SCALAR) continue;
        FUZZ_CHECK(st == NDPAD_OK, "isa %s: a valid problem was refused: %s",
                   ndpad_isa_name((ndpad_isa)all_isas[i]), ndpad_last_error());
        for (size_t j = 0; j < out_bytes; j++) got[j] = (uint8_t)(j * 91 + 5);
        FUZZ_CHECK(ndpad_bits_execute(plan, in0, got + GUARD) == NDPAD_OK, "execute failed: %s",
                   ndpad_last_error());
        for (size_t j = 0; j < out_bytes; j++)
            FUZZ_CHECK(got[j] == want[j],
                       "isa %s: byte %zd of the output differs (%02x, want %02x)",
                       ndpad_isa_name(ndpad_bits_plan_isa(plan)), (ptrdiff_t)j - GUARD, got[j],
                       want[j]);
        ndpad_bits_plan_destroy(plan);
    }
    for (size_t j = 0; j < in_bytes; j++)
        FUZZ_CHECK(in[j] == (uint8_t)(j * 37 + 11), "the input changed");
    free(want), free(got), free(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_reader r = {data, size, 0};
    bits_fuzz_case c;
    decode(&r, &c);
    current = &c;
    ndpad_ref_verdict verdict;
    if (ndpad_ref_bits_validate(&c.p, &verdict) != NDPAD_OK)
        check_invalid(&c, &verdict);
    else
        check_valid(&c);
    current = NULL;
    return 0;
}
