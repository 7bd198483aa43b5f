"""ndpad.pad_packed, crop_pad_packed, center_crop_pad_packed (1-, 2- and 4-bit elements
packed in bytes, first element in the low bits) against numpy: unpack the bits
(np.unpackbits), pad the elements with np.pad (or the tests' references), pack again
(np.packbits). Guard bytes around every output; bits outside the output kept."""

import itertools

import numpy as np
import pytest

import ndpad
import reference
from test_center_crop_pad import onnx_center_crop_pad

MODES = ("constant", "edge", "reflect", "symmetric", "wrap")


def np_unpack(packed, count, bits, bit_offset=0):
    """The elements, one per byte: numpy's own bit order "little" is ONNX's packing."""
    flat = np.unpackbits(np.asarray(packed, dtype=np.uint8), bitorder="little")
    chunk = flat[bit_offset:bit_offset + count * bits].reshape(count, bits).astype(np.uint16)
    return (chunk << np.arange(bits, dtype=np.uint16)).sum(axis=1).astype(np.uint8)


def np_pack_into(buf, values, bits, bit_offset=0):
    """Writes `values` (elements) into `buf` from bit `bit_offset`, keeping every other bit."""
    flat = np.unpackbits(buf, bitorder="little")
    v = np.asarray(values, dtype=np.uint8).reshape(-1)
    elem_bits = (v[:, None] >> np.arange(bits, dtype=np.uint8)) & 1
    flat[bit_offset:bit_offset + v.size * bits] = elem_bits.reshape(-1)
    buf[...] = np.packbits(flat, bitorder="little")[:buf.size]
    return buf


def packed_bytes(count, bits, bit_offset=0):
    return (bit_offset + count * bits + 7) // 8


def random_tensor(rng, shape, bits, bit_offset):
    """Random elements and their packing from bit_offset, the bits around them random too."""
    n = int(np.prod(shape)) if shape else 1
    values = rng.integers(0, 1 << bits, size=n, dtype=np.uint8)
    buf = rng.integers(0, 256, size=packed_bytes(n, bits, bit_offset) + 2, dtype=np.uint8)
    np_pack_into(buf, values, bits, bit_offset)
    return values.reshape(shape), buf


def expected_bytes(values, bits):
    """ONNX's packing of `values`: spare bits of the last byte zero."""
    v = np.asarray(values).reshape(-1)
    return np_pack_into(np.zeros(packed_bytes(v.size, bits), np.uint8), v, bits)


@pytest.mark.parametrize("bits", [1, 2, 4])
@pytest.mark.parametrize("mode", MODES)
def test_pad_packed_matches_numpy(bits, mode):
    rng = np.random.default_rng(1000 * bits + MODES.index(mode))
    for _ in range(60):
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(d) for d in rng.integers(1, 9 if ndim < 3 else 5, size=ndim))
        widths = [tuple(int(w) for w in rng.integers(0, 11, size=2)) for _ in range(ndim)]
        bit_offset = int(rng.integers(0, 8))
        values, buf = random_tensor(rng, shape, bits, bit_offset)
        value = int(rng.integers(-(1 << (bits - 1)), 1 << bits))
        # numpy >= 2.1's numpy.pad (pads beyond the extent repeat the pattern; Debian's
        # numpy 1.24 differs there): np.pad itself up to the extent, the tests' reference
        # of numpy 2.1's mapping beyond
        fits = all(b < d and e < d for d, (b, e) in zip(shape, widths))
        if mode == "constant" or fits:
            kwargs = {"constant_values": value & ((1 << bits) - 1)} if mode == "constant" \
                else {}
            want = np.pad(values, widths, mode, **kwargs)
        else:
            want = reference.pad(values, widths, mode)
        got = ndpad.pad_packed(buf, shape, widths, mode, bits=bits, bit_offset=bit_offset,
                               **({"constant_values": value} if mode == "constant" else {}))
        assert got.dtype == np.uint8 and got.ndim == 1
        np.testing.assert_array_equal(got, expected_bytes(want, bits))


@pytest.mark.parametrize("bits", [1, 2, 4])
def test_out_keeps_every_bit_outside_the_result(bits):
    rng = np.random.default_rng(77 + bits)
    for _ in range(40):
        shape = (int(rng.integers(1, 6)), int(rng.integers(1, 13)))
        widths = [(int(rng.integers(0, 4)), int(rng.integers(0, 4))) for _ in shape]
        mode = MODES[int(rng.integers(0, 5))]
        values, buf = random_tensor(rng, shape, bits, 0)
        want = reference.pad(values, widths, mode) if mode != "constant" else \
            np.pad(values, widths, mode)
        out_offset = int(rng.integers(0, 16))
        guard = 8
        size = packed_bytes(want.size, bits, out_offset) + 2 * guard
        out = rng.integers(0, 256, size=size, dtype=np.uint8)
        expect = out.copy()
        np_pack_into(expect[guard:], want, bits, out_offset)
        body = out[guard:]
        assert ndpad.pad_packed(buf, shape, widths, mode, bits=bits, out=body,
                                out_bit_offset=out_offset) is body
        np.testing.assert_array_equal(out, expect)


@pytest.mark.parametrize("bits", [1, 2, 4])
def test_crop_pad_packed_matches_reference(bits):
    rng = np.random.default_rng(500 + bits)
    for _ in range(80):
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(d) for d in rng.integers(1, 7, size=ndim))
        mode = MODES[int(rng.integers(0, 5))]
        pb = [int(rng.integers(-d + 1, 6)) for d in shape]
        pe = [int(rng.integers(-d + 1 + max(0, -b), 6)) for d, b in zip(shape, pb)]
        interior = [int(v) for v in rng.integers(0, 3, size=ndim)] if mode == "constant" \
            else None
        bit_offset = int(rng.integers(0, 8))
        values, buf = random_tensor(rng, shape, bits, bit_offset)
        value = int(rng.integers(0, 1 << bits))
        want = reference.crop_pad(values, pb, pe, mode, value, interior)
        got = ndpad.crop_pad_packed(buf, shape, pb, pe, mode, value, bits=bits,
                                    interior=interior, bit_offset=bit_offset)
        np.testing.assert_array_equal(got, expected_bytes(want, bits))


@pytest.mark.parametrize("bits", [1, 2, 4])
def test_center_crop_pad_packed_matches_onnx_reference(bits):
    rng = np.random.default_rng(900 + bits)
    for _ in range(60):
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(d) for d in rng.integers(0, 9, size=ndim))
        if rng.integers(0, 2):
            axes = [int(a) for a in rng.permutation(ndim)[:int(rng.integers(0, ndim + 1))]]
            axes = [a - ndim if rng.integers(0, 2) else a for a in axes]
        else:
            axes = None
        target = [int(t) for t in rng.integers(0, 11, size=ndim if axes is None else len(axes))]
        values, buf = random_tensor(rng, shape, bits, 0)
        want = onnx_center_crop_pad(values, target, axes)
        got = ndpad.center_crop_pad_packed(buf, shape, target, axes, bits=bits)
        np.testing.assert_array_equal(got, expected_bytes(want, bits))


def test_int4_example_and_pack_unpack():
    # the header's example: int4 [1, 2, 3], pads (1, 2), -1
    packed = ndpad.pack([1, 2, 3], 4)
    np.testing.assert_array_equal(packed, [0x21, 0x03])
    got = ndpad.pad_packed(packed, (3,), (1, 2), bits=4, constant_values=-1)
    np.testing.assert_array_equal(got, [0x1F, 0x32, 0xFF])
    np.testing.assert_array_equal(ndpad.unpack(got, 6, 4, signed=True), [-1, 1, 2, 3, -1, -1])
    np.testing.assert_array_equal(ndpad.unpack(got, 6, 4), [15, 1, 2, 3, 15, 15])
    rng = np.random.default_rng(5)
    for bits, offset in itertools.product((1, 2, 4), range(8)):
        values = rng.integers(0, 1 << bits, size=37)
        buf = np.zeros(packed_bytes(37, bits, offset), np.uint8)
        np_pack_into(buf, values, bits, offset)
        np.testing.assert_array_equal(ndpad.unpack(buf, 37, bits, bit_offset=offset), values)
        if offset == 0:
            np.testing.assert_array_equal(ndpad.pack(values, bits), buf)


def test_bytes_input_and_empty_results():
    got = ndpad.pad_packed(bytes([0x21, 0x43, 0x65]), (2, 3), ((0, 0), (1, 0)), "wrap", bits=4)
    np.testing.assert_array_equal(ndpad.unpack(got, 8, 4), [3, 1, 2, 3, 6, 4, 5, 6])
    assert ndpad.pad_packed(np.zeros(0, np.uint8), (0, 3), 0, bits=2).size == 0
    # an empty axis padded with a constant: only the value
    got = ndpad.pad_packed(b"", (0,), 3, bits=2, constant_values=2)
    np.testing.assert_array_equal(ndpad.unpack(got, 6, 2), [2] * 6)


def test_numpy_like_errors():
    buf = np.zeros(4, np.uint8)
    with pytest.raises(ValueError, match="bits must be 1, 2 or 4"):
        ndpad.pad_packed(buf, (4,), 1, bits=3)
    with pytest.raises(TypeError):
        ndpad.pad_packed(buf, (4,), 1, bits=2.0)
    with pytest.raises(ValueError, match="index can't contain negative values"):
        ndpad.pad_packed(buf, (4,), -1, bits=4)
    with pytest.raises(TypeError, match="integral"):
        ndpad.pad_packed(buf, (4,), 1.5, bits=4)
    with pytest.raises(ValueError, match="not supported for packed elements"):
        ndpad.pad_packed(buf, (4,), 1, "mean", bits=4)
    with pytest.raises(ValueError, match="does not fit in 4 bits"):
        ndpad.pad_packed(buf, (4,), 1, bits=4, constant_values=16)
    with pytest.raises(ValueError, match="does not fit in 2 bits"):
        ndpad.pad_packed(buf, (4,), 1, bits=2, constant_values=-3)
    with pytest.raises(ValueError, match="one constant value"):
        ndpad.pad_packed(buf, (4,), 1, bits=4, constant_values=(1, 2))
    with pytest.raises(TypeError, match="uint8"):
        ndpad.pad_packed(np.zeros(4, np.int16), (4,), 1, bits=4)
    with pytest.raises(ValueError, match="packed holds 4 bytes, but 9 elements of 4 bits"):
        ndpad.pad_packed(buf, (9,), 1, bits=4)
    with pytest.raises(ValueError, match="shape\\[1\\] = -2 is negative"):
        ndpad.pad_packed(buf, (2, -2), 1, bits=4)
    with pytest.raises(ValueError, match="out holds 2 bytes but the result needs 3"):
        ndpad.pad_packed(buf, (4,), 1, bits=4, out=np.zeros(2, np.uint8))
    with pytest.raises(ValueError, match="read-only"):
        out = np.zeros(8, np.uint8)
        out.flags.writeable = False
        ndpad.pad_packed(buf, (4,), 1, bits=4, out=out)
    # libndpad's own checks, its message naming the axis
    with pytest.raises(ndpad.NdpadValueError, match="shape\\[0\\]|axis 0"):
        ndpad.pad_packed(buf, (0,), 1, "edge", bits=4)
    with pytest.raises(ndpad.NdpadValueError, match="interior"):
        ndpad.crop_pad_packed(buf, (4,), 0, 0, "edge", bits=4, interior=1)
    with pytest.raises(ndpad.NdpadValueError, match="axes\\[1\\] = 0 repeats axis 0"):
        ndpad.center_crop_pad_packed(buf, (2, 2), [1, 1], [0, 0], bits=4)
