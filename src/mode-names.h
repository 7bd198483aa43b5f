/* The one table of mode names (mode-names.c): ndpad_mode_name() is public (ndpad.h); the
 * parse, for the wisdom file and the tools, is here. */
#ifndef NDPAD_MODE_NAMES_H
#define NDPAD_MODE_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

/* The mode named by the `length` characters at `name`, or -1. */
NDPAD_INTERNAL int32_t ndpad_mode_parse(const char *name, size_t length);

#endif
