#!/usr/bin/env python3
"""torch's own F.pad under load, as ndpad-bench-load measures ndpad (issue 31's load table,
its torch column): the same five cases (feature-constant, conv-constant, conv-reflect,
volume-reflect, long-wrap), a 1-thread and a 2-thread call alternated in one process
(torch.set_num_threads before each), under the same loads the benchmark makes itself:

  idle    nothing of ours
  pinned  one CPU-bound process pinned to the last core
  two     two CPU-bound processes, one per core
  ndpad   a second process running 2-thread ndpad pads in a loop (ndpad-bench-load --loop)

Per cell: median, mean and p90 of each thread count's calls, stalls (calls over 4x the
median and 0.5 ms more: a lost time slice), and 2T/1T = 2-thread mean / 1-thread mean
(issue 31's target for ndpad: at most 1.2 under load). torch runs its 2-thread calls on
its OpenMP team, which ends in a join like ndpad's fixed team.

Usage: python3 python/bench/bench_torch_load.py [--calls N] [--loads idle,pinned,two,ndpad]
                                               [--bench-load PATH]
--bench-load: ndpad-bench-load, for the "ndpad" load (skipped without it). Needs torch."""

import argparse
import os
import statistics
import subprocess
import sys
import time

try:
    import torch
    import torch.nn.functional as F
except ImportError as e:  # a main job calls it unconditionally
    print("bench_torch_load.py: skipped, torch is not importable (%s)" % e)
    sys.exit(0)

SPIN = "import os, sys\nos.sched_setaffinity(0, {int(sys.argv[1])})\nwhile True:\n    pass\n"

# name, input shape, F.pad's pad list, mode: the standard cases of bench/standard-cases.c
CASES = [
    ("feature-constant", (1, 128, 28, 28), (1, 1, 1, 1), "constant"),
    ("conv-constant", (1, 64, 256, 256), (1, 1, 1, 1), "constant"),
    ("conv-reflect", (1, 64, 256, 256), (1, 1, 1, 1), "reflect"),
    ("volume-reflect", (1, 60, 60, 128), (2, 2, 2, 2, 2, 2), "reflect"),  # 60x60x128 by 2
    ("long-wrap", (1, 1, 8 << 20), (1024, 1024), "circular"),
]


def start_load(load, bench_load):
    """The load's processes (killed by stop_load)."""
    cpus = os.cpu_count() or 1
    if load == "pinned":
        return [subprocess.Popen([sys.executable, "-c", SPIN, str(cpus - 1)])]
    if load == "two":
        return [subprocess.Popen([sys.executable, "-c", SPIN, str(c % cpus)]) for c in (0, 1)]
    if load == "ndpad":
        return [subprocess.Popen([bench_load, "--loop=default"])]
    return []


def stop_load(procs):
    for p in procs:
        p.kill()
    for p in procs:
        p.wait()


def stats(times_s):
    t = sorted(x * 1e6 for x in times_s)
    median = statistics.median(t)
    return {"median": median, "mean": statistics.fmean(t),
            "p90": t[int(0.9 * (len(t) - 1) + 0.5)],
            "stalls": sum(x > 4 * median and x > median + 500 for x in t)}


def measure(shape, pad, mode, calls):
    """1- and 2-thread F.pad calls alternated (the first of each pair alternates too)."""
    x = torch.rand(shape)
    times = {1: [], 2: []}
    for i in range(-10, calls):  # 10 warm-up pairs
        for threads in ((1, 2) if i % 2 == 0 else (2, 1)):
            torch.set_num_threads(threads)
            t0 = time.perf_counter()
            F.pad(x, pad, mode)
            took = time.perf_counter() - t0
            if i >= 0:
                times[threads].append(took)
    return stats(times[1]), stats(times[2])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=401)
    parser.add_argument("--loads", default="idle,pinned,two,ndpad")
    parser.add_argument("--bench-load", default="")
    args = parser.parse_args()
    loads = [load for load in args.loads.split(",") if load]
    if "ndpad" in loads and not os.access(args.bench_load or "", os.X_OK):
        print("# no ndpad-bench-load (--bench-load): the ndpad load is skipped")
        loads.remove("ndpad")
    print("# bench_torch_load.py: torch %s F.pad, %d alternated calls per thread count, times "
          "in us; %d CPUs; load average %s" % (torch.__version__, args.calls, os.cpu_count(),
                                               " ".join(open("/proc/loadavg").read().split()[:3])))
    print("# 2T/1T = 2-thread mean / 1-thread mean; stl: calls over 4 x the median and 0.5 ms "
          "more; med: 2T/1T medians")
    print("%-7s %-17s %-8s | %9s %9s %9s %4s | %9s %9s %9s %4s | %6s %6s" % (
        "load", "case", "variant", "1T med", "1T mean", "1T p90", "stl", "2T med", "2T mean",
        "2T p90", "stl", "2T/1T", "med"))
    for load in loads:
        procs = start_load(load, args.bench_load)
        try:
            time.sleep(0.05 if procs else 0)  # let them start
            for name, shape, pad, mode in CASES:
                s1, s2 = measure(shape, pad, mode, args.calls)
                print("%-7s %-17s %-8s | %9.1f %9.1f %9.1f %4d | %9.1f %9.1f %9.1f %4d | "
                      "%6.2f %6.2f" % (load, name, "torch", s1["median"], s1["mean"], s1["p90"],
                                       s1["stalls"], s2["median"], s2["mean"], s2["p90"],
                                       s2["stalls"], s2["mean"] / s1["mean"],
                                       s2["median"] / s1["median"]), flush=True)
        finally:
            stop_load(procs)


if __name__ == "__main__":
    main()
