"""Compiles the OpenVINO extension (libndpad_openvino.so: src/engines/openvino/, shipped in
the wheel as ndpad/_openvino/) against the openvino that `import openvino` finds here: its
C++ SDK (a PyPI openvino wheel carries the headers, libopenvino, the ONNX frontend and TBB)
and the libndpad this package uses. ndpad.openvino.extension_path() calls build() at first
use; `python3 -m ndpad._openvino_build OUTPUT` builds one by hand. The repository's CMake
builds the same library (-DOpenVINO_DIR=...): this is the path without CMake.

Usage: python3 -m ndpad._openvino_build OUTPUT
Environment: CXX (default c++), NDPAD_OPENVINO_CXXFLAGS (extra compiler flags).
Exits 0 with the path on success, 1 with the reason when it cannot build."""

import glob
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY_NAME = "libndpad_openvino.so"
_CHECKOUT = os.path.dirname(os.path.dirname(HERE))


class Unavailable(Exception):
    """openvino, its SDK, ndpad.h, the sources or a compiler is missing."""


def source_dir():
    """The extension's sources: the package's copy (a wheel), else the checkout's."""
    for path in (os.path.join(HERE, "_openvino"),
                 os.path.join(_CHECKOUT, "src", "engines", "openvino")):
        if os.path.exists(os.path.join(path, "pad-op.cpp")):
            return path
    raise Unavailable("the extension's sources are missing (ndpad/_openvino/ or "
                      "src/engines/openvino/)")


def sources():
    return sorted(glob.glob(os.path.join(source_dir(), "*.[ch]pp")))


def include_dir():
    """The directory of ndpad.h: the package's copy (a wheel), else the checkout's."""
    for path in (os.path.join(HERE, "include"), os.path.join(_CHECKOUT, "include")):
        if os.path.exists(os.path.join(path, "ndpad.h")):
            return path
    raise Unavailable("no ndpad.h in the package (ndpad/include/) nor in the checkout")


def openvino_sdk():
    """(version, root) of the importable openvino, whose root holds include/ and libs/."""
    try:
        import openvino
    except ImportError as exc:
        raise Unavailable("openvino is not importable (%s; pip install openvino)" % exc) \
            from None
    root = os.path.dirname(os.path.abspath(openvino.__file__))
    if not os.path.exists(os.path.join(root, "include", "openvino", "op", "pad.hpp")):
        raise Unavailable("this openvino carries no C++ SDK (%s/include/openvino)" % root)
    return openvino.__version__, root


def _compile_definitions(root):
    """OpenVINO's interface definitions (OV_THREAD, the C++11 ABI) from its CMake targets."""
    found = []
    try:
        with open(os.path.join(root, "cmake", "OpenVINOTargets.cmake")) as f:
            text = f.read()
    except OSError:
        return ["OV_THREAD=OV_THREAD_TBB_ADAPTIVE"]
    for group in re.findall(r'INTERFACE_COMPILE_DEFINITIONS "([^"]*)"', text):
        for item in group.split(";"):
            if item and "$<" not in item and item not in found:
                found.append(item)
    return found


def _library(root, stem):
    paths = sorted(glob.glob(os.path.join(root, "libs", stem + ".so*")))
    if not paths:
        raise Unavailable("openvino's %s is missing in %s/libs" % (stem, root))
    return paths[0]


def command(output, ndpad_library):
    _, root = openvino_sdk()
    libs = os.path.join(root, "libs")
    cxx = shlex.split(os.environ.get("CXX") or "c++")
    args = cxx + ["-std=c++17", "-O2", "-fPIC", "-shared", "-fvisibility=hidden",
                  "-fvisibility-inlines-hidden", "-Wall", "-Wextra"]
    args += ["-D" + d for d in _compile_definitions(root)]
    args += ["-isystem", os.path.join(root, "include"), "-I", include_dir()]
    args += shlex.split(os.environ.get("NDPAD_OPENVINO_CXXFLAGS", ""))
    args += [s for s in sources() if s.endswith(".cpp")]
    args += ["-o", output, _library(root, "libopenvino"), _library(root, "libopenvino_onnx_frontend"),
             _library(root, "libtbb"), ndpad_library, "-Wl,-rpath," + libs,
             "-Wl,-rpath," + os.path.dirname(os.path.realpath(ndpad_library)), "-Wl,-z,defs"]
    return args


def build(output, ndpad_library, verbose=True):
    """Compile the extension to `output` against `ndpad_library`. Returns `output`; raises
    Unavailable (no SDK, no sources, no compiler) or CalledProcessError."""
    args = command(output, ndpad_library)
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    if verbose:
        print("ndpad._openvino_build: %s" % " ".join(shlex.quote(a) for a in args), flush=True)
    try:
        subprocess.check_call(args)
    except FileNotFoundError:
        raise Unavailable("no C++ compiler (%s; Debian: apt-get install g++)" % args[0]) \
            from None
    return output


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    from . import _lib
    try:
        print(build(sys.argv[1], _lib.library_path))
    except Unavailable as exc:
        print("ndpad._openvino_build: not built: %s" % exc, file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as exc:
        print("ndpad._openvino_build: the compiler failed (status %d)" % exc.returncode,
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
