/*
 * test-isa-override.c — the forced instruction-set level is the one that runs (simdjson's
 * tests/checkimplementation.cpp). ctest registers this program once per NDPAD_ISA value
 * (scalar, avx2, avx512, neon, auto, bogus, and unset); each run checks what that value must
 * give on this CPU and build:
 *
 *   a level the CPU and build have   plans with default options run exactly that level:
 *                                    ndpad_plan_isa(), "isa <name>" and the kernel names in
 *                                    ndpad_plan_describe(), and a result equal to the reference;
 *   a level either lacks, or an      plan creation (and ndpad_pad) fails with
 *   unknown name                     NDPAD_ERR_ISA_UNAVAILABLE, ndpad_last_error() names
 *                                    NDPAD_ISA, nothing is written, nothing crashes;
 *   auto, empty or unset             the best level, as determined here independently
 *                                    (__builtin_cpu_supports on x86-64, NEON on AArch64).
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

#include "ndpad.h"
#include "ref/ndpad-ref.h"
#include "test-util.h"

static const ndpad_isa levels[] = {NDPAD_ISA_SCALAR, NDPAD_ISA_AVX2, NDPAD_ISA_AVX512,
                                   NDPAD_ISA_NEON};
enum { LEVEL_COUNT = sizeof(levels) / sizeof(levels[0]) };

/* ---- what this build and CPU have, found without asking ndpad ------------------------ */

static bool built_with(ndpad_isa isa)
{
    switch (isa) {
    case NDPAD_ISA_SCALAR: return true;
#ifdef NDPAD_HAVE_AVX2
    case NDPAD_ISA_AVX2: return true;
#endif
#ifdef NDPAD_HAVE_AVX512
    case NDPAD_ISA_AVX512: return true;
#endif
#ifdef NDPAD_HAVE_NEON
    case NDPAD_ISA_NEON: return true;
#endif
    default: return false;
    }
}

static bool cpu_runs(ndpad_isa isa)
{
    switch (isa) {
    case NDPAD_ISA_SCALAR: return true;
#if defined(__x86_64__) || defined(__i386__)
    case NDPAD_ISA_AVX2: __builtin_cpu_init(); return __builtin_cpu_supports("avx2");
    case NDPAD_ISA_AVX512:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
#endif
#if defined(__aarch64__)
    case NDPAD_ISA_NEON: return true; /* Advanced SIMD is part of the AArch64 base */
#endif
    default: return false;
    }
}

static bool expect_available(ndpad_isa isa)
{
    return built_with(isa) && cpu_runs(isa);
}

static ndpad_isa expected_best(void)
{
    if (expect_available(NDPAD_ISA_AVX512)) return NDPAD_ISA_AVX512;
    if (expect_available(NDPAD_ISA_AVX2)) return NDPAD_ISA_AVX2;
    if (expect_available(NDPAD_ISA_NEON)) return NDPAD_ISA_NEON;
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

/* "isa <name>" as a whole word, and every kernel named "..._<x>__<isa>" is of that level. */
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
        if (n != strlen(name) || strncmp(p + 2, name, n) != 0)
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
    static const char *const values[] = {"scalar", "avx2", "avx512", "neon",
                                         "auto",   "",     "bogus",  "avx"};
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
    static const char *const environments[] = {NULL, "scalar", "avx2", "avx512", "neon", "bogus"};
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
    static const int32_t bad[] = {-1, 5, 99, INT32_MAX, INT32_MIN};
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
    assert_string_equal(ndpad_isa_name((ndpad_isa)5), "unknown");
    assert_string_equal(ndpad_isa_name((ndpad_isa)-1), "unknown");
    for (int k = 0; k < LEVEL_COUNT; k++)
        print_message("      %-7s built %-3s cpu %-3s\n", ndpad_isa_name(levels[k]),
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
