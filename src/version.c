/* The library's version (ndpad.h: ndpad_version, ndpad_version_number), from the header it
 * was built with; CMakeLists.txt checks that the header's macros and the project's version
 * agree. */
#include "ndpad.h"

#define NDPAD_TEXT(x)               #x
#define NDPAD_VERSION_TEXT(a, b, c) NDPAD_TEXT(a) "." NDPAD_TEXT(b) "." NDPAD_TEXT(c)

const char *ndpad_version(void)
{
    return NDPAD_VERSION_TEXT(NDPAD_VERSION_MAJOR, NDPAD_VERSION_MINOR, NDPAD_VERSION_PATCH);
}

uint32_t ndpad_version_number(void)
{
    return NDPAD_VERSION_NUMBER;
}
