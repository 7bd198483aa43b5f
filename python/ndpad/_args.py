"""numpy-style argument parsing: threads, pad widths as numpy.pad reads them, per-axis
integers for crop_pad, and the checks of an `out=` array."""

import operator

import numpy as np

__all__ = ["NATIVE_KWARGS", "PERIODIC", "threads_arg", "as_pairs", "pad_widths", "per_axis",
           "int_list", "is_even", "check_out", "deliver", "new_style_dtype"]

# numpy.pad's modes libndpad computes, with the keyword arguments each accepts.
NATIVE_KWARGS = {
    "constant": ("constant_values",),
    "edge": (),
    "reflect": ("reflect_type",),
    "symmetric": ("reflect_type",),
    "wrap": (),
    "empty": (),
}
PERIODIC = ("reflect", "symmetric", "wrap")


def new_style_dtype(dtype):
    """A dtype of numpy 2's new DType API (StringDType, user dtypes such as quaddtype): its
    elements may live outside the array (StringDType's arena), so ndpad hands it to numpy
    (numpy.pad's result, whatever the mode). numpy's own legacy dtypes, structured ones
    included, are plain bytes libndpad can copy."""
    return getattr(type(dtype), "_legacy", True) is False


def threads_arg(threads):
    t = operator.index(threads)  # TypeError for floats, strings, None
    if t < 0 or t > 2**31 - 1:
        raise ValueError("threads must be in [0, 2**31 - 1] (0 = all cores), got %d" % t)
    return t


def as_pairs(x, ndim, as_index=False):
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


def _dict_widths(pad_width, ndim):
    """numpy 2.3's dict form {axis: width or (before, after)}: axes not named get no pad,
    negative axes count from the end, a later key for the same axis wins (as numpy's loop
    does). numpy's exceptions: IndexError for an axis out of range, AssertionError for a
    width that is neither an int nor a pair (numpy's `match` falls through), ValueError for
    negative widths (its later check)."""
    widths = [(0, 0)] * ndim
    for axis, width in pad_width.items():
        if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
            raise TypeError("pad_width: dict keys are axes (integers), not %r" % (axis,))
        if not -ndim <= axis < ndim:
            raise IndexError("pad_width: axis %d is out of bounds for an array of dimension %d"
                             % (axis, ndim))
        if isinstance(width, (int, np.integer)) and not isinstance(width, bool):
            before = after = int(width)
        elif (isinstance(width, tuple) and len(width) == 2 and
              all(isinstance(w, (int, np.integer)) and not isinstance(w, bool) for w in width)):
            before, after = int(width[0]), int(width[1])
        else:
            raise AssertionError("pad_width[%d] must be an int or a pair of ints, not %r"
                                 % (axis, width))
        if before < 0 or after < 0:
            raise ValueError("index can't contain negative values (pad_width[%d] is %r)"
                             % (axis, width))
        widths[axis] = (before, after)
    return widths


def pad_widths(pad_width, ndim):
    """numpy.pad's checks of pad_width, as [(before, after), ...] of Python ints."""
    if isinstance(pad_width, dict):
        return _dict_widths(pad_width, ndim)
    # Fast paths for the common forms, with the results as_pairs gives them.
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
    return [(int(b), int(a)) for b, a in as_pairs(pad_width, ndim, as_index=True)]


def per_axis(x, ndim, name):
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


def int_list(values, name):
    """A list of int64 values, as the C calls take them (CenterCropPad's shape and axes): a
    sequence of integers (or one integer), each within int64."""
    if isinstance(values, (list, tuple)):
        items = list(values)  # Python ints as they are (numpy would make 2**63 a float)
        nested = any(np.ndim(v) > 0 for v in items)
    else:
        arr = np.asarray(values)
        items, nested = arr.reshape(-1).tolist(), arr.ndim > 1
    if nested:
        raise ValueError("%s must be a sequence of integers (1-D), got %r" % (name, values))
    try:
        result = [operator.index(v) for v in items]
    except TypeError:
        raise TypeError("%s must be a sequence of integers, got %r" % (name, values)) from None
    if any(not -2**63 <= v < 2**63 for v in result):
        raise OverflowError("%s: %s does not fit in int64" % (name, result))
    return result


def is_even(kwargs):
    rt = kwargs.get("reflect_type", "even")
    return isinstance(rt, str) and rt == "even"


def check_out(out, shape, dtype):
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


def deliver(result, out):
    """Return `result`, or copy it into a validated `out` and return `out`."""
    if out is None:
        return result
    check_out(out, result.shape, result.dtype)
    out[...] = result
    return out
