"""numpy 2 as numpy.pad's drop-in must see it: NEP 50's promotion of constant_values (the
value is cast to the array's dtype as numpy.pad assigns it: same values, same warnings,
same errors), numpy 2's new dtypes (StringDType and other new-style dtypes go to numpy.pad
with numpy's result) and NEP 18 dispatch through ndpad.dask and ndpad.pad on one call.
numpy's own test_arraypad.py, routed to ndpad.pad, is run by ci/upstream-pad-tests.py."""

import warnings

import numpy as np
import pytest

import ndpad

NUMPY2 = int(np.__version__.split(".")[0]) >= 2


def outcome(fn, *args, **kwargs):
    """(result or exception type, warning categories) of one call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*args, **kwargs)
        except Exception as exc:  # the same exception type is what must match
            result = type(exc)
    return result, sorted({w.category.__name__ for w in caught})


VALUES = [0, 1, -1, 127, 128, 255, 256, 300, -129, 2**31, 2**63 - 1, 2**64, -2**63, 1.5,
          -0.5, 1e6, 1e40, float("nan"), float("inf"), 1 + 2j, True,
          np.int8(-3), np.uint8(200), np.int64(300), np.float16(2.5), np.float32(1e6),
          np.float64(1e40), np.complex64(1 - 1j), np.bool_(True), np.uint64(2**64 - 1),
          np.array(300), np.array(1.5, dtype=np.float32), [1, 300], [[1.5, -1], [2, 1e6]]]
DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float16, np.float32, np.float64, np.longdouble, np.complex64,
          np.complex128]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_constant_values_promote_as_numpy_does(dtype):
    # NEP 50 (numpy 2): Python scalars are weak, numpy scalars and arrays are not; whatever
    # numpy.pad does with each value for each dtype (cast, wrap, warn or raise), ndpad.pad
    # does the same.
    a = np.arange(6).reshape(2, 3).astype(dtype)
    for value in VALUES:
        want, want_warnings = outcome(np.pad, a, 1, "constant", constant_values=value)
        got, got_warnings = outcome(ndpad.pad, a, 1, "constant", constant_values=value)
        where = (np.dtype(dtype).name, value)
        if isinstance(want, type):
            assert got is want, where
            continue
        assert not isinstance(got, type), (where, got)
        assert got.dtype == want.dtype, where
        np.testing.assert_array_equal(got, want, err_msg=str(where))
        assert got_warnings == want_warnings, where


@pytest.mark.skipif(not NUMPY2, reason="StringDType is numpy 2's")
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap", "mean"])
def test_string_dtype_is_numpys_result(mode):
    from numpy.dtypes import StringDType
    for dt in (StringDType(), StringDType(na_object=None)):
        a = np.array([["a", "bb", "ccc"], ["dddd", "", "ffffff" * 10]], dtype=dt)
        kwargs = {}
        if mode == "constant":
            kwargs["constant_values"] = "x"
        if mode == "mean":
            with pytest.raises(Exception) as theirs:
                np.pad(a, 2, mode)
            with pytest.raises(theirs.type):
                ndpad.pad(a, 2, mode)
            continue
        want = np.pad(a, ((1, 3), (4, 2)), mode, **kwargs)
        got = ndpad.pad(a, ((1, 3), (4, 2)), mode, **kwargs)
        assert got.dtype == want.dtype
        assert got.tolist() == want.tolist()
        out = np.empty(want.shape, dtype=dt)
        assert ndpad.pad(a, ((1, 3), (4, 2)), mode, out=out, **kwargs) is out
        assert out.tolist() == want.tolist()


@pytest.mark.skipif(not NUMPY2, reason="StringDType is numpy 2's")
def test_new_style_dtypes_go_to_numpy():
    from numpy.dtypes import StringDType
    from ndpad._args import new_style_dtype
    assert new_style_dtype(StringDType())
    for dt in ("f4", "i8", "U3", "S2", "M8[ns]", "V6", [("a", "<i4"), ("b", "<f2")], "O"):
        assert not new_style_dtype(np.dtype(dt)), dt  # numpy's own, libndpad (or objects)


@pytest.mark.skipif(not NUMPY2, reason="StringDType is numpy 2's")
def test_string_dtype_through_dask_is_numpys_result():
    da = pytest.importorskip("dask.array")
    import ndpad.dask
    from numpy.dtypes import StringDType
    a = np.array(["a", "bb", "ccc", "dddd", "e"], dtype=StringDType())
    try:
        x = da.from_array(a, chunks=2)
        want = da.pad(x, 3, "reflect").compute(scheduler="threads")
    except Exception as exc:  # a dask that cannot hold StringDType: the same error
        with pytest.raises(type(exc)):
            x = da.from_array(a, chunks=2)
            ndpad.dask.pad(x, 3, "reflect").compute(scheduler="threads")
        return
    got = ndpad.dask.pad(x, 3, "reflect").compute(scheduler="threads")
    assert got.tolist() == want.tolist() == np.pad(a, 3, "reflect").tolist()


# numpy 2.3's dict pad_width ({axis: width or (before, after)}), in every mode, against
# numpy where it has the form and against the equivalent list form everywhere.
_DICT_WIDTHS = [{0: (1, 2)}, {-1: 3}, {0: (1, 0), 1: 2}, {}, {1: (0, 4), -2: 1},
                {0: 1, -2: (2, 0)}]


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("widths", _DICT_WIDTHS)
def test_dict_pad_width(mode, widths, monkeypatch):
    import ndpad

    a = np.arange(12, dtype=np.int16).reshape(3, 4)
    listed = [(0, 0), (0, 0)]
    for axis, w in widths.items():
        listed[axis] = (w, w) if isinstance(w, int) else w
    want = np.pad(a, listed, mode)
    with monkeypatch.context() as m:  # served by libndpad, not handed to numpy.pad
        m.setattr(np, "pad", lambda *args, **kwargs: pytest.fail("numpy.pad was called"))
        got = ndpad.pad(a, widths, mode)
    np.testing.assert_array_equal(got, want)
    if tuple(int(v) for v in np.__version__.split(".")[:2]) >= (2, 3):
        np.testing.assert_array_equal(np.pad(a, widths, mode), want)


@pytest.mark.parametrize("widths, error", [({2: 1}, IndexError), ({-3: 1}, IndexError),
                                           ({0: (1, 2, 3)}, AssertionError),
                                           ({0: -1}, ValueError), ({0: (1, -2)}, ValueError),
                                           ({0: 1.5}, AssertionError)])
def test_dict_pad_width_errors_as_numpy(widths, error):
    import ndpad

    a = np.zeros((2, 3))
    # ndpad.pad hands bad arguments to numpy.pad: numpy's own error (before numpy 2.3, which
    # has no dict form, whatever that numpy raises for a dict)
    if tuple(int(v) for v in np.__version__.split(".")[:2]) < (2, 3):
        try:
            np.pad(a, widths)
        except Exception as numpy_error:  # noqa: BLE001 (the type is the point)
            error_of_ndpad = type(numpy_error)
    else:
        error_of_ndpad = error
    with pytest.raises(error_of_ndpad):
        ndpad.pad(a, widths)
    with pytest.raises(error, match="pad_width|index"):
        ndpad.pad_packed(np.zeros(2, np.uint8), (2, 3), widths, bits=4)
    if tuple(int(v) for v in np.__version__.split(".")[:2]) >= (2, 3):
        with pytest.raises(error):
            np.pad(a, widths)
