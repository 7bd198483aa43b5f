"""ndpad inside OpenVINO: an extension library that runs Pad through libndpad.

    import openvino as ov, ndpad.openvino
    core = ov.Core()
    core.add_extension(ndpad.openvino.extension_path())
    model = core.read_model("model.onnx")      # its Pad nodes (every opset, constant, edge,
    compiled = core.compile_model(model, "CPU")  # reflect and wrap) run through ndpad

What the extension holds (src/engines/openvino/):
  - NdpadPad (opset "ndpad"): OpenVINO Pad-12's operator (inputs data, pads_begin,
    pads_end, optional pad_value; negative pads crop, borders from the whole input) in the
    modes constant, edge, reflect, symmetric and wrap, on every element type of whole bytes
    and the 4-bit ones, static and dynamic shapes; its tiles run on the CPU plugin's TBB
    threads (the compiled model's INFERENCE_NUM_THREADS);
  - the ONNX frontend's Pad (opsets 1 to 25) converted to NdpadPad, wrap included (OpenVINO's
    own translation has no wrap).
use_ndpad(model) switches the Pad-1 and Pad-12 nodes of an OpenVINO model (read from IR,
made with openvino.opset*) to NdpadPad.

extension_path() finds the library in this order:
  1. NDPAD_OPENVINO_EXTENSION: a path to a built library (the repository's CMake builds one
     with -DOpenVINO_DIR=...: build/src/engines/openvino/libndpad_openvino.so);
  2. the cache: NDPAD_OPENVINO_CACHE, else $XDG_CACHE_HOME/ndpad, else ~/.cache/ndpad, in
     openvino-<version>-<hash>/libndpad_openvino.so, compiled there at first use against
     the installed openvino's SDK and the libndpad this package loaded (a C++17 compiler;
     about 30 s, once per openvino version). NDPAD_OPENVINO_BUILD=0 never compiles.
The wheel carries the sources, not a library: a C++ extension must match the openvino it is
loaded into (its C++ ABI changes from release to release), and the wheel must not require
openvino to be built."""

import ctypes
import fcntl
import hashlib
import os
import sys
import threading

from . import _lib
from . import _openvino_build

__all__ = ["extension_path", "use_ndpad", "executions", "OP_TYPE"]

OP_TYPE = "NdpadPad"
_lock = threading.Lock()
_state = {"path": None}


def _cache_path():
    version, _ = _openvino_build.openvino_sdk()
    h = hashlib.sha256(os.path.realpath(_lib.library_path).encode())
    for path in _openvino_build.sources() + [
            os.path.join(_openvino_build.include_dir(), "ndpad.h"),
            os.path.abspath(_openvino_build.__file__)]:
        with open(path, "rb") as f:
            h.update(f.read())
    root = os.environ.get("NDPAD_OPENVINO_CACHE")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "ndpad")
    name = "openvino-%s-%s" % (version.split("-")[0], h.hexdigest()[:16])
    return os.path.join(root, name, _openvino_build.LIBRARY_NAME)


def _build_cached(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be building the same
        if os.path.exists(path):
            return path
        if os.environ.get("NDPAD_OPENVINO_BUILD") == "0":
            raise RuntimeError("ndpad.openvino: the extension is not built (%s) and "
                               "NDPAD_OPENVINO_BUILD=0" % path)
        print("ndpad.openvino: compiling the OpenVINO extension (once per openvino version, "
              "about 30 s) into %s" % os.path.dirname(path), file=sys.stderr, flush=True)
        tmp = "%s.%d.tmp" % (path, os.getpid())
        try:
            _openvino_build.build(tmp, _lib.library_path, verbose=False)
        except Exception as exc:  # noqa: BLE001 - reported with the way out
            raise RuntimeError("ndpad.openvino: cannot compile the extension: %s (set "
                               "NDPAD_OPENVINO_EXTENSION to a library built with the "
                               "repository's CMake and -DOpenVINO_DIR)" % exc) from None
        os.replace(tmp, path)
    return path


def extension_path():
    """The path of libndpad_openvino.so for core.add_extension(), compiled at first use
    (see the module's text). Raises RuntimeError saying why when there is none."""
    with _lock:
        if _state["path"] is None:
            env = os.environ.get("NDPAD_OPENVINO_EXTENSION")
            if env:
                if not os.path.exists(env):
                    raise RuntimeError("ndpad.openvino: NDPAD_OPENVINO_EXTENSION=%s does not "
                                       "exist" % env)
                path = env
            else:
                try:
                    path = _cache_path()
                except _openvino_build.Unavailable as exc:
                    raise RuntimeError("ndpad.openvino: %s" % exc) from None
                if not os.path.exists(path):
                    path = _build_cached(path)
            # The extension needs libndpad (soname libndpad.so.0): the one this package
            # loaded is found by its soname, whatever its file is called.
            _state["path"] = os.path.abspath(path)
        return _state["path"]


def executions():
    """(NdpadPad executions in this process, the thread budget of the last one): the TBB
    arena's concurrency it ran with, i.e. the compiled model's INFERENCE_NUM_THREADS."""
    lib = ctypes.CDLL(extension_path())
    count, threads = ctypes.c_int64(), ctypes.c_int32()
    lib.ndpad_openvino_stats(ctypes.byref(count), ctypes.byref(threads))
    return count.value, threads.value


def _supported(element_type):
    """Element types NdpadPad runs (pad-op.cpp's supported()): whole bytes but strings,
    and the 4-bit types."""
    name = element_type.get_type_name()
    if name in ("u4", "i4", "nf4", "f4e2m1"):
        return True
    return name not in ("string", "dynamic") and element_type.bitwidth % 8 == 0


def use_ndpad(model):
    """Replace every Pad-1 and Pad-12 node of the openvino.Model `model` by NdpadPad (same
    inputs, mode and results), in place; returns how many. Compile the model with a Core
    that has the extension (core.add_extension(extension_path()))."""
    from openvino.utils.node_factory import NodeFactory
    factory = NodeFactory()
    factory.add_extension(extension_path())
    replaced = 0
    for node in model.get_ordered_ops():
        info = node.get_type_info()
        if node.get_type_name() != "Pad" or info.version_id not in ("opset1", "opset12"):
            continue
        if not _supported(node.get_input_element_type(0)):
            continue  # strings, u1, u2, u3, u6: OpenVINO's own Pad keeps them
        new = factory.create(OP_TYPE, [v for v in node.input_values()],
                             {"mode": node.get_attributes()["pad_mode"]})
        new.set_friendly_name(node.get_friendly_name())
        for target in list(node.output(0).get_target_inputs()):
            target.replace_source_output(new.output(0))
        replaced += 1
    if replaced:
        model.validate_nodes_and_infer_types()
    return replaced
