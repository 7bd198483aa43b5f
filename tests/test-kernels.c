/*
 * test-kernels.c — every entry of src/kernels/kernels.inc called directly (XNNPACK's
 * test/xx-pad.cc), walking the list the library expands once (ndpad_filler_list,
 * ndpad_copy_list), so a new kernel is tested without a line here: the fillers for run
 * lengths 0 .. 1000 and the interior copies for 0 .. 300 bytes and a few large sizes, each
 * checked byte for byte against the filler contract as written here (not the scalar kernels):
 *
 *   broadcast  dst[k] = src[0]     CONSTANT, EDGE
 *   reverse    dst[k] = src[-k]    REFLECT, SYMMETRIC; src is the element nearest the edge
 *   forward    dst[k] = src[k]     WRAP
 *
 * Stores outside the run show up in sentinel bytes around dst, at many misalignments, and
 * as a fault when dst touches a PROT_NONE page. Reads outside the source show up as a
 * fault: the source is placed so that its last byte is the last byte before a PROT_NONE
 * page, and so that its first byte is the first byte after one (the lowest address, which
 * for the reversed kernels is src[-(count - 1)]). cmocka reports the fault as a failure of
 * the test that made it.
 *
 * One cmocka test per ISA level, operation the level lists kernels for, and edge class of
 * the run length in bytes against the level's vector width (isa-levels.inc); a test is
 * skipped when ndpad_plan_create() with options.isa = that level says
 * NDPAD_ERR_ISA_UNAVAILABLE (the CPU or this build lacks it). The dispatch table is checked
 * per mode against the mode -> operation contract above and the levels' parents.
 *
 * A run of 0 elements may read its one source element (the executor always passes a valid
 * element pointer) but must write nothing.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernels/kernels.h"
#include "ndpad.h"
#include "test-util.h"

/* ===================================================================================== */
/* the kernel list and the levels                                                        */
/* ===================================================================================== */

typedef ndpad_filler_entry filler_entry;
typedef ndpad_copy_entry copy_entry;
#define fillers      ndpad_filler_list
#define copies       ndpad_copy_list
#define FILLER_COUNT ((int)ndpad_filler_list_count)
#define COPY_COUNT   ((int)ndpad_copy_list_count)

typedef struct level {
    ndpad_isa isa, parent;
    int64_t vector_bytes; /* the width run lengths are classed against */
} level;

static const level levels[] = {
#define NDPAD_ISA_LEVEL(ID, name, PARENT, arch, width, ...)                                        \
    {NDPAD_ISA_##ID, NDPAD_ISA_##PARENT, width},
#include "isa-levels.inc"
#undef NDPAD_ISA_LEVEL
};
enum { ISA_COUNT = sizeof(levels) / sizeof(levels[0]) };

static const level *level_of(ndpad_isa isa)
{
    for (int i = 0; i < ISA_COUNT; i++)
        if (levels[i].isa == isa) return &levels[i];
    fail_msg("%d is not a level of isa-levels.inc", (int)isa);
    return NULL;
}

static const int all_modes[] = {NDPAD_CONSTANT, NDPAD_EDGE, NDPAD_REFLECT, NDPAD_SYMMETRIC,
                                NDPAD_WRAP};
enum { MODE_COUNT = 5 };

static const size_t fast_sizes[] = {1, 2, 4, 8, 16};
/* Element sizes the "any size" fillers are called with. */
static const size_t any_sizes[] = {1, 3, 4, 5, 6, 7, 9, 12, 24, 32};
#define MAX_ELEM 32

static const int64_t run_counts[] = {0,  1,  2,  3,  4,  7,  8,   15,  16,  17,
                                     31, 32, 33, 63, 64, 65, 127, 128, 129, 1000};
#define MAX_COUNT 1000

/* Usable here, by the public API: options.isa = isa must plan or say the ISA is missing. */
static bool isa_available(ndpad_isa isa)
{
    const int64_t shape[1] = {4}, pb[1] = {1}, pe[1] = {2};
    const ndpad_problem p = {.rank = 1,
                             .mode = NDPAD_REFLECT,
                             .elem_size = 4,
                             .shape = shape,
                             .pads_begin = pb,
                             .pads_end = pe};
    ndpad_options options;
    ndpad_options_init(&options);
    options.isa = (int32_t)isa;
    ndpad_plan *plan = NULL;
    const ndpad_status st = ndpad_plan_create(&p, &options, &plan);
    if (st == NDPAD_OK) {
        assert_non_null(plan);
        assert_int_equal(ndpad_plan_isa(plan), isa);
        ndpad_plan_destroy(plan);
        return true;
    }
    if (st != NDPAD_ERR_ISA_UNAVAILABLE)
        fail_msg("ndpad_plan_create(options.isa = %s): %s (%s)", ndpad_isa_name(isa),
                 ndpad_status_string(st), ndpad_last_error());
    assert_null(plan);
    return false;
}

static void skip_unless_available(ndpad_isa isa)
{
    if (!isa_available(isa)) {
        print_message("      %s is not usable here (%s): skipped\n", ndpad_isa_name(isa),
                      ndpad_last_error());
        skip();
    }
}

/* ===================================================================================== */
/* guarded memory: [PROT_NONE page][data pages][PROT_NONE page]                          */
/* ===================================================================================== */

typedef struct arena {
    unsigned char *map;
    size_t map_size;
    unsigned char *lo; /* first usable byte, right after a PROT_NONE page  */
    unsigned char *hi; /* one past the last usable byte, a PROT_NONE page  */
} arena;

static size_t page_size(void)
{
    return (size_t)sysconf(_SC_PAGESIZE);
}

static arena arena_make(size_t bytes)
{
    const size_t page = page_size();
    const size_t data = (bytes + page - 1) / page * page;
    arena a;
    a.map_size = data + 2 * page;
    void *m = mmap(NULL, a.map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        perror("mmap");
        abort();
    }
    a.map = (unsigned char *)m;
    a.lo = a.map + page;
    a.hi = a.lo + data;
    if (mprotect(a.map, page, PROT_NONE) != 0 || mprotect(a.hi, page, PROT_NONE) != 0) {
        perror("mprotect");
        abort();
    }
    return a;
}

static void arena_free(arena *a)
{
    if (a->map) munmap(a->map, a->map_size);
    a->map = a->lo = a->hi = NULL;
}

static void arena_randomize(arena *a, uint64_t seed)
{
    test_rng r = test_rng_make(seed, 3);
    test_rng_bytes(&r, a->lo, (size_t)(a->hi - a->lo));
}

/* Where a source of bytes [lo, hi) relative to the src pointer is put in an arena. */
typedef enum src_place {
    SRC_AT_PAGE_END,   /* the last byte read is the last before a PROT_NONE page   */
    SRC_AT_PAGE_START, /* the first byte read is the first after a PROT_NONE page  */
    SRC_OFFSET_1,      /* otherwise, at these offsets from a 64-byte boundary      */
    SRC_OFFSET_5,
    SRC_OFFSET_33,
    SRC_PLACES
} src_place;

static const char *const src_place_names[] = {"at page end", "at page start", "64k+1", "64k+5",
                                              "64k+33"};
static const size_t src_offsets[] = {0, 0, 1, 5, 33};

static const unsigned char *place_source(const arena *a, src_place where, ptrdiff_t lo,
                                         ptrdiff_t hi)
{
    assert_true(lo <= 0 && hi >= lo);
    const unsigned char *src;
    switch (where) {
    case SRC_AT_PAGE_END: src = a->hi - hi; break;
    case SRC_AT_PAGE_START: src = a->lo - lo; break;
    default: {
        const size_t below = ((size_t)-lo + 63) / 64 * 64;
        src = a->lo + 128 + below + src_offsets[where];
        break;
    }
    }
    assert_true(src + lo >= a->lo && src + hi <= a->hi);
    return src;
}

/* Where dst goes: SENTINEL bytes on both sides at an offset from a 64-byte boundary, or
 * against a PROT_NONE page at either end (sentinels on the other side). */
static const size_t dst_offsets[] = {0, 1, 3, 4, 8, 13, 16, 32, 63};
enum { DST_OFFSETS = sizeof(dst_offsets) / sizeof(dst_offsets[0]) };
enum { DST_AT_PAGE_END = DST_OFFSETS, DST_AT_PAGE_START, DST_PLACES };

static void dst_place_name(int where, char *buf, size_t size)
{
    if (where == DST_AT_PAGE_END)
        snprintf(buf, size, "at page end");
    else if (where == DST_AT_PAGE_START)
        snprintf(buf, size, "at page start");
    else
        snprintf(buf, size, "64k+%zu", dst_offsets[where]);
}

/* A destination run plus the guard window around it that must keep its sentinel. */
typedef struct dst_window {
    unsigned char *dst;
    unsigned char *from, *to; /* the window checked: [from, to) contains [dst, dst + bytes) */
    unsigned char sentinel;
} dst_window;

static dst_window place_dst(arena *a, int where, size_t bytes)
{
    dst_window w;
    w.sentinel = (where & 1) ? 0x5A : TEST_SENTINEL;
    if (where == DST_AT_PAGE_END) {
        w.dst = a->hi - bytes;
        w.from = w.dst - TEST_GUARD;
        w.to = a->hi;
    } else if (where == DST_AT_PAGE_START) {
        w.dst = a->lo;
        w.from = a->lo;
        w.to = w.dst + bytes + TEST_GUARD;
    } else {
        w.dst = a->lo + 64 + dst_offsets[where];
        w.from = w.dst - TEST_GUARD;
        w.to = w.dst + bytes + TEST_GUARD;
    }
    assert_true(w.from >= a->lo && w.to <= a->hi);
    memset(w.from, w.sentinel, (size_t)(w.to - w.from));
    return w;
}

/* Every byte of the window outside [dst, dst + bytes) still holds the sentinel; returns
 * the offset from dst of the first that does not, or PTRDIFF_MIN. */
static ptrdiff_t first_clobbered(const dst_window *w, size_t bytes)
{
    for (const unsigned char *p = w->from; p < w->dst; p++)
        if (*p != w->sentinel) return p - w->dst;
    for (const unsigned char *p = w->dst + bytes; p < w->to; p++)
        if (*p != w->sentinel) return p - w->dst;
    return PTRDIFF_MIN;
}

/* ===================================================================================== */
/* fillers                                                                                */
/* ===================================================================================== */

typedef ndpad_fill_op family;
#define BROADCAST NDPAD_OP_BROADCAST
#define REVERSE   NDPAD_OP_REVERSE
#define FORWARD   NDPAD_OP_FORWARD

/* The contract's operation of each mode, written here, not read from the library. */
static family mode_family(int mode)
{
    switch (mode) {
    case NDPAD_CONSTANT:
    case NDPAD_EDGE: return BROADCAST;
    case NDPAD_REFLECT:
    case NDPAD_SYMMETRIC: return REVERSE;
    default: return FORWARD;
    }
}

/* Bytes [lo, hi) relative to src that a run may read (one element for an empty run). */
static void source_extent(family f, int64_t count, size_t es, ptrdiff_t *lo, ptrdiff_t *hi)
{
    const ptrdiff_t n = count > 0 ? (ptrdiff_t)count : 1, e = (ptrdiff_t)es;
    *lo = f == REVERSE ? -(n - 1) * e : 0;
    *hi = f == FORWARD ? n * e : e;
}

/* The byte the contract puts at dst byte `i` of the run. */
static unsigned char contract_byte(family f, const unsigned char *src, size_t es, size_t i)
{
    const ptrdiff_t k = (ptrdiff_t)(i / es), b = (ptrdiff_t)(i % es), e = (ptrdiff_t)es;
    switch (f) {
    case BROADCAST: return src[b];
    case REVERSE: return src[-k * e + b];
    default: return src[k * e + b];
    }
}

typedef enum run_class {
    RUN_EMPTY,
    RUN_LT_VECTOR,
    RUN_EQ_VECTOR,
    RUN_BETWEEN_ONE_AND_TWO_VECTORS,
    RUN_MULTIPLE_VECTORS,
    RUN_LONG,
    RUN_CLASSES
} run_class;

static const char *const run_class_names[] = {
    "run_empty",
    "run_lt_vector_width",
    "run_eq_vector_width",
    "run_between_one_and_two_vectors",
    "run_multiple_vectors",
    "run_long_1000_elements",
};

static run_class classify(int64_t count, size_t es, int64_t vector)
{
    const int64_t bytes = count * (int64_t)es;
    if (count == 0) return RUN_EMPTY;
    if (count == MAX_COUNT) return RUN_LONG;
    if (bytes < vector) return RUN_LT_VECTOR;
    if (bytes == vector) return RUN_EQ_VECTOR;
    if (bytes < 2 * vector) return RUN_BETWEEN_ONE_AND_TWO_VECTORS;
    return RUN_MULTIPLE_VECTORS;
}

static arena src_arena, dst_arena;
static unsigned char *src_pristine;

/* The kernel call in flight: a guard-page fault ends the test inside it, and the test's
 * teardown then says which call it was. */
static char current_call[256];
static bool in_call;

static int report_faulting_call(void **state)
{
    (void)state;
    if (in_call) print_error("the fault happened in %s\n", current_call);
    in_call = false;
    return 0;
}

/* One call of one filler; fails the test with everything needed to replay it. */
static void check_one_fill(const filler_entry *e, size_t es, int64_t count, src_place sp, int dp)
{
    const family f = e->op;
    ptrdiff_t lo, hi;
    source_extent(f, count, es, &lo, &hi);
    const unsigned char *src = place_source(&src_arena, sp, lo, hi);
    const size_t bytes = (size_t)count * es;
    dst_window w = place_dst(&dst_arena, dp, bytes);

    char where[32];
    dst_place_name(dp, where, sizeof where);
    snprintf(current_call, sizeof current_call,
             "%s(count %" PRId64 ", elem_size %zu), dst %s, src %s", e->name, count, es, where,
             src_place_names[sp]);
    in_call = true;
    e->fn(w.dst, src, count, es);
    in_call = false;

    for (size_t i = 0; i < bytes; i++) {
        const unsigned char want = contract_byte(f, src, es, i);
        if (w.dst[i] != want)
            fail_msg("%s(count %" PRId64 ", elem_size %zu), dst %s, src %s: byte %zu "
                     "(element %zu) is %02x, the contract says %02x",
                     e->name, count, es, where, src_place_names[sp], i, i / es, w.dst[i], want);
    }
    const ptrdiff_t bad = first_clobbered(&w, bytes);
    if (bad != PTRDIFF_MIN)
        fail_msg("%s(count %" PRId64 ", elem_size %zu), dst %s, src %s: wrote byte %td "
                 "relative to dst, outside the run of %zu bytes (%02x, sentinel %02x)",
                 e->name, count, es, where, src_place_names[sp], bad, bytes, w.dst[bad],
                 w.sentinel);
}

typedef struct filler_case {
    ndpad_isa isa;
    family op;
    run_class cls;
    char name[72];
} filler_case;

static void fillers_of_class(void **state)
{
    const filler_case *c = (const filler_case *)*state;
    skip_unless_available(c->isa);
    const int64_t vector = level_of(c->isa)->vector_bytes;
    int entries = 0, calls = 0;
    for (int k = 0; k < FILLER_COUNT; k++) {
        const filler_entry *e = &fillers[k];
        if (e->isa != c->isa || e->op != c->op) continue;
        entries++;
        const size_t *sizes = e->elem_bytes ? &e->elem_bytes : any_sizes;
        const size_t nsizes = e->elem_bytes ? 1 : sizeof(any_sizes) / sizeof(any_sizes[0]);
        for (size_t s = 0; s < nsizes; s++) {
            for (size_t n = 0; n < sizeof(run_counts) / sizeof(run_counts[0]); n++) {
                if (classify(run_counts[n], sizes[s], vector) != c->cls) continue;
                for (int sp = 0; sp < SRC_PLACES; sp++)
                    for (int dp = 0; dp < DST_PLACES; dp++) {
                        check_one_fill(e, sizes[s], run_counts[n], (src_place)sp, dp);
                        calls++;
                    }
            }
        }
    }
    assert_true(entries > 0 && calls > 0);
    print_message("      %d filler(s), %d calls\n", entries, calls);
    assert_memory_equal(src_arena.lo, src_pristine, (size_t)(src_arena.hi - src_arena.lo));
}

/* ===================================================================================== */
/* interior copies                                                                        */
/* ===================================================================================== */

/* 257..8192 take the x86 copies' aligned-destination path: both ends of it are here */
static const size_t large_copy_sizes[] =
    {257,           300,       511,  512,  513,  1000,      1024,
     4095,          4096 + 13, 8191, 8192, 8193, 65536 + 7, (1u << 20) + 37,
     (3u << 20) + 5};
#define MAX_COPY ((3u << 20) + 5)
static const size_t copy_src_offsets[] = {0, 3, 33};
static const size_t copy_dst_offsets[] = {0, 1, 7, 31, 32, 63};

static arena copy_src, copy_dst;

typedef struct copy_case {
    ndpad_isa isa;
    bool nt;
    bool large;
    char name[72];
} copy_case;

static void check_one_copy(const copy_entry *e, size_t bytes, const unsigned char *src,
                           const char *src_where, dst_window *w, const char *dst_where)
{
    snprintf(current_call, sizeof current_call, "%s(%zu bytes), dst %s, src %s", e->name, bytes,
             dst_where, src_where);
    in_call = true;
    e->fn(w->dst, src, bytes);
    in_call = false;
    const ptrdiff_t diff = test_first_difference(src, w->dst, bytes);
    if (diff >= 0)
        fail_msg("%s(%zu bytes), dst %s, src %s: byte %td is %02x, source has %02x", e->name, bytes,
                 dst_where, src_where, diff, w->dst[diff], src[diff]);
    const ptrdiff_t bad = first_clobbered(w, bytes);
    if (bad != PTRDIFF_MIN)
        fail_msg("%s(%zu bytes), dst %s, src %s: wrote byte %td relative to dst, outside "
                 "the copy (%02x, sentinel %02x)",
                 e->name, bytes, dst_where, src_where, bad, w->dst[bad], w->sentinel);
}

static void copy_sizes(const copy_entry *e, size_t bytes)
{
    char dst_where[32], src_where[32];
    /* source against either guard page; a 0-byte copy gets a pointer to the page itself */
    const unsigned char *edges[2] = {copy_src.hi - bytes, copy_src.lo};
    for (int s = 0; s < 2; s++) {
        snprintf(src_where, sizeof src_where, s == 0 ? "at page end" : "at page start");
        for (int d = 0; d < 3; d++) {
            dst_window w;
            if (d == 2) {
                w = place_dst(&copy_dst, DST_AT_PAGE_END, bytes);
                snprintf(dst_where, sizeof dst_where, "at page end");
            } else if (d == 1) {
                w = place_dst(&copy_dst, DST_AT_PAGE_START, bytes);
                snprintf(dst_where, sizeof dst_where, "at page start");
            } else {
                w = place_dst(&copy_dst, 3, bytes);
                snprintf(dst_where, sizeof dst_where, "64k+%zu", dst_offsets[3]);
            }
            check_one_copy(e, bytes, edges[s], src_where, &w, dst_where);
        }
    }
    for (size_t so = 0; so < sizeof(copy_src_offsets) / sizeof(copy_src_offsets[0]); so++) {
        const unsigned char *src = copy_src.lo + 64 + copy_src_offsets[so];
        snprintf(src_where, sizeof src_where, "64k+%zu", copy_src_offsets[so]);
        for (size_t d = 0; d < sizeof(copy_dst_offsets) / sizeof(copy_dst_offsets[0]); d++) {
            dst_window w;
            w.sentinel = (d & 1) ? 0x5A : TEST_SENTINEL;
            w.dst = copy_dst.lo + 64 + copy_dst_offsets[d];
            w.from = w.dst - TEST_GUARD;
            w.to = w.dst + bytes + TEST_GUARD;
            memset(w.from, w.sentinel, (size_t)(w.to - w.from));
            snprintf(dst_where, sizeof dst_where, "64k+%zu", copy_dst_offsets[d]);
            check_one_copy(e, bytes, src, src_where, &w, dst_where);
        }
    }
}

static void copies_of_class(void **state)
{
    const copy_case *c = (const copy_case *)*state;
    skip_unless_available(c->isa);
    int entries = 0;
    for (int k = 0; k < COPY_COUNT; k++) {
        const copy_entry *e = &copies[k];
        if (e->isa != c->isa || e->nt != c->nt) continue;
        entries++;
        if (c->large) {
            for (size_t n = 0; n < sizeof(large_copy_sizes) / sizeof(large_copy_sizes[0]); n++)
                copy_sizes(e, large_copy_sizes[n]);
        } else {
            for (size_t bytes = 0; bytes <= 300; bytes++) copy_sizes(e, bytes);
        }
    }
    assert_true(entries > 0);
}

/* ===================================================================================== */
/* the list itself and the dispatch table built from it                                  */
/* ===================================================================================== */

static const filler_entry *find_filler(ndpad_isa isa, family op, size_t elem_bytes)
{
    const filler_entry *found = NULL;
    for (int k = 0; k < FILLER_COUNT; k++)
        if (fillers[k].isa == isa && fillers[k].op == op && fillers[k].elem_bytes == elem_bytes) {
            if (found)
                fail_msg("kernels.inc lists %s and %s for the same slot", found->name,
                         fillers[k].name);
            found = &fillers[k];
        }
    return found;
}

static const copy_entry *find_copy(ndpad_isa isa, bool stream)
{
    const copy_entry *found = NULL;
    for (int k = 0; k < COPY_COUNT; k++)
        if (copies[k].isa == isa && copies[k].nt == stream) {
            if (found)
                fail_msg("kernels.inc lists %s and %s for the same slot", found->name,
                         copies[k].name);
            found = &copies[k];
        }
    return found;
}

static bool isa_listed(ndpad_isa isa)
{
    for (int k = 0; k < FILLER_COUNT; k++)
        if (fillers[k].isa == isa) return true;
    for (int k = 0; k < COPY_COUNT; k++)
        if (copies[k].isa == isa) return true;
    for (size_t k = 0; k < ndpad_stream_list_count; k++)
        if (ndpad_stream_list[k].isa == isa) return true;
    for (size_t k = 0; k < ndpad_bits_list_count; k++)
        if (ndpad_bits_list[k].isa == isa) return true;
    return false;
}

/* A level directly under scalar has a filler for every operation, fast size and the any
 * size, one copy and one streaming copy; a level that refines another may list only what it
 * does better (it inherits the rest), but lists something, and only once per slot. */
static void kernel_list_covers_every_operation_and_fast_size_per_isa(void **state)
{
    (void)state;
    for (int i = 0; i < ISA_COUNT; i++) {
        const ndpad_isa isa = levels[i].isa;
        if (!isa_listed(isa)) {
            print_message("      %s: not compiled into this build\n", ndpad_isa_name(isa));
            continue;
        }
        const bool complete = isa == NDPAD_ISA_SCALAR || levels[i].parent == NDPAD_ISA_SCALAR;
        for (int op = 0; op < NDPAD_OP_COUNT; op++) {
            for (size_t s = 0; s < sizeof(fast_sizes) / sizeof(fast_sizes[0]); s++)
                if (!find_filler(isa, (family)op, fast_sizes[s]) && complete)
                    fail_msg("kernels.inc: no %s %s filler for %zu-byte elements",
                             ndpad_isa_name(isa), ndpad_fill_op_names[op], fast_sizes[s]);
            if (!find_filler(isa, (family)op, 0) && complete)
                fail_msg("kernels.inc: no %s %s filler for any element size", ndpad_isa_name(isa),
                         ndpad_fill_op_names[op]);
        }
        if ((!find_copy(isa, false) || !find_copy(isa, true)) && complete)
            fail_msg("kernels.inc: %s lacks NDPAD_COPY or NDPAD_COPY_NT", ndpad_isa_name(isa));
    }
    assert_true(isa_listed(NDPAD_ISA_SCALAR));
}

/* A level the library calls usable must have kernels in the list, or plans would claim a
 * level while running the scalar kernels. */
static void usable_isa_has_kernels_in_the_list(void **state)
{
    (void)state;
    assert_true(isa_available(NDPAD_ISA_SCALAR));
    for (int i = 0; i < ISA_COUNT; i++) {
        const bool usable = isa_available(levels[i].isa);
        print_message("      %-10s compiled %-3s usable %s\n", ndpad_isa_name(levels[i].isa),
                      isa_listed(levels[i].isa) ? "yes" : "no", usable ? "yes" : "no");
        if (usable) assert_true(isa_listed(levels[i].isa));
    }
}

static bool is_fast_size(size_t elem_size)
{
    for (size_t s = 0; s < sizeof(fast_sizes) / sizeof(fast_sizes[0]); s++)
        if (fast_sizes[s] == elem_size) return true;
    return false;
}

/* The kernel a level runs for `op` and `elem_size`: its own for that size where the list has
 * one, else (for a size without kernels of its own) its any-size kernel, else its parent's
 * (BLIS: a level inherits every slot it does not fill). */
static const filler_entry *expected_filler(ndpad_isa isa, family op, size_t elem_size)
{
    for (;;) {
        const filler_entry *want = find_filler(isa, op, elem_size);
        if (!want && !is_fast_size(elem_size)) want = find_filler(isa, op, 0);
        if (want) return want;
        const ndpad_isa parent = level_of(isa)->parent;
        if (parent == isa) return NULL;
        isa = parent;
    }
}

static const copy_entry *expected_copy(ndpad_isa isa, bool stream)
{
    for (;;) {
        const copy_entry *want = find_copy(isa, stream);
        if (want) return want;
        const ndpad_isa parent = level_of(isa)->parent;
        if (parent == isa) return NULL;
        isa = parent;
    }
}

/* ndpad_kernels_select(isa, elem_size) gives, for each mode, the kernel of the mode's
 * operation the level runs (expected_filler), and the level's copies. */
static void dispatch_table_selects_the_listed_kernel(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 64};
    for (int i = 0; i < ISA_COUNT; i++) {
        const ndpad_isa isa = levels[i].isa;
        if (!isa_listed(isa)) continue;
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            const ndpad_kernels *k = ndpad_kernels_select(isa, sizes[s]);
            assert_non_null(k);
            for (int m = 0; m < MODE_COUNT; m++) {
                const filler_entry *want =
                    expected_filler(isa, mode_family(all_modes[m]), sizes[s]);
                assert_non_null(want);
                if (k->fill[all_modes[m]] != want->fn ||
                    strcmp(k->fill_name[all_modes[m]], want->name) != 0)
                    fail_msg("ndpad_kernels_select(%s, %zu) %s filler is %s, expected %s",
                             ndpad_isa_name(isa), sizes[s], ndpad_mode_name((ndpad_mode)m),
                             k->fill_name[all_modes[m]], want->name);
            }
            const copy_entry *copy = expected_copy(isa, false), *stream = expected_copy(isa, true);
            assert_true(copy != NULL && stream != NULL);
            assert_true(k->copy == copy->fn && strcmp(k->copy_name, copy->name) == 0);
            assert_true(k->copy_nt == stream->fn && strcmp(k->copy_nt_name, stream->name) == 0);
        }
    }
}

/* ===================================================================================== */
/* sub-byte kernels (NDPAD_BITS_SHIFT / NDPAD_BITS_REVERSE)                                 */
/* ===================================================================================== */

/* The contracts of kernels.h, written out here. */
static uint8_t shifted_byte(const uint8_t *src, size_t k, unsigned shift)
{
    return (uint8_t)((src[k] >> shift) | (src[k + 1] << (8 - shift)));
}

static uint8_t reversed_byte(uint8_t x, unsigned bits)
{
    uint8_t r = 0;
    for (unsigned e = 0; e < 8 / bits; e++) {
        const unsigned v = (x >> (e * bits)) & ((1u << bits) - 1);
        r = (uint8_t)(r | v << (8 - bits - e * bits));
    }
    return r;
}

static const size_t bits_lengths[] = {0,  1,  2,  3,  7,   15,  16,  17,  31,   32,  33,
                                      63, 64, 65, 95, 127, 128, 129, 255, 1000, 4099};

/* Every bit entry of the list on the levels this CPU runs, against the contract: every
 * shift (1..7) or element width (1, 2, 4), lengths around the vector widths, the source
 * against a PROT_NONE page at its end and at its start (a read past it faults) and at odd
 * offsets, the destination between sentinels. */
static void bits_entries_keep_their_contract(void **state)
{
    (void)state;
    int tested = 0;
    for (size_t e = 0; e < ndpad_bits_list_count; e++) {
        const ndpad_bits_entry *entry = &ndpad_bits_list[e];
        if (!isa_available(entry->isa)) continue;
        tested++;
        for (size_t l = 0; l < sizeof(bits_lengths) / sizeof(bits_lengths[0]); l++) {
            const size_t bytes = bits_lengths[l];
            const unsigned last = entry->reverse ? 4 : 7; /* bits 1, 2, 4 or shifts 1..7 */
            for (unsigned arg = 1; arg <= last; arg++) {
                if (entry->reverse && arg == 3) continue;
                /* the shift reads bytes + 1 source bytes, the reversal bytes */
                const ptrdiff_t reads = (ptrdiff_t)bytes + (entry->reverse ? 0 : 1);
                for (int sp = SRC_AT_PAGE_END; sp <= SRC_OFFSET_5; sp++) {
                    const uint8_t *src = place_source(&src_arena, (src_place)sp, 0, reads);
                    dst_window w =
                        place_dst(&dst_arena, (int)(l + arg + (size_t)sp) % DST_PLACES, bytes);
                    if (entry->reverse)
                        entry->reverse_fn(w.dst, src, bytes, arg);
                    else
                        entry->shift(w.dst, src, bytes, arg);
                    for (size_t k = 0; k < bytes; k++) {
                        const uint8_t want = entry->reverse ? reversed_byte(src[bytes - 1 - k], arg)
                                                            : shifted_byte(src, k, arg);
                        if (w.dst[k] != want)
                            fail_msg("%s(%zu bytes, %s %u): byte %zu is 0x%02x, expected 0x%02x",
                                     entry->name, bytes, entry->reverse ? "bits" : "shift", arg, k,
                                     w.dst[k], want);
                    }
                    const ptrdiff_t bad = first_clobbered(&w, bytes);
                    if (bad != PTRDIFF_MIN)
                        fail_msg("%s(%zu bytes, %u) wrote at offset %td", entry->name, bytes, arg,
                                 bad);
                }
            }
        }
    }
    assert_true(tested >= 2); /* the scalar shift and reversal at least */
}

/* A level's bit kernels are its own entries, else its nearest ancestor's (isa-levels.inc's
 * parent chain, as for every kernel): ndpad_kernels_select's slots, by name too. */
static void bits_slots_inherit_along_the_parent_chain(void **state)
{
    (void)state;
    for (int i = 0; i < ISA_COUNT; i++) {
        const ndpad_isa isa = levels[i].isa;
        for (int reverse = 0; reverse < 2; reverse++) {
            const ndpad_bits_entry *want = NULL;
            for (ndpad_isa at = isa; want == NULL;) {
                for (size_t e = 0; e < ndpad_bits_list_count; e++)
                    if (ndpad_bits_list[e].isa == at && ndpad_bits_list[e].reverse == reverse)
                        want = &ndpad_bits_list[e];
                if (at == NDPAD_ISA_SCALAR) break;
                at = level_of(at)->parent;
            }
            assert_non_null(want);
            const ndpad_kernels *k = ndpad_kernels_select(isa, 1);
            const char *name = reverse ? k->bits_reverse_name : k->bits_shift_name;
            const bool same =
                reverse ? k->bits_reverse == want->reverse_fn : k->bits_shift == want->shift;
            if (!same || strcmp(name, want->name) != 0)
                fail_msg("%s's bit %s kernel is %s, expected %s", ndpad_isa_name(isa),
                         reverse ? "reversal" : "shift", name, want->name);
        }
    }
}

/* ===================================================================================== */

static int group_setup(void **state)
{
    (void)state;
    src_arena = arena_make((size_t)MAX_ELEM * MAX_COUNT + 512);
    dst_arena = arena_make((size_t)MAX_ELEM * MAX_COUNT + 512);
    arena_randomize(&src_arena, 11);
    src_pristine = (unsigned char *)test_xmalloc((size_t)(src_arena.hi - src_arena.lo));
    memcpy(src_pristine, src_arena.lo, (size_t)(src_arena.hi - src_arena.lo));
    copy_src = arena_make(MAX_COPY + 512);
    copy_dst = arena_make(MAX_COPY + 512);
    arena_randomize(&copy_src, 12);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    arena_free(&src_arena);
    arena_free(&dst_arena);
    arena_free(&copy_src);
    arena_free(&copy_dst);
    free(src_pristine);
    return 0;
}

/* Whether the list has a filler of `op` (a copy when op < 0, streaming when op == -2) for
 * `isa`: a test case exists for each such pair, so a new entry is tested automatically. */
static bool lists(ndpad_isa isa, int op)
{
    if (op >= 0) {
        for (int k = 0; k < FILLER_COUNT; k++)
            if (fillers[k].isa == isa && (int)fillers[k].op == op) return true;
        return false;
    }
    for (int k = 0; k < COPY_COUNT; k++)
        if (copies[k].isa == isa && copies[k].nt == (op == -2)) return true;
    return false;
}

enum { FILLER_CASES = ISA_COUNT * NDPAD_OP_COUNT * RUN_CLASSES, COPY_CASES = ISA_COUNT * 4 };

int main(void)
{
    static filler_case filler_cases[FILLER_CASES];
    static copy_case copy_cases[COPY_CASES];
    static struct CMUnitTest tests[5 + FILLER_CASES + COPY_CASES];
    size_t n = 0;
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(
        kernel_list_covers_every_operation_and_fast_size_per_isa);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(usable_isa_has_kernels_in_the_list);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(dispatch_table_selects_the_listed_kernel);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(bits_entries_keep_their_contract);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(bits_slots_inherit_along_the_parent_chain);

    size_t f = 0, c = 0;
    for (int i = 0; i < ISA_COUNT; i++) {
        const ndpad_isa isa = levels[i].isa;
        for (int op = 0; op < NDPAD_OP_COUNT; op++)
            for (int cls = 0; cls < RUN_CLASSES && lists(isa, op); cls++) {
                filler_case *fc = &filler_cases[f++];
                fc->isa = isa;
                fc->op = (family)op;
                fc->cls = (run_class)cls;
                snprintf(fc->name, sizeof fc->name, "%s_%s_%s", ndpad_isa_name(isa),
                         ndpad_fill_op_names[op], run_class_names[cls]);
                tests[n++] =
                    (struct CMUnitTest){fc->name, fillers_of_class, NULL, report_faulting_call, fc};
            }
        for (int kind = 0; kind < 4; kind++) {
            if (!lists(isa, kind >= 2 ? -2 : -1)) continue;
            copy_case *cc = &copy_cases[c++];
            cc->isa = isa;
            cc->nt = kind >= 2;
            cc->large = kind & 1;
            snprintf(cc->name, sizeof cc->name, "%s_%s_%s", ndpad_isa_name(isa),
                     cc->nt ? "copy_nt" : "copy",
                     cc->large ? "large_sizes_misaligned" : "sizes_0_to_300_misaligned");
            tests[n++] =
                (struct CMUnitTest){cc->name, copies_of_class, NULL, report_faulting_call, cc};
        }
    }
    return _cmocka_run_group_tests("kernels", tests, n, group_setup, group_teardown);
}
