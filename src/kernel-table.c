/* The kernel list as data (kernels.inc, expanded once) and the dispatch table built from it
 * once per process: each level's row starts as its parent's row (isa-levels.inc lists
 * parents first) and its own kernels overwrite their slots; each mode's filler is the
 * kernel of the mode's operation. */
#include <pthread.h>

#include "isa-slots.h"
#include "kernels/kernels.h"

const ndpad_fill_op ndpad_mode_op[NDPAD_MODE_COUNT] = {
    [NDPAD_CONSTANT] = NDPAD_OP_BROADCAST, [NDPAD_EDGE] = NDPAD_OP_BROADCAST,
    [NDPAD_REFLECT] = NDPAD_OP_REVERSE,    [NDPAD_SYMMETRIC] = NDPAD_OP_REVERSE,
    [NDPAD_WRAP] = NDPAD_OP_FORWARD,
};

const char *const ndpad_fill_op_names[NDPAD_OP_COUNT] = {
    [NDPAD_OP_BROADCAST] = "broadcast",
    [NDPAD_OP_REVERSE] = "reverse",
    [NDPAD_OP_FORWARD] = "forward",
};

const ndpad_filler_entry ndpad_filler_list[] = {
#define NDPAD_FILLER(isa, op, elem_bytes, function) {isa, op, elem_bytes, function, #function},
#define NDPAD_COPY(isa, function)
#define NDPAD_COPY_NT(isa, function)
#define NDPAD_STREAM(isa, kind, lane, function)
#define NDPAD_BITS_SHIFT(isa, function)
#define NDPAD_BITS_REVERSE(isa, function)
#include "kernels/kernels.inc"
#undef NDPAD_BITS_SHIFT
#undef NDPAD_BITS_REVERSE
#undef NDPAD_FILLER
#undef NDPAD_COPY
#undef NDPAD_COPY_NT
#undef NDPAD_STREAM
};
const size_t ndpad_filler_list_count = sizeof(ndpad_filler_list) / sizeof(ndpad_filler_list[0]);

const ndpad_copy_entry ndpad_copy_list[] = {
#define NDPAD_FILLER(isa, op, elem_bytes, function)
#define NDPAD_COPY(isa, function)    {isa, false, function, #function},
#define NDPAD_COPY_NT(isa, function) {isa, true, function, #function},
#define NDPAD_STREAM(isa, kind, lane, function)
#define NDPAD_BITS_SHIFT(isa, function)
#define NDPAD_BITS_REVERSE(isa, function)
#include "kernels/kernels.inc"
#undef NDPAD_BITS_SHIFT
#undef NDPAD_BITS_REVERSE
#undef NDPAD_FILLER
#undef NDPAD_COPY
#undef NDPAD_COPY_NT
#undef NDPAD_STREAM
};
const size_t ndpad_copy_list_count = sizeof(ndpad_copy_list) / sizeof(ndpad_copy_list[0]);

const ndpad_stream_entry ndpad_stream_list[] = {
#define NDPAD_FILLER(isa, op, elem_bytes, function)
#define NDPAD_COPY(isa, function)
#define NDPAD_COPY_NT(isa, function)
#define NDPAD_STREAM(isa, kind, lane, function) {isa, kind, lane, function, #function},
#define NDPAD_BITS_SHIFT(isa, function)
#define NDPAD_BITS_REVERSE(isa, function)
#include "kernels/kernels.inc"
#undef NDPAD_BITS_SHIFT
#undef NDPAD_BITS_REVERSE
#undef NDPAD_FILLER
#undef NDPAD_COPY
#undef NDPAD_COPY_NT
#undef NDPAD_STREAM
};
const size_t ndpad_stream_list_count = sizeof(ndpad_stream_list) / sizeof(ndpad_stream_list[0]);

const ndpad_bits_entry ndpad_bits_list[] = {
#define NDPAD_FILLER(isa, op, elem_bytes, function)
#define NDPAD_COPY(isa, function)
#define NDPAD_COPY_NT(isa, function)
#define NDPAD_STREAM(isa, kind, lane, function)
#define NDPAD_BITS_SHIFT(isa, function)   {isa, false, function, NULL, #function},
#define NDPAD_BITS_REVERSE(isa, function) {isa, true, NULL, function, #function},
#include "kernels/kernels.inc"
#undef NDPAD_FILLER
#undef NDPAD_COPY
#undef NDPAD_COPY_NT
#undef NDPAD_STREAM
#undef NDPAD_BITS_SHIFT
#undef NDPAD_BITS_REVERSE
};
const size_t ndpad_bits_list_count = sizeof(ndpad_bits_list) / sizeof(ndpad_bits_list[0]);

/* A level's row of the dispatch table, by operation; modes are mapped at the end. */
typedef struct op_row {
    ndpad_fill_fn fill[NDPAD_OP_COUNT];
    const char *fill_name[NDPAD_OP_COUNT];
    ndpad_copy_fn copy, copy_nt;
    const char *copy_name, *copy_nt_name;
    ndpad_stream_fn stream[NDPAD_STREAM_KIND_COUNT];
    const char *stream_name[NDPAD_STREAM_KIND_COUNT];
    int32_t stream_lane[NDPAD_STREAM_KIND_COUNT];
    ndpad_bits_shift_fn bits_shift;
    ndpad_bits_reverse_fn bits_reverse;
    const char *bits_shift_name, *bits_reverse_name;
} op_row;

static ndpad_kernels table[NDPAD_ISA_SLOTS][NDPAD_SIZE_CLASS_COUNT];
static bool built[NDPAD_ISA_SLOTS];
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

/* `isa`'s own kernels over its row. */
static void install(ndpad_isa isa, op_row row[NDPAD_SIZE_CLASS_COUNT])
{
    for (size_t k = 0; k < ndpad_filler_list_count; k++) {
        const ndpad_filler_entry *e = &ndpad_filler_list[k];
        if (e->isa != isa) continue;
        row[entry_class(e->elem_bytes)].fill[e->op] = e->fn;
        row[entry_class(e->elem_bytes)].fill_name[e->op] = e->name;
        built[isa] = true;
    }
    for (size_t k = 0; k < ndpad_copy_list_count; k++) {
        const ndpad_copy_entry *e = &ndpad_copy_list[k];
        if (e->isa != isa) continue;
        for (int c = 0; c < NDPAD_SIZE_CLASS_COUNT; c++) {
            if (e->nt) {
                row[c].copy_nt = e->fn;
                row[c].copy_nt_name = e->name;
            } else {
                row[c].copy = e->fn;
                row[c].copy_name = e->name;
            }
        }
        built[isa] = true;
    }
    for (size_t k = 0; k < ndpad_stream_list_count; k++) {
        const ndpad_stream_entry *e = &ndpad_stream_list[k];
        if (e->isa != isa) continue;
        for (int c = 0; c < NDPAD_SIZE_CLASS_COUNT; c++) {
            row[c].stream[e->kind] = e->fn;
            row[c].stream_name[e->kind] = e->name;
            row[c].stream_lane[e->kind] = e->lane;
        }
        built[isa] = true;
    }
    for (size_t k = 0; k < ndpad_bits_list_count; k++) {
        const ndpad_bits_entry *e = &ndpad_bits_list[k];
        if (e->isa != isa) continue;
        for (int c = 0; c < NDPAD_SIZE_CLASS_COUNT; c++) {
            if (e->reverse) {
                row[c].bits_reverse = e->reverse_fn;
                row[c].bits_reverse_name = e->name;
            } else {
                row[c].bits_shift = e->shift;
                row[c].bits_shift_name = e->name;
            }
        }
        built[isa] = true;
    }
}

static void build_table(void)
{
    static const ndpad_isa order[] = {
#define NDPAD_ISA_LEVEL(ID, ...) NDPAD_ISA_##ID,
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
    };
    static const ndpad_isa parent[NDPAD_ISA_SLOTS] = {
#define NDPAD_ISA_LEVEL(ID, name, PARENT, ...) [NDPAD_ISA_##ID] = NDPAD_ISA_##PARENT,
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
    };
    static op_row rows[NDPAD_ISA_SLOTS][NDPAD_SIZE_CLASS_COUNT];
    for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
        const ndpad_isa isa = order[k];
        for (int c = 0; c < NDPAD_SIZE_CLASS_COUNT; c++) rows[isa][c] = rows[parent[isa]][c];
        install(isa, rows[isa]);
        for (int c = 0; c < NDPAD_SIZE_CLASS_COUNT; c++)
            for (int m = 0; m < NDPAD_MODE_COUNT; m++) {
                table[isa][c].fill[m] = rows[isa][c].fill[ndpad_mode_op[m]];
                table[isa][c].fill_name[m] = rows[isa][c].fill_name[ndpad_mode_op[m]];
            }
        for (int c = 0; c < NDPAD_SIZE_CLASS_COUNT; c++) {
            table[isa][c].copy = rows[isa][c].copy;
            table[isa][c].copy_name = rows[isa][c].copy_name;
            table[isa][c].copy_nt = rows[isa][c].copy_nt;
            table[isa][c].copy_nt_name = rows[isa][c].copy_nt_name;
            for (int s = 0; s < NDPAD_STREAM_KIND_COUNT; s++) {
                table[isa][c].stream[s] = rows[isa][c].stream[s];
                table[isa][c].stream_name[s] = rows[isa][c].stream_name[s];
                table[isa][c].stream_lane[s] = rows[isa][c].stream_lane[s];
            }
            table[isa][c].bits_shift = rows[isa][c].bits_shift;
            table[isa][c].bits_shift_name = rows[isa][c].bits_shift_name;
            table[isa][c].bits_reverse = rows[isa][c].bits_reverse;
            table[isa][c].bits_reverse_name = rows[isa][c].bits_reverse_name;
        }
    }
    built[NDPAD_ISA_SCALAR] = true;
}

bool ndpad_kernels_built(ndpad_isa isa)
{
    pthread_once(&table_once, build_table);
    return (int)isa > NDPAD_ISA_AUTO && (int)isa < NDPAD_ISA_SLOTS && built[isa];
}

const ndpad_kernels *ndpad_kernels_select(ndpad_isa isa, size_t elem_size)
{
    pthread_once(&table_once, build_table);
    if ((int)isa <= NDPAD_ISA_AUTO || (int)isa >= NDPAD_ISA_SLOTS) isa = NDPAD_ISA_SCALAR;
    return &table[isa][ndpad_size_class(elem_size)];
}
