/* The thread budget of options.threads = 0 (plan.h: ndpad_default_threads) and the process's
 * cap on it (ndpad.h: ndpad_set_default_threads, which threadpoolctl's controller for ndpad
 * calls, as it calls openblas_set_num_threads for OpenBLAS). */
#ifdef _OPENMP
#include <omp.h>
#endif
#include <stdatomic.h>

#include "default-threads.h"
#include "topology.h"

/* 0: no cap. An atomic int: a forked child keeps its parent's value, a defined state. */
static _Atomic int32_t default_cap;

int32_t ndpad_default_threads(void)
{
    /* The cores the process may use (cgroup CPUs, affinity), within its CPU quota, OpenMP's
     * omp_get_max_threads() and the cap. */
    const ndpad_topology *machine = ndpad_topology_get();
    int32_t threads = machine->cores;
    if (machine->cpu_quota > 0 && machine->cpu_quota < threads) threads = machine->cpu_quota;
#ifdef _OPENMP
    const int omp_max = omp_get_max_threads();
    if (omp_max < threads) threads = omp_max;
#endif
    const int32_t cap = atomic_load_explicit(&default_cap, memory_order_relaxed);
    if (cap > 0 && cap < threads) threads = cap;
    return threads > 0 ? threads : 1;
}

ndpad_status ndpad_set_default_threads(int32_t threads)
{
    if (threads < 0) {
        return ndpad_set_error(NDPAD_ERR_OPTIONS, "ndpad_set_default_threads",
                               "threads is %d; want 0 (no cap) or a count >= 1", (int)threads);
    }
    atomic_store_explicit(&default_cap, threads, memory_order_relaxed);
    return NDPAD_OK;
}

int32_t ndpad_get_default_threads(void)
{
    return ndpad_default_threads();
}

int32_t ndpad_default_threads_cap(void)
{
    return atomic_load_explicit(&default_cap, memory_order_relaxed);
}
