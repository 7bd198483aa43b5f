/* hwloc discovery, once per process: cores and caches drive the thread count and tiles.
 *
 * Once, under a mutex rather than pthread_once: fork() while another thread discovers would
 * leave the child a once-routine in progress, which glibc runs again there, and hwloc then
 * waits forever on its own lock, held by the parent's thread at the fork. The mutex is held
 * across fork() (the prepare handler waits for a discovery in progress to end), so a child
 * inherits either a finished discovery or none, and runs its own when it needs one. Nothing
 * of ndpad is locked under this mutex: its handler is registered first, so that its prepare
 * step runs last, after every lock that may be held while topology is asked for. */
#include "topology.h"

#include "alloc.h"
#include "cpu-quota.h"

#include <hwloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static ndpad_topology topology;
static pthread_mutex_t topology_mutex = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool discovered;
static hwloc_topology_t live;     /* kept for binding worker threads; NULL if not binding */
static hwloc_bitmap_t *bind_sets; /* per usable core: its PUs the process may run on   */
static int bind_cores;            /* cores workers may be bound to (0 = no binding)      */

static size_t cache_size(hwloc_topology_t topo, hwloc_obj_type_t type)
{
    const hwloc_obj_t obj = hwloc_get_next_obj_by_type(topo, type, NULL);
    return obj != NULL && obj->attr != NULL ? (size_t)obj->attr->cache.size : 0;
}

static void set_model(const char *model)
{
    if (model == NULL) return;
    while (*model == ' ' || *model == '\t') model++;
    snprintf(topology.cpu_model, sizeof(topology.cpu_model), "%s", model);
    size_t n = strlen(topology.cpu_model);
    while (n > 0 && (topology.cpu_model[n - 1] == '\n' || topology.cpu_model[n - 1] == ' '))
        topology.cpu_model[--n] = '\0';
}

static void model_from_proc(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL) return;
    char line[512];
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Model", 5) == 0) {
            const char *colon = strchr(line, ':');
            if (colon != NULL) {
                set_model(colon + 1);
                break;
            }
        }
    }
    fclose(f);
}

static void discover(void)
{
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    topology.cores = online > 0 ? (int)online : 1;
    topology.pus = topology.cores;
    topology.numa_nodes = 1;
    topology.cpu_quota = ndpad_cpu_quota();

    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0) {
        model_from_proc();
        return;
    }
    hwloc_topology_set_flags(topo, 0); /* only the cgroup's allowed CPUs and memory */
    /* Bind worker threads ourselves only when the user left affinity to us: OMP_PLACES,
     * OMP_PROC_BIND (and the runtimes' own variables) make the OpenMP runtime bind as asked,
     * and NDPAD_BIND=0 turns it off. */
    const char *off = getenv("NDPAD_BIND");
    const bool user_affinity = getenv("OMP_PROC_BIND") != NULL || getenv("OMP_PLACES") != NULL ||
                               getenv("GOMP_CPU_AFFINITY") != NULL ||
                               getenv("KMP_AFFINITY") != NULL;
    /* The CPUs this process may run on: hwloc's topology holds the cgroup's allowed set;
     * the affinity mask of the process's threads (taskset) narrows it, unless the OpenMP
     * runtime was told to bind (it may have bound this thread to one place already). */
    hwloc_bitmap_t usable = hwloc_bitmap_alloc();
    int usable_cores = 0;
    if (hwloc_topology_load(topo) == 0 && usable != NULL) {
        hwloc_bitmap_copy(usable, hwloc_topology_get_allowed_cpuset(topo));
        hwloc_bitmap_t bound = hwloc_bitmap_alloc();
        if (!user_affinity && bound != NULL &&
            hwloc_get_cpubind(topo, bound, HWLOC_CPUBIND_PROCESS) == 0 &&
            hwloc_bitmap_intersects(bound, usable))
            hwloc_bitmap_and(usable, usable, bound);
        hwloc_bitmap_free(bound);
        const int all_cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        bind_sets = all_cores > 0 ? ndpad_calloc((size_t)all_cores, sizeof(*bind_sets)) : NULL;
        for (int k = 0; k < all_cores; k++) {
            const hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)k);
            if (core == NULL || core->cpuset == NULL ||
                !hwloc_bitmap_intersects(core->cpuset, usable))
                continue;
            if (bind_sets != NULL && (bind_sets[usable_cores] = hwloc_bitmap_alloc()) != NULL)
                hwloc_bitmap_and(bind_sets[usable_cores], core->cpuset, usable);
            usable_cores++;
        }
        const int pus = hwloc_bitmap_weight(usable);
        const int numa = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
        if (usable_cores > 0) topology.cores = usable_cores;
        if (pus > 0) topology.pus = pus;
        if (numa > 0) topology.numa_nodes = numa;
        topology.l1d_bytes = cache_size(topo, HWLOC_OBJ_L1CACHE);
        topology.l2_bytes = cache_size(topo, HWLOC_OBJ_L2CACHE);
        size_t llc = cache_size(topo, HWLOC_OBJ_L3CACHE);
        topology.llc_bytes = llc != 0 ? llc : topology.l2_bytes;
        const hwloc_obj_t package = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PACKAGE, NULL);
        if (package != NULL) set_model(hwloc_obj_get_info_by_name(package, "CPUModel"));
    }
    if (topology.cpu_model[0] == '\0') model_from_proc();
    hwloc_bitmap_free(usable);
    if (!user_affinity && !(off != NULL && strcmp(off, "0") == 0) && usable_cores > 1 &&
        bind_sets != NULL) {
        live = topo;
        bind_cores = usable_cores;
    } else {
        if (bind_sets != NULL)
            for (int k = 0; k < usable_cores; k++) hwloc_bitmap_free(bind_sets[k]);
        ndpad_free(bind_sets);
        bind_sets = NULL;
        hwloc_topology_destroy(topo);
    }
}

static void discover_once(void)
{
    if (atomic_load_explicit(&discovered, memory_order_acquire)) return;
    pthread_mutex_lock(&topology_mutex);
    if (!atomic_load_explicit(&discovered, memory_order_relaxed)) {
        discover();
        atomic_store_explicit(&discovered, true, memory_order_release);
    }
    pthread_mutex_unlock(&topology_mutex);
}

static void topology_mutex_prepare(void)
{
    pthread_mutex_lock(&topology_mutex);
}
static void topology_mutex_release(void)
{
    pthread_mutex_unlock(&topology_mutex);
}

/* Priority 101: registered before the other units' handlers (default priority), so that
 * its prepare step runs after theirs (fork runs prepare handlers in reverse order). */
__attribute__((constructor(101))) static void topology_watch_forks(void)
{
    (void)pthread_atfork(topology_mutex_prepare, topology_mutex_release, topology_mutex_release);
}

void ndpad_topology_bind_worker(int thread_num)
{
    /* The core this OS thread is bound to, plus one (0 = not bound by us). */
    static _Thread_local int bound;
    discover_once();
    if (live == NULL || thread_num <= 0) return;
    /* Workers from the last core down: the caller's thread (thread 0) stays where the
     * caller put it, and the scheduler keeps it off the workers' cores. */
    const int core = bind_cores - 1 - (thread_num - 1) % bind_cores;
    if (bound == core + 1) return;
    if (bind_sets[core] == NULL) return;
    /* A refusal (no permission) is not retried on every region either. */
    (void)hwloc_set_cpubind(live, bind_sets[core], HWLOC_CPUBIND_THREAD);
    bound = core + 1;
}

const ndpad_topology *ndpad_topology_get(void)
{
    discover_once();
    return &topology;
}
