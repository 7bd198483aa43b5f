/* Which instruction-set level a plan runs with. The levels themselves are listed once, in
 * isa-levels.inc. */
#ifndef NDPAD_ISA_H
#define NDPAD_ISA_H

#include <stdbool.h>

#include "isa-slots.h"
#include "ndpad.h"
#include "status.h"

/* Resolves `requested` (AUTO or a level) to a level this build and CPU can run; an
 * unavailable level is NDPAD_ERR_ISA_UNAVAILABLE with a message naming options.isa. */
NDPAD_INTERNAL ndpad_status ndpad_isa_resolve(int32_t requested, const char *caller,
                                              ndpad_isa *resolved);

/* The level named `name` ("auto" or a name of isa-levels.inc), or -1. */
NDPAD_INTERNAL int32_t ndpad_isa_parse(const char *name);

/* True when `isa` is `ancestor` or a level below it in isa-levels.inc's parent chain (it
 * may use everything the ancestor may). */
NDPAD_INTERNAL bool ndpad_isa_refines(ndpad_isa isa, ndpad_isa ancestor);

/* The best level this CPU runs, whether or not this build has its kernels. */
NDPAD_INTERNAL ndpad_isa ndpad_isa_cpu_level(void);

#endif
