"""libndpad's ndpad_onnx_pad_typed (ONNX Pad by element type) against ONNX's own reference
evaluator (onnx.reference, Pad-25) on random problems of the sub-byte and 8-bit float types,
byte for byte in ONNX's packing. Needs the onnx and ml_dtypes packages (PyPI); skipped
without them. ONNX's reference pads with numpy.pad, which takes no negative pad: crops are
tested against ndpad's C reference instead (tests/test-onnx-types.c)."""

import ctypes

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ml_dtypes = pytest.importorskip("ml_dtypes")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

from ndpad import _lib  # noqa: E402

if not hasattr(TensorProto, "INT2") or not hasattr(ml_dtypes, "int2"):
    pytest.skip("onnx >= 1.20 and ml_dtypes >= 0.5 (int2) needed", allow_module_level=True)

_I64 = ctypes.POINTER(ctypes.c_int64)
_lib.lib.ndpad_onnx_pad_typed.argtypes = [
    ctypes.c_int32, ctypes.c_int32, _I64, ctypes.c_int32, _I64, ctypes.c_int64, _I64,
    ctypes.c_int64, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
_lib.lib.ndpad_onnx_pad_typed.restype = ctypes.c_int

# ONNX type -> (ml_dtypes dtype, bits)
TYPES = {
    "INT4": (ml_dtypes.int4, 4), "UINT4": (ml_dtypes.uint4, 4),
    "FLOAT4E2M1": (ml_dtypes.float4_e2m1fn, 4), "INT2": (ml_dtypes.int2, 2),
    "UINT2": (ml_dtypes.uint2, 2), "FLOAT8E4M3FN": (ml_dtypes.float8_e4m3fn, 8),
    "FLOAT8E5M2": (ml_dtypes.float8_e5m2, 8),
}


def _reference(type_name, mode, x, pads, value, axes):
    t = getattr(TensorProto, type_name)
    names = ["x", "p", "c"] + (["a"] if axes is not None else [])
    inputs = [helper.make_tensor_value_info("x", t, None),
              helper.make_tensor_value_info("p", TensorProto.INT64, None),
              helper.make_tensor_value_info("c", t, None)]
    if axes is not None:
        inputs.append(helper.make_tensor_value_info("a", TensorProto.INT64, None))
    node = helper.make_node("Pad", names, ["y"], mode=mode)
    graph = helper.make_graph([node], "g", inputs, [helper.make_tensor_value_info("y", t, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 25)])
    feeds = {"x": x, "p": np.array(pads, np.int64), "c": value}
    if axes is not None:
        feeds["a"] = np.array(axes, np.int64)
    return ReferenceEvaluator(model).run(None, feeds)[0]


def _elements(bits_values, dtype, bits):
    """ml_dtypes elements with the given bit patterns (one per byte)."""
    if bits == 8:
        return bits_values.view(dtype)
    values = np.zeros(bits_values.size, dtype=dtype)
    if dtype in (ml_dtypes.uint4, ml_dtypes.uint2):
        return bits_values.astype(dtype)
    if dtype is ml_dtypes.float4_e2m1fn:
        values.view(np.uint8)[:] = bits_values
        return values
    signed = (bits_values.astype(np.int16) ^ (1 << (bits - 1))) - (1 << (bits - 1))
    return signed.astype(dtype)


@pytest.mark.parametrize("type_name", sorted(TYPES))
def test_typed_pad_matches_onnx_reference(type_name):
    dtype, bits = TYPES[type_name]
    rng = np.random.default_rng(sum(map(ord, type_name)))
    checked = 0
    while checked < 60:
        rank = int(rng.integers(1, 4))
        shape = [int(d) for d in rng.integers(1, 6, size=rank)]
        mode = ("constant", "edge", "reflect", "wrap")[int(rng.integers(0, 4))]
        axes = None
        listed = list(range(rank))
        if rng.integers(0, 2):
            listed = [int(a) for a in rng.permutation(rank)[:int(rng.integers(1, rank + 1))]]
            axes = [a - rank if rng.integers(0, 2) else a for a in listed]
        pads = [int(p) for p in rng.integers(0, 8, size=2 * len(listed))]
        n = int(np.prod(shape))
        raw = rng.integers(0, 1 << bits, size=n + 1).astype(np.uint8)
        elements = _elements(raw, dtype, bits)
        if bits == 8 and np.isnan(elements.astype(np.float32)).any():
            continue  # the reference's values, compared as bytes, would not tell NaNs apart
        x, value = elements[:n].reshape(shape), np.array(elements[n], dtype=dtype)
        want = _reference(type_name, mode, x, pads, value, axes)
        want_bytes = numpy_helper.from_array(want).raw_data if want.size else b""
        packed = numpy_helper.from_array(x).raw_data
        source = (ctypes.c_uint8 * max(len(packed), 1)).from_buffer_copy(packed or b"\0")
        out = (ctypes.c_uint8 * (len(want_bytes) + 1))()
        value_byte = (ctypes.c_uint8 * 1)(int(raw[n]))

        def arr(v):
            return (ctypes.c_int64 * max(len(v), 1))(*v)
        status = _lib.lib.ndpad_onnx_pad_typed(
            25, rank, arr(shape), getattr(TensorProto, type_name), arr(pads), len(pads),
            None if axes is None else arr(axes), 0 if axes is None else len(axes),
            mode.encode(), value_byte, source, out)
        assert status == 0, _lib.lib.ndpad_last_error()
        assert bytes(out)[:len(want_bytes)] == want_bytes, (shape, pads, axes, mode)
        checked += 1
