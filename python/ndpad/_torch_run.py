"""The plain helpers of ndpad.torch's Python side, shared by torch.py (pad, crop_pad) and
_torch_install.py (install()'s Python kernels) and _torch_ops.py (the operators' ctypes
kernel), which import this module; it imports none of them: a pad value's bytes as torch stores them, libndpad on a tensor's memory through
ctypes, and F.pad's pad sequence as per-dimension pads. Needs torch >= 2.4 (torch.py checks
the version before anything imports this)."""

import ctypes

import torch

from . import _lib

_CONSTANT = _lib.MODES["constant"]

_value_cache = {}  # (dtype, type(value), repr(value)) -> pad value bytes


def value_bytes(value, dtype):
    """The bytes torch stores when it fills a `dtype` tensor with `value` (its own
    conversion and overflow errors: fill_ is what constant_pad_nd calls)."""
    # repr, not the value: -0.0 == 0.0 but their bytes differ. NaNs (whose sign repr
    # hides) are never cached.
    cacheable = type(value) in (int, float, bool) and value == value
    key = (dtype, type(value), repr(value)) if cacheable else None
    data = _value_cache.get(key)
    if data is None:
        t = torch.empty((), dtype=dtype).fill_(value)
        data = ctypes.string_at(t.data_ptr(), t.element_size())
        if cacheable and len(_value_cache) < 256:
            _value_cache[key] = data
    return data


def run(x, pads_begin, pads_end, mode, pad_value, threads, memory_format):
    """libndpad: pad `x` (a plain strided CPU tensor) into a new tensor of `memory_format`.
    Negative pads crop; borders come from the whole input (api.md)."""
    shape = x.shape
    new_shape = [d + b + e for d, b, e in zip(shape, pads_begin, pads_end)]
    out = torch.empty(new_shape, dtype=x.dtype, memory_format=memory_format)
    if out.numel() == 0:
        return out
    if x.is_conj() or x.is_neg():
        x = x.resolve_conj().resolve_neg()  # the lazy bits are not in the memory
    problem, keep = _lib.make_problem(mode, x.element_size(), shape, pads_begin, pads_end,
                                      in_strides=x.stride(), out_strides=out.stride(),
                                      pad_value=pad_value if mode == _CONSTANT else None)
    try:
        _lib.run(problem, x.data_ptr(), out.data_ptr(), threads)
    except _lib.NdpadValueError as exc:
        raise RuntimeError("ndpad.torch.pad: %s" % exc.message) from None
    del keep
    return out


def per_dim_pads(pad, ndim):
    """F.pad's pad sequence (pairs, last dimension first) as pads_begin, pads_end per
    dimension, with F.pad's errors."""
    try:
        pad = [int(p) if isinstance(p, int) or hasattr(p, "__index__") else p for p in pad]
    except TypeError:
        raise TypeError("pad(): argument 'pad' must be a tuple of ints, not %s"
                        % type(pad).__name__) from None
    if any(not isinstance(p, int) for p in pad):
        raise TypeError("pad(): argument 'pad' must be a tuple of ints, but found element "
                        "of type %s" % type(next(p for p in pad
                                                 if not isinstance(p, int))).__name__)
    if any(not -2**63 <= p < 2**63 for p in pad):
        raise TypeError("pad(): argument 'pad' must be a tuple of ints, but %d does not fit "
                        "in int64" % next(p for p in pad if not -2**63 <= p < 2**63))
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > ndim:
        raise RuntimeError("Padding length too large: %d pads for %d dimensions"
                           % (len(pad), ndim))
    pads_begin = [0] * ndim
    pads_end = [0] * ndim
    for i in range(len(pad) // 2):
        pads_begin[ndim - 1 - i] = pad[2 * i]
        pads_end[ndim - 1 - i] = pad[2 * i + 1]
    return pads_begin, pads_end
