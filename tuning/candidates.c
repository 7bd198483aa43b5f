/* The problems ndpad-tune measures: the standard cases of bench/bench-cases.c (one per
 * class) or one problem given on the command line. The candidate tiles of each are made by
 * ndpad_tune_candidates() in src/wisdom.c, shared with NDPAD_TUNING_MEASURE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

static void set4(int64_t *dst, int64_t a, int64_t b, int64_t c, int64_t d)
{
    dst[0] = a, dst[1] = b, dst[2] = c, dst[3] = d;
}

int tune_standard_problems(tune_problem *out, int cap)
{
    int n = 0;
#define ADD(label, m, s0, s1, s2, s3, b0, b1, b2, b3, e0, e1, e2, e3)                              \
    if (n < cap) {                                                                                 \
        tune_problem *p = &out[n++];                                                               \
        memset(p, 0, sizeof(*p));                                                                  \
        snprintf(p->name, sizeof(p->name), "%s", label);                                           \
        p->rank = 4, p->mode = m, p->esize = 4;                                                    \
        set4(p->shape, s0, s1, s2, s3);                                                            \
        set4(p->pads_begin, b0, b1, b2, b3);                                                       \
        set4(p->pads_end, e0, e1, e2, e3);                                                         \
    }
    ADD("conv-constant", NDPAD_CONSTANT, 1, 64, 256, 256, 0, 0, 1, 1, 0, 0, 1, 1);
    ADD("conv-edge", NDPAD_EDGE, 1, 64, 256, 256, 0, 0, 1, 1, 0, 0, 1, 1);
    ADD("conv-reflect", NDPAD_REFLECT, 1, 64, 256, 256, 0, 0, 1, 1, 0, 0, 1, 1);
    ADD("conv-symmetric", NDPAD_SYMMETRIC, 1, 64, 256, 256, 0, 0, 1, 1, 0, 0, 1, 1);
    ADD("conv-wrap", NDPAD_WRAP, 1, 64, 256, 256, 0, 0, 1, 1, 0, 0, 1, 1);
    ADD("image-reflect", NDPAD_REFLECT, 1, 3, 1080, 1920, 0, 0, 8, 8, 0, 0, 8, 8);
    ADD("nhwc-constant", NDPAD_CONSTANT, 1, 224, 224, 3, 0, 3, 3, 0, 0, 3, 3, 0);
    ADD("channel-constant", NDPAD_CONSTANT, 8, 64, 56, 56, 0, 0, 0, 0, 0, 64, 0, 0);
    ADD("ov-small-constant", NDPAD_CONSTANT, 1, 3, 32, 40, 0, 5, 2, 1, 1, 0, 3, 7);
#undef ADD
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
        } else if (strncmp(p, "pads=", 5) == 0) {
            const char *slash = memchr(p + 5, '/', len - 5);
            if (slash == NULL) goto bad;
            nb = parse_list(p + 5, (size_t)(slash - p - 5), out->pads_begin);
            ne = parse_list(slash + 1, (size_t)(p + len - slash - 1), out->pads_end);
        } else if (strncmp(p, "mode=", 5) == 0) {
            out->mode = ndpad_mode_parse(p + 5, len - 5);
            if (out->mode < 0) goto bad;
        } else if (strncmp(p, "esize=", 6) == 0) {
            out->esize = (size_t)strtoull(p + 6, NULL, 10);
            if (out->esize == 0) goto bad;
        } else {
            goto bad;
        }
        p += len;
    }
    if (rank < 1) goto bad;
    if (nb < 0) nb = ne = rank; /* no pads: zeros */
    if (nb != rank || ne != rank) goto bad;
    out->rank = rank;
    snprintf(out->name, sizeof(out->name), "given-%s", ndpad_mode_name(out->mode));
    ndpad_problem problem = tune_as_problem(out);
    int64_t shape[NDPAD_MAX_RANK];
    if (ndpad_output_shape(&problem, shape) != NDPAD_OK) {
        fprintf(stderr, "ndpad-tune: --problem: %s\n", ndpad_last_error());
        return false;
    }
    return true;
bad:
    fprintf(stderr,
            "ndpad-tune: cannot parse --problem \"%s\"; expected e.g. "
            "\"shape=1,64,256,256 pads=0,0,1,1/0,0,1,1 mode=constant esize=4\"\n",
            spec);
    return false;
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

int tune_default_threads(void)
{
    const int64_t one = 1, zero = 0;
    const ndpad_problem problem = {.rank = 1,
                                   .mode = NDPAD_CONSTANT,
                                   .elem_size = 1,
                                   .shape = &one,
                                   .pads_begin = &zero,
                                   .pads_end = &zero};
    ndpad_options options;
    ndpad_options_init(&options);
    options.tuning = NDPAD_TUNING_HEURISTIC;
    ndpad_plan *plan = NULL;
    if (ndpad_plan_create(&problem, &options, &plan) != NDPAD_OK) return 1;
    const int threads = plan->max_threads;
    ndpad_plan_destroy(plan);
    return threads;
}
