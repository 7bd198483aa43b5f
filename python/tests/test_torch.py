"""ndpad.torch against torch.nn.functional.pad wherever torch accepts a case, against numpy
(numpy.pad, and api.md's mapping written out in reference.py) where torch refuses, gradcheck,
and install(): F.pad, the nn padding modules and small Conv2d models through ndpad."""

import itertools
import os
import random

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
F = torch.nn.functional

import ndpad.torch as nt  # noqa: E402
import reference  # noqa: E402

MODES = ["constant", "reflect", "replicate", "circular"]
NP_MODE = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
           "circular": "wrap", "symmetric": "symmetric"}
DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
          torch.complex128]


def random_tensor(rng, shape, dtype):
    if dtype is torch.bool:
        return torch.from_numpy(rng.random(shape) < 0.5)
    if dtype.is_complex:
        return torch.complex(torch.from_numpy(rng.standard_normal(shape)),
                             torch.from_numpy(rng.standard_normal(shape))).to(dtype)
    if dtype.is_floating_point:
        return torch.from_numpy(rng.standard_normal(shape)).to(dtype)
    return torch.from_numpy(rng.integers(-100, 100, size=shape)).to(dtype)


def with_layout(rng, shape, dtype, layout):
    """A tensor of `shape` whose memory is laid out as `layout` says."""
    ndim = len(shape)
    if layout == "channels_last" and ndim in (4, 5):
        fmt = torch.channels_last if ndim == 4 else torch.channels_last_3d
        return random_tensor(rng, shape, dtype).contiguous(memory_format=fmt)
    if layout == "permuted" and ndim > 1:
        perm = list(rng.permutation(ndim))
        base = random_tensor(rng, [shape[p] for p in perm], dtype)
        return base.permute(*[perm.index(k) for k in range(ndim)])
    if layout == "strided":
        k = int(rng.integers(ndim))
        big = list(shape)
        big[k] = 2 * shape[k]
        return random_tensor(rng, big, dtype).narrow(k, 0, 2 * shape[k])[
            (slice(None),) * k + (slice(None, None, 2),)]
    if layout == "expanded":
        k = int(rng.integers(ndim))
        one = list(shape)
        one[k] = 1
        return random_tensor(rng, one, dtype).expand(*shape)
    if layout == "conj" and dtype.is_complex:
        return random_tensor(rng, shape, dtype).conj()
    return random_tensor(rng, shape, dtype)


def to_numpy(t):
    t = t.resolve_conj()
    if t.dtype is torch.bfloat16:
        return t.view(torch.int16).numpy()  # numpy has no bfloat16: compare the bits
    return t.numpy()


def numpy_reference(x, pad, mode, value=None):
    """The expected result by numpy: api.md's per-axis mapping on the whole input, except
    circular, which (as torch) crops first and wraps the cropped array."""
    a = to_numpy(x)
    ndim = a.ndim
    pb, pe = [0] * ndim, [0] * ndim
    for i in range(len(pad) // 2):
        pb[ndim - 1 - i], pe[ndim - 1 - i] = pad[2 * i], pad[2 * i + 1]
    if mode == "circular":
        a = a[tuple(slice(max(-b, 0), a.shape[k] - max(-e, 0))
                    for k, (b, e) in enumerate(zip(pb, pe)))]
        pb, pe = [max(b, 0) for b in pb], [max(e, 0) for e in pe]
    fill = torch.zeros(1, dtype=x.dtype).fill_(0 if value is None else value)
    fill = to_numpy(fill)
    index, valid = [], []
    for k in range(ndim):
        d, b, e = a.shape[k], pb[k], pe[k]
        src = [reference.source_index(NP_MODE[mode], o - b, d) for o in range(d + b + e)]
        index.append(np.array([0 if s is None else s for s in src], dtype=np.intp))
        valid.append(np.array([s is not None for s in src], dtype=bool))
    out_shape = tuple(len(i) for i in index)
    if a.size == 0 or 0 in out_shape:
        return np.full(out_shape, fill[0], dtype=a.dtype)
    result = a[np.ix_(*index)].copy()
    mask = np.ones(out_shape, dtype=bool)
    for k, v in enumerate(valid):
        mask &= v.reshape((-1,) + (1,) * (ndim - 1 - k))
    result[~mask] = fill[0]
    return result


def same(got, want):
    assert got.shape == want.shape and got.dtype == want.dtype
    assert torch.equal(got.resolve_conj(), want.resolve_conj()), (got, want)


def same_layout(got, want):
    """Same memory format as torch's result (strides of extent-1 dimensions do not matter)."""
    for fmt in (torch.contiguous_format, torch.channels_last, torch.channels_last_3d):
        if fmt is not torch.contiguous_format and got.dim() != (4 if fmt is torch.channels_last
                                                                 else 5):
            continue
        assert got.is_contiguous(memory_format=fmt) == want.is_contiguous(memory_format=fmt), \
            (fmt, got.stride(), want.stride())


# -- the differential test -----------------------------------------------------------------

def random_case(rng):
    """A random F.pad call: half of them shaped as torch accepts them (non-constant modes on
    the last 1-3 dimensions of a 2-5-D floating tensor, pads below the size), the others
    anything (any rank, dtype and dimension, large and negative pads)."""
    mode = MODES[int(rng.integers(len(MODES)))]
    dtype = DTYPES[int(rng.integers(len(DTYPES)))]
    if rng.random() < 0.5 and mode != "constant":
        n = int(rng.integers(1, 4))
        ndim = n + int(rng.integers(1, 3))
        shape = [int(rng.integers(1, 5)) for _ in range(ndim - n)] + \
            [int(rng.integers(2, 7)) for _ in range(n)]
        pad = []
        for d in reversed(shape[ndim - n:]):
            pad += [int(rng.integers(-1, d)), int(rng.integers(-1, d))]
        dtype = [torch.float32, torch.float64, torch.complex64][int(rng.integers(3))]
    else:
        ndim = int(rng.integers(1, 6))
        shape = [int(rng.integers(0 if rng.random() < 0.05 else 1, 6)) for _ in range(ndim)]
        npad = int(rng.integers(0, ndim + 1))
        pad = []
        for _ in range(2 * npad):
            r = rng.random()
            pad.append(int(rng.integers(-3, 0)) if r < 0.2 else
                       int(rng.integers(6, 12)) if r < 0.3 else int(rng.integers(0, 4)))
    out = 1
    for k, d in enumerate(reversed(shape)):
        out *= max(d + sum(pad[2 * k:2 * k + 2]), 0)
    if out > 20000:  # keep the numpy reference quick
        pad = [min(p, 2) for p in pad]
    layout = ["contiguous", "channels_last", "permuted", "strided", "expanded",
              "conj"][int(rng.integers(6))]
    value = None
    if mode == "constant" and rng.random() < 0.5:
        value = True if dtype is torch.bool else int(rng.integers(0, 50)) if \
            not (dtype.is_floating_point or dtype.is_complex) else float(rng.normal())
    return mode, shape, pad, dtype, layout, value


def torch_defines(mode, shape, pad):
    """torch 1.13's circular padding returns uninitialised memory instead of an error when
    a pad is larger than what its crop keeps of the dimension (or the crop keeps nothing)."""
    if mode != "circular":
        return True
    for d, b, e in zip(reversed(shape), pad[0::2], pad[1::2]):
        kept = d + min(b, 0) + min(e, 0)
        if kept <= 0 or b > kept or e > kept:
            return False
    return True


def test_random_cases_against_torch_and_numpy():
    """Thousands of random cases: F.pad's result (values, dtype, shape, memory format)
    where torch accepts the case, numpy's where torch refuses it."""
    rng = np.random.default_rng(20261124)
    compared = {"torch": 0, "numpy": 0}
    for _ in range(4000):
        mode, shape, pad, dtype, layout, value = random_case(rng)
        x = with_layout(rng, shape, dtype, layout)
        try:
            want = F.pad(x, pad, mode, value) if torch_defines(mode, shape, pad) else None
        except (RuntimeError, NotImplementedError, IndexError):
            want = None
        if want is not None:
            got = nt.pad(x, pad, mode, value, threads=int(rng.integers(1, 3)))
            same(got, want)
            same_layout(got, want)
            compared["torch"] += 1
            continue
        # Torch refused. ndpad refuses too only for sizes that come out negative, or an
        # empty dimension that a non-constant mode would have to fill.
        try:
            got = nt.pad(x, pad, mode, value)
        except RuntimeError as exc:
            assert "ndpad.torch.pad" in str(exc) or "Padding length" in str(exc)
            continue
        want = numpy_reference(x, pad, mode, value)
        assert got.shape == want.shape
        assert np.array_equal(to_numpy(got), want), (mode, shape, pad, dtype, layout)
        compared["numpy"] += 1
    assert compared["torch"] > 2000 and compared["numpy"] > 1000, compared


@pytest.mark.parametrize("dtype", DTYPES)
def test_symmetric_and_every_dimension_against_numpy(dtype):
    rng = np.random.default_rng(7)
    for _ in range(40):
        ndim = int(rng.integers(1, 5))
        shape = [int(rng.integers(1, 5)) for _ in range(ndim)]
        pad = [int(rng.integers(-1, 9)) for _ in range(2 * ndim)]
        x = with_layout(rng, shape, dtype, ["contiguous", "permuted", "strided"][_ % 3])
        for mode in ("symmetric", "reflect", "replicate", "circular"):
            try:
                got = nt.pad(x, pad, mode)
            except RuntimeError:
                assert any(d + b + e < 0 or mode == "circular" and d + min(b, 0) + min(e, 0)
                           <= 0 for d, b, e in zip(shape, pad[-2::-2], pad[::-2])), \
                    (mode, shape, pad)
                continue
            assert np.array_equal(to_numpy(got), numpy_reference(x, pad, mode))


def test_numpy_pad_itself_where_torch_refuses():
    # Integer dtypes in reflect/replicate, symmetric, pads larger than the dimension: the
    # same as numpy.pad (widths up to the extent, where every numpy version agrees).
    x = torch.arange(24, dtype=torch.int32).reshape(2, 3, 4)
    for mode, npmode in [("reflect", "reflect"), ("replicate", "edge"),
                         ("symmetric", "symmetric"), ("circular", "wrap")]:
        got = nt.pad(x, (2, 3, 1, 2, 1, 0), mode)
        want = np.pad(x.numpy(), ((1, 0), (1, 2), (2, 3)), npmode)
        assert np.array_equal(got.numpy(), want)
    big = nt.pad(torch.arange(3.0), (7, 8), "reflect")
    assert big.tolist() == [float(reference.source_index("reflect", j, 3)) for j in range(-7, 11)]


def test_high_rank_and_every_dimension():
    x = torch.arange(2 ** 10, dtype=torch.float32).reshape((2,) * 10)
    pad = [1, 0] * 10
    got = nt.pad(x, pad, "replicate")
    assert got.shape == (3,) * 10
    assert np.array_equal(got.numpy(), np.pad(x.numpy(), 1, "edge")[(slice(0, 3),) * 10])
    x32 = torch.arange(6.0).reshape((2,) + (1,) * 30 + (3,))
    y = nt.pad(x32, [1, 2] + [0, 0] * 30 + [2, 1], "symmetric")
    assert y.shape == (5,) + (1,) * 30 + (6,)
    want = np.pad(x32.numpy().reshape(2, 3), ((2, 1), (1, 2)), "symmetric")
    assert np.array_equal(y.reshape(5, 6).numpy(), want)
    with pytest.raises(RuntimeError, match="Padding length"):
        nt.pad(torch.zeros(3), (1, 1, 1, 1))


# -- errors --------------------------------------------------------------------------------

def test_errors_are_torchs():
    x = torch.zeros(2, 3)
    with pytest.raises(RuntimeError, match="divisible by 2"):
        nt.pad(x, (1,))
    with pytest.raises(NotImplementedError, match="Unrecognised padding mode"):
        nt.pad(x, (1, 1), "mirror")
    with pytest.raises(RuntimeError, match="doesn't take in value"):
        nt.pad(x, (1, 1), "reflect", 1.0)
    with pytest.raises(RuntimeError, match="dimension 1 of size 3"):
        nt.pad(x, (-2, -2))
    with pytest.raises(RuntimeError, match="dimension 1"):
        nt.pad(x, (-4, 1), "circular")
    with pytest.raises(RuntimeError):  # torch's own conversion error
        nt.pad(torch.zeros(3, dtype=torch.uint8), (1, 1), value=-1)
    with pytest.raises(RuntimeError, match="dimension 0 of size 0"):  # nothing to reflect
        nt.pad(torch.zeros(0, 3), (1, 1, 1, 1), "reflect")
    with pytest.raises(TypeError):
        nt.pad([1, 2, 3], (1, 1))
    with pytest.raises(TypeError):
        nt.pad(x, (1.5, 1))
    with pytest.raises(TypeError):
        nt.pad(x, (2**70, 1))
    with pytest.raises(TypeError):
        nt.pad(x, (1, 1), None)
    with pytest.raises(TypeError):
        nt.pad(x, (1, 1), "constant", "a")
    with pytest.raises(TypeError):
        nt.pad(x, (1, 1), threads=1.0)
    with pytest.raises(ValueError):
        nt.pad(x, (1, 1), threads=-1)


def test_tensors_ndpad_cannot_read_go_to_torch():
    q = torch.quantize_per_tensor(torch.randn(1, 2, 4, 4), 0.1, 0, torch.quint8)
    assert torch.equal(nt.pad(q, (1, 1, 1, 1)).int_repr(), F.pad(q, (1, 1, 1, 1)).int_repr())
    with pytest.raises(RuntimeError, match="symmetric"):
        nt.pad(q, (1, 1), "symmetric")


def test_value_conversion_is_fill():
    for dtype, value in [(torch.int32, 2.7), (torch.bool, 0.5), (torch.int8, -3),
                         (torch.float16, 1e-8), (torch.complex64, -2.5), (torch.int64, 2**40),
                         (torch.bool, False), (torch.float64, float("inf")),
                         (torch.float32, 0.0), (torch.float32, -0.0), (torch.float32, 0.0),
                         (torch.float64, float("nan")), (torch.float64, -float("nan"))]:
        x = torch.ones(3, dtype=dtype)
        got, want = nt.pad(x, (1, 2), value=value), F.pad(x, (1, 2), value=value)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert bytes(got.view(torch.uint8).numpy()) == bytes(want.view(torch.uint8).numpy())
    for bad in (1 + 2j,):
        with pytest.raises(TypeError):
            F.pad(torch.ones(3), (1, 1), value=bad)
        with pytest.raises(TypeError):
            nt.pad(torch.ones(3), (1, 1), value=bad)


# -- autograd ------------------------------------------------------------------------------

def test_gradcheck_random_cases():
    rng = random.Random(5)
    modes = MODES + ["symmetric"]
    for i in range(60):
        ndim = rng.randint(1, 4)
        shape = [rng.randint(1, 4) for _ in range(ndim)]
        npad = rng.randint(1, ndim)
        pad = [rng.randint(-1, 5) for _ in range(2 * npad)]
        mode = modes[i % len(modes)]
        kept = [d + min(b, 0) + min(e, 0) if mode == "circular" else d + b + e
                for d, b, e in zip(reversed(shape), pad[0::2], pad[1::2])]
        if any(k <= 0 for k in kept):
            continue
        x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
        assert torch.autograd.gradcheck(lambda t: nt.pad(t, pad, mode), (x,)), (mode, pad)


def test_second_order_gradient():
    x = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
    for mode in MODES + ["symmetric"]:
        assert torch.autograd.gradgradcheck(lambda t: nt.pad(t, (2, 1, 1, -1), mode), (x,))


def test_gradient_matches_torch_and_crops_give_zero():
    x = torch.randn(2, 3, 6, 7, dtype=torch.float64, requires_grad=True)
    for mode in MODES:
        for pad in [(1, 2, 3, 1), (-2, 3, 2, -1)]:
            g = torch.randn_like(F.pad(x, pad, mode))
            want, = torch.autograd.grad(F.pad(x, pad, mode), x, g)
            got, = torch.autograd.grad(nt.pad(x, pad, mode), x, g)
            assert torch.allclose(got, want, rtol=0, atol=1e-12), (mode, pad)
    got, = torch.autograd.grad(nt.pad(x, (-2, 0)).sum(), x)
    assert (got[..., :2] == 0).all() and (got[..., 2:] == 1).all()


# -- install() -----------------------------------------------------------------------------

def _native_available():
    from ndpad import _torch_native
    return _torch_native.load() is not None


class Routed:
    """install() with threshold 0; len() counts the calls ndpad ran (the native kernels' own
    counter, or the Python kernels' calls of libndpad through ctypes)."""

    def __init__(self, native, monkeypatch):
        from ndpad import _torch_ops, _torch_run
        self.native = native
        self.calls = []
        if not native:
            for module, name in ((_torch_run, "run"), (_torch_ops, "_ctypes_kernel")):
                monkeypatch.setattr(module, name, self._counting(getattr(module, name)))

    def _counting(self, fn):
        def counting(*args, **kwargs):
            self.calls.append(args[3])
            return fn(*args, **kwargs)
        return counting

    def install(self, threshold=0):
        nt.install(threshold=threshold)
        assert nt.backend() == ("native" if self.native else "python")

    def __len__(self):
        if self.native:
            return torch.ops.ndpad.calls()[0]
        return len(self.calls)


@pytest.fixture
def installed(monkeypatch):
    """install() of this process's implementation: the native kernels unless
    NDPAD_TORCH_NATIVE=0 (one implementation per process: ci/test-torch.sh runs these
    tests once with each); NDPAD_TEST_NATIVE=1 makes missing native kernels a failure."""
    native = _native_available()
    if not native and os.environ.get("NDPAD_TEST_NATIVE") == "1":
        pytest.fail("NDPAD_TEST_NATIVE=1 but the native kernels are not used: %s"
                    % nt.native_status())
    routed = Routed(native, monkeypatch)
    routed.install()
    yield routed
    nt.uninstall()


def test_install_routes_f_pad(installed):
    rng = np.random.default_rng(3)
    cases = [((2, 3, 9), (2, 3)), ((2, 3, 5, 6), (1, 2, 3, 1)), ((1, 2, 4, 5, 6), (1,) * 6),
             ((3, 9), (2, 2)), ((2, 3, 5, 6), (-1, 2, 1, -2)),
             ((2, 3, 5, 6), (-1, 2, 1, -2, 0, 1))]
    routed = 0
    for mode in MODES:
        for shape, pad in cases:
            x = random_tensor(rng, shape, torch.float32)
            nt.uninstall()
            try:
                want = F.pad(x, pad, mode)
            except RuntimeError:
                want = None
            installed.install()
            before = len(installed)
            if want is None:  # torch refuses the case, installed or not
                with pytest.raises(RuntimeError):
                    F.pad(x, pad, mode)
                assert len(installed) == before
                continue
            got = F.pad(x, pad, mode)
            assert len(installed) == before + 1, (mode, shape, pad)
            routed += 1
            same(got, want)
            same_layout(got, want)
    assert routed >= 12 and nt.installed()


def test_install_keeps_torchs_errors_and_small_tensors(installed):
    x = torch.zeros(1, 2, 3)
    with pytest.raises(RuntimeError):
        F.pad(x, (3, 3), "reflect")  # torch: pads must be < the dimension
    with pytest.raises(RuntimeError):
        F.pad(x.bool(), (1, 1), "replicate")  # torch 2's kernel has no bool
    with pytest.raises(RuntimeError):
        F.pad(x, (4, 4), "circular")
    # Output elements below the threshold: torch's own kernel (result and error); from it
    # on: ndpad. 1x2x6x7 padded by (1, 1, 1, 1) has 144 elements, by (1, 1, 0, 0) 108.
    x = torch.randn(1, 2, 6, 7)
    for mode in MODES:
        for pad in [(1, 1, 0, 0), (1, 1, 1, 1), (-1, 0, 0, -1), (7, 7, 0, 0)]:
            nt.uninstall()
            try:
                want = F.pad(x, pad, mode)
            except RuntimeError:
                want = None
            installed.install(threshold=300)
            before = len(installed)
            if want is None:
                with pytest.raises(RuntimeError):
                    F.pad(x, pad, mode)
            else:
                same(F.pad(x, pad, mode), want)
            assert len(installed) == before, (mode, pad)
        installed.install(threshold=144)
        before = len(installed)
        F.pad(x, (1, 1, 0, 0), mode)
        assert len(installed) == before, mode
        F.pad(x, (1, 1, 1, 1), mode)
        assert len(installed) == before + 1, mode


def test_uninstall_restores_torch(installed):
    installed.install()
    nt.uninstall()
    assert not nt.installed() and nt.backend() is None
    before = len(installed)
    F.pad(torch.zeros(1, 2, 8, 8), (1, 1, 1, 1), "reflect")
    F.pad(torch.zeros(1, 2, 8, 8), (1, 1, 1, 1))
    F.pad(torch.zeros(1, 2, 8, 8), (1, 1, 1, 1), "circular")
    assert len(installed) == before


def test_native_kernels_are_used_when_built():
    """install() picks the native kernels when they load (compiled at first use), else the
    Python ones; the first install() fixes the implementation for the process (asking for
    the other one raises, and changes nothing); the native ones really run (their counter
    moves)."""
    from ndpad import _torch_native
    native = _native_available()
    if os.environ.get("NDPAD_TEST_NATIVE") == "1":
        assert native, nt.native_status()
    try:
        nt.install(threshold=0)
        assert nt.backend() == ("native" if native else "python")
        assert nt.native_status().startswith("native: " if native else "python: ")
        with pytest.raises(RuntimeError, match="registered the %s kernels"
                           % ("native" if native else "python")):
            nt.install(native=not native)
        assert nt.backend() == ("native" if native else "python")
        if native:
            x = torch.randn(1, 2, 8, 8)
            routed, kept = torch.ops.ndpad.calls()
            F.pad(x, (1, 1, 1, 1), "reflect")
            F.pad(x, (1, 1, 1, 1), "circular")
            nt.install(threshold=10 ** 6)  # again: only the threshold changes
            F.pad(x, (1, 1, 1, 1), "replicate")
            assert torch.ops.ndpad.calls() == [routed + 2, kept + 1]
            nt.uninstall()
            F.pad(x, (1, 1, 1, 1), "replicate")  # registered, switched off: torch's
            assert torch.ops.ndpad.calls()[0] == routed + 2
            assert torch.ops.ndpad.registered() and not torch.ops.ndpad.installed()
    finally:
        nt.uninstall()
    assert nt.backend() is None
    if not native:
        with pytest.raises(RuntimeError, match="native"):
            nt.install(native=True)
        assert nt.backend() is None
    assert _torch_native.status() == nt.native_status()


@pytest.mark.parametrize("module,shape", [
    (torch.nn.ReflectionPad1d(2), (2, 3, 8)), (torch.nn.ReflectionPad2d((1, 2, 3, 1)), (2, 3, 8, 9)),
    (torch.nn.ReflectionPad3d(1), (1, 2, 4, 5, 6)), (torch.nn.ReplicationPad1d(3), (2, 3, 8)),
    (torch.nn.ReplicationPad2d(2), (2, 3, 8, 9)), (torch.nn.ReplicationPad3d((1, 0, 2, 1, 0, 3)),
                                                   (1, 2, 4, 5, 6)),
    (torch.nn.ConstantPad2d(2, 3.5), (2, 3, 8, 9)), (torch.nn.ZeroPad2d((1, 0, 0, 2)), (1, 3, 8, 9)),
])
def test_install_nn_modules(installed, module, shape):
    x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    before = len(installed)
    y = module(x)
    assert len(installed) > before
    g = torch.randn_like(y)
    y.backward(g)
    got_grad, x.grad = x.grad, None
    nt.uninstall()
    y0 = module(x)
    y0.backward(g)
    installed.install()
    same(y, y0)
    same(got_grad, x.grad)


@pytest.mark.parametrize("padding_mode", ["reflect", "replicate", "circular"])
def test_install_conv2d_model(installed, padding_mode):
    """A small Conv2d model: outputs and gradients identical to torch's own."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1, padding_mode=padding_mode), torch.nn.ReLU(),
        torch.nn.Conv2d(8, 4, 3, padding=2, padding_mode=padding_mode))
    x = torch.randn(2, 3, 16, 17, requires_grad=True)

    def run():
        model.zero_grad()
        x.grad = None
        y = model(x)
        y.square().sum().backward()
        return y.detach(), x.grad.clone(), [p.grad.clone() for p in model.parameters()]

    before = len(installed)
    y, gx, gp = run()
    assert len(installed) >= before + 2
    nt.uninstall()
    y0, gx0, gp0 = run()
    installed.install()
    same(y, y0)
    if padding_mode == "circular":
        # ndpad's gradient for circular (torch's is a composite): same sums, maybe another
        # order of float additions.
        assert torch.allclose(gx, gx0, rtol=1e-5, atol=1e-6)
        for a, b in zip(gp, gp0):
            assert torch.allclose(a, b, rtol=1e-5, atol=1e-5)
    else:
        same(gx, gx0)
        for a, b in zip(gp, gp0):
            same(a, b)


def test_installed_circular_gradient_and_inference_mode(installed):
    """_pad_circular's gradient (ndpad's own: torch's is a composite) by gradcheck and
    gradgradcheck through the installed F.pad; in inference mode (no AutogradCPU) the
    native kernels still take the call at the CPU key."""
    x = torch.randn(2, 3, 5, 6, dtype=torch.float64, requires_grad=True)
    for pad in [(1, 2, 2, 0), (-1, 2, 1, -2), (3, 0, 0, 5), (0, -2, -1, 0)]:
        before = len(installed)
        assert torch.autograd.gradcheck(lambda t: F.pad(t, pad, "circular"), (x,))
        assert torch.autograd.gradgradcheck(lambda t: F.pad(t, pad, "circular"), (x,))
        assert len(installed) > before, pad
    with torch.inference_mode():
        before = len(installed)
        y = F.pad(x.detach(), (1, 1, 1, 1), "circular")
        assert len(installed) == before + installed.native
    nt.uninstall()
    same(y, F.pad(x.detach(), (1, 1, 1, 1), "circular"))


def test_install_threshold_default_is_measured_value():
    from ndpad import _torch_install
    try:
        nt.install()
        want = _torch_install.THRESHOLD if nt.backend() == "native" else \
            _torch_install.PYTHON_THRESHOLD
        assert _torch_install._state["threshold"] == want > 0
        nt.install(threshold=5)
        assert _torch_install._state["threshold"] == 5
    finally:
        nt.uninstall()


def test_threads_argument_and_default():
    x = torch.randn(1, 8, 64, 64)
    want = F.pad(x, (1, 1, 1, 1), "reflect")
    for threads in (None, 0, 1, 2):
        same(nt.pad(x, (1, 1, 1, 1), "reflect", threads=threads), want)
    for ndim, fill in itertools.product((1, 3), (0, 7)):
        y = nt.pad(torch.ones((2,) * ndim), (1, 1), value=fill)
        assert y[..., 0].eq(fill).all()


def test_tensor_subclass_keeps_its_type():
    class Tagged(torch.Tensor):
        pass

    x = torch.arange(6.0).reshape(2, 3).as_subclass(Tagged)
    got = nt.pad(x, (1, 1), "reflect")
    assert type(got) is Tagged and type(F.pad(x, (1, 1), "reflect")) is Tagged
    same(got.as_subclass(torch.Tensor), F.pad(x, (1, 1), "reflect").as_subclass(torch.Tensor))


def test_installed_f_pad_equals_torchs_on_random_cases(installed):
    """Installed or not, F.pad gives the same result and layout, or raises the same error
    (the kernels route only what torch's own would accept)."""
    rng = np.random.default_rng(11)
    cases = []
    nt.uninstall()
    for i in range(400):
        mode, shape, pad, dtype, layout, value = random_case(rng)
        if i % 2:  # half of them with pads that crop or reach the size (edge of validity)
            pad = [int(rng.integers(-4, 6)) for _ in pad]
        if not torch_defines(mode, shape, pad):
            continue  # torch's circular garbage: nothing to compare
        if np.prod([d + 10 for d in shape]) > 50000:
            continue  # keep it quick
        x = with_layout(rng, shape, dtype, layout)
        try:
            cases.append((x, pad, mode, value, F.pad(x, pad, mode, value), None))
        except Exception as exc:  # noqa: BLE001 - the installed call must raise it too
            cases.append((x, pad, mode, value, None, type(exc)))
    installed.install()
    routed = 0
    for x, pad, mode, value, want, error in cases:
        before = len(installed)
        if error is not None:
            with pytest.raises(error):
                F.pad(x, pad, mode, value)
            continue
        got = F.pad(x, pad, mode, value)
        routed += len(installed) > before
        same(got, want)
        same_layout(got, want)
    assert routed > 100, routed
