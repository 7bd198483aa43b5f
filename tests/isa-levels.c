/*
 * ndpad-isa-levels — the instruction-set levels of src/isa-levels.inc as this build and CPU
 * see them, asked through the public API (a plan forced to each level).
 *
 *   ndpad-isa-levels               one line per level, in the list's order (best last):
 *                                  name, parent, and "usable" or why not
 *   ndpad-isa-levels --usable L    exit 0 when level L is usable here, 77 when it is a level
 *                                  this build or CPU lacks (ctest's SKIP_RETURN_CODE: the
 *                                  per-ISA test runs of such a level are reported as not run,
 *                                  never as passed), 2 when L is no level
 */
#include <stdio.h>
#include <string.h>

#include "ndpad.h"

typedef struct level {
    ndpad_isa isa, parent;
} level;

static const level levels[] = {
#define NDPAD_ISA_LEVEL(ID, name, PARENT, ...) {NDPAD_ISA_##ID, NDPAD_ISA_##PARENT},
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
};
enum { LEVEL_COUNT = sizeof(levels) / sizeof(levels[0]) };

/* NDPAD_OK when a plan forced to `isa` is made and runs it. */
static ndpad_status try_level(ndpad_isa isa)
{
    const int64_t shape[1] = {4}, pads[1] = {1};
    const ndpad_problem p = {.rank = 1,
                             .mode = NDPAD_REFLECT,
                             .elem_size = 1,
                             .shape = shape,
                             .pads_begin = pads,
                             .pads_end = pads};
    ndpad_options options;
    ndpad_options_init(&options);
    options.isa = (int32_t)isa;
    ndpad_plan *plan = NULL;
    ndpad_status st = ndpad_plan_create(&p, &options, &plan);
    if (st == NDPAD_OK && ndpad_plan_isa(plan) != isa) st = NDPAD_ERR_ISA_UNAVAILABLE;
    ndpad_plan_destroy(plan);
    return st;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--usable") == 0) {
        for (int k = 0; k < LEVEL_COUNT; k++) {
            if (strcmp(argv[2], ndpad_isa_name(levels[k].isa)) != 0) continue;
            const ndpad_status st = try_level(levels[k].isa);
            if (st == NDPAD_OK) return 0;
            printf("ndpad-isa-levels: %s is not usable here, its runs are skipped: %s\n", argv[2],
                   ndpad_last_error());
            return st == NDPAD_ERR_ISA_UNAVAILABLE ? 77 : 1;
        }
        fprintf(stderr, "ndpad-isa-levels: \"%s\" is no level of isa-levels.inc\n", argv[2]);
        return 2;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: ndpad-isa-levels [--usable LEVEL]\n");
        return 2;
    }
    for (int k = 0; k < LEVEL_COUNT; k++) {
        const ndpad_status st = try_level(levels[k].isa);
        printf("%-12s parent %-12s %s\n", ndpad_isa_name(levels[k].isa),
               ndpad_isa_name(levels[k].parent), st == NDPAD_OK ? "usable" : ndpad_last_error());
    }
    return 0;
}
