/* The wisdom file: its text format (parse, print), where it lives, and the file handling
 * of a save (the lock, the atomic replace). Knows nothing of the in-memory table. Nothing
 * is ever opened through a symbolic link when writing, waited on (FIFOs, devices), or
 * replaced unless it is a regular file that starts as ndpad wisdom. */
#define _GNU_SOURCE
#include "copy-choice.h"
#include "wisdom-file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "isa.h"
#include "text.h"

#define MAX_LINE 512
#define MAX_FILE ((long)4 << 20)

typedef ndpad_wisdom_entry entry;

/* ---- parsing -------------------------------------------------------------------------- */

/* The value of field `name` at *p ("name=value", then one blank or the end): copied to
 * `value` (NUL-terminated, at most size - 1 characters) and *p moved past it. */
static bool field(const char **p, const char *name, char *value, size_t size)
{
    const size_t name_len = strlen(name);
    if (strncmp(*p, name, name_len) != 0 || (*p)[name_len] != '=') return false;
    const char *v = *p + name_len + 1;
    const size_t len = strcspn(v, " ");
    if (len == 0 || len >= size) return false;
    memcpy(value, v, len);
    value[len] = '\0';
    *p = v + len + (v[len] == ' ');
    return true;
}

/* Decimal integer in [lo, hi], digits only (an optional '-'): no wrap-around, no blanks,
 * no '+', no trailing characters. */
static bool integer(const char *s, long long lo, long long hi, long long *out)
{
    const char *digits = s[0] == '-' ? s + 1 : s;
    if (digits[0] < '0' || digits[0] > '9') return false;
    char *end = NULL;
    errno = 0;
    const long long v = strtoll(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* One class line, every number range-checked, or false. */
static bool parse_class(const char *line, entry *e)
{
    static const char *const names[] = {"esize", "rank", "out", "row"};
    if (strncmp(line, "class ", 6) != 0) return false;
    const char *p = line + 6;
    char value[32];
    long long v[4], nthr, rows, cols, threads, stream;
    const long long hi[4] = {INT32_MAX, NDPAD_MAX_RANK, 63, 63}, lo[4] = {1, 1, 0, 0};
    if (!field(&p, "mode", value, sizeof(value))) return false;
    const int m = ndpad_mode_parse(value, strlen(value));
    for (int k = 0; k < 4; k++)
        if (!field(&p, names[k], value, sizeof(value)) || !integer(value, lo[k], hi[k], &v[k]))
            return false;
    if (!field(&p, "isa", value, sizeof(value))) return false;
    const int i = ndpad_isa_parse(value);
    if (!field(&p, "nthr", value, sizeof(value)) || !integer(value, 1, 65536, &nthr) ||
        !field(&p, "tile_rows", value, sizeof(value)) || !integer(value, 0, INT64_MAX, &rows) ||
        !field(&p, "tile_cols", value, sizeof(value)) || !integer(value, 0, INT64_MAX, &cols) ||
        !field(&p, "threads", value, sizeof(value)) || !integer(value, 1, nthr, &threads) ||
        !field(&p, "stream", value, sizeof(value)) || !integer(value, 0, 1, &stream))
        return false;
    /* Format 4 adds the interior copy and the executor path; lines of formats 2 and 3 lack
     * them and mean the defaults. */
    int32_t copy = NDPAD_COPY_VECTOR, rows_path = 0;
    if (strncmp(p, "copy=", 5) == 0) {
        if (!field(&p, "copy", value, sizeof(value)) || (copy = ndpad_copy_parse(value)) < 0)
            return false;
    }
    if (strncmp(p, "path=", 5) == 0) {
        if (!field(&p, "path", value, sizeof(value))) return false;
        if (strcmp(value, "rows") == 0)
            rows_path = 1;
        else if (strcmp(value, "auto") != 0)
            return false;
    }
    /* Format 5 adds the in-place prefetch distance (-1: none, 0: the default). */
    long long prefetch = 0;
    if (strncmp(p, "prefetch=", 9) == 0 &&
        (!field(&p, "prefetch", value, sizeof(value)) ||
         !integer(value, -1, NDPAD_PREFETCH_ROWS_MAX, &prefetch)))
        return false;
    if (!field(&p, "gbps", value, sizeof(value)) || *p != '\0') return false;
    char *end = NULL;
    errno = 0;
    const double gbps = strtod(value, &end);
    if (errno != 0 || *end != '\0' || value[0] < '0' || value[0] > '9' ||
        strspn(value, "0123456789.") != strlen(value) || /* as "%.3f" writes it */
        !(gbps >= 0 && gbps <= 1e9)) /* 1e9: what "%.3f" makes of 999999999.9996 */
        return false;
    if (m < 0 || i < 1) return false;
    e->key = (ndpad_wisdom_key){m, (int32_t)v[0], (int32_t)v[1], (int32_t)v[2], (int32_t)v[3],
                                i, (int32_t)nthr};
    e->tile = (ndpad_tile){.rows = rows,
                           .cols = cols,
                           .threads = (int32_t)threads,
                           .nt = (int32_t)stream,
                           .copy = copy,
                           .rows_path = rows_path,
                           .prefetch = (int32_t)prefetch};
    e->gbps = gbps;
    return true;
}

static bool add_entry(ndpad_wisdom_parsed *p, const entry *e)
{
    if (p->count == p->cap) {
        const size_t cap = p->cap ? 2 * p->cap : 64;
        if (cap > NDPAD_WISDOM_MAX_ENTRIES) {
            p->bad_lines++;
            return true;
        }
        entry *grown = ndpad_realloc(p->entries, cap * sizeof(*grown));
        if (grown == NULL) return false;
        p->entries = grown, p->cap = cap;
    }
    p->entries[p->count++] = *e;
    return true;
}

/* Appends `len` bytes and a newline to the other machines' text. */
static bool add_other(ndpad_wisdom_parsed *p, const char *line, size_t len)
{
    if (p->others_length + len + 2 > p->others_cap) {
        size_t cap = p->others_cap ? 2 * p->others_cap : 4096;
        while (cap < p->others_length + len + 2) cap *= 2;
        char *grown = ndpad_realloc(p->others, cap);
        if (grown == NULL) return false;
        p->others = grown, p->others_cap = cap;
    }
    memcpy(p->others + p->others_length, line, len);
    p->others_length += len;
    p->others[p->others_length++] = '\n';
    p->others[p->others_length] = '\0';
    return true;
}

void ndpad_wisdom_parsed_free(ndpad_wisdom_parsed *p)
{
    ndpad_free(p->entries);
    ndpad_free(p->others);
    memset(p, 0, sizeof(*p));
}

const char *ndpad_wisdom_parse(const char *text, size_t length, ndpad_wisdom_parsed *p)
{
    char line[MAX_LINE];
    size_t pos = 0;
    int line_no = 0;
    enum { NO_SECTION, OURS, OTHER } section = NO_SECTION;
    memset(p, 0, sizeof(*p));
    while (pos < length) {
        const char *start = text + pos;
        const char *nl = memchr(start, '\n', length - pos);
        const size_t len = nl != NULL ? (size_t)(nl - start) : length - pos;
        pos += len + (nl != NULL);
        line_no++;
        /* A last line without its newline was cut short: skip it. */
        const bool complete = nl != NULL && memchr(start, '\0', len) == NULL;
        const bool whole = complete && len < sizeof(line);
        if (whole) {
            memcpy(line, start, len);
            line[len] = '\0';
            if (len > 0 && line[len - 1] == '\r') line[len - 1] = '\0';
        }
        if (line_no == 1) {
            long long version = 0;
            if (!whole || strncmp(line, "ndpad-wisdom ", 13) != 0 ||
                !integer(line + 13, 0, INT32_MAX, &version))
                return "is not ndpad wisdom (no \"ndpad-wisdom <version>\" first line)";
            p->is_wisdom = true;
            p->version = (int)version;
            if (version > NDPAD_WISDOM_VERSION)
                return "has another format version (newer than this ndpad reads)";
            if (version < NDPAD_WISDOM_OLDEST_VERSION)
                return "has another format version (an older one)";
            continue;
        }
        if (whole && strncmp(line, "machine ", 8) == 0) {
            section = strcmp(line + 8, ndpad_wisdom_fingerprint()) == 0 ? OURS : OTHER;
            if (section == OURS) p->ours = true;
        } else if (section == NO_SECTION) {
            return "is truncated or corrupt (no machine line)";
        }
        if (section == OTHER) {
            /* Kept as it is, for the machine it belongs to; a cut-short line is dropped. */
            if (complete && !add_other(p, start, len)) goto out_of_memory;
            continue;
        }
        if (whole && strncmp(line, "machine ", 8) == 0) continue;
        if (!whole) {
            p->bad_lines++;
            continue;
        }
        if (line[0] == '\0' || line[0] == '#') continue;
        entry e;
        if (!parse_class(line, &e)) {
            p->bad_lines++;
            continue;
        }
        if (!add_entry(p, &e)) goto out_of_memory;
    }
    if (line_no < 2 || (!p->ours && p->others_length == 0))
        return "is truncated or corrupt (no machine line)";
    if (!p->ours) return "was made on another machine or ndpad build";
    return NULL;
out_of_memory:
    p->out_of_memory = true;
    return "could not be read (out of memory)";
}

/* ---- reading -------------------------------------------------------------------------- */

ndpad_status ndpad_wisdom_read_file(const char *path, bool follow, ndpad_wisdom_file *f)
{
    memset(f, 0, sizeof(*f));
    /* O_NONBLOCK: a FIFO or a device is opened without waiting for a writer, then refused. */
    const int fd =
        open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (follow ? 0 : O_NOFOLLOW));
    if (fd < 0) {
        f->missing = errno == ENOENT;
        f->why = errno == ENOENT  ? "does not exist"
                 : errno == ELOOP ? "is a symbolic link (not followed when saving)"
                                  : "cannot be opened";
        return NDPAD_ERR_IO;
    }
    struct stat st;
    ndpad_status status = NDPAD_ERR_IO;
    if (fstat(fd, &st) != 0) {
        f->why = "cannot be examined";
        goto done;
    }
    if (!S_ISREG(st.st_mode)) {
        f->why = "is not a regular file (a FIFO, device or directory is never read or replaced)";
        goto done;
    }
    if (st.st_size > MAX_FILE) {
        f->why = "is too large to be wisdom";
        goto done;
    }
    f->mode = st.st_mode & 07777;
    f->text = ndpad_malloc((size_t)MAX_FILE + 1);
    if (f->text == NULL) {
        f->why = "could not be read (out of memory)";
        status = NDPAD_ERR_OUT_OF_MEMORY;
        goto done;
    }
    size_t n = 0;
    while (n <= (size_t)MAX_FILE) {
        const ssize_t got = read(fd, f->text + n, (size_t)MAX_FILE + 1 - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            f->why = "could not be read";
            goto done;
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    if (n > (size_t)MAX_FILE) {
        f->why = "is too large to be wisdom";
        goto done;
    }
    f->length = n;
    status = NDPAD_OK;
done:
    close(fd);
    if (status != NDPAD_OK) {
        ndpad_free(f->text);
        f->text = NULL;
    }
    return status;
}

size_t ndpad_wisdom_path(char *buf, size_t size)
{
    const char *env = getenv("NDPAD_WISDOM");
    int n;
    if (env != NULL && env[0] != '\0')
        n = snprintf(buf, buf ? size : 0, "%s", env);
    else if ((env = getenv("XDG_CACHE_HOME")) != NULL && env[0] == '/')
        n = snprintf(buf, buf ? size : 0, "%s/ndpad/wisdom", env);
    else if ((env = getenv("HOME")) != NULL && env[0] != '\0')
        n = snprintf(buf, buf ? size : 0, "%s/.cache/ndpad/wisdom", env);
    else {
        if (buf != NULL && size > 0) buf[0] = '\0';
        return 0;
    }
    return n > 0 ? (size_t)n : 0;
}

/* ---- printing and saving -------------------------------------------------------------- */

size_t ndpad_wisdom_print(const entry *entries, size_t count, const char *others, char *buf,
                          size_t size)
{
    text t = {.buf = buf, .size = buf != NULL ? size : 0};
    if (t.size > 0) buf[0] = '\0';
    put(&t, "ndpad-wisdom %d\nmachine %s\n", NDPAD_WISDOM_VERSION, ndpad_wisdom_fingerprint());
    for (size_t k = 0; k < count; k++) {
        const entry *e = &entries[k];
        char key[160];
        ndpad_wisdom_key_format(&e->key, key, sizeof(key));
        const char *copy = ndpad_copy_name(e->tile.copy);
        put(&t,
            "class %s tile_rows=%lld tile_cols=%lld threads=%d stream=%d copy=%s path=%s "
            "prefetch=%d gbps=%.3f\n",
            key, (long long)e->tile.rows, (long long)e->tile.cols, (int)e->tile.threads,
            (int)e->tile.nt, copy != NULL ? copy : "vector", e->tile.rows_path ? "rows" : "auto",
            (int)e->tile.prefetch, e->gbps);
    }
    if (others != NULL) put(&t, "%s", others);
    return t.length;
}

ndpad_status ndpad_wisdom_check_path(const char *path, const char *what, const char *caller)
{
    if (path == NULL) return ndpad_set_error(NDPAD_ERR_NULL_ARGUMENT, caller, "%s is NULL", what);
    const size_t len = strnlen(path, NDPAD_WISDOM_MAX_PATH);
    if (len == 0)
        return ndpad_set_error(NDPAD_ERR_IO, caller, "%s is empty (no wisdom file named)", what);
    if (len >= NDPAD_WISDOM_MAX_PATH)
        return ndpad_set_error(NDPAD_ERR_IO, caller,
                               "%s is %d bytes or longer (at most %d, "
                               "leaving room for the .lock and temporary names)",
                               what, NDPAD_WISDOM_MAX_PATH, NDPAD_WISDOM_MAX_PATH - 1);
    return NDPAD_OK;
}

/* The parent directories of `path` (honouring the umask); `path` is not empty. */
static void make_parent_dirs(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", path);
    for (char *p = dir + 1; *p != '\0'; p++) {
        if (*p != '/') continue;
        *p = '\0';
        mkdir(dir, 0777); /* EEXIST and friends: the open below reports real failures */
        *p = '/';
    }
}

/* Opens an existing or new lock file, never through a symbolic link, never blocking. */
static int open_lock(const char *lock_path, int *error)
{
    const int flags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
    int fd = open(lock_path, O_RDWR | O_CREAT | flags, 0666);
    /* Someone else's lock in a shared directory: flock works on a read-only descriptor. */
    if (fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS))
        fd = open(lock_path, O_RDONLY | flags);
    *error = fd < 0 ? errno : 0;
    if (fd >= 0) {
        struct stat st;
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            close(fd);
            *error = EINVAL;
            return -1;
        }
    }
    return fd;
}

int ndpad_wisdom_lock(const char *path, const char *caller, char *warn, size_t warn_size)
{
    char lock_path[PATH_MAX + 32];
    make_parent_dirs(path);
    snprintf(lock_path, sizeof(lock_path), "%s.lock", path);
    int error = 0;
    int fd = open_lock(lock_path, &error);
    if (fd < 0 && error != ELOOP && error != EINVAL && error != ENOENT) {
        /* Unusable for this user (another user's, not readable): a lock of this user's own,
         * which excludes this user's processes only. Said once per save. */
        char user_path[PATH_MAX + 64];
        snprintf(user_path, sizeof(user_path), "%s.lock.uid%u", path, (unsigned)getuid());
        const int first_error = error;
        fd = open_lock(user_path, &error);
        if (fd >= 0)
            snprintf(warn, warn_size,
                     "wisdom lock %.300s is unusable (%s); locked %.300s "
                     "instead, which does not exclude other users' saves",
                     lock_path, strerror(first_error), user_path);
    }
    if (fd < 0) {
        ndpad_set_error(NDPAD_ERR_IO, caller, "cannot open the lock file %s: %s", lock_path,
                        error == ELOOP    ? "it is a symbolic link (never followed)"
                        : error == EINVAL ? "it is not a regular file"
                                          : strerror(error));
        return -1;
    }
    while (flock(fd, LOCK_EX) != 0)
        if (errno != EINTR) {
            ndpad_set_error(NDPAD_ERR_IO, caller, "cannot lock %s: %s", lock_path, strerror(errno));
            close(fd);
            return -1;
        }
    return fd;
}

bool ndpad_wisdom_replace(const char *path, const char *out, int mode, const char *caller)
{
    static atomic_uint counter;
    char tmp_path[PATH_MAX + 64];
    int fd = -1;
    /* O_EXCL|O_NOFOLLOW: never through a planted file or link; 0666 & ~umask, as every
     * well-behaved tool creates files. */
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        snprintf(tmp_path, sizeof(tmp_path), "%s.tmp.%ld.%u", path, (long)getpid(),
                 atomic_fetch_add(&counter, 1));
        fd = open(tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        ndpad_set_error(NDPAD_ERR_IO, caller, "cannot create %s: %s", tmp_path, strerror(errno));
        return false;
    }
    if (mode >= 0) (void)fchmod(fd, (mode_t)mode); /* an existing file keeps its permissions */
    const size_t total = strlen(out);
    size_t written = 0;
    while (written < total) {
        const ssize_t n = write(fd, out + written, total - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        written += (size_t)n;
    }
    if (written != total || fsync(fd) != 0 || close(fd) != 0) {
        ndpad_set_error(NDPAD_ERR_IO, caller, "cannot write %s: %s", tmp_path, strerror(errno));
        unlink(tmp_path);
        return false;
    }
    if (rename(tmp_path, path) != 0) {
        ndpad_set_error(NDPAD_ERR_IO, caller, "cannot rename %s to %s: %s", tmp_path, path,
                        strerror(errno));
        unlink(tmp_path);
        return false;
    }
    return true;
}
