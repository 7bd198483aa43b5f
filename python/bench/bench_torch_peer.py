#!/usr/bin/env python3
"""ndpad against torch's own out= pad kernels, side by side (issue 44): the same inputs, the
output preallocated, alternated call by call in one process, at 1 and 2 threads (torch's
with torch.set_num_threads, ndpad's with its plan's thread count), with a copy of the output
(torch's copy_, on the same threads) in the same rounds as the floor. Median and mean of
each, and the ratios ndpad / torch and ndpad / copy.

torch's kernels: reflection_pad2d/3d(out=), replication_pad2d/3d(out=), and for constant
what torch's constant_pad_nd does (a fill, then a copy of the interior); wrap is torch's
F.pad(mode="circular") (no out= form: its time includes the allocation); symmetric has no
torch kernel ("-").

Targets (issue 44): ndpad's median at or below torch's at 1 and 2 threads, and at 2 threads
at most 1.1x the 2-thread copy of the output. Not a timed test: run it on an idle machine.

Usage: python3 python/bench/bench_torch_peer.py [--repeat N] [--threads 1,2] [--quick]
       [--out build/results/torch-peer.txt]
Without torch >= 2.4 it says so and exits 0 (the main job calls it unconditionally)."""

import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]  # bench_timing, then python/'s ndpad

from bench_timing import interleaved_times, nothing, save_lines  # noqa: E402

# name, shape, dtype name, mode, pads per axis (before, after) on the last axes
CASES = [
    ("conv 1x64x256x256 fp32", (1, 64, 256, 256), "float32", "edge", 1),
    ("conv 1x64x256x256 fp32", (1, 64, 256, 256), "float32", "reflect", 1),
    ("conv 1x64x256x256 fp32", (1, 64, 256, 256), "float32", "constant", 1),
    ("conv 1x64x256x256 fp32", (1, 64, 256, 256), "float32", "symmetric", 1),
    ("conv 1x64x256x256 fp32", (1, 64, 256, 256), "float32", "wrap", 1),
    ("image 1x3x1080x1920 fp32", (1, 3, 1080, 1920), "float32", "reflect", 8),
    ("u8 4096x4096", (1, 4096, 4096), "uint8", "edge", 16),
    ("volume 128^3 fp32", (1, 1, 128, 128, 128), "float32", "reflect", 4),
    ("fp16 1x64x256x256", (1, 64, 256, 256), "float16", "constant", 2),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=41)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--quick", action="store_true", help="5 rounds: a smoke run")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("bench_torch_peer: no torch; nothing measured")
        return 0
    if tuple(int(v) for v in torch.__version__.split("+")[0].split(".")[:2]) < (2, 4):
        print("bench_torch_peer: torch %s < 2.4; nothing measured" % torch.__version__)
        return 0
    import numpy as np

    import ndpad

    repeat = 5 if args.quick else args.repeat
    threads_list = [int(t) for t in args.threads.split(",")]
    aten = torch.ops.aten
    lines = []

    def say(text):
        print(text, flush=True)
        lines.append(text)

    say("ndpad %s vs torch %s out= kernels: median / mean us of %d interleaved rounds"
        % (ndpad.__version__, torch.__version__, repeat))
    say("%-26s %-9s %2s %9s %9s %9s %9s %9s %9s %7s %7s %s" % (
        "case", "mode", "T", "copy med", "torch med", "ndpad med", "copy mean", "torch mean",
        "ndpad mean", "nd/tor", "nd/cpy", "verdict"))
    for name, shape, dtype_name, mode, p in CASES:
        dtype = getattr(torch, dtype_name)
        gen = torch.Generator().manual_seed(1)
        if dtype.is_floating_point:
            x = torch.rand(shape, generator=gen, dtype=torch.float32).to(dtype)
        else:
            x = torch.randint(0, 255, shape, generator=gen, dtype=dtype)
        spatial = 3 if "volume" in name else 2
        out_shape = list(shape)
        for k in range(len(shape) - spatial, len(shape)):
            out_shape[k] += 2 * p
        out_torch = torch.empty(out_shape, dtype=dtype)
        out_ndpad = torch.empty(out_shape, dtype=dtype)
        copy_dst = torch.empty(out_shape, dtype=dtype)
        x_np, out_np = x.numpy(), out_ndpad.numpy()
        widths = [(0, 0)] * (len(shape) - spatial) + [(p, p)] * spatial
        torch_pad = [p] * (2 * spatial)
        interior = tuple([slice(None)] * (len(shape) - spatial) + [slice(p, -p)] * spatial)

        if mode == "reflect":
            fn = aten.reflection_pad3d if spatial == 3 else aten.reflection_pad2d
            torch_call = lambda: fn.out(x, torch_pad, out=out_torch)  # noqa: E731
        elif mode == "edge":
            fn = aten.replication_pad3d if spatial == 3 else aten.replication_pad2d
            torch_call = lambda: fn.out(x, torch_pad, out=out_torch)  # noqa: E731
        elif mode == "constant":
            def torch_call():
                out_torch.fill_(0)
                out_torch[interior].copy_(x)
        elif mode == "wrap":
            def torch_call():
                torch.nn.functional.pad(x, torch_pad, mode="circular")
        else:
            torch_call = None

        for threads in threads_list:
            torch.set_num_threads(threads)
            ndpad_call = lambda: ndpad.pad(x_np, widths, mode, threads=threads,  # noqa: E731
                                           out=out_np)
            variants = [(nothing, lambda: copy_dst.copy_(out_ndpad), nothing),
                        (nothing, ndpad_call, nothing)]
            if torch_call is not None:
                variants.append((nothing, torch_call, nothing))
            times = interleaved_times(variants, repeat)
            want = np.pad(x_np, widths, mode)
            if not np.array_equal(out_np, want):
                say("%s %s: ndpad's result differs from numpy.pad" % (name, mode))
                return 1
            if mode in ("reflect", "edge", "constant") and \
                    not torch.equal(out_torch, out_ndpad):
                say("%s %s: torch's and ndpad's results differ" % (name, mode))
                return 1
            med = [statistics.median(t) * 1e6 for t in times]
            mean = [statistics.fmean(t) * 1e6 for t in times]
            copy_med, nd_med = med[0], med[1]
            tor_med = med[2] if torch_call is not None else float("nan")
            tor_mean = mean[2] if torch_call is not None else float("nan")
            vs_torch = nd_med / tor_med if torch_call is not None else float("nan")
            vs_copy = nd_med / copy_med
            ok = (torch_call is None or vs_torch <= 1.0) and (threads < 2 or vs_copy <= 1.1)
            say("%-26s %-9s %2d %9.0f %9.0f %9.0f %9.0f %9.0f %9.0f %7.2f %7.2f %s" % (
                name, mode, threads, copy_med, tor_med, nd_med, mean[0], tor_mean, mean[1],
                vs_torch, vs_copy, "ok" if ok else "MISS"))
    save_lines(args.out, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
