"""A field a problem does not use is never read, through the Python binding (issue 35,
defect 3): libndpad's entry points as ndpad's ctypes layer calls them (its plan cache,
windows) and the one-shot, plan and ONNX calls, with poisoned pointers ((void *)16) in
pad_value outside CONSTANT, in `in` and `out` of an empty output and in ONNX's
constant_value outside "constant". Each case runs in a forked child, so that a read (a
SIGSEGV) fails the case instead of the test run."""

import ctypes
import os

import numpy as np
import pytest

import ndpad
from ndpad import _lib

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this platform")

POISON = 16
MODES = ["edge", "reflect", "symmetric", "wrap"]


def _in_child(fn):
    """Runs fn() in a forked child: its exit code (0 when fn() returned True), or the
    negative signal that ended it."""
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            signal_alarm = __import__("signal").alarm
            signal_alarm(30)
            code = 0 if fn() else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _c():
    lib = ctypes.CDLL(ndpad.library_path)  # its own function objects: argtypes of ours
    P = ctypes.POINTER(_lib.ndpad_problem)
    lib.ndpad_pad.argtypes = [P, ctypes.c_void_p, ctypes.c_void_p]
    lib.ndpad_pad.restype = ctypes.c_int
    i64p = ctypes.POINTER(ctypes.c_int64)
    lib.ndpad_onnx_pad.argtypes = [ctypes.c_int32, i64p, ctypes.c_size_t, i64p, ctypes.c_int64,
                                   i64p, ctypes.c_int64, ctypes.c_char_p, ctypes.c_void_p,
                                   ctypes.c_void_p, ctypes.c_void_p]
    lib.ndpad_onnx_pad.restype = ctypes.c_int
    return lib


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("itemsize", [1, 4, 64])
def test_pad_value_is_unread_outside_constant(mode, itemsize):
    x = np.frombuffer(np.arange(5 * 7 * itemsize, dtype=np.uint8).tobytes(),
                      dtype="V%d" % itemsize).reshape(5, 7)
    widths = ((2, 1), (1, 3))
    want = np.pad(x, widths, mode)

    def child():
        lib = _c()
        problem, keep = _lib.make_problem(_lib.MODES[mode], itemsize, x.shape, [2, 1], [1, 3])
        problem.pad_value = POISON
        ok = True
        for call in range(4):
            got = np.zeros_like(want)
            if call < 2:  # one-shot, twice: the second from its plan cache
                ok &= lib.ndpad_pad(ctypes.byref(problem), x.ctypes.data, got.ctypes.data) == 0
            elif call == 2:  # the package's plan cache, plan and execute
                _lib.run(problem, x.ctypes.data, got.ctypes.data, threads=1)
            else:  # the window of the whole output
                box = _lib.window_input_box(problem, [0, 0], want.shape)
                offset = box[0][0] * x.strides[0] + box[1][0] * x.strides[1]
                _lib.run_window(problem, [0, 0], want.shape, [b for b, _ in box],
                                [e for _, e in box], [7, 1], [want.shape[1], 1],
                                x.ctypes.data + offset, got.ctypes.data)
            ok &= bool(np.array_equal(got, want))
        del keep
        return ok

    assert _in_child(child) == 0


@pytest.mark.parametrize("mode", ["edge", "reflect", "wrap"])
def test_onnx_constant_value_is_unread_outside_constant(mode):
    x = np.arange(4 * 6 * 8, dtype=np.uint8).view("V8").reshape(4, 6)
    want = np.pad(x, ((1, 3), (2, 1)), mode)

    def child():
        lib = _c()
        shape = (ctypes.c_int64 * 2)(4, 6)
        pads = (ctypes.c_int64 * 4)(1, 2, 3, 1)
        got = np.zeros_like(want)
        status = lib.ndpad_onnx_pad(2, shape, 8, pads, 4, None, 0, mode.encode(), POISON,
                                    x.ctypes.data, got.ctypes.data)
        return status == 0 and np.array_equal(got, want)

    assert _in_child(child) == 0


@pytest.mark.parametrize("mode", ["constant"] + MODES)
def test_empty_output_reads_nothing(mode):
    """An empty output: `in`, `out` and (even for CONSTANT) the pad value are not read;
    the package's own calls on such arrays too."""
    def child():
        lib = _c()
        problem, keep = _lib.make_problem(_lib.MODES[mode], 4, (3, 0, 2), [0, 0, 1], [1, 0, 0])
        problem.pad_value = POISON
        ok = True
        for _ in range(2):
            ok &= lib.ndpad_pad(ctypes.byref(problem), POISON, POISON) == 0
        _lib.run(problem, POISON, POISON, threads=1)
        x = np.zeros((3, 0, 2), dtype=np.float32)
        ok &= ndpad.pad(x, ((0, 1), (0, 0), (1, 0)), mode).shape == (4, 0, 3)
        ok &= ndpad.crop_pad(x, [0, 0, 1], [1, 0, 0], mode).shape == (4, 0, 3)
        del keep
        return ok

    assert _in_child(child) == 0
