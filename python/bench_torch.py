#!/usr/bin/env python3
"""ndpad.torch against torch's own padding, at 1 and 2 threads (torch.set_num_threads, which
ndpad.torch follows). Each time is the median of --repeat calls, allocation included.

  1. the conv case, a 1x64x256x256 float32 tensor padded by 1 on H and W, in every mode, and
     a small tensor (1x4x8x8, pad 1: the per-call overhead): F.pad, ndpad.torch.pad, F.pad
     after install() with the native kernels and with the Python ones (symmetric: ndpad only);
  2. the forward time of a 3x3 nn.Conv2d (64 -> 64 channels, padding 1) on 1x64x256x256 with
     padding_mode "zeros", "reflect", "replicate", "circular", without and with install(),
     the extra time of each over zeros (the padding's share), and where it goes: the pad
     operator itself (with the page faults of its output's first touch, counted), and the
     convolution of the padded input against the convolution that pads implicitly;
  3. the size threshold: reflect on 1xCxHxW outputs from 100 to 1M elements at 1 thread,
     torch's kernel against the native kernel (installed with threshold 0), and the smallest
     output from which ndpad is never slower (ndpad._torch_install.THRESHOLD is set from it).
  4. section 2 again in a child process whose glibc malloc keeps freed memory
     (GLIBC_TUNABLES): with the default malloc, the 16-48 MiB blocks of the convolution and
     of the pad are often returned to the kernel and faulted in again on the next call, and
     those page faults (counted in section 2) can outweigh the padding itself.
The variants of a case are timed in turn, round after round (a changing machine load then
slows them alike). Every ndpad result is checked against torch's first. Targets (issue 16):
ndpad.torch >= 5x faster than F.pad on reflect/replicate/circular for the conv case at 1
thread; the padding's extra conv time >= 5x smaller after install().

The native kernels (libndpad_torch.so) are the package's own, or NDPAD_TORCH_NATIVE's; when
neither exists they are compiled for this run into a temporary directory
(python/build_torch_native.py, about 30 s), unless --no-build.

Usage: python3 python/bench_torch.py [--repeat N] [--conv-repeat N] [--threads 1,2]
libndpad is found as the package finds it (NDPAD_LIBRARY, the package's own, the system).
Without torch it prints why and exits 0, so a main job can call it unconditionally."""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_timing import interleaved_medians, median_seconds, nothing  # noqa: E402


def fmt(seconds):
    if seconds is None:
        return "-"
    if abs(seconds) >= 1e-3:
        return "%.2f ms" % (seconds * 1e3)
    return "%.1f us" % (seconds * 1e6)


def ratio(a, b):
    return "%.2fx" % (a / b) if a and b and b > 0 else "-"


def native_kernels(build):
    """Make sure ndpad.torch finds native kernels: the package's, NDPAD_TORCH_NATIVE's, or
    compiled now into a temporary directory (returned, for removal)."""
    if os.environ.get("NDPAD_TORCH_NATIVE") or \
            os.path.exists(os.path.join(HERE, "ndpad", "libndpad_torch.so")) or not build:
        return None
    import build_torch_native
    scratch = tempfile.mkdtemp(prefix="ndpad-bench-torch-")
    path = os.path.join(scratch, build_torch_native.LIBRARY_NAME)
    try:
        build_torch_native.build(path, verbose=False)
    except Exception as exc:  # noqa: BLE001 - whatever failed: the Python kernels are timed
        print("bench_torch.py: native kernels not built (%s)" % exc)
        shutil.rmtree(scratch, True)
        return None
    os.environ["NDPAD_TORCH_NATIVE"] = path
    return scratch


def pad_table(torch, nt, F, threads, repeat, native):
    """Section 1 at `threads` threads: returns {(case, mode): (torch, installed native)}."""
    conv_x = torch.randn(1, 64, 256, 256)
    small_x = torch.randn(1, 4, 8, 8)
    pad = (1, 1, 1, 1)
    rows = {}
    print("%-24s %10s %10s %10s %10s %8s %8s %8s" % (
        "case", "F.pad", "nt.pad", "inst.nat", "inst.py", "F/nt", "F/nat", "F/py"))
    for name, x in (("1x64x256x256", conv_x), ("1x4x8x8", small_x)):
        for mode in ("constant", "reflect", "replicate", "circular", "symmetric"):
            got = nt.pad(x, pad, mode)
            if mode == "symmetric":
                t_nd = median_seconds(lambda: nt.pad(x, pad, mode), repeat)
                print("%-24s %10s %10s" % ("%s %s" % (name, mode), "-", fmt(t_nd)))
                continue
            want = F.pad(x, pad, mode)
            assert torch.equal(got, want), (name, mode)
            variants = [(nothing, lambda: F.pad(x, pad, mode), nothing),
                        (nothing, lambda: nt.pad(x, pad, mode), nothing)]
            backends = ([True] if native else []) + [False]
            for backend in backends:
                nt.install(native=backend)
                try:
                    assert torch.equal(F.pad(x, pad, mode), want)
                finally:
                    nt.uninstall()
                variants.append((lambda backend=backend: nt.install(native=backend),
                                 lambda: F.pad(x, pad, mode), nt.uninstall))
            times = interleaved_medians(variants, repeat)
            t_torch, t_nd = times[:2]
            t_nat = times[2] if native else None
            t_py = times[-1]
            print("%-24s %10s %10s %10s %10s %8s %8s %8s" % (
                "%s %s" % (name, mode), fmt(t_torch), fmt(t_nd), fmt(t_nat), fmt(t_py),
                ratio(t_torch, t_nd), ratio(t_torch, t_nat), ratio(t_torch, t_py)))
            rows[name, mode] = (t_torch, t_nat if native else t_py)
    return rows


def conv_table(torch, nt, F, repeat, native):
    """Section 2: Conv2d forward times and where the padding's extra time goes."""
    x = torch.randn(1, 64, 256, 256)
    modes = ("zeros", "reflect", "replicate", "circular")
    convs = {}
    for padding_mode in modes:
        torch.manual_seed(0)
        conv = torch.nn.Conv2d(64, 64, 3, padding=1, padding_mode=padding_mode)
        conv.requires_grad_(False)
        convs[padding_mode] = conv
    variants, keys = [], []
    for install in (False, True):
        for padding_mode in modes:
            variants.append((
                (lambda: nt.install(native=native)) if install else nothing,
                lambda conv=convs[padding_mode]: conv(x), nt.uninstall))
            keys.append((install, padding_mode))
    t = dict(zip(keys, interleaved_medians(variants, repeat)))
    print("%-24s %10s %10s %10s %10s   %s" % ("Conv2d 3x3 64->64 fwd", "zeros", "reflect",
                                              "replicate", "circular", "extra over zeros"))
    for install in (False, True):
        z = t[install, "zeros"]
        print("%-24s %10s %10s %10s %10s   %s" % (
            "  with install()" if install else "  torch", fmt(z),
            fmt(t[install, "reflect"]), fmt(t[install, "replicate"]),
            fmt(t[install, "circular"]),
            " / ".join(fmt(t[install, m] - z) for m in modes[1:])))
    for m in modes[1:]:
        before = t[False, m] - t[False, "zeros"]
        after = t[True, m] - t[True, "zeros"]
        print("  %-10s extra over zeros %9s -> %9s (%s)" % (
            m, fmt(before), fmt(after),
            "%.1fx smaller" % (before / after) if after > 0 else "none left, within noise"))

    # Where the extra time goes: the pad operator (allocation, first touch, copy) and the
    # convolution of a padded input (padding 0) against the one that pads by itself. Page
    # faults per call are counted (getrusage), not inferred from noisy time differences.
    conv = convs["zeros"]
    w, b = conv.weight, conv.bias
    xp = F.pad(x, (1, 1, 1, 1), "reflect")
    parts = [
        ("conv, padding 1 (implicit zeros)", nothing, lambda: F.conv2d(x, w, b, padding=1),
         nothing),
        ("conv of the padded input", nothing, lambda: F.conv2d(xp, w, b, padding=0), nothing),
        ("installed F.pad reflect", lambda: nt.install(native=native),
         lambda: F.pad(x, (1, 1, 1, 1), "reflect"), nt.uninstall),
        ("installed F.pad + conv", lambda: nt.install(native=native),
         lambda: F.conv2d(F.pad(x, (1, 1, 1, 1), "reflect"), w, b), nt.uninstall),
        ("torch's F.pad reflect", nothing, lambda: F.pad(x, (1, 1, 1, 1), "reflect"),
         nothing),
        ("torch.empty(padded).fill_(1)", nothing, lambda: torch.empty(xp.shape).fill_(1.0),
         nothing),
        ("fill_(1) of a touched tensor", nothing, lambda: xp.fill_(1.0), nothing),
    ]
    times = interleaved_medians([p[1:] for p in parts], repeat)
    print("  where reflect's extra time goes (output 1x64x258x258 float32, %.1f MiB):"
          % (xp.numel() * 4 / 2**20))
    for (name, setup, fn, teardown), t in zip(parts, times):
        print("    %-34s %10s %8.0f page faults/call" % (name, fmt(t),
                                                      page_faults(setup, fn, teardown)))


def page_faults(setup, fn, teardown, calls=5):
    """Minor page faults per call of fn after a warm-up call (first touch of new memory)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not a Unix
        return float("nan")
    setup()
    try:
        fn()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for _ in range(calls):
            fn()
        return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / calls
    finally:
        teardown()


def threshold_table(torch, nt, F, repeat, native):
    """Section 3: reflect from 100 to 1M output elements at 1 thread."""
    torch.set_num_threads(1)
    pad = (1, 1, 1, 1)
    print("%-24s %10s %10s %10s %8s" % ("reflect, pad 1, 1 thread", "out elems", "torch",
                                        "installed", "torch/nd"))
    crossing = None
    for c, hw in ((1, 8), (1, 16), (4, 16), (4, 32), (16, 32), (16, 64), (64, 64),
                  (64, 128)):
        x = torch.randn(1, c, hw, hw)
        n = c * (hw + 2) ** 2
        t_torch, t_inst = interleaved_medians(
            [(nothing, lambda: F.pad(x, pad, "reflect"), nothing),
             (lambda: nt.install(threshold=0, native=native),
              lambda: F.pad(x, pad, "reflect"), nt.uninstall)], repeat * 4)
        print("%-24s %10d %10s %10s %8s" % ("  1x%dx%dx%d" % (c, hw, hw), n, fmt(t_torch),
                                            fmt(t_inst), ratio(t_torch, t_inst)))
        if t_inst <= t_torch:
            crossing = n if crossing is None else crossing
        else:
            crossing = None
    from ndpad import _torch_install
    print("  ndpad (%s kernels) never slower from %s output elements on; THRESHOLD = %d "
          "(native), %d (python)" % ("native" if native else "Python",
                                     crossing if crossing else "(no size measured)",
                                     _torch_install.THRESHOLD, _torch_install.PYTHON_THRESHOLD))


# glibc malloc that keeps freed blocks (no mmap per large block, no trim of the heap top):
# without it, each 16-48 MiB block the convolution and the pad allocate may come back as
# fresh pages, whose first-touch faults (expensive on a VM) then dominate the Conv2d times.
KEEP_FREED_MEMORY = ("glibc.malloc.mmap_threshold=33554432:"
                     "glibc.malloc.trim_threshold=4294967296")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="timed calls per pad case")
    parser.add_argument("--conv-repeat", type=int, default=7, help="timed Conv2d forwards")
    parser.add_argument("--threads", default="1,2", help="thread counts (default 1,2)")
    parser.add_argument("--no-build", action="store_true",
                        help="do not compile the native kernels when none are found")
    parser.add_argument("--conv-only", action="store_true",
                        help="only the Conv2d section (run again under GLIBC_TUNABLES)")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("bench_torch.py: torch is not installed (Debian: python3-torch); skipped")
        return 0
    scratch = native_kernels(not args.no_build)
    try:
        import ndpad
        import ndpad.torch as nt
        F = torch.nn.functional
        native = nt.native_status().startswith("native")
        threads_list = [int(t) for t in args.threads.split(",")]
        if args.conv_only:
            for threads in threads_list:
                torch.set_num_threads(threads)
                print("\n%d thread%s" % (threads, "" if threads == 1 else "s"))
                conv_table(torch, nt, F, args.conv_repeat, native)
            return 0
        print("ndpad.torch vs torch %s (library %s), medians, allocation included"
              % (torch.__version__, ndpad.library_path))
        print("install(): %s" % nt.native_status())
        slow = []
        for threads in threads_list:
            torch.set_num_threads(threads)
            print("\n%d thread%s" % (threads, "" if threads == 1 else "s"))
            rows = pad_table(torch, nt, F, threads, args.repeat, native)
            for (name, mode), (t_torch, t_inst) in rows.items():
                if name == "1x64x256x256" and t_inst > t_torch * 1.05:
                    slow.append("%s %s at %d threads" % (name, mode, threads))
            conv_table(torch, nt, F, args.conv_repeat, native)
        print()
        threshold_table(torch, nt, F, args.repeat, native)
        if slow:
            print("note: installed F.pad slower than torch's own (>5%%) on: %s"
                  % ", ".join(slow))
        if "GLIBC_TUNABLES" not in os.environ:
            print("\nConv2d again, glibc malloc keeping freed memory (GLIBC_TUNABLES=%s)"
                  % KEEP_FREED_MEMORY, flush=True)
            env = dict(os.environ, GLIBC_TUNABLES=KEEP_FREED_MEMORY)
            subprocess.run([sys.executable, os.path.abspath(__file__), "--conv-only",
                            "--no-build", "--threads", args.threads,
                            "--conv-repeat", str(args.conv_repeat)], env=env, check=False)
    finally:
        if scratch:
            shutil.rmtree(scratch, True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
