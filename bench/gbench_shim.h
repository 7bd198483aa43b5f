/*
 * gbench_shim.h — a C API over Google Benchmark, so that ndpad's benchmarks are C.
 *
 * Register benchmarks before gbench_run(); each is a C function called with the run's state
 * and the user pointer given at registration. Inside, loop while gbench_keep_running() (or
 * gbench_keep_running_batch() for nanosecond-scale bodies) and report what one iteration
 * did with gbench_set_bytes_processed() / gbench_set_items_processed() / gbench_set_counter().
 *
 *     static void bench_copy(gbench_state *state, void *arg)
 *     {
 *         struct buffers *b = arg;
 *         while (gbench_keep_running(state))
 *             memcpy(b->dst, b->src, b->bytes);
 *         gbench_set_bytes_processed(state, gbench_iterations(state) * 2 * b->bytes);
 *     }
 *     int main(int argc, char **argv)
 *     {
 *         gbench_use_real_time(gbench_register("copy/memcpy", bench_copy, &buffers));
 *         return gbench_run(argc, argv, NULL);
 *     }
 *
 * Every Google Benchmark flag keeps working (--benchmark_filter, --benchmark_format=json,
 * --benchmark_repetitions, --benchmark_out, --benchmark_list_tests...): gbench_run() hands
 * argv to benchmark::Initialize(). Names and labels are copied; the user pointer is not.
 * Nothing here is thread-safe except what Google Benchmark itself makes so: register and run
 * from one thread.
 */
#ifndef NDPAD_GBENCH_SHIM_H
#define NDPAD_GBENCH_SHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gbench_state gbench_state;         /* benchmark::State                  */
typedef struct gbench_benchmark gbench_benchmark; /* benchmark::internal::Benchmark    */
typedef void (*gbench_fn)(gbench_state *state, void *arg);

/* Counter flags, as benchmark::Counter::Flags (only the plain value is used here). */
#define GBENCH_COUNTER_DEFAULT 0u

/* ---- registration (before gbench_run) ---------------------------------------------- */

/** gbench_register() : register `fn`, called as fn(state, arg) for every run.
 *  @param name benchmark name (copied); `/`-separated parts, as Google Benchmark prints.
 *  @param arg  passed as is; must live until gbench_run() returns.
 *  @return the benchmark, for the setters below. Never NULL. */
gbench_benchmark *gbench_register(const char *name, gbench_fn fn, void *arg);

/** gbench_add_args() : one more run of the benchmark with these arguments (state.range()).
 *  Without any, the benchmark runs once with no arguments. The name gets "/<arg>" each. */
void gbench_add_args(gbench_benchmark *b, const int64_t *args, int count);
/** gbench_set_arg_names() : name the arguments ("/run:64" instead of "/64"). */
void gbench_set_arg_names(gbench_benchmark *b, const char *const *names, int count);
/** Time by the wall clock instead of the main thread's CPU time (for OpenMP bodies). */
void gbench_use_real_time(gbench_benchmark *b);
/** Time by gbench_set_iteration_time() only. */
void gbench_use_manual_time(gbench_benchmark *b);
/** Run for at least `seconds` (overrides --benchmark_min_time for this benchmark). */
void gbench_set_min_time(gbench_benchmark *b, double seconds);

/* ---- inside a benchmark function ------------------------------------------------------ */

/** gbench_keep_running() : 1 while another iteration is wanted; the timer runs between the
 *  first call and the call that returns 0. */
int gbench_keep_running(gbench_state *state);
/** gbench_keep_running_batch() : as gbench_keep_running(), counting `n` iterations at once,
 *  for bodies that repeat their work `n` times per call (cheap bodies: amortises the call). */
int gbench_keep_running_batch(gbench_state *state, int64_t n);
/** Iterations run so far (the total once the loop is over). */
int64_t gbench_iterations(const gbench_state *state);
/** Argument `index` of this run (see gbench_add_args). */
int64_t gbench_range(const gbench_state *state, int index);
/** Bytes and items processed by the whole run: Google Benchmark reports them per second. */
void gbench_set_bytes_processed(gbench_state *state, int64_t bytes);
void gbench_set_items_processed(gbench_state *state, int64_t items);
/** A user counter (name copied), with GBENCH_COUNTER_* flags. */
void gbench_set_counter(gbench_state *state, const char *name, double value, unsigned flags);
/** Manual timing: the time of the current iteration (see gbench_use_manual_time). */
void gbench_set_iteration_time(gbench_state *state, double seconds);
/** A free-text label printed after the counters (copied). */
void gbench_set_label(gbench_state *state, const char *label);
/** Mark this run as failed (or not applicable) with `message`; then leave the loop. */
void gbench_skip_with_error(gbench_state *state, const char *message);

/** Compiler barrier (benchmark::ClobberMemory). */
static inline void gbench_clobber_memory(void)
{
#if defined(__GNUC__)
    __asm__ __volatile__("" : : : "memory");
#endif
}

/* ---- running ------------------------------------------------------------------------- */

/** gbench_run() : benchmark::Initialize(argc, argv), then run what --benchmark_filter
 *  selects and shut down.
 *  @param default_flags NULL, or a NULL-terminated list such as
 *         {"--benchmark_min_time=0.05", NULL}: each is added before argv's own flags unless
 *         argv already sets that flag, so the caller's defaults never hide a user's choice.
 *  @return 0, or 1 when argv holds an argument Google Benchmark does not know (printed). */
int gbench_run(int argc, char **argv, const char *const *default_flags);

#ifdef __cplusplus
}
#endif

#endif
