/* THE table of output-stream strategies, in the order the planner asks them (FFTW's solver
 * list), and every threshold they apply, with the measurement behind it: one place to read
 * why a plan takes the kernel it takes. ndpad_stream_plan (stream-plan.c) walks the rows
 * from the top and takes the first strategy that applies where the plan's level has its
 * kernel (the kernel list's slot); a strategy that declines falls through to the next row;
 * past the last row the executor's rows serve. Each strategy lives in its own file under
 * src/stream/ (strategy.h has the contract; HACKING.md: "Add an output-stream strategy").
 *
 * NDPAD_STREAM settings are filters on this table: "off" takes no row; "always" lifts the
 * row-length limits of the BLOCKS and ROWS rows (facts->any_length), so that every row the
 * level has a BLOCKS kernel for takes it; "reference" keeps only the rows marked for it
 * (ROWS), with the scalar level's kernels and no length limit (tests). Unset: every row.
 *
 * The order, and why (ratios: one thread, back to back, against a memcpy of the output):
 *   planes            CONSTANT, a dense input of small planes: a block of a whole plane at a
 *                     time beats every row kind (NDPAD_STREAM_MAX_PLANE_BYTES below).
 *   planes_16         the same in 16-byte shuffles, where the level has no PLANES kernel and
 *                     no row masks serve (the BLOCKS_CONSTANT row's row masks win there:
 *                     NDPAD_STREAM_MAX_PLANE16_PHASES below).
 *   short_rows_16_segments  a dense input that PLANES_PERMUTE could serve, in rows of whole
 *                     16-byte segments (32 or 48 bytes): SHORT_ROWS_16 stores the segments
 *                     whole and wins (NDPAD_STREAM_MAX_PERMUTE_ROW_BYTES below).
 *   planes_permute    edge, reflect, symmetric, wrap of a dense input of small planes of
 *                     rows under 40 bytes: beats a permute a row (SHORT_ROWS) there.
 *   short_rows        one permutation a row of at most 64 bytes beats every other way, in
 *                     every mode.
 *   short_rows_16     the same in 16-byte segments on levels without a 64-byte permute.
 *   short_rows_128    rows of 65 to 128 bytes that read the input, two permutes a row.
 *   blocks_constant   CONSTANT rows of NDPAD_STREAM_MIN_BLOCK_ROW_BYTES or more, or the
 *                     row masks' lengths (NDPAD_STREAM_MAX_ROW_MASK_BYTES).
 *   blocks            the modes that read the input: rows of NDPAD_STREAM_MIN_BLOCK_ROW_BYTES
 *                     or more, or of NDPAD_STREAM_MIN_SEAM_ROW_BYTES with a seam table of
 *                     near windows only; declines where a border lies beyond one window or
 *                     NDPAD_STREAM_MAX_BORDER_BYTES.
 *   blocks_declined   those rows BLOCKS took by their length but declined: the executor's
 *                     rows, as before the table (whether ROWS serves them better is not
 *                     measured), so this row keeps them off the ROWS row below.
 *   rows              the ROWS kernels for the rows of up to NDPAD_STREAM_MAX_ROWS_WIDTHS
 *                     vectors of the level in the modes that read the input, and CONSTANT
 *                     rows under NDPAD_STREAM_MAX_CONSTANT_ROWS_BYTES on levels of 32-byte
 *                     vectors or wider; borders of NDPAD_STREAM_MAX_BORDER_BYTES at most.
 */
#ifndef NDPAD_STREAM_TABLE_H
#define NDPAD_STREAM_TABLE_H

/* The ordered table: X(id) for each strategy, ndpad_stream_strategy_<id> (strategy.h). */
#define NDPAD_STREAM_STRATEGIES(X)                                                                 \
    X(planes)                                                                                      \
    X(planes_16)                                                                                   \
    X(short_rows_16_segments)                                                                      \
    X(planes_permute)                                                                              \
    X(short_rows)                                                                                  \
    X(short_rows_16)                                                                               \
    X(short_rows_128)                                                                              \
    X(blocks_constant)                                                                             \
    X(blocks)                                                                                      \
    X(blocks_declined)                                                                             \
    X(rows)

/* The row NDPAD_STREAM=reference keeps. */
#define NDPAD_STREAM_REFERENCE_ROW ndpad_stream_strategy_rows

/* Border tables grow with the border (64 + 8 bytes per border byte and side); beyond this
 * the per-row fillers of the executor, which broadcast long runs, are as good. */
#define NDPAD_STREAM_MAX_BORDER_BYTES 256
/* Shorter rows do not take the BLOCKS kernels by default: with every block assembled from
 * two or three rows, they measured 1.5-3x slower on 128-256 B reflect rows and at best even
 * on 16-64 B constant rows (row-length sweep, one thread, loaded AMD EPYC), while from 512 B
 * on they tie or win (volume reflect, 528 B rows: 72 -> 66 us; crop-pad ~10%). */
#define NDPAD_STREAM_MIN_BLOCK_ROW_BYTES 512
/* Rows that read the input and whose seams are one permute each (the seam table,
 * stream-plan.h) take them from this length on, which is every row the table can serve.
 * Against the ROWS kernel, one thread, 4 MiB outputs of fp32 reflect rows, ratio to memcpy,
 * back to back: 72 B 2.14 -> 1.39, 96 B 2.30 -> 1.65, 128 B 1.78 -> 1.39, 176 B 1.45 ->
 * 1.27, 208 B 1.46 -> 1.19, 240 B 1.29 -> 1.11; 192, 224 and 256 B even; 160 B the one loss,
 * 1.58 -> 1.69 (at 16 MiB, 1.04 -> 0.79). Edge and symmetric alike. (It was 256 bytes
 * while the seam loop was slower: 264 B 1.32 -> 1.30 then.) */
#define NDPAD_STREAM_MIN_SEAM_ROW_BYTES 64
/* Rows up to this many vector widths of the level (isa-levels.inc: 16 bytes scalar, 32
 * AVX2, 64 AVX-512) take the ROWS kernels by default in the modes that read the input, where
 * no BLOCKS kernel does: callgrind, reflect sweep, instructions per output byte, executor's
 * rows -> ROWS. AVX2: 16 B 9.3 -> 3.8, 64 B 2.3 -> 1.0, 256 B 0.66 -> 0.37, 512 B 0.44 ->
 * 0.27, 1 KiB 0.27 -> 0.21, 2 KiB 0.18 -> 0.18; volume (528 B) 0.57 -> 0.29, 5d (264 B)
 * 0.65 -> 0.37. Scalar (16-byte moves): 16 B 9.1 -> 3.7, 256 B 0.63 -> 0.53, 512 B 0.41 ->
 * 0.42, 1 KiB 0.25 -> 0.37. */
#define NDPAD_STREAM_MAX_ROWS_WIDTHS 32
/* CONSTANT rows under this many bytes take the ROWS kernel on levels of 32-byte vectors or
 * wider that have no block kernel for them (AVX2), in place of the executor's copy and
 * fill calls per row, whose instructions were as few (callgrind, AVX2: 64 B 0.75 vs 0.79
 * per output byte, 512 B 0.25 vs 0.24) but not as fast once the plan holds its row list.
 * AVX2, one thread, 1 MiB of fp32 rows in the cache, ratio to a memcpy: 96 B 3.3 -> 2.1,
 * 128 B 2.6 -> 1.8, 192 B 2.3 -> 1.5, 384 B 1.4 -> 1.2; 1x128x28x28 pad 1 2.0 -> 1.7; from
 * 512 B on even, and 1 KiB rows 1.23 -> 1.14, but a 16 MiB output of 1 KiB rows 0.65 ->
 * 0.92: the executor's rows stream their stores past the cache, which the kernel does not
 * (tile-choice.c sends such tiles there). */
#define NDPAD_STREAM_MAX_CONSTANT_ROWS_BYTES 512

/* CONSTANT rows of 64 bytes up to this take the BLOCKS kernel with row_masks (16 bytes of
 * table per row byte); from it on, the pad pattern blocks. One thread, 4 MiB of fp32 rows, back
 * to back, against the executor's rows: 96 B 2.4 -> 1.6 of a memcpy, 128 B 1.9 -> 1.3,
 * 160 B 2.1 -> 1.3, 256 B 1.35 -> 1.2, 392 B 1.31 -> 1.16, 448 B 1.23 -> 1.13, 504 B 1.20 ->
 * 1.15; 508 B (127 elements) the one loss, 1.19 -> 1.28. */
#define NDPAD_STREAM_MAX_ROW_MASK_BYTES 512

/* Constants per index along the row (NHWC per channel) on rows of
 * NDPAD_STREAM_MIN_BLOCK_ROW_BYTES up to this: the BLOCKS_CONSTANT kernel takes each block's
 * pad from the row pattern table (one byte a row byte, kept in L1/L2) and writes the
 * constants itself. Other plans with constants are written twice, by the kernel with one
 * pad value and by the row executor with the constants, a batch at a time in cache: NHWC
 * 1x224x224x3 fp32 per channel, one thread, 1.09-1.16 of the single constant that way. */
#define NDPAD_STREAM_MAX_ROW_PATTERN_BYTES 65536

/* CONSTANT planes of at most NDPAD_STREAM_MAX_PLANE_BYTES whose blocks take at most
 * NDPAD_STREAM_MAX_PLANE_PHASES places in a plane (8 bytes of table each), in rows under
 * NDPAD_STREAM_MAX_PLANE_ROW_BYTES, take the PLANES kernel where the level has one. One
 * thread, back to back, ratio to a memcpy, against the row masks of the BLOCKS kernel:
 * 128 x 28 x 28 fp32 (120-byte rows, 3.5 KiB planes) 1.16 -> 0.99 (2 threads 1.60 ->
 * 1.07), 64 x 30 x 62 fp32 (256 B, 8 KiB) 1.54 -> 0.92, 64 x 56 x 56 fp32 (232 B, 13 KiB)
 * 1.13 -> 1.08, 64 x 28 x 28 fp16 1.29 -> 1.01, 64 x 14 x 14 fp64 1.29 -> 0.94; planes up
 * to 64 KiB gained 2-4% more (16 x 112 x 112 fp32 1.15 -> 1.12), not worth their tables.
 * An output whose start is not on a 64-byte boundary takes unaligned stores (256 x 14 x 14
 * uint8 at 4 bytes past one: 1.06 -> 1.21, against blocks aligned to the address).
 * RUN: the fewest entries the table holds (stream above), so that the kernel's loop runs
 * over that many blocks at least between two returns to the table's start. */
#define NDPAD_STREAM_MAX_PLANE_BYTES     16384
#define NDPAD_STREAM_MAX_PLANE_PHASES    2048
#define NDPAD_STREAM_MAX_PLANE_ROW_BYTES 1024
#define NDPAD_STREAM_PLANE_RUN           16
/* PLANES_16: at most this many 16-byte block positions a plane period (18 bytes of table
 * each, kept in L1), on rows under NDPAD_STREAM_MAX_PLANE16_ROW_BYTES, where the level has
 * no PLANES kernel and no row masks serve. AVX2, one thread, back to back, ratio to a
 * memcpy, against the ROWS kernel: 512 x 7 x 7 fp32 5.7 -> 1.3, uint8 26 -> 1.5, 256 x 14
 * x 14 uint8 8.7 -> 1.3, 64 x 28 x 28 fp16 2.7 -> 1.5, 128 x 28 x 28 fp32 (120-byte rows)
 * 1.6 -> 1.2; but 32 x 6 x 30 fp32 (128-byte rows) 1.5 -> 1.8 and 248-byte rows 1.2 -> 1.6:
 * a row of a few vectors costs ROWS little, while these blocks cost the same at any length
 * (seven loads a 64-byte run). RUN: the blocks of one pass of the AVX2 loop. */
#define NDPAD_STREAM_MAX_PLANE16_PHASES    256
#define NDPAD_STREAM_PLANE16_RUN           4
#define NDPAD_STREAM_MAX_PLANE16_ROW_BYTES 128

/* PLANES_PERMUTE: rows under NDPAD_STREAM_MAX_PERMUTE_ROW_BYTES, at most
 * NDPAD_STREAM_MAX_PERMUTE_PLANE_ROWS a plane, whose blocks take at most
 * NDPAD_STREAM_MAX_PERMUTE_PHASES places in their planes and read at most 128 input bytes
 * each. The phases are as many as the one-shot plan cache holds tables for (68 bytes
 * each): making them costs about 40 ns a phase, 3 us for the 81 of a 7 x 7 uint8 map,
 * where 225 (28 x 28 uint8, 1.9 us a call planned) cost a one-shot call 6 us. */
/* Against SHORT_ROWS (a permute and a store a row), one thread, back to back, ratio to a
 * memcpy: 512 x 7 x 7 fp32 reflect (36-byte rows) 2.41 -> 1.73, edge 1.76 -> 1.59; but 64
 * x 38 x 38 uint8 (40 B) 1.54 -> 1.63, 64 x 22 x 22 fp16 (48 B) 1.28 -> 1.69, 128 x 8 x 8
 * fp32 (40 B) 1.34 -> 1.51. Rows of 32 or 48 bytes take SHORT_ROWS_16 (a shuffle and a
 * whole store a 16-byte segment) where the level has it: 128 x 14 x 14 fp16 reflect 1.42
 * against 1.68, 256 x 6 x 6 fp32 1.39 against 1.73, 64 x 30 x 30 uint8 1.43 against 1.64. */
#define NDPAD_STREAM_MAX_PERMUTE_ROW_BYTES  40
#define NDPAD_STREAM_MAX_PERMUTE_PLANE_ROWS 1024
#define NDPAD_STREAM_MAX_PERMUTE_PHASES     96

/* Where a plan holds its rows' list: rows of at least 16 bytes (the list is at most half
 * the output's bytes; listing the rows per tile cost small outputs more than their copy,
 * one thread, back to back: NHWC 1x224x224x3 fp32 padded to 4 channels, 16-byte rows, 1.8
 * -> 1.3 of a memcpy; 512 x 7 x 7 fp32 padded by 1, 36-byte rows, 3.8 -> 1.6; 512 x 14 x 14,
 * 64-byte rows, 1.5 -> 1.0; 128 x 28 x 28, 120-byte rows, 2.0 -> 1.4) and under 1 KiB
 * (longer rows spend too little per row on listing to pay for the list at plan time: conv's
 * 1032-byte rows ran no faster with it, and its planning took 3.6 instead of 1.1 us), at
 * most 2^20 of them (8 MiB of offsets). */
#define NDPAD_STREAM_MIN_LIST_ROW_BYTES 16
#define NDPAD_STREAM_MAX_LIST_ROW_BYTES 1024
#define NDPAD_STREAM_MAX_ROW_LIST       ((int64_t)1 << 20)

/* The largest plane any plane kind takes (the planes' facts are asked once for all). */
#define NDPAD_STREAM_MAX_ANY_PLANE_BYTES                                                           \
    (NDPAD_STREAM_MAX_PLANE_BYTES > 16 * NDPAD_STREAM_MAX_PLANE16_PHASES                           \
         ? NDPAD_STREAM_MAX_PLANE_BYTES                                                            \
         : 16 * NDPAD_STREAM_MAX_PLANE16_PHASES)

#endif
