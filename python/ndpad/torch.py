"""ndpad.torch: torch.nn.functional.pad over libndpad, with autograd, and a drop-in for
torch's own CPU padding operators.

    import torch, ndpad.torch
    y = ndpad.torch.pad(x, (1, 1, 1, 1), "reflect")    # F.pad's call, result and gradient
    y = ndpad.torch.pad(x, (2, 3), "symmetric")         # a mode torch lacks
    ndpad.torch.install()      # F.pad, nn.ReflectionPad2d, Conv2d(padding_mode="reflect") ...
    ndpad.torch.uninstall()    # ... run through ndpad until this

pad() and crop_pad() are the operators torch.ops.ndpad.pad and torch.ops.ndpad.crop_pad
(_torch_ops.py: schema, fake kernel, autograd), so torch.compile(fullgraph=True),
torch.export and torch.library.opcheck take them. Their CPU kernel runs libndpad on the
tensors' own memory (data_ptr and strides), on torch's intra-op pool when the native
kernels are loaded (_torch_native.cpp, compiled against the installed torch at first
use), else through ctypes with the GIL released. install() and uninstall() are in
_torch_install.py, the gradient in _torch_grad.py. Needs torch >= 2.4.
"""

import ctypes

import torch

MIN_TORCH = (2, 4)


def _version(text):
    parts = []
    for piece in text.split("+")[0].split(".")[:2]:
        digits = "".join(c for c in piece if c.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


if _version(torch.__version__) < MIN_TORCH:
    raise ImportError("ndpad.torch needs torch >= %d.%d (torch.library.register_fake, "
                      "register_autograd); this is torch %s" % (MIN_TORCH + (torch.__version__,)))

from . import _lib
from ._args import threads_arg
from . import _torch_ops as _ops

__all__ = ["pad", "crop_pad", "install", "uninstall", "installed", "backend", "native_status",
           "build_native", "MODES"]

MODES = _ops.MODES
_CONSTANT = MODES["constant"]
_suggest_memory_format = _ops.suggest_memory_format
native_ok = _ops.native_ok


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


def pad(input, pad, mode="constant", value=None, *, threads=None):
    """torch.nn.functional.pad's call and result, computed by libndpad.

    input: a tensor of any dtype torch has on the CPU (bool, integers, float16, bfloat16,
        float32/64, complex), any rank up to 32, any strides. Tensors libndpad cannot read
        (other devices, sparse, quantized) go to F.pad.
    pad: (begin, end) pairs, last dimension first, for up to every dimension; negative
        values crop.
    mode: "constant", "reflect", "replicate", "circular" (as F.pad) or "symmetric" (the
        border mirrored with its edge element: numpy's "symmetric").
    value: the fill of mode "constant" (default 0), a float as in F.pad, converted to the
        dtype as torch's fill_ converts it (with its overflow errors).
    threads: keyword-only; libndpad threads, default torch.get_num_threads().

    Where torch refuses, this does not: every mode on every dimension of any rank and
    dtype, and pads larger than the dimension (reflect, symmetric and circular repeat the
    pattern, as numpy >= 2.1 does; torch needs reflect pads < size and circular pads <=
    size). "circular" crops first and wraps the cropped tensor, as torch does; the other
    modes take their borders from the whole input, as torch does. The result is a new
    tensor laid out as F.pad lays it out (constant keeps channels_last, and so do
    reflect and replicate in torch 2; circular and symmetric are contiguous). The
    gradient sums over the positions each element was copied to.

    This is the operator torch.ops.ndpad.pad (schema, fake kernel, autograd registered
    with it): torch.compile(fullgraph=True) and torch.export keep it as one opaque call."""
    if not isinstance(input, torch.Tensor):
        raise TypeError("pad(): argument 'input' (position 1) must be Tensor, not %s"
                        % type(input).__name__)
    if type(input) is not torch.Tensor and torch.overrides.has_torch_function((input,)):
        # A tensor subclass with __torch_function__ sees this function (the module-level
        # `pad`: the argument shadows it here), as F.pad would hand it F.pad.
        return torch.overrides.handle_torch_function(
            globals()["pad"], (input,), input, pad, mode=mode, value=value, threads=threads)
    if not isinstance(mode, str):
        raise TypeError("pad(): argument 'mode' (position 3) must be str, not %s"
                        % type(mode).__name__)
    if mode not in MODES:
        raise NotImplementedError("Unrecognised padding mode %s" % (mode,))
    if mode != "constant" and value is not None:
        raise RuntimeError('Padding mode "%s" doesn\'t take in value argument' % mode)
    pads_begin, pads_end = per_dim_pads(pad, input.dim())
    if not native_ok(input):
        # Another device, sparse, quantized, or more than 32 dimensions: torch's own F.pad.
        if mode == "symmetric":
            raise RuntimeError("ndpad.torch.pad: mode 'symmetric' needs a strided CPU tensor "
                               "of at most %d dimensions" % _lib.MAX_RANK)
        return torch.nn.functional.pad(input, pad, mode, value)
    if threads is not None:
        threads = threads_arg(threads)
    if mode == "constant" and value is not None:
        # F.pad takes a float (its schema: float? value) and fills with it.
        if isinstance(value, (complex, str, bytes)) or \
                isinstance(value, torch.Tensor) and value.is_complex():
            raise TypeError("pad(): argument 'value' (position 4) must be float, not %s"
                            % type(value).__name__)
        value = float(value)
    return torch.ops.ndpad.pad(input, [int(p) for p in pad], mode, value, threads)


def crop_pad(input, pads_begin, pads_end, mode="constant", value=0.0, *, threads=None):
    """The crop form (OpenVINO Pad-12, ndpad.crop_pad): one (begin, end) per dimension,
    first dimension first; negative pads crop; borders come from the whole input in every
    mode, "circular" included (numpy's "wrap"). Modes and value as pad(); the operator is
    torch.ops.ndpad.crop_pad, with the same autograd, fake kernel and compile support."""
    if not isinstance(input, torch.Tensor):
        raise TypeError("crop_pad(): argument 'input' must be Tensor, not %s"
                        % type(input).__name__)
    if mode not in MODES:
        raise NotImplementedError("Unrecognised padding mode %s" % (mode,))
    pads_begin = [int(p) for p in pads_begin]
    pads_end = [int(p) for p in pads_end]
    if len(pads_begin) != input.dim() or len(pads_end) != input.dim():
        raise RuntimeError("crop_pad(): %d pads_begin and %d pads_end for %d dimensions"
                           % (len(pads_begin), len(pads_end), input.dim()))
    if threads is not None:
        threads = threads_arg(threads)
    return torch.ops.ndpad.crop_pad(input, pads_begin, pads_end, mode, float(value), threads)


from ._torch_install import backend, install, installed, uninstall  # noqa: E402 (uses run)
from ._torch_native import build as build_native  # noqa: E402
from ._torch_native import status as native_status  # noqa: E402
