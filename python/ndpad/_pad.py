"""ndpad.pad (numpy.pad's drop-in) and ndpad.crop_pad over libndpad.

How a call is served:
  * natively by libndpad: modes constant, edge, reflect, symmetric (reflect_type "even"),
    wrap and empty, for every dtype without Python objects and with itemsize >= 1, rank 1
    to 32, any memory layout (strides that are not a multiple of the itemsize are copied to
    a contiguous array first);
  * constant_values that differ between sides or axes: libndpad pads with one of them and
    the slabs of the others are then assigned with numpy in numpy.pad's own order (axis by
    axis, later axes overwriting the corners), with numpy's own casting;
  * reflect, symmetric and wrap on object dtypes: a pure numpy gather of the same mapping
    (so the result is numpy >= 2.1's also for pads larger than the axis);
  * everything else goes to numpy.pad itself: statistic modes, linear_ramp, callables,
    reflect_type other than "even", empty input in modes that need data, rank 0, other
    dtypes with Python objects, and every malformed argument (so the error is numpy's own).
"""

import operator

import numpy as np

from . import _lib

__all__ = ["pad", "crop_pad"]

_NATIVE_KWARGS = {
    "constant": ("constant_values",),
    "edge": (),
    "reflect": ("reflect_type",),
    "symmetric": ("reflect_type",),
    "wrap": (),
    "empty": (),
}
_PERIODIC = ("reflect", "symmetric", "wrap")


def _threads_arg(threads):
    t = operator.index(threads)  # TypeError for floats, strings, None
    if t < 0 or t > 2**31 - 1:
        raise ValueError("threads must be in [0, 2**31 - 1] (0 = all cores), got %d" % t)
    return t


def _as_pairs(x, ndim, as_index=False):
    """numpy.lib.arraypad._as_pairs (numpy 1.17 to 2.x), copied so that the values and the
    scalar types handed to numpy's assignments are exactly those numpy.pad would use."""
    if x is None:
        return ((None, None),) * ndim
    x = np.array(x)
    if as_index:
        x = np.round(x).astype(np.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x < 0:
                raise ValueError("index can't contain negative values")
            v = x[0]  # numpy indexes twice; one object lets the caller convert it once
            return ((v, v),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("index can't contain negative values")
            return ((x[0], x[1]),) * ndim
    if as_index and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return np.broadcast_to(x, (ndim, 2)).tolist()


_BIG = 2**62  # Python ints below this are certainly int64 for np.asarray


def _small_int(v):
    return type(v) is int and 0 <= v < _BIG


def _pad_widths(pad_width, ndim):
    """numpy.pad's checks of pad_width, as [(before, after), ...] of Python ints."""
    # Fast paths for the common forms, with the results _as_pairs gives them.
    t = type(pad_width)
    if t is int:
        if 0 <= pad_width < _BIG:
            return [(pad_width, pad_width)] * ndim
    elif t is tuple or t is list:
        n = len(pad_width)
        if (n == 1 or n == 2) and all(_small_int(v) for v in pad_width):
            return [(pad_width[0], pad_width[-1])] * ndim
        if n == ndim and all((type(p) is tuple or type(p) is list) and len(p) == 2 and
                             _small_int(p[0]) and _small_int(p[1]) for p in pad_width):
            return [(p[0], p[1]) for p in pad_width]
    pad_width = np.asarray(pad_width)
    if not pad_width.dtype.kind == "i":
        raise TypeError("`pad_width` must be of integral type.")
    return [(int(b), int(a)) for b, a in _as_pairs(pad_width, ndim, as_index=True)]


def _elem_strides(arr, like=None):
    """Strides of `arr` in elements, or None when a stride is not a multiple of the itemsize.
    Axes of extent <= 1 never move the address: they take the stride of `like` (the output's,
    so that an input sitting in the output's interior is recognised as in-place) or 0."""
    size = arr.itemsize
    strides = []
    for k, (n, s) in enumerate(zip(arr.shape, arr.strides)):
        if n <= 1:
            strides.append(like[k] if like is not None else 0)
        elif s % size:
            return None
        else:
            strides.append(s // size)
    return strides


def _out_strides(arr):
    """Element strides usable as ndpad output strides (non-zero where extent > 1), or None.
    An empty array has no element to address: any strides do (numpy gives it zeros)."""
    if arr.size == 0:
        return [1] * arr.ndim
    strides = _elem_strides(arr)
    if strides is None:
        return None
    if any(s == 0 and n > 1 for s, n in zip(strides, arr.shape)):
        return None
    return strides


def _address(arr):
    return arr.__array_interface__["data"][0]


def _check_out(out, shape, dtype):
    if not isinstance(out, np.ndarray):
        raise TypeError("out must be a numpy.ndarray, not %s" % type(out).__name__)
    if out.shape != tuple(shape):
        raise ValueError("out has shape %s but the result has shape %s"
                         % (out.shape, tuple(shape)))
    if out.dtype != dtype:
        raise ValueError("out has dtype %s but the result has dtype %s" % (out.dtype, dtype))
    if not out.flags.writeable:
        raise ValueError("output array is read-only")
    return out


def _deliver(result, out):
    """Return `result`, or copy it into a validated `out` and return `out`."""
    if out is None:
        return result
    _check_out(out, result.shape, result.dtype)
    out[...] = result
    return out


def _native(problem_args, array, result, threads):
    """Run one ndpad problem from `array` into `result`.

    problem_args: dict with mode, pads_begin, pads_end and optionally interior and pad_value.
    `result` must have representable strides. Handles overlap of `array` and `result`: exact
    in-place padding goes through (ndpad recognises it), any other overlap copies the input."""
    if result.size == 0:
        return  # the problem was validated by the caller (numpy's rules or ndpad's)
    out_strides = _out_strides(result)
    assert out_strides is not None
    itemsize = array.itemsize
    in_strides = _elem_strides(array, like=out_strides)
    if in_strides is None:
        array = np.ascontiguousarray(array)
        in_strides = _elem_strides(array, like=out_strides)
    out_ptr = _address(result)
    if result.size and array.size and np.may_share_memory(array, result):
        pb, pe = problem_args["pads_begin"], problem_args["pads_end"]
        interior = problem_args.get("interior")
        offset = sum(b * s for b, s in zip(pb, out_strides)) * itemsize
        in_place = (min(pb, default=0) >= 0 and min(pe, default=0) >= 0 and
                    not any(interior or ()) and in_strides == out_strides and
                    _address(array) == out_ptr + offset and
                    (problem_args["mode"] == 0 or _inplace_borders_work()))
        if not in_place:
            array = array.copy()
            in_strides = _elem_strides(array, like=out_strides)
    problem, keep = _lib.make_problem(
        problem_args["mode"], itemsize, array.shape, problem_args["pads_begin"],
        problem_args["pads_end"], interior=problem_args.get("interior"),
        in_strides=in_strides, out_strides=out_strides,
        pad_value=problem_args.get("pad_value"))
    _lib.run(problem, _address(array), out_ptr, threads)
    del keep


_inplace_ok = None


def _inplace_borders_work():
    """Does libndpad's in-place padding fill the borders of the non-constant modes?

    Early builds of libndpad 0.1.0 skipped the interior columns of every row that is not a
    pad row, also of the rows above and below the interior that EDGE/REFLECT/SYMMETRIC/WRAP
    fill from the input, so those stayed unwritten. Probe once; with such a library the
    input is copied out of the output first (correct, one extra copy)."""
    global _inplace_ok
    if _inplace_ok is None:
        out = np.zeros((4, 5), dtype=np.int32)
        out[1:3, 1:4] = [[1, 2, 3], [4, 5, 6]]
        problem, keep = _lib.make_problem(_lib.MODES["edge"], 4, (2, 3), (1, 1), (1, 1),
                                          in_strides=(5, 1), out_strides=(5, 1))
        _lib.run(problem, _address(out) + 6 * 4, _address(out), 1)
        del keep
        _inplace_ok = out.tolist() == [[1, 1, 2, 3, 3], [1, 1, 2, 3, 3],
                                       [4, 4, 5, 6, 6], [4, 4, 5, 6, 6]]
    return _inplace_ok


def _value_bytes(value, dtype):
    """The bytes numpy stores when it assigns `value` to a slab of `dtype`."""
    tmp = np.zeros(1, dtype=dtype)
    tmp[:] = value
    return tmp.tobytes()


_ZERO_BYTES = {}  # dtype -> bytes of numpy's default constant value in that dtype


def _slab(ndim, axis, side, widths, new_shape):
    """numpy.pad's constant slab for (axis, side): full extent on axes < axis, original
    area on axes > axis."""
    sl = []
    for k in range(ndim):
        b, e = widths[k]
        if k < axis:
            sl.append(slice(None))
        elif k == axis:
            sl.append(slice(0, b) if side == 0 else slice(new_shape[k] - e, new_shape[k]))
        else:
            sl.append(slice(b, new_shape[k] - e))
    return tuple(sl)


def _slab_size(ndim, axis, side, widths, shape, new_shape):
    size = 1
    for k in range(ndim):
        if k < axis:
            size *= new_shape[k]
        elif k == axis:
            size *= widths[k][side]
        else:
            size *= shape[k]
    return size


def _periodic_index(mode, d, b, e):
    """Source index of every output position of one axis (api.md's mapping)."""
    j = np.arange(-b, d + e, dtype=np.int64)
    if mode == "wrap":
        return j % d
    if mode == "reflect":
        if d == 1:
            return np.zeros_like(j)
        period = 2 * (d - 1)
        m = j % period
        return np.where(m < d, m, period - m)
    period = 2 * d  # symmetric
    m = j % period
    return np.where(m < d, m, period - 1 - m)


def _pad_by_index(array, widths, mode):
    """reflect/symmetric/wrap by gathering along each axis: any dtype, numpy >= 2.1 results."""
    result = array
    for axis, (b, e) in enumerate(widths):
        if b or e:
            result = np.take(result, _periodic_index(mode, array.shape[axis], b, e), axis=axis)
    padded = np.empty(result.shape, dtype=array.dtype, order="F" if array.flags.fnc else "C")
    padded[...] = result
    return padded


def _is_even(kwargs):
    rt = kwargs.get("reflect_type", "even")
    return isinstance(rt, str) and rt == "even"


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
    C-contiguous (as numpy.pad). Cases libndpad does not handle go to numpy.pad itself."""
    threads = _threads_arg(threads)
    array = np.asarray(array)
    try:
        widths = _prepare(array, pad_width, mode, kwargs)
    except Exception:
        widths = None  # numpy.pad decides: it raises its own error for bad arguments
    if widths is None:
        if isinstance(mode, str) and mode in _PERIODIC and array.ndim > 0 and \
                array.size > 0 and (mode == "wrap" or _is_even(kwargs)) and \
                set(kwargs) <= set(_NATIVE_KWARGS[mode]):
            try:
                widths = _pad_widths(pad_width, array.ndim)
            except Exception:
                widths = None
            if widths is not None:
                return _deliver(_pad_by_index(array, widths, mode), out)
        return _deliver(np.pad(array, pad_width, mode, **kwargs), out)
    return _pad_native(array, widths, mode, kwargs, threads, out)


def _prepare(array, pad_width, mode, kwargs):
    """The normalised pad widths when libndpad can serve this call, else None."""
    if not isinstance(mode, str) or mode not in _NATIVE_KWARGS:
        return None
    if set(kwargs) - set(_NATIVE_KWARGS[mode]):
        return None
    if mode in ("reflect", "symmetric") and not _is_even(kwargs):
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
    pad_value = None
    slabs = []
    if mode == "constant" and "constant_values" not in kwargs:
        # numpy assigns np.intp(0) (from np.array(0)) to every slab.
        pad_value = _ZERO_BYTES.get(dtype)
        if pad_value is None:
            pad_value = _ZERO_BYTES[dtype] = _value_bytes(np.array(0).ravel()[0], dtype)
    elif mode == "constant":
        values = _as_pairs(kwargs["constant_values"], ndim)
        seen = []
        converted = {}
        for axis in range(ndim):
            for side in (0, 1):
                v = values[axis][side]
                if _slab_size(ndim, axis, side, widths, shape, new_shape) == 0:
                    np.empty(0, dtype=dtype)[:] = v  # numpy assigns it too: same errors
                    continue
                vb = converted.get(id(v))  # by identity: 0.0 == -0.0 but not in bytes
                if vb is None:
                    vb = converted[id(v)] = _value_bytes(v, dtype)
                seen.append((axis, side, v, vb))
        if seen:
            pad_value = seen[0][3]
            if any(s[3] != pad_value for s in seen):
                # Slabs already holding pad_value before any other value is written need
                # nothing; from the first different one on, numpy's order decides corners.
                first = next(i for i, s in enumerate(seen) if s[3] != pad_value)
                slabs = seen[first:]

    if out is None:
        result = np.empty(new_shape, dtype=dtype, order="F" if array.flags.fnc else "C")
        target = result
    else:
        result = _check_out(out, new_shape, dtype)
        target = result if _out_strides(result) is not None else \
            np.empty(new_shape, dtype=dtype)

    if mode == "empty":
        # Only the interior is defined: copy it into place.
        if array.size:
            interior = tuple(slice(b, b + d) for (b, _), d in zip(widths, shape))
            _native({"mode": 0, "pads_begin": [0] * ndim, "pads_end": [0] * ndim},
                    array, target[interior], threads)
    else:
        _native({"mode": _lib.MODES[mode], "pads_begin": [b for b, _ in widths],
                 "pads_end": [e for _, e in widths], "pad_value": pad_value},
                array, target, threads)
    for axis, side, v, _ in slabs:
        target[_slab(ndim, axis, side, widths, new_shape)] = v
    if target is not result:
        result[...] = target
    return result


def _per_axis(x, ndim, name):
    """One integer for every axis or one per axis, as a list of Python ints."""
    arr = np.asarray(x)
    if arr.shape == (0,) and ndim == 0:
        return []
    if arr.dtype.kind not in "iu":
        raise TypeError("%s must be integers, got %s" % (name, arr.dtype))
    if arr.ndim == 0:
        values = [int(arr)] * ndim
    elif arr.shape == (ndim,):
        values = [int(v) for v in arr]
    else:
        raise ValueError("%s must be one integer or %d integers (one per axis), got shape %s"
                         % (name, ndim, arr.shape))
    if any(not -2**63 <= v < 2**63 for v in values):
        raise OverflowError("%s: %s does not fit in int64" % (name, values))
    return values


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
    threads = _threads_arg(threads)
    array = np.asarray(array)
    ndim = array.ndim
    if ndim > _lib.MAX_RANK:
        raise ValueError("ndpad supports at most %d axes, got %d" % (_lib.MAX_RANK, ndim))
    if not isinstance(mode, str) or mode not in _lib.MODES:
        raise ValueError("mode %r is not supported by crop_pad (one of %s)"
                         % (mode, ", ".join(_lib.MODES)))
    pb = _per_axis(pads_begin, ndim, "pads_begin")
    pe = _per_axis(pads_end, ndim, "pads_end")
    inter = None if interior is None else _per_axis(interior, ndim, "interior")
    dtype = array.dtype
    pad_value = None
    if mode == "constant":
        tmp = np.zeros(1, dtype=dtype)
        tmp[:] = value
        pad_value = tmp.tobytes()
    # ndpad validates the whole problem and gives the output shape.
    probe, keep = _lib.make_problem(_lib.MODES[mode], max(dtype.itemsize, 1), array.shape,
                                    pb, pe, interior=inter)
    new_shape = _lib.output_shape(probe)
    del keep

    if dtype.hasobject or dtype.itemsize == 0:
        result = _crop_pad_by_index(array, pb, pe, mode, tmp[0] if mode == "constant"
                                    else None, inter, new_shape)
        return _deliver(result, out)

    if out is None:
        result = np.empty(new_shape, dtype=dtype)
        target = result
    else:
        result = _check_out(out, new_shape, dtype)
        target = result if _out_strides(result) is not None else np.empty(new_shape, dtype)
    _native({"mode": _lib.MODES[mode], "pads_begin": pb, "pads_end": pe, "interior": inter,
             "pad_value": pad_value}, array, target, threads)
    if target is not result:
        result[...] = target
    return result


def _crop_pad_by_index(array, pb, pe, mode, value, inter, new_shape):
    """crop_pad by gathering (for dtypes libndpad cannot copy: Python objects, size 0)."""
    ndim = array.ndim
    index, valid = [], []
    for k in range(ndim):
        d, b, n = array.shape[k], pb[k], new_shape[k]
        r = inter[k] if inter else 0
        j = np.arange(n, dtype=np.int64) - b
        if mode == "constant":
            dilated = 0 if d == 0 else (d - 1) * (r + 1) + 1
            ok = (j >= 0) & (j < dilated) & (j % (r + 1) == 0)
            index.append(np.where(ok, j // (r + 1), 0))
            valid.append(ok)
        elif mode == "edge":
            index.append(np.clip(j, 0, d - 1))
            valid.append(np.ones(n, dtype=bool))
        else:
            index.append(_periodic_index(mode, d, b, n - b - d))
            valid.append(np.ones(n, dtype=bool))
    result = np.empty(new_shape, dtype=array.dtype)
    if result.size == 0:
        return result
    if all(v.any() for v in valid) and array.size:
        result[...] = array[np.ix_(*index)]
        mask = np.ones((), dtype=bool)
        for k, v in enumerate(valid):
            mask = mask & v.reshape((-1,) + (1,) * (ndim - 1 - k))
        result[~np.broadcast_to(mask, new_shape)] = value
    else:
        result[...] = value
    return result
