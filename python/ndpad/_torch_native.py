"""Finding and loading libndpad_torch.so, the native kernels of ndpad.torch.install()
(_torch_native.cpp: torch's CPU padding operators as C++ kernels, no Python per call).

Looked up in this order:
  1. NDPAD_TORCH_NATIVE: a path to the library, or "0" for no native kernels (install()
     then registers the Python kernels of _torch_install.py);
  2. the package's own libndpad_torch.so (pip install builds it when torch's C++ headers
     are there: python/setup.py).
A library built against another torch version is not used (its built_for() differs)."""

import ctypes
import os
import warnings

import torch

from . import _lib

__all__ = ["load", "status", "LIBRARY_NAME"]

LIBRARY_NAME = "libndpad_torch.so"
# What the native kernels call, in the order ndpad::install takes their addresses.
_FUNCTIONS = ("ndpad_plan_create", "ndpad_execute", "ndpad_plan_destroy", "ndpad_last_error",
              "ndpad_status_string")

_state = {"ops": None, "status": None, "path": None}


def _find():
    env = os.environ.get("NDPAD_TORCH_NATIVE")
    if env == "0":
        return None, "NDPAD_TORCH_NATIVE=0", False
    if env:
        return env, None, True
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY_NAME)
    if os.path.exists(path):
        return path, None, False
    return None, ("not built (pip install builds %s when torch's C++ headers are present; "
                  "python/build_torch_native.py builds it for a checkout)" % LIBRARY_NAME), False


def load():
    """torch.ops.ndpad with the native kernels, or None (status() says why). An explicit
    NDPAD_TORCH_NATIVE that cannot be used raises RuntimeError; the package's own library
    that cannot be used (another torch) warns once and gives None."""
    if _state["status"] is not None:
        return _state["ops"]
    path, why, explicit = _find()
    ops = None
    if path is not None:
        try:
            torch.ops.load_library(path)
            built_for = torch.ops.ndpad.built_for()
            if built_for != torch.__version__:
                why = "%s was built for torch %s, this is torch %s" % (
                    path, built_for, torch.__version__)
            else:
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
    """torch.ops.ndpad's native kernels if load() has loaded them, else None (no loading)."""
    return _state["ops"]


def status():
    """"native: <path>" or "python: <why not native>" (loads first if needed)."""
    load()
    return _state["status"]


def function_addresses():
    """The addresses of libndpad's functions the native kernels call (the ctypes copy)."""
    return [ctypes.cast(getattr(_lib.lib, name), ctypes.c_void_p).value
            for name in _FUNCTIONS]
