/*
 * ndpad-ref.h — a naive reference for ndpad, written straight from the contract
 * (shared/design/api.md and the comment at the top of include/ndpad.h).
 *
 * It shares no code with src/: only the public types of ndpad.h (ndpad_problem,
 * ndpad_status, ndpad_mode) are used, so that a verdict of the reference means
 * "the contract says so", never "the library's own helper says so" (FFTW's verifier
 * likewise shares nothing with its solvers).
 *
 * Every output element is computed on its own: per axis, the source index (or "pad") of
 * the output index, then elem_size bytes are copied. Nothing is clever, nothing is fast.
 */
#ifndef NDPAD_REF_H
#define NDPAD_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ndpad.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The bit of `status` in ndpad_ref_verdict.broken. */
#define NDPAD_REF_BIT(status) (1u << (unsigned)(status))

/** What the reference thinks of a problem. */
typedef struct ndpad_ref_verdict {
    ndpad_status status; /**< first rule broken (in the order below), NDPAD_OK if none   */
    uint32_t broken;     /**< NDPAD_REF_BIT() of every rule broken that could be checked */
    char where[64];      /**< the argument the first broken rule names: "rank",
                                 "shape[2]", "pads_begin[1]", "out_strides[0]", ...        */
} ndpad_ref_verdict;

/** ndpad_ref_validate() : the rules of api.md, in this order:
 *    NULL problem; rank; mode; elem_size; NULL shape / pads_begin / pads_end (rank > 0);
 *    per axis: shape < 0, interior < 0, interior with a non-CONSTANT mode;
 *    per axis: dilated or output extent overflowing int64;
 *    per axis: non-CONSTANT mode growing an axis with d == 0 (whatever the other axes);
 *    per axis: zero output stride on an axis with more than one output element;
 *    sizes: output or input bytes, output or input byte span above PTRDIFF_MAX / SIZE_MAX.
 *  `verdict` may be NULL. Returns verdict->status. */
ndpad_status ndpad_ref_validate(const ndpad_problem *problem, ndpad_ref_verdict *verdict);

/** ndpad_ref_output_shape() : the output extents of a problem. NDPAD_OK or the first rule
 *  broken (out_shape untouched then). out_shape may be NULL when rank == 0. */
ndpad_status ndpad_ref_output_shape(const ndpad_problem *problem, int64_t *out_shape);

/** ndpad_ref_output_count() : number of output elements of a valid problem. */
int64_t ndpad_ref_output_count(const ndpad_problem *problem);

/** ndpad_ref_reads_input() : whether some output element of a valid problem is an input
 *  element (false when the output is empty or every element is pad_value). */
bool ndpad_ref_reads_input(const ndpad_problem *problem);

/** ndpad_ref_source_index() : the source index of output index `o` on one axis, or -1 when
 *  the element is pad_value (CONSTANT only). The formulas of api.md, nothing else. */
int64_t ndpad_ref_source_index(int32_t mode, int64_t d, int64_t r, int64_t b, int64_t o);

/** ndpad_ref_pad() : the output of `problem`, element by element. Validates first, then the
 *  buffer rules (NDPAD_ERR_NULL_BUFFER when `out` is NULL and the output is not empty, or
 *  `in` is NULL and an input element is read). On error nothing is written. `in` and `out`
 *  must not overlap (give the reference a copy of an in-place input). */
ndpad_status ndpad_ref_pad(const ndpad_problem *problem, const void *in, void *out);

/** Kinds of constants for ndpad_ref_pad_constants(): numpy's per axis and side
 *  (ndpad_pad_sides), or one per output index along an axis (ndpad_pad_per_index). */
#define NDPAD_REF_PER_SIDE  1
#define NDPAD_REF_PER_INDEX 2

/** ndpad_ref_validate_constants() : ndpad_ref_validate(), then for kind != 0: axis in
 *  [0, rank) (per index, else NDPAD_ERR_AXES), values not NULL (NDPAD_ERR_NULL_ARGUMENT),
 *  mode CONSTANT (NDPAD_ERR_MODE), no interior per side (NDPAD_ERR_INTERIOR_MODE). */
ndpad_status ndpad_ref_validate_constants(const ndpad_problem *problem, int32_t kind, int32_t axis,
                                          const void *values);

/** ndpad_ref_pad_constants() : ndpad_ref_pad() with other constants: kind 0 the pad value;
 *  NDPAD_REF_PER_SIDE: values[2 k + side] (elem_size bytes each) for an element in the
 *  padding of axis k (output index o with o - b < 0: side 0; o - b >= D: side 1), the
 *  highest such k (numpy pads axis 0 first, then 1 over it, ...); NDPAD_REF_PER_INDEX:
 *  values[o] for an element at output index o of `axis`. */
ndpad_status ndpad_ref_pad_constants(const ndpad_problem *problem, int32_t kind, int32_t axis,
                                     const void *values, const void *in, void *out);

/** ndpad_ref_dense_strides() : row-major strides (elements) of `extents`. */
void ndpad_ref_dense_strides(int32_t rank, const int64_t *extents, int64_t *strides);

/** ndpad_ref_span() : the smallest and largest element offsets (in elements, relative to
 *  element [0,...,0]) that a tensor of `extents` with `strides` (NULL = dense) touches.
 *  Both are 0 for an empty tensor or rank 0. */
void ndpad_ref_span(int32_t rank, const int64_t *extents, const int64_t *strides, int64_t *lowest,
                    int64_t *highest);

/** ndpad_ref_mode_name() : "NDPAD_CONSTANT" .. "NDPAD_WRAP", or NULL for other values. */
const char *ndpad_ref_mode_name(int32_t mode);

/** ndpad_ref_format_problem() : the problem as one reproducible C-ish line, e.g.
 *    ndpad_problem{.rank=2, .mode=NDPAD_REFLECT, .elem_size=4, .shape={3,4},
 *                  .pads_begin={2,-1}, .pads_end={-1,3}, .interior=NULL, ...}
 *  snprintf semantics; returns the length the whole line needs. */
size_t ndpad_ref_format_problem(char *buf, size_t size, const ndpad_problem *problem);

/** ndpad_ref_print_problem() : ndpad_ref_format_problem() to `f`, with a newline. */
void ndpad_ref_print_problem(FILE *f, const ndpad_problem *problem);

/* ------------------------------------------------------------------------------------- */
/* ONNX Pad, as api.md describes it: ONNX Runtime's crop first, then pad the cropped      */
/* tensor; pads larger than the cropped extent repeat the pattern (numpy >= 2.1).         */
/* ------------------------------------------------------------------------------------- */

/** ndpad_ref_onnx_validate() : the ONNX rules (rank, mode string, elem_size, NULL shape or
 *  pads, axes out of [-rank, rank-1] or repeated, pads_count != 2 * num_axes) and then the
 *  core rules of the problem "pad the cropped tensor". Fills `verdict` (may be NULL) and,
 *  when valid, `out_shape` (may be NULL). An output extent d + begin + end below 0 is
 *  NDPAD_ERR_SHAPE; a crop longer than its axis leaves no input element there, so the
 *  axis's d + begin + end output elements are all pads: the value with "constant" (ONNX
 *  Runtime's result), NDPAD_ERR_EMPTY_AXIS with the other modes (nothing to repeat). */
ndpad_status ndpad_ref_onnx_validate(int32_t rank, const int64_t *shape, size_t elem_size,
                                     const int64_t *pads, int64_t pads_count, const int64_t *axes,
                                     int64_t axes_count, const char *mode,
                                     ndpad_ref_verdict *verdict, int64_t *out_shape);

/** ndpad_ref_onnx_pad() : ONNX Pad of a dense row-major `in` into a dense `out`: crop the
 *  input into a dense temporary by explicit index loops, then ndpad_ref_pad() it with the
 *  non-negative parts of the pads. Nothing is written on error. */
ndpad_status ndpad_ref_onnx_pad(int32_t rank, const int64_t *shape, size_t elem_size,
                                const int64_t *pads, int64_t pads_count, const int64_t *axes,
                                int64_t axes_count, const char *mode, const void *constant_value,
                                const void *in, void *out);

/** ndpad_ref_format_onnx() : an ONNX call as one reproducible C-ish line. */
size_t ndpad_ref_format_onnx(char *buf, size_t size, int32_t rank, const int64_t *shape,
                             size_t elem_size, const int64_t *pads, int64_t pads_count,
                             const int64_t *axes, int64_t axes_count, const char *mode);

#ifdef __cplusplus
}
#endif

#endif /* NDPAD_REF_H */
