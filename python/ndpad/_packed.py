"""Sub-byte elements: tensors of 1-, 2- or 4-bit elements packed in a uint8 buffer, the
first element in the low bits of a byte (ONNX's int4/uint4/float4e2m1/int2/uint2 order),
padded by libndpad's ndpad_bits_pad without unpacking.

    pad_packed              numpy.pad's pad_width and modes
    crop_pad_packed         crop_pad's pads_begin/pads_end (negative crops), interior
    center_crop_pad_packed  ONNX CenterCropPad
    pack, unpack            small integers to and from the packed form (numpy only)
"""

import operator

import numpy as np

from . import _lib
from ._args import int_list, pad_widths, per_axis, threads_arg

__all__ = ["pad_packed", "crop_pad_packed", "center_crop_pad_packed", "pack", "unpack"]

_PACKED_MODES = ("constant", "edge", "reflect", "symmetric", "wrap")


def _bits_arg(bits):
    b = operator.index(bits)  # TypeError for floats, strings, None
    if b not in (1, 2, 4):
        raise ValueError("bits must be 1, 2 or 4 (elements of 8 bits or more are ordinary "
                         "dtypes: use ndpad.pad), got %d" % b)
    return b


def _count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _shape_arg(shape):
    dims = tuple(int_list(shape, "shape"))
    if len(dims) > _lib.MAX_RANK:
        raise ValueError("ndpad supports at most %d axes, got %d" % (_lib.MAX_RANK, len(dims)))
    for k, d in enumerate(dims):
        if d < 0:
            raise ValueError("shape[%d] = %d is negative" % (k, d))
    return dims


def _offset_arg(value, name):
    v = operator.index(value)
    if not 0 <= v < 2**62:
        raise ValueError("%s must be in [0, 2**62), got %d" % (name, v))
    return v


def _value_byte(value, bits):
    """One element's bits from a Python or numpy integer in [-2**(bits-1), 2**bits - 1]
    (signed and unsigned readings of the same bits both work)."""
    arr = np.asarray(value)
    if arr.ndim != 0:
        raise ValueError("packed elements take one constant value, got shape %s" % (arr.shape,))
    if arr.dtype.kind == "b":
        v = int(arr)
    elif arr.dtype.kind in "iu":
        v = int(arr)
    else:
        raise TypeError("the constant value of packed elements must be an integer (the "
                        "element's bits), got %r" % (value,))
    if not -(1 << (bits - 1)) <= v < (1 << bits):
        raise ValueError("constant value %d does not fit in %d bits (range [%d, %d])"
                         % (v, bits, -(1 << (bits - 1)), (1 << bits) - 1))
    return v & ((1 << bits) - 1)


def _bytes_for(bit_offset, count, bits):
    return (bit_offset + count * bits + 7) // 8


def _source(packed, need, shape, bits, bit_offset):
    """The input's bytes as a C-contiguous uint8 array, checked to hold the tensor."""
    if isinstance(packed, (bytes, bytearray, memoryview)):
        src = np.frombuffer(packed, dtype=np.uint8)
    else:
        src = np.asarray(packed)
        if src.dtype != np.uint8:
            raise TypeError("packed must be a uint8 array (or bytes), got dtype %s" % src.dtype)
        src = np.ascontiguousarray(src).reshape(-1)
    if src.size < need:
        raise ValueError("packed holds %d bytes, but %d elements of %d bits from bit %d need %d"
                         % (src.size, _count(shape), bits, bit_offset, need))
    return src


def _target(out, need):
    if not isinstance(out, np.ndarray):
        raise TypeError("out must be a numpy.ndarray, not %s" % type(out).__name__)
    if out.dtype != np.uint8:
        raise ValueError("out has dtype %s but packed elements are written to uint8" % out.dtype)
    if not out.flags.c_contiguous:
        raise ValueError("out must be C-contiguous (its bytes hold the packed elements)")
    if not out.flags.writeable:
        raise ValueError("output array is read-only")
    if out.size < need:
        raise ValueError("out holds %d bytes but the result needs %d" % (out.size, need))
    return out


def _run(packed, shape, bits, mode, pads_begin, pads_end, interior, value, bit_offset,
         threads, out, out_bit_offset):
    src_need = _bytes_for(bit_offset, _count(shape), bits)
    problem, keep = _lib.make_problem(_lib.MODES[mode], 1, shape, pads_begin, pads_end,
                                      interior=interior,
                                      pad_value=bytes([value]) if mode == "constant" else None)
    bits_problem = _lib.make_bits_problem(problem, bits, bit_offset, out_bit_offset)
    out_shape = _lib.bits_output_shape(bits_problem)  # validates; libndpad's message
    need = _bytes_for(out_bit_offset, _count(out_shape), bits)
    result = np.zeros(need, dtype=np.uint8) if out is None else _target(out, need)
    src = _source(packed, src_need, shape, bits, bit_offset) if _count(shape) else \
        np.zeros(1, np.uint8)
    if out is not None and np.may_share_memory(src, result):
        src = src.copy()  # libndpad's in-place rule is exact; any other overlap is undefined
    _lib.run_bits(bits_problem, src.ctypes.data, result.ctypes.data, threads)
    del keep
    return result


def _common_args(bits, threads, shape, mode):
    """pad_packed's and crop_pad_packed's bits, threads and shape, checked; the mode too."""
    bits, threads, shape = _bits_arg(bits), threads_arg(threads), _shape_arg(shape)
    if not isinstance(mode, str) or mode not in _PACKED_MODES:
        raise ValueError("mode %r is not supported for packed elements (one of %s)"
                         % (mode, ", ".join(_PACKED_MODES)))
    return bits, threads, shape


def pad_packed(packed, shape, pad_width, mode="constant", *, bits, constant_values=0,
               bit_offset=0, threads=0, out=None, out_bit_offset=0):
    """numpy.pad of a tensor of `bits`-bit elements packed in bytes (first element in the
    low bits of a byte, as ONNX packs int4 and int2), without unpacking it.

    packed: a uint8 array or bytes holding the tensor from bit `bit_offset` (bit 0 is the
        low bit of packed[0]).
    shape: the tensor's shape in elements (C order).
    pad_width, mode: as numpy.pad's; mode one of "constant", "edge", "reflect",
        "symmetric", "wrap".
    bits: 1, 2 or 4 (keyword-only).
    constant_values: one integer, the pad element's bits read as signed or unsigned
        (-1 and 15 are the same int4).
    threads: as in ndpad.pad.
    out, out_bit_offset: a C-contiguous uint8 array to write the result into, from bit
        out_bit_offset; its bits outside the result's elements are kept. Returned.

    Returns a new uint8 array of ceil(n * bits / 8) bytes for the n elements of
    numpy.pad's output shape (the last byte's spare high bits zero), or `out`."""
    bits, threads, shape = _common_args(bits, threads, shape, mode)
    widths = pad_widths(pad_width, len(shape))
    value = _value_byte(constant_values, bits) if mode == "constant" else 0
    return _run(packed, shape, bits, mode, [b for b, _ in widths], [e for _, e in widths],
                None, value, _offset_arg(bit_offset, "bit_offset"), threads, out,
                _offset_arg(out_bit_offset, "out_bit_offset"))


def crop_pad_packed(packed, shape, pads_begin, pads_end, mode="constant", value=0, *, bits,
                    interior=None, bit_offset=0, threads=0, out=None, out_bit_offset=0):
    """ndpad.crop_pad for packed `bits`-bit elements (see pad_packed for packed, shape,
    bits, bit_offset, out, out_bit_offset): pads_begin, pads_end, interior one integer or
    one per axis, negative pads crop (padded borders take their values from the whole
    input, as OpenVINO Pad-12), interior elements of `value` between neighbours (mode
    "constant" only). Invalid problems raise NdpadValueError with libndpad's message."""
    bits, threads, shape = _common_args(bits, threads, shape, mode)
    ndim = len(shape)
    pb = per_axis(pads_begin, ndim, "pads_begin")
    pe = per_axis(pads_end, ndim, "pads_end")
    inter = None if interior is None else per_axis(interior, ndim, "interior")
    byte = _value_byte(value, bits) if mode == "constant" else 0
    return _run(packed, shape, bits, mode, pb, pe, inter, byte,
                _offset_arg(bit_offset, "bit_offset"), threads, out,
                _offset_arg(out_bit_offset, "out_bit_offset"))


def center_crop_pad_packed(packed, shape, target_shape, axes=None, *, bits, bit_offset=0,
                           threads=0, out=None, out_bit_offset=0):
    """ONNX CenterCropPad (ndpad.center_crop_pad) for packed `bits`-bit elements (see
    pad_packed for packed, shape, bits, bit_offset, out, out_bit_offset): each listed axis
    cropped or zero-padded to its extent in target_shape around the centre, ONNX's rule for
    odd differences. The C call ndpad_onnx_center_crop_pad_typed() does the same for ONNX's
    4- and 2-bit types at opset 0."""
    bits = _bits_arg(bits)
    shape = _shape_arg(shape)
    ndim = len(shape)
    target = int_list(target_shape, "target_shape")
    axis_list = None if axes is None else int_list(axes, "axes")
    _lib.check_center_crop_pad(shape, 1, target, axis_list)  # libndpad's checks and messages
    pb, pe = [0] * ndim, [0] * ndim
    for t, a in zip(target, range(ndim) if axis_list is None else axis_list):
        a = a + ndim if a < 0 else a
        diff = t - shape[a]
        pb[a] = diff // 2 if diff >= 0 else -((-diff) // 2)
        pe[a] = diff - pb[a]
    return crop_pad_packed(packed, shape, pb, pe, "constant", 0, bits=bits,
                           bit_offset=bit_offset, threads=threads, out=out,
                           out_bit_offset=out_bit_offset)


def pack(values, bits):
    """Small integers (any shape, C order) packed `bits` to an element, first element in the
    low bits of a byte; the last byte's spare bits zero. Values in [-2**(bits-1), 2**bits)."""
    bits = _bits_arg(bits)
    v = np.asarray(values)
    if v.dtype.kind == "f" and not isinstance(values, np.ndarray):
        # Python ints beyond 64 bits make numpy pick float64 ([-2**63 - 1, 0]): as ints
        exact = np.asarray(values, dtype=object)
        if all(isinstance(i, (int, np.integer)) for i in exact.reshape(-1).tolist()):
            v = exact
    if v.dtype.kind == "O":  # Python ints beyond 64 bits: checked exactly, as ints
        try:
            v = np.array([operator.index(i) for i in v.reshape(-1).tolist()], dtype=object)
        except TypeError:
            raise TypeError("pack takes integers, got %r" % (values,)) from None
    elif v.dtype.kind not in "iub":
        raise TypeError("pack takes integers, got dtype %s" % v.dtype)
    v = v.reshape(-1)
    # The range check in the values' own type (uint64 above 2**63 must not wrap first).
    if v.size and (v.min() < -(1 << (bits - 1)) or v.max() >= (1 << bits)):
        raise ValueError("values do not fit in %d bits (range [%d, %d])"
                         % (bits, -(1 << (bits - 1)), (1 << bits) - 1))
    v = v.astype(np.int64)
    per = 8 // bits
    lanes = np.zeros((v.size + per - 1) // per * per, dtype=np.uint8)
    lanes[:v.size] = (v & ((1 << bits) - 1)).astype(np.uint8)
    shifts = (np.arange(per, dtype=np.uint8) * bits).astype(np.uint8)
    return np.bitwise_or.reduce(lanes.reshape(-1, per) << shifts, axis=1).astype(np.uint8)


def unpack(packed, count, bits, *, bit_offset=0, signed=False):
    """The `count` elements of `bits` bits in `packed` from bit `bit_offset`, one per byte
    (uint8, or int8 with the sign extended when `signed`)."""
    bits = _bits_arg(bits)
    count = operator.index(count)
    if count < 0:  # numpy's error for a negative extent
        raise ValueError("count must be >= 0 (negative dimensions are not allowed), got %d"
                         % count)
    bit_offset = _offset_arg(bit_offset, "bit_offset")
    src = _source(packed, _bytes_for(bit_offset, count, bits), (count,), bits, bit_offset)
    all_bits = np.unpackbits(src, bitorder="little")[bit_offset:bit_offset + count * bits]
    weights = (1 << np.arange(bits)).astype(np.uint8)
    values = (all_bits.reshape(count, bits) * weights).sum(axis=1).astype(np.uint8)
    if signed:
        return ((values.astype(np.int16) ^ (1 << (bits - 1))) - (1 << (bits - 1))).astype(
            np.int8)
    return values
