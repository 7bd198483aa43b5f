/* Broadcast (CONSTANT and EDGE borders) in portable C: the element repeated over the run. */
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"
#include "kernels/scalar/element-scalar.h"

NDPAD_DEFINE_FAST_FILLERS(scalar, broadcast, ndpad_broadcast_run)
