/* The output-stream descriptor, the contract between the planner (stream-plan.h,
 * stream/) and the stream kernels (kernels.inc's NDPAD_STREAM entries). The path: a contiguous output of dense rows (whole rows per tile) written as
 * one byte stream in full-width stores aligned to the OUTPUT, not to each row. A 64-byte
 * block may hold the end of row i, its right border, row i + 1's left border and the start
 * of row i + 1: it is assembled in registers (masked loads of the source rows, the pad
 * pattern or the permuted border bytes blended in) and stored once. Short rows then cost no
 * function call each and no split store at every row seam.
 *
 * A border byte is a fixed byte of the source row (edge, reflect, symmetric, wrap): for
 * each position of a block relative to a row start, the planner precomputes which lanes are
 * border and which byte of a 64-byte source window each one takes (a vpermb index).
 *
 * Rows shorter than a few blocks gain little from aligned blocks and lose to assembling
 * each from two or three rows: the ROWS kernels write them row after row instead, still in
 * one call per batch, each border element one move from the source element listed for it. */
#ifndef NDPAD_KERNELS_STREAM_DESCRIPTOR_H
#define NDPAD_KERNELS_STREAM_DESCRIPTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernels.h"

/* The block width: one AVX-512 vector; the pad pattern is two of them. */
#define NDPAD_STREAM_BLOCK 64

/* Bits [0, n) of a block's 64-bit lane mask, n in [0, 64] (a shift by 64 is undefined: no
 * bzhi, which would need BMI2, not part of any level). For the AVX-512 stream kernels. */
static inline __attribute__((always_inline)) uint64_t ndpad_stream_lanes_below(int64_t n)
{
    return n >= NDPAD_STREAM_BLOCK ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
}

/* What the stream kernels read (kernels.h has their signature and kinds): the fields every
 * kind reads, then each kind's group. Its tables follow it in the same allocation and are
 * named by their offsets from its start (0: none; ndpad_stream_table), so that a copy of
 * the descriptor and its tables is a memcpy (the BLOCKS index tables excepted, which keep
 * their 64-byte alignment by address: ndpad_stream_copy moves them where a copy's buffer
 * lies differently). */
struct ndpad_stream {
    ndpad_stream_fn kernel;
    const char *kernel_name;
    ndpad_stream_kind kind;
    int64_t bytes;        /* of the struct and its tables, which follow it        */
    int64_t index_bytes;  /* BLOCKS: of the index tables (64-byte aligned, after the masks) */
    int64_t row_bytes;    /* output row                                                */
    int64_t left_bytes;   /* left border [0, left_bytes)                               */
    int64_t interior_end; /* interior [left_bytes, interior_end), right border after   */
    int64_t src_interior; /* source byte of the interior's first byte, from the row    */
    int64_t elem_size;
    bool constant;
    /* ---- ROWS ---------------------------------------------------------------------------------- */
    /* ROWS, modes that read the input: the source element of each border element, the left
     * border's then the right border's. */
    int64_t border_source; /* offset of int64_t[] */
    /* ---- BLOCKS -------------------------------------------------------------------------------- */
    /* BLOCKS, modes that read the input: each side reads one 64-byte window of the source
     * row, loaded with window_mask (lanes inside the source row only: nothing past its end
     * is read). */
    int64_t left_window, right_window; /* source byte of lane 0                */
    uint64_t left_window_mask, right_window_mask;
    /* Left table entry e = p + 63 for a block starting at row byte p in [-63, left_bytes);
     * right table entry e = p - (interior_end - 63) for p in [interior_end - 63, row_bytes).
     * mask: the lanes that are border bytes of that side; index: their window byte. */
    int64_t left_index, right_index; /* offsets of uint8_t[], 64 bytes per entry */
    int64_t left_mask, right_mask;   /* offsets of uint64_t[] */
    int64_t masks; /* entries of left_mask, right_mask and seam_far_mask, or of row_masks
                      and row_expand */
    /* BLOCKS, modes that read the input, rows of 64 bytes or more: every block that starts
     * in row i's left border or meets row i's end is one two-source permute (vpermt2b) of
     * two 64-byte windows: row i's at source byte tail_window (where its interior's source
     * ends) and row i + 1's at head_window (where it starts; lanes of index >= 64). A
     * block at row byte p >= left_bytes that meets the end takes entry row_bytes - 1 - p
     * (< seam_ends); one at p < left_bytes entry seam_ends + p, with row i's head window
     * for both sources. NULL where a byte lies outside those windows and the far ones below
     * (a border of many elements, source rows under 64 bytes): the blocks are then
     * assembled from the masked loads and per-side tables above. */
    int64_t seam_index; /* offset of uint8_t[] */
    int64_t seam_ends, tail_window, head_window;
    /* Wrap (a border from the far end of its row): the lanes of entry e in seam_far_mask[e]
     * come from a second permute, seam_far_index, of each row's other window (row i's head,
     * row i + 1's tail); NULL where no byte needs it. */
    int64_t seam_far_index; /* offset of uint8_t[] */
    int64_t seam_far_mask;  /* offset of uint64_t[] */
    /* ---- BLOCKS_CONSTANT ----------------------------------------------------------------------- */
    /* BLOCKS, CONSTANT, rows of NDPAD_STREAM_BLOCK to NDPAD_STREAM_MAX_ROW_MASK_BYTES - 1
     * bytes: for the block that starts at byte p of row i, row_masks[2 * p] has the lanes of
     * row i's interior and row_masks[2 * p + 1] those of row i + 1's (a block meets no third
     * row); every other lane is pad. NULL for other rows. */
    int64_t row_masks; /* offset of uint64_t[] */
    /* With row_masks, elements of whole 4-byte lanes: for a block at row byte p (a multiple
     * of 4) of row i, where rows i and i + 1 lie back to back in the input (row i + 1's
     * interior source starts where row i's ends), the block's interior bytes are one run of
     * the input: row_expand[p / 4] has in bits 0-15 the 4-byte lanes they fill, in bits
     * 16-31 as many low lanes (the run's), and in bits 32-63 where the run starts, from row
     * i's interior source. One masked load and one vpexpandd then assemble the block. NULL
     * otherwise. */
    int64_t row_expand; /* offset of uint64_t[] */
    /* BLOCKS, CONSTANT, rows of NDPAD_STREAM_MIN_BLOCK_ROW_BYTES or more with constants per
     * index along the row (the same in every row, pad rows included): the pad under a block
     * at row byte p in [-64, row_bytes) is the 64 bytes from row_pattern[64 + p], the row's
     * constants from p on (wrapping into the next row); the pad pattern below is unused.
     * NULL for other plans (one constant, or constants the executor writes after the
     * kernel, executor.c). */
    int64_t row_pattern; /* offset of uint8_t[] */
    /* ---- SHORT_ROWS, SHORT_ROWS_16 ------------------------------------------------------------- */
    /* SHORT_ROWS: output byte q of a row is byte short_map[q] of the 64-byte window at
     * source byte short_window of its row, loaded with short_window_mask (the bytes the
     * row reads, nothing else), or the pad pattern where bit q of short_pad_mask is set.
     * SHORT_ROWS_16: rows of at most 64 bytes in short_segments 16-byte segments, segment s
     * (output bytes 16 s on) the same with a 16-byte window at source byte
     * short_segment_window[s] inside the source row, loaded whole (short_window_mask 0) or,
     * for source rows shorter than 16 bytes, as the 4-byte words of short_window_mask (bit
     * k: word k) or, for source rows of 4 to 15 bytes not made of words, as their first
     * and last 8 bytes, 4 under 8 (short_overlap: the source row's bytes; 0 otherwise) in
     * the vector's halves (quarters), its map
     * short_map[16 s ...]; the map is 0x80 on pad bytes. A segment whose bytes lie too far
     * apart for one window (a wrap border beside the row's other end) takes a second,
     * whole one at short_segment_second[s] with the map short_map_second (0x80 where the
     * first serves; short_two_windows: some segment does; the modes that read the input). */
    int64_t short_window;
    uint64_t short_window_mask, short_pad_mask;
    uint8_t short_map[NDPAD_STREAM_BLOCK];
    int64_t short_segments, short_segment_window[NDPAD_STREAM_BLOCK / 16], short_overlap;
    int64_t short_segment_second[NDPAD_STREAM_BLOCK / 16];
    bool short_two_windows;
    uint8_t short_map_second[NDPAD_STREAM_BLOCK];
    /* SHORT_ROWS on AVX-512 F (no byte permutes; elements of whole 4-byte lanes): lane l of
     * a row is lane short_lanes[l] of the window. */
    uint32_t short_lanes[NDPAD_STREAM_BLOCK / 4];
    /* SHORT_ROWS, rows of at most 32 bytes: short_group_rows (2 to 8; 0: none) rows whose
     * sources lie short_group_stride bytes apart are one window at short_window of the
     * first, loaded with short_group_window_mask (the bytes they read), byte map
     * short_group_map (row j's bytes j * row_bytes on) and pad lanes short_group_pad_mask:
     * one store for several rows. */
    int64_t short_group_rows, short_group_stride;
    uint64_t short_group_window_mask, short_group_pad_mask;
    uint8_t short_group_map[NDPAD_STREAM_BLOCK];
    /* ---- SHORT_ROWS_128 ------------------------------------------------------------------------ */
    /* SHORT_ROWS_128 (modes that read the input, rows of 65 to 128 bytes): output byte q of
     * a row is byte wide_map[q] of the 128-byte window at source byte short_window of its
     * row, loaded as two 64-byte halves with wide_window_mask[0] and [1] (the bytes the
     * row reads, nothing else). Levels without byte permutes (AVX-512 F) take elements of
     * whole 4-byte lanes: lane l of the row is lane wide_lanes[l] of the window. */
    uint64_t wide_window_mask[2];
    uint8_t wide_map[2 * NDPAD_STREAM_BLOCK];
    uint32_t wide_lanes[2 * NDPAD_STREAM_BLOCK / 4];
    /* ---- PLANES (plane_* shared by the plane kinds) -------------------------------------------- */
    /* PLANES (CONSTANT, the whole input copied from a dense buffer, no interior padding):
     * the output's interior bytes, in output order, are the input's, in order, from
     * src_interior on. The output repeats every plane_bytes bytes (plane_rows rows: the
     * padded axes below the outermost one), each plane reading plane_in_bytes of the input.
     * The kernel lays its blocks from the output's start (of the plan's whole output, not
     * the batch's), so a block starts at plane byte f = 64 k mod plane_bytes, a multiple of
     * gcd(64, plane_bytes): the blocks' places repeat every plane_phases (plane_bytes / that
     * gcd) blocks. plane_masks[k] is the entry of the block at 64 k mod plane_bytes, its
     * lanes that are interior (it may reach into the next plane): its 64 bytes on levels
     * that expand bytes, else (elements of whole 4-byte lanes) its 16 lanes in bits 0-15
     * and the input bytes they take in bits 16-31. The table holds whole repeats,
     * plane_entries of them (NDPAD_STREAM_PLANE_RUN at least); the block at plane byte q
     * gcd(64, plane_bytes) is entry q plane_phase_inverse mod plane_phases (the inverse of
     * 64 / gcd modulo plane_phases). A kernel walks the entries one after another, with no
     * test of where a block lies (against a table by plane byte, read at f += 64 mod
     * plane_bytes; one thread, back to back, ratio to a memcpy: 64 x 40 x 40 uint8 1.43 ->
     * 1.04, 256 x 14 x 14 fp32 1.10 -> 0.91, 512 x 7 x 7 uint8 1.15 -> 1.00, 256 x 14 x
     * 14 uint8 1.19 -> 1.12). plane_in_before[j]: the input bytes of the plane's rows
     * before row j (j <= plane_rows). */
    int64_t plane_bytes, plane_rows, plane_in_bytes, plane_entries, plane_phase_inverse;
    int64_t plane_masks;     /* offset of uint64_t[] */
    int64_t plane_in_before; /* offset of int64_t[] */
    /* ---- PLANES_16 ----------------------------------------------------------------------------- */
    /* PLANES_16 (the same outputs, levels with a 16-byte byte shuffle and no expand): the
     * output in 16-byte blocks from the batch's output row 0 (out - first row's offset),
     * whose place in a plane repeats every plane_phases blocks. Block k of a period starts
     * at plane byte 16 k mod plane_bytes; its lane l is input byte plane_index[16 k + l]
     * of the 16 from the block's first interior byte on, or pad (0x80: the shuffle's zero
     * lane and the blend's pad lane); the blocks before block k take plane_in_at[k] input
     * bytes. The tables run over plane_period blocks (whole periods, at least
     * NDPAD_STREAM_PLANE16_RUN) and NDPAD_STREAM_PLANE16_RUN blocks more, so that a run of
     * that many blocks from any of the first plane_period lies together. plane_in_end: the
     * input's end, from `in` (a 16-byte load must not pass it). */
    int64_t plane_phases, plane_period, plane_in_end;
    int64_t plane_in_at; /* offset of uint16_t[] */
    int64_t plane_index; /* offset of uint8_t[] */
    /* ---- PLANES_PERMUTE ------------------------------------------------------------------------ */
    /* PLANES_PERMUTE (edge, reflect, symmetric, wrap of a dense input whose planes are
     * small, levels with a two-source byte permute): the
     * blocks lie every 64 bytes from the output's start, as PLANES's, so block b is phase b
     * mod plane_phases of period b / plane_phases, each period permute_period_in bytes of
     * the input further on. The block of phase k takes the 128 input bytes from
     * permute_window[k] on (from its period's first input byte), in lanes of
     * permute_lane bytes (1 with a byte permute, else 2 or 4, elements being whole
     * lanes): its lane l is their lane number l of the 64 bytes from permute_index + 64 k
     * (bytes, 16-bit or 32-bit numbers); no window reaches past permute_reach from its
     * period's first byte. plane_in_end: the input's bytes. */
    int64_t permute_period_in, permute_reach, permute_lane;
    int64_t permute_window; /* offset of int32_t[] */
    int64_t permute_index;  /* offset of uint8_t[] */
    /* ---- every kind but the planes ------------------------------------------------------------- */
    /* The source offset of every output row of the plan (NDPAD_STREAM_PAD_ROW: pad), read
     * by the kernel in place of batches an odometer lists on every execution; NULL outside
     * the row lengths and count below. */
    int64_t row_list; /* offset of int64_t[] */
    /* ---- CONSTANT, every kind ------------------------------------------------------------------ */
    /* CONSTANT: the pad value repeated over 128 bytes; a block at stream byte x loads
     * from pad + x % elem_size (elem_size divides 64). */
    uint8_t pad[2 * NDPAD_STREAM_BLOCK];
};

/* The descriptor's table at `offset` (a field naming one), or NULL for offset 0. */
static inline const void *ndpad_stream_table(const ndpad_stream *stream, int64_t offset)
{
    return offset == 0 ? NULL : (const char *)stream + offset;
}

/* The offset of a table at `p`, inside the allocation of `stream`, as its field holds it. */
static inline int64_t ndpad_stream_offset(const ndpad_stream *stream, const void *p)
{
    return (int64_t)((const char *)p - (const char *)stream);
}

/* The same, for kernels whose table is known to be there: one add. */
#define NDPAD_STREAM_TABLE(stream, field, type)                                                    \
    ((const type *)(const void *)((const char *)(stream) + (stream)->field))

#endif
