"""Padding by index gathers in numpy, for what libndpad cannot copy (dtypes with Python
objects, itemsize 0): the same per-axis index mapping as libndpad (api.md), so the results
are numpy >= 2.1's also for pads larger than the axis."""

import numpy as np

__all__ = ["periodic_index", "pad_by_index", "crop_pad_by_index"]


def periodic_index(mode, d, b, e):
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


def pad_by_index(array, widths, mode):
    """reflect/symmetric/wrap by gathering along each axis: any dtype, numpy >= 2.1 results."""
    result = array
    for axis, (b, e) in enumerate(widths):
        if b or e:
            result = np.take(result, periodic_index(mode, array.shape[axis], b, e), axis=axis)
    padded = np.empty(result.shape, dtype=array.dtype, order="F" if array.flags.fnc else "C")
    padded[...] = result
    return padded


def crop_pad_by_index(array, pb, pe, mode, value, inter, new_shape):
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
            index.append(periodic_index(mode, d, b, n - b - d))
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
