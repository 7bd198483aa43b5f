/*
 * test-isa-override.c — the forced instruction-set level is the one that runs (simdjson's
 * tests/checkimplementation.cpp). ctest registers this program once per NDPAD_ISA value
 * (each level of src/isa-levels.inc, auto, bogus, and unset); each run checks what that value
 * must give on this CPU and build:
 *
 *   a level the CPU and build have   plans with default options run exactly that level:
 *                                    ndpad_plan_isa(), "isa <name>" and the kernel names in
 *                                    ndpad_plan_describe(), and a result equal to the reference;
 *   a level either lacks, or an      plan creation (and ndpad_pad) fails with
 *   unknown name                     NDPAD_ERR_ISA_UNAVAILABLE, ndpad_last_error() names
 *                                    NDPAD_ISA, nothing is written, nothing crashes;
 *   auto, empty or unset             the best level, as determined here independently
 *                                    (the /proc/cpuinfo flags isa-levels.inc names on
 *                                    x86-64, NEON on AArch64; the last level of the list
 *                                    that is available).
 *
 * Every run also checks each value in-process (setenv), that options.isa overrides the
 * environment, and that options.isa = a level not available here is NDPAD_ERR_ISA_UNAVAILABLE.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>

#include <stdio.h>

#include "kernels/kernels.h"
#include "ndpad.h"
#include "ref/ndpad-ref.h"
#include "test-util.h"

typedef struct level_info {
    ndpad_isa isa, parent;
    const char *arch;    /* "x86", "aarch64" or "any" */
    const char *cpuinfo; /* flags the level adds to its parent's */
} level_info;

static const level_info level_list[] = {
#define NDPAD_ISA_LEVEL(ID, name, PARENT, arch, width, cpuinfo, ...)                               \
    {NDPAD_ISA_##ID, NDPAD_ISA_##PARENT, #arch, cpuinfo},
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
};
enum { LEVEL_COUNT = sizeof(level_list) / sizeof(level_list[0]) };

static const ndpad_isa levels[] = {
#define NDPAD_ISA_LEVEL(ID, ...) NDPAD_ISA_##ID,
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
};

/* One past the largest level: the first value that is no ndpad_isa. */
static int32_t first_non_level(void)
{
    int32_t max = 0;
    for (int k = 0; k < LEVEL_COUNT; k++)
        if ((int32_t)levels[k] > max) max = (int32_t)levels[k];
    return max + 1;
}

static const level_info *info_of(ndpad_isa isa)
{
    for (int k = 0; k < LEVEL_COUNT; k++)
        if (level_list[k].isa == isa) return &level_list[k];
    return NULL;
}

/* ---- what this build and CPU have, found without asking ndpad ------------------------ */

/* Built: the compiled kernel list has entries of the level (they exist only under the
 * level's NDPAD_HAVE_<ISA>). */
static bool built_with(ndpad_isa isa)
{
    if (isa == NDPAD_ISA_SCALAR) return true;
    for (size_t k = 0; k < ndpad_filler_list_count; k++)
        if (ndpad_filler_list[k].isa == isa) return true;
    for (size_t k = 0; k < ndpad_copy_list_count; k++)
        if (ndpad_copy_list[k].isa == isa) return true;
    for (size_t k = 0; k < ndpad_stream_list_count; k++)
        if (ndpad_stream_list[k].isa == isa) return true;
    return false;
}

#if defined(__x86_64__) || defined(__i386__)
/* Whether the space-separated `flags` are all among the CPU's /proc/cpuinfo flags. */
static bool cpuinfo_has(const char *flags)
{
    static char line[8192];
    static bool read_once;
    if (!read_once) {
        read_once = true;
        FILE *f = fopen("/proc/cpuinfo", "r");
        if (f == NULL) fail_msg("cannot read /proc/cpuinfo to know what this CPU runs");
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "flags", 5) == 0) break;
        fclose(f);
        char *end = line + strlen(line);
        if (end > line && end[-1] == '\n') end[-1] = ' '; /* every flag ends with a space */
    }
    char want[64];
    for (const char *p = flags; *p;) {
        size_t n = strcspn(p, " ");
        if (n > 0) {
            snprintf(want, sizeof want, " %.*s ", (int)n, p);
            if (strstr(line, want) == NULL) return false;
        }
        p += n;
        while (*p == ' ') p++;
    }
    return true;
}
#endif

/* The CPU runs the level and all its parents (x86-64: their /proc/cpuinfo flags; AArch64:
 * Advanced SIMD is part of the base architecture). */
static bool cpu_runs(ndpad_isa isa)
{
    for (const level_info *l = info_of(isa); l != NULL; l = info_of(l->parent)) {
#if defined(__x86_64__) || defined(__i386__)
        if (strcmp(l->arch, "aarch64") == 0 || !cpuinfo_has(l->cpuinfo)) return false;
#elif defined(__aarch64__)
        if (strcmp(l->arch, "x86") == 0) return false;
#else
        if (strcmp(l->arch, "any") != 0) return false;
#endif
        if (l->parent == l->isa) return true;
    }
    return false;
}

static bool expect_available(ndpad_isa isa)
{
    return built_with(isa) && cpu_runs(isa);
}

/* The last level of the list available here (the list's preference order). */
static ndpad_isa expected_best(void)
{
    for (int k = LEVEL_COUNT - 1; k > 0; k--)
        if (expect_available(levels[k])) return levels[k];
    return NDPAD_ISA_SCALAR;
}

static int level_of(const char *name)
{
    for (int k = 0; k < LEVEL_COUNT; k++)
        if (strcmp(name, ndpad_isa_name(levels[k])) == 0) return (int)levels[k];
    return -1;
}

/* ---- a plan and what it says about itself ---------------------------------------------- */

/* A 2-D float REFLECT problem with borders on the row axis and a dense interior, so that the
 * description names a filler and the interior copy of the plan's level (4-byte elements have
 * their own kernels in every ISA). */
static const int64_t shape[2] = {5, 37}, pads_begin[2] = {1, 3}, pads_end[2] = {2, 4};
enum { IN_COUNT = 5 * 37, OUT_COUNT = 8 * 44 };

static ndpad_problem problem(void)
{
    const ndpad_problem p = {.rank = 2,
                             .mode = NDPAD_REFLECT,
                             .elem_size = sizeof(float),
                             .shape = shape,
                             .pads_begin = pads_begin,
                             .pads_end = pads_end};
    return p;
}

/* Whether `name` (not NUL-terminated, n bytes) names `isa` or a level it inherits from. */
static bool names_level_or_ancestor(const char *name, size_t n, ndpad_isa isa)
{
    for (const level_info *l = info_of(isa); l != NULL; l = info_of(l->parent)) {
        const char *level = ndpad_isa_name(l->isa);
        if (n == strlen(level) && strncmp(name, level, n) == 0) return true;
        if (l->parent == l->isa) break;
    }
    return false;
}

/* "isa <name>" as a whole word, and every kernel named "..._<x>__<isa>" is of that level or
 * of a level it inherits kernels from (isa-levels.inc's parents). */
static void expect_described_as(const ndpad_plan *plan, ndpad_isa isa)
{
    char text[4096];
    const size_t length = ndpad_plan_describe(plan, text, sizeof text);
    assert_true(length > 0 && length < sizeof text);
    const char *name = ndpad_isa_name(isa);
    char word[32];
    snprintf(word, sizeof word, "isa %s", name);
    const char *at = strstr(text, word);
    if (at == NULL || isalnum((unsigned char)at[strlen(word)]) || at[strlen(word)] == '_')
        fail_msg("ndpad_plan_describe() does not say \"%s\":\n%s", word, text);

    int kernels = 0;
    for (const char *p = strstr(text, "__"); p != NULL; p = strstr(p + 2, "__")) {
        size_t n = 0;
        while (isalnum((unsigned char)p[2 + n])) n++;
        if (!names_level_or_ancestor(p + 2, n, isa))
            fail_msg("plan at %s uses the kernel ...__%.*s:\n%s", name, (int)n, p + 2, text);
        kernels++;
    }
    if (kernels < 2)
        fail_msg("expected the %s filler and copy in the description:\n%s", name, text);
}

/* The plan runs and matches the reference. */
static void expect_correct_result(const ndpad_plan *plan)
{
    const ndpad_problem p = problem();
    float in[IN_COUNT], want[OUT_COUNT], got[OUT_COUNT];
    for (int k = 0; k < IN_COUNT; k++) in[k] = (float)(k * 7 % 101) - 50.0f;
    assert_int_equal(ndpad_ref_pad(&p, in, want), NDPAD_OK);
    memset(got, TEST_SENTINEL, sizeof got);
    assert_int_equal(ndpad_execute(plan, in, got), NDPAD_OK);
    assert_memory_equal(want, got, sizeof got);
}

/* Plans with `options` (NULL or set) run `isa`. */
static void expect_plan_runs(const ndpad_options *options, ndpad_isa isa, const char *how)
{
    const ndpad_problem p = problem();
    ndpad_plan *plan = NULL;
    const ndpad_status st = ndpad_plan_create(&p, options, &plan);
    if (st != NDPAD_OK)
        fail_msg("%s: expected a plan at %s, got %s (%s)", how, ndpad_isa_name(isa),
                 ndpad_status_string(st), ndpad_last_error());
    assert_non_null(plan);
    if (ndpad_plan_isa(plan) != isa)
        fail_msg("%s: plan runs %s, expected %s", how, ndpad_isa_name(ndpad_plan_isa(plan)),
                 ndpad_isa_name(isa));
    expect_described_as(plan, isa);
    expect_correct_result(plan);
    ndpad_plan_destroy(plan);
}

/* Plan creation with `options` fails with NDPAD_ERR_ISA_UNAVAILABLE and a message that
 * contains `source` and `value`; ndpad_pad with the same settings fails alike. */
static void expect_unavailable(const ndpad_options *options, const char *source, const char *value,
                               const char *how)
{
    const ndpad_problem p = problem();
    ndpad_plan *plan = (ndpad_plan *)&plan; /* must be reset to NULL */
    const ndpad_status st = ndpad_plan_create(&p, options, &plan);
    if (st != NDPAD_ERR_ISA_UNAVAILABLE)
        fail_msg("%s: expected NDPAD_ERR_ISA_UNAVAILABLE, got %s (%s)", how,
                 ndpad_status_string(st), ndpad_last_error());
    assert_null(plan);
    const char *message = ndpad_last_error();
    if (!test_contains(message, source) || !test_contains(message, value))
        fail_msg("%s: the last error should name %s and \"%s\": \"%s\"", how, source, value,
                 message);

    if (options == NULL) {
        float in[IN_COUNT] = {0}, out[OUT_COUNT];
        memset(out, TEST_SENTINEL, sizeof out);
        assert_int_equal(ndpad_pad(&p, in, out), NDPAD_ERR_ISA_UNAVAILABLE);
        assert_true(test_all_bytes_are(out, sizeof out, TEST_SENTINEL));
        assert_true(test_contains(ndpad_last_error(), source));
    }
}

/* What NDPAD_ISA = `value` (NULL: unset) must give with default options (NULL, zeroed, and
 * options.isa = AUTO explicitly). */
static void check_environment_value(const char *value)
{
    char how[96];
    snprintf(how, sizeof how, "NDPAD_ISA=%s", value ? value : "(unset)");
    ndpad_options zeroed;
    memset(&zeroed, 0, sizeof zeroed);
    ndpad_options init;
    ndpad_options_init(&init);
    init.isa = NDPAD_ISA_AUTO;
    const ndpad_options *variants[3] = {NULL, &zeroed, &init};

    const int level = value ? level_of(value) : -1;
    if (value == NULL || value[0] == '\0' || strcmp(value, "auto") == 0) {
        for (int v = 0; v < 3; v++) expect_plan_runs(variants[v], expected_best(), how);
        print_message("      %s: runs %s (the best here)\n", how, ndpad_isa_name(expected_best()));
    } else if (level >= 0 && expect_available((ndpad_isa)level)) {
        for (int v = 0; v < 3; v++) expect_plan_runs(variants[v], (ndpad_isa)level, how);
        print_message("      %s: runs %s\n", how, value);
    } else {
        for (int v = 0; v < 3; v++) expect_unavailable(variants[v], "NDPAD_ISA", value, how);
        print_message("      %s: NDPAD_ERR_ISA_UNAVAILABLE (%s)\n", how, ndpad_last_error());
    }
}

/* ===================================================================================== */

static const char *environment_at_start;
static char environment_copy[64];

/* The NDPAD_ISA ctest set for this run. */
static void environment_level_is_the_one_that_runs(void **state)
{
    (void)state;
    check_environment_value(environment_at_start);
}

/* Every value in this process, whatever ctest set; the variable is restored afterwards. */
static void each_environment_value_in_process(void **state)
{
    (void)state;
    static const char *const values[] = {"auto", "", "bogus", "avx"};
    for (int k = 0; k < LEVEL_COUNT; k++) {
        assert_int_equal(setenv("NDPAD_ISA", ndpad_isa_name(levels[k]), 1), 0);
        check_environment_value(ndpad_isa_name(levels[k]));
    }
    for (size_t k = 0; k < sizeof(values) / sizeof(values[0]); k++) {
        assert_int_equal(setenv("NDPAD_ISA", values[k], 1), 0);
        check_environment_value(values[k]);
    }
    assert_int_equal(unsetenv("NDPAD_ISA"), 0);
    check_environment_value(NULL);
    if (environment_at_start) assert_int_equal(setenv("NDPAD_ISA", environment_at_start, 1), 0);
}

/* options.isa = a level wins over NDPAD_ISA, whatever that says (even "bogus"). */
static void options_isa_overrides_the_environment(void **state)
{
    (void)state;
    const char *environments[LEVEL_COUNT + 2] = {NULL, "bogus"};
    for (int k = 0; k < LEVEL_COUNT; k++) environments[k + 2] = ndpad_isa_name(levels[k]);
    for (size_t e = 0; e < sizeof(environments) / sizeof(environments[0]); e++) {
        if (environments[e])
            assert_int_equal(setenv("NDPAD_ISA", environments[e], 1), 0);
        else
            assert_int_equal(unsetenv("NDPAD_ISA"), 0);
        for (int k = 0; k < LEVEL_COUNT; k++) {
            ndpad_options options;
            ndpad_options_init(&options);
            options.isa = (int32_t)levels[k];
            char how[96];
            snprintf(how, sizeof how, "options.isa = %s with NDPAD_ISA=%s",
                     ndpad_isa_name(levels[k]), environments[e] ? environments[e] : "(unset)");
            if (expect_available(levels[k]))
                expect_plan_runs(&options, levels[k], how);
            else
                expect_unavailable(&options, "options.isa", ndpad_isa_name(levels[k]), how);
        }
    }
    if (environment_at_start)
        assert_int_equal(setenv("NDPAD_ISA", environment_at_start, 1), 0);
    else
        assert_int_equal(unsetenv("NDPAD_ISA"), 0);
}

/* A value that is no ndpad_isa is an options error, not an ISA one. */
static void options_isa_out_of_range_is_an_options_error(void **state)
{
    (void)state;
    const ndpad_problem p = problem();
    const int32_t bad[] = {-1, first_non_level(), 99, INT32_MAX, INT32_MIN};
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        ndpad_options options;
        ndpad_options_init(&options);
        options.isa = bad[k];
        ndpad_plan *plan = NULL;
        assert_int_equal(ndpad_plan_create(&p, &options, &plan), NDPAD_ERR_OPTIONS);
        assert_null(plan);
        assert_true(test_contains(ndpad_last_error(), "options.isa"));
    }
}

static void isa_names_are_the_documented_ones(void **state)
{
    (void)state;
    assert_string_equal(ndpad_isa_name(NDPAD_ISA_AUTO), "auto");
    assert_string_equal(ndpad_isa_name(NDPAD_ISA_SCALAR), "scalar");
    assert_string_equal(ndpad_isa_name(NDPAD_ISA_AVX2), "avx2");
    assert_string_equal(ndpad_isa_name(NDPAD_ISA_AVX512), "avx512");
    assert_string_equal(ndpad_isa_name(NDPAD_ISA_NEON), "neon");
    assert_string_equal(ndpad_isa_name(NDPAD_ISA_AVX512_VBMI), "avx512vbmi");
    assert_string_equal(ndpad_isa_name(NDPAD_ISA_AVX512_VBMI2), "avx512vbmi2");
    assert_string_equal(ndpad_isa_name((ndpad_isa)first_non_level()), "unknown");
    assert_string_equal(ndpad_isa_name((ndpad_isa)-1), "unknown");
    for (int k = 0; k < LEVEL_COUNT; k++)
        print_message("      %-10s built %-3s cpu %-3s\n", ndpad_isa_name(levels[k]),
                      built_with(levels[k]) ? "yes" : "no", cpu_runs(levels[k]) ? "yes" : "no");
}

int main(void)
{
    const char *env = getenv("NDPAD_ISA");
    if (env) {
        snprintf(environment_copy, sizeof environment_copy, "%s", env);
        environment_at_start = environment_copy;
    }
    print_message("NDPAD_ISA=%s, expected best level here: %s\n",
                  environment_at_start ? environment_at_start : "(unset)",
                  ndpad_isa_name(expected_best()));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(isa_names_are_the_documented_ones),
        cmocka_unit_test(environment_level_is_the_one_that_runs),
        cmocka_unit_test(options_isa_overrides_the_environment),
        cmocka_unit_test(options_isa_out_of_range_is_an_options_error),
        cmocka_unit_test(each_environment_value_in_process),
    };
    return cmocka_run_group_tests_name("isa-override", tests, NULL, NULL);
}
