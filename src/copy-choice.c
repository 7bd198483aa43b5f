/* The interior copies the tuner chooses between. Only the choice lives here; the ISA's own
 * copies are kernels (src/kernels/<isa>/copy-interior-*). */
#include "copy-choice.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

static const char *const names[NDPAD_COPY_KINDS] = {"vector", "memcpy", "movsb"};

static void copy_libc(void *restrict dst, const void *restrict src, size_t bytes)
{
    memcpy(dst, src, bytes);
}

#if defined(__x86_64__)
/* With ERMS/FSRM the microcode copies whole lines without read-for-ownership for long
 * runs; libc's memcpy only switches to it above a threshold of its own. */
static void copy_movsb(void *restrict dst, const void *restrict src, size_t bytes)
{
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(bytes) : : "memory");
}
#endif

bool ndpad_copy_available(int32_t kind)
{
    switch (kind) {
    case NDPAD_COPY_VECTOR:
    case NDPAD_COPY_LIBC: return true;
    case NDPAD_COPY_MOVSB:
#if defined(__x86_64__)
    {
        /* CPUID leaf 7: EBX bit 9 ERMS, EDX bit 4 FSRM. Asked once. */
        static _Atomic int known = -1; /* tiles of several threads may ask at once */
        int k = known;
        if (k < 0) {
            unsigned a = 0, b = 0, c = 0, d = 0;
            k = __get_cpuid_count(7, 0, &a, &b, &c, &d) && ((b >> 9 & 1) || (d >> 4 & 1));
            known = k;
        }
        return k == 1;
    }
#else
        return false;
#endif
    default: return false;
    }
}

ndpad_copy_fn ndpad_copy_choose(const ndpad_kernels *kernels, int32_t kind, bool stream)
{
    if (stream) return kernels->copy_nt;
    if (kind == NDPAD_COPY_LIBC) return copy_libc;
#if defined(__x86_64__)
    if (kind == NDPAD_COPY_MOVSB && ndpad_copy_available(kind)) return copy_movsb;
#endif
    return kernels->copy;
}

const char *ndpad_copy_name(int32_t kind)
{
    return kind >= 0 && kind < NDPAD_COPY_KINDS ? names[kind] : NULL;
}

int32_t ndpad_copy_parse(const char *name)
{
    for (int32_t k = 0; k < NDPAD_COPY_KINDS; k++)
        if (strcmp(name, names[k]) == 0) return k;
    return -1;
}
