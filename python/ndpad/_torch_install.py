"""ndpad.torch.install(): torch's own CPU padding operators run through libndpad.

Two implementations of the same routing: the native kernels (_torch_native.cpp, loaded by
_torch_native.py: C++ kernels registered with the dispatcher, no Python per call, torch's
own kernel called directly below the threshold), used when built, and the Python kernels
below (torch.library.Library("aten", "IMPL")), used otherwise or with install(native=False).

Routed (for the rest of the process or until uninstall()), for plain strided CPU tensors
whose output has at least `threshold` elements:
  * constant_pad_nd (F.pad "constant", nn.ConstantPadNd, nn.ZeroPad2d) at the CPU key;
  * reflection_pad1d/2d/3d, replication_pad1d/2d/3d (F.pad "reflect"/"replicate",
    nn.ReflectionPadNd, nn.ReplicationPadNd, nn.ConvNd(padding_mode="reflect"/"replicate"))
    at the CPU key: torch's autograd still records its own backward (the *_backward
    operators, not routed), so gradients are torch's own, bit for bit;
  * _pad_circular (F.pad "circular", ConvNd(padding_mode="circular")): a composite operator
    in torch 1.13, so it is taken over at the AutogradCPU key, with ndpad's gradient.
Everything else keeps torch's own path: other devices, quantized and sparse tensors, the
backward operators, and every call torch would refuse (wrong rank, pads too large, dtypes
torch's kernel lacks), so errors stay torch's. Below the threshold torch's own kernel runs:
the `.out` variant of the reflection/replication operators (a separate registration), the
same steps as torch's constant_pad_nd (empty, fill_, copy_), torch's circular decomposition.
Conv2d's own zero padding (padding_mode="zeros") is inside the convolution: not routed.
The native kernels also take _pad_circular at the CPU key (inference mode skips
AutogradCPU), and below the threshold call torch's kernels directly (at::cpu::
reflection_pad2d(), at::native::constant_pad_nd(), at::native::_pad_circular()), whose
autograd is then torch's own."""

import os
import threading
import warnings

import torch

from . import _torch_native
from . import _torch_ops as _ops
from . import _torch_run as _run
from ._lib import MAX_RANK
from ._torch_grad import index_maps, pad_backward

__all__ = ["install", "uninstall", "installed", "backend", "THRESHOLD", "PYTHON_THRESHOLD"]

# Output elements below which torch's own kernel is kept (python/bench/bench_torch.py measures the
# crossing): the native kernels' per-call cost is a plan-cache lookup, repaid from a few
# hundred elements (reflect at 1 thread, loaded machine: 0.9x at 100 elements, 1.2x at 324,
# 1.5x at 1296), so 1024 leaves a margin; the Python kernels' cost (Python argument checks,
# ctypes) is not repaid below about 16k elements.
THRESHOLD = 1024
PYTHON_THRESHOLD = 16384

_state = {"library": None, "native": None, "active": False, "threshold": THRESHOLD}
_lock = threading.Lock()
# Held across fork() (an install in progress ends first), released on both sides.
if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_lock.acquire, after_in_parent=_lock.release,
                        after_in_child=_lock.release)
_AUTOGRAD_CPU = torch._C.DispatchKey.AutogradCPU


def installed():
    """Is ndpad routing torch's padding operators now?"""
    return backend() is not None


def backend():
    """"native" (the C++ kernels), "python" (the Python kernels), or None (not installed)."""
    if not _state["active"]:
        return None
    return "native" if _state["native"] is not None else "python"


def registered():
    """Which kernels this process registered with torch's dispatcher ("native", "python"
    or None): the first install() registers them for good, later calls switch a flag."""
    if _state["native"] is not None:
        return "native"
    return "python" if _state["library"] is not None else None


def install(threshold=None, *, native=None):
    """Route torch's CPU padding operators (constant_pad_nd, reflection_pad1d/2d/3d,
    replication_pad1d/2d/3d, _pad_circular: what F.pad, the nn padding modules and
    ConvNd(padding_mode=...) dispatch to) through ndpad until uninstall().

    threshold: output elements below which torch's own kernel is kept (default THRESHOLD
        for the native kernels, PYTHON_THRESHOLD for the Python ones, measured by
        python/bench/bench_torch.py). Calling install() again only changes it.
    native: None (default) the native kernels when they can be had (built at first use
        against this torch; ndpad.torch.native_status() says which), else the Python
        ones; True the native kernels or RuntimeError; False the Python kernels.

    Thread safety: torch's dispatcher does not allow kernels to be added or removed while
    other threads dispatch, so the FIRST install() of a process registers the kernels, for
    good, and must not run while other threads pad; from then on install() and uninstall()
    only switch a flag and may be called from any thread at any time. One implementation
    per process: asking for the other one after the first install() is a RuntimeError.
    Results are torch's exactly (values, shape, memory format, errors, gradients)."""
    with _lock:
        have = registered()
        if have is None:
            ops = None
            if native is not False:
                ops = _torch_native.load()
                if ops is None and native:
                    raise RuntimeError("ndpad.torch.install(native=True): %s"
                                       % _torch_native.status())
            kind = "native" if ops is not None else "python"
        else:
            kind = have
            if native is not None and native != (kind == "native"):
                raise RuntimeError(
                    "ndpad.torch.install(native=%s): this process registered the %s kernels "
                    "(the first install() registers them for good: torch's dispatcher cannot "
                    "drop kernels safely); run another process (NDPAD_TORCH_NATIVE=0 selects "
                    "the Python kernels)" % (native, kind))
        if threshold is None:
            threshold = THRESHOLD if kind == "native" else PYTHON_THRESHOLD
        _state["threshold"] = int(threshold)
        if kind == "native":
            ops = _state["native"] or _torch_native.load()
            ops.install(_torch_native.function_addresses(), _state["threshold"])
            _state["native"] = ops
        elif _state["library"] is None:
            lib = torch.library.Library("aten", "IMPL")
            with warnings.catch_warnings():
                # "Overriding a previously registered kernel": that is the point.
                warnings.simplefilter("ignore", UserWarning)
                lib.impl("constant_pad_nd", _constant_pad_nd, "CPU")
                for n in (1, 2, 3):
                    lib.impl("reflection_pad%dd" % n, _BorderKernel("reflection", n), "CPU")
                    lib.impl("replication_pad%dd" % n, _BorderKernel("replication", n), "CPU")
                lib.impl("_pad_circular", _pad_circular, "AutogradCPU")
            _state["library"] = lib
        _state["active"] = True


def uninstall():
    """Give torch its own padding kernels back: ndpad's stay registered (see install())
    and call torch's own from now on, so this is safe while other threads pad."""
    with _lock:
        _state["active"] = False
        if _state["native"] is not None:
            _state["native"].uninstall()


def _routable(x):
    return _state["active"] and _ops.native_ok(x) and x.dim() <= MAX_RANK


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


# -- constant_pad_nd -----------------------------------------------------------------------

def _constant_pad_nd(self, pad, value=0):
    pad = list(pad)
    ndim = self.dim()
    if _routable(self) and len(pad) % 2 == 0 and len(pad) // 2 <= ndim and \
            any(p > 0 for p in pad):
        pads_begin, pads_end = _run.per_dim_pads(pad, ndim)
        new_shape = [d + b + e for d, b, e in zip(self.shape, pads_begin, pads_end)]
        if all(n > 0 for n in new_shape) and \
                all(-b <= d and -e <= d for d, b, e in zip(self.shape, pads_begin, pads_end)) \
                and _numel(new_shape) >= _state["threshold"]:
            return _run.run(self, pads_begin, pads_end, _ops.MODES["constant"],
                            _run.value_bytes(value, self.dtype), torch.get_num_threads(),
                            _ops.suggest_memory_format(self))
    return _torch_constant_pad_nd(self, pad, value)


def _torch_constant_pad_nd(self, pad, value):
    """torch 1.13's constant_pad_nd (aten/src/ATen/native/PadNd.cpp), step by step with
    operators install() leaves alone: same result, layout and errors."""
    if len(pad) % 2:
        raise RuntimeError("Length of pad must be even but instead it equals %d" % len(pad))
    sizes = list(self.shape)
    l_inp = self.dim()
    l_pad = len(pad) // 2
    l_diff = l_inp - l_pad
    if l_inp < l_pad:
        raise RuntimeError("Length of pad should be no more than twice the number of "
                           "dimensions of the input. Pad length is %d while the input has "
                           "%d dimensions." % (len(pad), l_inp))
    all_pads_non_positive = True
    c_input = self
    for i in range(l_diff, l_inp):
        k = 2 * (l_inp - i - 1)
        if pad[k] < 0:
            c_input = c_input.narrow(i, -pad[k], c_input.shape[i] + pad[k])
        elif pad[k] != 0:
            all_pads_non_positive = False
        if pad[k + 1] < 0:
            c_input = c_input.narrow(i, 0, c_input.shape[i] + pad[k + 1])
        elif pad[k + 1] != 0:
            all_pads_non_positive = False
    if all_pads_non_positive:
        return c_input.clone()
    new_shape = sizes[:l_diff]
    for i in range(l_pad):
        k = len(pad) - (i + 1) * 2
        new_dim = sizes[l_diff + i] + pad[k] + pad[k + 1]
        if new_dim <= 0:
            raise RuntimeError(
                "The input size %d, plus negative padding %d and %d resulted in a negative "
                "output size, which is invalid. Check dimension %d of your input."
                % (sizes[l_diff + i], pad[k], pad[k + 1], l_diff + i))
        new_shape.append(new_dim)
    output = torch.empty(new_shape, dtype=self.dtype, device=self.device,
                         memory_format=_ops.suggest_memory_format(self))
    output.fill_(value)
    c_output = output
    for i in range(l_diff, l_inp):
        k = 2 * (l_inp - i - 1)
        if pad[k] > 0:
            c_output = c_output.narrow(i, pad[k], c_output.shape[i] - pad[k])
        if pad[k + 1] > 0:
            c_output = c_output.narrow(i, 0, c_output.shape[i] - pad[k + 1])
    c_output.copy_(c_input)
    return output


# -- reflection_pad1d/2d/3d, replication_pad1d/2d/3d ---------------------------------------

class _BorderKernel:
    """The CPU kernel of reflection_pad{n}d or replication_pad{n}d."""

    def __init__(self, kind, n):
        self.n = n
        self.mode_name = "reflect" if kind == "reflection" else "replicate"
        self.mode = _ops.MODES[self.mode_name]
        self.reflect = kind == "reflection"
        self.out_op = getattr(torch.ops.aten, "%s_pad%dd" % (kind, n)).out
        self.dtypes = {}  # dtype -> does torch's kernel take it?

    def torch_kernel(self, x, padding):
        out = torch.empty(0, dtype=x.dtype, device=x.device)
        self.out_op(x, padding, out=out)
        return out

    def takes(self, dtype):
        ok = self.dtypes.get(dtype)
        if ok is None:
            try:
                self.torch_kernel(torch.zeros((1,) * (self.n + 1), dtype=dtype), [0] * 2 * self.n)
                ok = True
            except RuntimeError:
                ok = False
            self.dtypes[dtype] = ok
        return ok

    def __call__(self, x, padding):
        padding = list(padding)
        n = self.n
        if _routable(x) and len(padding) == 2 * n and x.dim() in (n + 1, n + 2) and \
                self.takes(x.dtype):
            pads_begin, pads_end = _run.per_dim_pads(padding, x.dim())
            shape = x.shape
            first = x.dim() - n  # the padded dimensions; the ones before may be empty
            new_shape = [d + b + e for d, b, e in zip(shape, pads_begin, pads_end)]
            ok = all(shape[k] > 0 and new_shape[k] >= 1 for k in range(first, x.dim()))
            ok = ok and all(shape[k] > 0 for k in range(1 if x.dim() == n + 2 else 0, first))
            if ok and self.reflect:
                ok = all(pads_begin[k] < shape[k] and pads_end[k] < shape[k]
                         for k in range(first, x.dim()))
            if ok and _numel(new_shape) >= _state["threshold"]:
                return _run.run(x, pads_begin, pads_end, self.mode, None,
                                torch.get_num_threads(),
                                _ops.output_format(x, self.mode_name, n))
        return self.torch_kernel(x, padding)


# -- _pad_circular (composite in torch 1.13: taken over at AutogradCPU) ---------------------

def _torch_pad_circular(x, pad):
    """torch's own circular decomposition, below the autograd layer (no recursion here)."""
    excluded = torch._C._dispatch_tls_is_dispatch_key_excluded(_AUTOGRAD_CPU)
    torch._C._dispatch_tls_set_dispatch_key_excluded(_AUTOGRAD_CPU, True)
    try:
        return torch.ops.aten._pad_circular(x, pad)
    finally:
        torch._C._dispatch_tls_set_dispatch_key_excluded(_AUTOGRAD_CPU, excluded)


class _TorchCircular(torch.autograd.Function):
    """torch's circular forward with the gradient of its index map (below the autograd
    layer torch's composite records nothing)."""

    @staticmethod
    def forward(ctx, x, pad):
        ctx.shape = tuple(x.shape)
        ctx.pads = _ops.per_dim(pad, x.dim())
        return _torch_pad_circular(x, pad)

    @staticmethod
    def backward(ctx, grad):
        maps = index_maps(ctx.shape, ctx.pads[0], ctx.pads[1], _ops.MODES["circular"], True)
        return pad_backward(grad, ctx.shape, maps), None


def _torch_circular(x, pad):
    """torch's circular padding (result or error), with a gradient when one is wanted."""
    if x.requires_grad and torch.is_grad_enabled():
        return _TorchCircular.apply(x, pad)
    return _torch_pad_circular(x, pad)


def _pad_circular(x, pad):
    pad = list(pad)
    ndim = x.dim()
    # torch 2's circular padding pads the dimensions after a batch and a channel dimension,
    # or after a channel dimension only (unbatched input).
    if not pad or len(pad) % 2 or ndim - len(pad) // 2 not in (1, 2) or not _routable(x):
        return _torch_circular(x, pad)
    pads_begin, pads_end = _run.per_dim_pads(pad, ndim)
    first = ndim - len(pad) // 2
    for k in range(first, ndim):
        d, b, e = x.shape[k], pads_begin[k], pads_end[k]
        kept = d + min(b, 0) + min(e, 0)
        if kept <= 0 or b > kept or e > kept:
            return _torch_circular(x, pad)  # torch's result or torch's error
    new_shape = [d + b + e for d, b, e in zip(x.shape, pads_begin, pads_end)]
    if _numel(new_shape) < _state["threshold"]:
        return _torch_circular(x, pad)
    # ndpad::pad: its autograd formula (the index map's) when grad is wanted.
    return torch.ops.ndpad.pad(x, pad, "circular", None, None)
