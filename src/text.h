/* Text built piece by piece into a caller's buffer with snprintf semantics: it keeps counting
 * past the buffer's end, so the caller learns the length the whole text needs. */
#ifndef NDPAD_TEXT_H
#define NDPAD_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

typedef struct text {
    char *buf;
    size_t size;
    size_t length;
} text;

__attribute__((format(printf, 2, 3))) static inline void put(text *t, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    const size_t room = t->length < t->size ? t->size - t->length : 0;
    const int n = vsnprintf(room > 0 ? t->buf + t->length : NULL, room, format, args);
    va_end(args);
    if (n > 0) t->length += (size_t)n;
}

#endif
