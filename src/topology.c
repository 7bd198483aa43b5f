/* hwloc discovery, once per process: cores and caches drive the thread count and tiles. */
#include "topology.h"

#include <hwloc.h>
#include <pthread.h>
#include <unistd.h>

static ndpad_topology topology;
static pthread_once_t topology_once = PTHREAD_ONCE_INIT;

static size_t cache_size(hwloc_topology_t topo, hwloc_obj_type_t type)
{
    const hwloc_obj_t obj = hwloc_get_next_obj_by_type(topo, type, NULL);
    return obj != NULL && obj->attr != NULL ? (size_t)obj->attr->cache.size : 0;
}

static void discover(void)
{
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    topology.cores = online > 0 ? (int)online : 1;
    topology.pus = topology.cores;
    topology.numa_nodes = 1;

    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0) return;
    /* Only what the process may run on: respects taskset, cgroups and cpusets. */
    hwloc_topology_set_flags(topo, 0);
    if (hwloc_topology_load(topo) == 0) {
        const int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        const int pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
        const int numa = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
        if (cores > 0) topology.cores = cores;
        if (pus > 0) topology.pus = pus;
        if (numa > 0) topology.numa_nodes = numa;
        topology.l1d_bytes = cache_size(topo, HWLOC_OBJ_L1CACHE);
        topology.l2_bytes = cache_size(topo, HWLOC_OBJ_L2CACHE);
        size_t llc = cache_size(topo, HWLOC_OBJ_L3CACHE);
        topology.llc_bytes = llc != 0 ? llc : topology.l2_bytes;
    }
    hwloc_topology_destroy(topo);
}

const ndpad_topology *ndpad_topology_get(void)
{
    pthread_once(&topology_once, discover);
    return &topology;
}
