#!/usr/bin/env python3
"""Whose threads run ndpad's tiles inside a torch model (issue 31, item 2): a small model
alternating torch operators and reflect pads (LAYERS x (reflect pad 1 + Conv2d 3x3 32->32
+ ReLU) on 1x32x128x128, no_grad) at 2 threads, the pads routed by ndpad.torch.install(),
in variants timed in interleaved rounds (bench_timing.interleaved_times):

  (a) torch's own pad                  ndpad not installed
  (b) installed, ndpad's own workers   ndpad's threads beside torch's (the schedule of
                                       a plan without a host pool: NDPAD_SCHEDULE_DEFAULT)
  (b') installed, ndpad's OpenMP team  NDPAD_SCHEDULE_FIXED_TEAM (NDPAD_THREADS_FIXED=1)
  (c) installed, torch's pool          ndpad's tiles through at::parallel_for (the default)

Per variant: median, mean (the stalls of a busy machine included), p90, and the median
against (a). A second table times the pads alone (the conv case 1x64x256x256, float32 NCHW
and NHWC, bfloat16, every torch mode): a copy of the output, torch's F.pad, and F.pad
installed on each pool, fastest and median call (--pads calls each; 0 skips it).
Targets: (c) faster than (b), and no slower than (a). A busy machine is reported as it
is: the load average before and after, and how many of torch's joins
made ndpad back off (ndpad::stalls()).

In a process of PyPI's torch there is one libgomp.so.1 (torch's wheel ships one with that
soname, and libndpad links the same name), so (b') runs on the threads of torch's own
OpenMP team too: it differs from (c) in its schedule (static blocks joined at a barrier,
against tiles claimed from a counter with a back-off after a stall).

Usage: python3 python/bench/bench_torch_pool.py [--rounds N] [--layers N] [--threads N]
                                               [--size N] [--pads N]
Needs torch >= 2.4 and the native kernels (compiled at first use); otherwise it prints why
and exits 0, so a main job can call it unconditionally."""

import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]  # bench_timing, then python/'s ndpad

from bench_timing import interleaved_times, nothing  # noqa: E402

# set_pool() choices of the native kernels (_torch_native.cpp)
TORCH_POOL, NDPAD_WORKERS, NDPAD_TEAM = 0, 1, 2


def fmt(seconds):
    return "%.2f ms" % (seconds * 1e3) if seconds >= 1e-3 else "%.1f us" % (seconds * 1e6)


def p90(times):
    return sorted(times)[int(0.9 * (len(times) - 1))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="interleaved rounds")
    parser.add_argument("--layers", type=int, default=6, help="pad + conv layers (4-8)")
    parser.add_argument("--threads", type=int, default=2, help="torch.set_num_threads")
    parser.add_argument("--size", type=int, default=128, help="height and width")
    parser.add_argument("--pads", type=int, default=40,
                        help="calls per pad of the second table (0: none)")
    args = parser.parse_args()
    try:
        import torch
        import ndpad.torch as nt
    except ImportError as exc:
        print("bench_torch_pool.py: skipped (%s)" % exc)
        return 0
    F = torch.nn.functional
    nt.install()  # compiles the native kernels at first use
    nt.uninstall()
    if nt.backend() is not None or not nt.native_status().startswith("native"):
        print("bench_torch_pool.py: skipped (the native kernels are not available: %s)"
              % nt.native_status())
        return 0
    ops = torch.ops.ndpad
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    convs = [torch.nn.Conv2d(32, 32, 3) for _ in range(args.layers)]
    x = torch.randn(1, 32, args.size, args.size)

    def model():
        y = x
        for conv in convs:
            y = conv(F.pad(y, (1, 1, 1, 1), "reflect")).relu()
        return y

    def installed(choice):
        def setup():
            ops.set_pool(choice)
            nt.install()

        def teardown():
            nt.uninstall()
            ops.set_pool(TORCH_POOL)
        return setup, teardown

    variants = [("(a) torch's own pad", nothing, nothing)]
    for choice, name in ((NDPAD_WORKERS, "(b) installed, ndpad's own workers"),
                         (NDPAD_TEAM, "(b') installed, ndpad's OpenMP team"),
                         (TORCH_POOL, "(c) installed, torch's pool")):
        variants.append((name,) + installed(choice))
    with torch.no_grad():
        want = model()
        for name, setup, teardown in variants[1:]:
            setup()
            routed = ops.calls()[0]
            got = model()
            assert ops.calls()[0] == routed + args.layers, name  # every pad went to ndpad
            teardown()
            assert torch.equal(got, want), name
        load_before = os.getloadavg()
        stalls_before = ops.stalls()
        times = interleaved_times([(setup, model, teardown)
                                   for _, setup, teardown in variants], args.rounds)
        stalls = ops.stalls() - stalls_before
        load_after = os.getloadavg()
    print("ndpad.torch: whose threads run the pads of a model, torch %s, %d threads, "
          "%d rounds" % (torch.__version__, args.threads, args.rounds))
    print("load average %.2f %.2f %.2f before, %.2f %.2f %.2f after" % (load_before +
                                                                        load_after))
    print("%-42s %10s %10s %10s %9s" % (
        "%d x (reflect pad + conv 3x3 + relu), 1x32x%dx%d" % (args.layers, args.size,
                                                              args.size),
        "median", "mean", "p90", "vs (a)"))
    base = statistics.median(times[0])
    for (name, _, _), t in zip(variants, times):
        print("%-42s %10s %10s %10s %8.2fx" % ("  " + name, fmt(statistics.median(t)),
                                               fmt(statistics.fmean(t)), fmt(p90(t)),
                                               statistics.median(t) / base))
    med = [statistics.median(t) for t in times]
    print("torch's joins that made ndpad back off during (c): %d" % stalls)
    print("targets: (c) faster than (b): %s (%.2fx); (c) no slower than (a): %s (%.2fx)"
          % ("yes" if med[3] < med[1] else "NO", med[1] / med[3],
             "yes" if med[3] <= 1.05 * med[0] else "NO", med[0] / med[3]))
    if args.pads:
        print()
        pads_table(torch, nt, F, ops, installed, args.pads)
    return 0


def pads_table(torch, nt, F, ops, installed, rounds):
    """The pads alone (the conv case) on each pool, fastest and median of `rounds`
    interleaved calls: on a busy machine the fastest call is the one no thread was
    descheduled in, the closest to what an idle machine gives."""
    cl = torch.channels_last
    cases = [("1x64x256x256 NCHW float32", torch.randn(1, 64, 256, 256)),
             ("1x64x256x256 NHWC float32", torch.randn(1, 64, 256, 256).contiguous(
                 memory_format=cl)),
             ("1x64x256x256 NCHW bfloat16", torch.randn(1, 64, 256, 256).bfloat16())]
    names = ["copy", "F.pad", "torch pool", "workers", "team"]
    print("pads alone, %d threads, fastest / median of %d calls (ms)" % (
        torch.get_num_threads(), rounds))
    print("%-28s %-9s" % ("case", "mode") + "".join(" %15s" % n for n in names) +
          "  F/pool (fastest)")
    for name, x in cases:
        for mode in ("constant", "reflect", "replicate", "circular"):
            want = F.pad(x, (1, 1, 1, 1), mode)
            variants = [(nothing, lambda: torch.empty_like(want).copy_(want), nothing),
                        (nothing, lambda: F.pad(x, (1, 1, 1, 1), mode), nothing)]
            for choice in (TORCH_POOL, NDPAD_WORKERS, NDPAD_TEAM):
                variants.append((installed(choice)[0], lambda: F.pad(x, (1, 1, 1, 1), mode),
                                 installed(choice)[1]))
            times = interleaved_times(variants, rounds)
            best = [min(t) for t in times]
            print("%-28s %-9s" % (name, mode) + "".join(
                " %7.2f/%7.2f" % (min(t) * 1e3, statistics.median(t) * 1e3) for t in times)
                + "  %.2fx" % (best[1] / best[2]))


if __name__ == "__main__":
    sys.exit(main())
