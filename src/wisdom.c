/* Wisdom: an in-memory table of tuned tiles per problem class, its text format, the
 * default file (read once, lazily), merging atomic saves, and the measuring engine.
 * Stored wisdom never causes a failure and never changes a result: a bad file is ignored
 * with one warning, a bad line is skipped, and every tile is clamped to the plan. */
#define _GNU_SOURCE
#include "wisdom.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "isa.h"
#include "text.h"
#include "topology.h"

#define MAX_ENTRIES    4096
#define MAX_LINE       512
#define MAX_FILE       ((long)4 << 20)
#define MARGIN         0.95 /* a candidate must be 5% faster than the default to be recorded */
#define CONFIRM_ROUNDS 3    /* alternating default/winner rounds that confirm a winner     */
#define PASSES         3    /* round-robin passes over the candidates                       */
#define MIN_SLICE_RUNS 3    /* timed runs of one candidate per pass, at least ...           */
#define MAX_SLICE_RUNS 15   /* ... and at most                                               */
#define SEARCH_SHARE   0.75 /* of a class's budget spent on the passes; the rest confirms  */
#define MAX_CANDIDATES 256
#define MAX_SPREAD                                                                                 \
    1.5 /* upper / lower quartile of confirming runs beyond which the
                              machine is too noisy to trust a winner over the default */

typedef struct entry {
    ndpad_wisdom_key key;
    ndpad_tile tile;
    double gbps;
} entry;

static pthread_mutex_t table_mutex = PTHREAD_MUTEX_INITIALIZER;
static entry table[MAX_ENTRIES];
static size_t table_count;
static bool table_loaded; /* the default file has been read (or tried) */

static pthread_mutex_t warn_mutex = PTHREAD_MUTEX_INITIALIZER;
static char warning[512];
static ndpad_log_fn log_fn;
static void *log_user;

double ndpad_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- warnings ------------------------------------------------------------------------- */

void ndpad_wisdom_warn(const char *text)
{
    pthread_mutex_lock(&warn_mutex);
    snprintf(warning, sizeof(warning), "%s", text);
    const ndpad_log_fn fn = log_fn;
    void *const user = log_user;
    pthread_mutex_unlock(&warn_mutex);
    if (fn != NULL) fn(text, user);
}

size_t ndpad_wisdom_warning(char *buf, size_t size)
{
    pthread_mutex_lock(&warn_mutex);
    const int n = snprintf(buf != NULL ? buf : NULL, buf != NULL ? size : 0, "%s", warning);
    pthread_mutex_unlock(&warn_mutex);
    return n > 0 ? (size_t)n : 0;
}

void ndpad_set_log_callback(ndpad_log_fn fn, void *user)
{
    pthread_mutex_lock(&warn_mutex);
    log_fn = fn;
    log_user = user;
    pthread_mutex_unlock(&warn_mutex);
}

/* ---- keys and the fingerprint --------------------------------------------------------- */

static int32_t floor_log2(uint64_t v)
{
    int32_t k = 0;
    while (v > 1) v >>= 1, k++;
    return k;
}

ndpad_wisdom_key ndpad_wisdom_key_of(const ndpad_plan *plan)
{
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const uint64_t row_bytes = (uint64_t)(row->n > 0 ? row->n : 0) * plan->elem_size;
    const uint64_t out_bytes = plan->empty ? 0 : (uint64_t)plan->rows * row_bytes;
    ndpad_wisdom_key key = {
        .mode = plan->mode,
        .esize = plan->elem_size > INT32_MAX ? INT32_MAX : (int32_t)plan->elem_size,
        .rank = plan->ndim,
        .out_log2 = floor_log2(out_bytes),
        .row_log2 = floor_log2(row_bytes),
        .isa = (int32_t)plan->isa,
        .nthr = plan->max_threads,
    };
    return key;
}

void ndpad_wisdom_key_format(const ndpad_wisdom_key *key, char *buf, size_t size)
{
    snprintf(buf, size, "mode=%s esize=%d rank=%d out=%d row=%d isa=%s nthr=%d",
             ndpad_mode_name(key->mode), (int)key->esize, (int)key->rank, (int)key->out_log2,
             (int)key->row_log2, ndpad_isa_name((ndpad_isa)key->isa), (int)key->nthr);
}

static bool key_equal(const ndpad_wisdom_key *a, const ndpad_wisdom_key *b)
{
    return a->mode == b->mode && a->esize == b->esize && a->rank == b->rank &&
           a->out_log2 == b->out_log2 && a->row_log2 == b->row_log2 && a->isa == b->isa &&
           a->nthr == b->nthr;
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; s != NULL && *s != '\0'; s++) h = (h ^ (unsigned char)*s) * 0x100000001B3ull;
    return (h ^ 0xFF) * 0x100000001B3ull;
}

static char fingerprint[400];
static pthread_once_t fingerprint_once = PTHREAD_ONCE_INIT;

static void make_fingerprint(void)
{
    const ndpad_topology *topo = ndpad_topology_get();
    char model[sizeof(topo->cpu_model)];
    snprintf(model, sizeof(model), "%s", topo->cpu_model[0] != '\0' ? topo->cpu_model : "unknown");
    for (char *c = model; *c != '\0'; c++)
        if (*c == ' ' || *c == '\t' || *c == '=' || (unsigned char)*c < 32) *c = '_';
    /* The kernel list of every ISA level and element-size class. */
    uint64_t h = 0xCBF29CE484222325ull;
    static const size_t sizes[] = {1, 2, 4, 8, 16, 3};
    for (int isa = NDPAD_ISA_SCALAR; isa <= NDPAD_ISA_NEON; isa++)
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            const ndpad_kernels *k = ndpad_kernels_select((ndpad_isa)isa, sizes[s]);
            if (k == NULL) continue;
            h = fnv1a(h, k->copy_name);
            h = fnv1a(h, k->copy_stream_name);
            for (int m = 0; m < NDPAD_MODE_COUNT; m++) h = fnv1a(h, k->fill_name[m]);
        }
    snprintf(fingerprint, sizeof(fingerprint),
             "cpu=%s level=%s cores=%d l1d=%zu l2=%zu llc=%zu ndpad=%d.%d.%d kernels=%016llx",
             model, ndpad_isa_name(ndpad_isa_cpu_level()), topo->cores, topo->l1d_bytes,
             topo->l2_bytes, topo->llc_bytes, NDPAD_VERSION_MAJOR, NDPAD_VERSION_MINOR,
             NDPAD_VERSION_PATCH, (unsigned long long)h);
}

const char *ndpad_wisdom_fingerprint(void)
{
    pthread_once(&fingerprint_once, make_fingerprint);
    return fingerprint;
}

/* ---- the table ------------------------------------------------------------------------ */

static void store_locked(const entry *e, bool overwrite)
{
    for (size_t k = 0; k < table_count; k++)
        if (key_equal(&table[k].key, &e->key)) {
            if (overwrite) table[k] = *e;
            return;
        }
    if (table_count < MAX_ENTRIES) table[table_count++] = *e;
}

static bool find_locked(const ndpad_wisdom_key *key, entry *e)
{
    for (size_t k = 0; k < table_count; k++)
        if (key_equal(&table[k].key, key)) {
            *e = table[k];
            return true;
        }
    return false;
}

/* ---- parsing -------------------------------------------------------------------------- */

/* One class line, or false. */
static bool parse_class(const char *line, entry *e)
{
    char mode[16], isa[16];
    int esize, rank, out, row, nthr, threads, stream, used = -1;
    long long rows, cols;
    double gbps;
    const int n = sscanf(line,
                         "class mode=%15[a-z] esize=%d rank=%d out=%d row=%d isa=%15[a-z0-9] "
                         "nthr=%d tile_rows=%lld tile_cols=%lld threads=%d stream=%d "
                         "gbps=%lf %n",
                         mode, &esize, &rank, &out, &row, isa, &nthr, &rows, &cols, &threads,
                         &stream, &gbps, &used);
    if (n != 12 || used < 0 || line[used] != '\0') return false;
    const int m = ndpad_mode_parse(mode, strlen(mode));
    const int i = ndpad_isa_parse(isa);
    if (m < 0 || i < 1 || esize < 1 || rank < 1 || rank > NDPAD_MAX_RANK || out < 0 || out > 63 ||
        row < 0 || row > 63 || nthr < 1 || nthr > 65536 || rows < 1 || cols < 1 || threads < 1 ||
        threads > nthr || (stream != 0 && stream != 1) ||
        !(gbps >= 0 && gbps <= 1e9)) /* 1e9: what "%.3f" makes of 999999999.9996 */
        return false;
    e->key = (ndpad_wisdom_key){m, esize, rank, out, row, i, nthr};
    e->tile = (ndpad_tile){.rows = rows, .cols = cols, .threads = threads, .stream = stream};
    e->gbps = gbps;
    return true;
}

typedef struct parsed {
    entry *entries;
    size_t count, cap;
    int bad_lines;
} parsed;

/* Parse `text` (of `length` bytes, need not be NUL-terminated). Returns NULL on success or
 * the reason the whole text is rejected. */
static const char *parse_text(const char *text, size_t length, parsed *p)
{
    char line[MAX_LINE];
    size_t pos = 0;
    int line_no = 0;
    p->count = 0, p->bad_lines = 0;
    while (pos < length) {
        const char *start = text + pos;
        const char *nl = memchr(start, '\n', length - pos);
        const size_t len = nl != NULL ? (size_t)(nl - start) : length - pos;
        pos += len + (nl != NULL);
        line_no++;
        /* A last line without its newline was cut short: skip it. */
        const bool whole = nl != NULL && len < sizeof(line) && memchr(start, '\0', len) == NULL;
        if (whole) {
            memcpy(line, start, len);
            line[len] = '\0';
            if (len > 0 && line[len - 1] == '\r') line[len - 1] = '\0';
        }
        if (line_no == 1) {
            int version = 0, used = -1;
            if (!whole || sscanf(line, "ndpad-wisdom %d%n", &version, &used) != 1 ||
                line[used] != '\0')
                return "is not ndpad wisdom (no \"ndpad-wisdom <version>\" first line)";
            if (version != NDPAD_WISDOM_VERSION) return "has another format version";
            continue;
        }
        if (line_no == 2) {
            if (!whole || strncmp(line, "machine ", 8) != 0)
                return "is truncated or corrupt (no machine line)";
            if (strcmp(line + 8, ndpad_wisdom_fingerprint()) != 0)
                return "was made on another machine or ndpad build";
            continue;
        }
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
        if (p->count == p->cap) {
            const size_t cap = p->cap ? 2 * p->cap : 64;
            if (cap > MAX_ENTRIES) {
                p->bad_lines++;
                continue;
            }
            entry *grown = ndpad_realloc(p->entries, cap * sizeof(*grown));
            if (grown == NULL) return "could not be read (out of memory)";
            p->entries = grown, p->cap = cap;
        }
        p->entries[p->count++] = e;
    }
    if (line_no < 2) return "is truncated or corrupt (no machine line)";
    return NULL;
}

/* Reads a whole file into memory; NULL with errno set on failure. */
static char *read_file(const char *path, size_t *length, const char **why)
{
    FILE *f = fopen(path, "rb");
    *why = NULL;
    if (f == NULL) {
        *why = errno == ENOENT ? "does not exist" : "cannot be opened";
        return NULL;
    }
    char *buf = ndpad_malloc((size_t)MAX_FILE + 1);
    if (buf == NULL) {
        fclose(f);
        *why = "could not be read (out of memory)";
        return NULL;
    }
    const size_t n = fread(buf, 1, (size_t)MAX_FILE + 1, f);
    const bool error = ferror(f);
    fclose(f);
    if (error || n > (size_t)MAX_FILE) {
        ndpad_free(buf);
        *why = error ? "could not be read" : "is too large to be wisdom";
        return NULL;
    }
    *length = n;
    return buf;
}

/* Parse and merge into the table (caller holds the mutex). On rejection, writes the
 * warning to `warn` and returns false. Bad lines give a warning but the file counts. */
static bool import_text_locked(const char *text, size_t length, const char *origin, bool overwrite,
                               char *warn, size_t warn_size)
{
    parsed p = {0};
    const char *why = parse_text(text, length, &p);
    if (why != NULL) {
        snprintf(warn, warn_size, "wisdom %s %s; ignored, using heuristic tiles", origin, why);
        ndpad_free(p.entries);
        return false;
    }
    for (size_t k = 0; k < p.count; k++) store_locked(&p.entries[k], overwrite);
    if (p.bad_lines > 0)
        snprintf(warn, warn_size, "wisdom %s: skipped %d malformed or truncated line%s", origin,
                 p.bad_lines, p.bad_lines == 1 ? "" : "s");
    ndpad_free(p.entries);
    return true;
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

static void load_default_locked(char *warn, size_t warn_size)
{
    char path[PATH_MAX];
    table_loaded = true;
    const size_t n = ndpad_wisdom_path(path, sizeof(path));
    if (n == 0 || n >= sizeof(path)) {
        snprintf(warn, warn_size,
                 "no wisdom location ($NDPAD_WISDOM, $XDG_CACHE_HOME, $HOME "
                 "unset); using heuristic tiles");
        return;
    }
    size_t length = 0;
    const char *why;
    char *text = read_file(path, &length, &why);
    char origin[320];
    snprintf(origin, sizeof(origin), "file %.300s", path);
    if (text == NULL) {
        snprintf(warn, warn_size, "wisdom %s %s; using heuristic tiles", origin, why);
        return;
    }
    /* Entries already in memory (imported, measured) are newer than the file's. */
    import_text_locked(text, length, origin, false, warn, warn_size);
    ndpad_free(text);
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

/* Remember `tile` for `key` in memory (replacing an older entry). */
static void ndpad_wisdom_store(const ndpad_wisdom_key *key, ndpad_tile tile, double gbps)
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

int ndpad_wisdom_import_string(const char *text)
{
    const char *const caller = __func__;
    if (text == NULL) {
        ndpad_set_error(NDPAD_ERR_NULL_ARGUMENT, caller, "text is NULL");
        return 0;
    }
    char warn[600] = "";
    pthread_mutex_lock(&table_mutex);
    const bool ok = import_text_locked(text, strlen(text), "string", true, warn, sizeof(warn));
    pthread_mutex_unlock(&table_mutex);
    if (warn[0] != '\0') ndpad_wisdom_warn(warn);
    if (!ok) ndpad_set_error(NDPAD_ERR_OPTIONS, caller, "%s", warn);
    return ok;
}

int ndpad_wisdom_import_file(const char *path)
{
    const char *const caller = __func__;
    if (path == NULL) {
        ndpad_set_error(NDPAD_ERR_NULL_ARGUMENT, caller, "path is NULL");
        return 0;
    }
    char warn[PATH_MAX + 200] = "";
    size_t length = 0;
    const char *why;
    char *text = read_file(path, &length, &why);
    bool ok = false;
    if (text == NULL) {
        snprintf(warn, sizeof(warn), "wisdom file %.300s %s", path, why);
    } else {
        char origin[320];
        snprintf(origin, sizeof(origin), "file %.300s", path);
        pthread_mutex_lock(&table_mutex);
        ok = import_text_locked(text, length, origin, true, warn, sizeof(warn));
        pthread_mutex_unlock(&table_mutex);
        ndpad_free(text);
    }
    if (warn[0] != '\0') ndpad_wisdom_warn(warn);
    if (!ok) ndpad_set_error(NDPAD_ERR_OPTIONS, caller, "%s", warn);
    return ok;
}

/* ---- export and save ------------------------------------------------------------------ */

static size_t export_locked(char *buf, size_t size)
{
    text t = {.buf = buf, .size = buf != NULL ? size : 0};
    if (t.size > 0) buf[0] = '\0';
    put(&t, "ndpad-wisdom %d\nmachine %s\n", NDPAD_WISDOM_VERSION, ndpad_wisdom_fingerprint());
    for (size_t k = 0; k < table_count; k++) {
        const entry *e = &table[k];
        char key[160];
        ndpad_wisdom_key_format(&e->key, key, sizeof(key));
        put(&t, "class %s tile_rows=%lld tile_cols=%lld threads=%d stream=%d gbps=%.3f\n", key,
            (long long)e->tile.rows, (long long)e->tile.cols, (int)e->tile.threads,
            (int)e->tile.stream, e->gbps);
    }
    return t.length;
}

size_t ndpad_wisdom_export_string(char *buf, size_t size)
{
    char warn[600] = "";
    pthread_mutex_lock(&table_mutex);
    if (!table_loaded) load_default_locked(warn, sizeof(warn));
    const size_t n = export_locked(buf, size);
    pthread_mutex_unlock(&table_mutex);
    if (warn[0] != '\0') ndpad_wisdom_warn(warn);
    return n;
}

static void make_parent_dirs(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", path);
    for (char *p = dir + 1; *p != '\0'; p++) {
        if (*p != '/') continue;
        *p = '\0';
        mkdir(dir, 0755); /* EEXIST and friends: the open below reports real failures */
        *p = '/';
    }
}

bool ndpad_wisdom_save(const char *path, const char *caller)
{
    char default_path[PATH_MAX], lock_path[PATH_MAX + 8], tmp_path[PATH_MAX + 16];
    char warn[600] = "";
    int lock_fd = -1, fd = -1;
    char *out = NULL;
    bool ok = false;
    if (path == NULL) {
        const size_t n = ndpad_wisdom_path(default_path, sizeof(default_path));
        if (n == 0 || n >= sizeof(default_path)) {
            ndpad_set_error(NDPAD_ERR_OPTIONS, caller, "no wisdom location: set NDPAD_WISDOM");
            return false;
        }
        path = default_path;
    }
    if (strlen(path) >= PATH_MAX) {
        ndpad_set_error(NDPAD_ERR_OPTIONS, caller, "wisdom path is too long");
        return false;
    }
    make_parent_dirs(path);
    snprintf(lock_path, sizeof(lock_path), "%s.lock", path);
    snprintf(tmp_path, sizeof(tmp_path), "%s.tmp.XXXXXX", path);

    lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock_fd < 0) {
        ndpad_set_error(NDPAD_ERR_OPTIONS, caller, "cannot create the lock file %s: %s", lock_path,
                        strerror(errno));
        goto done;
    }
    while (flock(lock_fd, LOCK_EX) != 0)
        if (errno != EINTR) {
            ndpad_set_error(NDPAD_ERR_OPTIONS, caller, "cannot lock %s: %s", lock_path,
                            strerror(errno));
            goto done;
        }

    /* Merge: what is on disk (if it is ours) joins memory; memory wins for a class both
     * hold, since it was measured later. */
    size_t length = 0;
    const char *why;
    char *disk = read_file(path, &length, &why);
    parsed p = {0};
    if (disk != NULL && parse_text(disk, length, &p) != NULL) p.count = 0;
    ndpad_free(disk);

    pthread_mutex_lock(&table_mutex);
    if (!table_loaded) load_default_locked(warn, sizeof(warn));
    for (size_t k = 0; k < p.count; k++) {
        store_locked(&p.entries[k], false);
    }
    const size_t size = export_locked(NULL, 0) + 1;
    out = malloc(size);
    if (out != NULL) export_locked(out, size);
    pthread_mutex_unlock(&table_mutex);
    ndpad_free(p.entries);
    if (out == NULL) {
        ndpad_set_error(NDPAD_ERR_OUT_OF_MEMORY, caller, "no memory to export the wisdom");
        goto done;
    }

    fd = mkstemp(tmp_path);
    if (fd < 0) {
        ndpad_set_error(NDPAD_ERR_OPTIONS, caller, "cannot create %s: %s", tmp_path,
                        strerror(errno));
        goto done;
    }
    fchmod(fd, 0644);
    const size_t total = strlen(out);
    size_t written = 0;
    while (written < total) {
        const ssize_t n = write(fd, out + written, total - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        written += (size_t)n;
    }
    if (written != total || fsync(fd) != 0 || close(fd) != 0) {
        fd = -1;
        ndpad_set_error(NDPAD_ERR_OPTIONS, caller, "cannot write %s: %s", tmp_path,
                        strerror(errno));
        unlink(tmp_path);
        goto done;
    }
    fd = -1;
    if (rename(tmp_path, path) != 0) {
        ndpad_set_error(NDPAD_ERR_OPTIONS, caller, "cannot rename %s to %s: %s", tmp_path, path,
                        strerror(errno));
        unlink(tmp_path);
        goto done;
    }
    ok = true;
done:
    if (fd >= 0) close(fd);
    if (lock_fd >= 0) close(lock_fd); /* releases the flock */
    free(out);
    if (warn[0] != '\0') ndpad_wisdom_warn(warn);
    return ok;
}

int ndpad_wisdom_export_file(const char *path)
{
    if (path == NULL) {
        ndpad_set_error(NDPAD_ERR_NULL_ARGUMENT, __func__, "path is NULL");
        return 0;
    }
    return ndpad_wisdom_save(path, __func__);
}

/* ---- tiles ---------------------------------------------------------------------------- */

ndpad_tile ndpad_tile_fit(const ndpad_plan *plan, ndpad_tile tile)
{
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const int64_t rows = plan->rows > 0 ? plan->rows : 1, n = row->n > 0 ? row->n : 1;
    if (tile.rows < 1) tile.rows = 1;
    if (tile.rows > rows) tile.rows = rows;
    if (tile.cols < 1) tile.cols = 1;
    if (tile.cols > n) tile.cols = n;
    if (tile.threads > plan->max_threads) tile.threads = plan->max_threads;
    const int64_t out_bytes = plan->empty ? 0 : rows * n * (int64_t)plan->elem_size;
    if (tile.threads < 1 || out_bytes < NDPAD_TINY_BYTES) tile.threads = 1;
    tile.stream = tile.stream != 0;
    return tile;
}

/* ---- candidates ----------------------------------------------------------------------- */

static int64_t ceil_div(int64_t a, int64_t b)
{
    return a / b + (a % b != 0);
}

typedef struct scored {
    ndpad_tile tile;
    double score;
} scored;

static int by_score(const void *a, const void *b)
{
    const double x = ((const scored *)a)->score, y = ((const scored *)b)->score;
    return (x > y) - (x < y);
}

static void add_unique(int64_t *list, int *count, int cap, int64_t v, int64_t hi)
{
    if (v < 1) v = 1;
    if (v > hi) v = hi;
    for (int k = 0; k < *count; k++)
        if (list[k] == v) return;
    if (*count < cap) list[(*count)++] = v;
}

size_t ndpad_tune_candidates(const ndpad_plan *plan, int32_t max_threads, ndpad_tile *out,
                             size_t cap)
{
    const ndpad_topology *topo = ndpad_topology_get();
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const int64_t rows = plan->rows > 0 ? plan->rows : 1, n = row->n > 0 ? row->n : 1;
    const int64_t es = (int64_t)plan->elem_size;
    const int64_t row_bytes = n * es, out_bytes = rows * row_bytes;
    const int64_t l2 = topo->l2_bytes ? (int64_t)topo->l2_bytes : 512 * 1024;
    const int64_t llc = topo->llc_bytes ? (int64_t)topo->llc_bytes : 8 * l2;
    if (max_threads < 1) max_threads = 1;
    if (out_bytes < NDPAD_TINY_BYTES) max_threads = 1;

    int32_t threads[16];
    int nthreads = 0;
    for (int32_t t = 1; t < max_threads && nthreads < 15; t *= 2) threads[nthreads++] = t;
    threads[nthreads++] = max_threads;

    /* Column splits of long rows: pieces of at least 4 KiB. */
    int64_t cols[8];
    int ncols = 0;
    for (int64_t s = 1; s <= 16 && ncols < 8; s *= 2) {
        if (s > 1 && row_bytes / s < 4096) break;
        add_unique(cols, &ncols, 8, ceil_div(n, s), n);
    }

    scored *all = malloc(sizeof(*all) * 2 * 16 * 8 * 24);
    if (all == NULL) return 0;
    size_t count = 0;
    for (int c = 0; c < ncols; c++) {
        /* Tile rows: powers of two around a base that fills half the L2, plus even
         * splits of the rows over the threads. */
        const int64_t tile_row_bytes = cols[c] * es;
        const int64_t base = (l2 / 2) / tile_row_bytes > 0 ? (l2 / 2) / tile_row_bytes : 1;
        for (int t = 0; t < nthreads; t++) {
            int64_t rl[24];
            int nr = 0;
            for (int k = -3; k <= 3; k++)
                add_unique(rl, &nr, 24, k < 0 ? base >> -k : base << k, rows);
            for (int64_t m = 1; m <= 8; m *= 2)
                add_unique(rl, &nr, 24, ceil_div(rows, threads[t] * m), rows);
            add_unique(rl, &nr, 24, rows, rows);
            for (int r = 0; r < nr; r++) {
                const int64_t tile_bytes = rl[r] * tile_row_bytes;
                const int64_t tiles = ceil_div(rows, rl[r]) * ceil_div(n, cols[c]);
                if (tiles < threads[t]) continue;                /* idle threads */
                if (tile_bytes > llc && tiles > 1) continue;     /* beyond the LLC */
                if (tile_bytes < 2048 && tiles > 4096) continue; /* all overhead */
                for (int32_t stream = 0; stream <= 1; stream++) {
                    if (stream && out_bytes < l2) continue; /* stays cached */
                    scored *s = &all[count++];
                    s->tile = (ndpad_tile){rl[r], cols[c], threads[t], stream};
                    s->score = fabs(log2((double)tile_bytes / (double)(l2 / 2))) / 2 +
                               (threads[t] != max_threads) * 1.0 + (c > 0) * 0.5 +
                               (stream != (out_bytes > llc)) * 0.75;
                }
            }
        }
    }
    qsort(all, count, sizeof(*all), by_score);
    if (count > cap) count = cap;
    for (size_t k = 0; k < count; k++) out[k] = all[k].tile;
    free(all);
    return count;
}

/* ---- measuring ------------------------------------------------------------------------ */

bool ndpad_scratch_alloc(const ndpad_plan *plan, ndpad_scratch *s)
{
    memset(s, 0, sizeof(*s));
    int64_t in_lo = 0, in_hi = 0, out_lo = 0, out_hi = 0;
    for (int32_t k = 0; k < plan->ndim; k++) {
        const ndpad_dim *a = &plan->dim[k];
        if (a->d > 0) {
            const int64_t span = (a->d - 1) * a->in_stride;
            if (span < 0)
                in_lo += span;
            else
                in_hi += span;
        }
        if (a->n > 0) {
            const int64_t span = (a->n - 1) * a->out_stride;
            if (span < 0)
                out_lo += span;
            else
                out_hi += span;
        }
    }
    const int64_t es = (int64_t)plan->elem_size;
    const int64_t in_size = in_hi - in_lo + es, out_size = out_hi - out_lo + es;
    s->in_block = ndpad_malloc((size_t)in_size + 64);
    s->out_block = ndpad_malloc((size_t)out_size + 64);
    if (s->in_block == NULL || s->out_block == NULL) {
        ndpad_scratch_free(s);
        return false;
    }
    memset(s->in_block, 1, (size_t)in_size + 64);
    memset(s->out_block, 0, (size_t)out_size + 64);
    s->in = plan->reads_input ? s->in_block - in_lo : NULL;
    s->out = s->out_block - out_lo;
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const int64_t out_bytes = plan->rows * row->n * es;
    int64_t interior = plan->reads_input ? es : 0;
    for (int32_t k = 0; k < plan->ndim && plan->reads_input; k++)
        interior *= plan->dim[k].copy_end - plan->dim[k].copy_begin;
    s->bytes_moved = out_bytes + interior;
    return true;
}

void ndpad_scratch_free(ndpad_scratch *s)
{
    ndpad_free(s->in_block);
    ndpad_free(s->out_block);
    s->in_block = s->out_block = NULL;
}

static int by_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* `tile` run once untimed, then up to `reps` timed runs appended to `times` (at least one,
 * fewer when `max_seconds` has passed); returns how many. The plan's tile is restored. */
static int time_runs(ndpad_plan *plan, ndpad_tile tile, const ndpad_scratch *s, int reps,
                     double max_seconds, double *times)
{
    const ndpad_tile saved = plan->tile;
    plan->tile = ndpad_tile_fit(plan, tile);
    ndpad_run(plan, s->in, s->out, false);
    const double start = ndpad_now();
    int n = 0;
    while (n < reps) {
        const double t0 = ndpad_now();
        ndpad_run(plan, s->in, s->out, false);
        const double t1 = ndpad_now();
        times[n++] = t1 - t0;
        if (t1 - start > max_seconds) break;
    }
    plan->tile = saved;
    return n;
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), by_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Upper over lower quartile of v[0..n) (sorted in place): 1 for steady timings, 2 and more
 * when some runs stall (another process takes the core). */
static double spread_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), by_double);
    const double low = v[n / 4], high = v[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1];
    return low > 0 ? high / low : 1.0;
}

static bool same_tile(const ndpad_tile *a, const ndpad_tile *b)
{
    return a->rows == b->rows && a->cols == b->cols && a->threads == b->threads &&
           a->stream == b->stream;
}

bool ndpad_tune_plan(ndpad_plan *plan, double budget_seconds, ndpad_tune_result *r,
                     ndpad_tune_progress_fn progress, void *user)
{
    memset(r, 0, sizeof(*r));
    const double start = ndpad_now(), deadline = start + budget_seconds;
    r->default_tile = ndpad_tile_fit(plan, ndpad_tile_default(plan));
    r->tuned_tile = r->default_tile;
    if (plan->empty) return true;
    ndpad_scratch s;
    if (!ndpad_scratch_alloc(plan, &s)) return false;
    ndpad_tile cands[MAX_CANDIDATES + 1];
    cands[0] = r->default_tile; /* the heuristic's tile is candidate 0 */
    int count = 1 + (int)ndpad_tune_candidates(plan, plan->max_threads, cands + 1, MAX_CANDIDATES);
    r->candidates = count - 1;
    /* Room for every run of the passes, reused by the confirmation's pairs and ratios. */
    const size_t rows_of_samples = (size_t)(count > 3 ? count : 3);
    double *samples = ndpad_malloc(sizeof(double) * rows_of_samples * PASSES * MAX_SLICE_RUNS);
    int *taken = ndpad_calloc((size_t)count, sizeof(int));
    if (samples == NULL || taken == NULL) {
        ndpad_free(samples);
        ndpad_free(taken);
        ndpad_scratch_free(&s);
        return false;
    }

    /* The search: PASSES round-robin passes over the candidates, a slice of a few runs of
     * each per pass, so that a load that comes and goes on a shared machine hits every
     * candidate alike; each candidate's time is the median of all its runs. It gets
     * SEARCH_SHARE of the budget; when that does not cover every candidate, the most
     * promising ones (the generator's order) are kept. The rest confirms the winner. */
    double first_runs[3];
    const int first = time_runs(plan, r->default_tile, &s, 3, INFINITY, first_runs);
    const double run = median_of(first_runs, first);
    const double per_run = run > 1e-7 ? run : 1e-7;
    const double search = budget_seconds * SEARCH_SHARE - (ndpad_now() - start);
    int slice_runs = (int)(search / (PASSES * (double)count * per_run)) - 1;
    if (slice_runs > MAX_SLICE_RUNS) slice_runs = MAX_SLICE_RUNS;
    if (slice_runs < MIN_SLICE_RUNS) {
        slice_runs = MIN_SLICE_RUNS;
        const int fits = (int)(search / (PASSES * (MIN_SLICE_RUNS + 1) * per_run));
        if (fits < count) count = fits > 1 ? fits : 1;
    }
    const double search_end = start + budget_seconds * SEARCH_SHARE;
    const double slice_cap = 4.0 * slice_runs * per_run; /* a stalled slice stops early */
    for (int pass = 0; pass < PASSES; pass++)
        for (int k = 0; k < count; k++) {
            if ((pass > 0 || k > 0) && ndpad_now() > search_end) break;
            taken[k] += time_runs(plan, cands[k], &s, slice_runs, slice_cap,
                                  samples + ((size_t)k * PASSES * MAX_SLICE_RUNS) + taken[k]);
            if (progress != NULL) progress(pass * count + k + 1, PASSES * count, user);
        }
    int best = 0;
    double best_time = median_of(samples, taken[0]);
    const double default_time = best_time;
    for (int k = 1; k < count; k++) {
        if (taken[k] < slice_runs) continue; /* not even one whole slice */
        const double t = median_of(samples + (size_t)k * PASSES * MAX_SLICE_RUNS, taken[k]);
        r->measured++;
        if (t < best_time) best_time = t, best = k;
    }
    const ndpad_tile best_tile = ndpad_tile_fit(plan, cands[best]);

    /* The winner must beat the default again in paired runs, one of each in turn (which
     * goes first alternates), so that both of a pair see the same load: the median of the
     * pairs' time ratios decides, and gives the reported speedup. A winner that is the
     * default's own shape is the default. */
    double def_time = default_time;
    bool won = false;
    if (!same_tile(&best_tile, &r->default_tile) && best_time < default_time * MARGIN) {
        const int pairs = CONFIRM_ROUNDS * slice_runs;
        double *a = samples, *b = samples + pairs, *ratio = samples + 2 * pairs;
        const ndpad_tile saved = plan->tile;
        const ndpad_tile both[2] = {r->default_tile, best_tile};
        for (int v = 0; v < 2; v++) { /* warm-up */
            plan->tile = both[v];
            ndpad_run(plan, s.in, s.out, false);
        }
        int n = 0;
        while (n < pairs && (n < MIN_SLICE_RUNS || ndpad_now() + 2 * per_run < deadline)) {
            for (int i = 0; i < 2; i++) {
                const int v = i ^ (n & 1);
                plan->tile = both[v];
                const double t0 = ndpad_now();
                ndpad_run(plan, s.in, s.out, false);
                (v == 0 ? a : b)[n] = ndpad_now() - t0;
            }
            ratio[n] = a[n] > 0 ? b[n] / a[n] : 1.0;
            n++;
        }
        plan->tile = saved;
        const double speedup_ratio = median_of(ratio, n);
        /* A load that comes and goes can make the other tile look better for a while (one
         * thread wins while a second core is taken): with spread timings, no verdict. */
        r->noisy = spread_of(a, n) > MAX_SPREAD || spread_of(b, n) > MAX_SPREAD;
        won = speedup_ratio < MARGIN && !r->noisy;
        def_time = median_of(a, n);
        best_time = def_time * speedup_ratio;
    }
    const double gb = (double)s.bytes_moved / 1e9;
    r->default_gbps = def_time > 0 ? gb / def_time : 0;
    if (won) {
        r->tuned_tile = best_tile;
        r->tuned_gbps = best_time > 0 ? gb / best_time : 0;
    } else {
        r->tuned_tile = r->default_tile;
        r->tuned_gbps = r->default_gbps;
    }
    ndpad_free(samples);
    ndpad_free(taken);
    ndpad_scratch_free(&s);
    const ndpad_wisdom_key key = ndpad_wisdom_key_of(plan);
    ndpad_wisdom_store(&key, r->tuned_tile, r->tuned_gbps);
    return true;
}
