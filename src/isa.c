/* Instruction-set levels: what this build compiled (NDPAD_HAVE_<ISA>), what this CPU runs
 * (CPUID + XGETBV on x86-64, HWCAP on aarch64), and what the user asks for (options.isa,
 * else the NDPAD_ISA environment variable). A request may only narrow what is available;
 * asking for a level that is absent is an error, never a crash (libjpeg-turbo, BLIS). */
#include "isa.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

static const char *const isa_names[] = {
    [NDPAD_ISA_AUTO] = "auto",     [NDPAD_ISA_SCALAR] = "scalar", [NDPAD_ISA_AVX2] = "avx2",
    [NDPAD_ISA_AVX512] = "avx512", [NDPAD_ISA_NEON] = "neon",
};

const char *ndpad_isa_name(ndpad_isa isa)
{
    const unsigned index = (unsigned)isa;
    return index < sizeof(isa_names) / sizeof(isa_names[0]) ? isa_names[index] : "unknown";
}

static bool compiled(ndpad_isa isa)
{
    switch (isa) {
    case NDPAD_ISA_SCALAR: return true;
#ifdef NDPAD_HAVE_AVX2
    case NDPAD_ISA_AVX2: return true;
#endif
#ifdef NDPAD_HAVE_AVX512
    case NDPAD_ISA_AVX512: return true;
#endif
#ifdef NDPAD_HAVE_NEON
    case NDPAD_ISA_NEON: return true;
#endif
    default: return false;
    }
}

#if defined(__x86_64__) || defined(__i386__)
static uint64_t xgetbv0(void)
{
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t)edx << 32) | eax;
}
#endif

static bool cpu_has(ndpad_isa isa)
{
    switch (isa) {
    case NDPAD_ISA_SCALAR: return true;
#if defined(__x86_64__) || defined(__i386__)
    case NDPAD_ISA_AVX2:
    case NDPAD_ISA_AVX512: {
        unsigned a, b, c, d;
        if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
        const bool osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
        if (!osxsave || !avx) return false;
        const uint64_t xcr0 = xgetbv0();
        if ((xcr0 & 0x6) != 0x6) return false; /* XMM and YMM state */
        if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
        const bool avx2 = (b >> 5) & 1;
        if (isa == NDPAD_ISA_AVX2) return avx2;
        const bool f = (b >> 16) & 1, bw = (b >> 30) & 1, vl = (b >> 31) & 1;
        return avx2 && f && bw && vl && (xcr0 & 0xE6) == 0xE6; /* opmask and ZMM state */
    }
#endif
#if defined(__aarch64__)
    case NDPAD_ISA_NEON:
#if defined(__linux__) && defined(HWCAP_ASIMD)
        return (getauxval(AT_HWCAP) & HWCAP_ASIMD) != 0;
#else
        return true; /* Advanced SIMD is part of the AArch64 base architecture */
#endif
#endif
    default: return false;
    }
}

/* CPUID traps to the hypervisor in a VM (about 8 us here), far more than the rest of plan
 * creation, so each level's answer is asked once per process: 0 = not asked yet, 1 = no,
 * 2 = yes. Threads racing on the first ask store the same answer. */
static _Atomic int cpu_answer[NDPAD_ISA_NEON + 1];

static bool usable(ndpad_isa isa)
{
    if (!compiled(isa)) return false;
    int answer = atomic_load_explicit(&cpu_answer[isa], memory_order_relaxed);
    if (answer == 0) {
        answer = cpu_has(isa) ? 2 : 1;
        atomic_store_explicit(&cpu_answer[isa], answer, memory_order_relaxed);
    }
    return answer == 2;
}

static const ndpad_isa preference[] = {NDPAD_ISA_AVX512, NDPAD_ISA_AVX2, NDPAD_ISA_NEON};

static ndpad_isa best_available(void)
{
    for (size_t k = 0; k < sizeof(preference) / sizeof(preference[0]); k++)
        if (usable(preference[k])) return preference[k];
    return NDPAD_ISA_SCALAR;
}

ndpad_isa ndpad_isa_cpu_level(void)
{
    for (size_t k = 0; k < sizeof(preference) / sizeof(preference[0]); k++)
        if (cpu_has(preference[k])) return preference[k];
    return NDPAD_ISA_SCALAR;
}

int32_t ndpad_isa_parse(const char *name)
{
    for (int32_t isa = NDPAD_ISA_AUTO; isa <= NDPAD_ISA_NEON; isa++)
        if (strcmp(name, isa_names[isa]) == 0) return isa;
    return -1;
}

/* Names of the levels usable here, for messages: "scalar, avx2, avx512". */
static void list_available(char *buf, size_t size)
{
    buf[0] = '\0';
    for (int32_t isa = NDPAD_ISA_SCALAR; isa <= NDPAD_ISA_NEON; isa++) {
        if (!usable((ndpad_isa)isa)) continue;
        if (buf[0] != '\0') strncat(buf, ", ", size - strlen(buf) - 1);
        strncat(buf, isa_names[isa], size - strlen(buf) - 1);
    }
}

ndpad_status ndpad_isa_resolve(int32_t requested, const char *caller, ndpad_isa *resolved)
{
    ndpad_status status = NDPAD_OK;
    char available[64];
    const char *source = "options.isa";
    if (requested < NDPAD_ISA_AUTO || requested > NDPAD_ISA_NEON)
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
                   source, isa_names[requested],
                   compiled((ndpad_isa)requested) ? "this CPU lacks it"
                                                  : "this build has no kernels for it",
                   available);
    }
    *resolved = (ndpad_isa)requested;
    return NDPAD_OK;
fail:
    return status;
}
