"""ndpad.torch.pad(x, pad, value=t) with `t` a tensor of one value per channel (dimension
1; beyond F.pad): the operator ndpad::pad_channels against torch indexing on every dtype
class and memory format, with crops; its gradient (input and values) under gradcheck and
double backward; opcheck (schema, fake kernel, autograd registration, AOT dispatch) and
torch.compile(fullgraph=True); the errors; and F.pad's float value still a float."""

import pytest

torch = pytest.importorskip("torch", minversion="2.4")

import ndpad.torch as nt  # noqa: E402

DTYPES = [torch.uint8, torch.int32, torch.float16, torch.bfloat16, torch.float32,
          torch.float64, torch.complex64]


def expected(x, pad, values):
    """The values along dimension 1, the input over the elements it keeps."""
    ndim = x.dim()
    pb, pe = [0] * ndim, [0] * ndim
    for i in range(len(pad) // 2):
        pb[ndim - 1 - i], pe[ndim - 1 - i] = pad[2 * i], pad[2 * i + 1]
    shape = [d + b + e for d, b, e in zip(x.shape, pb, pe)]
    view = [1] * ndim
    view[1] = -1
    out = values.to(x.dtype).view(view).expand(shape).clone()
    out_sl, in_sl = [], []
    for d, b, e in zip(x.shape, pb, pe):
        lo, hi = max(-b, 0), max(d - max(-e, 0), max(-b, 0))
        in_sl.append(slice(lo, hi))
        out_sl.append(slice(lo + b, hi + b))
    out[tuple(out_sl)] = x[tuple(in_sl)]
    return out


def sample(dtype, fmt, shape, seed):
    g = torch.Generator().manual_seed(seed)
    x = (torch.rand(shape, generator=g) * 100).to(dtype)
    if fmt == "channels_last":
        x = x.contiguous(memory_format=torch.channels_last)
    elif fmt == "sliced":
        x = x[..., ::2] if x.shape[-1] > 1 else x
    return x


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("fmt", ["contiguous", "channels_last", "sliced"])
def test_against_indexing(dtype, fmt):
    for seed, (shape, pad) in enumerate([((2, 3, 5, 6), (1, 1, 1, 1)),
                                         ((1, 4, 7, 3), (2, 0, 0, 3)),
                                         ((2, 3, 5, 6), (-1, 2, 1, -2)),
                                         ((1, 3, 4, 4), (1, 1, 1, 1, 1, 2)),
                                         ((2, 5, 3, 3), (0, 0, 0, 0, -1, -1))]):
        x = sample(dtype, fmt, shape, seed)
        channels = x.shape[1] + (pad[4] + pad[5] if len(pad) > 4 else 0)
        values = torch.arange(channels, dtype=torch.float64) * 3 + 1
        got = nt.pad(x, pad, value=values)
        want = expected(x, pad, values)
        assert got.dtype == x.dtype and got.shape == want.shape
        assert torch.equal(got, want), (shape, pad)
        if fmt == "channels_last" and min(pad) >= 0:
            assert got.is_contiguous(memory_format=torch.channels_last)


def test_rank_3_and_5_and_threads():
    x = torch.rand(2, 3, 4)
    v = torch.tensor([1.0, 2.0, 3.0])
    assert torch.equal(nt.pad(x, (2, 1), value=v, threads=1), expected(x, (2, 1), v))
    x = torch.rand(1, 2, 3, 4, 5).contiguous(memory_format=torch.channels_last_3d)
    v = torch.tensor([-1.0, 7.0])
    assert torch.equal(nt.pad(x, (1, 1, 1, 1, 1, 1), value=v, threads=2),
                       expected(x, (1, 1, 1, 1, 1, 1), v))


def test_gradients():
    x = torch.rand(2, 3, 3, 4, dtype=torch.float64, requires_grad=True)
    v = torch.rand(3, dtype=torch.float64, requires_grad=True)
    for pad in [(1, 2, 0, 1), (-1, 1, 2, -1)]:
        assert torch.autograd.gradcheck(lambda a, b: nt.pad(a, pad, value=b), (x, v))
        assert torch.autograd.gradgradcheck(lambda a, b: nt.pad(a, pad, value=b), (x, v))
    # each value's gradient: the sum of the output's gradient over its channel's border
    y = nt.pad(x, (1, 1, 1, 1), value=v)
    y.sum().backward()
    assert torch.equal(v.grad, torch.full((3,), 2 * (5 * 6 - 3 * 4), dtype=torch.float64))
    assert torch.equal(x.grad, torch.ones_like(x))


def test_opcheck_and_compile():
    from torch.library import opcheck
    for fmt in ["contiguous", "channels_last"]:
        x = sample(torch.float32, fmt, (2, 3, 4, 5), 1)
        v = torch.tensor([0.5, 1.5, 2.5])
        opcheck(torch.ops.ndpad.pad_channels.default, (x, [1, 1, 1, 1], v, None))
        opcheck(torch.ops.ndpad.pad_channels.default,
                (x.double().requires_grad_(), [1, 0, 2, 1], v.double().requires_grad_(), 1))
    f = torch.compile(lambda a, b: nt.pad(a, (1, 1, 1, 1), value=b) * 2, fullgraph=True)
    x = torch.rand(1, 3, 4, 4)
    v = torch.tensor([1.0, 2.0, 3.0])
    assert torch.equal(f(x, v), expected(x, (1, 1, 1, 1), v) * 2)


def test_errors_and_float_values():
    x = torch.rand(1, 3, 4, 4)
    with pytest.raises(RuntimeError, match="one value per channel of the output \\(3\\)"):
        nt.pad(x, (1, 1, 1, 1), value=torch.tensor([1.0, 2.0]))
    with pytest.raises(RuntimeError, match="one value per channel of the output \\(5\\)"):
        nt.pad(x, (0, 0, 0, 0, 1, 1), value=torch.tensor([1.0, 2.0, 3.0]))
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):
        nt.pad(torch.rand(4), (1, 1), value=torch.tensor([1.0, 2.0]))
    with pytest.raises(RuntimeError, match="doesn't take in value argument"):
        nt.pad(x, (1, 1), "reflect", value=torch.tensor([1.0, 2.0, 3.0]))
    # a float, a 0-d or one-element tensor: F.pad's one value
    assert torch.equal(nt.pad(x, (1, 1), value=torch.tensor(2.0)),
                       torch.nn.functional.pad(x, (1, 1), value=2.0))
    assert torch.equal(nt.pad(x, (1, 1), value=torch.tensor([2.0])),
                       torch.nn.functional.pad(x, (1, 1), value=2.0))


def test_gather_kernel_of_other_devices():
    """The composite kernel other devices run, here on CPU tensors: the same result."""
    from ndpad import _torch_ops
    for fmt in ["contiguous", "channels_last"]:
        x = sample(torch.float32, fmt, (2, 3, 5, 6), 2)
        v = torch.tensor([4.0, 5.0, 6.0])
        out = torch.empty(2, 3, 8, 6)
        _torch_ops._channels_gather_kernel(x, [0, 0, 2, -1], [0, 0, 1, 1], "constant", v, None,
                                           out)
        assert torch.equal(out, expected(x, (-1, 1, 2, 1), v))
