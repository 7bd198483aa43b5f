#!/usr/bin/env python3
"""ndpad.torch against torch 2's own padding, at 1 and 2 threads (torch.set_num_threads,
which ndpad.torch follows: its native kernels run on torch's intra-op pool). Each time is
the median of --repeat calls, allocation included; the variants of a case are timed in
turn, round after round, so a changing machine load slows them alike. Every result is
checked against torch's first.

  1. pads: the conv case 1x64x256x256 in every mode, NCHW and channels_last, float32 and
     bfloat16; NHWC 1x224x224x3 (a 1x3x224x224 channels_last tensor: torch's slow path for
     few channels) and its NCHW twin; a small tensor 1x4x8x8 (the per-call overhead).
     Columns: `copy` (torch.empty_like(out).copy_(out): a copy of the same output, the
     floor), F.pad (torch's kernel), ndpad.torch.pad (the ndpad::pad operator), F.pad after
     install() (the native kernels), and the ratios. Targets (issue 32): above the
     threshold the installed F.pad is never slower than torch's (5% noise allowed), and at
     least 1.5x faster wherever torch takes more than 1.3x the copy.
  2. the size threshold: reflect from 100 to 1M output elements at 1 thread, torch against
     the installed native kernel (threshold 0).
  2b. circular on channels_last (the transposing pad): a copy of the output, torch's
     transpose of the input (x.contiguous()), F.pad, F.pad installed.
  3. torch.compile: the forward time of a 3x3 conv model (1x16x256x256, two Conv2d 16->16,
     padding_mode reflect / replicate), eager and compiled, with torch's padding and with
     ndpad.torch.pad (an opaque operator in the compiled graph; inductor lowers torch's
     own padding itself, so install() changes nothing there).
  (whose threads run the tiles inside a model, issue 31: python/bench/bench_torch_pool.py)

The native kernels are compiled at first use (install()) into the per-torch cache, as a
user gets them, unless NDPAD_TORCH_NATIVE names a build.

Usage: python3 python/bench/bench_torch.py [--repeat N] [--threads 1,2] [--quick]
                                          [--sections 1,2,2b,3]
libndpad is found as the package finds it (NDPAD_LIBRARY, the package's own, the system).
Without torch >= 2.4 it prints why and exits 0, so a main job can call it unconditionally."""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]  # bench_timing, then python/'s ndpad

from bench_timing import interleaved_medians, nothing  # noqa: E402


def fmt(seconds):
    if seconds is None:
        return "-"
    if abs(seconds) >= 1e-3:
        return "%.2f ms" % (seconds * 1e3)
    return "%.1f us" % (seconds * 1e6)


def ratio(a, b):
    return "%.2fx" % (a / b) if a and b and b > 0 else "-"


def pad_cases(torch):
    cl = torch.channels_last
    cases = []
    for dtype in (torch.float32, torch.bfloat16):
        for layout in ("NCHW", "NHWC"):
            x = torch.randn(1, 64, 256, 256).to(dtype)
            if layout == "NHWC":
                x = x.contiguous(memory_format=cl)
            cases.append(("1x64x256x256 %s %s" % (layout, str(dtype)[6:]), x, True))
    x = torch.randn(1, 3, 224, 224)
    cases.append(("1x224x224x3 NHWC float32", x.contiguous(memory_format=cl), True))
    cases.append(("1x3x224x224 NCHW float32", x, True))
    cases.append(("1x4x8x8 NCHW float32", torch.randn(1, 4, 8, 8), False))
    return cases


def pad_table(torch, nt, F, threads, repeat):
    """Section 1 at `threads` threads; returns the target failures."""
    from ndpad import _torch_install
    pad = (1, 1, 1, 1)
    misses = []
    print("%-32s %-9s %9s %9s %9s %9s %7s %7s %7s  %s" % (
        "case", "mode", "copy", "F.pad", "nt.pad", "installed", "F/copy", "F/nt", "F/inst",
        "target"))
    for name, x, large in pad_cases(torch):
        for mode in ("constant", "reflect", "replicate", "circular", "symmetric"):
            got = nt.pad(x, pad, mode)
            if mode == "symmetric":
                t_copy, t_nd = interleaved_medians(
                    [(nothing, lambda: torch.empty_like(got).copy_(got), nothing),
                     (nothing, lambda: nt.pad(x, pad, mode), nothing)], repeat)
                print("%-32s %-9s %9s %9s %9s" % (name, mode, fmt(t_copy), "-", fmt(t_nd)))
                continue
            want = F.pad(x, pad, mode)
            assert torch.equal(got, want) and got.stride() == want.stride(), (name, mode)
            nt.install()
            try:
                inst = F.pad(x, pad, mode)
                assert torch.equal(inst, want) and inst.stride() == want.stride()
            finally:
                nt.uninstall()
            t_copy, t_torch, t_nd, t_inst = interleaved_medians([
                (nothing, lambda: torch.empty_like(want).copy_(want), nothing),
                (nothing, lambda: F.pad(x, pad, mode), nothing),
                (nothing, lambda: nt.pad(x, pad, mode), nothing),
                (nt.install, lambda: F.pad(x, pad, mode), nt.uninstall)],
                repeat if large else repeat * 10)
            verdict = ""
            if want.numel() >= _torch_install.THRESHOLD:
                slow_torch = t_torch > 1.3 * t_copy
                ok = t_inst <= 1.05 * t_torch and (not slow_torch or t_torch >= 1.5 * t_inst)
                verdict = ("ok" if ok else "MISS") + (" (torch > 1.3x copy: >= 1.5x wanted)"
                                                      if slow_torch else "")
                if not ok:
                    misses.append("%s %s at %d threads" % (name, mode, threads))
            print("%-32s %-9s %9s %9s %9s %9s %7s %7s %7s  %s" % (
                name, mode, fmt(t_copy), fmt(t_torch), fmt(t_nd), fmt(t_inst),
                ratio(t_torch, t_copy), ratio(t_torch, t_nd), ratio(t_torch, t_inst), verdict))
    return misses


def threshold_table(torch, nt, F, repeat):
    """Section 2: reflect from 100 to 1M output elements at 1 thread: torch's kernel, the
    installed native kernel (threshold 0) and ndpad.torch.pad (the operator's own cost:
    argument checks in Python, then C++ kernels at AutogradCPU and CPU)."""
    torch.set_num_threads(1)
    pad = (1, 1, 1, 1)
    print("%-24s %10s %10s %10s %10s %8s %8s" % (
        "reflect, pad 1, 1 thread", "out elems", "torch", "installed", "nt.pad", "F/inst",
        "F/nt"))
    crossing = {"installed": None, "nt.pad": None}
    for c, hw in ((1, 8), (1, 16), (4, 16), (4, 32), (16, 32), (16, 64), (64, 64),
                  (64, 128)):
        x = torch.randn(1, c, hw, hw)
        n = c * (hw + 2) ** 2
        t_torch, t_inst, t_nt = interleaved_medians(
            [(nothing, lambda: F.pad(x, pad, "reflect"), nothing),
             (lambda: nt.install(threshold=0), lambda: F.pad(x, pad, "reflect"),
              nt.uninstall),
             (nothing, lambda: nt.pad(x, pad, "reflect"), nothing)], repeat * 4)
        print("%-24s %10d %10s %10s %10s %8s %8s" % (
            "  1x%dx%dx%d" % (c, hw, hw), n, fmt(t_torch), fmt(t_inst), fmt(t_nt),
            ratio(t_torch, t_inst), ratio(t_torch, t_nt)))
        for name, t in (("installed", t_inst), ("nt.pad", t_nt)):
            if t <= t_torch:
                crossing[name] = n if crossing[name] is None else crossing[name]
            else:
                crossing[name] = None
    nt.install()  # back to the default threshold
    nt.uninstall()
    from ndpad import _torch_install
    for name in ("installed", "nt.pad"):
        print("  %s never slower from %s output elements on" % (
            name, crossing[name] if crossing[name] else "(no size measured)"))
    print("  install()'s THRESHOLD = %d" % _torch_install.THRESHOLD)


def transpose_table(torch, nt, F, threads_list, repeat):
    """Circular on channels_last: torch 2 lays circular out contiguous, so the pad is also a
    layout transpose (NHWC in, NCHW out). What that costs, against a copy of the output
    and torch's own transpose of the input (x.contiguous()), which the installed kernel
    runs first (ndpad's strided gather is slower still at these strides)."""
    cl = torch.channels_last
    print("%-32s %8s %9s %9s %9s %9s %8s %8s" % (
        "circular, channels_last in", "threads", "copy", "transpose", "F.pad", "installed",
        "T/copy", "F/inst"))
    for shape in ((1, 64, 256, 256), (1, 3, 224, 224)):
        x = torch.randn(shape).contiguous(memory_format=cl)
        want = F.pad(x, (1, 1, 1, 1), "circular")
        for threads in threads_list:
            torch.set_num_threads(threads)
            t_copy, t_tr, t_torch, t_inst = interleaved_medians([
                (nothing, lambda: torch.empty_like(want).copy_(want), nothing),
                (nothing, lambda: x.contiguous(), nothing),
                (nothing, lambda: F.pad(x, (1, 1, 1, 1), "circular"), nothing),
                (nt.install, lambda: F.pad(x, (1, 1, 1, 1), "circular"), nt.uninstall)],
                repeat if shape[1] > 3 else repeat * 10)
            print("%-32s %8d %9s %9s %9s %9s %8s %8s" % (
                "  %s" % "x".join(map(str, shape)), threads, fmt(t_copy), fmt(t_tr),
                fmt(t_torch), fmt(t_inst), ratio(t_tr, t_copy), ratio(t_torch, t_inst)))


def compile_table(torch, nt, F, threads_list, repeat):
    """Section 3: a compiled 3x3 conv model, torch's padding against ndpad.torch.pad."""

    class TorchPadModel(torch.nn.Module):
        def __init__(self, mode):
            super().__init__()
            torch.manual_seed(0)
            self.c1 = torch.nn.Conv2d(16, 16, 3, padding=1, padding_mode=mode)
            self.c2 = torch.nn.Conv2d(16, 16, 3, padding=1, padding_mode=mode)

        def forward(self, x):
            return self.c2(self.c1(x).relu())

    class NdpadModel(torch.nn.Module):
        def __init__(self, mode):
            super().__init__()
            torch.manual_seed(0)
            self.mode = mode
            self.c1 = torch.nn.Conv2d(16, 16, 3)
            self.c2 = torch.nn.Conv2d(16, 16, 3)

        def forward(self, x):
            y = self.c1(nt.pad(x, (1, 1, 1, 1), self.mode)).relu()
            return self.c2(nt.pad(y, (1, 1, 1, 1), self.mode))

    x = torch.randn(1, 16, 256, 256)
    print("%-30s %10s %10s %10s %10s %10s" % (
        "conv model 1x16x256x256 fwd", "threads", "eager", "eager+inst", "compiled",
        "compiled nd"))
    with torch.no_grad():
        for mode in ("reflect", "replicate"):
            tm, nm = TorchPadModel(mode), NdpadModel(mode)
            want = tm(x)
            assert torch.allclose(nm(x), want, rtol=1e-4, atol=1e-4)
            t0 = time.perf_counter()
            ctm = torch.compile(tm)
            assert torch.allclose(ctm(x), want, rtol=1e-4, atol=1e-4)
            cnm = torch.compile(nm, fullgraph=True)
            assert torch.allclose(cnm(x), want, rtol=1e-4, atol=1e-4)
            compile_s = time.perf_counter() - t0
            for threads in threads_list:
                torch.set_num_threads(threads)
                t = interleaved_medians([
                    (nothing, lambda: tm(x), nothing),
                    (nt.install, lambda: tm(x), nt.uninstall),
                    (nothing, lambda: ctm(x), nothing),
                    (nothing, lambda: cnm(x), nothing)], repeat)
                print("%-30s %10d %10s %10s %10s %10s" % (
                    "  padding_mode=%s" % mode, threads, *[fmt(v) for v in t]))
            print("  (compiling both took %.0f s)" % compile_s)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="timed calls per case")
    parser.add_argument("--threads", default="1,2", help="thread counts (default 1,2)")
    parser.add_argument("--quick", action="store_true", help="section 1 only")
    parser.add_argument("--sections", default="1,2,2b,3",
                        help="sections to run (default 1,2,2b,3)")
    args = parser.parse_args()
    try:
        import torch
        import ndpad.torch as nt
    except ImportError as exc:
        print("bench_torch.py: skipped (%s)" % exc)
        return 0
    import ndpad
    F = torch.nn.functional
    nt.install()  # compiles the native kernels at first use
    nt.uninstall()
    print("ndpad.torch vs torch %s (library %s), medians, allocation included"
          % (torch.__version__, ndpad.library_path))
    print("install(): %s" % nt.native_status())
    if nt.native_status().startswith("python"):
        print("bench_torch.py: the native kernels are not available; the tables time the "
              "Python kernels")
    threads_list = [int(t) for t in args.threads.split(",")]
    sections = ["1"] if args.quick else args.sections.split(",")
    misses = []
    if "1" in sections:
        for threads in threads_list:
            torch.set_num_threads(threads)
            print("\n%d thread%s" % (threads, "" if threads == 1 else "s"))
            misses += pad_table(torch, nt, F, threads, args.repeat)
    if "2" in sections:
        print()
        threshold_table(torch, nt, F, args.repeat)
    if "2b" in sections:
        print()
        transpose_table(torch, nt, F, threads_list, args.repeat)
    if "3" in sections:
        print()
        compile_table(torch, nt, F, threads_list, args.repeat)
    print("\ntargets: %s" % ("all met" if not misses else "missed on " + ", ".join(misses)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
