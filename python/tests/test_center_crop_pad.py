"""ndpad.center_crop_pad (ONNX CenterCropPad, opset 18) against ONNX's reference
implementation (onnx/reference/ops/op_center_crop_pad.py, copied below as it stands) and
the shapes of ONNX's documented examples (onnx/backend/test/case/node/centercroppad.py)."""

import numpy as np
import pytest

import ndpad

try:
    from numpy.exceptions import AxisError
except ImportError:  # numpy < 1.25
    from numpy import AxisError
from test_pad import LAYOUTS, layout, same


def onnx_center_crop_pad(input_data, shape, axes=None):
    """ONNX's reference CenterCropPad._run."""
    input_rank = len(input_data.shape)
    if axes is None:
        axes = list(range(input_rank))
    else:
        axes = [axis if axis >= 0 else axis + input_rank for axis in axes]
    pad_slices = [slice(0, s) for s in input_data.shape]
    crop_slices = [slice(0, s) for s in input_data.shape]
    new_shape = list(input_data.shape)
    for a, sh in zip(axes, shape):
        dim = input_data.shape[a]
        if sh == dim:
            pass
        elif sh < dim:
            d = dim - sh
            if d % 2 == 0:
                d //= 2
                sl = slice(d, dim - d)
            else:
                d //= 2
                sl = slice(d, dim - d - 1)
            crop_slices[a] = sl
            new_shape[a] = sh
        else:
            d = sh - dim
            if d % 2 == 0:
                d //= 2
                sl = slice(d, sh - d)
            else:
                d //= 2
                sl = slice(d, sh - d - 1)
            pad_slices[a] = sl
            new_shape[a] = sh
    cropped = input_data[tuple(crop_slices)]
    result = np.zeros(new_shape, dtype=input_data.dtype)
    result[tuple(pad_slices)] = cropped
    return result


ONNX_EXAMPLES = [
    ("center_crop_pad_crop", (20, 10, 3), [10, 7, 3], None),
    ("center_crop_pad_pad", (10, 7, 3), [20, 10, 3], None),
    ("center_crop_pad_crop_and_pad", (20, 8, 3), [10, 10, 3], None),
    ("center_crop_pad_crop_axes_hwc", (20, 8, 3), [10, 9], [0, 1]),
    ("center_crop_pad_crop_negative_axes_hwc", (20, 8, 3), [10, 9], [-3, -2]),
    ("center_crop_pad_crop_axes_chw", (3, 20, 8), [10, 9], [1, 2]),
]


@pytest.mark.parametrize("name,shape,target,axes", ONNX_EXAMPLES)
def test_onnx_examples(name, shape, target, axes):
    x = np.random.default_rng(18).standard_normal(shape).astype(np.float32)
    got = ndpad.center_crop_pad(x, target, axes)
    same(got, onnx_center_crop_pad(x, target, axes))


def test_odd_differences_by_hand():
    x = np.arange(1, 6, dtype=np.int32)
    assert ndpad.center_crop_pad(x, [2]).tolist() == [2, 3]
    assert ndpad.center_crop_pad(x, [8]).tolist() == [0, 1, 2, 3, 4, 5, 0, 0]
    assert ndpad.center_crop_pad(x, [0]).shape == (0,)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.complex128, "V3", object])
def test_random_against_onnx_reference(dtype):
    rng = np.random.default_rng(1800)
    for _ in range(150):
        ndim = int(rng.integers(1, 5))
        shape = tuple(int(v) for v in rng.integers(0, 7, ndim))
        x = rng.integers(1, 100, shape).astype(np.int64)
        if dtype == "V3":
            x = np.frombuffer(np.ascontiguousarray(x.astype(np.uint8)).repeat(3).tobytes(),
                              dtype="V3").reshape(shape)
        else:
            x = x.astype(dtype)
        axes = None
        count = ndim
        if rng.integers(0, 2):
            count = int(rng.integers(0, ndim + 1))
            axes = [int(a) - (ndim if rng.integers(0, 2) else 0)
                    for a in rng.permutation(ndim)[:count]]
        target = [int(v) for v in rng.integers(0, 10, count)]
        same(ndpad.center_crop_pad(x, target, axes), onnx_center_crop_pad(x, target, axes))


@pytest.mark.parametrize("kind", LAYOUTS)
def test_layouts_and_out(kind):
    x = layout(np.random.default_rng(7), (5, 6, 7), np.float64, kind)
    want = onnx_center_crop_pad(np.ascontiguousarray(x), [3, 9], [-1, 0])
    same(ndpad.center_crop_pad(x, [3, 9], [-1, 0], threads=1), want)
    out = np.full((want.shape[0], want.shape[1], 2 * want.shape[2]), -1.0)[..., ::2]
    assert ndpad.center_crop_pad(x, [3, 9], [-1, 0], out=out) is out
    same(out, want)


@pytest.mark.parametrize("target,axes,error,message", [
    ([2, 3], [0, 0], ValueError, "center_crop_pad: repeated axis in `axes` argument"),
    ([2, 3], [1, -2], ValueError, "center_crop_pad: repeated axis in `axes` argument"),
    ([2], [3], AxisError, "center_crop_pad: axes[0] = 3 is out of bounds for an array of "
     "dimension 3"),
    ([2, 3], None, ndpad.NdpadValueError, "center_crop_pad: shape has 2 entries but there "
     "are 3 axes"),
    ([2, 3, 4], [0, 1], ndpad.NdpadValueError, "center_crop_pad: shape has 3 entries but "
     "there are 2 axes"),
    ([2, -1, 4], None, ndpad.NdpadValueError, "center_crop_pad: shape[1] = -1 (axis 1) is "
     "negative"),
    ([-7], [-1], ndpad.NdpadValueError, "center_crop_pad: shape[0] = -7 (axis 2) is negative"),
])
def test_bad_arguments_name_argument_and_axis(target, axes, error, message):
    """Errors in numpy's kinds (AxisError, ValueError), speaking of the Python call and its
    arguments (`shape`, `axes`), never of libndpad's C names."""
    x = np.zeros((4, 5, 6), dtype=np.float32)
    with pytest.raises(error) as info:
        ndpad.center_crop_pad(x, target, axes)
    assert str(info.value).startswith(message), str(info.value)
    assert "ndpad_" not in str(info.value) and "target_shape" not in str(info.value)
    with pytest.raises(TypeError):
        ndpad.center_crop_pad(x, [2.5, 1, 1])


def test_accepts_what_the_c_call_accepts():
    # rank 0 (no axis: an empty shape, with or without an empty axes list), an empty axes
    # list on a matrix, numpy integer arrays and one integer for one axis: all as C takes them
    x = np.array(5.0)
    same(ndpad.center_crop_pad(x, []), x)
    same(ndpad.center_crop_pad(x, [], axes=[]), x)
    m = np.arange(6, dtype=np.int16).reshape(2, 3)
    same(ndpad.center_crop_pad(m, [], axes=[]), m)
    same(ndpad.center_crop_pad(m, np.array([5], np.int32), axes=np.array([-1], np.int64)),
         onnx_center_crop_pad(m, [5], [-1]))
    same(ndpad.center_crop_pad(m, 4, axes=1), onnx_center_crop_pad(m, [4], [1]))
    # what C cannot take is refused with Python's errors: values beyond int64, nested lists
    with pytest.raises(OverflowError, match="shape"):
        ndpad.center_crop_pad(m, [2**63, 1])
    with pytest.raises(ValueError, match="1-D"):
        ndpad.center_crop_pad(m, [[1, 5]])
    with pytest.raises(ndpad.NdpadValueError, match="center_crop_pad: shape has 1 entries"):
        ndpad.center_crop_pad(m, [1])
