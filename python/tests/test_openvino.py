"""The OpenVINO extension (ndpad.openvino) with PyPI's openvino: real models, read and
compiled by OpenVINO with and without the extension, outputs compared byte for byte with
OpenVINO's own Pad; ONNX models through OpenVINO's ONNX frontend (every mode, opsets 2 to
25, computed pads, axes, dynamic shapes), OpenVINO models switched by use_ndpad() (every
element type, Pad-12's negative pads), error paths, and the threads ndpad runs on.
Skipped where openvino or onnx is missing. The library is NDPAD_OPENVINO_EXTENSION when set
(CI: the CMake build's), else compiled at first use."""

import os

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402

import ndpad.openvino as nov  # noqa: E402

ops = pytest.importorskip("openvino.opset12")
ops1 = pytest.importorskip("openvino.opset1")


@pytest.fixture(scope="module")
def ext():
    return nov.extension_path()


def compile_pair(model_bytes_or_fn, ext, threads=1):
    """The model (model_fn(core, with_extension)) compiled by a plain Core and by one with
    the extension; the latter's NdpadPad count in the model it read."""
    plain, core = ov.Core(), ov.Core()
    core.add_extension(ext)
    out = []
    config = {"INFERENCE_NUM_THREADS": threads} if threads else {}
    for c, use in ((plain, False), (core, True)):
        model = model_bytes_or_fn(c, use)
        out.append((c.compile_model(model, "CPU", config),
                    sum(n.get_type_name() == nov.OP_TYPE for n in model.get_ordered_ops())))
    assert out[0][1] == 0
    return out[0][0], out[1][0], out[1][1]


def run_both(model_fn, ext, inputs, threads=1):
    own, ours, count = compile_pair(model_fn, ext, threads)
    before = nov.executions()[0]
    got = ours(inputs)
    assert nov.executions()[0] - before == count, "ndpad did not run every NdpadPad"
    want = own(inputs)
    for k in range(len(want)):
        a, b = want[k], got[k]
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes(), "output %d differs from OpenVINO's Pad" % k
    return got, count


def onnx_reader(model):
    data = model.SerializeToString()
    return lambda core, use: core.read_model(data)


def onnx_model(nodes, inputs, outputs, opset, inits=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


# ---------------------------------------------------------------------------------------
# ONNX models through OpenVINO's ONNX frontend
# ---------------------------------------------------------------------------------------

def conv_net(opset, dynamic):
    """Conv -> Pad constant (value) -> Conv -> Pad edge -> Pad reflect -> Conv, with every
    padded tensor also an output (byte-exact comparison of each Pad)."""
    rng = np.random.default_rng(1)
    w1 = helper.make_tensor("w1", TensorProto.FLOAT, [4, 3, 3, 3],
                            rng.standard_normal(108).astype(np.float32))
    w2 = helper.make_tensor("w2", TensorProto.FLOAT, [4, 4, 3, 3],
                            rng.standard_normal(144).astype(np.float32))
    inits = [w1, w2]
    nodes = [helper.make_node("Conv", ["x", "w1"], ["c1"])]

    def pad(src, dst, mode, pads, value=None):
        if opset < 11:
            attrs = {"mode": mode, "pads": pads}
            if value is not None:
                attrs["value"] = value
            nodes.append(helper.make_node("Pad", [src], [dst], **attrs))
            return
        inits.append(helper.make_tensor(dst + "_p", TensorProto.INT64, [len(pads)], pads))
        ins = [src, dst + "_p"]
        if value is not None:
            inits.append(helper.make_tensor(dst + "_v", TensorProto.FLOAT, [], [value]))
            ins.append(dst + "_v")
        nodes.append(helper.make_node("Pad", ins, [dst], mode=mode))

    pad("c1", "p1", "constant", [0, 0, 2, 1, 0, 0, 1, 3], 0.5)
    nodes.append(helper.make_node("Conv", ["p1", "w2"], ["c2"]))
    pad("c2", "p2", "edge", [0, 0, 1, 2, 0, 0, 3, 1])
    pad("p2", "p3", "reflect", [0, 0, 2, 2, 0, 0, 1, 1])
    nodes.append(helper.make_node("Conv", ["p3", "w2"], ["y"]))
    shape = ["n", 3, "h", "w"] if dynamic else [1, 3, 20, 24]
    outs = [vi(n, TensorProto.FLOAT, None) for n in ("p1", "p2", "p3", "y")]
    return onnx_model(nodes, [vi("x", TensorProto.FLOAT, shape)], outs, opset, inits)


@pytest.mark.parametrize("opset", [2, 11, 13, 18, 19, 21, 23, 25])
@pytest.mark.parametrize("dynamic", [False, True])
def test_conv_net_every_mode(ext, opset, dynamic):
    model = conv_net(opset, dynamic)
    x = np.random.default_rng(2).standard_normal((1, 3, 20, 24)).astype(np.float32)
    _, count = run_both(onnx_reader(model), ext, [x])
    assert count == 3
    if dynamic:  # a second shape through the same compiled models
        x = np.random.default_rng(3).standard_normal((2, 3, 9, 11)).astype(np.float32)
        run_both(onnx_reader(model), ext, [x])


def pad_model(mode, opset, elem, shape, pads_input=True, value=True, axes=None):
    ins = [vi("x", elem, shape)]
    names = ["x"]
    if pads_input:
        ins.append(vi("p", TensorProto.INT64, [None]))
        names.append("p")
    if value:
        ins.append(vi("v", elem, []))
        names.append("v")
    elif axes is not None:
        names.append("")
    if axes is not None:
        ins.append(vi("a", TensorProto.INT64, [len(axes)]))
        names.append("a")
    node = helper.make_node("Pad", names, ["y"], mode=mode)
    return onnx_model([node], ins, [vi("y", elem, None)], opset)


PEERS = [  # the peer shapes (the conv one smaller: a test, not a benchmark)
    ((1, 64, 64, 64), [0, 0, 1, 1, 0, 0, 1, 1]),
    ((1, 3, 1080, 1920), [0, 0, 8, 8, 0, 0, 8, 8]),
    ((1, 224, 224, 3), [0, 3, 3, 0, 0, 3, 3, 0]),
]


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect"])
@pytest.mark.parametrize("shape,pads", PEERS)
def test_peer_shapes_computed_pads(ext, mode, shape, pads):
    """Pads and the constant as model inputs (computed at run time), on 2 threads."""
    model = pad_model(mode, 19, TensorProto.FLOAT, list(shape))
    x = np.random.default_rng(4).standard_normal(shape).astype(np.float32)
    run_both(onnx_reader(model), ext, [x, np.array(pads, np.int64), np.float32(-2.5)],
             threads=2)


ONNX_TYPES = [(TensorProto.FLOAT16, np.float16), (TensorProto.DOUBLE, np.float64),
              (TensorProto.INT8, np.int8), (TensorProto.UINT8, np.uint8),
              (TensorProto.INT32, np.int32), (TensorProto.INT64, np.int64),
              (TensorProto.BOOL, np.bool_)]


@pytest.mark.parametrize("elem,dtype", ONNX_TYPES)
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect"])
def test_onnx_types_dynamic(ext, elem, dtype, mode):
    model = pad_model(mode, 21, elem, ["a", "b", "c"])
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((3, 5, 7)) * 50).astype(dtype)
    pads = np.array([1, 0, 2, 0, 2, -1], np.int64)
    run_both(onnx_reader(model), ext, [x, pads, np.array(1, dtype)])


@pytest.mark.parametrize("axes", [[1], [-1, 0], [2, -2]])
def test_onnx_axes(ext, axes):
    model = pad_model("reflect", 18, TensorProto.FLOAT, [4, 5, 6], value=False, axes=axes)
    x = np.arange(120, dtype=np.float32).reshape(4, 5, 6)
    pads = np.array([1] * len(axes) + [2] * len(axes), np.int64)
    run_both(onnx_reader(model), ext, [x, pads, np.array(axes, np.int64)])


@pytest.mark.parametrize("opset", [19, 21, 25])
def test_onnx_wrap(ext, opset):
    """wrap: OpenVINO's frontend has no wrap; with the extension it reads and runs, as
    numpy.pad (ONNX's reference) says."""
    model = pad_model("wrap", opset, TensorProto.FLOAT, ["a", 6], value=False)
    with pytest.raises(Exception):
        ov.Core().read_model(model.SerializeToString())
    core = ov.Core()
    core.add_extension(ext)
    compiled = core.compile_model(core.read_model(model.SerializeToString()), "CPU")
    x = np.arange(30, dtype=np.float32).reshape(5, 6)
    for pads in ([1, 2, 3, 4], [7, 0, 0, 13]):
        p = np.array(pads, np.int64)
        want = np.pad(x, [(pads[0], pads[2]), (pads[1], pads[3])], mode="wrap")
        assert compiled([x, p])[0].tobytes() == want.tobytes()


# ---------------------------------------------------------------------------------------
# OpenVINO models switched by use_ndpad()
# ---------------------------------------------------------------------------------------

OV_TYPES = ["boolean", "bf16", "f16", "f32", "f64", "i8", "u8", "i16", "u16", "i32", "u32",
            "i64", "u64", "f8e4m3", "f8e5m2", "f8e8m0", "u4", "i4", "f4e2m1"]


MODES = ["constant", "edge", "reflect", "symmetric"]


@pytest.mark.parametrize("et", OV_TYPES)
def test_use_ndpad_types(ext, et):
    """Pad-12 with negative pads, every mode (one model with four Pad nodes) and every
    element type; raw random bytes."""
    T = getattr(ov.Type, et)
    shape = [3, 4, 6]
    count = int(np.prod(shape))
    raw = np.random.default_rng(6).integers(0, 256, (count * T.bitwidth + 7) // 8, np.uint8)
    if et == "boolean":
        raw %= 2
    tensor = ov.Tensor(raw, ov.Shape(shape), T)
    # a value every type holds exactly and the CPU plugin passes unchanged: 0x10 in the
    # low byte of integers (it runs 64-bit integers in 32 bits, its own Pad as NdpadPad),
    # in the top byte of floats; 1 for booleans
    value_raw = np.zeros(max(1, T.bitwidth // 8), np.uint8)
    if et == "boolean":
        value_raw[0] = 1
    elif T.bitwidth < 8:
        value_raw[0] = 0x4
    else:
        value_raw[0 if T.is_integral_number() else -1] = 0x10

    def make(use):
        x = ops.parameter(shape, T)
        value = ov.op.Constant(ov.Tensor(value_raw, ov.Shape([]), T))
        pads = [ops.pad(x, [1, -1, 2], [-1, 2, 3], mode, value if mode == "constant" else None)
                for mode in MODES]
        model = ov.Model(pads, [x])
        if use:
            assert nov.use_ndpad(model) == len(MODES)
        return model

    outs = []
    for use in (False, True):
        core = ov.Core()
        if use:
            core.add_extension(ext)
        request = core.compile_model(make(use), "CPU").create_infer_request()
        request.infer([tensor])
        got = []
        for k in range(len(MODES)):
            out = request.get_output_tensor(k)
            data = np.array(out.data).tobytes()
            if T.bitwidth == 4 and out.size % 2:  # the last byte's high nibble is no element
                data = data[:-1] + bytes([data[-1] & 0x0F])
            got.append(data)
        outs.append(got)
    for k, mode in enumerate(MODES):
        assert outs[0][k] == outs[1][k], mode


def test_use_ndpad_opset1_dynamic(ext):
    """Pad-1 with pads and value as parameters on a dynamic shape."""
    def make(core, use):
        x = ops1.parameter([-1, -1], np.float32)
        b = ops1.parameter([2], np.int64)
        e = ops1.parameter([2], np.int32)
        v = ops1.parameter([], np.float32)
        model = ov.Model([ops1.pad(x, b, e, "constant", v)], [x, b, e, v])
        if use:
            assert nov.use_ndpad(model) == 1
        return model

    for shape in ((3, 4), (1, 9)):
        x = np.random.default_rng(7).standard_normal(shape).astype(np.float32)
        run_both(make, ext, [x, np.array([2, -1], np.int64), np.array([0, 3], np.int32),
                             np.float32(9)])


# ---------------------------------------------------------------------------------------
# Errors: the engine's exception, never a crash
# ---------------------------------------------------------------------------------------

def test_error_bad_mode(ext):
    model = pad_model("circular", 19, TensorProto.FLOAT, [3, 4])
    core = ov.Core()
    core.add_extension(ext)
    with pytest.raises(Exception, match="circular"):
        core.read_model(model.SerializeToString())


def test_error_mode_given_wrongly_to_the_op(ext):
    from openvino.utils.node_factory import NodeFactory
    factory = NodeFactory()
    factory.add_extension(ext)
    x = ops.parameter([3, 4], np.float32)
    args = [x, ops.constant(np.array([1, 1])), ops.constant(np.array([1, 1]))]
    with pytest.raises(Exception, match="mode 'circular'"):
        factory.create(nov.OP_TYPE, args, {"mode": "circular"})
    node = factory.create(nov.OP_TYPE, args, {"mode": "wrap"})
    assert list(node.get_output_partial_shape(0).to_shape()) == [5, 6]


@pytest.mark.parametrize("pads", [[1, 2, 3], [0, 0, -5, 0]])
def test_error_bad_pads_at_run_time(ext, pads):
    """A pads input of the wrong length, an axis cropped below zero: both Cores raise."""
    model = pad_model("edge", 19, TensorProto.FLOAT, [3, 4], value=False)
    # No INFERENCE_NUM_THREADS: with it, OpenVINO 2026.4 returns an empty output instead of
    # raising (for its own Pad as for NdpadPad: the plugin loses the error)
    own, ours, _ = compile_pair(onnx_reader(model), ext, threads=None)
    x = np.ones((3, 4), np.float32)
    for compiled in (own, ours):
        with pytest.raises(Exception):
            compiled([x, np.array(pads, np.int64)])
    # the extension's request still works afterwards
    assert ours([x, np.array([1, 0, 0, 0], np.int64)])[0].shape == (4, 4)


def test_error_reflect_too_far_static(ext):
    """Constant pads OpenVINO's Pad-12 rejects are rejected by NdpadPad with its words."""
    from openvino.utils.node_factory import NodeFactory
    factory = NodeFactory()
    factory.add_extension(ext)
    x = ops.parameter([3, 4], np.float32)
    begin, end = ops.constant(np.array([5, 0])), ops.constant(np.array([0, 0]))
    with pytest.raises(Exception, match="REFLECT padding mode requires") as own:
        ops.pad(x, begin, end, "reflect")
    with pytest.raises(Exception, match="REFLECT padding mode requires"):
        factory.create(nov.OP_TYPE, [x, begin, end], {"mode": "reflect"})
    assert own


def test_large_integer_value_exact(ext):
    """An int32 pad value above 2^24 is written exactly (OpenVINO's own CPU Pad rounds it
    through float32)."""
    x = ops.parameter([2, 3], np.int32)
    value = ops.constant(np.array(2**30 + 1, np.int32))
    model = ov.Model([ops.pad(x, [1, 0], [0, 2], "constant", value)], [x])
    assert nov.use_ndpad(model) == 1
    core = ov.Core()
    core.add_extension(ext)
    data = np.arange(6, dtype=np.int32).reshape(2, 3)
    got = core.compile_model(model, "CPU")(data)[0]
    want = np.pad(data, [(1, 0), (0, 2)], constant_values=2**30 + 1)
    assert got.tobytes() == want.tobytes()


# ---------------------------------------------------------------------------------------
# Threads: the CPU plugin's arena, INFERENCE_NUM_THREADS
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("threads", [1, 2])
def test_threads_follow_inference_num_threads(ext, threads):
    if threads > (os.cpu_count() or 1):
        pytest.skip("one CPU")
    model = pad_model("reflect", 19, TensorProto.FLOAT, [1, 8, 256, 256], value=False)
    core = ov.Core()
    core.add_extension(ext)
    compiled = core.compile_model(core.read_model(model.SerializeToString()), "CPU",
                                  {"INFERENCE_NUM_THREADS": threads})
    assert compiled.get_property("INFERENCE_NUM_THREADS") == threads
    x = np.ones((1, 8, 256, 256), np.float32)
    before = nov.executions()[0]
    compiled([x, np.array([0, 0, 4, 4, 0, 0, 4, 4], np.int64)])
    assert nov.executions() == (before + 1, threads)


NO_WORKER_SCRIPT = r"""
import os, sys, numpy as np, openvino as ov, openvino.opset12 as ops
import ndpad.openvino as nov
x = ops.parameter([4, 512, 512], np.float32)
model = ov.Model([ops.pad(x, [0, 8, 8], [0, 8, 8], "reflect")], [x])
nov.use_ndpad(model)
core = ov.Core()
core.add_extension(nov.extension_path())
core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 2})(np.ones((4, 512, 512), np.float32))
names = [open("/proc/self/task/%s/comm" % t).read().strip() for t in os.listdir("/proc/self/task")]
print(nov.executions()[0], sum(n.startswith("ndpad-worker") for n in names))
"""


def test_no_ndpad_threads(ext):
    """ndpad runs its tiles on OpenVINO's TBB threads: a fresh process that pads a 4 MiB
    output through the extension on 2 threads has no ndpad worker thread."""
    import subprocess
    import sys
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one CPU")
    env = dict(os.environ, NDPAD_OPENVINO_EXTENSION=ext, PYTHONPATH=os.pathsep.join(
        p for p in [os.path.dirname(os.path.dirname(os.path.abspath(nov.__file__))),
                    os.environ.get("PYTHONPATH")] if p))
    out = subprocess.run([sys.executable, "-c", NO_WORKER_SCRIPT], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    assert out == ["1", "0"]


def test_ir_round_trip(ext, tmp_path):
    """A model with NdpadPad saved as IR reads back with the extension (its OpExtension),
    and a Core without it says which opset it lacks."""
    p = ops.parameter([-1, 3], np.float32)
    model = ov.Model([ops.pad(p, [1, -1], [0, 2], "symmetric")], [p])
    assert nov.use_ndpad(model) == 1
    path = str(tmp_path / "m.xml")
    ov.save_model(model, path)
    core = ov.Core()
    core.add_extension(ext)
    back = core.read_model(path)
    assert nov.OP_TYPE in [n.get_type_name() for n in back.get_ordered_ops()]
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    want = ov.Core().compile_model(ov.Model([ops.pad(p, [1, -1], [0, 2], "symmetric")], [p]),
                                   "CPU")(x)[0]
    assert core.compile_model(back, "CPU")(x)[0].tobytes() == want.tobytes()
    with pytest.raises(Exception, match="ndpad"):
        ov.Core().read_model(path)


def test_concurrent_requests_dynamic_shapes(ext):
    """Four infer requests at once on shapes that change each job: the operator's plan
    cache is replaced while other requests execute; every result is numpy.pad's."""
    model = pad_model("reflect", 19, TensorProto.FLOAT, ["a", "b"], value=False)
    core = ov.Core()
    core.add_extension(ext)
    compiled = core.compile_model(core.read_model(model.SerializeToString()), "CPU",
                                  {"NUM_STREAMS": 2})
    queue = ov.AsyncInferQueue(compiled, 4)
    results = {}
    queue.set_callback(lambda request, job: results.__setitem__(
        job, request.get_output_tensor(0).data.copy()))
    inputs = {}
    for job in range(40):
        x = np.random.default_rng(job).standard_normal((50 + job % 7, 300 + job % 5)).astype(
            np.float32)
        inputs[job] = x
        queue.start_async([x, np.array([1, 2, 3, 4], np.int64)], userdata=job)
    queue.wait_all()
    for job, x in inputs.items():
        want = np.pad(x, [(1, 3), (2, 4)], mode="reflect")
        assert results[job].tobytes() == want.tobytes(), job
