/* Allocation with a per-thread failure injector for the out-of-memory tests. */
#include "alloc.h"

#include <stdbool.h>
#include <stdlib.h>

static _Thread_local long fail_countdown = -1; /* < 0: never fail */
static _Thread_local long allocations;

static bool should_fail(void)
{
    allocations++;
    if (fail_countdown < 0) return false;
    if (fail_countdown == 0) return true;
    fail_countdown--;
    return false;
}

void *ndpad_malloc(size_t bytes)
{
    return should_fail() ? NULL : malloc(bytes != 0 ? bytes : 1);
}

void *ndpad_calloc(size_t count, size_t bytes)
{
    return should_fail() ? NULL : calloc(count != 0 ? count : 1, bytes != 0 ? bytes : 1);
}

void *ndpad_realloc(void *pointer, size_t bytes)
{
    return should_fail() ? NULL : realloc(pointer, bytes != 0 ? bytes : 1);
}

void ndpad_free(void *pointer)
{
    free(pointer);
}

long ndpad_alloc_fail_after(long countdown)
{
    const long made = allocations;
    allocations = 0;
    fail_countdown = countdown;
    return made;
}
