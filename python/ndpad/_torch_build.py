"""Compiles ndpad/_torch_native.cpp into libndpad_torch.so, the native kernels of
ndpad.torch (install()'s kernels, and ndpad::pad's CPU kernel on torch's intra-op pool),
against the torch that `import torch` finds here.

It is a plain shared library for torch.ops.load_library(): it uses libtorch's C++ API and
no Python headers, and finds libndpad through the addresses ndpad's ctypes layer hands it,
so it links only to libc10 and libtorch_cpu. ndpad._torch_native calls build() at first
use (into a cache directory per torch version); `python3 -m ndpad._torch_build OUTPUT`
builds one by hand (ci/test-torch.sh, python/bench/bench_torch.py). Needs a C++20 compiler
(g++ >= 10) and torch's C++ headers (a PyPI torch carries them).

Usage: python3 -m ndpad._torch_build OUTPUT [--include DIR]
  OUTPUT         the library to write (an up-to-date one is kept: sources older than it)
  --include DIR  the directory holding ndpad.h (default: the package's own copy, else
                 the checkout's include/)
Environment: CXX (default c++), NDPAD_TORCH_CXXFLAGS (extra compiler flags).
Exits 0 with the path on success, 1 with the reason when it cannot build."""

import argparse
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "_torch_native.cpp")
LIBRARY_NAME = "libndpad_torch.so"


class Unavailable(Exception):
    """torch, its C++ headers or a compiler is missing: the Python kernels are used."""


def torch_build_info():
    """(version, include dirs, library dir, C++11 ABI flag) of the importable torch."""
    try:
        import torch
    except ImportError as exc:
        raise Unavailable("torch is not importable (%s)" % exc) from None
    root = os.path.dirname(os.path.abspath(torch.__file__))
    include = os.path.join(root, "include")
    if not os.path.exists(os.path.join(include, "torch", "library.h")):
        raise Unavailable("torch's C++ headers are missing (%s/torch/library.h; Debian: "
                          "apt-get install libtorch-dev)" % include)
    includes = [include, os.path.join(include, "torch", "csrc", "api", "include")]
    abi = int(bool(getattr(torch._C, "_GLIBCXX_USE_CXX11_ABI", True)))
    return torch.__version__, includes, os.path.join(root, "lib"), abi


def openmp_backend(includes):
    """Is torch's intra-op pool OpenMP (ATen/Config.h: AT_PARALLEL_OPENMP 1, PyPI's Linux
    wheels)? at::parallel_for is then an inline `#pragma omp parallel`, compiled into this
    library: without -fopenmp it runs every task on the calling thread."""
    for path in includes:
        try:
            with open(os.path.join(path, "ATen", "Config.h")) as f:
                for line in f:
                    words = line.split()
                    if words[:2] == ["#define", "AT_PARALLEL_OPENMP"]:
                        return words[2:3] == ["1"]
        except OSError:
            pass
    return False


def command(output, include_dir, info):
    version, includes, libdir, abi = info
    cxx = shlex.split(os.environ.get("CXX") or "c++")
    # torch 2's headers need C++20 from about 2.10 on (std::bit_width, <=>); 1.13's C++17.
    std = "-std=c++17" if version.split(".")[0] in ("0", "1") else "-std=c++20"
    # -fopenmp links libgomp.so.1: torch's process has loaded one already (the wheel's own,
    # same soname), so the parallel regions run on torch's threads, one pool per process.
    openmp = ["-fopenmp"] if openmp_backend(includes) else []
    args = cxx + [std, "-O2", "-fPIC", "-shared", "-Wall", "-Wextra"] + openmp + [
        "-D_GLIBCXX_USE_CXX11_ABI=%d" % abi, '-DNDPAD_TORCH_VERSION="%s"' % version]
    for path in includes:
        args += ["-isystem", path]  # torch's headers warn; ours must not
    args += ["-I", include_dir]
    args += shlex.split(os.environ.get("NDPAD_TORCH_CXXFLAGS", ""))
    args += [SOURCE, "-o", output, "-L" + libdir, "-lc10", "-ltorch_cpu",
             "-Wl,-rpath," + libdir, "-Wl,-z,defs"]
    return args


def default_include():
    """The directory of ndpad.h: the package's own copy (a wheel ships it beside the
    source), else the checkout's include/ (python/ndpad/../../include)."""
    for path in (HERE, os.path.join(os.path.dirname(os.path.dirname(HERE)), "include")):
        if os.path.exists(os.path.join(path, "ndpad.h")):
            return path
    return HERE


def build(output, include_dir=None, verbose=True):
    """Compile libndpad_torch.so to `output` unless it is newer than its sources. Returns
    `output`; raises Unavailable (no torch headers, no compiler) or CalledProcessError."""
    include_dir = include_dir or default_include()
    header = os.path.join(include_dir, "ndpad.h")
    if not os.path.exists(header):
        raise Unavailable("no ndpad.h in %s" % include_dir)
    info = torch_build_info()
    if os.path.exists(output) and os.path.getmtime(output) >= max(
            os.path.getmtime(SOURCE), os.path.getmtime(header), os.path.getmtime(__file__)):
        return output
    args = command(output, include_dir, info)
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    if verbose:
        print("build_torch_native: %s" % " ".join(shlex.quote(a) for a in args), flush=True)
    try:
        subprocess.check_call(args)
    except FileNotFoundError:
        raise Unavailable("no C++ compiler (%s; Debian: apt-get install g++)" % args[0]) \
            from None
    return output


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--include", default=None, help="directory holding ndpad.h")
    args = parser.parse_args()
    try:
        print(build(args.output, args.include))
    except Unavailable as exc:
        print("build_torch_native: not built: %s" % exc, file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as exc:
        print("build_torch_native: the compiler failed (status %d)" % exc.returncode,
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
