"""ONNX Pad through ndpad inside ONNX Runtime.

libndpad-onnxruntime.so is a custom-op library: registered with a session's options, it adds
the operator Pad of the domain "ndpad", which takes ONNX Pad's inputs (data, pads, optional
constant_value and axes) and its `mode` attribute (constant, reflect, edge, wrap) and runs
ndpad on the session's intra-op threads. use_ndpad() moves a model's Pad nodes into that
domain:

    import onnx, onnxruntime as ort
    import ndpad.onnxruntime as ndort

    options = ort.SessionOptions()
    options.register_custom_ops_library(ndort.library_path())
    model = ndort.use_ndpad(onnx.load("model.onnx"))
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])

(ndort.session_options() makes the options with the library registered.) Results are those of
ONNX Runtime's own Pad byte for byte, and the problems it refuses (reflect pads longer than
the extent minus one, edge/reflect/wrap padding of an empty axis, bad pads or axes, a mode
that is none of the four) fail with ONNX Runtime's exceptions as well. Beyond ONNX Runtime's
Pad: every element type of ONNX's Pad-25 (int16, bfloat16, float8, int4, ...). Repeated
entries in `axes` are refused (ONNX Runtime's Pad accepts them).

The library is found at the path in NDPAD_ORT_LIBRARY (a file, or its folder), else next to
the libndpad the package loaded (a CMake build folder, or the lib folder `cmake --install`
fills). CMake builds it when it finds onnxruntime_c_api.h (NDPAD_ORT_INCLUDE_DIR;
ci/onnxruntime-header.sh fetches Debian's); the wheel does not carry it.
"""

import os

from ._lib import library_path as _ndpad_library_path

__all__ = ["DOMAIN", "library_path", "session_options", "use_ndpad"]

DOMAIN = "ndpad"
_NAME = "libndpad-onnxruntime.so"
# Pad's versions whose pads and value are attributes (Pad-1: "paddings", Pad-2: "pads")
_INPUTS_SINCE = 11


def _candidates():
    env = os.environ.get("NDPAD_ORT_LIBRARY")
    if env:
        yield os.path.join(env, _NAME) if os.path.isdir(env) else env
        return  # an explicit choice is final
    yield os.path.join(os.path.dirname(os.path.realpath(_ndpad_library_path)), _NAME)


def library_path():
    """The path of libndpad-onnxruntime.so, for SessionOptions.register_custom_ops_library().
    Raises FileNotFoundError, saying where it looked and how to build it, when there is
    none."""
    tried = []
    for path in _candidates():
        if os.path.isfile(path):
            return path
        tried.append(path)
    raise FileNotFoundError(
        "ndpad's ONNX Runtime library (%s) was not found (looked at: %s). It is built by "
        "ndpad's CMake when ONNX Runtime's C API header is found: run "
        "ci/onnxruntime-header.sh (or install Debian 13's libonnxruntime-dev), configure with "
        "-DNDPAD_ORT_INCLUDE_DIR=<folder of onnxruntime_c_api.h> and build; then set "
        "NDPAD_ORT_LIBRARY=/path/to/%s" % (_NAME, ", ".join(tried), _NAME))


def session_options(options=None):
    """`options` (a new onnxruntime.SessionOptions by default) with the library registered."""
    import onnxruntime

    if options is None:
        options = onnxruntime.SessionOptions()
    options.register_custom_ops_library(library_path())
    return options


def _default_opset(model):
    for entry in model.opset_import:
        if entry.domain in ("", "ai.onnx"):
            return entry.version
    return 0


def _element_types(model):
    """Element type of every value whose type ONNX's shape inference knows."""
    import onnx

    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except Exception:  # a model ONNX cannot infer: only the declared types
        inferred = model
    graph = inferred.graph
    types = {}
    for info in list(graph.input) + list(graph.value_info) + list(graph.output):
        if info.type.HasField("tensor_type") and info.type.tensor_type.elem_type:
            types[info.name] = info.type.tensor_type.elem_type
    for tensor in graph.initializer:
        types[tensor.name] = tensor.data_type
    return types


def _inputs_from_attributes(node, graph, elem_type):
    """Pad-1/Pad-2 (pads and value as attributes) as Pad-11's inputs, appended as
    initializers of `graph`."""
    import numpy as np
    from onnx import helper, numpy_helper

    pads, value = [], 0.0
    keep = []
    for attr in node.attribute:
        if attr.name in ("pads", "paddings"):
            pads = list(attr.ints)
        elif attr.name == "value":
            value = attr.f
        else:
            keep.append(attr)
    dtype = helper.tensor_dtype_to_np_dtype(elem_type)
    base = node.output[0] + "_ndpad"
    graph.initializer.append(numpy_helper.from_array(np.array(pads, dtype=np.int64),
                                                     base + "_pads"))
    graph.initializer.append(numpy_helper.from_array(np.array([value], dtype=dtype),
                                                     base + "_value"))
    del node.attribute[:]
    node.attribute.extend(keep)
    del node.input[1:]
    node.input.extend([base + "_pads", base + "_value"])


def _static_attributes(node, initializers):
    """static_pads (and static_axes) on `node` when its pads (and axes) are initializers:
    the kernel's shape inference then declares the output's extents (ONNX Runtime plans the
    nodes after it with them), and the kernel checks at run time that the inputs hold the
    same values."""
    from onnx import AttributeProto, helper, numpy_helper

    def values(index):
        if len(node.input) <= index or not node.input[index]:
            return None, True
        tensor = initializers.get(node.input[index])
        if tensor is None:
            return None, False
        return [int(v) for v in numpy_helper.to_array(tensor).reshape(-1)], True

    pads, known = values(1)
    axes, axes_known = values(3)
    if pads is None or not known or not axes_known:
        return
    ints = AttributeProto.INTS
    node.attribute.append(helper.make_attribute("static_pads", pads, attr_type=ints))
    if axes is not None:
        node.attribute.append(helper.make_attribute("static_axes", axes, attr_type=ints))


def use_ndpad(model, inplace=False):
    """`model` (an onnx.ModelProto) with its Pad nodes (ONNX's domain, every opset, the main
    graph's) run by ndpad: each moved into the "ndpad" domain, whose version 1 is imported.
    Pad-1 and Pad-2 nodes (pads and value as attributes) get them as initializers; such a
    node whose element type ONNX's shape inference cannot tell stays ONNX Runtime's. A node
    whose pads (and axes) are initializers also gets them as the attributes static_pads (and
    static_axes), from which the output's extents are declared. Returns a copy unless
    `inplace`."""
    import onnx

    if not inplace:
        copy = onnx.ModelProto()
        copy.CopyFrom(model)
        model = copy
    opset = _default_opset(model)
    types = initializers = None
    moved = 0
    for node in model.graph.node:
        if node.op_type != "Pad" or node.domain not in ("", "ai.onnx"):
            continue
        if opset < _INPUTS_SINCE:
            if types is None:
                types = _element_types(model)
            elem_type = types.get(node.input[0])
            if elem_type is None:
                continue
            _inputs_from_attributes(node, model.graph, elem_type)
        if initializers is None:
            initializers = {t.name: t for t in model.graph.initializer}
        _static_attributes(node, initializers)
        node.domain = DOMAIN
        moved += 1
    if moved and not any(entry.domain == DOMAIN for entry in model.opset_import):
        model.opset_import.append(onnx.helper.make_opsetid(DOMAIN, 1))
    return model
