/*
 * ndpad.h — pad and crop N-dimensional tensors on the CPU.
 *
 * This header is the manual. It has three parts:
 *   1. the stable ABI fixed by the project's contract (problem, modes, ndpad_pad, errors);
 *   2. plans: validate and plan once, execute many times (FFTW style), with options;
 *   3. dialect entry points: ONNX Pad (pads over axes, mode strings) and CenterCropPad,
 *      with OpenVINO Pad-1/Pad-12 and nGraph Pad shown as direct uses of ndpad_problem.
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
 *     an empty output addresses nothing, so its strides may be anything (numpy gives an
 *     empty (4, 2, 0) array the strides (0, 0, 0));
 *     input strides may be anything: negative, zero (broadcast input) or overlapping;
 *   - rank 0 copies one element (no array is read); an empty output writes nothing, and
 *     `in`/`out` may then be NULL (they are never touched); `in` may also be NULL when no
 *     input element is read (e.g. CONSTANT on an empty input); any elem_size >= 1 is valid
 *     for a problem whose input and output are both empty (a tensor with elements must
 *     have a byte count that fits int64). A field a problem does not use is never read
 *     (tests/test-unused-fields.c).
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
 *   How an execution uses its threads (options.schedule):
 *   - NDPAD_SCHEDULE_DEFAULT: the calling thread wakes up to threads - 1 of ndpad's worker
 *     threads (started on first use, then kept, asleep when idle) and claims tiles itself
 *     beside them, one at a time from a shared counter; it returns when every tile is done.
 *     It never waits for a worker that has not started: on a busy machine, where a
 *     descheduled worker would hold an OpenMP barrier for a scheduler time slice
 *     (milliseconds), the caller simply runs the remaining tiles, and the worker, woken
 *     late, finds a newer job or none and goes back to sleep (a generation count keeps it
 *     off a finished job). When another thread's execution holds the workers, the call
 *     runs on the calling thread alone rather than wait for them. The workers are named
 *     "ndpad-worker-N" (what top -H and /proc/<pid>/task/<tid>/comm show). The team size
 *     is still the plan's: OMP_NUM_THREADS, options.threads and the wisdom's thread choice
 *     govern it as before.
 *   - NDPAD_SCHEDULE_FIXED_TEAM, or NDPAD_THREADS_FIXED=1 in the environment: an OpenMP
 *     parallel region of exactly the plan's threads, each running one contiguous block of
 *     tiles, the same block on every execution (schedule(static)), so on several NUMA nodes
 *     the output pages a thread writes stay on its node when ndpad also made the first
 *     write; the call returns after the region's barrier (ndpad's behaviour before 0.2).
 *   - a host pool (options.thread_pool, ndpad_set_thread_pool()): the host's threads run
 *     the tiles, see HOST THREAD POOLS.
 *   Results are byte-identical in all three.
 *   Idle workers spin 0.1 ms before they sleep; one that lost its CPU while spinning (a
 *   busy machine) sleeps at once for a while (10 ms, doubled up to 1 s while the machine
 *   stays busy); OMP_WAIT_POLICY=passive makes them sleep at once always.
 *   A caller that finished its own tiles and then waited a stall for a worker's claimed
 *   tile (1 ms or more, and 8 times one of its own: the worker lost its core mid-tile to
 *   another process) runs the next executions alone for a back-off period (10 ms, doubled
 *   at each stall up to 1 s, halved by each execution whose workers kept up; the first
 *   execution after a period invites the workers again): on a busy machine ndpad then
 *   behaves as a 1-thread plan rather than pay a time slice per call.
 *   ndpad's workers live until the library is unloaded or the process exits: then the
 *   library's destructor wakes, stops and joins them (see PLUGINS); they block every
 *   signal.
 *   Placement: when OMP_PLACES / OMP_PROC_BIND (or GOMP_CPU_AFFINITY, KMP_AFFINITY) are set,
 *   the OpenMP runtime binds its threads as they say (ndpad's workers are then not bound);
 *   otherwise ndpad binds each worker thread (not the calling thread) to one core of the
 *   process's allowed CPU set (the cgroup's CPUs within the process's affinity mask, so
 *   taskset is respected), once per thread; NDPAD_BIND=0 turns that off.
 *
 * FORK
 *   A process made by fork() from one that has loaded ndpad (multiprocessing's "fork"
 *   start method, PyTorch DataLoader workers, pre-forking servers) may use every ndpad call,
 *   also when other threads of the parent were inside ndpad at the fork. Neither
 *   ndpad's workers nor the OpenMP runtime's threads survive a fork, so in the child (and
 *   its own children) every execution without a host pool runs on the calling thread:
 *   results are the same, only single-threaded (a host pool is still called: whether the
 *   host's threads survived the fork is the host's to know).
 *   Plans made before the fork stay valid in the child. Every lock of the library is held
 *   across fork() (pthread_atfork) and released on both sides, so a child never inherits
 *   one held by another thread: the one-shot plan cache of ndpad_pad(), the wisdom table,
 *   its warnings, and a wisdom save with its file lock (a save in progress ends before the
 *   fork, so no child inherits the lock file's descriptor). The machine's topology is
 *   discovered (hwloc) once, under a lock held across fork() too: a fork waits for a
 *   discovery in progress to end, and the child inherits a finished discovery or none (it
 *   then makes its own). The other once-initialised tables (kernels, wisdom fingerprint)
 *   take no lock and are made again in a child forked while they were being made. The
 *   parent is not affected, but for fork() waiting, at most, for a cache update, a
 *   discovery or a wisdom save in progress in another thread. The Python package (its plan
 *   caches, numpy's and torch's) holds its own locks across fork() the same way.
 *   (tests/test-fork.c: over a thousand forks while other threads are inside each of them;
 *   python/tests/test_fork.py)
 *
 * PLUGINS (dlopen, dlclose)
 *   A module that a host loads and unloads may link either library. libndpad.so is linked
 *   with -z nodelete: it stays loaded after the plugin's dlclose(), and the next load finds
 *   its workers. With libndpad.a (ndpad::ndpad_static) ndpad is part of the plugin and is
 *   unloaded with it: at dlclose() its destructor stops and joins its workers (at process
 *   exit too; a worker finishes the tile it runs, and executions still running on other
 *   threads then run on their callers), and glibc drops the fork handlers it registered
 *   (pthread_atfork records the plugin's DSO handle), so no thread and no fork handler
 *   runs the unmapped code.
 *   The OpenMP runtime (NDPAD_SCHEDULE_FIXED_TEAM) is a shared library of its own whose
 *   idle pool threads outlive a team: from the first team on, ndpad keeps it loaded
 *   (RTLD_NODELETE), and the next load reuses its pool.
 *   A plugin linking libndpad.a must:
 *   - return from every ndpad call, on all its threads, before the host unloads it, and
 *     not keep a plan (or a pointer ndpad gave) of one load for the next;
 *   - keep its copy of ndpad private: link with -Wl,--exclude-libs,ALL (or a version
 *     script exporting only its own entry points). Exported, the copy's symbols may bind
 *     the calls of a host or another plugin that links ndpad too, or theirs its calls.
 *   Each unload of the static library leaves what hwloc's topology and the OpenMP
 *   runtime's start-up hold allocated (about 20 KB here). (tests/test-unload.c: 20 load, pad, unload cycles of each kind, the
 *   threads counted, a fork after them; again on OpenMP teams.)
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
/* The header's version as one number (ndpad_version_number() gives the library's). */
#define NDPAD_VERSION_NUMBER                                                                       \
    (NDPAD_VERSION_MAJOR * 10000 + NDPAD_VERSION_MINOR * 100 + NDPAD_VERSION_PATCH)

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
    NDPAD_ERR_SHAPE = 5,            /**< shape[k] < 0; a window or input box out of range
                                          (ndpad_window_input_box, _plan_create); an ONNX
                                          output extent d + begin + end below 0           */
    NDPAD_ERR_INTERIOR = 6,         /**< interior[k] < 0                                   */
    NDPAD_ERR_INTERIOR_MODE = 7,    /**< interior padding with a non-CONSTANT mode         */
    NDPAD_ERR_EMPTY_AXIS = 8,       /**< non-CONSTANT mode must grow an axis with d == 0,
                                          or pad an ONNX axis cropped past its end         */
    NDPAD_ERR_OVERFLOW = 9,         /**< an extent, size, stride or offset overflows      */
    NDPAD_ERR_STRIDE = 10,          /**< zero output stride on an axis with > 1 element   */
    NDPAD_ERR_NULL_BUFFER = 11,     /**< `in` or `out` is NULL but must be accessed       */
    NDPAD_ERR_AXES = 12,            /**< ONNX axes: out of range or repeated               */
    NDPAD_ERR_PADS_LENGTH = 13,     /**< ONNX pads: length is not 2 * number of axes       */
    NDPAD_ERR_OPTIONS = 14,         /**< an ndpad_options field is out of range            */
    NDPAD_ERR_ISA_UNAVAILABLE = 15, /**< the requested instruction set is not usable here  */
    NDPAD_ERR_OUT_OF_MEMORY = 16,   /**< an allocation failed while planning              */
    NDPAD_ERR_IO = 17,              /**< a wisdom file or text cannot be read, written or
                                          used (the message names the path and the reason) */
    NDPAD_ERR_TYPE = 18             /**< an ONNX element type, or opset, the operator does
                                          not accept (ONNX's type error), or a type without
                                          a fixed width (string)                          */
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
    const void *pad_value;      /* elem_size bytes (CONSTANT), or NULL = zero bytes;
                                   never read by other modes, nor for an empty output   */
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
    NDPAD_ISA_AVX512 = 3, /**< AVX-512 F, BW and VL                       */
    NDPAD_ISA_NEON = 4,
    NDPAD_ISA_AVX512_VBMI = 5, /**< AVX-512 plus VBMI: vpermb reverses bytes */
    NDPAD_ISA_AVX512_VBMI2 = 6 /**< plus VBMI2 and POPCNT: vpexpandb spreads the
                                    input over constant-padded planes       */
} ndpad_isa;

/** A host's parallel-for (see HOST THREAD POOLS below ndpad_set_thread_pool()).
 *  ndpad_task_fn: one task of an execution; `index` in [0, n). */
typedef void (*ndpad_task_fn)(void *task_context, size_t index);
/** Runs task(task_context, i) for every i in [0, n) on the host's threads; returns when all
 *  have run. `pool_context` is ndpad_thread_pool.context. */
typedef void (*ndpad_parallel_for_fn)(void *pool_context, ndpad_task_fn task, void *task_context,
                                      size_t n);
/** A host's thread pool: its parallel-for, its context and the number of threads it will
 *  run tasks on (>= 1). ndpad copies this description (never the pool). */
typedef struct ndpad_thread_pool {
    ndpad_parallel_for_fn parallel_for; /**< must not be NULL                             */
    void *context;                      /**< passed back as pool_context                   */
    int32_t threads;                    /**< threads the host runs tasks on, >= 1          */
} ndpad_thread_pool;

/** How ndpad's own threads share an execution (options.schedule; without a host pool). */
typedef enum ndpad_schedule {
    NDPAD_SCHEDULE_DEFAULT = 0,   /**< the calling thread claims tiles beside ndpad's
                                       workers and returns as soon as every tile is done:
                                       it never waits for a worker that has not started
                                       (a late worker finds nothing left). The environment
                                       variable NDPAD_THREADS_FIXED=1 turns it into
                                       FIXED_TEAM for every plan that leaves this at 0    */
    NDPAD_SCHEDULE_FIXED_TEAM = 1 /**< an OpenMP team of exactly the plan's threads, one
                                       contiguous block of tiles each (schedule(static)),
                                       joined at the region's barrier                     */
} ndpad_schedule;

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
            /* Appended in reserved[1] and reserved[2] (offsets 32 and 40 on LP64): */
            int32_t schedule;    /**< an ndpad_schedule; DEFAULT (0) by default           */
            int32_t reserved32b; /**< must be zero (shares reserved[1] with `schedule`)  */
            const ndpad_thread_pool *thread_pool; /**< NULL: the calling thread's pool
                                 (ndpad_set_thread_pool()) if it set one, else ndpad's own
                                 threads. Else the host's pool: the plan copies *thread_pool
                                 and runs on it (see HOST THREAD POOLS)                 */
        };
        int64_t reserved[8]; /**< the same 64 bytes: everything but `tuning`, `schedule`
                                     and `thread_pool` must be zero                     */
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
    NDPAD_TUNING_MEASURE = 2    /**< measure this problem's class now (candidates on the
                                     real executor, scratch buffers, about a second; a
                                     winner must beat the heuristic in interleaved pairs),
                                     store the result in the wisdom and save it to the
                                     default file. A class the wisdom already holds is NOT
                                     measured again: the plan uses the entry (source
                                     NDPAD_TILE_WISDOM). Re-tuning is `ndpad-tune`'s job */
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

/** ndpad_isa_name() : "auto", "scalar", "avx2", "avx512", "neon", "avx512vbmi",
 *  "avx512vbmi2", or "unknown". The names are the values NDPAD_ISA accepts. */
NDPAD_API const char *ndpad_isa_name(ndpad_isa isa);

/** Where a plan's tile shape came from (ndpad_plan_info.tile_source). */
typedef enum ndpad_tile_source {
    NDPAD_TILE_HEURISTIC = 0, /**< the planner's cache-size heuristic                    */
    NDPAD_TILE_WISDOM = 1,    /**< the wisdom's entry for the plan's class               */
    NDPAD_TILE_MEASURED = 2,  /**< measured while planning (NDPAD_TUNING_MEASURE)        */
    NDPAD_TILE_FORCED = 3     /**< options.tile_rows / options.tile_cols                 */
} ndpad_tile_source;

/** What a plan will do, as numbers (ndpad_plan_describe() gives the same as text).
 *  A struct tag without a typedef, like POSIX's `struct stat` beside stat(): the function
 *  ndpad_plan_info() has the same name. `size` comes first and is set by the caller to
 *  sizeof(struct ndpad_plan_info): later versions only append fields, and a library fills
 *  only the fields that fit in `size` bytes, so a program built against an older header
 *  keeps working with a newer library. */
struct ndpad_plan_info {
    size_t size;         /**< set by the caller: sizeof(struct ndpad_plan_info)          */
    int32_t isa;         /**< an ndpad_isa, never AUTO (= ndpad_plan_isa())              */
    int32_t threads;     /**< threads an execution runs on (1 = no OpenMP region)        */
    int64_t tile_rows;   /**< output rows per tile (rows of the normalised problem)      */
    int64_t tile_cols;   /**< elements of the innermost normalised axis per tile         */
    int64_t tiles;       /**< tiles one execution runs                                    */
    int32_t tile_source; /**< an ndpad_tile_source                                        */
    int32_t streaming;   /**< 1 when interior copies use non-temporal (streaming) stores */
    /* Second version (appended): the tuner's other choices. */
    int32_t interior_copy; /**< the interior copy when not streaming: 0 the ISA's vector
                                copy, 1 libc memcpy, 2 `rep movsb` (as the wisdom's copy=) */
    int32_t stream_path;   /**< 1 when the output-stream path writes the output (0: the
                                row executor; never 1 for plans without that path)        */
    /* Third version (appended): memory. */
    int64_t plan_bytes; /**< heap bytes the plan holds until ndpad_plan_destroy(): itself,
                             its pad value and the output-stream tables with their row
                             list (one offset per output row where that path lists its
                             rows), for a caller that budgets a cache of plans            */
};

/** ndpad_plan_info() : the plan's ISA, tile shape, tile count, threads, where the tile came
 *  from, whether it streams, its interior copy and executor path, and the memory it holds,
 *  for benchmarks, tuners and plan caches (no text to parse).
 *  @param plan the plan; must not be NULL.
 *  @param info receives the fields that fit in info->size bytes, which the caller sets to
 *              sizeof(struct ndpad_plan_info) first; the bytes beyond are left alone.
 *  @return NDPAD_OK; NDPAD_ERR_NULL_ARGUMENT (plan or info NULL); NDPAD_ERR_OPTIONS
 *          (info->size smaller than the first version of the struct: the size field was
 *          not set). Nothing is written on error. Thread-safe. */
NDPAD_API ndpad_status ndpad_plan_info(const ndpad_plan *plan, struct ndpad_plan_info *info);

/* ===================================================================================== */
/* 2b. Host thread pools                                                                  */
/* ===================================================================================== */

/*
 * HOST THREAD POOLS
 *   A program that already owns a thread pool (PyTorch's at::parallel_for, ONNX Runtime's
 *   KernelContext_ParallelFor, XNNPACK's pthreadpool_parallelize_1d, a task scheduler) hands
 *   ndpad its parallel-for in an ndpad_thread_pool: through options.thread_pool for a plan,
 *   or with ndpad_set_thread_pool() for every plan made on the calling thread without one,
 *   the one-shot ndpad_pad() and the ONNX entry points included. ndpad then starts no thread
 *   of its own: a plan's thread budget is pool.threads (options.threads, when > 0, caps it),
 *   the output is cut into tiles for that many threads, and each execution that is worth
 *   more than one thread (see "Wisdom": outputs under 256 KiB never are) makes exactly one
 *   call parallel_for(pool.context, task, task_context, n) from the executing thread, with
 *   n >= 2. An execution on one thread never calls the pool.
 *
 *   What the host may do: run the n tasks in any order, on any threads (the caller's
 *   included, each task on a different or the same thread, a fresh thread per task), on
 *   fewer threads than pool.threads said, one at a time or all at once; it must run each
 *   index exactly once and return only when all have returned. It may itself be called from
 *   several threads at once (one plan executing on many threads).
 *   What ndpad promises: a task takes no lock and holds none when it returns, waits for no
 *   other task, relies on no thread-local state (it may run on a thread ndpad has never
 *   seen, and never calls the pool again); the output is byte-identical to that of ndpad's
 *   own threads and of one thread, whatever the order and the threads; errors are found
 *   before the first task (a task never fails); and a host that runs the tasks in a plain
 *   loop on the caller is as fast as a plan with threads = 1.
 *   A forked child (see FORK) still calls the pool: whether the host's threads survived the
 *   fork is the host's to know.
 */

/** ndpad_set_thread_pool() : make `pool` (copied) the calling thread's default pool: plans
 *  made on this thread with options.thread_pool NULL (ndpad_plan_create(), window plans,
 *  ndpad_pad(), ndpad_onnx_pad()) run on it; NULL restores ndpad's own threads. A plan keeps
 *  the pool it was made with; the one-shot plan cache never hands a plan made for one pool
 *  to a call with another. Thread-local: other threads are not affected.
 *  @return NDPAD_OK; NDPAD_ERR_OPTIONS (pool->parallel_for NULL or pool->threads < 1: the
 *          thread's pool is then unchanged). */
NDPAD_API ndpad_status ndpad_set_thread_pool(const ndpad_thread_pool *pool);

/* ===================================================================================== */
/* 2c. Windows: any block of the output from only the input it reads                      */
/* ===================================================================================== */

/*
 * A WINDOW of a problem is a block [out_begin[k], out_end[k]) of its output (per axis,
 * 0 <= out_begin[k] <= out_end[k] <= output extent). A caller that works in tiles or chunks
 * asks which block of the input, the BOX [in_begin[k], in_end[k]), the window reads, fetches
 * only that, and runs a window plan on it. The result is byte-identical to the same block
 * of the full ndpad_pad() of the problem: every mode, interior padding, negative pads,
 * element sizes and ISAs. No element outside the box is read, none outside the window is
 * written. Window arguments out of range fail with NDPAD_ERR_SHAPE (window outside the
 * output, box outside the input or not covering what the window reads), with a message
 * naming the argument and the axis.
 */

/** ndpad_window_input_box() : the smallest input box the window reads.
 *  Per axis, for a nonempty window that reads input, [in_begin[k], in_end[k]) is:
 *    CONSTANT  the input positions whose lattice points (interior padding) fall inside the
 *              window; if on some axis there is none (the window is pure border, or only
 *              the holes interior padding inserts), the window reads nothing (below);
 *    EDGE      [clamp(j0), clamp(j1 - 1) + 1), j = output index - pads_begin, clamped to
 *              [0, d - 1]: a window wholly in a border reads the one edge element;
 *    REFLECT, SYMMETRIC  the range of positions the folded map visits: the whole axis
 *              [0, d) when the window spans a period (2 (d - 1), resp. 2 d) or both
 *              turning points; otherwise a range with at most one turning point, at its end;
 *    WRAP      the window's run [j0 mod d, j0 mod d + width) when it does not cross a
 *              wrap seam; the whole axis [0, d) when it crosses one (or is >= d wide).
 *  When the window reads no input element at all (an empty window, a CONSTANT window that
 *  is all pad value, an empty input), every axis gets the empty box [0, 0).
 *  @param problem   a valid problem (every rule of part 1).
 *  @param out_begin [rank] first output index of the window per axis.
 *  @param out_end   [rank] one past the last; out_begin[k] <= out_end[k] <= extent.
 *  @param in_begin  receives [rank] first input index of the box.
 *  @param in_end    receives [rank] one past the last. All four may be NULL when rank == 0.
 *  @return NDPAD_OK; a problem-rule status; NDPAD_ERR_NULL_ARGUMENT; NDPAD_ERR_SHAPE (the
 *          window is not inside the output). On error nothing is written. Thread-safe. */
NDPAD_API ndpad_status ndpad_window_input_box(const ndpad_problem *problem,
                                              const int64_t *out_begin, const int64_t *out_end,
                                              int64_t *in_begin, int64_t *in_end);

/** ndpad_window_plan_create() : plan the window [out_begin, out_end) of `problem` on an
 *  input box [in_begin, in_end) that covers what the window reads (ndpad_window_input_box,
 *  or any larger box inside the input). Execute it with the ordinary
 *  ndpad_execute(plan, in, out), where `in` points at input element in_begin (the box's
 *  first element) and `out` at the window's first element; destroy it with
 *  ndpad_plan_destroy(). Everything ndpad_plan_create() says holds (options, threads, ISA,
 *  immutability). The plan copies what it needs: the arrays may be freed afterwards.
 *  @param problem        the whole problem (its strides are used for NULL strides below).
 *  @param out_begin, out_end  the window, as for ndpad_window_input_box().
 *  @param in_begin, in_end    the box; 0 <= in_begin[k] <= in_end[k] <= shape[k], covering
 *                        the window's reads on every axis (any box when it reads nothing).
 *  @param box_strides    [rank] strides (elements) of the box, or NULL: the problem's
 *                        in_strides (dense strides of the whole input when those are NULL),
 *                        i.e. `in` points into a whole input.
 *  @param window_strides [rank] strides (elements) of the window's buffer, or NULL: the
 *                        problem's out_strides (dense strides of the whole output when NULL),
 *                        i.e. `out` points into a whole output. Non-zero on every axis where
 *                        the window has more than one element.
 *  @param options        NULL for defaults, else see ndpad_options.
 *  @param plan           receives the plan, or NULL on error. Must not be NULL.
 *  In place: `in` may be the window's own buffer, at the position where the window shows
 *  the input's first element it reads, with box_strides equal to window_strides, when the
 *  window has no crop of the part it reads and no interior padding (as for in-place
 *  padding: the window is then "the box plus borders"); it is recognised at execution and
 *  only the borders are written. Any other overlap of box and window is undefined.
 *  @return NDPAD_OK; a problem-rule status; NDPAD_ERR_NULL_ARGUMENT; NDPAD_ERR_SHAPE (window
 *          outside the output, box outside the input or not covering the window's reads);
 *          NDPAD_ERR_STRIDE (zero window stride); NDPAD_ERR_OVERFLOW; NDPAD_ERR_OPTIONS;
 *          NDPAD_ERR_ISA_UNAVAILABLE; NDPAD_ERR_OUT_OF_MEMORY. Thread-safe. */
NDPAD_API ndpad_status ndpad_window_plan_create(const ndpad_problem *problem,
                                                const int64_t *out_begin, const int64_t *out_end,
                                                const int64_t *in_begin, const int64_t *in_end,
                                                const int64_t *box_strides,
                                                const int64_t *window_strides,
                                                const ndpad_options *options, ndpad_plan **plan);

/* ===================================================================================== */
/* 2d. Wisdom: the per-machine tile cache (FFTW's wisdom)                                 */
/* ===================================================================================== */

/*
 * The tuner `ndpad-tune` (and plans made with NDPAD_TUNING_MEASURE) measure choices for a
 * problem CLASS on the real executor and remember the result: the wisdom. The choices are
 * the thread count (fewer than the budget included), streaming stores on or off (measured,
 * not taken from the cache size), the tile shape, the interior copy (the ISA's vector copy,
 * libc memcpy, `rep movsb` where ERMS/FSRM exist) and the output-stream path on or off: a
 * coarse search, a refinement around its winner, then the winner against the heuristic in
 * interleaved pairs. It replaces the heuristic only when the median of the pairs' time
 * ratios wins by more than their spread and the machine's measured noise (at least 2%), in
 * two independent sets of pairs; on a loaded machine nothing is stored. `ndpad-tune --check` re-measures stored entries
 * and reverts those that no longer win to the heuristic. A class is (mode, element size after
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
 *
 * What a save never does (ndpad_wisdom_save_file(), NDPAD_TUNING_MEASURE, ndpad-tune):
 * - It never replaces or truncates a file that does not start as ndpad wisdom (someone's
 *   notes: the save fails with NDPAD_ERR_IO, the file is kept byte for byte), nor wisdom of
 *   a newer format. An empty file holds nothing and may be replaced.
 * - It never drops another machine's wisdom: a file holds one section per machine
 *   fingerprint (format 3; format 2 files are still read), and a save rewrites only this
 *   machine's section, keeping the others as they are (a $HOME shared by several node types).
 * - It never writes through a symbolic link: a symlinked wisdom path is read (loading
 *   follows the link) but not replaced (the save fails with NDPAD_ERR_IO: point
 *   $NDPAD_WISDOM at the link's target); a planted `<path>.lock` link is refused, never
 *   followed. Every descriptor is opened O_CLOEXEC, and files ndpad creates with O_NOFOLLOW.
 * - It never waits on a FIFO or device: only regular files are read or replaced; anything
 *   else is refused at once (for the default file, with one warning).
 * Permissions: new files (the wisdom file, `<path>.lock`, parent directories) get
 * 0666 (0777) & ~umask, as every well-behaved tool makes them; a replaced file keeps its
 * mode. Shared directories: a lock file owned by another user is locked through a
 * read-only descriptor; if it cannot even be opened, `<path>.lock.uid<N>` is locked
 * instead, with a warning that other users' saves are then not excluded.
 * Paths: an empty path, or one of PATH_MAX - 48 bytes or more (also through $NDPAD_WISDOM),
 * is NDPAD_ERR_IO naming the argument, before anything is created.
 */

/** ndpad_wisdom_load_file() : merge the wisdom in file `path` into memory. Bad lines in an
 *  accepted file are skipped (with a warning). Memory is untouched when the file is rejected.
 *  @return NDPAD_OK; NDPAD_ERR_NULL_ARGUMENT (path NULL); NDPAD_ERR_IO (path empty or too
 *          long, the file missing, unreadable, not a regular file, not wisdom, another
 *          version, or made on another machine); NDPAD_ERR_OUT_OF_MEMORY.
 *          ndpad_last_error() and ndpad_wisdom_warning() then say why. */
NDPAD_API ndpad_status ndpad_wisdom_load_file(const char *path);

/** ndpad_wisdom_load_string() : as ndpad_wisdom_load_file(), from the text `text`
 *  (NDPAD_ERR_NULL_ARGUMENT when text is NULL, NDPAD_ERR_IO when it is rejected). */
NDPAD_API ndpad_status ndpad_wisdom_load_string(const char *text);

/** ndpad_wisdom_save_file() : write the wisdom in memory (after loading the default file
 *  if not done yet) to `path`, merged with the entries already in that file when it holds
 *  wisdom of this machine, under a lock, atomically (temporary file + rename).
 *  @return NDPAD_OK; NDPAD_ERR_NULL_ARGUMENT (path NULL); NDPAD_ERR_IO (the path is
 *          unusable or the file cannot be locked, read or written); NDPAD_ERR_OUT_OF_MEMORY.
 *          ndpad_last_error() says why. */
NDPAD_API ndpad_status ndpad_wisdom_save_file(const char *path);

/** ndpad_wisdom_import_file() : alias of ndpad_wisdom_load_file() kept for existing
 *  callers: 1 when it returns NDPAD_OK, 0 otherwise. */
NDPAD_API int ndpad_wisdom_import_file(const char *path);

/** ndpad_wisdom_import_string() : alias of ndpad_wisdom_load_string(): 1 for NDPAD_OK,
 *  else 0. */
NDPAD_API int ndpad_wisdom_import_string(const char *text);

/** ndpad_wisdom_export_file() : alias of ndpad_wisdom_save_file(): 1 for NDPAD_OK, else 0. */
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
/* 2e. Constants per axis and side (numpy.pad's constant_values=((a, b), (c, d), ...))    */
/* ===================================================================================== */

/** ndpad_pad_sides() : CONSTANT padding with one value per axis and side, numpy's rule
 *  for the corners exactly: numpy pads axis 0 first, then axis 1 over the padded array, and
 *  so on, so an element in the padding of several axes takes the value of the LAST of them
 *  (the highest axis index). With pads b, e and input extent d on axis k, output index o
 *  is in the begin padding of axis k when o < b and in the end padding when o >= b + d
 *  (crops, negative pads, only shrink those ranges).
 *
 *      int64_t shape[2] = {2, 2}, pb[2] = {1, 1}, pe[2] = {1, 1};
 *      int32_t in[4] = {1, 2, 3, 4}, out[16];
 *      int32_t sides[4] = {7, 8, 5, 6};   // axis 0: 7 before, 8 after; axis 1: 5, 6
 *      ndpad_problem p = { .rank = 2, .mode = NDPAD_CONSTANT, .elem_size = 4,
 *                          .shape = shape, .pads_begin = pb, .pads_end = pe };
 *      ndpad_pad_sides(&p, sides, NULL, in, out);
 *      // out = 5 7 7 6 / 5 1 2 6 / 5 3 4 6 / 5 8 8 6  (== numpy.pad(in, 1,
 *      //        constant_values=((7, 8), (5, 6))))
 *
 *  @param problem     a problem by the rules of part 1; with side_values, mode CONSTANT
 *                     and no interior padding (its holes belong to no side); its
 *                     pad_value is then unused.
 *  @param side_values [rank][2] elements of elem_size bytes: axis k's begin value at
 *                     byte (2 k) * elem_size, its end value at (2 k + 1) * elem_size.
 *                     NULL: problem->pad_value everywhere (as ndpad_pad with `options`).
 *  @param options     NULL for defaults, else as for ndpad_plan_create().
 *  @param in, out     as for ndpad_pad(); in-place padding as there.
 *  @return NDPAD_OK; any status of ndpad_plan_create() and ndpad_execute();
 *          NDPAD_ERR_MODE (side_values with another mode); NDPAD_ERR_INTERIOR_MODE
 *          (side_values with interior[k] != 0). On error nothing is written. Thread-safe.
 *  Speed: one plan, ndpad_plan_create_sides(); with NULL options a recent plan of the same
 *  problem and values comes from ndpad_pad()'s one-shot plan cache (outputs up to 1 MiB,
 *  up to 1 KiB of values), else it is made per call (1-3 us); the row executor works out each row's
 *  values and writes them with the single constant's SIMD fillers. Where the output-stream
 *  kernels serve the shape, they write each batch of rows (192 KiB) and the row executor
 *  then writes the batch's borders and pad rows again while it is in cache (no pass over
 *  memory); within 1.1x of the single constant on the conv and NHWC cases (bench-sides). */
NDPAD_API ndpad_status ndpad_pad_sides(const ndpad_problem *problem, const void *side_values,
                                       const ndpad_options *options, const void *in, void *out);

/** ndpad_plan_create_sides() : the plan of ndpad_pad_sides(): execute it with
 *  ndpad_execute(), destroy it with ndpad_plan_destroy(). The values are copied.
 *  @param side_values [rank][2] values as for ndpad_pad_sides(); must not be NULL.
 *  @return as ndpad_plan_create(); NDPAD_ERR_NULL_ARGUMENT (side_values NULL);
 *          NDPAD_ERR_MODE; NDPAD_ERR_INTERIOR_MODE as ndpad_pad_sides(). Thread-safe. */
NDPAD_API ndpad_status ndpad_plan_create_sides(const ndpad_problem *problem,
                                               const void *side_values,
                                               const ndpad_options *options, ndpad_plan **plan);

/* ===================================================================================== */
/* 2f. Constants per output index along one axis (per-channel pad values)                */
/* ===================================================================================== */

/** ndpad_plan_create_per_index() : CONSTANT padding where every pad element takes the value
 *  of its OUTPUT index along `axis`: values[o] for the elements at index o of that axis
 *  (an RGB image padded with each channel's mean, a feature map with per-channel zero
 *  points). Every other rule is the problem's (crops, strides, interior padding: its holes
 *  take the value of their index too; in-place padding). The values are copied.
 *
 *      // NCHW 1x3x2x2 fp32, pad H and W by 1, each channel its own value
 *      int64_t shape[4] = {1, 3, 2, 2}, pb[4] = {0, 0, 1, 1}, pe[4] = {0, 0, 1, 1};
 *      float mean[3] = {0.485f, 0.456f, 0.406f}, in[12], out[3 * 4 * 4];
 *      ndpad_problem p = { .rank = 4, .mode = NDPAD_CONSTANT, .elem_size = 4,
 *                          .shape = shape, .pads_begin = pb, .pads_end = pe };
 *      ndpad_plan *plan;
 *      ndpad_plan_create_per_index(&p, 1, mean, NULL, &plan);
 *      ndpad_execute(plan, in, out);   // channel c's border is mean[c]
 *      ndpad_plan_destroy(plan);
 *      // NHWC: axis 3 (the table then repeats along each row, filled as a pattern)
 *
 *  @param problem a problem by the rules of part 1 with mode CONSTANT; its pad_value is
 *                 unused.
 *  @param axis    the axis of the values, 0 .. rank - 1.
 *  @param values  n elements of elem_size bytes, n the OUTPUT extent of `axis` (so a
 *                 padded channel axis has values for its padded channels too).
 *  @param options NULL for defaults, else as for ndpad_plan_create().
 *  @return as ndpad_plan_create(); NDPAD_ERR_AXES (axis outside [0, rank));
 *          NDPAD_ERR_NULL_ARGUMENT (values NULL); NDPAD_ERR_MODE (mode not CONSTANT).
 *          The message names the argument and the axis. Thread-safe.
 *  Speed: the row executor works out each row's value (an outer axis) and writes it with
 *  the single constant's SIMD fillers; along the row axis (NHWC's channels) it copies a
 *  pattern of whole periods, at least 512 bytes long. With the output-stream kernels, as
 *  ndpad_pad_sides() says. ndpad_pad_per_index() caches its plans as ndpad_pad_sides(). */
NDPAD_API ndpad_status ndpad_plan_create_per_index(const ndpad_problem *problem, int32_t axis,
                                                   const void *values, const ndpad_options *options,
                                                   ndpad_plan **plan);

/** ndpad_pad_per_index() : ndpad_plan_create_per_index(), ndpad_execute() and
 *  ndpad_plan_destroy() in one call; `in` and `out` as for ndpad_pad(). Returns as those.
 *  On error nothing is written. Thread-safe. */
NDPAD_API ndpad_status ndpad_pad_per_index(const ndpad_problem *problem, int32_t axis,
                                           const void *values, const ndpad_options *options,
                                           const void *in, void *out);

/* ===================================================================================== */
/* 2g. Sub-byte elements: 1-, 2- and 4-bit elements packed in bytes (ONNX int4, int2)    */
/* ===================================================================================== */

/*
 * SUB-BYTE ELEMENTS
 *   An ndpad_bits_problem is an ndpad_problem whose elements are elem_bits = 1, 2 or 4 bits
 *   wide, packed 8 / elem_bits to a byte with the FIRST element in the LOW bits of a byte
 *   (ONNX's order for int4/uint4/float4e2m1/int2/uint2: element 2i of an int4 tensor is the
 *   low nibble of byte i). Every element of a tensor is addressed in BITS:
 *       bit position of element [i0, .., i_{r-1}]
 *           = bit_offset + (sum_k i_k * stride_k) * elem_bits
 *   counted from bit 0 (the low bit) of byte 0 of the buffer, byte p / 8, bit p % 8. The
 *   bit offsets (in_bit_offset, out_bit_offset) let a tensor, and so every row of it, start
 *   in the middle of a byte. Strides are in elements, as in ndpad_problem: NULL is dense
 *   row-major; given, the innermost axis's stride must be 1 (a row's elements are adjacent
 *   bits) whenever that axis has more than one element. The output's bits that are not
 *   elements of the output are never changed, including those that share a byte with its
 *   first and last element (and, with strides, with every row's first and last element):
 *   bytes at the ends of rows are written read-modify-write with a mask.
 *
 *   The semantics are those of part 1 exactly (every mode, negative pads that crop,
 *   interior padding with CONSTANT, pads larger than the input repeating its pattern);
 *   problem.elem_size is NOT read (the element size is elem_bits), and problem.pad_value,
 *   when not NULL, points to ONE byte whose low elem_bits bits are the pad value (the higher
 *   bits are ignored, so both 0x0F and 0xFF give int4 -1). NULL means zero.
 *
 *       // int4, 2 x 3 input {1, 2, 3 / 4, 5, 6}, padded by 1 on every side with 0xF (-1):
 *       int64_t shape[2] = {2, 3}, pb[2] = {1, 1}, pe[2] = {1, 1};
 *       uint8_t in[3] = {0x21, 0x43, 0x65}, out[10], minus1 = 0x0F;
 *       ndpad_bits_problem p = { .problem = { .rank = 2, .mode = NDPAD_CONSTANT,
 *                                  .shape = shape, .pads_begin = pb, .pads_end = pe,
 *                                  .pad_value = &minus1 },
 *                                .elem_bits = 4 };
 *       ndpad_bits_pad(&p, NULL, in, out);
 *       // out, 4 x 5 nibbles = 10 bytes: FFFFF / F123F / F456F / FFFFF, i.e.
 *       // {0xFF, 0xFF, 0xFF, 0x21, 0xF3, 0x4F, 0x65, 0xFF, 0xFF, 0xFF}
 *
 *   Starting mid-byte: with .in_bit_offset = 4 the same input starts at the high nibble of
 *   in[0]; with .out_bit_offset = 4 the output (then 11 bytes) starts at the high nibble of
 *   out[0] and ends at the low nibble of out[10], and the low nibble of out[0] and the high
 *   nibble of out[10] keep what they held.
 *
 * RULES (besides those of part 1, checked as there, with the status of part 1's kind)
 *   - elem_bits is 1, 2 or 4, else NDPAD_ERR_ELEM_SIZE (whole bytes: use ndpad_problem);
 *   - in_bit_offset and out_bit_offset are >= 0, else NDPAD_ERR_SHAPE;
 *   - an innermost stride other than 1 on an axis of more than one element, input or
 *     output, is NDPAD_ERR_STRIDE;
 *   - reserved must be 0, else NDPAD_ERR_OPTIONS;
 *   - no bit position or bit count may overflow int64_t, else NDPAD_ERR_OVERFLOW.
 *   As in part 1, on any error nothing is written and ndpad_last_error() names the argument
 *   and the axis ("ndpad_bits_plan_create: elem_bits = 3 is not 1, 2 or 4").
 *
 * IN PLACE
 *   `in` may be exactly the interior of `out`, as in part 1: the same bit strides
 *   (in_strides equal to out_strides, as elements; two NULLs are equal only when the dense
 *   strides are), all pads >= 0, no interior, and the input's first bit at the output's
 *   first interior bit:
 *       in * 8 + in_bit_offset == out * 8 + out_bit_offset
 *                                 + sum_k(pads_begin[k] * out_stride[k]) * elem_bits.
 *   ndpad recognises this at execution and writes only the border bits (the interior bits
 *   are not rewritten), on the calling thread. Any other overlap is undefined.
 *
 * THREADS AND ISA
 *   options as for ndpad_plan_create(): threads, isa (NDPAD_ISA too), schedule and
 *   thread_pool are honoured; a tile is a block of whole output rows (tile_rows forces its
 *   rows; tile_cols is ignored); tuning is accepted and ignored (no wisdom for sub-byte
 *   plans: no sub-byte call, with NULL options either, reads the wisdom file). A tile starts only at a row whose first bit starts a byte, so no two threads
 *   ever write one byte; an output where no such row exists (every row starting mid-byte
 *   at the same phase, e.g. int4 rows of even length at out_bit_offset 4) runs on the
 *   calling thread, as do in-place padding and outputs under 256 KiB (unless tile_rows is
 *   forced). Results are identical on any threads. Each row is built from a bit-shifted
 *   copy of its source (a funnel shift of 64-bit lanes; memcpy when the shift is whole
 *   bytes) and border runs per mode, with the ISA's kernels.
 */

/** A problem of sub-byte elements (see SUB-BYTE ELEMENTS). Zero it, then set the fields. */
typedef struct ndpad_bits_problem {
    ndpad_problem problem;  /**< rank, mode, shape, pads, interior, strides (elements), and
                                 pad_value (one byte, low elem_bits bits); elem_size unread */
    int32_t elem_bits;      /**< 1, 2 or 4                                                  */
    int32_t reserved;       /**< must be zero                                               */
    int64_t in_bit_offset;  /**< bits from bit 0 of `in` to input element [0, .., 0]; >= 0 */
    int64_t out_bit_offset; /**< bits from bit 0 of `out` to output element [0, .., 0]      */
} ndpad_bits_problem;

/** An immutable plan of a sub-byte problem. Opaque; thread-safe as ndpad_plan. */
typedef struct ndpad_bits_plan ndpad_bits_plan;

/** ndpad_bits_output_shape() : the output extents of `problem` (as ndpad_output_shape()).
 *  @return NDPAD_OK or the status of the first rule broken (out_shape untouched). */
NDPAD_API ndpad_status ndpad_bits_output_shape(const ndpad_bits_problem *problem,
                                               int64_t *out_shape);

/** ndpad_bits_plan_create() : validate and plan `problem` (copied: its arrays may be freed).
 *  @param options NULL for defaults, else as above (THREADS AND ISA).
 *  @param plan    receives the plan, or NULL on error; must not be NULL.
 *  @return NDPAD_OK; a rule's status; NDPAD_ERR_OPTIONS; NDPAD_ERR_ISA_UNAVAILABLE;
 *          NDPAD_ERR_OUT_OF_MEMORY. Thread-safe. */
NDPAD_API ndpad_status ndpad_bits_plan_create(const ndpad_bits_problem *problem,
                                              const ndpad_options *options, ndpad_bits_plan **plan);

/** ndpad_bits_execute() : pad `in` into `out` (byte pointers; the bit offsets are the
 *  plan's). Recognises in-place padding.
 *  @return NDPAD_OK; NDPAD_ERR_NULL_ARGUMENT (plan NULL); NDPAD_ERR_NULL_BUFFER (in or out
 *          NULL but needed). Thread-safe: one plan may run on many threads at once. */
NDPAD_API ndpad_status ndpad_bits_execute(const ndpad_bits_plan *plan, const void *in, void *out);

/** ndpad_bits_plan_destroy() : free `plan`. NULL is ignored. */
NDPAD_API void ndpad_bits_plan_destroy(ndpad_bits_plan *plan);

/** ndpad_bits_plan_isa() : the instruction-set level the plan's kernels use (never AUTO). */
NDPAD_API ndpad_isa ndpad_bits_plan_isa(const ndpad_bits_plan *plan);

/** ndpad_bits_pad() : validate, plan and execute in one call (`options` NULL: defaults).
 *  @return as ndpad_bits_plan_create() and ndpad_bits_execute(); on error nothing is
 *          written. Thread-safe. */
NDPAD_API ndpad_status ndpad_bits_pad(const ndpad_bits_problem *problem,
                                      const ndpad_options *options, const void *in, void *out);

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
 *  Output shape (ONNX's rule: its shape inference, ONNX Runtime's output): axis k's extent
 *  is shape[k] + begin + end of its pads, in every mode, and every ONNX entry point writes
 *  exactly that many elements: ndpad_output_shape(&onnx.problem, ...) gives it, as
 *  ndpad_output_shape / ndpad_bits_output_shape do for the typed problems below. An extent
 *  below 0 is NDPAD_ERR_SHAPE. A crop longer than its axis (the begin and end crops
 *  together more than shape[k]) leaves no input element on it, so every output element of
 *  the axis is a pad: with "constant" it is the value (ONNX Runtime's output: shape {1},
 *  pads {3, -2} gives 2 values); "edge", "reflect" and "wrap" have no element to repeat:
 *  NDPAD_ERR_EMPTY_AXIS (ONNX Runtime refuses these too). An axis cropped to exactly 0
 *  elements follows the core's rule (NDPAD_ERR_EMPTY_AXIS only where a non-"constant" mode
 *  must grow it). The messages name the call, both pads (their index in `pads`) and the axis.
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
 *  @return NDPAD_OK, NDPAD_ERR_AXES, NDPAD_ERR_PADS_LENGTH, NDPAD_ERR_MODE,
 *          NDPAD_ERR_SHAPE (an output extent below 0), NDPAD_ERR_EMPTY_AXIS (a crop longer
 *          than its axis, not "constant"), or any status of the core rules (checked here
 *          already). Thread-safe. */
NDPAD_API ndpad_status ndpad_onnx_problem_init(ndpad_onnx_problem *onnx, int32_t rank,
                                               const int64_t *shape, size_t elem_size,
                                               const int64_t *pads, int64_t pads_count,
                                               const int64_t *axes, int64_t axes_count,
                                               const char *mode, const void *constant_value);

/** ndpad_onnx_pad() : ONNX Pad in one call: ndpad_onnx_problem_init() then ndpad_pad()
 *  on `in + in_offset`. `in` and `out` are dense row-major tensors. The output shape is
 *  the input's with each listed axis's pads added (ndpad_output_shape(&onnx.problem, ...));
 *  no byte past it is written. Returns as those two. Thread-safe. */
NDPAD_API ndpad_status ndpad_onnx_pad(int32_t rank, const int64_t *shape, size_t elem_size,
                                      const int64_t *pads, int64_t pads_count, const int64_t *axes,
                                      int64_t axes_count, const char *mode,
                                      const void *constant_value, const void *in, void *out);

/** ndpad_onnx_center_crop_pad_init() : translate ONNX CenterCropPad (opset 18) into a core
 *  problem: each listed axis is cropped or zero-padded to its target extent around the
 *  centre, with ONNX's rule for odd differences (its reference implementation): a crop of
 *  diff = d - t keeps input indices [diff / 2, diff / 2 + t), a pad of diff = t - d puts
 *  the input at output index diff / 2; the odd element is cropped or padded at the end.
 *  Axes not listed are kept as they are. Use `onnx` as for ndpad_onnx_problem_init().
 *      shape {20, 8, 3}, axes {0, 1}, target_shape {10, 9}: output {10, 9, 3}, input rows
 *      5 .. 14, output columns 0 .. 7 from input columns 0 .. 7, column 8 zero.
 *  @param onnx          receives the problem; must not be NULL.
 *  @param rank, shape, elem_size  the dense row-major input, as ndpad_onnx_problem_init().
 *  @param target_shape  [target_count] target extents (ONNX's input "shape"), each >= 0.
 *  @param target_count  entries in target_shape: axes_count, or rank when axes is NULL.
 *  @param axes          [axes_count] axes (negative counts from the back, range
 *                       [-rank, rank-1], no repeats), or NULL for all axes in order.
 *  @return NDPAD_OK; NDPAD_ERR_NULL_ARGUMENT; NDPAD_ERR_RANK; NDPAD_ERR_ELEM_SIZE;
 *          NDPAD_ERR_AXES (out of range or repeated); NDPAD_ERR_SHAPE (an input extent or
 *          target_shape[i] negative: the message names i and its axis);
 *          NDPAD_ERR_PADS_LENGTH (target_count is not the number of axes); NDPAD_ERR_OVERFLOW.
 *          Thread-safe. */
NDPAD_API ndpad_status ndpad_onnx_center_crop_pad_init(ndpad_onnx_problem *onnx, int32_t rank,
                                                       const int64_t *shape, size_t elem_size,
                                                       const int64_t *target_shape,
                                                       int64_t target_count, const int64_t *axes,
                                                       int64_t axes_count);

/** ndpad_onnx_center_crop_pad() : ONNX CenterCropPad in one call:
 *  ndpad_onnx_center_crop_pad_init() then ndpad_pad() on `in + in_offset`. `in` and `out`
 *  are dense row-major tensors; the output shape is the input's with each listed axis set to
 *  its target. Returns as those two. Thread-safe. */
NDPAD_API ndpad_status ndpad_onnx_center_crop_pad(int32_t rank, const int64_t *shape,
                                                  size_t elem_size, const int64_t *target_shape,
                                                  int64_t target_count, const int64_t *axes,
                                                  int64_t axes_count, const void *in, void *out);

/* ===================================================================================== */
/* 3b. ONNX element types: the Pad family through Pad-25, and CenterCropPad, typed        */
/* ===================================================================================== */

/*
 * The typed entry points take an ONNX element type (TensorProto.DataType, onnx.proto's
 * numbers) instead of a byte size, and the opset the node runs at, and refuse a type the
 * operator does not accept there with NDPAD_ERR_TYPE, as ONNX's checker does ("Type Error:
 * Type 'tensor(float4e2m1)' of input parameter (data) of operator (Pad) ... is invalid").
 * Whole-byte types run on the core (ndpad_problem, elem_size = the type's bytes); the
 * sub-byte types int4, uint4, float4e2m1 (4 bits) and int2, uint2 (2 bits) run on the
 * sub-byte API of part 2f, packed as ONNX packs them: the first element in the low bits of
 * byte 0, a tensor of n elements in ceil(n * bits / 8) bytes.
 *
 *   types (numbers)                                   bits        Pad takes them from
 *   FLOAT (1), FLOAT16 (10), DOUBLE (11)              32, 16, 64  Pad-1  (opset 1)
 *   UINT8, INT8, UINT16, INT16, INT32, INT64 (2-7),   8 to 64     Pad-11 (opset 11)
 *     UINT32 (12), UINT64 (13)
 *   BOOL (9), COMPLEX64 (14), COMPLEX128 (15),        8, 64, 128, Pad-13 (opset 13)
 *     BFLOAT16 (16)                                   16
 *   STRING (8)                                        none        Pad-13, but refused here
 *                                                                 (NDPAD_ERR_TYPE: its
 *                                                                 elements have no width)
 *   FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2,         8           Pad-21 (opset 21)
 *     FLOAT8E5M2FNUZ (17-20)
 *   UINT4 (21), INT4 (22)                             4           Pad-21 (opset 21)
 *   FLOAT4E2M1 (23)                                   4           Pad-23 (opset 23)
 *   FLOAT8E8M0 (24)                                   8           Pad-24 (opset 24)
 *   UINT2 (25), INT2 (26)                             2           Pad-25 (opset 25)
 *   UNDEFINED (0), FLOAT6E2M3 (27), FLOAT6E3M2 (28)   -           no version: NDPAD_ERR_TYPE
 *   CenterCropPad-18 takes Pad-13's types (the first three rows).
 *
 * OPSET
 *   opset >= 1 is the opset the node runs at: the operator's version is the newest one at or
 *   below it (Pad-1, 2, 11, 13, 18, 19, 21, 23, 24, 25; CenterCropPad-18 only), and its rules
 *   hold exactly: the element types of the table, mode "wrap" from Pad-19 on (else
 *   NDPAD_ERR_MODE), `axes` from Pad-18 on (else NDPAD_ERR_AXES), CenterCropPad from opset
 *   18 on (else NDPAD_ERR_TYPE). Opsets above the newest ndpad knows (NDPAD_ONNX_OPSET_MAX)
 *   are served by the newest versions it knows.
 *   opset 0 is ndpad's widest rule: every type of Pad-25, every mode, axes, for Pad and for
 *   CenterCropPad too (beyond ONNX, whose CenterCropPad-18 takes no 8-bit float nor sub-byte
 *   type).
 *
 * VALUES
 *   constant_value holds one element of the type: its bytes for whole-byte types, one byte
 *   whose low `bits` bits are the value for sub-byte types (so 0x0F and 0xFF are both int4
 *   -1). NULL is all-zero bits: ONNX's default 0 (for FLOAT8E8M0, which has no zero, 0x00 =
 *   2^-127, what ONNX's Cast of 0.0 gives). CenterCropPad pads with zero bits.
 *
 *       // int4 [1, 2, 3] -> Pad-21, pads [1, 2], constant_value -1: [-1, 1, 2, 3, -1, -1]
 *       const int64_t shape[1] = {3}, pads[2] = {1, 2};
 *       const uint8_t in[2] = {0x21, 0x03}, minus1 = 0x0F;
 *       uint8_t out[3];
 *       ndpad_onnx_pad_typed(21, 1, shape, NDPAD_ONNX_INT4, pads, 2, NULL, 0, "constant",
 *                            &minus1, in, out);   // out = {0x1F, 0x32, 0xFF}
 */

/** ONNX element types: TensorProto.DataType in onnx.proto (the numbers are ONNX's). */
typedef enum ndpad_onnx_type {
    NDPAD_ONNX_UNDEFINED = 0,
    NDPAD_ONNX_FLOAT = 1,
    NDPAD_ONNX_UINT8 = 2,
    NDPAD_ONNX_INT8 = 3,
    NDPAD_ONNX_UINT16 = 4,
    NDPAD_ONNX_INT16 = 5,
    NDPAD_ONNX_INT32 = 6,
    NDPAD_ONNX_INT64 = 7,
    NDPAD_ONNX_STRING = 8,
    NDPAD_ONNX_BOOL = 9,
    NDPAD_ONNX_FLOAT16 = 10,
    NDPAD_ONNX_DOUBLE = 11,
    NDPAD_ONNX_UINT32 = 12,
    NDPAD_ONNX_UINT64 = 13,
    NDPAD_ONNX_COMPLEX64 = 14,
    NDPAD_ONNX_COMPLEX128 = 15,
    NDPAD_ONNX_BFLOAT16 = 16,
    NDPAD_ONNX_FLOAT8E4M3FN = 17,
    NDPAD_ONNX_FLOAT8E4M3FNUZ = 18,
    NDPAD_ONNX_FLOAT8E5M2 = 19,
    NDPAD_ONNX_FLOAT8E5M2FNUZ = 20,
    NDPAD_ONNX_UINT4 = 21,
    NDPAD_ONNX_INT4 = 22,
    NDPAD_ONNX_FLOAT4E2M1 = 23,
    NDPAD_ONNX_FLOAT8E8M0 = 24,
    NDPAD_ONNX_UINT2 = 25,
    NDPAD_ONNX_INT2 = 26,
    NDPAD_ONNX_FLOAT6E2M3 = 27,
    NDPAD_ONNX_FLOAT6E3M2 = 28
} ndpad_onnx_type;

/** The newest opset whose operator versions ndpad knows (ONNX 1.23: opset 28; Pad-25 and
 *  CenterCropPad-18 are the newest versions at it). */
#define NDPAD_ONNX_OPSET_MAX 28

/** ndpad_onnx_type_bits() : bits per element of ONNX type `elem_type` (2 for INT2, 4 for
 *  INT4, 32 for FLOAT, 128 for COMPLEX128, 6 for the FLOAT6 types), 0 for UNDEFINED, STRING
 *  and numbers that are no type. A tensor of n elements takes ceil(n * bits / 8) bytes.
 *  Thread-safe. */
NDPAD_API int32_t ndpad_onnx_type_bits(int32_t elem_type);

/** ndpad_onnx_type_name() : ONNX's name of `elem_type` ("INT4", "FLOAT8E4M3FN"), "?" for a
 *  number that is no type. A constant string. Thread-safe. */
NDPAD_API const char *ndpad_onnx_type_name(int32_t elem_type);

/** A typed ONNX problem made by ndpad_onnx_problem_init_typed() or
 *  ndpad_onnx_center_crop_pad_init_typed(). As ndpad_onnx_problem, it points into itself:
 *  use it in place, do not copy it. */
typedef struct ndpad_onnx_typed_problem {
    ndpad_onnx_problem onnx; /**< whole-byte types (elem_bits >= 8): onnx.problem is ready
                                  for ndpad_plan_create(), elem_size = elem_bits / 8; add
                                  onnx.in_offset bytes to the input pointer. Sub-byte
                                  types: its elem_size is 0 (the core refuses it) and its
                                  in_offset 0: use `bits`                                */
    ndpad_bits_problem bits; /**< sub-byte types (elem_bits < 8): ready for
                                  ndpad_bits_plan_create() on the ONNX input pointer
                                  itself; its in_bit_offset holds the crop, its
                                  out_bit_offset is 0; its arrays are onnx's. Zero for
                                  whole-byte types                                       */
    int32_t elem_type;       /**< the ONNX type                                         */
    int32_t elem_bits;       /**< its bits per element                                  */
} ndpad_onnx_typed_problem;

/** ndpad_onnx_problem_init_typed() : ndpad_onnx_problem_init() for an ONNX element type at
 *  an opset (see OPSET). Crop first, then pad, as there.
 *  @param typed      receives the problem; must not be NULL.
 *  @param opset      the node's opset (>= 1), or 0 for ndpad's widest rule.
 *  @param elem_type  an ndpad_onnx_type number (TensorProto.DataType).
 *  @param constant_value  one element (see VALUES), or NULL for zero bits.
 *  Other parameters as ndpad_onnx_problem_init().
 *  @return NDPAD_OK; NDPAD_ERR_TYPE (opset < 0; a type the operator does not accept at
 *          that opset, or STRING: the message names elem_type and the opset's Pad
 *          version); NDPAD_ERR_MODE ("wrap" before opset 19); NDPAD_ERR_AXES (axes before
 *          opset 18); any status of ndpad_onnx_problem_init() or, for sub-byte types, of
 *          ndpad_bits_output_shape() (checked here already). Thread-safe. */
NDPAD_API ndpad_status ndpad_onnx_problem_init_typed(ndpad_onnx_typed_problem *typed, int32_t opset,
                                                     int32_t rank, const int64_t *shape,
                                                     int32_t elem_type, const int64_t *pads,
                                                     int64_t pads_count, const int64_t *axes,
                                                     int64_t axes_count, const char *mode,
                                                     const void *constant_value);

/** ndpad_onnx_pad_typed() : ONNX Pad of an ONNX element type in one call. `in` and `out` are
 *  dense row-major ONNX tensors (sub-byte types packed from bit 0 of byte 0); the output
 *  shape is the input's with each listed axis's pads added (crop first; crops longer than
 *  an axis as ndpad_onnx_problem_init() says). For sub-byte
 *  types the output's unused high bits in its last byte are set to zero (ONNX's packing);
 *  no byte past ceil(n * bits / 8) is touched. Returns as
 *  ndpad_onnx_problem_init_typed() and ndpad_pad() / ndpad_bits_pad(); on error nothing is
 *  written. Thread-safe. */
NDPAD_API ndpad_status ndpad_onnx_pad_typed(int32_t opset, int32_t rank, const int64_t *shape,
                                            int32_t elem_type, const int64_t *pads,
                                            int64_t pads_count, const int64_t *axes,
                                            int64_t axes_count, const char *mode,
                                            const void *constant_value, const void *in, void *out);

/** ndpad_onnx_center_crop_pad_init_typed() : ndpad_onnx_center_crop_pad_init() for an ONNX
 *  element type at an opset: CenterCropPad-18's types from opset 18 on; with opset 0 every
 *  type of Pad-25 (beyond ONNX). Zero padding. Returns as ndpad_onnx_center_crop_pad_init(),
 *  plus NDPAD_ERR_TYPE. Thread-safe. */
NDPAD_API ndpad_status ndpad_onnx_center_crop_pad_init_typed(
    ndpad_onnx_typed_problem *typed, int32_t opset, int32_t rank, const int64_t *shape,
    int32_t elem_type, const int64_t *target_shape, int64_t target_count, const int64_t *axes,
    int64_t axes_count);

/** ndpad_onnx_center_crop_pad_typed() : ONNX CenterCropPad of an ONNX element type in one
 *  call, on dense tensors as ndpad_onnx_pad_typed() (the same rule for a sub-byte output's
 *  last byte). Returns as ndpad_onnx_center_crop_pad_init_typed() and the execution.
 *  Thread-safe. */
NDPAD_API ndpad_status ndpad_onnx_center_crop_pad_typed(int32_t opset, int32_t rank,
                                                        const int64_t *shape, int32_t elem_type,
                                                        const int64_t *target_shape,
                                                        int64_t target_count, const int64_t *axes,
                                                        int64_t axes_count, const void *in,
                                                        void *out);

/** ndpad_mode_name() : "constant", "edge", "reflect", "symmetric" or "wrap" (as
 *  ndpad_plan_describe, the wisdom file and the benchmarks write them), "?" for anything
 *  else. A constant string. Thread-safe. */
NDPAD_API const char *ndpad_mode_name(ndpad_mode mode);

/** ndpad_version() : the version of the library that runs, "MAJOR.MINOR.PATCH", which may
 *  differ from the NDPAD_VERSION_* macros of the header a program was compiled with (a
 *  newer shared library). A constant string. Thread-safe. */
NDPAD_API const char *ndpad_version(void);

/** ndpad_version_number() : the same as a number, MAJOR * 10000 + MINOR * 100 + PATCH
 *  (0.1.0 is 100), to compare with NDPAD_VERSION_NUMBER. Thread-safe. */
NDPAD_API uint32_t ndpad_version_number(void);

/** ndpad_set_default_threads() : caps, for the whole process, the threads of every call and
 *  plan whose options leave threads at 0 (one-shot calls with NULL options included): they
 *  use at most `threads`; 0 removes the cap. Plans made before keep their budget; one-shot
 *  calls follow at once. What threadpoolctl's `threadpool_limits` calls for ndpad (as
 *  openblas_set_num_threads for OpenBLAS). The default without a cap: the physical cores the
 *  process may use (its cgroup's CPUs within its affinity mask), at most the cgroup's CPU
 *  quota rounded up (cpu.max) and OpenMP's omp_get_max_threads().
 *  @return NDPAD_OK; NDPAD_ERR_OPTIONS when threads < 0. Thread-safe. */
NDPAD_API ndpad_status ndpad_set_default_threads(int32_t threads);

/** ndpad_get_default_threads() : the threads a plan with options.threads = 0 made now would
 *  use (>= 1): the default above within the cap. Thread-safe. */
NDPAD_API int32_t ndpad_get_default_threads(void);

#ifdef __cplusplus
}
#endif

#endif /* NDPAD_H */
