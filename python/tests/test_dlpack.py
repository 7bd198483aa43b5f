"""ndpad.pad and ndpad.array_api.pad on arrays of other libraries through DLPack (torch, JAX,
array-api-strict, and a bare DLPack producer): every mode, results equal to numpy.pad of the
same data, the caller's array type and dtype back, the input read in place (libndpad is
handed the producer's own memory), and the errors (device, read-only out, grad, mode)."""

import ctypes
import inspect

import numpy as np
import pytest

import ndpad
import ndpad.array_api
from ndpad import _native

MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
WIDTHS = ((2, 1), (0, 3))  # pads larger than the axis too (extent 3 and 4)


class _DLTensor(ctypes.Structure):  # DLPack's DLTensor, read here without ndpad's code
    _fields_ = [("data", ctypes.c_void_p), ("device", ctypes.c_int32 * 2),
                ("ndim", ctypes.c_int32), ("dtype", ctypes.c_uint8 * 4),
                ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
                ("byte_offset", ctypes.c_uint64)]


def dlpack_address(x):
    """The address of x's first element, from its DLPack capsule."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    capsule = x.__dlpack__()
    t = _DLTensor.from_address(get(capsule, b"dltensor"))
    return t.data + t.byte_offset


class Producer:
    """A bare DLPack producer (no namespace): ndpad returns numpy arrays for it."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, **kwargs):
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


class OnDevice:
    """Reports memory on a CUDA device, as a GPU tensor's DLPack export does."""

    def __dlpack__(self, **kwargs):
        raise AssertionError("must not be exported")

    def __dlpack_device__(self):
        return (2, 1)


ML_DTYPES = ("bfloat16", "float8_e4m3fn", "float8_e5m2")  # types numpy lacks


def np_dtype(name):
    if name in ML_DTYPES:
        return np.dtype(getattr(pytest.importorskip("ml_dtypes"), name))
    return np.dtype(name)


class Torch:
    name = "torch"

    def __init__(self):
        self.torch = pytest.importorskip("torch")

    def make(self, a):
        if a.dtype.name in ML_DTYPES:  # through integers of the same size
            as_int = self.torch.from_numpy(a.view("i%d" % a.itemsize).copy())
            return as_int.view(getattr(self.torch, a.dtype.name))
        return self.torch.from_numpy(a.copy())

    def numpy(self, r):
        name = str(r.dtype).rpartition(".")[2]
        if name in ML_DTYPES:
            as_int = r.view(getattr(self.torch, "int%d" % (8 * r.element_size())))
            return as_int.numpy().view(np_dtype(name))
        return r.numpy()

    def array_type(self):
        return self.torch.Tensor


class Namespace:
    """An array-API namespace (jax.numpy, array_api_strict): asarray in, numpy out."""

    def __init__(self, module, to_numpy):
        self.xp = pytest.importorskip(module)
        self.numpy = to_numpy

    def make(self, a):
        return self.xp.asarray(a)

    def array_type(self):
        return type(self.xp.asarray(0))


LIBRARIES = {"torch": Torch, "jax": lambda: Namespace("jax.numpy", np.asarray),
             "strict": lambda: Namespace("array_api_strict", np.from_dlpack)}
DTYPES = {"torch": ["float32", "int16", "uint8", "bool", "float16", "complex64", "bfloat16",
                    "float8_e4m3fn"],
          "jax": ["float32", "int32", "bool", "float16", "bfloat16", "float8_e5m2"],
          "strict": ["float64", "int8", "bool"]}


def data(dtype):
    dt = np_dtype(dtype)
    a = np.arange(1, 13).reshape(3, 4) % 7
    return (a % 2 == 1) if dt == np.bool_ else a.astype(dt)


@pytest.fixture
def handed_to_libndpad(monkeypatch):
    """The address of every input array ndpad hands libndpad."""
    seen = []
    run = _native.run

    def spy(problem, array, result, threads):
        seen.append(array.__array_interface__["data"][0])
        return run(problem, array, result, threads)

    monkeypatch.setattr(_native, "run", spy)
    return seen


CASES = [(lib, dtype) for lib, dtypes in DTYPES.items() for dtype in dtypes]


@pytest.mark.parametrize("lib,dtype", CASES)
@pytest.mark.parametrize("mode", MODES)
def test_every_mode(lib, dtype, mode, handed_to_libndpad):
    L = LIBRARIES[lib]()
    a = data(dtype)
    x = L.make(a)
    kwargs = {"constant_values": ((1, 0), (3, 1))} if mode == "constant" else {}
    got = ndpad.pad(x, WIDTHS, mode, **kwargs)
    assert type(got) is L.array_type()
    assert got.dtype == x.dtype
    want = np.pad(a, WIDTHS, mode, **kwargs)
    assert np.array_equal(L.numpy(got).view(np.uint8), want.view(np.uint8))
    # libndpad read the producer's memory itself: no copy of the input
    assert handed_to_libndpad == [dlpack_address(x)]


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("mode,kwargs", [("mean", {}), ("linear_ramp", {"end_values": 5}),
                                         ("reflect", {"reflect_type": "odd"})])
def test_numpy_modes(lib, mode, kwargs):
    L = LIBRARIES[lib]()
    a = data("float32") * 1.5
    got = ndpad.pad(L.make(a), WIDTHS, mode, **kwargs)
    assert type(got) is L.array_type()
    np.testing.assert_array_equal(L.numpy(got), np.pad(a, WIDTHS, mode, **kwargs))


def test_torch_strided_input_not_copied(handed_to_libndpad):
    torch = pytest.importorskip("torch")
    base = torch.arange(60, dtype=torch.float32).reshape(6, 10)
    for x in (base.T, base[1::2, 3:9:2], base[:, 7]):
        handed_to_libndpad.clear()
        got = ndpad.pad(x, 2, "reflect")
        np.testing.assert_array_equal(got.numpy(), np.pad(x.numpy(), 2, "reflect"))
        assert handed_to_libndpad == [x.data_ptr()]


def test_torch_bfloat16_constant_is_cast():
    torch = pytest.importorskip("torch")
    x = torch.zeros(2, dtype=torch.bfloat16)
    got = ndpad.pad(x, 1, constant_values=1.00390625)  # rounds to bfloat16's 1.0078125
    assert torch.equal(got, torch.nn.functional.pad(x, (1, 1), value=1.00390625))
    assert got.dtype == torch.bfloat16


def test_torch_out():
    torch = pytest.importorskip("torch")
    x = torch.arange(6).reshape(2, 3)
    out = torch.full((4, 5), -1)
    assert ndpad.pad(x, 1, "wrap", out=out) is out
    np.testing.assert_array_equal(out.numpy(), np.pad(x.numpy(), 1, "wrap"))
    with pytest.raises(ValueError, match="shape"):
        ndpad.pad(x, 1, out=torch.zeros(4, 4, dtype=x.dtype))


def test_torch_results_share_memory():
    torch = pytest.importorskip("torch")
    got = ndpad.pad(torch.arange(6.0), 2, "edge")
    view = np.from_dlpack(got)
    view[0] = 42  # the tensor is the buffer libndpad wrote, not a copy of it
    assert got[0].item() == 42


def test_jax_results_are_aligned_for_aliasing():
    pytest.importorskip("jax")
    import jax.numpy as jnp
    got = ndpad.pad(jnp.arange(5.0), 3, "symmetric")
    assert got.unsafe_buffer_pointer() % 64 == 0
    np.testing.assert_array_equal(np.asarray(got), np.pad(np.arange(5.0), 3, "symmetric"))


def test_jax_out_is_read_only():
    pytest.importorskip("jax")
    import jax.numpy as jnp
    with pytest.raises(ValueError, match="read-only.*immutable"):
        ndpad.pad(jnp.arange(3), 1, out=jnp.zeros(5, jnp.int32))


def test_torch_requires_grad_is_torchs_error():
    torch = pytest.importorskip("torch")
    with pytest.raises(BufferError, match="detach"):
        ndpad.pad(torch.zeros(3, requires_grad=True), 1)


def test_device_outside_the_cpu():
    with pytest.raises(TypeError, match=r"cuda:1 \(DLPack device type 2, id 1\)"):
        ndpad.pad(OnDevice(), 1, "edge")
    with pytest.raises(TypeError, match="cuda:1"):
        ndpad.array_api.pad(OnDevice(), 1)


def test_bare_producer_gives_numpy(handed_to_libndpad):
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    got = ndpad.pad(Producer(a), ((1, 0), (2, 2)), "symmetric")
    assert type(got) is np.ndarray
    np.testing.assert_array_equal(got, np.pad(a, ((1, 0), (2, 2)), "symmetric"))
    assert handed_to_libndpad == [a.ctypes.data]


def test_bad_pad_width_is_numpys_error():
    a = np.arange(4.0)
    with pytest.raises(ValueError, match="negative"):
        ndpad.pad(Producer(a), -1)


def test_array_api_signature_is_array_api_extras():
    xpx = pytest.importorskip("array_api_extra")
    theirs = list(inspect.signature(xpx.pad).parameters.values())
    ours = list(inspect.signature(ndpad.array_api.pad).parameters.values())[:len(theirs)]
    assert [(p.name, p.kind, p.default) for p in ours] == \
        [(p.name, p.kind, p.default) for p in theirs]


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("pad_width", [2, (1, 3), [(0, 1), (2, 0)]])
def test_array_api_constant_equals_array_api_extra(lib, pad_width):
    xpx = pytest.importorskip("array_api_extra")
    L = LIBRARIES[lib]()
    x = L.make(data("float32"))
    got = ndpad.array_api.pad(x, pad_width, constant_values=2.5)
    want = xpx.pad(x, pad_width, constant_values=2.5)
    assert type(got) is type(want) is L.array_type()
    np.testing.assert_array_equal(L.numpy(got), L.numpy(want))


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("mode", MODES[1:] + ["maximum"])
def test_array_api_every_mode(lib, mode):
    L = LIBRARIES[lib]()
    a = data("int32")
    got = ndpad.array_api.pad(L.make(a), [(1, 2), (3, 0)], mode=mode)
    assert type(got) is L.array_type()
    np.testing.assert_array_equal(L.numpy(got), np.pad(a, [(1, 2), (3, 0)], mode))


def test_array_api_xp_makes_the_result():
    xp = pytest.importorskip("array_api_strict")
    got = ndpad.array_api.pad(Producer(np.arange(3)), 1, "wrap", xp=xp)
    assert type(got) is type(xp.asarray(0))
    assert xp.all(got == xp.asarray([2, 0, 1, 2, 0]))


def test_array_api_numpy_and_errors():
    a = np.arange(4)
    np.testing.assert_array_equal(ndpad.array_api.pad(a, 1, "edge"), np.pad(a, 1, "edge"))
    with pytest.raises(ValueError, match="constant_values"):
        ndpad.array_api.pad(a, 1, "edge", constant_values=3)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_array_api_with_array_api_compats_namespace(lib):
    """As scipy calls it: xp = array_api_compat.array_namespace(x)."""
    compat = pytest.importorskip("array_api_compat")
    L = LIBRARIES[lib]()
    a = data("float32")
    x = L.make(a)
    got = ndpad.array_api.pad(x, [(1, 0), (0, 2)], "reflect", xp=compat.array_namespace(x))
    assert type(got) is L.array_type()
    np.testing.assert_array_equal(L.numpy(got), np.pad(a, [(1, 0), (0, 2)], "reflect"))
