"""The call into libndpad for numpy arrays: element strides, addresses, overlap of input and
output (in-place padding), and the one-time probe of the library's in-place borders."""

import numpy as np

from . import _lib

__all__ = ["elem_strides", "out_strides", "address", "run", "inplace_borders_work"]


def elem_strides(arr, like=None):
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


def out_strides(arr):
    """Element strides usable as ndpad output strides (non-zero where extent > 1), or None.
    An empty array has no element to address: any strides do (numpy gives it zeros)."""
    if arr.size == 0:
        return [1] * arr.ndim
    strides = elem_strides(arr)
    if strides is None:
        return None
    if any(s == 0 and n > 1 for s, n in zip(strides, arr.shape)):
        return None
    return strides


def address(arr):
    return arr.__array_interface__["data"][0]


def run(problem_args, array, result, threads):
    """Run one ndpad problem from `array` into `result`.

    problem_args: dict with mode, pads_begin, pads_end and optionally interior, pad_value
    and side_values (bytes of a value per axis and side: ndpad_pad_sides), or index_values
    with index_axis (bytes of a value per output index of that axis: ndpad_pad_per_index).
    `result` must have representable strides. Handles overlap of `array` and `result`: exact
    in-place padding goes through (ndpad recognises it), any other overlap copies the input."""
    if result.size == 0:
        return  # the problem was validated by the caller (numpy's rules or ndpad's)
    ostrides = out_strides(result)
    assert ostrides is not None
    itemsize = array.itemsize
    in_strides = elem_strides(array, like=ostrides)
    if in_strides is None:
        array = np.ascontiguousarray(array)
        in_strides = elem_strides(array, like=ostrides)
    out_ptr = address(result)
    if result.size and array.size and np.may_share_memory(array, result):
        pb, pe = problem_args["pads_begin"], problem_args["pads_end"]
        interior = problem_args.get("interior")
        offset = sum(b * s for b, s in zip(pb, ostrides)) * itemsize
        in_place = (min(pb, default=0) >= 0 and min(pe, default=0) >= 0 and
                    not any(interior or ()) and in_strides == ostrides and
                    address(array) == out_ptr + offset and
                    (problem_args["mode"] == 0 or inplace_borders_work()))
        if not in_place:
            array = array.copy()
            in_strides = elem_strides(array, like=ostrides)
    problem, keep = _lib.make_problem(
        problem_args["mode"], itemsize, array.shape, problem_args["pads_begin"],
        problem_args["pads_end"], interior=problem_args.get("interior"),
        in_strides=in_strides, out_strides=ostrides,
        pad_value=problem_args.get("pad_value"))
    side_values = problem_args.get("side_values")
    if problem_args.get("index_values") is not None:
        _lib.run_per_index(problem, problem_args["index_axis"], problem_args["index_values"],
                           address(array), out_ptr, threads)
    elif side_values is not None:
        _lib.run_sides(problem, side_values, address(array), out_ptr, threads)
    else:
        _lib.run(problem, address(array), out_ptr, threads)
    del keep


_inplace_ok = None  # the probe's answer; tests set it to False to force copy-first


def inplace_borders_work():
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
        _lib.run(problem, address(out) + 6 * 4, address(out), 1)
        del keep
        _inplace_ok = out.tolist() == [[1, 1, 2, 3, 3], [1, 1, 2, 3, 3],
                                       [4, 4, 5, 6, 6], [4, 4, 5, 6, 6]]
    return _inplace_ok
