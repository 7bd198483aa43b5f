"""Finding, building and loading libndpad_torch.so, the native kernels of ndpad.torch
(_torch_native.cpp: install()'s C++ kernels for torch's padding operators, and the CPU
kernel of ndpad::pad on torch's intra-op pool).

A wheel carries no prebuilt library (it would match one torch only): it carries
_torch_native.cpp and ndpad.h, and the library is compiled against the installed torch at
first use, once per torch version, into a cache directory. Looked up in this order:
  1. NDPAD_TORCH_NATIVE: a path to a built library, or "0" for none (install() then
     registers the Python kernels of _torch_install.py; ndpad::pad runs through ctypes);
  2. the package's own libndpad_torch.so (a build placed there by hand);
  3. the cache: NDPAD_TORCH_CACHE, else $XDG_CACHE_HOME/ndpad, else ~/.cache/ndpad, in
     torch-<version>-<hash of the sources>/libndpad_torch.so; built there by install()
     (or build()) when missing and a C++20 compiler is found. NDPAD_TORCH_BUILD=0 never
     compiles (the cache is still used).
A library built against another torch version is not used (its built_for() differs)."""

import ctypes
import hashlib
import os
import sys
import threading
import warnings

import torch

from . import _lib
from . import _torch_build

__all__ = ["load", "loaded", "status", "cache_path", "build", "LIBRARY_NAME"]

LIBRARY_NAME = "libndpad_torch.so"
# What the native kernels call, in the order ndpad::install takes their addresses.
_FUNCTIONS = ("ndpad_plan_create", "ndpad_execute", "ndpad_plan_destroy", "ndpad_last_error",
              "ndpad_status_string")

_state = {"ops": None, "status": None, "path": None, "tried_build": False}
_lock = threading.RLock()
# A forked child finds the lock free (it is held only around loading and building).
os.register_at_fork(before=_lock.acquire, after_in_parent=_lock.release,
                    after_in_child=_lock.release)


def _sources_hash():
    h = hashlib.sha256()
    for path in (_torch_build.SOURCE,
                 os.path.join(_torch_build.default_include(), "ndpad.h"),
                 os.path.abspath(_torch_build.__file__)):
        try:
            with open(path, "rb") as f:
                h.update(f.read())
        except OSError:
            pass
    return h.hexdigest()[:16]


def cache_path():
    """Where the library for this torch and these sources is (or would be) cached."""
    root = os.environ.get("NDPAD_TORCH_CACHE")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                 ".cache")
        root = os.path.join(base, "ndpad")
    version = torch.__version__.replace("/", "_").replace("+", "_")
    return os.path.join(root, "torch-%s-%s" % (version, _sources_hash()), LIBRARY_NAME)


def build(verbose=True):
    """Compile the native kernels into cache_path() (if not there yet) and return the path.
    Raises RuntimeError with the reason when it cannot (no compiler, no torch headers)."""
    path = cache_path()
    if os.path.exists(path):
        return path
    os.makedirs(os.path.dirname(path), exist_ok=True)
    import fcntl
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be building the same
        if os.path.exists(path):
            return path
        tmp = "%s.%d.tmp" % (path, os.getpid())
        if verbose:
            print("ndpad.torch: compiling the native kernels for torch %s (once per torch "
                  "version, about 30 s) into %s" % (torch.__version__, os.path.dirname(path)),
                  file=sys.stderr, flush=True)
        try:
            _torch_build.build(tmp, verbose=False)
        except _torch_build.Unavailable as exc:
            raise RuntimeError(str(exc)) from None
        except Exception as exc:  # noqa: BLE001 - the compiler's failure, reported
            raise RuntimeError("the compiler failed: %s" % exc) from None
        os.replace(tmp, path)
    return path


def _find(allow_build):
    env = os.environ.get("NDPAD_TORCH_NATIVE")
    if env == "0":
        return None, "NDPAD_TORCH_NATIVE=0", False
    if env:
        return env, None, True
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY_NAME)
    if os.path.exists(path):
        return path, None, False
    path = cache_path()
    if os.path.exists(path):
        return path, None, False
    if not allow_build:
        return None, "not built yet (install() or ndpad.torch.build_native() compiles it)", False
    if os.environ.get("NDPAD_TORCH_BUILD") == "0":
        return None, "not built, and NDPAD_TORCH_BUILD=0", False
    try:
        return build(), None, False
    except RuntimeError as exc:
        return None, "cannot be compiled here: %s" % exc, False


def load(build=True):
    """torch.ops.ndpad with the native kernels, or None (status() says why). build=True
    compiles them first when missing (once per process: a failure is not retried). An
    explicit NDPAD_TORCH_NATIVE that cannot be used raises RuntimeError; a cached library
    that cannot be used warns once and gives None."""
    with _lock:
        if _state["ops"] is not None or _state["status"] is not None and (
                not build or _state["tried_build"]):
            return _state["ops"]
        _state["tried_build"] = _state["tried_build"] or build
        path, why, explicit = _find(build)
        ops = None
        if path is not None:
            try:
                torch.ops.load_library(path)
                built_for = torch.ops.ndpad.built_for()
                if built_for != torch.__version__:
                    why = "%s was built for torch %s, this is torch %s" % (
                        path, built_for, torch.__version__)
                else:
                    torch.ops.ndpad.set_functions(function_addresses())
                    ops = torch.ops.ndpad
            except (OSError, RuntimeError, AttributeError) as exc:
                why = "%s cannot be loaded: %s" % (path, exc)
            if ops is None:
                if explicit:
                    raise RuntimeError("ndpad.torch: NDPAD_TORCH_NATIVE: %s" % why)
                warnings.warn("ndpad.torch: the native kernels are not used (%s); install() "
                              "registers the slower Python kernels" % why, RuntimeWarning)
        _state.update(ops=ops, path=path if ops is not None else None,
                      status="native: %s" % path if ops is not None else "python: %s" % why)
        return ops


def loaded():
    """torch.ops.ndpad's native kernels if loaded, else None; loads a library that is
    already built (never compiles)."""
    if _state["ops"] is None and _state["status"] is None:
        load(build=False)
    return _state["ops"]


def status():
    """"native: <path>" or "python: <why not native>" (loads first if needed, compiling
    when allowed)."""
    load()
    return _state["status"]


def function_addresses():
    """The addresses of libndpad's functions the native kernels call (the ctypes copy)."""
    return [ctypes.cast(getattr(_lib.lib, name), ctypes.c_void_p).value
            for name in _FUNCTIONS]
