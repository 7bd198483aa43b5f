/* The tile heuristic: the default tile shape of a plan, and any tile (from the wisdom, a
 * measurement or the options) made valid for a plan. */
#include "tile-choice.h"

#include <stdio.h>

#include "copy-choice.h"
#include "stream-plan.h"
#include "topology.h"

/* Each thread should get at least this much output, and about this many tiles. */
#define NDPAD_BYTES_PER_THREAD ((int64_t)128 * 1024)
#define NDPAD_TILES_PER_THREAD 4
/* A row is split into column tiles only in pieces of at least this many bytes. */
#define NDPAD_MIN_COLUMN_TILE_BYTES ((int64_t)64 * 1024)
/* The per-core L2 size assumed when hwloc does not know it. */
#define NDPAD_L2_FALLBACK ((int64_t)1024 * 1024)

static int64_t ceil_div(int64_t a, int64_t b)
{
    return a / b + (a % b != 0);
}

/* Bytes of input the plan copies (its interior region), as a double: no overflow. */
static double interior_bytes(const ndpad_plan *plan)
{
    double bytes = (double)plan->elem_size;
    for (int32_t k = 0; k < plan->ndim; k++) {
        const ndpad_dim *a = &plan->dim[k];
        const int64_t span = a->copy_end > a->copy_begin ? a->copy_end - a->copy_begin : 0;
        bytes *= (double)(span / (a->r + 1) + (span % (a->r + 1) != 0));
    }
    return bytes;
}

/* Streaming stores by default where the output cannot stay cached anyway: an output beyond
 * the last-level cache, and at one thread already the output and the input it copies
 * together beyond NDPAD_STREAM_LLC_SHARE of it (a store that misses the cache reads its line
 * first, a streaming one does not). Back to back, one thread, conv constant (1 x C x 256 x
 * 256 fp32, pad 1), cached -> streaming, against a memcpy of the output: C = 32 (17 MB in
 * all) 0.92 -> 1.07, C = 48 (26 MB) 0.94 -> 0.87, C = 64 (34 MB) 0.93 -> 0.72; conv all
 * modes 0.97-0.99 -> 0.65-0.73, image (50 MB) 0.94 -> 0.62, u8 0.89 -> 0.75 (the tuner
 * chose the same for every one-thread case, on its own). Two threads keep more cached
 * (the 2-vCPU VM this was measured on reads its cache as two): the same rule made conv
 * (34 MB) 1.5x and image (50 MB) 1.25x slower there, so it applies at one thread only. */
#define NDPAD_STREAM_LLC_SHARE 0.625

static bool streams(const ndpad_plan *plan, uint64_t llc_bytes, int64_t threads)
{
    if (llc_bytes == 0) return false;
    if ((double)plan->out_bytes > (double)llc_bytes) return true;
    return threads == 1 && (double)plan->out_bytes + interior_bytes(plan) >
                               NDPAD_STREAM_LLC_SHARE * (double)llc_bytes;
}

bool ndpad_tile_streams_alone(const ndpad_plan *plan)
{
    return !ndpad_plan_is_tiny(plan) && streams(plan, ndpad_topology_get()->llc_bytes, 1);
}

ndpad_tile ndpad_tile_default(const ndpad_plan *plan)
{
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const int64_t out_bytes = plan->out_bytes;
    ndpad_tile tile = {.rows = plan->rows > 0 ? plan->rows : 1,
                       .cols = row->n > 0 ? row->n : 1,
                       .threads = 1,
                       .nt = 0};
    const ndpad_topology *topo = ndpad_topology_get();
    int64_t threads = out_bytes / NDPAD_BYTES_PER_THREAD;
    if (threads > plan->policy.threads) threads = plan->policy.threads;
    if (threads < 1 || ndpad_plan_is_tiny(plan)) threads = 1;
    tile.nt = streams(plan, topo->llc_bytes, threads);
    /* Streaming stores: by the executor's rows where the stream kernel has none (the ROWS
     * kernel of CONSTANT; a 16 MiB output of 128-byte fp32 rows, one thread, AVX2: 0.86 of
     * a memcpy there, 1.04 through the kernel). */
    tile.rows_path = tile.nt && plan->mode == NDPAD_CONSTANT && plan->stream != NULL &&
                     plan->stream->kind == NDPAD_STREAM_ROWS;
    if (ndpad_plan_is_tiny(plan) || plan->policy.threads <= 1) return tile;
    tile.threads = (int32_t)threads;
    /* About four tiles per thread, and more when that keeps a tile within one core's L2
     * (hwloc): a thread's block of tiles is then worked through in cache-sized pieces. A
     * multiple of the threads, so that schedule(static) gives every thread as many. */
    const int64_t l2 = topo->l2_bytes != 0 ? (int64_t)topo->l2_bytes : NDPAD_L2_FALLBACK;
    int64_t want_tiles = threads * NDPAD_TILES_PER_THREAD;
    /* An output whose shares fit the threads' L2s: one tile each. More only cost a call
     * each (2 threads, back to back, medians of 5 to 10 alternating: 1x128x28x28 constant
     * 1.26-1.36 -> 1.24-1.27 of a memcpy, 1x64x56x56 1.17-1.21 -> 1.12, nhwc 1.08 -> 1.03,
     * volume even). */
    if (out_bytes <= threads * l2)
        want_tiles = threads;
    else if (ceil_div(out_bytes, l2) > want_tiles)
        want_tiles = ceil_div(ceil_div(out_bytes, l2), threads) * threads;
    if (plan->rows >= want_tiles) {
        tile.rows = ceil_div(plan->rows, want_tiles);
    } else {
        /* Few long rows: one row per tile, rows cut into column pieces. */
        tile.rows = 1;
        const int64_t pieces = ceil_div(want_tiles, plan->rows);
        int64_t cols = ceil_div(row->n, pieces);
        const int64_t min_cols = ceil_div(NDPAD_MIN_COLUMN_TILE_BYTES, (int64_t)plan->elem_size);
        if (cols < min_cols) cols = min_cols;
        tile.cols = cols < row->n ? cols : row->n;
    }
    return tile;
}

ndpad_tile ndpad_tile_fit(const ndpad_plan *plan, ndpad_tile tile)
{
    const ndpad_dim *row = &plan->dim[plan->ndim - 1];
    const int64_t rows = plan->rows > 0 ? plan->rows : 1, n = row->n > 0 ? row->n : 1;
    if (tile.rows == 0 || tile.cols == 0) {
        /* 0: the heuristic's (a wisdom entry of a class, for every problem in it). */
        const ndpad_tile heuristic = ndpad_tile_default(plan);
        if (tile.rows == 0) tile.rows = heuristic.rows;
        if (tile.cols == 0) tile.cols = heuristic.cols;
    }
    if (tile.rows < 1) tile.rows = 1;
    if (tile.rows > rows) tile.rows = rows;
    if (tile.cols < 1) tile.cols = 1;
    if (tile.cols > n) tile.cols = n;
    if (tile.threads > plan->policy.threads) tile.threads = plan->policy.threads;
    if (tile.threads < 1 || ndpad_plan_is_tiny(plan)) tile.threads = 1;
    tile.nt = tile.nt != 0;
    if (tile.copy < 0 || tile.copy >= NDPAD_COPY_KINDS) tile.copy = NDPAD_COPY_VECTOR;
    tile.rows_path = tile.rows_path != 0;
    if (tile.prefetch < -1 || tile.prefetch > NDPAD_PREFETCH_ROWS_MAX) tile.prefetch = 0;
    return tile;
}

bool ndpad_tile_same(const ndpad_tile *a, const ndpad_tile *b)
{
    return a->rows == b->rows && a->cols == b->cols && a->threads == b->threads && a->nt == b->nt &&
           a->copy == b->copy && a->rows_path == b->rows_path && a->prefetch == b->prefetch;
}

int ndpad_tile_text(const ndpad_tile *t, char *buf, size_t size)
{
    const char *copy = t->copy != NDPAD_COPY_VECTOR ? ndpad_copy_name(t->copy) : NULL;
    char prefetch[16] = "";
    if (t->prefetch != 0)
        snprintf(prefetch, sizeof(prefetch), "/pf%d", t->prefetch < 0 ? 0 : (int)t->prefetch);
    return snprintf(buf, size, "%lldx%lld/%dt%s%s%s%s%s", (long long)t->rows, (long long)t->cols,
                    (int)t->threads, t->nt ? "/nt" : "", copy != NULL ? "/" : "",
                    copy != NULL ? copy : "", t->rows_path ? "/rows" : "", prefetch);
}
