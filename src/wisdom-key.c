/* Wisdom keys (the problem class of a plan) and the machine fingerprint a wisdom file is
 * valid for. */
#include <pthread.h>
#include <stdio.h>

#include "isa.h"
#include "topology.h"
#include "wisdom.h"

/* ---- keys and the fingerprint --------------------------------------------------------- */

static int32_t floor_log2(uint64_t v)
{
    int32_t k = 0;
    while (v > 1) v >>= 1, k++;
    return k;
}

ndpad_wisdom_key ndpad_wisdom_key_of(const ndpad_plan *plan)
{
    const uint64_t row_bytes = (uint64_t)plan->row_bytes, out_bytes = (uint64_t)plan->out_bytes;
    ndpad_wisdom_key key = {
        .mode = plan->mode,
        .esize = plan->elem_size > INT32_MAX ? INT32_MAX : (int32_t)plan->elem_size,
        .rank = plan->ndim,
        .out_log2 = floor_log2(out_bytes),
        .row_log2 = floor_log2(row_bytes),
        .isa = (int32_t)plan->isa,
        .nthr = plan->policy.threads,
    };
    return key;
}

void ndpad_wisdom_key_format(const ndpad_wisdom_key *key, char *buf, size_t size)
{
    snprintf(buf, size, "mode=%s esize=%d rank=%d out=%d row=%d isa=%s nthr=%d",
             ndpad_mode_name(key->mode), (int)key->esize, (int)key->rank, (int)key->out_log2,
             (int)key->row_log2, ndpad_isa_name((ndpad_isa)key->isa), (int)key->nthr);
}

bool ndpad_wisdom_key_equal(const ndpad_wisdom_key *a, const ndpad_wisdom_key *b)
{
    return a->mode == b->mode && a->esize == b->esize && a->rank == b->rank &&
           a->out_log2 == b->out_log2 && a->row_log2 == b->row_log2 && a->isa == b->isa &&
           a->nthr == b->nthr;
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; s != NULL && *s != '\0'; s++) h = (h ^ (unsigned char)*s) * 0x100000001B3ull;
    return (h ^ 0xFF) * 0x100000001B3ull;
}

static char fingerprint[400];
static pthread_once_t fingerprint_once = PTHREAD_ONCE_INIT;

static void make_fingerprint(void)
{
    const ndpad_topology *topo = ndpad_topology_get();
    char model[sizeof(topo->cpu_model)];
    snprintf(model, sizeof(model), "%s", topo->cpu_model[0] != '\0' ? topo->cpu_model : "unknown");
    for (char *c = model; *c != '\0'; c++)
        if (*c == ' ' || *c == '\t' || *c == '=' || (unsigned char)*c < 32) *c = '_';
    /* The kernel list of every ISA level and element-size class. */
    uint64_t h = 0xCBF29CE484222325ull;
    static const size_t sizes[] = {1, 2, 4, 8, 16, 3};
    for (int isa = NDPAD_ISA_SCALAR; isa < NDPAD_ISA_SLOTS; isa++)
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            const ndpad_kernels *k = ndpad_kernels_select((ndpad_isa)isa, sizes[s]);
            if (k == NULL) continue;
            h = fnv1a(h, k->copy_name);
            h = fnv1a(h, k->copy_nt_name);
            for (int m = 0; m < NDPAD_MODE_COUNT; m++) h = fnv1a(h, k->fill_name[m]);
        }
    snprintf(fingerprint, sizeof(fingerprint),
             "cpu=%s level=%s cores=%d l1d=%zu l2=%zu llc=%zu ndpad=%d.%d.%d kernels=%016llx",
             model, ndpad_isa_name(ndpad_isa_cpu_level()), topo->cores, topo->l1d_bytes,
             topo->l2_bytes, topo->llc_bytes, NDPAD_VERSION_MAJOR, NDPAD_VERSION_MINOR,
             NDPAD_VERSION_PATCH, (unsigned long long)h);
}

const char *ndpad_wisdom_fingerprint(void)
{
    pthread_once(&fingerprint_once, make_fingerprint);
    return fingerprint;
}
