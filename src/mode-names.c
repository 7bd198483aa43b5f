/* The one table of mode names, as ndpad_plan_describe, the wisdom file and ndpad-tune
 * write them. */
#include <string.h>

#include "mode-names.h"

static const char *const mode_names[] = {"constant", "edge", "reflect", "symmetric", "wrap"};

const char *ndpad_mode_name(ndpad_mode mode)
{
    return (int)mode >= NDPAD_CONSTANT && (int)mode <= NDPAD_WRAP ? mode_names[mode] : "?";
}

int32_t ndpad_mode_parse(const char *name, size_t length)
{
    for (int32_t m = NDPAD_CONSTANT; m <= NDPAD_WRAP; m++)
        if (strlen(mode_names[m]) == length && strncmp(mode_names[m], name, length) == 0) return m;
    return -1;
}
