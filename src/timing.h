/* Clock and timing statistics shared by the measuring engine and the tuner: one median for
 * the library. */
#ifndef NDPAD_TIMING_H
#define NDPAD_TIMING_H

#include <stdbool.h>

#include "status.h"

#include "stopwatch.h" /* ndpad_now, ndpad_median */

/* Upper over lower quartile of v[0..n) (n >= 1, sorted in place): 1 for steady timings, 2
 * and more when some runs stall (another process takes the core). */
NDPAD_INTERNAL double ndpad_spread(double *v, int n);

/* ---- the confirmation rule --------------------------------------------------------------
 * A candidate replaces the heuristic only when paired runs (one of each in turn, which goes
 * first alternating, so both see the same load) say so: the median of the per-pair time
 * ratios candidate / heuristic must beat 1 by more than its own uncertainty and the
 * machine's noise. Medians of separate runs are not compared: on a shared machine they
 * swing by 15% between runs while the median of pair ratios stays within 1%.
 *
 * The uncertainty of a median of n ratios is the notch of a box plot (McGill, Tukey and
 * Larsen 1978): 1.58 x inter-quartile range / sqrt(n), about a 95% interval. Single pair
 * ratios of a 2-thread plan on a VM spread by +-15% while their median over 200 pairs is
 * good to 2%: the notch, not the raw spread, says how far the median can be trusted. */

/* Fewer confirming pairs than this decide nothing. */
#define NDPAD_MIN_PAIRS 5
/* The smallest margin a win must exceed: 2%, whatever the notch (a quiet machine's pair
 * ratios can agree to 0.5% on an effect that is not worth a wisdom entry). */
#define NDPAD_MIN_MARGIN 0.02
/* Noise (ndpad_pair_noise) above this: the machine is loaded, nothing is stored. */
#define NDPAD_MAX_NOISE 0.05

typedef struct ndpad_pair_verdict {
    int pairs;     /* ratios judged                                                       */
    double ratio;  /* median of candidate / heuristic per pair: 0.9 = the candidate takes
                      90% of the heuristic's time                                         */
    double spread; /* the median's uncertainty: 1.58 x IQR / sqrt(pairs)                 */
    double margin; /* the win required: the largest of spread, noise, floor, 2%           */
    bool loaded;   /* noise > NDPAD_MAX_NOISE: refused whatever the ratios say            */
    bool keep;     /* ratio < 1 - margin, enough pairs, not loaded                        */
    /* ndpad_judge_two_sets only: the sets judged (1: the first lost, the second did not
     * run) and each set's median ratio.                                                  */
    int sets;
    double set_ratio[2];
} ndpad_pair_verdict;

/* The verdict on `n` per-pair ratios (copied, not reordered) given the machine's `noise`
 * (which also decides `loaded`) and a `floor` for the margin that does not (the noise of
 * the heuristic against itself: how far such a median strays for no reason). */
NDPAD_INTERNAL ndpad_pair_verdict ndpad_judge_pairs(const double *ratios, int n, double noise,
                                                    double floor);

/* A winner must be real: the verdict on two INDEPENDENT sets of pairs, measured one after
 * the other, each judged by ndpad_judge_pairs. Kept only when both sets keep it (a
 * margin-sized win in one set alone, 1-2% that a second set does not see, is luck), and
 * the less favourable of the two ratios beats the larger of the two margins: the result
 * has the larger ratio, spread and margin; pairs is n1 + n2. `second` may be NULL (n2 = 0) when the first set lost: then the first set's
 * verdict, with sets = 1. */
NDPAD_INTERNAL ndpad_pair_verdict ndpad_judge_two_sets(const double *first, int n1,
                                                       const double *second, int n2, double noise,
                                                       double floor);

/* The noise of `n` ratios of two IDENTICAL runs (an A/A test; `ratios` is sorted in place):
 * how far their median is from 1 plus its uncertainty (1.58 x IQR / sqrt(n)). A median
 * of another comparison made the same way can be off by this much for no reason: the
 * load, or which of the two ran first. 1.0 for n < 2. */
NDPAD_INTERNAL double ndpad_pair_noise(double *ratios, int n);

/* How busy the rest of the machine is: a snapshot of all CPUs' time (/proc/stat) and this
 * process's own (getrusage), and the share of the machine's CPU time that OTHER processes
 * took between two snapshots (0 .. 1; 0 where /proc/stat is missing). A second core that
 * another process keeps busy makes every 2-thread plan lose, and one-thread memcpy pairs
 * do not see it; this does. */
typedef struct ndpad_load_mark {
    double busy, total; /* all CPUs, clock ticks  */
    double own;         /* this process, seconds  */
    double at;          /* ndpad_now()            */
    bool known;
} ndpad_load_mark;

NDPAD_INTERNAL ndpad_load_mark ndpad_load_mark_now(void);
NDPAD_INTERNAL double ndpad_other_load(const ndpad_load_mark *since);

/* Others' share above this during a measurement: the machine is loaded. */
#define NDPAD_MAX_OTHER_LOAD 0.10

/* Measures the machine's noise now: `pairs` pairs of the same memcpy of `bytes`, the
 * ndpad_pair_noise of their ratios; 1.0 (loaded) when no memory. */
NDPAD_INTERNAL double ndpad_measure_noise(size_t bytes, int pairs);

#endif
