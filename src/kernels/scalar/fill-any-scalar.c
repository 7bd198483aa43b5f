/* Any element size in portable C: broadcast by doubling what is written, reversed copies
 * one element at a time, forward copies with memcpy. */
#include "kernels/filler-entries.h"
#include "kernels/kernels.h"
#include "kernels/scalar/element-scalar.h"

NDPAD_DEFINE_ANY_FILLERS_FROM(scalar, ndpad_broadcast_any, ndpad_reverse_any, ndpad_forward_run)
