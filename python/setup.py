"""Builds libndpad with the project's own CMake and ships it inside the package.

The metadata is in pyproject.toml; this file only adds the library. `pip install ./python`
(offline on Debian 12: `pip install --no-build-isolation ./python`, with Debian's cmake,
python3-setuptools and python3-wheel) and `pip wheel ./python` configure the repository root
(the directory above this one) as a Release build with every ISA the compiler supports,
build only the shared library, and put it into the package as ndpad/libndpad.so, where
ndpad._lib looks right after NDPAD_LIBRARY. When the importable torch has its C++ headers
(Debian 12: libtorch-dev), it also compiles ndpad/libndpad_torch.so, the native kernels of
ndpad.torch.install() (python/build_torch_native.py; without it install() uses Python
kernels). The wheel is then platform-tagged (py3-none-<platform>: libndpad is loaded with
ctypes and libndpad_torch.so with torch.ops.load_library, so no Python ABI is involved;
the latter only works with the torch version it was built against).

Everything is built outside the source tree, in temporary directories removed at exit.

Environment:
  NDPAD_BUILD_LIBRARY=0   no CMake: a pure-Python package that loads a libndpad installed
                          elsewhere (NDPAD_LIBRARY or the system's)
  NDPAD_SOURCE_DIR        the repository root, when this directory was copied away from it
  NDPAD_CMAKE_ARGS        extra CMake arguments, e.g. "-DNDPAD_ENABLE_AVX512=OFF"
  NDPAD_BUILD_JOBS        parallel build jobs (default: the number of CPUs)
  NDPAD_CMAKE_BUILD_DIR   a CMake build directory to use and keep (default: a temporary one);
                          libndpad_torch.so is compiled there too, and kept
  NDPAD_BUILD_TORCH       "auto" (default): libndpad_torch.so when torch's headers are there;
                          "1": it must be built (fail otherwise); "0": never
"""

import atexit
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # no wheel package: `pip install` still works through setuptools
    bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD_LIBRARY = os.environ.get("NDPAD_BUILD_LIBRARY", "1") != "0"
# ndpad.torch's native kernels are compiled against the installed torch at first use
# (ndpad/_torch_native.py) from the shipped source and ndpad.h; "1"/"auto" also builds a copy
# into the package now, for the torch seen here only.
BUILD_TORCH = os.environ.get("NDPAD_BUILD_TORCH", "0")


def _scratch(prefix):
    path = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, path, True)
    return path


def _source_root():
    """The repository root: NDPAD_SOURCE_DIR, else the directory above this file."""
    root = os.environ.get("NDPAD_SOURCE_DIR") or os.path.dirname(HERE)
    cmakelists = os.path.join(root, "CMakeLists.txt")
    try:
        with open(cmakelists, encoding="utf-8") as f:
            if re.search(r"project\s*\(\s*ndpad\b", f.read()):
                return root
    except OSError:
        pass
    sys.exit("ndpad setup.py: no ndpad CMakeLists.txt in %s. Install from a checkout "
             "(pip install ./python), set NDPAD_SOURCE_DIR to the repository root, or set "
             "NDPAD_BUILD_LIBRARY=0 to install without the library." % root)


class BuildPyWithLibrary(build_py):
    """build_py, then CMake: libndpad into build_lib/ndpad/libndpad.so."""

    def run(self):
        super().run()
        # The sources of the first-use build of ndpad.torch's native kernels.
        root = os.environ.get("NDPAD_SOURCE_DIR") or os.path.dirname(HERE)
        header = os.path.join(root, "include", "ndpad.h")
        if os.path.exists(header):
            shutil.copyfile(header, os.path.join(self.build_lib, "ndpad", "ndpad.h"))
        if BUILD_LIBRARY:
            self._build_library()
            if BUILD_TORCH != "0":
                self._build_torch_native()

    def _build_torch_native(self):
        sys.path.insert(0, HERE)
        import build_torch_native
        build = os.environ.get("NDPAD_CMAKE_BUILD_DIR") or _scratch("ndpad-torch-")
        built = os.path.join(build, build_torch_native.LIBRARY_NAME)
        try:
            build_torch_native.build(built, os.path.join(_source_root(), "include"))
        except (build_torch_native.Unavailable, subprocess.CalledProcessError) as exc:
            if BUILD_TORCH == "1":
                sys.exit("ndpad setup.py: NDPAD_BUILD_TORCH=1 but libndpad_torch.so was not "
                         "built: %s" % exc)
            print("ndpad setup.py: no libndpad_torch.so (%s): ndpad.torch.install() will use "
                  "its Python kernels" % exc)
            return
        target = os.path.join(self.build_lib, "ndpad", build_torch_native.LIBRARY_NAME)
        shutil.copyfile(built, target)
        print("ndpad setup.py: %s -> %s" % (built, target))

    def _build_library(self):
        cmake = shutil.which("cmake")
        if cmake is None:
            sys.exit("ndpad setup.py: cmake not found (Debian: apt-get install cmake "
                     "build-essential pkg-config libhwloc-dev), or set NDPAD_BUILD_LIBRARY=0")
        root = _source_root()
        # A kept build directory makes a second pip run (pip wheel after pip install) an
        # incremental build; by default it is temporary.
        build = os.environ.get("NDPAD_CMAKE_BUILD_DIR") or _scratch("ndpad-cmake-")
        args = [cmake, "-S", root, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                "-DNDPAD_BUILD_TESTS=OFF", "-DNDPAD_BUILD_BENCH=OFF",
                "-DNDPAD_BUILD_TUNER=OFF"]
        args += shlex.split(os.environ.get("NDPAD_CMAKE_ARGS", ""))
        configure = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True)
        sys.stdout.write(configure.stdout)
        if configure.returncode != 0:
            sys.exit("ndpad setup.py: CMake configuration of %s failed" % root)
        isas = re.search(r"ndpad: kernels for (.*)", configure.stdout)
        print("ndpad setup.py: libndpad kernels for %s" % (isas.group(1) if isas else "?"))
        jobs = os.environ.get("NDPAD_BUILD_JOBS") or str(os.cpu_count() or 1)
        subprocess.check_call([cmake, "--build", build, "--target", "ndpad_shared",
                               "-j", jobs])
        # The real file (libndpad.so is a symlink chain in the build tree).
        built = os.path.realpath(os.path.join(build, "libndpad.so"))
        target = os.path.join(self.build_lib, "ndpad", "libndpad.so")
        self.mkpath(os.path.dirname(target))
        shutil.copyfile(built, target)
        print("ndpad setup.py: %s -> %s" % (built, target))


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return BUILD_LIBRARY  # a platform wheel when it carries libndpad


cmdclass = {"build_py": BuildPyWithLibrary}
if bdist_wheel is not None:
    class BdistWheelPlatform(bdist_wheel):
        """py3-none-<platform>: any Python 3 on this platform (ctypes, no extension)."""

        def get_tag(self):
            python, abi, plat = super().get_tag()
            if BUILD_LIBRARY:
                python, abi = "py3", "none"
            return python, abi, plat

    cmdclass["bdist_wheel"] = BdistWheelPlatform

# Keep setuptools' own build and egg-info directories out of the source tree too.
options = {"build": {"build_base": _scratch("ndpad-pybuild-")},
           "egg_info": {"egg_base": _scratch("ndpad-egg-info-")}}
setup(cmdclass=cmdclass, distclass=BinaryDistribution, options=options)
