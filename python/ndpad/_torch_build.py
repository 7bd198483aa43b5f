"""Compiles ndpad/_torch_native.cpp into libndpad_torch.so, the native kernels of
ndpad.torch (install()'s kernels, and ndpad::pad's CPU kernel on torch's intra-op pool),
against the torch that `import torch` finds here.

It is a plain shared library for torch.ops.load_library(): it uses libtorch's C++ API and
no Python headers, and finds libndpad through the addresses ndpad's ctypes layer hands it,
so it links only to libc10 and libtorch_cpu (and torch's libgomp): it works wherever the
package's libndpad.so was found, and whatever `auditwheel repair` grafted beside it (hwloc
and libgomp renamed into ndpad.libs/) is libndpad's business. ndpad._torch_native calls
build() at first use (into a cache directory per torch version, from the ndpad.h the
package installs in ndpad/include/); `python3 -m ndpad._torch_build OUTPUT` builds one by
hand (ci/test-torch.sh, python/bench/bench_torch.py). Needs a C++20 compiler (g++ >= 10)
and torch's C++ headers (a PyPI torch carries them).

Usage: python3 -m ndpad._torch_build OUTPUT [--include DIR]
  OUTPUT         the library to write (an up-to-date one is kept: sources older than it)
  --include DIR  the directory holding ndpad.h (default: the installed package's
                 ndpad/include/, else ndpad/, else the checkout's include/)
Environment: CXX (default c++), NDPAD_TORCH_CXXFLAGS (extra compiler flags).
Exits 0 with the path on success, 1 with the reason when it cannot build."""

import argparse
import os
import shlex
import shutil
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
    cxx = compiler()[0]
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


def include_candidates():
    """Where ndpad.h may be, in lookup order: the installed package's include/ (a wheel and
    `pip install .` put it there: CMake's SKBUILD install rule), the package folder (a copy
    placed by hand), the checkout's include/ (python/ndpad/../../include)."""
    return [os.path.join(HERE, "include"), HERE,
            os.path.join(os.path.dirname(os.path.dirname(HERE)), "include")]


def default_include():
    """The first directory of include_candidates() holding ndpad.h, or None."""
    for path in include_candidates():
        if os.path.exists(os.path.join(path, "ndpad.h")):
            return path
    return None


def compiler():
    """The compiler command (CXX, default c++) and the path it resolves to (None: absent)."""
    cxx = shlex.split(os.environ.get("CXX") or "c++") or ["c++"]
    return cxx, shutil.which(cxx[0])


def environment_key():
    """What fixing a failed build changes: the compiler (its path and age), the extra flags,
    where ndpad.h is. ndpad._torch_native retries a recorded failure once this differs."""
    cxx, found = compiler()
    try:
        stamp = os.stat(os.path.realpath(found)).st_mtime_ns if found else None
    except OSError:
        stamp = None
    return [cxx, found, stamp, os.environ.get("NDPAD_TORCH_CXXFLAGS", ""), default_include()]


def check(include_dir=None):
    """What a build needs, found before anything is compiled: (include dir, torch build
    info). Raises Unavailable saying what is missing and how to get it."""
    include_dir = include_dir or default_include()
    if include_dir is None or not os.path.exists(os.path.join(include_dir, "ndpad.h")):
        raise Unavailable(
            "ndpad.h is not in %s (a wheel or `pip install .` installs it into "
            "ndpad/include/: reinstall ndpad, or pass --include DIR to python3 -m "
            "ndpad._torch_build)" % (include_dir or " nor ".join(include_candidates())))
    cxx, found = compiler()
    if found is None:
        raise Unavailable("no C++ compiler: %r not found (install one, e.g. Debian/Ubuntu: "
                          "apt-get install g++, Fedora: dnf install gcc-c++; or set CXX "
                          "to a C++20 compiler)" % cxx[0])
    return include_dir, torch_build_info()


def build(output, include_dir=None, verbose=True):
    """Compile libndpad_torch.so to `output` unless it is newer than its sources. Returns
    `output`; raises Unavailable saying why it cannot (no torch headers, no ndpad.h, no
    compiler, the compiler's own errors) and what to do about it."""
    include_dir, info = check(include_dir)
    header = os.path.join(include_dir, "ndpad.h")
    if os.path.exists(output) and os.path.getmtime(output) >= max(
            os.path.getmtime(SOURCE), os.path.getmtime(header), os.path.getmtime(__file__)):
        return output
    args = command(output, include_dir, info)
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    if verbose:
        print("build_torch_native: %s" % " ".join(shlex.quote(a) for a in args), flush=True)
    try:
        done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, errors="replace")
    except OSError as exc:
        raise Unavailable("the compiler %s cannot run: %s (set CXX to a C++20 compiler)"
                          % (args[0], exc)) from None
    if verbose and done.stdout:
        print(done.stdout, end="", file=sys.stderr, flush=True)
    if done.returncode != 0:
        tail = done.stdout.strip().splitlines()[-12:]
        raise Unavailable(
            "the compiler failed (%s exited with status %d)%s; the kernels need a C++20 "
            "compiler (g++ >= 10, clang++ >= 14: set CXX to one) and torch's C++ headers; "
            "`python3 -m ndpad._torch_build OUTPUT` shows the whole command and output"
            % (args[0], done.returncode, ":\n  " + "\n  ".join(tail) if tail else ""))
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
