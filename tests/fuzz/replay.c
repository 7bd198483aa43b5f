/*
 * replay.c — runs a fuzz target without libFuzzer (zstd's regression_driver.c): every file
 * named on the command line, and every regular file of every directory named (in name
 * order), is passed once to LLVMFuzzerTestOneInput. A finding aborts, so ctest sees the
 * failure; the corpus thus runs with any compiler (gcc included) and under valgrind.
 *
 *   fuzz-pad-replay tests/fuzz/corpus/pad [more files or directories]
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long replayed;

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    size_t capacity = 4096, size = 0;
    uint8_t *data = malloc(capacity);
    if (data == NULL) abort();
    for (;;) {
        if (size == capacity) {
            capacity *= 2;
            data = realloc(data, capacity);
            if (data == NULL) abort();
        }
        const size_t got = fread(data + size, 1, capacity - size, f);
        if (got == 0) break;
        size += got;
    }
    const int failed = ferror(f);
    fclose(f);
    if (failed) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        free(data);
        return 1;
    }
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, size);
    /* An exact-size copy, so that an over-read of the input is caught under ASan. */
    uint8_t *exact = malloc(size ? size : 1);
    if (exact == NULL) abort();
    memcpy(exact, data, size);
    free(data);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    replayed++;
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_directory(const char *path)
{
    DIR *dir = opendir(path);
    if (dir == NULL) {
        fprintf(stderr, "replay: cannot open directory %s\n", path);
        return 1;
    }
    size_t count = 0, capacity = 64;
    char **names = malloc(capacity * sizeof(*names));
    if (names == NULL) abort();
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        if (count == capacity) {
            capacity *= 2;
            names = realloc(names, capacity * sizeof(*names));
            if (names == NULL) abort();
        }
        const size_t length = strlen(path) + strlen(entry->d_name) + 2;
        names[count] = malloc(length);
        if (names[count] == NULL) abort();
        snprintf(names[count], length, "%s/%s", path, entry->d_name);
        count++;
    }
    closedir(dir);
    qsort(names, count, sizeof(*names), compare_names);
    int failures = 0;
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) failures += replay_file(names[i]);
        free(names[i]);
    }
    free(names);
    return failures;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s <file or directory>...\n", argv[0]);
        return 2;
    }
    int failures = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s does not exist\n", argv[i]);
            failures++;
        } else if (S_ISDIR(st.st_mode)) {
            failures += replay_directory(argv[i]);
        } else {
            failures += replay_file(argv[i]);
        }
    }
    printf("replay: %ld input(s) replayed, %d unreadable\n", replayed, failures);
    if (replayed == 0) {
        fprintf(stderr, "replay: no input found\n");
        return 1;
    }
    return failures ? 1 : 0;
}
