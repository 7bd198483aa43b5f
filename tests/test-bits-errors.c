/*
 * test-bits-errors.c — hostile arguments of the sub-byte entry points (ndpad_bits_*): each
 * broken rule gives its status and a message naming the argument (and the axis), and
 * writes nothing; plus the thread paths on outputs large enough to use them (ndpad's
 * workers, a fixed team, a host pool that runs its tasks backwards), against the reference.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ndpad-bits-ref.h"

static int64_t shape[2] = {3, 5}, pb[2] = {1, 2}, pe[2] = {1, 3};
static uint8_t in_buf[64], out_buf[256];

static ndpad_bits_problem good(void)
{
    ndpad_bits_problem p;
    memset(&p, 0, sizeof(p));
    p.problem.rank = 2;
    p.problem.mode = NDPAD_REFLECT;
    p.problem.shape = shape;
    p.problem.pads_begin = pb;
    p.problem.pads_end = pe;
    p.elem_bits = 4;
    return p;
}

/* `p` fails with `status`, the message holds `needle`, and nothing is written. */
static void refused(const ndpad_bits_problem *p, ndpad_status status, const char *needle)
{
    memset(out_buf, 0xA5, sizeof(out_buf));
    assert_int_equal(ndpad_bits_pad(p, NULL, in_buf, out_buf), status);
    if (strstr(ndpad_last_error(), needle) == NULL)
        fail_msg("\"%s\" lacks \"%s\"", ndpad_last_error(), needle);
    for (size_t i = 0; i < sizeof(out_buf); i++) assert_int_equal(out_buf[i], 0xA5);
    ndpad_bits_plan *plan = (ndpad_bits_plan *)&plan;
    assert_int_equal(ndpad_bits_plan_create(p, NULL, &plan), status);
    assert_null(plan);
    int64_t n[2];
    assert_int_equal(ndpad_bits_output_shape(p, n), status);
    assert_int_equal(ndpad_ref_bits_validate(p, NULL), status);
}

static void bad_fields(void **state)
{
    (void)state;
    assert_int_equal(ndpad_bits_pad(NULL, NULL, in_buf, out_buf), NDPAD_ERR_NULL_ARGUMENT);
    ndpad_bits_problem p = good();
    const int32_t widths[] = {0, 3, 5, 8, 16, -1, INT32_MIN};
    for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
        p.elem_bits = widths[i];
        refused(&p, NDPAD_ERR_ELEM_SIZE, "elem_bits");
    }
    p = good();
    p.reserved = 2;
    refused(&p, NDPAD_ERR_OPTIONS, "reserved");
    p = good();
    p.in_bit_offset = -1;
    refused(&p, NDPAD_ERR_SHAPE, "in_bit_offset");
    p = good();
    p.out_bit_offset = INT64_MIN;
    refused(&p, NDPAD_ERR_SHAPE, "out_bit_offset");
}

static void bad_axes(void **state)
{
    (void)state;
    ndpad_bits_problem p = good();
    int64_t bad_shape[2] = {3, -4};
    p.problem.shape = bad_shape;
    refused(&p, NDPAD_ERR_SHAPE, "shape[1]");
    p = good();
    int64_t interior[2] = {0, 1};
    p.problem.interior = interior;
    refused(&p, NDPAD_ERR_INTERIOR_MODE, "interior[1]");
    p = good();
    int64_t strided[2] = {10, 2};
    p.problem.in_strides = strided;
    refused(&p, NDPAD_ERR_STRIDE, "in_strides[1]");
    p = good();
    p.problem.out_strides = strided;
    refused(&p, NDPAD_ERR_STRIDE, "out_strides[1]");
    p = good();
    p.problem.mode = 9;
    refused(&p, NDPAD_ERR_MODE, "mode");
    p = good();
    p.problem.rank = NDPAD_MAX_RANK + 1;
    refused(&p, NDPAD_ERR_RANK, "rank");
    /* elements that fit int64 bytes but not int64 bits */
    int64_t huge[1] = {(int64_t)1 << 61}, zero[1] = {0};
    p = good();
    p.problem.rank = 1;
    p.problem.mode = NDPAD_CONSTANT;
    p.problem.shape = huge;
    p.problem.pads_begin = zero;
    p.problem.pads_end = zero;
    refused(&p, NDPAD_ERR_OVERFLOW, "bit positions");
    p.problem.shape = zero;
    int64_t big_pad[1] = {(int64_t)1 << 60};
    p.problem.pads_begin = big_pad;
    p.out_bit_offset = INT64_MAX - 100;
    refused(&p, NDPAD_ERR_OVERFLOW, "out_bit_offset");
}

static void bad_buffers_and_options(void **state)
{
    (void)state;
    ndpad_bits_problem p = good();
    assert_int_equal(ndpad_bits_pad(&p, NULL, NULL, out_buf), NDPAD_ERR_NULL_BUFFER);
    assert_non_null(strstr(ndpad_last_error(), "in is NULL"));
    assert_int_equal(ndpad_bits_pad(&p, NULL, in_buf, NULL), NDPAD_ERR_NULL_BUFFER);
    assert_non_null(strstr(ndpad_last_error(), "out is NULL"));
    assert_int_equal(ndpad_bits_execute(NULL, in_buf, out_buf), NDPAD_ERR_NULL_ARGUMENT);
    assert_int_equal(ndpad_bits_plan_create(&p, NULL, NULL), NDPAD_ERR_NULL_ARGUMENT);
    /* CONSTANT on an empty input reads nothing: in may be NULL */
    int64_t empty[2] = {0, 5};
    p.problem.mode = NDPAD_CONSTANT;
    p.problem.shape = empty;
    assert_int_equal(ndpad_bits_pad(&p, NULL, NULL, out_buf), NDPAD_OK);
    p = good();
    ndpad_options o;
    ndpad_options_init(&o);
    o.threads = -1;
    assert_int_equal(ndpad_bits_pad(&p, &o, in_buf, out_buf), NDPAD_ERR_OPTIONS);
    assert_non_null(strstr(ndpad_last_error(), "options.threads"));
    ndpad_options_init(&o);
    o.tuning = 9;
    assert_int_equal(ndpad_bits_pad(&p, &o, in_buf, out_buf), NDPAD_ERR_OPTIONS);
    ndpad_options_init(&o);
#if defined(__x86_64__)
    o.isa = NDPAD_ISA_NEON;
#else
    o.isa = NDPAD_ISA_AVX2;
#endif
    assert_int_equal(ndpad_bits_pad(&p, &o, in_buf, out_buf), NDPAD_ERR_ISA_UNAVAILABLE);
    ndpad_bits_plan_destroy(NULL);
    assert_int_equal(ndpad_bits_plan_isa(NULL), NDPAD_ISA_SCALAR);
}

/* A host pool that runs the tasks backwards on the calling thread, counting its calls. */
static int pool_calls;
static void backwards(void *context, ndpad_task_fn task, void *task_context, size_t n)
{
    (void)context;
    pool_calls++;
    for (size_t i = n; i-- > 0;) task(task_context, i);
}

/* A large int4 output (rows of odd length: every other row starts a byte), one thread and
 * two of each kind, against the reference. */
static void threads_match_reference(void **state)
{
    (void)state;
    int64_t big[2] = {700, 1500}, b[2] = {3, 17}, e[2] = {2, 16};
    const int modes[3] = {NDPAD_CONSTANT, NDPAD_REFLECT, NDPAD_WRAP};
    for (int m = 0; m < 3; m++)
        for (int64_t offset = 0; offset < 8; offset += offset == 3 ? 1 : 3) {
            ndpad_bits_problem p;
            memset(&p, 0, sizeof(p));
            uint8_t pad = 0x9;
            p.problem = (ndpad_problem){.rank = 2,
                                        .mode = modes[m],
                                        .shape = big,
                                        .pads_begin = b,
                                        .pads_end = e,
                                        .pad_value = &pad};
            p.elem_bits = 4;
            p.in_bit_offset = 4;
            p.out_bit_offset = offset;
            const size_t in_bytes = (size_t)(700 * 1500 * 4 + 4 + 7) / 8;
            const size_t out_bytes = (size_t)(705 * 1533 * 4 + offset + 7) / 8 + 64;
            uint8_t *in = malloc(in_bytes), *want = malloc(out_bytes), *got = malloc(out_bytes);
            for (size_t i = 0; i < in_bytes; i++) in[i] = (uint8_t)(i * 131 + 7);
            memset(want, 0x5A, out_bytes);
            assert_int_equal(ndpad_ref_bits_pad(&p, in, want), NDPAD_OK);
            ndpad_thread_pool pool = {backwards, NULL, 2};
            for (int kind = 0; kind < 4; kind++) {
                ndpad_options o;
                ndpad_options_init(&o);
                o.threads = kind == 0 ? 1 : 2;
                if (kind == 2) o.schedule = NDPAD_SCHEDULE_FIXED_TEAM;
                if (kind == 3) o.thread_pool = &pool;
                memset(got, 0x5A, out_bytes);
                pool_calls = 0;
                assert_int_equal(ndpad_bits_pad(&p, &o, in, got), NDPAD_OK);
                assert_memory_equal(got, want, out_bytes);
                /* rows of 1533 nibbles: tiles may only start at rows that start a byte,
                 * the even rows for offset 0, the odd ones for offset 4, none for offsets
                 * 3 and 7 (then one thread: the pool is not called) */
                if (kind == 3) assert_int_equal(pool_calls, offset % 4 == 0 ? 1 : 0);
            }
            free(in), free(want), free(got);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_fields),
        cmocka_unit_test(bad_axes),
        cmocka_unit_test(bad_buffers_and_options),
        cmocka_unit_test(threads_match_reference),
    };
    return cmocka_run_group_tests_name("bits-errors", tests, NULL, NULL);
}
