/* Which function copies a plan's interior runs: the tuner measures the choices per class
 * (run lengths differ by class), the executor asks for the function once per tile. */
#ifndef NDPAD_COPY_CHOICE_H
#define NDPAD_COPY_CHOICE_H

#include <stdbool.h>

#include "kernels/kernels.h"

typedef enum ndpad_copy_kind {
    NDPAD_COPY_VECTOR = 0, /* the ISA's interior copy (aligned vector stores): the default */
    NDPAD_COPY_LIBC = 1,   /* the C library's memcpy                                      */
    NDPAD_COPY_MOVSB = 2,  /* `rep movsb` (x86 with ERMS or FSRM only)                      */
    NDPAD_COPY_KINDS = 3
} ndpad_copy_kind;

/* The copy for `kind` (streaming stores win over it when `stream`); an unknown kind, or
 * one this CPU lacks, is the ISA's own copy, so no stored choice can break a plan. */
NDPAD_INTERNAL ndpad_copy_fn ndpad_copy_choose(const ndpad_kernels *kernels, int32_t kind,
                                               bool stream);

/* True when `kind` runs as itself on this CPU (rep movsb needs ERMS or FSRM). */
NDPAD_INTERNAL bool ndpad_copy_available(int32_t kind);

/* "vector", "memcpy", "movsb" (as the wisdom writes them), or NULL. */
NDPAD_INTERNAL const char *ndpad_copy_name(int32_t kind);

/* The kind named `name`, or -1. */
NDPAD_INTERNAL int32_t ndpad_copy_parse(const char *name);

#endif
