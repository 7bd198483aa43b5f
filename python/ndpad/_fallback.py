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


# Elements per copy of pad_by_index: the border positions of an axis are copied in groups
# of at most this many elements (or one position), each group's gather a temporary.
_COPY_ELEMENTS = 1 << 20


def pad_by_index(array, widths, mode):
    """reflect/symmetric/wrap by index along each axis: any dtype, numpy >= 2.1 results.

    The result is allocated first, as numpy.pad allocates it (numpy's MemoryError or
    ValueError at once for a result that does not fit); the input is copied into its
    interior, then each axis's border positions are gathered from the part already written
    (their sources lie in the axis's interior), a group of at most _COPY_ELEMENTS elements
    at a time: nothing but the result and one group's temporary is held."""
    shape = array.shape
    new_shape = tuple(d + b + e for d, (b, e) in zip(shape, widths))
    padded = np.empty(new_shape, dtype=array.dtype, order="F" if array.flags.fnc else "C")
    interior = [slice(b, b + d) for d, (b, _) in zip(shape, widths)]
    padded[tuple(interior)] = array
    for axis, (b, e) in enumerate(widths):
        d = shape[axis]
        if not (b or e) or d == 0:
            continue
        # Axes before `axis` are padded already, those after hold the input's extent.
        outer, inner = [slice(None)] * axis, interior[axis + 1:]
        plane = 1
        for k in range(len(shape)):
            if k != axis:
                plane *= new_shape[k] if k < axis else shape[k]
        positions = np.concatenate([np.arange(0, b), np.arange(b + d, b + d + e)])
        sources = b + periodic_index(mode, d, b, e)[positions]
        group = max(1, _COPY_ELEMENTS // max(plane, 1))
        for g in range(0, len(positions), group):
            padded[tuple(outer + [positions[g:g + group]] + inner)] = \
                padded[tuple(outer + [sources[g:g + group]] + inner)]
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
        # The gather in slabs along axis 0 (its temporary at most about _COPY_ELEMENTS)
        rows = new_shape[0] if ndim else 1
        step = max(1, _COPY_ELEMENTS // max(1, result.size // rows))
        for i0 in range(0, rows, step) if ndim else ():
            result[i0:i0 + step] = array[np.ix_(index[0][i0:i0 + step], *index[1:])]
        if not ndim:
            result[...] = array
        mask = np.ones((), dtype=bool)
        for k, v in enumerate(valid):
            mask = mask & v.reshape((-1,) + (1,) * (ndim - 1 - k))
        result[~np.broadcast_to(mask, new_shape)] = value
    else:
        result[...] = value
    return result
