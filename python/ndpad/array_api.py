"""array-api-extra's `pad` with every pad mode, for any array library on the CPU.

    import array_api_strict as xp, ndpad.array_api
    x = xp.reshape(xp.arange(6.0), (2, 3))
    ndpad.array_api.pad(x, ((1, 1), (2, 0)), mode="reflect")   # an array_api_strict Array

`pad(x, pad_width, mode="constant", *, constant_values=0, xp=None)` is
array_api_extra.pad's signature (scipy's), which offers mode "constant" only. Here `mode` is
any of numpy.pad's: constant, edge, reflect, symmetric, wrap and empty by libndpad, the
others (mean, median, minimum, maximum, linear_ramp) by numpy.pad on a view of x. `x` is a
numpy array or any array that exports DLPack in CPU memory (torch, JAX, array-api-strict,
...): it is read in place, never copied, and the result is an array of x's library
(torch.from_dlpack, jax.numpy.from_dlpack, `xp.from_dlpack`). Arrays that implement numpy
functions themselves (dask: __array_function__) get their own numpy.pad, as with ndpad.pad.
"""

import numbers

from . import _dlpack
from ._pad import _overrides_pad, pad_dlpack
from ._pad import pad as _numpy_pad

__all__ = ["pad"]


def pad(x, pad_width, mode="constant", *, constant_values=0, xp=None, threads=0, **kwargs):
    """Pad `x` (array_api_extra.pad's signature; every numpy.pad mode).

    pad_width: an int, a (before, after) pair, or a sequence of one pair per axis (and every
        other form numpy.pad takes, with its errors).
    mode: "constant" (the default), "edge", "reflect", "symmetric", "wrap", "empty", or
        numpy.pad's statistic modes and "linear_ramp".
    constant_values: the pad value of mode "constant" (a Python scalar, or numpy.pad's
        per-axis and per-side forms), cast to x's dtype as numpy casts it. A non-zero value
        with another mode is a ValueError (numpy.pad's unsupported keyword).
    xp: x's array-API namespace; the result is made with xp.from_dlpack when x's library is
        not torch or JAX (default: x.__array_namespace__()).
    threads, **kwargs: as in ndpad.pad (reflect_type, stat_length, end_values).
    """
    if mode == "constant":
        kwargs["constant_values"] = constant_values
    elif not (isinstance(constant_values, numbers.Number) and constant_values == 0):
        raise ValueError("unsupported keyword arguments for mode '%s': {'constant_values'}"
                         % (mode,))
    if not _overrides_pad(x) and _dlpack.exports(x):
        return pad_dlpack(x, pad_width, mode, threads, None, kwargs, xp)
    return _numpy_pad(x, pad_width, mode, threads=threads, **kwargs)
