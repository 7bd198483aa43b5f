/* Status names (a designated-initializer table, as BLIS bli_error.c) and the per-thread
 * message of the last failure. */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const status_names[] = {
    [NDPAD_OK] = "NDPAD_OK: success",
    [NDPAD_ERR_NULL_ARGUMENT] = "NDPAD_ERR_NULL_ARGUMENT: a required pointer argument is NULL",
    [NDPAD_ERR_RANK] = "NDPAD_ERR_RANK: rank out of range",
    [NDPAD_ERR_MODE] = "NDPAD_ERR_MODE: unknown pad mode",
    [NDPAD_ERR_ELEM_SIZE] = "NDPAD_ERR_ELEM_SIZE: element size is zero",
    [NDPAD_ERR_SHAPE] = "NDPAD_ERR_SHAPE: negative input extent",
    [NDPAD_ERR_INTERIOR] = "NDPAD_ERR_INTERIOR: negative interior padding",
    [NDPAD_ERR_INTERIOR_MODE] = "NDPAD_ERR_INTERIOR_MODE: interior padding needs CONSTANT mode",
    [NDPAD_ERR_EMPTY_AXIS] = "NDPAD_ERR_EMPTY_AXIS: non-constant mode cannot grow an empty axis",
    [NDPAD_ERR_OVERFLOW] = "NDPAD_ERR_OVERFLOW: a size or offset overflows",
    [NDPAD_ERR_STRIDE] = "NDPAD_ERR_STRIDE: invalid output stride",
    [NDPAD_ERR_NULL_BUFFER] = "NDPAD_ERR_NULL_BUFFER: input or output buffer is NULL",
    [NDPAD_ERR_AXES] = "NDPAD_ERR_AXES: axis out of range or repeated",
    [NDPAD_ERR_PADS_LENGTH] = "NDPAD_ERR_PADS_LENGTH: pads length does not match the axes",
    [NDPAD_ERR_OPTIONS] = "NDPAD_ERR_OPTIONS: invalid plan options",
    [NDPAD_ERR_ISA_UNAVAILABLE] = "NDPAD_ERR_ISA_UNAVAILABLE: instruction set not available",
    [NDPAD_ERR_OUT_OF_MEMORY] = "NDPAD_ERR_OUT_OF_MEMORY: allocation failed",
    [NDPAD_ERR_IO] = "NDPAD_ERR_IO: a wisdom file or text cannot be used",
    [NDPAD_ERR_TYPE] = "NDPAD_ERR_TYPE: element type not accepted by the operator at this opset",
};

static _Thread_local char last_error[512];

const char *ndpad_status_string(ndpad_status status)
{
    const unsigned index = (unsigned)status;
    if (index < sizeof(status_names) / sizeof(status_names[0]) && status_names[index] != NULL)
        return status_names[index];
    return "NDPAD_ERR_UNKNOWN: not an ndpad status";
}

const char *ndpad_last_error(void)
{
    return last_error;
}

ndpad_status ndpad_set_error(ndpad_status status, const char *function, const char *format, ...)
{
    int used = snprintf(last_error, sizeof(last_error), "%s: ", function);
    if (used < 0 || (size_t)used >= sizeof(last_error)) used = 0;
    va_list args;
    va_start(args, format);
    vsnprintf(last_error + used, sizeof(last_error) - (size_t)used, format, args);
    va_end(args);
    return status;
}
