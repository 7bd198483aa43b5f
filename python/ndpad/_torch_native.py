"""Finding, building and loading libndpad_torch.so, the native kernels of ndpad.torch
(_torch_native.cpp: install()'s C++ kernels for torch's padding operators, and the CPU
kernel of ndpad::pad on torch's intra-op pool).

A wheel carries no prebuilt library: libtorch's C++ ABI (its symbols, c10's layouts)
changes with every torch release, so a prebuilt one would load under the one torch it was
built against and nowhere else, and ndpad's wheel does not pin torch. It carries
_torch_native.cpp and ndpad/include/ndpad.h (`pip install .` installs the same), and the
library is compiled against the installed torch at first use, once per torch version, into
a cache directory. Looked up in this order:
  1. NDPAD_TORCH_NATIVE: a path to a built library, or "0" for none (install() then
     registers the Python kernels of _torch_install.py; ndpad::pad runs through ctypes);
  2. the package's own libndpad_torch.so (a build placed there by hand);
  3. the cache: NDPAD_TORCH_CACHE, else $XDG_CACHE_HOME/ndpad, else ~/.cache/ndpad, in
     torch-<version>-<hash of the sources>/libndpad_torch.so; built there by install()
     (or build()) when missing and a C++20 compiler is found. NDPAD_TORCH_BUILD=0 never
     compiles (the cache is still used). A build that fails is reported once, by a
     RuntimeWarning saying why and how to fix it, and recorded beside the cache entry
     (libndpad_torch.so.failed): later processes use the Python kernels without compiling
     or warning again (status() says why) until what a fix changes does (the compiler, its
     flags, where ndpad.h is: _torch_build.environment_key()); build() always retries.
A library built against another torch version is not used (its built_for() differs)."""

import ctypes
import hashlib
import json
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
    include = _torch_build.default_include()
    for path in (_torch_build.SOURCE,
                 os.path.join(include, "ndpad.h") if include else None,
                 os.path.abspath(_torch_build.__file__)):
        if path is None:
            continue
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


def failure_path():
    """The record of a failed build of cache_path() (JSON: the reason, the environment)."""
    return cache_path() + ".failed"


def recorded_failure():
    """Why an earlier process could not build cache_path(), if nothing a fix would change
    has changed since (_torch_build.environment_key()); else None."""
    try:
        with open(failure_path()) as f:
            record = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or \
            record.get("environment") != _torch_build.environment_key():
        return None
    return record.get("reason")


def _record_failure(reason):
    path = failure_path()
    tmp = "%s.%d.tmp" % (path, os.getpid())
    try:
        with open(tmp, "w") as f:
            json.dump({"reason": reason, "environment": _torch_build.environment_key()}, f)
        os.replace(tmp, path)
    except OSError:
        pass  # an unwritable cache: the next process tries (and says so) again


def build(verbose=True):
    """Compile the native kernels into cache_path() (if not there yet) and return the path.
    Raises RuntimeError with the reason and its fix when it cannot (no compiler, no torch
    headers, no ndpad.h, the compiler's errors), and records it (failure_path())."""
    path = cache_path()
    if os.path.exists(path):
        return path
    import fcntl
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        lock = open(path + ".lock", "w")
    except OSError as exc:
        raise RuntimeError("the cache %s cannot be written (%s): set NDPAD_TORCH_CACHE to "
                           "a writable directory" % (os.path.dirname(path), exc)) from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be building the same
        if os.path.exists(path):
            return path
        tmp = "%s.%d.tmp" % (path, os.getpid())
        try:
            _torch_build.check()  # what is missing is said before "compiling"
            if verbose:
                print("ndpad.torch: compiling the native kernels for torch %s (once per torch "
                      "version, about 30 s) into %s" % (torch.__version__,
                                                        os.path.dirname(path)),
                      file=sys.stderr, flush=True)
            _torch_build.build(tmp, verbose=False)
            os.replace(tmp, path)
        except Exception as exc:  # noqa: BLE001 - Unavailable, or the unforeseen: reported
            reason = str(exc) if isinstance(exc, _torch_build.Unavailable) else \
                "the build failed: %r" % exc
            _record_failure(reason)
            if os.path.exists(tmp):
                os.remove(tmp)
            raise RuntimeError(reason) from None
        if os.path.exists(failure_path()):
            os.remove(failure_path())
    return path


def _find(allow_build):
    """(path, why not, explicit, warn): the library to load, else why there is none (and
    whether that is news to say: a build that failed in this process)."""
    env = os.environ.get("NDPAD_TORCH_NATIVE")
    if env == "0":
        return None, "NDPAD_TORCH_NATIVE=0", False, False
    if env:
        return env, None, True, False
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY_NAME)
    if os.path.exists(path):
        return path, None, False, False
    path = cache_path()
    if os.path.exists(path):
        return path, None, False, False
    if not allow_build:
        return (None, "not built yet (install() or ndpad.torch.build_native() compiles it)",
                False, False)
    if os.environ.get("NDPAD_TORCH_BUILD") == "0":
        return None, "not built, and NDPAD_TORCH_BUILD=0", False, False
    reason = recorded_failure()
    if reason is not None:
        return None, ("cannot be compiled here: %s (an earlier build failed, recorded in %s; "
                      "once fixed, ndpad.torch.build_native() builds it)"
                      % (reason, failure_path())), False, False
    try:
        return build(), None, False, False
    except RuntimeError as exc:
        return None, "cannot be compiled here: %s" % exc, False, True


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
        path, why, explicit, warn = _find(build)
        if warn:
            warnings.warn("ndpad.torch: the native kernels %s. install() registers the "
                          "Python kernels (slower, on ndpad's own threads rather than "
                          "torch's pool). Said once: later processes use them silently "
                          "(native_status() says why) until the compiler or ndpad.h "
                          "changes; ndpad.torch.build_native() retries now" % why,
                          RuntimeWarning, stacklevel=2)
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
