"""ndpad.pad against numpy.pad (element for element, byte for byte) and against the api.md
mapping where the installed numpy predates 2.1 (pads larger than the axis in the periodic
modes)."""

import warnings

import numpy as np
import pytest

import ndpad
import reference

NATIVE_MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
PERIODIC = ["reflect", "symmetric", "wrap"]

DTYPES = [
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float16, np.float32, np.float64, np.longdouble, np.complex64,
    np.complex128, ">i4", ">f8", "M8[s]", "m8[ms]", "U3", "S5", "V3", "V12",
    np.dtype([("a", "i1"), ("b", "<f8")]),                      # packed, itemsize 9
    np.dtype([("x", "<i4"), ("y", "<f4"), ("z", "u1")], align=True),
]
DTYPE_IDS = [str(np.dtype(d)) for d in DTYPES]


def same(got, want):
    """Equal shape, dtype and bytes (NaN payloads and -0.0 included)."""
    assert got.shape == want.shape
    assert got.dtype == want.dtype
    if got.dtype.names:  # bytes between fields are not part of the value (numpy skips them)
        for name in got.dtype.names:
            same(got[name], want[name])
        return
    assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes()


def random_array(rng, shape, dtype):
    dtype = np.dtype(dtype)
    n = int(np.prod(shape))
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(bool)
    raw = rng.integers(0, 256, size=n * dtype.itemsize, dtype=np.uint8)
    return raw.view(dtype).reshape(shape)


def layout(rng, base_shape, dtype, kind):
    """An array of shape base_shape with the given memory layout."""
    shape = tuple(base_shape)
    if kind == "C":
        return random_array(rng, shape, dtype)
    if kind == "F":
        return np.asfortranarray(random_array(rng, shape, dtype))
    if kind == "steps":  # a view with steps 1..3 on every axis
        steps = tuple(int(rng.integers(1, 4)) for _ in shape)
        big = random_array(rng, tuple(n * s + 1 for n, s in zip(shape, steps)), dtype)
        view = big[tuple(slice(1, 1 + n * s, s) for n, s in zip(shape, steps))]
        assert view.shape == shape
        return view
    if kind == "negative":  # every axis reversed, some stepped
        big = random_array(rng, tuple(2 * n for n in shape), dtype)
        view = big[tuple(slice(None, None, -2) for _ in shape)]
        assert view.shape == shape
        return view
    if kind == "transposed":
        perm = rng.permutation(len(shape))
        inv = np.argsort(perm)
        return random_array(rng, tuple(shape[p] for p in perm), dtype).transpose(inv)
    if kind == "broadcast":  # zero strides on the first axis (read-only view)
        row = random_array(rng, (1,) + shape[1:], dtype)
        return np.broadcast_to(row, shape)
    if kind == "field":  # a field of a packed structured array: stride not a multiple
        rec = np.zeros(shape, dtype=[("pad", "u1"), ("v", dtype)])
        rec["v"] = random_array(rng, shape, dtype)
        view = rec["v"]
        return view
    raise AssertionError(kind)


LAYOUTS = ["C", "F", "steps", "negative", "transposed", "broadcast", "field"]


def random_widths(rng, shape, limit):
    """Per-axis (before, after) with each pad in [0, min(extent, limit)]."""
    return [(int(rng.integers(0, min(d, limit) + 1)), int(rng.integers(0, min(d, limit) + 1)))
            for d in shape]


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("mode", NATIVE_MODES + ["empty"])
def test_dtypes_modes_layouts(dtype, mode):
    rng = np.random.default_rng(abs(hash((str(np.dtype(dtype)), mode))) % 2**32)
    for kind in LAYOUTS:
        for _ in range(8):
            rank = int(rng.integers(1, 4))
            shape = tuple(int(rng.integers(1, 6)) for _ in range(rank))
            a = layout(rng, shape, dtype, kind)
            widths = random_widths(rng, shape, 4)
            want = np.pad(a, widths, mode)
            got = ndpad.pad(a, widths, mode)
            if mode == "empty":
                interior = tuple(slice(b, b + d) for (b, _), d in zip(widths, shape))
                assert got.shape == want.shape and got.dtype == want.dtype
                same(got[interior], want[interior])
            else:
                same(got, want)
            assert got.flags.f_contiguous == want.flags.f_contiguous
            assert got.flags.c_contiguous == want.flags.c_contiguous


@pytest.mark.parametrize("mode", NATIVE_MODES)
def test_random_problems_rank1_to_5(mode):
    rng = np.random.default_rng(7 + NATIVE_MODES.index(mode))
    for _ in range(300):
        rank = int(rng.integers(1, 6))
        shape = tuple(int(rng.integers(1, 5)) for _ in range(rank))
        dtype = DTYPES[int(rng.integers(0, len(DTYPES)))]
        a = layout(rng, shape, dtype, LAYOUTS[int(rng.integers(0, len(LAYOUTS)))])
        widths = random_widths(rng, shape, 3)
        same(ndpad.pad(a, widths, mode), np.pad(a, widths, mode))


def random_pad_width(rng, shape):
    """One of numpy.pad's pad_width forms, each pad within the extent (where every numpy
    version agrees)."""
    m = min(shape)
    r = lambda: int(rng.integers(0, m + 1))
    per_axis = lambda: [(int(rng.integers(0, d + 1)), int(rng.integers(0, d + 1)))
                        for d in shape]
    form = int(rng.integers(0, 10))
    if form == 0:
        return r()                                     # int
    if form == 1:
        return (r(),)                                  # (n,)
    if form == 2:
        return (r(), r())                              # (before, after)
    if form == 3:
        return [[r(), r()]]                            # ((before, after),)
    if form == 4:
        return per_axis()                              # per axis, tuples
    if form == 5:
        return [list(p) for p in per_axis()]           # per axis, lists
    if form == 6:                                      # per axis (n,) as an integer array
        return np.array([[int(rng.integers(0, d + 1))] for d in shape],
                        dtype=["i1", "i4", "i8"][int(rng.integers(0, 3))])
    if form == 7:
        return np.int16(r())                           # numpy scalar
    if form == 8:
        return np.array([r(), r()], dtype=np.int32)    # (before, after) array
    return np.array(per_axis(), dtype=np.intp)         # (ndim, 2) array


CONSTANTS = [0, 1, -1, 2.5, 300, -0.0, float("nan"), 1e30, True, 1 + 2j, np.float32(-7.5),
             np.uint8(200)]


def random_constant_values(rng, ndim):
    """None (the default) or one of numpy.pad's constant_values forms, with values that
    need casting (overflow, NaN, -0.0, complex into real, float into int)."""
    v = lambda: CONSTANTS[int(rng.integers(0, len(CONSTANTS)))]
    form = int(rng.integers(0, 8))
    if form == 0:
        return None
    if form == 1:
        return v()
    if form == 2:
        return (v(),)
    if form == 3:
        return (v(), v())
    if form == 4:
        return [[v(), v()]]
    if form == 5:
        return [(v(), v()) for _ in range(ndim)]       # per axis, before and after
    if form == 6:
        return [[v()] for _ in range(ndim)]            # per axis, one value
    return np.array([[v(), v()] for _ in range(ndim)])


@pytest.mark.parametrize("seed", range(4))
def test_random_forms_against_numpy(seed):
    """Random dtype, layout, mode, pad_width form and constant_values form: the same bytes
    as numpy.pad, or the same exception type (numpy's casting rejects some values)."""
    rng = np.random.default_rng(1000 + seed)
    compared = raised = 0
    for _ in range(1000):
        rank = int(rng.integers(1, 5))
        shape = tuple(int(rng.integers(1, 5)) for _ in range(rank))
        dtype = DTYPES[int(rng.integers(0, len(DTYPES)))]
        a = layout(rng, shape, dtype, LAYOUTS[int(rng.integers(0, len(LAYOUTS)))])
        mode = NATIVE_MODES[int(rng.integers(0, len(NATIVE_MODES)))]
        pad_width = random_pad_width(rng, shape)
        kwargs = {}
        if mode == "constant":
            values = random_constant_values(rng, rank)
            if values is not None:
                kwargs["constant_values"] = values
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numpy's casting warnings, the same both ways
            try:
                want = np.pad(a, pad_width, mode, **kwargs)
            except Exception as exc:  # noqa: BLE001 - the type is compared below
                with pytest.raises(type(exc)):
                    ndpad.pad(a, pad_width, mode, **kwargs)
                raised += 1
                continue
            got = ndpad.pad(a, pad_width, mode, **kwargs)
        same(got, want)
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == \
            (want.flags.c_contiguous, want.flags.f_contiguous)
        compared += 1
    assert compared > 800 and raised > 0


@pytest.mark.parametrize("mode", PERIODIC)
def test_pads_larger_than_extent_follow_api_md(mode):
    """numpy >= 2.1 repeats the pattern; Debian's numpy 1.24 differs there, so the reference
    is api.md's mapping, and numpy.pad is still checked where all versions agree."""
    rng = np.random.default_rng(11 + PERIODIC.index(mode))
    for _ in range(150):
        rank = int(rng.integers(1, 4))
        shape = tuple(int(rng.integers(1, 5)) for _ in range(rank))
        a = layout(rng, shape, np.int32, ["C", "negative", "steps"][int(rng.integers(0, 3))])
        widths = [(int(rng.integers(0, 12)), int(rng.integers(0, 12))) for _ in shape]
        got = ndpad.pad(a, widths, mode)
        same(got, reference.pad(a, widths, mode))
        if all(max(w) <= d for w, d in zip(widths, shape)):
            same(got, np.pad(a, widths, mode))


def test_pads_larger_than_extent_1d_exhaustive():
    for mode in PERIODIC:
        for d in range(1, 6):
            a = np.arange(10, 10 + d, dtype=np.int16)
            for b in range(0, 14):
                for e in range(0, 14, 3):
                    same(ndpad.pad(a, (b, e), mode), reference.pad(a, [(b, e)], mode))


def test_reflect_one_element_axis_is_edge():
    same(ndpad.pad(np.array([7]), (3, 5), "reflect"), np.full(9, 7))
    a = np.array([[1, 2, 3]])
    same(ndpad.pad(a, ((2, 3), (0, 0)), "reflect"), np.pad(a, ((2, 3), (0, 0)), "edge"))
    same(ndpad.pad(a, 3, "reflect"), np.pad(a, 3, "reflect"))


@pytest.mark.parametrize("pad_width", [
    0, 2, np.int32(3), [1], (2,), (1, 3), [(1, 3)], [[0, 2], [3, 1]], ((1,), (2,)),
    np.array([[2], [1]]), np.array([[1, 0], [0, 1]], dtype=np.int8), [[3, 0]], (0, 0),
])
@pytest.mark.parametrize("mode", NATIVE_MODES)
def test_pad_width_forms(pad_width, mode):
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    same(ndpad.pad(a, pad_width, mode), np.pad(a, pad_width, mode))


def test_pad_width_forms_1d_and_3d():
    a = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    for pw in [1, (1, 2), [[1, 2]], [[0, 1], [2, 0], [1, 1]], [[1], [2], [0]]]:
        same(ndpad.pad(a, pw, "symmetric"), np.pad(a, pw, "symmetric"))
    b = np.arange(5)
    for pw in [3, (2,), (1, 4), [[2, 1]]]:
        same(ndpad.pad(b, pw, "wrap"), np.pad(b, pw, "wrap"))


@pytest.mark.parametrize("values", [
    0, 7, -3, 2.5, (4,), (1, 2), [[1, 2]], ((1, 2), (3, 4)), ((5, 5), (5, 5)),
    [[9], [8]], np.array([[1, 2], [3, 4]], dtype=np.float32), np.float64(1e6),
    ((1, 1), (1, 2)), ((2, 1), (1, 1)),
])
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.complex128, np.bool_])
def test_constant_values_forms(values, dtype):
    a = (np.arange(12) % 5).astype(dtype).reshape(3, 4)
    widths = ((1, 2), (2, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy's own casting warnings, same both ways
        want = np.pad(a, widths, constant_values=values)
        got = ndpad.pad(a, widths, constant_values=values)
    same(got, want)


def test_constant_values_per_axis_3d_corners():
    rng = np.random.default_rng(3)
    for _ in range(20):
        shape = tuple(int(rng.integers(1, 4)) for _ in range(3))
        a = layout(rng, shape, np.int16, ["C", "F", "negative"][int(rng.integers(0, 3))])
        widths = [(int(rng.integers(0, 3)), int(rng.integers(0, 3))) for _ in shape]
        values = [(int(rng.integers(-9, 9)), int(rng.integers(-9, 9))) for _ in shape]
        got = ndpad.pad(a, widths, constant_values=values)
        same(got, np.pad(a, widths, constant_values=values))
        same(got, reference.pad(a, widths, "constant", values))


def test_constant_values_per_side_are_one_libndpad_call(monkeypatch):
    """Per-side constant_values go to ndpad_pad_sides once (no second numpy pass): the
    real call, counted; also into out= in place and with threads."""
    from ndpad import _lib
    calls = []
    real = _lib.run_sides

    def counted(*args, **kwargs):
        calls.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(_lib, "run_sides", counted)
    rng = np.random.default_rng(36)
    a = rng.standard_normal((3, 40, 50)).astype(np.float32)
    widths = ((0, 1), (2, 1), (1, 3))
    values = ((9, 8), (1, 2), (3, 4))
    for threads in (0, 1, 2):
        same(ndpad.pad(a, widths, constant_values=values, threads=threads),
             np.pad(a, widths, constant_values=values))
    assert len(calls) == 3
    assert len(calls[0]) == 6 * 4  # a value per axis and side
    out = np.zeros((4, 43, 54), np.float32)
    out[0:3, 2:42, 1:51] = a
    assert ndpad.pad(out[0:3, 2:42, 1:51], widths, constant_values=values, out=out) is out
    same(out, np.pad(a, widths, constant_values=values))
    # one value everywhere: the ordinary plan, not ndpad_pad_sides
    ndpad.pad(a, widths, constant_values=((5, 5), (5, 5), (5, 5)))
    assert len(calls) == 4


def test_constant_values_structured_and_void():
    rec = np.zeros(3, dtype=[("a", "i1"), ("b", "<f8")])
    rec["a"] = [1, 2, 3]
    rec["b"] = [0.5, 1.5, 2.5]
    for values in [0, 1.5, (1, 2)]:
        same(ndpad.pad(rec, 2, constant_values=values), np.pad(rec, 2, constant_values=values))
    v = np.frombuffer(bytes(range(12)), dtype="V4")
    same(ndpad.pad(v, (1, 2)), np.pad(v, (1, 2)))
    s = np.array(["ab", "cd"])
    same(ndpad.pad(s, 1, constant_values="zz"), np.pad(s, 1, constant_values="zz"))
    same(ndpad.pad(s, 1, constant_values=("x", "y")), np.pad(s, 1, constant_values=("x", "y")))


def test_reflect_type_even_is_native_and_keyword_accepted():
    a = np.arange(10).reshape(2, 5)
    for mode in ("reflect", "symmetric"):
        same(ndpad.pad(a, 2, mode, reflect_type="even"), np.pad(a, 2, mode, reflect_type="even"))


# -- fallbacks to numpy.pad ---------------------------------------------------------------

def test_fallback_statistic_modes():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((4, 5))
    for mode in ("maximum", "minimum", "mean", "median"):
        same(ndpad.pad(a, 2, mode), np.pad(a, 2, mode))
        same(ndpad.pad(a, 2, mode, stat_length=2), np.pad(a, 2, mode, stat_length=2))
        same(ndpad.pad(a, ((1, 2), (0, 3)), mode, stat_length=((1, 2), (3, 1))),
             np.pad(a, ((1, 2), (0, 3)), mode, stat_length=((1, 2), (3, 1))))


def test_fallback_linear_ramp_odd_callable():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    same(ndpad.pad(a, 2, "linear_ramp"), np.pad(a, 2, "linear_ramp"))
    same(ndpad.pad(a, 2, "linear_ramp", end_values=(5, -1)),
         np.pad(a, 2, "linear_ramp", end_values=(5, -1)))
    for mode in ("reflect", "symmetric"):
        same(ndpad.pad(a, 2, mode, reflect_type="odd"), np.pad(a, 2, mode, reflect_type="odd"))

    def pad_with(vector, pad_width, iaxis, kwargs):
        pad_value = kwargs.get("padder", 10)
        vector[:pad_width[0]] = pad_value
        vector[-pad_width[1]:] = pad_value

    same(ndpad.pad(a, 2, pad_with), np.pad(a, 2, pad_with))
    same(ndpad.pad(a, 2, pad_with, padder=100), np.pad(a, 2, pad_with, padder=100))


def test_fallback_object_dtype():
    a = np.array([[1, "x", None], [2.5, (1,), 3]], dtype=object)
    for mode in ("constant", "edge"):
        got, want = ndpad.pad(a, 1, mode), np.pad(a, 1, mode)
        assert got.dtype == object and got.tolist() == want.tolist()
    b = np.array([1, 2, 3], dtype=object)
    for mode in PERIODIC:
        for widths in [(2, 1), (7, 9)]:
            got = ndpad.pad(b, widths, mode)
            assert got.dtype == object
            want = reference.pad(b.astype(np.int64), [widths], mode)
            assert got.tolist() == want.tolist()


def test_fallback_rank0_and_empty_inputs():
    z = np.array(5.0)
    same(ndpad.pad(z, 3), np.pad(z, 3))
    same(ndpad.pad(z, 3, "edge"), np.pad(z, 3, "edge"))
    e = np.zeros((0, 3), dtype=np.int32)
    same(ndpad.pad(e, 2), np.pad(e, 2))
    same(ndpad.pad(e, 2, constant_values=7), np.pad(e, 2, constant_values=7))
    for w in [((1, 2), (3, 1)), ((0, 0), (1, 2)), ((2, 0), (0, 0))]:
        cv = ((1, 2), (3, 4))
        same(ndpad.pad(e, w, constant_values=cv), np.pad(e, w, constant_values=cv))
    same(ndpad.pad(e, ((0, 0), (1, 1)), "edge"), np.pad(e, ((0, 0), (1, 1)), "edge"))
    assert ndpad.pad(e, 2, "empty").shape == (4, 7)
    with pytest.raises(ValueError):
        ndpad.pad(e, 1, "edge")


def test_list_input_and_scalar_types():
    same(ndpad.pad([1, 2, 3], 2, "reflect"), np.pad([1, 2, 3], 2, "reflect"))
    same(ndpad.pad([[1.5, 2.5]], 1, "wrap"), np.pad([[1.5, 2.5]], 1, "wrap"))
    same(ndpad.pad(np.arange(4), 2, "reflect"), np.array([2, 1, 0, 1, 2, 3, 2, 1]))


def test_unaligned_input():
    buf = np.zeros(4 * 30 + 1, dtype=np.uint8)
    a = buf[1:].view(np.float32).reshape(5, 6)
    a[...] = np.arange(30).reshape(5, 6)
    assert not a.flags.aligned
    for mode in NATIVE_MODES:
        same(ndpad.pad(a, 2, mode), np.pad(a, 2, mode))


def test_large_enough_for_threads():
    rng = np.random.default_rng(9)
    a = rng.standard_normal((3, 64, 65)).astype(np.float32)
    for mode in NATIVE_MODES:
        want = np.pad(a, ((0, 0), (1, 2), (3, 1)), mode)
        for threads in (0, 1, 2, 3):
            same(ndpad.pad(a, ((0, 0), (1, 2), (3, 1)), mode, threads=threads), want)


def test_threads_argument_errors():
    a = np.arange(4)
    with pytest.raises(ValueError):
        ndpad.pad(a, 1, threads=-1)
    with pytest.raises(TypeError):
        ndpad.pad(a, 1, threads=1.5)
    with pytest.raises(TypeError):
        ndpad.pad(a, 1, threads=None)


# -- out= -----------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", NATIVE_MODES + ["empty", "mean"])
def test_out_layouts(mode):
    rng = np.random.default_rng(21)
    a = rng.integers(0, 100, size=(3, 4)).astype(np.int32)
    widths = ((1, 2), (2, 1))
    want = np.pad(a, widths, mode if mode != "mean" else "mean")
    shape = want.shape
    interior = (slice(1, 4), slice(2, 6))
    outs = {
        "C": np.zeros(shape, np.int32),
        "F": np.zeros(shape, np.int32, order="F"),
        "steps": np.zeros((shape[0] * 2, shape[1] * 3), np.int32)[::2, ::3],
        "negative": np.zeros(shape, np.int32)[::-1, ::-1],
        "field": np.zeros(shape, dtype=[("c", "u1"), ("v", "<i4")])["v"],
    }
    for name, out in outs.items():
        got = ndpad.pad(a, widths, mode, out=out)
        assert got is out, name
        if mode == "empty":
            same(out[interior], want[interior])
        else:
            same(out, want)


def test_out_validation():
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    with pytest.raises(ValueError):
        ndpad.pad(a, 1, out=np.zeros((4, 4)))
    with pytest.raises(ValueError):
        ndpad.pad(a, 1, out=np.zeros((4, 5), dtype=np.float32))
    ro = np.zeros((4, 5))
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        ndpad.pad(a, 1, out=ro)
    with pytest.raises(TypeError):
        ndpad.pad(a, 1, out=[[0] * 5] * 4)
    with pytest.raises(ValueError):  # the fallback validates too
        ndpad.pad(a, 1, "mean", out=np.zeros((3, 3)))


@pytest.mark.parametrize("inplace_fixed", [True, False], ids=["library", "copy-first"])
@pytest.mark.parametrize("mode", NATIVE_MODES + ["empty"])
def test_out_in_place(mode, inplace_fixed, monkeypatch):
    """The input already sits in the output's interior: only the borders are written (or,
    with a library whose in-place borders are broken, the input is copied first)."""
    import ndpad._pad as impl
    if not inplace_fixed:
        monkeypatch.setattr(impl, "_inplace_ok", False)
    rng = np.random.default_rng(4)
    for order in ("C", "F"):
        src = rng.integers(0, 1000, size=(5, 6)).astype(np.int64)
        want = np.pad(src, ((2, 1), (1, 3)), mode)
        out = np.zeros(want.shape, dtype=np.int64, order=order)
        inner = out[2:7, 1:7]
        inner[...] = src
        got = ndpad.pad(inner, ((2, 1), (1, 3)), mode, out=out)
        assert got is out
        if mode == "empty":
            same(out[2:7, 1:7], src)
        else:
            same(out, want)


def test_out_overlapping_not_in_place():
    base = np.arange(100, dtype=np.int32).reshape(10, 10)
    a = base[0:3, 0:3].copy()
    want = np.pad(base[0:3, 0:3], 1, "reflect")
    got = ndpad.pad(base[0:3, 0:3], 1, "reflect", out=base[1:6, 1:6])
    same(got, want)
    assert a.tolist() == want[1:4, 1:4].tolist()


def test_out_with_zero_stride_is_copied():
    # An output whose three rows are one row in memory (stride 0): libndpad cannot write
    # it, so the result goes through a temporary, as numpy's assignment would.
    a = np.tile(np.arange(3, dtype=np.int16), (3, 1))
    buf = np.zeros(5, np.int16)
    out = np.lib.stride_tricks.as_strided(buf, shape=(3, 5), strides=(0, 2))
    assert ndpad.pad(a, ((0, 0), (1, 1)), "wrap", out=out) is out
    assert buf.tolist() == [2, 0, 1, 2, 0]


# -- the native path really is native; layout of the C structures ---------------------------

@pytest.mark.parametrize("mode", NATIVE_MODES + ["empty"])
def test_native_cases_do_not_call_numpy_pad(mode, monkeypatch):
    import ndpad._pad as impl
    rng = np.random.default_rng(1)
    cases = []
    for kind in LAYOUTS:
        a = layout(rng, (3, 4, 2), np.float64, kind)
        for pw in [1, (2, 3), ((1, 0), (2, 4), (0, 1)), [[9, 10], [1, 1], [0, 0]]]:
            want = reference.pad(a, impl._pad_widths(pw, 3), mode) if mode != "empty" \
                else None
            cases.append((a, pw, want))

    def boom(*args, **kwargs):
        raise AssertionError("fell back to numpy")

    monkeypatch.setattr(np, "pad", boom)
    monkeypatch.setattr(impl, "_pad_by_index", boom)
    for a, pw, want in cases:
        got = ndpad.pad(a, pw, mode)
        if want is not None:
            same(got, want)
    if mode == "constant":
        a = np.arange(6.0).reshape(2, 3)
        got = ndpad.pad(a, 1, constant_values=((1, 2), (3, 4)))
        same(got, reference.pad(a, [(1, 1), (1, 1)], "constant", ((1, 2), (3, 4))))


def test_constant_values_signed_zero_and_nan():
    a = np.ones((2, 2), dtype=np.float64)
    for values in [(0.0, -0.0), ((-0.0, 0.0), (0.0, -0.0)), (np.nan, -np.nan), -0.0]:
        same(ndpad.pad(a, 1, constant_values=values), np.pad(a, 1, constant_values=values))


def test_struct_layout_matches_header():
    import ctypes
    from ndpad import _lib
    ptr = ctypes.sizeof(ctypes.c_void_p)
    p = _lib.ndpad_problem
    assert p.rank.offset == 0 and p.mode.offset == 4 and p.elem_size.offset == 8
    assert p.shape.offset == 8 + ctypes.sizeof(ctypes.c_size_t)
    assert p.pad_value.offset == p.shape.offset + 6 * ptr
    assert ctypes.sizeof(p) == p.pad_value.offset + ptr
    o = _lib.ndpad_options
    assert (o.threads.offset, o.isa.offset, o.tile_rows.offset, o.tile_cols.offset,
            o.reserved.offset, ctypes.sizeof(o)) == (0, 4, 8, 16, 24, 88)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.float64, np.complex128,
                                   "V3", "V12", "V20"], ids=str)
def test_wide_rows_vector_paths(dtype):
    """Rows long enough for vector kernels and several tiles, odd lengths, two threads."""
    rng = np.random.default_rng(17)
    for _ in range(4):
        shape = (int(rng.integers(1, 4)), int(rng.integers(2, 9)), int(rng.integers(60, 300)))
        a = layout(rng, shape, dtype, ["C", "steps", "negative", "F"][_ % 4])
        widths = random_widths(rng, shape, 70)
        for mode in NATIVE_MODES:
            want = np.pad(a, widths, mode)
            same(ndpad.pad(a, widths, mode, threads=2), want)
            same(ndpad.pad(a, widths, mode, threads=1), want)


def test_rank0_crop_pad_and_many_axes():
    same(ndpad.crop_pad(np.array(3.5), [], []), np.array(3.5))
    a = np.arange(2 ** 6, dtype=np.int8).reshape((2,) * 6)
    for mode in NATIVE_MODES:
        same(ndpad.pad(a, 1, mode), np.pad(a, 1, mode))
    b = np.arange(6, dtype=np.int16).reshape((1,) * 30 + (2, 3))
    w = [(0, 0)] * 29 + [(1, 0), (1, 2), (2, 1)]
    for mode in NATIVE_MODES:
        same(ndpad.pad(b, w, mode), np.pad(b, w, mode))


def test_concurrent_calls_from_python_threads():
    """ctypes drops the GIL: many pads at once, each with its own plan and buffers."""
    from concurrent.futures import ThreadPoolExecutor
    rng = np.random.default_rng(23)
    jobs = []
    for i in range(40):
        a = rng.standard_normal((int(rng.integers(1, 40)), int(rng.integers(1, 300))))
        jobs.append((a, random_widths(rng, a.shape, 20), NATIVE_MODES[i % 5]))
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda j: ndpad.pad(j[0], j[1], j[2], threads=1 + len(j[1]) % 2),
                                jobs))
    for (a, w, mode), got in zip(jobs, results):
        same(got, np.pad(a, w, mode))


def test_plan_cache_keys_and_bound():
    """Plans are cached per problem: a cached plan is only reused for the same shape,
    strides, pads, mode, element size, pad value and threads, and the cache stays bounded."""
    from ndpad import _lib
    _lib.clear_plan_cache()
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    for _ in range(2):  # the second round runs on cached plans
        for value in (1, 2, -5):
            same(ndpad.pad(a, 1, constant_values=value), np.pad(a, 1, constant_values=value))
        for b in (a, np.asfortranarray(a), a[::-1], a[:, ::-2], a.astype(np.int64)):
            for mode in NATIVE_MODES:
                for threads in (1, 2):
                    same(ndpad.pad(b, ((1, 2), (0, 1)), mode, threads=threads),
                         np.pad(b, ((1, 2), (0, 1)), mode))
        same(ndpad.crop_pad(a, 0, 0, interior=None), a)
        same(ndpad.crop_pad(a, 0, 0, "constant", 9, interior=[1, 0]),
             reference.crop_pad(a, [0, 0], [0, 0], "constant", 9, [1, 0]))
    assert 0 < len(_lib._plans) <= _lib.PLAN_CACHE_SIZE
    for n in range(1, 2 * _lib.PLAN_CACHE_SIZE):
        same(ndpad.pad(np.arange(n), 1, "wrap"), np.pad(np.arange(n), 1, "wrap"))
    assert len(_lib._plans) == _lib.PLAN_CACHE_SIZE
    _lib.clear_plan_cache()
    assert not _lib._plans


def test_plan_cache_evictions_under_threads():
    """More distinct problems than the cache holds, from several Python threads at once:
    plans are dropped from the cache while other threads may still execute them."""
    from concurrent.futures import ThreadPoolExecutor
    from ndpad import _lib
    rng = np.random.default_rng(29)
    arrays = [rng.standard_normal((int(rng.integers(1, 30)), int(rng.integers(1, 200))))
              for _ in range(_lib.PLAN_CACHE_SIZE + 40)]
    jobs = [(arrays[i % len(arrays)], NATIVE_MODES[i % 5], 1 + i % 3) for i in range(600)]

    def work(job):
        a, mode, w = job
        return ndpad.pad(a, w, mode, threads=1 + w % 2)

    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(work, jobs))
    for (a, mode, w), got in zip(jobs, results):
        same(got, np.pad(a, w, mode))


def test_empty_output_with_zero_strides():
    """numpy gives an empty (4, 2, 0) array the strides (0, 0, 0); an empty output addresses
    nothing, so libndpad takes them as they are (issue 12, item 11)."""
    from ndpad import _lib
    out = np.empty((4, 2, 0), dtype=np.float32)
    zero_strides = [s // out.itemsize for s in out.strides]
    for mode in ("constant", "reflect"):
        problem, keep = _lib.make_problem(_lib.MODES[mode], 4, out.shape, (0, 0, 0), (0, 0, 0),
                                          out_strides=(0, 0, 0))
        assert _lib.output_shape(problem) == (4, 2, 0)
        _lib.run(problem, None, None, 1)
        del keep
    problem, keep = _lib.make_problem(_lib.MODES["constant"], 4, (4, 2, 0), (0, 0, 0),
                                      (0, 0, 0), out_strides=zero_strides)
    _lib.run(problem, None, out.ctypes.data, 1)
    same(ndpad.pad(np.empty((4, 2, 0), np.float32), 0, out=out), np.empty((4, 2, 0), np.float32))
