/* ISA levels. This build carries the scalar kernels only; the SIMD kernels and CPUID/HWCAP
 * detection plug in here (kernels.inc entries per ISA, then a run-time check per level). */
#include "isa.h"

static const char *const isa_names[] = {
    [NDPAD_ISA_AUTO] = "auto",     [NDPAD_ISA_SCALAR] = "scalar", [NDPAD_ISA_AVX2] = "avx2",
    [NDPAD_ISA_AVX512] = "avx512", [NDPAD_ISA_NEON] = "neon",
};

const char *ndpad_isa_name(ndpad_isa isa)
{
    const unsigned index = (unsigned)isa;
    return index < sizeof(isa_names) / sizeof(isa_names[0]) ? isa_names[index] : "unknown";
}

ndpad_status ndpad_isa_resolve(int32_t requested, const char *caller, ndpad_isa *resolved)
{
    ndpad_status status = NDPAD_OK;
    switch (requested) {
    case NDPAD_ISA_AUTO:
    case NDPAD_ISA_SCALAR:
        *resolved = NDPAD_ISA_SCALAR;
        return NDPAD_OK;
    case NDPAD_ISA_AVX2:
    case NDPAD_ISA_AVX512:
    case NDPAD_ISA_NEON:
        NDPAD_FAIL(NDPAD_ERR_ISA_UNAVAILABLE,
                   "options.isa = %s is not available: this build has %s kernels only",
                   ndpad_isa_name((ndpad_isa)requested), "scalar");
    default:
        NDPAD_FAIL(NDPAD_ERR_OPTIONS, "options.isa = %d is not an ndpad_isa", (int)requested);
    }
fail:
    return status;
}
