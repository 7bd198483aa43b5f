"""Sub-byte padding: ndpad's C call (ndpad_bits_pad through ctypes) against what a runtime
without sub-byte pads does, numpy's unpack to one byte per element, numpy.pad, repack, on
int4 4096 x 4096 (8 MiB packed): pad 16 in constant, edge and reflect, and a crop-and-pad at
odd element offsets (pads (-1, -3) before and (2, 5) after). Interleaved medians, one thread
for ndpad; each result is checked against the numpy one.

    NDPAD_LIBRARY=build/libndpad.so /usr/bin/python3 python/bench/bench_bits_numpy.py
"""

import argparse
import ctypes
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_timing import interleaved_medians, nothing  # noqa: E402

P64 = ctypes.POINTER(ctypes.c_int64)


class Problem(ctypes.Structure):
    _fields_ = [("rank", ctypes.c_int32), ("mode", ctypes.c_int32), ("elem_size", ctypes.c_size_t),
                ("shape", P64), ("pads_begin", P64), ("pads_end", P64), ("interior", P64),
                ("in_strides", P64), ("out_strides", P64), ("pad_value", ctypes.c_void_p)]


class BitsProblem(ctypes.Structure):
    _fields_ = [("problem", Problem), ("elem_bits", ctypes.c_int32), ("reserved", ctypes.c_int32),
                ("in_bit_offset", ctypes.c_int64), ("out_bit_offset", ctypes.c_int64)]


class Options(ctypes.Structure):
    _fields_ = [("threads", ctypes.c_int32), ("isa", ctypes.c_int32), ("tile_rows", ctypes.c_int64),
                ("tile_cols", ctypes.c_int64), ("reserved", ctypes.c_int64 * 8)]


MODES = {"constant": 0, "edge": 1, "reflect": 2}
CASES = [("int4-constant-pad16", "constant", (16, 16), (16, 16)),
         ("int4-edge-pad16", "edge", (16, 16), (16, 16)),
         ("int4-reflect-pad16", "reflect", (16, 16), (16, 16)),
         ("int4-crop-pad-odd", "constant", (-1, -3), (2, 5)),
         ("int4-reflect-crop-pad-odd", "reflect", (-1, -3), (2, 5))]


def unpack4(packed, shape):
    out = np.empty(packed.size * 2, dtype=np.uint8)
    out[0::2] = packed & 0x0F
    out[1::2] = packed >> 4
    return out[:shape[0] * shape[1]].reshape(shape)


def pack4(values):
    flat = values.reshape(-1)
    if flat.size % 2:
        flat = np.concatenate([flat, np.zeros(1, np.uint8)])
    return (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)


def numpy_pad(packed, shape, mode, before, after, value):
    x = unpack4(packed, shape)
    # numpy.pad takes no negative pads: crop first (the OpenVINO Pad-12 crop of ndpad's
    # problem equals crop-then-pad here: the crops and pads are on different sides)
    x = x[max(0, -before[0]):shape[0] - max(0, -after[0]), max(0, -before[1]):shape[1] - max(0, -after[1])]
    pads = tuple((max(0, b), max(0, a)) for b, a in zip(before, after))
    kw = {"constant_values": value} if mode == "constant" else {}
    return pack4(np.pad(x, pads, mode=mode, **kw))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--side", type=int, default=4096)
    args = ap.parse_args()
    lib = ctypes.CDLL(os.environ.get("NDPAD_LIBRARY", "libndpad.so"))
    lib.ndpad_bits_pad.restype = ctypes.c_int
    lib.ndpad_last_error.restype = ctypes.c_char_p
    side = args.side
    rng = np.random.default_rng(36)
    packed = rng.integers(0, 256, side * side // 2, dtype=np.uint8)
    shape = (side, side)
    opts = Options()
    opts.threads = 1
    pad_byte = ctypes.c_uint8(0x9)
    print(f"bench_bits_numpy: int4 {side}x{side} ({packed.nbytes >> 20} MiB packed), numpy "
          f"{np.__version__} unpack -> pad -> repack vs ndpad_bits_pad (1 thread), "
          f"{args.repeat} interleaved rounds")
    print(f"{'case':28s} {'ndpad ms':>10s} {'numpy ms':>10s} {'speedup':>8s}")
    for name, mode, before, after in CASES:
        out_shape = tuple(shape[k] + before[k] + after[k] for k in range(2))
        out = np.empty((out_shape[0] * out_shape[1] + 1) // 2, dtype=np.uint8)
        sh, pb, pe = ((ctypes.c_int64 * 2)(*v) for v in (shape, before, after))
        p = BitsProblem()
        p.problem.rank, p.problem.mode = 2, MODES[mode]
        p.problem.shape, p.problem.pads_begin, p.problem.pads_end = (
            ctypes.cast(sh, P64), ctypes.cast(pb, P64), ctypes.cast(pe, P64))
        p.problem.pad_value = ctypes.cast(ctypes.byref(pad_byte), ctypes.c_void_p)
        p.elem_bits = 4

        def run_ndpad():
            st = lib.ndpad_bits_pad(ctypes.byref(p), ctypes.byref(opts),
                                    packed.ctypes.data_as(ctypes.c_void_p),
                                    out.ctypes.data_as(ctypes.c_void_p))
            if st != 0:
                raise RuntimeError(lib.ndpad_last_error().decode())

        result = {}

        def run_numpy():
            result["numpy"] = numpy_pad(packed, shape, mode, before, after, 0x9)

        t_nd, t_np = interleaved_medians([(nothing, run_ndpad, nothing),
                                          (nothing, run_numpy, nothing)], args.repeat)
        if not np.array_equal(out, result["numpy"]):
            raise SystemExit(f"{name}: ndpad and numpy differ")
        print(f"{name:28s} {1e3 * t_nd:10.3f} {1e3 * t_np:10.3f} {t_np / t_nd:7.1f}x")


if __name__ == "__main__":
    main()
