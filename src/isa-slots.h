/* The size of a table indexed by ndpad_isa, from the list of levels alone: shared by the
 * level logic (isa.c) and the kernel table, which must not depend on each other both ways. */
#ifndef NDPAD_ISA_SLOTS_H
#define NDPAD_ISA_SLOTS_H

#include "ndpad.h"

/* Slots of a table indexed by ndpad_isa: one past the largest level of isa-levels.inc
 * (the size of a union of arrays of each level's value + 1 bytes). */
union ndpad_isa_slots {
#define NDPAD_ISA_LEVEL(ID, ...) char ID[NDPAD_ISA_##ID + 1];
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
};
#define NDPAD_ISA_SLOTS ((int)sizeof(union ndpad_isa_slots))

#endif
