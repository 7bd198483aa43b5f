/* The wisdom file: text format, location, lock and atomic replace (wisdom-file.c). The
 * format is documented in tuning/wisdom-format.md. */
#ifndef NDPAD_WISDOM_FILE_H
#define NDPAD_WISDOM_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "wisdom.h"

/* At most this many classes are held in memory or read from one text. */
#define NDPAD_WISDOM_MAX_ENTRIES 4096
/* The oldest format version still read (2: one machine section; 3: several). */
#define NDPAD_WISDOM_OLDEST_VERSION 2
/* Wisdom paths are shorter than this, so that "<path>.lock.uid<n>" and the temporary
 * "<path>.tmp.<pid>.<n>" fit in PATH_MAX. */
#define NDPAD_WISDOM_MAX_PATH (PATH_MAX - 48)

/* One class line: the class, its tuned tile and the speed it measured. */
typedef struct ndpad_wisdom_entry {
    ndpad_wisdom_key key;
    ndpad_tile tile;
    double gbps;
} ndpad_wisdom_entry;

/* A parsed text: this machine's classes, and the other machines' sections verbatim (kept
 * when the file is saved again). Free with ndpad_wisdom_parsed_free. */
typedef struct ndpad_wisdom_parsed {
    ndpad_wisdom_entry *entries;
    size_t count, cap;
    int bad_lines;
    bool is_wisdom;     /* the first line is "ndpad-wisdom <version>"          */
    int version;        /* that version                                       */
    bool ours;          /* a section of this machine's fingerprint was found  */
    bool out_of_memory; /* the rejection was for want of memory                */
    char *others;       /* other machines' sections ("machine ..." and lines) */
    size_t others_length, others_cap;
} ndpad_wisdom_parsed;

/* Parse `text` (of `length` bytes, need not be NUL-terminated). Returns NULL when this
 * machine's section was read, or the reason the text is rejected for use here; malformed
 * class lines (numbers out of range included) are counted and skipped. */
NDPAD_INTERNAL const char *ndpad_wisdom_parse(const char *text, size_t length,
                                              ndpad_wisdom_parsed *parsed);

NDPAD_INTERNAL void ndpad_wisdom_parsed_free(ndpad_wisdom_parsed *parsed);

/* Prints the header, this machine's section with `count` class lines, then `others` (other
 * machines' sections, may be NULL), with snprintf semantics; returns the length. */
NDPAD_INTERNAL size_t ndpad_wisdom_print(const ndpad_wisdom_entry *entries, size_t count,
                                         const char *others, char *buf, size_t size);

/* A whole file read into memory. */
typedef struct ndpad_wisdom_file {
    char *text; /* ndpad_free it */
    size_t length;
    int mode;        /* permission bits of the file */
    bool missing;    /* it does not exist */
    const char *why; /* when not read */
} ndpad_wisdom_file;

/* Reads `path`, a regular file (a FIFO or device is refused without waiting), through a
 * symbolic link only when `follow`. NDPAD_OK; NDPAD_ERR_IO or NDPAD_ERR_OUT_OF_MEMORY with
 * the reason in file->why. */
NDPAD_INTERNAL ndpad_status ndpad_wisdom_read_file(const char *path, bool follow,
                                                   ndpad_wisdom_file *file);

/* NDPAD_OK when `path` (the argument called `what`) names a file: not NULL, not empty,
 * shorter than NDPAD_WISDOM_MAX_PATH; otherwise records why under `caller`. */
NDPAD_INTERNAL ndpad_status ndpad_wisdom_check_path(const char *path, const char *what,
                                                    const char *caller);

/* Creates the parent directories of `path` and takes the exclusive lock `path`.lock (never
 * through a symbolic link; read-only when another user owns it; else a per-user lock, with
 * a warning written to `warn`); returns its descriptor (close it to unlock), or -1 with
 * ndpad_last_error() set. */
NDPAD_INTERNAL int ndpad_wisdom_lock(const char *path, const char *caller, char *warn,
                                     size_t warn_size);

/* Atomically replaces `path` by `text` (a new temporary file renamed over it), with
 * permissions `mode` (an existing file's), or for mode < 0 0666 & ~umask; false with
 * ndpad_last_error() set. */
NDPAD_INTERNAL bool ndpad_wisdom_replace(const char *path, const char *text, int mode,
                                         const char *caller);

#endif
