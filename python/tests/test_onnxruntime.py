"""ndpad inside ONNX Runtime (PyPI's onnxruntime): libndpad-onnxruntime.so registered with a
session, models whose Pad nodes ndpad.onnxruntime.use_ndpad() moved into the "ndpad" domain,
against the same models on ONNX Runtime's own Pad, byte for byte; ONNX Runtime's errors for
the problems its Pad refuses. Skipped without onnx and onnxruntime, and without the library
(built when CMake finds ONNX Runtime's C API header) unless NDPAD_REQUIRE_ORT=1, as in CI."""

import os
import zlib

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnxruntime.capi import onnxruntime_pybind11_state as ort_errors  # noqa: E402

import ndpad.onnxruntime as ndort  # noqa: E402

try:
    LIBRARY = ndort.library_path()
except FileNotFoundError as e:
    if os.environ.get("NDPAD_REQUIRE_ORT") == "1":
        raise
    pytest.skip(str(e), allow_module_level=True)

MODES = ["constant", "reflect", "edge", "wrap"]
# the element types of ONNX Runtime's own CPU Pad
DTYPES = [np.float32, np.float16, np.float64, np.int8, np.uint8, np.int32, np.uint32, np.int64,
          np.uint64, np.bool_]


def _session(model, ndpad, threads=1):
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.log_severity_level = 3
    if ndpad:
        options.register_custom_ops_library(LIBRARY)
        model = ndort.use_ndpad(model)
        assert not [n for n in model.graph.node if n.op_type == "Pad" and n.domain != "ndpad"]
    return ort.InferenceSession(model.SerializeToString(), options,
                                providers=["CPUExecutionProvider"])


def _both(model, feeds, threads=1):
    """(ONNX Runtime's own Pad, ndpad's) outputs of `model`."""
    return (_session(model, False, threads).run(None, feeds),
            _session(model, True, threads).run(None, feeds))


def _same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert x.tobytes() == y.tobytes()


def _pad_model(dtype, rank, mode, pads, value=None, axes=None, opset=21, axes_type=np.int64,
               pads_input=False):
    t = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    inits, inputs = [], [helper.make_tensor_value_info("x", t, ["d%d" % k for k in range(rank)])]
    if pads_input:
        inputs.append(helper.make_tensor_value_info("pads", TensorProto.INT64, [len(pads)]))
    else:
        inits.append(numpy_helper.from_array(np.array(pads, dtype=np.int64), "pads"))
    names = ["x", "pads"]
    if value is not None:
        inits.append(numpy_helper.from_array(np.array([value], dtype=dtype), "value"))
        names.append("value")
    if axes is not None:
        if value is None:
            names.append("")
        inits.append(numpy_helper.from_array(np.array(axes, dtype=axes_type), "axes"))
        names.append("axes")
    node = helper.make_node("Pad", names, ["y"], mode=mode)
    graph = helper.make_graph([node], "pad", inputs, [helper.make_tensor_value_info("y", t, None)],
                              inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _data(dtype, shape, rng):
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), size=shape, dtype=dtype)
    return rng.standard_normal(shape).astype(dtype)


def _random_pads(rng, shape, mode, axes):
    """ONNX pads for `axes` (negative = crop) that ONNX Runtime's Pad accepts in `mode`."""
    begin, end = [], []
    for axis in axes:
        d = shape[axis]
        b, e = (int(v) for v in rng.integers(-1, 4, size=2))
        if mode != "constant":  # keep two elements at least (shapes are >= 4)
            b, e = max(b, -((d - 2) // 2)), max(e, -((d - 2) // 2))
            kept = d + min(b, 0) + min(e, 0)
            if mode == "reflect":
                b, e = min(b, kept - 1), min(e, kept - 1)
        begin.append(b)
        end.append(e)
    return begin + end


def _conv_net(dtype=np.float32):
    """A small conv net with a Pad node in every mode: reflect, conv, edge, conv, constant
    (value an input), wrap; then a final conv."""
    rng = np.random.default_rng(7)
    t = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    inits = [numpy_helper.from_array(rng.standard_normal((8, 3, 3, 3)).astype(dtype), "w1"),
             numpy_helper.from_array(rng.standard_normal((8, 8, 3, 3)).astype(dtype), "w2"),
             numpy_helper.from_array(rng.standard_normal((4, 8, 1, 1)).astype(dtype), "w3"),
             numpy_helper.from_array(np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64), "p1"),
             numpy_helper.from_array(np.array([0, 0, 2, 1, 0, 0, 1, 2], np.int64), "p2"),
             numpy_helper.from_array(np.array([1, 1, 1, 1], np.int64), "p3"),
             numpy_helper.from_array(np.array([2, 3], np.int64), "a3"),
             numpy_helper.from_array(np.array([0.5], dtype), "v3"),
             numpy_helper.from_array(np.array([0, 0, 3, -1, 0, 0, -1, 3], np.int64), "p4")]
    nodes = [helper.make_node("Pad", ["x", "p1"], ["x1"], mode="reflect"),
             helper.make_node("Conv", ["x1", "w1"], ["c1"]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("Pad", ["r1", "p2"], ["x2"], mode="edge"),
             helper.make_node("Conv", ["x2", "w2"], ["c2"]),
             helper.make_node("Pad", ["c2", "p3", "v3", "a3"], ["x3"], mode="constant"),
             helper.make_node("Pad", ["x3", "p4"], ["x4"], mode="wrap"),
             helper.make_node("Conv", ["x4", "w3"], ["y"])]
    graph = helper.make_graph(nodes, "convnet",
                              [helper.make_tensor_value_info("x", t, [1, 3, 20, 24])],
                              [helper.make_tensor_value_info("y", t, None)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])


def _each_pad_against_onnxruntime(model, feeds):
    """Runs `model` on ndpad with every Pad's input and output as graph outputs, then each
    Pad node alone on ONNX Runtime's own Pad, on the input ndpad's Pad got: the same bytes."""
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    pads = [n for n in probe.graph.node if n.op_type == "Pad"]
    names = [n.input[0] for n in pads] + [n.output[0] for n in pads]
    probe.graph.output.extend(helper.make_empty_tensor_value_info(name) for name in names)
    got = dict(zip(names, _session(probe, True).run(names, feeds)))
    inits = {t.name: t for t in probe.graph.initializer}
    for node in pads:
        x = got[node.input[0]]
        t = helper.np_dtype_to_tensor_dtype(x.dtype)
        single = helper.make_graph(
            [node], "one", [helper.make_tensor_value_info(node.input[0], t, x.shape)],
            [helper.make_tensor_value_info(node.output[0], t, None)],
            [inits[name] for name in node.input[1:] if name])
        alone = helper.make_model(single, opset_imports=model.opset_import)
        (want,) = _session(alone, False).run(None, {node.input[0]: x})
        _same([want], [got[node.output[0]]])
    return got


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_conv_net_every_mode(dtype):
    model = _conv_net(dtype)
    assert [n.domain for n in ndort.use_ndpad(model).graph.node if n.op_type == "Pad"] == \
        ["ndpad"] * 4
    x = np.random.default_rng(1).standard_normal((1, 3, 20, 24)).astype(dtype)
    _each_pad_against_onnxruntime(model, {"x": x})
    own, ours = _both(model, {"x": x})
    assert ours[0].shape == own[0].shape == (1, 4, 25, 29)
    if dtype == np.float32:
        _same(own, ours)
    else:  # ORT's CPU runs float16 Convs in float and moves its own Pads to float with
        # them; ndpad's Pad with a float16 constant_value stays float16, so the Conv before
        # it is rounded to float16 there: the same within float16's precision
        np.testing.assert_allclose(ours[0].astype(np.float32), own[0].astype(np.float32),
                                   rtol=0.02, atol=0.5)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_random_problems(mode, dtype):
    rng = np.random.default_rng(zlib.crc32(("%s %s" % (mode, np.dtype(dtype).name)).encode()))
    for trial in range(6):
        rank = int(rng.integers(1, 5))
        shape = tuple(int(v) for v in rng.integers(4, 8, size=rank))
        use_axes = trial % 2 == 1
        axes = sorted(rng.choice(rank, size=int(rng.integers(1, rank + 1)), replace=False))
        axes = [int(a) - (rank if trial % 4 == 3 else 0) for a in axes] if use_axes else None
        pads = _random_pads(rng, shape, mode, [a % rank for a in axes] if use_axes
                            else list(range(rank)))
        value = _data(dtype, (), rng)[()] if mode == "constant" and trial % 3 else None
        model = _pad_model(dtype, rank, mode, pads, value, axes,
                           )
        x = _data(dtype, shape, rng)
        own, ours = _both(model, {"x": x})
        _same(own, ours)


def test_pads_computed_at_run_time_and_dynamic_shapes():
    model = _pad_model(np.float32, 3, "reflect", [0, 1, 2, 0, 2, 1], pads_input=True)
    rng = np.random.default_rng(3)
    own_s, our_s = _session(model, False), _session(model, True)
    for shape, pads in [((2, 3, 4), [0, 1, 2, 0, 2, 1]), ((2, 5, 9), [1, -1, 3, 0, 2, -2]),
                        ((3, 2, 2), [0, 0, 1, 2, 1, 1])]:
        feeds = {"x": rng.standard_normal(shape).astype(np.float32),
                 "pads": np.array(pads, np.int64)}
        _same(own_s.run(None, feeds), our_s.run(None, feeds))


def test_input_of_unknown_rank():
    # shape inference sees no rank: the Conv after the Pad must still be accepted
    w = numpy_helper.from_array(np.arange(54, dtype=np.float32).reshape(2, 3, 3, 3), "w")
    p = numpy_helper.from_array(np.array([0, 0, 1, 2, 0, 0, 2, 1], np.int64), "p")
    graph = helper.make_graph(
        [helper.make_node("Pad", ["x", "p"], ["xp"], mode="reflect"),
         helper.make_node("Conv", ["xp", "w"], ["y"])], "norank",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w, p])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    x = np.random.default_rng(2).standard_normal((1, 3, 8, 9)).astype(np.float32)
    _same(*_both(model, {"x": x}))


def test_output_shapes_declared_from_static_pads():
    # pads and axes initializers: the rewrite copies them to static_pads/static_axes, and
    # the output's extents are declared as ORT's own Pad declares them
    model = _conv_net()
    rewritten = ndort.use_ndpad(model)
    attrs = {a.name: list(a.ints) for a in rewritten.graph.node[5].attribute}
    assert attrs["static_pads"] == [1, 1, 1, 1] and attrs["static_axes"] == [2, 3]
    assert _session(model, True).get_outputs()[0].shape == \
        _session(model, False).get_outputs()[0].shape == [1, 4, 25, 29]
    # an unpadded symbolic axis keeps its symbol
    sym = _pad_model(np.float32, 3, "edge", [0, 1, 2, 0, 2, 1])
    assert _session(sym, True).get_outputs()[0].shape[0] == "d0"


def test_pads_changed_after_the_rewrite():
    # the kernel checks the inputs against the static_pads its output shape came from
    model = ndort.use_ndpad(_pad_model(np.float32, 2, "constant", [1, 1, 1, 1]))
    model.graph.initializer[0].CopyFrom(
        numpy_helper.from_array(np.array([1, 2, 1, 1], np.int64), "pads"))
    options = ndort.session_options()
    options.log_severity_level = 3
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    with pytest.raises(ort_errors.InvalidArgument, match="static_pads"):
        session.run(None, {"x": np.zeros((2, 3), np.float32)})


def test_wrap_pads_longer_than_the_axis():
    # ONNX Runtime's own Pad accepts wrap pads longer than the axis: the pattern repeats
    for pads in ([4, 0], [3, 3], [7, 5], [-1, 5]):
        model = _pad_model(np.int32, 1, "wrap", pads)
        x = np.arange(3, dtype=np.int32) + 10
        own, ours = _both(model, {"x": x})
        _same(own, ours)


def test_pad_2_attributes():
    # opset 10: Pad-2, pads and value attributes; the rewrite makes them inputs
    node = helper.make_node("Pad", ["x"], ["y"], mode="constant", pads=[1, 0, 2, 3], value=2.5)
    edge = helper.make_node("Pad", ["y"], ["z"], mode="edge", pads=[0, 1, 1, 0])
    graph = helper.make_graph([node, edge], "pad2",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
                              [helper.make_tensor_value_info("z", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 10)])
    model.ir_version = 5
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    own, ours = _both(model, {"x": x})
    _same(own, ours)
    assert ours[0].shape == (7, 8)


def test_on_onnxruntime_threads_and_no_ndpad_thread():
    """A large pad (4 MiB) on a session of 2 intra-op threads: the same bytes, and no thread
    appears in the process while it runs (ndpad runs its tiles on ONNX Runtime's pool)."""
    model = _pad_model(np.float32, 4, "reflect", [0, 0, 3, 3, 0, 0, 3, 3])
    x = np.random.default_rng(5).standard_normal((1, 64, 122, 122)).astype(np.float32)
    own_s, our_s = _session(model, False, threads=2), _session(model, True, threads=2)
    before = set(os.listdir("/proc/self/task"))
    for _ in range(3):
        _same(own_s.run(None, {"x": x}), our_s.run(None, {"x": x}))
    assert set(os.listdir("/proc/self/task")) <= before


def test_concurrent_runs_of_one_session():
    """Four Python threads run one session at once (ORT releases the GIL): each execution
    finds its own kernel context, every result is right."""
    import threading

    model = _pad_model(np.float32, 3, "edge", [1, 2, 3, 3, 2, 1])
    own_s, our_s = _session(model, False, threads=2), _session(model, True, threads=2)
    rng = np.random.default_rng(9)
    inputs = [rng.standard_normal((16 + k, 64, 96)).astype(np.float32) for k in range(4)]
    wants = [own_s.run(None, {"x": x})[0] for x in inputs]
    failures = []

    def work(k):
        for _ in range(5):
            (got,) = our_s.run(None, {"x": inputs[k]})
            if got.tobytes() != wants[k].tobytes():
                failures.append(k)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


@pytest.mark.parametrize("shape, mode, pads", [
    ((1, 64, 256, 256), "constant", [0, 0, 1, 1, 0, 0, 1, 1]),
    ((1, 64, 256, 256), "reflect", [0, 0, 1, 1, 0, 0, 1, 1]),
    ((1, 64, 256, 256), "edge", [0, 0, 1, 1, 0, 0, 1, 1]),
    ((1, 64, 256, 256), "wrap", [0, 0, 1, 1, 0, 0, 1, 1]),
    ((1, 3, 1080, 1920), "reflect", [0, 0, 8, 8, 0, 0, 8, 8]),
    ((1, 224, 224, 3), "constant", [0, 1, 1, 0, 0, 1, 1, 0]),
])
def test_benchmark_shapes(shape, mode, pads):
    """The engines benchmark's cases (issue 40), at 2 intra-op threads."""
    model = _pad_model(np.float32, len(shape), mode, pads)
    x = np.random.default_rng(11).standard_normal(shape).astype(np.float32)
    _same(*_both(model, {"x": x}, threads=2))


def test_conv_pad_conv():
    rng = np.random.default_rng(12)
    inits = [numpy_helper.from_array(rng.standard_normal((16, 16, 3, 3)).astype(np.float32), n)
             for n in ("w1", "w2")]
    inits.append(numpy_helper.from_array(np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64), "p"))
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w1"], ["c"], pads=[1, 1, 1, 1]),
         helper.make_node("Pad", ["c", "p"], ["cp"], mode="reflect"),
         helper.make_node("Conv", ["cp", "w2"], ["y"])], "conv_pad_conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 64, 64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    x = rng.standard_normal((1, 16, 64, 64)).astype(np.float32)
    _each_pad_against_onnxruntime(model, {"x": x})
    own, ours = _both(model, {"x": x}, threads=2)
    _same(own, ours)


def test_types_beyond_onnxruntime_pad():
    # int16 and uint16: ONNX Runtime's own CPU Pad has no kernel; ndpad's against numpy.pad
    for dtype in (np.int16, np.uint16):
        model = _pad_model(dtype, 2, "reflect", [1, 2, 2, 1])
        x = np.arange(20, dtype=dtype).reshape(4, 5)
        (y,) = _session(model, True).run(None, {"x": x})
        assert y.tobytes() == np.pad(x, ((1, 2), (2, 1)), "reflect").tobytes()


ORT_ERRORS = (ort_errors.Fail, ort_errors.InvalidArgument, ort_errors.RuntimeException)


@pytest.mark.parametrize("shape, pads, mode, axes", [
    ((3,), [3, 0], "reflect", None),          # reflect longer than the extent - 1
    ((4,), [-1, 3], "reflect", None),         # the same after a crop
    ((1,), [1, 1], "reflect", None),          # one element left
    ((0,), [1, 0], "edge", None),             # edge of an empty axis
    ((3,), [-3, 1], "edge", None),            # empty after the crop
    ((2, 3), [1, 1], "constant", None),       # pads of the wrong length
    ((3,), [-4, 0], "constant", None),        # a crop past the whole axis
    ((2, 3), [1, 1], "constant", [2]),        # axis out of range
    ((), [], "constant", None),               # a scalar
])
def test_errors_as_onnxruntime(shape, pads, mode, axes):
    model = _pad_model(np.float32, len(shape), mode, pads, axes=axes)
    x = np.zeros(shape, np.float32)
    with pytest.raises(ORT_ERRORS) as own:
        _session(model, False).run(None, {"x": x})
    with pytest.raises(ORT_ERRORS) as ours:
        _session(model, True).run(None, {"x": x})
    if mode == "reflect":  # the same exception class as ONNX Runtime's for reflect
        assert type(ours.value) is type(own.value)


def test_bad_mode_fails_at_session_creation():
    model = _pad_model(np.float32, 1, "foo", [1, 1])
    for ndpad in (False, True):
        with pytest.raises(ORT_ERRORS, match="mode"):
            _session(model, ndpad)


def test_bad_pads_and_value_types():
    # constant_value of another type than data: ONNX Runtime's own Pad refuses the model
    # (type constraint), ndpad's kernel at run time; both an exception
    model = _pad_model(np.float32, 1, "constant", [1, 1], value=np.float32(1))
    model.graph.initializer[1].CopyFrom(numpy_helper.from_array(np.array([1.0]), "value"))
    with pytest.raises(ORT_ERRORS):
        _session(model, False).run(None, {"x": np.zeros(3, np.float32)})
    with pytest.raises(ORT_ERRORS):
        _session(model, True).run(None, {"x": np.zeros(3, np.float32)})


def test_library_path_errors(monkeypatch, tmp_path):
    monkeypatch.setenv("NDPAD_ORT_LIBRARY", str(tmp_path / "missing.so"))
    with pytest.raises(FileNotFoundError, match="NDPAD_ORT_LIBRARY"):
        ndort.library_path()
    monkeypatch.setenv("NDPAD_ORT_LIBRARY", os.path.dirname(LIBRARY))
    assert ndort.library_path() == LIBRARY
