"""The torch 2 operators of ndpad.torch, declared to the dispatcher with a schema, a fake
kernel and an autograd formula, so that torch.compile, torch.export and
torch.library.opcheck see them as operators:

    ndpad::pad(Tensor input, SymInt[] pad, str mode="constant", float? value=None,
               int? threads=None) -> Tensor
        torch.nn.functional.pad's call (pairs from the last dimension on, negative pads
        crop; "circular" crops first and wraps the cropped tensor, as torch does), plus
        mode "symmetric", any dimension of any rank, pads larger than the dimension.
    ndpad::crop_pad(Tensor input, SymInt[] pads_begin, SymInt[] pads_end,
                    str mode="constant", float value=0., int? threads=None) -> Tensor
        the crop form (OpenVINO Pad-12, api.md): one (begin, end) per dimension, first
        dimension first; negative pads crop; borders come from the whole input in every
        mode ("circular" is numpy's "wrap" of the whole input).
    ndpad::pad_channels(Tensor input, SymInt[] pad, Tensor values, int? threads=None)
        -> Tensor
        mode "constant" with one value per channel (dimension 1, NCHW or channels_last):
        values[c] for the output's channel c (libndpad's ndpad_pad_per_index); beyond
        F.pad, whose value is one float. Its gradient reaches the values too.
    ndpad::pad_backward(Tensor grad, SymInt[] input_shape, SymInt[] pads_begin,
                        SymInt[] pads_end, str mode, bool crop_first) -> Tensor
        the gradient of both: the adjoint of the index map (each input element gets the
        sum of the gradient over the positions it was copied to). Its own gradient is the
        pad again (ndpad::crop_pad, or ndpad::pad for circular), so double backward runs
        through the same operators.

Kernels: CPU runs libndpad: the C++ kernels of libndpad_torch.so (registered at the CPU
key when it is loaded, on torch's intra-op pool, no Python per call), else the
CompositeExplicitAutograd kernel below through ctypes; every other device (the same
CompositeExplicitAutograd kernel) a gather with torch operations. The fake kernel
allocates what the CPU kernel returns (shape, dtype and memory format), from the same
function (the native CPU kernel follows compute() step by step)."""

import torch

from . import _lib
from . import _torch_grad
from ._torch_run import value_bytes

__all__ = ["MODES", "output_format", "compute", "crop_first_of"]

# torch's mode names -> libndpad's modes ("replicate" is EDGE, "circular" WRAP).
MODES = {"constant": _lib.MODES["constant"], "reflect": _lib.MODES["reflect"],
         "replicate": _lib.MODES["edge"], "circular": _lib.MODES["wrap"],
         "symmetric": _lib.MODES["symmetric"]}

try:
    from torch._prims_common import suggest_memory_format as _torch_suggest
except ImportError:  # pragma: no cover - a torch without the Python port of it
    _torch_suggest = None


def suggest_memory_format(x):
    """at::suggest_memory_format: the layout torch's padding kernels give their output."""
    if x.dim() not in (4, 5):
        return torch.contiguous_format
    if _torch_suggest is not None:
        return _torch_suggest(x)
    fmt = torch.channels_last if x.dim() == 4 else torch.channels_last_3d
    if x.is_contiguous(memory_format=fmt) and not x.is_contiguous():
        return fmt
    return torch.contiguous_format


def _probe_keeps_channels_last():
    """{(kind, n, ndim): bool}: does torch's reflection/replication_pad{n}d give a
    channels_last output for a channels_last input of `ndim` dimensions? (torch 1.13 does
    not, torch 2 does: asked of the installed torch once, on tiny tensors.)"""
    keeps = {}
    for kind in ("reflection", "replication"):
        for n in (1, 2, 3):
            for ndim in (4, 5):
                if ndim not in (n + 1, n + 2):
                    continue
                fmt = torch.channels_last if ndim == 4 else torch.channels_last_3d
                x = torch.zeros((1, 2) + (2,) * (ndim - 2)).contiguous(memory_format=fmt)
                try:
                    op = getattr(torch.ops.aten, "%s_pad%dd" % (kind, n)).out
                    y = torch.empty(0)
                    op(x, [0] * (2 * n), out=y)
                    keeps[kind, n, ndim] = y.is_contiguous(memory_format=fmt) and \
                        not y.is_contiguous()
                except RuntimeError:
                    keeps[kind, n, ndim] = False
    return keeps


KEEPS_CHANNELS_LAST = _probe_keeps_channels_last()


def output_format(x, mode, pairs):
    """The memory format of F.pad's result: constant_pad_nd keeps suggest_memory_format;
    reflection/replication_pad{n}d too in torch 2 (KEEPS_CHANNELS_LAST); the rest
    (circular, and what torch's kernels do not take) is contiguous. `pairs`:
    the number of (begin, end) pairs of F.pad's list, None for the crop form."""
    if mode == "constant":
        return suggest_memory_format(x)
    if mode in ("reflect", "replicate", "symmetric") and pairs is not None and \
            KEEPS_CHANNELS_LAST.get(("replication" if mode == "replicate" else "reflection",
                                     pairs, x.dim())):
        return suggest_memory_format(x)  # symmetric: laid out as reflect (no torch twin)
    return torch.contiguous_format


def per_dim(pad, ndim):
    """F.pad's pad list (pairs, last dimension first) as per-dimension begin and end."""
    pads_begin = [0] * ndim
    pads_end = [0] * ndim
    for i in range(len(pad) // 2):
        pads_begin[ndim - 1 - i] = pad[2 * i]
        pads_end[ndim - 1 - i] = pad[2 * i + 1]
    return pads_begin, pads_end


def flat_pad(pads_begin, pads_end):
    """The inverse of per_dim: F.pad's list for every dimension."""
    out = []
    for b, e in zip(reversed(list(pads_begin)), reversed(list(pads_end))):
        out += [b, e]
    return out


def crop_first_of(mode):
    return mode == "circular"


def check(shape, pads_begin, pads_end, mode, crop_first):
    """The errors of a pad (negative sizes, nothing left to wrap, an unknown mode)."""
    if mode not in MODES:
        raise NotImplementedError("Unrecognised padding mode %s" % (mode,))
    if len(pads_begin) != len(shape) or len(pads_end) != len(shape):
        raise RuntimeError("ndpad.torch: %d pads_begin and %d pads_end for %d dimensions"
                           % (len(pads_begin), len(pads_end), len(shape)))
    for k, (d, b, e) in enumerate(zip(shape, pads_begin, pads_end)):
        if d + b + e < 0 or crop_first and d + min(b, 0) + min(e, 0) < 0:
            raise RuntimeError("ndpad.torch.pad: pad (%d, %d) on dimension %d of size %d "
                               "gives a negative size" % (b, e, k, d))
        if crop_first and d + min(b, 0) + min(e, 0) == 0 and d + b + e > 0:
            raise RuntimeError("ndpad.torch.pad: circular pad (%d, %d) on dimension %d of "
                               "size %d crops all of it and has nothing to wrap"
                               % (b, e, k, d))
        if d == 0 and mode != "constant" and d + b + e > 0:
            raise RuntimeError("ndpad.torch.pad: mode %s on dimension %d of size 0 has "
                               "nothing to copy its borders from" % (mode, k))


def native_ok(x):
    """Can libndpad read this tensor's memory directly?"""
    return (x.device.type == "cpu" and x.layout == torch.strided and not x.is_quantized
            and x.dtype is not torch.complex32 and x.dim() <= _lib.MAX_RANK)


def compute(x, pads_begin, pads_end, mode, crop_first, value, threads, fmt, kernel):
    """The pad, in the order every kernel takes it: only crops of a constant pad are a
    clone of the narrowed input (torch's constant_pad_nd); circular crops first; the rest
    is `kernel(x, pads_begin, pads_end, mode, value, threads, out)` into a new tensor of
    `fmt`. kernel=None: the fake kernel (allocation only)."""
    pads_begin = list(pads_begin)
    pads_end = list(pads_end)
    if mode == "constant" and all(p <= 0 for p in pads_begin) and \
            all(p <= 0 for p in pads_end):
        for k, (b, e) in enumerate(zip(pads_begin, pads_end)):
            if b or e:
                x = x.narrow(k, -b, x.shape[k] + b + e)
        return x.clone()
    if crop_first:
        for k, (b, e) in enumerate(zip(pads_begin, pads_end)):
            if b < 0 or e < 0:
                x = x.narrow(k, max(-b, 0), x.shape[k] + min(b, 0) + min(e, 0))
        pads_begin = [max(b, 0) for b in pads_begin]
        pads_end = [max(e, 0) for e in pads_end]
    shape = [d + b + e for d, b, e in zip(x.shape, pads_begin, pads_end)]
    out = torch.empty(shape, dtype=x.dtype, device=x.device, memory_format=fmt)
    if kernel is not None and out.numel():
        if fmt != suggest_memory_format(x) and x.dim() in (4, 5) and not \
                x.is_contiguous(memory_format=fmt) and x.numel() >= 4096:
            # A pad that transposes (channels_last in, contiguous out: circular, as torch
            # lays it out) is a strided gather for libndpad; torch's blocked transpose of
            # the input first, then a pad that keeps the layout, is faster (and is what
            # torch's own circular padding does).
            x = x.contiguous(memory_format=fmt)
        kernel(x, pads_begin, pads_end, mode, value, threads, out)
    return out


def _ctypes_kernel(x, pads_begin, pads_end, mode, value, threads, out):
    """libndpad through ctypes, on the tensors' own memory, GIL released."""
    if x.is_conj() or x.is_neg():
        x = x.resolve_conj().resolve_neg()  # the lazy bits are not in the memory
    constant = mode == "constant"
    problem, keep = _lib.make_problem(
        MODES[mode], x.element_size(), x.shape, pads_begin, pads_end, in_strides=x.stride(),
        out_strides=out.stride(),
        pad_value=value_bytes(0.0 if value is None else value, x.dtype) if constant else None)
    try:
        _lib.run(problem, x.data_ptr(), out.data_ptr(),
                 torch.get_num_threads() if threads is None else threads)
    except _lib.NdpadValueError as exc:
        raise RuntimeError("ndpad.torch.pad: %s" % exc.message) from None
    del keep


def _gather_kernel(x, pads_begin, pads_end, mode, value, threads, out):
    """Any other device: a gather of the index map with torch operations."""
    del threads
    y = x
    mask = None
    for k, (d, b, e) in enumerate(zip(x.shape, pads_begin, pads_end)):
        if b == 0 and e == 0:
            continue
        j = torch.arange(d + b + e, device=x.device) - b
        src = _torch_grad.source(MODES[mode], d, j)
        if mode == "constant":
            valid = src >= 0
            shape = [1] * x.dim()
            shape[k] = -1
            mask = valid.view(shape) if mask is None else mask & valid.view(shape)
            src = src.clamp(min=0)
        y = y.index_select(k, src) if d else y.new_empty(
            [n if i != k else d + b + e for i, n in enumerate(y.shape)])
    if mask is not None:
        fill = torch.zeros((), dtype=x.dtype, device=x.device).fill_(
            0.0 if value is None else value)
        y = torch.where(mask, y, fill)
    out.copy_(y)


def _kernel_for(x):
    if native_ok(x):
        return _ctypes_kernel
    return _gather_kernel


# -- the operators -------------------------------------------------------------------------

_lib_def = torch.library.Library("ndpad", "FRAGMENT")
_lib_def.define("pad(Tensor input, SymInt[] pad, str mode=\"constant\", float? value=None, "
                "int? threads=None) -> Tensor")
_lib_def.define("crop_pad(Tensor input, SymInt[] pads_begin, SymInt[] pads_end, "
                "str mode=\"constant\", float value=0., int? threads=None) -> Tensor")
_lib_def.define("pad_channels(Tensor input, SymInt[] pad, Tensor values, int? threads=None) "
                "-> Tensor")
_lib_def.define("pad_backward(Tensor grad, SymInt[] input_shape, SymInt[] pads_begin, "
                "SymInt[] pads_end, str mode, bool crop_first) -> Tensor")


def _pad_args(input, pad, mode):
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length too large: %d pads for %d dimensions"
                           % (len(pad), input.dim()))
    pads_begin, pads_end = per_dim(pad, input.dim())
    crop_first = crop_first_of(mode)
    check(input.shape, pads_begin, pads_end, mode, crop_first)
    return pads_begin, pads_end, crop_first


def _pad(input, pad, mode="constant", value=None, threads=None, fake=False):
    pads_begin, pads_end, crop_first = _pad_args(input, pad, mode)
    if mode != "constant" and value is not None:
        raise RuntimeError('Padding mode "%s" doesn\'t take in value argument' % mode)
    return compute(input, pads_begin, pads_end, mode, crop_first, value, threads,
                   output_format(input, mode, len(pad) // 2),
                   None if fake else _kernel_for(input))


def _crop_pad(input, pads_begin, pads_end, mode="constant", value=0.0, threads=None,
              fake=False):
    check(input.shape, pads_begin, pads_end, mode, False)
    return compute(input, pads_begin, pads_end, mode, False, value, threads,
                   output_format(input, mode, None), None if fake else _kernel_for(input))


def _pad_backward(grad, input_shape, pads_begin, pads_end, mode, crop_first, fake=False):
    if fake:
        return grad.new_empty(list(input_shape))
    maps = _torch_grad.index_maps(input_shape, pads_begin, pads_end, MODES[mode], crop_first)
    g = _torch_grad.pad_backward(grad, input_shape, maps)
    if g is grad or not g.is_contiguous():
        g = g.clone(memory_format=torch.contiguous_format)  # never an alias of `grad`
    return g


# -- ndpad::pad_channels: mode constant with one value per index of dimension 1 (channels,
# NCHW or channels_last alike), values[c] for the output's channel c: libndpad's
# ndpad_pad_per_index --------------------------------------------------------------------

def _check_channels(input, pads_begin, pads_end, values):
    if input.dim() < 2:
        raise RuntimeError("ndpad.torch.pad: a value per channel needs a tensor of at least 2 "
                           "dimensions (channels are dimension 1), got %d" % input.dim())
    channels = input.shape[1] + pads_begin[1] + pads_end[1]
    if values.dim() != 1 or values.shape[0] != channels:
        raise RuntimeError("ndpad.torch.pad: value must hold one value per channel of the "
                           "output (%d), got a tensor of shape %s"
                           % (channels, tuple(values.shape)))
    if values.is_complex() and not input.is_complex():
        raise RuntimeError("ndpad.torch.pad: complex values for a %s tensor" % input.dtype)


def _channels_ctypes_kernel(x, pads_begin, pads_end, mode, values, threads, out):
    """ndpad_pad_per_index through ctypes on the tensors' memory, GIL released."""
    import ctypes
    if x.is_conj() or x.is_neg():
        x = x.resolve_conj().resolve_neg()
    v = values.detach().to(device="cpu", dtype=x.dtype).resolve_conj().resolve_neg() \
        .contiguous()
    data = ctypes.string_at(v.data_ptr(), v.numel() * v.element_size())
    problem, keep = _lib.make_problem(MODES["constant"], x.element_size(), x.shape, pads_begin,
                                      pads_end, in_strides=x.stride(), out_strides=out.stride())
    try:
        _lib.run_per_index(problem, 1, data, x.data_ptr(), out.data_ptr(),
                           torch.get_num_threads() if threads is None else threads)
    except _lib.NdpadValueError as exc:
        raise RuntimeError("ndpad.torch.pad: %s" % exc.message) from None
    del keep


def _interior(shape, pads_begin, pads_end):
    """The output's slices holding input elements, and the input's slices they hold."""
    out_sl, in_sl = [], []
    for d, b, e in zip(shape, pads_begin, pads_end):
        lo, hi = max(-b, 0), d - max(-e, 0)
        hi = max(hi, lo)
        in_sl.append(slice(lo, hi))
        out_sl.append(slice(lo + b, hi + b))
    return tuple(out_sl), tuple(in_sl)


def _channels_gather_kernel(x, pads_begin, pads_end, mode, values, threads, out):
    """Any other device: the values along dimension 1, then the input over its place."""
    del mode, threads
    view = [1] * x.dim()
    view[1] = -1
    out.copy_(values.to(dtype=x.dtype, device=x.device).view(view).expand(out.shape))
    out_sl, in_sl = _interior(x.shape, pads_begin, pads_end)
    out[out_sl] = x[in_sl]


def _pad_channels(input, pad, values, threads=None, fake=False):
    pads_begin, pads_end, _ = _pad_args(input, pad, "constant")
    _check_channels(input, pads_begin, pads_end, values)
    kernel = None
    if not fake:
        kernel = _channels_ctypes_kernel if native_ok(input) and values.device.type == "cpu" \
            else _channels_gather_kernel
    return compute(input, pads_begin, pads_end, "constant", False, values, threads,
                   output_format(input, "constant", len(pad) // 2), kernel)


for _name, _fn in (("pad", _pad), ("crop_pad", _crop_pad), ("pad_channels", _pad_channels),
                   ("pad_backward", _pad_backward)):
    _lib_def.impl(_name, _fn, "CompositeExplicitAutograd")
    torch.library.register_fake("ndpad::" + _name, (lambda fn: lambda *a, **k: fn(
        *a, **k, fake=True))(_fn), lib=_lib_def)


# -- autograd: the adjoint of the index map, whose own gradient is the pad again -------------

def _setup_pad(ctx, inputs, output):
    input, pad, mode = inputs[0], inputs[1], inputs[2]
    ctx.shape = list(input.shape)
    ctx.pads = per_dim(list(pad), input.dim())
    ctx.mode = mode
    ctx.crop_first = crop_first_of(mode)
    ctx.nargs = 5


def _setup_crop_pad(ctx, inputs, output):
    ctx.shape = list(inputs[0].shape)
    ctx.pads = (list(inputs[1]), list(inputs[2]))
    ctx.mode = inputs[3]
    ctx.crop_first = False
    ctx.nargs = 6


def _backward(ctx, grad):
    g = torch.ops.ndpad.pad_backward(grad, ctx.shape, ctx.pads[0], ctx.pads[1], ctx.mode,
                                     ctx.crop_first)
    return (g,) + (None,) * (ctx.nargs - 1)


def _setup_pad_backward(ctx, inputs, output):
    ctx.pads = (list(inputs[2]), list(inputs[3]))
    ctx.mode = inputs[4]
    ctx.crop_first = inputs[5]


def _backward_of_backward(ctx, gg):
    pads_begin, pads_end = ctx.pads
    if ctx.crop_first:
        g = torch.ops.ndpad.pad(gg, flat_pad(pads_begin, pads_end), ctx.mode)
    else:
        g = torch.ops.ndpad.crop_pad(gg, pads_begin, pads_end, ctx.mode, 0.0)
    return (g,) + (None,) * 5


torch.library.register_autograd("ndpad::pad", _backward, setup_context=_setup_pad,
                                lib=_lib_def)
torch.library.register_autograd("ndpad::crop_pad", _backward,
                                setup_context=_setup_crop_pad, lib=_lib_def)
def _setup_pad_channels(ctx, inputs, output):
    input, pad = inputs[0], inputs[1]
    ctx.shape = list(input.shape)
    ctx.pads = per_dim(list(pad), input.dim())


def _backward_channels(ctx, grad):
    """The input's gradient as constant padding's; each value's, the sum of the gradient
    over the pad elements of its channel."""
    g = torch.ops.ndpad.pad_backward(grad, ctx.shape, ctx.pads[0], ctx.pads[1], "constant",
                                     False)
    out_sl, _ = _interior(ctx.shape, ctx.pads[0], ctx.pads[1])
    masked = grad.clone()
    masked[out_sl] = 0
    dims = [k for k in range(grad.dim()) if k != 1]
    return g, None, masked.sum(dim=dims) if dims else masked, None


torch.library.register_autograd("ndpad::pad_channels", _backward_channels,
                                setup_context=_setup_pad_channels, lib=_lib_def)
torch.library.register_autograd("ndpad::pad_backward", _backward_of_backward,
                                setup_context=_setup_pad_backward, lib=_lib_def)
