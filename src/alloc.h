/* Every allocation ndpad makes goes through here, so tests can make the n-th one fail and
 * check that each failure is NDPAD_ERR_OUT_OF_MEMORY with nothing leaked. */
#ifndef NDPAD_ALLOC_H
#define NDPAD_ALLOC_H

#include <stddef.h>

#include "status.h"

NDPAD_INTERNAL void *ndpad_malloc(size_t bytes);
NDPAD_INTERNAL void *ndpad_calloc(size_t count, size_t bytes);
NDPAD_INTERNAL void *ndpad_realloc(void *pointer, size_t bytes); /* fails as malloc does */
NDPAD_INTERNAL void ndpad_free(void *pointer);

/* Testing hook (reachable from static builds): on this thread, the next `countdown`
 * allocations succeed and every one after them fails; a negative countdown turns failure
 * injection off. Returns how many allocations this thread made since the last call. */
NDPAD_INTERNAL long ndpad_alloc_fail_after(long countdown);

#endif
