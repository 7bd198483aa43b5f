/* Forward copies (WRAP borders) in portable C: memcpy. */
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"
#include "kernels/scalar/element-scalar.h"

NDPAD_DEFINE_FAST_FILLERS(scalar, forward, ndpad_forward_run)
