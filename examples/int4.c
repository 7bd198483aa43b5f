/* Pad an int4 tensor (two elements a byte, the first in the low nibble) without unpacking:
 * reflect by 1 on every side, then the same rows written from the middle of a byte. */
#include <ndpad.h>
#include <stdint.h>
#include <stdio.h>

int main(void)
{
    int64_t shape[2] = {2, 3}, pads[2] = {1, 1};
    uint8_t in[3] = {0x21, 0x43, 0x65}; /* {1, 2, 3}, {4, 5, 6} */
    uint8_t out[11] = {0};
    ndpad_bits_problem p = {.problem = {.rank = 2, .mode = NDPAD_REFLECT, .shape = shape,
                                        .pads_begin = pads, .pads_end = pads},
                            .elem_bits = 4};
    if (ndpad_bits_pad(&p, NULL, in, out) != NDPAD_OK) {
        fprintf(stderr, "%s\n", ndpad_last_error());
        return 1;
    }
    for (int i = 0; i < 4 * 5; i++) /* 5 4 5 6 5 / 2 1 2 3 2 / 5 4 5 6 5 / 2 1 2 3 2 */
        printf("%d%s", (out[i / 2] >> (4 * (i % 2))) & 0xF, i % 5 == 4 ? "\n" : " ");
    p.out_bit_offset = 4; /* start at the high nibble of out[0]: its low nibble is kept */
    out[0] = 0x0A;
    ndpad_bits_pad(&p, NULL, in, out);
    printf("out[0] = 0x%02X\n", out[0]); /* 0x5A */
    return out[0] == 0x5A ? 0 : 1;
}
