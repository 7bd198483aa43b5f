"""ndpad.crop_pad (negative pads, interior padding) against the api.md mapping written out
element by element in reference.py."""

import ctypes

import numpy as np
import pytest

import ndpad
import reference
from test_pad import LAYOUTS, layout, same

MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]


def test_openvino_pad12_mixed_example():
    data = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    got = ndpad.crop_pad(data, [2, -1], [-1, 3], "reflect")
    want = np.array([[10, 11, 12, 11, 10, 9], [6, 7, 8, 7, 6, 5],
                     [2, 3, 4, 3, 2, 1], [6, 7, 8, 7, 6, 5]], dtype=np.float32)
    same(got, want)


def test_ngraph_interior_example():
    data = np.arange(1, 10, dtype=np.int32).reshape(3, 3)
    got = ndpad.crop_pad(data, [1, 2], [1, 0], "constant", 42, interior=[1, 2])
    assert got.shape == (7, 9)
    same(got, reference.crop_pad(data, [1, 2], [1, 0], "constant", 42, [1, 2]))
    assert got[1].tolist() == [42, 42, 1, 42, 42, 2, 42, 42, 3]


@pytest.mark.parametrize("mode", MODES)
def test_random_crop_pad(mode):
    rng = np.random.default_rng(100 + MODES.index(mode))
    dtypes = [np.int8, np.float32, np.complex128, "V3", np.dtype([("a", "i1"), ("b", "<f8")])]
    for it in range(200):
        rank = int(rng.integers(1, 4))
        shape = tuple(int(rng.integers(1, 5)) for _ in range(rank))
        dtype = dtypes[it % len(dtypes)]
        a = layout(rng, shape, dtype, LAYOUTS[int(rng.integers(0, len(LAYOUTS)))])
        pb = [int(rng.integers(-d - 1, 2 * d + 2)) for d in shape]
        pe = [int(rng.integers(-d - 1, 2 * d + 2)) for d in shape]
        interior = None
        value = 0
        if mode == "constant":
            if rng.integers(0, 2):
                interior = [int(rng.integers(0, 3)) for _ in shape]
            value = np.zeros(1, dtype=a.dtype)
            plain_void = a.dtype.kind == "V" and not a.dtype.names
            value[:] = b"\x05" * a.dtype.itemsize if plain_void else 1
            value = value[0]
        got = ndpad.crop_pad(a, pb, pe, mode, value, interior)
        same(got, reference.crop_pad(a, pb, pe, mode, value, interior))
        got2 = ndpad.crop_pad(a, pb, pe, mode, value, interior, threads=1)
        same(got2, got)


def test_scalar_pads_and_value_casting():
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    same(ndpad.crop_pad(a, 1, -1, "constant", 2.9), reference.crop_pad(a, [1, 1], [-1, -1],
                                                                         "constant", 2))
    same(ndpad.crop_pad(a, 0, 0), a)
    assert ndpad.crop_pad(a, -2, -2).shape == (0, 0)
    assert ndpad.crop_pad(a, -5, 1, "edge").shape == (0, 0)


def test_constant_on_empty_input_and_object_dtype():
    e = np.zeros((0, 2), dtype=np.float64)
    same(ndpad.crop_pad(e, 1, 1, "constant", 3.0), np.full((2, 4), 3.0))
    o = np.array([["a", 1], [None, 2.5]], dtype=object)
    got = ndpad.crop_pad(o, [1, -1], [0, 2], "wrap")
    want = reference.crop_pad(o, [1, -1], [0, 2], "wrap")
    assert got.dtype == object and got.tolist() == want.tolist()


def test_out_and_in_place():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    want = ndpad.crop_pad(a, [1, -1], [2, 1], "symmetric")
    out = np.zeros(want.shape, order="F")
    assert ndpad.crop_pad(a, [1, -1], [2, 1], "symmetric", out=out) is out
    same(out, want)
    buf = np.zeros((5, 6))
    buf[1:4, 1:5] = a
    ndpad.crop_pad(buf[1:4, 1:5], 1, 1, "constant", -1.0, out=buf)
    same(buf, np.pad(a, 1, constant_values=-1.0))
    buf[...] = 0
    buf[1:4, 1:5] = a
    ndpad.crop_pad(buf[1:4, 1:5], 1, 1, "edge", out=buf)
    same(buf, np.pad(a, 1, "edge"))


def test_errors():
    a = np.arange(6).reshape(2, 3)
    with pytest.raises(ValueError):  # interior needs CONSTANT
        ndpad.crop_pad(a, 1, 1, "edge", interior=1)
    with pytest.raises(ValueError):
        ndpad.crop_pad(a, 1, 1, interior=-1)
    with pytest.raises(ValueError):  # non-constant mode cannot grow an empty axis
        ndpad.crop_pad(np.zeros((0, 3)), 1, 0, "wrap")
    with pytest.raises(ValueError):
        ndpad.crop_pad(a, [1, 2, 3], 0)
    with pytest.raises(TypeError):
        ndpad.crop_pad(a, 1.5, 0)
    with pytest.raises(ValueError):
        ndpad.crop_pad(a, 1, 1, "mirror")
    with pytest.raises(OverflowError):
        ndpad.crop_pad(a, np.uint64(2**64 - 1), 0)
    with pytest.raises(ValueError):  # the output extent overflows int64
        ndpad.crop_pad(a, 2**62, 2**62)
    with pytest.raises(ValueError):
        ndpad.crop_pad(a, 1, 1, "empty")
    with pytest.raises(ndpad.NdpadValueError) as info:
        ndpad.crop_pad(a, 1, 1, "reflect", interior=[0, 2])
    assert "interior[1]" in str(info.value) and info.value.status == 7


def test_library_in_place_non_constant_borders():
    """The C library's own in-place padding, called directly: border rows above and below
    the interior are filled too (builds before the fix left their middle unwritten)."""
    from ndpad import _lib
    out = np.zeros((4, 5), dtype=np.int32)
    out[1:3, 1:4] = [[1, 2, 3], [4, 5, 6]]
    problem, keep = _lib.make_problem(_lib.MODES["edge"], 4, (2, 3), (1, 1), (1, 1),
                                      in_strides=(5, 1), out_strides=(5, 1))
    base = out.__array_interface__["data"][0]
    _lib.run(problem, ctypes.c_void_p(base + 6 * 4), ctypes.c_void_p(base), 1)
    assert out.tolist() == [[1, 1, 2, 3, 3], [1, 1, 2, 3, 3], [4, 4, 5, 6, 6], [4, 4, 5, 6, 6]]


@pytest.mark.parametrize("dtype", ["V3", "V8", np.dtype([("a", "i1"), ("b", "<f8")])])
def test_void_dtype_default_value(dtype):
    """Issue 35, defect 5: crop_pad's default value=0 on a void (structured or not) dtype
    fills as ndpad.pad and numpy.pad do (it raised TypeError for a plain void dtype)."""
    dtype = np.dtype(dtype)
    a = np.frombuffer(np.arange(12 * dtype.itemsize, dtype=np.uint8).tobytes(),
                      dtype=dtype).reshape(3, 4)
    got = ndpad.crop_pad(a, 1, 2)
    same(got, ndpad.pad(a, ((1, 2), (1, 2))))
    same(got, np.pad(a, ((1, 2), (1, 2))))
    cropped = ndpad.crop_pad(a, [1, -1], [-1, 2], interior=[1, 0])
    same(cropped, reference.crop_pad(a, [1, -1], [-1, 2], "constant",
                                     np.zeros(1, dtype)[0], [1, 0]))
