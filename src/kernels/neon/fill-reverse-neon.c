/* Reversed copies (REFLECT and SYMMETRIC borders) with NEON, reversed in registers
 * (vrev64 + vext); 16-byte elements are whole vectors moved in reverse order. */
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"
#include "kernels/neon/vector-neon.h"

NDPAD_DEFINE_FAST_FILLERS(neon, reverse, ndpad_reverse_run_neon)
