/* Reflect-pad a 2x3 float matrix by one element on every side, once with a plan (the way to
 * pad many tensors of the same shape) and once in one call. */
#include <ndpad.h>
#include <stdio.h>

int main(void)
{
    const int64_t shape[2] = {2, 3}, before[2] = {1, 1}, after[2] = {1, 1};
    const float in[6] = {1, 2, 3, 4, 5, 6};
    float out[4 * 5];
    const ndpad_problem problem = {
        .rank = 2, .mode = NDPAD_REFLECT, .elem_size = sizeof(float),
        .shape = shape, .pads_begin = before, .pads_end = after,
        /* interior, in_strides, out_strides, pad_value: NULL = none, dense, dense, zero */
    };

    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = 1; /* 0 (the default) = all physical cores */

    ndpad_plan *plan = NULL;
    ndpad_status status = ndpad_plan_create(&problem, &options, &plan);
    if (status == NDPAD_OK) {
        status = ndpad_execute(plan, in, out); /* repeat with other buffers as needed */
        ndpad_plan_destroy(plan);
    }
    if (status == NDPAD_OK) status = ndpad_pad(&problem, in, out); /* the same, in one call */
    if (status != NDPAD_OK) {
        fprintf(stderr, "%s: %s\n", ndpad_status_string(status), ndpad_last_error());
        return 1;
    }
    for (int r = 0; r < 4; r++, putchar('\n'))
        for (int c = 0; c < 5; c++) printf(" %g", out[r * 5 + c]);
    /*  5 4 5 6 5
     *  2 1 2 3 2
     *  5 4 5 6 5
     *  2 1 2 3 2 */
    return out[0] == 5 && out[6] == 1 && out[19] == 2 ? 0 : 1;
}
