"""Bad arguments raise what numpy.pad raises for them (same exception type)."""

import warnings

import numpy as np
import pytest

import ndpad


def numpy_error(call):
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - any exception type is the point
        return type(exc)
    return None


A2 = np.arange(6, dtype=np.float32).reshape(2, 3)
E2 = np.zeros((0, 3))

BAD = [
    ("negative scalar", A2, -1, {}),
    ("negative pair", A2, (1, -2), {}),
    ("negative per axis", A2, ((1, 2), (0, -1)), {}),
    ("float width", A2, 1.5, {}),
    ("float pairs", A2, ((1.0, 2.0), (0.0, 1.0)), {}),
    ("unsigned width", A2, np.uint8(1), {}),
    ("bool width", A2, True, {}),
    ("string width", A2, "2", {}),
    ("None width", A2, None, {}),
    ("too many axes", A2, [[1, 2], [3, 4], [5, 6]], {}),
    ("three numbers", A2, [1, 2, 3], {}),
    ("ragged", A2, ((1, 2), (3,)), {}),
    ("3-d widths", A2, np.ones((2, 2, 2), dtype=int), {}),
    ("unknown mode", A2, 1, {"mode": "mirror"}),
    ("mode None", A2, 1, {"mode": None}),
    ("mode list", A2, 1, {"mode": ["edge"]}),
    ("constant kw with edge", A2, 1, {"mode": "edge", "constant_values": 3}),
    ("reflect_type with wrap", A2, 1, {"mode": "wrap", "reflect_type": "even"}),
    ("stat_length with constant", A2, 1, {"mode": "constant", "stat_length": 2}),
    ("unknown kwarg", A2, 1, {"mode": "constant", "bogus": 1}),
    ("constant values shape", A2, 1, {"constant_values": [[1, 2, 3]]}),
    ("constant values 3 axes", A2, 1, {"constant_values": [[1, 2], [3, 4], [5, 6]]}),
    ("constant value string", A2, 1, {"constant_values": "abc"}),
    ("constant value string, zero width", A2, 0, {"constant_values": "abc"}),
    ("edge on empty axis", E2, 1, {"mode": "edge"}),
    ("reflect on empty axis", E2, ((1, 0), (0, 0)), {"mode": "reflect"}),
    ("wrap on empty axis", E2, 2, {"mode": "wrap"}),
    ("symmetric on empty axis", E2, 1, {"mode": "symmetric"}),
    ("huge pad", A2, 2**62, {}),
    ("negative stat_length", A2, 1, {"mode": "mean", "stat_length": -1}),
]


@pytest.mark.parametrize("name,array,pad_width,kwargs", BAD, ids=[b[0] for b in BAD])
def test_same_exception_type_as_numpy(name, array, pad_width, kwargs):
    kwargs = dict(kwargs)
    mode = kwargs.pop("mode", "constant")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = numpy_error(lambda: np.pad(array, pad_width, mode, **kwargs))
        assert want is not None, "numpy.pad accepts this: %s" % name
        with pytest.raises(want):
            ndpad.pad(array, pad_width, mode, **kwargs)


def test_cast_warnings_match_numpy():
    """Values numpy casts with a warning are cast (and warned about) the same way."""
    a = np.arange(4, dtype=np.uint8)
    with warnings.catch_warnings(record=True) as w_np:
        warnings.simplefilter("always")
        want = np.pad(a, 1, constant_values=300)
    with warnings.catch_warnings(record=True) as w_nd:
        warnings.simplefilter("always")
        got = ndpad.pad(a, 1, constant_values=300)
    assert got.tolist() == want.tolist()
    assert {type(w.message) for w in w_nd} == {type(w.message) for w in w_np}
