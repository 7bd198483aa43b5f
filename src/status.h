/* Status strings and the thread-local last error (TurboJPEG's errStr, zstd's RETURN_ERROR_IF). */
#ifndef NDPAD_STATUS_H
#define NDPAD_STATUS_H

#include "ndpad.h"

#define NDPAD_INTERNAL __attribute__((visibility("hidden")))

/* Formats "<function>: <message>" into this thread's last-error buffer; returns `status`. */
NDPAD_INTERNAL ndpad_status ndpad_set_error(ndpad_status status, const char *function,
                                            const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Fail the enclosing function: record the message, prefixed with the public entry point
 * `caller` (a `const char *` in scope), and jump to its single exit `fail`.
 * The function must have `ndpad_status status` in scope. */
#define NDPAD_FAIL(st, ...)                                                                        \
    do {                                                                                           \
        status = ndpad_set_error((st), caller, __VA_ARGS__);                                       \
        goto fail;                                                                                 \
    } while (0)

/* Propagate a failure of a callee, whose message is already recorded. */
#define NDPAD_FORWARD(expr)                                                                        \
    do {                                                                                           \
        status = (expr);                                                                           \
        if (status != NDPAD_OK) goto fail;                                                         \
    } while (0)

#endif
