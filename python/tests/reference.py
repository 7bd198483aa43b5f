"""Independent references for the tests: api.md's per-element mapping written out in plain
Python (no code shared with the package), and numpy.pad's constant-mode corner order."""

import itertools

import numpy as np


def source_index(mode, j, d, r=0):
    """api.md: the input index an output position j = o - b looks at, or None (pad value)."""
    if mode == "constant":
        dilated = 0 if d == 0 else (d - 1) * (r + 1) + 1
        if 0 <= j < dilated and j % (r + 1) == 0:
            return j // (r + 1)
        return None
    if mode == "edge":
        return min(max(j, 0), d - 1)
    if mode == "reflect":
        if d == 1:
            return 0
        period = 2 * (d - 1)
        m = j % period  # Python's % is already in [0, period)
        return m if m < d else period - m
    if mode == "symmetric":
        period = 2 * d
        m = j % period
        return m if m < d else period - 1 - m
    if mode == "wrap":
        return j % d
    raise AssertionError(mode)


def crop_pad(array, pads_begin, pads_end, mode="constant", value=0, interior=None):
    """OpenVINO Pad-12 / nGraph Pad by the api.md formula, element by element."""
    array = np.asarray(array)
    ndim = array.ndim
    interior = interior if interior is not None else [0] * ndim
    per_axis = []
    for k in range(ndim):
        d, b, e, r = array.shape[k], pads_begin[k], pads_end[k], interior[k]
        dilated = 0 if d == 0 else (d - 1) * (r + 1) + 1
        n = max(b + dilated + e, 0)
        per_axis.append([source_index(mode, o - b, d, r) for o in range(n)])
    out_shape = tuple(len(p) for p in per_axis)
    fill = np.zeros(1, dtype=array.dtype)
    if mode == "constant":
        fill[:] = value
    result = np.empty(out_shape, dtype=array.dtype)
    for o in itertools.product(*(range(n) for n in out_shape)):
        src = tuple(per_axis[k][o[k]] for k in range(ndim))
        result[o] = fill[0] if any(i is None for i in src) else array[src]
    return result


def pad(array, widths, mode, constant_values=None):
    """numpy >= 2.1's numpy.pad for the native modes with widths [(b, a), ...]:
    the api.md mapping, and for constant values per side and axis numpy's order (axis by
    axis, each axis' slabs spanning the earlier axes' pads, so later axes win corners)."""
    array = np.asarray(array)
    ndim = array.ndim
    if mode != "constant":
        return crop_pad(array, [b for b, _ in widths], [a for _, a in widths], mode)
    if constant_values is None:
        constant_values = [(0, 0)] * ndim
    shape = array.shape
    new_shape = tuple(d + b + a for d, (b, a) in zip(shape, widths))
    result = np.empty(new_shape, dtype=array.dtype)
    for o in itertools.product(*(range(n) for n in new_shape)):
        last = None  # (axis, side) of the last axis on which o lies in a pad
        for k in range(ndim):
            b = widths[k][0]
            if o[k] < b:
                last = (k, 0)
            elif o[k] >= b + shape[k]:
                last = (k, 1)
        if last is None:
            result[o] = array[tuple(o[k] - widths[k][0] for k in range(ndim))]
        else:
            cell = np.zeros(1, dtype=array.dtype)
            cell[:] = constant_values[last[0]][last[1]]
            result[o] = cell[0]
    return result
