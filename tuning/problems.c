/* The problems ndpad-tune measures: the classes of the standard benchmark cases (the table
 * in bench/standard-cases.c, shared with ndpad-bench) or problems given on the command line;
 * and the plans it makes of them. The candidate tiles of each are made by the measuring
 * engine in src/, shared with NDPAD_TUNING_MEASURE. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime (stopwatch.h) in strict C11 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "standard-cases.h"
#include "tune.h"

int tune_standard_problems(tune_problem *out, int cap, bool large)
{
    int n = 0;
    for (size_t i = 0; i < standard_case_count && n < cap; i++) {
        const standard_case *c = &standard_cases[i];
        if (!c->tuned) continue;          /* its class is another case's */
        if (c->large && !large) continue; /* tens of ms a run: only with --large */
        tune_problem *p = &out[n++];
        memset(p, 0, sizeof(*p));
        snprintf(p->name, sizeof(p->name), "%s-%s", c->name, ndpad_mode_name(c->mode));
        p->rank = c->rank, p->mode = c->mode, p->esize = c->elem_size;
        memcpy(p->shape, c->shape, (size_t)c->rank * sizeof(int64_t));
        memcpy(p->pads_begin, c->pads_begin, (size_t)c->rank * sizeof(int64_t));
        memcpy(p->pads_end, c->pads_end, (size_t)c->rank * sizeof(int64_t));
        p->large = c->large;
    }
    return n;
}

/* "a,b,c" into dst; the count, or -1. */
static int parse_list(const char *s, size_t len, int64_t *dst)
{
    int n = 0;
    while (len > 0) {
        if (n == NDPAD_MAX_RANK) return -1;
        char *end;
        char num[32];
        size_t k = 0;
        while (k < len && s[k] != ',' && k < sizeof(num) - 1) num[k] = s[k], k++;
        num[k] = '\0';
        const long long v = strtoll(num, &end, 10);
        if (end == num || *end != '\0') return -1;
        dst[n++] = v;
        s += k, len -= k;
        if (len > 0 && *s == ',')
            s++, len--;
        else if (len > 0)
            return -1;
    }
    return n;
}

/* A --problem SPEC that cannot be used: what is wrong with it, and what one looks like. */
static bool bad_spec(const char *spec, const char *why, const char *part, size_t part_len)
{
    fprintf(stderr, "ndpad-tune: --problem \"%s\": %s", spec, why);
    if (part != NULL) fprintf(stderr, " \"%.*s\"", (int)part_len, part);
    fprintf(stderr, "\n  expected e.g. \"shape=1,64,256,256 pads=0,0,1,1/0,0,1,1 mode=constant "
                    "esize=4\"\n");
    return false;
}

bool tune_parse_problem(const char *spec, tune_problem *out)
{
    memset(out, 0, sizeof(*out));
    out->mode = NDPAD_CONSTANT;
    out->esize = 4;
    int rank = -1, nb = -1, ne = -1;
    const char *p = spec;
    while (*p != '\0') {
        while (*p == ' ') p++;
        if (*p == '\0') break;
        const char *end = strchr(p, ' ');
        const size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        if (strncmp(p, "shape=", 6) == 0) {
            rank = parse_list(p + 6, len - 6, out->shape);
            if (rank < 1)
                return bad_spec(spec, "shape= wants 1 to 32 comma-separated integers, not", p + 6,
                                len - 6);
        } else if (strncmp(p, "pads=", 5) == 0) {
            const char *slash = memchr(p + 5, '/', len - 5);
            if (slash == NULL)
                return bad_spec(spec, "pads= wants BEGIN/END lists (e.g. 1,1/2,2), not", p + 5,
                                len - 5);
            nb = parse_list(p + 5, (size_t)(slash - p - 5), out->pads_begin);
            ne = parse_list(slash + 1, (size_t)(p + len - slash - 1), out->pads_end);
            if (nb < 0 || ne < 0)
                return bad_spec(spec, "pads= lists must be comma-separated integers, not", p + 5,
                                len - 5);
        } else if (strncmp(p, "mode=", 5) == 0) {
            out->mode = ndpad_mode_parse(p + 5, len - 5);
            if (out->mode < 0)
                return bad_spec(spec, "mode= wants constant, edge, reflect, symmetric or wrap, not",
                                p + 5, len - 5);
        } else if (strncmp(p, "esize=", 6) == 0) {
            char *stop;
            const long long v = strtoll(p + 6, &stop, 10);
            if (stop == p + 6 || stop != p + len || v < 1 || v > (1LL << 20))
                return bad_spec(spec, "esize= wants the element size in bytes (1 or more), not",
                                p + 6, len - 6);
            out->esize = (size_t)v;
        } else {
            return bad_spec(spec, "unknown key (shape=, pads=, mode=, esize=):", p, len);
        }
        p += len;
    }
    if (rank < 1) return bad_spec(spec, "no shape= given", NULL, 0);
    if (nb < 0) nb = ne = rank; /* no pads: zeros */
    if (nb != rank || ne != rank) {
        char why[128];
        snprintf(why, sizeof(why), "pads= has %d begin and %d end values for a shape of rank %d",
                 nb, ne, rank);
        return bad_spec(spec, why, NULL, 0);
    }
    out->rank = rank;
    snprintf(out->name, sizeof(out->name), "given-%s", ndpad_mode_name(out->mode));
    ndpad_problem problem = tune_as_problem(out);
    int64_t shape[NDPAD_MAX_RANK];
    if (ndpad_output_shape(&problem, shape) != NDPAD_OK) {
        fprintf(stderr, "ndpad-tune: --problem \"%s\": %s\n", spec, ndpad_last_error());
        return false;
    }
    /* A given problem is tuned whatever its size; a large one gets a large one's share. */
    double out_bytes = (double)out->esize;
    for (int k = 0; k < rank; k++) out_bytes *= (double)shape[k];
    out->large = out_bytes >= (double)((int64_t)256 << 20);
    return true;
}

ndpad_problem tune_as_problem(const tune_problem *p)
{
    ndpad_problem problem = {.rank = p->rank,
                             .mode = p->mode,
                             .elem_size = p->esize,
                             .shape = p->shape,
                             .pads_begin = p->pads_begin,
                             .pads_end = p->pads_end};
    return problem;
}

ndpad_plan *tune_plan(const tune_problem *p, int threads)
{
    const ndpad_problem problem = tune_as_problem(p);
    ndpad_options options;
    ndpad_options_init(&options);
    options.threads = threads;
    options.tuning = NDPAD_TUNING_HEURISTIC;
    ndpad_plan *plan = NULL;
    if (ndpad_plan_create(&problem, &options, &plan) != NDPAD_OK) {
        fprintf(stderr, "ndpad-tune: %s: %s\n", p->name, ndpad_last_error());
        return NULL;
    }
    return plan;
}
