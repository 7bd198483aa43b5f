/* The dispatch table, built once from kernels.inc: scalar kernels everywhere first, then
 * each ISA's kernels over their slots, so every slot is valid for every ISA level. */
#include <pthread.h>

#include "kernels/kernels.h"

#define NDPAD_ISA_LEVELS 5 /* indexed by ndpad_isa; AUTO's row is unused */

static ndpad_kernels table[NDPAD_ISA_LEVELS][NDPAD_SIZE_CLASS_COUNT];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

int ndpad_size_class(size_t elem_size)
{
    switch (elem_size) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    case 16: return 4;
    default: return 5;
    }
}

/* Class of a kernels.inc entry: 0 bytes means "any size", the generic class. */
static int entry_class(size_t elem_bytes)
{
    return elem_bytes == 0 ? NDPAD_SIZE_CLASS_COUNT - 1 : ndpad_size_class(elem_bytes);
}

static void install(ndpad_isa isa)
{
#define NDPAD_FILLER(entry_isa, mode, elem_bytes, function)                                        \
    if (entry_isa == isa) {                                                                        \
        table[isa][entry_class(elem_bytes)].fill[mode] = function;                                 \
        table[isa][entry_class(elem_bytes)].fill_name[mode] = #function;                           \
    }
#define NDPAD_COPY(entry_isa, function)                                                            \
    if (entry_isa == isa) {                                                                        \
        for (int c = 0; c < NDPAD_SIZE_CLASS_COUNT; c++) {                                         \
            table[isa][c].copy = function;                                                         \
            table[isa][c].copy_name = #function;                                                   \
        }                                                                                          \
    }
#define NDPAD_COPY_STREAM(entry_isa, function)                                                     \
    if (entry_isa == isa) {                                                                        \
        for (int c = 0; c < NDPAD_SIZE_CLASS_COUNT; c++) {                                         \
            table[isa][c].copy_stream = function;                                                  \
            table[isa][c].copy_stream_name = #function;                                            \
        }                                                                                          \
    }
#include "kernels/kernels.inc"
#undef NDPAD_FILLER
#undef NDPAD_COPY
#undef NDPAD_COPY_STREAM
}

static void build_table(void)
{
    install(NDPAD_ISA_SCALAR);
    for (int isa = NDPAD_ISA_SCALAR + 1; isa < NDPAD_ISA_LEVELS; isa++) {
        for (int c = 0; c < NDPAD_SIZE_CLASS_COUNT; c++) table[isa][c] = table[NDPAD_ISA_SCALAR][c];
        install((ndpad_isa)isa);
    }
}

const ndpad_kernels *ndpad_kernels_select(ndpad_isa isa, size_t elem_size)
{
    pthread_once(&table_once, build_table);
    if ((int)isa <= NDPAD_ISA_AUTO || (int)isa >= NDPAD_ISA_LEVELS) isa = NDPAD_ISA_SCALAR;
    return &table[isa][ndpad_size_class(elem_size)];
}
