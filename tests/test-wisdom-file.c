/*
 * test-wisdom-file.c — the wisdom file can never destroy data or hang a process (issue 12,
 * defects 2, 3, 4, 6, 7, 8, 10): empty and over-long paths are errors that touch nothing;
 * a file that is not ndpad wisdom (or of a newer format) is never replaced; other
 * machines' sections survive a save, and format 2 is still read; a FIFO is refused
 * without blocking, with one warning; a symbolic link is never written through (lock or
 * wisdom file); new files get 0666 & ~umask and an existing file keeps its mode; a lock
 * file owned by another user still locks; numbers out of range reject their line.
 *
 * Every test works in its own temporary directory through $NDPAD_WISDOM. Each test that
 * could hang before the fix runs under alarm(), so a hang fails instead of stalling CI.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ndpad.h"
#include "test-util.h"
#include "measure.h" /* ndpad_tune_assume_noise */
#include "wisdom.h"

static char dir[256];
static char path[300];

static int log_calls;
static char log_last[600];
static void on_log(const char *message, void *user)
{
    (void)user;
    log_calls++;
    snprintf(log_last, sizeof(log_last), "%s", message);
}

static void write_text(const char *file, const char *text)
{
    FILE *f = fopen(file, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    fclose(f);
}

/* The file's bytes ("" for a missing file), NUL-terminated; free() it. */
static char *read_text(const char *file)
{
    char *buf = calloc(1, 1 << 16);
    assert_non_null(buf);
    FILE *f = fopen(file, "rb");
    if (f == NULL) return buf;
    const size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int entries_in(const char *directory)
{
    DIR *d = opendir(directory);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
    closedir(d);
    return n;
}

static int open_fds(void)
{
    return entries_in("/proc/self/fd");
}

static int setup(void **state)
{
    (void)state;
    /* MEASURE plans here must store (and save) even on a loaded machine. */
    ndpad_tune_assume_noise(0.0);
    snprintf(dir, sizeof(dir), "/tmp/ndpad-wisdom-file-XXXXXX");
    if (mkdtemp(dir) == NULL) return -1;
    snprintf(path, sizeof(path), "%s/wisdom", dir);
    setenv("NDPAD_WISDOM", path, 1);
    ndpad_wisdom_forget();
    log_calls = 0;
    ndpad_set_log_callback(on_log, NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    alarm(0);
    ndpad_set_log_callback(NULL, NULL);
    char command[400];
    snprintf(command, sizeof(command), "rm -rf '%s'", dir);
    if (system(command) != 0) return -1;
    ndpad_wisdom_forget();
    return 0;
}

/* "ndpad-wisdom 3\nmachine <this machine>\n". */
static void header(char *buf, size_t size)
{
    snprintf(buf, size, "ndpad-wisdom %d\nmachine %s\n", NDPAD_WISDOM_VERSION,
             ndpad_wisdom_fingerprint());
}

static const char *const our_class =
    "class mode=edge esize=4 rank=2 out=20 row=9 isa=scalar nthr=1 tile_rows=7 tile_cols=100 "
    "threads=1 stream=0 copy=vector path=auto prefetch=0 gbps=2.000\n";

/* A plan whose tile comes from the cache (to make the default file load). */
static void plan_once(int32_t tuning)
{
    const int64_t shape[2] = {300, 200}, pb[2] = {1, 2}, pe[2] = {2, 1};
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_EDGE,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe};
    ndpad_options o;
    ndpad_options_init(&o);
    o.tuning = tuning;
    ndpad_plan *plan = NULL;
    assert_int_equal(ndpad_plan_create(&p, &o, &plan), NDPAD_OK);
    ndpad_plan_destroy(plan);
}

/* ---- 2: empty and over-long paths ------------------------------------------------------ */

static void empty_and_long_paths_touch_nothing(void **state)
{
    (void)state;
    char cwd[PATH_MAX], work[300];
    assert_non_null(getcwd(cwd, sizeof(cwd)));
    snprintf(work, sizeof(work), "%s/cwd", dir);
    assert_int_equal(mkdir(work, 0700), 0);
    assert_int_equal(chdir(work), 0);

    assert_int_equal(ndpad_wisdom_save_file(""), NDPAD_ERR_IO);
    assert_true(test_contains(ndpad_last_error(), "ndpad_wisdom_save_file: path is empty"));
    assert_int_equal(ndpad_wisdom_export_file(""), 0);
    assert_int_equal(ndpad_wisdom_load_file(""), NDPAD_ERR_IO);
    assert_true(test_contains(ndpad_last_error(), "path is empty"));

    char *long_path = malloc(PATH_MAX + 100);
    assert_non_null(long_path);
    memset(long_path, 'a', PATH_MAX + 99);
    long_path[PATH_MAX + 99] = '\0';
    assert_int_equal(ndpad_wisdom_save_file(long_path), NDPAD_ERR_IO);
    assert_true(test_contains(ndpad_last_error(), "path is"));
    assert_int_equal(ndpad_wisdom_load_file(long_path), NDPAD_ERR_IO);
    long_path[PATH_MAX - 20] = '\0'; /* under PATH_MAX, but no room for ".lock.uid<n>" */
    assert_int_equal(ndpad_wisdom_save_file(long_path), NDPAD_ERR_IO);
    assert_int_equal(entries_in(work), 0); /* no ".lock", no directory, nothing */

    /* The same through $NDPAD_WISDOM: plans use the heuristic, a MEASURE plan warns. */
    setenv("NDPAD_WISDOM", long_path, 1);
    ndpad_wisdom_forget();
    log_calls = 0;
    plan_once(NDPAD_TUNING_CACHE);
    assert_int_equal(log_calls, 1);
    assert_true(test_contains(log_last, "$NDPAD_WISDOM"));
    plan_once(NDPAD_TUNING_MEASURE);
    assert_true(test_contains(log_last, "wisdom not saved"));
    assert_true(test_contains(log_last, "$NDPAD_WISDOM"));
    assert_int_equal(entries_in(work), 0);
    free(long_path);
    assert_int_equal(chdir(cwd), 0);
}

/* ---- 3: never replace what is not wisdom; keep other machines ---------------------------- */

static void notes_are_never_replaced(void **state)
{
    (void)state;
    static const char notes[] = "my notes\nndpad-wisdom 3 is not on the first line\n";
    write_text(path, notes);
    assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_ERR_IO);
    assert_true(test_contains(ndpad_last_error(), "not ndpad wisdom"));
    assert_true(test_contains(ndpad_last_error(), "not replaced"));
    char *now = read_text(path);
    assert_string_equal(now, notes);
    free(now);

    /* A MEASURE plan with the notes as its default file: warns, keeps them byte for byte. */
    ndpad_wisdom_forget();
    log_calls = 0;
    plan_once(NDPAD_TUNING_MEASURE);
    assert_true(test_contains(log_last, "not replaced"));
    now = read_text(path);
    assert_string_equal(now, notes);
    free(now);

    /* A newer format is not ours to rewrite either. */
    static const char newer[] = "ndpad-wisdom 99\nmachine x\nsomething new\n";
    write_text(path, newer);
    assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_ERR_IO);
    assert_true(test_contains(ndpad_last_error(), "newer"));
    now = read_text(path);
    assert_string_equal(now, newer);
    free(now);

    /* An empty file holds nothing to lose: it becomes wisdom. */
    write_text(path, "");
    assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_OK);
    now = read_text(path);
    assert_true(strncmp(now, "ndpad-wisdom 5\n", 15) == 0);
    free(now);
}

static void other_machines_sections_survive(void **state)
{
    (void)state;
    static const char other[] =
        "machine cpu=Other_CPU level=avx2 cores=64 l1d=32768 l2=1048576 llc=268435456 "
        "ndpad=0.1.0 kernels=0123456789abcdef\n"
        "class mode=wrap esize=2 rank=3 out=22 row=11 isa=avx2 nthr=64 tile_rows=3 "
        "tile_cols=9 threads=64 stream=1 gbps=77.000\n";
    /* An old (format 2) file of another machine, as a shared $HOME holds it. */
    char text[4096], head[1024];
    snprintf(text, sizeof(text), "ndpad-wisdom 2\n%s", other);
    write_text(path, text);
    header(head, sizeof(head));
    snprintf(text, sizeof(text), "%s%s", head, our_class);
    assert_int_equal(ndpad_wisdom_load_string(text), NDPAD_OK);
    assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_OK);
    char *now = read_text(path);
    assert_true(strncmp(now, "ndpad-wisdom 5\n", 15) == 0);
    assert_true(test_contains(now, other));     /* the other machine, verbatim */
    assert_true(test_contains(now, our_class)); /* and ours */
    free(now);

    /* A second save (a second machine type would do the same) keeps both again. */
    ndpad_wisdom_forget();
    assert_int_equal(ndpad_wisdom_load_file(path), NDPAD_OK);
    assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_OK);
    now = read_text(path);
    assert_true(test_contains(now, other));
    assert_true(test_contains(now, our_class));
    const char *first = strstr(now, "machine cpu=Other_CPU");
    assert_null(strstr(first + 1, "machine cpu=Other_CPU")); /* once, not duplicated */
    free(now);

    /* Format 2 of this machine is still read. */
    snprintf(text, sizeof(text), "ndpad-wisdom 2\nmachine %s\n%s", ndpad_wisdom_fingerprint(),
             our_class);
    write_text(path, text);
    ndpad_wisdom_forget();
    assert_int_equal(ndpad_wisdom_load_file(path), NDPAD_OK);
    char out[4096];
    ndpad_wisdom_export_string(out, sizeof(out));
    assert_true(test_contains(out, our_class));
}

/* ---- 4: FIFOs and other special files ------------------------------------------------- */

static void fifo_is_refused_without_blocking(void **state)
{
    (void)state;
    assert_int_equal(mkfifo(path, 0600), 0);
    alarm(20); /* before the fix the first plan blocked forever in open() */
    ndpad_wisdom_forget();
    log_calls = 0;
    plan_once(NDPAD_TUNING_CACHE);
    plan_once(NDPAD_TUNING_CACHE);
    assert_int_equal(log_calls, 1); /* one warning, not one per plan */
    assert_true(test_contains(log_last, "not a regular file"));
    assert_int_equal(ndpad_wisdom_load_file(path), NDPAD_ERR_IO);
    assert_true(test_contains(ndpad_last_error(), "not a regular file"));
    assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_ERR_IO);
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISFIFO(st.st_mode)); /* still the FIFO */
    /* A directory and a character device likewise. */
    assert_int_equal(ndpad_wisdom_load_file(dir), NDPAD_ERR_IO);
    assert_int_equal(ndpad_wisdom_load_file("/dev/zero"), NDPAD_ERR_IO);
    assert_true(test_contains(ndpad_last_error(), "not a regular file"));
    alarm(0);
}

/* ---- 6: symbolic links, descriptors ------------------------------------------------------ */

static void symbolic_links_are_never_written_through(void **state)
{
    (void)state;
    char lock[320], target[320], real[320];
    /* A planted lock symlink: ndpad must not create the file it points at. */
    snprintf(lock, sizeof(lock), "%s.lock", path);
    snprintf(target, sizeof(target), "%s/planted", dir);
    assert_int_equal(symlink(target, lock), 0);
    const int fds = open_fds();
    assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_ERR_IO);
    assert_true(test_contains(ndpad_last_error(), "symbolic link"));
    assert_int_equal(access(target, F_OK), -1);
    assert_int_equal(open_fds(), fds);
    unlink(lock);

    /* A symlinked wisdom file is read through, but never replaced by a regular file. */
    char head[1024], text[2048];
    header(head, sizeof(head));
    snprintf(text, sizeof(text), "%s%s", head, our_class);
    snprintf(real, sizeof(real), "%s/real-wisdom", dir);
    write_text(real, text);
    assert_int_equal(symlink(real, path), 0);
    ndpad_wisdom_forget();
    assert_int_equal(ndpad_wisdom_load_file(path), NDPAD_OK);
    assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_ERR_IO);
    assert_true(test_contains(ndpad_last_error(), "symbolic link"));
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    char *now = read_text(real);
    assert_string_equal(now, text);
    free(now);
    /* A save that works leaves no descriptor open (all are closed or O_CLOEXEC). */
    unlink(path);
    assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_OK);
    assert_int_equal(open_fds(), fds);
}

/* ---- 7: permissions ------------------------------------------------------------------- */

static mode_t mode_of(const char *file)
{
    struct stat st;
    assert_int_equal(stat(file, &st), 0);
    return st.st_mode & 07777;
}

static void files_honour_the_umask(void **state)
{
    (void)state;
    const mode_t old = umask(027);
    assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_OK);
    assert_int_equal(mode_of(path), 0640);
    char lock[320];
    snprintf(lock, sizeof(lock), "%s.lock", path);
    assert_int_equal(mode_of(lock), 0640);
    unlink(path);
    umask(0);
    assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_OK);
    assert_int_equal(mode_of(path), 0666);
    /* A file the user made private stays private. */
    assert_int_equal(chmod(path, 0600), 0);
    assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_OK);
    assert_int_equal(mode_of(path), 0600);
    umask(old);
}

/* ---- 8: a lock file owned by someone else ------------------------------------------------ */

static void someone_elses_lock_still_locks(void **state)
{
    (void)state;
    assert_int_equal(chmod(dir, 0777), 0);                    /* a directory writable by all */
    assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_OK); /* makes the lock */
    char lock[320];
    snprintf(lock, sizeof(lock), "%s.lock", path);
    char head[1024], text[2048];
    header(head, sizeof(head));
    snprintf(text, sizeof(text), "%s%s", head, our_class);
    if (geteuid() == 0) {
        /* Root made the lock (0644): a second user can only open it read-only. */
        const pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            alarm(20);
            if (setgid(65534) != 0 || setuid(65534) != 0) _exit(10);
            if (ndpad_wisdom_load_string(text) != NDPAD_OK) _exit(11);
            _exit(ndpad_wisdom_save_file(path) == NDPAD_OK ? 0 : 12);
        }
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    } else {
        /* Not root: a lock this user may not write is the same case. */
        assert_int_equal(chmod(lock, 0444), 0);
        assert_int_equal(ndpad_wisdom_load_string(text), NDPAD_OK);
        assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_OK);
        /* Not even readable: a per-user lock, with a warning that says so. */
        assert_int_equal(chmod(lock, 0), 0);
        log_calls = 0;
        assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_OK);
        assert_true(test_contains(log_last, "does not exclude other users"));
    }
    char *now = read_text(path);
    assert_true(test_contains(now, our_class));
    free(now);
}

/* ---- 10: numbers out of range ----------------------------------------------------------- */

static void out_of_range_numbers_reject_the_line(void **state)
{
    (void)state;
    char head[1024], text[8192], out[8192];
    header(head, sizeof(head));
    /* esize=4294967300 wrapped to 4 through sscanf("%d") and replaced the real entry. */
    snprintf(text, sizeof(text),
             "%s%s"
             "class mode=edge esize=4294967300 rank=2 out=20 row=9 isa=scalar nthr=1 "
             "tile_rows=1 tile_cols=1 threads=1 stream=0 gbps=9.000\n"
             "class mode=edge esize=4 rank=4294967298 out=20 row=9 isa=scalar nthr=1 "
             "tile_rows=1 tile_cols=1 threads=1 stream=0 gbps=9.000\n"
             "class mode=edge esize=4 rank=2 out=20 row=9 isa=scalar nthr=4294967297 "
             "tile_rows=1 tile_cols=1 threads=1 stream=0 gbps=9.000\n"
             "class mode=edge esize=4 rank=2 out=20 row=9 isa=scalar nthr=1 "
             "tile_rows=99999999999999999999 tile_cols=1 threads=1 stream=0 gbps=9.000\n"
             "class mode=edge esize=4 rank=2 out=20 row=9 isa=scalar nthr=1 "
             "tile_rows=1 tile_cols=1 threads=4294967297 stream=0 gbps=9.000\n"
             "class mode=edge esize=+4 rank=2 out=20 row=9 isa=scalar nthr=1 "
             "tile_rows=1 tile_cols=1 threads=1 stream=0 gbps=9.000\n"
             "class mode=edge esize= 4 rank=2 out=20 row=9 isa=scalar nthr=1 "
             "tile_rows=1 tile_cols=1 threads=1 stream=0 gbps=9.000\n"
             "class mode=edge esize=4 rank=2 out=20 row=9 isa=scalar nthr=1 "
             "tile_rows=1 tile_cols=1 threads=1 stream=0 gbps=0x10\n",
             head, our_class);
    log_calls = 0;
    assert_int_equal(ndpad_wisdom_load_string(text), NDPAD_OK);
    if (!test_contains(log_last, "skipped 8")) fail_msg("warning: %s", log_last);
    ndpad_wisdom_export_string(out, sizeof(out));
    assert_true(test_contains(out, our_class)); /* the real entry, not replaced */
    assert_null(strstr(out, "gbps=9.000"));
}

/* ---- statuses (issue 11 item 5) --------------------------------------------------------- */

static void wisdom_calls_report_statuses(void **state)
{
    (void)state;
    assert_int_equal(NDPAD_ERR_IO, 17); /* pinned: appended after OUT_OF_MEMORY = 16 */
    assert_true(test_contains(ndpad_status_string(NDPAD_ERR_IO), "NDPAD_ERR_IO"));
    char missing[320];
    snprintf(missing, sizeof(missing), "%s/none", dir);
    assert_int_equal(ndpad_wisdom_load_file(missing), NDPAD_ERR_IO);
    assert_true(test_contains(ndpad_last_error(), "ndpad_wisdom_load_file: wisdom file"));
    assert_true(test_contains(ndpad_last_error(), "does not exist"));
    assert_int_equal(ndpad_wisdom_import_file(missing), 0); /* the int alias */
    assert_true(test_contains(ndpad_last_error(), "ndpad_wisdom_import_file"));
    assert_int_equal(ndpad_wisdom_load_file(NULL), NDPAD_ERR_NULL_ARGUMENT);
    assert_int_equal(ndpad_wisdom_load_string(NULL), NDPAD_ERR_NULL_ARGUMENT);
    assert_int_equal(ndpad_wisdom_save_file(NULL), NDPAD_ERR_NULL_ARGUMENT);
    assert_int_equal(ndpad_wisdom_load_string("not wisdom\n"), NDPAD_ERR_IO);
    assert_int_equal(ndpad_wisdom_import_string("not wisdom\n"), 0);
    assert_int_equal(ndpad_wisdom_save_file(path), NDPAD_OK);
    assert_int_equal(ndpad_wisdom_export_file(path), 1);
    assert_int_equal(ndpad_wisdom_load_file(path), NDPAD_OK);
    assert_int_equal(ndpad_wisdom_import_file(path), 1);
    /* Unwritable: a directory where the file should be created. */
    char blocked[320];
    snprintf(blocked, sizeof(blocked), "%s/file-not-dir", dir);
    write_text(blocked, "x");
    snprintf(missing, sizeof(missing), "%s/file-not-dir/wisdom", dir);
    assert_int_equal(ndpad_wisdom_save_file(missing), NDPAD_ERR_IO);
    assert_true(test_contains(ndpad_last_error(), "ndpad_wisdom_save_file: cannot open the lock"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(empty_and_long_paths_touch_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(notes_are_never_replaced, setup, teardown),
        cmocka_unit_test_setup_teardown(other_machines_sections_survive, setup, teardown),
        cmocka_unit_test_setup_teardown(fifo_is_refused_without_blocking, setup, teardown),
        cmocka_unit_test_setup_teardown(symbolic_links_are_never_written_through, setup, teardown),
        cmocka_unit_test_setup_teardown(files_honour_the_umask, setup, teardown),
        cmocka_unit_test_setup_teardown(someone_elses_lock_still_locks, setup, teardown),
        cmocka_unit_test_setup_teardown(out_of_range_numbers_reject_the_line, setup, teardown),
        cmocka_unit_test_setup_teardown(wisdom_calls_report_statuses, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
