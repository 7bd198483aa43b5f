/* Reversed copies (REFLECT and SYMMETRIC borders) in portable C. */
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"
#include "kernels/scalar/element-scalar.h"

NDPAD_DEFINE_FAST_FILLERS(scalar, reverse, ndpad_reverse_run)
