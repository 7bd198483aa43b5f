#!/usr/bin/env python3
"""ndpad.pad against numpy.pad on the conv case: a 1x64x256x256 float32 tensor padded by 1 on
H and W, in every mode, with ndpad at 1 and 2 threads (and 2 threads writing into a
preallocated out=). Each time is the median of --repeat runs of the whole call, allocation
of the result included (numpy.pad allocates too); the speedup is numpy's time over ndpad's
in the same run. Every ndpad result is checked against numpy.pad's first.

Usage: python3 python/bench/bench_numpy.py [--repeat N] [--shape 1,64,256,256] [--pad 1]
libndpad is found as the package finds it (NDPAD_LIBRARY, next to the package, the system).
Without numpy it prints why and exits 0, so a main job can call it unconditionally."""

import argparse
import os
import sys

from bench_timing import median_seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs per timing (median)")
    parser.add_argument("--shape", default="1,64,256,256", help="input shape, N,C,H,W")
    parser.add_argument("--pad", type=int, default=1, help="pad on H and W (both sides)")
    args = parser.parse_args()

    try:
        import numpy as np
    except ImportError:
        print("bench_numpy: numpy is not installed; skipping ndpad vs numpy.pad")
        return 0
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import ndpad

    shape = tuple(int(s) for s in args.shape.split(","))
    p = args.pad
    widths = [(0, 0)] * (len(shape) - 2) + [(p, p), (p, p)]
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    out_shape = tuple(d + b + e for d, (b, e) in zip(shape, widths))
    out = np.empty(out_shape, dtype=np.float32)
    mib = (x.nbytes + out.nbytes) / 2**20

    print("ndpad.pad vs numpy.pad: float32 %s, pad %d on H and W (%.1f MiB in + out), numpy %s,"
          " median of %d runs" % ("x".join(map(str, shape)), p, mib, np.__version__,
                                  args.repeat))
    print("library: %s" % ndpad.library_path)
    header = ("mode", "numpy.pad ms", "ndpad t=1 ms", "speedup", "ndpad t=2 ms", "speedup",
              "t=2 out= ms", "speedup")
    print("%-10s %13s %13s %8s %13s %8s %12s %8s" % header)
    for mode in ("constant", "edge", "reflect", "symmetric", "wrap", "empty"):
        want = np.pad(x, widths, mode)
        for threads in (1, 2):
            got = ndpad.pad(x, widths, mode, threads=threads)
            if mode == "empty":
                inner = tuple(slice(b, b + d) for (b, _), d in zip(widths, shape))
                got, want_cmp = got[inner], want[inner]
            else:
                want_cmp = want
            if not np.array_equal(got, want_cmp):
                print("bench_numpy: ndpad.pad differs from numpy.pad in mode %s" % mode)
                return 1
        t_np = median_seconds(lambda: np.pad(x, widths, mode), args.repeat)
        t_1 = median_seconds(lambda: ndpad.pad(x, widths, mode, threads=1), args.repeat)
        t_2 = median_seconds(lambda: ndpad.pad(x, widths, mode, threads=2), args.repeat)
        t_o = median_seconds(lambda: ndpad.pad(x, widths, mode, threads=2, out=out),
                             args.repeat)
        print("%-10s %13.2f %13.2f %7.1fx %13.2f %7.1fx %12.2f %7.1fx"
              % (mode, t_np * 1e3, t_1 * 1e3, t_np / t_1, t_2 * 1e3, t_np / t_2,
                 t_o * 1e3, t_np / t_o))
    return 0


if __name__ == "__main__":
    sys.exit(main())
