"""ndpad.pad dispatches as numpy.pad does (NEP 18): an array whose type implements np.pad
through __array_function__ gets its own implementation and keeps its type."""

import numpy as np
import pytest

import ndpad


class Quantity:
    """A minimal unit-carrying array: np.pad pads the magnitude and keeps the unit."""

    def __init__(self, magnitude, unit):
        self.magnitude = np.asarray(magnitude)
        self.unit = unit

    def __array__(self, dtype=None):
        return self.magnitude if dtype is None else self.magnitude.astype(dtype)

    def __array_function__(self, func, types, args, kwargs):
        if func is not np.pad:
            return NotImplemented
        array, *rest = args
        return Quantity(np.pad(array.magnitude, *rest, **kwargs), array.unit)


class Opaque:
    """Implements __array_function__ but not np.pad: numpy raises TypeError for it."""

    def __array__(self, dtype=None):
        return np.arange(3)

    def __array_function__(self, func, types, args, kwargs):
        return NotImplemented


@pytest.mark.parametrize("mode,kwargs", [("constant", {"constant_values": 7}),
                                         ("reflect", {}), ("edge", {}), ("mean", {})])
def test_override_keeps_type(mode, kwargs):
    q = Quantity(np.arange(6.0).reshape(2, 3), "m")
    got = ndpad.pad(q, ((1, 0), (2, 1)), mode, **kwargs)
    want = np.pad(q, ((1, 0), (2, 1)), mode, **kwargs)
    assert type(got) is Quantity and got.unit == "m"
    assert np.array_equal(got.magnitude, want.magnitude)


def test_override_into_out():
    q = Quantity(np.arange(3), "s")
    out = np.zeros(5, dtype=q.magnitude.dtype)
    assert ndpad.pad(q, 1, "wrap", out=out) is out
    assert out.tolist() == [2, 0, 1, 2, 0]


def test_not_implemented_is_numpys_type_error():
    with pytest.raises(TypeError):
        np.pad(Opaque(), 1)
    with pytest.raises(TypeError):
        ndpad.pad(Opaque(), 1)


def test_no_override_still_native(monkeypatch):
    # Plain arrays, subclasses that do not override, and array-likes do not go to np.pad.
    class Sub(np.ndarray):
        pass

    def boom(*args, **kwargs):
        raise AssertionError("dispatched to numpy.pad")

    monkeypatch.setattr(np, "pad", boom)
    for a in (np.arange(4), np.arange(4).view(Sub), [0, 1, 2, 3]):
        assert ndpad.pad(a, 2, "reflect").tolist() == [2, 1, 0, 1, 2, 3, 2, 1]
