"""Arrays of other libraries through DLPack: torch tensors, JAX arrays, and any array-API
array on the CPU are read in place as numpy views (never copied), padded by ndpad.pad, and
the result handed back as the caller's array type.

Reading: numpy.from_dlpack; for the element types numpy does not know (bfloat16 and the
float8 types, DLPack 1.1's codes) the DLPack capsule itself is read (ctypes) into a
read-only view with ml_dtypes' dtype of the same bits, so padding copies bytes and
constant_values are cast as ml_dtypes casts them. Returning: torch.from_dlpack (shares the
result's memory), jax.numpy.from_dlpack (shares it too: the result is allocated 64-byte
aligned, as JAX's CPU client requires to alias a buffer), else the array's namespace
(__array_namespace__().from_dlpack), else the numpy array itself."""

import ctypes

import numpy as np

__all__ = ["exports", "as_numpy", "library", "new_result", "to_caller"]

# DLPack's device types that are host memory numpy can read (DLDeviceType).
_HOST_DEVICES = {1, 3, 11, 13}  # kDLCPU, kDLCUDAHost, kDLROCMHost, kDLCUDAManaged
_DEVICE_NAMES = {2: "cuda", 4: "opencl", 7: "vulkan", 8: "metal", 9: "vpi", 10: "rocm",
                 12: "ext_dev", 14: "oneapi", 15: "webgpu", 16: "hexagon", 17: "maia"}

# DLDataType (code, bits) -> numpy dtype, or the ml_dtypes name of a type numpy lacks.
_NUMPY_CODES = {0: "i", 1: "u", 2: "f", 5: "c"}
_ML_DTYPES = {(4, 16): "bfloat16", (7, 8): "float8_e3m4", (8, 8): "float8_e4m3",
              (9, 8): "float8_e4m3b11fnuz", (10, 8): "float8_e4m3fn",
              (11, 8): "float8_e4m3fnuz", (12, 8): "float8_e5m2", (13, 8): "float8_e5m2fnuz",
              (14, 8): "float8_e8m0fnu"}


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):  # also the head of DLManagedTensor ("dltensor" capsules)
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def exports(x):
    """Is `x` an array of another library that exports DLPack (not a numpy array)?"""
    t = type(x)
    return not isinstance(x, np.ndarray) and hasattr(t, "__dlpack__") and \
        hasattr(t, "__dlpack_device__")


def library(x):
    """The top-level package of x's type: "torch", "jax" (jaxlib's arrays too), ..."""
    root = type(x).__module__.partition(".")[0]
    return "jax" if root == "jaxlib" else root


def _check_device(x, what):
    device_type, device_id = (int(v) for v in x.__dlpack_device__())
    if device_type not in _HOST_DEVICES:
        name = getattr(x, "device", None)
        name = str(name) if name is not None else "%s:%d" % (
            _DEVICE_NAMES.get(device_type, "device type %d" % device_type), device_id)
        raise TypeError("ndpad pads arrays in CPU memory; %s is on device %s (DLPack device "
                        "type %d, id %d): copy it to the CPU first (torch: x.cpu(); JAX: "
                        "jax.device_put(x, jax.devices('cpu')[0]))"
                        % (what, name, device_type, device_id))


class _MissingDtype(TypeError):
    pass


def _ml_dtype(name):
    try:
        import ml_dtypes
    except ImportError:
        raise _MissingDtype("arrays of %s need the ml_dtypes package (pip install "
                            "ml_dtypes): numpy has no such dtype" % name) from None
    dtype = getattr(ml_dtypes, name, None)
    if dtype is None:
        raise _MissingDtype("this ml_dtypes (%s) has no %s" % (ml_dtypes.__version__, name))
    return np.dtype(dtype)


class _Capsule:
    """Keeps the DLPack capsule (so the producer's memory) alive as the view's base; the
    capsule is never consumed, so its own destructor releases the tensor."""

    def __init__(self, capsule, interface):
        self.capsule = capsule
        self.__array_interface__ = interface


def _from_capsule(x):
    """A read-only numpy view of x's memory read from its DLPack capsule, for the element
    types numpy.from_dlpack refuses (bfloat16, float8); None for types it does not know."""
    capsule = x.__dlpack__()
    t = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
    code, bits, lanes = t.dtype.code, t.dtype.bits, t.dtype.lanes
    if lanes != 1 or bits % 8:
        return None
    if (code, bits) in _ML_DTYPES:
        dtype = _ml_dtype(_ML_DTYPES[(code, bits)])
    elif code in _NUMPY_CODES:
        dtype = np.dtype("%s%d" % (_NUMPY_CODES[code], bits // 8))
    elif code == 6 and bits == 8:  # kDLBool (numpy < 1.25 does not read it)
        dtype = np.dtype(bool)
    else:
        return None
    shape = tuple(t.shape[k] for k in range(t.ndim))
    if 0 in shape:
        return np.empty(shape, dtype)
    strides = None if not t.strides else \
        tuple(t.strides[k] * dtype.itemsize for k in range(t.ndim))
    # The bytes as unsigned integers of the same size (any typestr numpy parses), then the
    # dtype itself: a view, never a copy.
    interface = {"version": 3, "shape": shape, "typestr": "|u%d" % dtype.itemsize,
                 "data": (t.data + t.byte_offset, True), "strides": strides}
    return np.asarray(_Capsule(capsule, interface)).view(dtype)


def as_numpy(x, what="the array"):
    """x's memory as a numpy array (no copy): numpy.from_dlpack, or the capsule for dtypes
    numpy lacks. Errors: a TypeError naming the device for memory outside the CPU; the
    producer's own (e.g. torch's for tensors that require grad), or numpy's."""
    _check_device(x, what)
    try:
        return np.from_dlpack(x)
    except (RuntimeError, BufferError, TypeError, ValueError) as error:
        failure = error
    try:
        view = _from_capsule(x)
    except _MissingDtype:
        raise
    except Exception:
        view = None
    if view is None:
        raise failure
    return view


def new_result(x, shape, dtype):
    """The buffer ndpad writes the result of `x` into, or None for ndpad.pad's own: for JAX a
    C-contiguous 64-byte aligned array, which jax.numpy.from_dlpack aliases instead of
    copying."""
    if library(x) != "jax":
        return None
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(nbytes + 64, np.uint8)
    start = -raw.ctypes.data % 64
    return raw[start:start + nbytes].view(dtype).reshape(shape)


def to_caller(result, x, xp=None):
    """`result` (a numpy array) as an array of x's library, sharing its memory where that
    library can: torch.from_dlpack, jax.numpy.from_dlpack, `xp` or x's namespace's
    from_dlpack; a numpy array when x's library offers none."""
    lib = library(x)
    # what numpy exports through DLPack: its own bool, integers, floats, complex (not
    # ml_dtypes' types, user dtypes, some of which call themselves kind "f")
    standard = result.dtype.isbuiltin == 1 and result.dtype.kind in "biufc"
    if lib == "torch":
        import torch
        if standard:
            return torch.from_dlpack(result)
        # ml_dtypes' types: the bytes as integers of their size, then torch's own dtype
        as_int = result.view("i%d" % result.dtype.itemsize)
        return torch.from_dlpack(as_int).view(x.dtype)
    if lib == "jax":
        import jax.numpy as jnp
        return jnp.from_dlpack(result) if standard else jnp.asarray(result)
    namespace = xp if xp is not None else (
        x.__array_namespace__() if hasattr(x, "__array_namespace__") else None)
    if namespace is None or namespace is np or getattr(namespace, "__name__", "") in \
            ("numpy", "array_api_compat.numpy"):
        return result
    if not standard:
        raise TypeError("%s: cannot hand a %s array back through DLPack (numpy exports only "
                        "bool, integers, floats and complex)" % (namespace.__name__,
                                                                 result.dtype))
    return namespace.from_dlpack(result)
