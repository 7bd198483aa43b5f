"""The timing loop of the benchmarks in python/bench/: medians of repeated calls, one
variant after another (median_seconds) or interleaved round after round
(interleaved_medians; interleaved_times keeps every call's time, for means and tails),
with time.perf_counter."""

import os
import statistics
import time

__all__ = ["median_seconds", "interleaved_medians", "interleaved_times", "nothing",
           "save_lines"]


def nothing():
    """A setup or teardown that does nothing."""


def interleaved_times(variants, repeat):
    """Every timed call's seconds, per (setup, fn, teardown) variant; only fn is timed. One
    warm-up call each (plans, page faults, thread pools), then the variants are timed in
    turn in every round, so that a machine whose load changes slows all of them alike. The
    round's first variant rotates: a call runs after a different neighbour each round, so
    that no variant always pays for the one before it (caches it evicted, memory it
    freed)."""
    times = [[] for _ in variants]
    for setup, fn, teardown in variants:
        setup()
        fn()
        teardown()
    n = len(variants)
    for r in range(repeat):
        for k in [(r + j) % n for j in range(n)]:
            setup, fn, teardown = variants[k]
            setup()
            t0 = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t0)
            teardown()
    return times


def interleaved_medians(variants, repeat):
    """Median seconds of each (setup, fn, teardown) variant, timed by interleaved_times."""
    return [statistics.median(t) for t in interleaved_times(variants, repeat)]


def median_seconds(fn, repeat):
    """Median seconds of `repeat` calls of fn after one warm-up call."""
    return interleaved_medians([(nothing, fn, nothing)], repeat)[0]


def save_lines(path, lines):
    """A benchmark's table into `path` (its folder made when missing); nothing when None."""
    if path:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
