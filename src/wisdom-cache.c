/* The in-memory wisdom table: lookup and store, the default file read once (lazily), and
 * the public import/export/save entry points over wisdom-file.c. Stored wisdom never causes
 * a failure and never changes a result: a bad file is ignored with one warning, a bad line
 * is skipped, and every tile is clamped to the plan. */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "wisdom-file.h"
#include "wisdom.h"

typedef ndpad_wisdom_entry entry;

static pthread_mutex_t table_mutex = PTHREAD_MUTEX_INITIALIZER;
/* Held by a save from its file lock to the lock's release: a child forked meanwhile would
 * inherit the descriptor that holds the flock, and its own save would then wait forever on
 * its own copy (and the parent's next save until the child exits). Taken before
 * table_mutex. */
static pthread_mutex_t save_mutex = PTHREAD_MUTEX_INITIALIZER;

/* fork() while another thread holds a mutex would leave it locked forever in the child:
 * held across the fork (a save in progress ends first), released on both sides. Taken
 * before the leaf locks (plan cache, warnings, topology), whose handlers are registered
 * earlier and so prepare later. */
static void table_mutex_prepare(void)
{
    pthread_mutex_lock(&save_mutex);
    pthread_mutex_lock(&table_mutex);
}
static void table_mutex_release(void)
{
    pthread_mutex_unlock(&table_mutex);
    pthread_mutex_unlock(&save_mutex);
}

__attribute__((constructor)) static void table_mutex_watch_forks(void)
{
    (void)pthread_atfork(table_mutex_prepare, table_mutex_release, table_mutex_release);
}
static entry table[NDPAD_WISDOM_MAX_ENTRIES];
static size_t table_count;
static bool table_loaded; /* the default file has been read (or tried) */

/* ---- the table ------------------------------------------------------------------------ */

static void store_locked(const entry *e, bool overwrite)
{
    for (size_t k = 0; k < table_count; k++)
        if (ndpad_wisdom_key_equal(&table[k].key, &e->key)) {
            if (overwrite) table[k] = *e;
            return;
        }
    if (table_count < NDPAD_WISDOM_MAX_ENTRIES) table[table_count++] = *e;
}

static bool find_locked(const ndpad_wisdom_key *key, entry *e)
{
    for (size_t k = 0; k < table_count; k++)
        if (ndpad_wisdom_key_equal(&table[k].key, key)) {
            *e = table[k];
            return true;
        }
    return false;
}
/* Parse and merge into the table (caller holds the mutex). On rejection, writes the
 * warning to `warn` and returns the status. Bad lines give a warning but the text counts. */
static ndpad_status import_text_locked(const char *text, size_t length, const char *origin,
                                       bool overwrite, char *warn, size_t warn_size)
{
    ndpad_wisdom_parsed p;
    const char *why = ndpad_wisdom_parse(text, length, &p);
    if (why != NULL) {
        snprintf(warn, warn_size, "wisdom %s %s; ignored, using heuristic tiles", origin, why);
        const ndpad_status status = p.out_of_memory ? NDPAD_ERR_OUT_OF_MEMORY : NDPAD_ERR_IO;
        ndpad_wisdom_parsed_free(&p);
        return status;
    }
    for (size_t k = 0; k < p.count; k++) store_locked(&p.entries[k], overwrite);
    if (p.bad_lines > 0)
        snprintf(warn, warn_size, "wisdom %s: skipped %d malformed or truncated line%s", origin,
                 p.bad_lines, p.bad_lines == 1 ? "" : "s");
    ndpad_wisdom_parsed_free(&p);
    return NDPAD_OK;
}

/* The default path in `path`, or false with the reason in `warn`. */
static bool default_path(char *path, size_t size, char *warn, size_t warn_size)
{
    const size_t n = ndpad_wisdom_path(path, size);
    if (n == 0)
        snprintf(warn, warn_size,
                 "no wisdom location ($NDPAD_WISDOM, $XDG_CACHE_HOME, $HOME "
                 "unset)");
    else if (n >= size || n >= NDPAD_WISDOM_MAX_PATH)
        snprintf(warn, warn_size,
                 "the default wisdom path ($NDPAD_WISDOM, else "
                 "$XDG_CACHE_HOME or $HOME) is %zu bytes long, at most %d are usable",
                 n, NDPAD_WISDOM_MAX_PATH - 1);
    return n > 0 && n < size && n < NDPAD_WISDOM_MAX_PATH;
}

static void load_default_locked(char *warn, size_t warn_size)
{
    char path[PATH_MAX];
    table_loaded = true;
    if (!default_path(path, sizeof(path), warn, warn_size)) {
        const size_t used = strlen(warn);
        snprintf(warn + used, warn_size - used, "; using heuristic tiles");
        return;
    }
    ndpad_wisdom_file file;
    char origin[320];
    snprintf(origin, sizeof(origin), "file %.300s", path);
    /* Read through a symbolic link (reading is harmless); never blocks on a FIFO. */
    if (ndpad_wisdom_read_file(path, true, &file) != NDPAD_OK) {
        snprintf(warn, warn_size, "wisdom %s %s; using heuristic tiles", origin, file.why);
        return;
    }
    /* Entries already in memory (imported, measured) are newer than the file's. */
    import_text_locked(file.text, file.length, origin, false, warn, warn_size);
    ndpad_free(file.text);
}

bool ndpad_wisdom_lookup(const ndpad_wisdom_key *key, ndpad_tile *tile)
{
    char warn[600] = "";
    entry e;
    pthread_mutex_lock(&table_mutex);
    if (!table_loaded) load_default_locked(warn, sizeof(warn));
    const bool found = find_locked(key, &e);
    pthread_mutex_unlock(&table_mutex);
    if (warn[0] != '\0') ndpad_wisdom_warn(warn);
    if (found) *tile = e.tile;
    return found;
}

void ndpad_wisdom_store(const ndpad_wisdom_key *key, ndpad_tile tile, double gbps)
{
    char warn[600] = "";
    const entry e = {.key = *key, .tile = tile, .gbps = gbps};
    pthread_mutex_lock(&table_mutex);
    if (!table_loaded) load_default_locked(warn, sizeof(warn));
    store_locked(&e, true);
    pthread_mutex_unlock(&table_mutex);
    if (warn[0] != '\0') ndpad_wisdom_warn(warn);
}

void ndpad_wisdom_forget(void)
{
    pthread_mutex_lock(&table_mutex);
    table_count = 0;
    table_loaded = false;
    pthread_mutex_unlock(&table_mutex);
}

static ndpad_status load_string(const char *text, const char *caller)
{
    if (text == NULL) return ndpad_set_error(NDPAD_ERR_NULL_ARGUMENT, caller, "text is NULL");
    char warn[600] = "";
    pthread_mutex_lock(&table_mutex);
    const ndpad_status status =
        import_text_locked(text, strlen(text), "string", true, warn, sizeof(warn));
    pthread_mutex_unlock(&table_mutex);
    if (warn[0] != '\0') ndpad_wisdom_warn(warn);
    if (status != NDPAD_OK) ndpad_set_error(status, caller, "%s", warn);
    return status;
}

static ndpad_status load_file(const char *path, const char *caller)
{
    ndpad_status status = ndpad_wisdom_check_path(path, "path", caller);
    if (status != NDPAD_OK) return status;
    char warn[600] = "";
    ndpad_wisdom_file file;
    status = ndpad_wisdom_read_file(path, true, &file);
    if (status != NDPAD_OK) {
        snprintf(warn, sizeof(warn), "wisdom file %.300s %s", path, file.why);
    } else {
        char origin[320];
        snprintf(origin, sizeof(origin), "file %.300s", path);
        pthread_mutex_lock(&table_mutex);
        status = import_text_locked(file.text, file.length, origin, true, warn, sizeof(warn));
        pthread_mutex_unlock(&table_mutex);
        ndpad_free(file.text);
    }
    if (warn[0] != '\0') ndpad_wisdom_warn(warn);
    if (status != NDPAD_OK) ndpad_set_error(status, caller, "%s", warn);
    return status;
}

ndpad_status ndpad_wisdom_load_string(const char *text)
{
    return load_string(text, __func__);
}

ndpad_status ndpad_wisdom_load_file(const char *path)
{
    return load_file(path, __func__);
}

int ndpad_wisdom_import_string(const char *text)
{
    return load_string(text, __func__) == NDPAD_OK;
}

int ndpad_wisdom_import_file(const char *path)
{
    return load_file(path, __func__) == NDPAD_OK;
}

/* ---- export and save ------------------------------------------------------------------ */

size_t ndpad_wisdom_export_string(char *buf, size_t size)
{
    char warn[600] = "";
    pthread_mutex_lock(&table_mutex);
    if (!table_loaded) load_default_locked(warn, sizeof(warn));
    const size_t n = ndpad_wisdom_print(table, table_count, NULL, buf, size);
    pthread_mutex_unlock(&table_mutex);
    if (warn[0] != '\0') ndpad_wisdom_warn(warn);
    return n;
}

/* What is on disk at `path` (the lock held): NDPAD_OK with its classes and other machines'
 * sections in `p` (empty when there is no file, or an empty one), or the reason it must not
 * be replaced. Never replaced: a symbolic link, anything but a regular file, a file that
 * cannot be read, one that does not start as ndpad wisdom or is of a newer format. */
static ndpad_status read_disk(const char *path, ndpad_wisdom_parsed *p, int *mode,
                              const char *caller)
{
    memset(p, 0, sizeof(*p));
    *mode = -1;
    ndpad_wisdom_file file;
    const ndpad_status status = ndpad_wisdom_read_file(path, false, &file);
    if (status != NDPAD_OK && file.missing) return NDPAD_OK;
    if (status != NDPAD_OK)
        return ndpad_set_error(status, caller, "wisdom file %s %s; not replaced", path, file.why);
    *mode = file.mode;
    if (file.length == 0) { /* nothing to lose */
        ndpad_free(file.text);
        return NDPAD_OK;
    }
    ndpad_wisdom_parse(file.text, file.length, p);
    ndpad_free(file.text);
    if (p->out_of_memory)
        return ndpad_set_error(NDPAD_ERR_OUT_OF_MEMORY, caller,
                               "no memory to read the wisdom "
                               "file %s",
                               path);
    if (!p->is_wisdom)
        return ndpad_set_error(NDPAD_ERR_IO, caller,
                               "%s is not ndpad wisdom (no "
                               "\"ndpad-wisdom <version>\" first line); not replaced, left "
                               "as it is",
                               path);
    if (p->version > NDPAD_WISDOM_VERSION)
        return ndpad_set_error(NDPAD_ERR_IO, caller,
                               "%s has wisdom format %d, newer than "
                               "this ndpad's %d; not replaced",
                               path, p->version, NDPAD_WISDOM_VERSION);
    return NDPAD_OK;
}

ndpad_status ndpad_wisdom_save_for(const char *path, const char *caller)
{
    char given_default[PATH_MAX];
    char warn[600] = "";
    char load_warn[600] = "";
    char *out = NULL;
    ndpad_wisdom_parsed p = {0};
    int mode = -1;
    if (path == NULL) {
        if (!default_path(given_default, sizeof(given_default), warn, sizeof(warn)))
            return ndpad_set_error(NDPAD_ERR_IO, caller, "%s", warn);
        path = given_default;
    }
    ndpad_status status = ndpad_wisdom_check_path(path, "path", caller);
    if (status != NDPAD_OK) return status;
    pthread_mutex_lock(&save_mutex);
    const int lock_fd = ndpad_wisdom_lock(path, caller, warn, sizeof(warn));
    if (lock_fd < 0) {
        status = NDPAD_ERR_IO;
        goto done;
    }
    /* Merge: this machine's classes on disk join memory (memory wins for a class both hold,
     * since it was measured later); other machines' sections are kept as they are. */
    status = read_disk(path, &p, &mode, caller);
    if (status != NDPAD_OK) goto done;
    pthread_mutex_lock(&table_mutex);
    if (!table_loaded) load_default_locked(load_warn, sizeof(load_warn));
    if (p.ours && p.version >= NDPAD_WISDOM_OLDEST_VERSION)
        for (size_t k = 0; k < p.count; k++) store_locked(&p.entries[k], false);
    const size_t size = ndpad_wisdom_print(table, table_count, p.others, NULL, 0) + 1;
    out = ndpad_malloc(size);
    if (out != NULL) ndpad_wisdom_print(table, table_count, p.others, out, size);
    pthread_mutex_unlock(&table_mutex);
    if (out == NULL) {
        status = ndpad_set_error(NDPAD_ERR_OUT_OF_MEMORY, caller, "no memory to export the wisdom");
        goto done;
    }
    status = ndpad_wisdom_replace(path, out, mode, caller) ? NDPAD_OK : NDPAD_ERR_IO;
done:
    if (lock_fd >= 0) close(lock_fd);  /* releases the flock */
    pthread_mutex_unlock(&save_mutex); /* before any warning: the log callback is the user's */
    ndpad_wisdom_parsed_free(&p);
    ndpad_free(out);
    if (load_warn[0] != '\0') ndpad_wisdom_warn(load_warn);
    if (warn[0] != '\0') ndpad_wisdom_warn(warn);
    return status;
}

ndpad_status ndpad_wisdom_save_file(const char *path)
{
    if (path == NULL) return ndpad_set_error(NDPAD_ERR_NULL_ARGUMENT, __func__, "path is NULL");
    return ndpad_wisdom_save_for(path, __func__);
}

int ndpad_wisdom_export_file(const char *path)
{
    if (path == NULL) {
        ndpad_set_error(NDPAD_ERR_NULL_ARGUMENT, __func__, "path is NULL");
        return 0;
    }
    return ndpad_wisdom_save_for(path, __func__) == NDPAD_OK;
}
