"""Loading libndpad with ctypes, the C structures of include/ndpad.h, and the one call that
runs a problem (plan, execute, destroy) and turns a failing status into an exception."""

import collections
import ctypes
import ctypes.util
import os
import sys
import threading

__all__ = ["NdpadError", "NdpadValueError", "NdpadMemoryError", "lib", "library_path",
           "run", "output_shape", "clear_plan_cache", "MAX_RANK", "MODES",
           "window_input_box", "run_window"]

MAX_RANK = 32  # NDPAD_MAX_RANK
MODES = {"constant": 0, "edge": 1, "reflect": 2, "symmetric": 3, "wrap": 4}  # ndpad_mode


class ndpad_problem(ctypes.Structure):
    # The six arrays and pad_value are pointers in C; c_void_p has the same size and
    # passing convention, and lets make_problem() store plain addresses (no ctypes.cast).
    _fields_ = [
        ("rank", ctypes.c_int32),
        ("mode", ctypes.c_int32),
        ("elem_size", ctypes.c_size_t),
        ("shape", ctypes.c_void_p),
        ("pads_begin", ctypes.c_void_p),
        ("pads_end", ctypes.c_void_p),
        ("interior", ctypes.c_void_p),
        ("in_strides", ctypes.c_void_p),
        ("out_strides", ctypes.c_void_p),
        ("pad_value", ctypes.c_void_p),
    ]


class ndpad_options(ctypes.Structure):
    _fields_ = [
        ("threads", ctypes.c_int32),
        ("isa", ctypes.c_int32),
        ("tile_rows", ctypes.c_int64),
        ("tile_cols", ctypes.c_int64),
        ("reserved", ctypes.c_int64 * 8),
    ]


class NdpadError(Exception):
    """A call into libndpad failed. `status` is the ndpad_status value, `message` the text
    of ndpad_last_error(). Raised as NdpadValueError (also a ValueError) for problems the
    caller can fix and NdpadMemoryError (also a MemoryError) when planning runs out of
    memory."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


class NdpadValueError(NdpadError, ValueError):
    pass


class NdpadMemoryError(NdpadError, MemoryError):
    pass


_NULL_ARGUMENT, _NULL_BUFFER, _OUT_OF_MEMORY = 1, 11, 16

# --------------------------------------------------------------------------------------
# Finding the library: NDPAD_LIBRARY, then next to this package, then the system.
# --------------------------------------------------------------------------------------

_NAMES = ("libndpad.so", "libndpad.so.0", "libndpad.dylib", "ndpad.dll")


def _candidates():
    """(description, path-or-name) pairs in lookup order."""
    env = os.environ.get("NDPAD_LIBRARY")
    if env:
        # An explicit choice is final: a wrong NDPAD_LIBRARY must not silently load another
        # libndpad from elsewhere.
        if os.path.isdir(env):
            for name in _NAMES:
                path = os.path.join(env, name)
                if os.path.exists(path):
                    yield "NDPAD_LIBRARY", path
                    return
        yield "NDPAD_LIBRARY", env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    for name in _NAMES:
        path = os.path.join(here, name)
        if os.path.exists(path):
            yield "next to the package", path
    # The dynamic loader's own search (LD_LIBRARY_PATH, ld.so.cache, /usr/lib).
    for name in ("libndpad.so.0", "libndpad.so"):
        yield "system library path", name
    found = ctypes.util.find_library("ndpad")
    if found:
        yield "ctypes.util.find_library", found
    # `cmake --install` into a prefix whose lib directory the loader does not search until
    # ldconfig runs (/usr/local/lib on Debian), or into this Python's prefix.
    prefixes = [sys.prefix, sys.base_prefix, "/usr/local", "/opt/ndpad"]
    multiarch = getattr(sys.implementation, "_multiarch", None)
    for prefix in dict.fromkeys(prefixes):
        for libdir in ("lib", "lib64") + ((os.path.join("lib", multiarch),) if multiarch else ()):
            for name in ("libndpad.so.0", "libndpad.so"):
                path = os.path.join(prefix, libdir, name)
                if os.path.exists(path):
                    yield "install prefix " + prefix, path


def _load():
    tried = []
    for where, name in _candidates():
        try:
            handle = ctypes.CDLL(name)
        except OSError as exc:
            tried.append("%s (%s): %s" % (name, where, exc))
            continue
        if not hasattr(handle, "ndpad_plan_create"):
            tried.append("%s (%s): not libndpad (no ndpad_plan_create)" % (name, where))
            continue
        path = name
        if not os.path.isabs(path):
            path = getattr(handle, "_name", name)
        return handle, path
    raise ImportError(
        "ndpad: cannot load the libndpad shared library. Build it (cmake -S . -B build && "
        "cmake --build build) and either set NDPAD_LIBRARY=/path/to/libndpad.so, copy "
        "libndpad.so into %s, or install it with cmake --install (then run ldconfig, or put "
        "its lib directory in LD_LIBRARY_PATH). Tried:\n  %s"
        % (os.path.dirname(os.path.abspath(__file__)), "\n  ".join(tried) or "(nothing)"))


lib, library_path = _load()

lib.ndpad_output_shape.argtypes = [ctypes.POINTER(ndpad_problem), ctypes.c_void_p]
lib.ndpad_output_shape.restype = ctypes.c_int
lib.ndpad_plan_create.argtypes = [ctypes.POINTER(ndpad_problem), ctypes.POINTER(ndpad_options),
                                  ctypes.POINTER(ctypes.c_void_p)]
lib.ndpad_plan_create.restype = ctypes.c_int
lib.ndpad_execute.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
lib.ndpad_execute.restype = ctypes.c_int
lib.ndpad_plan_destroy.argtypes = [ctypes.c_void_p]
lib.ndpad_plan_destroy.restype = None
lib.ndpad_plan_describe.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
lib.ndpad_plan_describe.restype = ctypes.c_size_t
# Appended calls (ndpad.h 0.1.0): a libndpad from before them lacks the symbols.
_has_default_threads = hasattr(lib, "ndpad_get_default_threads")
if _has_default_threads:
    lib.ndpad_get_default_threads.argtypes = []
    lib.ndpad_get_default_threads.restype = ctypes.c_int32
    lib.ndpad_set_default_threads.argtypes = [ctypes.c_int32]
    lib.ndpad_set_default_threads.restype = ctypes.c_int
if hasattr(lib, "ndpad_version"):
    lib.ndpad_version.argtypes = []
    lib.ndpad_version.restype = ctypes.c_char_p
lib.ndpad_status_string.argtypes = [ctypes.c_int]
lib.ndpad_status_string.restype = ctypes.c_char_p
lib.ndpad_last_error.argtypes = []
lib.ndpad_last_error.restype = ctypes.c_char_p


def _raise(status, caller=None, names=None):
    """Raises the failure of the last call. With `caller` (the Python function the user
    called), the message speaks of it and of its arguments: libndpad's C function name is
    replaced by `caller` and C argument names by their Python names (`names`: C -> Python),
    with no status name in front; the status stays in the exception's `status`."""
    message = lib.ndpad_last_error().decode("utf-8", "replace")
    if caller is None:
        text = "%s: %s" % (lib.ndpad_status_string(status).decode("utf-8", "replace"), message)
    else:
        head, sep, rest = message.partition(": ")
        if sep and head.startswith("ndpad_") and " " not in head:
            message = rest
        for c_name, py_name in (names or {}).items():
            message = message.replace(c_name, py_name)
        text = "%s: %s" % (caller, message)
    if status == _OUT_OF_MEMORY:
        raise NdpadMemoryError(status, text)
    if status in (_NULL_ARGUMENT, _NULL_BUFFER):
        # The wrapper never passes NULL where it matters: this is a bug in ndpad's Python
        # layer, not in the caller's arguments.
        raise NdpadError(status, text)
    raise NdpadValueError(status, text)


class ndpad_onnx_problem(ctypes.Structure):
    _fields_ = [
        ("problem", ndpad_problem),
        ("in_offset", ctypes.c_ssize_t),
        ("shape", ctypes.c_int64 * MAX_RANK),
        ("pads_begin", ctypes.c_int64 * MAX_RANK),
        ("pads_end", ctypes.c_int64 * MAX_RANK),
        ("in_strides", ctypes.c_int64 * MAX_RANK),
    ]


lib.ndpad_onnx_center_crop_pad_init.argtypes = [
    ctypes.POINTER(ndpad_onnx_problem), ctypes.c_int32, ctypes.c_void_p, ctypes.c_size_t,
    ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64]
lib.ndpad_onnx_center_crop_pad_init.restype = ctypes.c_int


def check_center_crop_pad(shape, elem_size, target_shape, axes):
    """ndpad_onnx_center_crop_pad_init(): validates CenterCropPad's arguments (raises
    NdpadValueError with libndpad's message naming the argument and axis)."""
    def buf(values):
        return (ctypes.c_int64 * max(len(values), 1))(*values)
    shape_buf, target_buf = buf(shape), buf(target_shape)
    axes_buf = None if axes is None else buf(axes)
    onnx = ndpad_onnx_problem()
    status = lib.ndpad_onnx_center_crop_pad_init(
        ctypes.byref(onnx), len(shape), shape_buf, elem_size, target_buf, len(target_shape),
        axes_buf, 0 if axes is None else len(axes))
    if status != 0:
        _raise(status, "center_crop_pad", {"target_shape": "shape"})


def make_problem(mode, elem_size, shape, pads_begin, pads_end, interior=None,
                 in_strides=None, out_strides=None, pad_value=None):
    """An ndpad_problem plus the ctypes buffer it points into (keep both alive)."""
    rank = len(shape)
    arrays = [shape, pads_begin, pads_end, interior, in_strides, out_strides]
    present = [a for a in arrays if a is not None]
    values = [v for a in present for v in a]
    value_bytes = bytes(pad_value) if pad_value is not None else b""
    # One buffer: the int64 arrays, then the pad value (8-byte aligned, any size).
    words = len(values) + (len(value_bytes) + 7) // 8
    buf = (ctypes.c_int64 * max(words, 1))(*values)
    base = ctypes.addressof(buf)
    p = ndpad_problem(rank, mode, elem_size)
    fields = ("shape", "pads_begin", "pads_end", "interior", "in_strides", "out_strides")
    slot = 0
    for field, a in zip(fields, arrays):
        if a is not None:
            setattr(p, field, base + 8 * slot if rank else None)
            slot += rank
    if pad_value is not None:
        ctypes.memmove(base + 8 * slot, value_bytes, len(value_bytes))
        p.pad_value = base + 8 * slot
    # Everything the plan depends on, for the plan cache: the buffer's bytes and which
    # arrays are present (NULL and an array of zeros are different problems).
    p.key = (mode, elem_size, rank, tuple(a is not None for a in arrays),
             pad_value is not None, bytes(buf))
    return p, buf


def output_shape(problem):
    """ndpad_output_shape(): validates the whole problem; raises NdpadError."""
    out = (ctypes.c_int64 * max(problem.rank, 1))()
    status = lib.ndpad_output_shape(ctypes.byref(problem), out)
    if status != 0:
        _raise(status)
    return tuple(out[k] for k in range(problem.rank))


_options = {}


def _options_for(threads):
    options = _options.get(threads)
    if options is None:
        options = ndpad_options()
        options.threads = threads
        _options[threads] = options  # read-only from now on: safe to share across threads
    return options


class _Plan:
    """An ndpad_plan, destroyed when the last reference goes: the cache may drop a plan
    while another thread still executes it (that thread holds a reference)."""

    __slots__ = ("handle",)

    def __init__(self, handle):
        self.handle = handle

    def __del__(self, destroy=lib.ndpad_plan_destroy):
        destroy(self.handle)


PLAN_CACHE_SIZE = 64  # plans kept, least recently used dropped first
_plans = collections.OrderedDict()
_plans_lock = threading.Lock()
# fork() while another thread holds the lock would leave it locked forever in the child: it
# is held across the fork (a thread inside waits at most for a dictionary update) and
# released on both sides, as libndpad does with its own locks.
if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_plans_lock.acquire, after_in_parent=_plans_lock.release,
                        after_in_child=_plans_lock.release)


def _plan_for(problem, threads):
    """The plan of `problem` (made by make_problem) with `threads`, from the cache or new.
    Planning costs tens of microseconds; a small pad repeated on the same shapes (the
    common case in a loop) then pays only for execution."""
    # threads=0 plans take the default budget when made (ndpad_set_default_threads() caps
    # it: threadpoolctl's threadpool_limits), so the budget of now is part of the key.
    default = lib.ndpad_get_default_threads() if threads == 0 and _has_default_threads else 0
    key = (threads, default) + problem.key
    with _plans_lock:
        plan = _plans.get(key)
        if plan is not None:
            _plans.move_to_end(key)
            return plan
    options = _options_for(threads)
    handle = ctypes.c_void_p()
    status = lib.ndpad_plan_create(ctypes.byref(problem), ctypes.byref(options),
                                   ctypes.byref(handle))
    if status != 0:
        _raise(status)
    plan = _Plan(handle)
    with _plans_lock:
        _plans[key] = plan
        while len(_plans) > PLAN_CACHE_SIZE:
            _plans.popitem(last=False)
    return plan


lib.ndpad_pad_sides.argtypes = [ctypes.POINTER(ndpad_problem), ctypes.c_char_p,
                               ctypes.POINTER(ndpad_options), ctypes.c_void_p, ctypes.c_void_p]
lib.ndpad_pad_sides.restype = ctypes.c_int


def run_sides(problem, side_values, in_ptr, out_ptr, threads=0):
    """ndpad_pad_sides(): `problem` (made by make_problem, mode constant) with the bytes of
    2 * rank values, (axis 0 begin, axis 0 end, axis 1 begin, ...), numpy's corner rule.
    ctypes releases the GIL for the whole call."""
    # threads=0 is the default options (NULL): libndpad then reuses its one-shot plans
    options = None if threads == 0 else ctypes.byref(_options_for(threads))
    status = lib.ndpad_pad_sides(ctypes.byref(problem), side_values, options, in_ptr, out_ptr)
    if status != 0:
        _raise(status)


lib.ndpad_pad_per_index.argtypes = [ctypes.POINTER(ndpad_problem), ctypes.c_int32,
                                     ctypes.c_char_p, ctypes.POINTER(ndpad_options),
                                     ctypes.c_void_p, ctypes.c_void_p]
lib.ndpad_pad_per_index.restype = ctypes.c_int


def run_per_index(problem, axis, values, in_ptr, out_ptr, threads=0):
    """ndpad_pad_per_index(): `problem` (mode constant) with the bytes of one value per
    output index along `axis`. ctypes releases the GIL for the whole call."""
    options = None if threads == 0 else ctypes.byref(_options_for(threads))
    status = lib.ndpad_pad_per_index(ctypes.byref(problem), axis, values, options, in_ptr,
                                     out_ptr)
    if status != 0:
        _raise(status)


class ndpad_bits_problem(ctypes.Structure):
    _fields_ = [
        ("problem", ndpad_problem),
        ("elem_bits", ctypes.c_int32),
        ("reserved", ctypes.c_int32),
        ("in_bit_offset", ctypes.c_int64),
        ("out_bit_offset", ctypes.c_int64),
    ]


lib.ndpad_bits_output_shape.argtypes = [ctypes.POINTER(ndpad_bits_problem), ctypes.c_void_p]
lib.ndpad_bits_output_shape.restype = ctypes.c_int
lib.ndpad_bits_pad.argtypes = [ctypes.POINTER(ndpad_bits_problem),
                               ctypes.POINTER(ndpad_options), ctypes.c_void_p, ctypes.c_void_p]
lib.ndpad_bits_pad.restype = ctypes.c_int


def make_bits_problem(problem, elem_bits, in_bit_offset, out_bit_offset):
    """An ndpad_bits_problem over `problem` (made by make_problem: keep its buffer alive)."""
    return ndpad_bits_problem(problem, elem_bits, 0, in_bit_offset, out_bit_offset)


def bits_output_shape(problem):
    """ndpad_bits_output_shape(): validates the whole sub-byte problem; raises NdpadError."""
    out = (ctypes.c_int64 * max(problem.problem.rank, 1))()
    status = lib.ndpad_bits_output_shape(ctypes.byref(problem), out)
    if status != 0:
        _raise(status)
    return tuple(out[k] for k in range(problem.problem.rank))


def run_bits(problem, in_ptr, out_ptr, threads=0):
    """ndpad_bits_pad() on raw addresses (plan, execute, destroy in one call; the GIL is
    released for the whole call)."""
    options = None if threads == 0 else ctypes.byref(_options_for(threads))
    status = lib.ndpad_bits_pad(ctypes.byref(problem), options, in_ptr, out_ptr)
    if status != 0:
        _raise(status)


def clear_plan_cache():
    """Drop every cached plan (they are destroyed once no call is executing them)."""
    with _plans_lock:
        _plans.clear()


def run(problem, in_ptr, out_ptr, threads=0):
    """Execute `problem` (made by make_problem) with `threads` on the raw addresses, with a
    cached plan. ctypes releases the GIL for the whole execution."""
    plan = _plan_for(problem, threads)
    status = lib.ndpad_execute(plan.handle, in_ptr, out_ptr)
    if status != 0:
        _raise(status)


def describe(problem, threads=0):
    """The text of ndpad_plan_describe() for `problem` (for debugging and benchmarks)."""
    options = ndpad_options()
    options.threads = threads
    plan = ctypes.c_void_p()
    status = lib.ndpad_plan_create(ctypes.byref(problem), ctypes.byref(options),
                                   ctypes.byref(plan))
    if status != 0:
        _raise(status)
    try:
        size = lib.ndpad_plan_describe(plan, None, 0)
        buf = ctypes.create_string_buffer(size + 1)
        lib.ndpad_plan_describe(plan, buf, size + 1)
        return buf.value.decode("utf-8", "replace")
    finally:
        lib.ndpad_plan_destroy(plan)


# --------------------------------------------------------------------------------------
# Windows (ndpad_window_input_box, ndpad_window_plan_create): a block of the output from
# only the input box it reads. Used by ndpad.dask.
# --------------------------------------------------------------------------------------

_i64p = ctypes.POINTER(ctypes.c_int64)
lib.ndpad_window_input_box.argtypes = [ctypes.POINTER(ndpad_problem), _i64p, _i64p, _i64p,
                                       _i64p]
lib.ndpad_window_input_box.restype = ctypes.c_int
lib.ndpad_window_plan_create.argtypes = [ctypes.POINTER(ndpad_problem), _i64p, _i64p, _i64p,
                                         _i64p, _i64p, _i64p, ctypes.POINTER(ndpad_options),
                                         ctypes.POINTER(ctypes.c_void_p)]
lib.ndpad_window_plan_create.restype = ctypes.c_int


def _int64s(values):
    return (ctypes.c_int64 * max(len(values), 1))(*values)


def window_input_box(problem, out_begin, out_end):
    """ndpad_window_input_box(): the input box [(begin, end), ...] the output window
    [out_begin, out_end) reads; every (0, 0) when it reads nothing. Raises NdpadError."""
    rank = problem.rank
    in_begin, in_end = _int64s([0] * rank), _int64s([0] * rank)
    status = lib.ndpad_window_input_box(ctypes.byref(problem), _int64s(out_begin),
                                        _int64s(out_end), in_begin, in_end)
    if status != 0:
        _raise(status)
    return [(in_begin[k], in_end[k]) for k in range(rank)]


def run_window(problem, out_begin, out_end, in_begin, in_end, box_strides, window_strides,
               in_ptr, out_ptr, threads=1):
    """Plan the window of `problem` (strides in elements) and execute it once on the raw
    addresses: `in_ptr` at input element in_begin, `out_ptr` at the window's first element.
    ctypes releases the GIL for planning and execution."""
    options = _options_for(threads)
    handle = ctypes.c_void_p()
    status = lib.ndpad_window_plan_create(
        ctypes.byref(problem), _int64s(out_begin), _int64s(out_end), _int64s(in_begin),
        _int64s(in_end), _int64s(box_strides), _int64s(window_strides),
        ctypes.byref(options), ctypes.byref(handle))
    if status != 0:
        _raise(status)
    try:
        status = lib.ndpad_execute(handle, in_ptr, out_ptr)
        if status != 0:
            _raise(status)
    finally:
        lib.ndpad_plan_destroy(handle)
