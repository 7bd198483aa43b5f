/* The naive reference of sub-byte elements (ndpad-bits-ref.h). */
#include "ndpad-bits-ref.h"

#include <string.h>

__extension__ typedef __int128 ref_wide;

unsigned ndpad_ref_bits_get(const void *base, int64_t bit, unsigned bits)
{
    const unsigned char *b = (const unsigned char *)base;
    unsigned value = 0;
    for (unsigned t = 0; t < bits; t++) {
        const int64_t p = bit + t;
        const int64_t byte = p >= 0 ? p / 8 : -((-p + 7) / 8);
        const unsigned shift = (unsigned)(p - byte * 8);
        value |= (unsigned)((b[byte] >> shift) & 1u) << t;
    }
    return value;
}

void ndpad_ref_bits_set(void *base, int64_t bit, unsigned bits, unsigned value)
{
    unsigned char *b = (unsigned char *)base;
    for (unsigned t = 0; t < bits; t++) {
        const int64_t p = bit + t;
        const int64_t byte = p >= 0 ? p / 8 : -((-p + 7) / 8);
        const unsigned shift = (unsigned)(p - byte * 8);
        if ((value >> t) & 1u)
            b[byte] = (unsigned char)(b[byte] | (1u << shift));
        else
            b[byte] = (unsigned char)(b[byte] & ~(1u << shift));
    }
}

static void fail(ndpad_ref_verdict *v, ndpad_status status, const char *where)
{
    v->broken |= NDPAD_REF_BIT(status);
    if (v->status != NDPAD_OK) return;
    v->status = status;
    snprintf(v->where, sizeof(v->where), "%s", where);
}

/* The lowest and highest bit of a non-empty tensor, or false when it is empty. */
static bool bit_reach(int32_t rank, const int64_t *extents, const int64_t *strides, int64_t offset,
                      unsigned bits, ref_wide *first, ref_wide *past)
{
    for (int32_t k = 0; k < rank; k++)
        if (extents[k] == 0) return false;
    int64_t dense[NDPAD_MAX_RANK];
    if (strides == NULL) {
        ndpad_ref_dense_strides(rank, extents, dense);
        strides = dense;
    }
    ref_wide lo = 0, hi = 0;
    for (int32_t k = 0; k < rank; k++) {
        const ref_wide reach = ((ref_wide)extents[k] - 1) * strides[k];
        if (reach < 0)
            lo += reach;
        else
            hi += reach;
    }
    *first = offset + lo * bits;
    *past = offset + (hi + 1) * bits;
    return true;
}

ndpad_status ndpad_ref_bits_validate(const ndpad_bits_problem *p, ndpad_ref_verdict *verdict)
{
    ndpad_ref_verdict local;
    ndpad_ref_verdict *v = verdict != NULL ? verdict : &local;
    memset(v, 0, sizeof(*v));
    if (p == NULL) {
        fail(v, NDPAD_ERR_NULL_ARGUMENT, "problem");
        return v->status;
    }
    if (p->reserved != 0) fail(v, NDPAD_ERR_OPTIONS, "reserved");
    if (p->elem_bits != 1 && p->elem_bits != 2 && p->elem_bits != 4)
        fail(v, NDPAD_ERR_ELEM_SIZE, "elem_bits");
    if (p->in_bit_offset < 0) fail(v, NDPAD_ERR_SHAPE, "in_bit_offset");
    if (p->out_bit_offset < 0) fail(v, NDPAD_ERR_SHAPE, "out_bit_offset");
    if (v->status != NDPAD_OK) return v->status;
    ndpad_problem units = p->problem;
    units.elem_size = 1;
    ndpad_ref_verdict core;
    if (ndpad_ref_validate(&units, &core) != NDPAD_OK) {
        *v = core;
        return v->status;
    }
    const int32_t rank = units.rank;
    int64_t n[NDPAD_MAX_RANK];
    ndpad_ref_output_shape(&units, n);
    int64_t out_count = 1;
    for (int32_t k = 0; k < rank; k++) out_count *= n[k] > 0 ? 1 : 0;
    if (rank > 0) {
        const int32_t k = rank - 1;
        if (units.in_strides != NULL && units.shape[k] > 1 && units.in_strides[k] != 1)
            fail(v, NDPAD_ERR_STRIDE, "in_strides (innermost)");
        if (units.out_strides != NULL && n[k] > 1 && out_count > 0 && units.out_strides[k] != 1)
            fail(v, NDPAD_ERR_STRIDE, "out_strides (innermost)");
    }
    if (v->status != NDPAD_OK) return v->status;
    ref_wide first, past;
    if (bit_reach(rank, n, units.out_strides, p->out_bit_offset, (unsigned)p->elem_bits, &first,
                  &past) &&
        (first < INT64_MIN || past > INT64_MAX))
        fail(v, NDPAD_ERR_OVERFLOW, "output bit positions");
    else if (bit_reach(rank, units.shape, units.in_strides, p->in_bit_offset,
                       (unsigned)p->elem_bits, &first, &past) &&
             (first < INT64_MIN || past > INT64_MAX))
        fail(v, NDPAD_ERR_OVERFLOW, "input bit positions");
    return v->status;
}

ndpad_status ndpad_ref_bits_pad(const ndpad_bits_problem *p, const void *in, void *out)
{
    const ndpad_status status = ndpad_ref_bits_validate(p, NULL);
    if (status != NDPAD_OK) return status;
    ndpad_problem units = p->problem;
    units.elem_size = 1;
    const int64_t count = ndpad_ref_output_count(&units);
    if (count == 0) return NDPAD_OK;
    if (out == NULL) return NDPAD_ERR_NULL_BUFFER;
    if (in == NULL && ndpad_ref_reads_input(&units)) return NDPAD_ERR_NULL_BUFFER;
    const int32_t rank = units.rank;
    const unsigned bits = (unsigned)p->elem_bits;
    int64_t n[NDPAD_MAX_RANK], is[NDPAD_MAX_RANK], os[NDPAD_MAX_RANK], idx[NDPAD_MAX_RANK] = {0};
    ndpad_ref_output_shape(&units, n);
    if (units.in_strides)
        memcpy(is, units.in_strides, sizeof(int64_t) * (size_t)rank);
    else
        ndpad_ref_dense_strides(rank, units.shape, is);
    if (units.out_strides)
        memcpy(os, units.out_strides, sizeof(int64_t) * (size_t)rank);
    else
        ndpad_ref_dense_strides(rank, n, os);
    const unsigned pad = units.mode == NDPAD_CONSTANT && units.pad_value != NULL
                             ? *(const unsigned char *)units.pad_value & ((1u << bits) - 1)
                             : 0;
    for (int64_t e = 0; e < count; e++) {
        ref_wide out_el = 0, in_el = 0;
        bool is_pad = false;
        for (int32_t k = 0; k < rank; k++) {
            const int64_t r = units.interior != NULL ? units.interior[k] : 0;
            const int64_t s =
                ndpad_ref_source_index(units.mode, units.shape[k], r, units.pads_begin[k], idx[k]);
            if (s < 0)
                is_pad = true;
            else
                in_el += (ref_wide)s * is[k];
            out_el += (ref_wide)idx[k] * os[k];
        }
        const unsigned value =
            is_pad ? pad : ndpad_ref_bits_get(in, (int64_t)(p->in_bit_offset + in_el * bits), bits);
        ndpad_ref_bits_set(out, (int64_t)(p->out_bit_offset + out_el * bits), bits, value);
        for (int32_t k = rank - 1; k >= 0; k--) {
            if (++idx[k] < n[k]) break;
            idx[k] = 0;
        }
    }
    return NDPAD_OK;
}

void ndpad_ref_bits_print_problem(FILE *f, const ndpad_bits_problem *p)
{
    ndpad_problem units = p->problem;
    units.elem_size = 1;
    fprintf(f,
            "ndpad_bits_problem{.elem_bits=%d, .in_bit_offset=%lld, .out_bit_offset=%lld, "
            "pad byte 0x%02x, .problem=",
            (int)p->elem_bits, (long long)p->in_bit_offset, (long long)p->out_bit_offset,
            units.pad_value != NULL ? *(const unsigned char *)units.pad_value : 0);
    ndpad_ref_print_problem(f, &units);
}
