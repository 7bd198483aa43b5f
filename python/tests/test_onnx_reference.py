"""Every ONNX entry point of libndpad against ONNX's own reference evaluator (onnx.reference)
on random problems, crops longer than their axis included, into outputs that end where an
inaccessible page begins (and start after one): ndpad_onnx_pad, ndpad_onnx_pad_typed,
ndpad_onnx_center_crop_pad, ndpad_onnx_center_crop_pad_typed, and the output shape of the
problems ndpad_onnx_problem_init and ndpad_onnx_problem_init_typed make (the buffers are
sized from it). Needs the onnx and ml_dtypes packages (PyPI); skipped without them.

ONNX's rule for Pad's shape is its shape inference: each listed axis's extent is
d + begin + end. That is asked of onnx.shape_inference for every problem, and every call must
either produce exactly that shape, byte for byte as the reference, or refuse where ONNX's
rules give no tensor (a negative extent) or nothing to compute (an edge/reflect/wrap pad of
an axis with no element left; ONNX Runtime refuses those too), writing nothing.
ONNX's reference Pad is numpy.pad, which takes no negative pad, so crops are expressed with
ONNX's operators as ONNX defines them, output index o reading input o - begin: with
"constant", Pad (the positive pads) then Slice (the crops), which holds for crops longer
than the axis too; with the other modes, crop first (ONNX Runtime's order): Slice then Pad.
Where ONNX Runtime is installed, the crops are also checked against it."""

import ctypes
import mmap

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ml_dtypes = pytest.importorskip("ml_dtypes")
from onnx import TensorProto, helper, numpy_helper, shape_inference  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

from ndpad import _lib  # noqa: E402

if not hasattr(TensorProto, "INT2") or not hasattr(ml_dtypes, "int2"):
    pytest.skip("onnx >= 1.20 and ml_dtypes >= 0.5 (int2) needed", allow_module_level=True)

# a handle of its own: the argument types set below are the test's, not the package's
lib = ctypes.CDLL(_lib.library_path)
_P = ctypes.c_void_p
_I64 = ctypes.POINTER(ctypes.c_int64)
lib.ndpad_onnx_pad_typed.argtypes = [ctypes.c_int32, ctypes.c_int32, _I64, ctypes.c_int32, _I64,
                                     ctypes.c_int64, _I64, ctypes.c_int64, ctypes.c_char_p, _P, _P,
                                     _P]
lib.ndpad_onnx_pad.argtypes = [ctypes.c_int32, _I64, ctypes.c_size_t, _I64, ctypes.c_int64, _I64,
                               ctypes.c_int64, ctypes.c_char_p, _P, _P, _P]
lib.ndpad_onnx_center_crop_pad.argtypes = [ctypes.c_int32, _I64, ctypes.c_size_t, _I64,
                                           ctypes.c_int64, _I64, ctypes.c_int64, _P, _P]
lib.ndpad_onnx_center_crop_pad_typed.argtypes = [ctypes.c_int32, ctypes.c_int32, _I64,
                                                 ctypes.c_int32, _I64, ctypes.c_int64, _I64,
                                                 ctypes.c_int64, _P, _P]


class _bits_problem(ctypes.Structure):
    _fields_ = [("problem", _lib.ndpad_problem), ("elem_bits", ctypes.c_int32),
                ("reserved", ctypes.c_int32), ("in_bit_offset", ctypes.c_int64),
                ("out_bit_offset", ctypes.c_int64)]


class _typed_problem(ctypes.Structure):
    _fields_ = [("onnx", _lib.ndpad_onnx_problem), ("bits", _bits_problem),
                ("elem_type", ctypes.c_int32), ("elem_bits", ctypes.c_int32)]


lib.ndpad_onnx_problem_init.argtypes = [ctypes.POINTER(_lib.ndpad_onnx_problem), ctypes.c_int32,
                                        _I64, ctypes.c_size_t, _I64, ctypes.c_int64, _I64,
                                        ctypes.c_int64, ctypes.c_char_p, _P]
lib.ndpad_onnx_problem_init_typed.argtypes = [ctypes.POINTER(_typed_problem), ctypes.c_int32,
                                              ctypes.c_int32, _I64, ctypes.c_int32, _I64,
                                              ctypes.c_int64, _I64, ctypes.c_int64,
                                              ctypes.c_char_p, _P]
lib.ndpad_bits_output_shape.argtypes = [ctypes.POINTER(_bits_problem), _P]
lib.ndpad_output_shape.argtypes = [ctypes.POINTER(_lib.ndpad_problem), _P]
lib.ndpad_last_error.restype = ctypes.c_char_p
for _f in ("ndpad_output_shape", "ndpad_onnx_pad_typed", "ndpad_onnx_pad", "ndpad_onnx_center_crop_pad",
           "ndpad_onnx_center_crop_pad_typed", "ndpad_onnx_problem_init",
           "ndpad_onnx_problem_init_typed", "ndpad_bits_output_shape"):
    getattr(lib, _f).restype = ctypes.c_int

SHAPE, EMPTY_AXIS = 5, 8  # NDPAD_ERR_SHAPE, NDPAD_ERR_EMPTY_AXIS

# ONNX type -> (numpy / ml_dtypes dtype, bits)
TYPES = {
    "INT4": (ml_dtypes.int4, 4), "UINT4": (ml_dtypes.uint4, 4),
    "FLOAT4E2M1": (ml_dtypes.float4_e2m1fn, 4), "INT2": (ml_dtypes.int2, 2),
    "UINT2": (ml_dtypes.uint2, 2), "FLOAT8E4M3FN": (ml_dtypes.float8_e4m3fn, 8),
    "FLOAT8E5M2": (ml_dtypes.float8_e5m2, 8), "UINT8": (np.uint8, 8), "INT16": (np.int16, 16),
    "FLOAT": (np.float32, 32), "INT64": (np.int64, 64), "DOUBLE": (np.float64, 64),
    "BOOL": (np.bool_, 8),
}
WHOLE = [name for name, (_, bits) in TYPES.items() if bits >= 8 and "FLOAT8" not in name]
PAD13 = set(WHOLE)  # CenterCropPad-18 takes Pad-13's types: these, not float8 nor sub-byte


# ---- buffers between inaccessible pages ---------------------------------------------------

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.argtypes = [_P, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                       ctypes.c_long]
_libc.mmap.restype = _P
_libc.munmap.argtypes = [_P, ctypes.c_size_t]
_libc.mprotect.argtypes = [_P, ctypes.c_size_t, ctypes.c_int]
_PAGE = mmap.PAGESIZE
_SENTINEL = 0xA5


class Guarded:
    """`size` bytes that end where a PROT_NONE page begins, after a PROT_NONE page and
    sentinel bytes: a store (or load) past the end faults, one before shows in the
    sentinel bytes."""

    def __init__(self, size, data=None):
        self.size = size
        pages = (size + 64 + _PAGE - 1) // _PAGE
        self.length = (pages + 2) * _PAGE
        self.base = _libc.mmap(None, self.length, 3, 0x22, -1, 0)  # RW, PRIVATE|ANONYMOUS
        assert self.base not in (None, ctypes.c_void_p(-1).value), ctypes.get_errno()
        assert _libc.mprotect(self.base, _PAGE, 0) == 0
        assert _libc.mprotect(self.base + (pages + 1) * _PAGE, _PAGE, 0) == 0
        self.front = self.base + _PAGE
        self.addr = self.base + (pages + 1) * _PAGE - size
        ctypes.memset(self.front, _SENTINEL, pages * _PAGE)
        if data is not None:
            ctypes.memmove(self.addr, data, size)

    def body(self):
        return ctypes.string_at(self.addr, self.size)

    def untouched_front(self):
        n = self.addr - self.front
        return ctypes.string_at(self.front, n) == bytes([_SENTINEL]) * n

    def free(self):
        _libc.munmap(self.base, self.length)


def _arr(values):
    return (ctypes.c_int64 * max(len(values), 1))(*values)


def _error():
    return lib.ndpad_last_error().decode()


# ---- ONNX's side -------------------------------------------------------------------------

def _model(nodes, inputs, t, opset=25, initializers=()):
    graph = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("y", t, None)],
                              initializer=list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _onnx_extents(t, shape, pads, axes, mode):
    """Pad's output shape by ONNX's shape inference (pads and axes as initializers)."""
    x = helper.make_tensor_value_info("x", t, shape)
    inits = [numpy_helper.from_array(np.array(pads, np.int64), "p")]
    names = ["x", "p", ""]
    if axes is not None:
        inits.append(numpy_helper.from_array(np.array(axes, np.int64), "a"))
        names.append("a")
    model = _model([helper.make_node("Pad", names, ["y"], mode=mode)], [x], t,
                   initializers=inits)
    out = shape_inference.infer_shapes(model, data_prop=True).graph.output[0]
    return [d.dim_value for d in out.type.tensor_type.shape.dim]


def _onnx_pad(t, x, pads, axes, mode, value):
    """ONNX Pad of `x` by ONNX's reference evaluator, crops as Slice (see the docstring)."""
    n = len(pads) // 2
    listed = list(axes) if axes is not None else list(range(x.ndim))
    positive = [max(p, 0) for p in pads]
    starts = [max(-p, 0) for p in pads[:n]]
    ends = [-max(-p, 0) if p < 0 else np.iinfo(np.int64).max for p in pads[n:]]
    pad_inputs = ["x_pad", "p", "c" if mode == "constant" else ""]
    if axes is not None:
        pad_inputs.append("a")
    slice_inputs = ["x_slice", "s", "e", "a"]
    if mode == "constant":  # pad, then crop: exact for crops longer than the axis too
        pad_inputs[0], slice_inputs[0] = "x", "padded"
        nodes = [helper.make_node("Pad", pad_inputs, ["padded"], mode=mode),
                 helper.make_node("Slice", slice_inputs, ["y"])]
    else:  # crop first, then pad the cropped tensor (ONNX Runtime)
        slice_inputs[0], pad_inputs[0] = "x", "cropped"
        nodes = [helper.make_node("Slice", slice_inputs, ["cropped"]),
                 helper.make_node("Pad", pad_inputs, ["y"], mode=mode)]
    i64 = TensorProto.INT64
    inputs = [helper.make_tensor_value_info(name, tt, None)
              for name, tt in (("x", t), ("p", i64), ("c", t), ("s", i64), ("e", i64),
                               ("a", i64))]
    feeds = {"x": x, "p": np.array(positive, np.int64), "c": value,
             "s": np.array(starts, np.int64), "e": np.array(ends, np.int64),
             "a": np.array(listed, np.int64)}
    return ReferenceEvaluator(_model(nodes, inputs, t)).run(None, feeds)[0]


def _onnx_center_crop_pad(t, x, target, axes):
    inputs = [helper.make_tensor_value_info("x", t, None),
              helper.make_tensor_value_info("s", TensorProto.INT64, None)]
    names, feeds = ["x", "s"], {"x": x, "s": np.array(target, np.int64)}
    attrs = {} if axes is None else {"axes": list(axes)}
    node = helper.make_node("CenterCropPad", names, ["y"], **attrs)
    return ReferenceEvaluator(_model([node], inputs, t, opset=18)).run(None, feeds)[0]


def _raw(array):
    return numpy_helper.from_array(array).raw_data if array.size else b""


def _elements(bits_values, dtype, bits):
    """Elements with the given bit patterns (one per byte) for the sub-byte and float8
    types; small integers for the others."""
    if dtype is np.bool_:
        return (bits_values & 1).astype(np.bool_)
    if np.dtype(dtype).kind in "iuf" and np.dtype(dtype).itemsize >= 2 or dtype is np.uint8:
        return (bits_values.astype(np.int64) - (0 if dtype is np.uint8 else 100)).astype(dtype)
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


def _random_tensor(rng, type_name, shape):
    """(x, value): an input of `shape` and one element, no NaN (compared as bytes)."""
    dtype, bits = TYPES[type_name]
    n = int(np.prod(shape))
    while True:
        raw = rng.integers(0, 1 << min(bits, 8), size=n + 1).astype(np.uint8)
        elements = _elements(raw, dtype, bits)
        if not (bits == 8 and "FLOAT8" in type_name
                and np.isnan(elements.astype(np.float32)).any()):
            return elements[:n].reshape(shape), np.array(elements[n], dtype=dtype)


def _random_axes(rng, rank):
    listed = list(range(rank))
    if rng.integers(0, 2):
        listed = [int(a) for a in rng.permutation(rank)[:int(rng.integers(1, rank + 1))]]
        return listed, [a - rank if rng.integers(0, 2) else a for a in listed]
    return listed, None


def _random_pads(rng, shape, listed):
    """Pads up to 7, crops up to the extent and, a third of the time, past it; one problem
    in five has a crop past the end of an axis that its other pad makes up for (an extent
    >= 0 with no input element left)."""
    begin, end = [], []
    for a in listed:
        d = shape[a]
        for side in (begin, end):
            if rng.integers(0, 3):
                side.append(int(rng.integers(0, 8)))
            else:
                side.append(-int(rng.integers(0, d + 1 + 3 * int(rng.integers(0, 2)))))
    if rng.integers(0, 5) == 0:
        i = int(rng.integers(0, len(listed)))
        past = int(rng.integers(1, 4))
        crop, pad = (begin, end) if rng.integers(0, 2) else (end, begin)
        crop[i], pad[i] = -(shape[listed[i]] + past), past + int(rng.integers(0, 3))
    return begin + end


# ---- the calls ------------------------------------------------------------------------

def _expect_refused(what, status, want, name, out):
    assert status == want, (what, status, want, _error())
    assert _error().startswith(name + ": "), (what, _error())
    assert "axis" in _error(), (what, _error())
    assert out.untouched_front() and out.body() == bytes([_SENTINEL]) * out.size, what


def _check_pad_calls(type_name, x, value, pads, axes, mode, want_shape, want_bytes, want_status):
    """Every ONNX Pad entry point on one problem: the shape queries give `want_shape`, the
    calls write `want_bytes` into a buffer of exactly that size, or all refuse with
    `want_status` and write nothing."""
    dtype, bits = TYPES[type_name]
    t = getattr(TensorProto, type_name)
    rank = x.ndim
    shape = list(x.shape)
    packed = _raw(x)
    source = Guarded(len(packed), packed)
    value_buf = (ctypes.c_uint8 * 16).from_buffer_copy(_raw(value.reshape(1)).ljust(16, b"\0"))
    size = len(want_bytes) if want_bytes is not None else 64
    axes_args = (None if axes is None else _arr(axes), 0 if axes is None else len(axes))
    mode_arg = mode.encode()
    what = (type_name, shape, pads, axes, mode)

    calls = [("ndpad_onnx_pad_typed", lambda out: lib.ndpad_onnx_pad_typed(
        25, rank, _arr(shape), t, _arr(pads), len(pads), *axes_args, mode_arg, value_buf,
        source.addr, out))]
    if type_name in WHOLE:
        calls.append(("ndpad_onnx_pad", lambda out: lib.ndpad_onnx_pad(
            rank, _arr(shape), bits // 8, _arr(pads), len(pads), *axes_args, mode_arg,
            value_buf, source.addr, out)))
    for name, call in calls:
        out = Guarded(size)
        status = call(out.addr)
        if want_status:
            _expect_refused(what, status, want_status, name, out)
        else:
            assert status == 0, (what, name, _error())
            assert out.body() == want_bytes, (what, name)
            assert out.untouched_front(), (what, name)
        out.free()

    # the shape the caller sizes its buffers from
    typed = _typed_problem()
    status = lib.ndpad_onnx_problem_init_typed(ctypes.byref(typed), 25, rank, _arr(shape), t,
                                               _arr(pads), len(pads), *axes_args, mode_arg,
                                               value_buf)
    assert status == want_status, (what, status, _error())
    if not want_status:
        got = (ctypes.c_int64 * max(rank, 1))()
        if bits < 8:
            assert lib.ndpad_bits_output_shape(ctypes.byref(typed.bits), got) == 0
        else:
            assert lib.ndpad_output_shape(ctypes.byref(typed.onnx.problem), got) == 0
        assert list(got)[:rank] == want_shape, (what, list(got)[:rank])
    if type_name in WHOLE:
        plain = _lib.ndpad_onnx_problem()
        status = lib.ndpad_onnx_problem_init(ctypes.byref(plain), rank, _arr(shape), bits // 8,
                                             _arr(pads), len(pads), *axes_args, mode_arg,
                                             value_buf)
        assert status == want_status, (what, status, _error())
        if not want_status:
            got = (ctypes.c_int64 * max(rank, 1))()
            assert lib.ndpad_output_shape(ctypes.byref(plain.problem), got) == 0
            assert list(got)[:rank] == want_shape, (what, list(got)[:rank])
    source.free()


def _cropped_past_the_end(shape, pads, listed):
    n = len(listed)
    return any(shape[a] + min(pads[i], 0) + min(pads[n + i], 0) < 0 for i, a in enumerate(listed))


@pytest.mark.parametrize("type_name", sorted(TYPES))
def test_pad_matches_onnx_reference(type_name):
    t = getattr(TensorProto, type_name)
    rng = np.random.default_rng(sum(map(ord, type_name)))
    tally = {"ok": 0, "constant past the end": 0, "negative extent": 0, "nothing to repeat": 0}
    for _ in range(80):
        rank = int(rng.integers(1, 4))
        shape = [int(d) for d in rng.integers(0 if rng.integers(0, 8) == 0 else 1, 6, size=rank)]
        mode = ("constant", "constant", "edge", "reflect", "wrap")[int(rng.integers(0, 5))]
        listed, axes = _random_axes(rng, rank)
        pads = _random_pads(rng, shape, listed)
        x, value = _random_tensor(rng, type_name, shape)
        extents = _onnx_extents(t, shape, pads, axes, mode)
        if any(e < 0 for e in extents):  # ONNX's rule gives no tensor
            _check_pad_calls(type_name, x, value, pads, axes, mode, None, None, SHAPE)
            tally["negative extent"] += 1
            continue
        past_the_end = _cropped_past_the_end(shape, pads, listed)
        if past_the_end and mode != "constant":  # no element to repeat (ONNX Runtime refuses)
            _check_pad_calls(type_name, x, value, pads, axes, mode, None, None, EMPTY_AXIS)
            tally["nothing to repeat"] += 1
            continue
        try:
            want = _onnx_pad(t, x, pads, axes, mode, value)
        except ValueError:  # numpy.pad: an empty axis that edge/reflect/wrap must grow
            _check_pad_calls(type_name, x, value, pads, axes, mode, None, None, EMPTY_AXIS)
            tally["nothing to repeat"] += 1
            continue
        assert list(want.shape) == extents, (shape, pads, axes, mode)
        _check_pad_calls(type_name, x, value, pads, axes, mode, extents, _raw(want), 0)
        tally["ok"] += 1
        tally["constant past the end"] += past_the_end
    assert tally["ok"] >= 20 and min(tally.values()) >= 2, tally


@pytest.mark.parametrize("type_name", sorted(TYPES))
def test_center_crop_pad_matches_onnx_reference(type_name):
    dtype, bits = TYPES[type_name]
    t = getattr(TensorProto, type_name)
    rng = np.random.default_rng(1 + sum(map(ord, type_name)))
    for _ in range(20):
        rank = int(rng.integers(1, 4))
        shape = [int(d) for d in rng.integers(0, 7, size=rank)]
        listed, axes = _random_axes(rng, rank)
        target = [int(rng.integers(0, shape[a] + 4)) for a in listed]
        x, _ = _random_tensor(rng, type_name, shape)
        want = _onnx_center_crop_pad(t, x, target, axes)
        want_bytes = _raw(want)
        packed = _raw(x)
        source = Guarded(len(packed), packed)
        axes_args = (None if axes is None else _arr(axes), 0 if axes is None else len(axes))
        opset = 18 if type_name in PAD13 else 0  # 0: ndpad's rule beyond CenterCropPad-18's types
        calls = [("ndpad_onnx_center_crop_pad_typed", lambda out: (
            lib.ndpad_onnx_center_crop_pad_typed(opset, rank, _arr(shape), t, _arr(target),
                                                 len(target), *axes_args, source.addr, out)))]
        if type_name in WHOLE:
            calls.append(("ndpad_onnx_center_crop_pad", lambda out: (
                lib.ndpad_onnx_center_crop_pad(rank, _arr(shape), bits // 8, _arr(target),
                                               len(target), *axes_args, source.addr, out))))
        for name, call in calls:
            out = Guarded(len(want_bytes))
            assert call(out.addr) == 0, (name, shape, target, axes, _error())
            assert out.body() == want_bytes, (name, shape, target, axes)
            assert out.untouched_front(), (name, shape, target, axes)
            out.free()
        source.free()


def test_the_issue_s_crop_longer_than_its_axis():
    """Issue 41: shape {1}, pads {3, -2}, UINT8, opset 21, value 7 wrote 3 bytes where
    ONNX's shape has 2: now the 2 bytes ONNX Runtime gives, [7, 7]."""
    x, value = np.array([1], np.uint8), np.array(7, np.uint8)
    assert _onnx_extents(TensorProto.UINT8, [1], [3, -2], None, "constant") == [2]
    want = _onnx_pad(TensorProto.UINT8, x, [3, -2], None, "constant", value)
    assert want.tolist() == [7, 7]
    _check_pad_calls("UINT8", x, value, [3, -2], None, "constant", [2], b"\x07\x07", 0)


ORT_TYPES = {"UINT8": np.uint8, "FLOAT": np.float32, "INT64": np.int64}


@pytest.mark.parametrize("type_name", sorted(ORT_TYPES))
def test_crops_as_onnx_runtime(type_name):
    """Crops (past the end of an axis too) against ONNX Runtime, the engine whose crop-first
    rule ndpad follows: where both give a tensor it is the same; ndpad never refuses what
    ONNX Runtime computes; with "constant" they refuse exactly the same problems. (ONNX
    Runtime also refuses some problems ndpad computes, documented in ndpad.h: pads larger
    than a reflect extent, non-constant pads of an axis cropped to exactly 0.)"""
    ort = pytest.importorskip("onnxruntime")
    t = getattr(TensorProto, type_name)
    rng = np.random.default_rng(41 + sum(map(ord, type_name)))
    options = ort.SessionOptions()
    options.log_severity_level = 4
    agreed = 0
    for _ in range(40):
        rank = int(rng.integers(1, 3))
        shape = [int(d) for d in rng.integers(1, 5, size=rank)]
        mode = ("constant", "constant", "edge", "reflect", "wrap")[int(rng.integers(0, 5))]
        listed = list(range(rank))
        pads = _random_pads(rng, shape, listed)
        extents = [shape[k] + pads[k] + pads[rank + k] for k in range(rank)]
        if sum(e < 0 for e in extents) > 1:
            continue  # two negative extents make a positive size ONNX Runtime then runs with
        x, value = _random_tensor(rng, type_name, shape)
        inputs = [helper.make_tensor_value_info("x", t, None),
                  helper.make_tensor_value_info("p", TensorProto.INT64, None),
                  helper.make_tensor_value_info("c", t, None)]
        model = _model([helper.make_node("Pad", ["x", "p", "c"], ["y"], mode=mode)], inputs, t,
                       opset=21)
        session = ort.InferenceSession(model.SerializeToString(), options,
                                       providers=["CPUExecutionProvider"])
        try:
            want = session.run(None, {"x": x, "p": np.array(pads, np.int64), "c": value})[0]
        except Exception:  # noqa: BLE001 (ONNX Runtime's own error types)
            want = None
        out = Guarded(max(int(np.prod(extents)) if min(extents) >= 0 else 0, 0) * x.itemsize)
        status = lib.ndpad_onnx_pad(rank, _arr(shape), x.itemsize, _arr(pads), len(pads), None,
                                    0, mode.encode(), value.ctypes.data, x.ctypes.data, out.addr)
        what = (shape, pads, mode)
        if status != 0:
            assert want is None, ("ndpad refuses what ONNX Runtime computes", what, _error())
            assert out.body() == bytes([_SENTINEL]) * out.size, what
        elif want is not None:
            assert out.body() == want.tobytes() and out.untouched_front(), what
            agreed += 1
        else:
            assert mode != "constant", ("ndpad computes what ONNX Runtime refuses", what)
        out.free()
    assert agreed >= 10
