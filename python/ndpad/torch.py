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

import torch

from ._torch_version import MIN_TORCH  # noqa: F401 (raises ImportError below torch 2.4, first)
from . import _lib
from ._args import threads_arg
from . import _torch_ops as _ops
from ._torch_run import per_dim_pads, run, value_bytes  # noqa: F401 (also this module's)
from ._torch_install import backend, install, installed, uninstall  # noqa: F401
from ._torch_native import build as build_native  # noqa: F401
from ._torch_native import loaded as _native_loaded
from ._torch_native import status as native_status  # noqa: F401

__all__ = ["pad", "crop_pad", "install", "uninstall", "installed", "backend", "native_status",
           "build_native", "MODES"]

MODES = _ops.MODES
_pad_op = torch.ops.ndpad.pad.default  # the overload itself: no lookup per call
_suggest_memory_format = _ops.suggest_memory_format
native_ok = _ops.native_ok


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
        dtype as torch's fill_ converts it (with its overflow errors). Beyond F.pad: a 1-D
        tensor of one value per channel of the output (dimension 1, NCHW or channels_last),
        e.g. a normalisation's mean, converted to the input's dtype; the operator is then
        torch.ops.ndpad.pad_channels, whose gradient reaches the values too:
            ndpad.torch.pad(x, (1, 1, 1, 1), value=torch.tensor([0.485, 0.456, 0.406]))
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
    if type(pad) is not tuple and type(pad) is not list or \
            not all(type(p) is int and -2**63 <= p < 2**63 for p in pad):
        per_dim_pads(pad, input.dim())  # F.pad's TypeErrors for what is not int64s
        pad = [int(p) for p in pad]
    if mode == "constant" and isinstance(value, torch.Tensor) and value.dim() >= 1 and \
            value.numel() > 1:
        # beyond F.pad: one value per channel (dimension 1), ndpad::pad_channels (any
        # device: a gather with torch operations off the CPU)
        per_dim_pads(pad, input.dim())  # F.pad's errors for a pad list of the wrong length
        return torch.ops.ndpad.pad_channels(
            input, [int(p) for p in pad], value, None if threads is None else threads_arg(threads))
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
    return _pad_op(input, pad, mode, value, threads)  # its kernel checks the lengths


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


# The native kernels, if already built (never compiled here: install() does), are loaded
# now, so that ndpad::pad's C++ CPU kernel is registered before anything pads (torch's
# dispatcher must not gain kernels while other threads dispatch the operator).
_native_loaded()
