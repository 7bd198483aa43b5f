"""ndpad.torch's torch 2 operators: ndpad::pad, ndpad::crop_pad and ndpad::pad_backward
under torch.library.opcheck (schema, fake kernel, autograd registration, AOT dispatch) on
samples of every mode, dtype class and memory format; torch.compile(fullgraph=True) and
torch.export; double backward through the same operators; install() on every CPU dtype
torch 2 pads (bf16 and fp16 included) and channels_last; install()/uninstall() while other
threads pad; the native kernels built at first use (also from an installed package's
ndpad/include/; a failed build said once) and run on torch's pool."""

import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
F = torch.nn.functional

import ndpad.torch as nt  # noqa: E402
from ndpad import _torch_ops  # noqa: E402

MODES = ["constant", "reflect", "replicate", "circular", "symmetric"]
DTYPE_CLASSES = [torch.bool, torch.uint8, torch.int32, torch.int64, torch.float16,
                 torch.bfloat16, torch.float32, torch.float64, torch.complex64]
FORMATS = ["contiguous", "channels_last", "permuted", "sliced"]


def sample(dtype, fmt, shape=(2, 3, 5, 6), seed=0):
    g = torch.Generator().manual_seed(seed)
    if dtype is torch.bool:
        x = torch.rand(shape, generator=g) < 0.5
    elif dtype.is_floating_point or dtype.is_complex:
        x = torch.randn(shape, generator=g, dtype=torch.float64).to(dtype)
    else:
        x = torch.randint(-50, 50, shape, generator=g).to(dtype)
    if fmt == "channels_last":
        return x.contiguous(memory_format=torch.channels_last)
    if fmt == "permuted":
        return x.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)[:, :, :, 1:]
    if fmt == "sliced":
        return torch.cat([x, x], -1)[..., ::2]
    return x


def same(got, want):
    assert got.shape == want.shape and got.dtype == want.dtype and got.stride() == \
        want.stride(), (got.shape, got.stride(), want.stride())
    assert torch.equal(got, want)


@pytest.mark.parametrize("dtype", DTYPE_CLASSES, ids=str)
@pytest.mark.parametrize("fmt", FORMATS)
def test_opcheck_every_mode_dtype_and_format(dtype, fmt):
    for mode in MODES:
        grad = dtype.is_floating_point and dtype not in (torch.float16, torch.bfloat16)
        x = sample(dtype, fmt).requires_grad_(grad)
        value = 1.0 if mode == "constant" and dtype is not torch.bool else None
        torch.library.opcheck(torch.ops.ndpad.pad.default, (x, [2, 1, 1, -1], mode, value))
        torch.library.opcheck(torch.ops.ndpad.crop_pad.default,
                              (x, [0, 1, -1, 2], [1, 0, 2, -1], mode, 0.0))
        if grad:
            shape = [d + b + e for d, b, e in zip(x.shape, [1, 0, 2, -1], [0, 1, 0, 2])]
            g = torch.randn(shape, dtype=dtype)
            torch.library.opcheck(torch.ops.ndpad.pad_backward.default,
                                  (g.requires_grad_(), list(x.shape), [1, 0, 2, -1],
                                   [0, 1, 0, 2], mode, mode == "circular"))


def test_results_and_layouts_are_f_pads():
    """Values and strides of F.pad (torch 2 keeps channels_last in reflect and replicate)
    for every format, the operators' CPU kernel and fake kernel alike; large enough too
    for the transposing pads (channels_last in, contiguous out) to transpose first."""
    from torch._subclasses.fake_tensor import FakeTensorMode
    for dtype in (torch.float32, torch.bfloat16, torch.float16, torch.int32):
        for fmt, shape in [(f, (2, 3, 5, 6)) for f in FORMATS] + [
                ("channels_last", (2, 8, 20, 30)), ("permuted", (1, 16, 17, 19))]:
            x = sample(dtype, fmt, shape)
            for mode in ("constant", "reflect", "replicate", "circular"):
                for pad in [(1, 2, 2, 1), (-1, 2, 1, -1), (1, 1), (0, 0, 0, 0, 1, 1)]:
                    try:
                        want = F.pad(x, pad, mode)
                    except (RuntimeError, NotImplementedError):
                        continue
                    got = nt.pad(x, pad, mode)
                    same(got, want)
                    with FakeTensorMode() as mode_:
                        fake = torch.ops.ndpad.pad(mode_.from_tensor(x), list(pad), mode)
                    assert fake.shape == want.shape and fake.stride() == want.stride()


def test_native_kernels_are_the_operators_cpu_and_autograd_cpu_kernels():
    """With the native kernels loaded (at import when built), ndpad::pad and ndpad::crop_pad
    run C++ at CPU and AutogradCPU (no Python per call), torch.library's Python kernels
    stay registered for the other keys; a pad is counted by the native kernels."""
    from test_torch import _native_available
    if not _native_available():
        if os.environ.get("NDPAD_TEST_NATIVE") == "1":
            pytest.fail("NDPAD_TEST_NATIVE=1 but no native kernels: %s" % nt.native_status())
        pytest.skip("no native kernels: %s" % nt.native_status())
    for op in ("ndpad::pad", "ndpad::crop_pad"):
        for key in ("CPU", "AutogradCPU", "Autograd", "CompositeExplicitAutograd"):
            assert torch._C._dispatch_has_kernel_for_dispatch_key(op, key), (op, key)
        dump = torch._C._dispatch_dump(op)
        assert any(line.startswith(("CPU:", "AutogradCPU:")) and "_torch_native.cpp" in line
                   for line in dump.splitlines()), dump
    x = torch.randn(1, 2, 8, 8)
    before = torch.ops.ndpad.calls()[0]
    with torch.no_grad():
        same(nt.pad(x, (1, 1, 1, 1), "reflect"), F.pad(x, (1, 1, 1, 1), "reflect"))
    assert torch.ops.ndpad.calls()[0] == before + 1
    y = nt.pad(x.requires_grad_(), (1, 2, 0, 1), "circular")
    assert y.grad_fn.name().endswith("::PadFunction>"), y.grad_fn.name()  # the C++ formula


def test_circular_on_channels_last_transposes_in_blocks():
    """Circular padding of a channels_last tensor gives a contiguous one (torch's layout):
    the native kernels transpose it in blocks as they pad (pixels of 64 bytes or more),
    deinterleave it row by row (smaller pixels of 2, 4 or 8 bytes), else transpose first. Every element size, 4-D and 5-D, pads up to the size, crops
    first; ndpad.torch.pad, crop_pad and the installed F.pad against torch's F.pad."""
    cases = 0
    for dtype in (torch.bool, torch.uint8, torch.bfloat16, torch.float32, torch.float64,
                  torch.complex128):
        for shape in ((1, 64, 33, 40), (2, 32, 40, 9), (2, 3, 50, 47), (1, 64, 5, 20, 21)):
            x = sample(dtype, "contiguous", shape)
            x = x.contiguous(memory_format=torch.channels_last if x.dim() == 4
                             else torch.channels_last_3d)
            for pad in ((1, 1, 1, 1), (0, 2, 3, 0), (4, 1), (2, 3, 1, 1, 1, 2), (9, 9, 5, 4),
                        (-1, 2, 1, -2)):
                if len(pad) // 2 != x.dim() - 2:
                    continue  # torch's circular pads every spatial dimension
                want = F.pad(x, pad, "circular")
                same(nt.pad(x, pad, "circular"), want)
                try:
                    nt.install()
                    same(F.pad(x, pad, "circular"), want)
                finally:
                    nt.uninstall()
                if min(pad) >= 0:  # the crop form wraps the whole input: the same here
                    pb, pe = _torch_ops.per_dim(list(pad), x.dim())
                    same(nt.crop_pad(x, pb, pe, "circular"), want)
                cases += 1
    assert cases == 6 * 13, cases


def _bits(t):
    """The tensor's bit patterns (floats compared bit for bit: -0.0, NaN payloads)."""
    ints = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
    return t.view(ints[t.element_size()]) if t.is_floating_point() else t


def test_circular_on_channels_last_small_pixels_deinterleave():
    """Channels_last pixels under 64 bytes (an RGB image): the native kernels deinterleave
    each source row (its index wrapped) into the channel rows of the contiguous output,
    2- and 4-byte elements with vector shuffles for 2 to 4 channels, a loop for the rest.
    Widths with and without a tail of pixels, 4-D and 5-D, pads from none to the size, crops
    first; ndpad.torch.pad and the installed F.pad against torch's F.pad, bit for bit, and
    the installed F.pad runs ndpad's kernel where it deinterleaves."""
    cases = 0
    for dtype in (torch.float32, torch.bfloat16, torch.float16, torch.int32, torch.float64,
                  torch.uint8):
        for channels in (1, 2, 3, 4, 5, 8, 15):
            if channels * torch.empty((), dtype=dtype).element_size() >= 64:
                continue
            for shape in ((2, channels, 37, 41), (1, channels, 30, 64), (1, channels, 3, 9, 21)):
                x = sample(dtype, "contiguous", shape, seed=channels)
                if dtype.is_floating_point:  # every bit pattern: NaNs, infinities, -0.0
                    x = torch.randint(-2**15, 2**15, shape, dtype=torch.int16,
                                      generator=torch.Generator().manual_seed(1))
                    x = x.view(torch.uint8).view(dtype) if dtype.itemsize == 1 else \
                        x.repeat_interleave(dtype.itemsize // 2, -1).view(dtype)
                    x = x.reshape(shape) if x.shape != shape else x
                x = x.contiguous(memory_format=torch.channels_last if x.dim() == 4
                                 else torch.channels_last_3d)
                w = shape[-1]
                for pad in ((1, 1, 1, 1), (0, 3, 2, 0), (w, w, 3, 30), (7, 0, 0, 1),
                            (-2, 3, 1, -1), (1, 2, 3, 3, 0, 2), (w, 1, 9, 9, 3, 3)):
                    if len(pad) // 2 != x.dim() - 2 or max(pad[-1], pad[-2]) > shape[2]:
                        continue
                    want = F.pad(x, pad, "circular")
                    got = nt.pad(x, pad, "circular")
                    same(_bits(got), _bits(want))
                    try:
                        nt.install(threshold=0)
                        before = torch.ops.ndpad.calls()[0] if nt.backend() == "native" else 0
                        got = F.pad(x, pad, "circular")
                        if nt.backend() == "native" and min(pad) >= 0 and \
                                x.element_size() in (2, 4, 8) and channels > 1:
                            assert torch.ops.ndpad.calls()[0] > before, (dtype, shape, pad)
                    finally:
                        nt.uninstall()
                    same(_bits(got), _bits(want))
                    cases += 1
    assert cases == 480, cases


class PadModel(torch.nn.Module):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode
        self.conv = torch.nn.Conv2d(3, 4, 3)

    def forward(self, x):
        y = nt.pad(x, (1, 1, 1, 1), self.mode)
        y = self.conv(y).relu()
        return nt.crop_pad(y, [0, 0, 2, 1], [0, 0, -1, 3], self.mode) * 2


@pytest.mark.parametrize("mode", MODES)
def test_compile_fullgraph_matches_eager(mode):
    torch._dynamo.reset()
    torch.manual_seed(0)
    model = PadModel(mode)
    x = torch.randn(2, 3, 9, 10, requires_grad=True)
    want = model(x)
    gw, = torch.autograd.grad(want.square().sum(), x)
    compiled = torch.compile(model, fullgraph=True)
    got = compiled(x)
    gg, = torch.autograd.grad(got.square().sum(), x)
    assert torch.allclose(got, want, rtol=1e-5, atol=1e-5)
    assert torch.allclose(gg, gw, rtol=1e-4, atol=1e-4)
    # and against torch's own padding where torch has the mode
    if mode != "symmetric":
        ref = F.pad(x, (1, 1, 1, 1), mode)
        assert torch.equal(torch.compile(lambda t: nt.pad(t, (1, 1, 1, 1), mode),
                                         fullgraph=True)(x), ref)


def test_compile_graph_holds_one_opaque_operator():
    torch._dynamo.reset()
    graphs = []

    def backend(gm, inputs):
        graphs.append(gm)
        return gm.forward

    f = torch.compile(lambda t: nt.pad(t, (2, 2, 2, 2), "reflect") + 1, backend=backend,
                      fullgraph=True)
    x = torch.randn(1, 2, 8, 8)
    assert torch.equal(f(x), F.pad(x, (2, 2, 2, 2), "reflect") + 1)
    targets = [n.target for n in graphs[0].graph.nodes if n.op == "call_function"]
    assert torch.ops.ndpad.pad.default in targets or torch.ops.ndpad.pad in targets, targets


def test_export():
    class M(torch.nn.Module):
        def forward(self, x):
            return nt.pad(x, (1, 2, 3, 1), "symmetric") + nt.crop_pad(
                x, [0, 0, -1, 1], [0, 0, 2, -1], "circular").sum()

    x = torch.randn(2, 3, 6, 7)
    ep = torch.export.export(M(), (x,))
    targets = {str(n.target) for n in ep.graph.nodes if n.op == "call_function"}
    assert "ndpad.pad.default" in targets and "ndpad.crop_pad.default" in targets, targets
    y = torch.randn(2, 3, 6, 7)
    assert torch.equal(ep.module()(y), M()(y))


def test_double_backward_runs_through_the_operators():
    x = torch.randn(2, 3, 5, 6, dtype=torch.float64, requires_grad=True)
    for mode in MODES:
        y = nt.pad(x, (2, 1, 1, -1), mode)
        g = torch.randn_like(y, requires_grad=True)
        gx, = torch.autograd.grad(y, x, g, create_graph=True)
        assert "PadBackward" in type(gx.grad_fn).__name__ or \
            "pad_backward" in str(gx.grad_fn).lower(), gx.grad_fn
        # the gradient of the gradient with respect to g is the pad itself
        v = torch.randn_like(gx)
        gg, = torch.autograd.grad(gx, g, v)
        assert torch.equal(gg, nt.pad(v, (2, 1, 1, -1), mode) if mode != "constant"
                           else F.pad(v, (2, 1, 1, -1)))
        assert torch.autograd.gradgradcheck(lambda t: nt.pad(t, (2, 1, 1, -1), mode), (x,))
        assert torch.autograd.gradgradcheck(
            lambda t: nt.crop_pad(t, [0, 1, -1, 2], [1, 0, 2, -1], mode), (x,))


def test_gather_kernel_of_other_devices_matches_libndpad():
    """The CompositeExplicitAutograd kernel (every device but CPU) against the CPU one."""
    for dtype in (torch.float32, torch.int16, torch.bool):
        x = sample(dtype, "sliced")
        for mode in MODES:
            for pb, pe in [([0, 1, -1, 7], [1, 0, 9, -1]), ([1, 0, 0, 0], [0, 0, 0, 2])]:
                want = nt.crop_pad(x, pb, pe, mode, 1.0 if mode == "constant" else 0.0)
                got = torch.empty_like(want)
                _torch_ops._gather_kernel(x, pb, pe, mode, 1.0 if mode == "constant" else None,
                                          None, got)
                assert torch.equal(got, want), (dtype, mode, pb, pe)


# -- install() on torch 2 ----------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16, torch.float16,
                                   torch.complex64, torch.int32, torch.uint8], ids=str)
def test_install_every_cpu_dtype_and_channels_last(dtype):
    """What F.pad and the padding modules dispatch to, for every dtype torch 2 pads on the
    CPU and both 4-D layouts: routed to ndpad (the counter moves) and torch's result."""
    from test_torch import Routed, _native_available
    native = _native_available()
    mp = pytest.MonkeyPatch()
    routed = Routed(native, mp)
    cases = []
    for fmt in ("contiguous", "channels_last"):
        x = sample(dtype, fmt, shape=(2, 4, 9, 10))
        x5 = sample(dtype, "contiguous", shape=(1, 2, 4, 5, 6))
        if fmt == "channels_last":
            x5 = x5.contiguous(memory_format=torch.channels_last_3d)
        for mode in ("constant", "reflect", "replicate", "circular"):
            for t, pad in ((x, (1, 2, 2, 1)), (x5, (1, 1, 2, 0, 1, 1)), (x[:, 0], (2, 2))):
                try:
                    cases.append((t, pad, mode, F.pad(t, pad, mode)))
                except (RuntimeError, NotImplementedError):
                    pass
        mods = [torch.nn.ReflectionPad2d(2), torch.nn.ReplicationPad2d((1, 0, 2, 1)),
                torch.nn.ZeroPad2d(1), torch.nn.ConstantPad2d(1, 3.0)]
        for m in mods:
            try:
                cases.append((x, m, None, m(x)))
            except RuntimeError:
                pass
    assert cases
    try:
        routed.install()
        for t, pad, mode, want in cases:
            before = len(routed)
            got = pad(t) if mode is None else F.pad(t, pad, mode)
            assert len(routed) == before + 1, (dtype, pad, mode, t.stride())
            same(got, want)
    finally:
        nt.uninstall()
        mp.undo()


def test_install_uninstall_while_four_threads_pad():
    """torch's dispatcher must not see kernels added or removed while it dispatches: the
    kernels are registered once, and install()/uninstall() switch a flag. Four threads pad
    (F.pad in every mode, nn modules, a conv model, ndpad.torch.pad) while a fifth toggles
    install()/uninstall() as fast as it can; every result is torch's."""
    torch.manual_seed(1)
    x = torch.randn(2, 4, 20, 21)
    conv = torch.nn.Conv2d(4, 4, 3, padding=1, padding_mode="reflect")
    calls = [(lambda m=m: F.pad(x, (2, 1, 1, 2), m)) for m in
             ("constant", "reflect", "replicate", "circular")]
    calls += [lambda: torch.nn.ReflectionPad2d(3)(x), lambda: conv(x).detach(),
              lambda: nt.pad(x, (1, 1, 1, 1), "symmetric")]
    want = [c() for c in calls]
    nt.install(threshold=0)  # the first install() registers, before the threads start
    nt.uninstall()
    stop = time.monotonic() + float(os.environ.get("NDPAD_TEST_TOGGLE_SECONDS", "4"))
    errors, counts = [], [0] * 5

    def pad_loop(k):
        try:
            i = k
            while time.monotonic() < stop:
                j = i % len(calls)
                got = calls[j]()
                if not torch.equal(got, want[j]):
                    errors.append("thread %d call %d differs" % (k, j))
                    return
                counts[k] += 1
                i += 1
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append("thread %d: %r" % (k, exc))

    def toggle():
        try:
            while time.monotonic() < stop:
                nt.install(threshold=0)
                counts[4] += 1
                nt.uninstall()
        except Exception as exc:  # noqa: BLE001
            errors.append("toggler: %r" % exc)

    threads = [threading.Thread(target=pad_loop, args=(k,)) for k in range(4)]
    threads.append(threading.Thread(target=toggle))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    nt.uninstall()
    assert not errors, errors
    assert min(counts[:4]) > 10 and counts[4] > 100, counts


def _child_env(cache, **more):
    """The environment of a child process that loads ndpad.torch as a user's would: the
    package this suite tests (the source tree, or the installed one under
    NDPAD_TEST_INSTALLED=1), the native kernels from `cache` (None: the suite's own)."""
    env = dict(os.environ, **more)
    if cache is not None:
        env["NDPAD_TORCH_CACHE"] = str(cache)
    env.pop("NDPAD_TORCH_NATIVE", None)
    if os.environ.get("NDPAD_TEST_INSTALLED") != "1":
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = here + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_first_use_build_in_a_fresh_cache(tmp_path):
    """The native kernels compiled at first use into a per-torch cache, in a new process:
    install() builds them (NDPAD_TORCH_CACHE empty), a second process finds them cached.
    Skipped without a C++ compiler; NDPAD_TEST_BUILD=0 skips it (it takes ~30 s)."""
    if os.environ.get("NDPAD_TEST_BUILD") == "0":
        pytest.skip("NDPAD_TEST_BUILD=0")
    import shutil
    if not shutil.which(os.environ.get("CXX") or "c++"):
        pytest.skip("no C++ compiler")
    env = _child_env(tmp_path)
    code = ("import torch, torch.nn.functional as F, ndpad.torch as nt; nt.install(); "
            "x = torch.randn(1, 4, 40, 40); y = F.pad(x, (1, 1, 1, 1), 'reflect'); "
            "print(nt.native_status()); print(torch.ops.ndpad.calls()[0]); "
            "nt.uninstall(); assert torch.equal(y, F.pad(x, (1, 1, 1, 1), 'reflect'))")
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    status, routed = first.stdout.split()[-2:] if False else first.stdout.splitlines()[-2:]
    assert status.startswith("native: " + str(tmp_path)) and int(routed) >= 1, first.stdout
    assert "compiling the native kernels" in first.stderr
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                            text=True, timeout=120)
    assert second.returncode == 0, second.stderr
    assert "compiling" not in second.stderr and second.stdout.startswith("native: ")
    env["NDPAD_TORCH_CACHE"] = str(tmp_path / "none")
    env["NDPAD_TORCH_BUILD"] = "0"
    third = subprocess.run([sys.executable, "-c", code.replace("nt.install()",
                                                               "nt.install(); assert "
                                                               "nt.backend() == 'python'")
                            .replace("print(torch.ops.ndpad.calls()[0]); ", ""),
                            ], env=env, capture_output=True, text=True, timeout=120)
    assert third.returncode == 0, third.stderr
    assert third.stdout.startswith("python: ") and "NDPAD_TORCH_BUILD=0" in third.stdout


def test_the_kernel_build_finds_the_installed_header(tmp_path):
    """A wheel and `pip install .` put ndpad.h in site-packages/ndpad/include/ (CMake's
    SKBUILD rule): the first-use build finds it there (it looked in ndpad/ and the
    checkout's include/ only, so an installed package never built its kernels); with no
    ndpad.h anywhere, the reason names the folders and the fix."""
    import importlib.util
    import shutil
    from ndpad import _torch_build
    here = os.path.dirname(os.path.abspath(__file__))
    header = os.path.join(here, "..", "..", "include", "ndpad.h")
    if not os.path.exists(header):
        header = os.path.join(_torch_build.default_include(), "ndpad.h")

    def installed(root, with_header):
        package = root / "site-packages" / "ndpad"
        os.makedirs(package / "include")
        shutil.copy(_torch_build.__file__, package / "_torch_build.py")
        if with_header:
            shutil.copy(header, package / "include" / "ndpad.h")
        spec = importlib.util.spec_from_file_location("_installed_build", package /
                                                      "_torch_build.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module, str(package / "include")

    module, include = installed(tmp_path / "with", True)
    assert module.default_include() == include
    module, include = installed(tmp_path / "without", False)
    assert module.default_include() is None
    with pytest.raises(module.Unavailable, match="ndpad.h is not in .*%s.*reinstall ndpad"
                       % include):
        module.check()


def test_a_failed_kernel_build_is_said_once_with_its_fix(tmp_path):
    """A build that cannot work (here: no compiler) warns once, saying why and how to fix it,
    without announcing a compile; later processes use the Python kernels silently, and
    native_status() still says why; a changed compiler (CXX) is tried again, and its
    failure is said (once) with the compiler's exit status."""
    false = __import__("shutil").which("false")
    code = ("import ndpad.torch as nt; nt.install(); print(nt.backend()); "
            "print(nt.native_status())")

    def child(cxx):
        done = subprocess.run([sys.executable, "-W", "always", "-c", code],
                              env=_child_env(tmp_path, CXX=cxx), capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        backend, status = done.stdout.splitlines()[-2:]
        assert backend == "python", done.stdout
        return status, done.stderr

    status, err = child("/nonexistent/c++")
    assert "compiling" not in err, err
    assert "RuntimeWarning" in err and "no C++ compiler" in err and "apt-get install g++" in err
    assert "build_native() retries" in err, err
    assert status.startswith("python: ") and "no C++ compiler" in status, status
    status, err = child("/nonexistent/c++")
    assert "compiling" not in err and "RuntimeWarning" not in err, err
    assert "no C++ compiler" in status and "libndpad_torch.so.failed" in status, status
    if false:
        status, err = child(false)
        assert "compiling" in err and "RuntimeWarning" in err, err
        assert "the compiler failed (%s exited with status 1)" % false in err, err
        assert "C++20" in status, status


def test_native_kernels_run_on_torchs_pool():
    """The native kernels run libndpad's tiles on torch's intra-op pool, in a fresh process:
    no `ndpad-worker` thread ever appears; with torch.set_num_threads(1) no thread but the
    caller does any work, with 2 another thread does (torch's OpenMP team: the one libgomp
    torch loaded, no second OpenMP runtime beside it). threads=2 asks for ndpad's own
    workers, and then they do appear (the check sees them)."""
    from test_torch import _native_available
    if not _native_available():
        if os.environ.get("NDPAD_TEST_NATIVE") == "1":
            pytest.fail("NDPAD_TEST_NATIVE=1 but no native kernels: %s" % nt.native_status())
        pytest.skip("no native kernels: %s" % nt.native_status())
    code = r"""
import glob, os, threading, time, torch, ndpad.torch as nt
def cpu():  # thread id -> (name, user + system ticks)
    out = {}
    for d in glob.glob("/proc/self/task/*"):
        try:
            name = open(d + "/comm").read().strip()
            fields = open(d + "/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[int(os.path.basename(d))] = (name, int(fields[11]) + int(fields[12]))
    return out
def workers():
    return sorted(n for n, _ in cpu().values() if n.startswith("ndpad"))
print(nt.native_status())
me = threading.get_native_id()
for n in (1, 2):
    torch.set_num_threads(n)
    x = torch.randn(1, 64, 256, 256)
    time.sleep(0.2)  # the OpenMP team's spinning after randn ends
    before = cpu()
    for _ in range(100):
        nt.pad(x, (1, 1, 1, 1), "reflect")
    after = cpu()
    others = sum(t - before.get(k, (None, 0))[1] for k, (_, t) in after.items() if k != me)
    print(n, others, workers())
gomps = {l.split()[-1] for l in open("/proc/self/maps") if "libgomp" in l}
print(len([g for g in gomps if "ndpad.libs" not in g]))
for _ in range(100):  # a worker names itself once it runs: wait for it, up to 5 s
    nt.pad(x, (1, 1, 1, 1), "reflect", threads=2)
    if workers():
        break
    time.sleep(0.05)
print(workers())
"""
    env = _child_env(None, NDPAD_TORCH_BUILD="0")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    status, one, two, gomps, own = done.stdout.splitlines()[-5:]
    assert status.startswith("native: "), done.stdout
    one, two = one.split(" ", 2), two.split(" ", 2)
    assert one[0] == "1" and int(one[1]) <= 1 and one[2] == "[]", done.stdout
    assert two[0] == "2" and int(two[1]) >= 1 and two[2] == "[]", done.stdout
    assert gomps == "1", done.stdout
    assert "ndpad-worker-1" in own, done.stdout
