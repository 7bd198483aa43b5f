"""ndpad.pad_per_index (a pad value per index along one axis: ndpad_pad_per_index) against
numpy indexing: the values broadcast along the axis, the input written over its interior;
and numpy.pad's per-side constant_values through ndpad.pad (ndpad_pad_sides, one call)."""

import numpy as np
import pytest

import ndpad
from test_pad import LAYOUTS, layout, same

AxisError = getattr(getattr(np, "exceptions", np), "AxisError")


def expected(a, widths, values, axis):
    new_shape = tuple(d + b + e for d, (b, e) in zip(a.shape, widths))
    view = [1] * a.ndim
    view[axis] = -1
    cast = np.empty(len(values), dtype=a.dtype)
    cast[...] = values
    want = np.empty(new_shape, dtype=a.dtype)
    want[...] = cast.reshape(view)
    want[tuple(slice(b, b + d) for (b, _), d in zip(widths, a.shape))] = a
    return want


def test_rgb_mean_and_nchw_zero_points():
    img = np.arange(2 * 3 * 3, dtype=np.float32).reshape(2, 3, 3)
    mean = [0.485, 0.456, 0.406]
    got = ndpad.pad_per_index(img, ((1, 1), (1, 1), (0, 0)), mean)
    assert got.shape == (4, 5, 3)
    assert got[0, 0].tolist() == np.float32(mean).tolist()
    assert got[3, 4].tolist() == np.float32(mean).tolist()
    same(got[1:3, 1:4], img)
    x = np.ones((2, 4, 3, 3), np.int8)
    zp = np.array([-3, 5, 7, 9])
    got = ndpad.pad_per_index(x, ((0, 0), (0, 0), (1, 1), (1, 1)), zp, axis=1)
    same(got, expected(x, [(0, 0), (0, 0), (1, 1), (1, 1)], zp, 1))
    assert got[1, 2, 0, 0] == 7


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.float32, np.float64,
                                   np.complex128, "V3", object])
def test_random_against_numpy(dtype):
    rng = np.random.default_rng(7 + len(str(np.dtype(dtype))))
    for it in range(150):
        rank = int(rng.integers(1, 5))
        shape = tuple(int(rng.integers(1, 6)) for _ in range(rank))
        kind = LAYOUTS[it % len(LAYOUTS)]
        if dtype is object:  # numpy indexing: Python objects are not bytes to copy
            a = np.array([int(v) for v in rng.integers(0, 9, int(np.prod(shape)))],
                         dtype=object).reshape(shape)
        else:
            a = layout(rng, shape, dtype, kind)
        widths = [(int(rng.integers(0, 3)), int(rng.integers(0, 3))) for _ in shape]
        axis = int(rng.integers(-rank, rank))
        n = shape[axis] + sum(widths[axis])
        if np.dtype(dtype).kind == "V":
            values = np.frombuffer(rng.bytes(3 * n), dtype="V3")
        elif dtype is object:
            values = np.array([int(v) for v in rng.integers(-50, 50, n)], dtype=object)
        else:
            values = rng.integers(-50, 50, n).astype(dtype)
        want = expected(a, widths, values, axis % rank)
        same(ndpad.pad_per_index(a, widths, values, axis, threads=1 + it % 2), want)
        out = np.full(want.shape, 1, dtype=dtype)[..., ::1]
        assert ndpad.pad_per_index(a, widths, values, axis, out=out) is out
        same(out, want)


def test_in_place_and_strided_out():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    buf = np.full((5, 6), -1, np.float32)
    buf[1:4, 1:5] = a
    got = ndpad.pad_per_index(buf[1:4, 1:5], 1, np.arange(6), axis=1, out=buf)
    assert got is buf
    same(buf, expected(a, [(1, 1), (1, 1)], np.arange(6), 1))
    big = np.zeros((5, 12), np.float32)
    ndpad.pad_per_index(a, 1, [1, 2, 3, 4, 5], axis=0, out=big[:, ::2])
    same(big[:, ::2], expected(a, [(1, 1), (1, 1)], [1, 2, 3, 4, 5], 0))


def test_errors_are_numpy_style():
    a = np.zeros((2, 3))
    with pytest.raises(AxisError):
        ndpad.pad_per_index(a, 1, [0] * 4, axis=2)
    with pytest.raises(ValueError, match="3 values for axis 1, whose padded extent is 5"):
        ndpad.pad_per_index(a, 1, [0, 1, 2], axis=1)
    with pytest.raises(ValueError, match="1-D"):
        ndpad.pad_per_index(a, 1, [[0] * 5], axis=1)
    with pytest.raises(ValueError):
        ndpad.pad_per_index(a, -1, [0] * 5, axis=1)  # numpy.pad's negative widths error
    with pytest.raises(ValueError):
        ndpad.pad_per_index(np.zeros(()), 1, [0])
    with pytest.raises((ValueError, TypeError)):
        ndpad.pad_per_index(np.zeros(3, np.int32), 1, ["a", "b", "c", "d", "e"])
    with pytest.raises(ValueError):
        ndpad.pad_per_index(a, 1, [0] * 5, axis=1, threads=-1)


def test_per_side_constant_values_match_numpy():
    rng = np.random.default_rng(11)
    for _ in range(100):
        rank = int(rng.integers(1, 4))
        shape = tuple(int(rng.integers(1, 6)) for _ in range(rank))
        a = rng.integers(0, 100, shape).astype(np.int16)
        widths = [(int(rng.integers(0, 3)), int(rng.integers(0, 3))) for _ in shape]
        cv = [(int(rng.integers(-9, 9)), int(rng.integers(-9, 9))) for _ in shape]
        same(ndpad.pad(a, widths, constant_values=cv), np.pad(a, widths, constant_values=cv))
