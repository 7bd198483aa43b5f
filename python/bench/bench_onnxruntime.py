"""ONNX Runtime's own Pad against ndpad's (libndpad-onnxruntime.so), the same one-node model
(and a conv-pad-conv model) on two sessions, alternated call by call in one process (bench_timing's interleaved loop),
at 1 and 2 intra-op threads, with a memcpy of the output (numpy.copyto) in the same rounds.
Inputs and outputs are bound once (IOBinding into preallocated buffers): the times are the
sessions' runs. Prints median and mean milliseconds per case.

    NDPAD_LIBRARY=build/libndpad.so python python/bench/bench_onnxruntime.py [--repeat N]
"""

import argparse
import os
import statistics
import sys

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ndpad.onnxruntime as ndort  # noqa: E402
from bench_timing import interleaved_times, nothing  # noqa: E402

# name, input shape, mode, ONNX pads (begins then ends)
CASES = [("conv 1x64x256x256 fp32 %s 1" % m, (1, 64, 256, 256), m, [0, 0, 1, 1, 0, 0, 1, 1])
         for m in ("constant", "reflect", "edge", "wrap")] + [
    ("image 1x3x1080x1920 reflect 8", (1, 3, 1080, 1920), "reflect", [0, 0, 8, 8, 0, 0, 8, 8]),
    ("NHWC 1x224x224x3 constant 1", (1, 224, 224, 3), "constant", [0, 1, 1, 0, 0, 1, 1, 0]),
    # conv 3x3 (same) -> Pad reflect 1 -> conv 3x3 (valid): the output keeps the input's shape
    ("conv-pad-conv 1x16x128x128 reflect 1", (1, 16, 128, 128), "conv-pad-conv",
     [0, 0, 1, 1, 0, 0, 1, 1]),
]


def _model(shape, mode, pads):
    inits = [numpy_helper.from_array(np.array(pads, np.int64), "pads")]
    if mode == "conv-pad-conv":
        rng = np.random.default_rng(1)
        c = shape[1]
        inits += [numpy_helper.from_array(rng.standard_normal((c, c, 3, 3)).astype(np.float32),
                                          name) for name in ("w1", "w2")]
        nodes = [helper.make_node("Conv", ["x", "w1"], ["c"], pads=[1, 1, 1, 1]),
                 helper.make_node("Pad", ["c", "pads"], ["cp"], mode="reflect"),
                 helper.make_node("Conv", ["cp", "w2"], ["y"])]
    else:
        nodes = [helper.make_node("Pad", ["x", "pads"], ["y"], mode=mode)]
    graph = helper.make_graph(
        nodes, "pad", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])


def _runner(model, threads, ndpad, x, out):
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    if ndpad:
        options.register_custom_ops_library(ndort.library_path())
        model = ndort.use_ndpad(model)
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    binding = session.io_binding()
    binding.bind_cpu_input("x", x)
    binding.bind_output("y", "cpu", 0, out.dtype, out.shape, out.ctypes.data)

    def run():  # holds `out`, whose memory the binding writes
        session.run_with_iobinding(binding)
        return out

    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    print("onnxruntime %s, %d CPUs; medians (means) in ms of %d alternated rounds" %
          (ort.__version__, os.cpu_count(), args.repeat))
    print("%-34s %3s %16s %16s %16s %7s" % ("case", "thr", "ORT Pad", "ndpad", "memcpy",
                                            "ORT/nd"))
    rng = np.random.default_rng(0)
    for name, shape, mode, pads in CASES:
        x = rng.standard_normal(shape).astype(np.float32)
        rank = len(shape)
        out_shape = shape if mode == "conv-pad-conv" else tuple(
            d + pads[k] + pads[k + rank] for k, d in enumerate(shape))
        own_out, our_out, copy_out = (np.empty(out_shape, np.float32) for _ in range(3))
        for threads in (1, 2):
            own = _runner(_model(shape, mode, pads), threads, False, x, own_out)
            ours = _runner(_model(shape, mode, pads), threads, True, x, our_out)
            times = interleaved_times(
                [(nothing, own, nothing), (nothing, ours, nothing),
                 (nothing, lambda: np.copyto(copy_out, own_out), nothing)], args.repeat)
            assert own_out.tobytes() == our_out.tobytes(), name
            med = [statistics.median(t) * 1e3 for t in times]
            mean = [statistics.mean(t) * 1e3 for t in times]
            cells = ["%7.3f (%6.3f)" % (m, a) for m, a in zip(med, mean)]
            print("%-34s %3d %16s %16s %16s %6.2fx" % (name, threads, *cells, med[0] / med[1]))


if __name__ == "__main__":
    main()
