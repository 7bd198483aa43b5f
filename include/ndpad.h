/*
 * ndpad.h — pad and crop N-dimensional tensors on the CPU.
 *
 * This header is the manual. It has three parts:
 *   1. the stable ABI fixed by the project's contract (problem, modes, ndpad_pad, errors);
 *   2. plans: validate and plan once, execute many times (FFTW style), with options;
 *   3. dialect entry points: ONNX Pad (pads over axes, mode strings), with OpenVINO
 *      Pad-1/Pad-12 and nGraph Pad shown as direct uses of ndpad_problem.
 *
 * WHAT EACH OUTPUT ELEMENT IS
 *   For an axis with input extent d, pads b (begin) and e (end), interior r (0 if NULL):
 *     dilated extent  D = (d == 0) ? 0 : (d - 1) * (r + 1) + 1
 *     output extent   n = max(b + D + e, 0)
 *     output index o in [0, n) looks at j = o - b, a position in the dilated input:
 *       CONSTANT  : source i = j / (r + 1) if 0 <= j < D and j % (r + 1) == 0, else pad_value
 *       EDGE      : i = clamp(j, 0, d - 1)
 *       REFLECT   : d == 1 gives 0; else P = 2 (d - 1), m = j mod P in [0, P),
 *                   i = m < d ? m : P - m
 *       SYMMETRIC : P = 2 d, m = j mod P, i = m < d ? m : P - 1 - m
 *       WRAP      : i = j mod d in [0, d)
 *   An element is pad_value if any axis says so, else the input element at the source
 *   index of every axis. Pads larger than the extent repeat the pattern (numpy >= 2.1);
 *   negative pads crop; a padded border's values come from the whole input, not from the
 *   cropped part (OpenVINO Pad-12).
 *
 * RULES (each violation is a distinct status, see ndpad_status)
 *   - rank in [0, NDPAD_MAX_RANK]; mode one of ndpad_mode; elem_size >= 1;
 *   - shape[k] >= 0; interior[k] >= 0 and non-zero interior only with CONSTANT;
 *   - a non-CONSTANT mode on an axis with d == 0 whose output extent is not 0 is an error,
 *     even when another axis makes the whole output empty;
 *   - pads_begin and pads_end are required when rank > 0; shape too;
 *   - no size, extent, offset or byte count may overflow int64_t / size_t / ptrdiff_t;
 *   - output strides must be non-zero on every axis whose output extent exceeds 1, and must
 *     give distinct elements distinct addresses (ndpad cannot check the latter in general);
 *     input strides may be anything: negative, zero (broadcast input) or overlapping;
 *   - rank 0 copies one element; an empty output writes nothing, and `in`/`out` may then
 *     be NULL; `in` may also be NULL when no input element is read (e.g. CONSTANT on an
 *     empty input).
 *   On any error nothing is written to `out`, a non-zero status is returned and
 *   ndpad_last_error() names the argument and the axis.
 *
 * IN-PLACE PADDING
 *   `in` may be exactly the interior of `out`:
 *     in == (char *)out + sum_k(pads_begin[k] * out_stride[k]) * elem_size,
 *   with in_strides equal to out_strides (the input sits inside the output's layout), all
 *   pads >= 0 and no interior. ndpad recognises this at execution and writes only the
 *   borders. Any other overlap of `in` and `out` is undefined.
 *
 * MEMORY SAFETY
 *   ndpad never reads or writes a byte outside the elements the problem names: no vector
 *   over-read past the end of `in`, no store past the end of `out`, whatever the alignment.
 *
 * THREADS
 *   Every function is thread-safe. A plan is immutable once made: one plan may execute on
 *   many threads at once with different buffers. ndpad_last_error() is per thread. A call
 *   made from inside an active OpenMP parallel region runs on the calling thread only (no
 *   nested team), so an outer parallel loop over many small pads never oversubscribes:
 *   even when the OpenMP runtime allows nesting (omp_set_max_active_levels > 1), ndpad
 *   starts no thread there (tests/test-threads.c counts the process's threads).
 *   Outputs under 256 KiB run on the calling thread, with no OpenMP region, whatever the
 *   wisdom says (only a tile shape forced through the options overrides this); see
 *   "Wisdom" for how threads and tiles are chosen above that.
 *   Placement: when OMP_PLACES / OMP_PROC_BIND (or GOMP_CPU_AFFINITY, KMP_AFFINITY) are set,
 *   the OpenMP runtime binds threads as they say; otherwise ndpad binds each worker thread
 *   of its team (not the calling thread) to one core of the process's allowed CPU set (the
 *   cgroup's CPUs within the process's affinity mask, so taskset is respected), once per
 *   thread; NDPAD_BIND=0 turns that off. Each thread runs one contiguous block of tiles,
 *   the same block on every execution (schedule(static)), so on several NUMA nodes the
 *   output pages a thread writes stay on its node when ndpad also made the first write.
 */
#ifndef NDPAD_H
#define NDPAD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(NDPAD_SHARED_BUILD)
#define NDPAD_API __declspec(dllexport)
#elif defined(__GNUC__)
#define NDPAD_API __attribute__((visibility("default")))
#else
#define NDPAD_API
#endif

/* Marks the anonymous members of ndpad_options as intended, so that C99 and C++ users
 * compiling with -pedantic get no warning (they are standard C11). */
#if defined(__GNUC__) || defined(__clang__)
#define NDPAD_EXTENSION __extension__
#else
#define NDPAD_EXTENSION
#endif

#define NDPAD_VERSION_MAJOR 0
#define NDPAD_VERSION_MINOR 1
#define NDPAD_VERSION_PATCH 0

/* ===================================================================================== */
/* 1. Stable ABI                                                                          */
/* ===================================================================================== */

#define NDPAD_MAX_RANK 32

typedef enum ndpad_mode {
    NDPAD_CONSTANT = 0,
    NDPAD_EDGE = 1,
    NDPAD_REFLECT = 2,
    NDPAD_SYMMETRIC = 3,
    NDPAD_WRAP = 4
} ndpad_mode;

/** Result of every call. Values are pinned: they are never renumbered, new ones are added
 *  at the end. ndpad_status_string() gives each a short name. */
typedef enum ndpad_status {
    NDPAD_OK = 0,
    NDPAD_ERR_NULL_ARGUMENT = 1,    /**< problem, shape, pads_begin/pads_end, options
                                          or a result pointer is NULL where required     */
    NDPAD_ERR_RANK = 2,             /**< rank outside [0, NDPAD_MAX_RANK]                  */
    NDPAD_ERR_MODE = 3,             /**< mode not an ndpad_mode, or unknown mode string    */
    NDPAD_ERR_ELEM_SIZE = 4,        /**< elem_size == 0                                    */
    NDPAD_ERR_SHAPE = 5,            /**< shape[k] < 0                                      */
    NDPAD_ERR_INTERIOR = 6,         /**< interior[k] < 0                                   */
    NDPAD_ERR_INTERIOR_MODE = 7,    /**< interior padding with a non-CONSTANT mode         */
    NDPAD_ERR_EMPTY_AXIS = 8,       /**< non-CONSTANT mode must grow an axis with d == 0   */
    NDPAD_ERR_OVERFLOW = 9,         /**< an extent, size, stride or offset overflows      */
    NDPAD_ERR_STRIDE = 10,          /**< zero output stride on an axis with > 1 element   */
    NDPAD_ERR_NULL_BUFFER = 11,     /**< `in` or `out` is NULL but must be accessed       */
    NDPAD_ERR_AXES = 12,            /**< ONNX axes: out of range or repeated               */
    NDPAD_ERR_PADS_LENGTH = 13,     /**< ONNX pads: length is not 2 * number of axes       */
    NDPAD_ERR_OPTIONS = 14,         /**< an ndpad_options field is out of range            */
    NDPAD_ERR_ISA_UNAVAILABLE = 15, /**< the requested instruction set is not usable here  */
    NDPAD_ERR_OUT_OF_MEMORY = 16    /**< an allocation failed while planning              */
} ndpad_status;

typedef struct ndpad_problem {
    int32_t rank;               /* 0 .. NDPAD_MAX_RANK                                  */
    int32_t mode;               /* an ndpad_mode                                        */
    size_t elem_size;           /* bytes per element, any value >= 1                    */
    const int64_t *shape;       /* [rank] input extents, each >= 0                      */
    const int64_t *pads_begin;  /* [rank] elements added before; negative crops         */
    const int64_t *pads_end;    /* [rank] elements added after;  negative crops         */
    const int64_t *interior;    /* [rank] elements inserted between neighbours, or NULL */
    const int64_t *in_strides;  /* [rank] input strides in elements, or NULL = dense    */
    const int64_t *out_strides; /* [rank] output strides in elements, or NULL = dense   */
    const void *pad_value;      /* elem_size bytes (CONSTANT), or NULL = zero bytes     */
} ndpad_problem;

/** ndpad_output_shape() : the output extents of `problem`.
 *  @param problem   the problem; validated completely (every rule above).
 *  @param out_shape receives `rank` extents; may be NULL only when rank == 0.
 *  @return NDPAD_OK, or the status of the first rule broken (out_shape untouched).
 *  Thread-safe. */
NDPAD_API ndpad_status ndpad_output_shape(const ndpad_problem *problem, int64_t *out_shape);

/** ndpad_pad() : validate, plan and execute in one call, with default options (all cores,
 *  best instruction set). For repeated pads of the same problem, make a plan once instead.
 *  @param in   the input (element [0,...,0]); may be NULL when no input element is read.
 *  @param out  the output (element [0,...,0]); may be NULL when the output is empty.
 *  @return NDPAD_OK or an error status; on error nothing is written. Thread-safe. */
NDPAD_API ndpad_status ndpad_pad(const ndpad_problem *problem, const void *in, void *out);

/** ndpad_status_string() : a short constant name for `status` ("NDPAD_ERR_RANK: rank out
 *  of range"); never NULL, also for values that are not statuses. Thread-safe. */
NDPAD_API const char *ndpad_status_string(ndpad_status status);

/** ndpad_last_error() : what went wrong in the last failed call on this thread, in words a
 *  user can act on, naming the argument and the axis, e.g.
 *  "ndpad_pad: shape[2] = -4 is negative". "" when no call on this thread has failed yet.
 *  The text stays valid until the next failing ndpad call on the same thread. */
NDPAD_API const char *ndpad_last_error(void);

/* ===================================================================================== */
/* 2. Plans and options                                                                   */
/* ===================================================================================== */

/** Instruction-set levels a plan can run with. */
typedef enum ndpad_isa {
    NDPAD_ISA_AUTO = 0,   /**< the best level this CPU and build support */
    NDPAD_ISA_SCALAR = 1, /**< portable C, always available             */
    NDPAD_ISA_AVX2 = 2,
    NDPAD_ISA_AVX512 = 3,
    NDPAD_ISA_NEON = 4
} ndpad_isa;

/** Options of ndpad_plan_create(). Initialise with ndpad_options_init() (or zero it: all
 *  zeros are the defaults) and then set what you need; reserved fields must stay zero so
 *  that later versions can give them meaning without breaking this ABI. */
typedef struct ndpad_options {
    int32_t threads;   /**< threads for one execution; 0 = all physical cores the
                               process may use (hwloc; cgroups and taskset narrow them),
                               capped by omp_get_max_threads(); 1 = no OpenMP region;
                               n > 1 = at most n, and never more than the processors
                               the process may run on (omp_get_num_procs())           */
    int32_t isa;       /**< an ndpad_isa; AUTO by default                            */
    int64_t tile_rows; /**< output rows per tile; 0 = planner's choice. A forced tile
                               shape is for tuners and tests: results never depend on it */
    int64_t tile_cols; /**< output elements of the innermost axis per tile; 0 = whole
                               rows (or planner's choice)                                */
    NDPAD_EXTENSION union {
        NDPAD_EXTENSION struct {
            int32_t reserved32; /**< must be zero (shares reserved[0] with `tuning`)    */
            int32_t tuning;     /**< an ndpad_tuning; NDPAD_TUNING_CACHE (0) by default */
        };
        int64_t reserved[8]; /**< the same 64 bytes: everything but `tuning` must be
                                     zero                                               */
    };
} ndpad_options;

/** How a plan chooses its tile shape (options.tuning). Whatever the choice, results are
 *  byte-identical: only speed depends on it. An explicit options.tile_rows/tile_cols
 *  always wins over all three. When options.tuning is NDPAD_TUNING_CACHE (the default),
 *  the environment variable NDPAD_TUNING may choose instead: "heuristic" ignores the
 *  wisdom, "cache" (or unset, or empty) uses it; any other value is ignored with one
 *  wisdom warning (it never makes planning fail). An explicit HEURISTIC or MEASURE in
 *  the options wins over the variable. */
typedef enum ndpad_tuning {
    NDPAD_TUNING_CACHE = 0,     /**< use the wisdom (per-machine tile cache) for this
                                     problem's class if it has an entry, else the
                                     heuristic. The default wisdom file is read once per
                                     process, on first use; later plans do a table lookup */
    NDPAD_TUNING_HEURISTIC = 1, /**< ignore the wisdom: cache-size heuristic only         */
    NDPAD_TUNING_MEASURE = 2    /**< measure this problem's class now (candidate tiles on
                                     the real executor, scratch buffers, median of
                                     repetitions, about a second), store the winner in the
                                     wisdom and save it to the default file              */
} ndpad_tuning;

/** An immutable, validated execution plan. Opaque. */
typedef struct ndpad_plan ndpad_plan;

/** ndpad_options_init() : set `options` to the defaults (all zero). NULL is ignored. */
NDPAD_API void ndpad_options_init(ndpad_options *options);

/** ndpad_plan_create() : validate `problem`, normalise it (drop size-1 axes, merge dense
 *  unpadded axes, turn crops into offsets), and plan its execution: one interior region
 *  copied with bulk memcpy, border regions filled per mode, tiles over threads.
 *  The plan copies everything it needs: `problem` and its arrays may be freed afterwards.
 *  @param problem the problem (see the rules above).
 *  @param options NULL for defaults, else see ndpad_options.
 *  @param plan    receives the new plan, or NULL on error. Must not be NULL.
 *  @return NDPAD_OK; a problem-rule status; NDPAD_ERR_OPTIONS; NDPAD_ERR_ISA_UNAVAILABLE;
 *          NDPAD_ERR_OUT_OF_MEMORY. Thread-safe. */
NDPAD_API ndpad_status ndpad_plan_create(const ndpad_problem *problem, const ndpad_options *options,
                                         ndpad_plan **plan);

/** ndpad_execute() : pad `in` into `out` as `plan` says. Recognises in-place padding.
 *  @return NDPAD_OK; NDPAD_ERR_NULL_ARGUMENT (plan NULL); NDPAD_ERR_NULL_BUFFER (in or out
 *          NULL but needed). Thread-safe: one plan may run on many threads at once. */
NDPAD_API ndpad_status ndpad_execute(const ndpad_plan *plan, const void *in, void *out);

/** ndpad_plan_destroy() : free `plan`. NULL is ignored. Not concurrently with an
 *  execution of the same plan. */
NDPAD_API void ndpad_plan_destroy(ndpad_plan *plan);

/** ndpad_plan_describe() : a human-readable account of the plan: normalised axes, the
 *  interior region and its copy runs, each border region with its filler, the ISA and the
 *  tile shape. snprintf semantics: writes at most `size` bytes (NUL included) to `buf`
 *  (may be NULL when size is 0) and returns the length the whole text needs. */
NDPAD_API size_t ndpad_plan_describe(const ndpad_plan *plan, char *buf, size_t size);

/** ndpad_plan_isa() : the instruction-set level the plan's kernels use (never AUTO). */
NDPAD_API ndpad_isa ndpad_plan_isa(const ndpad_plan *plan);

/** ndpad_isa_name() : "auto", "scalar", "avx2", "avx512", "neon", or "unknown". */
NDPAD_API const char *ndpad_isa_name(ndpad_isa isa);

/* ===================================================================================== */
/* 2b. Wisdom: the per-machine tile cache (FFTW's wisdom)                                 */
/* ===================================================================================== */

/*
 * The tuner `ndpad-tune` (and plans made with NDPAD_TUNING_MEASURE) measure candidate tile
 * shapes and thread counts for a problem CLASS on the real executor (repetitions, median)
 * and remember the fastest: the wisdom. A class is (mode, element size after
 * normalisation, normalised rank, floor(log2) of the output bytes, floor(log2) of the
 * output row bytes, ISA, thread budget). The thread budget is the plan's options.threads,
 * or for 0 all physical cores capped by omp_get_max_threads(): a plan limited to one thread
 * and a plan on all cores are tuned apart (the tuner does both by default). Wisdom is keyed
 * by a machine fingerprint (CPU model, ISA level, core count, cache sizes, ndpad version,
 * kernel list): wisdom from another machine or version is never used.
 *
 * Below 256 KiB of output every plan, tuned or not, runs on one thread with no OpenMP
 * region (ndpad never starts threads for a 1x3x32x40 pad). Above, untuned plans use the
 * heuristic: one thread per 128 KiB of output up to the thread budget, about four tiles
 * per thread and more so that a tile fits the per-core L2 (hwloc), and streaming stores
 * when the output exceeds the last-level cache.
 *
 * The default file is $NDPAD_WISDOM, else $XDG_CACHE_HOME/ndpad/wisdom, else
 * ~/.cache/ndpad/wisdom; its format is documented in tuning/wisdom-format.md. It is read
 * lazily, once, by the first plan made with NDPAD_TUNING_CACHE or MEASURE. A missing,
 * truncated, corrupt, other-version or other-machine file is ignored with one warning
 * (ndpad_wisdom_warning() and the log callback): stored wisdom never causes a failure and
 * never changes a result. Saving merges with the file on disk under a lock and replaces it
 * atomically, so tuners running at once lose nothing. All functions are thread-safe.
 */

/** ndpad_wisdom_import_file() : merge the wisdom in file `path` into memory.
 *  @return 1 when the file was accepted (bad lines in it are skipped), 0 when it was
 *          rejected as a whole (unreadable, not wisdom, other version, other machine);
 *          ndpad_last_error() and ndpad_wisdom_warning() then say why. Memory is untouched
 *          on rejection. */
NDPAD_API int ndpad_wisdom_import_file(const char *path);

/** ndpad_wisdom_import_string() : as ndpad_wisdom_import_file(), from the text `text`. */
NDPAD_API int ndpad_wisdom_import_string(const char *text);

/** ndpad_wisdom_export_file() : write the wisdom in memory (after loading the default file
 *  if not done yet) to `path`, merged with the entries already in that file when it holds
 *  wisdom of this machine, under a lock, atomically (temporary file + rename).
 *  @return 1 on success, 0 on failure (ndpad_last_error() says why). */
NDPAD_API int ndpad_wisdom_export_file(const char *path);

/** ndpad_wisdom_export_string() : the wisdom in memory as text. snprintf semantics: writes
 *  at most `size` bytes (NUL included) to `buf` (may be NULL when size is 0) and returns
 *  the length the whole text needs. */
NDPAD_API size_t ndpad_wisdom_export_string(char *buf, size_t size);

/** ndpad_wisdom_forget() : forget all wisdom in memory. The default file is read again by
 *  the next plan that uses the cache (so a changed $NDPAD_WISDOM takes effect). */
NDPAD_API void ndpad_wisdom_forget(void);

/** ndpad_wisdom_warning() : the last wisdom warning of the process ("" if none), e.g. that
 *  the default file belongs to another machine and was ignored. snprintf semantics. */
NDPAD_API size_t ndpad_wisdom_warning(char *buf, size_t size);

/** ndpad_wisdom_path() : the default wisdom file path as described above. snprintf
 *  semantics; returns 0 when no location is known (no $HOME). */
NDPAD_API size_t ndpad_wisdom_path(char *buf, size_t size);

/** A log callback: receives each wisdom warning (one line, no newline) and `user`. */
typedef void (*ndpad_log_fn)(const char *message, void *user);

/** ndpad_set_log_callback() : install `fn` (NULL to remove) for wisdom warnings. */
NDPAD_API void ndpad_set_log_callback(ndpad_log_fn fn, void *user);

/* ===================================================================================== */
/* 3. Dialects                                                                            */
/* ===================================================================================== */

/*
 * OpenVINO Pad-1 / Pad-12: the core problem as it stands.
 *     pads_begin -> problem.pads_begin, pads_end -> problem.pads_end,
 *     pad_mode "constant"|"edge"|"reflect"|"symmetric" -> NDPAD_CONSTANT.. NDPAD_SYMMETRIC,
 *     pad_value -> problem.pad_value (NULL = 0). Negative pads (Pad-12) crop; padded
 *     borders take their values from the whole input, as Pad-12's mixed example shows:
 *
 *       int64_t shape[2] = {3, 4}, pb[2] = {2, -1}, pe[2] = {-1, 3};
 *       float data[12] = {1,2,3,4, 5,6,7,8, 9,10,11,12}, out[4 * 6];
 *       ndpad_problem p = { .rank = 2, .mode = NDPAD_REFLECT, .elem_size = sizeof(float),
 *                           .shape = shape, .pads_begin = pb, .pads_end = pe };
 *       ndpad_pad(&p, data, out);   // out = 10 11 12 11 10 9 / 6 7 8 7 6 5 /
 *                                   //       2 3 4 3 2 1 / 6 7 8 7 6 5
 *
 * nGraph Pad (v0): padding_below -> pads_begin, padding_above -> pads_end,
 *     padding_interior -> interior (CONSTANT only), arg_pad_value -> pad_value.
 *     The 3x3 example with interior (1,2), below (1,2), above (1,0), value 42 gives a
 *     7x9 output: ndpad_output_shape() reports {7, 9}.
 */

/** A core problem made from ONNX Pad arguments by ndpad_onnx_problem_init(). The `problem`
 *  member points into this structure's own arrays: do not copy the structure, use it in
 *  place. Add `in_offset` bytes to the ONNX input pointer before executing. */
typedef struct ndpad_onnx_problem {
    ndpad_problem problem; /**< ready for ndpad_plan_create() / ndpad_pad()        */
    ptrdiff_t in_offset;   /**< bytes to add to the input pointer (ONNX crops)     */
    int64_t shape[NDPAD_MAX_RANK];
    int64_t pads_begin[NDPAD_MAX_RANK];
    int64_t pads_end[NDPAD_MAX_RANK];
    int64_t in_strides[NDPAD_MAX_RANK];
} ndpad_onnx_problem;

/** ndpad_onnx_problem_init() : translate ONNX Pad (opset 2 to 19+) into a core problem.
 *  ONNX Runtime's semantics: negative pads crop first, then the cropped tensor is padded,
 *  so edge/reflect/wrap borders come from the cropped data (unlike OpenVINO Pad-12). The
 *  translation is a smaller shape, an input offset (`in_offset`) and the original dense
 *  input strides, with non-negative pads. Pads larger than the (cropped) extent repeat the
 *  pattern as numpy >= 2.1 does (ONNX Runtime rejects them).
 *  @param onnx        receives the problem; must not be NULL.
 *  @param rank        input rank, 0 .. NDPAD_MAX_RANK.
 *  @param shape       [rank] dense input extents (row-major, as ONNX tensors are).
 *  @param elem_size   bytes per element.
 *  @param pads        [2 * num_axes] = [x1_begin .. xn_begin, x1_end .. xn_end].
 *  @param pads_count  number of entries in `pads`; must be 2 * num_axes.
 *  @param axes        [axes_count] axes the pads apply to (negative counts from the back,
 *                     range [-rank, rank-1], no repeats), or NULL for all axes in order.
 *  @param axes_count  entries in `axes` (ignored when axes is NULL).
 *  @param mode        "constant", "edge", "reflect" or "wrap"; NULL means "constant".
 *  @param constant_value elem_size bytes, or NULL for zero (only used by "constant").
 *  @return NDPAD_OK, NDPAD_ERR_AXES, NDPAD_ERR_PADS_LENGTH, NDPAD_ERR_MODE, or any status
 *          of the core rules (checked here already). Thread-safe. */
NDPAD_API ndpad_status ndpad_onnx_problem_init(ndpad_onnx_problem *onnx, int32_t rank,
                                               const int64_t *shape, size_t elem_size,
                                               const int64_t *pads, int64_t pads_count,
                                               const int64_t *axes, int64_t axes_count,
                                               const char *mode, const void *constant_value);

/** ndpad_onnx_pad() : ONNX Pad in one call: ndpad_onnx_problem_init() then ndpad_pad()
 *  on `in + in_offset`. `in` and `out` are dense row-major tensors. The output shape is
 *  ndpad_output_shape(&onnx.problem, ...). Returns as those two. Thread-safe. */
NDPAD_API ndpad_status ndpad_onnx_pad(int32_t rank, const int64_t *shape, size_t elem_size,
                                      const int64_t *pads, int64_t pads_count, const int64_t *axes,
                                      int64_t axes_count, const char *mode,
                                      const void *constant_value, const void *in, void *out);

#ifdef __cplusplus
}
#endif

#endif /* NDPAD_H */
