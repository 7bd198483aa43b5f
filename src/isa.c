/* Instruction-set levels: what this build compiled (the level has kernels in kernels.inc),
 * what this CPU runs (CPUID + XGETBV on x86-64, HWCAP on aarch64, with the bits each level
 * of isa-levels.inc lists, plus everything its parent needs), and what the user asks for
 * (options.isa, else the NDPAD_ISA environment variable). A request may only narrow what is
 * available; asking for a level that is absent is an error, never a crash (libjpeg-turbo,
 * BLIS). */
#include "isa.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define NDPAD_ON_x86 1
#else
#define NDPAD_ON_x86 0
#endif
#if defined(__aarch64__)
#define NDPAD_ON_aarch64 1
#else
#define NDPAD_ON_aarch64 0
#endif
#define NDPAD_ON_any 1
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

/* One level of isa-levels.inc, as data. */
typedef struct isa_level {
    const char *name;
    ndpad_isa parent;
    bool on_this_arch;
    uint32_t cpuid1_ecx, xcr0, cpuid7_ebx, cpuid7_ecx;
    uint64_t hwcap;
} isa_level;

static const isa_level levels[NDPAD_ISA_SLOTS] = {
#define NDPAD_ISA_LEVEL(ID, name, PARENT, arch, width, cpuinfo, c1ecx, xcr0, c7ebx, c7ecx, hwcap)  \
    [NDPAD_ISA_##                                                                                  \
        ID] = {#name, NDPAD_ISA_##PARENT, NDPAD_ON_##arch, c1ecx, xcr0, c7ebx, c7ecx, hwcap},
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
};

/* The order of the list, which is the preference order (best last). */
static const ndpad_isa list_order[] = {
#define NDPAD_ISA_LEVEL(ID, ...) NDPAD_ISA_##ID,
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
};
enum { LEVEL_COUNT = sizeof(list_order) / sizeof(list_order[0]) };

static bool is_level(int32_t isa)
{
    return isa > NDPAD_ISA_AUTO && isa < NDPAD_ISA_SLOTS && levels[isa].name != NULL;
}

const char *ndpad_isa_name(ndpad_isa isa)
{
    if (isa == NDPAD_ISA_AUTO) return "auto";
    return is_level((int32_t)isa) ? levels[isa].name : "unknown";
}

#if defined(__x86_64__) || defined(__i386__)
static uint64_t xgetbv0(void)
{
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t)edx << 32) | eax;
}
#endif

static bool all_set(uint64_t have, uint64_t need)
{
    return (have & need) == need;
}

/* The bits `isa` itself adds (its parent's are checked separately). */
static bool cpu_has_own(ndpad_isa isa)
{
    const isa_level *l = &levels[isa];
    if (!l->on_this_arch) return false;
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (l->cpuid1_ecx || l->xcr0) {
        if (!__get_cpuid(1, &a, &b, &c, &d) || !all_set(c, l->cpuid1_ecx)) return false;
        /* XGETBV faults without OSXSAVE: only levels that also need OSXSAVE list XCR0 bits,
         * and their parents (AVX2) check it first */
        if (l->xcr0 && (!((c >> 27) & 1) || !all_set(xgetbv0(), l->xcr0))) return false;
    }
    if (l->cpuid7_ebx || l->cpuid7_ecx) {
        if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
        if (!all_set(b, l->cpuid7_ebx) || !all_set(c, l->cpuid7_ecx)) return false;
    }
#endif
#if defined(__aarch64__) && defined(__linux__)
    if (l->hwcap && !all_set(getauxval(AT_HWCAP), l->hwcap)) return false;
#endif
    return true;
}

bool ndpad_isa_refines(ndpad_isa isa, ndpad_isa ancestor)
{
    if (!is_level((int32_t)isa) || !is_level((int32_t)ancestor)) return false;
    for (;; isa = levels[isa].parent) {
        if (isa == ancestor) return true;
        if (levels[isa].parent == isa) return false;
    }
}

static bool cpu_has(ndpad_isa isa)
{
    for (;; isa = levels[isa].parent) {
        if (!cpu_has_own(isa)) return false;
        if (levels[isa].parent == isa) return true;
    }
}

/* CPUID traps to the hypervisor in a VM (about 8 us here), far more than the rest of plan
 * creation, so each level's answer is asked once per process: 0 = not asked yet, 1 = no,
 * 2 = yes. Threads racing on the first ask store the same answer. */
static _Atomic int cpu_answer[NDPAD_ISA_SLOTS];

static bool usable(ndpad_isa isa)
{
    if (!ndpad_kernels_built(isa)) return false;
    int answer = atomic_load_explicit(&cpu_answer[isa], memory_order_relaxed);
    if (answer == 0) {
        answer = cpu_has(isa) ? 2 : 1;
        atomic_store_explicit(&cpu_answer[isa], answer, memory_order_relaxed);
    }
    return answer == 2;
}

static ndpad_isa best_available(void)
{
    for (int k = LEVEL_COUNT - 1; k > 0; k--)
        if (usable(list_order[k])) return list_order[k];
    return NDPAD_ISA_SCALAR;
}

ndpad_isa ndpad_isa_cpu_level(void)
{
    for (int k = LEVEL_COUNT - 1; k > 0; k--)
        if (cpu_has(list_order[k])) return list_order[k];
    return NDPAD_ISA_SCALAR;
}

int32_t ndpad_isa_parse(const char *name)
{
    if (strcmp(name, "auto") == 0) return NDPAD_ISA_AUTO;
    for (int k = 0; k < LEVEL_COUNT; k++)
        if (strcmp(name, levels[list_order[k]].name) == 0) return list_order[k];
    return -1;
}

/* Names of the levels usable here, for messages: "scalar, avx2, avx512". */
static void list_available(char *buf, size_t size)
{
    buf[0] = '\0';
    for (int k = 0; k < LEVEL_COUNT; k++) {
        if (!usable(list_order[k])) continue;
        if (buf[0] != '\0') strncat(buf, ", ", size - strlen(buf) - 1);
        strncat(buf, levels[list_order[k]].name, size - strlen(buf) - 1);
    }
}

ndpad_status ndpad_isa_resolve(int32_t requested, const char *caller, ndpad_isa *resolved)
{
    ndpad_status status = NDPAD_OK;
    char available[96];
    const char *source = "options.isa";
    if (requested != NDPAD_ISA_AUTO && !is_level(requested))
        NDPAD_FAIL(NDPAD_ERR_OPTIONS, "options.isa = %d is not an ndpad_isa", (int)requested);
    if (requested == NDPAD_ISA_AUTO) {
        const char *env = getenv("NDPAD_ISA");
        if (env != NULL && env[0] != '\0') {
            source = "NDPAD_ISA";
            requested = ndpad_isa_parse(env);
            if (requested < 0) {
                list_available(available, sizeof(available));
                NDPAD_FAIL(NDPAD_ERR_ISA_UNAVAILABLE,
                           "NDPAD_ISA = \"%.32s\" is not an instruction set (use auto or one "
                           "of: %s)",
                           env, available);
            }
        }
    }
    if (requested == NDPAD_ISA_AUTO) {
        *resolved = best_available();
        return NDPAD_OK;
    }
    if (!usable((ndpad_isa)requested)) {
        list_available(available, sizeof(available));
        NDPAD_FAIL(NDPAD_ERR_ISA_UNAVAILABLE, "%s = %s is not available: %s (available: %s)",
                   source, levels[requested].name,
                   ndpad_kernels_built((ndpad_isa)requested) ? "this CPU lacks it"
                                                             : "this build has no kernels for it",
                   available);
    }
    *resolved = (ndpad_isa)requested;
    return NDPAD_OK;
fail:
    return status;
}
