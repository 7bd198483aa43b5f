"""numpy.pad's constant_values: the one pad value libndpad fills with, and the slabs
(per axis and side) numpy assigns another value to, with numpy.pad's own casting; libndpad
writes them all in one call (ndpad_pad_sides, numpy's corner rule)."""

import numpy as np

from ._args import as_pairs

__all__ = ["value_bytes", "pad_value_and_slabs", "side_values"]


def value_bytes(value, dtype):
    """The bytes numpy stores when it assigns `value` to a slab of `dtype`."""
    tmp = np.zeros(1, dtype=dtype)
    tmp[:] = value
    return tmp.tobytes()


_ZERO_BYTES = {}  # dtype -> bytes of numpy's default constant value in that dtype


def slab(ndim, axis, side, widths, new_shape):
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


def slab_size(ndim, axis, side, widths, shape, new_shape):
    size = 1
    for k in range(ndim):
        if k < axis:
            size *= new_shape[k]
        elif k == axis:
            size *= widths[k][side]
        else:
            size *= shape[k]
    return size


def pad_value_and_slabs(kwargs, dtype, widths, shape, new_shape):
    """(pad_value bytes or None, [(axis, side, value, bytes), ...] slabs to assign after
    libndpad ran) for numpy.pad's mode "constant" with keyword arguments `kwargs`."""
    ndim = len(shape)
    if "constant_values" not in kwargs:
        # numpy assigns np.intp(0) (from np.array(0)) to every slab.
        pad_value = _ZERO_BYTES.get(dtype)
        if pad_value is None:
            pad_value = _ZERO_BYTES[dtype] = value_bytes(np.array(0).ravel()[0], dtype)
        return pad_value, []
    values = as_pairs(kwargs["constant_values"], ndim)
    seen = []
    converted = {}
    for axis in range(ndim):
        for side in (0, 1):
            v = values[axis][side]
            if slab_size(ndim, axis, side, widths, shape, new_shape) == 0:
                np.empty(0, dtype=dtype)[:] = v  # numpy assigns it too: same errors
                continue
            vb = converted.get(id(v))  # by identity: 0.0 == -0.0 but not in bytes
            if vb is None:
                vb = converted[id(v)] = value_bytes(v, dtype)
            seen.append((axis, side, v, vb))
    if not seen:
        return None, []
    pad_value = seen[0][3]
    if all(s[3] == pad_value for s in seen):
        return pad_value, []
    # Slabs already holding pad_value before any other value is written need nothing; from
    # the first different one on, numpy's order decides the corners.
    first = next(i for i, s in enumerate(seen) if s[3] != pad_value)
    return pad_value, seen[first:]


def side_values(pad_value, slabs, ndim):
    """The bytes of ndpad_pad_sides' 2 * ndim values: pad_value, and each slab's own value
    (numpy's slabs do not overlap, so their order no longer matters)."""
    values = [pad_value] * (2 * ndim)
    for axis, side, _, vb in slabs:
        values[2 * axis + side] = vb
    return b"".join(values)
