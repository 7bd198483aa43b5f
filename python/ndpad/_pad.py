"""ndpad.pad (numpy.pad's drop-in) and ndpad.crop_pad over libndpad.

How a call is served:
  * natively by libndpad: modes constant, edge, reflect, symmetric (reflect_type "even"),
    wrap and empty, for every dtype without Python objects and with itemsize >= 1, rank 1
    to 32, any memory layout (strides that are not a multiple of the itemsize are copied to
    a contiguous array first);
  * constant_values that differ between sides or axes: each value cast as numpy casts it,
    then one libndpad call (ndpad_pad_sides) with numpy's corner rule (later axes win);
  * reflect, symmetric and wrap on object dtypes: a pure numpy gather of the same mapping
    (so the result is numpy >= 2.1's also for pads larger than the axis);
  * dtypes of numpy 2's new DType API (StringDType, user dtypes) go to numpy.pad itself,
    whatever the mode (numpy's result);
  * everything else goes to numpy.pad itself: statistic modes, linear_ramp, callables,
    reflect_type other than "even", empty input in modes that need data, rank 0, other
    dtypes with Python objects, and every malformed argument (so the error is numpy's own).

One job per module: _args (numpy-style argument parsing, `out=` checks), _constant
(constant_values: the pad value and numpy's slabs), _fallback (numpy gathers of the same
index mapping), _native (strides, overlap and the call into libndpad), _lib (ctypes).
"""
import operator
import sys
import types

import numpy as np

from . import _dlpack, _lib, _native
from ._args import NATIVE_KWARGS, PERIODIC, check_out, deliver, int_list, is_even, \
    new_style_dtype, per_axis, threads_arg
from ._args import pad_widths as _pad_widths
from ._constant import pad_value_and_slabs, side_values
from ._fallback import crop_pad_by_index
from ._fallback import pad_by_index as _pad_by_index

try:  # numpy >= 1.25; numpy.AxisError before (Debian 12's 1.24)
    from numpy.exceptions import AxisError as _AxisError
except ImportError:
    _AxisError = np.AxisError

__all__ = ["pad", "pad_per_index", "crop_pad", "center_crop_pad", "pad_dlpack"]


def _overrides_pad(array):
    """Does `array`'s type implement numpy functions itself (__array_function__, NEP 18)?
    numpy.pad dispatches on its first argument only; ndarray's own implementation is the
    one that does not count."""
    t = type(array)
    if t is np.ndarray:
        return False
    impl = getattr(t, "__array_function__", None)
    return impl is not None and impl is not np.ndarray.__array_function__


def _result_and_target(array, out, new_shape, dtype):
    """The array to return and the one libndpad writes: a new array laid out as `array`
    (Fortran order for Fortran arrays), or `out` checked as numpy checks it, written
    through a temporary when libndpad cannot describe its strides."""
    if out is None:
        result = np.empty(new_shape, dtype=dtype, order="F" if array.flags.fnc else "C")
        return result, result
    result = check_out(out, new_shape, dtype)
    return result, (result if _native.out_strides(result) is not None else
                    np.empty(new_shape, dtype=dtype))


def pad(array, pad_width, mode="constant", *, threads=0, out=None, **kwargs):
    """Pad an array: numpy.pad's signature, arguments, errors and results (numpy >= 2.1's
    results also where the installed numpy is older), computed by libndpad.

    array, pad_width, mode, **kwargs: exactly as numpy.pad (constant_values, reflect_type,
        and for the modes numpy.pad computes itself, stat_length and end_values).
    threads: keyword-only; threads for libndpad, 0 (the default) = all physical cores.
    out: keyword-only; an ndarray of the result's shape and dtype (any strides) to write
        into; it is returned. It may hold `array` in its interior (in-place padding: only
        the borders are written).

    The result is a new array in C order, or Fortran order when `array` is Fortran- but not
    C-contiguous (as numpy.pad). Cases libndpad does not handle go to numpy.pad itself, and
    so does an `array` whose type implements numpy.pad through __array_function__ (duck
    arrays, unit-carrying arrays): as with numpy.pad, its own implementation runs and the
    result keeps its type (`threads` is then unused; with `out=`, the result's values are
    copied into `out`).

    Arrays of other libraries that export DLPack in CPU memory (torch tensors, JAX arrays,
    array-API arrays) are read in place, never copied, and the result is an array of the
    same library (see pad_dlpack); `out=` may then be a writable array of that library."""
    threads = threads_arg(threads)
    if _overrides_pad(array):
        result = np.pad(array, pad_width, mode, **kwargs)
        return result if out is None else deliver(np.asarray(result), out)
    if _dlpack.exports(array):
        return pad_dlpack(array, pad_width, mode, threads, out, kwargs)
    array = np.asarray(array)
    if new_style_dtype(array.dtype):  # StringDType, user dtypes: numpy's own result
        return deliver(np.pad(array, pad_width, mode, **kwargs), out)
    try:
        widths = _prepare(array, pad_width, mode, kwargs)
    except Exception:
        widths = None  # numpy.pad decides: it raises its own error for bad arguments
    if widths is None:
        if isinstance(mode, str) and mode in PERIODIC and array.ndim > 0 and \
                array.size > 0 and (mode == "wrap" or is_even(kwargs)) and \
                set(kwargs) <= set(NATIVE_KWARGS[mode]):
            try:
                widths = _pad_widths(pad_width, array.ndim)
            except Exception:
                widths = None
            if widths is not None:
                return deliver(_pad_by_index(array, widths, mode), out)
        return deliver(np.pad(array, pad_width, mode, **kwargs), out)
    return _pad_native(array, widths, mode, kwargs, threads, out)


def pad_dlpack(x, pad_width, mode, threads, out, kwargs, xp=None):
    """ndpad.pad of `x`, an array of another library exporting DLPack: padded from a numpy
    view of its memory (_dlpack.as_numpy: no copy) into a new buffer handed back as x's
    library's array (_dlpack.to_caller; `xp`, when given, is x's array-API namespace), or
    into `out` (a numpy array or a writable array of a DLPack library), which is returned."""
    view = _dlpack.as_numpy(x)
    if out is not None:
        target = out
        if _dlpack.exports(out):
            target = _dlpack.as_numpy(out, "out")
            if not target.flags.writeable:
                raise ValueError("output array is read-only: %s.%s exports its memory "
                                 "read-only through DLPack (JAX arrays are immutable)"
                                 % (type(out).__module__, type(out).__name__))
        pad(view, pad_width, mode, threads=threads, out=target, **kwargs)
        return out
    try:
        widths = _pad_widths(pad_width, view.ndim)
        buffer = _dlpack.new_result(x, tuple(d + b + e for d, (b, e) in
                                             zip(view.shape, widths)), view.dtype)
    except Exception:
        buffer = None  # ndpad.pad raises numpy's error for this pad_width
    result = pad(view, pad_width, mode, threads=threads, out=buffer, **kwargs)
    return _dlpack.to_caller(result, x, xp)


def _prepare(array, pad_width, mode, kwargs):
    """The normalised pad widths when libndpad can serve this call, else None."""
    if not isinstance(mode, str) or mode not in NATIVE_KWARGS:
        return None
    if set(kwargs) - set(NATIVE_KWARGS[mode]):
        return None
    if mode in ("reflect", "symmetric") and not is_even(kwargs):
        return None
    dtype = array.dtype
    if dtype.hasobject or dtype.itemsize == 0 or not 1 <= array.ndim <= _lib.MAX_RANK:
        return None
    widths = _pad_widths(pad_width, array.ndim)
    if array.size == 0 and mode not in ("constant", "empty"):
        return None  # numpy.pad's empty-axis rule and error
    return widths


def _pad_native(array, widths, mode, kwargs, threads, out):
    ndim = array.ndim
    shape = array.shape
    new_shape = tuple(d + b + e for d, (b, e) in zip(shape, widths))
    dtype = array.dtype

    # constant_values: one pad value for libndpad, and the slabs that need another.
    pad_value, slabs = None, []
    if mode == "constant":
        pad_value, slabs = pad_value_and_slabs(kwargs, dtype, widths, shape, new_shape)

    result, target = _result_and_target(array, out, new_shape, dtype)

    if mode == "empty":
        # Only the interior is defined: copy it into place.
        if array.size:
            interior = tuple(slice(b, b + d) for (b, _), d in zip(widths, shape))
            _native.run({"mode": 0, "pads_begin": [0] * ndim, "pads_end": [0] * ndim},
                        array, target[interior], threads)
    else:
        # Per-side constant_values: one libndpad call (ndpad_pad_sides) writes them all.
        _native.run({"mode": _lib.MODES[mode], "pads_begin": [b for b, _ in widths],
                     "pads_end": [e for _, e in widths], "pad_value": pad_value,
                     "side_values": side_values(pad_value, slabs, ndim) if slabs else None},
                    array, target, threads)
    if target is not result:
        result[...] = target
    return result


_AxisError = getattr(getattr(np, "exceptions", np), "AxisError")


def pad_per_index(array, pad_width, values, axis=-1, *, threads=0, out=None):
    """Constant padding with one value per index along `axis` (per-channel pad values):
    every pad element takes values[i], i its index along `axis` in the result. Beyond
    numpy.pad, whose constant_values are per axis and side only.

        img = np.zeros((224, 224, 3), np.float32)                # HWC
        ndpad.pad_per_index(img, ((1, 1), (1, 1), (0, 0)), [0.485, 0.456, 0.406])
        x = np.zeros((8, 64, 32, 32), np.float32)                 # NCHW
        ndpad.pad_per_index(x, ((0, 0), (0, 0), (1, 1), (1, 1)), zero_points, axis=1)

    array, pad_width: as numpy.pad (pad_width's forms and errors).
    values: a 1-D sequence with one value per index of `axis` in the RESULT (the axis's
        padded extent: the input's extent when the axis is not padded), each cast to the
        array's dtype as numpy assigns it (its errors for values that do not convert).
    axis: the axis of the values (negative counts from the end); numpy's AxisError when out
        of range.
    threads, out: as in ndpad.pad. One libndpad call (ndpad_pad_per_index) writes the
    values inside its row kernels; dtypes with Python objects are padded by numpy indexing.
    """
    threads = threads_arg(threads)
    array = np.asarray(array)
    ndim = array.ndim
    if ndim == 0:
        raise ValueError("pad_per_index: a 0-d array has no axis to take values along")
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise _AxisError(axis, ndim)
    axis %= ndim
    widths = _pad_widths(pad_width, ndim)
    new_shape = tuple(d + b + e for d, (b, e) in zip(array.shape, widths))
    # The shape only (np.asarray([2**63 + 1, 5]) is float64, np.asarray(["", b"\xff"])
    # raises): as objects, whatever they hold.
    vals_shape = values.shape if isinstance(values, np.ndarray) else \
        np.asarray(values, dtype=object).shape
    if len(vals_shape) != 1:
        raise ValueError("pad_per_index: values must be 1-D (one per index of axis %d), got "
                         "shape %s" % (axis, vals_shape))
    if vals_shape[0] != new_shape[axis]:
        raise ValueError("pad_per_index: %d values for axis %d, whose padded extent is %d"
                         % (vals_shape[0], axis, new_shape[axis]))
    dtype = array.dtype
    cast = np.empty(vals_shape[0], dtype=dtype)
    # numpy's assignment of the values themselves (its casting and errors; each Python
    # number converted exactly into the dtype, not through one common dtype first)
    cast[...] = values
    if dtype.hasobject or dtype.itemsize == 0 or ndim > _lib.MAX_RANK or \
            new_style_dtype(dtype):
        view = [1] * ndim
        view[axis] = -1
        result = np.empty(new_shape, dtype=dtype)
        result[...] = cast.reshape(view)
        result[tuple(slice(b, b + d) for (b, _), d in zip(widths, array.shape))] = array
        return deliver(result, out)
    result, target = _result_and_target(array, out, new_shape, dtype)
    _native.run({"mode": _lib.MODES["constant"], "pads_begin": [b for b, _ in widths],
                 "pads_end": [e for _, e in widths], "index_axis": axis,
                 "index_values": cast.tobytes()}, array, target, threads)
    if target is not result:
        result[...] = target
    return result


def crop_pad(array, pads_begin, pads_end, mode="constant", value=0, interior=None, *,
             threads=0, out=None):
    """Pad and crop: OpenVINO Pad-12 / nGraph Pad semantics, which numpy.pad lacks.

    pads_begin, pads_end: one integer for every axis or one per axis; negative values crop.
        Padded borders take their values from the whole input, not from the cropped part.
    mode: "constant", "edge", "reflect", "symmetric" or "wrap"; pads larger than the axis
        repeat the pattern (numpy >= 2.1's mapping).
    value: the pad value (mode "constant"), cast to the array's dtype as numpy assigns it.
    interior: None, or one non-negative integer for every axis or one per axis: elements of
        `value` inserted between neighbours (mode "constant" only).
    threads, out: as in ndpad.pad.

    Output extent per axis: max(pads_begin + dilated + pads_end, 0), where
    dilated = (d - 1) * (interior + 1) + 1 (0 for an empty axis). Invalid problems raise
    NdpadValueError (a ValueError) with libndpad's message naming the axis."""
    threads = threads_arg(threads)
    array = np.asarray(array)
    ndim = array.ndim
    if ndim > _lib.MAX_RANK:
        raise ValueError("ndpad supports at most %d axes, got %d" % (_lib.MAX_RANK, ndim))
    if not isinstance(mode, str) or mode not in _lib.MODES:
        raise ValueError("mode %r is not supported by crop_pad (one of %s)"
                         % (mode, ", ".join(_lib.MODES)))
    pb = per_axis(pads_begin, ndim, "pads_begin")
    pe = per_axis(pads_end, ndim, "pads_end")
    inter = None if interior is None else per_axis(interior, ndim, "interior")
    dtype = array.dtype
    pad_value = None
    if mode == "constant":
        tmp = np.zeros(1, dtype=dtype)
        try:
            tmp[:] = value
        except TypeError:
            # A void dtype takes no Python number (not even the default 0) but a numpy
            # scalar, as numpy.pad (and ndpad.pad) give it: the same bytes as they store.
            if dtype.type is not np.void or not isinstance(value, (bool, int, float, complex)):
                raise  # numpy's own error (a complex into an integer array: TypeError)
            tmp[:] = np.asarray(value).ravel()[0]
        pad_value = tmp.tobytes()
    # ndpad validates the whole problem and gives the output shape.
    probe, keep = _lib.make_problem(_lib.MODES[mode], max(dtype.itemsize, 1), array.shape,
                                    pb, pe, interior=inter)
    new_shape = _lib.output_shape(probe)
    del keep

    if dtype.hasobject or dtype.itemsize == 0 or new_style_dtype(dtype):
        result = crop_pad_by_index(array, pb, pe, mode, tmp[0] if mode == "constant"
                                   else None, inter, new_shape)
        return deliver(result, out)

    if out is None:
        result = np.empty(new_shape, dtype=dtype)
        target = result
    else:
        result = check_out(out, new_shape, dtype)
        target = result if _native.out_strides(result) is not None else \
            np.empty(new_shape, dtype)
    _native.run({"mode": _lib.MODES[mode], "pads_begin": pb, "pads_end": pe,
                 "interior": inter, "pad_value": pad_value}, array, target, threads)
    if target is not result:
        result[...] = target
    return result


def center_crop_pad(array, shape, axes=None, *, threads=0, out=None):
    """ONNX CenterCropPad (opset 18): crop or zero-pad each listed axis of `array` to its
    extent in `shape` around the centre.

    shape: one target extent (>= 0) per listed axis (ONNX's input "shape").
    axes: None (every axis, in order; `shape` then has one entry per axis) or the axes
        `shape` applies to; negative axes count from the back; no axis twice.
    threads, out: as in ndpad.pad.

    ONNX's rule for odd differences: a crop of diff = d - t keeps input indices from
    diff // 2, a pad of diff = t - d puts the input at output index diff // 2; the odd
    element is cropped or padded at the end. Padding is zeros of the array's dtype. Other
    axes are kept. Bad arguments raise NdpadValueError (a ValueError) with libndpad's
    message naming the argument and axis."""
    array = np.asarray(array)
    ndim = array.ndim
    if ndim > _lib.MAX_RANK:
        raise ValueError("ndpad supports at most %d axes, got %d" % (_lib.MAX_RANK, ndim))
    target = int_list(shape, "shape")
    axis_list = None if axes is None else int_list(axes, "axes")
    # numpy's exceptions for numpy's kinds of mistakes (an axis out of range is AxisError, a
    # repeated one ValueError); then libndpad checks the rest and names the argument.
    if axis_list is not None:
        for k, a in enumerate(axis_list):
            if not -ndim <= a < ndim:
                raise _AxisError("center_crop_pad: axes[%d] = %d is out of bounds for an array "
                                 "of dimension %d" % (k, a, ndim))
        if len({a % ndim for a in axis_list}) != len(axis_list):
            raise ValueError("center_crop_pad: repeated axis in `axes` argument: %r" % (axes,))
    _lib.check_center_crop_pad(array.shape, max(array.dtype.itemsize, 1), target, axis_list)
    pb, pe = [0] * ndim, [0] * ndim
    for t, a in zip(target, range(ndim) if axis_list is None else axis_list):
        a = a + ndim if a < 0 else a
        diff = t - array.shape[a]
        # diff >= 0 pads diff // 2 first; diff < 0 crops (-diff) // 2 first (ONNX)
        pb[a] = diff // 2 if diff >= 0 else -((-diff) // 2)
        pe[a] = diff - pb[a]
    zero = np.zeros(1, dtype=array.dtype)[0]  # ONNX's np.zeros: zero bytes in every dtype
    return crop_pad(array, pb, pe, "constant", zero, threads=threads, out=out)


class _Module(types.ModuleType):
    """`ndpad._pad._inplace_ok` stays the switch it was before the split (the tests force
    the copy-first path through it); it now lives in _native, next to its probe."""

    @property
    def _inplace_ok(self):
        return _native._inplace_ok

    @_inplace_ok.setter
    def _inplace_ok(self, value):
        _native._inplace_ok = value


sys.modules[__name__].__class__ = _Module
