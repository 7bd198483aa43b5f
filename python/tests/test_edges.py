"""Every public Python entry point fed values at the edges of each dtype (issue 41): integer
minima and maxima, inf, nan, -0.0, subnormals, float16 (and bfloat16 where ml_dtypes is
installed), bool, complex, long double, objects; as arrays and as constants. Each result is
compared with numpy.pad's, or with numpy's assignment of the same value where ndpad goes
beyond numpy.pad (a pad value per index, crop_pad's value), byte for byte (values and signs
for long double, whose padding bytes numpy leaves undefined): the same result or the same
exception type. Plus the regressions of issue 41's items 7 to 10."""

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import ndpad

HERE = os.path.dirname(os.path.abspath(__file__))


def _int_edges(t):
    i = np.iinfo(t)
    return [int(i.min), int(i.max), 0, -1 if i.min else 1]


def _float_edges(t):
    f = np.finfo(t)
    return [float("inf"), float("-inf"), float("nan"), -0.0, float(f.max), float(f.min),
            float(f.tiny), float(f.tiny) * float(f.eps)]  # the last: a subnormal


DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float16, np.float32, np.float64, np.longdouble, np.complex64, np.complex128,
          np.bool_, object, "M8[ns]", "m8[s]", "S3", "U2"]
try:
    import ml_dtypes  # in CI's PyPI venv (ci/requirements-python.txt), not on Debian 12
    DTYPES.append(ml_dtypes.bfloat16)
except ImportError:
    ml_dtypes = None


def edge_values(dtype):
    """Values at the edges of `dtype` (Python numbers, as callers write them)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        return _int_edges(dtype.type)
    if dtype.kind == "b":
        return [True, False]
    if dtype.kind == "c":
        f = _float_edges(np.finfo(dtype).dtype.type)
        return [complex(f[0], f[3]), complex(f[2], 1.0), complex(-0.0, -0.0),
                complex(f[4], f[5]), complex(f[7], -f[6])]
    if dtype.kind == "O":
        return [2**100, -(2**64), None, float("nan"), "text"]
    if dtype.kind in "Mm":
        unit = np.datetime_data(dtype)[0]
        return [dtype.type("NaT"), dtype.type(-2**63 + 1, unit), dtype.type(2**63 - 1, unit),
                dtype.type(0, unit)]
    if dtype.kind in "SU":
        return ["", "\u00e9" if dtype.kind == "U" else b"\xff\x00", "toolong"]
    if ml_dtypes is not None and dtype == ml_dtypes.bfloat16:
        f = ml_dtypes.finfo(dtype)
        return [float("inf"), float("-inf"), float("nan"), -0.0, float(f.max),
                float(f.min), float(f.tiny)]
    return _float_edges(dtype.type)


# Values from the other dtypes' edges, cast in (numpy's conversions and its errors).
FOREIGN = [2**63 - 1, -2**63, 2**64 - 1, 2**63 + 1, -1, True, float("nan"), float("inf"),
           -0.0, 1e300, complex(1.5, -0.0), np.uint64(2**64 - 1), np.int64(-2**63),
           np.float16(-0.0), np.float32("nan")]


def edge_array(dtype, shape=(3, 4)):
    """An array holding the dtype's edge values (and zeros), C order."""
    n = int(np.prod(shape))
    a = np.zeros(n, dtype=dtype)
    for i, v in enumerate(edge_values(dtype)):
        a[(2 * i + 1) % n] = v
    return a.reshape(shape)


def outcome(call):
    """('ok', result) or ('raise', exception type); numpy's warnings (invalid casts,
    DeprecationWarning on numpy 1.24) silenced on both sides."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ("ok", call())
        except (ValueError, TypeError, OverflowError, MemoryError) as e:
            return ("raise", type(e))


def same_array(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if want.dtype.hasobject:
        return all(g is w or g == w or (g != g and w != w)
                   for g, w in zip(got.ravel().tolist(), want.ravel().tolist()))
    if want.dtype.kind in "fc" and want.dtype.itemsize in (12, 16, 24, 32) and \
            np.finfo(want.dtype).nmant > 52:
        # long double: values and signs (numpy leaves the padding bytes undefined)
        parts = (lambda a: (a.real, a.imag)) if want.dtype.kind == "c" else (lambda a: (a,))
        return all(np.array_equal(g, w, equal_nan=True) and
                   np.array_equal(np.signbit(g), np.signbit(w))
                   for g, w in zip(parts(got), parts(want)))
    return np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes()


def check(got, want, what):
    assert got[0] == want[0], (what, got, want)
    if want[0] == "raise":
        assert issubclass(got[1], want[1]), (what, got[1], want[1])
    else:
        assert same_array(np.asarray(got[1]), np.asarray(want[1])), (what, got[1], want[1])


def assigned(new_shape, dtype, widths, value, a):
    """numpy's assignment semantics: `value` assigned to a new array, `a` to its interior."""
    out = np.empty(new_shape, dtype=dtype)
    out[...] = value
    out[tuple(slice(b, b + d) for (b, _), d in zip(widths, a.shape))] = a
    return out


WIDTHS = ((2, 1), (0, 3))
MODES = ("edge", "reflect", "symmetric", "wrap", "maximum", "mean", "linear_ramp")


def dtype_id(d):
    return np.dtype(d).name


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
def test_pad_at_the_edges_of_each_dtype(dtype):
    a = edge_array(dtype)
    for mode in MODES:
        if mode in ("mean", "linear_ramp") and np.dtype(dtype).kind in "OV":
            continue  # numpy's own arithmetic on Python objects: not ndpad's to compare
        check(outcome(lambda: ndpad.pad(a, WIDTHS, mode)),
              outcome(lambda: np.pad(a, WIDTHS, mode)), (mode,))
    for v in edge_values(dtype) + FOREIGN:
        for cv in (v, (v, 0), ((0, v), (v, 1))):
            check(outcome(lambda: ndpad.pad(a, WIDTHS, "constant", constant_values=cv)),
                  outcome(lambda: np.pad(a, WIDTHS, "constant", constant_values=cv)), cv)


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
def test_pad_per_index_at_the_edges_of_each_dtype(dtype):
    a = edge_array(dtype)
    values = (edge_values(dtype) + FOREIGN)
    for axis in (0, 1):
        n = a.shape[axis] + sum(WIDTHS[axis])
        for start in range(0, len(values), n):
            vals = (values[start:start + n] * n)[:n]

            def want():
                # numpy's assignment, one value after the other
                new_shape = tuple(d + b + e for d, (b, e) in zip(a.shape, WIDTHS))
                out = np.empty(new_shape, dtype=a.dtype)
                for i, v in enumerate(vals):
                    out[(slice(None),) * axis + (i,)] = v
                out[tuple(slice(b, b + d) for (b, _), d in zip(WIDTHS, a.shape))] = a
                return out

            check(outcome(lambda: ndpad.pad_per_index(a, WIDTHS, vals, axis=axis)),
                  outcome(want), (axis, vals))


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
def test_crop_pad_and_center_crop_pad_at_the_edges_of_each_dtype(dtype):
    a = edge_array(dtype)
    new_shape = tuple(d + b + e for d, (b, e) in zip(a.shape, WIDTHS))
    pb, pe = [b for b, _ in WIDTHS], [e for _, e in WIDTHS]
    for v in edge_values(dtype) + FOREIGN:
        check(outcome(lambda: ndpad.crop_pad(a, pb, pe, "constant", v)),
              outcome(lambda: assigned(new_shape, a.dtype, WIDTHS, v, a)), v)
    for mode in ("edge", "reflect", "symmetric", "wrap"):
        check(outcome(lambda: ndpad.crop_pad(a, pb, pe, mode)),
              outcome(lambda: np.pad(a, WIDTHS, mode)), mode)
    check(outcome(lambda: ndpad.crop_pad(a, [-1, 0], [0, -2], "reflect")),
          ("ok", a[1:, :-2]), "crop")
    zero = np.zeros((), dtype=a.dtype)[()]
    check(outcome(lambda: ndpad.center_crop_pad(a, [6, 2])),
          outcome(lambda: assigned((6, 2), a.dtype, ((1, 2), (0, 0)), zero, a[:, 1:3])),
          "center")


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
def test_dask_pad_and_crop_pad_at_the_edges_of_each_dtype(dtype):
    da = pytest.importorskip("dask.array")
    import ndpad.dask
    a = edge_array(dtype)
    x = da.from_array(a, chunks=2)
    ramp = np.dtype(dtype).kind not in "OV"  # numpy's arithmetic on objects: not compared
    for mode in ("constant",) + MODES + (("median", "minimum") if ramp else ()):
        if mode in ("mean", "linear_ramp") and not ramp:
            continue
        check(outcome(lambda: ndpad.dask.pad(x, WIDTHS, mode).compute(scheduler="sync")),
              outcome(lambda: np.pad(a, WIDTHS, mode)), (mode,))
    if dtype is object:
        return  # constants on object arrays: dask.array.pad's
    new_shape = tuple(d + b + e for d, (b, e) in zip(a.shape, WIDTHS))
    for v in edge_values(dtype) + FOREIGN[:8]:
        cv = ((0, v), (v, 1))
        check(outcome(lambda: ndpad.dask.pad(x, WIDTHS, "constant", constant_values=cv)
                      .compute(scheduler="sync")),
              outcome(lambda: np.pad(a, WIDTHS, "constant", constant_values=cv)), cv)
        check(outcome(lambda: ndpad.dask.crop_pad(x, [2, 0], [1, 3], "constant", v)
                      .compute(scheduler="sync")),
              outcome(lambda: assigned(new_shape, a.dtype, WIDTHS, v, a)), v)


def test_pack_unpack_and_packed_pads_at_the_edges():
    for bits in (1, 2, 4):
        lo, hi = -(1 << (bits - 1)), (1 << bits) - 1
        for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                      np.uint32, np.uint64, np.bool_):
            for v in edge_values(dtype) + [lo, hi, lo - 1, hi + 1]:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        arr = np.array([v, v], dtype=dtype)
                    except (OverflowError, ValueError):
                        continue
                exact = int(arr[0])
                if lo <= exact <= hi:
                    got = ndpad.unpack(ndpad.pack(arr, bits), 2, bits)
                    assert got.tolist() == [exact & hi] * 2, (bits, dtype, v)
                else:
                    with pytest.raises(ValueError):  # never wrapped into range first
                        ndpad.pack(arr, bits)
        for v in (2**64 - 1, 2**64, -2**63 - 1, 2**100):  # Python ints beyond 64 bits
            with pytest.raises((ValueError, OverflowError)):
                ndpad.pack([v, 0], bits)
        with pytest.raises(TypeError):
            ndpad.pack([0.5], bits)
        # the constant of packed pads: the element's bits, signed or unsigned, else raises
        src = ndpad.pack(np.array([lo & hi, hi, 0]), bits)
        for v in (lo, hi, True, np.uint8(hi), np.int64(lo), lo - 1, hi + 1, 2**64 - 1,
                  np.uint64(2**64 - 1), np.int64(-2**63), 2**63 + 1):
            if isinstance(v, (bool, np.bool_)) or lo <= int(v) <= hi:
                got = ndpad.unpack(ndpad.pad_packed(src, (3,), 2, "constant", bits=bits,
                                                    constant_values=v), 7, bits)
                want = np.pad(np.array([lo & hi, hi, 0]), 2, constant_values=int(v) & hi)
                assert got.tolist() == want.tolist(), (bits, v)
                got = ndpad.unpack(ndpad.crop_pad_packed(src, (3,), 2, 2, "constant", v,
                                                         bits=bits), 7, bits)
                assert got.tolist() == want.tolist(), (bits, v)
            else:
                with pytest.raises(ValueError):
                    ndpad.pad_packed(src, (3,), 2, bits=bits, constant_values=v)
                with pytest.raises(ValueError):
                    ndpad.crop_pad_packed(src, (3,), 2, 2, "constant", v, bits=bits)
        got = ndpad.unpack(ndpad.center_crop_pad_packed(src, (3,), [5], bits=bits), 5, bits)
        assert got.tolist() == [0, lo & hi, hi, 0, 0]
        # unpack's count and offsets at their edges
        assert ndpad.unpack(src, 0, bits).shape == (0,)
        for count, offset in ((-1, 0), (-(2**63), 0), (2**40, 0), (1, -1), (1, 2**62)):
            with pytest.raises(ValueError):
                ndpad.unpack(src, count, bits, bit_offset=offset)


# --------------------------------------------------------------------------------------
# the regressions of issue 41 (items 7 to 10)
# --------------------------------------------------------------------------------------

def test_unpack_negative_count_raises():
    with pytest.raises(ValueError):  # returned 3 elements
        ndpad.unpack(b"\x21\x43", -1, 4)


def test_pack_does_not_wrap_uint64():
    with pytest.raises(ValueError):  # wrapped to 0x8F
        ndpad.pack([2**64 - 1, 2**64 - 8], 4)
    with pytest.raises(ValueError):
        ndpad.pack(np.array([2**63, 0], dtype=np.uint64), 4)


def test_pad_per_index_converts_each_value_exactly():
    got = ndpad.pad_per_index(np.zeros(1, np.uint64), (1, 1), [2**63 + 1, 5, 7])
    assert got.tolist() == [2**63 + 1, 0, 7]  # [2**63, 0, 7] through float64
    got = ndpad.pad_per_index(np.zeros((1, 1), np.int64), 1, [-2**63, 3, 2**63 - 1], axis=0)
    assert got[:, 1].tolist() == [-2**63, 0, 2**63 - 1]


def _peak_in_a_small_process(code, limit_gib=4):
    """Run `code` (which sets `peak` to tracemalloc's peak) in a child limited to
    `limit_gib` of address space: a regression raises there instead of swapping CI."""
    prog = ("import resource, sys, tracemalloc\n"
            "resource.setrlimit(resource.RLIMIT_AS, (%d << 30, %d << 30))\n"
            "sys.path.insert(0, %r)\n"
            "import numpy as np, ndpad\n%s\nprint(peak)\n"
            % (limit_gib, limit_gib, os.path.dirname(HERE), code))
    env = dict(os.environ)
    if os.environ.get("NDPAD_TEST_INSTALLED") == "1":
        prog = prog.replace("sys.path.insert", "(lambda *a: None)")
    done = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


NUMPY_2 = int(np.__version__.split(".")[0]) >= 2  # numpy 1 has at most 32 axes
RANK_33 = pytest.mark.skipif(not NUMPY_2 or not sys.platform.startswith("linux"),
                             reason="rank 33 needs numpy >= 2; RLIMIT_AS needs Linux")


@RANK_33
@pytest.mark.parametrize("mode", ["reflect", "symmetric", "wrap"])
def test_fallback_checks_the_size_first(mode):
    # rank 33 (beyond libndpad's 32): numpy.pad raises MemoryError at once; the per-axis
    # fallback grew intermediates to 24 GB before (OOM-killed). Measured: the growth of
    # the child's peak resident memory (tracemalloc counts numpy's refused request).
    grew = _peak_in_a_small_process(
        "rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10\n"
        "before = rss()\n"
        "try:\n    ndpad.pad(np.zeros((1,) * 33), 1, %r)\nexcept MemoryError:\n    pass\n"
        "else:\n    raise SystemExit('no MemoryError')\n"
        "try:\n    np.pad(np.zeros((1,) * 33), 1, %r)\nexcept MemoryError:\n    pass\n"
        "else:\n    raise SystemExit('numpy.pad: no MemoryError')\n"
        "peak = rss() - before" % (mode, mode))
    assert grew < 64 << 20, grew


@RANK_33
def test_fallback_holds_the_result_and_one_slice():
    # object arrays and rank 33 in reflect/symmetric/wrap: the result (32 MB here) and at
    # most one slice of ndpad._fallback._COPY_ELEMENTS elements, not twice the result
    peak = _peak_in_a_small_process(
        "a = np.arange(1000 * 1000).astype(object).reshape(1000, 1000)\n"
        "b = np.arange(500.0 * 500).reshape((1,) * 31 + (500, 500))\n"
        "tracemalloc.start()\n"
        "r = ndpad.pad(a, 500, 'reflect')\n"
        "assert r.shape == (2000, 2000) and r[0, 0] == a[500, 500]\n"
        "del r\n"
        "r = ndpad.pad(b, ((0, 0),) * 31 + ((750, 750), (750, 750)), 'wrap')\n"
        "assert r.shape[-2:] == (2000, 2000) and r[(0,) * 33] == b[(0,) * 31 + (250, 250)]\n"
        "peak = tracemalloc.get_traced_memory()[1]")
    assert peak < 32e6 + (8 << 20) + (4 << 20), peak


def test_fallback_slices_match_numpy(monkeypatch):
    # the per-axis fallback with slices of any length, against numpy.pad (numpy >= 2.1's
    # results: the reference's for older numpy)
    import reference
    from ndpad import _fallback
    rng = np.random.default_rng(41)
    for limit in (1, 3, 1 << 20):
        monkeypatch.setattr(_fallback, "_COPY_ELEMENTS", limit)
        for _ in range(60):
            ndim = int(rng.integers(1, 4))
            shape = tuple(int(v) for v in rng.integers(1, 6, ndim))
            a = rng.integers(0, 100, shape).astype(object)
            if rng.integers(2):
                a = np.asfortranarray(a)
            widths = [(int(rng.integers(0, 12)), int(rng.integers(0, 12))) for _ in shape]
            for mode in ("reflect", "symmetric", "wrap"):
                got = ndpad.pad(a, widths, mode)
                want = reference.pad(a.astype(np.int64), widths, mode)
                assert got.dtype == object and np.array_equal(got.astype(np.int64), want)
                order = "F" if a.flags.fnc else "C"  # numpy.pad's layout
                assert got.flags[order + "_CONTIGUOUS"]
