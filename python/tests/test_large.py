"""64-bit sizes end to end through the Python layers (issue 35): ndpad.pad on an output of
more than 2^32 elements (4 GiB of uint8) and on input strides beyond 2^31 bytes,
ndpad.dask windows at offsets past 2^32, and torch's F.pad through ndpad's native kernels
on an output of more than 2^32 elements. 1-byte elements, sampled rows
(both borders, the interior, the rows around offsets 2^31 and 2^32) checked against
reference.source_index. About 4.4 GB of memory and a few seconds each; other libraries
corrupt such pads silently (TensorFlow's reflect above 2^31 output elements, torch's
reflect of views above 2^32 elements)."""

import mmap
import os

import numpy as np
import pytest

import ndpad
import reference

P31, P32 = 1 << 31, 1 << 32
PAD_VALUE = 0x5C
WIDE = (1000, 60000)
WIDE_PADS = ((65000, 536), (3000, 2544))  # output 66536 x 65544 = 4.36e9 elements


def in_value(i, j):
    """The input element at (i, j) (numpy arrays of indices, broadcast), as uint8."""
    i = np.asarray(i, dtype=np.int64)
    j = np.asarray(j, dtype=np.int64)
    return ((i * 131 + j * 7 + (i >> 9) + (j >> 13) + 1) & 0xFF).astype(np.uint8)


def wide_input():
    i = np.arange(WIDE[0], dtype=np.int64)[:, None]
    j = np.arange(WIDE[1], dtype=np.int64)[None, :]
    a = ((i * 131 + (i >> 9) + 1) & 0xFF).astype(np.uint8)
    b = ((j * 7 + (j >> 13)) & 0xFF).astype(np.uint8)
    return a + b  # uint8 wraps: the same bytes as in_value


def source_map(mode, n, b, d):
    return np.array([-1 if s is None else s
                     for s in (reference.source_index(mode, o - b, d) for o in range(n))],
                    dtype=np.int64)


def expected_rows(mode, rows, cols, shape, pads):
    """The expected block rows x cols of the pad of an in_value input of `shape`."""
    s0 = source_map(mode, max(rows) + 1, pads[0][0], shape[0])[rows]
    s1 = source_map(mode, max(cols) + 1, pads[1][0], shape[1])[cols]
    want = in_value(s0[:, None], s1[None, :])
    want[(s0[:, None] < 0) | (s1[None, :] < 0)] = PAD_VALUE
    return want


def sampled_rows(n_rows, width, seed):
    rng = np.random.default_rng(seed)
    rows = {0, 1, 64999, 65000, 65001, 65999, 66000, n_rows - 1,
            P31 // width, P31 // width + 1, P32 // width, P32 // width + 1}
    rows |= set(int(r) for r in rng.integers(0, n_rows, 24))
    return np.array(sorted(r for r in rows if r < n_rows))


def check_wide(y, mode, seed):
    assert y.shape == (66536, 65544) and y.size > P32
    rows = sampled_rows(y.shape[0], y.shape[1], seed)
    cols = np.arange(y.shape[1])
    want = expected_rows(mode, rows, cols, WIDE, WIDE_PADS)
    got = y[rows]
    if not np.array_equal(got, want):
        r, c = np.argwhere(got != want)[0]
        pytest.fail(f"{mode}: output [{rows[r]}, {c}] (offset {rows[r] * y.shape[1] + c}) "
                    f"is {got[r, c]}, expected {want[r, c]}")


@pytest.mark.parametrize("mode", ["constant", "reflect", "wrap"])
def test_large_pad_output_beyond_2_pow_32_elements(mode):
    x = wide_input()
    kwargs = {"constant_values": PAD_VALUE} if mode == "constant" else {}
    y = ndpad.pad(x, WIDE_PADS, mode, threads=2, **kwargs)
    check_wide(y, mode, seed=len(mode))


@pytest.mark.parametrize("stride", [P31 + 17, -(P32 + 5)])
def test_large_pad_input_strides_beyond_2_pow_31_bytes(stride):
    """A view whose row stride is beyond 2^31 (2^32) bytes: an anonymous mapping of which
    only the three rows are touched."""
    span = 2 * abs(stride) + 5000
    buf = mmap.mmap(-1, span)
    try:
        base = np.ndarray((3, 5000), dtype=np.uint8, buffer=buf, offset=0,
                          strides=(abs(stride), 1))
        base[...] = in_value(np.arange(3)[:, None], np.arange(5000)[None, :])
        x = base if stride > 0 else base[::-1]
        assert x.strides[0] == stride
        dense = np.ascontiguousarray(x)
        for mode in ["constant", "edge", "reflect", "symmetric", "wrap"]:
            got = ndpad.pad(x, ((2, 2), (3, 3)), mode)
            np.testing.assert_array_equal(got, np.pad(dense, ((2, 2), (3, 3)), mode))
            got = ndpad.crop_pad(x, [2, -1], [-1, 3], mode, threads=2)
            want = ndpad.crop_pad(dense, [2, -1], [-1, 3], mode)
            np.testing.assert_array_equal(got, want)
        del base, x
    finally:
        buf.close()


def test_large_dask_windows_past_2_pow_32():
    """ndpad.dask on a 70000 x 65536 uint8 array (4.6 GB, generated block by block): the
    blocks of a few slices past offset 2^32 are computed (window plans at those offsets)
    and compared with the reference."""
    da = pytest.importorskip("dask.array")
    import ndpad.dask

    shape = (70000, 65536)
    assert shape[0] * shape[1] > P32

    def block(block_info=None):
        (r0, r1), (c0, c1) = block_info[None]["array-location"]
        return in_value(np.arange(r0, r1)[:, None], np.arange(c0, c1)[None, :])

    x = da.map_blocks(block, dtype=np.uint8, chunks=((1024,) * 68 + (368,), (16384,) * 4))
    pads = ((3, 4), (5, 2))
    slices = [(slice(66000, 66040), slice(64990, 65543)), (slice(69990, 70007), slice(0, 300)),
              (slice(65531, 65541), slice(30000, 30500))]
    for mode in ["constant", "edge", "reflect", "symmetric", "wrap"]:
        kwargs = {"constant_values": PAD_VALUE} if mode == "constant" else {}
        y = ndpad.dask.pad(x, pads, mode, **kwargs)
        assert y.shape == (70007, 65543)
        for rs, cs in slices:
            got = y[rs, cs].compute(scheduler="synchronous")
            want = expected_rows(mode, np.arange(rs.start, rs.stop),
                                 np.arange(cs.start, cs.stop), shape, pads)
            np.testing.assert_array_equal(got, want, err_msg=f"{mode} {rs} {cs}")


def test_large_torch_output_beyond_2_pow_32_elements():
    """F.pad's constant mode (torch's reflection and replication kernels take no uint8, and
    ndpad's keep torch's dtype rules) on a 4.06 GiB output, through the native kernels."""
    torch = pytest.importorskip("torch", minversion="2.4")
    import torch.nn.functional as F
    import ndpad.torch as nt
    from ndpad import _torch_native
    if _torch_native.load() is None:
        if os.environ.get("NDPAD_TEST_NATIVE") == "1":
            pytest.fail("NDPAD_TEST_NATIVE=1 but the native kernels are not built: %s"
                        % nt.native_status())
        pytest.skip("native kernels not built: %s" % nt.native_status())
    x = torch.from_numpy(wide_input()).reshape(1, 1, *WIDE)
    pad = (WIDE_PADS[1][0], WIDE_PADS[1][1], WIDE_PADS[0][0], WIDE_PADS[0][1])
    nt.install(threshold=0, native=True)
    try:
        before = torch.ops.ndpad.calls()[0]
        y = F.pad(x, pad, "constant", PAD_VALUE)
        assert torch.ops.ndpad.calls()[0] == before + 1, "ndpad's kernel did not run"
    finally:
        nt.uninstall()
    check_wide(y.numpy()[0, 0], "constant", seed=7)
