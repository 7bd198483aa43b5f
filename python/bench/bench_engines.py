"""OpenVINO's own Pad against ndpad's extension (ndpad.openvino), in one process: each model
is compiled twice by the CPU plugin, with and without the extension, at 1 and 2 threads
(INFERENCE_NUM_THREADS), and the two infer requests run alternately, round after round
(bench_timing.interleaved_times), beside a numpy copy of the output (memcpy) in the same
rounds. Per case: median and mean of each, and the issue's targets: with the extension never
slower than OpenVINO's Pad on outputs of 64 KiB or more, and at least 1.5x faster wherever
OpenVINO's Pad takes more than 1.3x a memcpy of its output.

Usage: python3 python/bench/bench_engines.py [--repeat N] [--out FILE] [--threads 1,2]
(ci/main-job.sh writes build/results/engines.txt). Needs openvino and onnx; the extension is
NDPAD_OPENVINO_EXTENSION or ndpad.openvino's first-use build. Run it on an idle machine:
the timings of a loaded one say nothing."""

import argparse
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_timing import interleaved_times, nothing, save_lines  # noqa: E402

import openvino as ov  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402

import ndpad.openvino as nov  # noqa: E402


def pad_case(name, shape, mode, hw_pads, nhwc=False):
    """A model of one Pad node with constant pads on the two spatial axes."""
    rank = len(shape)
    begin, end = [0] * rank, [0] * rank
    axes = (1, 2) if nhwc else (2, 3)
    for a in axes:
        begin[a] = end[a] = hw_pads
    pads = helper.make_tensor("p", TensorProto.INT64, [2 * rank], begin + end)
    node = helper.make_node("Pad", ["x", "p"], ["y"], mode=mode)
    graph = helper.make_graph([node], "pad", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, list(shape))], [helper.make_tensor_value_info(
            "y", TensorProto.FLOAT, None)], [pads])
    return name, graph, shape


def conv_pad_conv(shape, mode):
    """Conv 3x3 (no padding) -> Pad by 1 -> Conv 3x3: a network's own padding layer."""
    rng = np.random.default_rng(0)
    c = shape[1]
    w = rng.standard_normal((c, c, 3, 3)).astype(np.float32) * 0.05
    inits = [helper.make_tensor("w", TensorProto.FLOAT, list(w.shape), w.ravel()),
             helper.make_tensor("p", TensorProto.INT64, [8], [0, 0, 1, 1, 0, 0, 1, 1])]
    nodes = [helper.make_node("Conv", ["x", "w"], ["c1"]),
             helper.make_node("Pad", ["c1", "p"], ["c1p"], mode=mode),
             helper.make_node("Conv", ["c1p", "w"], ["y"])]
    graph = helper.make_graph(nodes, "conv_pad_conv", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, list(shape))], [helper.make_tensor_value_info(
            "y", TensorProto.FLOAT, None)], inits)
    return "conv-pad-conv %s %s" % ("x".join(map(str, shape)), mode), graph, shape


def cases():
    out = []
    for mode in ("constant", "edge", "reflect"):
        out.append(pad_case("conv 1x64x256x256 %s 1" % mode, (1, 64, 256, 256), mode, 1))
    out.append(pad_case("image 1x3x1080x1920 reflect 8", (1, 3, 1080, 1920), "reflect", 8))
    out.append(pad_case("NHWC 1x224x224x3 constant 3", (1, 224, 224, 3), "constant", 3,
                        nhwc=True))
    out.append(conv_pad_conv((1, 64, 128, 128), "reflect"))
    return out


def request_for(core, graph, threads, x):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    compiled = core.compile_model(core.read_model(model.SerializeToString()), "CPU",
                                  {"INFERENCE_NUM_THREADS": threads})
    request = compiled.create_infer_request()
    request.set_input_tensor(ov.Tensor(x, shared_memory=True))
    return request


def measure(graph, shape, threads, repeat, ext):
    plain, core = ov.Core(), ov.Core()
    core.add_extension(ext)
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    own = request_for(plain, graph, threads, x)
    ours = request_for(core, graph, threads, x)
    own.infer()
    ours.infer()
    out = own.get_output_tensor(0).data
    same = np.array_equal(out, ours.get_output_tensor(0).data)
    copy = np.empty_like(out)
    before = nov.executions()
    times = interleaved_times([(nothing, own.infer, nothing), (nothing, ours.infer, nothing),
                               (nothing, lambda: np.copyto(copy, out), nothing)], repeat)
    after = nov.executions()
    assert after[0] - before[0] >= repeat, "the extension's request did not run ndpad"
    return times, out.nbytes, same, after[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=int(os.environ.get(
        "NDPAD_BENCH_REPETITIONS", "30")))
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    ext = nov.extension_path()
    lines = ["OpenVINO %s CPU plugin: its own Pad vs ndpad's extension (%s), interleaved, "
             "%d rounds; times in ms (median / mean); memcpy = numpy copy of the output"
             % (ov.__version__, os.path.basename(ext), args.repeat),
             "%-36s %3s %9s %17s %17s %17s %7s %7s  %s" % (
                 "case", "thr", "out KiB", "OpenVINO Pad", "ndpad", "memcpy", "speedup",
                 "ov/mcpy", "target")]
    print("\n".join(lines), flush=True)
    misses = 0
    for name, graph, shape in cases():
        for threads in [int(t) for t in args.threads.split(",")]:
            times, nbytes, same, used = measure(graph, shape, threads, args.repeat, ext)
            med = [statistics.median(t) * 1e3 for t in times]
            mean = [statistics.fmean(t) * 1e3 for t in times]
            speedup = med[0] / med[1]
            ov_memcpy = med[0] / med[2]
            if not same:
                verdict = "MISMATCH"
            elif nbytes >= 64 * 1024 and ov_memcpy > 1.3 and "conv-pad" not in name:
                verdict = "ok" if speedup >= 1.5 else "MISS (>= 1.5x)"
            elif nbytes >= 64 * 1024:
                verdict = "ok" if speedup >= 1.0 else "MISS (slower)"
            else:
                verdict = "-"
            misses += verdict.startswith(("MISS", "MISMATCH"))
            line = "%-36s %3d %9d %8.3f/%8.3f %8.3f/%8.3f %8.3f/%8.3f %6.2fx %6.2fx  %s" % (
                name, threads, nbytes // 1024, med[0], mean[0], med[1], mean[1], med[2],
                mean[2], speedup, ov_memcpy, verdict)
            if used != threads:
                line += " (ndpad ran on %d threads)" % used
            print(line, flush=True)
            lines.append(line)
    lines.append("targets missed: %d (conv-pad-conv: whole network, only 'never slower'; its "
                 "memcpy column is the final output's)" % misses)
    print(lines[-1])
    save_lines(args.out, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
